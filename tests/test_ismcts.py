"""The ``ismcts`` and ``epimc`` bots: the same decisions in both cores,
reproducible, legal.

For positions of whole matches in several variants (All Fives, Sniff, a
block game, partnerships, a draw game with three seats), the Python tree
search and the native one (``bones_native.Ismcts``) take the same move from
the same stream, with the same visits and summed rewards for every
candidate and the generator left in the same state; with exact solving at
the leaves and with every playout policy.  The differential part is skipped
only when the native core is not installed (``BONES_CORE=native``, CI's
native pass, turns a missing core into a failure) and runs in the native
pass of ``.ci/run`` only (marked ``once``); the rest runs in either core.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from native_support import bones_native
from support import compiled, positions

from bones.bots import make_bot
from bones.bots.epimc import EpimcBot
from bones.bots.infer import log_likelihood, tempered
from bones.bots.ismcts import IsmctsBot, scale_of
from bones.bots.search import DEFAULT_TREE_INFER, DEFAULT_TREE_WORLDS, SearchBot, solvable_view
from bones.bots.solve import solvable
from bones.engine.core import flat_table
from bones.engine.hand import Hand
from bones.engine.match import Match
from bones.engine.mirror import distinct_moves
from bones.engine.rng import Rng
from bones.lang.compile import tree_scale
from bones.seat.observation import Observation, observe, sample_world

TABLES = [
    ("all-fives", 2, False, "heuristic", 0, 8.0),
    ("all-fives", 4, True, "greedy", 8, 0.0),
    ("sniff", 2, False, "random", 0, 0.0),
    ("block-2p", 2, False, "heuristic", 8, 4.0),
    ("partnership-block", 4, True, "greedy", 6, 2.0),
    ("muggins", 3, False, "heuristic", 0, 0.0),
]


@pytest.mark.once  # compares the two cores itself, whichever the pass forces
@pytest.mark.parametrize("name,players,teams,policy,solve,infer", TABLES)
def test_native_ismcts_takes_the_python_decision(name: str, players: int, teams: bool,
                                                 policy: str, solve: int, infer: float) -> None:
    if bones_native is None:
        pytest.skip("the native core is not installed")
    rules = compiled(name, players, teams)
    native = bones_native.Ismcts(flat_table(rules))
    bot = IsmctsBot(iterations=12, policy=policy, solve=solve, scale=10.0, infer=infer,
                    worlds=5, depth=2 if infer else 0)
    compared = deep = 0
    for seed in range(3):
        for hand in positions(rules, seed, hands=2, every=3):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            a, b = Rng(seed * 100 + compared), Rng(seed * 100 + compared)
            got_py = bot.python_search(obs, a, legal)
            got_native = bot.native_search(native, obs, b, legal)
            assert got_py == got_native, (name, seed, hand.log)
            assert a.state == b.state
            assert sum(got_py[1]) == 12
            # the root's moves in turn (the analysis's judgement): the same
            # in both cores, every move its share, the best mean chosen
            a, b = Rng(seed), Rng(seed)
            best, visits, totals = bot.python_search(obs, a, legal, even=True)
            assert (best, visits, totals) == bot.native_search(native, obs, b, legal, even=True)
            assert a.state == b.state
            assert sum(visits) == 12 and max(visits) - min(visits) <= 1
            means = [t / v if v else -math.inf for v, t in zip(visits, totals)]
            assert best == legal[means.index(max(means))]
            compared += 1
            deep += max(got_py[1]) > 1  # the tree went below the root
    assert compared >= 8
    assert deep > 0



@pytest.mark.once  # compares the two cores itself, whichever the pass forces
@pytest.mark.parametrize("name,players,teams", [("cuban", 4, True), ("all-fives", 2, False)])
def test_the_tempered_pool_takes_the_same_decision_in_both_cores(name: str, players: int,
                                                                teams: bool) -> None:
    # the tree's pool of worlds with the inference on: where its weights
    # leave less than POOL_ESS of it, both cores temper them by the same
    # exponent (bones.bots.infer.tempered), so the same visits, totals and
    # stream; a sharp model (infer=1) and half-random play make it happen
    if bones_native is None:
        pytest.skip("the native core is not installed")
    rules = compiled(name, players, teams)
    native = bones_native.Ismcts(flat_table(rules))
    bot = IsmctsBot(iterations=16, policy="heuristic", infer=1.0, worlds=40)
    compared = narrowed = 0
    for seed in range(3):
        for hand in positions(rules, seed, hands=1, every=2):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            # the pool: the tree's first draws from the stream
            r = Rng(seed * 100 + compared)
            lls = [log_likelihood(sample_world(obs, r), obs.seat, obs.layout.log, 1.0, bot.draws)
                   for _ in range(40)]
            narrowed += tempered(lls) < 1.0
            a, b = Rng(seed * 100 + compared), Rng(seed * 100 + compared)
            got_py = bot.python_search(obs, a, legal)
            assert got_py == bot.native_search(native, obs, b, legal), (name, seed, hand.log)
            assert a.state == b.state
            compared += 1
    assert compared >= 10
    assert narrowed >= 3
    # search's own tree with tinfer on: the native path and the reference's
    bot_s = SearchBot(iterations=4, tinfer=8.0)
    for seed in range(2):
        for hand in positions(rules, seed, hands=1, every=5):
            obs = observe(hand, hand.turn)
            if not bot_s.grows_tree(obs):
                continue
            a, c = Rng(seed), _PythonRng(seed)
            assert bot_s.choose(obs, a) == bot_s.choose(obs, c), (name, seed, hand.log)
            assert a.state == c.state


@pytest.mark.once  # compares the two cores itself, whichever the pass forces
@pytest.mark.parametrize("name,players,teams,policy,solve,infer", TABLES)
def test_the_heuristic_prior_takes_the_same_decision_in_both_cores(
        name: str, players: int, teams: bool, policy: str, solve: int, infer: float) -> None:
    # the prior: moves opened in the heuristic's order (no draw for the
    # pick) and a PUCT term from a softmax of its values; the same counts,
    # totals and stream in both cores, at the root's bound and in turn
    if bones_native is None:
        pytest.skip("the native core is not installed")
    rules = compiled(name, players, teams)
    native = bones_native.Ismcts(flat_table(rules))
    compared = differs = 0
    for prior in (0.5, 3.0):
        bot = IsmctsBot(iterations=40, policy=policy, solve=solve, scale=10.0, infer=infer,
                        worlds=5, prior=prior)
        assert bot.name.endswith(f"prior={prior:g}")
        plain = IsmctsBot(iterations=40, policy=policy, solve=solve, scale=10.0, infer=infer,
                          worlds=5)
        for seed in range(2):
            for hand in positions(rules, seed, hands=1, every=3):
                obs = observe(hand, hand.turn)
                legal = obs.legal_moves()
                for even in (False, True):
                    a, b = Rng(seed + compared), Rng(seed + compared)
                    got_py = bot.python_search(obs, a, legal, even)
                    assert got_py == bot.native_search(native, obs, b, legal, even), (
                        name, prior, hand.log)
                    assert a.state == b.state
                    assert sum(got_py[1]) == 40
                    differs += got_py[1:] != plain.python_search(
                        obs, Rng(seed + compared), legal, even)[1:]
                    compared += 1
    assert compared >= 8
    assert differs >= compared // 4  # the prior reaches the tree


def test_the_prior_opens_the_heuristics_best_move_first() -> None:
    # one iteration adds one root move: with a prior, the one the heuristic
    # values most in the iteration's world (the searcher's own tiles and the
    # table: the same in every world), never a random one
    from bones.bots.infer import heuristic_values

    checked = 0
    for seed in range(6):
        obs = _observation(seed)
        legal = obs.legal_moves()
        if len(legal) < 2:
            continue
        world = sample_world(obs, Rng(seed))
        seat = world.turn
        unseen = world.rules.tiles.full & ~(world.hands[seat] | world.on_table
                                            | world.out_of_play)
        values = heuristic_values(world, unseen, [h.bit_count() for h in world.hands],
                                  world.drawable, legal)
        first = legal[values.index(max(values))]
        for stream in range(3):
            _, visits, _ = IsmctsBot(iterations=1, prior=1.0).python_search(
                obs, Rng(stream), legal)
            assert visits[legal.index(first)] == 1.0, (seed, stream)
        checked += 1
    assert checked >= 3


def test_a_large_prior_gives_the_heuristics_choice_more_visits() -> None:
    # the bound's prior term favours the move the heuristic values clearly
    # most (5 points above the next): with a large weight it gets more of
    # the root's visits than without
    from bones.bots.infer import heuristic_values

    more = total = 0
    for seed in range(12):
        obs = _observation(seed)
        legal = obs.legal_moves()
        if len(legal) < 2:
            continue
        world = sample_world(obs, Rng(seed))
        seat = world.turn
        unseen = world.rules.tiles.full & ~(world.hands[seat] | world.on_table
                                            | world.out_of_play)
        values = heuristic_values(world, unseen, [h.bit_count() for h in world.hands],
                                  world.drawable, legal)
        ranked = sorted(values, reverse=True)
        if ranked[0] - ranked[1] < 5.0:
            continue
        top = legal[values.index(ranked[0])]
        guided = IsmctsBot(iterations=60, prior=10.0).search(obs, Rng(seed), legal)[1]
        plain = IsmctsBot(iterations=60).search(obs, Rng(seed), legal)[1]
        more += guided[legal.index(top)] > plain[legal.index(top)]
        total += 1
    assert total >= 3 and more == total

@pytest.mark.once  # compares the two cores itself, whichever the pass forces
@pytest.mark.parametrize("name,players,teams,policy,solve,infer", TABLES[:4])
def test_trees_side_by_side_take_the_python_decision(name: str, players: int, teams: bool,
                                                     policy: str, solve: int,
                                                     infer: float) -> None:
    # threads > 1: a seed a tree drawn from the stream, the iterations shared
    # (13 over 2 or 3 trees: uneven shares), the roots' counts added; the
    # native trees grow on their own threads and must add up to the Python
    # trees grown one after the other, every time
    if bones_native is None:
        pytest.skip("the native core is not installed")
    rules = compiled(name, players, teams)
    native = bones_native.Ismcts(flat_table(rules))
    compared = differs = 0
    for seed in range(2):
        for hand in positions(rules, seed, hands=1, every=3):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            one = IsmctsBot(iterations=13, policy=policy, solve=solve, scale=10.0, infer=infer,
                            worlds=5, nodes=4000)
            for threads in (2, 3):
                bot = IsmctsBot(iterations=13, policy=policy, solve=solve, scale=10.0,
                                infer=infer, worlds=5, nodes=4000, threads=threads)
                assert bot.name.endswith(f"threads={threads}")
                for even in (False, True):
                    a, b = Rng(seed + compared), Rng(seed + compared)
                    got_py = bot.python_search(obs, a, legal, even)
                    for _ in range(3):  # the threads' timing changes nothing
                        c = Rng(seed + compared)
                        assert bot.native_search(native, obs, c, legal, even) == got_py
                        assert c.state == a.state
                    visits = got_py[1]
                    assert sum(visits) == 13
                    if even:  # together the trees take the root's moves in turn
                        assert max(visits) - min(visits) <= 1
                    # a seed a tree, drawn first: the stream moves on by that many
                    b.next_u64()
                    for _ in range(threads - 1):
                        b.next_u64()
                    assert a.state == b.state
                    differs += got_py != one.python_search(obs, Rng(seed + compared), legal, even)
                    compared += 1
    assert compared >= 8
    assert differs > 0  # several trees are another search, not the same one


def test_the_default_scale_is_derived_from_the_rules() -> None:
    """The tree's scale by default (0) is the rules' ``tree_scale``: 20 in
    every double-six game, 5/3 points more for every pip dealt to a seat
    above nine double-six tiles' 54 (Cuban's ten double-nine, 90 pips: 80),
    20 on a train layout; ``scale=P`` overrides it."""
    for name, players in (("all-fives", 2), ("all-fives", 4), ("block-2p", 2),
                          ("partnership-block", 4), ("dominican", 4), ("kozel", 4),
                          ("mexican-train", 2), ("chicken-foot", 2)):
        assert compiled(name, players).tree_scale == 20, name
    assert compiled("cuban", 4).tree_scale == 80
    assert tree_scale(9, 10, False) == 80 and tree_scale(6, 9, False) == 20
    assert tree_scale(6, 10, False) == 30 and tree_scale(12, 15, True) == 20
    assert tree_scale(12, 15, False) == 230 and tree_scale(9, 7, False) == 35
    assert scale_of(0.0, compiled("cuban", 4)) == 80.0
    assert scale_of(40.0, compiled("cuban", 4)) == 40.0
    assert make_bot("search").tree_bot().scale == 0.0  # resolved per rules
    # the default and the rules' scale named explicitly take the same moves
    rules = compiled("cuban", 4, True)
    bot, named = IsmctsBot(iterations=40), IsmctsBot(iterations=40, scale=80.0)
    other = IsmctsBot(iterations=40, scale=20.0)
    differ = 0
    for seed in range(2):
        for hand in positions(rules, seed, hands=1, every=6):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            if len(legal) < 2:
                continue
            got = bot.search(obs, Rng(seed), legal)
            assert got == named.search(obs, Rng(seed), legal)
            differ += got[2] != other.search(obs, Rng(seed), legal)[2]
    assert differ  # 20 is another scale there


@pytest.mark.once  # compares the two cores itself, whichever the pass forces
def test_both_cores_read_the_rules_scale() -> None:
    """The native tree (and so the vector environment's search opponent)
    reads the same ``tree_scale`` as the Python one: the default takes the
    same decision with the same rewards in Cuban, where it is 80."""
    if bones_native is None:
        pytest.skip("the native core is not installed")
    rules = compiled("cuban", 4, True)
    native = bones_native.Ismcts(flat_table(rules))
    bot = IsmctsBot(iterations=30)
    compared = 0
    for seed in range(2):
        for hand in positions(rules, seed, hands=1, every=5):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            a, b = Rng(seed * 10 + compared), Rng(seed * 10 + compared)
            assert bot.python_search(obs, a, legal) == bot.native_search(native, obs, b, legal)
            assert a.state == b.state
            compared += 1
    assert compared >= 4


def _observation(seed: int) -> Observation:
    rules = compiled("all-fives", 2, False)
    hand = next(positions(rules, seed, hands=1, every=2))
    return observe(hand, hand.turn)


def test_the_same_seed_gives_the_same_move() -> None:
    bot = make_bot("ismcts:iterations=30")
    assert bot.name == "ismcts:iterations=30"
    for seed in range(3):
        obs = _observation(seed)
        moves = {bot.choose(obs, Rng(seed)) for _ in range(2)}
        assert len(moves) == 1
        assert moves <= set(obs.legal_moves())


def test_visits_follow_the_better_move_and_count_every_iteration() -> None:
    # in a 2-player block hand with two tiles each and nothing to draw, the
    # exact leaf values make the winning move the most visited
    rules = compiled("block-2p", 2, False)
    checked = 0
    for seed in range(40):
        for hand in positions(rules, seed, hands=1, every=1):
            if sum(h.bit_count() for h in hand.hands) > 6:
                continue
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            best, visits, totals = IsmctsBot(iterations=40, solve=14).search(
                obs, Rng(seed), legal)
            assert sum(visits) == 40
            i = legal.index(best)
            assert visits[i] == max(visits)
            # a move no world wins is never preferred to one every world wins
            means = [t / v if v else -2.0 for t, v in zip(totals, visits)]
            if max(means) == 1.0 and min(means) == -1.0:
                assert means[i] == 1.0
            checked += 1
            break
    assert checked >= 5


# ------------------------------------------------ epimc


def _honest_positions(name: str, players: int, teams: bool, limit: int) -> Iterator[Hand]:
    rules = compiled(name, players, teams)
    found = 0
    for seed in range(40):
        for hand in positions(rules, seed, hands=1, every=1):
            if solvable_view(observe(hand, hand.turn), limit):
                yield hand
                found += 1
                break
        if found == 4:
            return


@pytest.mark.once  # compares the two cores itself, whichever the pass forces
@pytest.mark.parametrize("name,players,teams,infer", [
    ("block-2p", 2, False, 0.0), ("block-2p", 2, False, 8.0),
    ("partnership-block", 4, True, 2.0), ("all-fives", 2, False, 8.0),
])
def test_native_epimc_takes_the_python_decision(name: str, players: int, teams: bool,
                                                infer: float) -> None:
    if bones_native is None:
        pytest.skip("the native core is not installed")
    rules = compiled(name, players, teams)
    native = bones_native.Epimc(flat_table(rules))
    bot = EpimcBot(iterations=4, solve=9, infer=infer)
    compared = 0
    for hand in _honest_positions(name, players, teams, 9):
        obs = observe(hand, hand.turn)
        legal = obs.legal_moves()
        a, b = Rng(compared), Rng(compared)
        got_py = bot.python_search(obs, a, legal)
        got_native = bot.native_search(native, obs, b, legal)
        assert got_py == got_native, (name, hand.log)
        assert a.state == b.state
        compared += 1
    assert compared >= 3


def test_epimc_hands_what_it_cannot_solve_to_search() -> None:
    obs = _observation(1)  # All Fives, tiles left to draw
    assert not solvable_view(obs, 14)
    bot = EpimcBot(iterations=6, solve=14, infer=8.0)
    search = make_bot("search:iterations=6:tree=0")
    assert bot.choose(obs, Rng(3)) == search.choose(obs, Rng(3))
    assert make_bot("epimc:iterations=6").name == "epimc:iterations=6"


def test_epimc_gives_the_same_move_for_the_same_seed() -> None:
    bot = make_bot("epimc:iterations=8:solve=9")
    checked = 0
    for hand in _honest_positions("block-2p", 2, False, 9):
        obs = observe(hand, hand.turn)
        if len(obs.legal_moves()) < 2:
            continue
        first = bot.choose(obs, Rng(7))
        assert first == bot.choose(obs, Rng(7))
        assert first in obs.legal_moves()
        checked += 1
    assert checked >= 2


# ------------------------------------------------ search's tree


class _PythonRng(Rng):
    """An ``Rng`` the bots do not hand to the native core (they check the
    exact type): the same draws, the Python reference's path."""


@pytest.mark.parametrize("name,players,teams,policy,solve,infer", TABLES)
def test_search_grows_the_tree_exactly_where_no_world_can_be_solved(
        name: str, players: int, teams: bool, policy: str, solve: int, infer: float) -> None:
    rules = compiled(name, players, teams)
    limit = solve or 14
    bot = SearchBot(iterations=2, tree=6, policy=policy, solve=limit)
    tree = IsmctsBot(iterations=12, policy=policy, infer=DEFAULT_TREE_INFER,
                     worlds=DEFAULT_TREE_WORLDS)
    worlds = SearchBot(iterations=2, tree=0, policy=policy, solve=limit)
    grown = solved = 0
    for seed in range(6):
        for hand in positions(rules, seed, hands=2, every=1):
            obs = observe(hand, hand.turn)
            if grown >= 3 and not solvable_view(obs, limit):
                continue
            # the public test is every world's (a world's own check)
            can = solvable_view(obs, limit)
            assert can == solvable(sample_world(obs, Rng(seed)), limit), (name, hand.log)
            assert bot.grows_tree(obs) == (not can)
            a, b = Rng(seed), Rng(seed)
            # one candidate a group of twins (bones.engine.mirror)
            distinct = distinct_moves(obs.layout, obs.legal_moves())
            if len(distinct) == 1:
                expected = distinct[0]
            elif can:
                expected = worlds.values(obs, b, distinct)[0]
            else:
                expected = tree.search(obs, b, distinct)[0]
            assert bot.choose(obs, a) == expected, (name, hand.log)
            assert a.state == b.state
            # the native path (when active) and the Python reference agree
            c = _PythonRng(seed)
            assert bot.choose(obs, c) == expected and c.state == a.state
            grown += not can
            solved += can
            if grown >= 3 and solved >= 3:
                break
    assert grown >= 2
    if name in ("block-2p", "partnership-block"):
        assert solved >= 2


def test_search_values_the_match_without_the_tree() -> None:
    obs = _observation(1)  # All Fives, tiles left to draw
    assert SearchBot(iterations=2).grows_tree(obs)
    assert not SearchBot(iterations=2, value="match").grows_tree(obs)
    assert not SearchBot(iterations=2, tree=0).grows_tree(obs)
    assert make_bot("search:tree=0").name == "search:tree=0"
    assert make_bot("search").tree_bot().iterations == 22 * 180
    assert make_bot("search:iterations=10:tree=3:policy=greedy").tree_bot().name == \
        "ismcts:iterations=30:policy=greedy:infer=8:worlds=1000"  # the tree's inference: the default
    # the tree's scale: a parameter of search, handed to its tree
    wide = make_bot("search:scale=40")
    assert wide.name == "search:scale=40" and wide.tree_bot().scale == 40.0
    assert make_bot("search:scale=0").name == "search"  # the default (the rules'), unnamed
    assert make_bot("search:scale=20").name == "search:scale=20"  # an explicit override
    obs = _observation(2)
    legal = obs.legal_moves()
    got = wide.choose(obs, Rng(5))
    assert got == IsmctsBot(iterations=22 * 180, scale=40.0,
                            infer=DEFAULT_TREE_INFER, worlds=DEFAULT_TREE_WORLDS).search(
        obs, Rng(5), legal)[0]


def test_search_hands_its_exploration_and_inference_to_its_tree() -> None:
    # the tree's exploration constant and inference: parameters of search,
    # named only when not the default, handed to its tree, and the same
    # decisions in both cores (the native path, when active, and the
    # reference's)
    bot = make_bot("search:iterations=4:tree=5:explore=1.4:tinfer=3")
    assert bot.name == "search:iterations=4:tree=5:explore=1.4:tinfer=3"
    assert bot.tree_bot().name == "ismcts:iterations=20:explore=1.4:infer=3:worlds=1000"
    assert make_bot("search:explore=0.7:tinfer=8").name == "search"  # the defaults
    assert DEFAULT_TREE_INFER == 8.0 and make_bot("search:tinfer=0").name == "search:tinfer=0"
    # the inference's pool of worlds: a parameter of search, handed to its tree
    pooled = make_bot("search:iterations=4:tree=5:tinfer=3:tworlds=30")
    assert pooled.name == "search:iterations=4:tree=5:tinfer=3:tworlds=30"
    assert pooled.tree_bot().name == "ismcts:iterations=20:infer=3:worlds=30"
    assert make_bot("search:tworlds=1000").name == "search"
    tree = IsmctsBot(iterations=20, explore=1.4, infer=3.0, worlds=DEFAULT_TREE_WORLDS)
    plain = IsmctsBot(iterations=20)
    differ = 0
    for seed in range(6):
        obs = _observation(seed)
        assert bot.grows_tree(obs)
        legal = distinct_moves(obs.layout, obs.legal_moves())
        if len(legal) == 1:
            continue
        a, b, c = Rng(seed), Rng(seed), _PythonRng(seed)
        got = bot.choose(obs, a)
        found = tree.search(obs, b, legal)
        assert got == found[0] and a.state == b.state
        assert bot.choose(obs, c) == got and c.state == a.state
        # the knobs reach the tree: the root's counts are not the plain tree's
        differ += found[1:] != plain.search(obs, Rng(seed), legal)[1:]
    assert differ >= 3


def test_search_hands_its_prior_to_its_tree() -> None:
    # the heuristic's prior: a parameter of search, named only away from its
    # default (0: none), handed to its tree, the same decisions in both cores
    bot = make_bot("search:iterations=4:tree=5:prior=2")
    assert bot.name == "search:iterations=4:tree=5:prior=2"
    assert bot.tree_bot().name == "ismcts:iterations=20:infer=8:worlds=1000:prior=2"
    assert make_bot("search:prior=0").name == "search"
    tree = IsmctsBot(iterations=20, prior=2.0, infer=DEFAULT_TREE_INFER, worlds=DEFAULT_TREE_WORLDS)
    plain = IsmctsBot(iterations=20, infer=DEFAULT_TREE_INFER, worlds=DEFAULT_TREE_WORLDS)
    differ = 0
    for seed in range(6):
        obs = _observation(seed)
        assert bot.grows_tree(obs)
        legal = distinct_moves(obs.layout, obs.legal_moves())
        if len(legal) == 1:
            continue
        a, b, c = Rng(seed), Rng(seed), _PythonRng(seed)
        got = bot.choose(obs, a)
        found = tree.search(obs, b, legal)
        assert got == found[0] and a.state == b.state
        assert bot.choose(obs, c) == got and c.state == a.state
        differ += found[1:] != plain.search(obs, Rng(seed), legal)[1:]
    assert differ >= 3


def test_a_time_budget_bounds_the_move_pool_and_all() -> None:
    """With ``seconds``, the tree deals and weighs its inference pool within
    its share of the budget (``infer.POOL_SHARE``) and grows in the rest:
    late in a hand of Five Up for four, where the default pool of a thousand
    worlds took 2.4 s in the Python core for ``seconds=0.001``, a move of
    ``seconds=0.05`` costs its thread well under ten times that (in either
    core, whichever the pass runs)."""
    import time

    rules = compiled("five-up", 4)
    hand = Match(rules, 0).new_hand()
    greedy = make_bot("greedy")
    rng = Rng(1)
    while not (len(hand.log) >= 10 and len(hand.legal_moves()) > 1):
        assert not hand.over
        hand.apply(greedy.choose(observe(hand, hand.turn), rng))
    obs = observe(hand, hand.turn)
    bot = make_bot("search:seconds=0.05")
    assert isinstance(bot, SearchBot) and bot.grows_tree(obs) and bot.tree_bot().infer > 0
    start = time.thread_time()
    assert hand.is_legal(bot.choose(obs, rng))
    assert time.thread_time() - start < 0.5
