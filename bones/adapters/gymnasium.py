"""A Gymnasium environment: one seat of a bones variant against built-in bots.

>>> from bones.adapters.gymnasium import env
>>> e = env("all-fives", seat=0, opponents="greedy")
>>> obs, info = e.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((162,), True)

The observation is the seat's encoding (:class:`bones.seat.encoding.Encoding`,
float32); the action an index of :class:`bones.seat.actions.ActionSpace`.
The legal actions come in ``info["action_mask"]`` and from
:meth:`BonesEnv.action_masks` (the method maskable learners call).  The
other seats are played by ``opponents`` (bot texts, see ``bones bots``),
whose randomness, like the deals', flows from the seed given to
:meth:`~BonesEnv.reset`.  An illegal action ends the episode with
``illegal_reward`` (``info["illegal"]`` is then true).

Every entry of the observation is bounded (the encoding's ``scaled`` form:
the count and the scores scaled and clipped); ``info`` carries the raw
``count`` and ``scores``, the ``seat`` that plays, and once a hand has ended
its ``outcome`` (``"domino"``, ``"blocked"`` or ``"target"``) and
``settlement``.  ``seat="random"`` draws the seat for every episode;
``reward`` is one of :data:`bones.adapters.common.REWARDS`.

Seeding: ``reset(seed=S)`` makes episode ``k`` (from 0) the match seeded
``derive(S, 1, k)`` (its hands dealt as ``Match`` deals them), the bots draw
from ``derive(S, 2)`` and a random seat from ``derive(S, 3)``: the native
vector environment (:mod:`bones.adapters.vector`) plays the same episodes.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from bones.adapters.common import (
    BOT_STREAM,
    EPISODE_STREAM,
    SEAT_STREAM,
    Game,
    check_illegal_reward,
    check_reward,
    compile_table,
)
from bones.adapters.render import render_text
from bones.adapters.scoring import ScoringView
from bones.bots import Bot, make_bot
from bones.engine.rng import Rng, derive
from bones.lang.load import builtin_names


def env(variant: str = "all-fives", seat: int | str = 0,
        opponents: str | list[Any] = "heuristic", players: int | None = None,
        teams: bool | None = None, episode: str = "hand", render_mode: str | None = None,
        illegal_reward: float = -1.0, reward: str | None = None,
        render_all: bool = False, scoring: bool = False) -> BonesEnv:
    """The environment; see :class:`BonesEnv` for the arguments."""
    return BonesEnv(variant, seat, opponents, players, teams, episode, render_mode,
                    illegal_reward, reward, render_all, scoring)


class BonesEnv(gymnasium.Env):
    """``seat`` plays ``variant`` against ``opponents``.

    ``opponents`` is one bot text for every other seat or a list, one per
    other seat in seat order (a partner included), of bot texts or bot
    objects (anything with ``choose(observation, rng)``, see docs/bots.md);
    ``episode`` is ``"hand"`` (reward by default: the hand's points,
    zero-sum) or ``"match"`` (by default 1 for a win, -1/(sides-1) for a
    loss); ``reward`` names another kind (``points``, ``scaled``, ``win``,
    ``difference``: :data:`bones.adapters.common.REWARDS`); ``seat`` is a
    seat or ``"random"`` (a seat drawn for every episode).

    ``render_mode="ansi"``: :meth:`render` draws the seat's view (its own
    tiles, never another's); ``render_all=True`` every hand.

    ``scoring=True`` appends the scoring view to the observation (the
    points each action would score now and the count after it,
    :class:`bones.adapters.scoring.ScoringView`); off by default.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, variant: str = "all-fives", seat: int | str = 0,
                 opponents: str | list[Any] = "heuristic", players: int | None = None,
                 teams: bool | None = None, episode: str = "hand",
                 render_mode: str | None = None, illegal_reward: float = -1.0,
                 reward: str | None = None, render_all: bool = False,
                 scoring: bool = False) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.rules = compile_table(variant, players, teams)
        self.random_seat = seat == "random"
        if not self.random_seat and not (isinstance(seat, int)
                                         and 0 <= seat < self.rules.players):
            raise ValueError(f"seat must be 0..{self.rules.players - 1} or 'random', not {seat!r}")
        self.seat = 0 if self.random_seat else int(seat)
        self.episode = episode
        self.reward_kind = check_reward(reward, episode)
        self.render_mode = render_mode
        self.render_all = bool(render_all)
        self.illegal_reward = check_illegal_reward(illegal_reward)
        others = self.rules.players - 1
        texts = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(texts) != others:
            raise ValueError(f"{others} opponents are needed, got {len(texts)}")
        self._opponents = [make_bot(b) if isinstance(b, str) else b for b in texts]
        self.bots: dict[int, Bot] = {}
        self._seat_bots()
        probe = Game(self.rules, Rng(0), episode, self.reward_kind, scaled=True)
        self.space = probe.space
        self.encoding = probe.encoding
        low, high = self.encoding.bounds()
        self.scoring: ScoringView | None = None
        if scoring:
            self.scoring = ScoringView(self.rules, scaled=True, start=self.encoding.size)
            more_low, more_high = self.scoring.bounds()
            low, high = low + more_low, high + more_high
        self.observation_space = spaces.Box(np.array(low, dtype=np.float32),
                                            np.array(high, dtype=np.float32), dtype=np.float32)
        self.action_space = spaces.Discrete(self.space.num_actions)
        self.game: Game | None = None
        self._root: int | None = None
        self._episode = 0
        self._bot_rng = Rng(0)
        self._seat_rng = Rng(0)

    def _seat_bots(self) -> None:
        bots = list(self._opponents)
        self.bots = {s: bots.pop(0) for s in range(self.rules.players) if s != self.seat}

    def _obs(self) -> tuple[np.ndarray, dict[str, Any]]:
        game = self.game
        assert game is not None
        seen = game.observe(self.seat)
        obs = self.encoding.encode(seen)
        if self.scoring is not None:
            # once the episode is over (an illegal action included) no move is left
            view = (np.zeros(self.scoring.size, dtype=np.float32) if game.over
                    else self.scoring.encode(seen))
            obs = np.concatenate([obs, view])
        return obs, {"action_mask": self.action_masks(), "seat": self.seat,
                     "count": game.hand.count, "scores": list(game.hand.scores),
                     "outcome": game.outcome, "settlement": list(game.settlement)}

    def action_masks(self) -> np.ndarray:
        """The legal actions now (int8).  Once the episode is over (and
        before the first reset) there is no move to make and the mask is all
        ones, as Pgx makes it: never all zero, so a masked softmax over it
        stays finite."""
        game = self.game
        if game is None or game.over:
            return np.ones(self.space.num_actions, dtype=np.int8)
        mask = np.zeros(self.space.num_actions, dtype=np.int8)
        if game.turn == self.seat:
            mask[self.space.legal(game.hand)] = 1
        return mask

    def _others(self) -> float:
        """Let the bots move until it is this seat's turn; the seat's reward."""
        game = self.game
        assert game is not None
        reward = 0.0
        while not game.over and game.turn != self.seat:
            turn = game.turn
            move = self.bots[turn].choose(game.observe(turn), self._bot_rng)
            game.step(move)
            reward += game.rewards[self.seat]
        return reward

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or self._root is None:
            root = seed if seed is not None else int.from_bytes(os.urandom(8), "big")
            self._root = root
            self._episode = 0
            self._bot_rng = Rng(derive(root, BOT_STREAM))
            self._seat_rng = Rng(derive(root, SEAT_STREAM))
        while True:
            if self.random_seat:
                self.seat = self._seat_rng.below(self.rules.players)
                self._seat_bots()
            match_seed = derive(self._root, EPISODE_STREAM, self._episode)
            self._episode += 1
            self.game = Game(self.rules, None, self.episode, self.reward_kind, seed=match_seed,
                             scaled=True)
            self._others()
            if not self.game.over:  # the seat has a move to make
                return self._obs()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or game.over:
            raise RuntimeError("call reset() first: the episode is over")
        move = self.space.move(int(action)) if 0 <= int(action) < self.space.num_actions else None
        if move is None or move not in game.hand.legal_moves():
            game.over = True
            obs, info = self._obs()
            info["illegal"] = True
            return obs, float(self.illegal_reward), True, False, info
        game.step(move)
        reward = game.rewards[self.seat]
        reward += self._others()
        obs, info = self._obs()
        return obs, float(reward), game.over, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        return render_text(self.rules, self.game.hand, self.game.match,
                           self.game.match.current_deal, None if self.render_all else self.seat)


def env_id(variant: str) -> str:
    """The ``gymnasium.make`` id of a variant: ``bones/`` and its name in
    CamelCase, version 0 (``all-fives`` -> ``bones/AllFives-v0``; a
    variant file by its file name)."""
    stem = os.path.splitext(os.path.basename(variant))[0]
    words = [w for w in stem.replace("_", "-").split("-") if w]
    return "bones/" + "".join(w[:1].upper() + w[1:] for w in words) + "-v0"


def register_variant(variant: str, id: str | None = None) -> str:  # noqa: A002 - gymnasium's word
    """Register ``variant`` (a built-in name or a variant file) with
    Gymnasium; returns its id.  ``gymnasium.make(id, **kwargs)`` builds a
    :class:`BonesEnv` and ``gymnasium.make_vec(id, num_envs, **kwargs)`` the
    native :class:`bones.adapters.vector.BonesVectorEnv`."""
    name = id or env_id(variant)
    gymnasium.register(name, entry_point="bones.adapters.gymnasium:BonesEnv",
                       vector_entry_point="bones.adapters.vector:make_vector",
                       kwargs={"variant": variant})
    return name


def register_builtins() -> list[str]:
    """Register every built-in variant (done when this module is imported)."""
    registry = gymnasium.envs.registration.registry
    return [register_variant(n) for n in builtin_names() if env_id(n) not in registry]


register_builtins()

__all__ = ["BonesEnv", "env", "env_id", "register_builtins", "register_variant"]
