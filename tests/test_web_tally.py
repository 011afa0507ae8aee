"""bones.seat.tally.count_parts (the terminal's and the page's count line): its parts add up to the count."""

from __future__ import annotations

import random

import pytest

from bones.engine.match import Match
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant
from bones.seat.tally import count_parts


@pytest.mark.parametrize("name", builtin_names())
def test_the_parts_add_up_to_the_count_after_every_move(name: str) -> None:
    variant = load_variant(name)
    for seed in range(15):
        hand = Match(compile_rules(variant), seed=seed).new_hand()
        rng = random.Random(seed)
        while not hand.over:
            hand.apply(rng.choice(hand.legal_moves()))
            parts = count_parts(hand)
            assert sum(p.points for p in parts) == hand.count
            assert all(p.kind in ("end", "double", "free", "hub") and p.label for p in parts)
            assert all(p.points == 0 for p in parts if p.kind == "free")


def test_a_spinner_counts_once_as_a_hub() -> None:
    from bones.engine.notation import parse_move

    rules = compile_rules(load_variant("sniff"), players=2)
    hand = Match(rules, seed=0).new_hand()
    ts = rules.tiles
    from bones.engine.match import Deal

    deal = Deal(hands=(ts.mask_of([ts.parse(t) for t in ("4-4", "1-4", "2-3")]),
                       ts.mask_of([ts.parse(t) for t in ("4-6", "5-6", "3-3")])),
                boneyard=(ts.parse("5-5"), ts.parse("0-0")), leader=0)
    hand = Match(rules, seed=0).start_hand(deal)
    hand.play(parse_move(hand, "4-4"))
    assert [(p.label, p.points) for p in count_parts(hand)] == [
        ("W (free)", 0), ("E (free)", 0), ("N (free)", 0), ("S (free)", 0), ("spinner 4-4", 8)]
    hand.play(parse_move(hand, "6-4@W"))
    assert [(p.label, p.points) for p in count_parts(hand) if p.kind != "free"] == [
        ("W 6", 6), ("spinner 4-4", 8)]
