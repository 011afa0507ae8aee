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
ignored, the reward 0; the mask of the step that ended it is all ones, so
no mask row is ever all zero).  Observations are the bounded ``scaled`` encoding of
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
3 target), its ``settlement``, ``rewards`` per seat and ``illegal``, each
with Gymnasium's ``_key`` mask of the tables it is for (as
``make_vec(..., vectorization_mode="sync")`` marks them).

Train layouts (``mexican-train``, ``chicken-foot``: docs/trains.md) play
natively too: each table plays the rounds and the match of rounds of the
Rust train hand, its observation with the train slots and markers, its
actions tile × target (:class:`bones.seat.actions.ActionSpace`), the other
seats played by the same native bots.

``scoring=True`` appends the scoring view to every observation (the points
each action would score now and the count after it,
:class:`bones.adapters.scoring.ScoringView`, computed in the core); off by
default.

Asynchronous stepping (as EnvPool does it): :meth:`~BonesVectorEnv.send`
queues actions for some tables and returns at once; the tables step on
background threads (``num_threads`` of them, at least one) while the
caller works; :meth:`~BonesVectorEnv.recv` waits for the first
``batch_size`` tables to finish, in whatever order they finish, and returns
their rows with their ids in ``info["env_id"]``.  A table whose opponent
thinks long (``search``) then holds up no other:

>>> envs = BonesVectorEnv("all-fives", num_envs=4, opponents="random", batch_size=2)
>>> envs.async_reset(seed=7)
>>> obs, reward, terminated, truncated, info = envs.recv()
>>> obs.shape, sorted(info) == sorted(["env_id", *envs.INFO_KEYS])
((2, 162), True)
>>> envs.send(info["action_mask"].argmax(axis=1), info["env_id"])

A table's trajectory depends only on its seed and the actions it is sent,
never on the order the results come back in, so it plays the same episodes
as under :meth:`~BonesVectorEnv.step`.  While tables are out (sent and not
yet received) ``step`` and ``reset`` are refused.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from bones.adapters.common import check_illegal_reward, check_reward, compile_table
from bones.adapters.render import render_state
from bones.adapters.scoring import ScoringView
from bones.bots import make_bot
from bones.bots.basic import GreedyBot, HeuristicBot, RandomBot
from bones.bots.blunder import BlunderBot
from bones.bots.ismcts import DEFAULT_EXPLORE, DEFAULT_PRIOR, DEFAULT_SCALE
from bones.bots.search import DEFAULT_IDRAW, DEFAULT_NODES, DEFAULT_TREE_INFER, DEFAULT_TREE_WORLDS, SearchBot
from bones.engine import core
from bones.engine.core import flat_table
from bones.engine.rules import Rules
from bones.seat.actions import ActionSpace
from bones.seat.encoding import SCORE_CLIP, Encoding

_INT64 = np.dtype(np.int64)

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
    if isinstance(bot, BlunderBot):  # its name carries its settings (`Blunder::parse`)
        return (bot.name, 0, 0, "", 0, 0.0, 0)
    # (the tables are stepped on the environment's threads, so a search of one
    # thread: its threads grow several trees, another move; the match value is
    # not played natively)
    if (isinstance(bot, SearchBot) and not bot.timed and bot.value == "points"
            and bot.scale == DEFAULT_SCALE and bot.nodes == DEFAULT_NODES and bot.threads == 1
            and bot.explore == DEFAULT_EXPLORE and bot.tinfer == DEFAULT_TREE_INFER
            and bot.tworlds == DEFAULT_TREE_WORLDS
            and bot.prior == DEFAULT_PRIOR and bot.idraw == DEFAULT_IDRAW):
        return ("search", bot.iterations, bot.rollouts, bot.policy, bot.solve, bot.infer,
                bot.tree)
    raise ValueError(f"the vector environment plays random, greedy, heuristic, blunder and search "
                     f"(an iteration budget, valuing points, its tree's default scale, "
                     f"exploration, inference and its pool, prior and solving budget, one "
                     f"thread: the tables share out `num_threads`) natively, not {text!r}")


def _count(value: Any, name: str) -> int:
    """``value`` as a count: an int (Python's or NumPy's), not a bool."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"`{name}` must be an integer, got {type(value)}")
    return int(value)


def memory_bytes() -> int:
    """The machine's physical memory (what bounds ``num_envs``); 16 GiB
    where the system does not say."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not on Linux or macOS
        return 16 << 30


def max_tables(table_bytes: int, memory: int | None = None) -> int:
    """The most tables of ``table_bytes`` each that half of ``memory`` (by
    default the machine's, :func:`memory_bytes`) holds: the other half is
    left to Python, the learner and the estimate's error."""
    return max(1, (memory_bytes() if memory is None else memory) // 2 // table_bytes)


def _bound(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """An array the core writes into while the GIL is released: a view of
    zeros, which NumPy never resizes (a view does not own its memory), so
    the memory the core holds pointers to stays where it is."""
    return np.zeros(shape, dtype=dtype).view()


def _native(rules: Rules) -> Any:
    module = core.native()
    if module is None or not hasattr(module, "VectorCore"):
        raise RuntimeError("the vector environment needs the native core (bones_native)")
    return module


class BonesVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` tables of ``variant``; see the module for the arguments."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(self, variant: str = "all-fives", num_envs: int = 8, seat: int | str = 0,
                 opponents: str | list[str] = "heuristic", players: int | None = None,
                 teams: bool | None = None, episode: str = "hand", reward: str | None = None,
                 illegal_reward: float = -1.0, num_threads: int = 1, copy: bool = True,
                 render_mode: str | None = None, render_all: bool = False,
                 scoring: bool = False, batch_size: int | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.render_all = bool(render_all)
        n = _count(num_envs, "num_envs")
        threads = _count(num_threads, "num_threads")
        illegal = check_illegal_reward(illegal_reward)
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match', not {episode!r}")
        rules = compile_table(variant, players, teams)
        self.rules = rules
        p = rules.players
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
        self.scoring = (ScoringView(rules, scaled=True, start=self.encoding.size)
                        if scoring else None)
        view = 0 if self.scoring is None else self.scoring.size

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
        most = module.VectorCore.MAX_THREADS
        if not 1 <= threads <= most:
            raise ValueError(f"`num_threads` must be between 1 and {most}, got {threads}")
        # a table's bytes: the core's estimate of its own, and its rows of
        # the arrays below, twice (the copies a step returns)
        self.table_bytes = module.VectorCore.table_bytes(flat) + 2 * (
            4 * (self.encoding.size + view) + self.space.num_actions + 8 * (4 + p + 2 * rules.owners) + 4)
        most = max_tables(self.table_bytes)
        if not 1 <= n <= most:
            raise ValueError(
                f"`num_envs` must be between 1 and {most:,} (the tables half the machine's "
                f"{memory_bytes() / 1e9:.1f} GB holds at about {self.table_bytes:,} bytes a "
                f"table), got {n}")
        batch = n if batch_size is None else _count(batch_size, "batch_size")
        if not 1 <= batch <= n:
            raise ValueError(f"`batch_size` must be between 1 and num_envs ({n}), got {batch}")
        self.batch_size = batch
        settings = {
            "seat": code, "opponents": per_seat, "whole_match": episode == "match",
            "reward": self.reward_kind, "scale": float(self.encoding.score_scale),
            "illegal_reward": illegal, "count_cap": float(self.encoding.count_cap),
            "score_scale": float(self.encoding.score_scale), "score_clip": SCORE_CLIP,
            # the tables keep their moves only to be drawn
            "record": render_mode == "ansi",
            "scoring": self.scoring is not None,
        }
        self.core = module.VectorCore(flat, n, settings, threads)
        size, actions = self.core.shape
        if (size, actions) != (self.encoding.size + view,
                               self.space.num_actions):  # pragma: no cover
            raise RuntimeError("the native encoding disagrees with bones.seat.encoding")
        o = rules.owners
        self._obs = _bound((n, size), np.float32)
        self._mask = _bound((n, actions), np.int8)
        self._reward = _bound((n,), np.float64)
        self._terminated = _bound((n,), np.uint8)
        self._truncated = _bound((n,), np.uint8)
        self._seat = _bound((n,), np.int64)
        self._rewards = _bound((n, p), np.float64)
        self._outcome = _bound((n,), np.int8)
        self._count = _bound((n,), np.int64)
        self._scores = _bound((n, o), np.int64)
        self._settlement = _bound((n, o), np.int64)
        self._illegal = _bound((n,), np.uint8)
        self.core.bind({
            "obs": self._obs, "mask": self._mask, "reward": self._reward,
            "terminated": self._terminated, "truncated": self._truncated, "seat": self._seat,
            "rewards": self._rewards, "outcome": self._outcome, "count": self._count,
            "scores": self._scores, "settlement": self._settlement, "illegal": self._illegal,
        })
        self.num_envs = n
        self.copy = copy
        # the `_key` masks of every entry after a step (all True, never written)
        every = np.ones((7, n), dtype=np.bool_)
        every.setflags(write=False)
        self._every = tuple(every)
        self._shape = (n,)
        low, high = self.encoding.bounds()
        if self.scoring is not None:
            more_low, more_high = self.scoring.bounds()
            low, high = low + more_low, high + more_high
        self.single_observation_space = spaces.Box(
            np.array(low, dtype=np.float32), np.array(high, dtype=np.float32), dtype=np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._seeded = False

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _info(self, reset: np.ndarray | None = None) -> dict[str, Any]:
        """Every table's info, with Gymnasium's ``_key`` masks: which tables
        an entry is for, as its vector environments mark them (every table
        after a step: read-only arrays of True, the same at every step; the
        tables reset after a masked reset; ``illegal`` only where an action
        was illegal, as the scalar environment's info has it only then).
        (Written out: it runs at every step.)"""
        illegal = self._illegal.view(np.bool_)
        if self.copy:
            mask, seat, count = self._mask.copy(), self._seat.copy(), self._count.copy()
            scores, outcome = self._scores.copy(), self._outcome.copy()
            settlement, rewards = self._settlement.copy(), self._rewards.copy()
            illegal = illegal.copy()
        else:
            mask, seat, count = self._mask, self._seat, self._count
            scores, outcome = self._scores, self._outcome
            settlement, rewards = self._settlement, self._rewards
        if reset is None:
            m = self._every
            # where an action was illegal; live, as the other arrays, unless copied
            marked = illegal.copy() if self.copy else illegal
        else:
            m = tuple(reset.copy() for _ in self._every)
            marked = illegal & reset
        return {"action_mask": mask, "_action_mask": m[0], "seat": seat, "_seat": m[1],
                "count": count, "_count": m[2], "scores": scores, "_scores": m[3],
                "outcome": outcome, "_outcome": m[4], "settlement": settlement,
                "_settlement": m[5], "rewards": rewards, "_rewards": m[6],
                "illegal": illegal, "_illegal": marked}

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new episode on every table (``options["reset_mask"]``, a
        bool array of ``num_envs``: only on those marked).  ``seed``: an int
        ``S`` (Python's or NumPy's, at least 0) seeds table ``i`` with
        ``S + i``; a list seeds each table (None: left as it was)."""
        n = self.num_envs
        if seed is None and not self._seeded:
            seed = int.from_bytes(os.urandom(8), "big") % (1 << 62)
        if seed is not None:
            seeds = self._seeds(seed)
            for i, s in enumerate(seeds):
                if s is not None:
                    self.core.seed(i, s % (1 << 64))
            self._seeded = True
        which = None
        if options and "reset_mask" in options:
            which = self._reset_mask(options["reset_mask"])
        self.core.reset([1] * n if which is None else which.view(np.uint8).tolist())
        return self._out(self._obs), self._info(which)

    def _seeds(self, seed: Any) -> list[int | None]:
        """Every table's seed (None: left as it was), checked as Gymnasium
        checks a seed."""
        n = self.num_envs
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            seeds: list[Any] = [int(seed) + i for i in range(n)]
        elif isinstance(seed, list | tuple | np.ndarray):
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"If seeds are passed as a list the length must match "
                                 f"num_envs={n} but got length={len(seeds)}.")
        else:
            raise TypeError(f"Seed must be a python integer, actual type: {type(seed)}")
        out: list[int | None] = []
        for s in seeds:
            if s is not None and (isinstance(s, bool) or not isinstance(s, int | np.integer)):
                raise TypeError(f"Seed must be a python integer, actual type: {type(s)}")
            if s is not None and s < 0:
                raise ValueError(f"Seed must be greater or equal to zero, actual value: {s}")
            out.append(None if s is None else int(s))
        return out

    def _reset_mask(self, mask: Any) -> np.ndarray:
        """``options["reset_mask"]``, checked as Gymnasium's vector
        environments check it."""
        n = self.num_envs
        if not isinstance(mask, np.ndarray):
            raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
        if mask.shape != (n,):
            raise ValueError(f"`options['reset_mask']` must have shape `({n},)`, "
                             f"got {mask.shape}")
        if mask.dtype != np.bool_:
            raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, "
                            f"got {mask.dtype}")
        if not mask.any():
            raise ValueError(f"`options['reset_mask']` must contain a boolean array with at "
                             f"least one True value, got reset_mask={mask}")
        return np.ascontiguousarray(mask)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One step of every table: ``actions`` is an integer array of
        ``num_envs`` action indices (an index outside the action space, or
        of an action not legal now, is an illegal action)."""
        if not self._seeded:
            raise RuntimeError("call reset() first")
        if not (type(actions) is np.ndarray and actions.dtype is _INT64
                and actions.shape == self._shape and actions.flags.c_contiguous):
            actions = self._actions(actions)
        self.core.step(actions)
        return (self._out(self._obs), self._out(self._reward),
                self._terminated.astype(bool), self._truncated.astype(bool), self._info())

    #: the entries of ``info`` (each with its ``_key`` mask after ``step``)
    INFO_KEYS = ("action_mask", "seat", "count", "scores", "outcome", "settlement", "rewards",
                 "illegal")

    def async_reset(self, *, seed: int | list[int | None] | None = None) -> None:
        """Start a new episode on every table in the background (seeded as
        :meth:`reset` seeds them); :meth:`recv` takes the first observations."""
        if seed is None and not self._seeded:
            seed = int.from_bytes(os.urandom(8), "big") % (1 << 62)
        if seed is not None:
            if self.core.outstanding:
                raise RuntimeError(f"{self.core.outstanding} tables are stepping in the "
                                   "background: recv() them first")
            for i, s in enumerate(self._seeds(seed)):
                if s is not None:
                    self.core.seed(i, s % (1 << 64))
            self._seeded = True
        self.core.send(list(range(self.num_envs)), [], True)

    def send(self, actions: Any, env_id: Any = None) -> None:
        """Queue one action for each table of ``env_id`` (an integer array;
        by default every table) and return at once: the tables step in the
        background.  A table must be received (:meth:`recv`) before it is
        sent again."""
        if not self._seeded:
            raise RuntimeError("call reset() or async_reset() first")
        ids = (np.arange(self.num_envs) if env_id is None else np.asarray(env_id))
        if ids.ndim != 1 or ids.dtype.kind not in "iu":
            raise TypeError(f"`env_id` must be a 1-d integer array, got {ids.dtype} of "
                            f"shape {ids.shape}")
        acts = np.asarray(actions)
        if acts.shape != ids.shape:
            raise ValueError(f"`actions` must have shape `{ids.shape}` (one per env id), "
                             f"got {acts.shape}")
        if acts.dtype.kind not in "iu":
            raise TypeError(f"`actions` must have an integer dtype, got {acts.dtype}")
        if (ids < 0).any():
            raise ValueError(f"env ids are 0 to {self.num_envs - 1}, got {int(ids.min())}")
        self.core.send(ids.tolist(), acts.astype(np.int64).tolist(), False)

    def recv(self, batch_size: int | None = None) -> tuple[
            np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Wait for ``batch_size`` (by default the constructor's) of the
        tables sent to finish and return their rows, in the order they
        finished: ``(obs, reward, terminated, truncated, info)``, each with
        one row per table, ``info["env_id"]`` naming the tables."""
        count = self.batch_size if batch_size is None else _count(batch_size, "batch_size")
        ids = np.asarray(self.core.recv(count), dtype=np.int64)
        info: dict[str, Any] = {
            "action_mask": self._mask[ids], "seat": self._seat[ids], "count": self._count[ids],
            "scores": self._scores[ids], "outcome": self._outcome[ids],
            "settlement": self._settlement[ids], "rewards": self._rewards[ids],
            "illegal": self._illegal[ids].view(np.bool_), "env_id": ids,
        }
        return (self._obs[ids], self._reward[ids], self._terminated[ids].astype(bool),
                self._truncated[ids].astype(bool), info)

    def _actions(self, actions: Any) -> np.ndarray:
        """``actions`` as a contiguous int64 array of ``num_envs``; refused
        unless of that shape and an integer dtype (never reshaped or
        truncated)."""
        acts = np.asarray(actions)
        if acts.shape != self._shape:
            raise ValueError(f"`actions` must have shape `({self.num_envs},)`, got {acts.shape}")
        if acts.dtype.kind not in "iu":
            raise TypeError(f"`actions` must have an integer dtype, got {acts.dtype}")
        return np.ascontiguousarray(acts, dtype=np.int64)

    def render(self) -> tuple[str, ...] | None:
        """With ``render_mode="ansi"``: every table as text, a tuple (as
        Gymnasium's own vector environments render), each as
        :meth:`render_table` draws it; None without a render mode."""
        if self.render_mode is None:
            return None
        return tuple(self._render(i) for i in range(self.num_envs))

    def render_table(self, table: int) -> str | None:
        """With ``render_mode="ansi"``: table ``table`` as text, the view of
        the seat it observes (``info["seat"]``: its own tiles, never
        another's), or every hand with ``render_all=True``; None without a
        render mode."""
        if isinstance(table, bool) or not isinstance(table, int | np.integer):
            raise TypeError(f"`table` must be an integer, got {type(table)}")
        if not 0 <= table < self.num_envs:
            raise ValueError(f"`table` must be between 0 and {self.num_envs - 1}, got {table}")
        if self.render_mode is None:
            return None
        return self._render(int(table))

    def _render(self, i: int) -> str:
        if not self._seeded:
            return ""
        seat = None if self.render_all else int(self._seat[i])
        return render_state(self.rules, self.core.table(i), seat)

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


__all__ = ["RANDOM_SEAT", "SELF_PLAY", "BonesVectorEnv", "make_vector", "max_tables", "memory_bytes",
           "native_opponent"]
