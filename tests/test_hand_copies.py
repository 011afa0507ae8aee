"""Hand.copy and Hand.public_copy are written out slot by slot for speed:
they must cover every slot, share nothing mutable, and hide what they hide."""

from __future__ import annotations

import random

from bones.engine.hand import FIELDS, Hand
from bones.engine.match import Match
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant


def _mid_hand() -> Hand:
    rules = compile_rules(load_variant("five-up"), 3)
    hand = Match(rules, seed=11).new_hand()
    rng = random.Random(5)
    for _ in range(9):
        hand.apply(rng.choice(hand.legal_moves()))
    assert not hand.over
    return hand


def test_copy_covers_every_slot_and_shares_no_list() -> None:
    hand = _mid_hand()
    copy = hand.copy()
    for name in FIELDS:
        mine, theirs = getattr(hand, name), getattr(copy, name)
        assert mine == theirs, name
        if isinstance(mine, list):
            assert mine is not theirs, f"{name} is shared"
    # playing on the copy leaves the original alone
    before = [getattr(hand, n) for n in FIELDS if not isinstance(getattr(hand, n), list)]
    copy.apply(copy.legal_moves()[0])
    assert [getattr(hand, n) for n in FIELDS
            if not isinstance(getattr(hand, n), list)] == before


def test_public_copy_hides_other_hands_and_the_boneyard() -> None:
    hand = _mid_hand()
    seat = (hand.turn + 1) % hand.rules.players
    view = hand.public_copy(seat)
    for name in FIELDS:
        if name in ("hands", "boneyard"):
            continue
        assert getattr(view, name) == getattr(hand, name), name
    assert view.hands[seat] == hand.hands[seat]
    assert all(h == 0 for s, h in enumerate(view.hands) if s != seat)
    assert view.boneyard == [-1] * len(hand.boneyard)
