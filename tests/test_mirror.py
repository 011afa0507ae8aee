"""Moves that are one move: the same tile on twin arms (issue 36, section 2).

* Both cores group the same moves (``bones.engine.mirror.mirror_of`` and
  the kernel's ``Hand::mirror_of``) at every position of random games of
  every built-in, and every group is sound: its moves lead to positions
  the same up to the arms' names (the same count, scores and arms, and the
  same moves after).
* The analysis and the ``?`` hint value a group once and name its moves
  together; a move played as a twin of the best is the best move; the
  search judges one candidate a group, in both cores.
"""

from __future__ import annotations

import random

import pytest
from native_support import bones_native

from bones.bots.search import SearchBot
from bones.bots.search import evaluate_moves as search_values
from bones.engine import core
from bones.engine.hand import Hand
from bones.engine.leads import Deal
from bones.engine.match import Match
from bones.engine.mirror import ARM_FIELDS, distinct_moves, mirror_groups, mirror_of
from bones.engine.moves import ARM_MASK, ARM_SHIFT, TILE_SHIFT
from bones.engine.notation import format_move, parse_move
from bones.engine.rng import Rng
from bones.engine.trains import python_hand
from bones.games.analysis import evaluate_moves, tree_values
from bones.games.game import GameSession
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant
from bones.seat.observation import Observation, observe

needs_native = pytest.mark.skipif(bones_native is None, reason="the native core is not built")


def _hand(name: str, seats: list[str], moves: list[str]) -> Hand:
    """A Python hand of ``name`` dealt ``seats`` (tiles by name; seat 0
    leads; the rest in the boneyard), after ``moves``."""
    rules = compile_rules(load_variant(name))
    ts = rules.tiles
    hands = tuple(ts.mask_of([ts.parse(t) for t in tiles.split()]) for tiles in seats)
    rest = tuple(t for t in range(len(ts.names)) if not any(h >> t & 1 for h in hands))
    hand = Hand.from_deal(rules, Deal(hands, rest, 0))
    for text in moves:
        hand.play(parse_move(hand, text))
    return hand


def _named(hand: Hand) -> list[list[str]]:
    return [[format_move(hand, m) for m in group]
            for group in mirror_groups(hand, hand.legal_moves())]


POSITIONS = [
    # either side of a led double
    ("block-2p", ["6-6 2-4 4-1 0-0 1-1 3-3 0-1", "6-5 6-4 4-2 2-2 5-5 0-2 0-3"], ["6-6"],
     [["6-4@W", "6-4@E"], ["6-5@W", "6-5@E"]]),
    # either end of a line that shows a 4 at both
    ("block-2p", ["4-2 5-4 0-0 1-1 3-3 0-1 3-0", "2-5 4-1 4-6 2-2 5-5 0-2 6-6"],
     ["4-2", "2-5@E", "5-4@E"], [["4-1@W", "4-1@E"], ["4-6@W", "4-6@E"]]),
    # a 6 on a tile's end and a 6 on the double's uncovered edge: not twins
    ("block-2p", ["6-6 1-4 6-3 0-0 2-2 0-2 0-3", "6-1 4-6 6-5 1-1 5-5 3-3 3-4"],
     ["6-6", "6-1@W", "1-4@W", "4-6@W"], [["6-3@W"], ["6-3@E"]]),
    # the spinner's long sides, then its cross arms once they open
    ("all-fives", ["5-5 5-1 5-2 0-0 1-1 3-3 0-1 2-2 3-4", "5-3 5-4 5-6 6-6 4-4 0-2 0-3 1-2 2-3"],
     ["5-5"], [["5-3@W", "5-3@E"], ["5-4@W", "5-4@E"], ["5-6@W", "5-6@E"]]),
    ("all-fives", ["5-5 5-1 5-2 0-0 1-1 3-3 0-1 2-2 3-4", "5-3 5-4 5-6 6-6 4-4 0-2 0-3 1-2 2-3"],
     ["5-5", "5-3@W", "5-1@E"], [["3-0"], ["3-2"], ["1-2"], ["5-4@N", "5-4@S"],
                                 ["5-6@N", "5-6@S"]]),
    # a lead is never one with another lead
    ("block-2p", ["4-2 5-4 0-0 1-1 3-3 0-1 3-0", "2-5 4-1 4-6 2-2 5-5 0-2 6-6"], [],
     [["0-0"], ["0-1"], ["0-3"], ["1-1"], ["2-4"], ["3-3"], ["4-5"]]),
]


@pytest.mark.skipif(bones_native is None or core.native() is None, reason="compares with the native core, which is not active")
@pytest.mark.parametrize("name,seats,moves,groups", POSITIONS)
def test_twin_arms_make_one_move(name: str, seats: list[str], moves: list[str],
                                 groups: list[list[str]]) -> None:
    hand = _hand(name, seats, moves)
    assert _named(hand) == groups
    legal = hand.legal_moves()
    assert distinct_moves(hand, legal) == [g[0] for g in mirror_groups(hand, legal)]
    if bones_native is not None:
        start = _hand(name, seats, [])
        native = core.native_hand(hand.rules, Deal(tuple(start.hands), tuple(start.boneyard), 0))
        for text in moves:
            native.apply(parse_move(start, text), None)
            start.play(parse_move(start, text))
        assert list(native.mirror_of(legal)) == mirror_of(hand, legal)


def _arm_key(hand: Hand, arm: int) -> tuple[object, ...]:
    cross = {a for arms in hand.hub_cross for a in arms}
    return (*(getattr(hand, f)[arm] for f in ARM_FIELDS), arm in cross)


def _shape(hand: Hand) -> tuple[object, ...]:
    """A hand's position with the arms' names forgotten: what the rules see."""
    arms = sorted(_arm_key(hand, a) for a in range(len(hand.arm_open)))
    hubs = sorted(zip(hand.hub_pip, hand.hub_k, hand.hub_sides_left, hand.hub_spins))
    after = sorted((m >> TILE_SHIFT, _arm_key(hand, (m >> ARM_SHIFT) & ARM_MASK)) if m >= 0
                   else (m, ()) for m in hand.legal_moves())
    return (arms, hubs, hand.count, hand.last_points, list(hand.scores), hand.state,
            hand.turn, [int(h) for h in hand.hands], hand.extra >= 0, after)


def _walk(name: str, players: int | None, seeds: range) -> tuple[int, int]:
    """Random games of ``name`` stepped in both cores (when built): at every
    position both group the same moves, and every group's moves lead to the
    same :func:`_shape`.  Returns (positions, groups of two or more)."""
    rules = compile_rules(load_variant(name), players)
    positions = twins = 0
    for seed in seeds:
        rng = random.Random(seed)
        deal = Match(rules, seed=seed).next_deal()
        hand = python_hand(rules, deal)
        trains = rules.trains is not None
        native = (core.native_hand(rules, deal) if bones_native is not None and not trains
                  else None)
        # a train round as the core that runs steps it (docs/trains.md)
        stepwise = core.new_hand(rules, deal) if trains else None
        while not hand.over:
            legal = hand.legal_moves()
            if not legal:
                break
            firsts = mirror_of(hand, legal)
            if stepwise is not None:
                assert stepwise.legal_moves() == legal, (name, seed, len(hand.log))
                assert firsts == mirror_of(stepwise, legal) == list(range(len(legal))), (
                    name, seed, len(hand.log))
            if native is not None:
                assert list(native.mirror_of(legal)) == firsts, (name, seed, len(hand.log))
            positions += 1
            for group in mirror_groups(hand, legal):
                if len(group) < 2:
                    continue
                twins += 1
                shapes = []
                for move in group:
                    trial = hand.copy()
                    trial.apply(move)
                    shapes.append(_shape(trial))
                assert all(s == shapes[0] for s in shapes), (name, seed, group)
            move = rng.choice(legal)
            hand.apply(move)
            if native is not None:
                native.apply(move, None)
            if stepwise is not None:
                stepwise.apply(move)
    return positions, twins


@pytest.mark.skipif(bones_native is None or core.native() is None, reason="compares with the native core, which is not active")
@pytest.mark.parametrize("name", builtin_names())
def test_both_cores_group_the_same_moves_and_every_group_is_one_position(name: str) -> None:
    positions, _ = _walk(name, None, range(6))
    assert positions > 0


@pytest.mark.skipif(bones_native is None or core.native() is None, reason="compares with the native core, which is not active")
def test_random_games_meet_twins() -> None:
    """The walk above meets groups at all (a test of the test)."""
    found = sum(_walk(name, None, range(6))[1] for name in ("block-2p", "all-fives", "sniff"))
    assert found > 10


# ------------------------------------------------------------- who uses it


LED_DOUBLE = POSITIONS[0]


@pytest.mark.parametrize("position", [0, 3], ids=["block-2p", "all-fives"])
def test_the_analysis_values_a_group_once_and_names_its_moves(position: int) -> None:
    name, seats, moves, groups = POSITIONS[position]
    hand = _hand(name, seats, moves)
    obs = observe(hand, hand.turn)
    values = evaluate_moves(hand.rules, obs, 200, Rng(5))
    assert [v.notation for v in values] == [g[0] for g in groups]
    assert [[n for _, n in v.same] for v in values] == [g[1:] for g in groups]
    # the search's value of every legal move gives twins one value
    got = search_values(obs, 200, 5)
    firsts = mirror_of(hand, hand.legal_moves())
    assert [v for _, v in got] == [got[j][1] for j in firsts]


def test_judged_apart_twins_get_different_values() -> None:
    """Where the tree judges (All Fives before the boneyard is spent), twins
    judged as two moves get two values: the noise one value removes."""
    name, seats, moves, _ = POSITIONS[3]
    hand = _hand(name, seats, moves)
    obs = observe(hand, hand.turn)
    bot = SearchBot(iterations=200)
    assert bot.grows_tree(obs)
    legal = hand.legal_moves()  # W, W, W, E, E, E
    values = tree_values(bot, obs, Rng(5), legal)
    assert values is not None
    assert max(abs(values[i] - values[i + 3]) for i in range(3)) > 0.5
    one = evaluate_moves(hand.rules, obs, 200, Rng(5))
    assert len(one) == 3


def test_the_search_judges_one_candidate_a_group(monkeypatch: pytest.MonkeyPatch) -> None:
    name, seats, moves, _ = LED_DOUBLE
    hand = _hand(name, seats, moves)
    obs = observe(hand, hand.turn)
    seen: list[list[int]] = []
    real = SearchBot.values

    def spy(self: SearchBot, obs_: Observation, rng: Rng, legal: list[int]) -> tuple[int, list[float]]:
        seen.append(list(legal))
        return real(self, obs_, rng, legal)

    monkeypatch.setattr(SearchBot, "values", spy)
    move = SearchBot(iterations=20).choose(obs, Rng(1))
    assert seen == [distinct_moves(hand, hand.legal_moves())]
    assert move in seen[0]


def test_a_group_of_one_move_is_played_without_a_search() -> None:
    # a seat whose only moves are twins has one move to make
    hand = _hand("block-2p", ["6-6 2-4 4-1 0-0 1-1 3-3 0-1", "6-5 1-2 4-2 2-2 5-5 0-2 0-3"],
                 ["6-6"])
    legal = hand.legal_moves()
    assert len(legal) == 2 and len(distinct_moves(hand, legal)) == 1
    rng = Rng(9)
    before = rng.state
    assert SearchBot(iterations=20).choose(observe(hand, hand.turn), rng) == legal[0]
    assert rng.state == before  # nothing drawn: no search


def _session_at_twins(name: str) -> GameSession:
    """A game of ``name`` against ``greedy`` whose person, to move, has twins."""
    for seed in range(100):
        session = GameSession.new(load_variant(name), humans=1, bots=["greedy"], seed=seed)
        while not session.over and session.hand_number == 1:
            hand = session.hand
            assert hand is not None
            if hand.turn != 0:
                session.bot_move()
                continue
            legal = hand.legal_moves()
            if len(distinct_moves(hand, legal)) < len(legal):
                return session
            session.play(legal[-1])
    raise AssertionError("no seed gives twins")  # pragma: no cover


def test_the_hint_names_twins_together_and_never_ranks_them() -> None:
    session = _session_at_twins("block-2p")
    hand = session.hand
    assert hand is not None
    legal = hand.legal_moves()
    groups = mirror_groups(hand, legal)
    values = session.hint_values()
    assert len(values) == len(groups)
    text = session.hint()
    best = max(values, key=lambda v: v.value)
    if best.same:
        assert " = ".join([best.notation, *(n for _, n in best.same)]) in text
    for v in values:
        for _, other in v.same:
            assert f"better than {other}" not in text and f"as good as {other}" not in text
    # the moves listed to the person: one a group
    assert session.listed_moves() == [g[0] for g in groups]


def test_the_kernel_reads_the_arm_fields_the_reference_names() -> None:
    """The one definition: the kernel's ``twins`` compares exactly the arm
    fields of ``mirror.ARM_FIELDS`` (a field added to one and not the other
    would make the cores group differently only where it differs)."""
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "native/src/kernel/hand.rs").read_text()
    body = source[source.index("fn twins("):]
    body = body[:body.index("\n    }\n")]
    compared = set(re.findall(r"self\.(arm_\w+)\[a\] == self\.\1\[b\]", body))
    assert compared == set(ARM_FIELDS)
    assert "cross(a) == cross(b)" in body and "self.extra == Some(a)" in body


@pytest.mark.parametrize("name", ["mexican-train", "chicken-foot"])
def test_train_layouts_group_no_moves(name: str) -> None:
    """A train belongs to a seat, carries a marker and may owe covers: two
    trains showing the same pip are not twins, and no move of a train
    layout is one with another (the search plays them move by move)."""
    rules = compile_rules(load_variant(name))
    plays = 0
    for seed in range(3):
        hand = Match(rules, seed=seed).new_hand()
        rng = random.Random(seed)
        while not hand.over:
            legal = hand.legal_moves()
            if not legal:
                break
            assert mirror_of(hand, legal) == list(range(len(legal)))
            plays += len(legal) > 1
            hand.apply(rng.choice(legal))
    assert plays > 0
