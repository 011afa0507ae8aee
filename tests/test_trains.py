"""Train layouts (issue 35, docs/trains.md): the Python core's TrainHand, the
notation's targets, the alternatives of docs/rules.md "Train layouts", and
what the native core plays (simulations) and where the Python hand stays."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_budget import examples

from bones.engine import core
from bones.engine.flat import flatten
from bones.engine.match import Match
from bones.engine.moves import (
    DRAW,
    PASS,
    TILE_SHIFT,
    Move,
    NotationError,
    arm_index,
    arm_name,
    lead_code,
)
from bones.engine.notation import format_move, move_code, move_value, parse_move
from bones.engine.rng import Rng
from bones.engine.trains import TrainHand
from bones.lang import spec
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant

TRAINS = ("mexican-train", "chicken-foot")


def _variant(name: str, changes: dict[str, Any] | None = None) -> spec.Variant:
    data = load_variant(name).model_dump()
    for path, value in (changes or {}).items():
        node = data
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return spec.Variant.model_validate(data)


def _rules(name: str, players: int, changes: dict[str, Any] | None = None) -> Any:
    return compile_rules(_variant(name, changes), players)


def _hand(rules: Any, deal: list[list[str]], boneyard: tuple[str, ...] | list[str] = (),
          round_number: int = 1) -> TrainHand:
    """A round dealt as given; the holder of the round's double leads."""
    from bones.engine.trains import train_deal

    ts = rules.tiles
    hands = [ts.mask_of([ts.parse(t) for t in seat]) for seat in deal]
    return TrainHand.from_deal(rules, train_deal(rules, hands, [ts.parse(t) for t in boneyard],
                                                 round_number))


def _play(hand: TrainHand, *moves: str) -> None:
    for text in moves:
        hand.play(parse_move(hand, text))


def _texts(hand: TrainHand) -> list[str]:
    return sorted(format_move(hand, m, bare=False) for m in hand.legal_moves())


# ------------------------------------------------------------ the built-ins


def test_the_train_built_ins_are_listed_built_ins():
    assert set(TRAINS) <= set(builtin_names())
    for name in TRAINS:
        assert load_variant(name).name == name


@pytest.mark.parametrize("name, hubs", [("mexican-train", list(range(12, -1, -1))),
                                        ("chicken-foot", list(range(9, -1, -1)))])
def test_a_match_is_one_round_per_hub_double_and_the_lowest_total_wins(name, hubs):
    rules = compile_rules(load_variant(name), 3)
    match = Match(rules, seed=5)
    rng = Rng(5)
    seen = []
    while not match.game_over:
        hand = match.new_hand()
        seen.append(rules.tiles.low[hand.lead_tile])
        assert hand.hands[hand.leader] >> hand.lead_tile & 1  # the holder places it
        while not hand.over:
            hand.apply(rng.choice(hand.legal_moves()))
        match.finish_hand(hand)
    assert seen == hubs
    low = min(match.scores)
    assert match.winner == (match.scores.index(low) if match.scores.count(low) == 1 else -1)
    assert match.scores == [sum(h.settlement[s] for h in match.history) for s in range(3)]


# ------------------------------------------------------------ properties

MEXICAN_OPTIONS = st.fixed_dictionaries({}, optional={
    "layout.trains.first_turn.tiles": st.sampled_from(["one", "many"]),
    "layout.trains.first_turn.may_stop": st.booleans(),
    "layout.trains.first_turn.public": st.booleans(),
    "layout.trains.public": st.integers(0, 2),
    "layout.trains.public_needs_own": st.booleans(),
    "layout.trains.marker_off": st.sampled_from(["own_train", "anywhere"]),
    "layout.trains.doubles.by": st.sampled_from(["same_player", "same_player_only",
                                                 "one_more_anywhere", "next_players"]),
    "layout.trains.doubles.cover": st.integers(0, 1),
    "layout.trains.doubles.release": st.sampled_from(["never", "no_cover_left"]),
    "settlement.domino.out_on_double": st.sampled_from([1, 2]),
    "layout.trains.hub.top": st.integers(3, 12),
    "layout.trains.hub.placing_ends_turn": st.booleans(),
    "layout.trains.hub.comes": st.sampled_from(["dealt", "set_aside"]),
    "layout.trains.turn_tiles": st.sampled_from(["one", "all_that_fit"]),
    "drawing.must_play_drawn": st.booleans(),
    "settlement.domino.per_marker": st.sampled_from([0, 10]),
})
CHICKEN_OPTIONS = st.fixed_dictionaries({}, optional={
    "layout.trains.hub.tiles": st.integers(1, 6),
    "layout.trains.doubles.cover": st.integers(0, 3),
    "layout.trains.doubles.release": st.sampled_from(["never", "no_cover_left"]),
    "layout.trains.hub.placing_ends_turn": st.booleans(),
    "drawing.must_play_drawn": st.booleans(),
    "settlement.domino.blanks": st.sampled_from([None, 25]),
    "layout.trains.hub.comes": st.sampled_from(["dealt", "set_aside"]),
    "layout.trains.turn_tiles": st.sampled_from(["one", "all_that_fit"]),
    "layout.trains.doubles.first_spinner": st.booleans(),
})


@st.composite
def _tables(draw: Any) -> tuple[Any, int]:
    name = draw(st.sampled_from(TRAINS))
    changes = draw(MEXICAN_OPTIONS if name == "mexican-train" else CHICKEN_OPTIONS)
    if name == "mexican-train" and changes.get("layout.trains.public", 1) == 0:
        changes["layout.trains.public_needs_own"] = False
    if not changes.get("layout.trains.doubles.cover", 1):
        changes["layout.trains.doubles.release"] = "never"
    if draw(st.booleans()):
        changes["drawing"] = {"kind": "until_playable", "must_play_drawn": True}
    players = draw(st.integers(2, 8))
    rules = _rules(name, players, changes)
    return rules, draw(st.integers(0, 2**32 - 1))


@examples(60)
@given(_tables(), st.integers(1, 13))
def test_every_legal_move_applies_tiles_are_conserved_and_a_round_ends(table, round_number):
    rules, seed = table
    round_number = min(round_number, rules.trains.rounds)
    match = Match(rules, seed=seed)
    match.first_round = round_number
    hand = match.new_hand()
    assert isinstance(hand, TrainHand)
    full = rules.tiles.full
    rng = Rng(seed)
    for _ in range(3000):
        if hand.over:
            break
        legal = hand.legal_moves()
        assert legal and len(set(legal)) == len(legal)
        for move in legal:
            assert hand.is_legal(move)
            # the notation names every legal move, and parses it back
            assert parse_move(hand, format_move(hand, move)) == move
            assert move_code(hand, Move.parse(str(move_value(hand, move)))) == move
            trial = hand.copy()
            trial.apply(move)
        move = rng.choice(legal)
        before = hand.copy()
        hand.apply(move)
        assert before.hands != hand.hands or before.bone_pos != hand.bone_pos \
            or move == PASS or before.turn != hand.turn or before.marked != hand.marked
        held = 0
        for mask in hand.hands:
            assert not held & mask
            held |= mask
        rest = set(hand.boneyard[hand.bone_pos:])
        assert not held & hand.on_table
        assert held | hand.on_table | sum(1 << t for t in rest) == full
        assert held.bit_count() + hand.on_table.bit_count() + len(rest) == rules.tiles.size
    assert hand.over, "the round did not end"
    charges = hand.settlement
    assert charges is not None
    factor = 1
    if hand.state == 1 and rules.tiles.is_double[hand.log[-1][1] >> TILE_SHIFT]:
        factor = rules.trains.out_on_double  # going out on a double (RB)
    for seat in range(rules.players):
        own = hand.pips_left(seat) + (rules.trains.marker_penalty if hand.marked[seat] else 0)
        assert charges[seat] == (0 if seat == hand.domino_seat else own * factor)
    if hand.state == 2:  # blocked: nobody could lay a tile, every train counted open
        assert not hand.drawable


# ------------------------------------------------------------ notation


def test_the_targets_parse_and_print_as_documented():
    for text, canonical in (("12-5@t0", "12-5@T0"), ("3-8@m", "3-8@M"), ("9-3@h", "9-3@H"),
                            ("3-1@F", "3-1@F"), ("5-2@a5", "5-2@A5"), ("1-2@M2", "1-2@M2"),
                            ("1-2@M1", "1-2@M"), ("2-1@e", "2-1@E"), ("6-4@N2", "6-4@N2")):
        assert str(Move.parse(text)) == canonical
    assert [arm_name(arm_index(n)) for n in ("T0", "T7", "M", "H", "F", "A1", "A40")] == \
        ["T0", "T7", "M", "H", "F", "A1", "A40"]
    for bad in ("T01", "A0", "H1", "T", "A", "M0", "X"):
        with pytest.raises(NotationError):
            arm_index(bad)


def test_a_target_the_layout_lacks_is_a_notation_error():
    hand = _hand(_rules("mexican-train", 4), [["12-12", "12-5"], ["1-2"], ["3-4"], ["5-6"]])
    _play(hand, "12-12")
    for text in ("12-5@T5", "12-5@H", "12-5@F", "12-5@A1", "12-5@M2", "12-5@W"):
        with pytest.raises(NotationError):
            parse_move(hand, text)
    assert format_move(hand, parse_move(hand, "5-12@T0")) == "12-5"  # one placement: bare
    assert str(move_value(hand, parse_move(hand, "12-5"))) == "12-5@T0"  # records name it
    cf = _hand(_rules("chicken-foot", 2), [["9-9", "9-1"], ["9-3"]])
    _play(cf, "9-9")
    with pytest.raises(NotationError):
        parse_move(cf, "9-3@M")
    sniff = Match(compile_rules(load_variant("sniff")), seed=1).new_hand()
    with pytest.raises(NotationError):
        parse_move(sniff, "6-4@T0")


# ------------------------------------------------------------ the alternatives


def test_first_turn_of_one_tile_and_many():
    deal = [["12-12", "12-5", "5-3", "3-6"], ["1-2"]]
    many = _hand(_rules("mexican-train", 2), deal, ["0-1"])
    _play(many, "12-12", "12-5@T0")
    assert many.turn == 0 and "pass" in _texts(many)
    one = _hand(_rules("mexican-train", 2, {"layout.trains.first_turn.tiles": "one"}), deal,
                ["0-1"])
    _play(one, "12-12", "12-5@T0")
    assert one.turn == 1


def test_a_first_turn_that_may_not_stop_offers_no_pass_while_a_tile_fits():
    deal = [["12-12", "12-5", "5-3", "3-6"], ["1-2"]]
    hand = _hand(_rules("mexican-train", 2, {"layout.trains.first_turn.may_stop": False}), deal)
    _play(hand, "12-12", "12-5@T0")
    assert _texts(hand) == ["5-3@T0"]
    _play(hand, "5-3@T0", "3-6@T0")
    assert hand.over  # went out


def test_the_first_turn_may_start_the_public_train_when_allowed():
    deal = [["12-12", "12-5", "12-4"], ["1-2"]]
    own_only = _hand(_rules("mexican-train", 2), deal)
    _play(own_only, "12-12")
    assert _texts(own_only) == ["12-4@T0", "12-5@T0"]
    public = _hand(_rules("mexican-train", 2, {"layout.trains.first_turn.public": True}), deal)
    _play(public, "12-12")
    assert _texts(public) == ["12-4@M", "12-4@T0", "12-5@M", "12-5@T0"]


def test_public_trains_private_dual_and_only_with_ones_own_train():
    deal = [["12-12", "12-5", "7-8"], ["12-1", "12-2", "3-4"]]
    opts = {"layout.trains.first_turn.tiles": "one"}
    for public, targets in ((0, ["12-1@T1", "12-2@T1"]),
                            (2, ["12-1@M", "12-1@M2", "12-1@T1", "12-2@M", "12-2@M2",
                                 "12-2@T1"])):
        hand = _hand(_rules("mexican-train", 2, {**opts, "layout.trains.public": public}), deal)
        _play(hand, "12-12", "12-5@T0")
        assert _texts(hand) == targets
    # seat 0 starts M with [12-5]; seat 1's [5-6] fits it, but his own train is not started
    deal = [["12-12", "12-4", "12-5", "7-7"], ["5-6", "3-4", "0-1"]]
    for needs_own, legal in ((False, ["5-6@M"]), (True, ["draw"])):
        hand = _hand(_rules("mexican-train", 2, {**opts, "layout.trains.public_needs_own":
                                                 needs_own}), deal, ["0-2", "0-3", "1-1"])
        _play(hand, "12-12")
        if needs_own:  # nor may seat 0 start M before his own train
            assert _texts(hand) == ["12-4@T0", "12-5@T0"]
        _play(hand, "12-4@T0", "draw", "pass", "12-5@M")
        assert _texts(hand) == legal


@pytest.mark.parametrize("off, marked", [("own_train", [True, False]),
                                         ("anywhere", [False, False])])
def test_markers_go_on_at_a_pass_open_the_train_and_come_off_by_the_rule(off, marked):
    hand = _hand(_rules("mexican-train", 2, {"layout.trains.marker_off": off,
                                              "layout.trains.first_turn.tiles": "one"}),
                 [["12-12", "12-1", "0-9"], ["12-3", "1-2", "8-8"]], ["4-6", "12-7", "10-11"])
    _play(hand, "12-12", "12-1@T0", "12-3@T1")
    assert _texts(hand) == ["draw"]  # [0-9] fits neither T0's 1 nor M's 12; T1 is closed
    _play(hand, "draw", "pass")  # [4-6] does not fit either: the marker goes on T0
    assert hand.marked == [True, False]
    assert "1-2@T0" in _texts(hand)  # seat 1 may play on seat 0's marked train
    _play(hand, "1-2@T0")
    assert hand.marked == [True, False]  # a play by another seat leaves the marker
    _play(hand, "draw")  # seat 0 draws [12-7]: it fits M only, and must be played
    assert _texts(hand) == ["12-7@M"]
    _play(hand, "12-7@M")
    assert hand.marked == marked


def test_the_drawn_tile_may_be_kept_when_the_variant_says_so():
    deal = [["12-12", "12-1", "7-7"], ["5-6", "3-4"]]
    kept = _hand(_rules("mexican-train", 2, {"drawing.must_play_drawn": False,
                                              "layout.trains.first_turn.tiles": "one"}),
                 deal, ["12-2", "0-0"])
    _play(kept, "12-12", "12-1@T0", "draw")
    assert "pass" in _texts(kept) and "12-2@T1" in _texts(kept)
    forced = _hand(_rules("mexican-train", 2, {"layout.trains.first_turn.tiles": "one"}),
                   deal, ["12-2", "0-0"])
    _play(forced, "12-12", "12-1@T0", "draw")
    assert "pass" not in _texts(forced)


def test_draw_until_playable_draws_on_after_a_miss():
    hand = _hand(_rules("mexican-train", 2, {"drawing": {"kind": "until_playable"},
                                              "layout.trains.first_turn.tiles": "one"}),
                 [["12-12", "12-1", "7-7"], ["5-6", "3-4"]], ["0-0", "8-9", "12-2", "10-11"])
    _play(hand, "12-12", "12-1@T0", "draw", "draw")
    assert _texts(hand) == ["draw"]
    _play(hand, "draw")
    assert "12-2@T1" in _texts(hand)


def test_next_players_cover_a_double_instead_of_its_player():
    rules = _rules("mexican-train", 2, {"layout.trains.doubles.by": "next_players",
                                         "layout.trains.first_turn.tiles": "one"})
    hand = _hand(rules, [["12-12", "12-6", "6-6", "6-1"], ["12-2", "6-3", "2-5"]], ["0-0"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
    assert hand.turn == 1 and hand.needs() and _texts(hand) == ["6-3@T0"]


def test_doubles_that_are_owed_nothing():
    rules = _rules("mexican-train", 2, {"layout.trains.doubles.cover": 0,
                                         "layout.trains.first_turn.tiles": "one"})
    hand = _hand(rules, [["12-12", "12-6", "6-6", "6-1"], ["12-2", "6-3", "2-5"]], ["0-0"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
    assert hand.turn == 1 and not hand.needs() and "2-5@T1" in _texts(hand)


@pytest.mark.parametrize("name", TRAINS)
def test_a_hub_set_aside_goes_to_a_first_player_by_lot_then_rotation(name):
    """BH's note, WP, GRV (hub.comes: set_aside): nobody is dealt the hub;
    the first player, by lot in round 1 and the next seat each round after,
    places it; the deal is otherwise whole (every tile once)."""
    players = 3
    rules = _rules(name, players, {"layout.trains.hub.comes": "set_aside"})
    ts = rules.tiles
    lots = set()
    for seed in range(12):
        match = Match(rules, seed=seed)
        leaders = []
        for _ in range(4):
            hand = match.new_hand()
            hub = hand.lead_tile
            assert ts.low[hub] == ts.high[hub] == rules.trains.hub_pip(len(leaders) + 1)
            assert [h >> hub & 1 for h in hand.hands] == [int(s == hand.leader)
                                                          for s in range(players)]
            sizes = [bin(h).count("1") for h in hand.hands]
            assert sizes == [rules.hand_size + (s == hand.leader) for s in range(players)]
            every = sorted([t for h in hand.hands for t in ts.tiles_of(h)] + list(hand.boneyard))
            assert every == list(range(ts.size))
            assert hand.turn == hand.leader and len(hand.legal_moves()) == 1  # he places it
            leaders.append(hand.leader)
            rng = Rng(seed)
            while not hand.over:
                hand.apply(rng.choice(hand.legal_moves()))
            match.finish_hand(hand)
        lot = leaders[0]
        assert leaders == [(lot + r) % players for r in range(4)]
        lots.add(lot)
    assert lots == set(range(players))  # the lot falls on every seat over twelve seeds


def test_chicken_foots_first_player_by_the_heaviest_tile_drawn():
    """WPC: the centre double is placed before play and, in round 1, the
    player who draws the heaviest tile plays first against it: a lot, every
    seat equally likely (hub.comes: set_aside, placing_ends_turn: false, so
    the drawn first player places it and plays on)."""
    rules = _rules("chicken-foot", 3, {"layout.trains.hub.comes": "set_aside",
                                        "layout.trains.hub.placing_ends_turn": False})
    for seed in range(6):
        hand = Match(rules, seed=seed).new_hand()
        first = hand.leader
        hand.apply(hand.legal_moves()[0])  # the hub, by the first player
        assert hand.turn == first and hand.needs() == {Move.parse("9-1@H").arm: 4}
        legal = hand.legal_moves()
        assert legal == [DRAW] or all(format_move(hand, m, bare=False).endswith("@H")
                                      for m in legal)


def test_a_double_only_its_player_covers_binds_nobody_once_he_fails():
    """CR's "follow up" (doubles.by: same_player_only): the player who lays a
    double covers it if he can; if he cannot, nobody else owes it a cover."""
    deal = [["12-12", "12-6", "6-6", "0-1"], ["12-2", "6-3", "2-5"]]
    for by, after in (("same_player", ["6-3@T0"]), ("same_player_only", ["2-5@T1", "6-3@T0"])):
        rules = _rules("mexican-train", 2, {"layout.trains.doubles.by": by,
                                             "layout.trains.first_turn.tiles": "one"})
        hand = _hand(rules, deal, ["0-0", "8-9"])
        _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
        assert hand.turn == 0 and _texts(hand) == ["draw"]  # he must try to cover it
        _play(hand, "draw", "pass")
        assert hand.marked[0] and hand.turn == 1
        assert _texts(hand) == sorted(after), by
        assert bool(hand.needs()) == (by == "same_player")


def test_one_more_tile_anywhere_after_a_double_then_it_binds_the_next_players():
    """BH, WP (doubles.by: one_more_anywhere): after his double a player lays
    one more tile anywhere he may (the cover or not); a double still bare
    when his turn ends binds every player in turn."""
    rules = _rules("mexican-train", 2, {"layout.trains.doubles.by": "one_more_anywhere",
                                         "layout.trains.first_turn.tiles": "one"})
    deal = [["12-12", "12-6", "6-6", "12-4", "6-1", "0-1"], ["12-2", "6-3", "2-5"]]
    hand = _hand(rules, deal, ["0-0"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
    assert hand.turn == 0 and hand.extra and _texts(hand) == ["12-4@M", "6-1@T0"]
    _play(hand, "12-4@M")
    assert hand.turn == 1 and _texts(hand) == ["6-3@T0"] and hand.needs() == {
        Move.parse("6-3@T0").arm: 1}
    # the cover as his one more tile ends the turn with nothing owed
    hand = _hand(rules, deal, ["0-0"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0", "6-1@T0")
    assert hand.turn == 1 and not hand.needs() and "2-5@T1" in _texts(hand)
    # nothing to lay: one draw, then a pass that puts his marker on
    hand = _hand(rules, [["12-12", "12-6", "6-6", "0-1"], ["12-2", "6-3", "2-5"]], ["8-9"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
    assert _texts(hand) == ["draw"]
    _play(hand, "draw", "pass")
    assert hand.marked[0] and hand.turn == 1 and _texts(hand) == ["6-3@T0"]


def test_a_double_is_released_once_no_tile_could_cover_it():
    """doubles.release: no_cover_left: a double no tile left in a hand or the
    boneyard can cover binds nobody (the 6s other than [6-6] and [12-6] are
    out of play here), and a chicken foot nobody can fill is abandoned."""
    deal = [["12-12", "12-6", "6-6", "0-1"], ["12-2", "2-5", "3-4"]]
    never = _rules("mexican-train", 2, {"layout.trains.first_turn.tiles": "one"})
    hand = _hand(never, deal, ["0-0"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
    assert hand.turn == 0 and _texts(hand) == ["draw"]
    released = _rules("mexican-train", 2, {"layout.trains.first_turn.tiles": "one",
                                            "layout.trains.doubles.release": "no_cover_left"})
    hand = _hand(released, deal, ["0-0"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
    assert hand.turn == 1 and not hand.needs() and not hand.marked[0]
    assert _texts(hand) == ["2-5@T1"]
    # a double left bare binds until its last possible cover leaves play
    nexts = _rules("mexican-train", 2, {"layout.trains.first_turn.tiles": "one",
                                         "layout.trains.doubles.by": "next_players",
                                         "layout.trains.doubles.release": "no_cover_left"})
    hand = _hand(nexts, [["12-12", "12-6", "6-6", "0-1"], ["12-2", "2-5", "3-4"]], ["6-1", "0-0"])
    _play(hand, "12-12", "12-6@T0", "12-2@T1", "6-6@T0")
    assert hand.needs() and _texts(hand) == ["draw"]  # [6-1] is still in the boneyard
    _play(hand, "draw", "6-1@T0")
    assert not hand.needs()
    for release, texts in (("never", ["draw"]), ("no_cover_left", ["0-1@A1"])):
        foot = _rules("chicken-foot", 2, {"layout.trains.hub.tiles": 2,
                                           "layout.trains.doubles.release": release})
        hand = _hand(foot, [["9-9", "9-3", "0-1", "1-5"], ["9-0", "3-3", "2-4"]], ["5-5"])
        _play(hand, "9-9", "9-0@H", "9-3@H", "3-3@A2")
        assert hand.turn == 0 and _texts(hand) == texts, release
        assert bool(hand.needs()) == (release == "never")


def test_as_many_tiles_as_fit_in_every_turn():
    """OP1 (turn_tiles: all_that_fit): a turn goes on while a tile can be laid
    where the mover may play (here the centre, then the foot), and ends by
    itself; a tile drawn and laid ends it."""
    deal = [["9-9", "9-4", "4-4", "0-0"], ["9-1", "9-2", "9-3", "4-5", "4-6", "4-7", "1-8"]]
    one = _rules("chicken-foot", 2)
    hand = _hand(one, deal, ["2-2"])
    _play(hand, "9-9", "9-1@H")
    assert hand.turn == 0
    many = _rules("chicken-foot", 2, {"layout.trains.turn_tiles": "all_that_fit"})
    hand = _hand(many, deal, ["2-2", "8-0"])
    _play(hand, "9-9", "9-1@H")
    assert hand.turn == 1 and PASS not in hand.legal_moves()  # he may not stop
    _play(hand, "9-2@H", "9-3@H")
    assert hand.turn == 0 and hand.needs() == {Move.parse("9-4@H").arm: 1}  # no 9 left: it ends
    _play(hand, "9-4@H", "4-4@A4")  # the centre full, then his double on A4; [0-0] fits no toe
    assert hand.turn == 1 and _texts(hand) == ["4-5@F", "4-6@F", "4-7@F"]
    _play(hand, "4-5@F", "4-6@F", "4-7@F")  # the three toes, then on while a tile fits
    assert hand.turn == 1 and _texts(hand) == ["1-8@A1"]
    _play(hand, "1-8@A1")
    assert hand.over and hand.domino_seat == 1


def test_the_first_double_after_the_centre_is_a_spinner():
    """HTC (doubles.first_spinner): the first double laid on an arm owes
    nothing; its arm goes on through it and two arms start from its sides;
    the next double makes a chicken foot. The tables draw the new rows."""
    from bones.seat.trainlayout import train_table

    rules = _rules("chicken-foot", 2, {"layout.trains.hub.tiles": 2,
                                        "layout.trains.doubles.first_spinner": True})
    deal = [["9-9", "9-3", "3-1", "3-5", "0-0"], ["9-0", "3-3", "3-4", "5-5", "1-2"]]
    hand = _hand(rules, deal, ["8-8"])
    codes = []
    for text in ("9-9", "9-0@H", "9-3@H", "3-3@A2"):
        codes.append(parse_move(hand, text))
        hand.play(codes[-1])
    assert hand.spun and hand.turn == 0 and not hand.needs()
    assert {arm_name(t): p for t, p in hand.ends().items()} == {"A1": 0, "A2": 3, "A3": 3,
                                                                 "A4": 3}
    assert _texts(hand) == sorted(["0-0@A1", "3-1@A2", "3-1@A3", "3-1@A4", "3-5@A2", "3-5@A3",
                                   "3-5@A4"])
    for text in ("3-5@A3", "5-5@A3"):
        codes.append(parse_move(hand, text))
        hand.play(codes[-1])
    assert {arm_name(t): n for t, n in hand.needs().items()} == {"F": 3}  # a foot now
    table = train_table(rules, hand_deal(rules, deal, ["8-8"]), codes)
    assert [(r.name, r.source, len(r.tiles)) for r in table.rows] == [
        ("A1", "hub", 1), ("A2", "hub", 2), ("A3", "A2", 2), ("A4", "A2", 0)]
    assert [f.row for f in table.feet] == ["A3"]
    plain = _hand(_rules("chicken-foot", 2, {"layout.trains.hub.tiles": 2}), deal, ["8-8"])
    _play(plain, "9-9", "9-0@H", "9-3@H", "3-3@A2")
    assert {arm_name(t): n for t, n in plain.needs().items()} == {"F": 3}


def hand_deal(rules: Any, deal: list[list[str]], boneyard: list[str]) -> Any:
    from bones.engine.trains import train_deal

    ts = rules.tiles
    return train_deal(rules, [ts.mask_of([ts.parse(t) for t in seat]) for seat in deal],
                      [ts.parse(t) for t in boneyard], 1)


def test_the_tables_follow_a_foot_released_after_its_first_toe():
    """The rows the terminal and the browser draw (train_table): a foot
    released with toes still owed (its last possible cover laid as its first
    toe) leaves no foot behind, and the toe's row still names its source."""
    from bones.engine.trains import train_deal
    from bones.seat.trainlayout import train_table

    rules = _rules("chicken-foot", 2, {"layout.trains.hub.tiles": 2,
                                        "layout.trains.doubles.release": "no_cover_left"})
    ts = rules.tiles
    hands = [ts.mask_of([ts.parse(t) for t in seat])
             for seat in (["9-9", "9-3", "3-1", "5-6"], ["9-0", "3-3", "0-4", "1-2"])]
    deal = train_deal(rules, hands, [ts.parse("8-8")], 1)
    hand = TrainHand.from_deal(rules, deal)
    codes = []
    for text in ("9-9", "9-0@H", "9-3@H", "3-3@A2"):
        codes.append(parse_move(hand, text))
        hand.play(codes[-1])
    table = train_table(rules, deal, codes)
    assert [f.row for f in table.feet] == ["A2"] and table.needs == {"F": 3}
    codes.append(parse_move(hand, "3-1@F"))
    hand.play(codes[-1])
    assert not hand.owed and hand.turn == 1
    table = train_table(rules, deal, codes)
    assert table.feet == [] and table.needs == {}
    assert [(r.name, r.source, r.open, len(r.tiles)) for r in table.rows] == [
        ("A1", "hub", 0, 1), ("A2", "hub", -1, 2), ("A3", "A2", 1, 1)]


def test_going_out_on_a_double_charges_the_others_double():
    """RB (settlement.domino.out_on_double: 2): the others' charges are
    multiplied when the last tile laid is a double, and only then."""
    for last, out, want in (("6-6@T0", 2, [0, 14]), ("6-6@T0", 1, [0, 7]), ("6-1@T0", 2, [0, 7])):
        rules = _rules("mexican-train", 2, {"layout.trains.first_turn.tiles": "one",
                                             "settlement.domino.out_on_double": out})
        tile = last.split("@")[0]
        hand = _hand(rules, [["12-12", "12-6", tile], ["12-2", "3-4"]], ["0-0"])
        _play(hand, "12-12", "12-6@T0", "12-2@T1", last)
        assert hand.over and hand.settlement == want, (last, out)


@pytest.mark.parametrize("changes, phrase", [
    ({"layout.trains.hub.comes": "set_aside"}, "set aside before the deal"),
    ({"layout.trains.doubles.first_spinner": True}, "is a spinner"),
    ({"layout.trains.doubles.by": "same_player_only"}, "nobody else owes it a cover"),
    ({"layout.trains.doubles.by": "one_more_anywhere"}, "lays one more tile, anywhere"),
    ({"layout.trains.doubles.release": "no_cover_left"}, "once no tile that could cover it"),
    ({"layout.trains.turn_tiles": "all_that_fit"}, "goes on laying tiles"),
    ({"settlement.domino.out_on_double": 2}, "multiplied by 2"),
])
def test_bones_show_says_each_alternative(changes, phrase):
    from bones.lang.describe import describe

    name = "chicken-foot" if "layout.trains.doubles.first_spinner" in changes else "mexican-train"
    assert phrase not in describe(_variant(name))
    assert phrase in describe(_variant(name, changes))


def test_tile_values_and_the_marker_penalty():
    rules = _rules("chicken-foot", 2, {"settlement.domino.blanks": 25,
                                        "settlement.domino.double_blank": 0})
    assert [rules.trains.values[rules.tiles.parse(t)] for t in ("0-0", "0-4", "3-4", "9-9")] == \
        [0, 25, 7, 18]
    marked = _rules("mexican-train", 2, {"settlement.domino.per_marker": 10,
                                          "layout.trains.first_turn.tiles": "one"})
    hand = _hand(marked, [["12-12", "12-1", "1-2"], ["3-4", "0-0"]])
    _play(hand, "12-12", "12-1@T0", "pass", "1-2@T0")
    assert hand.over and hand.settlement == [0, 7 + 50 + 10]


def test_a_losing_total_ends_the_match():
    rules = _rules("mexican-train", 2, {"match.lose_at": 60,
                                         "layout.trains.first_turn.tiles": "one"})
    match = Match(rules, seed=3)
    rng = Rng(3)
    while not match.game_over:
        hand = match.new_hand()
        while not hand.over:
            hand.apply(rng.choice(hand.legal_moves()))
        match.finish_hand(hand)
    assert max(match.scores) >= 60 and len(match.history) < 13
    assert match.winner == match.scores.index(min(match.scores))


def test_a_shorter_match_from_a_lower_hub():
    rules = _rules("chicken-foot", 2, {"layout.trains.hub.top": 4, "match.count": 3})
    assert (rules.trains.top, rules.trains.rounds) == (4, 3)


# ------------------------------------------------------------ the variant's checks


@pytest.mark.parametrize("change, key", [
    ({"settlement.blocked": {"kind": "nobody"}}, "settlement.blocked.kind"),
    ({"match": {"kind": "hands", "count": 2}}, "match.kind"),
    ({"layout.trains.personal": False}, "layout.trains.public"),
    ({"layout.trains.doubles.covers": "new_arms"}, "layout.trains.doubles.by"),
    ({"layout.trains.hub.top": 15}, "layout.trains.hub.top"),
    ({"drawing": {"kind": "none"}}, "drawing.kind"),
    ({"match": {"kind": "rounds", "count": 14}}, "match.count"),
    ({"bonuses.round_pass": 2}, "bonuses.round_pass"),
    ({"bonuses.blocked_win": 10}, "bonuses.blocked_win"),
    ({"bonuses.last_tile": {"tile": "0-0", "points": 50}}, "bonuses.last_tile"),
    ({"layout.trains.doubles.cover": 0, "layout.trains.doubles.release": "no_cover_left"},
     "layout.trains.doubles.release"),
    ({"settlement.blocked.out_on_double": 2}, "settlement.blocked.out_on_double"),
    ({"layout.trains.doubles.first_spinner": True}, "layout.trains.doubles.first_spinner"),
    ({"layout.trains.personal": False, "layout.trains.public": 0, "layout.trains.hub.tiles": 4,
      "layout.trains.first_turn.tiles": "one", "layout.trains.doubles.covers": "new_arms",
      "layout.trains.doubles.cover": 3, "layout.trains.doubles.by": "one_more_anywhere"},
     "layout.trains.doubles.by"),
])
def test_a_train_layout_that_cannot_be_played_is_refused_at_its_key(tmp_path, change, key):
    import yaml

    data = load_variant("mexican-train").model_dump()
    for path, value in change.items():
        node = data
        keys = path.split(".")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    data.pop("extends", None)
    file = tmp_path / "bad.yaml"
    file.write_text(yaml.safe_dump(data), encoding="utf-8")
    from bones.lang.load import VariantError

    with pytest.raises(VariantError) as err:
        load_variant(str(file))
    lines = str(err.value).splitlines()
    assert any(key in line for line in lines), lines


def test_own_hand_and_rounds_need_a_train_layout(tmp_path):
    from bones.lang.load import VariantError

    file = tmp_path / "sniffish.yaml"
    file.write_text("extends: sniff\nname: sniffish\nsettlement:\n  domino: {kind: own_hand}\n"
                    "match: {kind: rounds}\n", encoding="utf-8")
    with pytest.raises(VariantError) as err:
        load_variant(str(file))
    text = str(err.value)
    assert "own_hand settles a train layout only" in text
    assert "a match of rounds is played with a train layout only" in text


# ------------------------------------------------------------ the native core


def test_the_flat_table_carries_the_train_layout():
    """Both cores read the same TrainRules: its fields in TRAIN_FIELDS
    order, then every tile's charge ([] for a line game)."""
    from bones.engine.flat import TRAIN_FIELDS

    rules = compile_rules(load_variant("mexican-train"), 4)
    got = flatten(rules)["trains"]
    assert got[:len(TRAIN_FIELDS)] == [int(getattr(rules.trains, f)) for f in TRAIN_FIELDS]
    assert got[len(TRAIN_FIELDS):] == list(rules.trains.values) and got[len(TRAIN_FIELDS)] == 50
    assert flatten(compile_rules(load_variant("sniff"), 2))["trains"] == []


def test_a_stepwise_hand_is_native_only_under_bones_core_native(monkeypatch, capsys):
    """``BONES_CORE=native`` steps a train round in the kernel (the native
    ``TrainHand``, tests/test_nativetrains.py); auto keeps the Python hand."""
    rules = compile_rules(load_variant("chicken-foot"), 3)
    deal = Match(rules, seed=2).next_deal()
    monkeypatch.setenv(core.ENV, "auto")
    assert type(core.new_hand(rules, deal)) is TrainHand
    if core.native() is None:
        return
    from bones.engine.nativetrains import NativeTrainHand

    monkeypatch.setenv(core.ENV, "native")
    hand = core.new_hand(rules, deal)
    assert isinstance(hand, NativeTrainHand) and hand.legal_moves() == [lead_code(deal.lead_tile)]
    assert capsys.readouterr().err == ""  # nothing to say: the native core plays it


def test_a_stepwise_match_plays_trains_in_python_and_line_games_as_before(monkeypatch):
    monkeypatch.setenv(core.ENV, "python")
    match = Match(compile_rules(load_variant("mexican-train"), 2), seed=4, stepwise_core=True)
    assert isinstance(match.new_hand(), TrainHand)
    plain = Match(compile_rules(load_variant("sniff")), seed=4, stepwise_core=True).new_hand()
    assert not isinstance(plain, TrainHand)


@pytest.mark.parametrize("core_choice", ["native", "auto"])
def test_bones_simulate_plays_a_train_layout_natively(core_choice):
    env = {**os.environ, "BONES_CORE": core_choice}
    got = subprocess.run([sys.executable, "-m", "bones", "simulate", "mexican-train", "--players",
                          "3", "--hands", "4", "--seed", "7", "--json"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert got.returncode == 0, got.stderr
    assert [line for line in got.stderr.splitlines() if line.startswith("bones:")] == []
    assert "mexican-train" in got.stdout and '"hands"' in got.stdout


def test_simulate_plays_the_train_built_ins_in_the_native_core():
    from bones.sim import simulation as sim

    if core.native() is None:
        pytest.skip("the native core is not in use")
    for name in TRAINS:
        table = sim.Table(name, load_variant(name), 3, False)
        for bots in (["random"], ["greedy"], ["heuristic"]):
            sim._CACHE.clear()
            assert sim.plays_natively(sim.make_config([table], bots, games=2, seed=1))


def test_the_python_and_native_choices_simulate_a_train_layout_alike():
    outs = []
    for choice in ("python", "native"):
        env = {**os.environ, "BONES_CORE": choice}
        got = subprocess.run([sys.executable, "-m", "bones", "simulate", "chicken-foot",
                              "--players", "2", "--hands", "6", "--seed", "11", "--json"],
                             capture_output=True, text=True, env=env, timeout=120)
        assert got.returncode == 0, got.stderr
        outs.append(_without_times(got.stdout))
    assert outs[0] == outs[1]


def _without_times(text: str) -> Any:
    import json

    data = json.loads(text)

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items()
                    if not any(w in k for w in ("time", "second", "core", "rate", "started"))}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    return strip(data)


def test_draw_and_pass_codes_are_the_engines():
    hand = _hand(_rules("mexican-train", 2), [["12-12", "1-2"], ["3-4"]], ["5-6", "7-8"])
    _play(hand, "12-12")
    assert hand.legal_moves() == [DRAW]
    _play(hand, "draw")
    assert hand.legal_moves() == [PASS]

