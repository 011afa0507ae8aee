"""The determinized search bot.

Each iteration samples one world consistent with the observation
(:func:`bones.seat.observation.sample_world`) and plays every candidate move in
it, then the rest of the hand by a fast full-information policy.  A move's
value is the sum over worlds of the mover's side's points from the rest of
the hand (plays and settlement) less the best opposing side's.  All
candidates are judged in the same worlds with the same rollout generators
(common random numbers), so the comparison between moves is much sharper
than the values themselves.

With the native core active (:func:`bones.engine.core.native`) the search
runs in Rust (``bones_native.Searcher``, native/src/search.rs) and takes
exactly the same decisions from the same draws, about 70 times faster.  By
default rollouts play by the ``heuristic`` policy over 45 worlds: in 2-player
all-fives that beats the ``heuristic`` bot in 81% of 1,000 matches at a
median 1.5 ms a move with a choice (native; 104 ms in Python), and 180 worlds
beat 45 in 56.3% (docs/simulate.md, "Strength", has the curve and the
commands that reproduce every figure).
"""

from __future__ import annotations

import time
from typing import Any

from bones.bots.basic import heuristic_move
from bones.bots.info import BotInfo, Param, named
from bones.bots.policies import greedy_move
from bones.engine import core
from bones.engine.hand import Hand
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.seat.observation import NoWorldError, Observation, sample_world

#: Worlds per move by default, with heuristic rollouts: in 2-player
#: all-fives a median move with a choice takes about 1.5 ms in the native
#: core and 0.1 s in Python, and beats ``heuristic`` in over 80% of matches
#: while four times as many worlds still buy strength (docs/simulate.md,
#: "Strength", has the curve and the commands).
DEFAULT_ITERATIONS = 45
#: How rollouts play by default (heuristic rollouts are worth far more than
#: more worlds of greedy ones: docs/simulate.md).
DEFAULT_POLICY = "heuristic"


def _greedy_policy(hand: Hand, rng: Rng) -> int:
    return greedy_move(hand)


def _heuristic_policy(hand: Hand, rng: Rng) -> int:
    legal = hand.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = hand.turn
    unseen = hand.rules.tiles.full & ~(hand.hands[seat] | hand.on_table | hand.out_of_play)
    counts = [h.bit_count() for h in hand.hands]
    return heuristic_move(hand, unseen, counts, hand.drawable, 0, legal)


def _random_policy(hand: Hand, rng: Rng) -> int:
    legal = hand.legal_moves()
    return legal[0] if len(legal) == 1 else rng.choice(legal)


POLICIES = {"greedy": _greedy_policy, "heuristic": _heuristic_policy, "random": _random_policy}


PARAMS = (
    Param("iterations", int, DEFAULT_ITERATIONS,
          "worlds sampled per move (reproducible for a seed)", minimum=1, maximum=2000),
    Param("rollouts", int, 1, "playouts per move and world", minimum=1, maximum=8),
    Param("seconds", float, 0.0,
          "time budget per move instead of iterations (interactive play only)",
          minimum=0, maximum=5.0),
    Param("policy", str, DEFAULT_POLICY, "how rollouts play", tuple(POLICIES)),
)


class SearchBot:
    """Determinized Monte Carlo search over sampled worlds."""

    expensive = True  # simulations time its moves in CPU time

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, rollouts: int = 1,
                 seconds: float = 0.0, policy: str = DEFAULT_POLICY) -> None:
        self.iterations = iterations
        self.rollouts = rollouts
        self.seconds = seconds
        self.policy = policy
        self._policy = POLICIES[policy]
        self.name = named("search", PARAMS, {"iterations": iterations, "rollouts": rollouts,
                                             "seconds": seconds, "policy": policy})

    @property
    def timed(self) -> bool:
        """Whether moves depend on the clock (not reproducible)."""
        return self.seconds > 0

    def choose(self, obs: Observation, rng: Rng) -> int:
        legal = obs.legal_moves()
        if len(legal) == 1:
            return legal[0]
        return self.values(obs, rng, legal)[0]

    def values(self, obs: Observation, rng: Rng,
               legal: list[int]) -> tuple[int, list[float]]:
        """The chosen move and every candidate's total value.

        The native core judges them when it is active
        (:func:`bones.engine.core.native`), with the same draws from ``rng``,
        so the move, the totals and ``rng``'s state afterwards are the same
        as :meth:`python_values` gives.
        """
        searcher = native_searcher(obs.rules) if type(rng) is Rng else None
        if searcher is not None:
            return self.native_values(searcher, obs, rng, legal)
        return self.python_values(obs, rng, legal)

    def native_values(self, searcher: Any, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float]]:
        """:meth:`values` in the native core (``searcher``: a
        ``bones_native.Searcher`` for ``obs.rules``)."""
        got = searcher.search(
            obs.layout, obs.seat, obs.hand, list(obs.counts), obs.unseen, obs.limits(),
            legal, self.iterations, self.rollouts, self.policy, self.seconds, rng.state,
        )
        best, totals, rng.state, _ = got
        if best is None:
            raise NoWorldError("no deal of the unseen tiles agrees with what the history proves")
        return best, [float(t) for t in totals]

    def python_values(self, obs: Observation, rng: Rng,
                      legal: list[int]) -> tuple[int, list[float]]:
        """:meth:`values` in Python (the reference)."""
        rules = obs.rules
        me = rules.owner[obs.seat]
        totals = [0.0] * len(legal)
        policy = self._policy
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else 0.0
        done = 0
        while True:
            world = sample_world(obs, rng)
            seeds = [rng.next_u64() for _ in range(self.rollouts)]
            base = list(world.scores)
            for i, move in enumerate(legal):
                for seed in seeds:
                    trial = world.copy()
                    trial.apply(move)
                    play_rng = Rng(seed)
                    while not trial.state:
                        trial.apply(policy(trial, play_rng))
                    gains = [a - b for a, b in zip(trial.scores, base)]
                    mine = gains[me]
                    gains[me] = -(1 << 30)
                    totals[i] += mine - max(gains)
            done += 1
            if deadline:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))
        return legal[best], totals


#: ``bones_native.Searcher`` per rule table (False: the table cannot run natively)
_SEARCHERS: dict[int, tuple[Rules, Any]] = {}


def native_searcher(rules: Rules) -> Any:
    """The native core's searcher for ``rules`` when the native core is
    active (:func:`bones.engine.core.native`), else None."""
    module = core.native()
    if module is None:
        return None
    got = _SEARCHERS.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1] or None
    try:
        searcher = module.Searcher(core.flat_table(rules))
    except (ValueError, AttributeError):
        # a table the native core refuses, or an extension built before the
        # searcher: the Python search gives the same moves
        searcher = False
    if len(_SEARCHERS) > 64:
        _SEARCHERS.clear()
    _SEARCHERS[id(rules)] = (rules, searcher)
    return searcher or None


INFOS = (
    BotInfo(
        "search",
        "determinized search: samples worlds consistent with what it has seen and "
        "plays each move out with a fast policy",
        PARAMS,
        SearchBot,
    ),
)

__all__ = [
    "DEFAULT_ITERATIONS", "DEFAULT_POLICY", "INFOS", "PARAMS", "POLICIES", "SearchBot",
    "native_searcher",
]
