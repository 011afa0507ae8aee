"""A PettingZoo AEC environment for any bones variant (``pip install 'bones[rl]'``).

>>> from bones.adapters.pettingzoo import env
>>> e = env("all-fives", players=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape, int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], (162,), True)

Every seat is an agent, ``player_0`` ... ``player_{n-1}``.  An observation
is a dict: ``observation`` is the seat's encoding
(:class:`bones.seat.encoding.Encoding`, float32) and ``action_mask`` the
legal actions of :class:`bones.seat.actions.ActionSpace` (int8, all zero
when another seat is to move, all ones once the episode is over).  See
docs/adapters.md for the options.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bones.adapters.common import Game, check_illegal_reward, check_reward, compile_table
from bones.adapters.render import render_text
from bones.adapters.scoring import ScoringView
from bones.engine.rng import Rng
from bones.engine.rules import Rules


def env(variant: str = "all-fives", players: int | None = None, teams: bool | None = None,
        seed: int | None = None, episode: str = "hand", render_mode: str | None = None,
        illegal_reward: float = -1.0, reward: str | None = None,
        observation: str = "dict", render_all: bool = False, scoring: bool = False) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are: an
    illegal action ends the episode with ``illegal_reward`` for the seat
    that made it, and calls out of order raise."""
    raw = raw_env(variant, players, teams, seed, episode, render_mode, reward, observation,
                  render_all, scoring)
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(
        raw, illegal_reward=check_illegal_reward(illegal_reward))
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped environment; :func:`env` is what most users want.

    ``variant`` is a built-in name or a variant file; ``players`` and
    ``teams`` choose the table (defaults: the variant's smallest player
    count, partnerships where the variant requires them); ``episode`` is
    ``"hand"`` (one hand, rewarded in points) or ``"match"`` (hands until
    the variant's target, rewarded by the win); ``seed`` seeds the first
    :meth:`reset` that is given none; ``reward`` is one of
    :data:`bones.adapters.common.REWARDS`.

    ``observation="dict"`` (the default, as PettingZoo's classic games do)
    observes ``{"observation", "action_mask"}``; ``observation="box"``
    observes the encoding alone and puts the mask in
    ``infos[agent]["action_mask"]`` (PettingZoo's other convention, which its
    ``api_test`` checks without a warning).  The encoding is bounded (the
    count and scores scaled, :class:`bones.seat.encoding.Encoding`);
    ``infos[agent]`` carries the raw ``count`` and ``scores`` and, once a
    hand has ended, its ``outcome`` and ``settlement``.

    ``render_mode="ansi"``: :meth:`render` draws the view of the agent to
    move (its own tiles, never another's); ``render_all=True`` every hand.

    ``scoring=True`` appends the scoring view to the encoding (the points
    each action would score now and the count after it, for the agent to
    move; :class:`bones.adapters.scoring.ScoringView`); off by default.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "bones_v0",
                                "is_parallelizable": False}

    def __init__(self, variant: str = "all-fives", players: int | None = None,
                 teams: bool | None = None, seed: int | None = None, episode: str = "hand",
                 render_mode: str | None = None, reward: str | None = None,
                 observation: str = "dict", render_all: bool = False,
                 scoring: bool = False) -> None:
        super().__init__()
        self.render_all = bool(render_all)
        if observation not in ("dict", "box"):
            raise ValueError(f"observation must be 'dict' or 'box', not {observation!r}")
        self.observation_kind = observation
        self.reward_kind = check_reward(reward, episode)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.rules: Rules = compile_table(variant, players, teams)
        self.episode = episode
        self.render_mode = render_mode
        self._seed = seed
        self._rng: Rng | None = None
        rules = self.rules
        self.possible_agents = [f"player_{i}" for i in range(rules.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        probe = Game(rules, Rng(0), episode, self.reward_kind, scaled=True)
        self.space = probe.space
        self.encoding = probe.encoding
        low, high = self.encoding.bounds()
        self.scoring: ScoringView | None = None
        if scoring:
            self.scoring = ScoringView(rules, scaled=True, start=self.encoding.size)
            more_low, more_high = self.scoring.bounds()
            low, high = low + more_low, high + more_high
        box = spaces.Box(np.array(low, dtype=np.float32), np.array(high, dtype=np.float32),
                         dtype=np.float32)
        obs_space: spaces.Space[Any] = box
        if observation == "dict":
            obs_space = spaces.Dict({
                "observation": box,
                "action_mask": spaces.Box(0, 1, (self.space.num_actions,), dtype=np.int8),
            })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.num_actions)
                              for a in self.possible_agents}
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = Rng(seed)
        elif self._rng is None:
            first = self._seed if self._seed is not None else int.from_bytes(os.urandom(4), "big")
            self._rng = Rng(first)
        self.game = Game(self.rules, self._rng, self.episode, self.reward_kind, scaled=True)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]
        self._fill_infos()

    def _mask(self, seat: int) -> np.ndarray:
        """The seat's legal actions: none while another seat is to move;
        all ones once the episode is over for it (the hand or match ended,
        or an illegal action ended it), as Pgx makes it, so the mask
        ``last()`` gives is never all zero."""
        assert self.game is not None
        agent = self.possible_agents[seat]
        if self.game.over or self.terminations.get(agent) or self.truncations.get(agent):
            return np.ones(self.space.num_actions, dtype=np.int8)
        mask = np.zeros(self.space.num_actions, dtype=np.int8)
        hand = self.game.hand
        if hand.turn == seat:
            mask[self.space.legal(hand)] = 1
        return mask

    def _fill_infos(self) -> None:
        game = self.game
        assert game is not None
        shared = {"count": game.hand.count, "scores": list(game.hand.scores),
                  "outcome": game.outcome, "settlement": list(game.settlement)}
        for a in self.agents:
            info = dict(shared)
            if self.observation_kind == "box":
                info["action_mask"] = self._mask(self.agent_name_mapping[a])
            self.infos[a] = info

    def _deads_step_first(self) -> Any:
        # called by PettingZoo's TerminateIllegalWrapper once an illegal
        # action has ended the episode: the masks in the infos are now ones
        self._fill_infos()
        return super()._deads_step_first()

    def observe(self, agent: str) -> Any:
        assert self.game is not None
        seat = self.agent_name_mapping[agent]
        seen = self.game.observe(seat)
        obs = self.encoding.encode(seen)
        if self.scoring is not None:
            # no move is left for an agent whose episode is over
            over = (self.game.over or self.terminations.get(agent)
                    or self.truncations.get(agent))
            view = (np.zeros(self.scoring.size, dtype=np.float32) if over
                    else self.scoring.encode(seen))
            obs = np.concatenate([obs, view])
        if self.observation_kind == "box":
            return obs
        return {"observation": obs, "action_mask": self._mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        move = self.space.move(int(action))
        if move not in game.hand.legal_moves():
            raise ValueError(f"{self.space.name(int(action))} is not legal now")
        self._cumulative_rewards[agent] = 0.0
        game.step(move)
        for a, seat in self.agent_name_mapping.items():
            self.rewards[a] = game.rewards[seat]
        if game.over:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.turn]
        self._fill_infos()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            pass  # drawn on request by render()

    # ------------------------------------------------------------ drawing

    def render(self) -> str | None:
        if self.render_mode is None:
            warnings.warn("render() needs render_mode='ansi'", stacklevel=2)
            return None
        if self.game is None:
            return ""
        seat = None if self.render_all else self.agent_name_mapping[self.agent_selection]
        return render_text(self.rules, self.game.hand, self.game.match,
                           self.game.match.current_deal, seat)

    def close(self) -> None:
        pass


__all__ = ["env", "raw_env", "render_text"]
