"""End-of-hand settlement, compiled from the variant's settlement rule.

A settlement rule is compiled once (:func:`compile_settlement`) into a
:class:`Settle` of plain int codes (who scores, the amount, its rounding and
divisor, ties); :func:`settle` interprets one over score owners (seats, or
teams when partnered), once per hand, with each owner's pooled pips.  Being
plain data, a compiled rule pickles and the native core reads the same codes.

>>> rule = Settle(SETTLE_DOMINOER, AMOUNT_OPPONENTS, 1, 5, PER_AGGREGATE, 1, False, TIES_NOBODY)
>>> settle(rule, [0, 13, 9], [False, True, False], 0, 0)
[20, 0, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# who scores; SETTLE_LOCKER: the locker's hand against a neighbour's;
# SETTLE_LOSERS_PAY: every side but the winner is charged its own pips
(SETTLE_NOBODY, SETTLE_OWN_PENALTY, SETTLE_EACH_HEAVIER, SETTLE_DOMINOER, SETTLE_LIGHTEST,
 SETTLE_LOCKER, SETTLE_LOSERS_PAY) = range(7)
# the amount
AMOUNT_OPPONENTS, AMOUNT_OPPONENTS_MINUS_OWN, AMOUNT_ALL_HANDS, AMOUNT_FLAT = range(4)
# tied lightest hands; TIES_BLOCKER: the tied hand that made the last play wins
TIES_NOBODY, TIES_SHARE, TIES_NOT_BLOCKER, TIES_FULL, TIES_CARRY, TIES_BLOCKER = range(6)
# what a lightest comparison compares: each side's pooled pips, or each player's own
COMPARE_SIDE, COMPARE_PLAYER = range(2)
# the locker's neighbour (SETTLE_LOCKER): the seat before him in play order, or after
AGAINST_PREVIOUS, AGAINST_NEXT = range(2)
# what is rounded apart (rounding.per): the total, each opposing owner (a
# team's pips pooled), each opposing player
PER_AGGREGATE, PER_OPPONENT, PER_PLAYER = range(3)
# which way (rounding.kind)
ROUND_NEAREST, ROUND_UP, ROUND_DOWN = range(3)


@dataclass(frozen=True)
class Settle:
    """One compiled settlement rule: ints and bools only."""

    kind: int  # SETTLE_*
    amount: int  # AMOUNT_*
    flat: int  # the points of AMOUNT_FLAT
    unit: int  # rounding unit; 1: no rounding
    per: int  # PER_*: what the opponents amount (own_penalty: PER_PLAYER) rounds apart
    divisor: int
    doubles_lose: bool  # lightest: a hand holding a double loses to any double-free one
    ties: int  # TIES_*
    mode: int = ROUND_NEAREST  # ROUND_*
    compare: int = COMPARE_SIDE  # COMPARE_*: lightest and losers_pay
    against: int = AGAINST_PREVIOUS  # AGAINST_*: locker


def round_nearest(value: int, unit: int) -> int:
    """Round a non-negative whole number to the nearest multiple of ``unit``.

    Remainders of half a unit or more round up (for 5: 3 and 4 up, 1 and 2
    down); integer pips never make a half-way case for odd units.

    >>> [round_nearest(x, 5) for x in (2, 3, 26, 27, 28)]
    [0, 5, 25, 25, 30]
    """
    quotient, remainder = divmod(value, unit)
    return (quotient + (1 if 2 * remainder >= unit else 0)) * unit


def round_to(value: int, unit: int, mode: int = ROUND_NEAREST) -> int:
    """Round a non-negative whole number to a multiple of ``unit``: to the
    nearest (:func:`round_nearest`), up or down.

    >>> [round_to(x, 5, ROUND_UP) for x in (0, 1, 5, 26)]
    [0, 5, 5, 30]
    >>> [round_to(x, 5, ROUND_DOWN) for x in (4, 5, 29)]
    [0, 5, 25]
    """
    if mode == ROUND_UP:
        return -(-value // unit) * unit
    if mode == ROUND_DOWN:
        return value - value % unit
    return round_nearest(value, unit)


#: What a settlement rounded apart (:class:`Working`): nothing, one total,
#: each side's pips, or each player's hand.
Rounded = Literal["", "total", "owner", "player"]


@dataclass(frozen=True)
class Working:
    """How a settlement counted, for the front ends to explain (never to
    decide again): what it rounded apart, and the one total a side scored
    when it rounded a total (its pips and what they rounded to)."""

    rounded: Rounded
    counted: tuple[int, int] | None


class _Notes:
    """What a settlement rounds, noted as it goes (``settle_worked``)."""

    __slots__ = ("counted", "rounded")

    def __init__(self) -> None:
        self.rounded: Rounded = ""
        self.counted: tuple[int, int] | None = None

    def note(self, rounded: Rounded, counted: tuple[int, int] | None = None) -> None:
        self.rounded = self.rounded or rounded
        if counted is not None and self.counted is None:
            self.counted = counted


def of_total(rule: Settle, pips: int, notes: _Notes | None = None) -> int:
    """An amount of pips, floored at 0, rounded, then divided."""
    pips = max(pips, 0)
    if rule.unit > 1:
        rounded = round_to(pips, rule.unit, rule.mode)
        if notes is not None:
            notes.note("total", (pips, rounded))
        pips = rounded
    return pips // rule.divisor


def of_parts(rule: Settle, parts: list[int], notes: _Notes | None = None,
             what: Rounded = "owner") -> int:
    """Opponents' pips, rounded once in all, or each part apart (``parts``
    are the opponents' hands, ``what`` is ``"owner"``, or their players'
    hands under ``per: player``, ``"player"``)."""
    if rule.per != PER_AGGREGATE and rule.unit > 1:
        if notes is not None:
            notes.note(what)
        return sum(round_to(p, rule.unit, rule.mode) for p in parts) // rule.divisor
    return of_total(rule, sum(parts), notes)


def share(rule: Settle, amount: int, ways: int) -> int:
    """One of ``ways`` equal shares, rounded down to the rounding unit."""
    each = amount // ways
    if rule.unit > 1:
        each -= each % rule.unit
    return each


def amount_won(rule: Settle, pips: list[int], winner: int, losers: list[int],
               players: list[list[int]] | None = None, notes: _Notes | None = None) -> int:
    """What ``winner`` scores from ``losers`` by the rule's amount
    (``players``: each owner's players' pips, for ``per: player``)."""
    amount = rule.amount
    if amount == AMOUNT_FLAT:
        return rule.flat
    if amount == AMOUNT_OPPONENTS:
        if rule.per == PER_PLAYER and players is not None:
            return of_parts(rule, [p for o in losers for p in players[o]], notes, "player")
        return of_parts(rule, [pips[o] for o in losers], notes)
    if amount == AMOUNT_OPPONENTS_MINUS_OWN:
        return of_total(rule, sum(pips[o] for o in losers) - pips[winner], notes)
    # all_hands: every pip left on the table, the winner's side included
    return of_total(rule, sum(pips), notes)


@dataclass(frozen=True)
class Seats:
    """The seats behind the sides, for the rules that compare single hands
    (``compare: player``, ``kind: locker``): each seat's pips, each seat's
    side, and the locker (the seat that made the last play; -1: none)."""

    pips: tuple[int, ...]
    owner: tuple[int, ...]
    locker: int


@dataclass(frozen=True)
class Verdict:
    """Who won a blocked hand, as its settlement rule decides it: the sides
    that win (one, or the tied sides that share), the sides tied when none
    does (what ``ties: carry`` pots), and the seat whose hand won (-1)."""

    winners: tuple[int, ...]
    tied: tuple[int, ...]
    seat: int


_NO_VERDICT = Verdict((), (), -1)


def decide(rule: Settle, pips: list[int], doubles: list[bool], blocker: int,
           seats: Seats | None = None) -> Verdict:
    """Who wins a blocked hand under ``rule`` (a lightest, locker or
    losers_pay rule; the others decide no winner): ``pips`` and ``doubles``
    per side, ``blocker`` the side that made the last play (-1: none),
    ``seats`` the seats behind them (needed to compare single hands).

    >>> rule = Settle(SETTLE_LIGHTEST, AMOUNT_OPPONENTS, 1, 1, PER_AGGREGATE, 1, False, TIES_NOBODY,
    ...               compare=COMPARE_PLAYER)
    >>> decide(rule, [15, 11], [False, False], 0, Seats((3, 5, 12, 6), (0, 1, 0, 1), 3))
    Verdict(winners=(0,), tied=(), seat=0)
    """
    kind = rule.kind
    if kind == SETTLE_LOCKER:
        return _locker(rule, seats)
    if kind != SETTLE_LIGHTEST and kind != SETTLE_LOSERS_PAY:
        return _NO_VERDICT
    if rule.compare == COMPARE_PLAYER and seats is not None:
        low = min(seats.pips)
        lowest = [s for s in _after(seats.locker, len(seats.pips)) if seats.pips[s] == low]
        tied = list(dict.fromkeys(seats.owner[s] for s in lowest))
    else:
        tied = lightest_owners(rule, pips, doubles)
        lowest = []
    winners = tied
    if len(tied) > 1:
        ties = rule.ties
        if ties == TIES_NOT_BLOCKER or ties == TIES_BLOCKER:
            winners = [o for o in tied if (o == blocker) == (ties == TIES_BLOCKER)]
            if len(winners) != 1:
                winners = []
        elif ties != TIES_SHARE and ties != TIES_FULL:
            winners = []
    seat = -1
    if len(winners) == 1:
        won = winners[0]
        if lowest:  # the first of the side's lowest hands after the locker
            seat = next(s for s in lowest if seats is not None and seats.owner[s] == won)
        elif seats is not None:  # the side's lightest hand, the first seat on a tie
            seat = min((s for s, o in enumerate(seats.owner) if o == won),
                       key=lambda s: (seats.pips[s], s))
    return Verdict(tuple(winners), tuple(tied) if not winners else (), seat)


def _after(locker: int, players: int) -> list[int]:
    """The seats in play order from the one after ``locker`` (from 0 without one)."""
    start = locker + 1 if locker >= 0 else 0
    return [(start + i) % players for i in range(players)]


def _locker(rule: Settle, seats: Seats | None) -> Verdict:
    """The locker's hand against his neighbour's: the lower wins for its side."""
    if seats is None or seats.locker < 0:
        return _NO_VERDICT
    players = len(seats.pips)
    mine = seats.locker
    step = -1 if rule.against == AGAINST_PREVIOUS else 1
    theirs = (mine + step) % players
    if seats.pips[mine] != seats.pips[theirs]:
        seat = mine if seats.pips[mine] < seats.pips[theirs] else theirs
    elif rule.ties == TIES_BLOCKER:
        seat = mine
    elif rule.ties == TIES_NOT_BLOCKER:
        seat = theirs
    else:
        return Verdict((), (seats.owner[mine], seats.owner[theirs]), -1)
    return Verdict((seats.owner[seat],), (), seat)


def settle(rule: Settle, pips: list[int], doubles: list[bool], domino: int,
           blocker: int, players: list[list[int]] | None = None,
           seats: Seats | None = None) -> list[int]:
    """Each owner's settlement: ``pips`` and ``doubles`` (holds a double) per
    owner, ``domino`` the owner who went out (-1 when blocked), ``blocker``
    the owner who made the last play (-1 when none); ``players`` is each
    owner's players' pips (needed only by ``per: player`` with teams);
    ``seats`` the seats behind the owners (needed by the rules that compare
    single hands)."""
    return _settle(rule, pips, doubles, domino, blocker, players, seats, None)


def settle_worked(rule: Settle, pips: list[int], doubles: list[bool], domino: int,
                  blocker: int, players: list[list[int]] | None = None,
                  seats: Seats | None = None) -> tuple[list[int], Working]:
    """:func:`settle`, with its working: what it rounded, and how.

    >>> rule = Settle(SETTLE_DOMINOER, AMOUNT_OPPONENTS, 1, 5, PER_AGGREGATE, 1, False, TIES_NOBODY)
    >>> settle_worked(rule, [0, 13, 9], [False, True, False], 0, 0)
    ([20, 0, 0], Working(rounded='total', counted=(22, 20)))
    """
    notes = _Notes()
    deltas = _settle(rule, pips, doubles, domino, blocker, players, seats, notes)
    return deltas, Working(notes.rounded, notes.counted)


def _settle(rule: Settle, pips: list[int], doubles: list[bool], domino: int, blocker: int,
            players: list[list[int]] | None, seats: Seats | None,
            notes: _Notes | None) -> list[int]:
    n = len(pips)
    deltas = [0] * n
    kind = rule.kind
    if kind == SETTLE_NOBODY:
        return deltas
    if kind == SETTLE_OWN_PENALTY:
        if rule.per == PER_PLAYER and players is not None:
            # each partner's own hand rounded on its own (pagat's Sniff)
            return [-of_parts(rule, players[o], notes, "player") for o in range(n)]
        if notes is not None and rule.unit > 1:
            notes.note("owner")
        return [-of_total(rule, p) for p in pips]
    if kind == SETTLE_EACH_HEAVIER:
        if notes is not None and rule.unit > 1:
            notes.note("owner")  # every difference rounded on its own
        for i, mine in enumerate(pips):
            for theirs in pips:
                if theirs > mine:
                    deltas[i] += of_total(rule, theirs - mine)
        return deltas
    if kind == SETTLE_DOMINOER:
        if domino >= 0:
            losers = [o for o in range(n) if o != domino]
            deltas[domino] = amount_won(rule, pips, domino, losers, players, notes)
        return deltas
    winners = [domino] if domino >= 0 else list(decide(rule, pips, doubles, blocker, seats).winners)
    if not winners:
        return deltas
    if kind == SETTLE_LOSERS_PAY:
        # every side that did not win is charged its own pips (a penalty)
        if notes is not None and rule.unit > 1:
            notes.note("owner")
        return [0 if o in winners else of_total(rule, pips[o]) for o in range(n)]
    # the lightest side or sides (or the locker comparison's winner) score
    # from the other sides
    losers = [o for o in range(n) if o not in winners]
    total = amount_won(rule, pips, winners[0], losers, players, notes)
    each = share(rule, total, len(winners)) if rule.ties == TIES_SHARE and len(winners) > 1 \
        else total
    for o in winners:
        deltas[o] = each
    return deltas


def lightest_owners(rule: Settle, pips: list[int], doubles: list[bool]) -> list[int]:
    """The owners with the lightest hand (by the rule's ``doubles_lose`` too)."""
    n = len(pips)
    doubles_lose = rule.doubles_lose
    keys = [((doubles[o] if doubles_lose else False), pips[o]) for o in range(n)]
    best = min(keys)
    return [o for o in range(n) if keys[o] == best]


def carried(rule: Settle, pips: list[int], doubles: list[bool],
            players: list[list[int]] | None = None, blocker: int = -1,
            seats: Seats | None = None) -> int:
    """What a hand puts in the pot under ``ties: carry``: what one of the tied
    lightest hands would have scored alone, from every other hand (the other
    tied hands included, so a tie of two players still leaves a pot); 0 when
    the lightest hand is alone.

    >>> rule = Settle(SETTLE_LIGHTEST, AMOUNT_OPPONENTS, 1, 5, PER_AGGREGATE, 1, False, TIES_CARRY)
    >>> settle(rule, [3, 3, 9], [False] * 3, -1, 0), carried(rule, [3, 3, 9], [False] * 3)
    ([0, 0, 0], 10)
    """
    if rule.kind != SETTLE_LIGHTEST or rule.ties != TIES_CARRY:
        return 0
    tied = decide(rule, pips, doubles, blocker, seats).tied
    if len(tied) < 2:
        return 0
    losers = [o for o in range(len(pips)) if o != tied[0]]
    return amount_won(rule, pips, tied[0], losers, players)


def hand_winner(deltas: list[int], domino: int) -> int:
    """The owner who won a hand: the domino-er, else the one owner whose
    settlement was best and positive; -1 when there is no such owner."""
    if domino >= 0:
        return domino
    best = max(deltas)
    top = [o for o, d in enumerate(deltas) if d == best]
    return top[0] if len(top) == 1 and best > 0 else -1


def hand_winners(rule: Settle, pips: list[int], doubles: list[bool], domino: int,
                 blocker: int, seats: Seats | None = None) -> list[int]:
    """The owners who won a hand for ``match.check: hand_winner``: the
    domino-er; in a blocked hand (``rule`` its settlement) the sides its
    comparison decides (:func:`decide`), however little they score (0
    included): the lightest hand, with the ties rule deciding a tie
    (``not_blocker`` the one tied hand that did not make the last play,
    ``blocker`` the one that did, ``share`` and ``full`` every tied hand,
    ``nobody`` and ``carry`` none).  Settlements that compare no hands
    (each_heavier, own_penalty, nobody) compare the pips alone, and a tie
    has no winner.

    >>> rule = Settle(SETTLE_LIGHTEST, AMOUNT_OPPONENTS, 1, 5, PER_AGGREGATE, 1, False, TIES_NOBODY)
    >>> hand_winners(rule, [1, 9], [False, False], -1, 1), hand_winners(rule, [4, 4], [False] * 2, -1, 1)
    ([0], [])
    """
    if domino >= 0:
        return [domino]
    if rule.kind in (SETTLE_LIGHTEST, SETTLE_LOCKER, SETTLE_LOSERS_PAY):
        return list(decide(rule, pips, doubles, blocker, seats).winners)
    best = min(pips)
    lightest = [o for o, p in enumerate(pips) if p == best]
    return lightest if len(lightest) == 1 else []
