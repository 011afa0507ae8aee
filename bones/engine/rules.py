"""Compile a validated variant into the immutable tables the engine plays by.

:func:`compile_rules` runs once per (variant, player count, partnership
choice).  Every choice the variant makes becomes a small int code, a tuple
indexed by a number or a function chosen here, so the hot path in
:mod:`bones.engine.hand` never touches pydantic, strings or dicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bones.engine.settle import Settle, compile_settlement
from bones.engine.tiles import TileSet, tile_set

if TYPE_CHECKING:  # the models are needed to compile, not to play (fast start-up)
    from bones.lang import spec

# spinner kinds
SPIN_NONE, SPIN_FIRST, SPIN_EVERY, SPIN_LED, SPIN_INLINE, SPIN_EVERY_BUT_LED = range(6)
# edge order
ORDER_SIDES, ORDER_ANY, ORDER_ALL4 = range(3)
# drawing kinds
DRAW_NONE, DRAW_UNTIL, DRAW_LIMITED = range(3)
# target checks
CHECK_NONE, CHECK_HAND_END, CHECK_IMMEDIATE, CHECK_EXACT = range(4)
# muggins
MUGGINS_OFF, MUGGINS_TRANSFER, MUGGINS_FORFEIT = range(3)
# who scores the true points of a rejected over-claim
OVER_CLAIM_LOST, OVER_CLAIM_CALLER, OVER_CLAIM_CLAIMER = range(3)
# first-lead rules (LeadRule.kind)
LEAD_LOT, LEAD_RANDOM, LEAD_HIGHEST_DOUBLE, LEAD_LOWEST_DOUBLE, LEAD_TILE, LEAD_SEAT = range(6)
# what a double or tile rule does when nobody holds one (LeadRule.if_none);
# NONE_HIGHEST_DOUBLE (tile rules only) looks for the highest double, and
# failing that the heaviest tile
(NONE_DRAW_MORE, NONE_HEAVIEST_HAND, NONE_HEAVIEST_TILE, NONE_LOT, NONE_REDEAL,
 NONE_HIGHEST_DOUBLE) = range(6)
# later-lead rules (Rules.lead_later)
(LATER_DOMINOER, LATER_WINNER, LATER_ROTATE_NEXT, LATER_ROTATE_PREVIOUS, LATER_ALTERNATE,
 LATER_SERIES, LATER_FIRST) = range(7)

_SPIN_CODES = {
    "none": SPIN_NONE,
    "first_double": SPIN_FIRST,
    "every_double": SPIN_EVERY,
    "led_double": SPIN_LED,
    "inline_sniff": SPIN_INLINE,
    "every_double_but_led": SPIN_EVERY_BUT_LED,
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
}
_NONE_CODES = {
    "draw_more": NONE_DRAW_MORE,
    "heaviest_hand": NONE_HEAVIEST_HAND,
    "heaviest_tile": NONE_HEAVIEST_TILE,
    "lot": NONE_LOT,
    "redeal": NONE_REDEAL,
    "highest_double": NONE_HIGHEST_DOUBLE,
}
_CHECK_CODES = {"hand_end": CHECK_HAND_END, "immediate": CHECK_IMMEDIATE, "exact": CHECK_EXACT}


class RulesError(ValueError):
    """A variant that cannot be played with the requested table."""


@dataclass(frozen=True)
class LeadRule:
    """A compiled first-lead rule (also a later rule's fallback)."""

    kind: int  # LEAD_*
    arg: int  # LEAD_TILE: the tile id; LEAD_SEAT: the seat; else -1
    if_none: int  # NONE_* for double and tile rules; else -1

    @property
    def draws_more(self) -> bool:
        return self.kind in (LEAD_HIGHEST_DOUBLE, LEAD_LOWEST_DOUBLE) and \
            self.if_none == NONE_DRAW_MORE


def compile_lead(rule: object, ts: TileSet, players: int) -> LeadRule:
    """The codes of one first-lead rule."""
    from bones.lang import spec

    kind = _LEAD_CODES[rule.kind]  # type: ignore[attr-defined]
    arg = -1
    if isinstance(rule, spec.TileLead):
        arg = ts.parse(rule.tile)
    elif isinstance(rule, spec.SeatLead):
        arg = rule.seat % players
    if_none = getattr(rule, "if_none", None)
    return LeadRule(kind, arg, -1 if if_none is None else _NONE_CODES[if_none])


@dataclass(frozen=True)
class Rules:
    """A variant compiled for one table: player count and partnerships fixed."""

    variant: spec.Variant = field(repr=False)
    players: int
    teams: bool
    tiles: TileSet = field(repr=False)
    # hot-path copies of tile tables, one attribute hop away
    matching: tuple[int, ...] = field(repr=False)
    other_half: tuple[tuple[int, ...], ...] = field(repr=False)
    is_double: tuple[bool, ...] = field(repr=False)
    next_seat: tuple[int, ...] = field(repr=False)
    # no edge-order rule ever freezes an arm (every order but all_four_first)
    plain_arms: bool
    # nothing ever draws from the boneyard, so a deal need not order it
    boneyard_unread: bool
    # score owners: seat -> index into the scores (its team when partnered:
    # two teams, seats alternating, team = seat % 2)
    owner: tuple[int, ...]
    owners: int
    # per seat: the other seats of its team (empty without partnerships)
    mates: tuple[tuple[int, ...], ...]
    hand_size: int
    reserve: int
    # layout
    spinner: int
    order: int
    spinner_mult: tuple[int, ...]
    double_weight: int
    # scoring
    scores_plays: bool
    count_points: tuple[int, ...] = field(repr=False)
    header_points: tuple[int, ...] | None = field(repr=False)
    headers: bool
    get_in: int
    win_on_lead: bool
    muggins: int
    penalise_over_claim: bool
    over_claim_points: int  # OVER_CLAIM_*
    # drawing
    drawing: int
    max_draws: int
    must_play_drawn: bool
    draw_while_able: bool
    knock_bonus: int
    # the hand goes on until every member of a team is out (teams only)
    partners_both_out: bool
    # leads
    lead_first: LeadRule
    lead_later: int  # LATER_*
    lead_again: LeadRule  # after a block (domino_er), with no winner (winner)
    lead_doubles_only: bool  # a lead by no named tile must be a double
    # settlement and match
    settle_domino: Settle
    settle_blocked: Settle
    floor: int | None
    check: int
    target: int
    hands_in_match: int

    @property
    def name(self) -> str:
        return self.variant.name

    def next_opponent(self, seat: int) -> int:
        """The next seat in turn that is not on ``seat``'s side."""
        me = self.owner[seat]
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if self.owner[other] != me:
                return other
        return seat  # pragma: no cover - every table has an opponent

    # Compiled tables are derived data: a copy is the same immutable object,
    # and a pickle stores only what they were compiled from (the settlement
    # rules compile to functions, which do not pickle).
    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Rules:
        return self

    def __reduce__(self) -> tuple[object, tuple[spec.Variant, int, bool]]:
        return (_rebuild, (self.variant, self.players, self.teams))

    def points(self, count: int) -> int:
        table = self.count_points
        if 0 <= count < len(table):
            return table[count]
        from bones.lang.spec import points_for_count

        return points_for_count(self.variant.scoring, count)


_LATER_CODES = {
    "domino_er": LATER_DOMINOER,
    "winner": LATER_WINNER,
    "alternate": LATER_ALTERNATE,
    "series": LATER_SERIES,
    "first": LATER_FIRST,
}


def _compile_later(lead: spec.Lead, ts: TileSet, players: int) -> tuple[int, LeadRule]:
    from bones.lang import spec

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


def _rebuild(variant: spec.Variant, players: int, teams: bool) -> Rules:
    """Unpickle compiled rules: a cached built-in (:mod:`bones.games.cache`)
    restores its tables, any other variant compiles again."""
    cached = getattr(variant, "cached_rules", None)
    if cached is not None:
        return cached(players, teams)  # type: ignore[no-any-return]
    return _compile(variant, players, teams)


def _compile(variant: spec.Variant, players: int, teams: bool) -> Rules:
    from bones.lang import spec
    from bones.lang.spec import spinner_multipliers

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

    spinner = variant.layout.spinner
    spin_code = _SPIN_CODES[spinner.kind]
    order = _ORDER_CODES.get(getattr(spinner, "order", "any"), ORDER_ANY)
    mult = spinner_multipliers(getattr(spinner, "count", "drop2"))
    double_weight = 2 if variant.layout.doubles == "crosswise" else 1

    scoring = variant.scoring
    count_points, header_points = _points_tables(variant)
    scores_plays = not isinstance(scoring.when, spec.NoPredicate)
    muggins, penalise, over_claim = _muggins_codes(scoring)
    drawing = variant.drawing
    draw_code, max_draws, must_play, while_able = _drawing_codes(drawing)
    check, target, hands_in_match = _match_codes(variant.match, players)

    return Rules(
        variant=variant,
        players=players,
        teams=teams,
        tiles=ts,
        matching=ts.matching,
        other_half=ts.other_half,
        is_double=ts.is_double,
        next_seat=tuple((seat + 1) % players for seat in range(players)),
        plain_arms=order != ORDER_ALL4,
        boneyard_unread=draw_code == DRAW_NONE and not draws_more,
        owner=owner,
        owners=owners,
        mates=mates,
        hand_size=variant.hand_size(players),
        reserve=variant.reserve(players),
        spinner=spin_code,
        order=order,
        spinner_mult=mult,
        double_weight=double_weight,
        scores_plays=scores_plays,
        count_points=count_points,
        header_points=header_points,
        headers=header_points is not None,
        get_in=scoring.get_in,
        win_on_lead=scoring.winning_points_on_lead,
        muggins=muggins,
        penalise_over_claim=penalise,
        over_claim_points=over_claim,
        drawing=draw_code,
        max_draws=max_draws,
        must_play_drawn=must_play,
        draw_while_able=while_able,
        knock_bonus=drawing.knock_bonus,
        partners_both_out=variant.hand_end.partners_both_out and teams,
        lead_first=lead_first,
        lead_later=lead_later,
        lead_again=lead_again,
        lead_doubles_only=variant.lead.allowed == "double",
        settle_domino=compile_settlement(variant.settlement.domino, players),
        settle_blocked=compile_settlement(variant.settlement.blocked, players),
        floor=variant.settlement.floor,
        check=check,
        target=target,
        hands_in_match=hands_in_match,
    )


def _points_tables(variant: spec.Variant) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Points for every reachable count, and for matching ends by their number."""
    from bones.lang import spec
    from bones.lang.spec import points_for_count

    scoring = variant.scoring
    max_count = spec.max_reachable_count(variant) + 4 * variant.tiles.highest + 8
    count_points = tuple(points_for_count(scoring, c) for c in range(max_count + 1))
    header_points = None
    if isinstance(scoring.when, spec.MatchingEnds):
        top = max(scoring.when.points)
        header_points = tuple(
            scoring.when.points.get(size, 0) if size <= top else scoring.when.points[top]
            for size in range(2 * top + 9)
        )
    return count_points, header_points


def _muggins_codes(scoring: spec.Scoring) -> tuple[int, bool, int]:
    """(muggins code, penalise an over-claim, where over-claimed points go)."""
    from bones.lang import spec

    if isinstance(scoring.muggins, spec.MugginsOn):
        kind = MUGGINS_TRANSFER if scoring.muggins.kind == "transfer" else MUGGINS_FORFEIT
        return (kind, scoring.muggins.penalise_over_claim,
                _OVER_CLAIM_CODES[scoring.muggins.over_claim_points])
    return MUGGINS_OFF, False, OVER_CLAIM_LOST


def _drawing_codes(drawing: spec.Drawing) -> tuple[int, int, bool, bool]:
    """(drawing code, most draws a turn, must play the drawn, draw while able)."""
    from bones.lang import spec

    if isinstance(drawing, spec.NoDrawing):
        return DRAW_NONE, 0, True, False
    if isinstance(drawing, spec.DrawLimited):
        return (DRAW_LIMITED, drawing.max_per_turn, drawing.must_play_drawn,
                drawing.draw_while_able)
    return DRAW_UNTIL, 1 << 30, drawing.must_play_drawn, drawing.draw_while_able


def _match_codes(match: spec.MatchRule, players: int) -> tuple[int, int, int]:
    """(target check code, target, hands in a match of a fixed number of hands)."""
    from bones.lang import spec

    if isinstance(match, spec.TargetMatch):
        return _CHECK_CODES[match.check], spec.for_players(match.points, players), 0
    return CHECK_NONE, 0, match.count
