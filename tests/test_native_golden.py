"""Every golden record of tests/golden replayed on the native stepwise hand.

The records' deals and moves (with their muggins claims) are played on the
native hand; every move's count and points, each hand's end, settlement and
scores must be what the record says (the Python core is checked against the
same files by test_golden.py).  A train layout's rounds are played on the
native ``TrainHand``, which also gives every move's legal moves in the
Python hand's order.
"""

from __future__ import annotations

import os

import golden_gen
import pytest

from bones.engine.moves import Outcome
from bones.engine.notation import parse_move
from bones.games.record import deal_from_record, load_record, replay
from bones.lang.load import builtin_names

#: compares the native core with the records: run in the native pass only
pytestmark = [pytest.mark.once]
try:
    import bones_native

    from bones.engine.core import native_hand
except ImportError as err:  # pragma: no cover - depends on the install
    if os.environ.get("BONES_CORE") == "native":
        raise
    pytestmark.append(pytest.mark.skip(reason=f"native core not available: {err}"))


@pytest.mark.parametrize("name", builtin_names())
def test_golden_record_replays_natively(name: str) -> None:
    record = load_record(golden_gen.paths(name)[1])
    replayed = replay(record)  # the Python core's account, move by move
    rules = replayed.rules
    if rules.trains is not None:
        _replay_train_record(name, record, replayed)
        return
    assert len(replayed.hands) == len(record.hands)
    for hand_record, py_hand in zip(record.hands, replayed.hands):
        deal = deal_from_record(rules, hand_record.deal, "hand")
        # as the hand began: the scores (a won game of several resets them),
        # the pot of tied hands, who was in, the number bonuses go by
        scores = list(py_hand.start_scores or [0] * rules.owners)
        nat = native_hand(rules, deal, scores, pot=py_hand.pot, got_in=py_hand.got_in,
                          number=py_hand.bonus_number)
        # the notation is read on a Python hand kept in step (parsing only)
        from bones.engine.hand import Hand

        reader = Hand(rules, deal.hands, deal.boneyard, deal.leader, list(scores),
                      deal.lead_tile, deal.lead_doubles_only, deal.out_of_play)
        claims = hand_record.claims or [None] * len(hand_record.moves)
        for text, claim, step in zip(hand_record.moves, claims, py_hand.moves):
            assert nat.turn == step.seat
            move = parse_move(reader, text)
            assert nat.is_legal(move), f"{name}: {text} not legal natively"
            nat.apply(move, claim)
            reader.apply(move, claim)
            assert (nat.count, nat.last_points) == (step.count, step.points), (name, text)
        assert Outcome(nat.state).label == hand_record.end
        if hand_record.settlement is not None:
            # a hand ended on the target has no settlement: recorded as zeros
            assert (nat.settlement or [0] * rules.owners) == hand_record.settlement
        assert nat.scores == hand_record.scores
    assert replayed.scores == record.result.scores



def _replay_train_record(name: str, record, replayed) -> None:
    """A train layout's record, round by round on ``bones_native.TrainHand``."""
    from bones.engine.flat import flatten
    from bones.engine.trains import python_hand

    rules = replayed.rules
    ts = rules.tiles
    assert len(replayed.hands) == len(record.hands)
    for number, (hand_record, py_hand) in enumerate(zip(record.hands, replayed.hands), 1):
        deal = deal_from_record(rules, hand_record.deal, "hand")
        scores = list(py_hand.start_scores or [0] * rules.owners)
        # the notation is read on a Python hand kept in step (parsing only)
        reader = python_hand(rules, deal, list(scores), number=py_hand.bonus_number)
        assert reader.number == number  # round r's hub is the double top - (r - 1)
        nat = bones_native.TrainHand(
            flatten(rules), [ts.tiles_of(h) for h in reader.hands], list(reader.boneyard),
            reader.leader, reader.lead_tile, list(scores), reader.number)
        for text, step in zip(hand_record.moves, py_hand.moves):
            fields = nat.fields()
            assert fields["turn"] == step.seat, (name, number, text)
            move = parse_move(reader, text)
            assert nat.legal_moves() == reader.legal_moves(), (name, number, text)
            nat.apply(move)
            reader.apply(move)
            seat, played, points = nat.fields()["log"][-1]
            assert (seat, played, points) == (step.seat, move, step.points), (name, text)
        fields = nat.fields()
        assert Outcome(fields["state"]).label == hand_record.end
        assert fields["settlement"] == hand_record.settlement
        assert fields["scores"] == hand_record.scores
        # a losing total ends the match in the round (the last round, the match's count)
        assert (fields["game_over"], fields["winner"]) == (reader.game_over, reader.winner)
    assert replayed.scores == record.result.scores
