"""Move-path counts ("perft") from fixed positions, so a change in legal-move
generation (arms, edge order, stubs, drawing, passing) cannot pass unnoticed.

Each ``tests/perft/*.yaml`` names a variant, a whole deal, the moves that
lead to the position, and ``perft: {depth: leaves}``: the number of move
sequences of that length from the position, where a sequence that ends the
hand early counts as one leaf.  Draws are deterministic (the boneyard order
is part of the deal).  Tiles not dealt or in the boneyard are out of play.

To print the counts of a new position: ``python tests/test_perft.py FILE``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from bones.engine.hand import Hand
from bones.engine.load import load_variant
from bones.engine.match import Deal, Match
from bones.engine.notation import parse_move
from bones.engine.rules import compile_rules

HERE = Path(__file__).resolve().parent / "perft"
FILES = sorted(HERE.glob("*.yaml"))


def perft(hand: Hand, depth: int) -> int:
    if depth == 0 or hand.over:
        return 1
    total = 0
    for move in hand.legal_moves():
        child = hand.copy()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


def position(spec: dict) -> Hand:
    variant = load_variant(spec["variant"])
    rules = compile_rules(variant, spec.get("players", len(spec["deal"])), spec.get("teams"))
    ts = rules.tiles
    hands = tuple(ts.mask_of([ts.parse(t) for t in seat]) for seat in spec["deal"])
    boneyard = tuple(ts.parse(t) for t in spec.get("boneyard", []))
    used = ts.mask_of(list(boneyard))
    for mask in hands:
        assert not used & mask, "a tile is dealt twice"
        used |= mask
    match = Match(rules, seed=0)
    hand = match.start_hand(Deal(hands, boneyard, spec.get("leader", 0),
                                 out_of_play=ts.full & ~used))
    for text in spec.get("moves", []):
        hand.play(parse_move(hand, text))
    return hand


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def test_perft_files_exist():
    variants = {load(p)["variant"] for p in FILES}
    assert {"sniff", "all-fives", "five-up", "fives-and-threes", "sniff-english",
            "muggins"} <= variants


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_perft(path):
    spec = load(path)
    hand = position(spec)
    got = {depth: perft(hand, depth) for depth in spec["perft"]}
    assert got == spec["perft"], f"{path.name}: move-path counts changed"


if __name__ == "__main__":
    for name in sys.argv[1:]:
        spec = load(Path(name))
        hand = position(spec)
        print(name, {d: perft(hand, d) for d in range(1, spec.get("depth", 4) + 1)})
