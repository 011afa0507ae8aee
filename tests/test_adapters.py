"""The PettingZoo and Gymnasium adapters pass their frameworks' own checkers
for every built-in variant at every table it can be played at.

``BONES_RL_CYCLES`` sets the checkers' cycles (default 200; more outside CI).
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import warnings

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from bones.adapters import gymnasium as gym_adapter  # noqa: E402
from bones.adapters import pettingzoo as pz_adapter  # noqa: E402
from bones.adapters.common import tables  # noqa: E402

CYCLES = int(os.environ.get("BONES_RL_CYCLES", "200"))
TABLES = tables()
IDS = [str(t) for t in TABLES]

# the checkers' advice for a dict observation, which PettingZoo's own
# classic games share
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _quiet(fn, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(table) -> None:
    for episode in ("hand", "match"):
        env = pz_adapter.env(table.variant, table.players, table.teams, episode=episode,
                             render_mode="ansi")
        _quiet(api_test, env, num_cycles=CYCLES)
        _quiet(seed_test, functools.partial(pz_adapter.env, table.variant, table.players,
                                            table.teams, episode=episode), num_cycles=CYCLES)


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_gymnasium_check_env(table) -> None:
    for episode in ("hand", "match"):
        env = gym_adapter.env(table.variant, seat=table.players - 1, opponents="random",
                              players=table.players, teams=table.teams, episode=episode,
                              render_mode="ansi")
        _quiet(check_env, env, skip_render_check=False)


def _random_episode(env, rng):
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


def test_pettingzoo_rewards_are_the_hands_points() -> None:
    env = pz_adapter.env("all-fives", 3)
    rng = np.random.default_rng(1)
    for seed in range(5):
        env.reset(seed=seed)
        totals = _random_episode(env, rng)
        assert abs(sum(totals.values())) < 1e-9
        game = env.unwrapped.game
        assert game.over and len(game.match.history) == 1
        scores = game.match.scores
        for seat, agent in enumerate(env.possible_agents):
            others = [s for o, s in enumerate(scores) if o != seat]
            assert totals[agent] == pytest.approx(scores[seat] - sum(others) / 2)


def test_pettingzoo_match_episodes_end_with_the_match() -> None:
    env = pz_adapter.env("block-2p", episode="match", seed=4)
    env.reset()
    totals = _random_episode(env, np.random.default_rng(2))
    game = env.unwrapped.game
    assert game.match.game_over
    winner = game.match.winner
    assert sorted(totals.values()) == ([-1.0, 1.0] if winner >= 0 else [0.0, 0.0])
    if winner >= 0:
        assert totals[f"player_{winner}"] == 1.0


def test_the_same_seed_deals_the_same_and_another_differs() -> None:
    env = pz_adapter.env("sniff", 2)
    env.reset(seed=7)
    first = env.unwrapped.game.hand.hands[:]
    env.reset(seed=7)
    assert env.unwrapped.game.hand.hands == first
    env.reset(seed=8)
    assert env.unwrapped.game.hand.hands != first


def test_pettingzoo_renders_the_table_as_text() -> None:
    env = pz_adapter.env("all-fives", 2, render_mode="ansi")
    env.reset(seed=3)
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    text = env.render()
    assert "all-fives · hand 1" in text and "open ends:" in text and "[" in text
    assert "seat 0 holds:" in text


def test_pettingzoo_an_illegal_action_ends_the_episode() -> None:
    env = pz_adapter.env("all-fives", 2)
    env.reset(seed=3)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[agent] == -1.0


def test_gymnasium_plays_against_the_named_bots() -> None:
    env = gym_adapter.env("all-fives", seat=1, opponents="greedy", players=2)
    obs, info = env.reset(seed=5)
    assert env.unwrapped.bots[0].name == "greedy"
    total, done = 0.0, False
    rng = np.random.default_rng(0)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        total += reward
    scores = env.unwrapped.game.match.scores
    assert total == scores[1] - scores[0]
    obs, info = env.reset(seed=5)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)
    with pytest.raises(ValueError, match="opponents"):
        gym_adapter.env("all-fives", opponents=["greedy", "random"], players=2)
    # a bot object of the user's own plays too
    from bones.bots import make_bot

    mine = make_bot("heuristic")
    env = gym_adapter.env("sniff", seat=0, opponents=[mine], players=2)
    env.reset(seed=2)
    assert env.unwrapped.bots[1] is mine
