"""The scoring view (``scoring=True``): the points each action would score
now and the count after it, at the action's own index, in the Gymnasium,
PettingZoo and SB3 adapters; the frameworks' own checkers pass with it.
(The native vector environment's view is compared with the scalar one's in
tests/test_adapters_vector.py.)"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from bones.adapters import gymnasium as gym_adapter  # noqa: E402
from bones.adapters import pettingzoo as pz_adapter  # noqa: E402
from bones.adapters.common import Game, compile_table  # noqa: E402
from bones.adapters.scoring import ScoringView  # noqa: E402
from bones.bots.policies import greedy_move, points_if  # noqa: E402
from bones.engine.hand import DRAW, PASS  # noqa: E402
from bones.engine.moves import TILE_SHIFT  # noqa: E402
from bones.seat.encoding import Encoding, count_cap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = [("all-fives", 2), ("sniff", 3), ("fives-and-threes", 2), ("bergen", 2),
            ("five-up", 4), ("block-2p", 2), ("kozel", 4)]


def _positions(variant: str, players: int, hands: int, seed: int):
    """(game, seat to move) at every move of ``hands`` greedy hands."""
    rules = compile_table(variant, players, None)
    for k in range(hands):
        game = Game(rules, None, seed=seed + k)
        while not game.over:
            yield game
            obs = game.observe(game.turn)
            game.step(greedy_move(obs.layout, obs.legal_moves()))


@pytest.mark.parametrize("variant,players", VARIANTS)
def test_the_view_holds_each_legal_actions_points_and_count(variant: str, players: int) -> None:
    rules = compile_table(variant, players, None)
    raw = ScoringView(rules)
    scaled = ScoringView(rules, scaled=True)
    space = raw.space
    n = space.num_actions
    cap = count_cap(rules)
    scored = checked = 0
    for game in _positions(variant, players, 6, 70):
        seat = game.turn
        obs = game.observe(seat)
        legal = obs.legal_moves()
        values = np.array(raw.values(obs))
        assert values.shape == (2 * n,)
        legal_index = {space.index(m) for m in legal}
        # nothing at an action that is not legal now
        for i in range(n):
            if i not in legal_index:
                assert values[i] == 0 and values[n + i] == 0
        for move in legal:
            i = space.index(move)
            if move in (DRAW, PASS):
                assert values[i] == 0 and values[n + i] == game.hand.count
                continue
            # the points and the count the hand itself reaches by the move
            trial = game.hand.copy()
            trial.apply(move)
            assert values[i] == points_if(obs.layout, move) == trial.last_points
            assert values[n + i] == trial.count
            scored += values[i] != 0
            checked += 1
        # scaled: the same numbers over the count's cap, clipped
        assert np.allclose(scaled.values(obs), [
            *np.clip(values[:n] / cap, -2, 2), *np.clip(values[n:] / cap, 0, 1)])
        # another seat sees nothing: it has no move
        other = (seat + 1) % players
        assert not any(raw.values(game.observe(other)))
    assert checked > 50
    if rules.scores_plays:
        assert scored > 5


@pytest.mark.parametrize("variant,players", [("all-fives", 2), ("sniff", 3), ("bergen", 2)])
def test_greedy_is_the_highest_points_of_the_view(variant: str, players: int) -> None:
    # greedy plays the most points now, then the heaviest tile, then a
    # double: the same choice read from the view at each action's index
    rules = compile_table(variant, players, None)
    view = ScoringView(rules)
    space = view.space
    ts = rules.tiles
    for game in _positions(variant, players, 8, 5):
        obs = game.observe(game.turn)
        legal = obs.legal_moves()
        plays = [m for m in legal if m not in (DRAW, PASS)]
        if len(plays) < 2:
            continue
        values = view.values(obs)
        keys = {m: (values[space.index(m)], ts.pips[m >> TILE_SHIFT],
                    ts.is_double[m >> TILE_SHIFT]) for m in plays}
        assert keys[greedy_move(obs.layout, legal)] == max(keys.values())


def test_the_gymnasium_observation_is_the_encoding_then_the_view() -> None:
    plain = gym_adapter.env("all-fives", seat="random", opponents="greedy")
    viewed = gym_adapter.env("all-fives", seat="random", opponents="greedy", scoring=True)
    enc = Encoding(plain.rules, scaled=True)
    n = plain.space.num_actions
    assert viewed.observation_space.shape == (enc.size + 2 * n,)
    assert plain.observation_space.shape == (enc.size,)
    a, info = plain.reset(seed=4)
    b, _ = viewed.reset(seed=4)
    rng = np.random.default_rng(2)
    nonzero = 0
    for _ in range(200):
        np.testing.assert_array_equal(a, b[:enc.size])
        assert viewed.observation_space.contains(b)
        mask = info["action_mask"]
        view = b[enc.size:]
        # the view is nonzero only where the mask allows the action
        assert not view[:n][mask == 0].any() and not view[n:][mask == 0].any()
        nonzero += int(view[:n].any())
        action = int(rng.choice(np.flatnonzero(mask)))
        a, r1, done, _, info = plain.step(action)
        b, r2, done2, _, _ = viewed.step(action)
        assert (r1, done) == (r2, done2)
        if done:
            # the episode's last observation has no move: no view
            assert not b[enc.size:].any()
            a, info = plain.reset()
            b, _ = viewed.reset()
    assert nonzero > 10


def _no_warnings(fn, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    assert [str(w.message) for w in got] == []
    return out


@pytest.mark.once
@pytest.mark.parametrize("variant,players", [("all-fives", 2), ("sniff", 3), ("kozel", 4)])
def test_the_frameworks_checkers_pass_with_the_view(variant: str, players: int) -> None:
    for episode in ("hand", "match"):
        env = gym_adapter.BonesEnv(variant, seat=players - 1, opponents="random",
                                   players=players, episode=episode, scoring=True)
        _no_warnings(check_env, env, skip_render_check=True)
        pz = pz_adapter.env(variant, players, episode=episode, observation="box", scoring=True)
        _no_warnings(api_test, pz, num_cycles=100)
        _no_warnings(seed_test, functools.partial(pz_adapter.env, variant, players,
                                                  episode=episode, observation="box",
                                                  scoring=True), num_cycles=100)


def test_pettingzoo_shows_the_view_to_the_agent_to_move_only() -> None:
    env = pz_adapter.env("all-fives", 2, scoring=True)
    enc_size = Encoding(compile_table("all-fives", 2, None), scaled=True).size
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    seen = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        other = next(a for a in env.possible_agents if a != agent)
        assert not env.observe(other)["observation"][enc_size:].any()
        if terminated or truncated:
            env.step(None)
            continue
        view = obs["observation"][enc_size:]
        n = len(obs["action_mask"])
        assert not view[:n][obs["action_mask"] == 0].any()
        seen += int(view[n:].any())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen > 0


def _load_ppo_example():
    spec = importlib.util.spec_from_file_location("train_ppo", ROOT / "examples" / "train_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ppo_example_encodes_what_the_environment_observes() -> None:
    # PPOBot's input for a model trained --scoring-view is the observation the
    # learner was trained on (the scalar environment's, which is the vector
    # environment's: tests/test_adapters_vector.py)
    ex = _load_ppo_example()
    env = gym_adapter.env("all-fives", seat=0, opponents="greedy", scoring=True)
    obs, info = env.reset(seed=8)
    rules = env.rules
    enc, space = Encoding(rules, scaled=True), env.space
    view = ScoringView(rules, scaled=True, start=enc.size)
    for _ in range(30):
        assert env.game is not None
        x, mask = ex.observation_input(env.game.observe(0), enc, space, view)
        np.testing.assert_array_equal(x, obs)
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        obs, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if done:
            obs, info = env.reset()


def test_the_sb3_wrapper_observes_the_view() -> None:
    # what examples/train_ppo.py --scoring-view trains on, without SB3 installed
    from bones.engine import core

    if core.native() is None or not hasattr(core.native(), "VectorCore"):
        pytest.skip("the vector environment needs the native core")
    from bones.adapters.sb3 import vec_env

    envs = vec_env("all-fives", num_envs=3, seat="random", opponents="greedy", reward="scaled",
                   scoring=True)
    enc = Encoding(compile_table("all-fives", 2, None), scaled=True)
    n = envs.venv.space.num_actions
    assert envs.observation_space.shape == (enc.size + 2 * n,)
    envs.seed(1)
    obs = envs.reset()
    for _ in range(40):
        masks = envs.action_masks()
        # the points of the legal actions, nothing elsewhere
        assert not obs[:, enc.size:enc.size + n][~masks].any()
        assert (obs[:, enc.size + n:][masks] >= 0).all()
        envs.step_async(masks.argmax(axis=1))
        obs, _, _, _ = envs.step_wait()
    envs.close()


def test_the_linear_example_reads_the_view_at_each_actions_index(tmp_path: Path) -> None:
    # examples/train_vector.py's LinearBot with nothing but the shared
    # points weight plays a move scoring what greedy's scores
    spec = importlib.util.spec_from_file_location("train_vector",
                                                  ROOT / "examples" / "train_vector.py")
    assert spec is not None and spec.loader is not None
    ex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ex)
    rules = compile_table("all-fives", 2, None)
    size = Encoding(rules, scaled=True).size + ScoringView(rules).size
    n = ScoringView(rules).space.num_actions
    path = tmp_path / "w.npz"
    np.savez(path, weights=np.zeros((size + 1, n)), shared=np.array([1.0, 0.0]))
    bot = ex.LinearBot(str(path))
    checked = 0
    for game in _positions("all-fives", 2, 6, 11):
        obs = game.observe(game.turn)
        legal = obs.legal_moves()
        if len(legal) < 2:
            continue
        chosen = bot.choose(obs, None)
        assert chosen in legal
        assert points_if(obs.layout, chosen) == points_if(obs.layout,
                                                          greedy_move(obs.layout, legal))
        checked += 1
    assert checked > 20
