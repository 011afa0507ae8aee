"""One hand of dominoes: the layout, the turn, drawing, scoring and settlement.

This is the hot path.  Moves are small ints (:mod:`bones.engine.moves` defines
their layout, :mod:`bones.engine.notation` their text form):

* a play is ``tile << TILE_SHIFT | arm << ARM_SHIFT | flip``: ``arm`` indexes the arm it is laid
  on (0 W, 1 E, 2 N, 3 S, 4 N2, 5 S2, ...); ``flip`` is used only by the lead
  and puts the tile's higher half to the W;
* :data:`DRAW` and :data:`PASS` are negative.

:meth:`Hand.apply` is the unchecked fast path for bots and simulation;
:meth:`Hand.play` checks legality first.  Hands and the boneyard are int
bitmasks and lists of tile ids; every rule choice was compiled into
:class:`bones.engine.rules.Rules` beforehand.

The layout is a set of *arms*.  Each arm ends either in a tile (its open
``arm_end`` counts ``arm_end * arm_weight``: a crosswise double at the end of
an arm weighs 2) or at an uncovered edge of a *hub*: a spinner, the in-line
sniff, or a double led in a line game.  A hub counts
``multiplier[covered edges] * pip`` once, however many of its edges are free;
that one table expresses drop2, sniff-count, the in-line sniff and a led
double alike.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from bones.engine.handfields import copy_state
from bones.engine.handstate import FIELDS
from bones.engine.moves import ARM_MASK, ARM_SHIFT, DRAW, FLIP, PASS, TILE_SHIFT, Outcome
from bones.engine.notation import format_move
from bones.engine.rules import (
    AFTER_ANOTHER_DOUBLE,
    CHECK_EXACT,
    CHECK_HAND_END,
    CHECK_HAND_WINNER,
    CHECK_IMMEDIATE,
    CHECK_PENALTY,
    MUGGINS_OFF,
    MUGGINS_TRANSFER,
    ORDER_ALL4,
    ORDER_SIDES,
    OVER_CLAIM_CALLER,
    OVER_CLAIM_LOST,
    SPIN_NONE,
    Rules,
)
from bones.engine.settle import (
    PER_PLAYER,
    SETTLE_LIGHTEST,
    SETTLE_LOCKER,
    SETTLE_LOSERS_PAY,
    TIES_CARRY,
    Seats,
    Settle,
    carried,
    decide,
    hand_winner,
    hand_winners,
    settle,
)

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from bones.engine.leads import Deal

# how a hand stands (``Hand.state``): the hot path compares with these names
PLAYING, DOMINO, BLOCKED, TARGET = Outcome.PLAYING, Outcome.DOMINO, Outcome.BLOCKED, Outcome.TARGET

_NO_ARM = -1


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now."""

    def __init__(self, message: str, legal: list[str]) -> None:
        super().__init__(message)
        self.legal = legal


def settlement_inputs(rules: Rules, hands: Sequence[int], how: int, domino_seat: int,
                      last_player: int) -> tuple[Settle, list[int], list[bool], int, int,
                                                 list[list[int]] | None, Seats]:
    """What a hand that ended ``how`` is settled from: (the rule, each
    owner's pips, whether each owner holds a double, the owner who went out
    or -1, the owner who made the last play or -1, each owner's players'
    pips where the rule rounds player by player with teams, and the seats
    behind the owners)."""
    pips = [0] * rules.owners
    doubles = [False] * rules.owners
    ts = rules.tiles
    seat_pips = [ts.pips_of(hand) for hand in hands]
    for seat, hand in enumerate(hands):
        o = rules.owner[seat]
        pips[o] += seat_pips[seat]
        if hand & ts.doubles:
            doubles[o] = True
    blocker = rules.owner[last_player] if last_player >= 0 else -1
    rule = rules.settle_domino if how == DOMINO else rules.settle_blocked
    players: list[list[int]] | None = None
    if rule.per == PER_PLAYER and rules.teams:
        # rounded player by player: each owner's players' pips
        players = [[] for _ in range(rules.owners)]
        for seat, hand in enumerate(hands):
            players[rules.owner[seat]].append(ts.pips_of(hand))
    domino = rules.owner[domino_seat] if how == DOMINO else -1
    return rule, pips, doubles, domino, blocker, players, Seats(tuple(seat_pips), rules.owner,
                                                                last_player)


#: The pass bonuses' names (:func:`pass_bonuses`), for the front ends.
OPENING_PASS, ROUND_PASS = "opening_pass", "round_pass"


def pass_bonuses(rules: Rules, hand: Any, seat: int, passes: int) -> list[tuple[int, int, str]]:
    """The pass bonuses a pass by ``seat`` earns, as (side, points, which):
    the pass on the opening tile by the player after the leader (the pase de
    salida, to the leader's side), and the last pass of every other player
    after a play (the paso redondo, to the last player's side).  ``passes``
    counts the passes in a row with this one; ``hand`` is the hand before
    the pass (its ``placed``, ``leader``, ``on_table`` and ``last_player``).
    The hand scores by it, and the front ends say what it scored.  A pass
    that declines an extra play after a double earns nothing (the caller
    does not ask)."""
    out: list[tuple[int, int, str]] = []
    if (rules.opening_pass_double or rules.opening_pass_other) and hand.placed == 1 \
            and passes == 1 and seat == rules.next_seat[hand.leader]:
        lead = hand.on_table.bit_length() - 1
        points = rules.opening_pass_double if rules.is_double[lead] else rules.opening_pass_other
        if points:
            out.append((rules.owner[hand.leader], points, OPENING_PASS))
    if rules.round_pass and hand.last_player >= 0 and passes == rules.players - 1:
        out.append((rules.owner[hand.last_player], rules.round_pass, ROUND_PASS))
    return out


class Hand:
    """The state of one hand, from the lead to its settlement.

    ``scores`` is the match's running score list (one entry per seat, or per
    team when partnered); the hand adds play points and the settlement to it
    directly, so targets can end the game mid-hand.
    """

    __slots__ = FIELDS

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int] = (),
        boneyard: Sequence[int] = (),
        leader: int = 0,
        scores: list[int] | None = None,
        lead_tile: int = -1,
        lead_doubles_only: bool = False,
        out_of_play: int = 0,
        pot: int = 0,
        got_in: Sequence[bool] | None = None,
        number: int = 1,
    ) -> None:
        self.rules = rules
        self.hands = list(hands)
        self.boneyard = list(boneyard)
        self.bone_pos = 0
        self.bone_end = max(len(self.boneyard) - rules.reserve, 0)
        self.out_of_play = out_of_play
        self.arm_open: list[int] = []
        self.arm_end: list[int] = []
        self.arm_weight: list[int] = []
        self.arm_hub: list[int] = []
        self.arm_root: list[int] = []
        self.arm_side: list[bool] = []
        self.arm_stub: list[bool] = []
        self.arm_frozen: list[int] = []
        self.hub_pip: list[int] = []
        self.hub_k: list[int] = []
        self.hub_vals: list[tuple[int, ...]] = []
        self.hub_mult: list[tuple[int, ...]] = []
        self.hub_cross: list[tuple[int, ...]] = []
        self.hub_sides_left: list[int] = []
        self.hub_spins: list[bool] = []
        self.spinners = 0
        self.first_double_seen = False
        self.count = 0
        self.turn = leader
        self.leader = leader
        self.lead_tile = lead_tile
        self.lead_doubles_only = lead_doubles_only
        self.placed = 0
        self.on_table = 0
        self.passes = 0
        self.drawn_turn = 0
        self.drawn = [0] * rules.players
        self.out = [False] * rules.players
        self.scores = scores if scores is not None else [0] * rules.owners
        # who has got in ("ten to get in"): fresh each hand, or carried through
        # the match (get_in_scope: match)
        self.got_in = ([rules.get_in == 0] * rules.owners if got_in is None
                       else [g or rules.get_in == 0 for g in got_in])
        self.state: int = PLAYING  # an Outcome
        self.game_over = False
        self.winner = -1
        self.domino_seat = -1
        self.last_player = -1
        self.settlement: list[int] | None = None
        # (seat, move, points scored by the mover) for every move, in order
        self.log: list[tuple[int, int, int]] = []
        # (seat, tiles it was proven not to hold, its draw count then, the
        # length of the log then)
        self.voids: list[tuple[int, int, int, int]] = []
        self.last_points = 0
        # tiles that fit some open arm; refreshed after every play
        self.open_mask = 0
        # points left on the table by tied hands (``ties: carry``): the
        # winner of this hand takes them; after the hand, what stays
        self.pot = pot
        # the hand's number in the match, for bonuses by hand number
        self.number = number
        # the player to move may make an optional extra play after a double
        # (turn.after_double): the arm that double went on; -1: no extra play
        self.extra = -1
        # the side that won the hand and the seat whose hand won (-1: none)
        self.won_by = -1
        self.won_seat = -1
        self.bonus = 0

    @classmethod
    def from_deal(cls, rules: Rules, deal: Deal, scores: list[int] | None = None,
                  pot: int = 0, got_in: Sequence[bool] | None = None, number: int = 1) -> Hand:
        """The hand ``deal`` starts: the one way a Python hand is made from a
        deal (:func:`bones.engine.core.new_hand` makes the native one alike).
        ``scores`` is the match's running list, kept up to date; ``pot`` the
        points earlier tied hands left on the table (``ties: carry``);
        ``got_in`` the sides already in (``get_in_scope: match``); ``number``
        the hand's number in the match (for ``bonuses.by_hand``).  A train
        layout's hand is :func:`bones.engine.trains.python_hand`'s."""
        return cls(rules, deal.hands, deal.boneyard, deal.leader, scores, deal.lead_tile,
                   deal.lead_doubles_only, deal.out_of_play, pot, got_in, number)

    # ------------------------------------------------------------ copying

    def copy(self) -> Hand:
        """An independent copy (the rules and tuples are shared): a
        straight-line copy of every field (``handfields.copy_state``, made
        from the declaration), over twice as fast as a loop, and bots copy a
        hand on every decision."""
        new = Hand.__new__(Hand)
        copy_state(self, new)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        """``copy.deepcopy``: :meth:`copy` (the rules and tuples are
        immutable), keeping the scores shared with a match copied alongside."""
        new = self.copy()
        new.scores = copy.deepcopy(self.scores, memo)
        memo[id(self)] = new
        return new

    def public_copy(self, seat: int) -> Hand:
        """A copy with everything ``seat`` may not see scrubbed: the other
        hands are empty and the boneyard's tiles are -1."""
        new = self.copy()
        new.scrub_for(seat)
        return new

    def scrub_for(self, seat: int) -> None:
        """Hide in place what ``seat`` may not see: the other hands emptied,
        the boneyard's tiles -1 (its length and position stay)."""
        hands = [0] * len(self.hands)
        hands[seat] = self.hands[seat]
        self.hands = hands
        self.boneyard = [-1] * len(self.boneyard)

    # ------------------------------------------------------ reading state

    @property
    def over(self) -> bool:
        return self.state != PLAYING

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn (the reserve excluded)."""
        return self.bone_end - self.bone_pos if self.bone_end > self.bone_pos else 0

    @property
    def boneyard_left(self) -> int:
        return len(self.boneyard) - self.bone_pos

    def open_tiles(self) -> int:
        """The mask of tiles that could be laid on some open arm."""
        return self.open_mask

    def open_ends(self) -> dict[int, int]:
        """The pip to match on each arm open for play, by arm index."""
        return {a: pip for a, pip in enumerate(self.arm_open) if pip >= 0}

    def recount(self) -> int:
        """The count computed from scratch (tests compare it with ``count``)."""
        total = 0
        for a in range(len(self.arm_end)):
            if self.arm_hub[a] < 0:
                total += self.arm_end[a] * self.arm_weight[a]
        for h in range(len(self.hub_pip)):
            total += self.hub_vals[h][self.hub_k[h]]
        return total

    # -------------------------------------------------------- legal moves

    def legal_moves(self) -> list[int]:
        """Every legal move of the player to move, as move codes."""
        if self.state:
            return []
        hand = self.hands[self.turn]
        if self.extra >= 0:
            return self._extra_moves(hand)
        if not self.placed:
            return self._lead_moves(hand)
        rules = self.rules
        if not hand & self.open_mask:
            if self.bone_end > self.bone_pos and self.drawn_turn < rules.max_draws:
                return [DRAW]
            return [PASS]
        moves: list[int] = []
        append = moves.append
        matching = rules.matching
        arm = 0
        for pip in self.arm_open:
            if pip >= 0:
                fits = hand & matching[pip]
                if fits:
                    where = arm << ARM_SHIFT
                    while fits:
                        low = fits & -fits
                        append((low.bit_length() - 1) << TILE_SHIFT | where)
                        fits ^= low
            arm += 1
        if rules.max_draws:
            if self.drawn_turn and not rules.must_play_drawn:
                append(PASS)
            if (rules.draw_while_able and self.bone_end > self.bone_pos
                    and self.drawn_turn < rules.max_draws):
                append(DRAW)
        return moves

    def _lead_moves(self, hand: int) -> list[int]:
        if self.lead_tile >= 0:
            return [self.lead_tile << TILE_SHIFT] if hand >> self.lead_tile & 1 else []
        if self.lead_doubles_only:
            hand &= self.rules.tiles.doubles
        moves = []
        while hand:
            low = hand & -hand
            moves.append((low.bit_length() - 1) << TILE_SHIFT)
            hand ^= low
        return moves

    def _extra_moves(self, hand: int) -> list[int]:
        """The optional extra play after a double, and the pass that declines it."""
        moves: list[int] = []
        rules = self.rules
        doubles_only = rules.after_double == AFTER_ANOTHER_DOUBLE
        for arm, pip in enumerate(self.arm_open):
            if pip < 0 or (doubles_only and arm == self.extra):
                continue
            fits = hand & rules.matching[pip]
            if doubles_only:
                fits &= 1 << rules.tiles.double(pip)
            while fits:
                low = fits & -fits
                moves.append((low.bit_length() - 1) << TILE_SHIFT | arm << ARM_SHIFT)
                fits ^= low
        moves.append(PASS)
        return moves

    def _extra_play(self, seat: int, tile: int, arm: int) -> bool:
        """After ``tile`` went on ``arm``: whether the player may play once more
        (turn.after_double), and so keeps the turn."""
        rules = self.rules
        chained = self.extra >= 0
        self.extra = -1
        if not rules.is_double[tile] or not self.hands[seat]:
            return False
        if rules.after_double == AFTER_ANOTHER_DOUBLE:
            if chained or self.placed == 1:  # one second double, never after the lead
                return False
        elif chained and not rules.extra_repeat:
            return False
        self.extra = arm
        if len(self._extra_moves(self.hands[seat])) > 1:
            return True
        self.extra = -1
        return False

    def is_legal(self, move: int) -> bool:
        if not self.placed and move >= 0 and move & FLIP:
            move ^= 1  # the lead's orientation is free
        return move in self.legal_moves()

    # -------------------------------------------------------------- apply

    def play(self, move: int, claim: int | None = None) -> int:
        """Apply ``move`` after checking it; returns the points it scored."""
        if self.state:
            raise IllegalMoveError("the hand is over", [])
        if not self.is_legal(move):
            legal = [format_move(self, m) for m in self.legal_moves()]
            raise IllegalMoveError(
                f"{format_move(self, move)} is not legal now; legal: {', '.join(legal)}",
                legal,
            )
        self.apply(move, claim)
        return self.last_points

    def apply(self, move: int, claim: int | None = None) -> None:
        """Apply a legal move without checking it (the fast path).

        ``claim`` is the points the mover claims for a scoring play under the
        muggins rule; ``None`` claims the true points.
        """
        seat = self.turn
        if move < 0:
            self.last_points = 0
            if move == DRAW:
                self._draw(seat)
                return
            self.log.append((seat, PASS, 0))
            if self.extra >= 0:
                # declining the extra play after a double ends the turn: no knock
                self.extra = -1
                self._advance()
                return
            if not (self.hands[seat] & self.open_mask):
                self.voids.append((seat, self.open_mask, self.drawn[seat], len(self.log) - 1))
            self.passes += 1
            self.drawn_turn = 0
            if self.rules.round_pass or self.rules.opening_pass_double or \
                    self.rules.opening_pass_other:
                self._pass_bonuses(seat)
                if self.game_over:
                    self.state = TARGET
                    return
            self._advance()
            return

        rules = self.rules
        tile = move >> TILE_SHIFT
        hands = self.hands
        hand = hands[seat] ^ (1 << tile)
        hands[seat] = hand
        arm_open = self.arm_open
        is_lead = not self.placed
        out_bonus = 0
        if not hand and (rules.capicua_points or rules.last_tile >= 0):
            out_bonus = self.out_bonus(tile)
        if is_lead:
            self._lead(tile, move & FLIP)
        else:
            arm = (move >> ARM_SHIFT) & ARM_MASK
            # the common case inline: a plain tile on the end of an arm
            if (self.arm_hub[arm] < 0 and not rules.is_double[tile]
                    and rules.plain_arms and not self.arm_stub[arm]):
                far = rules.other_half[tile][arm_open[arm]]
                arm_end = self.arm_end
                self.count += far - arm_end[arm] * self.arm_weight[arm]
                arm_end[arm] = far
                self.arm_weight[arm] = 1
                arm_open[arm] = far
            else:
                self._place(tile, arm)
        matching = rules.matching
        mask = 0
        for pip in arm_open:
            if pip >= 0:
                mask |= matching[pip]
        self.open_mask = mask
        self.placed += 1
        self.on_table |= 1 << tile
        self.last_player = seat
        self.drawn_turn = 0

        if rules.headers:
            points = self._header_points()
        else:
            points = rules.count_points[self.count]
        if points or claim or (self.passes and rules.knock_bonus):
            self._scoring_play(seat, move, claim, points, is_lead, not hand, out_bonus)
            return
        self.passes = 0
        self.last_points = 0
        self.log.append((seat, move, 0))
        if not hand:
            if not rules.partners_both_out or self.mates_out(seat):
                self._end_hand(DOMINO, seat, [], out_bonus)
                return
            self.out[seat] = True
        if rules.after_double and self._extra_play(seat, tile, (move >> ARM_SHIFT) & ARM_MASK):
            return  # the same player may play again
        # _advance(), inline on the hot path
        seat = rules.next_seat[seat]
        if rules.partners_both_out:
            out = self.out
            while out[seat]:
                seat = rules.next_seat[seat]
        self.turn = seat
        if self.bone_end > self.bone_pos and rules.max_draws:
            return
        if rules.stuck_blocks and not hands[seat] & mask:
            self._end_hand(BLOCKED, -1, [])  # stuck: neither a play nor a draw
            return
        for held in hands:
            if held & mask:
                return
        self._end_hand(BLOCKED, -1, [])

    def _scoring_play(self, seat: int, move: int, claim: int | None, points: int,
                      is_lead: bool, went_out: bool, out_bonus: int = 0) -> None:
        rules = self.rules
        knocks = self.knock_points()
        self.passes = 0
        gains: list[tuple[int, int]] = []
        if points or (claim and rules.muggins):
            gains = self._play_gains(seat, points, is_lead, claim)
        if knocks:
            gains.append((rules.owner[seat], knocks))
        owner = rules.owner[seat]
        mover_points = 0
        for o, g in gains:
            if o == owner:
                mover_points += g
        self.last_points = mover_points
        self.log.append((seat, move, mover_points))

        hand_ends = went_out and (not rules.partners_both_out or self.mates_out(seat))
        if rules.check == CHECK_EXACT:
            # a move's gains for one side are one gain, ignored whole if it
            # would pass the target (docs/rules.md, decision 9): the play with its knock
            # bonus, and with the chip-out point (PG-F3 59+2+1)
            merged: dict[int, int] = {}
            for o, g in gains:
                merged[o] = merged.get(o, 0) + g
            gains = list(merged.items())
            if hand_ends:
                self._end_hand(DOMINO, seat, gains, out_bonus)
                return
        for o, g in gains:
            self._gain(o, g)
            if self.game_over:
                self.state = TARGET
                return
        if hand_ends:
            self._end_hand(DOMINO, seat, [], out_bonus)
            return
        if went_out:
            self.out[seat] = True
        if rules.after_double and self._extra_play(seat, move >> TILE_SHIFT,
                                                   (move >> ARM_SHIFT) & ARM_MASK):
            return
        self._advance()

    def mates_out(self, seat: int) -> bool:
        """Whether every other member of ``seat``'s team is out already (so
        ``seat`` going out ends the hand under ``partners_both_out``)."""
        out = self.out
        for mate in self.rules.mates[seat]:
            if not out[mate]:
                return False
        return True

    def _draw(self, seat: int) -> None:
        open_tiles = self.open_mask
        forced = not (self.hands[seat] & open_tiles)
        if forced:
            self.voids.append((seat, open_tiles, self.drawn[seat], len(self.log)))
        tile = self.boneyard[self.bone_pos]
        self.bone_pos += 1
        self.hands[seat] |= 1 << tile
        self.drawn[seat] += 1
        self.log.append((seat, DRAW, 0))
        if forced:
            self.drawn_turn += 1
            if (self.rules.stuck_blocks and not self.hands[seat] & open_tiles
                    and (self.bone_end <= self.bone_pos
                         or self.drawn_turn >= self.rules.max_draws)):
                self._end_hand(BLOCKED, -1, [])  # stuck after drawing
                return
            if self.bone_end <= self.bone_pos:
                # the last drawable tile (docs/rules.md, decision 12): blocked
                # now if nobody can play, with no pass asked of anyone
                open_tiles = self.open_mask
                for hand in self.hands:
                    if hand & open_tiles:
                        return
                self._end_hand(BLOCKED, -1, [])
        else:
            self.drawn_turn = 0
            self._advance()

    def play_worth(self, seat: int, points: int, is_lead: bool) -> int | None:
        """What a play scoring ``points`` is worth to ``seat``'s side, muggins
        aside: nothing below the get-in threshold (``scoring.get_in``; a claim
        on it is judged against 0, docs/language.md), and None for a lead
        that may not reach the target (``lead_cannot_win``: nothing is scored
        or claimed).  The one place these rules are decided: the hand scores
        by it and the bots value their moves by it
        (:func:`bones.bots.policies.points_if`)."""
        rules = self.rules
        owner = rules.owner[seat]
        if not self.got_in[owner] and points < rules.get_in:
            points = 0
        if is_lead and rules.lead_cannot_win and self.scores[owner] + points >= rules.target:
            return None
        return points

    def out_bonus(self, tile: int) -> int:
        """What going out with ``tile`` earns (before it is laid): capicúa, when
        it fits every open end (both ends of a line), and the last-tile bonus.
        The hand scores by it, and the ``heuristic`` bot values a finish by it."""
        rules = self.rules
        bonus = 0
        if tile == rules.last_tile:
            bonus += rules.last_tile_points
        if rules.capicua_points and self.placed:
            fits = [pip for pip in self.arm_open if pip >= 0]
            if len(fits) >= 2 and all(rules.matching[pip] >> tile & 1 for pip in fits) and (
                    rules.capicua_doubles or not rules.is_double[tile]):
                bonus += rules.capicua_points
        return bonus

    def _pass_bonuses(self, seat: int) -> None:
        """The pass bonuses, scored as the pass is made (:func:`pass_bonuses`)."""
        for owner, points, _ in pass_bonuses(self.rules, self, seat, self.passes):
            if not self.game_over:
                self._gain(owner, points)

    def knock_points(self) -> int:
        """What the passes since the last play earn the next play
        (``drawing.knock_bonus``)."""
        return self.passes * self.rules.knock_bonus

    def _play_gains(self, seat: int, points: int, is_lead: bool,
                    claim: int | None) -> list[tuple[int, int]]:
        """Who gains what from a scoring play (get-in, lead and muggins rules)."""
        rules = self.rules
        owner = rules.owner[seat]
        worth = self.play_worth(seat, points, is_lead)
        if points and points >= rules.get_in:
            self.got_in[owner] = True
        if worth is None:
            return []
        points = worth
        if rules.muggins == MUGGINS_OFF or claim is None or claim == points:
            return [(owner, points)]
        caller = rules.owner[rules.opponent_after[seat]]
        if claim < points:
            gains = [(owner, claim)] if claim > 0 else []
            if rules.muggins == MUGGINS_TRANSFER:
                gains.append((caller, points - claim))
            return gains
        # an over-claim is rejected: a penalty, and the true points to
        # whoever the rules name (docs/language.md, muggins)
        gains = [(caller, claim)] if rules.penalise_over_claim else []
        if points and rules.over_claim_points != OVER_CLAIM_LOST:
            gains.append((caller if rules.over_claim_points == OVER_CLAIM_CALLER else owner, points))
        return gains

    def _gain(self, owner: int, amount: int) -> None:
        if not amount:
            return
        rules = self.rules
        score = self.scores[owner] + amount
        if rules.check == CHECK_EXACT and score > rules.target:
            return  # overshooting the exact target: the gain is ignored
        if rules.floor is not None and score < rules.floor:
            score = rules.floor
        self.scores[owner] = score
        if rules.check == CHECK_IMMEDIATE and score >= rules.target or (
            rules.check == CHECK_EXACT and score == rules.target
        ):
            self.game_over = True
            self.winner = owner

    # ------------------------------------------------------------- layout

    def _new_arm(self, pip: int, end: int, weight: int, hub: int, root: int,
                 side: bool, stub: bool) -> int:
        self.arm_open.append(pip)
        self.arm_end.append(end)
        self.arm_weight.append(weight)
        self.arm_hub.append(hub)
        self.arm_root.append(root)
        self.arm_side.append(side)
        self.arm_stub.append(stub)
        self.arm_frozen.append(-1)
        return len(self.arm_open) - 1

    def _new_hub(self, pip: int, mult: tuple[int, ...], covered: int, spins: bool) -> int:
        self.hub_pip.append(pip)
        self.hub_k.append(covered)
        self.hub_mult.append(mult)
        self.hub_vals.append(tuple(m * pip for m in mult))
        self.hub_cross.append(())
        self.hub_sides_left.append(2 - covered)
        self.hub_spins.append(spins)
        return len(self.hub_pip) - 1

    def _add_cross_arms(self, hub: int, pip: int) -> None:
        rules = self.rules
        if rules.cross_stubs:
            # the in-line sniff's one-tile stubs: open at once, never extended
            cross = (
                self._new_arm(pip, 0, 0, _NO_ARM, _NO_ARM, False, True),
                self._new_arm(pip, 0, 0, _NO_ARM, _NO_ARM, False, True),
            )
        else:
            opened = pip if rules.order != ORDER_SIDES else -1
            cross = (
                self._new_arm(opened, pip, 0, hub, hub, False, False),
                self._new_arm(opened, pip, 0, hub, hub, False, False),
            )
        self.hub_cross[hub] = cross
        self.spinners += 1

    def _lead(self, tile: int, flip: int) -> None:
        rules = self.rules
        ts = rules.tiles
        if ts.is_double[tile]:
            pip = ts.low[tile]
            spinner = rules.spins_led
            self.first_double_seen = True
            hub = self._new_hub(pip, rules.lead_double_mult, 0, spinner and not rules.cross_stubs)
            root = hub if self.hub_spins[hub] else _NO_ARM
            self._new_arm(pip, pip, 0, hub, root, True, False)
            self._new_arm(pip, pip, 0, hub, root, True, False)
            if spinner:
                self._add_cross_arms(hub, pip)
            self.count = self.hub_vals[hub][0]
        else:
            west, east = ts.low[tile], ts.high[tile]
            if flip:
                west, east = east, west
            self._new_arm(west, west, 1, _NO_ARM, _NO_ARM, False, False)
            self._new_arm(east, east, 1, _NO_ARM, _NO_ARM, False, False)
            self.count = west + east
        if rules.one_end:
            self.arm_open[0] = -1  # a one-ended line grows at its E end only

    def _place(self, tile: int, arm: int) -> None:
        rules = self.rules
        ts = rules.tiles
        pip = self.arm_open[arm]
        far = ts.other_half[tile][pip]
        count = self.count
        hub = self.arm_hub[arm]
        if hub >= 0:
            vals = self.hub_vals[hub]
            k = self.hub_k[hub]
            count -= vals[k]
            k += 1
            self.hub_k[hub] = k
            count += vals[k]
            self.arm_hub[arm] = _NO_ARM
            if self.arm_side[arm]:
                self.arm_side[arm] = False
                left = self.hub_sides_left[hub] - 1
                self.hub_sides_left[hub] = left
                if left == 0 and rules.order == ORDER_SIDES and self.hub_spins[hub]:
                    for cross in self.hub_cross[hub]:
                        self.arm_open[cross] = self.hub_pip[hub]
            if k == 4 and rules.order == ORDER_ALL4 and self.hub_spins[hub]:
                self._unfreeze(hub)
        else:
            count -= self.arm_end[arm] * self.arm_weight[arm]

        if self.arm_stub[arm]:
            self.arm_end[arm] = far
            self.arm_weight[arm] = 1
            self.arm_open[arm] = -1
            self.count = count + far
            return

        if ts.is_double[tile]:
            if rules.spins_later[self.first_double_seen]:
                self.first_double_seen = True
                spins = not rules.cross_stubs
                new_hub = self._new_hub(pip, rules.spinner_mult, 1, spins)
                self.hub_sides_left[new_hub] = 1
                self.arm_hub[arm] = new_hub
                self.arm_root[arm] = new_hub if spins else _NO_ARM
                self.arm_side[arm] = True
                self.arm_end[arm] = pip
                self.arm_weight[arm] = 0
                self.arm_open[arm] = pip
                self._add_cross_arms(new_hub, pip)
                self.count = count + self.hub_vals[new_hub][1]
                return
            self.first_double_seen = True
            self.arm_end[arm] = pip
            self.arm_weight[arm] = rules.double_weight
            self.arm_open[arm] = pip
            self.count = count + pip * rules.double_weight
        else:
            self.arm_end[arm] = far
            self.arm_weight[arm] = 1
            self.arm_open[arm] = far
            self.count = count + far
        if rules.order == ORDER_ALL4:
            root = self.arm_root[arm]
            if root >= 0 and self.hub_k[root] < 4:
                self.arm_frozen[arm] = self.arm_open[arm]
                self.arm_open[arm] = -1

    def _unfreeze(self, hub: int) -> None:
        for a, root in enumerate(self.arm_root):
            if root == hub and self.arm_frozen[a] >= 0:
                self.arm_open[a] = self.arm_frozen[a]
                self.arm_frozen[a] = -1

    def _header_points(self) -> int:
        """Matching-ends points (Bergen): the most open ends showing one number.

        A double at an end shows its number twice; ends only match when at
        least two of them show the number, except a lone lead double, which
        counts as a pair by itself.
        """
        weights: dict[int, int] = {}
        items: dict[int, int] = {}
        for a in range(len(self.arm_end)):
            if self.arm_hub[a] < 0 and self.arm_weight[a]:
                v = self.arm_end[a]
                weights[v] = weights.get(v, 0) + self.arm_weight[a]
                items[v] = items.get(v, 0) + 1
        for h in range(len(self.hub_pip)):
            m = self.hub_mult[h][self.hub_k[h]]
            if m:
                v = self.hub_pip[h]
                weights[v] = weights.get(v, 0) + m
                items[v] = items.get(v, 0) + 1
        table = self.rules.header_points
        assert table is not None
        best = 0
        for v, w in weights.items():
            if items[v] >= 2 or self.placed == 1:
                best = max(best, table[min(w, len(table) - 1)])
        return best

    # ----------------------------------------------------- turn and ending

    def _advance(self) -> None:
        rules = self.rules
        seat = rules.next_seat[self.turn]
        if rules.partners_both_out:
            out = self.out
            while out[seat]:
                seat = rules.next_seat[seat]
        self.turn = seat
        if self.bone_end > self.bone_pos and rules.max_draws:
            return
        # blocked when nobody can play; a player who is out holds nothing
        open_tiles = self.open_mask
        if rules.stuck_blocks and not self.hands[seat] & open_tiles:
            self._end_hand(BLOCKED, -1, [])  # stuck: neither a play nor a draw
            return
        for hand in self.hands:
            if hand & open_tiles:
                return
        self._end_hand(BLOCKED, -1, [])

    def _end_hand(self, how: int, domino_seat: int, gains: list[tuple[int, int]],
                  out_bonus: int = 0) -> None:
        rules = self.rules
        self.state = how
        self.domino_seat = domino_seat
        rule, pips, doubles, domino, blocker, players, seats = settlement_inputs(
            rules, self.hands, how, domino_seat, self.last_player)
        deltas = settle(rule, pips, doubles, domino, blocker, players, seats)
        won, won_seat = self._winner(rule, pips, doubles, domino, blocker, seats, deltas)
        self.won_by, self.won_seat = won, won_seat
        if won >= 0:
            if self.pot:
                # the pot of earlier tied hands goes to this hand's winner, as
                # part of its settlement
                deltas[won] += self.pot
                self.pot = 0
            self.bonus = out_bonus + self.won_bonus(how)
            deltas[won] += self.bonus
        if rule.ties == TIES_CARRY:
            self.pot += carried(rule, pips, doubles, players, blocker, seats)
        if rules.first_minimum:
            # a side still at 0 records nothing below the first minimum
            for o, d in enumerate(deltas):
                if 0 < d < rules.first_minimum and self.scores[o] == 0:
                    deltas[o] = 0
        self.settlement = list(deltas)
        for o, g in gains:
            deltas[o] += g
        winners: list[int] = []
        if rules.check == CHECK_HAND_WINNER:
            winners = hand_winners(rule, pips, doubles, domino, blocker, seats)
        self._apply_settlement(deltas, winners)

    def _winner(self, rule: Settle, pips: list[int], doubles: list[bool], domino: int,
                blocker: int, seats: Seats, deltas: list[int]) -> tuple[int, int]:
        """(the side that won the hand, the seat whose hand won; -1: none): the
        domino-er; in a blocked hand, the side a comparing rule decides
        (lightest, locker, losers_pay), else the one side with the best
        positive settlement."""
        if domino >= 0:
            return domino, self.domino_seat
        if rule.kind in (SETTLE_LIGHTEST, SETTLE_LOCKER, SETTLE_LOSERS_PAY):
            decision = decide(rule, pips, doubles, blocker, seats)
            if len(decision.winners) == 1:
                return decision.winners[0], decision.seat
            return -1, -1
        won = hand_winner(deltas, -1)
        if won < 0:
            return -1, -1
        owner = self.rules.owner
        return won, min((s for s in range(len(owner)) if owner[s] == won),
                        key=lambda s: (seats.pips[s], s))

    def won_bonus(self, how: int) -> int:
        """The bonuses of the side that won a hand that ended ``how`` (a
        DOMINO or BLOCKED outcome), beyond going out: by the hand's number in
        the match, and for a block won.  The hand scores by it, and the
        ``heuristic`` bot values a finish and a lock by it."""
        rules = self.rules
        bonus = rules.blocked_win if how == BLOCKED else 0
        if 0 < self.number <= len(rules.hand_bonus):
            bonus += rules.hand_bonus[self.number - 1]
        return bonus

    def _apply_settlement(self, deltas: list[int], winners: list[int]) -> None:
        rules = self.rules
        scores = self.scores
        floor = rules.floor
        if rules.check == CHECK_EXACT:
            reached = []
            for o, d in enumerate(deltas):
                if not d:
                    continue
                s = scores[o] + d
                if s > rules.target:
                    continue
                scores[o] = s if floor is None else max(s, floor)
                if s == rules.target:
                    reached.append(o)
            if reached:
                self.game_over = True
                self.winner = reached[0] if len(reached) == 1 else -1
            return
        for o, d in enumerate(deltas):
            s = scores[o] + d
            scores[o] = s if floor is None else max(s, floor)
        if rules.check == CHECK_HAND_WINNER:
            # only the hand's winners are tested; of several at the target
            # (tied hands that share), the highest wins, a tie plays on
            reached = [o for o in winners if scores[o] >= rules.target]
            if reached:
                top = max(scores[o] for o in reached)
                leaders = [o for o in reached if scores[o] == top]
                if len(leaders) == 1:
                    self.game_over = True
                    self.winner = leaders[0]
            return
        if rules.check == CHECK_PENALTY:
            # penalties: a side at the losing score ends the match, and the
            # lowest score wins it
            if max(scores) >= rules.target:
                low = min(scores)
                lowest = [o for o, s in enumerate(scores) if s == low]
                self.game_over = True
                self.winner = lowest[0] if len(lowest) == 1 else -1
            return
        if rules.check == CHECK_HAND_END or rules.check == CHECK_IMMEDIATE:
            top = max(scores)
            if top >= rules.target:
                leaders = [o for o, s in enumerate(scores) if s == top]
                if len(leaders) == 1:
                    self.game_over = True
                    self.winner = leaders[0]
        if rules.void_at and not self.game_over and min(scores) >= rules.void_at:
            self.game_over = True  # every side has reached it: void, no winner
            self.winner = -1

    # -------------------------------------------------------- convenience

    def pips_left(self, seat: int) -> int:
        return self.rules.tiles.pips_of(self.hands[seat])





__all__ = [
    "DRAW", "PASS", "PLAYING", "DOMINO", "BLOCKED", "TARGET",
    "Hand", "IllegalMoveError", "SPIN_NONE", "settlement_inputs", "pass_bonuses",
    "OPENING_PASS", "ROUND_PASS",
]
