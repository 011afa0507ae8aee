"""Who leads a hand: the compiled lead rules applied to a fresh deal.

One implementation serves every source of randomness.  A *dealer* supplies
the random events (:class:`Dealer`): :class:`bones.engine.match.Match` answers
them from its seeded stream (docs/random.md says exactly what it draws), and
:mod:`bones.seat.chance` asks an outside chooser for each one (OpenSpiel's
chance nodes, a scripted deal).  :func:`deal_and_lead` then applies the rule:

* a seat fixed by the later-lead rule, a seat by lot (:func:`by_lot`), a seat
  at random, or a named seat;
* the holder of a named tile, of the highest or of the lowest double, with
  the rule's fallback when nobody holds it: the highest double and then the
  heaviest tile, the heaviest or the lightest tile, the heaviest hand, a lot,
  everyone drawing one more tile in turn until a double appears, or a redeal;
* the holder of the lightest tile, who leads it;
* ``lead: allowed: double``: the first seat from the leader round the table
  that holds a double leads one, or the hand is redealt.

It returns the :class:`Deal` to play, or ``None`` when the rule asks for a
redeal (docs/rules.md has the rules and their sources).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bones.engine.rules import (
    LEAD_HIGHEST_DOUBLE,
    LEAD_LIGHTEST_TILE,
    LEAD_LOCKER,
    LEAD_LOT,
    LEAD_LOWEST_DOUBLE,
    LEAD_RANDOM,
    LEAD_SEAT,
    LEAD_TILE,
    LEAD_TILES,
    NONE_DRAW_MORE,
    NONE_HEAVIEST_HAND,
    NONE_HEAVIEST_TILE,
    NONE_HIGHEST_DOUBLE,
    NONE_LIGHTEST_TILE,
    NONE_LOT,
    NONE_REDEAL,
    LeadRule,
    Rules,
)


@dataclass(frozen=True)
class Deal:
    """Everything needed to replay a hand without the random generator."""

    hands: tuple[int, ...]
    boneyard: tuple[int, ...]
    leader: int
    lead_tile: int = -1
    lead_doubles_only: bool = False
    out_of_play: int = 0


class Dealer(Protocol):
    """The random events of a hand's start, in the order they happen."""

    def leader_by_lot(self, contenders: list[int]) -> int:
        """The seat among ``contenders`` that wins the lot (see :func:`by_lot`)."""

    def leader_at_random(self) -> int:
        """A seat chosen uniformly."""

    def hands_and_boneyard(self) -> tuple[list[int], list[int]]:
        """The seats' tile masks and the boneyard in drawing order."""

    def draw_for_lead(self, seat: int, boneyard: list[int]) -> int:
        """The tile ``seat`` draws (removed from ``boneyard``) while the
        players draw for a double to lead."""


def by_lot(rules: Rules, contenders: list[int], draw: Callable[[int], list[int]]) -> int:
    """Each contender draws a tile from the whole set (``draw(k)``: k distinct
    tiles); the heaviest leads, and those tied for it draw again."""
    pips = rules.tiles.pips
    while len(contenders) > 1:
        drawn = draw(len(contenders))
        best = max(pips[t] for t in drawn)
        contenders = [c for c, t in zip(contenders, drawn) if pips[t] == best]
    return contenders[0]


def deal_and_lead(rules: Rules, rule: LeadRule | int, dealer: Dealer) -> Deal | None:
    """Deal one hand and apply the lead ``rule`` (or the fixed seat the
    later-lead rule chose); ``None`` asks for a redeal."""
    players = rules.players
    leader = -1
    kind = -1
    if isinstance(rule, int):
        leader = rule
    else:
        kind = rule.kind
        if kind == LEAD_LOT or kind == LEAD_LOCKER:
            # (the locker is a seat the later-lead rule names: never dealt by rule)
            leader = dealer.leader_by_lot(list(range(players)))
        elif kind == LEAD_RANDOM:
            leader = dealer.leader_at_random()
        elif kind == LEAD_SEAT:
            leader = rule.arg
    hands, boneyard = dealer.hands_and_boneyard()
    if refused(rules, hands):
        return None
    lead_tile = -1
    if kind == LEAD_LIGHTEST_TILE:
        leader, lead_tile = _extreme_tile(rules, hands, lightest=True)
    elif kind in (LEAD_HIGHEST_DOUBLE, LEAD_LOWEST_DOUBLE, LEAD_TILE, LEAD_TILES):
        assert isinstance(rule, LeadRule)
        found = _lead_by_tile(rules, rule, hands, boneyard, dealer)
        if found is None:
            return None
        leader, lead_tile = found
    doubles_only = False
    if lead_tile < 0 and rules.lead_doubles_only:
        doubles = rules.tiles.doubles
        if rules.lead_draws_double:
            drawn = draw_for_double(rules, hands, boneyard, leader,
                                    lambda: dealer.draw_for_lead(leader, boneyard))
            if drawn is None:
                return None
            lead_tile = drawn
        else:
            for step in range(players):
                seat = (leader + step) % players
                if hands[seat] & doubles:
                    leader = seat
                    break
            else:
                return None
        doubles_only = lead_tile < 0
    return Deal(tuple(hands), tuple(boneyard), leader, lead_tile, doubles_only)


def draw_for_double(rules: Rules, hands: list[int], boneyard: list[int], leader: int,
                    draw: Callable[[], int]) -> int | None:
    """``lead.if_no_double: draw``: a leader holding no double draws (``draw()``
    takes the boneyard's top tile) until a double comes, which he must lead;
    the drawn tiles stay in his hand.  The double to lead (-1: he holds one
    already, and leads any double), or None when the drawable boneyard runs
    out first (a redeal)."""
    doubles = rules.tiles.doubles
    lead_tile = -1
    while not hands[leader] & doubles:
        if len(boneyard) <= rules.reserve:
            return None
        tile = draw()
        hands[leader] |= 1 << tile
        if rules.tiles.is_double[tile]:
            lead_tile = tile
    return lead_tile


def refused(rules: Rules, hands: list[int]) -> bool:
    """Whether the deal is thrown in for what a hand holds (``deal.redeal``):
    at least ``redeal_doubles`` doubles, or ``redeal_suit`` tiles bearing one
    number (a double counted once)."""
    if not rules.redeal_doubles and not rules.redeal_suit:
        return False
    ts = rules.tiles
    for hand in hands:
        if rules.redeal_doubles and (hand & ts.doubles).bit_count() >= rules.redeal_doubles:
            return True
        if rules.redeal_suit and any((hand & ts.matching[pip]).bit_count() >= rules.redeal_suit
                                     for pip in range(ts.highest + 1)):
            return True
    return False


def _holder(hands: list[int], tile: int) -> int:
    for seat, held in enumerate(hands):
        if held >> tile & 1:
            return seat
    return -1


def _lead_by_tile(rules: Rules, rule: LeadRule, hands: list[int], boneyard: list[int],
                  dealer: Dealer) -> tuple[int, int] | None:
    """(leader, tile to lead) for rules that name a tile, with fallbacks."""
    ts = rules.tiles
    fallback = rule.if_none
    if rule.kind == LEAD_TILES:
        # the first tile of the list that was dealt
        for tile in rules.lead_tiles:
            seat = _holder(hands, tile)
            if seat >= 0:
                return seat, tile
        if fallback != NONE_HIGHEST_DOUBLE:
            return _no_double(rules, fallback, hands, dealer)
        order = range(ts.highest, -1, -1)
        fallback = NONE_HEAVIEST_TILE
    elif rule.kind == LEAD_TILE:
        seat = _holder(hands, rule.arg)
        if seat >= 0:
            return seat, rule.arg
        if fallback != NONE_HIGHEST_DOUBLE:
            return _no_double(rules, fallback, hands, dealer)
        # the highest double, and failing that the heaviest tile
        order = range(ts.highest, -1, -1)
        fallback = NONE_HEAVIEST_TILE
    elif rule.kind == LEAD_LOWEST_DOUBLE:
        order = range(ts.highest + 1)
    else:
        order = range(ts.highest, -1, -1)
    while True:
        for d in order:
            seat = _holder(hands, ts.double(d))
            if seat >= 0:
                return seat, ts.double(d)
        if fallback != NONE_DRAW_MORE:
            return _no_double(rules, fallback, hands, dealer)
        # everyone draws one more tile, in turn, until a double appears
        if len(boneyard) - rules.reserve < rules.players:
            return None
        for seat in range(rules.players):
            hands[seat] |= 1 << dealer.draw_for_lead(seat, boneyard)


def _no_double(rules: Rules, fallback: int, hands: list[int],
               dealer: Dealer) -> tuple[int, int] | None:
    ts = rules.tiles
    if fallback == NONE_REDEAL:
        return None
    if fallback == NONE_HEAVIEST_HAND:
        weights = [ts.pips_of(h) for h in hands]
        return weights.index(max(weights)), -1
    if fallback == NONE_LOT:
        return dealer.leader_by_lot(list(range(rules.players))), -1
    return _extreme_tile(rules, hands, fallback == NONE_LIGHTEST_TILE)


def _extreme_tile(rules: Rules, hands: list[int], lightest: bool) -> tuple[int, int]:
    """(holder, tile) of the heaviest dealt tile (most pips, then the higher
    top half) or of the lightest (fewest pips, then the lower top half: [1-2]
    is lighter than [0-3])."""
    ts = rules.tiles
    dealt = [t for h in hands for t in ts.tiles_of(h)]
    if lightest:
        best = min(dealt, key=lambda t: (ts.pips[t], ts.high[t]))
    else:
        best = max(dealt, key=lambda t: (ts.pips[t], ts.high[t]))
    return _holder(hands, best), best


__all__ = ["Deal", "Dealer", "by_lot", "deal_and_lead", "draw_for_double", "refused"]
