"""The rule options of issue 12, section 4, beyond their scenario files.

``ties: carry`` is match state (a pot handed from hand to hand), so a
single-hand scenario cannot show it whole: these tests deal fixed hands to a
match, and check that a saved game stopped while a pot is on the table
resumes with the same pot and plays on to the same scores.
"""

from __future__ import annotations

import random

from bones.engine.match import Deal, Match
from bones.engine.settle import (
    AMOUNT_OPPONENTS,
    PER_AGGREGATE,
    PER_OPPONENT,
    PER_PLAYER,
    ROUND_DOWN,
    ROUND_UP,
    SETTLE_DOMINOER,
    SETTLE_LIGHTEST,
    TIES_CARRY,
    TIES_FULL,
    TIES_SHARE,
    Settle,
    carried,
    settle,
)
from bones.games.game import GameSession
from bones.games.record import dumps_record, loads_record_json, parse_record, record_match, replay
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant

CARRY = {"settlement": {"blocked": {"ties": "carry"}}}
#: carry, and no drawing with 9 tiles each of 28: blocked hands are common
CARRY_BLOCKS = {**CARRY, "drawing": {"kind": "none"}, "deal": {"hand_size": {2: 9, 3: 9, 4: 7}}}


def _mask(rules, *tiles: str) -> int:
    mask = 0
    for text in tiles:
        mask |= 1 << rules.tiles.parse(text)
    return mask


class _Dealt(Match):
    """A match whose hands are dealt from a list (the lead is the deal's)."""

    def __init__(self, rules, deals: list[Deal]) -> None:
        super().__init__(rules, seed=0)
        self.deals = list(deals)

    def next_deal(self) -> Deal:
        return self.deals.pop(0)


def _deal(rules, leader: int, *hands: tuple[str, ...]) -> Deal:
    return Deal(tuple(_mask(rules, *h) for h in hands), (), leader)


def test_pots_add_up_and_go_to_the_next_winner() -> None:
    rules = compile_rules(load_variant("all-fives", overrides=CARRY), 3)
    six = rules.tiles.parse("6-6") << 7
    match = _Dealt(rules, [
        _deal(rules, 0, ("6-6", "1-2"), ("0-3",), ("4-5",)),
        _deal(rules, 0, ("6-6", "0-2"), ("1-1",), ("0-4",)),
        _deal(rules, 1, ("1-2",), ("0-0",), ("0-4",)),
    ])
    scores = []
    pots = []
    for _ in range(3):
        hand = match.new_hand()
        if hand.legal_moves() == [six] or six in hand.legal_moves():
            hand.play(six)
        else:
            hand.play(hand.legal_moves()[0])
        assert hand.over
        summary = match.finish_hand(hand)
        scores.append(list(match.scores))
        pots.append(summary.pot)
    # hand 1: tie, 10 carried; hand 2: seats 0 and 1 tie on 2 pips, seat 2's
    # 4 round to 5, so 15 on the table; hand 3: seat 1 goes out, the
    # opponents' 3 + 4 = 7 round to 5, and it takes the 15 too
    assert pots == [10, 15, 0]
    assert scores == [[0, 0, 0], [0, 0, 0], [0, 20, 0]]
    assert match.history[-1].settlement == [0, 20, 0]


def test_without_carry_the_tied_points_are_lost() -> None:
    rules = compile_rules(load_variant("all-fives"), 2)
    hand = Match(rules, seed=1).start_hand(_deal(rules, 0, ("6-6", "1-2"), ("0-3",)))
    hand.play(rules.tiles.parse("6-6") << 7)
    assert hand.over and hand.pot == 0


def _pot_mid_hand(tmp_path, seed: int) -> GameSession | None:
    """Bots (and random moves for seat 0) play a 3-player carry game until a
    pot is on the table and the next hand is under way; None if the match
    ends first."""
    variant = load_variant("all-fives", overrides=CARRY_BLOCKS)
    session = GameSession.new(variant, players=3, bots=["greedy", "greedy"], seed=seed,
                              save_path=tmp_path / f"carry-{seed}.json")
    rng = random.Random(seed)
    while not session.over:
        hand = session.hand
        assert hand is not None
        if session.match.pot and hand.placed >= 2:
            return session
        if session.is_human(hand.turn):
            session.play(rng.choice(hand.legal_moves()))
        else:
            session.bot_move()
    return None


def test_a_save_made_while_a_pot_is_on_the_table_resumes_with_it(tmp_path) -> None:
    """The save resumes with the same pot, and both games then play on
    identically; the record replays to the same scores."""
    sessions = (_pot_mid_hand(tmp_path, seed) for seed in range(40))
    session = next((s for s in sessions if s is not None), None)
    assert session is not None, "no game of 40 left a pot on the table"
    pot = session.match.pot
    again = GameSession.resume(session.save_path)
    assert again.match.pot == pot and again.hand is not None and again.hand.pot == pot
    assert again.match.scores == session.match.scores
    paid = False
    while not session.over:
        hand = session.hand
        assert hand is not None
        move = hand.legal_moves()[0]
        session.play(move)
        again.play(move)
        assert again.match.scores == session.match.scores
        assert again.match.pot == session.match.pot
        paid = paid or session.match.pot < pot
    assert paid, "the pot was never paid"
    record = parse_record(loads_record_json(dumps_record(session.to_record())))
    assert replay(record).scores == session.match.scores


def test_records_of_carry_matches_replay() -> None:
    """Matches with pots (ties are rare: up to 200 are played to find three)
    record and replay to the same scores."""
    rules = compile_rules(load_variant("all-fives", overrides=CARRY_BLOCKS), 2)
    pots = 0
    for seed in range(200):
        match = Match(rules, seed=seed)
        choose = random.Random(seed).choice
        match.play_out(lambda hand, choose=choose: choose(hand.legal_moves()))
        if not any(summary.pot for summary in match.history):
            continue
        pots += 1
        record = parse_record(loads_record_json(dumps_record(record_match(match))))
        result = replay(record)
        assert result.scores == match.scores
        assert [h.pot for h in result.hands] == [0] + [s.pot for s in match.history[:-1]]
        # the web page's replay frames end each hand on its recorded scores
        from bones.web.replay import frames_of

        for shown in frames_of(record, "carry")["hands"]:
            assert shown["frames"][-1]["scores"] == shown["scores"]
        if pots == 3:
            break
    assert pots == 3, "fewer than three of 200 matches left a pot"


def test_settlement_arithmetic_of_the_options() -> None:
    # two teams, owner 0 (seats 0 and 2) went out; owner 1's players hold 3 and 4
    def rule(per: int, mode: int = 0, ties: int = 0, kind: int = SETTLE_DOMINOER) -> Settle:
        return Settle(kind, AMOUNT_OPPONENTS, 1, 5, per, 1, False, ties, mode)

    players = [[0, 0], [3, 4]]
    assert settle(rule(PER_AGGREGATE), [0, 7], [False, False], 0, -1, players) == [5, 0]
    assert settle(rule(PER_OPPONENT), [0, 7], [False, False], 0, -1, players) == [5, 0]
    assert settle(rule(PER_PLAYER), [0, 7], [False, False], 0, -1, players) == [10, 0]
    assert settle(rule(PER_PLAYER, ROUND_DOWN), [0, 7], [False, False], 0, -1, players) == [0, 0]
    assert settle(rule(PER_AGGREGATE, ROUND_UP), [0, 7], [False, False], 0, -1, players) == [10, 0]
    assert settle(rule(PER_AGGREGATE, ROUND_DOWN), [0, 7], [False, False], 0, -1, players) == [5, 0]
    # ties among three: 2, 2 and 13 pips
    pips, doubles = [2, 2, 13], [False] * 3
    full = rule(PER_AGGREGATE, ties=TIES_FULL, kind=SETTLE_LIGHTEST)
    assert settle(full, pips, doubles, -1, 2) == [15, 15, 0]
    share = rule(PER_AGGREGATE, ties=TIES_SHARE, kind=SETTLE_LIGHTEST)
    assert settle(share, pips, doubles, -1, 2) == [5, 5, 0]
    carry = rule(PER_AGGREGATE, ties=TIES_CARRY, kind=SETTLE_LIGHTEST)
    assert settle(carry, pips, doubles, -1, 2) == [0, 0, 0]
    assert carried(carry, pips, doubles) == 15
    assert carried(carry, [1, 2, 13], doubles) == 0
