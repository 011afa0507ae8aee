"""The action masks learners read are never all zero: once an episode is
over (a hand or match ended, or an illegal action ended it) the mask is all
ones, as Pgx makes it, so a masked softmax never divides by zero; while it
plays it is the legal actions.  Checked over whole episodes of several
built-ins in the scalar Gymnasium environment, the vector environment and
PettingZoo (the mask ``last()`` gives)."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from bones.adapters import gymnasium as gym_adapter  # noqa: E402
from bones.adapters import pettingzoo as pz_adapter  # noqa: E402
from bones.engine import core  # noqa: E402

TABLES = [("all-fives", 2), ("sniff", 3), ("block-2p", 2), ("muggins", 3), ("partners", 4),
          ("fives-and-threes", 2)]


def _softmax_is_finite(mask: np.ndarray, rng: np.random.Generator) -> bool:
    logits = np.where(mask.astype(bool), rng.normal(size=mask.shape), -np.inf)
    p = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    return bool(np.isfinite(p).all())


@pytest.mark.parametrize("variant, players", TABLES)
def test_gymnasium_masks_over_whole_episodes(variant: str, players: int) -> None:
    env = gym_adapter.env(variant, seat="random", opponents="random", players=players,
                          episode="hand")
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=4)
    ended = 0
    while ended < 6:
        mask = info["action_mask"]
        assert mask.any() and np.array_equal(mask, env.action_masks())
        assert _softmax_is_finite(mask, rng)
        assert mask.sum() < mask.size  # a playing seat is never free to do anything
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated:
            ended += 1
            assert (info["action_mask"] == 1).all() and (env.action_masks() == 1).all()
            _, info = env.reset()
    # an illegal action ends the episode: all ones too
    _, info = env.reset()
    _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert terminated and info["illegal"] and (info["action_mask"] == 1).all()


@pytest.mark.skipif(core.native() is None or not hasattr(core.native(), "VectorCore"),
                    reason="the vector environment needs the native core")
@pytest.mark.parametrize("seat", [0, "random", "all"])
@pytest.mark.parametrize("variant, players", TABLES)
def test_vector_masks_over_whole_episodes(variant: str, players: int, seat: int | str) -> None:
    from bones.adapters.vector import BonesVectorEnv

    env = BonesVectorEnv(variant, num_envs=8, seat=seat, opponents="random", players=players)
    rng = np.random.default_rng(2)
    _, info = env.reset(seed=3)
    ended = np.zeros(8, dtype=bool)
    finished = 0
    for step in range(120):
        mask = info["action_mask"]
        assert mask.any(axis=1).all(), f"an all-zero row at step {step}"
        assert _softmax_is_finite(mask, rng)
        assert (mask[ended] == 1).all() and (mask[~ended].sum(axis=1) < mask.shape[1]).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        if step == 60:
            actions[0] = int(np.flatnonzero(mask[0] == 0)[0]) if not ended[0] else actions[0]
        _, _, ended, _, info = env.step(actions)
        finished += int(ended.sum())
    assert finished >= 8


@pytest.mark.parametrize("observation", ["dict", "box"])
@pytest.mark.parametrize("variant, players", TABLES)
def test_pettingzoo_masks_over_whole_episodes(variant: str, players: int,
                                              observation: str) -> None:
    env = pz_adapter.env(variant, players, observation=observation)
    rng = np.random.default_rng(3)
    for seed in range(3):
        env.reset(seed=seed)
        terminal = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            mask = obs["action_mask"] if observation == "dict" else info["action_mask"]
            assert mask.any() and _softmax_is_finite(mask, rng)
            if terminated or truncated:
                assert (mask == 1).all()
                terminal += 1
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert terminal == players


@pytest.mark.parametrize("observation", ["dict", "box"])
def test_pettingzoo_masks_after_an_illegal_action(observation: str) -> None:
    env = pz_adapter.env("sniff", 3, observation=observation)
    env.reset(seed=1)
    obs, _, _, _, info = env.last()
    mask = obs["action_mask"] if observation == "dict" else info["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(mask == 0)[0]))
    seen = 0
    for _ in env.agent_iter():
        obs, _, terminated, _, info = env.last()
        mask = obs["action_mask"] if observation == "dict" else info["action_mask"]
        assert terminated and (mask == 1).all()
        seen += 1
        env.step(None)
    assert seen == 3
