"""bones.adapters.sb3: the native vector environment as Stable-Baselines3's
``VecEnv``.  It plays exactly the scalar adapter's episodes in SB3's
convention (the reset observation on the step that ends an episode, the last
one in ``info["terminal_observation"]``, never an empty mask), is seeded as
SB3 seeds, answers what SB3 and MaskablePPO ask of it, and imports and steps
without Stable-Baselines3 or PyTorch (CI installs neither); where SB3 is
installed it is SB3's ``VecEnv``."""

from __future__ import annotations

import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from bones.adapters.gymnasium import env as scalar_env  # noqa: E402
from bones.adapters.sb3 import BonesVecEnv, vec_env  # noqa: E402


def _env(n: int, opponents: str = "greedy") -> BonesVecEnv:
    return vec_env("all-fives", num_envs=n, seat="random", opponents=opponents, reward="scaled")


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
    def run(seed: int | None, env: BonesVecEnv) -> list[np.ndarray]:
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


def test_it_imports_and_steps_without_sb3_or_torch() -> None:
    code = """
import sys
for name in ("torch", "stable_baselines3", "sb3_contrib"):
    sys.modules[name] = None
from bones.adapters.sb3 import BonesVecEnv, vec_env
envs = vec_env("block-2p", num_envs=3, opponents="random")
assert BonesVecEnv.__mro__[1] is object
envs.seed(2)
obs = envs.reset()
for _ in range(40):
    envs.step_async(envs.action_masks().argmax(axis=1))
    obs, reward, done, infos = envs.step_wait()
print(obs.shape == (3, *envs.observation_space.shape), envs.action_masks().any(axis=1).all())
"""
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert got.returncode == 0, got.stderr
    assert got.stdout == "True True\n"


def test_where_sb3_is_installed_it_is_sb3s_vec_env() -> None:
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import VecEnv

    env = _env(2)
    assert isinstance(env, VecEnv) and env.num_envs == 2
