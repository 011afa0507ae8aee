"""What the library gives any framework: pickling, the fixed action space,
the observation encoding and explicit chance."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_budget import examples
from support import compiled

from bones.adapters.common import tables
from bones.engine.hand import DRAW
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.engine.rules import (
    LEAD_HIGHEST_DOUBLE,
    LEAD_LOT,
    LEAD_RANDOM,
    LEAD_SEAT,
    LeadRule,
)
from bones.seat.actions import ActionSpace
from bones.seat.chance import (
    DealProcess,
    NeedChance,
    RandomChooser,
    Script,
    build_deal,
    deal,
    deal_from_permutation,
    draw_options,
    draw_tile,
    hand_rewards,
    lead_rule,
    match_rewards,
)
from bones.seat.encoding import Encoding
from bones.seat.observation import observe, sample_world

TABLES = tables()
IDS = [str(t) for t in TABLES]


def _play(hand, rng, moves):
    for _ in range(moves):
        if hand.over:
            return
        hand.apply(rng.choice(hand.legal_moves()))


# ------------------------------------------------------------- pickling

@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_everything_pickles_and_plays_on_the_same(table) -> None:
    rules = compiled(table.variant, table.players, table.teams)
    match = Match(rules, seed=11)
    hand = match.new_hand()
    _play(hand, random.Random(1), 6)
    obs = observe(hand, 0)
    rules2, match2, obs2 = pickle.loads(pickle.dumps((rules, match, obs)))
    assert (rules2.players, rules2.teams, rules2.variant) == (rules.players, rules.teams,
                                                              rules.variant)
    assert rules2.count_points == rules.count_points
    hand2 = match2.current
    assert hand2 is not None and hand2.rules is rules2
    assert obs2.hand == obs.hand and obs2.layout.arm_open == obs.layout.arm_open
    # both copies play the rest of the hand and the match identically
    for h in (hand, hand2):
        _play(h, random.Random(5), 10_000)
    assert hand2.log == hand.log and hand2.scores == hand.scores
    match.finish_hand(hand)
    match2.finish_hand(hand2)
    assert match2.new_hand().hands == match.new_hand().hands


def test_copies_share_the_rules() -> None:
    rules = compiled("sniff")
    hand = Match(rules, seed=2).new_hand()
    twin = copy.deepcopy(hand)
    assert twin.rules is rules and copy.copy(rules) is rules
    twin.apply(twin.legal_moves()[0])
    assert hand.placed == 0 and twin.placed == 1
    # a match copied whole keeps its hand adding to its own scores
    match = Match(rules, seed=3)
    match.new_hand()
    clone = copy.deepcopy(match)
    assert clone.current is not match.current and clone.current.rules is rules
    assert clone.current.scores is clone.scores and clone.scores is not match.scores


# ---------------------------------------------------------- action space

@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_every_legal_move_has_a_stable_index(table) -> None:
    rules = compiled(table.variant, table.players, table.teams)
    space = ActionSpace(rules)
    names = [space.name(i) for i in range(space.num_actions)]
    assert len(set(names)) == space.num_actions
    assert [space.index(space.move(i)) for i in range(space.num_actions)] == list(
        range(space.num_actions))
    rng = random.Random(str(table))
    used = set()
    for game in range(4):
        match = Match(rules, seed=game)
        while not match.game_over and len(match.history) < 3:
            hand = match.new_hand()
            while not hand.over:
                legal = hand.legal_moves()
                indices = space.legal(hand)
                assert len(set(indices)) == len(legal)
                assert sorted(space.move(i) for i in indices) == sorted(legal)
                mask = space.mask(hand)
                assert len(mask) == space.num_actions and sum(mask) == len(legal)
                used.update(indices)
                hand.apply(rng.choice(legal))
            match.finish_hand(hand)
    assert max(used) < space.num_actions


def test_the_space_is_sized_by_what_can_occur() -> None:
    block = ActionSpace(compiled("block-2p"))
    assert (block.arms, block.draws, block.num_actions) == (2, False, 28 * 2 + 1)
    fives = ActionSpace(compiled("all-fives"))
    assert (fives.arms, fives.draws, fives.num_actions) == (4, True, 28 * 4 + 2)
    with pytest.raises(ValueError, match="no draw action"):
        block.index(DRAW)
    with pytest.raises(ValueError, match="outside"):
        block.move(block.num_actions)


# -------------------------------------------------------------- encoding

@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_the_encoding_has_a_fixed_shape_and_reveals_nothing_hidden(table) -> None:
    rules = compiled(table.variant, table.players, table.teams)
    enc = Encoding(rules)
    low, high = enc.bounds()
    rng = random.Random(str(table))
    # a deal that hides something from some seat: two players drawing for a
    # train game's hub double can take the whole set between them
    seed = next(s for s in range(3, 40)
                if rules.players > 2 or Match(rules, seed=s).next_deal().boneyard)
    hand = Match(rules, seed=seed).new_hand()
    redealt = 0
    while not hand.over:
        for seat in range(rules.players):
            obs = observe(hand, seat)
            values = enc.values(obs)
            assert len(values) == enc.size
            assert all(lo <= v <= hi for v, lo, hi in zip(values, low, high))
            # a world with the hidden tiles dealt otherwise encodes the same
            world = sample_world(obs, Rng(rng.getrandbits(64)))
            assert enc.values(observe(world, seat)) == values
            redealt += (world.hands, world.boneyard) != (hand.hands, hand.boneyard)
        hand.apply(rng.choice(hand.legal_moves()))
    assert redealt  # the other seats' tiles did differ in those worlds


def test_the_encoding_reads_the_right_things() -> None:
    rules = compiled("all-fives", 3)
    enc = Encoding(rules)
    hand = Match(rules, seed=4).new_hand()
    hand.apply(hand.legal_moves()[0])
    seat = hand.turn
    values = enc.values(observe(hand, seat))
    own = enc.block(values, "own")
    assert [t for t, v in enumerate(own) if v] == rules.tiles.tiles_of(hand.hands[seat])
    assert enc.block(values, "turn") == [1.0, 0.0, 0.0]  # relative: the observer moves
    assert enc.block(values, "count") == [float(hand.count)]
    assert enc.block(values, "lead") == [0.0]
    ends = enc.block(values, "open_ends")
    assert sum(ends) == len(hand.open_ends())
    held = enc.block(values, "tiles_held")
    assert held == [float(hand.hands[(seat + k) % 3].bit_count()) for k in range(3)]


# ----------------------------------------------------------------- chance

def _check_deal(rules, found) -> None:
    tiles = [t for h in found.hands for t in rules.tiles.tiles_of(h)] + list(found.boneyard)
    assert sorted(tiles) == list(range(rules.tiles.size))
    if found.lead_tile >= 0:
        assert found.hands[found.leader] >> found.lead_tile & 1


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_chance_deals_follow_the_lead_rule(table) -> None:
    rules = compiled(table.variant, table.players, table.teams)
    rng = random.Random(str(table))
    first = rules.lead_first
    for _ in range(20):
        found = deal(rules, first, RandomChooser(rng))
        _check_deal(rules, found)
        ts = rules.tiles
        if first.kind == LEAD_HIGHEST_DOUBLE and found.lead_tile >= 0:
            held = [d for d in range(ts.highest + 1)
                    if any(h >> ts.double(d) & 1 for h in found.hands)]
            if held:
                assert found.lead_tile == ts.double(max(held))
            else:  # the fallback leads the heaviest tile dealt
                assert not ts.is_double[found.lead_tile]
    # a whole match, every hand started by chance.py
    match = Match(rules, seed=1)
    while not match.game_over and len(match.history) < 4:
        hand = match.start_hand(deal(rules, lead_rule(match), RandomChooser(rng)))
        while not hand.over:
            hand.apply(rng.choice(hand.legal_moves()))
        match.finish_hand(hand)


@given(st.randoms(use_true_random=False))
@examples(20)
def test_a_permutation_deals_in_order(rng) -> None:
    rules = compiled("all-fives")
    perm = list(range(28))
    rng.shuffle(perm)
    found = deal_from_permutation(rules, perm, LeadRule(LEAD_SEAT, 1, -1))
    assert found is not None and found.leader == 1
    assert found.hands[0] == rules.tiles.mask_of(perm[:9])
    assert found.hands[1] == rules.tiles.mask_of(perm[9:18])
    assert list(found.boneyard) == perm[18:]
    with pytest.raises(ValueError, match="chooser"):
        deal_from_permutation(rules, perm, LeadRule(LEAD_LOT, -1, -1))
    with pytest.raises(ValueError, match="permutation"):
        deal_from_permutation(rules, perm[:-1], LeadRule(LEAD_LOT, -1, -1))


def test_a_script_names_each_chance_event() -> None:
    rules = compiled("sniff")
    rule = LeadRule(LEAD_RANDOM, -1, -1)
    with pytest.raises(NeedChance) as need:
        build_deal(rules, rule, Script([]))
    assert need.value.request.kind == "seat" and need.value.request.options == (0, 1)
    with pytest.raises(NeedChance) as need:
        build_deal(rules, rule, Script([1]))
    assert need.value.request.what == "deal to seat 0" and len(need.value.request.options) == 28
    with pytest.raises(ValueError, match="not one of"):
        build_deal(rules, rule, Script([5]))


def test_a_deal_process_and_draws_by_chance_replay_exactly() -> None:
    rules = compiled("all-fives")
    rng = random.Random(9)
    process = DealProcess(rules, lead_rule(Match(rules, seed=0)))
    while (request := process.request()) is not None:
        process.apply(rng.choice(request.options))
    replayed = DealProcess(rules, process.rule)
    for outcome in process.outcomes:
        replayed.apply(outcome)
    assert replayed.deal == process.deal
    assert pickle.loads(pickle.dumps(process)).deal == process.deal
    hand = Match(rules, seed=0).start_hand(process.deal)
    before = sum(h.bit_count() for h in hand.hands)
    drew = 0
    while not hand.over:
        legal = hand.legal_moves()
        if DRAW in legal:
            options = draw_options(hand)
            assert len(options) == hand.boneyard_left
            tile = rng.choice(options)
            seat = hand.turn
            draw_tile(hand, tile)
            assert hand.hands[seat] >> tile & 1
            drew += 1
        else:
            hand.apply(rng.choice(legal))
    assert drew and sum(h.bit_count() for h in hand.hands) <= before + drew


def test_rewards_add_up_to_zero() -> None:
    for table in TABLES:
        rules = compiled(table.variant, table.players, table.teams)
        rewards = hand_rewards(rules, [0] * rules.owners, list(range(3, 3 + rules.owners)))
        assert abs(sum(rewards)) < 1e-9
        won = match_rewards(rules, 0)
        assert abs(sum(won)) < 1e-9 and won[0] == 1.0
        assert match_rewards(rules, -1) == [0.0] * rules.players
    two = compiled("all-fives")
    assert hand_rewards(two, [10, 5], [25, 5]) == [15.0, -15.0]
