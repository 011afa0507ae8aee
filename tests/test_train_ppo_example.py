"""examples/train_ppo.py, the MaskablePPO example: it trains on the library's
SB3 environment (``bones.adapters.sb3``, tested in tests/test_adapters_sb3.py),
without PyTorch it says in one line which extra to install, and its bot feeds
the policy what the environment fed it.  None of that needs sb3-contrib; the
last test, training and playing for a few steps, runs where it is
installed."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from bones.adapters.gymnasium import env as scalar_env  # noqa: E402
from bones.adapters.sb3 import BonesVecEnv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "train_ppo.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ex = _load()


def _without_torch(*args: str) -> subprocess.CompletedProcess[str]:
    """The script run as ``python examples/train_ppo.py ARGS`` where PyTorch,
    Stable-Baselines3 and sb3-contrib cannot be imported (installed or not)."""
    code = ("import runpy, sys\n"
            "for name in ('torch', 'stable_baselines3', 'sb3_contrib'):\n"
            "    sys.modules[name] = None\n"
            f"sys.argv = [{str(SCRIPT)!r}, *{list(args)!r}]\n"
            f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_without_torch_the_script_names_the_extra_in_one_line() -> None:
    got = _without_torch("--steps", "100", "--out", "/nonexistent/ppo.zip")
    assert got.returncode == 1, got.stderr
    assert got.stdout == ""
    assert got.stderr == ("train_ppo.py: torch is not installed: pip install 'bones[ppo]' "
                          "(PyTorch, Stable-Baselines3 and sb3-contrib)\n")
    helped = _without_torch("--help")
    assert helped.returncode == 0 and "--steps" in helped.stdout


def test_the_example_trains_on_the_librarys_environment() -> None:
    env = ex.make_env("random", 2, "scaled")
    assert isinstance(env, BonesVecEnv) and env.num_envs == 2
    assert env.venv.seat == "random" and env.venv.reward_kind == "scaled"
    env.close()


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


def test_the_points_head_starts_where_greedy_plays_and_loads_as_a_bot(tmp_path: Path) -> None:
    """``--points-head``: the logits add a learned weight (one for every action)
    times each action's points in the scoring view; an untrained policy with
    it already prefers, among the legal actions, one scoring the most, and the
    saved model plays as a bot (its policy class saved with it)."""
    pytest.importorskip("sb3_contrib")
    import torch

    path = str(tmp_path / "head.zip")
    ex.train(64, path, seed=1, envs=2, n_steps=16, net=(8,), scoring=True, points_head=True)
    bot = ex.PPOBot(path)
    policy = bot.model.policy
    assert float(policy.points_weight.detach()) == pytest.approx(ex.POINTS_WEIGHT, rel=0.5)
    e = scalar_env("all-fives", seat=0, opponents="greedy", reward="scaled", scoring=True)
    obs, info = e.reset(seed=7)
    checked = 0
    while checked < 20:
        mask = info["action_mask"].astype(bool)
        lo, hi = policy.points_at
        points = obs[lo:hi]
        if mask.sum() > 1 and len(set(points[mask].tolist())) > 1:
            with torch.no_grad():
                dist = policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
            probs = dist.distribution.probs[0].numpy()
            best = np.flatnonzero(mask)[np.argmax(probs[mask])]
            # the weight of 10 logits a scaled point dwarfs an 8-unit MLP's start
            assert points[best] == points[mask].max()
            checked += 1
        obs, _, term, _, info = e.step(int(np.flatnonzero(mask)[0]))
        if term:
            obs, info = e.reset()
