"""The perft positions of tests/perft played on the native stepwise hand.

Each position is reached by the same moves on both cores; the native
move-path counts must be the file's counts at every depth (the Python core's
are checked by test_perft.py).
"""

from __future__ import annotations

import os

import pytest
from test_perft import FILES, load, position

from bones.engine.flat import flatten
from bones.engine.match import Deal
from bones.engine.notation import parse_move

#: compares the native core with the records: run in the native pass only
pytestmark = [pytest.mark.once]
try:
    import bones_native

    from bones.engine.core import native_hand
except ImportError as err:  # pragma: no cover - depends on the install
    if os.environ.get("BONES_CORE") == "native":
        raise
    pytestmark.append(pytest.mark.skip(reason=f"native core not available: {err}"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_native_perft(path) -> None:
    spec = load(path)
    hand = position(spec)  # the Python hand, moves played
    rules = hand.rules
    # rebuild the position natively from the deal, then the same moves
    ts = rules.tiles
    hands = tuple(ts.mask_of([ts.parse(t) for t in seat]) for seat in spec["deal"])
    boneyard = tuple(ts.parse(t) for t in spec.get("boneyard", []))
    used = ts.mask_of(list(boneyard))
    for mask in hands:
        used |= mask
    hub = ts.parse(spec["hub"]) if "hub" in spec else -1
    deal = Deal(hands, boneyard, spec.get("leader", 0), lead_tile=hub,
                out_of_play=ts.full & ~used)
    if rules.trains is not None:  # a train layout's round: the native TrainHand
        nat = bones_native.TrainHand(flatten(rules), [ts.tiles_of(h) for h in hands],
                                     list(boneyard), deal.leader, hub, [0] * rules.owners, 1)
    else:
        nat = native_hand(rules, deal, [0] * rules.owners)
    replay = position({**spec, "moves": []})
    for text in spec.get("moves", []):
        move = parse_move(replay, text)
        replay.play(move)
        nat.apply(move)
    assert nat.legal_moves() == hand.legal_moves()
    got = {depth: nat.perft(depth) for depth in spec["perft"]}
    assert got == spec["perft"], f"{path.name}: native move-path counts differ"
