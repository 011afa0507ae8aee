"""The cheating searches of ``bench.ceiling_draw`` see the true deal.

The cheat's observation pins every hidden hand with void bounds: every
world the samplers deal from it holds the true hands (the boneyard's
contents too, in a random order), in both cores; where the worlds are
solved, its values are the exact values of the true deal.  The oracle's
carries the boneyard's order too: every world is the true deal, and both
cores judge it alike.  The honest observation is left as it was.
"""

from __future__ import annotations

import pytest
from native_support import bones_native, skip_native

from bench.ceiling_draw import main, seen
from bones.bots.search import SearchBot
from bones.bots.solve import Solver
from bones.engine.rng import Rng
from bones.seat.observation import observe, sample_world
from tests.support import compiled, positions
from tests.test_search_native import _both, _searcher


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
    import json

    rows = json.loads(out)["rows"]
    assert [r["games"] for r in rows] == [4, 4]
    assert rows[0]["bot"] == "cheat (search:iterations=4)"
    assert all(0 <= r["wins"] + r["ties"] <= r["games"] for r in rows)
