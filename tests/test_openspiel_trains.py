"""The OpenSpiel game python_bones on train layouts (issue 35): pyspiel's own
random simulation test with serialisation (hands and whole matches of
rounds, 2 and 8 players), the round's hub dealt by chance nodes, the
action space the adapters' tile x target one, and ISMCTS's resampler.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

pytestmark = pytest.mark.once

import numpy as np  # noqa: E402

import bones.adapters.openspiel  # noqa: E402,F401
from bones.adapters.common import compile_table  # noqa: E402
from bones.engine.match import Match  # noqa: E402
from bones.engine.nativetrains import NativeTrainHand  # noqa: E402
from bones.engine.trains import TrainHand  # noqa: E402
from bones.seat.actions import ActionSpace  # noqa: E402
from bones.seat.chance import RandomChooser, deal  # noqa: E402

TRAINS = ("mexican-train", "chicken-foot")


def _load(variant: str, players: int, episode: str = "hand", tensor: str = "full") -> object:
    return pyspiel.load_game("python_bones", {"variant": variant, "players": players,
                                              "episode": episode, "tensor": tensor})


@pytest.mark.parametrize("variant", TRAINS)
@pytest.mark.parametrize("players", [2, 8])
def test_random_simulation_with_serialisation(variant: str, players: int) -> None:
    # the full tensor of 8 seats at double-12 is large: the compact one there
    tensor = "full" if players == 2 else "compact"
    game = _load(variant, players, tensor=tensor)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", TRAINS)
def test_random_match_simulation_with_serialisation(variant: str) -> None:
    # a match of every round (13 or 10), its hub falling round by round
    game = _load(variant, 4, "match", "compact")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _deal_until_play(state: object, rng: np.random.Generator) -> list[str]:
    events = []
    while state.is_chance_node():
        outcome = int(rng.choice([o for o, _ in state.chance_outcomes()]))
        events.append(state.action_to_string(pyspiel.PlayerId.CHANCE, outcome))
        state.apply_action(outcome)
    return events


def test_the_actions_are_the_adapters_tile_by_target_actions() -> None:
    game = _load("chicken-foot", 3)
    space = ActionSpace(compile_table("chicken-foot", 3, None))
    assert game.num_distinct_actions() == space.num_actions
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    names = set()
    while not state.is_terminal():
        if state.is_chance_node():
            _deal_until_play(state, rng)
            continue
        hand = state.table.hand
        assert isinstance(hand, (TrainHand, NativeTrainHand))  # the core that runs steps it
        legal = state.legal_actions()
        assert legal == space.legal(hand)
        for action in legal:
            names.add(space.name(action).split("@")[-1])
            assert state.action_to_string(state.current_player(), action).endswith(
                space.name(action))
        state.apply_action(int(rng.choice(legal)))
    assert {"H", "F"} <= names and any(n.startswith("A") for n in names)
    assert abs(sum(state.returns())) < 1e-9


def test_the_hub_is_dealt_by_chance_and_falls_round_by_round() -> None:
    game = _load("mexican-train", 8, "match", "compact")
    rules = game.rules
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    hubs: list[str] = []
    seen = None
    while not state.is_terminal() and len(hubs) < 4:
        if state.is_chance_node():
            _deal_until_play(state, rng)  # a deal, or a draw in a round
            continue
        hand = state.table.hand
        if hand is not seen:  # a new round, dealt
            seen = hand
            hubs.append(rules.tiles.names[hand.lead_tile])
            assert (hand.hands[hand.leader] >> hand.lead_tile) & 1  # its holder places it
            assert not hand.log and hand.turn == hand.leader
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert hubs == ["12-12", "11-11", "10-10", "9-9"]
    # a dealt boneyard in order: the hub's holder, or the draws from seat 0
    # until it appears, as Match deals a round
    for seed in range(12):
        match = Match(rules, seed=seed)
        got = deal(rules, match.next_lead_rule(), RandomChooser(np.random.default_rng(seed)),
                   order_boneyard=True, round_number=3)
        assert got.lead_tile == rules.tiles.double(10)
        assert got.hands[got.leader] >> got.lead_tile & 1
        assert sum(h.bit_count() for h in got.hands) + len(got.boneyard) == 91


def test_a_round_whose_hub_is_in_the_boneyard_draws_it_seat_by_seat() -> None:
    game = _load("mexican-train", 8)
    rules = game.rules
    hub = rules.tiles.double(12)
    for seed in range(200):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        events = _deal_until_play(state, rng)
        draws = [e for e in events if "draws for the hub" in e]
        if not draws:
            continue
        hand = state.table.hand
        # seat 0 draws first, then 1, ...: the last draw brought the hub
        assert [e.split(" draws")[0] for e in draws] == \
            [f"seat {s % 8}" for s in range(len(draws))]
        assert draws[-1].endswith(rules.tiles.names[hub])
        assert hand.leader == (len(draws) - 1) % 8 and hand.lead_tile == hub
        sizes = [h.bit_count() for h in hand.hands]
        assert sum(sizes) == 80 + len(draws)
        return
    pytest.fail("no deal of 200 left the hub in the boneyard")


def test_resampling_keeps_what_the_player_knows() -> None:
    game = _load("chicken-foot", 2)
    rng = np.random.default_rng(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    other_worlds = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal_until_play(state, rng)
            continue
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        other_worlds += world.table.hand.hands != state.table.hand.hands
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert other_worlds


def test_a_hub_set_aside_goes_to_the_first_player_by_lot_then_in_rotation(tmp_path) -> None:
    # hub.comes: set_aside (docs/rules.md): the first player, by lot in round
    # 1 (a chance node), then the next seat each round, is given the hub; a
    # seat dealt it gets a boneyard tile instead
    path = tmp_path / "aside.yaml"
    path.write_text("name: aside\nextends: mexican-train\n"
                    "layout: {trains: {hub: {comes: set_aside}}}\n")
    game = _load(str(path), 4, "match", "compact")
    rules = game.rules
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        leaders: list[int] = []
        lots: list[str] = []
        seen = None
        while not state.is_terminal() and len(leaders) < 3:
            if state.is_chance_node():
                lots += [e for e in _deal_until_play(state, rng) if "lot" in e]
                continue
            hand = state.table.hand
            if hand is not seen:
                seen = hand
                leaders.append(hand.leader)
                assert hand.hands[hand.leader] >> hand.lead_tile & 1
                assert sum(h.bit_count() for h in hand.hands) == 4 * rules.hand_size + 1
                assert all(h.bit_count() == rules.hand_size
                           for s, h in enumerate(hand.hands) if s != hand.leader)
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert len(lots) == 1  # the lot once, in round 1
        assert leaders == [(leaders[0] + r) % 4 for r in range(3)]
