"""A match: hands dealt from one seed until the variant's end.

Hand ``h`` of a match seeded ``S`` is dealt from the stream
``stream(S, DEALS, h)`` (docs/random.md says exactly what it draws), so a
deal depends only on the seed and the hand number.  Matches resumed from
saves made before that stream existed keep dealing from Python's Mersenne
Twister (``legacy``), exactly as they would have.  A match made with
``leads_apart`` (the games of one deal in a duplicate simulation) draws a
lead by lot or at random from ``stream(S, LEADS, h)`` instead, so the
shuffles of hand ``h`` are the same whoever led it and however the last
hand ended.

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> match = Match(compile_rules(load_variant("sniff")), seed=7)
>>> hand = match.new_hand()
>>> while not hand.over:
...     hand.apply(hand.legal_moves()[0])
>>> match.finish_hand(hand).hand_number
1
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bones.engine import core
from bones.engine.hand import BLOCKED, DOMINO, Hand
from bones.engine.handlike import HandLike
from bones.engine.leads import Deal, by_lot, deal_and_lead
from bones.engine.rng import DEALS, LEADS, Rng, new_seed, stream
from bones.engine.rules import (
    LATER_ALTERNATE,
    LATER_DOMINOER,
    LATER_ROTATE_NEXT,
    LATER_ROTATE_PREVIOUS,
    LATER_SERIES,
    LATER_WINNER,
    LEAD_LOCKER,
    LeadRule,
    Rules,
    RulesError,
)
from bones.engine.trains import TrainHand, lowest_total, set_aside_deal, train_deal

#: A match that has not ended after this many hands is called a draw: ties
#: at the target could in principle repeat for ever.
MAX_HANDS = 500
_MAX_REDEALS = 200


@dataclass
class HandSummary:
    hand_number: int
    deal: Deal
    moves: list[int]
    end: int
    domino_seat: int
    last_player: int
    settlement: list[int]
    scores: list[int]
    winner: int  # owner who won the hand, -1 for none
    pips: list[int] = field(default_factory=list)
    pot: int = 0  # points tied hands left on the table after this hand (ties: carry)
    # the sides in after this hand under get_in_scope: match (None otherwise)
    got_in: list[bool] | None = None
    won_seat: int = -1  # the seat whose hand won (-1: none)
    number: int = 1  # the hand's number for bonuses by hand number (bonuses.by_hand)
    # a game of the match ended with this hand (match.games: the side won a game)
    game_won: int = -1


class Match:
    """Hands of one variant, from a seed, until a side wins."""

    def __init__(self, rules: Rules, seed: int | None = None,
                 scores: list[int] | None = None, *,
                 legacy: random.Random | None = None, stepwise_core: bool = False,
                 got_in: list[bool] | None = None, leads_apart: bool = False) -> None:
        """``legacy`` is the Mersenne Twister of a save made before the
        specified stream (record format 1): the match then deals from it as
        those versions did.  With ``stepwise_core`` its hands are stepped by
        the core that runs (:func:`bones.engine.core.new_hand`: the native
        hand when the native core is active); without it, always by the
        Python reference.  With ``leads_apart`` a lead by lot or at random
        draws from its own stream (``LEADS``), never from the shuffle's."""
        self.rules = rules
        self.stepwise_core = stepwise_core
        self.seed = new_seed() if seed is None else seed
        self.legacy = legacy
        self.leads_apart = leads_apart and legacy is None
        # the stream of the hand being dealt (docs/random.md)
        self.rng: Rng | random.Random = legacy if legacy is not None else Rng(0)
        # with leads_apart: the stream its lead by lot or at random draws from
        self._leads: Rng = Rng(0)

        self.scores = list(scores) if scores is not None else [0] * rules.owners
        self.history: list[HandSummary] = []
        self.game_over = False
        self.winner = -1
        self.current: HandLike | None = None
        self.current_deal: Deal | None = None
        # points left on the table by tied hands (ties: carry), for the
        # winner of the next hand that has one; replaying a record's hands
        # rebuilds it, so records and saves need not store it
        self.pot = 0
        # the sides that have got in, carried from hand to hand under
        # get_in_scope: match (None: nobody yet); rebuilt like the pot
        self.got_in: list[bool] | None = list(got_in) if got_in is not None else None
        # games won by each side where the match is several games (match.games)
        self.games = [0] * rules.owners
        # a train layout's round of the first hand (a scenario may start later)
        self.first_round = 1

    def round_number(self) -> int:
        """The next hand's round in a train layout (its hub double follows)."""
        return self.first_round + len(self.history)

    # ------------------------------------------------------------ dealing

    def new_hand(self) -> HandLike:
        """Deal the next hand and choose its leader by the variant's rules."""
        deal = self.next_deal()
        return self.start_hand(deal)

    def start_hand(self, deal: Deal, got_in: list[bool] | None = None) -> HandLike:
        """Start a hand from a known deal (replays, scenarios); ``got_in``
        overrides who starts it in (a scenario's hand)."""
        if got_in is None and self.rules.get_in_match:
            got_in = self.got_in
        number = self.hand_number()
        hand: HandLike
        if rules_trains(self.rules):
            if self.stepwise_core:
                hand = core.new_train_hand(self.rules, deal, self.scores, self.pot, got_in, number)
            else:
                hand = TrainHand.from_deal(self.rules, deal, self.scores, self.pot, got_in,
                                           number)
        elif self.stepwise_core:
            hand = core.new_hand(self.rules, deal, scores=self.scores, pot=self.pot,
                                 got_in=got_in, number=number)
        else:
            hand = Hand.from_deal(self.rules, deal, self.scores, self.pot, got_in, number)
        self.current = hand
        self.current_deal = deal
        return hand

    def hand_number(self) -> int:
        """The next hand's number for bonuses by hand number: every hand of
        the match, or only those with a winner (``tied_hands: skip``)."""
        if self.rules.hand_bonus_skip_tied:
            return 1 + sum(1 for h in self.history if h.winner >= 0)
        return len(self.history) + 1

    @property
    def lead_rng(self) -> Rng | random.Random:
        """The stream a lead by lot or at random draws from: the deal's own,
        or with ``leads_apart`` the hand's ``LEADS`` stream."""
        return self._leads if self.leads_apart else self.rng

    def next_deal(self) -> Deal:
        rules = self.rules
        rule = self.next_lead_rule()
        if self.legacy is None:
            number = len(self.history) + 1
            self.rng = stream(self.seed, DEALS, number)
            if self.leads_apart:
                self._leads = stream(self.seed, LEADS, number)
        if rules_trains(rules):
            hands, boneyard = self._shuffle_deal()
            if rules.trains.hub_set_aside:
                lot = stream(self.seed, DEALS, 0).below(rules.players)
                return set_aside_deal(rules, hands, boneyard, self.round_number(), lot)
            return train_deal(rules, hands, boneyard, self.round_number())
        for _ in range(_MAX_REDEALS):
            deal = self._deal_with(rule)
            if deal is not None:
                return deal
        raise RulesError(f"{rules.name}: no lead found after {_MAX_REDEALS} deals"
                         " (none had a lead, or deal.redeal refused them)")

    def _shuffle_deal(self) -> tuple[list[int], list[int]]:
        """Seat masks and the boneyard, shuffled as docs/random.md says: the
        shuffled tiles are dealt from the end, seat 0 first, and the rest,
        still read from the end, is the boneyard."""
        rng = self.rng
        if not isinstance(rng, Rng):
            return self._legacy_shuffle_deal(rng)
        rules = self.rules
        n = rules.tiles.size
        size = rules.hand_size
        players = rules.players
        dealt = players * size
        tiles = list(range(n))
        if rules.boneyard_unread:
            rng.shuffle_tail(tiles, dealt)  # nobody reads the boneyard's order
        else:
            rng.shuffle(tiles)
        masks = [0] * players
        top = n
        for s in range(players):
            mask = 0
            for t in tiles[top - size:top]:
                mask |= 1 << t
            masks[s] = mask
            top -= size
        boneyard = tiles[:top]
        boneyard.reverse()
        return masks, boneyard

    def _legacy_shuffle_deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """The deal of record format 1 (Python's ``random``), for old saves."""
        rules = self.rules
        tiles = list(range(rules.tiles.size))
        size = rules.hand_size
        players = rules.players
        dealt = players * size
        masks = [0] * players
        random_float = rng.random
        n = len(tiles)
        if rules.boneyard_unread:
            for i in range(dealt):
                j = i + int(random_float() * (n - i))
                t = tiles[j]
                tiles[j] = tiles[i]
                tiles[i] = t
                masks[i // size] |= 1 << t
            return masks, tiles[dealt:]
        for i in range(n - 1, 0, -1):
            j = int(random_float() * (i + 1))
            tiles[i], tiles[j] = tiles[j], tiles[i]
        for i in range(dealt):
            masks[i // size] |= 1 << tiles[i]
        return masks, tiles[dealt:]

    def _deal_with(self, rule: LeadRule | int) -> Deal | None:
        """Deal and apply a lead rule; ``None`` asks for a redeal."""
        return deal_and_lead(self.rules, rule, _SeededDealer(self))

    def _lot(self, contenders: list[int]) -> int:
        """Each contender draws a tile from the whole set; the heaviest leads."""
        return by_lot(self.rules, contenders, self._lot_tiles)

    def _lot_tiles(self, k: int) -> list[int]:
        """k distinct tiles drawn for the lot (docs/random.md, "The lot")."""
        size = self.rules.tiles.size
        rng = self.lead_rng
        if not isinstance(rng, Rng):
            return rng.sample(range(size), k)
        # the first k steps of a shuffle from the front
        pool = list(range(size))
        for i in range(k):
            j = i + rng.below(size - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def next_lead_rule(self) -> LeadRule | int:
        """The compiled lead rule (or the seat fixed by the later-lead rule)
        that decides the next hand's leader."""
        return self.rules.lead_first if not self.history else self._later_rule()

    def _later_rule(self) -> LeadRule | int:
        """The lead rule or fixed seat that decides the next hand's leader."""
        rules = self.rules
        later = rules.lead_later
        last = self.history[-1]
        players = rules.players
        if later == LATER_DOMINOER:
            if last.end == DOMINO:
                return last.domino_seat
            if rules.lead_again.kind == LEAD_LOCKER and last.last_player >= 0:
                return last.last_player
            return rules.lead_again
        if later == LATER_WINNER:
            if last.end == DOMINO:
                return last.domino_seat
            return last.won_seat if last.won_seat >= 0 else rules.lead_again
        if later == LATER_ROTATE_NEXT or later == LATER_ALTERNATE:
            return (last.deal.leader + 1) % players
        if later == LATER_ROTATE_PREVIOUS:
            return (last.deal.leader - 1) % players
        if later == LATER_SERIES:
            if last.end == DOMINO:
                return last.domino_seat
            blocker = last.last_player
            if last.winner == rules.owner[blocker]:
                return blocker
            if last.winner < 0:
                return last.deal.leader
            return (blocker + 1) % players
        return rules.lead_first

    # ------------------------------------------------------------ results

    def finish_hand(self, hand: HandLike) -> HandSummary:
        """Record a finished hand and decide whether the match is over."""
        rules = self.rules
        deal = self.current_deal if hand is self.current else None
        if deal is None:  # pragma: no cover - a hand not started by this match
            raise ValueError("finish_hand() takes the hand this match started last")
        summary = HandSummary(
            hand_number=len(self.history) + 1,
            deal=deal,
            moves=[move for _, move, _ in hand.log],
            end=hand.state,
            domino_seat=hand.domino_seat,
            last_player=hand.last_player,
            settlement=list(hand.settlement or [0] * rules.owners),
            scores=list(self.scores),
            winner=hand.won_by if hand.settlement is not None else hand.winner,
            pips=[hand.pips_left(s) for s in range(rules.players)],
            pot=hand.pot,
            got_in=list(hand.got_in) if rules.get_in_match else None,
            won_seat=hand.won_seat,
            number=hand.number,
        )
        self.pot = hand.pot
        if rules.get_in_match:
            self.got_in = list(hand.got_in)
        self.history.append(summary)
        if hand.game_over and rules.games > 1 and hand.winner >= 0:
            # one game of several won: the side counts it, and every score
            # starts again from 0 (the pot with them)
            summary.game_won = hand.winner
            self.games[hand.winner] += 1
            if self.games[hand.winner] >= rules.games:
                self.game_over, self.winner = True, hand.winner
            else:
                self.scores[:] = [0] * rules.owners
                self.pot = 0
        elif hand.game_over:
            self.game_over, self.winner = True, hand.winner
        elif rules_trains(rules):
            if self.round_number() > rules.trains.rounds:
                self.game_over, self.winner = True, lowest_total(self.scores)
        elif rules.hands_in_match and len(self.history) >= rules.hands_in_match:
            self.game_over = True
            top = max(self.scores)
            leaders = [o for o, s in enumerate(self.scores) if s == top]
            self.winner = leaders[0] if len(leaders) == 1 else -1
        elif len(self.history) >= MAX_HANDS:
            self.game_over, self.winner = True, -1
        self.current = None
        return summary

    def play_out(self, choose, max_moves: int = 100_000) -> None:  # type: ignore[no-untyped-def]
        """Play hands to the end of the match; ``choose(hand)`` returns a move."""
        while not self.game_over:
            hand = self.new_hand()
            moves = 0
            while not hand.state:
                hand.apply(choose(hand))
                moves += 1
                if moves > max_moves:  # pragma: no cover - a bug guard
                    raise RuntimeError("hand did not end")
            self.finish_hand(hand)


def deal_mismatch(a: Rules, b: Rules) -> str:
    """Why matches of ``a`` and ``b`` from one seed cannot deal the same
    hands ('' when they can): the shuffle of a hand depends on the tile set,
    the players and the hand size (with the leads apart, nothing else; a
    deal one of them throws in, ``deal.redeal``, is dealt again there)."""
    parts = []
    if (a.tiles.highest, a.tiles.size) != (b.tiles.highest, b.tiles.size):
        parts.append(f"a double-{a.tiles.highest} set against a double-{b.tiles.highest} set")
    if a.players != b.players:
        parts.append(f"{a.players} players against {b.players}")
    if a.hand_size != b.hand_size:
        parts.append(f"{a.hand_size} tiles a hand against {b.hand_size}")
    return ", ".join(parts)


def rules_trains(rules: Rules) -> bool:
    """Whether ``rules`` lay out trains (docs/trains.md)."""
    return rules.trains is not None


class _SeededDealer:
    """A match's dealer (:class:`bones.engine.leads.Dealer`): the events of a
    hand's start drawn from the match's stream, in docs/random.md's order."""

    __slots__ = ("match",)

    def __init__(self, match: Match) -> None:
        self.match = match

    def leader_by_lot(self, contenders: list[int]) -> int:
        return self.match._lot(contenders)

    def leader_at_random(self) -> int:
        rng = self.match.lead_rng
        players = self.match.rules.players
        return rng.below(players) if isinstance(rng, Rng) else rng.randrange(players)

    def hands_and_boneyard(self) -> tuple[list[int], list[int]]:
        return self.match._shuffle_deal()

    def draw_for_lead(self, seat: int, boneyard: list[int]) -> int:
        return boneyard.pop(0)


__all__ = ["Match", "Deal", "HandSummary", "deal_mismatch", "new_seed", "MAX_HANDS", "BLOCKED",
           "DOMINO"]
