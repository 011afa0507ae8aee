"""Chance made explicit: deals, draws and leads resolved by an outside chooser.

:class:`~bones.engine.match.Match` owns a random generator and resolves every
random event itself.  A framework that models chance (OpenSpiel's chance
nodes, a learner that wants to control or enumerate deals) needs the same
events one at a time instead.  This module writes every random event of a
hand's start as a request to a *chooser*:

* ``"tile"``: one tile out of ``options``, uniformly (a tile dealt to a seat,
  a tile drawn for the lead rule's ``draw_more``, a tile drawn by lot);
* ``"seat"``: one seat out of ``options``, uniformly (a lead at random).

:func:`build_deal` applies the variant's own lead rule (the first hand's or,
through :func:`lead_rule`, the one a match's history decides) and returns the
:class:`~bones.engine.match.Deal` that :meth:`Match.start_hand` plays, or
``None`` when the rule asks for a redeal.  Choosers:

* :class:`RandomChooser` resolves requests from a random stream;
* :class:`Script` replays a list of outcomes and raises :class:`NeedChance`
  (carrying the :class:`ChanceRequest`) when it runs out: a framework keeps
  the outcomes list as its state, asks :func:`next_request` what the next
  chance node is, and appends the outcome it chose (see
  :class:`DealProcess`).

The boneyard can be ordered when the hand starts (``order_boneyard=True``:
every tile is dealt, the rest in the order drawn) or left unordered, each
draw then being its own chance event: :func:`draw_options` lists the tiles a
draw can bring (uniformly: the reserve is a uniformly random part of the
boneyard too) and :func:`draw_tile` makes the current player draw a given
one.

Rewards: :func:`hand_rewards` and :func:`match_rewards` (zero-sum, per seat).

>>> import random
>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> from bones.engine.match import Match
>>> rules = compile_rules(load_variant("all-fives"))
>>> process = DealProcess(rules, rules.lead_first)
>>> request = process.request()
>>> request.kind, request.what, len(request.options)
('tile', 'lot', 28)
>>> rng = random.Random(5)
>>> while process.request() is not None:
...     process.apply(rng.choice(process.request().options))
>>> hand = Match(rules, seed=0).start_hand(process.deal)
>>> [bin(h).count("1") for h in hand.hands]
[9, 9]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from bones.engine.hand import DRAW
from bones.engine.handlike import HandLike
from bones.engine.leads import by_lot, deal_and_lead
from bones.engine.match import Deal, Match
from bones.engine.rules import LeadRule, Rules, RulesError
from bones.engine.trains import set_aside_deal

#: A deal whose lead rule keeps asking for redeals gives up after this many.
MAX_REDEALS = 200


class ChanceRequest(NamedTuple):
    """One random event: choose uniformly among ``options``."""

    kind: str  # "tile" or "seat"
    options: tuple[int, ...]
    what: str  # what the event is, for people: "deal to seat 1", "lot", ...


class NeedChance(Exception):
    """Raised by :class:`Script` when the next outcome is not known yet."""

    def __init__(self, request: ChanceRequest) -> None:
        super().__init__(request.what)
        self.request = request


class Chooser(Protocol):
    def pick(self, kind: str, options: Sequence[int], what: str) -> int: ...


class Uniform(Protocol):
    """Anything with a ``random()`` in [0, 1)."""

    def random(self) -> float: ...


class RandomChooser:
    """Resolves every request uniformly from ``rng`` (anything with a
    ``random()`` in [0, 1): :class:`bones.engine.rng.Rng`, :class:`random.Random`)."""

    def __init__(self, rng: Uniform) -> None:
        self.rng = rng

    def pick(self, kind: str, options: Sequence[int], what: str) -> int:
        return options[int(self.rng.random() * len(options))]


class Script:
    """Replays ``outcomes`` in order; raises :class:`NeedChance` past them."""

    def __init__(self, outcomes: Sequence[int]) -> None:
        self.outcomes = outcomes
        self.pos = 0

    def pick(self, kind: str, options: Sequence[int], what: str) -> int:
        if self.pos >= len(self.outcomes):
            raise NeedChance(ChanceRequest(kind, tuple(options), what))
        outcome = self.outcomes[self.pos]
        if outcome not in options:
            raise ValueError(f"{what}: {outcome} is not one of the possible outcomes")
        self.pos += 1
        return outcome


def lead_rule(match: Match) -> LeadRule | int:
    """The compiled lead rule (or fixed leading seat) of ``match``'s next hand."""
    return match.next_lead_rule()


def deal_process(match: Match) -> DealProcess:
    """The chance events of ``match``'s next hand (a train layout: its next
    round's), the boneyard left unordered."""
    rules = match.rules
    rule = lead_rule(match)
    if rules.trains is not None and rules.trains.hub_set_aside and match.history:
        rule = (match.history[-1].deal.leader + 1) % rules.players  # the rotation after the lot
    return DealProcess(rules, rule, round_number=match.round_number())


def build_deal(rules: Rules, rule: LeadRule | int, chooser: Chooser, *,
               order_boneyard: bool = True, round_number: int = 1) -> Deal | None:
    """Deal one hand and apply the lead ``rule``; ``None`` asks for a redeal.

    Seats are dealt in turn, ``hand_size`` tiles each, each tile a ``"tile"``
    request over the tiles not dealt yet; with ``order_boneyard`` the rest of
    the set is then drawn into the boneyard's order too.  A train layout
    (docs/trains.md) deals round ``round_number``: the holder of its hub
    double leads, and while nobody holds it the seats draw one tile each in
    turn from seat 0 (a ``"tile"`` request each), as
    :func:`bones.engine.trains.train_deal` does.  With the hub set aside
    (``hub.comes: set_aside``) the first player is ``rule`` when it is a seat
    (a later round: the seat after the last round's first player), else a
    ``"seat"`` request (the lot), as :func:`bones.engine.trains.set_aside_deal`.
    """
    dealer = _ChooserDealer(rules, chooser, order_boneyard)
    if rules.trains is not None:
        if rules.trains.hub_set_aside:
            return dealer.set_aside_deal(round_number, rule if isinstance(rule, int) else None)
        return dealer.train_deal(round_number)
    return deal_and_lead(rules, rule, dealer)


class _ChooserDealer:
    """A dealer (:class:`bones.engine.leads.Dealer`) that asks ``chooser``
    for every random event."""

    def __init__(self, rules: Rules, chooser: Chooser, order_boneyard: bool) -> None:
        self.rules = rules
        self.chooser = chooser
        self.ordered = order_boneyard

    def leader_by_lot(self, contenders: list[int]) -> int:
        return by_lot(self.rules, contenders, self._lot_tiles)

    def _lot_tiles(self, k: int) -> list[int]:
        left = list(range(self.rules.tiles.size))
        drawn = []
        for _ in range(k):
            tile = self.chooser.pick("tile", left, "lot")
            left.remove(tile)
            drawn.append(tile)
        return drawn

    def leader_at_random(self) -> int:
        return self.chooser.pick("seat", range(self.rules.players), "lead at random")

    def hands_and_boneyard(self) -> tuple[list[int], list[int]]:
        rules, chooser = self.rules, self.chooser
        remaining = list(range(rules.tiles.size))
        hands = [0] * rules.players
        for seat in range(rules.players):
            what = f"deal to seat {seat}"
            for _ in range(rules.hand_size):
                tile = chooser.pick("tile", remaining, what)
                remaining.remove(tile)
                hands[seat] |= 1 << tile
        if not self.ordered:
            return hands, remaining
        boneyard: list[int] = []
        while remaining:
            tile = chooser.pick("tile", remaining, "order the boneyard")
            remaining.remove(tile)
            boneyard.append(tile)
        return hands, boneyard

    def draw_for_lead(self, seat: int, boneyard: list[int], what: str = "the lead") -> int:
        if self.ordered:
            return boneyard.pop(0)
        tile = self.chooser.pick("tile", boneyard, f"seat {seat} draws for {what}")
        boneyard.remove(tile)
        return tile

    def train_deal(self, round_number: int) -> Deal:
        """A train layout's round: the hub double's holder leads with it."""
        rules = self.rules
        hands, boneyard = self.hands_and_boneyard()
        hub = rules.tiles.double(rules.trains.hub_pip(round_number))
        seat = 0
        while True:
            for s, held in enumerate(hands):
                if held >> hub & 1:
                    return Deal(tuple(hands), tuple(boneyard), s, hub)
            hands[seat] |= 1 << self.draw_for_lead(seat, boneyard, "the hub")
            seat = (seat + 1) % rules.players


    def set_aside_deal(self, round_number: int, first: int | None) -> Deal:
        """A train layout's round with its hub set aside before the deal:
        the first player (``first``, else by lot) is given the hub; a seat
        dealt it gets a boneyard tile instead (the boneyard's first, or a
        ``"tile"`` request when the boneyard is left unordered)."""
        rules = self.rules
        hands, boneyard = self.hands_and_boneyard()
        hub = rules.tiles.double(rules.trains.hub_pip(round_number))
        if first is None:
            first = self.chooser.pick("seat", range(rules.players), "first player by lot")
        if not self.ordered and any(held >> hub & 1 for held in hands) and boneyard:
            tile = self.chooser.pick("tile", boneyard, "replaces the hub")
            boneyard.remove(tile)
            boneyard.insert(0, tile)
        lot = (first - round_number + 1) % rules.players
        return set_aside_deal(rules, hands, boneyard, round_number, lot)


def deal_from_permutation(rules: Rules, permutation: Sequence[int], rule: LeadRule | int,
                          chooser: Chooser | None = None) -> Deal | None:
    """The deal in which the tiles come out in ``permutation``'s order.

    Seat 0 gets the first ``hand_size`` tiles, seat 1 the next, and so on;
    the rest is the boneyard in order.  A lead by lot or at random still needs
    ``chooser``.  ``None`` asks for a redeal (the lead rule's ``redeal``).
    """
    if sorted(permutation) != list(range(rules.tiles.size)):
        raise ValueError(f"a permutation of the {rules.tiles.size} tiles is needed")
    return build_deal(rules, rule, _Ordered(permutation, chooser), order_boneyard=True)


class _Ordered:
    """Tile requests answered in a fixed order, others passed on."""

    def __init__(self, order: Sequence[int], chooser: Chooser | None) -> None:
        self.order = list(order)
        self.pos = 0
        self.chooser = chooser

    def pick(self, kind: str, options: Sequence[int], what: str) -> int:
        if kind == "tile" and what != "lot":
            tile = self.order[self.pos]
            self.pos += 1
            return tile
        if self.chooser is None:
            raise ValueError(f"{what}: this lead rule needs a chooser for its random events")
        return self.chooser.pick(kind, options, what)


def deal(rules: Rules, rule: LeadRule | int, chooser: Chooser, *,
         order_boneyard: bool = True, round_number: int = 1) -> Deal:
    """A deal for ``rule``, redealing as the lead rule asks (``round_number``:
    a train layout's round)."""
    for _ in range(MAX_REDEALS):
        found = build_deal(rules, rule, chooser, order_boneyard=order_boneyard,
                           round_number=round_number)
        if found is not None:
            return found
    raise RulesError(f"{rules.name}: no lead found after {MAX_REDEALS} deals"
                     " (none had a lead, or deal.redeal refused them)")


def next_request(rules: Rules, rule: LeadRule | int, outcomes: Sequence[int], *,
                 order_boneyard: bool = False, round_number: int = 1) -> ChanceRequest | Deal:
    """The next random event after ``outcomes``, or the finished deal."""
    try:
        return deal(rules, rule, Script(outcomes), order_boneyard=order_boneyard,
                    round_number=round_number)
    except NeedChance as need:
        return need.request


class DealProcess:
    """A hand's start as a sequence of chance events (picklable, copyable).

    ``request()`` is the next :class:`ChanceRequest` (``None`` once dealt),
    ``apply(outcome)`` resolves it, and ``deal`` is the finished
    :class:`~bones.engine.match.Deal`.  The boneyard is left unordered unless
    ``order_boneyard``: draws are then chance events of their own
    (:func:`draw_options`, :func:`draw_tile`).  ``round_number``: the
    round of a train layout (its hub double).
    """

    def __init__(self, rules: Rules, rule: LeadRule | int, *,
                 order_boneyard: bool = False, round_number: int = 1) -> None:
        self.rules = rules
        self.rule = rule
        self.order_boneyard = order_boneyard
        self.round_number = round_number
        self.outcomes: list[int] = []
        self._next: ChanceRequest | Deal | None = None

    def _resolve(self) -> ChanceRequest | Deal:
        if self._next is None:
            self._next = next_request(self.rules, self.rule, self.outcomes,
                                      order_boneyard=self.order_boneyard,
                                      round_number=self.round_number)
        return self._next

    def request(self) -> ChanceRequest | None:
        found = self._resolve()
        return found if isinstance(found, ChanceRequest) else None

    def apply(self, outcome: int) -> None:
        request = self.request()
        if request is None:
            raise ValueError("the hand is dealt: no chance event is pending")
        if outcome not in request.options:
            raise ValueError(f"{request.what}: {outcome} is not a possible outcome")
        self.outcomes.append(outcome)
        self._next = None

    @property
    def deal(self) -> Deal:
        found = self._resolve()
        if isinstance(found, ChanceRequest):
            raise ValueError(f"the deal is not finished: next is {found.what}")
        return found


# ------------------------------------------------------------------ draws

def draw_options(hand: HandLike) -> tuple[int, ...]:
    """The tiles the next draw can bring, each equally likely (sorted)."""
    return tuple(sorted(hand.boneyard[hand.bone_pos:]))


def draw_tile(hand: HandLike, tile: int) -> None:
    """The player to move draws ``tile`` (which must be in the boneyard).

    The boneyard's unread part is reordered so ``tile`` comes next; a deal
    made with ``order_boneyard=False`` is meant to be played this way.
    """
    if DRAW not in hand.legal_moves():
        raise ValueError("drawing is not legal now")
    boneyard = list(hand.boneyard)
    try:
        at = boneyard.index(tile, hand.bone_pos)
    except ValueError:
        raise ValueError(f"tile {tile} is not in the boneyard") from None
    boneyard[at], boneyard[hand.bone_pos] = boneyard[hand.bone_pos], boneyard[at]
    hand.boneyard = boneyard  # assigned whole: a native hand's boneyard is a view
    hand.apply(DRAW)


# ---------------------------------------------------------------- rewards

def zero_sum(rules: Rules, gains: Sequence[float]) -> list[float]:
    """Per seat: its side's gain less the mean gain of the other sides."""
    owners = rules.owners
    total = sum(gains)
    out = []
    for seat in range(rules.players):
        mine = gains[rules.owner[seat]]
        out.append(float(mine - (total - mine) / (owners - 1)))
    return out


def hand_rewards(rules: Rules, before: Sequence[int], after: Sequence[int]) -> list[float]:
    """Each seat's reward for one hand, from the scores before and after it.

    A side's gain is the points it scored during the hand, settlement
    included (:func:`side_gains`: negated in a penalty match); a seat's
    reward is its side's gain less the mean gain of the other sides, so the
    rewards of all seats add up to zero.
    """
    return zero_sum(rules, side_gains(rules, before, after))


def side_gains(rules: Rules, before: Sequence[int], after: Sequence[int]) -> list[int]:
    """What each side gained between the scores ``before`` and ``after``: its
    points, or in a penalty match (``match.kind: penalty``, Kozel) and a
    train layout (each round charges the hands, the lowest total wins),
    where points count against a side, the points it was charged, negated
    (as the searches judge a penalty match: :func:`bones.bots.policies.margin`)."""
    sign = -1 if rules.lowest_wins else 1
    return [sign * (a - b) for a, b in zip(after, before, strict=True)]


def match_rewards(rules: Rules, winner: int) -> list[float]:
    """Each seat's reward for a finished match won by owner ``winner``:
    1 for the winning side, -1/(sides - 1) for the others, 0 for all when
    nobody won (``winner`` -1).  The rewards add up to zero."""
    if winner < 0:
        return [0.0] * rules.players
    lose = -1.0 / (rules.owners - 1)
    return [1.0 if rules.owner[seat] == winner else lose for seat in range(rules.players)]


__all__ = [
    "ChanceRequest", "Chooser", "DealProcess", "MAX_REDEALS", "NeedChance", "RandomChooser",
    "Script", "build_deal", "deal", "deal_from_permutation", "deal_process", "draw_options",
    "draw_tile",
    "hand_rewards", "lead_rule", "match_rewards", "next_request", "side_gains", "zero_sum",
]
