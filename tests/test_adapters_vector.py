"""The native vector environment: the scalar Gymnasium adapter's episodes
for the same seeds, array for array; next-step autoreset; masks; seeding;
threads; Gymnasium's own checks where they apply."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from bones.engine import core  # noqa: E402

if core.native() is None or not hasattr(core.native(), "VectorCore"):
    pytest.skip("the vector environment needs the native core", allow_module_level=True)

from bones.adapters.gymnasium import env as scalar_env  # noqa: E402
from bones.adapters.vector import BonesVectorEnv  # noqa: E402
from bones.bots.search import DEFAULT_IDRAW  # noqa: E402


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal))


def _compare(variant: str, opponents: str, seat: int | str, steps: int, n: int = 3,
             reward: str | None = None, episode: str = "hand", players: int | None = None,
             threads: int = 1, scoring: bool = False) -> int:
    """Step the vector env and n scalar envs with the same actions; every
    array must agree.  Returns the episodes seen."""
    seed = 11
    venv = BonesVectorEnv(variant, num_envs=n, seat=seat, opponents=opponents,
                          reward=reward, episode=episode, players=players,
                          num_threads=threads, scoring=scoring)
    scalars = [scalar_env(variant, seat=seat, opponents=opponents, reward=reward,
                          episode=episode, players=players, scoring=scoring) for _ in range(n)]
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
    # the search's tree where worlds cannot be solved, its worlds where they can
    ("all-fives", "search:iterations=2"), ("block-2p", "search:iterations=2"),
    ("all-fives", "search:iterations=2:tree=0"),
    # the Beginner: a random move drawn from the bots' generator, or its base's
    ("all-fives", "blunder"), ("partners", "blunder:base=greedy:rate=0.3"),
])
def test_same_episodes_as_the_scalar_adapter(variant: str, opponents: str) -> None:
    assert _compare(variant, opponents, 0, 60) > 0


def test_same_episodes_random_seat_match_and_rewards() -> None:
    assert _compare("all-fives", "random", "random", 80, reward="scaled") > 0
    assert _compare("fives-and-threes", "greedy", 1, 80, reward="difference") > 0
    _compare("all-fives", "random", 0, 120, episode="match")
    assert _compare("partners", "heuristic", 2, 60, reward="win", players=4) >= 0
    assert _compare("block-2p", "random", 1, 60, threads=2) > 0
    # extra plays after a double (kozel's two doubles), pass bonuses and
    # capicua (dominican), a lock decided against a neighbour (both)
    assert _compare("kozel", "random", 0, 200, players=4) > 0
    assert _compare("dominican", "heuristic", 1, 120) > 0


@pytest.mark.parametrize("variant,opponents,players", [
    ("all-fives", "random", None), ("sniff", "heuristic", None), ("muggins", "greedy", 3),
    ("fives-and-threes", "random", None), ("block-2p", "greedy", None),
    # extra plays after a double, matching-ends scoring, a penalty match
    ("kozel", "random", 4), ("dominican", "heuristic", None),
])
def test_the_scoring_view_is_the_same_in_both_cores(variant: str, opponents: str,
                                                     players: int | None) -> None:
    # the view is computed in Rust by the vector environment and in Python
    # by the scalar one: every row agrees, step by step
    assert _compare(variant, opponents, 0, 80, players=players, scoring=True) > 0
    assert _compare(variant, opponents, "random", 40, players=players, scoring=True,
                    threads=2, episode="match") >= 0


def test_an_illegal_action_leaves_no_scoring_view_in_either_core() -> None:
    venv = BonesVectorEnv("all-fives", num_envs=1, opponents="greedy", scoring=True)
    scalar = scalar_env("all-fives", opponents="greedy", scoring=True)
    vobs, _ = venv.reset(seed=3)
    obs, _ = scalar.reset(seed=3)
    size = venv.encoding.size
    assert vobs[0][size:].any() and obs[size:].any()
    vobs, vrew, vterm, _, vinfo = venv.step(np.array([10_000]))
    obs, rew, term, _, info = scalar.step(10_000)
    assert vterm[0] and term and vinfo["illegal"][0] and info["illegal"]
    np.testing.assert_array_equal(vobs[0], obs)
    assert not obs[size:].any()


def test_the_observation_says_when_the_move_is_an_extra_play() -> None:
    from bones.adapters.common import Game
    from bones.lang.compile import compile_rules
    from bones.lang.load import load_variant
    from bones.seat.encoding import Encoding
    from bones.seat.observation import observe

    assert "extra" not in [b.name for b in Encoding(compile_rules(load_variant("all-fives"))).blocks
                           if b.size]
    rules = compile_rules(load_variant("kozel"))
    encoding = Encoding(rules)
    rng = random.Random(3)
    seen = 0
    for seed in range(40):
        game = Game(rules, None, seed=seed)
        while not game.over:
            hand = game.hand
            flag = encoding.block(encoding.values(observe(hand, hand.turn)), "extra")
            assert flag == [1.0 if hand.extra >= 0 else 0.0]
            seen += hand.extra >= 0
            game.step(rng.choice(hand.legal_moves()))
    assert seen  # some hand had an extra play


def test_autoreset_masks_and_seeds() -> None:
    venv = BonesVectorEnv("all-fives", num_envs=8, opponents="random")
    obs, info = venv.reset(seed=3)
    assert venv.observation_space.contains(obs)
    first = obs.copy()
    rng = np.random.default_rng(1)
    ended = np.zeros(8, dtype=bool)
    for _ in range(200):
        mask = info["action_mask"]
        # a live table always has a legal action; a finished one all ones
        # (its next action is ignored): no row is ever all zero
        assert mask.any(axis=1).all() and (mask[ended] == 1).all()
        assert (mask[~ended].sum(axis=1) < mask.shape[1]).all()
        actions = np.array([_pick(m, rng) for m in mask])
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
    assert info["action_mask"].all()  # the episode is over: all ones


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


@pytest.mark.parametrize("variant, opponents", [("sniff", "heuristic"), ("all-fives", "random")])
def test_threads_give_the_same_arrays(variant: str, opponents: str) -> None:
    """The same seeds give the same arrays on 1, 2 and 3 threads (3: slices
    of 6, 6 and 5 tables, which threads may take from each other), through
    several autoresets."""
    envs = [BonesVectorEnv(variant, num_envs=17, opponents=opponents, num_threads=t)
            for t in (1, 2, 3)]
    assert [e.core.workers for e in envs] == [0, 1, 2]
    got = [e.reset(seed=5) for e in envs]
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(60):
        for obs, info in got[1:]:
            np.testing.assert_array_equal(obs, got[0][0])
            for key, value in info.items():
                np.testing.assert_array_equal(value, got[0][1][key])
        mask = got[0][1]["action_mask"]
        actions = np.array([_pick(m, rng) if m.any() else 0 for m in mask])
        steps = [e.step(actions) for e in envs]
        for s in steps[1:]:
            for k in range(4):
                np.testing.assert_array_equal(s[k], steps[0][k])
        ended += int(steps[0][2].sum())
        got = [(s[0], s[4]) for s in steps]
    assert ended > 17  # every table went through an autoreset or more


def _threads() -> int:
    import os

    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/task"),
                    reason="counts the process's threads in /proc")
def test_close_joins_the_worker_threads() -> None:
    before = _threads()
    venv = BonesVectorEnv("all-fives", num_envs=8, opponents="random", num_threads=3)
    assert _threads() == before + 2
    venv.reset(seed=1)
    venv.step(venv.action_masks().argmax(axis=1))
    venv.close()
    assert _threads() == before
    assert venv.core.workers == 0
    with pytest.raises(ValueError, match="closed"):
        venv.core.step(np.zeros(8, dtype=np.int64))
    # an environment dropped without close() joins its workers too
    venv = BonesVectorEnv("all-fives", num_envs=8, opponents="random", num_threads=2)
    assert _threads() == before + 1
    del venv
    import gc

    gc.collect()
    assert _threads() == before


def test_gymnasium_vector_checks() -> None:
    from gymnasium.utils.env_checker import data_equivalence

    venv = BonesVectorEnv("all-fives", num_envs=4, opponents="random")
    obs1, info1 = venv.reset(seed=9)
    obs2, info2 = venv.reset(seed=9)
    assert data_equivalence(obs1, obs2) and data_equivalence(info1, info2)
    assert venv.observation_space.shape == (4, venv.encoding.size)
    assert venv.action_space.shape == (4,)
    assert venv.metadata["autoreset_mode"].value == "NextStep"


def test_the_arrays_the_core_writes_into_cannot_be_resized() -> None:
    """The core keeps pointers into the bound arrays and writes through them
    with the GIL released: NumPy must not move their memory, even told to
    skip its reference check."""
    venv = BonesVectorEnv("all-fives", num_envs=3, opponents="random")
    venv.reset(seed=1)
    bound = [venv._obs, venv._mask, venv._reward, venv._terminated, venv._truncated,
             venv._seat, venv._rewards, venv._outcome, venv._count, venv._scores,
             venv._settlement, venv._illegal]
    for array in bound:
        with pytest.raises(ValueError, match="resize"):
            array.resize(10 * array.size, refcheck=False)
    venv.step(venv.action_masks().argmax(axis=1))


def test_a_hand_that_wins_one_game_of_several_rewards_what_it_gained() -> None:
    """Under ``match.games`` a won game starts the scores again from 0; the
    hand's reward is still what it gained, in the scalar game and the vector
    environment alike (their rewards are compared step by step elsewhere)."""
    from bones.adapters.common import Game
    from bones.lang.compile import compile_rules
    from bones.lang.load import load_variant

    rules = compile_rules(load_variant("all-fives", overrides={"match": {"points": 10, "games": 2}}))
    rewarded = 0
    for seed in range(30):
        game = Game(rules, None, episode="hand", reward="points", seed=seed)
        rng = random.Random(seed)
        while not game.over:
            legal = game.hand.legal_moves()
            hand = game.hand
            game.step(rng.choice(legal))
        gains = [hand.settlement[s] + sum(p for who, _, p in hand.log if who == s) for s in (0, 1)]
        assert game.rewards == [gains[0] - gains[1], gains[1] - gains[0]]
        rewarded += game.match.history[-1].game_won >= 0
    assert rewarded  # some hand won a game


def test_a_penalty_match_rewards_a_side_for_what_it_was_not_charged() -> None:
    """In a penalty match (Kozel: the points a side is charged count against
    it) a side charged more than the other is rewarded less, in the scalar
    game (the vector environment's rewards equal it step by step: the kozel
    comparison above)."""
    from bones.adapters.common import Game
    from bones.seat.chance import side_gains
    from tests.support import compiled

    rules = compiled("kozel")
    charged = 0
    for seed in range(12):
        game = Game(rules, None, episode="hand", reward="points", seed=seed)
        before = list(game.match.scores)
        rng = random.Random(seed)
        while not game.over:
            game.step(rng.choice(game.hand.legal_moves()))
        after = game.match.history[-1].scores
        raw = [a - b for a, b in zip(after, before)]
        assert side_gains(rules, before, after) == [-g for g in raw]
        if raw[0] != raw[1]:
            charged += 1
            worse = 0 if raw[0] > raw[1] else 1  # the side charged more
            seats = [s for s in range(rules.players) if rules.owner[s] == worse]
            assert all(game.rewards[s] < 0 for s in seats)
            assert all(game.rewards[s] > 0 for s in range(rules.players) if s not in seats)
    assert charged  # some hand charged one side more


@pytest.mark.parametrize("text", ["search:threads=2", "search:seconds=0.1", "search:value=match",
                                  f"search:idraw={1 - DEFAULT_IDRAW}"])
def test_a_search_the_core_would_play_otherwise_is_refused_in_one_line(text: str) -> None:
    # the tables step on the environment's threads with one-thread searches:
    # a search of several threads grows several trees (another move), so
    # it is refused, as a timed one and the match value are
    with pytest.raises(ValueError, match=r"natively, not '" + text + "'$"):
        BonesVectorEnv("all-fives", num_envs=2, opponents=text)
