"""Issue 21, "Rules, part three": the hand blocked at the last failed draw
(and old records and saves that hold the pass it no longer asks for), and
the language's new options: the lightest tile's lead, own_penalty rounded per
player (and rounding.per refused wherever it changes nothing), drawing.stuck,
match.check: hand_winner and scoring.get_in_scope.  The scenario files under
tests/scenarios/ play each rule on both cores; the differential tests compare
the cores on random play."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bones.engine.leads import _extreme_tile
from bones.engine.settle import (
    AMOUNT_OPPONENTS,
    PER_AGGREGATE,
    SETTLE_EACH_HEAVIER,
    SETTLE_LIGHTEST,
    TIES_FULL,
    TIES_NOBODY,
    TIES_NOT_BLOCKER,
    Settle,
    hand_winners,
)
from bones.games.record import BLOCK_AT_DRAW, VERSION, RecordError, parse_record, replay
from bones.lang.compile import compile_rules
from bones.lang.load import VariantError, load_variant

DATA = Path(__file__).resolve().parent / "data"
#: bones' golden record of sniff-english before the fix (record format 2): in
#: hand 11 seat 0 draws the last tile, still cannot play, nobody else can
#: either, and the record holds the pass the old rule asked for
OLD = DATA / "record-v2-sniff-english-extra-pass.json"


# ------------------------------------------------ 1. the last failed draw


def test_an_older_record_with_the_extra_pass_replays() -> None:
    data = json.loads(OLD.read_text())
    assert data["version"] == 2 < BLOCK_AT_DRAW <= VERSION
    assert data["hands"][10]["moves"][-2:] == ["draw", "pass"]
    result = replay(parse_record(data))
    assert result.finished and result.scores == data["result"]["scores"]
    # the pass is accepted, not played: the hand ended at the draw
    hand = result.hands[10]
    assert hand.end == "blocked" and hand.moves[-1].notation == "draw"
    assert len(hand.moves) == len(data["hands"][10]["moves"]) - 1


def test_the_same_pass_is_refused_in_a_record_of_the_new_format() -> None:
    data = json.loads(OLD.read_text())
    data["version"] = VERSION
    with pytest.raises(RecordError, match="hand 11, move .* 'pass': the hand is already over"):
        replay(parse_record(data))


def _old_save(tmp_path: Path) -> Path:
    """The old record as a `bones play` save interrupted between the draw that
    now blocks hand 11 and the pass the old rule asked for."""
    from bones.games.game import GameSession

    data = json.loads(OLD.read_text())
    hands = data["hands"][:11]
    hands[10]["moves"] = hands[10]["moves"][:-1]
    hands[10]["end"] = None
    hands[10]["settlement"] = None
    hands[10]["scores"] = hands[9]["scores"]
    data["hands"] = hands
    data["result"] = {"finished": False, "winner": None, "scores": hands[9]["scores"]}
    fresh = GameSession.new(load_variant("sniff-english"), bots=["greedy"], seed=data["seed"],
                            save_path=tmp_path / "fresh.json")
    data["meta"] = fresh.to_record().meta
    path = tmp_path / "old-save.json"
    path.write_text(json.dumps(data))
    return path


def test_an_older_save_stopped_before_the_pass_resumes_with_the_next_hand(tmp_path: Path) -> None:
    from bones.games.game import GameSession

    save = _old_save(tmp_path)
    session = GameSession.resume(save)
    assert session.hand_number == 12
    assert session.match.scores == [90, 120]  # hand 11's settlement, as the golden record has it
    hand = session.hand
    assert hand is not None and not hand.over and not hand.log
    # saved again, it is a record of the new format that replays
    session.save()
    again = GameSession.resume(save)
    assert again.hand_number == 12 and again.match.scores == [90, 120]
    assert json.loads(save.read_text())["version"] == VERSION


def test_the_old_save_with_its_pass_resumes_too(tmp_path: Path) -> None:
    from bones.games.game import GameSession

    data = json.loads(OLD.read_text())
    path = tmp_path / "done.json"
    data["meta"] = GameSession.new(load_variant("sniff-english"), bots=["greedy"], seed=data["seed"],
                                   save_path=tmp_path / "fresh.json").to_record().meta
    path.write_text(json.dumps(data))
    shutil.copy(path, tmp_path / "copy.json")
    session = GameSession.resume(path)
    assert session.over and session.match.scores == data["result"]["scores"]


# ------------------------------------------------------ 2.2 lightest tile


def test_the_lightest_tile_breaks_ties_by_the_lower_higher_half() -> None:
    rules = compile_rules(load_variant("all-fives"), 2)
    ts = rules.tiles
    hands = [ts.mask_of([ts.parse("0-3"), ts.parse("6-6")]), ts.mask_of([ts.parse("1-2")])]
    assert _extreme_tile(rules, hands, lightest=True) == (1, ts.parse("1-2"))
    assert _extreme_tile(rules, hands, lightest=False) == (0, ts.parse("6-6"))
    hands = [ts.mask_of([ts.parse("6-3")]), ts.mask_of([ts.parse("5-4")])]
    assert _extreme_tile(rules, hands, lightest=False) == (0, ts.parse("6-3"))
    assert _extreme_tile(rules, hands, lightest=True) == (1, ts.parse("5-4"))


# ------------------------------------------- 2.3 rounding.per, or refused


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


# ------------------------------------------------ 2.4 get_in_scope


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


# ------------------------------------------------- 2.1 the hand's winner


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


def test_the_replay_page_and_the_analysis_read_an_older_record() -> None:
    from bones.games.analysis import analyse
    from bones.web.replay import frames_of

    record = parse_record(json.loads(OLD.read_text()))
    frames = frames_of(record, "old")
    eleventh = frames["hands"][10]
    assert eleventh["end"] == "blocked"
    # the lead's frame and one per move played: the old pass is not shown
    assert len(eleventh["frames"]) == len(record.hands[10].moves)
    result = analyse(record, seats=[1], budget=2, seed=1, only_hands=[11])
    assert result is not None
