"""A `bones play` save written before the specified stream (record format 1,
with the Mersenne Twister's state under meta.play.rng) resumes exactly: the
next hands are dealt as the old engine dealt them, and saving keeps it in
format 1 (docs/random.md, "Old saves")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bones.games.game import GameSession
from bones.games.record import VERSION

DATA = Path(__file__).resolve().parent / "data"

# What bones 0.x (before the specified stream) dealt next in this game, after
# the same moves (the human seat plays its first legal move, the bot is
# greedy): produced by running that version on the same save.
OLD_NEXT_DEAL = {"hand": 2, "hands": [27394118, 33571729],
                 "boneyard": [3, 20, 27, 26, 18, 19, 5, 10, 15, 11, 16, 13, 22, 12],
                 "leader": 0}


def _step(session: GameSession) -> None:
    hand = session.hand
    assert hand is not None
    if session.is_human(hand.turn):
        session.play(hand.legal_moves()[0])
    else:
        session.bot_move()


def test_an_old_save_deals_the_next_hand_as_the_old_engine_did(tmp_path: Path) -> None:
    save = tmp_path / "old.json"
    shutil.copy(DATA / "old-format-save.json", save)
    assert json.loads(save.read_text())["version"] == 1 < VERSION
    session = GameSession.resume(save)
    assert session.match.legacy is not None
    while session.hand_number == 1:
        _step(session)
        if session.hand is not None and session.hand.over and not session.over:
            session._after_move()
    deal = session.match.current_deal
    assert deal is not None
    assert session.hand_number == OLD_NEXT_DEAL["hand"]
    assert list(deal.hands) == OLD_NEXT_DEAL["hands"]
    assert list(deal.boneyard) == OLD_NEXT_DEAL["boneyard"]
    assert deal.leader == OLD_NEXT_DEAL["leader"]
    # saved again, it stays an old-format save with its generator's state
    session.save()
    data = json.loads(save.read_text())
    assert data["version"] == 1 and data["meta"]["play"]["rng"]
    again = GameSession.resume(save)
    assert again.match.legacy is not None


def test_a_new_save_needs_no_generator_state(tmp_path: Path) -> None:
    from bones.lang.load import load_variant

    save = tmp_path / "new.json"
    session = GameSession.new(load_variant("sniff"), bots=["greedy"], seed=11, save_path=save)
    for _ in range(3):
        _step(session)
    session.save()
    data = json.loads(save.read_text())
    assert data["version"] == VERSION and not data["meta"]["play"].get("rng")
    again = GameSession.resume(save)
    assert again.match.legacy is None
    # the resumed game deals hand 2 exactly as the uninterrupted one
    for s in (session, again):
        while s.hand_number == 1:
            _step(s)
            if s.hand is not None and s.hand.over and not s.over:
                s._after_move()
    assert again.match.current_deal == session.match.current_deal
