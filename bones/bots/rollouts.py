"""The full-information policies a search plays its worlds out with.

A rollout sees the whole sampled world (every hand), so these are fast
moves of the whole hand, not honest bots: ``greedy`` (the most points now),
``heuristic`` (the ``heuristic`` bot's judgement, reading the world's hands
as unseen) and ``random``.  Each takes the hand and a generator and returns
a legal move; both cores play them the same (``native/src/bots/search.rs``,
``rollout_move``).
"""

from __future__ import annotations

from collections.abc import Callable

from bones.bots.basic import heuristic_move
from bones.bots.policies import greedy_move
from bones.engine.hand import Hand
from bones.engine.rng import Rng


def _greedy_policy(hand: Hand, rng: Rng) -> int:
    return greedy_move(hand)


def _heuristic_policy(hand: Hand, rng: Rng) -> int:
    legal = hand.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = hand.turn
    unseen = hand.rules.tiles.full & ~(hand.hands[seat] | hand.on_table | hand.out_of_play)
    counts = [h.bit_count() for h in hand.hands]
    return heuristic_move(hand, unseen, counts, hand.drawable, 0, legal)


def _random_policy(hand: Hand, rng: Rng) -> int:
    legal = hand.legal_moves()
    return legal[0] if len(legal) == 1 else rng.choice(legal)


#: the rollout policies by name
POLICIES: dict[str, Callable[[Hand, Rng], int]] = {
    "greedy": _greedy_policy, "heuristic": _heuristic_policy, "random": _random_policy}

__all__ = ["POLICIES"]
