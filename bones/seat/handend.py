"""The account of a finished hand: what each seat held, how the settlement counted it, in words.

A front end (the terminal's hand-end table, the web page's) only formats a
:class:`HandEnd`; the rule's phrase and the sums of the account live here.
What the settlement rounded, and how, is never decided here: it is the
working :func:`bones.engine.settle.settle_worked` reports, from the hand's
own inputs (:func:`bones.engine.hand.settlement_inputs`).

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
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
from typing import TYPE_CHECKING

from bones.engine.hand import settlement_inputs
from bones.engine.moves import Outcome, tile_of
from bones.engine.settle import (
    AMOUNT_ALL_HANDS,
    AMOUNT_FLAT,
    AMOUNT_OPPONENTS,
    AMOUNT_OPPONENTS_MINUS_OWN,
    ROUND_DOWN,
    ROUND_NEAREST,
    ROUND_UP,
    SETTLE_DOMINOER,
    SETTLE_EACH_HEAVIER,
    SETTLE_LIGHTEST,
    SETTLE_OWN_PENALTY,
    Settle,
    Working,
    round_to,
    settle_worked,
)

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.handlike import HandLike
    from bones.engine.match import HandSummary
    from bones.engine.rules import Rules


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
    #: the end-of-hand bonuses inside the winner's settlement, as (what, points)
    bonuses: tuple[tuple[str, int], ...] = ()

    def how(self, seat_name: Callable[[int], str]) -> str:
        """Why the hand ended, in words, naming seats by ``seat_name``."""
        if self.outcome == Outcome.DOMINO:
            return f"{seat_name(self.domino_seat)} went out (domino)"
        if self.outcome == Outcome.BLOCKED:
            return "the hand is blocked"
        return "the target was reached during the hand"


def settlement_rule(rules: Rules, outcome: int) -> Settle | None:
    """The compiled settlement rule of a hand that ended so (None: no settlement)."""
    if outcome == Outcome.DOMINO:
        return rules.settle_domino
    if outcome == Outcome.BLOCKED:
        return rules.settle_blocked
    return None


_ROUNDED = {ROUND_NEAREST: "to the nearest", ROUND_UP: "up to the next",
            ROUND_DOWN: "down to a multiple of"}
_AMOUNT = {AMOUNT_OPPONENTS: "the opponents' pips",
           AMOUNT_OPPONENTS_MINUS_OWN: "the opponents' pips less its own",
           AMOUNT_ALL_HANDS: "every pip left in every hand"}


def rule_phrase(rule: Settle, side: str) -> str:
    """A compiled settlement rule in a few words; ``side`` is ``"player"`` or ``"team"``.

    >>> from bones.engine.settle import SETTLE_DOMINOER, TIES_NOBODY, PER_AGGREGATE
    >>> rule_phrase(Settle(SETTLE_DOMINOER, AMOUNT_OPPONENTS, 1, 5, PER_AGGREGATE, 1, False,
    ...                    TIES_NOBODY), "team")
    "the team that went out scores the opponents' pips, rounded to the nearest 5"
    """
    extra = ""
    if rule.unit > 1:
        extra += f", rounded {_ROUNDED[rule.mode]} {rule.unit}"
    if rule.divisor > 1:
        extra += f", divided by {rule.divisor}"
    amount = f"{rule.flat} point(s)" if rule.amount == AMOUNT_FLAT else _AMOUNT[rule.amount]
    if rule.kind == SETTLE_OWN_PENALTY:
        return f"each {side} loses its own pips{extra}"
    if rule.kind == SETTLE_DOMINOER:
        who = "team that" if side == "team" else "player who"
        return f"the {who} went out scores {amount}{extra}"
    if rule.kind == SETTLE_LIGHTEST:
        return f"the lightest {side} scores {amount}{extra}"
    if rule.kind == SETTLE_EACH_HEAVIER:
        return f"each {side} scores the difference against every heavier {side}{extra}"
    return "nobody scores"


def train_rule_phrase(rules: Rules) -> str:
    """How a train layout's round charges the hands, in a few words.

    >>> from bones.lang.load import load_variant
    >>> from bones.lang.compile import compile_rules
    >>> train_rule_phrase(compile_rules(load_variant("mexican-train")))
    'each player is charged the pips left in his own hand, [0-0] 50'
    """
    trains = rules.trains
    assert trains is not None
    ts = rules.tiles
    odd = [f"[{ts.names[t]}] {v}" for t, v in enumerate(trains.values) if v != ts.pips[t]]
    phrase = "each player is charged the pips left in his own hand"
    if len(odd) > 4:  # a charge for every tile with a blank half, say
        phrase += ", some tiles at other values"
    elif odd:
        phrase += ", " + ", ".join(odd)
    if trains.marker_penalty:
        phrase += f", and {trains.marker_penalty} for a marker on his train"
    return phrase


def _train_hand_end(rules: Rules, hand: HandLike, summary: HandSummary) -> HandEnd:
    """A train layout's round: each seat is charged its own hand's value
    (``pips`` is that value: a tile's charge, not always its pips)."""
    seats = tuple(
        SeatLeft(seat, seat, tuple(rules.tiles.tiles_of(hand.hands[seat])),
                 hand.pips_left(seat), True)
        for seat in range(rules.players))
    return HandEnd(
        outcome=Outcome(summary.end),
        domino_seat=hand.domino_seat,
        rule=train_rule_phrase(rules),
        seats=seats,
        pooled=tuple(s.pips for s in seats),
        unit=1,
        rounded=None,
        counted=None,
        settlement=tuple(summary.settlement),
    )


def hand_end(rules: Rules, hand: HandLike, summary: HandSummary) -> HandEnd:
    """The account of ``hand``, finished with ``summary``."""
    if rules.trains is not None and summary.end in (Outcome.DOMINO, Outcome.BLOCKED):
        return _train_hand_end(rules, hand, summary)
    rule = settlement_rule(rules, summary.end)
    _, pooled, doubles, domino, blocker, players, behind = settlement_inputs(
        rules, hand.hands, summary.end, hand.domino_seat, hand.last_player)
    scorer = {}
    if hand.domino_seat >= 0:
        scorer[rules.owner[hand.domino_seat]] = hand.domino_seat
    for seat in range(rules.players):
        scorer.setdefault(rules.owner[seat], seat)
    seats = tuple(
        SeatLeft(seat, rules.owner[seat], tuple(rules.tiles.tiles_of(hand.hands[seat])),
                 hand.pips_left(seat), scorer[rules.owner[seat]] == seat)
        for seat in range(rules.players))
    unit = rule.unit if rule is not None else 1
    mode = rule.mode if rule is not None else ROUND_NEAREST
    working = Working("", None)
    if rule is not None:
        working = settle_worked(rule, pooled, doubles, domino, blocker, players, behind)[1]
    # each side's pips are shown rounded apart where the settlement rounded
    # sides or players apart, or where one opponent's pips are the total
    apart = unit > 1 and (working.rounded in ("owner", "player") or rules.owners == 2)
    by_player = working.rounded == "player"
    settlement = tuple(summary.settlement)
    counted = None
    if not apart and settlement and max(settlement) > 0:
        counted = working.counted
    return HandEnd(
        bonuses=bonus_parts(rules, hand, summary.end),
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


def bonus_parts(rules: Rules, hand: HandLike, end: int) -> tuple[tuple[str, int], ...]:
    """The end-of-hand bonuses the engine added to the winner's settlement
    (``hand.bonus``), part by part: by the hand's number, for a block won,
    for going out with the last-tile bonus's tile, and capicúa (the rest of
    the going-out bonus)."""
    total = hand.bonus
    if not total or hand.won_by < 0:
        return ()
    parts: list[tuple[str, int]] = []
    if 0 < hand.number <= len(rules.hand_bonus) and rules.hand_bonus[hand.number - 1]:
        parts.append((f"hand {hand.number}", rules.hand_bonus[hand.number - 1]))
    if end == Outcome.BLOCKED and rules.blocked_win:
        parts.append(("blocked hand won", rules.blocked_win))
    if end == Outcome.DOMINO and hand.log:
        last = hand.log[-1][1]
        if last >= 0 and tile_of(last) == rules.last_tile:
            parts.append((f"going out with {rules.tiles.names[rules.last_tile]}",
                          rules.last_tile_points))
    rest = total - sum(p for _, p in parts)
    if rest > 0:
        parts.append(("capicúa", rest))
    return tuple(parts)


__all__ = ["HandEnd", "SeatLeft", "bonus_parts", "hand_end", "rule_phrase", "settlement_rule",
           "train_rule_phrase"]
