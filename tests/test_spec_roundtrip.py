"""Random valid variants survive model -> YAML -> load_variant unchanged.

The strategies build every sub-model and every member of every ``kind:``
union with all of its fields drawn, and keep the cross-field rules of
:func:`bones.lang.spec.semantic_problems` (hands that fit in the set, per-count
values for exactly the allowed counts, even partnership counts...), so that
what they build is a variant the loader must accept.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

import bones.lang.spec as spec
from bones.lang.load import VariantError, load_variant
from bones.lang.spec import Variant, max_reachable_count, semantic_problems

# the language alone (no core plays): the same in both passes of .ci/run,
# so it runs in one, the Python-core pass's
pytestmark = pytest.mark.core_blind

# ------------------------------------------------------------- primitives

names = st.from_regex(r"\A[a-z0-9][a-z0-9-]{0,20}\Z")
# Text that YAML must quote or escape: words it reads as booleans or numbers,
# colons, quotes, leading spaces, line breaks and non-ASCII letters.
texts = st.one_of(
    st.text(
        alphabet=st.characters(
            codec="utf-8", exclude_categories=("Cs", "Cc", "Co", "Cn", "Zl", "Zp")
        ),
        max_size=40,
    ),
    st.sampled_from(["yes", "no", "on", "off", "y", "null", "~", "1.5", "007", "a: b", "- x", "'q'", '"q"', "#x", "two\nlines", " lead"]),
)
optional_texts = st.none() | texts


def per_count(values: st.SearchStrategy[int] | st.SearchStrategy[str], counts: list[int]) -> st.SearchStrategy:
    """One value for all counts, or one per allowed count."""
    return values | st.fixed_dictionaries({c: values for c in counts})


# -------------------------------------------------------------- metadata

sources = st.builds(spec.Source, title=texts.filter(bool), url=optional_texts, supports=optional_texts)


# --------------------------------------------------------- players, deal


@st.composite
def players(draw: st.DrawFn, counts: list[int]) -> spec.Players:
    even = [c for c in counts if c % 2 == 0]
    kind = draw(st.sampled_from(["none", "optional", "required"] if even else ["none"]))
    if kind == "none":
        partner_counts = draw(st.lists(st.integers(2, 10), max_size=3))
    else:
        partner_counts = draw(st.lists(st.sampled_from(even), min_size=0, max_size=len(even), unique=True))
    return spec.Players(
        counts=counts,
        partnerships=spec.Partnerships(kind=kind, player_counts=partner_counts),
        direction=draw(st.sampled_from(["clockwise", "counterclockwise"])),
    )


@st.composite
def deal(draw: st.DrawFn, highest: int, counts: list[int]) -> spec.DealRule:
    size = (highest + 1) * (highest + 2) // 2
    reserve_max = max(0, size - max(counts) * 1)
    uniform_reserve = draw(st.booleans())
    if uniform_reserve:
        r = draw(st.integers(0, min(reserve_max, 5)))
        reserve: int | dict[int, int] = r
        reserves = {c: r for c in counts}
    else:
        reserves = {c: draw(st.integers(0, min(size - c, 5))) for c in counts}
        reserve = reserves
    limits = {c: (size - reserves[c]) // c for c in counts}
    if draw(st.booleans()):
        hand: int | dict[int, int] = draw(st.integers(1, min(limits.values())))
    else:
        hand = {c: draw(st.integers(1, limits[c])) for c in counts}
    return spec.DealRule(hand_size=hand, reserve=reserve)


# ------------------------------------------------------------------ leads

no_double = st.sampled_from(["draw_more", "heaviest_hand", "heaviest_tile", "lightest_tile", "lot",
                             "redeal"])


def tiles_text(highest: int) -> st.SearchStrategy[str]:
    return st.builds(
        lambda a, b, spaces: f"{a}{' ' * spaces}-{' ' * spaces}{b}",
        st.integers(0, highest),
        st.integers(0, highest),
        st.integers(0, 1),
    )


def first_lead(highest: int, min_count: int, *, listed: bool = False,
               locker: bool = False) -> st.SearchStrategy:
    options = [
        st.builds(spec.LotLead),
        st.builds(spec.RandomLead, kind=st.just("random")),
        st.builds(spec.HighestDoubleLead, kind=st.just("highest_double"), if_none=no_double),
        st.builds(spec.LowestDoubleLead, kind=st.just("lowest_double"), if_none=no_double),
        st.builds(
            spec.TileLead,
            kind=st.just("tile"),
            tile=tiles_text(highest),
            if_none=st.sampled_from(["heaviest_tile", "lightest_tile", "highest_double", "lot",
                                     "redeal"]),
        ),
        st.builds(spec.SeatLead, kind=st.just("seat"), seat=st.integers(0, min_count - 1)),
        st.builds(spec.LightestTileLead, kind=st.just("lightest_tile")),
    ]
    if listed:  # a list of tiles: the first dealt leads
        options.append(st.builds(
            spec.TileLead, kind=st.just("tile"),
            tile=st.lists(tiles_text(highest), min_size=1, max_size=4),
            if_none=st.sampled_from(["heaviest_tile", "lightest_tile", "highest_double", "lot"])))
    if locker:  # as often as all the others: the locker is the after-block rule to reach
        options = [st.one_of(options), st.builds(spec.LockerLead, kind=st.just("locker"))]
    return st.one_of(options)


def later_lead(highest: int, counts: list[int]) -> st.SearchStrategy:
    options = [
        st.builds(spec.DominoerLead, after_block=first_lead(highest, min(counts), locker=True)),
        st.builds(spec.WinnerLead, kind=st.just("winner"), if_none=first_lead(highest, min(counts))),
        st.builds(spec.RotateLead, kind=st.just("rotate"), to=st.sampled_from(["next", "previous"])),
        st.builds(spec.SeriesLead, kind=st.just("series")),
        st.builds(spec.SameAsFirstLead, kind=st.just("first")),
    ]
    if counts == [2]:
        options.append(st.builds(spec.AlternateLead, kind=st.just("alternate")))
    return st.one_of(options)


def lead(highest: int, counts: list[int]) -> st.SearchStrategy:
    return st.builds(
        spec.Lead,
        first=first_lead(highest, min(counts), listed=True),
        later=later_lead(highest, counts),
        allowed=st.sampled_from(["any", "double"]),
        if_no_double=st.sampled_from(["next_seat", "draw"]),
    )


# ----------------------------------------------------------------- layout

spinner_count = st.sampled_from(["drop2", "sniff-count"]) | st.lists(st.integers(0, 4), min_size=5, max_size=5)
edge_order = st.sampled_from(["sides_first", "any", "all_four_first"])
spinners = st.one_of(
    st.builds(spec.NoSpinner),
    st.builds(spec.DoubleSpinner,
              kind=st.sampled_from(["first_double", "every_double", "led_double",
                                    "every_double_but_led"]),
              order=edge_order, count=spinner_count),
    st.builds(spec.InlineSniff, kind=st.just("inline_sniff"), count=spinner_count),
)
layouts = st.builds(spec.LayoutRule, spinner=spinners, doubles=st.sampled_from(["crosswise", "inline"]),
                    ends=st.sampled_from(["both", "both", "one"]))
turns = st.builds(spec.TurnRule, after_double=st.builds(
    spec.AfterDouble, kind=st.sampled_from(["none", "another_double", "extra_tile"]),
    repeat=st.booleans()))


def bonuses(highest: int) -> st.SearchStrategy:
    maybe = st.booleans()
    return st.builds(
        spec.Bonuses,
        capicua=st.none() | st.builds(spec.CapicuaBonus, points=st.integers(1, 50),
                                      doubles=maybe),
        last_tile=st.none() | st.builds(spec.LastTileBonus, tile=tiles_text(highest),
                                        points=st.integers(1, 100)),
        opening_pass=st.none() | st.builds(spec.OpeningPassBonus, double=st.integers(0, 50),
                                           other=st.integers(0, 50)),
        round_pass=st.sampled_from([0, 0, 25]),
        by_hand=st.none() | st.builds(spec.HandNumberBonus,
                                      points=st.lists(st.integers(0, 100), min_size=1, max_size=4),
                                      tied_hands=st.sampled_from(["count", "skip"])),
        blocked_win=st.sampled_from([0, 0, 100]),
    )


# ---------------------------------------------------------------- scoring


@st.composite
def scoring(draw: st.DrawFn, top: int) -> spec.Scoring:
    when = draw(
        st.one_of(
            st.builds(spec.NoPredicate),
            # 1..5 always divide some count the smallest layout can show
            st.builds(spec.MultipleOf, kind=st.just("multiple_of"), divisors=st.lists(st.integers(1, 5), min_size=1, max_size=3)),
            st.builds(
                spec.InList,
                kind=st.just("in_list"),
                counts=st.lists(st.integers(0, 60), max_size=4).flatmap(
                    lambda extra: st.integers(1, top).map(lambda c: [c, *extra])
                ),
            ),
            st.builds(
                spec.MatchingEnds,
                kind=st.just("matching_ends"),
                points=st.dictionaries(st.integers(2, 8), st.integers(0, 20), min_size=1, max_size=4),
            ),
        )
    )
    if isinstance(when, spec.MultipleOf):
        points = st.one_of(
            st.builds(spec.CountPoints),
            st.builds(spec.DividedPoints, kind=st.just("divided"), by=st.integers(1, 10)),
            st.builds(spec.SumOfQuotients, kind=st.just("sum_of_quotients")),
            st.builds(spec.PerDivisor, kind=st.just("per_divisor")),
            st.builds(spec.FlatPoints, kind=st.just("flat"), amount=st.integers(1, 10)),
        )
    elif isinstance(when, spec.InList):
        points = st.one_of(
            st.builds(spec.CountPoints),
            st.builds(spec.DividedPoints, kind=st.just("divided"), by=st.integers(1, 10)),
            st.builds(spec.FlatPoints, kind=st.just("flat"), amount=st.integers(1, 10)),
        )
    else:
        points = st.builds(spec.CountPoints)
    scores = not isinstance(when, spec.NoPredicate)
    muggins = st.one_of(
        st.builds(spec.MugginsOff),
        st.builds(
            spec.MugginsOn,
            kind=st.sampled_from(["transfer", "forfeit"]),
            penalise_over_claim=st.booleans(),
            over_claim_points=st.sampled_from(["lost", "caller", "claimer"]),
        ).filter(lambda m: m.kind == "transfer" or m.over_claim_points != "caller"),
    ) if scores else st.builds(spec.MugginsOff)
    get_in = draw(st.integers(0, 20) if scores else st.just(0))
    return spec.Scoring(
        when=when,
        points=draw(points),
        get_in=get_in,
        get_in_scope=draw(st.sampled_from(["hand", "match"]) if get_in else st.just("hand")),
        winning_points_on_lead=draw(st.booleans()),
        muggins=draw(muggins),
    )


# ---------------------------------------------------------------- drawing

drawings = st.one_of(
    st.builds(
        spec.DrawUntilPlayable,
        must_play_drawn=st.booleans(),
        draw_while_able=st.booleans(),
        knock_bonus=st.integers(0, 10),
        stuck=st.sampled_from(["pass", "block"]),
    ),
    st.builds(
        spec.DrawLimited,
        kind=st.just("limited"),
        max_per_turn=st.integers(1, 5),
        must_play_drawn=st.booleans(),
        draw_while_able=st.booleans(),
        knock_bonus=st.integers(0, 10),
        stuck=st.sampled_from(["pass", "block"]),
    ),
    st.builds(spec.NoDrawing, kind=st.just("none"), knock_bonus=st.integers(0, 10),
              stuck=st.sampled_from(["pass", "block"])),
)


# ------------------------------------------------------------- settlement

roundings = st.one_of(
    st.builds(spec.NoRounding),
    st.builds(spec.UnitRounding, kind=st.sampled_from(["nearest", "up", "down"]), unit=st.integers(2, 10),
              per=st.sampled_from(["aggregate", "opponent", "player"])),
)
amounts = st.sampled_from(["opponents", "opponents_minus_own", "all_hands", "flat"])
ties = st.sampled_from(["nobody", "share", "not_blocker", "blocker", "full", "carry"])
compares = st.sampled_from(["side", "side", "player"])


def settle_rules(counts: list[int], *, blocked: bool) -> st.SearchStrategy:
    options = [
        st.builds(
            spec.LightestSettles,
            kind=st.just("lightest"),
            amount=amounts,
            points=st.integers(1, 50),
            ties=per_count(ties, counts),
            doubles_lose=st.booleans(),
            compare=compares,
            rounding=roundings,
            divisor=st.integers(1, 10),
        ),
        st.builds(spec.EachHeavierSettles, kind=st.just("each_heavier"), rounding=roundings, divisor=st.integers(1, 10)),
        st.builds(spec.OwnPenaltySettles, kind=st.just("own_penalty"), rounding=roundings, divisor=st.integers(1, 10)),
        st.builds(spec.NobodySettles),
    ]
    if blocked:
        options.append(st.builds(
            spec.LockerSettles, kind=st.just("locker"),
            against=st.sampled_from(["previous", "next"]), amount=amounts,
            points=st.integers(1, 50), ties=st.sampled_from(["blocker", "nobody", "not_blocker"]),
            rounding=roundings, divisor=st.integers(1, 10)))
    if not blocked:
        options.append(
            st.builds(
                spec.DominoerSettles,
                kind=st.just("domino_er"),
                amount=amounts,
                points=st.integers(1, 50),
                rounding=roundings,
                divisor=st.integers(1, 10),
            )
        )
    return st.one_of(options)


def settlement(counts: list[int]) -> st.SearchStrategy:
    return st.builds(
        spec.Settlement,
        domino=settle_rules(counts, blocked=False),
        blocked=settle_rules(counts, blocked=True),
        floor=st.none() | st.integers(-100, 0),
        first_minimum=st.sampled_from([0, 0, 13]),
    )


def match(counts: list[int]) -> st.SearchStrategy:
    return st.one_of(
        st.builds(
            spec.TargetMatch,
            kind=st.just("target"),
            points=per_count(st.integers(1, 500), counts),
            check=st.sampled_from(["hand_end", "immediate", "exact", "hand_winner"]),
            games=st.sampled_from([1, 1, 2]),
        ),
        st.builds(spec.HandsMatch, kind=st.just("hands"), count=st.integers(1, 20)),
    )


# ---------------------------------------------------------------- variant


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    highest = draw(st.integers(3, 18))
    counts = draw(st.just([2]) | st.lists(st.integers(2, 10), min_size=1, max_size=4, unique=True))
    size = (highest + 1) * (highest + 2) // 2
    assume(max(counts) <= size)
    the_players = draw(players(counts))
    the_layout = draw(layouts)
    partial = Variant(
        name="x",
        deal=spec.DealRule(hand_size=1),
        tiles=spec.Tiles(highest=highest),
        layout=the_layout,
        settlement=spec.Settlement(domino=spec.NobodySettles(), blocked=spec.NobodySettles()),
        match=spec.HandsMatch(kind="hands"),
    )
    top = max_reachable_count(partial)
    variant = Variant(
        name=draw(names),
        aliases=draw(st.lists(names, max_size=3)),
        summary=draw(texts),
        sources=draw(st.lists(sources, max_size=2)),
        tiles=spec.Tiles(highest=highest),
        players=the_players,
        deal=draw(deal(highest, counts)),
        lead=draw(lead(highest, counts)),
        layout=the_layout,
        scoring=draw(scoring(top)),
        drawing=draw(drawings),
        turn=draw(turns),
        bonuses=draw(bonuses(highest)),
        hand_end=spec.HandEndRule(
            partners_both_out=draw(st.booleans()) if the_players.partnerships.kind != "none" else False
        ),
        settlement=draw(settlement(counts)),
        match=draw(match(counts)),
    )
    variant = _partnership_options(draw, variant, counts)
    # rounding.per only where it has an effect (it is refused elsewhere)
    settled = {}
    for key in ("domino", "blocked"):
        rule = getattr(variant.settlement, key)
        if spec._per_problem(variant, rule):
            rounding = rule.rounding.model_copy(update={"per": "aggregate"})
            settled[key] = rule.model_copy(update={"rounding": rounding})
    if settled:
        variant = variant.model_copy(
            update={"settlement": variant.settlement.model_copy(update=settled)})
    if isinstance(variant.match, spec.TargetMatch) and variant.match.check == "exact":
        # an exact target must be reachable: scale it to the scores' step
        step = spec.score_granularity(variant)
        points = variant.match.points
        fixed = ({c: v * step for c, v in points.items()} if isinstance(points, dict)
                 else points * step)
        variant = variant.model_copy(
            update={"match": variant.match.model_copy(update={"points": fixed})})
    if any(p.path == ("match", "points") for p in semantic_problems(variant)):
        # a target nothing can reach is refused: play a number of hands instead
        variant = variant.model_copy(update={"match": spec.HandsMatch(kind="hands", count=3)})
    problems = semantic_problems(variant)
    assert not problems, problems  # the strategies keep every cross-field rule
    return variant


@st.composite
def train_variants(draw: st.DrawFn) -> Variant:
    """Train layouts (issue 35): kept apart from :func:`variants`, which the
    differential tests play on both cores (the native core refuses trains)."""
    highest = draw(st.integers(3, 15))
    personal = draw(st.booleans())
    covers = "continue" if personal else draw(st.sampled_from(["continue", "new_arms"]))
    trains = spec.Trains(
        hub=spec.TrainHub(top=draw(st.none() | st.integers(0, highest)),
                          placing_ends_turn=draw(st.booleans()),
                          tiles=draw(st.integers(0 if personal else 1, 6))),
        personal=personal,
        public=draw(st.integers(0, 2)) if personal else 0,
        public_needs_own=draw(st.booleans()) if personal else False,
        marker_off=draw(st.sampled_from(["own_train", "anywhere"])),
        doubles=spec.TrainDoubles(
            cover=draw(st.integers(0, 1 if covers == "continue" else 4)), covers=covers,
            by="next_players" if covers == "new_arms" else draw(st.sampled_from(
                ["same_player", "next_players"]))),
        first_turn=spec.TrainFirstTurn(
            tiles=draw(st.sampled_from(["one", "many"])) if personal else "one",
            may_stop=draw(st.booleans()), public=draw(st.booleans())),
    )
    if not trains.public:
        trains = trains.model_copy(update={"public_needs_own": False})
    top = trains.hub.top if trains.hub.top is not None else highest
    charge = spec.OwnHandSettles(kind="own_hand", double_blank=draw(st.none() | st.integers(0, 50)),
                                 blanks=draw(st.none() | st.integers(0, 25)),
                                 per_marker=draw(st.integers(0, 25)))
    variant = Variant(
        name=draw(names),
        summary=draw(texts),
        tiles=spec.Tiles(highest=highest),
        players=spec.Players(counts=[2]),
        deal=spec.DealRule(hand_size=draw(st.integers(1, highest))),
        layout=spec.LayoutRule(trains=trains),
        scoring=spec.Scoring(when=spec.NoPredicate()),
        drawing=draw(st.sampled_from([spec.DrawLimited(kind="limited", max_per_turn=1),
                                      spec.DrawUntilPlayable()])),
        settlement=spec.Settlement(domino=charge, blocked=charge),
        match=spec.RoundsMatch(kind="rounds", count=draw(st.none() | st.integers(1, top + 1)),
                               lose_at=draw(st.none() | st.integers(1, 500))),
    )
    problems = semantic_problems(variant)
    assert not problems, problems
    return variant


def _partnership_options(draw: st.DrawFn, variant: Variant, counts: list[int]) -> Variant:
    """The options the partnership games brought, kept where they apply
    (each is refused at its key elsewhere), and sometimes a penalty match
    with losers_pay settlements, a void target or a redeal."""
    update: dict[str, object] = {}
    teams = variant.players.partnerships.kind != "none"
    settlement = variant.settlement
    fixed = {}
    for key in ("domino", "blocked"):
        rule = getattr(settlement, key)
        if getattr(rule, "compare", "side") == "player" and (
                not teams or key == "domino" or getattr(rule, "doubles_lose", False)):
            fixed[key] = rule.model_copy(update={"compare": "side"})
    if fixed:
        settlement = settlement.model_copy(update=fixed)
    layout = variant.layout
    if layout.ends == "one" and layout.spinner.kind != "none":
        layout = layout.model_copy(update={"ends": "both"})
    update["layout"] = layout
    bonus = variant.bonuses
    if bonus.capicua is not None and layout.ends == "one":
        bonus = bonus.model_copy(update={"capicua": None})
    if bonus.blocked_win and not isinstance(settlement.blocked, (spec.LightestSettles,
                                                                spec.LockerSettles)):
        bonus = bonus.model_copy(update={"blocked_win": 0})
    if bonus.by_hand is not None and isinstance(variant.match, spec.HandsMatch) \
            and variant.match.count == 1:
        bonus = bonus.model_copy(update={"by_hand": None})
    turn = variant.turn
    if not turn.after_double.repeat and turn.after_double.kind != "extra_tile":
        turn = spec.TurnRule(after_double=turn.after_double.model_copy(update={"repeat": True}))
    lead = variant.lead
    size = (variant.tiles.highest + 1) * (variant.tiles.highest + 2) // 2
    if lead.if_no_double == "draw" and (lead.allowed != "double" or all(
            c * variant.hand_size(c) + variant.reserve(c) >= size for c in counts)):
        lead = lead.model_copy(update={"if_no_double": "next_seat"})
    match = variant.match
    if isinstance(match, spec.TargetMatch) and match.check == "hand_end" and draw(st.booleans()):
        low = min(spec.for_players(match.points, c) for c in counts)
        if low > 1:
            match = match.model_copy(update={"void_at": draw(st.integers(1, low - 1))})
    if draw(st.integers(0, 5)) == 0:  # penalties: the losers pay, the lowest wins
        settlement = settlement.model_copy(update={
            "domino": spec.LosersPaySettles(kind="losers_pay"),
            "blocked": spec.LosersPaySettles(kind="losers_pay",
                                             compare="player" if teams else "side")})
        match = spec.PenaltyMatch(kind="penalty", points=draw(st.integers(20, 300)))
        bonus = spec.Bonuses()
        update["scoring"] = spec.Scoring()
    redeal = spec.Redeal()
    smallest = min(variant.hand_size(c) for c in counts)
    largest = max(variant.hand_size(c) for c in counts)
    doubles = variant.tiles.highest + 1
    tiles = doubles * (doubles + 1) // 2
    # a threshold well above a hand's expected doubles: most deals are kept
    low = max(3, 2 * largest * doubles // tiles + 2)
    if smallest >= 3 and low <= min(smallest, doubles) and draw(st.booleans()):
        redeal = spec.Redeal(doubles=draw(st.integers(low, min(smallest, doubles))))
    update.update(settlement=settlement, bonuses=bonus, turn=turn, lead=lead, match=match,
                  deal=variant.deal.model_copy(update={"redeal": redeal}))
    return variant.model_copy(update=update)


def dump(variant: Variant) -> str:
    return yaml.safe_dump(variant.model_dump(mode="python", exclude={"extends"}), sort_keys=False, allow_unicode=True)


@examples(60)
@given(variant=variants())
def test_model_yaml_model_round_trip(variant: Variant, tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(dump(variant), encoding="utf-8")
    assert load_variant(path) == variant


@examples(30)
@given(variant=train_variants())
def test_a_train_layout_round_trips_and_compiles(variant: Variant, tmp_path: Path) -> None:
    from bones.lang.compile import compile_rules

    path = tmp_path / "v.yaml"
    path.write_text(dump(variant), encoding="utf-8")
    assert load_variant(path) == variant
    rules = compile_rules(variant, 2)
    top = variant.layout.trains.hub.top
    assert rules.trains.top == (variant.tiles.highest if top is None else top)
    assert rules.trains.rounds == (variant.match.count or rules.trains.top + 1)


@examples(20)
@given(variant=variants(), moved=st.sampled_from(["tiles", "players", "deal", "lead", "layout", "scoring", "drawing", "settlement", "match"]))
def test_round_trip_through_extends(variant: Variant, moved: str, tmp_path: Path) -> None:
    """A variant split into a parent (everything) and a child (one section) loads the same."""
    data = variant.model_dump(mode="python", exclude={"extends"})
    (tmp_path / "parent.yaml").write_text(yaml.safe_dump({**data, "name": "parent"}), encoding="utf-8")
    own = {k: data[k] for k in ("aliases", "summary", "sources")}  # never inherited
    child = {"name": data["name"], "extends": "parent.yaml", **own, moved: data[moved]}
    (tmp_path / "child.yaml").write_text(yaml.safe_dump(child), encoding="utf-8")
    loaded = load_variant(tmp_path / "child.yaml")
    assert loaded.model_copy(update={"extends": None}) == variant


def _models_in(obj: object, seen: set[type]) -> None:
    if isinstance(obj, spec.Model):
        seen.add(type(obj))
        for name in type(obj).model_fields:
            _models_in(getattr(obj, name), seen)
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            _models_in(item, seen)


def test_strategies_reach_every_model_and_union_member() -> None:
    """Guard for the strategies above: every model and every kind of every union is drawn."""
    seen: set[type] = set()
    parts = [
        (first_lead(6, 2, listed=True, locker=True), 60),
        (later_lead(6, [2]), 60),
        (spinners, 40),
        (scoring(20), 200),
        (drawings, 30),
        (turns, 20),
        (bonuses(6), 20),
        (settle_rules([2, 3], blocked=False), 60),
        (settle_rules([2, 3], blocked=True), 60),
        (match([2, 3]), 20),
        (variants(), 40),
        (train_variants(), 20),
    ]
    for part, count in parts:

        @settings(examples(count), database=None)
        @given(part)
        def gather(obj: object) -> None:
            _models_in(obj, seen)

        gather()
    models = {
        obj
        for obj in vars(spec).values()
        if isinstance(obj, type)
        and issubclass(obj, spec.Model)
        and obj not in (spec.Model, spec._DrawingCommon, spec._Arithmetic)
    }
    missing = sorted(m.__name__ for m in models - seen)
    assert not missing, missing


def test_dumped_yaml_quotes_the_boolean_words() -> None:
    v = Variant(
        name="q",
        summary="yes",
        aliases=["on"],
        deal=spec.DealRule(hand_size=5),
        settlement=spec.Settlement(domino=spec.NobodySettles(), blocked=spec.NobodySettles()),
        match=spec.HandsMatch(kind="hands"),
    )
    text = dump(v)
    assert "summary: 'yes'" in text and "- 'on'" in text
    with pytest.raises(VariantError):  # the same file with the quotes lost
        path = Path(pytest.importorskip("tempfile").mkdtemp()) / "v.yaml"
        path.write_text(text.replace("'on'", "on"), encoding="utf-8")
        load_variant(path)
