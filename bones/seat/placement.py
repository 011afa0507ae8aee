"""Where each tile of a hand lies on the table, for the pictures of the front ends.

A hand keeps only what play needs (each arm's open pip, its hub); the
terminal's picture, the web page's layout and the adapters' ``render`` want
every tile in place: :func:`layout_of` replays a hand's moves on a fresh copy
of its deal and notes, for each tile, the half that touches what it was laid
against (``near``) and the half that faces out (``far``).

>>> from bones.lang.load import load_variant
>>> from bones.engine.match import Match
>>> from bones.lang.compile import compile_rules
>>> match = Match(compile_rules(load_variant("all-fives"), players=2), seed=1)
>>> hand = match.new_hand()
>>> codes = []
>>> while hand.placed < 3:
...     codes.append(hand.legal_moves()[0])
...     hand.apply(codes[-1])
>>> placed = layout_of(match.rules, match.current_deal, codes)
>>> placed.lead is not None and sum(len(arm) for arm in placed.arms) == 2
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bones.engine.moves import arm_of, is_flipped, tile_of
from bones.engine.trains import python_hand

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.leads import Deal
    from bones.engine.rules import Rules


@dataclass
class Piece:
    """A placed tile: ``near`` touches what it was laid against, ``far`` faces out."""

    tile: int
    near: int
    far: int
    double: bool
    cross: tuple[int, int] | None = None  # the cross arms when it is a spinner
    last: bool = False


@dataclass
class Placement:
    """Where each tile of a hand lies on the table (the lead and each arm in order)."""

    lead: Piece | None = None  # near = the W half, far = the E half
    arms: list[list[Piece]] = field(default_factory=list)
    open: list[int] = field(default_factory=list)  # pip to match per arm, -1 closed


def layout_of(rules: Rules, deal: Deal, codes: list[int]) -> Placement:
    """Replay a hand's moves on a fresh copy of its deal to learn where each tile lies."""
    hand = python_hand(rules, deal)
    ts = rules.tiles
    out = Placement()
    last: Piece | None = None
    for move in codes:
        if move < 0:
            hand.apply(move)
            continue
        tile = tile_of(move)
        before = len(hand.arm_open)
        if not hand.placed:
            west, east = ts.low[tile], ts.high[tile]
            if is_flipped(move):
                west, east = east, west
            hand.apply(move)
            piece = Piece(tile, west, east, ts.is_double[tile])
            out.lead = piece
            out.arms = [[] for _ in hand.arm_open]
            if len(hand.arm_open) > 2:
                piece.cross = (2, 3)
        else:
            arm = arm_of(move)
            near = hand.arm_open[arm]
            far = ts.other_half[tile][near]
            hand.apply(move)
            piece = Piece(tile, near, far, ts.is_double[tile])
            out.arms[arm].append(piece)
            while len(out.arms) < len(hand.arm_open):
                out.arms.append([])
            if len(hand.arm_open) > before:
                piece.cross = (before, before + 1)
        last = piece
    if last is not None:
        last.last = True
    out.open = list(hand.arm_open)
    return out


__all__ = ["Piece", "Placement", "layout_of"]
