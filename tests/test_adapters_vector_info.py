"""The vector environment's ``info`` has the structure of Gymnasium's own
vectorisation of the same id (``make_vec(..., vectorization_mode="sync")``
over the scalar environment): every key with its ``_key`` mask of the tables
it is for, the same masks and the same values, through steps, autoresets,
an illegal action and a masked reset."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

import bones.adapters.gymnasium  # noqa: E402,F401 - registers the ids

#: entries only the vector environment has: every seat's reward (the
#: scalar environment plays one seat), and `illegal` on every table (the
#: scalar one has it only on an illegal step; `_illegal` marks those alike)
EXTRA = {"rewards", "_rewards", "illegal", "_illegal"}


def _same_structure(ours: dict, theirs: dict, n: int) -> None:
    assert set(theirs) <= set(ours) and set(ours) - set(theirs) <= EXTRA, (
        sorted(ours), sorted(theirs))
    for key, value in ours.items():
        assert isinstance(value, np.ndarray) and value.shape[0] == n, key
        if not key.startswith("_"):
            marks = ours["_" + key]
            assert marks.dtype == np.bool_ and marks.shape == (n,), key
    for key, value in theirs.items():
        if key.startswith("_"):
            np.testing.assert_array_equal(ours[key], value, err_msg=key)
            continue
        for i in np.flatnonzero(theirs["_" + key]):
            if key == "outcome":  # a name in the scalar environment, a code here
                names = {0: None, 1: "domino", 2: "blocked", 3: "target"}
                assert names[int(ours[key][i])] == value[i], key
            else:
                np.testing.assert_array_equal(ours[key][i], np.asarray(value[i]), err_msg=key)


@pytest.mark.parametrize("env_id, players", [("bones/AllFives-v0", 2), ("bones/Sniff-v0", 3)])
def test_info_has_the_structure_of_the_sync_vectorisation(env_id: str, players: int) -> None:
    n = 4
    kwargs = {"opponents": "random", "seat": "random", "players": players}
    ours = gymnasium.make_vec(env_id, num_envs=n, **kwargs)
    theirs = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kwargs)
    assert type(ours).__name__ == "BonesVectorEnv"
    _, a = ours.reset(seed=5)
    _, b = theirs.reset(seed=5)
    _same_structure(a, b, n)
    rng = np.random.default_rng(5)
    illegal_seen = autoresets = 0
    for step in range(80):
        mask = a["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        if step in (10, 41):  # an illegal action on table 1 (unless it is resetting)
            zeros = np.flatnonzero(mask[1] == 0)
            if len(zeros):
                actions[1] = zeros[0]
                illegal_seen += 1
        obs, reward, term, trunc, a = ours.step(actions)
        obs2, reward2, term2, trunc2, b = theirs.step(actions)
        np.testing.assert_array_equal(obs, obs2)
        np.testing.assert_array_equal(reward, reward2)
        np.testing.assert_array_equal(term, term2)
        _same_structure(a, b, n)
        autoresets += int(term.sum())
        if step == 60:
            mask = np.array([True, False, True, False])
            _, a = ours.reset(options={"reset_mask": mask})
            _, b = theirs.reset(options={"reset_mask": mask})
            _same_structure(a, b, n)
            np.testing.assert_array_equal(a["_seat"], mask)
    assert illegal_seen and autoresets > n


def test_the_marks_are_every_table_after_a_step() -> None:
    from bones.adapters.vector import BonesVectorEnv

    env = BonesVectorEnv("all-fives", num_envs=3, opponents="random")
    _, info = env.reset(seed=1)
    keys = ["action_mask", "seat", "count", "scores", "outcome", "settlement", "rewards"]
    for key in keys:
        assert info["_" + key].all()
    assert not info["_illegal"].any()
    actions = info["action_mask"].argmax(axis=1)
    actions[0] = -1  # never legal
    _, _, _, _, info = env.step(actions)
    assert list(info["_illegal"]) == [True, False, False] == list(info["illegal"])
    assert all(info["_" + key].all() for key in keys)
