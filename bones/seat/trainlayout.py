"""A train layout as the front ends draw it: the hub, and each train or arm as a row.

:func:`bones.seat.placement.layout_of` places the tiles of a line or spinner
layout; a train layout (docs/trains.md) is drawn instead as rows growing from
the hub double: one row per personal train (``T<n>``), public train (``M``)
or arm (``A<k>``), each with its tiles in order from the hub, its open end,
its marker and the covers its double is still owed.  :func:`train_table`
replays a hand's moves on a fresh copy of its deal (as ``layout_of`` does)
and reads every fact from the engine's own :class:`~bones.engine.trains.TrainHand`
(its arms, markers, owed doubles, ``needs``, ``binding``); nothing here
decides a rule.  `bones play` (:mod:`bones.cli.trainrender`) and the web
table's view (:mod:`bones.web.view`) both draw from it, so the terminal, the
browser and the replays show the same rows.

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> from bones.engine.match import Match
>>> match = Match(compile_rules(load_variant("mexican-train"), players=3), seed=1)
>>> hand = match.new_hand()
>>> codes = []
>>> while hand.placed < 3:
...     codes.append(hand.legal_moves()[0])
...     hand.apply(codes[-1])
>>> table = train_table(match.rules, match.current_deal, codes)
>>> table.hub.near, [row.name for row in table.rows]
(12, ['T0', 'T1', 'T2', 'M'])
>>> sum(len(row.tiles) for row in table.rows)
2
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bones.engine.moves import FOOT_ARM, HUB_ARM, arm_name, arm_of, tile_of
from bones.engine.trains import TrainHand
from bones.seat.placement import Piece

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.leads import Deal
    from bones.engine.rules import Rules

#: ``TrainRow.owner`` of a public train, and of an arm grown from the hub or a foot
PUBLIC, ARM = -1, -2


@dataclass
class TrainRow:
    """One train or arm, its tiles in order from the hub (or from its foot's double)."""

    arm: int  # the hand's arm index
    name: str  # its target in the notation: T0, M, M2, A3
    owner: int  # a seat, PUBLIC or ARM
    tiles: list[Piece] = field(default_factory=list)
    open: int = -1  # the pip its next tile must match, -1 when closed
    started: bool = True  # a personal or public train with a tile on it
    marked: bool = False  # a personal train carrying its owner's marker (open to all)
    owes: int = 0  # covers still owed to the double at its end (a cover continues the row)
    binds: bool = False  # that double must be covered before any other play, now
    source: str = "hub"  # what it grows from: "hub", or the row whose double it is a toe of
    foot: Foot | None = None  # the double that closed this row, owed toes


@dataclass
class Foot:
    """A double that closed its row and is owed toes (``F``), each a new row."""

    row: str  # the name of the row it closed
    pip: int
    left: int  # toes still owed
    binds: bool  # every player must lay its toes before any other play, now


@dataclass
class TrainTable:
    """The whole layout of a train hand, for a picture."""

    hub: Piece | None  # the hub double, None before it is placed
    hub_tile: int  # the round's hub double (a tile id), placed or not
    hub_left: int  # tiles the hub still takes (``H``)
    hub_binds: bool  # the hub takes tiles before any other play, now
    rows: list[TrainRow]
    feet: list[Foot]
    needs: dict[str, int]  # what must still be laid before play goes elsewhere, by target
    turn: int  # the seat to move
    first_turn: bool  # the seat to move is in a first turn of several tiles on his own train
    over: bool


def train_table(rules: Rules, deal: Deal, codes: list[int]) -> TrainTable:
    """Replay ``codes`` from ``deal`` and read the layout's rows from the hand."""
    hand = TrainHand.from_deal(rules, deal)
    ts = rules.tiles
    tiles: list[list[Piece]] = []
    sources: list[str] = []
    hub: Piece | None = None
    closed_by: list[int] = []  # per foot still owed toes, oldest first: the arm it closed
    last: Piece | None = None
    for move in codes:
        if move < 0:
            hand.apply(move)
            continue
        tile = tile_of(move)
        if not hand.placed:
            hand.apply(move)
            hub = last = Piece(tile, ts.low[tile], ts.high[tile], True)
            tiles = [[] for _ in hand.arm_open]
            sources = ["hub"] * len(hand.arm_open)
            continue
        arm = arm_of(move)
        feet_before = len(_feet(hand))
        served = -1  # the foot a toe is laid against, by its place among the feet
        if arm == HUB_ARM:
            near = hand.hub_number
        elif arm == FOOT_ARM:
            owed = hand.binding()
            assert owed is not None
            near = owed[1]
            served = [id(o) for o in _feet(hand)].index(id(owed))
        else:
            near = hand.arm_open[arm]
        before = len(hand.arm_open)
        hand.apply(move)
        last = Piece(tile, near, ts.other_half[tile][near], bool(ts.is_double[tile]))
        row = arm
        if arm in (HUB_ARM, FOOT_ARM):
            row = before  # the play made the next arm
            tiles.append([])
            sources.append("hub" if arm == HUB_ARM
                           else arm_name(hand.target_of(closed_by[served])))
        tiles[row].append(last)
        while len(tiles) < len(hand.arm_open):  # a spinner's sides (doubles.first_spinner)
            tiles.append([])
            sources.append(arm_name(hand.target_of(row)))
        feet_after = len(_feet(hand))
        if served >= 0 and feet_after < feet_before:
            closed_by.pop(served)  # its last toe: the foot is served in full
        elif feet_after > feet_before:
            closed_by.append(row)  # a double closed the row: its toes are owed
    return _read(hand, hub, tiles, sources, closed_by, last)


def _feet(hand: TrainHand) -> list[list[int]]:
    return [o for o in hand.owed if o[0] < 0]


def _read(hand: TrainHand, hub: Piece | None, tiles: list[list[Piece]], sources: list[str],
          closed_by: list[int], last: Piece | None) -> TrainTable:
    if last is not None:
        last.last = True
    binding = hand.binding() if hand.placed and not hand.over else None
    rows: list[TrainRow] = []
    for arm, owner in enumerate(hand.arm_owner):
        started = owner == ARM or hand.arm_end[arm] >= 0
        owes = sum(o[2] for o in hand.owed if o[0] == arm)
        rows.append(TrainRow(
            arm=arm, name=arm_name(hand.target_of(arm)), owner=owner, tiles=tiles[arm],
            open=hand.arm_open[arm], started=started,
            marked=owner >= 0 and hand.marked[owner], owes=owes,
            binds=(binding is not None and binding[0] == arm) or hand.must_cover == arm,
            source=sources[arm]))
    feet: list[Foot] = []
    for k, owed in enumerate(_feet(hand)):
        row = rows[closed_by[k]]
        foot = Foot(row.name, owed[1], owed[2], binding is owed)
        row.foot = foot
        feet.append(foot)
    hub_left = hand.hub_left if hand.placed else 0
    return TrainTable(
        hub=hub, hub_tile=hand.lead_tile, hub_left=hub_left,
        hub_binds=bool(hub_left) and not hand.over, rows=rows, feet=feet,
        needs={arm_name(t): n for t, n in hand.needs().items()}, turn=hand.turn,
        first_turn=hand.placed > 0 and not hand.over and hand.in_first_turn(), over=hand.over)


__all__ = ["ARM", "PUBLIC", "Foot", "TrainRow", "TrainTable", "train_table"]
