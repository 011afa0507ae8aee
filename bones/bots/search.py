"""The search bots: ``search`` and ``pimc``.

Both are determinized searches.  Each iteration samples one world consistent
with the observation (:func:`bones.seat.observation.sample_world`) and values
every candidate move in it; a move's value is the sum over worlds of the
mover's side's points from the rest of the hand (plays and settlement) less
the best opposing side's.  All candidates are judged in the same worlds with
the same rollout generators (common random numbers), so the comparison
between moves is much sharper than the values themselves.

* ``pimc`` (the ``search`` of bones 0.1) plays each move out in each world
  by a fast full-information policy (``heuristic`` rollouts, 45 worlds).
* ``search`` solves a world exactly instead (:mod:`bones.bots.solve`,
  alpha-beta) when nothing is left to draw in it and at most ``solve`` tiles
  are in the hands: every world of a block game without drawing, the end of
  a draw game; and weights each world by how likely it makes the plays the
  other seats were seen to make, under a softmax model of the heuristic
  (:mod:`bones.bots.infer`, temperature ``infer``), over 180 worlds.  Its
  solving is bounded: a move's solves visit at most ``nodes`` positions,
  shared equally by the worlds' different deals (worlds with the same tiles
  in the hands are solved once), and a world whose solve would visit more
  than its share is played out instead (docs/bots.md, "A bounded solve").

With the native core active (:func:`bones.engine.core.native`) the search
runs in Rust (``bones_native.Searcher``, native/src/bots/search.rs, solve.rs,
infer.rs) and takes exactly the same decisions from the same draws, one to
two orders of magnitude faster; :func:`evaluate_moves` gives the value of
every legal move (for analysis).  docs/simulate.md, "Strength", has the
current figures and the commands that reproduce them, bench/results/ every
measurement behind them.
"""

from __future__ import annotations

import math
import time
from typing import Any, NamedTuple

from bones.bots.infer import DEFAULT_DRAWS, log_likelihood
from bones.bots.info import BotInfo, Param, named
from bones.bots.ismcts import DEFAULT_EXPLORE, DEFAULT_PRIOR, DEFAULT_SCALE, IsmctsBot
from bones.bots.matchvalue import WIN, MatchTable, match_table
from bones.bots.policies import margin
from bones.bots.rollouts import POLICIES
from bones.bots.settings import SearchSettings
from bones.bots.solve import DEFAULT_NODES, MAX_NODES, Solver, solvable
from bones.bots.stop import Stopped, current, native_call
from bones.engine import core
from bones.engine.hand import Hand
from bones.engine.mirror import distinct_moves, mirror_of
from bones.engine.rng import Rng
from bones.engine.rules import CHECK_PENALTY, Rules
from bones.seat.observation import NoWorldError, Observation, sample_world

#: Worlds per move of ``pimc`` (bones 0.1's ``search``), with heuristic
#: rollouts: in 2-player all-fives a median move with a choice takes about
#: 1.5 ms in the native core and 0.1 s in Python, and beats ``heuristic`` in
#: 81% of matches (bench/results/pimc-and-earlier.md).
PIMC_ITERATIONS = 45
#: Worlds per move of ``search``: solved worlds buy more than rollouts, and
#: the native solver keeps the median move with a choice in a few ms.
DEFAULT_ITERATIONS = 180
#: Worlds with at most this many tiles in the hands (and nothing left to
#: draw) are solved exactly: every hand of 2-player block.
DEFAULT_SOLVE = 14
#: The temperature of the inference's softmax model of the other seats (in
#: the heuristic's points): in All Fives 1 is far too sharp (the values of
#: plays differ by many points) and 8 measured best (docs/bots.md).
DEFAULT_INFER = 8.0
#: How rollouts play by default (heuristic rollouts are worth far more than
#: more worlds of greedy ones: docs/simulate.md).
DEFAULT_POLICY = "heuristic"
#: Where the worlds cannot be solved (a draw can still happen, or too many
#: tiles are in the hands), ``search`` grows an information-set tree
#: (:mod:`bones.bots.ismcts`) of ``DEFAULT_TREE`` iterations per world of its
#: budget: 3,960 at the default 180, about 15 ms a move natively in All
#: Fives, where it beats the worlds' rollouts (docs/bots.md).
DEFAULT_TREE = 22
#: On a train layout a playout lasts about as many moves as the set has
#: tiles, so the tree's iterations shrink in proportion above this many
#: (``tree_bot(rules)``): 3,960 at the defaults up to the double-nine set's
#: 55 tiles (about 25 ms a decision natively), 2,393 on the double-twelve
#: set's 91 (about 50 ms unscaled; bench/results/trains-search.md).
TRAIN_TILES = 55
#: Whether the inference judges the other seats' plays made after draws
#: (``idraw``; 0: every world weighs 1 once anybody has drawn):
#: bench/results/strength-34-9.md.
DEFAULT_IDRAW = int(DEFAULT_DRAWS)
#: The temperature of the inference in ``search``'s tree (0: every iteration
#: deals a fresh world; ``ismcts``'s ``infer``): its iterations draw their
#: worlds from a pool weighed by the other seats' plays (past draws with
#: ``idraw``), the weights tempered so that at least a quarter of the pool
#: counts (:func:`bones.bots.infer.tempered`), bench/results/strength-34-11.md.
#: Not on a train layout, whose plays it does not weigh (``tree_bot``).
DEFAULT_TREE_INFER = 8.0
#: The worlds in the pool the tree's inference weighs (``tworlds``; with
#: ``tinfer``): with a pool of 200 the tree lost to fresh worlds in Cuban
#: (45 tiles hidden: 38 and 44 of 100 matches), with 1,000 it won 56; about
#: 14 µs a world natively (bench/results/strength-34-11.md).
DEFAULT_TREE_WORLDS = 1000


#: What the search maximises: ``points``, the side's points from the rest
#: of the hand less the best other side's; ``match``, its probability of
#: winning the match after the hand (:mod:`bones.bots.matchvalue`; points
#: where the variant has no target).
VALUES = ("points", "match")
DEFAULT_VALUE = "points"


def _params(iterations: int, solve: bool) -> tuple[Param, ...]:
    params = (
        Param("iterations", int, iterations,
              "worlds sampled per move (reproducible for a seed)", minimum=1, maximum=2000),
        Param("rollouts", int, 1, "playouts per move and world", minimum=1, maximum=8),
        Param("seconds", float, 0.0,
              "time budget per move instead of iterations (interactive play only)",
              minimum=0, maximum=5.0),
        Param("policy", str, DEFAULT_POLICY, "how rollouts play", tuple(POLICIES)),
    )
    if not solve:
        return params
    return params + (
        Param("solve", int, DEFAULT_SOLVE,
              "solve a world exactly when nothing is left to draw and at most this many "
              "tiles are in the hands (0: never)", minimum=0, maximum=16),
        Param("infer", float, DEFAULT_INFER,
              "temperature of the model of the other seats that weights worlds by their "
              "plays (0: every world weighs the same)", minimum=0, maximum=10.0),
        Param("idraw", int, DEFAULT_IDRAW,
              "judge the other seats' plays made after their last draw (1), or no play once "
              "anybody has drawn (0)", minimum=0, maximum=1),
        Param("value", str, DEFAULT_VALUE,
              "what a hand's end is worth: its points, or the probability of winning the "
              "match (variants with a target)", VALUES),
        Param("threads", int, 1,
              "threads of the native search: where worlds are played out or solved, the "
              "same moves for any number; where the tree chooses, that many trees side by "
              "side sharing its iterations", minimum=1, maximum=64),
        Param("tree", int, DEFAULT_TREE,
              "where the worlds cannot be solved, grow an information-set tree of this many "
              "iterations per world of the budget (0: play the worlds out)",
              minimum=0, maximum=100),
        Param("scale", float, DEFAULT_SCALE,
              "points of a hand's margin the tree counts as a full win (its rewards are "
              "margins over this, clamped; 0: the rules' typical margin, 20 in the double-six "
              "games, more where a seat is dealt more pips)", minimum=0.0, maximum=1000.0),
        Param("explore", float, DEFAULT_EXPLORE,
              "the exploration constant of the tree's upper confidence bound",
              minimum=0.0, maximum=10.0),
        Param("tinfer", float, DEFAULT_TREE_INFER,
              "temperature of the tree's inference: its iterations draw their worlds from "
              "a pool weighted by the other seats' plays (0: a fresh world each, as on a "
              "train layout, whose plays it does not weigh)",
              minimum=0.0, maximum=10.0),
        Param("tworlds", int, DEFAULT_TREE_WORLDS,
              "worlds in the pool the tree's inference weighs (with tinfer)",
              minimum=1, maximum=2000),
        Param("prior", float, DEFAULT_PRIOR,
              "weight of the heuristic's prior in the tree: it opens moves in the heuristic's "
              "order and favours them by its values (0: no prior)", minimum=0.0, maximum=10.0),
        Param("nodes", int, DEFAULT_NODES,
              "the most positions a move's exact solving may visit, shared by its different "
              "worlds (a world that needs more than its share is played out)",
              minimum=1, maximum=MAX_NODES),
    )


#: ``search``'s parameters
PARAMS = _params(DEFAULT_ITERATIONS, True)
#: ``pimc``'s parameters (those of bones 0.1's ``search``)
PIMC_PARAMS = _params(PIMC_ITERATIONS, False)


class Judged(NamedTuple):
    """What a search found: the chosen move, every candidate's total value,
    the sum of the worlds' weights, and per world the positions its deal's
    solve visited (0: played out; its share of ``nodes`` plus 1: the solve
    ran out, and the world was played out)."""

    best: int
    totals: list[float]
    weight: float
    nodes: list[int]


class SearchBot:
    """Determinized search over sampled worlds, solving those it can."""

    expensive = True  # simulations time its moves in CPU time

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, rollouts: int = 1,
                 seconds: float = 0.0, policy: str = DEFAULT_POLICY,
                 solve: int = DEFAULT_SOLVE, infer: float = DEFAULT_INFER,
                 value: str = DEFAULT_VALUE, threads: int = 1, tree: int = DEFAULT_TREE,
                 scale: float = DEFAULT_SCALE, nodes: int = DEFAULT_NODES,
                 explore: float = DEFAULT_EXPLORE, tinfer: float = DEFAULT_TREE_INFER,
                 prior: float = DEFAULT_PRIOR, idraw: int = DEFAULT_IDRAW,
                 tworlds: int = DEFAULT_TREE_WORLDS) -> None:
        self.iterations = iterations
        self.rollouts = rollouts
        self.seconds = seconds
        self.policy = policy
        self._policy = POLICIES[policy]
        self.solve = solve
        self.infer = infer
        self.idraw = idraw
        self.value = value
        # the native search's threads: the worlds' judging ignores them (the
        # moves are the same for any number), the tree grows that many trees
        self.threads = threads
        self.tree = tree
        self.scale = scale
        self.explore = explore
        self.tinfer = tinfer
        self.tworlds = tworlds
        self.prior = prior
        # the most positions a move's solving may visit (0: no limit, which
        # only the class itself takes: a bot text gives 1 to MAX_NODES)
        self.nodes = nodes
        #: what the search is told, as one value (the native core's budget)
        self.settings = SearchSettings(iterations=iterations, rollouts=rollouts, policy=policy,
                                       seconds=seconds, solve=solve, infer=infer,
                                       threads=threads, nodes=nodes, draws=bool(idraw))
        self._tree = (self._tree_of(tree * iterations, tinfer) if tree > 0 else None)
        # the trees of train layouts, by iterations (tree_bot)
        self._scaled: dict[int, IsmctsBot] = {}
        self.name = self._name()

    def _name(self) -> str:
        return named("search", PARAMS, {
            "iterations": self.iterations, "rollouts": self.rollouts, "seconds": self.seconds,
            "policy": self.policy, "solve": self.solve, "infer": self.infer,
            "value": self.value, "threads": self.threads, "tree": self.tree,
            "scale": self.scale, "nodes": self.nodes, "explore": self.explore,
            "tinfer": self.tinfer, "tworlds": self.tworlds, "prior": self.prior,
            "idraw": self.idraw})

    def _tree_of(self, iterations: int, infer: float) -> IsmctsBot:
        """The tree of ``iterations`` with this search's knobs, its inference
        at temperature ``infer``."""
        return IsmctsBot(iterations=iterations, seconds=self.seconds, policy=self.policy,
                         explore=self.explore, scale=self.scale, infer=infer,
                         worlds=self.tworlds, nodes=self.nodes, threads=self.threads, prior=self.prior,
                         draws=bool(self.idraw))

    def table(self, rules: Rules) -> MatchTable | None:
        """The match objective's table for ``rules`` (None: points)."""
        return match_table(rules) if self.value == "match" else None

    @property
    def timed(self) -> bool:
        """Whether moves depend on the clock (not reproducible)."""
        return self.seconds > 0

    def choose(self, obs: Observation, rng: Rng) -> int:
        legal = obs.legal_moves()
        if len(legal) == 1:
            return legal[0]
        # one candidate a move: the same tile on twin arms is one move
        # (bones.engine.mirror), judged once and never against itself
        legal = distinct_moves(obs.layout, legal)
        if len(legal) == 1:
            return legal[0]
        if self.grows_tree(obs):
            return self.tree_bot(obs.rules).search(obs, rng, legal)[0]
        return self.values(obs, rng, legal)[0]

    def grows_tree(self, obs: Observation) -> bool:
        """Whether the move is chosen by the information-set tree: ``tree`` is
        on, moves are valued in points, and no world of ``obs`` can be solved
        (what decides it is public: the tiles in the hands and whether a
        draw can still happen, the same in every world)."""
        return (self.tree > 0 and self.value == "points"
                and not solvable_view(obs, self.solve))

    def tree_bot(self, rules: Rules | None = None) -> IsmctsBot:
        """The :class:`bones.bots.ismcts.IsmctsBot` that chooses where
        :meth:`grows_tree`: ``tree`` × ``iterations`` iterations (or the
        same ``seconds``), playouts by ``policy``, rewards on ``scale``, its
        other defaults.  Under ``rules`` of a train layout the tree takes no
        inference (``tinfer``: the inference weighs no train play, so its
        pool would only narrow the worlds: a fresh world each iteration),
        and where the set has more than :data:`TRAIN_TILES` tiles the
        iterations shrink in proportion (at least one), so a decision takes
        about as long as on the double-nine set."""
        if self._tree is None:
            raise ValueError("this search grows no tree (tree=0)")
        if rules is None or rules.trains is None:
            return self._tree
        iterations = self.tree * self.iterations
        tiles = rules.tiles.full.bit_count()
        if tiles > TRAIN_TILES:
            iterations = max(1, iterations * TRAIN_TILES // tiles)
        got = self._scaled.get(iterations)
        if got is None:
            got = self._scaled[iterations] = self._tree_of(iterations, 0.0)
        return got

    def values(self, obs: Observation, rng: Rng,
               legal: list[int]) -> tuple[int, list[float]]:
        """The chosen move and every candidate's total value.

        The native core judges them when it is active
        (:func:`bones.engine.core.native`), with the same draws from ``rng``,
        so the move, the totals and ``rng``'s state afterwards are the same
        as :meth:`python_values` gives.
        """
        searcher = self.native_half(obs.rules) if type(rng) is Rng else None
        if searcher is not None:
            return self.native_values(searcher, obs, rng, legal)
        return self.python_values(obs, rng, legal)

    def native_half(self, rules: Rules) -> Any:
        """The native searcher that judges this bot's worlds under ``rules``
        when the native core is active (:func:`native_searcher`), else None.
        On a train layout the native worlds value points (every world
        weighing 1: :func:`bones.bots.infer.log_likelihood`); the match
        objective there (``value: match``) is judged in Python."""
        if rules.trains is not None and self.table(rules) is not None:
            return None
        return native_searcher(rules)

    def native_values(self, searcher: Any, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float]]:
        """:meth:`values` in the native core (``searcher``: a
        ``bones_native.Searcher`` for ``obs.rules``)."""
        best, totals, _ = self.native_search(searcher, obs, rng, legal)
        return best, totals

    def native_search(self, searcher: Any, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float], float]:
        """:meth:`search` in the native core."""
        return self.native_judge(searcher, obs, rng, legal)[:3]

    def native_judge(self, searcher: Any, obs: Observation, rng: Rng,
                     legal: list[int]) -> Judged:
        """:meth:`judge` in the native core."""
        table = self.table(obs.rules)
        settings = self.settings.native()
        objective = None if table is None else table.native()
        state = rng.state
        best, totals, state, _, weight, nodes, stopped = native_call(
            lambda stop: searcher.search(obs, legal, settings, state, objective, stop))
        if stopped:
            raise Stopped("the search was stopped")
        rng.state = state
        if best is None:
            raise NoWorldError("no deal of the unseen tiles agrees with what the history proves")
        return Judged(best, [float(t) for t in totals], float(weight), list(nodes))

    def python_values(self, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float]]:
        """:meth:`values` in Python (the reference)."""
        best, totals, _ = self.python_search(obs, rng, legal)
        return best, totals

    def search(self, obs: Observation, rng: Rng,
               legal: list[int]) -> tuple[int, list[float], float]:
        """The chosen move, every candidate's total value and the sum of the
        worlds' weights (in the native core when it is active)."""
        return self.judge(obs, rng, legal)[:3]

    def judge(self, obs: Observation, rng: Rng, legal: list[int]) -> Judged:
        """:meth:`search`, with the positions each world's solve visited
        (in the native core when it is active: the same numbers)."""
        searcher = self.native_half(obs.rules) if type(rng) is Rng else None
        if searcher is not None:
            return self.native_judge(searcher, obs, rng, legal)
        return self.python_judge(obs, rng, legal)

    def python_search(self, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float], float]:
        """:meth:`search` in Python (the reference)."""
        return self.python_judge(obs, rng, legal)[:3]

    def python_judge(self, obs: Observation, rng: Rng, legal: list[int]) -> Judged:
        """:meth:`judge` in Python (the reference)."""
        rules = obs.rules
        me = rules.owner[obs.seat]
        totals = [0.0] * len(legal)
        policy = self._policy
        weights = 0.0
        nodes: list[int] = []
        stop = current()
        solver = Solver(stop)
        # each deal's solve: its values (None: out of positions) and positions
        solved: dict[tuple[int, ...], tuple[list[int] | None, int]] = {}
        table = self.table(rules)
        history = obs.layout.log

        def judge(world: Hand, seeds: list[int], limit: int) -> None:
            nonlocal weights
            if stop is not None:
                stop.check()
            base = list(world.scores)
            weight = (math.exp(log_likelihood(world, obs.seat, history, self.infer,
                                              self.settings.draws))
                      if self.infer > 0 else 1.0)
            weights += weight
            if not solvable(world, self.solve):
                nodes.append(0)
            else:
                deal = tuple(world.hands)
                if deal not in solved:
                    got = solver.within(world, me, base, legal, table, limit)
                    solved[deal] = (got, solver.nodes)
                values, visited = solved[deal]
                nodes.append(visited)
                if values is not None:
                    for i, v in enumerate(values):
                        totals[i] += weight * (v * self.rollouts)
                    return
                # out of positions: played out, as a world that cannot be solved
            for i, move in enumerate(legal):
                for seed in seeds:
                    trial = world.copy()
                    trial.apply(move)
                    play_rng = Rng(seed)
                    while not trial.state:
                        trial.apply(policy(trial, play_rng))
                    if table is not None:
                        won = table.value(trial.scores, me, trial.game_over, trial.winner,
                                          trial.rules.check == CHECK_PENALTY)
                        totals[i] += weight * won
                        continue
                    totals[i] += weight * margin(trial.rules, trial.scores, base, me)

        if self.seconds > 0:
            # worlds until the clock passes the deadline, each solve within nodes
            deadline = time.perf_counter() + self.seconds
            while True:
                world = sample_world(obs, rng)
                judge(world, [rng.next_u64() for _ in range(self.rollouts)], self.nodes)
                if time.perf_counter() >= deadline:
                    break
        else:
            # every world (and its rollouts' seeds) drawn first, in the same
            # order, so the budget can be shared by the different deals
            sampled = []
            for _ in range(max(1, self.iterations)):
                if stop is not None:
                    stop.check()
                world = sample_world(obs, rng)
                sampled.append((world, [rng.next_u64() for _ in range(self.rollouts)]))
            limit = world_limit([w for w, _ in sampled], self.solve, self.nodes)
            for world, seeds in sampled:
                judge(world, seeds, limit)
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))
        return Judged(legal[best], totals, weights, nodes)


def world_limit(worlds: list[Hand], solve: int, nodes: int) -> int:
    """The most positions the solve of one world may visit when ``worlds``
    are every world of a move (``native/src/bots/search.rs``'s
    ``world_limit``): ``nodes`` shared equally by the different deals of
    the solvable ones (:func:`deal_limit`)."""
    return deal_limit([w for w in worlds if solvable(w, solve)], nodes)


def deal_limit(worlds: list[Hand], nodes: int) -> int:
    """``nodes`` shared equally by the different deals (the tiles in the
    hands: worlds with the same deal have the same solve, made once) of
    ``worlds``, at least 1; 0: no limit."""
    if not nodes:
        return 0
    deals = {tuple(w.hands) for w in worlds}
    return max(1, nodes // max(1, len(deals)))


class PimcBot(SearchBot):
    """bones 0.1's ``search``: heuristic rollouts of every world, none
    solved, every world weighing the same."""

    def __init__(self, iterations: int = PIMC_ITERATIONS, rollouts: int = 1,
                 seconds: float = 0.0, policy: str = DEFAULT_POLICY) -> None:
        super().__init__(iterations, rollouts, seconds, policy, solve=0, infer=0.0, tree=0)

    def _name(self) -> str:
        return named("pimc", PIMC_PARAMS, {
            "iterations": self.iterations, "rollouts": self.rollouts, "seconds": self.seconds,
            "policy": self.policy})


def solvable_view(obs: Observation, limit: int) -> bool:
    """Whether every world of ``obs`` may be solved (:func:`solvable`): no draw
    can happen any more and at most ``limit`` tiles are in the hands."""
    if not limit or obs.rules.trains is not None:
        return False  # a train layout's worlds are never solved (solve.solvable)
    if obs.rules.max_draws and obs.drawable:
        return False
    return sum(obs.counts) <= limit


def evaluate_moves(obs: Observation, iterations: int = DEFAULT_ITERATIONS, seed: int = 0,
                   bot: str = "search", **params: Any) -> list[tuple[int, float]]:
    """The search's value of every legal move of ``obs``'s seat: ``(move,
    value)`` in the order of ``obs.legal_moves()``, the value being the
    expected points of the seat's side from the rest of the hand less the
    best opposing side's, averaged over the worlds (weighted by the
    inference), as the search judges it with ``iterations`` worlds drawn
    from ``Rng(seed)`` (reproducible; the native core gives the same numbers
    when it is active).  ``bot`` is ``"search"`` or ``"pimc"``; ``params``
    are the bot's other parameters (``solve=``, ``infer=``, ``rollouts=``,
    ``policy=``, ``value=``, ``threads=``).  With ``value="match"`` in a
    variant with a target, a value is instead the seat's side's expected
    probability of winning the match after the hand.  Raises :class:`NoWorldError` for an observation no deal
    agrees with; a seat with no legal move gets an empty list.  Moves that
    are one (the same tile on twin arms, :mod:`bones.engine.mirror`) are
    judged once and get that one value.
    """
    legal = obs.legal_moves()
    if not legal:
        return []
    cls = PimcBot if bot == "pimc" else SearchBot
    searcher = cls(iterations=iterations, **params)
    firsts = mirror_of(obs.layout, legal)
    distinct = [move for i, move in enumerate(legal) if firsts[i] == i]
    _, totals, weights = searcher.search(obs, Rng(seed), distinct)
    scale = weights * searcher.rollouts
    if searcher.table(obs.rules) is not None:
        scale *= WIN  # the match objective: a probability
    value = {move: total / scale if scale else 0.0 for move, total in zip(distinct, totals)}
    return [(move, value[legal[firsts[i]]]) for i, move in enumerate(legal)]


def native_searcher(rules: Rules) -> Any:
    """The native core's searcher for ``rules`` when the native core is
    active (:func:`bones.engine.core.native`), else None: a
    ``bones_native.TrainSearcher`` for a train layout (its worlds played
    out, native/src/bots/trains.rs), else a ``bones_native.Searcher``."""
    if rules.trains is not None:
        return core.native_object(rules, "TrainSearcher")
    return core.native_object(rules, "Searcher")


INFOS = (
    BotInfo(
        "pimc",
        "determinized search (bones 0.1's search): samples worlds consistent with what it "
        "has seen and plays each move out with a fast policy",
        PIMC_PARAMS,
        PimcBot,
    ),
    BotInfo(
        "search",
        "determinized search that solves each sampled world exactly where nothing is left "
        "to draw and weights worlds by how likely they make the other seats' plays",
        PARAMS,
        SearchBot,
    ),
)

__all__ = [
    "DEFAULT_INFER", "DEFAULT_ITERATIONS", "DEFAULT_NODES", "DEFAULT_POLICY", "DEFAULT_SOLVE",
    "DEFAULT_TREE", "INFOS", "TRAIN_TILES", "Judged", "MAX_NODES", "PARAMS", "PIMC_ITERATIONS", "PIMC_PARAMS",
    "POLICIES", "VALUES", "PimcBot", "SearchBot", "deal_limit", "evaluate_moves",
    "solvable_view", "native_searcher", "world_limit",
]
