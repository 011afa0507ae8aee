"""The vector environment's asynchronous stepping (``send``/``recv``, as
EnvPool has it): every table plays the episodes ``step`` plays for the same
seed and actions, whatever order the results come back in; results come
back as tables finish; misuse is refused in one line."""

from __future__ import annotations

import time

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from bones.adapters.vector import BonesVectorEnv  # noqa: E402


def _policy(i: int, mask: np.ndarray, t: int) -> int:
    """A legal action that depends only on the table, its step and its mask."""
    legal = np.flatnonzero(mask)
    return int(legal[(7 * i + t) % len(legal)])


def _sync(n: int, steps: int, seed: int, **kw) -> list[list[tuple]]:
    """Each table's trajectory under step(): (obs, reward, terminated, mask) per step."""
    venv = BonesVectorEnv(num_envs=n, **kw)
    obs, info = venv.reset(seed=seed)
    out = [[(obs[i].tobytes(), 0.0, False, info["action_mask"][i].tobytes())] for i in range(n)]
    for t in range(steps):
        actions = np.array([_policy(i, info["action_mask"][i], t) for i in range(n)])
        obs, reward, term, _, info = venv.step(actions)
        for i in range(n):
            out[i].append((obs[i].tobytes(), float(reward[i]), bool(term[i]),
                           info["action_mask"][i].tobytes()))
    venv.close()
    return out


def _async(n: int, steps: int, seed: int, batch: int, threads: int, **kw) -> list[list[tuple]]:
    """The same, stepped with send/recv in batches of ``batch`` tables."""
    venv = BonesVectorEnv(num_envs=n, batch_size=batch, num_threads=threads, **kw)
    venv.async_reset(seed=seed)
    out: list[list[tuple]] = [[] for _ in range(n)]
    while min(len(o) for o in out) < steps + 1:
        obs, reward, term, trunc, info = venv.recv()
        ids = info["env_id"]
        assert len(ids) == batch == len(set(ids.tolist())) and not trunc.any()
        actions = []
        for k, i in enumerate(ids):
            t = len(out[i])
            out[i].append((obs[k].tobytes(), float(reward[k]), bool(term[k]),
                           info["action_mask"][k].tobytes()))
            actions.append(_policy(int(i), info["action_mask"][k], t))
        venv.send(np.array(actions), ids)
    venv.recv(n)  # the tables still out
    venv.close()
    return [o[:steps + 1] for o in out]


@pytest.mark.parametrize("kw", [
    {"opponents": "random"},
    {"opponents": "search:iterations=3", "variant": "block-2p"},
    {"opponents": "heuristic", "seat": "random", "scoring": True, "reward": "win"},
])
@pytest.mark.parametrize("batch,threads", [(1, 1), (2, 2), (5, 2)])
def test_async_tables_play_the_episodes_step_plays(kw: dict, batch: int, threads: int) -> None:
    n, steps = 5, 25
    want = _sync(n, steps, 31, **kw)
    got = _async(n, steps, 31, batch, threads, **kw)
    assert any(term for o in want for _, _, term, _ in o)
    for i in range(n):
        assert got[i] == want[i], f"table {i}"


def test_a_quick_table_comes_back_before_a_slow_one_sent_first() -> None:
    # table 0's action is legal, so its searching opponent thinks before the
    # step ends (for this seed it has a choice); table 1's is illegal, which
    # ends its episode at once: sent second, it comes back first.  The search
    # takes the largest budget (~0.3 s idle) so that a loaded host's scheduling
    # (CI runs three lanes on two cores) cannot delay table 1's worker as long
    opponents = "search:iterations=2000"
    probe = BonesVectorEnv("all-fives", num_envs=1, opponents=opponents)
    _, info = probe.reset(seed=4)
    start = time.perf_counter()
    probe.step(np.array([np.flatnonzero(info["action_mask"][0])[0]]))
    slow = time.perf_counter() - start
    assert slow > 0.15
    probe.close()
    venv = BonesVectorEnv("all-fives", num_envs=2, opponents=opponents, num_threads=2,
                          batch_size=1)
    _, info = venv.reset(seed=[4, 9])
    legal = int(np.flatnonzero(info["action_mask"][0])[0])
    venv.send(np.array([legal]), np.array([0]))
    venv.send(np.array([10_000]), np.array([1]))
    _, _, term, _, first = venv.recv()
    assert first["env_id"].tolist() == [1] and term[0] and first["illegal"][0]
    _, _, _, _, second = venv.recv()
    assert second["env_id"].tolist() == [0]
    venv.close()


def test_misuse_is_refused() -> None:
    venv = BonesVectorEnv("all-fives", num_envs=3, opponents="random", batch_size=2)
    with pytest.raises(RuntimeError, match="reset"):
        venv.send(np.array([0]), np.array([0]))
    venv.async_reset(seed=2)
    with pytest.raises(ValueError, match="still stepping"):
        venv.send(np.array([0]), np.array([0]))
    with pytest.raises(ValueError, match="recv"):
        venv.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="recv"):
        venv.reset(seed=1)
    with pytest.raises(ValueError, match="between 1 and the 3"):
        venv.recv(4)
    obs, reward, term, trunc, info = venv.recv()
    assert obs.shape == (2, venv.encoding.size) and reward.shape == (2,)
    ids = info["env_id"]
    with pytest.raises(ValueError, match="one per env id"):
        venv.send(np.array([0]), ids)
    with pytest.raises(ValueError, match="sent twice"):
        venv.send(np.array([0, 0]), np.array([ids[0], ids[0]]))
    with pytest.raises(ValueError, match="no table 7"):
        venv.send(np.array([0]), np.array([7]))
    with pytest.raises(TypeError, match="integer"):
        venv.send(np.array([0.5, 1.5]), ids)
    with pytest.raises(ValueError, match="batch_size"):
        BonesVectorEnv("all-fives", num_envs=3, batch_size=4)
    # an illegal action sent ends that table's episode, as under step()
    venv.send(np.array([10_000, 10_000]), ids)
    _, reward, term, _, info = venv.recv(3)
    back = info["env_id"].tolist()
    for i in ids.tolist():
        k = back.index(i)
        assert term[k] and info["illegal"][k] and reward[k] == -1.0
    # every table received: step works again
    venv.step(np.zeros(3, dtype=np.int64))
    venv.close()


def test_close_with_tables_out_joins_the_threads() -> None:
    venv = BonesVectorEnv("block-2p", num_envs=4, opponents="search:iterations=50",
                          num_threads=2)
    venv.async_reset(seed=5)
    venv.close()
    with pytest.raises(Exception, match="closed"):
        venv.async_reset()
    # dropped with tables out: the threads are joined first
    other = BonesVectorEnv("block-2p", num_envs=4, opponents="search:iterations=50")
    other.async_reset(seed=5)
    del other


def test_the_bench_runs_both_modes(capsys, monkeypatch) -> None:
    import sys

    from bench import vector_async

    monkeypatch.setattr(sys, "argv", ["vector_async", "--seconds", "0.2", "--rounds", "1",
                                      "--opponents", "random", "--envs", "4", "--batch", "2"])
    vector_async.main()
    out = capsys.readouterr().out
    assert "round 1: step" in out and "send/recv" in out and "ratio" in out
