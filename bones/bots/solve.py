"""The exact solver of one sampled world: the Python reference of
``native/src/bots/solve.rs``, finding the same values.

A world is solved when nothing is left to chance in it (no tile can be
drawn any more) and at most ``limit`` tiles are in the hands: the rest of
the hand is then a finite game of perfect information, valued by minimax
(the searcher's side maximises, every other side minimises) of the
searcher's side's points from the rest of the hand less the best opposing
side's, the value a rollout estimates.  Alpha-beta with a transposition
table keyed by a 64-bit hash of everything that decides the rest of the
hand; the values are exact (but for a collision of two such hashes in one
solve), so the native solver, which keys its table by its own hash of the
same fields, finds the same numbers.

The work is bounded: a solve may be given a limit of positions (every call
of the minimax counted, in the same order in both cores), past which it
gives up (:meth:`Solver.within`), and its table holds at most
:data:`TT_CAP` entries (docs/bots.md, "A bounded solve").
"""

from __future__ import annotations

from bones.bots.matchvalue import MatchTable
from bones.bots.policies import margin, points_if
from bones.bots.stop import EVERY, Stop
from bones.engine.hand import PLAYING, Hand
from bones.engine.moves import TILE_SHIFT
from bones.engine.rules import CHECK_PENALTY

#: The most positions a move's exact solving may visit by default (the
#: ``nodes`` of ``search``, ``epimc`` and ``ismcts``), shared equally by
#: its different worlds (``search``, ``epimc``: worlds with the same tiles in
#: the hands are solved once) or its iterations (``ismcts``'s leaves): a
#: world whose solve would visit more than its share is played out (left
#: out by ``epimc``).  About 0.6 s of CPU natively at the most, where the
#: median move takes milliseconds (docs/bots.md, "A bounded solve").  Both
#: cores count the same positions (every call of the minimax, in the same
#: order), so they cut the same worlds.
DEFAULT_NODES = 2_000_000
#: The largest ``nodes`` a bot text may give (the command line, saves and
#: the web server alike; the classes themselves take 0 for no limit).
MAX_NODES = 10_000_000

#: The most entries a solve's transposition table holds (``solve.rs``'s
#: ``TT_CAP``): once full, it stores no new position (one already there is
#: updated), so both cores visit the same positions and the table's memory
#: stays bounded (about 30 MB natively, 90 MB here).
TT_CAP = 1 << 19

_EXACT, _LOWER, _UPPER = 0, 1, 2
_WINDOW = 1 << 62


def solvable(world: Hand, limit: int) -> bool:
    """Whether ``world`` may be solved: no draw can happen any more and at
    most ``limit`` tiles are in the hands.  A train layout's position is
    never solved (the solver keys and orders a line's positions; the
    searches play a train round's worlds out, in both cores)."""
    if not limit or world.state != PLAYING or world.rules.trains is not None:
        return False
    if world.rules.max_draws and world.drawable:
        return False
    return sum(h.bit_count() for h in world.hands) <= limit


def _key(h: Hand) -> int:
    """A 64-bit hash of everything that decides the rest of the hand (as
    the native solver keys its table: about 130 bytes an entry here instead
    of over a kilobyte for the fields themselves)."""
    return hash((tuple(h.hands), h.on_table, tuple(h.arm_open), tuple(h.arm_end),
                 tuple(h.arm_weight), tuple(h.arm_hub), tuple(h.arm_frozen), tuple(h.arm_side),
                 tuple(h.arm_stub), tuple(h.hub_k), tuple(h.hub_sides_left), tuple(h.hub_pip),
                 h.count, h.turn, h.passes, h.drawn_turn, h.spinners, h.pot, h.last_player,
                 tuple(h.scores), tuple(h.got_in), tuple(h.out), h.first_double_seen))


class _OutOfNodes(Exception):
    """A solve visited more positions than its limit."""


class Solver:
    """Solves worlds (``native/src/bots/solve.rs``'s ``Solver``); with a
    ``stop`` (:class:`bones.bots.stop.Stop`), a solve raises
    :class:`bones.bots.stop.Stopped` once it is set (looked at every
    :data:`bones.bots.stop.EVERY` positions)."""

    def __init__(self, stop: Stop | None = None) -> None:
        self._stop = stop
        #: positions visited by the last solve: every call of the minimax,
        #: the leaves and the table's hits included, as the native solver
        #: counts them
        self.nodes = 0
        self._limit = 0
        self._out = False
        self._tt: dict[int, tuple[int, int]] = {}
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
        got = self.within(world, me, base, legal, table)
        assert got is not None
        return got

    def within(self, world: Hand, me: int, base: list[int], legal: list[int],
               table: MatchTable | None = None, limit: int = 0) -> list[int] | None:
        """:meth:`values` within ``limit`` positions (0: no limit): None
        when the solve would visit more (:attr:`nodes` is then ``limit`` +
        1).  A solve that ends finds the exact values; whether it ends
        depends only on the world, and the native solver counts the same
        positions in the same order."""
        self.begin(me, base, table, limit)
        return self.again(world, legal)

    def begin(self, me: int, base: list[int], table: MatchTable | None = None,
              limit: int = 0) -> None:
        """Start solving for side ``me`` from the scores ``base`` (and
        ``table``), ``limit`` positions in all (0: no limit) for the
        following :meth:`again` calls, which share the transposition table."""
        self._tt = {}
        self._table = table
        self._me = me
        self._base = list(base)
        self.nodes = 0
        self._limit = limit
        self._out = False

    def again(self, world: Hand, legal: list[int]) -> list[int] | None:
        """The values of ``legal`` in ``world`` for the objective begun,
        keeping what the table holds (its entries stay exact bounds); None
        when the positions visited since :meth:`begin` pass its limit (and
        for every call after that)."""
        if self._out:
            return None
        out = []
        try:
            for move in legal:
                child = world.copy()
                child.log = []
                child.apply(move)
                out.append(self._value(child, -_WINDOW, _WINDOW))
        except _OutOfNodes:
            self._out = True
            return None
        return out

    def _terminal(self, h: Hand) -> int:
        if self._table is not None:
            return self._table.value(h.scores, self._me, h.game_over, h.winner,
                                     h.rules.check == CHECK_PENALTY)
        return margin(h.rules, h.scores, self._base, self._me)

    def _value(self, h: Hand, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self._limit and self.nodes > self._limit:
            raise _OutOfNodes
        if self._stop is not None and not self.nodes % EVERY:
            self._stop.check()
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
        if len(self._tt) < TT_CAP or key in self._tt:
            self._tt[key] = (best, flag)
        return best


__all__ = ["DEFAULT_NODES", "MAX_NODES", "TT_CAP", "Solver", "solvable"]
