"""The native vector environment on train layouts (docs/trains.md): the
scalar Gymnasium adapter's episodes (played on the Python core) for the
same seeds, array for array and step for step, for both built-ins at 2 and
4 players and house rules of the train keys; masks never all zero; the
render as the scalar environment draws it; send/recv as step."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from test_adapters_async import _async, _sync  # noqa: E402

from bones.adapters.gymnasium import env as scalar_env  # noqa: E402
from bones.adapters.vector import BonesVectorEnv  # noqa: E402

#: house rules of the train keys (docs/trains.md), as variant files
HOUSE = {
    # after a double its player lays one more tile anywhere; the hub set
    # aside and placed by lot
    "one-more": """
name: train-one-more
extends: mexican-train
layout:
  trains:
    hub: {comes: set_aside}
    doubles: {by: one_more_anywhere}
""",
    # Chicken Foot's foot with a spinner first and released doubles
    "spinner": """
name: train-spinner
extends: chicken-foot
layout:
  trains:
    doubles: {first_spinner: true, release: no_cover_left}
""",
}


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("house")
    out = {}
    for key, text in HOUSE.items():
        path = root / f"{key}.yaml"
        path.write_text(text)
        out[key] = str(path)
    return out


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _compare(variant: str, opponents: str, players: int, steps: int, n: int = 3,
             seat: int | str = 0, episode: str = "hand", reward: str | None = None,
             scoring: bool = False, threads: int = 1) -> int:
    """Step the vector environment and Gymnasium's sync vectorisation of the
    scalar one with the same actions: observations, masks, rewards, endings
    and infos agree at every step, and so do the tables drawn.  Returns the
    episodes seen."""
    seed = 23
    kw = {"variant": variant, "seat": seat, "opponents": opponents, "players": players,
          "episode": episode, "reward": reward, "scoring": scoring, "render_mode": "ansi"}
    venv = BonesVectorEnv(num_envs=n, num_threads=threads, **kw)
    sync = gymnasium.vector.SyncVectorEnv([lambda: scalar_env(**kw) for _ in range(n)])
    assert sync.single_observation_space.shape == venv.single_observation_space.shape
    vobs, vinfo = venv.reset(seed=seed)
    sobs, sinfo = sync.reset(seed=seed)
    np.testing.assert_array_equal(vobs, sobs)
    rng = np.random.default_rng(seed)
    episodes = 0
    for _ in range(steps):
        masks = vinfo["action_mask"]
        np.testing.assert_array_equal(masks, sinfo["action_mask"])
        actions = np.array([_pick(m, rng) for m in masks])
        vobs, vrew, vterm, vtrunc, vinfo = venv.step(actions)
        sobs, srew, sterm, strunc, sinfo = sync.step(actions)
        np.testing.assert_array_equal(vobs, sobs)
        np.testing.assert_array_equal(vrew, srew)
        np.testing.assert_array_equal(vterm, sterm)
        np.testing.assert_array_equal(vtrunc, strunc)
        np.testing.assert_array_equal(vinfo["action_mask"], sinfo["action_mask"])
        np.testing.assert_array_equal(vinfo["seat"], sinfo["seat"])
        np.testing.assert_array_equal(vinfo["count"], sinfo["count"])
        np.testing.assert_array_equal(vinfo["scores"], np.array(list(sinfo["scores"])))
        for i in np.flatnonzero(vterm):
            episodes += 1
            outcome = {1: "domino", 2: "blocked", 3: "target"}[int(vinfo["outcome"][i])]
            assert outcome == sinfo["outcome"][i]
            assert list(vinfo["settlement"][i]) == list(sinfo["settlement"][i])
        for i, e in enumerate(sync.envs):
            assert venv.render_table(i) == e.render()
    venv.close()
    sync.close()
    return episodes


@pytest.mark.parametrize("variant", ["mexican-train", "chicken-foot"])
@pytest.mark.parametrize("players,opponents", [(2, "random"), (4, "heuristic"), (4, "greedy"),
                                               (3, "blunder")])
def test_the_builtins_play_the_scalar_episodes(variant: str, players: int,
                                               opponents: str) -> None:
    assert _compare(variant, opponents, players, 120) > 0


@pytest.mark.parametrize("key", sorted(HOUSE))
@pytest.mark.parametrize("players", [2, 4])
def test_house_rules_play_the_scalar_episodes(house: dict[str, str], key: str,
                                              players: int) -> None:
    assert _compare(house[key], "heuristic", players, 120) > 0


def test_seats_matches_rewards_and_the_scoring_view() -> None:
    # a random seat, whole matches of rounds rewarded by the win, the
    # scoring view (zero on a train layout: no play scores), 2 threads
    _compare("mexican-train", "random", 3, 150, seat="random", episode="match",
             scoring=True, threads=2)
    assert _compare("chicken-foot", "greedy", 2, 120, seat=1, reward="difference") > 0
    assert _compare("mexican-train", "heuristic", 8, 80, reward="scaled") > 0


@pytest.mark.parametrize("opponents", ["search:iterations=2", "search:iterations=2:tree=0"])
def test_the_searches_play_the_scalar_episodes(opponents: str) -> None:
    # the tree (iterations shrunk on the double-12 set) and the worlds
    assert _compare("mexican-train", opponents, 2, 150, n=2) > 0


def test_self_play_masks_are_never_all_zero_while_a_table_plays() -> None:
    n = 6
    venv = BonesVectorEnv("chicken-foot", num_envs=n, seat="all", players=4)
    obs, info = venv.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = np.zeros(n, dtype=bool)
    episodes = 0
    for _ in range(400):
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        # a table playing has its legal actions only; a finished one all ones
        assert (mask[~ended].sum(axis=1) < mask.shape[1]).all()
        assert (mask[ended] == 1).all()
        for i in np.flatnonzero(~ended):
            turn = venv.encoding.block(obs[i], "turn")
            assert turn[0] == 1.0  # the observed seat is the one to move
        obs, rew, term, _, info = venv.step(np.array([_pick(m, rng) for m in mask]))
        ended = term
        episodes += int(term.sum())
    assert episodes > n


def test_an_illegal_action_ends_a_train_episode() -> None:
    venv = BonesVectorEnv("mexican-train", num_envs=2, opponents="random", illegal_reward=-3.0)
    _, info = venv.reset(seed=1)
    bad = np.array([int(np.flatnonzero(info["action_mask"][0] == 0)[0]),
                    venv.single_action_space.n])
    _, rew, term, _, info = venv.step(bad)
    assert term.all() and (rew == -3.0).all() and info["illegal"].all()


@pytest.mark.parametrize("kw", [
    {"variant": "mexican-train", "opponents": "heuristic", "players": 4},
    {"variant": "chicken-foot", "opponents": "search:iterations=2", "seat": "random"},
])
def test_send_and_recv_play_the_trajectories_step_plays(kw: dict) -> None:
    # each table's (obs, reward, terminated, mask) per step under step(), and
    # under send/recv in batches of 2 on 2 threads (tests/test_adapters_async.py)
    n, steps = 5, 30
    want = _sync(n, steps, 41, **kw)
    got = _async(n, steps, 41, 2, 2, **kw)
    assert any(term for o in want for _, _, term, _ in o)
    for i in range(n):
        assert got[i] == want[i], f"table {i}"


def test_make_vec_and_the_sb3_wrapper_build_train_tables() -> None:
    venv = gymnasium.make_vec("bones/MexicanTrain-v0", num_envs=2, opponents="random")
    obs, info = venv.reset(seed=3)
    assert obs.shape == (2, venv.unwrapped.encoding.size) and info["action_mask"].any(axis=1).all()
    assert "markers" in [b.name for b in venv.unwrapped.encoding.blocks if b.size]
    venv.close()
    sb3 = pytest.importorskip("bones.adapters.sb3")
    wrapped = sb3.vec_env("chicken-foot", num_envs=2, opponents="greedy")
    assert wrapped.reset().shape[0] == 2
    assert wrapped.action_masks().any(axis=1).all()
    wrapped.close()
