"""What many test modules share: compiled built-ins and positions to test on.

:func:`compiled` compiles a built-in once per (name, players, teams) for the
whole session (a ``Rules`` is immutable); :func:`positions` walks the hands
of a seeded match, its moves half greedy and half random, and yields the
positions a test wants to look at.  The cores' own support is in
``native_support``; the hypothesis budgets in ``hypothesis_budget``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from bones.bots.policies import greedy_move
from bones.engine.hand import Hand
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant


@cache
def compiled(name: str, players: int | None = None, teams: bool | None = None) -> Rules:
    """The built-in ``name`` compiled for ``players`` (its smallest count by
    default) with or without partnerships (``None``: as the variant says)."""
    return compile_rules(load_variant(name), players, teams)


def positions(rules: Rules, seed: int, *, hands: int = 1, every: int = 1, mix: float = 0.5,
              choices_only: bool = True, scores: list[int] | None = None) -> Iterator[Hand]:
    """Positions of the first ``hands`` hands of ``Match(rules, seed)``
    (from ``scores``), moves greedy with probability ``mix`` and random
    otherwise: one in ``every`` of those with a real choice (every position
    when ``choices_only`` is false)."""
    match = Match(rules, seed, scores=scores)
    rng = Rng(seed)
    n = 0
    for _ in range(hands):
        hand = match.new_hand()
        while not hand.over:
            legal = hand.legal_moves()
            if len(legal) > 1 or not choices_only:
                n += 1
                if n % every == 0:
                    yield hand
            hand.apply(greedy_move(hand, legal) if rng.random() < mix else rng.choice(legal))
        match.finish_hand(hand)
        if match.game_over:
            return
