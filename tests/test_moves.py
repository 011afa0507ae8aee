"""Moves as ints and as values: the layout helpers, the Move value, Outcome,
and the notation round trip in random positions of every built-in variant."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_budget import examples
from support import compiled

from bones.engine.hand import Hand
from bones.engine.match import Match
from bones.engine.moves import (
    ARM_MASK,
    DRAW,
    DRAW_MOVE,
    NO_ARM,
    PASS,
    PASS_MOVE,
    Move,
    NotationError,
    Outcome,
    arm_index,
    arm_name,
    arm_of,
    is_flipped,
    is_tile_move,
    lead_code,
    play_code,
    tile_of,
)
from bones.engine.notation import format_move, move_code, move_value, parse_move
from bones.lang.load import builtin_names, load_variant


def test_layout_helpers_invert_each_other():
    for tile in (0, 1, 27, 54):
        for arm in (0, 1, 2, 5, NO_ARM):
            code = play_code(tile, arm)
            assert (tile_of(code), arm_of(code), is_flipped(code)) == (tile, arm, False)
            assert is_tile_move(code)
        for flip in (False, True):
            code = lead_code(tile, flip)
            assert (tile_of(code), arm_of(code), is_flipped(code)) == (tile, 0, flip)
    assert not is_tile_move(DRAW) and not is_tile_move(PASS) and DRAW != PASS
    assert NO_ARM == ARM_MASK


def test_arm_names_round_trip():
    for arm in range(NO_ARM):
        assert arm_index(arm_name(arm)) == arm
        assert arm_index(arm_name(arm).lower()) == arm
    for bad in ("", "X", "W2", "N0", "N01", "N32", "E1"):
        with pytest.raises(NotationError):
            arm_index(bad)


@pytest.mark.parametrize("text, value", [
    ("6-4@E", Move("play", (6, 4), 1)),
    (" 6|4@e ", Move("play", (6, 4), 1)),
    ("2-1@N2", Move("play", (2, 1), 4)),
    ("0-0", Move("play", (0, 0))),
    ("DRAW", DRAW_MOVE),
    ("pass", PASS_MOVE),
])
def test_move_parse_str_and_repr(text, value):
    move = Move.parse(text)
    assert move == value
    assert Move.parse(str(move)) == move
    assert repr(move) == f"Move.parse({str(move)!r})"
    assert eval(repr(move), {"Move": Move}) == move


@pytest.mark.parametrize("text", ["", "6", "6-", "6-4@", "6-4@X", "six-four", "6-4@W1"])
def test_move_parse_refuses_what_is_not_a_move(text):
    with pytest.raises(NotationError):
        Move.parse(text)


def test_move_value_refuses_inconsistent_fields():
    with pytest.raises(ValueError):
        Move("play")
    with pytest.raises(ValueError):
        Move("draw", (1, 2))
    with pytest.raises(ValueError):
        Move("jump")


def test_outcome_names():
    assert [o.label for o in Outcome] == ["playing", "domino", "blocked", "target"]
    assert all(Outcome.parse(o.label) is o for o in Outcome)
    assert Outcome.DOMINO == 1 and Outcome(2) is Outcome.BLOCKED
    with pytest.raises(ValueError, match="not an outcome"):
        Outcome.parse("won")


# ---------------------------------------------------- the round trip


def _tables() -> list[tuple[str, int]]:
    return [(name, players) for name in builtin_names()
            for players in load_variant(name).players.counts]


TABLES = _tables()


def _check_round_trip(hand: Hand) -> None:
    legal = hand.legal_moves()
    for move in legal:
        short = format_move(hand, move)
        assert parse_move(hand, short) == move, f"{short!r} does not parse back"
        full = format_move(hand, move, bare=False)
        if hand.placed and move >= 0:
            assert "@" in full, f"{full!r} names no arm"
        assert parse_move(hand, full) == move, f"{full!r} does not parse back"
        value = move_value(hand, move)
        assert move_code(hand, value) == move
        assert move_code(hand, str(value)) == move
        assert Move.parse(str(value)) == value
        assert eval(repr(value), {"Move": Move}) == value
    if not hand.placed:
        # the lead's orientation is free: both orders name a legal lead
        for move in legal:
            flipped = move ^ 1 if move >= 0 else move
            assert hand.is_legal(parse_move(hand, format_move(hand, flipped)))


@pytest.mark.parametrize("table", TABLES, ids=[f"{n}-{p}" for n, p in TABLES])
@given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
@examples(5)
def test_every_legal_move_formats_and_parses_back(table, seed, choices):
    rng = random.Random(choices)
    match = Match(compiled(*table), seed=seed)
    hands = 0
    while not match.game_over and hands < 2:
        hand = match.new_hand()
        hands += 1
        while not hand.over:
            _check_round_trip(hand)
            hand.apply(rng.choice(hand.legal_moves()))
        match.finish_hand(hand)


def test_every_builtin_is_covered():
    assert {name for name, _ in TABLES} == set(builtin_names())
