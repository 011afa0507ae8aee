"""The heuristic on a train layout judges charges and trains (issue 34).

``basic.train_heuristic_move`` (and the native ``kernel::trains::
heuristic_move``) values a play by the charge it sheds (the compiled
``trains.values``, [0-0] 50, not the pips) and by who can follow the ends
it leaves: a double owed covers binds the next players to its number.
Each position is judged by the Python reference and, where the native core
is installed, by the native train hand replaying the same moves (the
rounds of every built-in and alternative key are compared move by move in
``tests/test_trains_native.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from native_support import bones_native
from test_trains import _hand, _play, _rules, _texts
from test_trains_native import native_of

from bones.bots.basic import HeuristicBot
from bones.engine.notation import format_move
from bones.engine.trains import TrainHand
from bones.seat.observation import observe


def _choice(hand: TrainHand, dealt: TrainHand) -> str:
    """The heuristic's move for the seat to move in ``hand`` (``dealt``: its
    round as dealt), on each core: the same."""
    move = HeuristicBot().choose(observe(hand, hand.turn), None)
    if bones_native is not None:
        nat = native_of(dealt)
        for _, played, _ in hand.log:
            nat.apply(played)
        assert nat.legal_moves() == hand.legal_moves()
        assert nat.heuristic_move() == move
    return format_move(hand, move, bare=False)


def _chicken_foot(changes: dict[str, Any], mine: list[str], theirs: list[str],
                  hub: list[str], boneyard: list[str]) -> tuple[TrainHand, TrainHand]:
    """Two seats of Chicken Foot: seat 0 places 9-9, the centre is filled
    (seat 1 lays 9-2 and 9-3, seat 0 the two ``hub`` tiles), seat 1 moves;
    and the round as dealt."""
    rules = _rules("chicken-foot", 2, changes)
    deal = [["9-9", *hub, *theirs], ["9-2", "9-3", *mine]]
    hand = _hand(rules, deal, boneyard)
    _play(hand, "9-9", "9-2@H", f"{hub[0]}@H", "9-3@H", f"{hub[1]}@H")
    assert hand.turn == 1 and not hand.hub_left
    return hand, _hand(rules, deal, boneyard)


@pytest.mark.parametrize("blank, want", [(50, "0-0@A2"), (0, "6-6@A4")])
def test_a_play_sheds_its_charge_not_its_pips(blank, want):
    # [0-0] and [6-6] fit the 0 and the 6 ends, each a double the opponent
    # must cover, with one more tile of its number in hand: only the charge
    # differs, 50 against 12 where the rules charge [0-0] 50 (its pips: 0)
    hand, dealt = _chicken_foot({"settlement.domino.double_blank": blank,
                          "settlement.blocked.double_blank": blank},
                         ["0-0", "0-5", "6-6", "6-5"], ["4-8", "3-4", "7-7"], ["9-0", "9-6"],
                         ["4-4", "4-5", "5-5", "1-1", "2-2", "3-3", "1-6", "1-7"])
    assert _texts(hand) == ["0-0@A2", "0-5@A2", "6-5@A4", "6-6@A4"]
    assert _choice(hand, dealt) == want


@pytest.mark.parametrize("cover, want", [(3, "1-1@A4"), (0, "3-5@A3")])
def test_a_double_the_next_players_must_cover_is_worth_its_bind(cover, want):
    # [1-1] sheds 2 pips, [3-5] 8; where a double is owed three toes by the
    # next players (the built-in), [1-1] binds the opponent to a 1 (and the
    # mover holds [1-6] for his own toe); owed nothing, it is a light tile
    hand, dealt = _chicken_foot({"layout.trains.doubles.cover": cover},
                         ["1-1", "1-6", "0-8", "4-5", "3-5"], ["4-8", "3-4", "7-7"],
                         ["9-0", "9-1"], ["4-4", "2-4", "5-5", "2-2", "3-3", "1-5", "1-7"])
    assert _texts(hand) == ["0-8@A2", "1-1@A4", "1-6@A4", "3-5@A3"]
    assert _choice(hand, dealt) == want
