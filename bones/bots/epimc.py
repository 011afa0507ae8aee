"""The ``epimc`` bot: extended perfect information Monte Carlo.

``search`` solves every sampled world exactly and averages: in each world
it assumes it will choose its own later moves knowing every tile (strategy
fusion), so it overrates moves whose value rests on guessing right later.
``epimc`` takes the searcher's *next* decision honestly: once per
information set, not once per world.

Where every world can be solved (two or more sides, nothing left to draw,
at most ``solve`` tiles in the hands: every hand of 2-player block), it
deals ``iterations`` worlds agreeing with the observation, each weighted by
how likely it makes the other seats' plays (:mod:`bones.bots.infer`,
temperature ``infer``) as ``search`` weighs them.  For every candidate move
and world the other seats reply as the exact solver says (an opponent
minimises the searcher's side's margin, a partner maximises it; the first
such move on a tie) until the searcher's seat is to move again.  The
replies are public, so the worlds with the same replies form one
information set of the searcher: there one move is chosen for the whole
set, the one with the best weighted total of exact values over its worlds.
A candidate's total is the sum of those best totals over its sets (plus the
margins of the worlds in which the hand ends first); the highest total is
played (the first candidate on a tie).  Elsewhere the position goes to
``search`` with the same ``iterations``, ``solve``, ``infer`` and ``nodes``.

Its solving is bounded as ``search``'s is: ``nodes`` positions a move,
shared equally by the worlds' different deals (a deal is judged once, its
solves sharing its part and its transposition table); a world whose solving
runs out of them is left out of every candidate's total.

With the native core active it runs in Rust (``bones_native.Epimc``,
native/src/bots/epimc.rs) with exactly the same draws and totals; this module is
the readable reference.  docs/bots.md has the measurements.
"""

from __future__ import annotations

import math
from typing import Any

from bones.bots import policies
from bones.bots.infer import log_likelihood
from bones.bots.info import BotInfo, Param, named
from bones.bots.search import (
    DEFAULT_INFER,
    DEFAULT_ITERATIONS,
    DEFAULT_SOLVE,
    SearchBot,
    deal_limit,
    solvable_view,
)
from bones.bots.solve import DEFAULT_NODES, MAX_NODES, Solver
from bones.bots.stop import Stopped, current, native_call
from bones.engine import core
from bones.engine.hand import PLAYING, Hand
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.seat.observation import NoWorldError, Observation, sample_world

PARAMS = (
    Param("iterations", int, DEFAULT_ITERATIONS,
          "worlds sampled per move (reproducible for a seed)", minimum=1, maximum=2000),
    Param("solve", int, DEFAULT_SOLVE,
          "search honestly when nothing is left to draw and at most this many tiles are "
          "in the hands (else as search)", minimum=0, maximum=16),
    Param("infer", float, DEFAULT_INFER,
          "temperature of the model of the other seats that weights worlds by their "
          "plays (0: every world weighs the same)", minimum=0, maximum=10.0),
    Param("nodes", int, DEFAULT_NODES,
          "the most positions a move's exact solving may visit, shared by its different "
          "worlds (a world that needs more than its share is left out)",
          minimum=1, maximum=MAX_NODES),
)


def _pick(values: list[int], highest: bool) -> int:
    at = 0
    for i, v in enumerate(values):
        if (highest and v > values[at]) or (not highest and v < values[at]):
            at = i
    return at


def _judge_world(solver: Solver, world: Hand, me: int, seat: int, legal: list[int]
                 ) -> list[tuple[int, tuple[int, ...], list[int] | None]] | None:
    """Every candidate of ``legal`` in ``world``, the solver begun for it:
    ``(margin, (), None)`` where the hand ends before the searcher's next
    move, else ``(0, replies, values of the searcher's moves there)``; None
    when the world's solving runs out of positions."""
    owner = world.rules.owner
    out: list[tuple[int, tuple[int, ...], list[int] | None]] = []
    for move in legal:
        h = world.copy()
        h.apply(move)
        replies = []
        while h.state == PLAYING and h.turn != seat:
            moves = h.legal_moves()
            if len(moves) == 1:
                reply = moves[0]
            else:
                values = solver.again(h, moves)
                if values is None:
                    return None
                reply = moves[_pick(values, owner[h.turn] == me)]
            replies.append(reply)
            h.apply(reply)
        if h.state != PLAYING:
            out.append((policies.margin(h.rules, h.scores, world.scores, me), (), None))
            continue
        values = solver.again(h, h.legal_moves())
        if values is None:
            return None
        out.append((0, tuple(replies), values))
    return out


class EpimcBot:
    """Determinized search whose next own move is chosen per information set."""

    expensive = True  # simulations time its moves in CPU time
    timed = False

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, solve: int = DEFAULT_SOLVE,
                 infer: float = DEFAULT_INFER, nodes: int = DEFAULT_NODES) -> None:
        self.iterations = iterations
        self.solve = solve
        self.infer = infer
        self.nodes = nodes
        self.name = named("epimc", PARAMS, {
            "iterations": iterations, "solve": solve, "infer": infer, "nodes": nodes})
        self._search = SearchBot(iterations=iterations, solve=solve, infer=infer, tree=0,
                                 nodes=nodes)

    def choose(self, obs: Observation, rng: Rng) -> int:
        legal = obs.legal_moves()
        if len(legal) == 1:
            return legal[0]
        if not solvable_view(obs, self.solve):
            return self._search.choose(obs, rng)
        return self.search(obs, rng, legal)[0]

    def search(self, obs: Observation, rng: Rng,
               legal: list[int]) -> tuple[int, list[float], float]:
        """The chosen move, every candidate's total and the sum of the
        worlds' weights, for an :func:`bones.bots.search.solvable_view` position (in the native core
        when it is active, with the same draws)."""
        native = native_epimc(obs.rules) if type(rng) is Rng else None
        if native is not None:
            return self.native_search(native, obs, rng, legal)
        return self.python_search(obs, rng, legal)

    def native_search(self, native: Any, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float], float]:
        """:meth:`search` in the native core (``native``: a
        ``bones_native.Epimc`` for ``obs.rules``)."""
        settings = self._search.settings.native()
        state = rng.state
        best, totals, state, weight, stopped = native_call(
            lambda stop: native.search(obs, legal, settings, state, stop))
        if stopped:
            raise Stopped("the search was stopped")
        rng.state = state
        if best is None:
            raise NoWorldError("no deal of the unseen tiles agrees with what the history proves")
        return best, list(totals), weight

    def python_search(self, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float], float]:
        """:meth:`search` in Python (the reference)."""
        rules = obs.rules
        me = rules.owner[obs.seat]
        worlds: list[Hand] = []
        weights: list[float] = []
        for _ in range(max(1, self.iterations)):
            world = sample_world(obs, rng)
            worlds.append(world)
            weights.append(math.exp(log_likelihood(world, obs.seat, obs.layout.log, self.infer,
                                                   self._search.settings.draws))
                           if self.infer > 0 else 1.0)
        limit = deal_limit(worlds, self.nodes)
        stop = current()
        solver = Solver(stop)
        totals = [0.0] * len(legal)
        # per candidate, the searcher's information sets after it: replies -> totals
        sets: list[dict[tuple[int, ...], list[float]]] = [{} for _ in legal]
        # each deal's judgement, made once (the same deal is the same world)
        deals: dict[tuple[int, ...], list[tuple[int, tuple[int, ...], list[int] | None]] | None] = {}
        for world, w in zip(worlds, weights):
            if stop is not None:
                stop.check()
            deal = tuple(world.hands)
            if deal not in deals:
                # the table is kept for the whole world (the same side and base)
                solver.begin(me, list(world.scores), limit=limit)
                deals[deal] = _judge_world(solver, world, me, obs.seat, legal)
            judged = deals[deal]
            if judged is None:
                continue  # out of positions: the world is left out
            for i, (margin, replies, values) in enumerate(judged):
                if values is None:
                    totals[i] += w * margin
                    continue
                sums = sets[i].setdefault(replies, [0.0] * len(values))
                for k, v in enumerate(values):
                    sums[k] += w * v
        for i in range(len(legal)):
            for sums in sets[i].values():
                totals[i] += max(sums)
        best = 0
        for i in range(1, len(legal)):
            if totals[i] > totals[best]:
                best = i
        weight = 0.0
        for w in weights:  # in order, as the native core adds them
            weight += w
        return legal[best], totals, weight


def native_epimc(rules: Rules) -> Any:
    """The native core's ``Epimc`` for ``rules`` when the native core is
    active (:func:`bones.engine.core.native`), else None."""
    return core.native_object(rules, "Epimc")


INFOS = (
    BotInfo(
        "epimc",
        "search that chooses its own next move once for every world it cannot tell "
        "apart (solved worlds, inference), not once per world",
        PARAMS,
        EpimcBot,
    ),
)

__all__ = ["EpimcBot", "INFOS", "PARAMS", "native_epimc"]
