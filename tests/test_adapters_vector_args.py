"""The vector environment's arguments: no number a user gives can abort the
interpreter (the tables and threads are bounded, every allocation a user's
number sizes is fallible), and each bad argument is a TypeError or
ValueError naming it, worded as Gymnasium's own checks word theirs."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from bones.adapters.vector import BonesVectorEnv, max_tables, memory_bytes  # noqa: E402


def _run(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter: an abort there fails the test, not the suite."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300)


def test_no_count_aborts_the_interpreter() -> None:
    """Each attempt prints the exception it raised; the interpreter lives on
    to print the last line (exit 0, where a Rust allocation abort exits 134)."""
    got = _run("""
        import gymnasium
        import bones.adapters.gymnasium
        from bones.adapters.vector import BonesVectorEnv, SCORE_CLIP
        from bones.engine.core import flat_table, native

        def attempt(f):
            try:
                f()
            except Exception as e:
                print(type(e).__name__, str(e).split(" (")[0])

        attempt(lambda: BonesVectorEnv("all-fives", num_envs=10**12))
        attempt(lambda: gymnasium.make_vec("bones/AllFives-v0", num_envs=10**12))
        attempt(lambda: BonesVectorEnv("all-fives", num_envs=4, num_threads=2**70))
        attempt(lambda: BonesVectorEnv("all-fives", num_envs=4, num_threads=10**6))
        # the core itself, as the adapter calls it: a MemoryError, not an abort
        rules = BonesVectorEnv("all-fives", num_envs=1).rules
        settings = {"seat": 0, "opponents": [("random", 0, 0, "", 0, 0.0, 0)] * 2,
                    "whole_match": False, "reward": "points", "scale": 250.0,
                    "illegal_reward": -1.0, "count_cap": 48.0, "score_scale": 250.0,
                    "score_clip": SCORE_CLIP, "record": False, "scoring": False}
        core = native().VectorCore
        attempt(lambda: core(flat_table(rules), 10**12, settings, 1))
        attempt(lambda: core(flat_table(rules), 2**60, settings, 1))
        attempt(lambda: core(flat_table(rules), 4, settings, 10**6))
        print("alive")
    """)
    assert got.returncode == 0, got.stderr[-2000:]
    expected = [
        r"ValueError `num_envs` must be between 1 and [\d,]+",
        r"ValueError `num_envs` must be between 1 and [\d,]+",
        r"ValueError `num_threads` must be between 1 and 256, got 1180591620717411303424",
        r"ValueError `num_threads` must be between 1 and 256, got 1000000",
        r"MemoryError 1000000000000 tables need about \d\.\d{3}e1\d bytes, more memory "
        r"than can be allocated",
        r"MemoryError 1152921504606846976 tables need about \d\.\d{3}e2\d bytes, more "
        r"memory than can be allocated",
        r"ValueError threads must be 1 to 256, not 1000000",
        r"alive",
    ]
    lines = got.stdout.splitlines()
    assert len(lines) == len(expected), got.stdout
    for line, pattern in zip(lines, expected):
        assert re.fullmatch(pattern, line), line


def test_the_bound_is_the_tables_half_the_memory_holds() -> None:
    env = BonesVectorEnv("all-fives", num_envs=2, opponents="random")
    most = max_tables(env.table_bytes)
    assert most == memory_bytes() // 2 // env.table_bytes
    assert max_tables(1000, memory=10_000) == 5
    assert max_tables(10**9, memory=10_000) == 1
    with pytest.raises(ValueError, match=rf"^`num_envs` must be between 1 and {most:,} .* "
                                         rf"got {most + 1}$"):
        BonesVectorEnv("all-fives", num_envs=most + 1, opponents="random")
    for bad in (0, -3):
        with pytest.raises(ValueError, match=rf"`num_envs` must be between 1 and .*got {bad}$"):
            BonesVectorEnv("all-fives", num_envs=bad)


@pytest.mark.parametrize("variant", ["all-fives", "five-up", "mexican-train", "chicken-foot"])
def test_a_tables_estimate_is_near_what_it_takes(variant: str) -> None:
    """The estimate the bound divides by against the memory 4,000 tables
    really take (resident, measured in a fresh interpreter), in a small and
    a large layout and the train layouts: within a factor of 1.5 either way."""
    got = _run(f"""
        from bones.adapters.vector import BonesVectorEnv

        def rss():
            with open("/proc/self/status") as f:
                return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS"))

        before = rss()
        env = BonesVectorEnv({variant!r}, num_envs=4000, opponents="heuristic")
        env.reset(seed=1)
        for _ in range(40):
            env.step(env.action_masks().argmax(axis=1))
        print((rss() - before) / 4000, env.table_bytes)
    """)
    if got.returncode != 0 and "/proc/self/status" in got.stderr:
        pytest.skip("reads the resident memory from /proc")
    assert got.returncode == 0, got.stderr[-2000:]
    measured, estimate = map(float, got.stdout.split())
    assert 1 / 1.5 <= estimate / measured <= 1.5, got.stdout


@pytest.mark.parametrize("value", ["8", 8.0, None, [8]])
def test_num_envs_and_num_threads_must_be_integers(value: object) -> None:
    with pytest.raises(TypeError, match=rf"^`num_envs` must be an integer, got {type(value)}$"):
        BonesVectorEnv("all-fives", num_envs=value)
    with pytest.raises(TypeError, match=rf"^`num_threads` must be an integer, got {type(value)}$"):
        BonesVectorEnv("all-fives", num_envs=2, num_threads=value)


def test_numpy_integers_count_tables_and_threads() -> None:
    env = BonesVectorEnv("all-fives", num_envs=np.int64(3), num_threads=np.int32(2),
                         opponents="random")
    assert env.num_envs == 3 and type(env.num_envs) is int and env.core.workers == 1
    env.close()


def _env(n: int = 4) -> BonesVectorEnv:
    return BonesVectorEnv("all-fives", num_envs=n, opponents="random")


def test_a_numpy_integer_seeds_as_the_same_python_int() -> None:
    a, b = _env(), _env()
    first, _ = a.reset(seed=np.int64(3))
    np.testing.assert_array_equal(first, b.reset(seed=3)[0])
    listed, _ = b.reset(seed=[np.uint32(3), 4, np.int8(5), 6])
    np.testing.assert_array_equal(listed, first)
    np.testing.assert_array_equal(b.reset(seed=np.arange(3, 7))[0], first)


@pytest.mark.parametrize("seed, error, message", [
    ("3", TypeError, "Seed must be a python integer, actual type: <class 'str'>"),
    (3.0, TypeError, "Seed must be a python integer, actual type: <class 'float'>"),
    (True, TypeError, "Seed must be a python integer, actual type: <class 'bool'>"),
    ([1, 2, "3", 4], TypeError, "Seed must be a python integer, actual type: <class 'str'>"),
    (-1, ValueError, "Seed must be greater or equal to zero, actual value: -1"),
    ([1, None, -5, 2], ValueError, "Seed must be greater or equal to zero, actual value: -5"),
    ([1, 2], ValueError, "If seeds are passed as a list the length must match num_envs=4 but "
                         "got length=2."),
])
def test_a_bad_seed_is_refused_as_gymnasium_refuses_it(seed: object, error: type,
                                                       message: str) -> None:
    env = _env()
    with pytest.raises(error) as got:
        env.reset(seed=seed)
    assert str(got.value) == message


@pytest.mark.parametrize("mask, error, message", [
    ([2, -1, 0, 1], TypeError, "`options['reset_mask']` must be a numpy array, got <class 'list'>"),
    (np.array([2, -1, 0, 1]), TypeError,
     "`options['reset_mask']` must have `dtype=np.bool_`, got int64"),
    (np.ones(3, dtype=bool), ValueError,
     "`options['reset_mask']` must have shape `(4,)`, got (3,)"),
    (np.zeros(4, dtype=bool), ValueError,
     "`options['reset_mask']` must contain a boolean array with at least one True value, "
     "got reset_mask=[False False False False]"),
])
def test_a_bad_reset_mask_is_refused_as_gymnasium_refuses_it(mask: object, error: type,
                                                              message: str) -> None:
    env = _env()
    env.reset(seed=1)
    with pytest.raises(error) as got:
        env.reset(options={"reset_mask": mask})
    assert str(got.value) == message


def test_gymnasiums_own_vectorisation_refuses_the_same_reset_masks() -> None:
    """The messages above are Gymnasium's: its sync vector environment
    refuses the same masks with the same words."""
    import gymnasium

    import bones.adapters.gymnasium  # noqa: F401 - registers the ids

    sync = gymnasium.make_vec("bones/AllFives-v0", num_envs=4, vectorization_mode="sync",
                              opponents="random")
    ours = _env()
    sync.reset(seed=1)
    ours.reset(seed=1)
    for mask in ([2, -1, 0, 1], np.array([2, -1, 0, 1]), np.ones(3, dtype=bool)):
        with pytest.raises(Exception) as theirs:
            sync.reset(options={"reset_mask": mask})
        with pytest.raises(type(theirs.value)) as mine:
            ours.reset(options={"reset_mask": mask})
        assert str(mine.value) == str(theirs.value)
    with pytest.raises(ValueError) as theirs:
        sync.reset(seed=[1, 2])
    with pytest.raises(ValueError) as mine:
        ours.reset(seed=[1, 2])
    assert str(mine.value) == str(theirs.value)


def test_a_reset_mask_resets_the_tables_it_marks() -> None:
    env = _env()
    obs, _ = env.reset(seed=1)
    for _ in range(3):
        obs2, *_ = env.step(env.action_masks().argmax(axis=1))
    again, _ = env.reset(options={"reset_mask": np.array([False, True, False, False])})
    np.testing.assert_array_equal(again[[0, 2, 3]], obs2[[0, 2, 3]])
    assert not np.array_equal(again[1], obs2[1])


@pytest.mark.parametrize("actions, error, message", [
    (np.zeros((2, 2), dtype=np.int64), ValueError, "`actions` must have shape `(4,)`, got (2, 2)"),
    (np.zeros(8, dtype=np.int64), ValueError, "`actions` must have shape `(4,)`, got (8,)"),
    ([1, 2, 3], ValueError, "`actions` must have shape `(4,)`, got (3,)"),
    (5, ValueError, "`actions` must have shape `(4,)`, got ()"),
    (np.array([1.0, 2.7, 3.0, 4.0]), TypeError, "`actions` must have an integer dtype, got float64"),
    ([1, 2, 3, 4.5], TypeError, "`actions` must have an integer dtype, got float64"),
    (np.ones(4, dtype=bool), TypeError, "`actions` must have an integer dtype, got bool"),
    (["a", "b", "c", "d"], TypeError, "`actions` must have an integer dtype, got <U1"),
])
def test_bad_actions_are_refused_not_reshaped_or_truncated(actions: object, error: type,
                                                           message: str) -> None:
    env = _env()
    env.reset(seed=1)
    with pytest.raises(error) as got:
        env.step(actions)
    assert str(got.value) == message


def test_integer_actions_of_any_width_and_layout_are_the_same_actions() -> None:
    a, b = _env(), _env()
    a.reset(seed=2)
    b.reset(seed=2)
    for k in range(20):
        chosen = a.action_masks().argmax(axis=1)
        forms = [chosen.astype(np.int32), chosen.astype(np.uint8).tolist(),
                 np.stack([chosen, chosen], axis=1)[:, 0]]  # not contiguous
        got = a.step(chosen)
        other = b.step(forms[k % 3])
        for x, y in zip(got[:4], other[:4]):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("value, error, message", [
    (float("nan"), ValueError, "`illegal_reward` must be a finite number, got nan"),
    (float("inf"), ValueError, "`illegal_reward` must be a finite number, got inf"),
    ("-1", TypeError, "`illegal_reward` must be a number, got <class 'str'>"),
    (None, TypeError, "`illegal_reward` must be a number, got <class 'NoneType'>"),
])
def test_a_bad_illegal_reward_is_refused(value: object, error: type, message: str) -> None:
    with pytest.raises(error) as got:
        BonesVectorEnv("all-fives", num_envs=2, illegal_reward=value)
    assert str(got.value) == message
    from bones.adapters import gymnasium as gym_adapter
    from bones.adapters import pettingzoo as pz_adapter

    # the scalar environments take the same argument, and check it alike
    with pytest.raises(error, match=message.split(",")[0]):
        gym_adapter.env("all-fives", illegal_reward=value)
    with pytest.raises(error, match=message.split(",")[0]):
        pz_adapter.env("all-fives", illegal_reward=value)


def test_a_numpy_illegal_reward_is_a_number() -> None:
    env = BonesVectorEnv("all-fives", num_envs=2, illegal_reward=np.float32(-2.5),
                         opponents="random")
    _, info = env.reset(seed=1)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated.all() and (reward == -2.5).all() and info["illegal"].all()
