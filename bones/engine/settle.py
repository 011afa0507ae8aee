"""End-of-hand settlement, composed from the variant's settlement rule.

A settlement rule is compiled once (:func:`compile_settlement`) into a plain
function ``settle(pips, doubles, domino_owner, blocker_owner) -> deltas`` over
score owners (seats, or teams when partnered); the engine calls it once per
hand with each owner's pooled pips.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bones.engine import spec

SettleFn = Callable[[list[int], list[bool], int, int], list[int]]


def round_nearest(value: int, unit: int) -> int:
    """Round a non-negative whole number to the nearest multiple of ``unit``.

    Remainders of half a unit or more round up (for 5: 3 and 4 up, 1 and 2
    down); integer pips never make a half-way case for odd units.

    >>> [round_nearest(x, 5) for x in (2, 3, 26, 27, 28)]
    [0, 5, 25, 25, 30]
    """
    quotient, remainder = divmod(value, unit)
    return (quotient + (1 if 2 * remainder >= unit else 0)) * unit


@dataclass(frozen=True)
class Arithmetic:
    """Rounding and division applied to an amount of pips."""

    unit: int  # 1: no rounding
    per_opponent: bool
    divisor: int

    def of_total(self, pips: int) -> int:
        pips = max(pips, 0)
        if self.unit > 1:
            pips = round_nearest(pips, self.unit)
        return pips // self.divisor

    def of_parts(self, parts: list[int]) -> int:
        """Opponents' pips, rounded once in all or each opponent apart."""
        if self.per_opponent and self.unit > 1:
            return sum(round_nearest(p, self.unit) for p in parts) // self.divisor
        return self.of_total(sum(parts))

    def share(self, amount: int, ways: int) -> int:
        """One of ``ways`` equal shares, rounded down to the rounding unit."""
        each = amount // ways
        if self.unit > 1:
            each -= each % self.unit
        return each


def _arithmetic(rule: object) -> Arithmetic:
    rounding = getattr(rule, "rounding", spec.NoRounding())
    divisor = getattr(rule, "divisor", 1)
    if isinstance(rounding, spec.NearestRounding):
        return Arithmetic(rounding.unit, rounding.per == "opponent", divisor)
    return Arithmetic(1, False, divisor)


def _amount(amount: str, flat: int, arith: Arithmetic, pips: list[int], winner: int,
            losers: list[int]) -> int:
    if amount == "flat":
        return flat
    if amount == "opponents":
        return arith.of_parts([pips[o] for o in losers])
    if amount == "opponents_minus_own":
        return arith.of_total(sum(pips[o] for o in losers) - pips[winner])
    # all_hands: every pip left on the table, the winner's side included
    return arith.of_total(sum(pips))


def compile_settlement(rule: object, players: int) -> SettleFn:
    """The settlement function of one rule (``settlement.domino`` or ``.blocked``)."""
    arith = _arithmetic(rule)

    if isinstance(rule, spec.NobodySettles):
        def settle_nobody(pips: list[int], doubles: list[bool], domino: int, blocker: int) -> list[int]:
            return [0] * len(pips)
        return settle_nobody

    if isinstance(rule, spec.OwnPenaltySettles):
        def settle_own(pips: list[int], doubles: list[bool], domino: int, blocker: int) -> list[int]:
            return [-arith.of_total(p) for p in pips]
        return settle_own

    if isinstance(rule, spec.EachHeavierSettles):
        def settle_cascade(pips: list[int], doubles: list[bool], domino: int, blocker: int) -> list[int]:
            deltas = [0] * len(pips)
            for i, mine in enumerate(pips):
                for theirs in pips:
                    if theirs > mine:
                        deltas[i] += arith.of_total(theirs - mine)
            return deltas
        return settle_cascade

    if isinstance(rule, spec.DominoerSettles):
        amount, flat = rule.amount, rule.points

        def settle_dominoer(pips: list[int], doubles: list[bool], domino: int, blocker: int) -> list[int]:
            deltas = [0] * len(pips)
            if domino < 0:
                return deltas
            losers = [o for o in range(len(pips)) if o != domino]
            deltas[domino] = _amount(amount, flat, arith, pips, domino, losers)
            return deltas
        return settle_dominoer

    if isinstance(rule, spec.LightestSettles):
        amount, flat, doubles_lose = rule.amount, rule.points, rule.doubles_lose
        ties = spec.for_players(rule.ties, players)

        def settle_lightest(pips: list[int], doubles: list[bool], domino: int, blocker: int) -> list[int]:
            n = len(pips)
            deltas = [0] * n
            keys = [((doubles[o] if doubles_lose else False), pips[o]) for o in range(n)]
            best = min(keys)
            lightest = [o for o in range(n) if keys[o] == best]
            if len(lightest) > 1:
                if ties == "not_blocker":
                    lightest = [o for o in lightest if o != blocker]
                    if len(lightest) != 1:
                        return deltas
                elif ties == "share":
                    losers = [o for o in range(n) if o not in lightest]
                    total = _amount(amount, flat, arith, pips, lightest[0], losers)
                    for o in lightest:
                        deltas[o] = arith.share(total, len(lightest))
                    return deltas
                else:
                    return deltas
            winner = lightest[0]
            losers = [o for o in range(n) if o != winner]
            deltas[winner] = _amount(amount, flat, arith, pips, winner, losers)
            return deltas
        return settle_lightest

    raise TypeError(f"unknown settlement rule {rule!r}")  # pragma: no cover


def hand_winner(deltas: list[int], domino: int) -> int:
    """The owner who won a hand: the domino-er, else the one owner whose
    settlement was best and positive; -1 when there is no such owner."""
    if domino >= 0:
        return domino
    best = max(deltas)
    top = [o for o, d in enumerate(deltas) if d == best]
    return top[0] if len(top) == 1 and best > 0 else -1
