"""Compile a validated variant into the engine's immutable tables.

:func:`compile_rules` runs once per (variant, player count, partnership
choice).  Every choice the variant makes becomes a small int code of
:mod:`bones.engine.rules` or :mod:`bones.engine.settle`, or a tuple indexed
by a number, so the engine plays without the models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bones.engine.bounds import UNLIMITED_DRAWS
from bones.engine.rules import (
    AFTER_ANOTHER_DOUBLE,
    AFTER_EXTRA_TILE,
    AFTER_NONE,
    CHECK_EXACT,
    CHECK_HAND_END,
    CHECK_HAND_WINNER,
    CHECK_IMMEDIATE,
    CHECK_NONE,
    CHECK_PENALTY,
    DRAW_LIMITED,
    DRAW_NONE,
    DRAW_UNTIL,
    LATER_ALTERNATE,
    LATER_DOMINOER,
    LATER_FIRST,
    LATER_ROTATE_NEXT,
    LATER_ROTATE_PREVIOUS,
    LATER_SERIES,
    LATER_WINNER,
    LEAD_HIGHEST_DOUBLE,
    LEAD_LIGHTEST_TILE,
    LEAD_LOCKER,
    LEAD_LOT,
    LEAD_LOWEST_DOUBLE,
    LEAD_RANDOM,
    LEAD_SEAT,
    LEAD_TILE,
    LEAD_TILES,
    MUGGINS_FORFEIT,
    MUGGINS_OFF,
    MUGGINS_TRANSFER,
    NONE_DRAW_MORE,
    NONE_HEAVIEST_HAND,
    NONE_HEAVIEST_TILE,
    NONE_HIGHEST_DOUBLE,
    NONE_LIGHTEST_TILE,
    NONE_LOT,
    NONE_REDEAL,
    ORDER_ALL4,
    ORDER_ANY,
    ORDER_SIDES,
    OVER_CLAIM_CALLER,
    OVER_CLAIM_CLAIMER,
    OVER_CLAIM_LOST,
    SPIN_EVERY,
    SPIN_EVERY_BUT_LED,
    SPIN_FIRST,
    SPIN_INLINE,
    SPIN_LED,
    SPIN_NONE,
    WHEN_MATCHING_ENDS,
    LeadRule,
    Rules,
    RulesError,
    TrainRules,
    count_points_of,
)
from bones.engine.settle import (
    AGAINST_NEXT,
    AGAINST_PREVIOUS,
    AMOUNT_ALL_HANDS,
    AMOUNT_FLAT,
    AMOUNT_OPPONENTS,
    AMOUNT_OPPONENTS_MINUS_OWN,
    COMPARE_PLAYER,
    COMPARE_SIDE,
    PER_AGGREGATE,
    PER_OPPONENT,
    PER_PLAYER,
    ROUND_DOWN,
    ROUND_NEAREST,
    ROUND_UP,
    SETTLE_DOMINOER,
    SETTLE_EACH_HEAVIER,
    SETTLE_LIGHTEST,
    SETTLE_LOCKER,
    SETTLE_LOSERS_PAY,
    SETTLE_NOBODY,
    SETTLE_OWN_PENALTY,
    TIES_BLOCKER,
    TIES_CARRY,
    TIES_FULL,
    TIES_NOBODY,
    TIES_NOT_BLOCKER,
    TIES_SHARE,
    Settle,
)
from bones.engine.tiles import TileSet, tile_set

#: The language's models (``bones.lang.spec``, pydantic) are imported when a
#: variant compiles, not when a cached built-in's tables are restored: a
#: simulation of a built-in starts without them (tests/test_cache.py,
#: tests/test_startup_imports.py).  Each function that reads a model imports
#: them itself, marked ``# lazy: models``.
if TYPE_CHECKING:
    from bones.lang import spec
    from bones.lang.spec import SettleRule

_SPIN_CODES = {
    "none": SPIN_NONE,
    "first_double": SPIN_FIRST,
    "every_double": SPIN_EVERY,
    "led_double": SPIN_LED,
    "inline_sniff": SPIN_INLINE,
    "every_double_but_led": SPIN_EVERY_BUT_LED,
}
#: Which doubles each spinner kind makes spinners: (a led double, a later
#: double while none has been played, a later double after one has).
_SPINS = {
    SPIN_NONE: (False, False, False),
    SPIN_FIRST: (True, True, False),
    SPIN_EVERY: (True, True, True),
    SPIN_LED: (True, False, False),
    SPIN_INLINE: (True, True, False),
    SPIN_EVERY_BUT_LED: (False, True, True),
}
_OVER_CLAIM_CODES = {"lost": OVER_CLAIM_LOST, "caller": OVER_CLAIM_CALLER,
                     "claimer": OVER_CLAIM_CLAIMER}
_ORDER_CODES = {"sides_first": ORDER_SIDES, "any": ORDER_ANY, "all_four_first": ORDER_ALL4}
_LEAD_CODES = {
    "lot": LEAD_LOT,
    "random": LEAD_RANDOM,
    "highest_double": LEAD_HIGHEST_DOUBLE,
    "lowest_double": LEAD_LOWEST_DOUBLE,
    "tile": LEAD_TILE,
    "seat": LEAD_SEAT,
    "lightest_tile": LEAD_LIGHTEST_TILE,
    "locker": LEAD_LOCKER,
}
_NONE_CODES = {
    "draw_more": NONE_DRAW_MORE,
    "heaviest_hand": NONE_HEAVIEST_HAND,
    "heaviest_tile": NONE_HEAVIEST_TILE,
    "lot": NONE_LOT,
    "redeal": NONE_REDEAL,
    "highest_double": NONE_HIGHEST_DOUBLE,
    "lightest_tile": NONE_LIGHTEST_TILE,
}
_CHECK_CODES = {"hand_end": CHECK_HAND_END, "immediate": CHECK_IMMEDIATE, "exact": CHECK_EXACT,
                "hand_winner": CHECK_HAND_WINNER}
_AFTER_CODES = {"none": AFTER_NONE, "another_double": AFTER_ANOTHER_DOUBLE,
                "extra_tile": AFTER_EXTRA_TILE}


def compile_lead(rule: object, ts: TileSet, players: int) -> LeadRule:
    """The codes of one first-lead rule."""
    from bones.lang import spec  # lazy: models


    kind = _LEAD_CODES[rule.kind]  # type: ignore[attr-defined]
    arg = -1
    if isinstance(rule, spec.TileLead):
        if isinstance(rule.tile, str):
            arg = ts.parse(rule.tile)
        else:
            kind = LEAD_TILES  # the list: Rules.lead_tiles
    elif isinstance(rule, spec.SeatLead):
        arg = rule.seat % players
    if_none = getattr(rule, "if_none", None)
    return LeadRule(kind, arg, -1 if if_none is None else _NONE_CODES[if_none])


_LATER_CODES = {
    "domino_er": LATER_DOMINOER,
    "winner": LATER_WINNER,
    "alternate": LATER_ALTERNATE,
    "series": LATER_SERIES,
    "first": LATER_FIRST,
}


def _compile_later(lead: spec.Lead, ts: TileSet, players: int) -> tuple[int, LeadRule]:
    from bones.lang import spec  # lazy: models


    later = lead.later
    if isinstance(later, spec.RotateLead):
        code = LATER_ROTATE_NEXT if later.to == "next" else LATER_ROTATE_PREVIOUS
    else:
        code = _LATER_CODES[later.kind]
    again: object = lead.first
    if isinstance(later, spec.DominoerLead):
        again = later.after_block
    elif isinstance(later, spec.WinnerLead):
        again = later.if_none
    return code, compile_lead(again, ts, players)


def compile_rules(variant: spec.Variant, players: int | None = None,
                  teams: bool | None = None) -> Rules:
    """Compile ``variant`` for ``players`` (default: its smallest count).

    ``teams`` chooses partnerships where the variant makes them optional;
    where they are required it may be left out.
    """
    cached = getattr(variant, "cached_rules", None)
    if cached is not None:  # a built-in read from bones.games.cache
        return cached(players, teams)  # type: ignore[no-any-return]
    if players is None:
        players = min(variant.players.counts)
    if players not in variant.players.counts:
        allowed = ", ".join(str(c) for c in variant.players.counts)
        raise RulesError(f"{variant.name} is played by {allowed} players, not {players}")
    partner = variant.players.partnerships
    if teams and (partner.kind == "none" or players not in partner.player_counts):
        raise RulesError(
            f"{variant.name} has no partnership game for {players} players"
        )
    if teams is False and partner.kind == "required" and players in partner.player_counts:
        raise RulesError(f"{variant.name} is always played in partnerships with {players} players")
    return _compile(variant, players, variant.partnered(players, teams))


#: The search tree's scale where it was tuned (All Fives, bench/results/):
#: ``TREE_SCALE_POINTS`` points of a hand's margin are worth the largest
#: reward when a seat is dealt ``TREE_SCALE_PIPS`` pips (nine double-six
#: tiles) or fewer.
TREE_SCALE_POINTS = 20
TREE_SCALE_PIPS = 54
#: Above ``TREE_SCALE_PIPS``, the points the scale gains per pip dealt to a
#: seat, as a fraction: 5/3, the slope through All Fives (54 pips: 20) and
#: Cuban (90 pips: 80, measured best of 20, 40 and 80 there:
#: bench/results/cuban-34.md).
TREE_SCALE_SLOPE = (5, 3)


def tree_scale(highest: int, hand_size: int, trains: bool) -> int:
    """The points of a hand's margin worth the search tree's largest reward
    by default (``Rules.tree_scale``, a bot's ``scale=0``):
    :data:`TREE_SCALE_POINTS` while a seat is dealt at most
    :data:`TREE_SCALE_PIPS` pips (a tile of the double-``highest`` set has
    ``highest`` pips on average: every double-six game), and
    :data:`TREE_SCALE_SLOPE` points more per pip above (rounded down):
    Cuban's ten double-nine tiles, 90 pips, give 80.  A game of bigger hands
    has bigger margins, and a tree whose rewards nearly all clamp to ±1
    cannot tell a small win from a big one.  A train layout keeps
    :data:`TREE_SCALE_POINTS` (its tree was measured there,
    bench/results/trains-search.md)."""
    pips = highest * hand_size
    if trains or pips <= TREE_SCALE_PIPS:
        return TREE_SCALE_POINTS
    num, den = TREE_SCALE_SLOPE
    return TREE_SCALE_POINTS + (pips - TREE_SCALE_PIPS) * num // den


def _compile(variant: spec.Variant, players: int, teams: bool) -> Rules:
    from bones.lang import spec  # lazy: models
    from bones.lang.spec import spinner_multipliers  # lazy: models


    ts = tile_set(variant.tiles.highest)
    # two teams, seats alternating round the table (docs/language.md)
    owner = tuple(seat % 2 for seat in range(players)) if teams else tuple(range(players))
    owners = 2 if teams else players
    mates = tuple(
        tuple(s for s in range(players) if s != seat and owner[s] == owner[seat]) if teams else ()
        for seat in range(players)
    )
    lead_first = compile_lead(variant.lead.first, ts, players)
    lead_later, lead_again = _compile_later(variant.lead, ts, players)
    draws_more = lead_first.draws_more or (
        lead_later in (LATER_DOMINOER, LATER_WINNER) and lead_again.draws_more)
    lead_draws_double = variant.lead.allowed == "double" and variant.lead.if_no_double == "draw"
    first = variant.lead.first
    lead_tiles = tuple(ts.parse(t) for t in first.tiles()) \
        if isinstance(first, spec.TileLead) and not isinstance(first.tile, str) else ()

    spinner = variant.layout.spinner
    spin_code = _SPIN_CODES[spinner.kind]
    order = _ORDER_CODES.get(getattr(spinner, "order", "any"), ORDER_ANY)
    mult = spinner_multipliers(getattr(spinner, "count", "drop2"))
    double_weight = 2 if variant.layout.doubles == "crosswise" else 1
    spins_led, spins_before, spins_after = _SPINS[spin_code]
    # a led double that is not a spinner counts both halves, then as an end
    lead_double_mult = mult if spins_led else (2, double_weight, 0, 0, 0)
    # every double may spin when a double after another may; else one at most
    spinners = ts.highest + 1 if spins_after else int(spins_led or spins_before)

    scoring = variant.scoring
    when, when_values, points_kind, points_param = codes = spec.scoring_codes(scoring)
    count_points, header_points = _points_tables(variant, codes)
    scores_plays = not isinstance(scoring.when, spec.NoPredicate)
    muggins, penalise, over_claim = _muggins_codes(scoring)
    drawing = variant.drawing
    draw_code, max_draws, must_play, while_able = _drawing_codes(drawing)
    check, target, hands_in_match = _match_codes(variant.match, players)
    bonuses = variant.bonuses
    capicua = bonuses.capicua
    last_tile = bonuses.last_tile
    opening = bonuses.opening_pass
    by_hand = bonuses.by_hand
    after = variant.turn.after_double
    match = variant.match
    settle_blocked = compile_settlement(variant.settlement.blocked, players)
    # what the heuristic judges the ends a play leaves by (bones.bots.basic)
    ends_pay = bool(bonuses.round_pass or (opening and (opening.double or opening.other))
                    or (capicua and capicua.points) or (last_tile and last_tile.points)
                    or settle_blocked.kind in (SETTLE_LIGHTEST, SETTLE_LOCKER, SETTLE_LOSERS_PAY))

    return Rules(
        variant=variant,
        name=variant.name,
        highest=ts.highest,
        when=when,
        when_values=when_values,
        points_kind=points_kind,
        points_param=points_param,
        players=players,
        teams=teams,
        tiles=ts,
        matching=ts.matching,
        other_half=ts.other_half,
        is_double=ts.is_double,
        next_seat=tuple((seat + 1) % players for seat in range(players)),
        plain_arms=order != ORDER_ALL4,
        boneyard_unread=draw_code == DRAW_NONE and not draws_more and not lead_draws_double,
        owner=owner,
        owners=owners,
        mates=mates,
        opponent_after=tuple(_next_opponent(owner, seat) for seat in range(players)),
        hand_size=variant.hand_size(players),
        reserve=variant.reserve(players),
        spinner=spin_code,
        order=order,
        spinner_mult=mult,
        double_weight=double_weight,
        spins_led=spins_led,
        spins_later=(spins_before, spins_after),
        cross_stubs=spin_code == SPIN_INLINE,
        lead_double_mult=lead_double_mult,
        max_arms=2 + 2 * spinners,
        scores_plays=scores_plays,
        count_points=count_points,
        header_points=header_points,
        headers=header_points is not None,
        get_in=scoring.get_in,
        get_in_match=scoring.get_in_scope == "match" and scoring.get_in > 0,
        win_on_lead=scoring.winning_points_on_lead,
        lead_cannot_win=not scoring.winning_points_on_lead and check != CHECK_NONE,
        muggins=muggins,
        penalise_over_claim=penalise,
        over_claim_points=over_claim,
        drawing=draw_code,
        max_draws=max_draws,
        must_play_drawn=must_play,
        draw_while_able=while_able,
        knock_bonus=drawing.knock_bonus,
        stuck_blocks=drawing.stuck == "block",
        partners_both_out=variant.hand_end.partners_both_out and teams,
        lead_first=lead_first,
        lead_later=lead_later,
        lead_again=lead_again,
        lead_doubles_only=variant.lead.allowed == "double",
        settle_domino=compile_settlement(variant.settlement.domino, players),
        settle_blocked=settle_blocked,
        ends_pay=ends_pay,
        tree_scale=tree_scale(ts.highest, variant.hand_size(players),
                              variant.layout.trains is not None),
        floor=variant.settlement.floor,
        check=check,
        target=target,
        hands_in_match=hands_in_match,
        one_end=variant.layout.ends == "one",
        after_double=_AFTER_CODES[after.kind],
        extra_repeat=after.repeat,
        capicua_points=capicua.points if capicua else 0,
        capicua_doubles=capicua.doubles if capicua else False,
        last_tile=ts.parse(last_tile.tile) if last_tile else -1,
        last_tile_points=last_tile.points if last_tile else 0,
        opening_pass_double=opening.double if opening else 0,
        opening_pass_other=opening.other if opening else 0,
        round_pass=bonuses.round_pass,
        hand_bonus=tuple(by_hand.points) if by_hand else (),
        hand_bonus_skip_tied=bool(by_hand and by_hand.tied_hands == "skip"),
        blocked_win=bonuses.blocked_win,
        first_minimum=variant.settlement.first_minimum,
        trains=_compile_trains(variant, ts),
        void_at=(match.void_at or 0) if isinstance(match, spec.TargetMatch) else 0,
        games=match.games if isinstance(match, spec.TargetMatch) else 1,
        lead_tiles=lead_tiles,
        lead_draws_double=lead_draws_double,
        redeal_doubles=variant.deal.redeal.doubles or 0,
        redeal_suit=variant.deal.redeal.suit or 0,
    )


def _next_opponent(owner: tuple[int, ...], seat: int) -> int:
    """The next seat in turn that is not on ``seat``'s side."""
    players = len(owner)
    for step in range(1, players):
        other = (seat + step) % players
        if owner[other] != owner[seat]:
            return other
    return seat  # pragma: no cover - every table has an opponent


def _points_tables(variant: spec.Variant, codes: tuple[int, tuple[int, ...], int, int]
                   ) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Points for every reachable count (by the compiled scoring ``codes``),
    and for matching ends by their number."""
    from bones.lang import spec  # lazy: models

    scoring = variant.scoring
    max_count = spec.max_reachable_count(variant) + 4 * variant.tiles.highest + 8
    count_points = tuple(count_points_of(*codes, c) for c in range(max_count + 1))
    header_points = None
    if codes[0] == WHEN_MATCHING_ENDS:
        assert isinstance(scoring.when, spec.MatchingEnds)
        top = max(scoring.when.points)
        header_points = tuple(
            scoring.when.points.get(size, 0) if size <= top else scoring.when.points[top]
            for size in range(2 * top + 9)
        )
    return count_points, header_points


def _muggins_codes(scoring: spec.Scoring) -> tuple[int, bool, int]:
    """(muggins code, penalise an over-claim, where over-claimed points go)."""
    from bones.lang import spec  # lazy: models


    if isinstance(scoring.muggins, spec.MugginsOn):
        kind = MUGGINS_TRANSFER if scoring.muggins.kind == "transfer" else MUGGINS_FORFEIT
        return (kind, scoring.muggins.penalise_over_claim,
                _OVER_CLAIM_CODES[scoring.muggins.over_claim_points])
    return MUGGINS_OFF, False, OVER_CLAIM_LOST


def _drawing_codes(drawing: spec.Drawing) -> tuple[int, int, bool, bool]:
    """(drawing code, most draws a turn, must play the drawn, draw while able)."""
    from bones.lang import spec  # lazy: models


    if isinstance(drawing, spec.NoDrawing):
        return DRAW_NONE, 0, True, False
    if isinstance(drawing, spec.DrawLimited):
        return (DRAW_LIMITED, drawing.max_per_turn, drawing.must_play_drawn,
                drawing.draw_while_able)
    return DRAW_UNTIL, UNLIMITED_DRAWS, drawing.must_play_drawn, drawing.draw_while_able


def _match_codes(match: spec.MatchRule, players: int) -> tuple[int, int, int]:
    """(target check code, target, hands in a match of a fixed number of hands)."""
    from bones.lang import spec  # lazy: models


    if isinstance(match, spec.TargetMatch):
        return _CHECK_CODES[match.check], spec.for_players(match.points, players), 0
    if isinstance(match, spec.PenaltyMatch):
        return CHECK_PENALTY, spec.for_players(match.points, players), 0
    if isinstance(match, spec.RoundsMatch):
        return CHECK_NONE, 0, match.count or 0
    return CHECK_NONE, 0, match.count


def _compile_trains(variant: spec.Variant, ts: TileSet) -> TrainRules | None:
    """The train layout's tables (docs/trains.md), None for a line game."""
    from bones.lang import spec  # lazy: models

    trains = variant.layout.trains
    if trains is None:
        return None
    top = trains.hub.top if trains.hub.top is not None else ts.highest
    match = variant.match
    rounds = match.count if isinstance(match, spec.RoundsMatch) and match.count else top + 1
    lose_at = match.lose_at if isinstance(match, spec.RoundsMatch) and match.lose_at else 0
    charge = variant.settlement.domino
    double_blank = getattr(charge, "double_blank", None)
    blanks = getattr(charge, "blanks", None)
    values = []
    for t in range(ts.size):
        value = ts.pips[t]
        if ts.low[t] == 0:
            if ts.high[t] == 0:
                value = double_blank if double_blank is not None else value
            elif blanks is not None:
                value = blanks
        values.append(value)
    doubles = trains.doubles
    first = trains.first_turn
    return TrainRules(
        top=top,
        rounds=rounds,
        placing_ends_turn=trains.hub.placing_ends_turn,
        seat_trains=trains.personal,
        public=trains.public if trains.personal else 0,
        public_needs_own=trains.public_needs_own,
        public_in_first_turn=first.public,
        hub_tiles=trains.hub.tiles,
        cover=doubles.cover,
        toes=doubles.covers == "new_arms",
        cover_self=doubles.by in ("same_player", "same_player_only"),
        first_turn_multi=first.tiles == "many" and trains.personal,
        first_turn_stop=first.may_stop,
        marker_off_anywhere=trains.marker_off == "anywhere",
        values=tuple(values),
        marker_penalty=getattr(charge, "per_marker", 0),
        lose_at=lose_at,
        cover_self_only=doubles.by == "same_player_only",
        one_more_anywhere=doubles.by == "one_more_anywhere",
        release=doubles.release == "no_cover_left",
        out_on_double=getattr(charge, "out_on_double", 1),
        hub_set_aside=trains.hub.comes == "set_aside",
        many_per_turn=trains.turn_tiles == "all_that_fit",
        first_spinner=doubles.first_spinner,
    )


_KINDS = {
    "nobody": SETTLE_NOBODY,
    "own_penalty": SETTLE_OWN_PENALTY,
    "each_heavier": SETTLE_EACH_HEAVIER,
    "domino_er": SETTLE_DOMINOER,
    "lightest": SETTLE_LIGHTEST,
    "locker": SETTLE_LOCKER,
    "losers_pay": SETTLE_LOSERS_PAY,
    # a train layout's charge: each hand charged its own pips, which both
    # cores apply from the compiled TrainRules; the settlement code stays
    # "nobody" (no side is paid by the others)
    "own_hand": SETTLE_NOBODY,
}
_AMOUNTS = {
    "opponents": AMOUNT_OPPONENTS,
    "opponents_minus_own": AMOUNT_OPPONENTS_MINUS_OWN,
    "all_hands": AMOUNT_ALL_HANDS,
    "flat": AMOUNT_FLAT,
}
_TIES = {"nobody": TIES_NOBODY, "share": TIES_SHARE, "not_blocker": TIES_NOT_BLOCKER,
         "full": TIES_FULL, "carry": TIES_CARRY, "blocker": TIES_BLOCKER}
_PER = {"aggregate": PER_AGGREGATE, "opponent": PER_OPPONENT, "player": PER_PLAYER}
_ROUND = {"nearest": ROUND_NEAREST, "up": ROUND_UP, "down": ROUND_DOWN}


def compile_settlement(rule: SettleRule, players: int) -> Settle:
    """The codes of one rule (``settlement.domino`` or ``.blocked``)."""
    from bones.lang import spec  # lazy: models


    kind = _KINDS[rule.kind]
    rounding = getattr(rule, "rounding", spec.NoRounding())
    unit, per, mode = 1, PER_AGGREGATE, ROUND_NEAREST
    if isinstance(rounding, spec.UnitRounding):
        unit, per, mode = rounding.unit, _PER[rounding.per], _ROUND[rounding.kind]
    ties = TIES_NOBODY
    if isinstance(rule, spec.LightestSettles):
        ties = _TIES[spec.for_players(rule.ties, players)]
    elif isinstance(rule, spec.LockerSettles):
        ties = _TIES[rule.ties]
    return Settle(
        kind=kind,
        amount=_AMOUNTS[getattr(rule, "amount", "opponents")],
        flat=getattr(rule, "points", 1),
        unit=unit,
        per=per,
        divisor=getattr(rule, "divisor", 1),
        doubles_lose=bool(getattr(rule, "doubles_lose", False)),
        ties=ties,
        mode=mode,
        compare=COMPARE_PLAYER if getattr(rule, "compare", "side") == "player" else COMPARE_SIDE,
        against=AGAINST_NEXT if getattr(rule, "against", "previous") == "next" else AGAINST_PREVIOUS,
    )
