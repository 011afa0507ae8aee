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
pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.once]


def _quiet(fn, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _no_warnings(fn, *args, **kwargs):
    """Run a framework's checker; it must warn about nothing."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    assert [str(w.message) for w in got] == []
    return out


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(table) -> None:
    # the Box observation (mask in info): api_test has nothing to warn about
    for episode in ("hand", "match"):
        env = pz_adapter.env(table.variant, table.players, table.teams, episode=episode,
                             render_mode="ansi", observation="box")
        _no_warnings(api_test, env, num_cycles=CYCLES)
        _no_warnings(seed_test, functools.partial(pz_adapter.env, table.variant, table.players,
                                                  table.teams, episode=episode,
                                                  observation="box"), num_cycles=CYCLES)


def test_pettingzoo_dict_observation() -> None:
    # the dict observation draws only the checker's advice for dicts, which
    # PettingZoo's own classic games draw too
    env = pz_adapter.env("all-fives", 2, render_mode="ansi")
    _quiet(api_test, env, num_cycles=CYCLES)
    _quiet(seed_test, functools.partial(pz_adapter.env, "all-fives", 2), num_cycles=CYCLES)


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_gymnasium_check_env(table) -> None:
    import gymnasium

    for episode in ("hand", "match"):
        env = gymnasium.make(gym_adapter.env_id(table.variant), seat=table.players - 1,
                             opponents="random", players=table.players, teams=table.teams,
                             episode=episode, render_mode="ansi")
        _no_warnings(check_env, env.unwrapped, skip_render_check=False)


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


def _episode_rewards(reward: str, episode: str = "hand", seed: int = 4) -> list[float]:
    env = gym_adapter.env("all-fives", seat=0, opponents="greedy", reward=reward,
                          episode=episode)
    _, info = env.reset(seed=seed)
    out = []
    rng = np.random.default_rng(seed)
    for _ in range(3):
        total, done = 0.0, False
        while not done:
            _, r, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += r
        assert info["outcome"] in ("domino", "blocked", "target")
        assert len(info["settlement"]) == len(info["scores"]) == 2
        out.append(total)
        _, info = env.reset()
    return out


def test_reward_kinds_are_seeded_and_consistent() -> None:
    from bones.seat.encoding import score_scale

    points = _episode_rewards("points")
    assert points == _episode_rewards("points")  # seeded
    assert _episode_rewards(None) == points  # the default
    scale = score_scale(gym_adapter.env("all-fives").rules)
    assert _episode_rewards("scaled") == pytest.approx([p / scale for p in points])
    # two sides: the zero-sum points are the difference of the sides' gains
    assert _episode_rewards("difference") == points
    wins = _episode_rewards("win")
    assert wins == [float(np.sign(p)) for p in points]
    match = _episode_rewards("win", episode="match", seed=2)
    assert all(w in (-1.0, 0.0, 1.0) for w in match)
    with pytest.raises(ValueError, match="reward must be one of"):
        gym_adapter.env("all-fives", reward="money")


def test_random_seat_plays_every_seat() -> None:
    env = gym_adapter.env("partners", seat="random", opponents="random")
    seats = set()
    _, info = env.reset(seed=1)
    for _ in range(20):
        seats.add(info["seat"])
        assert info["action_mask"].any()
        # the observed seat is the one to move: its turn entry is first
        obs = env.encoding.block(env._obs()[0], "turn")
        assert obs[0] == 1.0
        _, info = env.reset()
    assert seats == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="random"):
        gym_adapter.env("all-fives", seat="north")


def test_gymnasium_make_ids_and_variant_files(tmp_path) -> None:
    import shutil

    import gymnasium

    from bones.lang.load import builtin_names

    for name in builtin_names():
        assert gym_adapter.env_id(name) in gymnasium.envs.registration.registry
    env = gymnasium.make("bones/AllFives-v0", opponents="random")
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert np.isfinite(env.observation_space.low).all()
    assert np.isfinite(env.observation_space.high).all()
    src = next(p for p in __import__("pathlib").Path("variants").glob("*.yaml"))
    path = tmp_path / "my_house-rules.yaml"
    shutil.copy(src, path)
    got = gym_adapter.register_variant(str(path))
    assert got == "bones/MyHouseRules-v0"
    assert gymnasium.make(got, opponents="random").unwrapped.rules.players >= 2
