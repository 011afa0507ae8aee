"""The cheating searches of ``bench.ceiling_draw`` see the true deal.

The cheat's observation pins every hidden hand with void bounds: every
world the samplers deal from it holds the true hands (the boneyard's
contents too, in a random order), in both cores; where the worlds are
solved, its values are the exact values of the true deal.  The oracle's
carries the boneyard's order too: every world is the true deal, and both
cores judge it alike.  The same on a train layout (whose honest worlds take
no bounds): the cheat's and the oracle's worlds are the true hands (and
order), and the native tree and worlds take the Python decision from them.
The honest observation is left as it was.
"""

from __future__ import annotations

import json

import pytest
from native_support import bones_native, skip_native

from bench.ceiling_draw import main, seen
from bones.bots.ismcts import IsmctsBot, native_ismcts
from bones.bots.search import PimcBot, SearchBot, native_searcher
from bones.bots.solve import Solver
from bones.engine.rng import Rng
from bones.seat.observation import observe, sample_world
from tests.support import compiled, positions
from tests.test_search_native import _both, _searcher
from tests.test_trains_search import positions as train_positions


@pytest.mark.parametrize("name,players,teams", [
    ("all-fives", 2, False), ("all-fives", 4, True), ("bergen", 3, False), ("sniff", 2, False)])
def test_every_world_is_the_true_deal_but_the_boneyard_order(name: str, players: int,
                                                             teams: bool) -> None:
    rules = compiled(name, players, teams)
    checked = drawn = guessed = 0
    orders = set()
    for seed in range(3):
        for hand in positions(rules, seed, hands=2):
            honest = observe(hand, hand.turn)
            obs = seen(honest, list(hand.hands))
            left = hand.boneyard[len(hand.boneyard) - honest.boneyard_left:]
            for k in range(3):
                world = sample_world(obs, Rng(seed * 100 + k))
                assert list(world.hands) == list(hand.hands)
                pile = world.boneyard[len(world.boneyard) - honest.boneyard_left:]
                assert sorted(pile) == sorted(left)
                orders.add(tuple(pile))
                checked += 1
            drawn += len(left) > 1
            # the honest observation still deals other hands
            guessed += list(sample_world(honest, Rng(seed)).hands) != list(hand.hands)
    assert checked >= 30 and guessed > 0
    if drawn:
        assert len(orders) > 1  # the boneyard's order is still drawn


def _stock(hand, obs) -> list[int]:
    return list(hand.boneyard[len(hand.boneyard) - obs.boneyard_left:])


@pytest.mark.parametrize("name,players,teams", [("all-fives", 2, False), ("bergen", 3, False)])
def test_the_oracles_worlds_are_the_true_deal(name: str, players: int, teams: bool) -> None:
    rules = compiled(name, players, teams)
    piles = 0
    for seed in range(3):
        for hand in positions(rules, seed, hands=2):
            honest = observe(hand, hand.turn)
            stock = _stock(hand, honest)
            obs = seen(honest, list(hand.hands), stock)
            rng = Rng(seed)
            world = sample_world(obs, rng)
            assert list(world.hands) == list(hand.hands)
            assert world.boneyard[len(world.boneyard) - honest.boneyard_left:] == stock
            piles += len(stock) > 1
            # a stock that is not the boneyard's tiles is ignored: drawn
            if len(stock) > 1:
                wrong = seen(honest, list(hand.hands), stock[1:])
                assert sorted(sample_world(wrong, Rng(seed)).boneyard) == sorted(world.boneyard)
    assert piles > 0


@pytest.mark.parametrize("name,players,teams", [("all-fives", 2, False), ("bergen", 3, False),
                                                ("all-fives", 4, True)])
@pytest.mark.skipif(bones_native is None, reason="the native core is not installed")
def test_both_cores_judge_the_oracles_worlds_alike(name: str, players: int,
                                                    teams: bool) -> None:
    rules = compiled(name, players, teams)
    searcher = _searcher(name, players, teams)
    bot = SearchBot(iterations=3, rollouts=2, policy="heuristic")
    compared = 0
    for seed in range(2):
        for hand in positions(rules, seed, hands=2, every=2):
            honest = observe(hand, hand.turn)
            for stock in (None, _stock(hand, honest)):
                obs = seen(honest, list(hand.hands), stock)
                got_py, got_native = _both(bot, searcher, obs, seed * 1000 + compared)
                assert got_py == got_native, (name, seed, hand.log)
                compared += 1
    assert compared >= 12


@pytest.mark.parametrize("core", ["python", pytest.param("native", marks=skip_native())])
def test_solved_worlds_give_the_true_deals_exact_values(core: str) -> None:
    rules = compiled("block-2p", 2, False)
    bot = SearchBot(iterations=5, infer=0.0)
    solver = Solver()
    compared = 0
    for seed in range(3):
        for hand in positions(rules, seed, every=2):
            legal = hand.legal_moves()
            obs = seen(observe(hand, hand.turn), list(hand.hands))
            if core == "native":
                best, totals = bot.native_values(_searcher("block-2p", 2, False), obs, Rng(seed),
                                                 legal)
            else:
                best, totals = bot.python_values(obs, Rng(seed), legal)
            exact = solver.values(hand, rules.owner[hand.turn], list(hand.scores), legal)
            assert totals == [5.0 * v for v in exact], (seed, hand.log)
            assert exact[legal.index(best)] == max(exact)
            compared += 1
    assert compared >= 6


def test_the_bench_plays_paired_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["block-2p", "--deals", "2", "--hands", "--json",
                 "--pairings", "cheat:random,greedy:random",
                 "--cheat", "search:iterations=4"]) == 0
    out = capsys.readouterr().out
    rows = json.loads(out)["rows"]
    assert [r["games"] for r in rows] == [4, 4]
    assert rows[0]["bot"] == "cheat (search:iterations=4)"
    assert all(0 <= r["wins"] + r["ties"] <= r["games"] for r in rows)


@pytest.mark.parametrize("name,players", [("chicken-foot", 2), ("mexican-train", 3)])
def test_a_train_cheats_worlds_are_the_true_deal(name: str, players: int) -> None:
    rules = compiled(name, players, False)
    checked = orders = 0
    for seed in range(2):
        for hand in train_positions(rules, seed, rounds=1, every=4):
            honest = observe(hand, hand.turn)
            stock = _stock(hand, honest)
            cheat = seen(honest, list(hand.hands))
            oracle = seen(honest, list(hand.hands), stock)
            piles = set()
            for k in range(3):
                world = sample_world(cheat, Rng(seed * 100 + k))
                assert list(world.hands) == list(hand.hands)
                pile = world.boneyard[len(world.boneyard) - honest.boneyard_left:]
                assert sorted(pile) == sorted(stock)
                piles.add(tuple(pile))
                world = sample_world(oracle, Rng(k))
                assert list(world.hands) == list(hand.hands)
                assert world.boneyard[len(world.boneyard) - honest.boneyard_left:] == stock
                checked += 1
            orders += len(piles) > 1
    assert checked >= 12 and orders > 0  # the cheat still draws the order


@pytest.mark.parametrize("name,players", [("chicken-foot", 2), ("mexican-train", 3)])
@pytest.mark.once  # the native halves the active core gives: the native pass only
@pytest.mark.skipif(bones_native is None, reason="the native core is not installed")
def test_both_cores_judge_a_train_cheats_worlds_alike(name: str, players: int) -> None:
    # the native train view reads the bounds and the order (TrainView::limits,
    # TrainView::stock) and deals through the point games' world::deal_unseen:
    # the same draws as Python's sampler, so the same decisions
    rules = compiled(name, players, False)
    tree = native_ismcts(rules)
    worlds = native_searcher(rules)
    assert tree is not None and worlds is not None
    compared = 0
    for hand in train_positions(rules, 3, rounds=1, every=6)[:6]:
        honest = observe(hand, hand.turn)
        legal = honest.legal_moves()
        for stock in (None, _stock(hand, honest)):
            obs = seen(honest, list(hand.hands), stock)
            bot = IsmctsBot(iterations=12, policy="heuristic")
            a, b = Rng(compared), Rng(compared)
            assert bot.native_search(tree, obs, b, legal, False) == \
                bot.python_search(obs, a, legal, False), (name, hand.log)
            assert a.state == b.state
            pimc = PimcBot(iterations=3, rollouts=1, policy="greedy")
            a, b = Rng(compared), Rng(compared)
            assert pimc.native_values(worlds, obs, b, legal) == \
                pimc.python_values(obs, a, legal), (name, hand.log)
            assert a.state == b.state
            compared += 1
    assert compared >= 6


@pytest.mark.once
@pytest.mark.skipif(bones_native is None, reason="the native core is not installed")
def test_a_train_view_whose_bounds_admit_no_deal_is_refused() -> None:
    rules = compiled("chicken-foot", 2, False)
    hand = train_positions(rules, 1, rounds=1)[0]
    honest = observe(hand, hand.turn)
    other = 1 - hand.turn
    wrong = seen(honest, list(hand.hands))
    wrong.pinned[other] = [(honest.unseen, 0)]  # may hold no unseen tile at all
    searcher = native_searcher(rules)
    with pytest.raises(ValueError, match="no deal of the unseen tiles agrees"):
        PimcBot(iterations=2).native_values(searcher, wrong, Rng(0), honest.legal_moves())


def test_the_bench_plays_a_train_round_counting_charges_against(
        capsys: pytest.CaptureFixture[str]) -> None:
    # a round's charges count against a side: the bot that sheds its pips
    # wins the round and its margin is positive
    assert main(["chicken-foot", "--players", "2", "--deals", "3", "--hands", "--json",
                 "--pairings", "heuristic:random"]) == 0
    row = json.loads(capsys.readouterr().out)["rows"][0]
    assert row["games"] == 6
    assert row["wins"] >= 4 and row["margin"] > 0
