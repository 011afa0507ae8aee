"""A fixed-shape numeric encoding of what one seat knows.

:class:`Encoding` turns an :class:`~bones.seat.observation.Observation`
into a flat vector of ``size`` numbers whose layout depends only on the
compiled variant (its tile set, player count, partnerships and the most arms
its layout can grow; a train layout's arms are its trains and every arm
that can grow from the hub or a foot, :func:`bones.seat.actions.train_arms`).
Seats are *relative*: entry 0 of every per-seat block is the observing
seat, entry 1 the next seat in turn, and so on; score blocks are per side,
the observer's side first.  So one network can play every seat.

The blocks, in order (``T`` tiles in the set, ``P`` pip values 0..highest,
``A`` arms, ``S`` seats, ``O`` sides):

========================  =========  ===============================================
block                     size       meaning
========================  =========  ===============================================
``own``                   T          1 for each tile in the seat's hand
``played``                T          1 for each tile on the table
``out_of_play``           T          1 for each tile set aside face down
``arm_open``              A × P      per arm, 1 at the pip that arm shows open
``open_ends``             P          how many open arms show each pip
``count``                 1          the layout's count (the number that scores)
``lead``                  1          1 while nothing has been played (the lead)
``tiles_held``            S          tiles each seat holds
``tiles_drawn``           S          tiles each seat has drawn this hand
``turn``                  S          1 at the seat to move
``drawable``              1          tiles that can still be drawn
``boneyard``              1          tiles in the boneyard (reserve included)
``drawn_this_turn``       1          tiles the seat to move has drawn this turn
``scores``                O          each side's score in the match
``got_in``                O          1 for each side that has met the get-in rule
``proven_void``           (S-1) × T  per other seat, 1 for each tile the public
                                     history proves it does not hold now
``markers``               0 or S     a train layout only: 1 for each seat whose
                                     train carries a marker (open to all)
``extra``                 0 or 1     1 when the move to make is an extra play
                                     after a double (only in a variant with
                                     ``turn.after_double``)
========================  =========  ===============================================

``scaled=True`` (what the learning adapters use) bounds every entry:
``count`` becomes ``min(count, count_cap) / count_cap`` in [0, 1] and each
score ``score / score_scale`` clipped to [-2, 2] (:func:`count_cap`,
:func:`score_scale`); the adapters put the raw count and scores in ``info``.

Nothing hidden from the seat enters: other hands and the boneyard's order
only through what the public history proves (``proven_void``, the bounds of
:mod:`bones.seat.observation` whose cap is zero).

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> from bones.engine.match import Match
>>> from bones.seat.observation import observe
>>> rules = compile_rules(load_variant("all-fives"))
>>> enc = Encoding(rules)
>>> enc.size
162
>>> hand = Match(rules, seed=3).new_hand()
>>> values = enc.values(observe(hand, 0))
>>> sum(enc.block(values, "own")), enc.block(values, "tiles_held")
(9.0, [9.0, 9.0])
"""

from __future__ import annotations

from typing import Any, NamedTuple

from bones.engine.rules import AFTER_NONE, Rules
from bones.seat.actions import max_arms
from bones.seat.observation import Observation

#: scaled scores are clipped to [-SCORE_CLIP, SCORE_CLIP]
SCORE_CLIP = 2.0


def count_cap(rules: Rules) -> int:
    """Where a scaled count saturates: twice the highest pip on every arm
    (no layout of the built-in variants reaches it)."""
    return max(1, 2 * rules.tiles.highest * max_arms(rules))


def score_scale(rules: Rules) -> int:
    """What a scaled score (and a ``scaled`` reward) is divided by: the
    variant's target, or 100 for a variant played for a number of hands."""
    return rules.target if rules.target > 0 else 100


class Block(NamedTuple):
    name: str
    start: int
    size: int
    low: float
    high: float  # float("inf") where no bound is known


class Encoding:
    """The encoding of one compiled variant; see the module's table."""

    def __init__(self, rules: Rules, scaled: bool = False) -> None:
        self.rules = rules
        self.scaled = scaled
        self.count_cap = count_cap(rules)
        self.score_scale = score_scale(rules)
        t = rules.tiles.size
        p = rules.tiles.highest + 1
        a = max_arms(rules)
        s = rules.players
        o = rules.owners
        inf = float("inf")
        most_drawn = max(t - rules.hand_size * s, 0)
        count_high, score_low, score_high = (1, -SCORE_CLIP, SCORE_CLIP) if scaled else (inf, -inf, inf)
        spec = [
            ("own", t, 0, 1), ("played", t, 0, 1), ("out_of_play", t, 0, 1),
            ("arm_open", a * p, 0, 1), ("open_ends", p, 0, a), ("count", 1, 0, count_high),
            ("lead", 1, 0, 1), ("tiles_held", s, 0, t), ("tiles_drawn", s, 0, max(most_drawn, 1)),
            ("turn", s, 0, 1), ("drawable", 1, 0, t), ("boneyard", 1, 0, t),
            ("drawn_this_turn", 1, 0, t), ("scores", o, score_low, score_high), ("got_in", o, 0, 1),
            ("proven_void", (s - 1) * t, 0, 1),
            ("markers", s if rules.trains is not None else 0, 0, 1),
            ("extra", 1 if rules.after_double != AFTER_NONE else 0, 0, 1),
        ]
        self.blocks: list[Block] = []
        start = 0
        for name, size, low, high in spec:
            self.blocks.append(Block(name, start, size, float(low), float(high)))
            start += size
        self.size = start
        self.arms = a
        self._by_name = {b.name: b for b in self.blocks}

    def __reduce__(self) -> tuple[object, tuple[Rules, bool]]:
        return (Encoding, (self.rules, self.scaled))

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def bounds(self) -> tuple[list[float], list[float]]:
        """Per entry, the least and greatest value it can take."""
        low: list[float] = []
        high: list[float] = []
        for b in self.blocks:
            low += [b.low] * b.size
            high += [b.high] * b.size
        return low, high

    def block(self, values: Any, name: str) -> list[float]:
        """The entries of block ``name`` in an encoded vector."""
        b = self._by_name[name]
        return list(values[b.start:b.start + b.size])

    def values(self, obs: Observation) -> list[float]:
        """``obs`` encoded, as a list of floats."""
        rules = self.rules
        ts = rules.tiles
        t = ts.size
        p = ts.highest + 1
        s = rules.players
        o = rules.owners
        layout = obs.layout
        seat = obs.seat
        out = [0.0] * self.size
        for tile in ts.tiles_of(obs.hand):
            out[tile] = 1.0
        for tile in ts.tiles_of(layout.on_table):
            out[t + tile] = 1.0
        for tile in ts.tiles_of(obs.out_of_play):
            out[2 * t + tile] = 1.0
        base = 3 * t
        ends = base + self.arms * p
        for arm, pip in enumerate(layout.arm_open):
            if pip >= 0:
                out[base + arm * p + pip] = 1.0
                out[ends + pip] += 1.0
        at = ends + p
        cap = self.count_cap
        out[at] = min(layout.count, cap) / cap if self.scaled else float(layout.count)
        out[at + 1] = 0.0 if layout.placed else 1.0
        at += 2
        for k in range(s):
            other = (seat + k) % s
            out[at + k] = float(obs.counts[other])
            out[at + s + k] = float(obs.drawn[other])
        at += 2 * s
        out[at + (obs.turn - seat) % s] = 1.0
        at += s
        out[at] = float(obs.drawable)
        out[at + 1] = float(obs.boneyard_left)
        out[at + 2] = float(layout.drawn_turn)
        at += 3
        mine = rules.owner[seat]
        for k in range(o):
            side = (mine + k) % o
            score = float(obs.scores[side])
            if self.scaled:
                score = min(max(score / self.score_scale, -SCORE_CLIP), SCORE_CLIP)
            out[at + k] = score
            out[at + o + k] = 1.0 if layout.got_in[side] else 0.0
        at += 2 * o
        if layout.extra >= 0:  # the last block (a variant without it never sets extra)
            out[-1] = 1.0
        marked = getattr(layout, "marked", None)  # a train layout's markers
        if marked is not None:
            row = self._by_name["markers"].start
            for k in range(s):
                out[row + k] = 1.0 if marked[(seat + k) % s] else 0.0
        for other, caps in enumerate(obs.limits()):
            if other == seat:
                continue
            void = 0
            for mask, cap in caps:
                if cap == 0:
                    void |= mask
            row = at + ((other - seat) % s - 1) * t
            for tile in ts.tiles_of(void):
                out[row + tile] = 1.0
        return out

    def encode(self, obs: Observation) -> Any:
        """``obs`` encoded as a ``numpy`` float32 array of shape ``shape``
        (numpy is needed here only)."""
        import numpy as np

        return np.asarray(self.values(obs), dtype=np.float32)

    def describe(self) -> str:
        """The blocks, one line each: name, offset, size."""
        return "\n".join(f"{b.name:16} {b.start:5} {b.size:5}" for b in self.blocks)


__all__ = ["SCORE_CLIP", "Block", "Encoding", "count_cap", "score_scale"]
