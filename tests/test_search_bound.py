"""The search's exact solving is bounded (issue 38): a move's solving visits
at most ``nodes`` positions, shared by its different worlds, and a world
whose solve would visit more than its share is played out; both cores
count the same positions, so they cut the same worlds and take the same
decisions.

The position of issue 38 (``bones simulate all-fives -n 200 --bots
search,heuristic --seed 2027``, game 130, seat 0's 81st decision with a
choice: 12 tiles against 2, the boneyard spent, a spinner's four arms open)
had every one of its 180 worlds solved exactly, each for minutes; before
the bound ``test_the_issue_38_position_is_decided_within_the_budget`` never
finished.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict
from functools import cache

import pytest
from native_support import bones_native

from bones.bots import BOT_LIMITS, BotError, make_bot
from bones.bots.epimc import EpimcBot
from bones.bots.ismcts import IsmctsBot
from bones.bots.policies import greedy_move
from bones.bots.search import SearchBot, deal_limit, native_searcher, world_limit
from bones.bots.solve import DEFAULT_NODES, MAX_NODES, TT_CAP, Solver, solvable
from bones.engine import core
from bones.engine.core import flat_table
from bones.engine.hand import Hand
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import Observation, observe, sample_world
from bones.sim.simulation import game_seed

#: every move of game 130 of the run of issue 38 before the slow decision
#: (All Fives, seed 2027; seat 0 is ``search``)
ISSUE_38_MOVES = [
    3072, 770, 2944, 3200, 642, 1408, 1536, 2688, 3330, 2304, -1, 2052, 1668, 1924, -1, 1792,
    2820, 1024, 1280, -1, -1, -1, -1, -1, 2566, 512, 3072, 512, 3330, 2050, 0, 384, 258, 2560,
    3200, 1408, 1024, 772, 1664, 3460, -1, 1920, 1540, 2816, -1, 1156, 2308, 3200, 2560, 384,
    2946, 1412, 1922, 1666, 128, 1794, 1154, 1024, 898, 2176, 2688, -1, 2304, -1, 3334, -1,
    3462, 3078, 2822, -1, -1, -1, 1284, -1, 2438, -1, 516, 4, 3072, 512, 3330, 128, 2946, 2434,
    2562, 896, 1536, 768, 640, -1, -1, 1156, 1286, 1926, 2182, 2308, -1, -1, 1408, 1796, 260, 4,
    -1, 3202, -1, 3462, -1, 388, -1, 1024, -1, 2048, -1, 2692, 3200, 642, 2048, 2566, 390, 6,
    1024, 1408, 2944, 770, 1538, 130, 2816, 1920, -1, -1, 256, 3332, 3460, 2692, 3072, 2690,
    1920, 1792, -1, 2560, 3328, 768, 384, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1154, 2432, 898,
    1410, 512, 3202,
]
#: tests comparing the cores (the native module built directly, whichever core plays)
native_only = pytest.mark.skipif(bones_native is None, reason="the native core is not installed")

#: the state of seat 0's stream at that decision
ISSUE_38_RNG = 10709731138529506251
ISSUE_38_LEGAL = [0, 128, 256, 640, 642, 2050, 2946, 132, 1028, 1284, 1540, 134, 1030, 1286,
                  1542]


@cache
def _rules(name: str, players: int | None = None, teams: bool = False) -> Rules:
    return compile_rules(load_variant(name), players, teams)


_NATIVE: dict[tuple[str, int], object] = {}


def _native(kind: str, rules: Rules) -> object:
    """``bones_native.<kind>`` for ``rules`` (one of :func:`_rules`'s),
    whichever core plays."""
    key = (kind, id(rules))
    if key not in _NATIVE:
        _NATIVE[key] = getattr(bones_native, kind)(flat_table(rules))
    return _NATIVE[key]


def issue_38_position() -> Observation:
    """Seat 0's view at the slow decision of issue 38."""
    rules = _rules("all-fives")
    match = Match(rules, seed=game_seed(2027, 130))
    hand = match.new_hand()
    for move in ISSUE_38_MOVES:
        hand.apply(move)
        if hand.state:
            match.finish_hand(hand)
            hand = match.new_hand()
    return observe(hand, hand.turn)


def test_the_issue_38_position_is_what_the_issue_describes() -> None:
    obs = issue_38_position()
    assert obs.seat == 0 and obs.legal_moves() == ISSUE_38_LEGAL
    assert list(obs.counts) == [12, 2] and obs.drawable == 0
    assert sorted(pip for pip in obs.layout.arm_open if pip >= 0) == [0, 1, 1, 5]


@pytest.mark.skipif(core.native() is None, reason="the native core does not play here "
                    "(the Python reference takes minutes for the default budget)")
def test_the_issue_38_position_is_decided_within_the_budget() -> None:
    """``search`` at its defaults: its 180 worlds are one deal (the
    opponent holds every unseen tile), solved once and cut at the budget,
    then played out; the move is legal and the work bounded."""
    obs = issue_38_position()
    bot = make_bot("search")
    assert isinstance(bot, SearchBot) and native_searcher(obs.rules) is not None
    got = bot.judge(obs, Rng(ISSUE_38_RNG), obs.legal_moves())
    assert got.nodes == [DEFAULT_NODES + 1] * 180  # one deal, its solve cut
    assert got.best in ISSUE_38_LEGAL
    # the same move as choose (where the simulation was stuck), from the same stream
    assert bot.choose(obs, Rng(ISSUE_38_RNG)) == got.best


@native_only
def test_both_cores_decide_the_issue_38_position_alike() -> None:
    """The Python reference cuts the same solve at the same count (a
    smaller budget: the reference is slow) and takes the same decision."""
    obs = issue_38_position()
    bot = SearchBot(iterations=12, nodes=20_000)
    legal = obs.legal_moves()
    a, b = Rng(ISSUE_38_RNG), Rng(ISSUE_38_RNG)
    got = bot.python_judge(obs, a, legal)
    assert got == bot.native_judge(_native("Searcher", obs.rules), obs, b, legal)
    assert a.state == b.state
    assert got.nodes == [20_001] * 12


def _late_positions(rules: Rules, seed: int, limit: int = 14) -> Iterator[Hand]:
    """Positions with a choice where the search solves its worlds (nothing
    left to draw, at most ``limit`` tiles in the hands), from a match played
    half greedily, half at random."""
    match = Match(rules, seed)
    rng = Rng(seed)
    while not match.game_over:
        hand = match.new_hand()
        while not hand.over:
            legal = hand.legal_moves()
            obs = observe(hand, hand.turn, legal)
            if len(legal) > 1 and solvable(hand, limit) and not (
                    rules.max_draws and obs.drawable):
                yield hand.copy()
            hand.apply(greedy_move(hand, legal) if rng.random() < 0.5 else rng.choice(legal))
        match.finish_hand(hand)


TABLES = [("all-fives", 2, False), ("sniff", 2, False), ("block-2p", 2, False),
          ("partnership-block", 4, True), ("all-fives", 3, False)]


@native_only
@pytest.mark.parametrize("name,players,teams", TABLES)
def test_both_cores_cut_the_same_worlds(name: str, players: int, teams: bool) -> None:
    """Budgets that cut some worlds and not others: the same move, totals,
    weights, positions per world and stream in both cores (so the same
    worlds are cut, with the budget shared by the same deals)."""
    rules = _rules(name, players, teams)
    searcher = _native("Searcher", rules)
    seen = {"cut": 0, "solved": 0}
    compared = 0
    for seed in range(6):
        late = list(_late_positions(rules, seed))
        for k, hand in enumerate(late[::max(1, len(late) // 3)]):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            for nodes in (30, 600):
                bot = SearchBot(iterations=5, nodes=nodes, policy="greedy")
                a, b = Rng(seed + k), Rng(seed + k)
                got = bot.python_judge(obs, a, legal)
                assert got == bot.native_judge(searcher, obs, b, legal), (name, seed, hand.log)
                assert a.state == b.state
                # the worlds as the search deals them (a world, then its seed)
                again = Rng(seed + k)
                worlds = []
                for _ in range(5):
                    worlds.append(sample_world(obs, again))
                    again.next_u64()
                limit = world_limit(worlds, bot.solve, nodes)
                for n in got.nodes:
                    assert 0 < n <= limit + 1
                    seen["cut" if n > limit else "solved"] += 1
            compared += 1
    assert compared >= 3
    assert seen["cut"] and seen["solved"], seen


def test_a_solve_within_its_limit_ends_with_the_exact_values_or_not_at_all() -> None:
    """Python's solver (the native one has the same test in solve.rs): a
    limit of exactly the positions an unlimited solve visits gives its
    values; one fewer gives None, the count then the limit plus one."""
    rules = _rules("block-2p")
    solver = Solver()
    tried = 0
    for seed in range(3):
        for hand in list(_late_positions(rules, seed, limit=9))[:3]:
            me = rules.owner[hand.turn]
            legal = hand.legal_moves()
            exact = solver.values(hand, me, list(hand.scores), legal)
            n = solver.nodes
            assert solver.within(hand, me, list(hand.scores), legal, limit=n) == exact
            assert solver.nodes == n
            if n > 1:
                assert solver.within(hand, me, list(hand.scores), legal, limit=n - 1) is None
                assert solver.nodes == n
            tried += 1
    assert tried >= 3


def test_the_budget_is_shared_by_the_different_deals() -> None:
    """``nodes`` shared equally by the worlds' different deals (the same
    tiles in every hand: one solve), at least one each; 0: no limit."""
    rules = _rules("block-2p")
    hand = next(_late_positions(rules, 0))
    other = hand.copy()
    other.hands = list(reversed(hand.hands))
    assert deal_limit([hand, hand.copy(), hand], 1000) == 1000
    assert deal_limit([hand, other, hand], 1000) == 500
    assert deal_limit([hand, other], 1) == 1
    assert deal_limit([hand, other], 0) == 0
    assert world_limit([hand, other], 0, 1000) == 1000  # solve=0: no world is solved


@native_only
def test_tree_leaves_and_epimc_worlds_are_cut_alike_in_both_cores() -> None:
    """``ismcts`` with solved leaves (the budget shared by its iterations)
    and ``epimc`` (a world's solves share its part; a world cut is left
    out): the same decisions and totals in both cores, with budgets that
    cut some solves."""
    compared = 0
    for name in ("all-fives", "block-2p"):
        rules = _rules(name)
        for seed in range(3):
            late = list(_late_positions(rules, seed))
            for k, hand in enumerate(late[::max(1, len(late) // 2)]):
                obs = observe(hand, hand.turn)
                legal = obs.legal_moves()
                tree = IsmctsBot(iterations=40, solve=14, nodes=40 * 50)
                a, b = Rng(k), Rng(k)
                assert (tree.python_search(obs, a, legal)
                        == tree.native_search(_native("Ismcts", rules), obs, b, legal))
                assert a.state == b.state
                for nodes in (100, 3000):
                    e = EpimcBot(iterations=4, nodes=nodes)
                    a, b = Rng(k), Rng(k)
                    assert (e.python_search(obs, a, legal)
                            == e.native_search(_native("Epimc", rules), obs, b, legal))
                    assert a.state == b.state
                compared += 1
    assert compared >= 4


def test_nodes_is_a_parameter_with_limits_for_every_front_end() -> None:
    assert make_bot("search").name == "search"
    assert make_bot("search:nodes=5000").name == "search:nodes=5000"
    assert make_bot("epimc:nodes=5000").name == "epimc:nodes=5000"
    assert make_bot("ismcts:nodes=5000").name == "ismcts:nodes=5000"
    with pytest.raises(BotError, match="at least 1"):
        make_bot("search:nodes=0")  # no limit is not a bot text's to give
    with pytest.raises(BotError, match="at most"):
        make_bot(f"search:nodes={MAX_NODES + 1}")
    for bot in ("search", "epimc", "ismcts"):
        assert BOT_LIMITS[bot]["nodes"] == MAX_NODES
    # the class takes 0, no limit: today's default before the bound, for
    # measurements (py:bones.bots.search:SearchBot:nodes=0 on the command line)
    assert SearchBot(nodes=0).settings.nodes == 0


@native_only
def test_the_settings_reach_the_native_core_whole() -> None:
    assert bones_native.DEFAULT_NODES == DEFAULT_NODES
    assert bones_native.TT_CAP == TT_CAP
    settings = SearchBot().settings
    assert asdict(settings)["nodes"] == DEFAULT_NODES
    assert f"nodes: {DEFAULT_NODES}" in repr(settings.native())
    tree = IsmctsBot(nodes=123).settings.native()
    assert "nodes: 123" in repr(tree)
    assert bones_native.Searcher(flat_table(_rules("block-2p"))) is not None
