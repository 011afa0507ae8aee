"""The immutable tables the engine plays by: :class:`Rules` and its int codes.

The language compiles a validated variant into ``Rules`` once per (variant,
player count, partnership choice) (:func:`bones.lang.compile.compile_rules`).
Every choice the variant makes is a small int code or a tuple indexed by a
number, so the hot path in :mod:`bones.engine.hand` never touches pydantic,
strings or dicts, and this module imports no model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bones.engine.settle import Settle
from bones.engine.tiles import TileSet

if TYPE_CHECKING:  # the models are needed to compile, not to play (fast start-up)
    from bones.lang import spec

# spinner kinds
SPIN_NONE, SPIN_FIRST, SPIN_EVERY, SPIN_LED, SPIN_INLINE, SPIN_EVERY_BUT_LED = range(6)
# edge order
ORDER_SIDES, ORDER_ANY, ORDER_ALL4 = range(3)
# drawing kinds
DRAW_NONE, DRAW_UNTIL, DRAW_LIMITED = range(3)
# target checks; CHECK_HAND_WINNER: after settlement, only the hand's winner
# is tested against the target (match.check: hand_winner)
CHECK_NONE, CHECK_HAND_END, CHECK_IMMEDIATE, CHECK_EXACT, CHECK_HAND_WINNER = range(5)
# muggins
MUGGINS_OFF, MUGGINS_TRANSFER, MUGGINS_FORFEIT = range(3)
# who scores the true points of a rejected over-claim
OVER_CLAIM_LOST, OVER_CLAIM_CALLER, OVER_CLAIM_CLAIMER = range(3)
# first-lead rules (LeadRule.kind)
(LEAD_LOT, LEAD_RANDOM, LEAD_HIGHEST_DOUBLE, LEAD_LOWEST_DOUBLE, LEAD_TILE, LEAD_SEAT,
 LEAD_LIGHTEST_TILE) = range(7)
# what a double or tile rule does when nobody holds one (LeadRule.if_none);
# NONE_HIGHEST_DOUBLE (tile rules only) looks for the highest double, and
# failing that the heaviest tile
(NONE_DRAW_MORE, NONE_HEAVIEST_HAND, NONE_HEAVIEST_TILE, NONE_LOT, NONE_REDEAL,
 NONE_HIGHEST_DOUBLE, NONE_LIGHTEST_TILE) = range(7)
# later-lead rules (Rules.lead_later)
(LATER_DOMINOER, LATER_WINNER, LATER_ROTATE_NEXT, LATER_ROTATE_PREVIOUS, LATER_ALTERNATE,
 LATER_SERIES, LATER_FIRST) = range(7)


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
    # per seat: the next seat in turn not on its side (the muggins caller)
    opponent_after: tuple[int, ...]
    hand_size: int
    reserve: int
    # layout
    spinner: int  # SPIN_*: the kind as written; the cores read the facts below
    order: int
    spinner_mult: tuple[int, ...]
    double_weight: int
    # derived from the spinner kind once (the hands, the bots and both cores
    # read these, never the kind): whether a led double becomes a spinner,
    # and whether a double played later does, by whether a double has been
    # played before it (indexed by Hand.first_double_seen)
    spins_led: bool
    spins_later: tuple[bool, bool]
    # a spinner's cross arms are one-tile stubs (the in-line sniff), not arms
    # it grows: its hub does not spin
    cross_stubs: bool
    # the multipliers of a led double's hub (a spinner's, or an ordinary
    # double's: both halves while alone, then as an end)
    lead_double_mult: tuple[int, ...]
    # the most arms a layout can have (a line's two, two more per spinner)
    max_arms: int
    # scoring
    scores_plays: bool
    count_points: tuple[int, ...] = field(repr=False)
    header_points: tuple[int, ...] | None = field(repr=False)
    headers: bool
    get_in: int
    # a side that got in stays in for the match (scoring.get_in_scope: match)
    get_in_match: bool
    win_on_lead: bool
    # a lead that would reach the target scores nothing (leads may not win,
    # and there is a target to reach)
    lead_cannot_win: bool
    muggins: int
    penalise_over_claim: bool
    over_claim_points: int  # OVER_CLAIM_*
    # drawing
    drawing: int
    max_draws: int
    must_play_drawn: bool
    draw_while_able: bool
    knock_bonus: int
    # a player to move who can neither play nor draw ends the hand, blocked
    # (drawing.stuck: block), instead of passing
    stuck_blocks: bool
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
        return self.opponent_after[seat]

    # Compiled tables are immutable: a copy is the same object (a pickle
    # carries the tables themselves, so unpickling compiles nothing).
    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Rules:
        return self

    def points(self, count: int) -> int:
        table = self.count_points
        if 0 <= count < len(table):
            return table[count]
        return self.variant.points_for_count(count)

