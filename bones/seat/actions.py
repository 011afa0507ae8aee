"""A fixed action space for a compiled variant.

Learning frameworks want every move a player could ever make to have one
stable index, the same in every state and for every seat.  Move codes
(``tile << 7 | arm << 1 | flip``, see :mod:`bones.engine.moves`) are stable
but sparse; :class:`ActionSpace` numbers only what can occur:

* ``tile * arms + arm`` for laying ``tile`` on arm ``arm``, for every tile of
  the set and every arm the layout can ever grow (W and E; N and S with one
  spinner or the in-line sniff; two more per spinner when every double
  spins).  The lead is the tile "on arm W" (index ``tile * arms``): it is the
  move code a lead has, and a lead's orientation is free;
* then ``draw``, where the variant draws at all;
* then ``pass``, last.

A train layout (``layout.trains``, docs/trains.md) numbers its plays the
same way, ``tile * arms + slot``, over *targets* instead of arms: one slot
per target of the move notation the compiled rules can ever have
(:func:`train_targets`): ``T0`` .. ``T<n-1>`` the personal trains (up to 8
players), ``M``, ``M2``, ... the public trains, ``A<k>`` every arm that can
grow from the hub or a foot, then ``H`` (against the hub) and ``F`` (a toe
of the owed double) where the rules have them.  A train hand's move arms
are these targets' own (arm ``k`` is always target ``T<k>``, ``M..`` or
``A<k+1>``, the hub and the foot have fixed codes), so an index means the
same play in every position.  The hub's placement (a lead code) is the tile
on the first slot, as a line's lead is the tile on W.

``num_actions`` is their number; :meth:`ActionSpace.index` and
:meth:`ActionSpace.move` convert both ways and :meth:`ActionSpace.mask`
gives the legal actions of a position.

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> from bones.engine.match import Match
>>> space = ActionSpace(compile_rules(load_variant("all-fives")))
>>> space.arms, space.num_actions
(4, 114)
>>> from bones.engine.moves import arm_index, play_code
>>> space.name(space.index(play_code(space.rules.tiles.parse("6-4"), arm_index("E"))))
'4-6@E'
>>> hand = Match(space.rules, seed=3).new_hand()
>>> [space.move(i) for i in space.legal(hand)] == hand.legal_moves()
True
"""

from __future__ import annotations

from bones.engine.hand import DRAW, PASS, Hand
from bones.engine.handlike import HandLike
from bones.engine.moves import (
    FOOT_ARM,
    HUB_ARM,
    TARGET_ARM,
    TARGET_FOOT,
    TARGET_HUB,
    TARGET_PUBLIC,
    TARGET_SEAT,
    arm_of,
    play_code,
    tile_of,
)
from bones.engine.notation import arm_name
from bones.engine.rules import Rules, TrainRules


def max_arms(rules: Rules) -> int:
    """The most arms a layout of ``rules`` can ever have (compiled:
    ``Rules.max_arms``; a train layout: its trains and every arm that can
    grow, :func:`train_arms`)."""
    if rules.trains is not None:
        return train_arms(rules)
    return rules.max_arms


def train_arms(rules: Rules) -> int:
    """The most arms a train layout of ``rules`` can have: a personal train
    per seat, the public trains, the arms laid against the hub and, where a
    double's covers are new arms (``toes``), ``cover`` of them for every
    double but the hub's (the first of them two, where it is a spinner)."""
    trains: TrainRules = rules.trains
    assert trains is not None
    grown: int = trains.hub_tiles
    if trains.toes:
        grown += trains.cover * int(rules.tiles.highest)  # every double but the hub's
        if trains.first_spinner:  # one double grows two arms (its sides), not ``cover``
            grown += max(0, 2 - int(trains.cover))
    seats: int = rules.players * int(trains.seat_trains)
    return seats + trains.public + grown


def train_targets(rules: Rules) -> list[tuple[int, int]]:
    """``(move arm, notation target)`` of every slot of a train layout's
    action space, in order: the arms (personal trains, public trains, grown
    arms), then the hub and the foot where the rules have them."""
    trains: TrainRules = rules.trains
    assert trains is not None
    seats = rules.players * int(trains.seat_trains)
    out = []
    for arm in range(train_arms(rules)):
        if arm < seats:
            out.append((arm, TARGET_SEAT + arm))
        elif arm < seats + trains.public:
            out.append((arm, TARGET_PUBLIC + arm - seats))
        else:
            out.append((arm, TARGET_ARM + arm))
    if trains.hub_tiles:
        out.append((HUB_ARM, TARGET_HUB))
    if trains.toes and trains.cover:
        out.append((FOOT_ARM, TARGET_FOOT))
    return out


class ActionSpace:
    """Every move of a compiled variant, numbered from 0 to ``num_actions - 1``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tiles = rules.tiles.size
        #: a train layout's slots: (move arm, notation target) each (else empty)
        self.targets = train_targets(rules) if rules.trains is not None else []
        #: the slot of each move arm of a train layout
        self._slot = {arm: slot for slot, (arm, _) in enumerate(self.targets)}
        self.arms = len(self.targets) if self.targets else max_arms(rules)
        plays = self.tiles * self.arms
        #: whether the variant lets a player draw (else there is no draw action)
        self.draws = rules.max_draws > 0
        self.draw_index = plays if self.draws else -1
        self.pass_index = plays + 1 if self.draws else plays
        self.num_actions = self.pass_index + 1

    def __reduce__(self) -> tuple[object, tuple[Rules]]:
        return (ActionSpace, (self.rules,))

    def index(self, move: int) -> int:
        """The action index of move code ``move``."""
        if move == PASS:
            return self.pass_index
        if move == DRAW:
            if not self.draws:
                raise ValueError("this variant has no draw action")
            return self.draw_index
        tile, arm = tile_of(move), arm_of(move)
        if self.targets:
            slot = self._slot.get(arm, -1)
            if not (0 <= tile < self.tiles and slot >= 0):
                raise ValueError(f"move code {move} is outside the action space")
            return tile * self.arms + slot
        if not (0 <= tile < self.tiles and arm < self.arms):
            raise ValueError(f"move code {move} is outside the action space")
        return tile * self.arms + arm

    def slot_of_arm(self, arm: int) -> int:
        """A train layout's target slot of move arm ``arm`` (``index`` is
        ``tile * arms + slot``)."""
        return self._slot[arm]

    def move(self, index: int) -> int:
        """The move code of action ``index``."""
        if index == self.pass_index:
            return PASS
        if index == self.draw_index:
            return DRAW
        if not 0 <= index < self.tiles * self.arms:
            raise ValueError(f"action {index} is outside 0..{self.num_actions - 1}")
        tile, arm = divmod(index, self.arms)
        if self.targets:
            arm = self.targets[arm][0]
        return play_code(tile, arm)

    def name(self, index: int) -> str:
        """A name of action ``index`` that does not depend on the position:
        ``6-4@E`` (a lead is named as the tile on W; in a train layout
        ``6-4@T2``, ``5-5@M``, ``3-9@A4``, the hub's placement named as the
        tile on the first slot), ``draw``, ``pass``."""
        move = self.move(index)
        if move == PASS:
            return "pass"
        if move == DRAW:
            return "draw"
        tile, arm = divmod(index, self.arms)
        if self.targets:
            arm = self.targets[arm][1]
        return f"{self.rules.tiles.names[tile]}@{arm_name(arm)}"

    def legal(self, hand: HandLike) -> list[int]:
        """The legal action indices of the player to move, ascending."""
        return sorted(self.index(m) for m in hand.legal_moves())

    def mask(self, hand: Hand) -> list[int]:
        """``num_actions`` entries, 1 where the action is legal now."""
        out = [0] * self.num_actions
        for move in hand.legal_moves():
            out[self.index(move)] = 1
        return out


__all__ = ["ActionSpace", "max_arms", "train_arms", "train_targets"]
