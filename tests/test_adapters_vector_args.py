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
                    "score_clip": SCORE_CLIP}
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


@pytest.mark.parametrize("variant", ["all-fives", "five-up"])
def test_a_tables_estimate_is_near_what_it_takes(variant: str) -> None:
    """The estimate the bound divides by against the memory 4,000 tables
    really take (resident, measured in a fresh interpreter), in a small and
    a large layout: within a factor of 1.5 either way."""
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
