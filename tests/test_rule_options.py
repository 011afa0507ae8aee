"""Rule options beyond what their scenario files show.

``ties: carry`` is match state (a pot handed from hand to hand), so a
single-hand scenario cannot show it whole: these tests deal fixed hands to a
match, and check that a saved game stopped while a pot is on the table
resumes with the same pot and plays on to the same scores.  The others: the
lightest tile's lead, ``rounding.per`` refused wherever it changes nothing,
``scoring.get_in_scope`` and ``match.check: hand_winner``.  The scenario
files under tests/scenarios/ play each rule on both cores; the differential
tests compare the cores on random play.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bones.engine.leads import _extreme_tile
from bones.engine.match import Deal, Match
from bones.engine.settle import (
    AMOUNT_OPPONENTS,
    PER_AGGREGATE,
    PER_OPPONENT,
    PER_PLAYER,
    ROUND_DOWN,
    ROUND_UP,
    SETTLE_DOMINOER,
    SETTLE_EACH_HEAVIER,
    SETTLE_LIGHTEST,
    TIES_CARRY,
    TIES_FULL,
    TIES_NOBODY,
    TIES_NOT_BLOCKER,
    TIES_SHARE,
    Settle,
    carried,
    hand_winners,
    settle,
)
from bones.games.game import GameSession
from bones.games.record import dumps_record, loads_record_json, parse_record, record_match, replay
from bones.lang.compile import compile_rules
from bones.lang.load import VariantError, load_variant

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


# ------------------------------------------------------ the lightest tile


def test_the_lightest_tile_breaks_ties_by_the_lower_higher_half() -> None:
    rules = compile_rules(load_variant("all-fives"), 2)
    ts = rules.tiles
    hands = [ts.mask_of([ts.parse("0-3"), ts.parse("6-6")]), ts.mask_of([ts.parse("1-2")])]
    assert _extreme_tile(rules, hands, lightest=True) == (1, ts.parse("1-2"))
    assert _extreme_tile(rules, hands, lightest=False) == (0, ts.parse("6-6"))
    hands = [ts.mask_of([ts.parse("6-3")]), ts.mask_of([ts.parse("5-4")])]
    assert _extreme_tile(rules, hands, lightest=False) == (0, ts.parse("6-3"))
    assert _extreme_tile(rules, hands, lightest=True) == (1, ts.parse("5-4"))


# ------------------------------------------- rounding.per, or refused


def _problem(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text(text)
    with pytest.raises(VariantError) as err:
        load_variant(str(path))
    return str(err.value)


@pytest.mark.parametrize("extends, rule, per, said", [
    ("sniff", "{kind: own_penalty, rounding: {kind: nearest, per: opponent}}", "opponent",
     "opponent has no effect with own_penalty"),
    ("muggins", "{kind: own_penalty, rounding: {kind: nearest, per: player}}", "player",
     "player has no effect without partnerships"),
    ("muggins", "{kind: each_heavier, rounding: {kind: nearest, per: opponent}}", "opponent",
     "opponent has no effect with each_heavier"),
    ("all-fives", "{kind: lightest, amount: all_hands, rounding: {kind: up, per: player}}", "player",
     "player has no effect with amount all_hands"),
    ("all-fives", "{kind: lightest, amount: opponents_minus_own, rounding: {kind: nearest, per: opponent}}",
     "opponent", "opponent has no effect with amount opponents_minus_own"),
])
def test_a_per_that_changes_nothing_is_refused_at_its_key(tmp_path: Path, extends: str, rule: str,
                                                          per: str, said: str) -> None:
    text = f"name: house\nextends: {extends}\nsettlement:\n  blocked: {rule}\n"
    message = _problem(tmp_path, text)
    column = text.splitlines()[3].index(f"per: {per}") + len("per: ") + 1  # at the value
    assert f"house.yaml:4:{column}: settlement.blocked.rounding.per: {said}" in message, message
    assert len(message.splitlines()) == 1


def test_per_player_with_own_penalty_and_partners_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: sniff\nsettlement:\n"
                    "  domino: {rounding: {per: player}}\n  blocked: {rounding: {per: player}}\n")
    rules = compile_rules(load_variant(str(path)), 4, True)
    assert rules.settle_domino.per == rules.settle_blocked.per == 2


# ------------------------------------------------ get_in_scope


def test_get_in_scope_without_a_get_in_is_refused(tmp_path: Path) -> None:
    message = _problem(tmp_path, "name: house\nextends: all-fives\nscoring:\n  get_in_scope: match\n")
    assert "house.yaml:4:17: scoring.get_in_scope: has no effect without a get-in score" in message, message


def test_a_match_carries_who_is_in() -> None:
    from bones.engine.match import Match

    rules = compile_rules(load_variant(
        "all-fives", overrides={"scoring": {"get_in": 10, "get_in_scope": "match"}}), 2)
    assert rules.get_in_match
    match = Match(rules, seed=5)
    for _ in range(4):
        hand = match.new_hand()
        assert hand.got_in == (match.got_in or [False, False])
        while not hand.over:
            hand.apply(hand.legal_moves()[0])
        match.finish_hand(hand)
        assert match.got_in == hand.got_in == match.history[-1].got_in


# ------------------------------------------------- the hand's winner


def _rule(kind: int, ties: int = TIES_NOBODY, doubles_lose: bool = False) -> Settle:
    return Settle(kind, AMOUNT_OPPONENTS, 1, 5, PER_AGGREGATE, 1, doubles_lose, ties)


def test_the_hand_winners_by_settlement_kind() -> None:
    lightest = _rule(SETTLE_LIGHTEST)
    assert hand_winners(lightest, [1, 9], [False] * 2, -1, 1) == [0]  # settles 10, or 0: a winner
    assert hand_winners(lightest, [9, 1], [False] * 2, 0, 1) == [0]  # the domino-er, whatever the pips
    assert hand_winners(lightest, [3, 3, 9], [False] * 3, -1, 0) == []
    assert hand_winners(_rule(SETTLE_LIGHTEST, TIES_NOT_BLOCKER), [3, 3, 9], [False] * 3, -1, 0) == [1]
    assert hand_winners(_rule(SETTLE_LIGHTEST, TIES_FULL), [3, 3, 9], [False] * 3, -1, 0) == [0, 1]
    assert hand_winners(_rule(SETTLE_LIGHTEST, doubles_lose=True), [2, 8], [True, False], -1, 0) == [1]
    assert hand_winners(_rule(SETTLE_EACH_HEAVIER), [2, 8], [True, False], -1, 0) == [0]
    assert hand_winners(_rule(SETTLE_EACH_HEAVIER), [8, 8], [False] * 2, -1, 0) == []
