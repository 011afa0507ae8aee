"""The exact solver of one sampled world: the Python reference of
``native/src/bots/solve.rs``, finding the same values.

A world is solved when nothing is left to chance in it (no tile can be
drawn any more) and at most ``limit`` tiles are in the hands: the rest of
the hand is then a finite game of perfect information, valued by minimax
(the searcher's side maximises, every other side minimises) of the
searcher's side's points from the rest of the hand less the best opposing
side's, the value a rollout estimates.  Alpha-beta with a transposition
table keyed by everything that decides the rest of the hand; the values are
exact, so the native solver (which keys its table by a hash of the same
fields) finds the same numbers.
"""

from __future__ import annotations

from bones.bots.matchvalue import MatchTable
from bones.bots.policies import points_if
from bones.engine.bounds import BELOW_ANY_SCORE
from bones.engine.hand import PLAYING, Hand
from bones.engine.moves import TILE_SHIFT

_EXACT, _LOWER, _UPPER = 0, 1, 2
_WINDOW = 1 << 62


def solvable(world: Hand, limit: int) -> bool:
    """Whether ``world`` may be solved: no draw can happen any more and at
    most ``limit`` tiles are in the hands."""
    if not limit or world.state != PLAYING:
        return False
    if world.rules.max_draws and world.drawable:
        return False
    return sum(h.bit_count() for h in world.hands) <= limit


def _key(h: Hand) -> tuple[object, ...]:
    return (tuple(h.hands), h.on_table, tuple(h.arm_open), tuple(h.arm_end),
            tuple(h.arm_weight), tuple(h.arm_hub), tuple(h.arm_frozen), tuple(h.arm_side),
            tuple(h.arm_stub), tuple(h.hub_k), tuple(h.hub_sides_left), tuple(h.hub_pip),
            h.count, h.turn, h.passes, h.drawn_turn, h.spinners, h.pot, h.last_player,
            tuple(h.scores), tuple(h.got_in), tuple(h.out), h.first_double_seen)


class Solver:
    """Solves worlds (``native/src/bots/solve.rs``'s ``Solver``)."""

    def __init__(self) -> None:
        self.nodes = 0
        self._tt: dict[tuple[object, ...], tuple[int, int]] = {}
        self._me = 0
        self._base: list[int] = []
        self._table: MatchTable | None = None

    def values(self, world: Hand, me: int, base: list[int], legal: list[int],
               table: MatchTable | None = None) -> list[int]:
        """The exact value for side ``me`` of every move of ``legal`` in the
        solvable ``world``, from the scores ``base``; with ``table``, a
        finished hand is worth the side's probability of winning the match
        (:mod:`bones.bots.matchvalue`) instead of its points (the table's
        key holds the scores, so it stays exact)."""
        self._tt = {}
        self._table = table
        self._me = me
        self._base = list(base)
        out = []
        for move in legal:
            child = world.copy()
            child.log = []
            child.apply(move)
            out.append(self._value(child, -_WINDOW, _WINDOW))
        return out

    def _terminal(self, h: Hand) -> int:
        if self._table is not None:
            return self._table.value(h.scores, self._me, h.game_over, h.winner)
        mine, theirs = 0, BELOW_ANY_SCORE
        for owner, (a, b) in enumerate(zip(h.scores, self._base)):
            if owner == self._me:
                mine = a - b
            else:
                theirs = max(theirs, a - b)
        return mine - theirs

    def _value(self, h: Hand, alpha: int, beta: int) -> int:
        self.nodes += 1
        if h.state != PLAYING:
            return self._terminal(h)
        key = _key(h)
        hit = self._tt.get(key)
        if hit is not None:
            v, flag = hit
            if (flag == _EXACT or (flag == _LOWER and v >= beta)
                    or (flag == _UPPER and v <= alpha)):
                return v
        a0, b0 = alpha, beta
        legal = h.legal_moves()
        if len(legal) > 1:
            pips = h.rules.tiles.pips
            legal.sort(key=lambda m: (-points_if(h, m), -(pips[m >> TILE_SHIFT] if m >= 0 else -1)))
        maximise = h.rules.owner[h.turn] == self._me
        best = -_WINDOW - 1 if maximise else _WINDOW + 1
        for move in legal:
            child = h.copy()
            child.log = []
            child.apply(move)
            v = self._value(child, alpha, beta)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        self._tt[key] = (best, flag)
        return best


__all__ = ["Solver", "solvable"]
