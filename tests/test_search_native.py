"""The ``search`` bot plays the same in both cores.

For many positions of whole matches (later hands carry scores, get-in and
pots), in several variants (All Fives, Sniff, a block game, partnerships, a
draw game with three seats, double-nine), the Python search and the native
one (``bones_native.Searcher``) judge the same moves from the same stream:
the same chosen move, the same total for every candidate and the generator
left in the same state, with every rollout policy.  Positions under made-up
void proofs drive the constrained sampler through its retries and its
exhaustive search, and an impossible proof fails the same way in both.

Skipped only when the native core is not installed; ``BONES_CORE=native``
(CI's native pass) turns a missing core into a failure.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from functools import cache

import pytest
from native_support import bones_native, skip_native

from bones.bots.search import SearchBot, native_searcher
from bones.bots.settings import SearchSettings
from bones.engine.core import flat_table
from bones.engine.rng import Rng
from bones.seat.observation import NoWorldError, Observation, observe
from tests.support import compiled, positions

# it compares the two cores itself, whichever the pass forces: one pass runs it
pytestmark = [*skip_native(), pytest.mark.once]


@cache
def _searcher(name: str, players: int, teams: bool):
    return bones_native.Searcher(flat_table(compiled(name, players, teams)))


def _both(bot: SearchBot, searcher: object, obs: Observation, seed: int) -> tuple[object, object]:
    legal = obs.legal_moves()
    a, b = Rng(seed), Rng(seed)
    try:
        got_py: object = bot.python_values(obs, a, legal)
    except NoWorldError as err:
        got_py = ("no world", str(err))
    try:
        got_native: object = bot.native_values(searcher, obs, b, legal)
    except NoWorldError as err:
        got_native = ("no world", str(err))
    assert a.state == b.state
    return got_py, got_native


TABLES = [
    ("all-fives", 2, False, "greedy"),
    ("all-fives", 4, True, "heuristic"),
    ("sniff", 2, False, "heuristic"),
    ("sniff-english", 3, False, "random"),
    ("block-2p", 2, False, "greedy"),
    ("partnership-block", 4, True, "greedy"),
    ("muggins", 3, False, "greedy"),
    ("fives-and-threes", 2, False, "random"),
    ("all-fibs", 4, False, "heuristic"),
    # issue 31: the heuristic's judging of passes, locks and capicúa, in the
    # rollouts and in the inference's model of the other seats
    ("dominican", 4, True, "heuristic"),
    ("kozel", 4, True, "heuristic"),
    ("puerto-rico-500", 4, True, "heuristic"),
]


@pytest.mark.parametrize("name,players,teams,policy", TABLES)
def test_native_search_takes_the_python_decision(name: str, players: int, teams: bool,
                                                 policy: str) -> None:
    rules = compiled(name, players, teams)
    searcher = _searcher(name, players, teams)
    bot = SearchBot(iterations=4, rollouts=2, policy=policy)
    compared = bound = later = 0
    for seed in range(4):
        for hand in positions(rules, seed, hands=3, every=2):
            obs = observe(hand, hand.turn)
            got_py, got_native = _both(bot, searcher, obs, seed * 1000 + compared)
            assert got_py == got_native, (name, seed, hand.log)
            compared += 1
            bound += any(obs.limits())
            later += any(obs.scores)
    assert compared >= 12
    # positions with proven voids and with scores carried in from earlier hands
    if rules.hands_in_match != 1:
        assert later > 0
    if name in ("block-2p", "partnership-block", "all-fives", "muggins"):
        assert bound > 0


def _made_up_voids(obs: Observation, rng: Rng) -> Observation:
    """The position under invented proofs: tight ones, some impossible."""
    drawn = list(obs.drawn)
    voids = []
    others = [s for s in range(len(obs.counts)) if s != obs.seat and obs.counts[s]]
    for _ in range(1 + rng.below(3)):
        seat = rng.choice(others)
        mask = 0
        for t in range(obs.rules.tiles.size):
            if obs.unseen >> t & 1 and rng.random() < 0.5:
                mask |= 1 << t
        drawn[seat] = max(drawn[seat], 2)
        voids.append((seat, mask, drawn[seat] - rng.choice((0, 0, 0, 1)), len(obs.layout.log)))
    return obs._replace(voids=tuple(voids), drawn=tuple(drawn))


def test_the_constrained_sampler_draws_the_same_worlds() -> None:
    """Retries, the exhaustive search and a proof no deal meets, in both."""
    bot = SearchBot(iterations=3, policy="greedy")
    rng = Rng(17)
    outcomes = set()
    for name, players in (("all-fives", 3), ("muggins", 4), ("all-fives", 2)):
        rules = compiled(name, players, False)
        searcher = _searcher(name, players, False)
        for seed in range(8):
            for hand in positions(rules, seed, hands=1, every=1):
                if observe(hand, hand.turn).unseen.bit_count() > 10:
                    continue  # the exhaustive search in Python is slow on many tiles
                obs = _made_up_voids(observe(hand, hand.turn), rng)
                got_py, got_native = _both(bot, searcher, obs, seed)
                assert got_py == got_native, (name, seed, obs.voids)
                outcomes.add("no world" if got_py[0] == "no world" else "found")
    assert outcomes == {"found", "no world"}


def test_search_runs_native_whenever_the_native_core_is_active(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BONES_CORE", "native")
    rules = compiled("all-fives", 2, False)
    assert native_searcher(rules) is not None
    bot = SearchBot(iterations=6, tree=0)  # the worlds (the tree: test_ismcts.py)
    for hand in positions(rules, 4, hands=1, every=4):
        obs = observe(hand, hand.turn)
        a, b = Rng(9), Rng(9)
        assert bot.choose(obs, a) == bot.python_values(obs, b, obs.legal_moves())[0]
        assert a.state == b.state
    monkeypatch.setenv("BONES_CORE", "python")
    assert native_searcher(rules) is None


def test_bad_views_are_refused_with_one_line() -> None:
    rules = compiled("all-fives", 2, False)
    searcher = _searcher("all-fives", 2, False)
    hand = next(positions(rules, 1, hands=1, every=1))
    obs = observe(hand, hand.turn)
    legal = obs.legal_moves()
    greedy = SearchSettings(iterations=2, rollouts=1, policy="greedy", seconds=0.0, solve=0,
                            infer=0.0, threads=1, nodes=0)
    with pytest.raises(ValueError, match="not legal"):
        searcher.search(obs, [legal[0] + 2 ** 20], greedy.native(), 1)
    with pytest.raises(ValueError, match="no playout policy"):
        replace(greedy, policy="clever").native()
    with pytest.raises(ValueError, match="beyond the set"):
        searcher.search(obs._replace(hand=1 << 200), legal, greedy.native(), 1)
    with pytest.raises(ValueError, match="not the one to move"):
        searcher.search(obs._replace(seat=1 - obs.seat), legal, greedy.native(), 1)
    with pytest.raises(ValueError, match="no field 'depth'"):
        bones_native.SearchSettings({**asdict(greedy), "depth": 3})
    with pytest.raises(ValueError, match="lack the field 'threads'"):
        bones_native.SearchSettings({k: v for k, v in asdict(greedy).items() if k != "threads"})
    # a time budget samples at least one world and plays a legal move
    got = searcher.search(obs, legal, replace(greedy, iterations=1, seconds=0.01).native(), 1)
    assert got[0] in legal and got[3] >= 1


@pytest.mark.parametrize("name,players,teams", [("block-2p", 2, False),
                                                ("partnership-block", 4, True),
                                                ("all-fives", 2, False)])
def test_solved_and_weighted_worlds_are_the_same_in_both_cores(name: str, players: int,
                                                               teams: bool) -> None:
    """The solver and the inference (``search``'s defaults, a small budget):
    the same totals, the same weights, the same values of every move."""
    from bones.bots.search import evaluate_moves

    rules = compiled(name, players, teams)
    searcher = _searcher(name, players, teams)
    bot = SearchBot(iterations=3, solve=12)
    compared = 0
    for seed in range(3):
        for hand in positions(rules, seed, hands=2, every=3):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            a, b = Rng(seed), Rng(seed)
            assert bot.python_search(obs, a, legal) == bot.native_search(searcher, obs, b, legal)
            assert a.state == b.state
            compared += 1
            if compared % 4 == 0:
                with pytest.MonkeyPatch.context() as mp:
                    mp.setenv("BONES_CORE", "python")
                    slow = evaluate_moves(obs, iterations=2, seed=seed, solve=12)
                assert evaluate_moves(obs, iterations=2, seed=seed, solve=12) == slow
                assert [m for m, _ in slow] == legal
    assert compared >= 6


def test_pimc_is_the_search_of_bones_0_1() -> None:
    """``pimc`` keeps the old defaults: 45 worlds of heuristic rollouts,
    none solved, none weighted; ``search`` names only what differs."""
    from bones.bots import make_bot
    from bones.bots.search import PimcBot

    pimc = make_bot("pimc")
    assert isinstance(pimc, PimcBot) and pimc.name == "pimc"
    assert (pimc.iterations, pimc.solve, pimc.infer, pimc.policy) == (45, 0, 0.0, "heuristic")
    assert make_bot("pimc:iterations=180").name == "pimc:iterations=180"
    search = make_bot("search")
    assert (search.iterations, search.solve, search.infer) == (180, 14, 8.0)
    assert make_bot("search:solve=0:infer=0").name == "search:solve=0:infer=0"
