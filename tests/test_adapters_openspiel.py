"""The OpenSpiel game python_bones: pyspiel's own random simulation test with
serialisation for every built-in table, chance nodes for every random event,
the world sampler as ISMCTS's resampler, and ISMCTS against a bones bot.

``BONES_RL_SIMS`` sets the simulations per table (default 1; more outside CI).
"""

from __future__ import annotations

import os

import pytest

pyspiel = pytest.importorskip("pyspiel")

# the framework's own checks test the adapter, not the core: one pass of the suite
pytestmark = pytest.mark.once

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import bones.adapters.openspiel  # noqa: E402,F401
from bones.adapters.common import tables  # noqa: E402
from bones.bots import make_bot  # noqa: E402
from bones.engine.rng import Rng  # noqa: E402
from bones.seat.observation import observe  # noqa: E402

SIMS = int(os.environ.get("BONES_RL_SIMS", "1"))
TABLES = tables()
IDS = [str(t) for t in TABLES]


def _load(variant, players=0, teams=False, episode="hand"):
    return pyspiel.load_game("python_bones", {"variant": variant, "players": players,
                                              "teams": teams, "episode": episode})


def _first_of_each_variant():
    seen: set[str] = set()
    for table in TABLES:
        if table.variant not in seen or os.environ.get("BONES_RL_ALL_MATCHES"):
            seen.add(table.variant)
            yield table


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_random_simulation_with_serialisation(table) -> None:
    game = _load(table.variant, table.players, table.teams, "hand")
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


# Whole matches serialise every state along ten or more hands: one table of
# each variant in CI, every table with BONES_RL_ALL_MATCHES=1.
@pytest.mark.parametrize("table", list(_first_of_each_variant()), ids=str)
def test_random_match_simulation_with_serialisation(table) -> None:
    game = _load(table.variant, table.players, table.teams, "match")
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


def _play_randomly(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_random_event_is_a_chance_node() -> None:
    game = _load("all-fives", 2)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    # the lot for the lead, then each seat's tiles
    assert state.is_chance_node()
    assert "lot" in state.action_to_string(pyspiel.PlayerId.CHANCE, 0)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(int(rng.choice([o for o, _ in outcomes])))
    table = state.table
    assert [h.bit_count() for h in table.hand.hands] == [9, 9]
    draws = 0
    while not state.is_terminal():
        if state.is_chance_node():
            options = [o for o, _ in state.chance_outcomes()]
            assert options == sorted(table.hand.boneyard[table.hand.bone_pos:])
            draws += 1
            state.apply_action(int(rng.choice(options)))
            continue
        legal = state.legal_actions()
        draw = game.num_distinct_actions() - 2
        state.apply_action(draw if draw in legal else int(rng.choice(legal)))
    assert draws > 0
    assert abs(sum(state.returns())) < 1e-9


def test_the_same_chance_outcomes_give_the_same_game() -> None:
    game = _load("sniff", 3)
    first = _play_randomly(game.new_initial_state(), np.random.default_rng(7))
    replay = game.new_initial_state()
    for action in first.history():
        replay.apply_action(action)
    assert replay.returns() == first.returns()
    assert str(replay) == str(first)


def test_resampling_keeps_what_the_player_knows() -> None:
    game = _load("all-fives", 3)
    rng = np.random.default_rng(11)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen_other_worlds = False
    while not state.is_terminal():
        if not state.is_chance_node():
            player = state.current_player()
            for _ in range(3):
                world = state.resample_from_infostate(player, sampler)
                assert world.information_state_string(player) == \
                    state.information_state_string(player)
                assert world.observation_string(player) == state.observation_string(player)
                assert world.legal_actions() == state.legal_actions()
                if world.table.hand.hands != state.table.hand.hands:
                    seen_other_worlds = True
            _play_randomly(world.clone(), rng)  # a sampled world plays on
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert seen_other_worlds


def test_the_information_state_hides_other_hands() -> None:
    game = _load("block-2p")
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
    hands = state.table.hand.hands
    text = state.information_state_string(0)
    names = state.table.match.rules.tiles.names
    theirs = [names[t] for t in range(28) if hands[1] >> t & 1]
    assert all(name not in text.split("dealt ")[1].split("\n")[0].split() for name in theirs)
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_shape()[0]
    assert len(state.observation_tensor(1)) == game.observation_tensor_shape()[0]


def test_ismcts_plays_a_bones_bot() -> None:
    game = _load("block-2p")
    seed = 3
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), uct_c=2.0,
        max_simulations=40, random_state=np.random.RandomState(seed))
    rival = make_bot("greedy")
    rng = np.random.default_rng(seed)
    bot_rng = Rng(seed)
    space = game.space
    for hand in range(2):
        state = game.new_initial_state()
        spiel_seat = hand % 2
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [o for o, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(outcomes)))
            elif state.current_player() == spiel_seat:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                table = state.table
                move = rival.choose(observe(table.hand, table.hand.turn), bot_rng)
                state.apply_action(space.index(move))
        assert abs(sum(state.returns())) < 1e-9


#: the uniform random policy's NashConv on tests/data/tiny-block.yaml
UNIFORM_NASH_CONV = 1.2365


def test_cfr_lowers_nash_conv_on_a_tiny_variant() -> None:
    """External-sampling MCCFR on the double-3 block game with 2 tiles each
    (tests/data/tiny-block.yaml): its average policy is nearer a Nash
    equilibrium than the uniform one it starts from.  (The whole tree walk
    runs in seconds: bench figures in docs/adapters.md.)"""
    from open_spiel.python.algorithms import exploitability, external_sampling_mccfr

    path = os.path.join(os.path.dirname(__file__), "data", "tiny-block.yaml")
    game = pyspiel.load_game("python_bones", {"variant": path})
    # the uniform policy's NashConv on this game, 1.2365 (docs/adapters.md):
    # test_bench_exploitability.py walks the tree for it (the random bot's
    # policy is the uniform one), so it is not walked twice (issue 37)
    uniform = UNIFORM_NASH_CONV
    solver = external_sampling_mccfr.ExternalSamplingSolver(
        game, external_sampling_mccfr.AverageType.SIMPLE)
    np.random.seed(0)  # the solver samples with numpy's global generator
    for _ in range(300):
        solver.iteration()
    trained = exploitability.nash_conv(game, solver.average_policy())
    assert uniform > 1.0
    assert trained < 0.7 * uniform


def test_compact_information_state_tensor() -> None:
    full = _load("all-fives")
    game = pyspiel.load_game("python_bones", {"variant": "all-fives", "tensor": "compact"})
    assert full.information_state_tensor_shape() == [4294]
    assert game.information_state_tensor_shape() == [162 + 28 + 28 * 2 + 28]
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
            continue
        player = state.current_player()
        x = np.array(state.information_state_tensor(player))
        played = x[162 + 28:162 + 28 + 56].reshape(28, 2)
        order = x[162 + 28 + 56:]
        on_table = x[28:56]  # the encoding's "played" block
        # a tile has a layer exactly when it is on the table, and its own rank
        np.testing.assert_array_equal(played.sum(axis=1), on_table)
        ranks = sorted(order[order > 0] * 28)
        assert ranks == pytest.approx(list(range(1, len(ranks) + 1)))
        state.apply_action(int(rng.choice(state.legal_actions())))
    with pytest.raises(Exception, match="tensor must be"):
        pyspiel.load_game("python_bones", {"variant": "all-fives", "tensor": "tiny"})
