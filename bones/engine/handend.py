"""The account of a finished hand: what each seat held, how the settlement counted it, in words.

A front end (the terminal's hand-end table, the web page's) only formats a
:class:`HandEnd`; the arithmetic and the rule's phrase live here, next to
:mod:`bones.engine.settle` (which computes the settlement itself).

>>> from bones.engine.load import load_variant
>>> from bones.engine.rules import compile_rules
>>> from bones.engine.match import Match
>>> match = Match(compile_rules(load_variant("all-fives")), seed=3)
>>> hand = match.new_hand()
>>> while not hand.over:
...     hand.apply(hand.legal_moves()[0])
>>> account = hand_end(match.rules, hand, match.finish_hand(hand))
>>> sum(account.pooled) == sum(s.pips for s in account.seats)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bones.engine.moves import Outcome
from bones.engine.settle import ROUND_DOWN, ROUND_NEAREST, ROUND_UP, round_to

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.hand import Hand
    from bones.engine.match import HandSummary
    from bones.engine.rules import Rules
    from bones.engine.spec import SettleRule


@dataclass(frozen=True)
class SeatLeft:
    """One seat at the end of a hand."""

    seat: int
    owner: int  # the seat itself, or its team
    tiles: tuple[int, ...]
    pips: int
    #: this row carries its owner's totals and settlement (one row per owner:
    #: the seat that went out, else the owner's first seat)
    scoring_row: bool


@dataclass(frozen=True)
class HandEnd:
    outcome: Outcome
    domino_seat: int  # -1 unless someone went out
    #: the settlement rule in words ("the player who went out scores the
    #: opponents' pips, rounded to the nearest 5"), None when no rule applied
    rule: str | None
    seats: tuple[SeatLeft, ...]
    pooled: tuple[int, ...]  # pips left per owner
    unit: int  # rounding unit, 1 when the rule does not round
    #: per owner, its pips rounded, where each side's pips are rounded apart
    rounded: tuple[int, ...] | None
    #: (pips counted, rounded) where one total over several sides is rounded
    counted: tuple[int, int] | None
    settlement: tuple[int, ...]

    def how(self, seat_name: Callable[[int], str]) -> str:
        """Why the hand ended, in words, naming seats by ``seat_name``."""
        if self.outcome == Outcome.DOMINO:
            return f"{seat_name(self.domino_seat)} went out (domino)"
        if self.outcome == Outcome.BLOCKED:
            return "the hand is blocked"
        return "the target was reached during the hand"


def settlement_rule(rules: Rules, outcome: int) -> SettleRule | None:
    """The variant's settlement model for a hand that ended so (None: no settlement)."""
    if outcome == Outcome.DOMINO:
        return rules.variant.settlement.domino
    if outcome == Outcome.BLOCKED:
        return rules.variant.settlement.blocked
    return None


def rounding_unit(rule: Any) -> int:
    rounding = getattr(rule, "rounding", None)
    if getattr(rounding, "kind", "none") != "none":
        return int(getattr(rounding, "unit", 1))
    return 1


def rounding_mode(rule: Any) -> int:
    """The rule's ROUND_* code (nearest when it does not round)."""
    kind = getattr(getattr(rule, "rounding", None), "kind", "nearest")
    return {"up": ROUND_UP, "down": ROUND_DOWN}.get(kind, ROUND_NEAREST)


def rule_phrase(rule: Any, side: str) -> str:
    """A settlement rule in a few words; ``side`` is ``"player"`` or ``"team"``."""
    kind = getattr(rule, "kind", "nobody")
    unit = rounding_unit(rule)
    divisor = getattr(rule, "divisor", 1)
    extra = ""
    if unit > 1:
        way = {ROUND_UP: "up to the next", ROUND_DOWN: "down to a multiple of"}.get(
            rounding_mode(rule), "to the nearest")
        extra += f", rounded {way} {unit}"
    if divisor > 1:
        extra += f", divided by {divisor}"
    amount = {
        "opponents": "the opponents' pips",
        "opponents_minus_own": "the opponents' pips less its own",
        "all_hands": "every pip left in every hand",
        "flat": f"{getattr(rule, 'points', 1)} point(s)",
    }.get(getattr(rule, "amount", "opponents"), "the opponents' pips")
    if kind == "own_penalty":
        return f"each {side} loses its own pips{extra}"
    if kind == "domino_er":
        who = "team that" if side == "team" else "player who"
        return f"the {who} went out scores {amount}{extra}"
    if kind == "lightest":
        return f"the lightest {side} scores {amount}{extra}"
    if kind == "each_heavier":
        return f"each {side} scores the difference against every heavier {side}{extra}"
    return "nobody scores"


def hand_end(rules: Rules, hand: Hand, summary: HandSummary) -> HandEnd:
    """The account of ``hand``, finished with ``summary``."""
    rule = settlement_rule(rules, summary.end)
    pooled = [0] * rules.owners
    for seat in range(rules.players):
        pooled[rules.owner[seat]] += hand.pips_left(seat)
    scorer = {}
    if hand.domino_seat >= 0:
        scorer[rules.owner[hand.domino_seat]] = hand.domino_seat
    for seat in range(rules.players):
        scorer.setdefault(rules.owner[seat], seat)
    seats = tuple(
        SeatLeft(seat, rules.owner[seat], tuple(rules.tiles.tiles_of(hand.hands[seat])),
                 hand.pips_left(seat), scorer[rules.owner[seat]] == seat)
        for seat in range(rules.players))
    unit = rounding_unit(rule)
    mode = rounding_mode(rule)
    per = getattr(getattr(rule, "rounding", None), "per", "aggregate")
    # each side's pips are rounded apart under its own penalty, per-opponent
    # rounding, or with one opponent; otherwise one total is rounded
    apart = unit > 1 and (getattr(rule, "kind", "") == "own_penalty" or rules.owners == 2
                          or per != "aggregate")
    # per player: a side's pips count as the sum of its players' rounded hands
    by_player = (per == "player" and getattr(rule, "amount", "") == "opponents"
                 and getattr(rule, "kind", "") in ("domino_er", "lightest"))
    settlement = tuple(summary.settlement)
    counted = None
    if unit > 1 and not apart and settlement and max(settlement) > 0:
        winner = settlement.index(max(settlement))
        others = sum(p for o, p in enumerate(pooled) if o != winner)
        total = {"all_hands": sum(pooled), "opponents_minus_own": max(others - pooled[winner], 0)
                 }.get(getattr(rule, "amount", "opponents"), others)
        counted = (total, round_to(total, unit, mode))
    return HandEnd(
        outcome=Outcome(summary.end),
        domino_seat=hand.domino_seat,
        rule=None if rule is None else rule_phrase(rule, "team" if rules.teams else "player"),
        seats=seats,
        pooled=tuple(pooled),
        unit=unit,
        rounded=(tuple(
            sum(round_to(hand.pips_left(s), unit, mode) for s in range(rules.players)
                if rules.owner[s] == o) if by_player else round_to(p, unit, mode)
            for o, p in enumerate(pooled)) if apart else None),
        counted=counted,
        settlement=settlement,
    )


__all__ = ["HandEnd", "SeatLeft", "hand_end", "rounding_unit",
           "rule_phrase", "settlement_rule"]
