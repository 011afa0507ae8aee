"""The partnership games' rules beyond their scenario files: what a player
sees of the pass bonuses and the end-of-hand bonuses as they happen, the
winner of a blocked hand and who leads next, the contradictory combinations
refused at their key, and a best-of-K match.  The scenario files under
tests/scenarios/ (r4-*, match-r4-*, opt-r4-*) play each source's examples on
both cores."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support import compiled

import bones
from bones.engine.hand import OPENING_PASS, ROUND_PASS, pass_bonuses
from bones.engine.match import Deal, Match
from bones.engine.moves import PASS
from bones.engine.settle import (
    AGAINST_NEXT,
    AMOUNT_OPPONENTS,
    COMPARE_PLAYER,
    PER_AGGREGATE,
    SETTLE_LIGHTEST,
    SETTLE_LOCKER,
    TIES_BLOCKER,
    TIES_NOBODY,
    Seats,
    Settle,
    decide,
)
from bones.games.game import GameSession
from bones.lang.compile import compile_rules
from bones.lang.load import VariantError, load_variant
from bones.seat.handend import hand_end

SIX = ["dominican", "puerto-rico-500", "world-pairs", "latin-match", "cuban", "kozel"]


def _deal(rules, hands: list[list[str]], leader: int) -> Deal:
    ts = rules.tiles
    masks = tuple(ts.mask_of([ts.parse(t) for t in h]) for h in hands)
    used = 0
    for m in masks:
        used |= m
    return Deal(masks, (), leader, -1, False, ts.full & ~used)


@pytest.mark.parametrize("name", SIX)
def test_every_partnership_builtin_plays_whole_matches(name: str) -> None:
    rules = compiled(name, 4)
    for seed in range(3):
        match = Match(rules, seed=seed, stepwise_core=True)
        rng = random.Random(seed)
        match.play_out(lambda hand, rng=rng: rng.choice(hand.legal_moves()))
        assert match.game_over and len(match.history) < 500


def test_a_session_tells_the_pass_bonuses_as_they_happen(tmp_path: Path) -> None:
    # the Dominican pase de salida: seat 1 cannot play on the opening [5-4]
    session = GameSession.new(load_variant("dominican"), humans=4, seed=1,
                              save_path=tmp_path / "d.json")
    rules = session.rules
    deal = _deal(rules, [["5-4", "1-2", "0-0"], ["6-6", "3-3"], ["4-4", "2-2"], ["5-5", "1-1"]], 0)
    session.hands.pop()  # the hand dealt by the seed, replaced by this one
    session.recorder.discard_hand()
    session._start(deal)
    session.play(session.parse("5-4"))
    event = session.play(session.parse("pass"))
    assert event.move == PASS and event.gains == [50, 0]
    assert event.bonuses == [(0, 50, OPENING_PASS)]


def test_pass_bonuses_are_decided_in_one_place() -> None:
    rules = compiled("dominican")
    hand = Match(rules, seed=0).start_hand(
        _deal(rules, [["6-6", "6-1"], ["0-0", "0-1"], ["3-3", "3-4"], ["2-2", "2-4"]], 0))
    hand.play(bones.parse_move(hand, "6-6"))  # nobody else holds a 6
    assert pass_bonuses(rules, hand, 1, 1) == [(0, 25, OPENING_PASS)]
    hand.play(PASS)
    hand.play(PASS)
    assert pass_bonuses(rules, hand, 3, 3) == [(0, 25, ROUND_PASS)]
    hand.play(PASS)
    assert hand.scores == [50, 0] and hand.turn == 0  # the pase de salida, the paso redondo


def test_the_hand_end_account_names_the_bonuses() -> None:
    # the Puerto Rican example: hand 1, seat 2 goes out with [3-5] on ends 3 and 5
    rules = compiled("puerto-rico-500")
    match = Match(rules, seed=0)
    hand = match.start_hand(_deal(rules, [["1-2", "3-4"], ["6-6", "0-0"], ["3-5", "4-5"],
                                          ["0-4", "2-2"]], 0))
    for text in ("3-4", "pass", "4-5", "pass", "pass", "pass"):
        hand.play(bones.parse_move(hand, text))
    assert hand.open_ends() == {0: 3, 1: 5}
    hand.play(bones.parse_move(hand, "3-5@W"))
    summary = match.finish_hand(hand)
    account = hand_end(rules, hand, summary)
    assert dict(account.bonuses) == {"hand 1": 100, "capicúa": 100}
    assert hand.settlement == [3 + 12 + 8 + 200, 0] and hand.bonus == 200


def test_a_lock_is_decided_between_the_locker_and_his_neighbour() -> None:
    lock = Settle(SETTLE_LOCKER, AMOUNT_OPPONENTS, 1, 1, PER_AGGREGATE, 1, False, TIES_BLOCKER)
    seats = Seats((9, 4, 9, 7), (0, 1, 0, 1), 0)
    # seat 0 locked with 9; seat 3 (before him) holds 7: team B wins, seat 3 leads next
    assert decide(lock, [18, 11], [False, False], 0, seats).winners == (1,)
    assert decide(lock, [18, 11], [False, False], 0, seats).seat == 3
    # against the next player, seat 1 with 4
    nxt = Settle(SETTLE_LOCKER, AMOUNT_OPPONENTS, 1, 1, PER_AGGREGATE, 1, False, TIES_BLOCKER,
                 against=AGAINST_NEXT)
    assert decide(nxt, [18, 11], [False, False], 0, seats).seat == 1
    # a tie goes to the locker
    tie = Seats((7, 4, 9, 7), (0, 1, 0, 1), 0)
    assert decide(lock, [16, 11], [False, False], 0, tie).seat == 0


def test_partners_tied_for_the_lowest_hand_lead_in_play_order_after_the_locker() -> None:
    low = Settle(SETTLE_LIGHTEST, AMOUNT_OPPONENTS, 1, 1, PER_AGGREGATE, 1, False, TIES_NOBODY,
                 compare=COMPARE_PLAYER)
    # seats 0 and 2 both hold 3; seat 1 locked: seat 2 comes first after him
    decision = decide(low, [6, 20], [False, False], 1, Seats((3, 10, 3, 10), (0, 1, 0, 1), 1))
    assert decision.winners == (0,) and decision.seat == 2
    # opponents tied: nobody
    decision = decide(low, [13, 13], [False, False], 1, Seats((3, 3, 10, 10), (0, 1, 0, 1), 1))
    assert decision.winners == () and decision.tied == (0, 1)


@pytest.mark.parametrize("text, where, message", [
    ("settlement:\n  domino: {kind: losers_pay}\n", "house.yaml:4:18",
     "settlement.domino.kind: losers_pay charges penalties, so the lowest score must win: "
     "use match kind penalty"),
    ("settlement:\n  domino: {kind: locker}\n", "house.yaml:4:18",
     "settlement.domino.kind: a hand someone went out of was not locked"),
    ("match: {kind: target, points: 10, void_at: 12}\n", "house.yaml:3:44",
     "match.void_at: 12 is not below the target of 10"),
    ("settlement:\n  blocked: {kind: lightest, compare: player}\n", "house.yaml:4:38",
     "settlement.blocked.compare: player has no effect without partnerships"),
    ("layout: {ends: one}\nbonuses: {capicua: {points: 25}}\n", "house.yaml:",
     "bonuses.capicua: a line that grows at one end has one open end"),
])
def test_contradictions_are_refused_at_their_key(tmp_path: Path, text: str, where: str,
                                                  message: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: block-2p\n" + text)
    with pytest.raises(VariantError) as err:
        load_variant(str(path))
    lines = str(err.value).splitlines()
    assert any(line.startswith(str(tmp_path / where)) and message in line for line in lines), lines


def test_a_penalty_match_refuses_a_winners_gain(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: kozel\nsettlement:\n  domino: {kind: domino_er}\n")
    with pytest.raises(VariantError, match="settlement.domino.kind: under match kind penalty the "
                                           "settlement charges the losers"):
        load_variant(str(path))


def test_best_of_three_games_starts_each_game_from_nothing() -> None:
    variant = load_variant("partnership-block", overrides={"match": {"points": 30, "games": 2}})
    rules = compile_rules(variant, 4, True)
    match = Match(rules, seed=4)
    rng = random.Random(4)
    games_seen = 0
    while not match.game_over:
        hand = match.new_hand()
        while not hand.over:
            hand.apply(rng.choice(hand.legal_moves()))
        summary = match.finish_hand(hand)
        if summary.game_won >= 0:
            games_seen += 1
            if not match.game_over:
                assert match.scores == [0, 0]
                assert max(summary.scores) >= 30
    assert games_seen >= 2 and max(match.games) == 2 and match.winner == match.games.index(2)
