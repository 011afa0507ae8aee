"""examples/train_ppo.py, the MaskablePPO example: its SB3-convention
environment plays exactly the scalar adapter's episodes (the reset
observation on the step that ends an episode, the last one in
``info["terminal_observation"]``, never an empty mask), and its bot feeds the
policy what the environment fed it.  None of that needs sb3-contrib; the last
test, training and playing for a few steps, runs where it is installed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from bones.adapters.gymnasium import env as scalar_env  # noqa: E402
from bones.adapters.vector import BonesVectorEnv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "train_ppo.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ex = _load()


def _env(n: int, opponents: str = "greedy") -> object:
    return ex.BonesVecEnv(BonesVectorEnv("all-fives", num_envs=n, seat="random",
                                         opponents=opponents, reward="scaled"))


def test_episodes_end_in_sb3s_convention() -> None:
    """Table i against the scalar adapter reset with seed S + i, the same
    actions: every observation, mask, reward and ending agree, and the step
    that ends an episode returns the next one's first observation."""
    n, seed = 3, 11
    env = _env(n)
    scalars = [scalar_env("all-fives", seat="random", opponents="greedy", reward="scaled")
               for _ in range(n)]
    env.seed(seed)
    obs = env.reset()
    for i, e in enumerate(scalars):
        first, info = e.reset(seed=seed + i)
        np.testing.assert_array_equal(obs[i], first)
        np.testing.assert_array_equal(env.action_masks()[i], info["action_mask"].astype(bool))
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        masks = env.action_masks()
        assert masks.any(axis=1).all()  # MaskablePPO never sees a table with no move
        np.testing.assert_array_equal(np.stack(env.env_method("action_masks")), masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        env.step_async(actions)
        obs, reward, done, infos = env.step_wait()
        assert reward.dtype == np.float32 and done.dtype == bool
        for i, e in enumerate(scalars):
            last, r, term, trunc, _ = e.step(int(actions[i]))
            assert reward[i] == pytest.approx(r) and done[i] == (term or trunc)
            if done[i]:
                ended += 1
                np.testing.assert_array_equal(infos[i]["terminal_observation"], last)
                assert infos[i]["TimeLimit.truncated"] is False
                last, info = e.reset()
            else:
                assert "terminal_observation" not in infos[i]
                info = {"action_mask": e.action_masks()}
            np.testing.assert_array_equal(obs[i], last)
            np.testing.assert_array_equal(env.action_masks()[i], info["action_mask"].astype(bool))
    assert ended >= 2 * n  # several episodes ended on every table, on average
    env.close()


def test_the_seed_fixes_the_episodes_and_a_reset_without_one_goes_on() -> None:
    def run(seed: int | None, env: object) -> list[np.ndarray]:
        if seed is not None:
            env.seed(seed)
        out = [env.reset()]
        for _ in range(30):
            env.step_async(env.action_masks().argmax(axis=1))
            out.append(env.step_wait()[0])
        return out

    a, b, c = _env(2), _env(2), _env(2)
    first = run(5, a)
    assert all(np.array_equal(x, y) for x, y in zip(first, run(5, b)))
    assert not all(np.array_equal(x, y) for x, y in zip(first, run(6, c)))
    assert not np.array_equal(run(None, a)[0], first[0])  # new episodes, not the seed's again


def test_what_sb3_asks_of_the_tables() -> None:
    env = _env(2)
    env.seed(1)
    env.reset()
    assert env.get_attr("render_mode") == [None, None]
    assert [f() for f in env.get_attr("action_masks", indices=[1])][0].shape == (2, 114)
    assert len(env.env_method("action_masks", indices=[1])) == 1
    assert env.env_is_wrapped(object) == [False, False]
    with pytest.raises(AttributeError):
        env.get_attr("unknown")
    with pytest.raises(AttributeError):
        env.env_method("reset")
    with pytest.raises(AttributeError):
        env.set_attr("seat", 1)


def test_the_bot_sees_what_the_environment_showed() -> None:
    """observation_input (what PPOBot feeds the policy) of the seat's
    Observation is the environment's observation and mask, bit for bit."""
    e = scalar_env("all-fives", seat="random", opponents="heuristic", reward="scaled")
    obs, info = e.reset(seed=3)
    rng = np.random.default_rng(1)
    checked = 0
    while checked < 60:
        x, mask = ex.observation_input(e.game.observe(e.seat), e.encoding, e.space)
        assert x.dtype == np.float32
        np.testing.assert_array_equal(x, obs)
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        checked += 1
        obs, _, term, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term:
            obs, info = e.reset()


def test_training_is_seeded_and_the_policy_plays_in_simulate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from typer.testing import CliRunner

    import bones.bots as bots_module
    from bones.cli.app import app

    monkeypatch.setattr(bots_module, "_PERMITTED", set())
    kwargs = {"envs": 4, "n_steps": 16, "net": (16,), "warmup": 0.5}
    paths = [str(tmp_path / f"{k}.zip") for k in "abc"]
    for path, seed in zip(paths, (4, 4, 5)):
        ex.train(256, path, seed=seed, **kwargs)
    weights = [ex.PPOBot(p).model.policy.state_dict() for p in paths]
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    assert not all(torch.equal(weights[0][k], weights[2][k]) for k in weights[0])
    bot = f"file:{SCRIPT}:PPOBot:model={paths[0]}"
    result = CliRunner().invoke(app, ["simulate", "all-fives", "-n", "2", "--seed", "3",
                                      "--json", "--quiet", "--bots", bot, "--bots", "greedy"])
    assert result.exit_code == 0, result.output
    played = next(row for row in json.loads(result.stdout)["bots"] if row["bot"] == bot)
    assert played["games"] == 2
