"""The immutable tables the engine plays by: :class:`Rules` and its int codes.

The language compiles a validated variant into ``Rules`` once per (variant,
player count, partnership choice) (:func:`bones.lang.compile.compile_rules`).
Every choice the variant makes is a small int code or a tuple indexed by a
number, so the hot path in :mod:`bones.engine.hand` never touches pydantic,
strings or dicts, and this module imports no model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bones.engine.settle import Settle
from bones.engine.tiles import TileSet

# spinner kinds
SPIN_NONE, SPIN_FIRST, SPIN_EVERY, SPIN_LED, SPIN_INLINE, SPIN_EVERY_BUT_LED = range(6)
# edge order
ORDER_SIDES, ORDER_ANY, ORDER_ALL4 = range(3)
# drawing kinds
DRAW_NONE, DRAW_UNTIL, DRAW_LIMITED = range(3)
# target checks; CHECK_HAND_WINNER: after settlement, only the hand's winner
# is tested against the target (match.check: hand_winner); CHECK_PENALTY:
# after settlement, a side at or above the target loses and the lowest
# score wins (match.kind: penalty)
CHECK_NONE, CHECK_HAND_END, CHECK_IMMEDIATE, CHECK_EXACT, CHECK_HAND_WINNER, CHECK_PENALTY = range(6)
# muggins
MUGGINS_OFF, MUGGINS_TRANSFER, MUGGINS_FORFEIT = range(3)
# who scores the true points of a rejected over-claim
OVER_CLAIM_LOST, OVER_CLAIM_CALLER, OVER_CLAIM_CLAIMER = range(3)
# first-lead rules (LeadRule.kind); LEAD_TILES: the first tile dealt of
# Rules.lead_tiles; LEAD_LOCKER (after a blocked hand only): its last player
(LEAD_LOT, LEAD_RANDOM, LEAD_HIGHEST_DOUBLE, LEAD_LOWEST_DOUBLE, LEAD_TILE, LEAD_SEAT,
 LEAD_LIGHTEST_TILE, LEAD_TILES, LEAD_LOCKER) = range(9)
# what a double or tile rule does when nobody holds one (LeadRule.if_none);
# NONE_HIGHEST_DOUBLE (tile rules only) looks for the highest double, and
# failing that the heaviest tile
(NONE_DRAW_MORE, NONE_HEAVIEST_HAND, NONE_HEAVIEST_TILE, NONE_LOT, NONE_REDEAL,
 NONE_HIGHEST_DOUBLE, NONE_LIGHTEST_TILE) = range(7)
# later-lead rules (Rules.lead_later)
(LATER_DOMINOER, LATER_WINNER, LATER_ROTATE_NEXT, LATER_ROTATE_PREVIOUS, LATER_ALTERNATE,
 LATER_SERIES, LATER_FIRST) = range(7)
# an extra play in the same turn after a double (turn.after_double)
AFTER_NONE, AFTER_ANOTHER_DOUBLE, AFTER_EXTRA_TILE = range(3)
# when a count scores (scoring.when): never, when a divisor divides it, when
# it is listed, or by matching ends (the layout scores, not the count)
WHEN_NONE, WHEN_MULTIPLE_OF, WHEN_IN_LIST, WHEN_MATCHING_ENDS = range(4)
# what a scoring count is worth (scoring.points)
POINTS_COUNT, POINTS_DIVIDED, POINTS_SUM_OF_QUOTIENTS, POINTS_PER_DIVISOR, POINTS_FLAT = range(5)


def count_points_of(when: int, values: tuple[int, ...], points: int, param: int,
                    count: int) -> int:
    """The points a play scores when the layout shows ``count``, by the
    compiled scoring codes (``values``: the divisors or the listed counts;
    ``param``: the divisor of ``divided``, the amount of ``flat``).  A count
    of 0 never scores (docs/rules.md, decision 1); matching ends score by
    the layout, never by the count.

    >>> [count_points_of(WHEN_MULTIPLE_OF, (5, 3), POINTS_SUM_OF_QUOTIENTS, 0, c)
    ...  for c in (3, 5, 15, 30, 0, 7)]
    [1, 1, 8, 16, 0, 0]
    """
    if count <= 0:
        return 0
    if when == WHEN_MULTIPLE_OF:
        dividing = [d for d in dict.fromkeys(values) if count % d == 0]
        if not dividing:
            return 0
    elif when == WHEN_IN_LIST:
        if count not in values:
            return 0
        dividing = []
    else:
        return 0
    if points == POINTS_COUNT:
        return count
    if points == POINTS_DIVIDED:
        return count // param
    if points == POINTS_SUM_OF_QUOTIENTS:
        return sum(count // d for d in dividing)
    if points == POINTS_PER_DIVISOR:
        return count * len(dividing)
    return param  # POINTS_FLAT


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
class TrainRules:
    """A ``layout.trains`` block compiled to ints (docs/trains.md)."""

    top: int  # round 1's hub double; round r uses top - (r - 1)
    rounds: int  # rounds of a match
    placing_ends_turn: bool  # placing the hub is the placer's whole turn
    seat_trains: bool  # a personal train per seat, with its marker
    public: int  # public trains
    public_needs_own: bool  # a public train only for a seat whose own train is started
    public_in_first_turn: bool  # a first turn may start or extend a public train
    hub_tiles: int  # tiles that must lie against the hub before any other play
    cover: int  # tiles a double at an arm's end is owed before other play (0: none)
    toes: bool  # each cover makes a new arm (the arm of the double closes)
    cover_self: bool  # the player who lays a double covers it in the same turn
    first_turn_multi: bool  # a first turn lays any number of tiles on one's own train
    first_turn_stop: bool  # a first turn of several tiles may be stopped early (pass)
    marker_off_anywhere: bool  # the owner's marker comes off when he plays anywhere
    values: tuple[int, ...]  # what each tile id left in a hand is charged
    marker_penalty: int  # charged for a marker on one's train at the round's end
    lose_at: int  # a total at or above this ends the match (0: rounds only)
    cover_self_only: bool  # a double its player cannot cover binds nobody
    one_more_anywhere: bool  # after a double its player lays one more tile anywhere
    release: bool  # a double owed covers is released once no tile could cover it
    out_on_double: int  # the others' charges multiplied by this when going out on a double
    hub_set_aside: bool  # the hub is set aside before the deal, the first player by lot
    many_per_turn: bool  # a turn goes on while a tile can be laid
    first_spinner: bool  # the first double on an arm is a spinner (two more arms), not a foot

    def hub_pip(self, round_number: int) -> int:
        """The hub double's number in round ``round_number`` (1 first)."""
        return max(self.top - (round_number - 1), 0)


@dataclass(frozen=True)
class TableField:
    """How one field of :class:`Rules` travels in the flat table
    (:mod:`bones.engine.flat`), which the native core reads.

    ``kind`` is the value's form, one of :data:`bones.engine.flat.KINDS`
    (``flag``, ``int``, ``count``, ``ints``, ``seats``, ``ints[N]``,
    ``flags[N]``, ``optional``, ``settle``, ``lead``, or ``code:Enum/FAMILY``
    for a rule code of a family of this module or of :mod:`bones.engine.settle`);
    ``meaning`` is one line for the table's description; ``part`` is
    ``"hand"`` for what a hand reads, ``"match"`` for what only a whole match
    reads (dealing and leads).
    """

    kind: str
    meaning: str
    part: str = "hand"


def table(kind: str, meaning: str, *, part: str = "hand", show: bool = True) -> Any:
    """Declare a field of :class:`Rules` the flat table carries: this one
    line is the field's whole declaration for both cores (the Python
    flattening, the table's description and version, and the native core's
    ``Table`` and its reader, generated by ``tools/generate_native.py``)."""
    return field(repr=show, metadata={"table": TableField(kind, meaning, part)})


@dataclass(frozen=True)
class Rules:
    """A variant compiled for one table: player count and partnerships fixed.

    The fields declared with :func:`table` are the flat table the native
    core reads, in their order; the first ones are the Python engine's own
    conveniences, derived from them (or, for ``variant``, what the rules
    were compiled from: the engine never reads it).  Every field is
    required (a type checker takes ``table()`` for a default, so the
    declared fields come last).
    """

    # ------------------------------------------------ the Python engine's own
    #: what these rules were compiled from (the language's model, or a cached
    #: built-in's stand-in): for the layers above; the engine never reads it
    variant: Any = field(repr=False)
    name: str
    tiles: TileSet = field(repr=False)
    # hot-path copies of tile tables, one attribute hop away
    matching: tuple[int, ...] = field(repr=False)
    other_half: tuple[tuple[int, ...], ...] = field(repr=False)
    is_double: tuple[bool, ...] = field(repr=False)
    next_seat: tuple[int, ...] = field(repr=False)
    # per seat: the other seats of its team (empty without partnerships)
    mates: tuple[tuple[int, ...], ...]
    spinner: int  # SPIN_*: the kind as written; the cores read the facts above
    win_on_lead: bool

    # ------------------------------------------------ the flat table: a hand
    players: int = table("count", "seats at the table")
    owners: int = table("count", "score owners: the seats, or the two teams")
    teams: bool = table("flag", "two teams, seats alternating round the table")
    # score owners: seat -> index into the scores (its team when partnered:
    # two teams, seats alternating, team = seat % 2)
    owner: tuple[int, ...] = table("seats", "per seat, its score owner (a seat's mates share it)")
    opponent_after: tuple[int, ...] = table(
        "seats", "per seat, the next seat in turn not on its side (the muggins caller)")
    highest: int = table("count", "the tile set's highest pip (tile ids in bones.engine.tiles' order)")
    hand_size: int = table("count", "tiles dealt to each seat")
    reserve: int = table("count", "boneyard tiles never drawn")
    # layout
    order: int = table("code:Order/ORDER", "the order a spinner's edges open in")
    # no edge-order rule ever freezes an arm (every order but all_four_first)
    plain_arms: bool = table("flag", "no edge order ever freezes an arm")
    spinner_mult: tuple[int, ...] = table(
        "ints[5]", "a spinner's multipliers of its pip by how many of its edges are covered")
    double_weight: int = table("int", "what a double at an arm's end counts its pip (2 crosswise)")
    # derived from the spinner kind once (the hands, the bots and both cores
    # read these, never the kind): whether a led double becomes a spinner,
    # and whether a double played later does, by whether a double has been
    # played before it (indexed by Hand.first_double_seen)
    spins_led: bool = table("flag", "a led double becomes a spinner")
    spins_later: tuple[bool, bool] = table(
        "flags[2]", "a double played later becomes a spinner: [while no double has been played, after]")
    # a spinner's cross arms are one-tile stubs (the in-line sniff), not arms
    # it grows: its hub does not spin
    cross_stubs: bool = table("flag", "a spinner's cross ends are one-tile stubs (the in-line sniff)")
    # the multipliers of a led double's hub (a spinner's, or an ordinary
    # double's: both halves while alone, then as an end)
    lead_double_mult: tuple[int, ...] = table("ints[5]", "the multipliers of a led double's hub")
    # the most arms a layout can have (a line's two, two more per spinner)
    max_arms: int = table("count", "the most arms a layout can have (the action space's width)")
    # scoring
    scores_plays: bool = table("flag", "plays score by the count")
    count_points: tuple[int, ...] = table(
        "ints", "points by count, for every count a layout reaches", show=False)
    headers: bool = table("flag", "plays score by matching ends (header_points)")
    header_points: tuple[int, ...] | None = table(
        "ints", "matching ends' points by how many ends match (empty: none)", show=False)
    when: int = table("code:When/WHEN", "when a count scores")
    when_values: tuple[int, ...] = table("ints", "the divisors of multiple_of, the counts of in_list")
    points_kind: int = table("code:Points/POINTS", "what a scoring count is worth")
    points_param: int = table("int", "the divisor of divided points, the amount of flat points")
    get_in: int = table("int", "points a side must score at once to start scoring (0: none)")
    # a side that got in stays in for the match (scoring.get_in_scope: match)
    get_in_match: bool = table("flag", "a side that got in stays in for the match")
    # a lead that would reach the target scores nothing (leads may not win,
    # and there is a target to reach)
    lead_cannot_win: bool = table("flag", "a lead that would reach the target scores nothing")
    muggins: int = table("code:Muggins/MUGGINS", "points a player misses")
    penalise_over_claim: bool = table("flag", "a muggins claim above the points is penalised")
    over_claim_points: int = table(
        "code:OverClaim/OVER_CLAIM", "who scores a rejected over-claim's true points")
    # drawing
    drawing: int = table("code:Drawing/DRAW", "drawing from the boneyard")
    max_draws: int = table("int", "the most draws a turn (1 << 30: unlimited)")
    must_play_drawn: bool = table("flag", "a drawn tile that fits must be played")
    draw_while_able: bool = table("flag", "a player may draw while able to play")
    knock_bonus: int = table("int", "points to the opponents when a player knocks")
    # a player to move who can neither play nor draw ends the hand, blocked
    # (drawing.stuck: block), instead of passing; a failed draw of the last
    # drawable tile blocks the hand when nobody can play
    stuck_blocks: bool = table(
        "flag", "the player to move who can neither play nor draw ends the hand, blocked")
    # the hand goes on until every member of a team is out (teams only)
    partners_both_out: bool = table("flag", "the hand goes on until every member of a team is out")
    # the line grows at one end only after the lead (layout.ends: one)
    one_end: bool = table("flag", "after the lead only the line's E end is open")
    after_double: int = table("code:AfterDouble/AFTER", "an optional extra play after a double")
    extra_repeat: bool = table("flag", "a double played as the extra tile gives the option again")
    # bonuses: at the end of a hand (in its settlement) or as they happen
    capicua_points: int = table("int", "points for going out with a tile that fits both ends (0: off)")
    capicua_doubles: bool = table("flag", "a double fitting both (equal) ends makes capicua")
    last_tile: int = table("int", "the tile whose going out scores last_tile_points (-1: none)")
    last_tile_points: int = table("int", "points for going out with last_tile")
    opening_pass_double: int = table("int", "points to the leader's side for a pass on a double lead")
    opening_pass_other: int = table("int", "points to the leader's side for a pass on another lead")
    round_pass: int = table("int", "points to a player's side when all the others pass after his play")
    hand_bonus: tuple[int, ...] = table("ints", "points to the winner of hand 1, 2, ... of the match")
    blocked_win: int = table("int", "points more to the side that wins a blocked hand")
    first_minimum: int = table("int", "a settlement below this to a side still at 0 is not recorded")
    void_at: int = table("int", "every side at this many points or more: the match ends void (0: off)")
    floor: int | None = table("optional", "the lowest a score may fall to ([]: no floor)")
    check: int = table("code:Check/CHECK", "when the target is checked")
    target: int = table("int", "the points that win the match")
    hands_in_match: int = table("int", "the hands of a match of a fixed number of hands (0: a target)")
    # settlement
    settle_domino: Settle = table("settle", "the settlement of a hand someone went out of")
    settle_blocked: Settle = table("settle", "the settlement of a blocked hand")
    # derived once from the bonuses and the blocked settlement (the bots of
    # both cores read it): once nothing can be drawn, what the ends a play
    # leaves can earn is worth judging
    ends_pay: bool = table(
        "flag", "once nothing can be drawn, the ends a play leaves can earn: a pass bonus, "
        "a capicua or last-tile finish, a block decided by comparing hands")
    # derived once from the tile set and the deal (both cores' trees read
    # it): what a hand's margin is worth to the search's tree by default
    tree_scale: int = table(
        "count", "points of a hand's margin worth the search tree's largest reward by default "
        "(the bots' scale=0): 20 up to 54 pips dealt to a seat, 5/3 more a pip above")
    #: a train layout (``bones.engine.trains.TrainRules``), None for a line or
    #: spinner layout (docs/trains.md); both cores play it
    trains: Any = table("trains", "a train layout (docs/trains.md): [] for a line or spinner "
                        "layout, else its TrainRules fields then each tile's charge")
    # ------------------------------------------------ the flat table: a match
    lead_first: LeadRule = table("lead", "who leads the first hand", part="match")
    lead_later: int = table("code:Later/LATER", "who leads the later hands", part="match")
    # after a block (domino_er), with no winner (winner)
    lead_again: LeadRule = table("lead", "the later lead's fallback", part="match")
    # a lead by no named tile must be a double
    lead_doubles_only: bool = table("flag", "a lead by no named tile must be a double", part="match")
    # nothing ever draws from the boneyard, so a deal need not order it
    boneyard_unread: bool = table(
        "flag", "nothing ever draws from the boneyard (deal by shuffle_tail)", part="match")
    lead_tiles: tuple[int, ...] = table("ints", "the tiles of a LEAD_TILES rule, in order", part="match")
    # lead.if_no_double: draw
    lead_draws_double: bool = table(
        "flag", "a leader without a double draws until one comes and leads it", part="match")
    redeal_doubles: int = table("int", "redeal when a hand holds this many doubles (0: off)",
                                part="match")
    redeal_suit: int = table("int", "redeal when a hand holds this many of one suit (0: off)",
                             part="match")
    hand_bonus_skip_tied: bool = table(
        "flag", "only hands with a winner are numbered for hand_bonus", part="match")
    games: int = table("int", "games to win the match, each a run of hands to the target",
                       part="match")

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
        """What a play scores when the layout shows ``count``: the compiled
        table, and beyond it the same rule computed."""
        table = self.count_points
        if 0 <= count < len(table):
            return table[count]
        return count_points_of(self.when, self.when_values, self.points_kind, self.points_param,
                               count)

    @property
    def lowest_wins(self) -> bool:
        """Whether a side's points count against it: a penalty match
        (``match.kind: penalty``) or a train layout's rounds, whose hands are
        charged and whose lowest total wins (docs/trains.md).  The searches'
        margin and the learners' rewards negate points there."""
        return self.check == CHECK_PENALTY or self.trains is not None
