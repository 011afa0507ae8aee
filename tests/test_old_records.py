"""Records and saves of an earlier format still replay and resume.

Since record format 3 a hand is blocked at the last failed draw when nobody
can play (docs/rules.md); a format-2 record still holds the pass the old rule
asked for after it, and a save may have stopped between the two.  (Format-1
saves, with the Mersenne Twister's state, are test_old_saves.py's.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bones.games.record import BLOCK_AT_DRAW, VERSION, RecordError, parse_record, replay
from bones.lang.load import load_variant

DATA = Path(__file__).resolve().parent / "data"
#: bones' golden record of sniff-english before the fix (record format 2): in
#: hand 11 seat 0 draws the last tile, still cannot play, nobody else can
#: either, and the record holds the pass the old rule asked for
OLD = DATA / "record-v2-sniff-english-extra-pass.json"


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
