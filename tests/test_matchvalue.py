"""The search's match objective (``search:value=match``), its threads, and
the team it plays for.

The table of ``P(win the match | scores)`` is a probability that behaves
like one (even at equal scores, rising with one's own score, falling with
the other side's, the two sides' chances summing to 1); a hand the target
ends is worth exactly a win, a loss or half; both cores value every world
by the same table and take the same decisions with it (rollouts and the
solver); the native search's threads change nothing but its speed; and in a
partnership the solver plays the partner as a friend, not an opponent.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from native_support import bones_native

from bones.bots import make_bot
from bones.bots.matchvalue import WIN, MatchTable, best_other, compile_table, match_table
from bones.bots.policies import margin
from bones.bots.search import SearchBot, evaluate_moves
from bones.bots.solve import Solver, solvable
from bones.engine.core import flat_table
from bones.engine.hand import PLAYING, Hand
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.seat.observation import observe
from tests.support import compiled, positions

#: the tests that compare the cores (the rest run on either core)
native_only = pytest.mark.skipif(bones_native is None, reason="the native core is not installed")


def test_the_table_is_a_probability_of_winning() -> None:
    table = match_table(compiled("all-fives", 2, False))
    assert table is not None and match_table(compiled("all-fives", 2, False)) is table
    assert (table.step, table.cells) == (5, 50)  # All Fives to 250 scores by fives
    n = table.cells

    def p(a: int, b: int) -> int:
        return table.values[a * n + b]

    for a in range(n):
        assert abs(p(a, a) - WIN // 2) <= 1
        for b in range(n):
            assert abs(p(a, b) + p(b, a) - WIN) <= 2  # the model is symmetric
            if a + 1 < n:
                assert p(a + 1, b) >= p(a, b)
    assert p(n - 1, 0) > 0.99 * WIN and p(0, n - 1) < 0.01 * WIN
    # 200 to 150 is a long way from sure in a game to 250
    assert 0.7 * WIN < table.value([200, 150], 0, False, -1, False) < 0.95 * WIN
    assert table.value([150, 200], 0, False, -1, False) == p(30, 40)
    # the match's end is exact; scores beyond the cells read the last
    assert table.value([0, 0], 1, True, 1, False) == WIN
    assert table.value([300, 0], 1, True, 0, False) == 0
    assert table.value([250, 250], 0, True, -1, False) == WIN // 2
    assert table.value([-10, 999], 0, False, -1, False) == p(0, n - 1)


def test_equal_rules_compiled_again_share_the_table() -> None:
    # a record replayed or a variant loaded anew (each command of a test run
    # in-process) compiles equal rules: their table is compiled once
    from bones.lang.compile import compile_rules
    from bones.lang.load import load_variant

    table = match_table(compiled("all-fives", 2, False))
    again = compile_rules(load_variant("all-fives"), 2, False)
    assert again is not compiled("all-fives", 2, False)
    assert match_table(again) is table
    other = compile_rules(load_variant("all-fives", overrides={"match": {"points": 100}}), 2, False)
    assert match_table(other) is not None and match_table(other) != table


def test_a_variant_without_a_target_keeps_the_points() -> None:
    assert compile_table(compiled("block-2p", 2, False)) is None
    hand = next(positions(compiled("block-2p", 2, False), 3, every=2))
    obs = observe(hand, hand.turn)
    points = evaluate_moves(obs, iterations=3, seed=1)
    assert evaluate_moves(obs, iterations=3, seed=1, value="match") == points


def test_an_exact_target_cannot_be_overshot() -> None:
    """Fives and threes to exactly 61: a side at 60 needs exactly one more
    point, so it is far from the sure thing it is at 60 of a plain 61."""
    exact = compile_table(compiled("fives-and-threes", 2, False), hands=60)
    assert exact is not None and exact.step == 1
    assert exact.value([60, 0], 0, False, -1, False) < 0.9 * WIN


def test_the_match_value_changes_the_judgement_near_the_target() -> None:
    """Far from the target, the match values rank moves much as points do;
    a move's match value is a probability, and both objectives search the
    same worlds (the name says which)."""
    bot = make_bot("search:value=match:iterations=4")
    assert isinstance(bot, SearchBot) and bot.name == "search:iterations=4:value=match"
    hand = next(positions(compiled("all-fives", 2, False), 2, every=3, scores=[235, 240]))
    obs = observe(hand, hand.turn)
    values = evaluate_moves(obs, iterations=4, seed=3, value="match")
    assert all(0.0 <= v <= 1.0 for _, v in values)
    assert [m for m, _ in values] == obs.legal_moves()


def test_in_a_penalty_match_a_side_s_points_count_against_it() -> None:
    """Kozel (``match.kind: penalty``): reaching 101 loses, so the table
    falls with one's own score and rises with the other side's, and the
    points objective (:func:`bones.bots.policies.margin`) negates every
    side's points."""
    rules = compiled("kozel", 4, True)
    table = compile_table(rules, hands=60)
    assert table is not None
    n = table.cells

    def p(a: int, b: int) -> int:
        return table.values[a * n + b]

    for a in range(n - 1):
        for b in range(n):
            assert p(a + 1, b) <= p(a, b) + 1
    assert p(n - 1, 0) < 0.1 * WIN and p(0, n - 1) > 0.9 * WIN
    assert margin(rules, [10, 4], [0, 0], 0) == -6
    assert margin(rules, [10, 4], [0, 0], 1) == 6
    assert margin(compiled("all-fives", 2, False), [10, 4], [0, 0], 0) == 6


def test_a_penalty_match_of_three_sides_is_read_against_the_lowest_other() -> None:
    """With more than two sides, the side that threatens a side in a penalty
    match (the lowest score wins) is the lowest other, not the highest: the
    table is read at that score (the native ``matchvalue::best_other`` and
    its test say the same)."""
    # 2 cells of 10 points: [mine 0-9: theirs 0-9, 10 up], [mine 10 up: ...]
    table = MatchTable(10, 2, (500_000, 800_000, 200_000, 500_000))
    scores = [3, 12, 4]
    assert best_other(scores, 0, False) == 12 and best_other(scores, 0, True) == 4
    assert best_other(scores, 1, True) == 3 and best_other([7], 0, True) == 0
    assert table.value(scores, 0, False, -1, False) == 800_000  # read at (3, 12)
    assert table.value(scores, 0, False, -1, True) == 500_000  # read at (3, 4)
    assert table.value(scores, 1, False, -1, True) == 200_000  # read at (12, 3)
    assert table.value(scores, 1, False, -1, False) == 200_000  # read at (12, 4)


MATCH_TABLES = [("all-fives", 2, False), ("muggins", 2, False), ("partnership-block", 4, True),
                ("fives-and-threes", 2, False), ("kozel", 4, True)]


@native_only
@pytest.mark.parametrize("name,players,teams", MATCH_TABLES)
def test_both_cores_judge_the_match_the_same(name: str, players: int, teams: bool) -> None:
    """Rollouts and solved worlds valued by the match table: the same
    totals, weights and stream in both cores, late in a match (scores near
    the target) and with 1 or 3 native threads."""
    rules = compiled(name, players, teams)
    searcher = bones_native.Searcher(flat_table(rules))
    near = [rules.target - rules.target // 8 - 3 * o for o in range(rules.owners)]
    compared = 0
    for seed in range(2):
        for hand in positions(rules, seed, every=3, scores=near):
            obs = observe(hand, hand.turn)
            legal = obs.legal_moves()
            for threads in (1, 3):
                bot = SearchBot(iterations=3, rollouts=2, solve=12, value="match",
                                threads=threads)
                a, b = Rng(seed), Rng(seed)
                got = bot.native_search(searcher, obs, b, legal)
                assert bot.python_search(obs, a, legal) == got, (name, seed, hand.log)
                assert a.state == b.state
                assert all(0 <= t <= 2 * WIN * got[2] * (1 + 1e-9) for t in got[1])
            compared += 1
    assert compared >= 4


@native_only
def test_threads_change_nothing_but_the_speed() -> None:
    """The native search's threads split the worlds; the moves, the totals
    and the stream are those of one thread (``search``'s defaults)."""
    rules = compiled("all-fives", 2, False)
    searcher = bones_native.Searcher(flat_table(rules))
    for hand in positions(rules, 5, every=4):
        obs = observe(hand, hand.turn)
        legal = obs.legal_moves()
        one, two = Rng(8), Rng(8)
        got = SearchBot(iterations=24).native_search(searcher, obs, one, legal)
        assert SearchBot(iterations=24, threads=2).native_search(searcher, obs, two,
                                                                  legal) == got
        assert one.state == two.state
    with pytest.raises(ValueError, match="one thread"):
        replace(SearchBot(iterations=2).settings, threads=0).native()
    with pytest.raises(ValueError, match="match table"):
        searcher.search(obs, legal, SearchBot(iterations=2).settings.native(), 1,
                        (5, 3, (0, 1)))


def _team_minimax(h: Hand, me: int, base: list[int], friends: bool) -> int:
    """Plain minimax of ``me``'s side's points less the best other side's;
    ``friends=False`` plays every other seat against ``me``'s seat."""
    if h.state != PLAYING:
        owner = h.rules.owner
        mine = h.scores[owner[me]] - base[owner[me]]
        theirs = max(h.scores[o] - base[o] for o in range(h.rules.owners) if o != owner[me])
        return mine - theirs
    maximise = h.rules.owner[h.turn] == h.rules.owner[me] if friends else h.turn == me
    values = []
    for move in h.legal_moves():
        child = h.copy()
        child.log = []
        child.apply(move)
        values.append(_team_minimax(child, me, base, friends))
    return max(values) if maximise else min(values)


def test_a_partner_is_not_an_opponent() -> None:
    """In a partnership the solver values the team's points and lets the
    partner help: plain minimax over the team agrees with it; playing the
    partner as an opponent would not (some positions differ)."""
    rules = compiled("partnership-block", 4, True)
    assert rules.owner == (0, 1, 0, 1)
    solver = Solver()
    compared = differ = 0
    for seed in range(40):
        match = Match(rules, seed)
        hand = match.new_hand()
        rng = Rng(seed)
        while not hand.over and not solvable(hand, 9):
            hand.apply(rng.choice(hand.legal_moves()))
        if hand.over or len(hand.legal_moves()) < 2:
            continue
        seat = hand.turn
        base = list(hand.scores)
        legal = hand.legal_moves()
        got = solver.values(hand, rules.owner[seat], base, legal)
        for move, value in zip(legal, got):
            child = hand.copy()
            child.log = []
            child.apply(move)
            assert value == _team_minimax(child, seat, base, True), (seed, move)
            differ += value != _team_minimax(child, seat, base, False)
        compared += 1
    assert compared >= 5 and differ > 0
    assert isinstance(MatchTable(1, 1, (WIN,)).native(), tuple)


def test_the_vector_environment_refuses_the_match_value() -> None:
    """The vector environment's native opponents value points: a search
    valuing the match is refused by name, not played as another bot."""
    pytest.importorskip("gymnasium")
    from bones.adapters.vector import native_opponent

    # several threads grow several trees (another move than one thread's)
    with pytest.raises(ValueError, match="one thread"):
        native_opponent("search:threads=2")
    with pytest.raises(ValueError, match="valuing points"):
        native_opponent("search:value=match")
    with pytest.raises(ValueError, match="default scale"):  # its tree is the default's
        native_opponent("search:scale=40")
    for knob in ("explore=1.4", "tinfer=4", "tworlds=50", "prior=1"):  # nor the default tree's
        with pytest.raises(ValueError, match="exploration, inference"):
            native_opponent(f"search:{knob}")
    with pytest.raises(ValueError, match="solving budget"):  # Budget::new's
        native_opponent("search:nodes=1000")
