"""The ``ismcts`` bot: Information Set Monte Carlo Tree Search.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) over the
``search`` bot's world sampler (:func:`bones.seat.observation.sample_world`).
The determinized ``search`` values every move in every world as if all the
tiles were in sight and then averages: a different plan per world (strategy
fusion).  Here one tree is grown over the searcher's information sets
instead: a node is the sequence of moves from the searcher's position
(every seat's moves are public, the tiles behind them are not), so a choice
is made once for all the worlds in which it can arise.

Each iteration:

1. deals one world agreeing with the observation, then draws one 64-bit
   seed for its playout
   (with inference, ``infer`` > 0, the world is drawn instead from a pool
   of ``worlds`` dealt first, each in proportion to how likely it makes the
   plays the other seats were seen to make, :mod:`bones.bots.infer`; with
   a time budget, the pool is dealt in at most
   :data:`~bones.bots.infer.POOL_SHARE` of it, at least one world);
2. walks down the tree with the moves legal in that world: every existing
   child whose move is legal has its *availability* counted; while a legal
   move has no child yet, one of them (drawn at random when several) is
   added and the walk stops; else the child with the best upper confidence
   bound ``mean + explore * sqrt(ln(availability) / visits)`` is taken (the
   mean from the point of view of the side that makes the move; the first
   in the engine's move order on a tie); with ``depth`` > 0 the walk also
   stops where the tree holds ``depth`` moves below the root.
   With a ``prior`` weight ``w`` > 0 the heuristic guides the walk (in the
   point and block games; a train layout's tree takes no prior): the
   untried move added is the one the ``heuristic`` values most for the
   mover in that world (the first on a tie; no random draw), each new child keeps
   its share ``P`` of a softmax at temperature :data:`PRIOR_TAU` of those
   values over the moves legal there, and the bound gains
   ``w * P * sqrt(availability) / (1 + visits)`` (PUCT's term, fading as
   the move is tried);
3. values the leaf: exactly (:mod:`bones.bots.solve`) when there are two
   sides, nothing is left to draw and at most ``solve`` tiles are in the
   hands, else by playing the hand out with ``policy`` from the seed;
4. gives every node of the walk the reward of the side that moved into it:
   its points from the rest of the hand less the best other side's,
   divided by ``scale`` and clamped to [-1, 1] (``scale`` 0, the default:
   the rules' ``tree_scale``, 20 points in every double-six game and more
   where a seat is dealt more pips, :func:`bones.lang.compile.tree_scale`).

The move played is the root's most visited child (then the best total, then
the first).

With ``threads`` > 1, that many trees are grown instead, each from its own
seed drawn in turn from the stream and with its share of the iterations (the
first ``iterations % threads`` one more), and their roots' visits and
rewards added before the move is chosen (root parallelism): the native core
grows them side by side, one a thread; this reference grows them one after
the other, each with its share of ``seconds`` when the budget is a time.
The move then depends on the seed and the number of trees, never on the
threads' timing, and a move costs the same work on fewer seconds of the
clock.  With the native core active the search runs in Rust
(``bones_native.Ismcts``, native/src/bots/ismcts.rs) and takes exactly the same
decisions from the same draws; this module is the readable reference.
docs/bots.md has the measurements.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from bones.bots.infer import (
    DEFAULT_DRAWS,
    POOL_SHARE,
    heuristic_values,
    log_likelihood,
    pool_size,
    tempered,
)
from bones.bots.info import BotInfo, Param, named
from bones.bots.policies import margin
from bones.bots.rollouts import POLICIES
from bones.bots.settings import TreeSettings
from bones.bots.solve import DEFAULT_NODES, MAX_NODES, Solver, solvable
from bones.bots.stop import Stopped, current, native_call
from bones.engine import core
from bones.engine.hand import PLAYING, Hand
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.seat.observation import NoWorldError, Observation, sample_world

#: Iterations (one world each) per move by default.
DEFAULT_ITERATIONS = 1000
#: The exploration constant of the upper confidence bound (rewards in [-1, 1]).
DEFAULT_EXPLORE = 0.7
#: Points of margin worth a reward of 1 (0: the rules' ``tree_scale``,
#: derived from the pips dealt to a seat: :func:`bones.lang.compile.tree_scale`).
DEFAULT_SCALE = 0.0
#: Leaves with at most this many tiles in the hands (two sides, nothing left
#: to draw) are solved exactly; 0: always play out.
DEFAULT_SOLVE = 0
#: The temperature of the inference's model of the other seats (0: every
#: iteration deals a fresh world, no inference).
DEFAULT_INFER = 0.0
#: Worlds dealt and weighed when inferring, from which iterations draw.
DEFAULT_WORLDS = 200
#: The most moves the tree holds below the root (0: no limit).
DEFAULT_DEPTH = 0
#: How playouts play.
DEFAULT_POLICY = "heuristic"
#: The weight of the heuristic's prior in the tree's bound (0: no prior).
DEFAULT_PRIOR = 0.0
#: The temperature of the softmax of the heuristic's move values that makes
#: the prior (the inference's model of play at its default temperature).
PRIOR_TAU = 8.0

PARAMS = (
    Param("iterations", int, DEFAULT_ITERATIONS,
          "iterations (one sampled world each) per move (reproducible for a seed)",
          minimum=1, maximum=20000),
    Param("seconds", float, 0.0,
          "time budget per move instead of iterations (interactive play only)",
          minimum=0, maximum=5.0),
    Param("policy", str, DEFAULT_POLICY, "how playouts play", tuple(POLICIES)),
    Param("explore", float, DEFAULT_EXPLORE,
          "exploration constant of the tree's upper confidence bound", minimum=0, maximum=10.0),
    Param("scale", float, DEFAULT_SCALE,
          "points of margin worth the largest reward (0: the rules' typical margin, 20 in "
          "the double-six games, more where a seat is dealt more pips)",
          minimum=0, maximum=1000.0),
    Param("solve", int, DEFAULT_SOLVE,
          "solve a leaf exactly when nothing is left to draw and at most this many tiles "
          "are in the hands (0: never)", minimum=0, maximum=16),
    Param("infer", float, DEFAULT_INFER,
          "temperature of the model of the other seats: iterations draw their world from "
          "a pool weighted by how likely it makes the other seats' plays (0: no inference)",
          minimum=0, maximum=10.0),
    Param("worlds", int, DEFAULT_WORLDS, "worlds in the inference's pool",
          minimum=1, maximum=2000),
    Param("depth", int, DEFAULT_DEPTH,
          "the most moves the tree holds below the root (0: no limit)", minimum=0, maximum=100),
    Param("nodes", int, DEFAULT_NODES,
          "the most positions a move's exact solving may visit, shared by its iterations "
          "(a leaf that needs more than its share is played out)",
          minimum=1, maximum=MAX_NODES),
    Param("threads", int, 1,
          "trees grown side by side, a thread each, sharing the iterations (their roots' "
          "counts added; 1: one tree)", minimum=1, maximum=64),
    Param("prior", float, DEFAULT_PRIOR,
          "weight of the heuristic's prior in the tree's bound: moves are opened in the "
          "heuristic's order and favoured by its values (0: no prior)", minimum=0, maximum=10.0),
)


@dataclass
class _Node:
    move: int
    side: int
    visits: float = 0.0
    total: float = 0.0
    avail: float = 0.0
    #: the heuristic's share of the move where it was added (with a prior)
    prior: float = 0.0
    children: dict[int, _Node] = field(default_factory=dict)


def _reward(rules: Rules, now: list[int], base: list[int], side: int, scale: float) -> float:
    return max(-1.0, min(1.0, margin(rules, now, base, side) / scale))


def scale_of(scale: float, rules: Rules) -> float:
    """The points of margin worth a reward of 1: ``scale``, or where it is 0
    the rules' ``tree_scale`` (native/src/bots/ismcts.rs's ``Config::scale_of``)."""
    return scale if scale > 0 else float(rules.tree_scale)


class IsmctsBot:
    """Single-observer information-set tree search."""

    expensive = True  # simulations time its moves in CPU time

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, seconds: float = 0.0,
                 policy: str = DEFAULT_POLICY, explore: float = DEFAULT_EXPLORE,
                 scale: float = DEFAULT_SCALE, solve: int = DEFAULT_SOLVE,
                 infer: float = DEFAULT_INFER, worlds: int = DEFAULT_WORLDS,
                 depth: int = DEFAULT_DEPTH, nodes: int = DEFAULT_NODES,
                 threads: int = 1, prior: float = DEFAULT_PRIOR,
                 draws: bool = DEFAULT_DRAWS) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.policy = policy
        self._policy = POLICIES[policy]
        self.explore = explore
        self.scale = scale
        self.solve = solve
        self.infer = infer
        self.worlds = worlds
        self.depth = depth
        self.nodes = nodes
        self.threads = threads
        self.prior = prior
        # whether the inference judges the plays made after draws (search's
        # idraw; bones.bots.infer)
        self.draws = draws
        #: what the tree is told, as one value (the native core's configuration)
        self.settings = TreeSettings(iterations=iterations, seconds=seconds, policy=policy,
                                     explore=explore, scale=scale, solve=solve, infer=infer,
                                     worlds=worlds, depth=depth, nodes=nodes, threads=threads,
                                     prior=prior, draws=draws)
        self.name = named("ismcts", PARAMS, {
            "iterations": iterations, "seconds": seconds, "policy": policy,
            "explore": explore, "scale": scale, "solve": solve, "infer": infer,
            "worlds": worlds, "depth": depth, "nodes": nodes, "threads": threads,
            "prior": prior})

    @property
    def timed(self) -> bool:
        """Whether moves depend on the clock (not reproducible)."""
        return self.seconds > 0

    def choose(self, obs: Observation, rng: Rng) -> int:
        legal = obs.legal_moves()
        if len(legal) == 1:
            return legal[0]
        return self.search(obs, rng, legal)[0]

    def search(self, obs: Observation, rng: Rng, legal: list[int],
               even: bool = False) -> tuple[int, list[float], list[float]]:
        """The chosen move and, for every move of ``legal`` (the seat's legal
        moves in the engine's order, all or some: the root tries no other),
        its visits and summed reward;
        in the native core when it is active, with the same draws.

        ``even`` gives the root's moves the iterations in turn, in their
        order, instead of by the upper confidence bound: every move then
        gets the same share (within one) and as good an estimate as the
        others (the analysis's judgement, :mod:`bones.games.analysis`); the
        root's moves then sum their margins in points, unclamped, and the
        chosen move is the best mean."""
        native = native_ismcts(obs.rules) if type(rng) is Rng else None
        if native is not None:
            return self.native_search(native, obs, rng, legal, even)
        return self.python_search(obs, rng, legal, even)

    def native_search(self, native: Any, obs: Observation, rng: Rng, legal: list[int],
                      even: bool = False) -> tuple[int, list[float], list[float]]:
        """:meth:`search` in the native core (``native``: a
        ``bones_native.Ismcts`` for ``obs.rules``)."""
        settings = self.settings.native()
        state = rng.state
        best, visits, totals, state, _, stopped = native_call(
            lambda stop: native.search(obs, legal, settings, state, even, stop))
        if stopped:
            raise Stopped("the search was stopped")
        rng.state = state
        if best is None:
            raise NoWorldError("no deal of the unseen tiles agrees with what the history proves")
        return best, list(visits), list(totals)

    def python_search(self, obs: Observation, rng: Rng, legal: list[int],
                      even: bool = False) -> tuple[int, list[float], list[float]]:
        """:meth:`search` in Python (the reference): one tree from ``rng``,
        or ``threads`` trees one after the other (see the module's text)."""
        trees = min(max(1, self.threads), self.iterations)
        if trees == 1:
            visits, totals = self._grow(obs, rng, legal, even, self.iterations, 0, self.seconds)
            return self._chosen(legal, visits, totals, even)
        seeds = [rng.next_u64() for _ in range(trees)]
        visits = [0.0] * len(legal)
        totals = [0.0] * len(legal)
        first = 0
        for i, seed in enumerate(seeds):
            share = self.iterations // trees + (i < self.iterations % trees)
            v, t = self._grow(obs, Rng(seed), legal, even, share, first, self.seconds / trees)
            visits = [a + b for a, b in zip(visits, v)]
            totals = [a + b for a, b in zip(totals, t)]
            first += share
        return self._chosen(legal, visits, totals, even)

    def _grow(self, obs: Observation, rng: Rng, legal: list[int], even: bool,
              iterations: int, first: int, seconds: float) -> tuple[list[float], list[float]]:
        """One tree of ``iterations`` (or ``seconds``) from ``rng``, the root's
        moves in turn from turn ``first`` when ``even``: the visits and summed
        rewards of the moves of ``legal``."""
        rules = obs.rules
        me = rules.owner[obs.seat]
        sides = len(obs.layout.scores)
        scale = scale_of(self.scale, rules)
        root = _Node(0, me)
        stop = current()
        solver = Solver(stop)
        # the move's positions shared by its iterations, a leaf each
        leaf_limit = max(1, self.nodes // max(1, self.iterations)) if self.nodes else 0
        deadline = time.perf_counter() + seconds if seconds > 0 else 0.0
        done = 0
        # the heuristic's prior (not on a train layout: the native train tree has none)
        prior = self.prior if rules.trains is None else 0.0
        # the pool of worlds and their cumulative weights (inference only)
        pool: list[Hand] = []
        cumulative: list[float] = []
        if self.infer > 0:
            lls = []
            # with a time budget, the pool takes at most its POOL_SHARE
            pool_end = time.perf_counter() + seconds * POOL_SHARE if seconds > 0 else 0.0
            for _ in range(pool_size(self.worlds, iterations)):
                if stop is not None:
                    stop.check()
                w = sample_world(obs, rng)
                lls.append(log_likelihood(w, obs.seat, obs.layout.log, self.infer, self.draws))
                pool.append(w)
                if pool_end and time.perf_counter() >= pool_end:
                    break
            # tempered so that enough of the pool counts (infer.POOL_ESS)
            lam = tempered(lls)
            top = max(lls)
            total = 0.0
            for ll in lls:
                total += math.exp(lam * (ll - top))
                cumulative.append(total)
        while True:
            if stop is not None:
                stop.check()
            if pool:
                x = rng.random() * cumulative[-1]
                at = next((i for i, c in enumerate(cumulative) if x < c), len(pool) - 1)
                world = pool[at].copy()
            else:
                world = sample_world(obs, rng)
            seed = rng.next_u64()
            base = list(world.scores)
            path: list[_Node] = []
            node = root
            # selection and expansion
            while world.state == PLAYING:
                if self.depth and len(path) >= self.depth:
                    break
                moves = world.legal_moves()
                if node is root and len(moves) != len(legal):
                    # the root's candidates only: one move a group of twins
                    moves = [m for m in moves if m in legal]
                if even and node is root:
                    # the root's moves in turn: the same in every world
                    move = moves[(first + done) % len(moves)]
                    child = root.children.get(move)
                    if child is None:
                        child = root.children[move] = _Node(move, me)
                    child.avail += 1.0
                    world.apply(move)
                    path.append(child)
                    node = child
                    continue
                untried = []
                best: _Node | None = None
                best_score = 0.0
                for move in moves:
                    child = node.children.get(move)
                    if child is None:
                        untried.append(move)
                        continue
                    child.avail += 1.0
                    score = (child.total / child.visits
                             + self.explore * math.sqrt(math.log(child.avail) / child.visits))
                    if prior > 0:
                        score += (prior * child.prior * math.sqrt(child.avail)
                                  / (1.0 + child.visits))
                    if best is None or score > best_score:
                        best, best_score = child, score
                if untried:
                    share = 0.0
                    if prior > 0:
                        move, share = _opened(world, moves, untried)
                    elif len(untried) > 1:
                        move = untried[rng.below(len(untried))]
                    else:
                        move = untried[0]
                    child = _Node(move, rules.owner[world.turn], avail=1.0, prior=share)
                    node.children[move] = child
                    path.append(child)
                    world.apply(move)
                    break
                assert best is not None
                world.apply(best.move)
                path.append(best)
                node = best
            # the leaf's value: exact, or a playout
            solved: int | None = None
            if sides == 2 and solvable(world, self.solve):
                # None when out of positions: the leaf is played out
                values = solver.within(world, me, base, world.legal_moves(), limit=leaf_limit)
                if values is not None:
                    solved = max(values) if rules.owner[world.turn] == me else min(values)
            if solved is None:
                play_rng = Rng(seed)
                while world.state == PLAYING:
                    world.apply(self._policy(world, play_rng))
            for n in path:
                # with the root's moves in turn, a root move sums its margins
                # in points (it is not chosen by them): the analysis's values
                points = even and n is path[0]
                if solved is not None:
                    x = solved if points else max(-1.0, min(1.0, solved / scale))
                    r = x if n.side == me else -x
                elif points:
                    r = margin(world.rules, world.scores, base, n.side)
                else:
                    r = _reward(world.rules, world.scores, base, n.side, scale)
                n.visits += 1.0
                n.total += r
            done += 1
            if (time.perf_counter() >= deadline) if deadline else done >= iterations:
                break
        visits = [0.0] * len(legal)
        totals = [0.0] * len(legal)
        for i, move in enumerate(legal):
            child = root.children.get(move)
            if child is not None:
                visits[i], totals[i] = child.visits, child.total
        return visits, totals

    @staticmethod
    def _chosen(legal: list[int], visits: list[float], totals: list[float],
                even: bool) -> tuple[int, list[float], list[float]]:
        """The root's move: the most visited, then the best total, then the
        first; with the root's moves in turn, the best mean (a move never
        tried last)."""
        def mean(i: int) -> float:
            return totals[i] / visits[i] if visits[i] else -math.inf

        best_i = 0
        for i in range(1, len(legal)):
            if even:
                better = mean(i) > mean(best_i)
            else:
                better = visits[i] > visits[best_i] or (visits[i] == visits[best_i]
                                                        and totals[i] > totals[best_i])
            if better:
                best_i = i
        return legal[best_i], visits, totals


def _opened(world: Hand, moves: list[int], untried: list[int]) -> tuple[int, float]:
    """With a prior: the move of ``untried`` the tree opens in ``world`` (the
    one the heuristic values most for the mover, the first of ``moves``'
    order on a tie) and its share of the softmax, at :data:`PRIOR_TAU`, of
    the heuristic's values of ``moves`` (every move legal there; a pass
    none, every move the same when none has a value)."""
    seat = world.turn
    unseen = world.rules.tiles.full & ~(world.hands[seat] | world.on_table | world.out_of_play)
    counts = [h.bit_count() for h in world.hands]
    values = heuristic_values(world, unseen, counts, world.drawable, moves)
    top = max(values)
    if top == -math.inf:
        return untried[0], 1.0 / len(moves)
    total = 0.0
    for v in values:
        total += math.exp((v - top) / PRIOR_TAU)
    best = -1
    for i, move in enumerate(moves):
        if move in untried and (best < 0 or values[i] > values[best]):
            best = i
    return moves[best], math.exp((values[best] - top) / PRIOR_TAU) / total


def native_ismcts(rules: Rules) -> Any:
    """The native core's ``Ismcts`` for ``rules`` when the native core is
    active (:func:`bones.engine.core.native`), else None: a
    ``bones_native.TrainIsmcts`` for a train layout
    (native/src/bots/trains.rs), else a ``bones_native.Ismcts``."""
    if rules.trains is not None:
        return core.native_object(rules, "TrainIsmcts")
    return core.native_object(rules, "Ismcts")


INFOS = (
    BotInfo(
        "ismcts",
        "information-set tree search: one tree over what it can tell apart, grown over "
        "sampled worlds, so it plans once for every world its choice can arise in",
        PARAMS,
        IsmctsBot,
    ),
)

__all__ = ["DEFAULT_EXPLORE", "DEFAULT_INFER", "DEFAULT_ITERATIONS", "DEFAULT_PRIOR",
           "DEFAULT_SCALE", "PRIOR_TAU",
           "DEFAULT_SOLVE", "DEFAULT_WORLDS", "DEFAULT_DEPTH",
           "INFOS", "IsmctsBot", "PARAMS", "native_ismcts", "scale_of"]
