"""The searches play train layouts in the native core, as in Python (issue 35 §3).

At positions of whole rounds of both built-ins (2, 4 and 8 seats, later
rounds carrying scores, some alternative keys), dealt by the Python
``Match`` and played on by seeded random moves:

* the information-set tree (``ismcts``, and ``search``'s tree where no
  world can be solved: every train position) in Python and in
  ``bones_native.TrainIsmcts``, from the same stream, with every playout
  policy, by the upper confidence bound and with the root's moves in turn
  (the analysis's judgement), a depth limit too: the same chosen move, the
  same visits and totals for every candidate, the generator left in the
  same state;
* ``pimc``'s worlds (and ``search``'s without inference) in Python and in
  ``bones_native.TrainSearcher``: the same move, totals and state;
* a round's charges count against a side: the values are in charges
  avoided (``Rules.lowest_wins``), so the move that sheds the most pips
  scores best where a round can only end one way;
* the dispatch: on a train layout every search reaches its native half
  (no refusal): the tree with inference (a train round's plays are not
  weighed: every world of its pool weighs 1), ``search``'s own worlds and
  ``epimc`` too; no train position is solved exactly.

Skipped without the native core (``BONES_CORE=native`` makes a missing core
a failure).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from native_support import bones_native, skip_native
from test_trains import _rules

from bones.bots.epimc import EpimcBot
from bones.bots.infer import log_likelihood
from bones.bots.ismcts import IsmctsBot, native_ismcts
from bones.bots.policies import margin
from bones.bots.search import DEFAULT_TREE_INFER, PimcBot, SearchBot, native_searcher, solvable_view
from bones.bots.solve import solvable
from bones.engine.flat import flatten
from bones.engine.match import Match
from bones.engine.mirror import distinct_moves
from bones.engine.rng import Rng
from bones.engine.trains import TrainHand
from bones.seat.observation import Observation, observe, sample_world
from tests.support import compiled

pytestmark = [*skip_native(), pytest.mark.once]

#: (built-in, seats, alternative keys) whose positions the tests judge
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("mexican-train", 2, {}),
    ("mexican-train", 4, {}),
    ("mexican-train", 8, {}),
    ("chicken-foot", 2, {}),
    ("chicken-foot", 4, {}),
    ("mexican-train", 3, {"layout.trains.public": 2, "layout.trains.doubles.cover": 0}),
    ("chicken-foot", 3, {"layout.trains.hub.tiles": 6}),
]


def positions(rules: Any, seed: int, rounds: int = 2, every: int = 5) -> list[TrainHand]:
    """Copies of every ``every``-th position with a choice, over ``rounds``
    rounds of a match played by seeded random moves (the scores carried)."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    out: list[TrainHand] = []
    choices = 0
    for _ in range(rounds):
        if match.game_over:
            break
        hand = match.new_hand()
        assert isinstance(hand, TrainHand)
        while not hand.state:
            legal = hand.legal_moves()
            if len(legal) > 1:
                if choices % every == 0:
                    out.append(hand.copy())
                choices += 1
            hand.apply(rng.choice(legal))
        match.finish_hand(hand)
    return out


def observations(name: str, players: int, changes: dict[str, Any],
                 seeds: range = range(2)) -> list[Observation]:
    rules = _rules(name, players, changes)
    return [observe(h, h.turn) for seed in seeds for h in positions(rules, seed)]


def _ids(table: tuple[str, int, dict[str, Any]]) -> str:
    name, players, changes = table
    return f"{name}-{players}p" + "".join(f"-{k.split('.')[-1]}={v}" for k, v in changes.items())


@pytest.mark.parametrize("table", TABLES, ids=_ids)
def test_the_native_tree_takes_the_python_decision(table: tuple[str, int, dict[str, Any]]
                                                   ) -> None:
    name, players, changes = table
    obs_list = observations(name, players, changes)
    assert len(obs_list) >= 6
    native = native_ismcts(obs_list[0].rules)
    assert native is not None
    compared = later = 0
    # the first positions of the first round and the last of the second
    for i, obs in enumerate([*obs_list[:6], *obs_list[-6:]]):
        policy = ("heuristic", "greedy", "random")[i % 3]
        bot = IsmctsBot(iterations=30, policy=policy, depth=3 if i % 4 == 3 else 0)
        legal = obs.legal_moves()
        for even in (False, True) if i % 2 == 0 else (False,):
            a, b = Rng(i), Rng(i)
            want = bot.python_search(obs, a, legal, even)
            got = bot.native_search(native, obs, b, legal, even)
            assert got == want, (name, players, i, even)
            assert a.state == b.state
            assert sum(want[1]) == 30  # every iteration passed a root move
            compared += 1
        later += any(obs.scores)
    assert compared >= 6
    assert later  # a later round, its scores carried


@pytest.mark.parametrize("table", [TABLES[1], TABLES[4]], ids=_ids)
def test_trees_side_by_side_on_a_train_layout_take_the_python_decision(
        table: tuple[str, int, dict[str, Any]]) -> None:
    # threads > 1: the native trees, one a thread, add up to the Python
    # trees grown one after the other (a seed each from the stream, the
    # iterations shared, together the root's moves in turn)
    name, players, changes = table
    obs_list = observations(name, players, changes)[:4]
    native = native_ismcts(obs_list[0].rules)
    assert native is not None
    for i, obs in enumerate(obs_list):
        legal = obs.legal_moves()
        for threads in (2, 3):
            bot = IsmctsBot(iterations=14, policy=("heuristic", "greedy")[i % 2],
                            infer=1.0 if i == 3 else 0.0, worlds=4, threads=threads)
            for even in (False, True):
                a, b = Rng(i), Rng(i)
                want = bot.python_search(obs, a, legal, even)
                assert bot.native_search(native, obs, b, legal, even) == want
                assert a.state == b.state
                assert sum(want[1]) == 14
                if even:
                    assert max(want[1]) - min(want[1]) <= 1


@pytest.mark.parametrize("table", TABLES[:4], ids=_ids)
def test_the_native_worlds_take_the_python_decision(table: tuple[str, int, dict[str, Any]]
                                                    ) -> None:
    name, players, changes = table
    obs_list = observations(name, players, changes)[:8]
    searcher = native_searcher(obs_list[0].rules)
    assert searcher is not None
    for i, obs in enumerate(obs_list):
        policy = ("heuristic", "greedy", "random")[i % 3]
        bot = PimcBot(iterations=4, rollouts=2, policy=policy)
        legal = obs.legal_moves()
        a, b = Rng(7 + i), Rng(7 + i)
        want = bot.python_values(obs, a, legal)
        got = bot.native_values(searcher, obs, b, legal)
        assert got == want, (name, players, i)
        assert a.state == b.state
        # every move played out in every world: charges, never positive
        # for the mover's side against a seat that goes out
        assert len(want[1]) == len(legal)


def test_search_grows_its_tree_natively_at_every_train_position() -> None:
    """No train position is solved (not even with the boneyard empty), so
    ``search`` chooses by its tree, natively, as the Python one does."""
    obs_list = observations("mexican-train", 2, {}, range(3))
    empty = [o for o in obs_list if not o.drawable]
    assert empty, "a position with nothing left to draw"
    bot = SearchBot(iterations=2, tree=10)
    native = native_ismcts(obs_list[0].rules)
    for i, obs in enumerate([*empty[:3], *obs_list[:3]]):
        assert bot.grows_tree(obs) and not solvable_view(obs, 28)
        legal = obs.legal_moves()
        a, b = Rng(i), Rng(i)
        tree = bot.tree_bot(obs.rules)
        want = tree.python_search(obs, a, legal)
        assert tree.native_search(native, obs, b, legal) == want
        assert a.state == b.state
        assert bot.choose(obs, Rng(i)) == want[0]  # the dispatch takes the native tree


def test_the_tree_s_budget_shrinks_with_a_train_set_s_tiles() -> None:
    """A playout lasts about as many moves as the set has tiles: above the
    double-nine set's 55 the tree's iterations shrink in proportion."""
    bot = SearchBot()
    assert bot.tree_bot(_rules("chicken-foot", 4)).iterations == 22 * 180  # 55 tiles
    assert bot.tree_bot(_rules("mexican-train", 4)).iterations == 22 * 180 * 55 // 91
    assert bot.tree_bot(_rules("mexican-train", 4, {"layout.trains.hub.top": 9})).iterations \
        == 22 * 180 * 55 // 91  # the set, not the hub, decides
    assert bot.tree_bot(compiled("all-fives", 2, False)) is bot.tree_bot()
    # the tree's inference weighs no train play: a fresh world each iteration
    inferring = SearchBot(tinfer=8.0)
    assert bot.tree_bot().infer == DEFAULT_TREE_INFER and inferring.tree_bot().infer == 8.0
    assert inferring.tree_bot(_rules("chicken-foot", 4)).infer == 0.0
    assert inferring.tree_bot(_rules("mexican-train", 4)).infer == 0.0
    assert SearchBot(iterations=1, tree=1).tree_bot(_rules("mexican-train", 2)).iterations == 1


def test_a_round_s_charges_count_against_a_side() -> None:
    """Both cores value a train round's end in charges avoided: from the same
    scores, the side charged less has the better margin."""
    rules = _rules("mexican-train", 3)
    assert rules.lowest_wins
    assert margin(rules, [5, 20, 30], [0, 0, 0], 0) == 15
    assert margin(rules, [5, 20, 30], [0, 0, 0], 2) == -25
    # a position a move before the end: the tree's values agree in sign
    # with who is charged less (the native values match the Python ones,
    # above, so they read the same sign)
    obs_list = observations("chicken-foot", 2, {}, range(2))
    bot = IsmctsBot(iterations=40, policy="heuristic")
    native = native_ismcts(obs_list[0].rules)
    for i, obs in enumerate(obs_list[-4:]):
        legal = obs.legal_moves()
        best, visits, totals = bot.native_search(native, obs, Rng(i), legal)
        assert best in legal and sum(visits) == 40
        assert all(-v <= t <= v for v, t in zip(visits, totals, strict=True))


def test_inference_epimc_and_search_s_worlds_play_trains_natively_too() -> None:
    """A train layout's plays are not weighed (every world weighs 1), so
    the tree with inference (its pool of worlds), ``search``'s own worlds
    (``tree=0``, inference on) and ``epimc`` (which plays as ``search``
    where nothing can be solved) all decide natively, as in Python."""
    rules = _rules("chicken-foot", 4)
    assert native_ismcts(rules) is not None and native_searcher(rules) is not None
    assert SearchBot().native_half(rules) is not None
    assert SearchBot(value="match").native_half(rules) is not None  # no target: points
    obs_list = observations("chicken-foot", 4, {}, range(1))
    native = native_ismcts(rules)
    searcher = native_searcher(rules)
    for i, obs in enumerate(obs_list[:6]):
        legal = obs.legal_moves()
        assert log_likelihood(sample_world(obs, Rng(i)), obs.seat, obs.layout.log, 8.0) == 0.0
        tree = IsmctsBot(iterations=20, infer=2.0, worlds=5, policy="greedy")
        a, b = Rng(i), Rng(i)
        assert tree.native_search(native, obs, b, legal) == tree.python_search(obs, a, legal)
        assert a.state == b.state
        worlds = SearchBot(iterations=3, tree=0, policy="greedy")
        a, b = Rng(i), Rng(i)
        want = worlds.python_judge(obs, a, legal)
        got = worlds.native_judge(searcher, obs, b, legal)
        assert (got.best, got.totals, got.weight) == (want.best, want.totals, want.weight)
        assert want.weight == 3.0 and a.state == b.state
        epimc = EpimcBot(iterations=3)
        distinct = distinct_moves(obs.layout, legal)
        want_move = epimc._search.python_values(obs, Rng(i), distinct)[0]
        assert epimc.choose(obs, Rng(i)) == want_move
    # a world of a train round is never solved
    world = positions(_rules("chicken-foot", 2), 1)[-1]
    assert not solvable(world, 64)


def test_the_native_halves_refuse_a_line_table() -> None:
    line = flatten(compiled("all-fives", 2, False))
    for kind in ("TrainIsmcts", "TrainSearcher"):
        with pytest.raises(ValueError, match="not a train layout"):
            getattr(bones_native, kind)(line)
