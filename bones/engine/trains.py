"""Train layouts: a hub double with lines ("trains", "arms") growing from it.

The layout of Mexican Train and Chicken Foot (docs/trains.md), played from
the compiled :class:`TrainRules` a variant's ``layout.trains`` block becomes.
Line and spinner games never come here: a :class:`TrainHand` is made only
for rules whose ``trains`` is set, so their hot path is untouched.

The hub is the round's double, placed as the hand's first move (a bare
tile, a *lead* code).  The layout is a list of arms, each a line with one
open end (``arm_open``, -1 once closed):

* with ``seat_trains``, arm ``n`` is seat ``n``'s personal train and the
  next ``public`` arms are the public trains, all made (empty, open at the
  hub's number) when the hub is placed; a personal train carries a marker
  (``marked``) that opens it to the other seats;
* tiles laid against the hub itself (``hub_tiles`` of them must come first)
  and the toes of a double owed ``cover`` tiles with ``toes`` each make a
  new arm, numbered in order of creation.  Such plays target the hub
  (:data:`HUB_ARM`) or the owed double (:data:`FOOT_ARM`) in the move code.

A double laid at an arm's end is owed ``cover`` tiles (``owed``, oldest
first): with ``toes`` the arm closes and the covers become new arms; without,
the cover continues the same arm.  ``cover_self``: the player who laid it
covers it in the same turn (drawing one tile if he cannot); a double left
bare then binds every player in turn until it is covered.  A first turn of
several tiles (``first_turn_multi``) lets a player build his own train; a
double he leaves bare binds nobody until every seat has had its first turn.

Moves use :mod:`bones.engine.moves`' int layout; :mod:`bones.engine.notation`
gives them the target names of docs/language.md ("Train layouts").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bones.engine.hand import BLOCKED, DOMINO, Hand
from bones.engine.leads import Deal
from bones.engine.moves import (
    ARM_MASK,
    ARM_SHIFT,
    DRAW,
    FOOT_ARM,
    HUB_ARM,
    PASS,
    TARGET_ARM,
    TARGET_FOOT,
    TARGET_HUB,
    TARGET_PUBLIC,
    TARGET_SEAT,
    TILE_SHIFT,
    lead_code,
    play_code,
)
from bones.engine.rules import TrainRules

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from bones.engine.leads import Deal
    from bones.engine.rules import Rules



def train_deal(rules: Rules, hands: list[int], boneyard: list[int],
               round_number: int) -> Deal:
    """The deal of round ``round_number``: the holder of the round's hub
    double places it; when nobody holds it, the players draw one tile each in
    turn from seat 0 until it is drawn (the drawn tiles stay in the hands)."""
    trains = rules.trains
    hub = rules.tiles.double(trains.hub_pip(round_number))
    seat = 0
    while True:
        for s, held in enumerate(hands):
            if held >> hub & 1:
                return Deal(tuple(hands), tuple(boneyard), s, hub)
        tile = boneyard.pop(0)
        hands[seat] |= 1 << tile
        seat = (seat + 1) % rules.players


def set_aside_deal(rules: Rules, hands: list[int], boneyard: list[int],
                   round_number: int, lot: int) -> Deal:
    """The deal of round ``round_number`` with the hub set aside before it
    (``hub.comes: set_aside``): the shuffled deal with the hub double taken
    out (a seat dealt it gets the boneyard's first tile instead), and the
    hub given to the first player, seat ``lot`` in round 1 and the next seat
    each round, who places it as the round's first move."""
    hub = rules.tiles.double(rules.trains.hub_pip(round_number))
    for s, held in enumerate(hands):
        if held >> hub & 1:
            hands[s] = held & ~(1 << hub)
            if boneyard:
                hands[s] |= 1 << boneyard.pop(0)
            break
    else:
        boneyard.remove(hub)
    leader = (lot + round_number - 1) % rules.players
    hands[leader] |= 1 << hub
    return Deal(tuple(hands), tuple(boneyard), leader, hub)


class TrainHand(Hand):
    """One round of a train layout (docs/trains.md); the rest of a
    :class:`~bones.engine.hand.Hand`'s fields mean what they mean there."""

    __slots__ = ("arm_owner", "marked", "owed", "first_done", "laid_turn", "must_cover",
                 "hub_left", "hub_arms", "extra", "spun")

    def __init__(self, rules: Rules, hands: Sequence[int] = (), boneyard: Sequence[int] = (),
                 leader: int = 0, scores: list[int] | None = None, lead_tile: int = -1,
                 lead_doubles_only: bool = False, out_of_play: int = 0, pot: int = 0,
                 got_in: Sequence[bool] | None = None, number: int = 1) -> None:
        super().__init__(rules, hands, boneyard, leader, scores, lead_tile, lead_doubles_only,
                         out_of_play, pot, got_in, number)
        # per arm: the seat whose train it is, -1 a public train, -2 an arm
        self.arm_owner: list[int] = []
        self.marked = [False] * rules.players
        # doubles owed covers, oldest first: [arm (-1: the foot), pip,
        # covers still owed, laid in a first turn]
        self.owed: list[list[int]] = []
        self.first_done = [not rules.trains.first_turn_multi] * rules.players
        self.laid_turn = 0  # tiles laid by the player to move in this turn
        self.must_cover = -1  # the arm whose double the mover must cover now
        self.hub_left = 0  # tiles still owed to the hub
        self.hub_arms = 0  # arms made against the hub
        # one_more_anywhere: the mover lays one more tile, anywhere, after his double
        self.extra = False
        self.spun = False  # the first double on an arm was laid as a spinner

    @classmethod
    def from_deal(cls, rules: Rules, deal: Deal, scores: list[int] | None = None,
                  pot: int = 0, got_in: Sequence[bool] | None = None,
                  number: int = 1) -> TrainHand:
        return cls(rules, deal.hands, deal.boneyard, deal.leader, scores, deal.lead_tile,
                   deal.lead_doubles_only, deal.out_of_play, pot, got_in, number)

    def copy(self) -> TrainHand:
        new = TrainHand.__new__(TrainHand)
        for name in Hand.__slots__:
            value = getattr(self, name)
            setattr(new, name, value[:] if isinstance(value, list) else value)
        new.arm_owner = self.arm_owner[:]
        new.marked = self.marked[:]
        new.owed = [o[:] for o in self.owed]
        new.first_done = self.first_done[:]
        new.laid_turn = self.laid_turn
        new.must_cover = self.must_cover
        new.hub_left = self.hub_left
        new.hub_arms = self.hub_arms
        new.extra = self.extra
        new.spun = self.spun
        return new

    # ------------------------------------------------------ reading state

    @property
    def hub_number(self) -> int:
        """The hub double's number."""
        return self.rules.tiles.low[self.lead_tile]

    def pips_left(self, seat: int) -> int:
        """What ``seat``'s hand is charged (the tile values of the rules)."""
        values = self.rules.trains.values
        return sum(values[t] for t in self.rules.tiles.tiles_of(self.hands[seat]))

    def recount(self) -> int:
        return 0

    def binding(self) -> list[int] | None:
        """The oldest owed double every player must serve now, if any."""
        if self.must_cover >= 0 or self.extra:
            return None
        all_done = all(self.first_done)
        for owed in self.owed:
            if not owed[3] or all_done:
                return owed
        return None

    def in_first_turn(self) -> bool:
        """The player to move is in his first turn of several tiles."""
        return not self.first_done[self.turn]

    def _own_arm(self, seat: int) -> int:
        return seat if self.rules.trains.seat_trains else -1

    def targets(self, seat: int, *, everywhere: bool = False) -> list[tuple[int, int]]:
        """(move arm, pip) of every place ``seat`` may lay a tile now;
        ``everywhere``: as if every train carried a marker and no first turn
        restricted it (the blocked test)."""
        if not self.placed:
            return []
        if self.hub_left:
            return [(HUB_ARM, self.hub_number)]
        if self.must_cover >= 0 and not everywhere:
            return [(self.must_cover, self.arm_open[self.must_cover])]
        owed = self.binding()
        if owed is not None:
            return [(FOOT_ARM, owed[1])] if owed[0] < 0 else [(owed[0], owed[1])]
        trains = self.rules.trains
        opened = self.arm_open
        own = self._own_arm(seat)
        if not everywhere and self.in_first_turn() and not self.first_done[seat]:
            out = [(own, opened[own])] if own >= 0 and opened[own] >= 0 else []
            if trains.public_in_first_turn:
                out += [(a, opened[a]) for a, o in enumerate(self.arm_owner) if o == -1]
            return out
        result = []
        for a, owner in enumerate(self.arm_owner):
            pip = opened[a]
            if pip < 0:
                continue
            if owner >= 0 and owner != seat and not everywhere and not self.marked[owner]:
                continue
            if owner == -1 and trains.public_needs_own and own >= 0 and self.arm_end[own] < 0:
                continue
            result.append((a, pip))
        return result

    # -------------------------------------------------------- legal moves

    def legal_moves(self) -> list[int]:
        if self.state:
            return []
        seat = self.turn
        held = self.hands[seat]
        if not self.placed:
            return [lead_code(self.lead_tile)] if held >> self.lead_tile & 1 else []
        ts = self.rules.tiles
        matching = ts.matching
        moves = []
        for arm, pip in self.targets(seat):
            fits = held & matching[pip]
            while fits:
                low = fits & -fits
                moves.append(play_code(low.bit_length() - 1, arm))
                fits ^= low
        if moves:
            if self._may_stop() or (self.drawn_turn and not self.rules.must_play_drawn):
                moves.append(PASS)
            return moves
        if self.laid_turn and self.in_first_turn():
            return [PASS]  # stopping a first turn that cannot go on (no tile fits)
        if self.drawable and self.drawn_turn < self.rules.max_draws:
            return [DRAW]
        return [PASS]

    def is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    def _may_stop(self) -> bool:
        """The mover may end his first turn after laying a tile (``pass``)."""
        return (not self.state and self.laid_turn > 0 and self.in_first_turn()
                and self.rules.trains.first_turn_stop and self.must_cover < 0)

    def open_tiles(self) -> int:
        """The mask of tiles the player to move could lay now."""
        matching = self.rules.tiles.matching
        mask = 0
        for _, pip in self.targets(self.turn):
            mask |= matching[pip]
        return mask

    # -------------------------------------------------------------- apply

    def apply(self, move: int, claim: int | None = None) -> None:
        seat = self.turn
        self.last_points = 0
        self.log.append((seat, move, 0))
        if move == DRAW:
            self._draw(seat)
            self._check_blocked()
            return
        if move == PASS:
            self._pass(seat)
            return
        tile = move >> TILE_SHIFT
        self.hands[seat] &= ~(1 << tile)
        self.on_table |= 1 << tile
        self.placed += 1
        self.last_player = seat
        self.passes = 0
        if self.placed == 1:
            self._place_hub(seat)
            return
        arm = (move >> ARM_SHIFT) & ARM_MASK
        ended_turn = self._lay(seat, tile, arm)
        if not self.hands[seat]:
            self.domino_seat = seat
            self._end_round(DOMINO, tile)
            return
        if ended_turn:
            self._next_turn()
        else:
            self._check_blocked()

    def _place_hub(self, seat: int) -> None:
        trains = self.rules.trains
        hub = self.hub_number
        if trains.seat_trains:
            for owner in range(self.rules.players):
                self._new_train_arm(hub, owner)
                self.arm_end[-1] = -1  # not started
        for _ in range(trains.public):
            self._new_train_arm(hub, -1)
            self.arm_end[-1] = -1
        self.hub_left = trains.hub_tiles
        if trains.placing_ends_turn:
            self.first_done[seat] = True
            self._next_turn()
        else:
            self._check_blocked()

    def _new_train_arm(self, pip: int, owner: int) -> int:
        self.arm_open.append(pip)
        self.arm_end.append(pip)
        self.arm_weight.append(1)
        self.arm_hub.append(-1)
        self.arm_root.append(-1)
        self.arm_side.append(False)
        self.arm_stub.append(False)
        self.arm_frozen.append(-1)
        self.arm_owner.append(owner)
        return len(self.arm_open) - 1

    def _lay(self, seat: int, tile: int, arm: int) -> bool:
        """Lay ``tile`` on ``arm``; whether the turn is over."""
        trains = self.rules.trains
        ts = self.rules.tiles
        first = self.in_first_turn()
        self.laid_turn += 1
        self.extra = False
        if arm == HUB_ARM:
            self._new_train_arm(ts.other_half[tile][self.hub_number], -2)
            self.hub_arms += 1
            self.hub_left -= 1
            return not first and not self._goes_on(seat)
        if arm == FOOT_ARM:
            owed = self.binding()
            assert owed is not None
            self._new_train_arm(ts.other_half[tile][owed[1]], -2)
            self._served(owed)
            return not first and not self._goes_on(seat)
        pip = self.arm_open[arm]
        far = ts.other_half[tile][pip]
        self.arm_open[arm] = far
        self.arm_end[arm] = far
        owner = self.arm_owner[arm]
        if trains.seat_trains and (owner == seat or trains.marker_off_anywhere):
            self.marked[seat] = False
        for owed in self.owed:
            if owed[0] == arm:
                self._served(owed)
                break
        if self.must_cover == arm:
            self.must_cover = -1
        if ts.is_double[tile] and trains.cover and not self._spin(far):
            if trains.toes:
                self.arm_open[arm] = -1  # the double closes its arm
                self.owed.append([-1, far, trains.cover, int(first)])
            else:
                self.owed.append([arm, far, trains.cover, int(first)])
            if (trains.cover_self or trains.one_more_anywhere) and self.hands[seat]:
                if first:
                    # a first turn goes on with the cover if the player holds one
                    if self.hands[seat] & ts.matching[far]:
                        self.must_cover = arm
                        return False
                    self.first_done[seat] = True
                    return True
                if trains.one_more_anywhere:
                    self.extra = True  # one more tile, anywhere he may
                elif trains.release and not self._live() & ts.matching[far]:
                    return True  # nothing left could cover it: released, the turn ends
                else:
                    self.must_cover = arm
                self.drawn_turn = 0  # a new draw for the cover (or the tile after)
                return False
            if first:
                self.first_done[seat] = True
                return True
            return not self._goes_on(seat)
        if first:
            if self.drawn_turn:  # a drawn tile laid ends a first turn
                self.first_done[seat] = True
                return True
            own = self._own_arm(seat)
            if own >= 0 and self.hands[seat] & ts.matching[self.arm_open[own]]:
                return False
            self.first_done[seat] = True
            return True
        return not self._goes_on(seat)

    def _spin(self, pip: int) -> bool:
        """``doubles.first_spinner``: the first double laid on an arm owes
        nothing; its arm goes on through it and two arms start from its
        sides (made now, open at its number).  Whether it was that double."""
        if not self.rules.trains.first_spinner or self.spun:
            return False
        self.spun = True
        self._new_train_arm(pip, -2)
        self._new_train_arm(pip, -2)
        return True

    def _goes_on(self, seat: int) -> bool:
        """``turn_tiles: all_that_fit``: the turn goes on while the mover can
        lay a tile (a tile drawn and laid ends it)."""
        return (self.rules.trains.many_per_turn and not self.drawn_turn
                and bool(self.hands[seat] & self.open_tiles()))

    def _served(self, owed: list[int]) -> None:
        owed[2] -= 1
        if owed[2] <= 0:
            self.owed.remove(owed)

    def _draw(self, seat: int) -> None:
        tile = self.boneyard[self.bone_pos]
        self.bone_pos += 1
        self.hands[seat] |= 1 << tile
        self.drawn_turn += 1
        self.drawn[seat] += 1

    def _pass(self, seat: int) -> None:
        stop = self.laid_turn > 0 and self.in_first_turn()
        if not stop and self.rules.trains.seat_trains:
            self.marked[seat] = True
        self.first_done[seat] = True
        self.passes += 1
        self._next_turn()

    def _next_turn(self) -> None:
        self.must_cover = -1
        self.extra = False
        if self.rules.trains.cover_self_only:
            self.owed.clear()  # a double its player left bare binds nobody
        self.turn = self.rules.next_seat[self.turn]
        self.drawn_turn = 0
        self.laid_turn = 0
        self._check_blocked()

    # ---------------------------------------------------------- the end

    def _check_blocked(self) -> None:
        """End the round when nothing can be drawn and no hand holds a
        tile that could be laid (every train counted open)."""
        if self.state or not self.placed:
            return
        if self.owed and self.rules.trains.release:
            self._release()
        if self.drawable:
            return
        matching = self.rules.tiles.matching
        for seat, held in enumerate(self.hands):
            for _, pip in self.targets(seat, everywhere=True):
                if held & matching[pip]:
                    return
        self._end_round(BLOCKED)

    def _release(self) -> None:
        """Drop the owed doubles no tile left in a hand or the boneyard can
        cover (``doubles.release: no_cover_left``)."""
        live = self._live()
        matching = self.rules.tiles.matching
        self.owed = [o for o in self.owed if live & matching[o[1]]]

    def _live(self) -> int:
        """The mask of the tiles in the hands and the drawable boneyard."""
        live = 0
        for held in self.hands:
            live |= held
        for tile in self.boneyard[self.bone_pos:self.bone_pos + self.drawable]:
            live |= 1 << tile
        return live

    def _end_round(self, how: int, last_tile: int = -1) -> None:
        rules = self.rules
        trains = rules.trains
        self.state = how
        charges = [self.pips_left(s) + (trains.marker_penalty if self.marked[s] else 0)
                   for s in range(rules.players)]
        if how == DOMINO:
            if trains.out_on_double > 1 and rules.tiles.is_double[last_tile]:
                charges = [c * trains.out_on_double for c in charges]
            charges[self.domino_seat] = 0
        self.settlement = charges
        scores = self.scores
        for s, charge in enumerate(charges):
            scores[s] += charge
        low = min(charges)
        lowest = [s for s, c in enumerate(charges) if c == low]
        self.won_by = self.domino_seat if how == DOMINO else (lowest[0] if len(lowest) == 1
                                                               else -1)
        self.won_seat = self.won_by
        if trains.lose_at and max(scores) >= trains.lose_at:
            self.game_over = True
            self.winner = lowest_total(scores)

    # ---------------------------------------------------------- names

    def target_of(self, arm: int) -> int:
        """The :class:`~bones.engine.moves.Move` target of move arm ``arm``."""
        if arm == HUB_ARM:
            return TARGET_HUB
        if arm == FOOT_ARM:
            return TARGET_FOOT
        owner = self.arm_owner[arm] if arm < len(self.arm_owner) else -2
        if owner >= 0:
            return TARGET_SEAT + owner
        if owner == -1:
            return TARGET_PUBLIC + arm - self.rules.players * int(self.rules.trains.seat_trains)
        return TARGET_ARM + arm

    def arm_of_target(self, target: int) -> int | None:
        """The move arm a target names in this layout, None when it has none."""
        trains = self.rules.trains
        players = self.rules.players
        if target == TARGET_HUB:
            return HUB_ARM if self.hub_left else None
        if target == TARGET_FOOT:
            owed = self.binding()
            return FOOT_ARM if owed is not None and owed[0] < 0 else None
        if target >= TARGET_ARM:
            arm = target - TARGET_ARM
            ok = arm < len(self.arm_owner) and self.arm_owner[arm] == -2 and self.arm_open[arm] >= 0
            return arm if ok else None
        if target >= TARGET_PUBLIC:
            arm = players * trains.seat_trains + target - TARGET_PUBLIC
            ok = target - TARGET_PUBLIC < trains.public and arm < len(self.arm_owner)
            return arm if ok else None
        if target >= TARGET_SEAT:
            seat = target - TARGET_SEAT
            ok = trains.seat_trains and seat < players and seat < len(self.arm_owner)
            return seat if ok else None
        return None

    def needs(self) -> dict[int, int]:
        """What must still be laid before play may go elsewhere, by target
        (docs/scenarios.md's ``needs``): the hub's tiles, the owed doubles."""
        out: dict[int, int] = {}
        if self.placed and self.hub_left:
            out[TARGET_HUB] = self.hub_left
        for arm, _, left, _ in self.owed:
            key = TARGET_FOOT if arm < 0 else self.target_of(arm)
            out[key] = out.get(key, 0) + left
        return out

    def ends(self) -> dict[int, int]:
        """The open end of every started train and open arm by target, plus
        the hub while it takes tiles and the foot while it is owed toes."""
        out: dict[int, int] = {}
        if not self.placed:
            return out
        if self.hub_left:
            out[TARGET_HUB] = self.hub_number
        for arm, pip in enumerate(self.arm_open):
            if pip >= 0 and (self.arm_owner[arm] == -2 or self.arm_end[arm] >= 0):
                out[self.target_of(arm)] = pip
        for arm, pip, _, _ in self.owed:
            if arm < 0:
                out[TARGET_FOOT] = pip
        return out


def python_hand(rules: Rules, deal: Deal, scores: list[int] | None = None, pot: int = 0,
                got_in: Sequence[bool] | None = None, number: int = 1) -> Hand:
    """The Python core's hand ``deal`` starts: a :class:`TrainHand` for a
    train layout, else :meth:`Hand.from_deal <bones.engine.hand.Hand.from_deal>`'s."""
    if rules.trains is not None:
        return TrainHand.from_deal(rules, deal, scores, pot, got_in, number)
    return Hand.from_deal(rules, deal, scores, pot, got_in, number)


def lowest_total(scores: Sequence[int]) -> int:
    """The seat with the lowest total, -1 when several share it."""
    low = min(scores)
    lowest = [s for s, v in enumerate(scores) if v == low]
    return lowest[0] if len(lowest) == 1 else -1


def train_rules_of(rules: Any) -> TrainRules | None:
    """The compiled train layout of ``rules`` (None for line and spinner games)."""
    return getattr(rules, "trains", None)


__all__ = ["TrainHand", "TrainRules", "lowest_total", "python_hand", "set_aside_deal",
           "train_deal", "train_rules_of"]
