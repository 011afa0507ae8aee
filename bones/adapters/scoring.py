"""The scoring view: what each action of the action space would do to the
count now, appended to the observation encoding by the adapters'
``scoring=True`` option (docs/adapters.md, "The scoring view").

Two blocks of ``num_actions`` entries each, indexed as
:class:`bones.seat.actions.ActionSpace` numbers the actions:

* ``action_points``: the points the action would score now
  (:func:`bones.bots.policies.points_if`: the count's points, the get-in and
  lead rules, a knock bonus; 0 for a draw or a pass);
* ``action_count``: the layout's count after the action (the count as it is
  for a draw or a pass).

Both are 0 for every action that is not legal now, and everywhere while
another seat is to move or once the episode is over.  With ``scaled=True``
(what the adapters observe) both are divided by
:func:`bones.seat.encoding.count_cap`, the points clipped to
[-SCORE_CLIP, SCORE_CLIP] and the count to [0, 1].

A learner given only the encoding has to compute a variant's scoring from
the layout (which ends are open, what each tile adds); the view hands it
the one number ``greedy`` plays by, for every action, at the action's own
index.  The native vector environment computes the same values in Rust
(``native/src/run/vector.rs``, ``scoring``).
"""

from __future__ import annotations

from typing import Any

from bones.bots.policies import points_if
from bones.engine.hand import DRAW, PASS
from bones.engine.rules import Rules
from bones.seat.actions import ActionSpace
from bones.seat.encoding import SCORE_CLIP, Block, count_cap
from bones.seat.observation import Observation


class ScoringView:
    """The scoring view of one compiled variant (see the module)."""

    def __init__(self, rules: Rules, scaled: bool = False, start: int = 0) -> None:
        self.rules = rules
        self.scaled = scaled
        self.space = ActionSpace(rules)
        self.count_cap = count_cap(rules)
        n = self.space.num_actions
        inf = float("inf")
        points_low, points_high = (-SCORE_CLIP, SCORE_CLIP) if scaled else (-inf, inf)
        count_high = 1.0 if scaled else inf
        #: the blocks, placed from ``start`` (the encoding's size when appended to it)
        self.blocks = [Block("action_points", start, n, points_low, points_high),
                       Block("action_count", start + n, n, 0.0, count_high)]
        self.size = 2 * n

    def __reduce__(self) -> tuple[object, tuple[Rules, bool, int]]:
        return (ScoringView, (self.rules, self.scaled, self.blocks[0].start))

    def bounds(self) -> tuple[list[float], list[float]]:
        """Per entry, the least and greatest value it can take."""
        low: list[float] = []
        high: list[float] = []
        for b in self.blocks:
            low += [b.low] * b.size
            high += [b.high] * b.size
        return low, high

    def values(self, obs: Observation) -> list[float]:
        """The view of ``obs``: ``size`` floats."""
        n = self.space.num_actions
        out = [0.0] * (2 * n)
        layout = obs.layout
        if obs.turn != obs.seat or layout.state:
            return out
        cap = float(self.count_cap)
        for move in obs.legal_moves():
            i = self.space.index(move)
            if move in (DRAW, PASS):
                points, count = 0, layout.count
            else:
                points = points_if(layout, move)
                after = layout.copy()
                after.apply(move)
                count = after.count
            if self.scaled:
                out[i] = min(max(points / cap, -SCORE_CLIP), SCORE_CLIP)
                out[n + i] = min(max(count / cap, 0.0), 1.0)
            else:
                out[i] = float(points)
                out[n + i] = float(count)
        return out

    def encode(self, obs: Observation) -> Any:
        """The view as a NumPy float32 array."""
        import numpy as np

        return np.asarray(self.values(obs), dtype=np.float32)


__all__ = ["ScoringView"]
