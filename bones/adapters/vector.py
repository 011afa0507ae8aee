"""A Gymnasium vector environment stepped in the native core.

``num_envs`` tables of one variant are stepped together by
``bones_native.VectorCore``: the learner's seat takes an action per table,
the other seats are played by native bots (``random``, ``greedy``,
``heuristic``, ``search`` at an iteration budget), and every table writes its
observation, legal-action mask, reward and ending straight into NumPy arrays
allocated once.  The GIL is released while the core steps, on
``num_threads`` threads: the calling thread and ``num_threads - 1`` workers
started with the environment, each owning a fixed share of the tables and
woken per step (the arrays are the same whatever the count); ``close()``
joins them.

>>> from bones.adapters.vector import BonesVectorEnv
>>> envs = BonesVectorEnv("all-fives", num_envs=4, opponents="random")
>>> import gymnasium, bones.adapters.gymnasium
>>> gymnasium.make_vec("bones/AllFives-v0", num_envs=2).num_envs
2
>>> obs, info = envs.reset(seed=7)
>>> obs.shape, info["action_mask"].shape
((4, 162), (4, 114))
>>> import numpy as np
>>> actions = info["action_mask"].argmax(axis=1)
>>> obs, reward, terminated, truncated, info = envs.step(actions)
>>> reward.dtype, terminated.dtype
(dtype('float64'), dtype('bool'))

The API is Gymnasium 1.x's :class:`gymnasium.vector.VectorEnv` with
next-step autoreset (``metadata["autoreset_mode"]``): after a table's
episode ends, its next ``step`` starts the next episode (the action is
ignored, the reward 0).  Observations are the bounded ``scaled`` encoding of
:class:`bones.seat.encoding.Encoding`, actions the indices of
:class:`bones.seat.actions.ActionSpace`, rewards one of
:data:`bones.adapters.common.REWARDS`.

Seeds: ``reset(seed=S)`` seeds table ``i`` with ``S + i`` and table ``i``
then plays exactly the episodes of ``bones.adapters.gymnasium.env`` reset
with seed ``S + i`` (the same deals, bot moves, seats and rewards).

``seat`` is a seat, ``"random"`` (a seat drawn for every episode) or
``"all"`` (self-play: every seat is the learner's; each table observes the
seat to move, named in ``info["seat"]``; ``info["rewards"]`` holds every
seat's reward, ``reward`` the reward of the seat that acted).

``info`` holds per table: ``action_mask``, ``seat``, the raw ``count`` and
``scores``, ``outcome`` of the last hand (0 playing, 1 domino, 2 blocked,
3 target), its ``settlement``, ``rewards`` per seat and ``illegal``.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from bones.adapters.common import check_reward, compile_table
from bones.bots import make_bot
from bones.bots.basic import GreedyBot, HeuristicBot, RandomBot
from bones.bots.ismcts import DEFAULT_SCALE
from bones.bots.search import DEFAULT_NODES, SearchBot
from bones.engine.rules import Rules
from bones.seat.actions import ActionSpace
from bones.seat.encoding import SCORE_CLIP, Encoding

#: ``seat`` for self-play and for a random seat each episode
SELF_PLAY = "all"
RANDOM_SEAT = "random"


#: ``native_opponent``'s answer: ``(bot, iterations, rollouts, policy,
#: solve, infer, tree)``
Spec = tuple[str, int, int, str, int, float, int]
_RANDOM: Spec = ("random", 0, 0, "", 0, 0.0, 0)


def native_opponent(text: str) -> Spec:
    """The spec of a bot the core plays (:data:`Spec`)."""
    bot = make_bot(text)
    if isinstance(bot, RandomBot):
        return _RANDOM
    if isinstance(bot, GreedyBot):
        return ("greedy", 0, 0, "", 0, 0.0, 0)
    if isinstance(bot, HeuristicBot):
        return ("heuristic", 0, 0, "", 0, 0.0, 0)
    # (threads change nothing but the speed; the match value is not played natively)
    if (isinstance(bot, SearchBot) and not bot.timed and bot.value == "points"
            and bot.scale == DEFAULT_SCALE and bot.nodes == DEFAULT_NODES):
        return ("search", bot.iterations, bot.rollouts, bot.policy, bot.solve, bot.infer,
                bot.tree)
    raise ValueError(f"the vector environment plays random, greedy, heuristic and search "
                     f"(an iteration budget, valuing points, its tree's default scale and "
                     f"solving budget) natively, not {text!r}")


def _native(rules: Rules) -> Any:
    from bones.engine import core

    module = core.native()
    if module is None or not hasattr(module, "VectorCore"):
        raise RuntimeError("the vector environment needs the native core (bones_native)")
    return module


class BonesVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` tables of ``variant``; see the module for the arguments."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, variant: str = "all-fives", num_envs: int = 8, seat: int | str = 0,
                 opponents: str | list[str] = "heuristic", players: int | None = None,
                 teams: bool | None = None, episode: str = "hand", reward: str | None = None,
                 illegal_reward: float = -1.0, num_threads: int = 1, copy: bool = True) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match', not {episode!r}")
        rules = compile_table(variant, players, teams)
        self.rules = rules
        n, p = num_envs, rules.players
        if seat == SELF_PLAY:
            code = -2
        elif seat == RANDOM_SEAT:
            code = -1
        elif isinstance(seat, int) and 0 <= seat < p:
            code = seat
        else:
            raise ValueError(f"seat must be 0..{p - 1}, 'random' or 'all', not {seat!r}")
        self.seat = seat
        texts = [opponents] * (p - 1) if isinstance(opponents, str) else list(opponents)
        if len(texts) != p - 1:
            raise ValueError(f"{p - 1} opponents are needed, got {len(texts)}")
        specs = [native_opponent(t) for t in texts]
        self.reward_kind = check_reward(reward, episode)
        self.episode = episode
        self.encoding = Encoding(rules, scaled=True)
        self.space = ActionSpace(rules)
        from bones.engine.core import flat_table

        flat = dict(flat_table(rules))
        # the opponents fill the other seats in order; a random or
        # self-play seat needs one bot text for every seat
        if code >= 0:
            per_seat = specs[:code] + [_RANDOM] + specs[code:]
        else:
            if len(set(specs)) > 1:
                raise ValueError("with a random seat the opponents must all be the same bot")
            per_seat = [specs[0] if specs else _RANDOM] * p
        module = _native(rules)
        self.core = module.VectorCore(
            flat, n, code, per_seat, episode == "match", self.reward_kind,
            float(self.encoding.score_scale), float(illegal_reward),
            float(self.encoding.count_cap), float(self.encoding.score_scale), SCORE_CLIP,
            max(1, int(num_threads)),
        )
        size, actions = self.core.shape
        if (size, actions) != (self.encoding.size, self.space.num_actions):  # pragma: no cover
            raise RuntimeError("the native encoding disagrees with bones.seat.encoding")
        o = rules.owners
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._mask = np.zeros((n, actions), dtype=np.int8)
        self._reward = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.uint8)
        self._truncated = np.zeros(n, dtype=np.uint8)
        self._seat = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, p), dtype=np.float64)
        self._outcome = np.zeros(n, dtype=np.int8)
        self._count = np.zeros(n, dtype=np.int64)
        self._scores = np.zeros((n, o), dtype=np.int64)
        self._settlement = np.zeros((n, o), dtype=np.int64)
        self._illegal = np.zeros(n, dtype=np.uint8)
        self.core.bind(self._obs, self._mask, self._reward, self._terminated, self._truncated,
                       self._seat, self._rewards, self._outcome, self._count, self._scores,
                       self._settlement, self._illegal)
        self.num_envs = n
        self.copy = copy
        low, high = self.encoding.bounds()
        self.single_observation_space = spaces.Box(
            np.array(low, dtype=np.float32), np.array(high, dtype=np.float32), dtype=np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._seeded = False

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _info(self) -> dict[str, Any]:
        c = self._out
        return {"action_mask": c(self._mask), "seat": c(self._seat), "count": c(self._count),
                "scores": c(self._scores), "outcome": c(self._outcome),
                "settlement": c(self._settlement), "rewards": c(self._rewards),
                "illegal": c(self._illegal).view(bool)}

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new episode on every table (``options["reset_mask"]``: only
        on those marked).  ``seed``: an int ``S`` seeds table ``i`` with
        ``S + i``; a list seeds each table (None: left as it was)."""
        n = self.num_envs
        if seed is None and not self._seeded:
            seed = int.from_bytes(os.urandom(8), "big") % (1 << 62)
        if seed is not None:
            seeds = [seed + i for i in range(n)] if isinstance(seed, int) else list(seed)
            if len(seeds) != n:
                raise ValueError(f"{n} seeds are needed, got {len(seeds)}")
            for i, s in enumerate(seeds):
                if s is not None:
                    self.core.seed(i, int(s) % (1 << 64))
            self._seeded = True
        which = np.ones(n, dtype=np.uint8)
        if options and "reset_mask" in options:
            which = np.asarray(options["reset_mask"], dtype=np.uint8)
        self.core.reset(which.tolist())
        return self._out(self._obs), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        if not self._seeded:
            raise RuntimeError("call reset() first")
        acts = np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs)
        self.core.step(acts)
        return (self._out(self._obs), self._out(self._reward),
                self._terminated.astype(bool), self._truncated.astype(bool), self._info())

    def close_extras(self, **kwargs: Any) -> None:
        """Stop and join the worker threads (``close()`` calls this; a
        later ``reset`` or ``step`` is refused)."""
        self.core.close()

    def action_masks(self) -> np.ndarray:
        """The legal actions of every table now (int8, ``(num_envs, actions)``)."""
        return self._mask.copy()


def make_vector(variant: str = "all-fives", num_envs: int = 8, **kwargs: Any) -> BonesVectorEnv:
    """:class:`BonesVectorEnv` (the ``vector_entry_point`` of the registered ids)."""
    return BonesVectorEnv(variant, num_envs, **kwargs)


__all__ = ["RANDOM_SEAT", "SELF_PLAY", "BonesVectorEnv", "make_vector", "native_opponent"]
