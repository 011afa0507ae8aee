"""The native vector environment: the scalar Gymnasium adapter's episodes
for the same seeds, array for array; next-step autoreset; masks; seeding;
threads; Gymnasium's own checks where they apply."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from bones.adapters.gymnasium import env as scalar_env  # noqa: E402
from bones.adapters.vector import BonesVectorEnv  # noqa: E402


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal))


def _compare(variant: str, opponents: str, seat: int | str, steps: int, n: int = 3,
             reward: str | None = None, episode: str = "hand", players: int | None = None,
             threads: int = 1) -> int:
    """Step the vector env and n scalar envs with the same actions; every
    array must agree.  Returns the episodes seen."""
    seed = 11
    venv = BonesVectorEnv(variant, num_envs=n, seat=seat, opponents=opponents,
                          reward=reward, episode=episode, players=players,
                          num_threads=threads)
    scalars = [scalar_env(variant, seat=seat, opponents=opponents, reward=reward,
                          episode=episode, players=players) for _ in range(n)]
    vobs, vinfo = venv.reset(seed=seed)
    infos = []
    for i, e in enumerate(scalars):
        obs, info = e.reset(seed=seed + i)
        np.testing.assert_array_equal(vobs[i], obs)
        np.testing.assert_array_equal(vinfo["action_mask"][i], info["action_mask"])
        infos.append(info)
    rng = np.random.default_rng(0)
    done = [False] * n
    episodes = 0
    for _ in range(steps):
        actions = np.array([_pick(vinfo["action_mask"][i], rng) if not done[i] else 0
                            for i in range(n)])
        vobs, vrew, vterm, vtrunc, vinfo = venv.step(actions)
        for i, e in enumerate(scalars):
            if done[i]:  # next-step autoreset: the scalar env resets
                obs, info = e.reset()
                rew, term = 0.0, False
            else:
                obs, rew, term, _, info = e.step(int(actions[i]))
            np.testing.assert_array_equal(vobs[i], obs)
            np.testing.assert_array_equal(vinfo["action_mask"][i], info["action_mask"])
            assert vrew[i] == rew and bool(vterm[i]) == term and not vtrunc[i]
            assert vinfo["seat"][i] == info["seat"]
            assert list(vinfo["scores"][i]) == info["scores"]
            assert vinfo["count"][i] == info["count"]
            if term:
                episodes += 1
                outcome = {1: "domino", 2: "blocked", 3: "target"}[int(vinfo["outcome"][i])]
                assert outcome == info["outcome"]
                assert list(vinfo["settlement"][i]) == info["settlement"]
            done[i] = term
    return episodes


@pytest.mark.parametrize("variant,opponents", [
    ("all-fives", "random"), ("sniff", "heuristic"), ("muggins", "greedy"),
    ("all-fives", "search:iterations=2"),
])
def test_same_episodes_as_the_scalar_adapter(variant: str, opponents: str) -> None:
    assert _compare(variant, opponents, 0, 60) > 0


def test_same_episodes_random_seat_match_and_rewards() -> None:
    assert _compare("all-fives", "random", "random", 80, reward="scaled") > 0
    assert _compare("fives-and-threes", "greedy", 1, 80, reward="difference") > 0
    _compare("all-fives", "random", 0, 120, episode="match")
    assert _compare("partners", "heuristic", 2, 60, reward="win", players=4) >= 0
    assert _compare("block-2p", "random", 1, 60, threads=2) > 0


def test_autoreset_masks_and_seeds() -> None:
    venv = BonesVectorEnv("all-fives", num_envs=8, opponents="random")
    obs, info = venv.reset(seed=3)
    assert venv.observation_space.contains(obs)
    first = obs.copy()
    rng = np.random.default_rng(1)
    ended = np.zeros(8, dtype=bool)
    for _ in range(200):
        mask = info["action_mask"]
        # a live table always has a legal action; a finished one none
        assert ((mask.sum(axis=1) > 0) == ~ended).all()
        actions = np.array([_pick(m, rng) if m.any() else 0 for m in mask])
        obs, rew, term, trunc, info = venv.step(actions)
        assert venv.observation_space.contains(obs)
        # the step after an episode ends resets: reward 0, not terminated
        assert (rew[ended] == 0).all() and not term[ended].any()
        ended = term
    again, _ = venv.reset(seed=3)
    np.testing.assert_array_equal(again, first)
    other, _ = venv.reset(seed=4)
    assert not np.array_equal(other, first)


def test_illegal_action_ends_the_episode() -> None:
    venv = BonesVectorEnv("all-fives", num_envs=2, opponents="random", illegal_reward=-5.0)
    _, info = venv.reset(seed=1)
    bad = np.array([int(np.flatnonzero(info["action_mask"][0] == 0)[0]), -1])
    _, rew, term, _, info = venv.step(bad)
    assert term.all() and (rew == -5.0).all() and info["illegal"].all()
    assert not info["action_mask"].any()


def test_self_play_observes_the_seat_to_move() -> None:
    venv = BonesVectorEnv("all-fives", num_envs=4, seat="all")
    obs, info = venv.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = np.zeros((4, 2))
    for _ in range(150):
        actions = np.array([_pick(m, rng) if m.any() else 0 for m in info["action_mask"]])
        obs, rew, term, _, info = venv.step(actions)
        totals += info["rewards"]
        for i in np.flatnonzero(~term):
            turn = venv.encoding.block(obs[i], "turn")
            assert turn[0] == 1.0  # the observed seat is the one to move
            assert info["action_mask"][i].any()
    # points are zero-sum between the two seats
    np.testing.assert_allclose(totals.sum(axis=1), 0.0, atol=1e-9)


def test_threads_give_the_same_arrays() -> None:
    one = BonesVectorEnv("sniff", num_envs=16, opponents="heuristic", num_threads=1)
    two = BonesVectorEnv("sniff", num_envs=16, opponents="heuristic", num_threads=2)
    a, ia = one.reset(seed=5)
    b, ib = two.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(50):
        np.testing.assert_array_equal(a, b)
        actions = np.array([_pick(m, rng) if m.any() else 0 for m in ia["action_mask"]])
        a, ra, _, _, ia = one.step(actions)
        b, rb, _, _, ib = two.step(actions)
        np.testing.assert_array_equal(ra, rb)


def test_gymnasium_vector_checks() -> None:
    from gymnasium.utils.env_checker import data_equivalence

    venv = BonesVectorEnv("all-fives", num_envs=4, opponents="random")
    obs1, info1 = venv.reset(seed=9)
    obs2, info2 = venv.reset(seed=9)
    assert data_equivalence(obs1, obs2) and data_equivalence(info1, info2)
    assert venv.observation_space.shape == (4, venv.encoding.size)
    assert venv.action_space.shape == (4,)
    assert venv.metadata["autoreset_mode"].value == "NextStep"
