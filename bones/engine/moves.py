"""Moves and hand outcomes: the ints the engine plays, and the values people see.

Inside the engine a move is a small int, so that legal-move lists, logs and
the hot path stay cheap:

* a play is ``tile << TILE_SHIFT | arm << ARM_SHIFT | flip``: ``tile`` is the
  tile id of the set (:mod:`bones.engine.tiles`), ``arm`` the index of the arm
  it is laid on (0 W, 1 E, 2 N, 3 S, 4 N2, 5 S2, ...), and ``flip`` is used by
  the lead only (it puts the tile's higher half to the W);
* :data:`DRAW` and :data:`PASS` are negative.

>>> code = play_code(tile=12, arm=1)
>>> tile_of(code), arm_of(code), is_flipped(code)
(12, 1, False)
>>> is_tile_move(DRAW), is_tile_move(code)
(False, True)

The constants are ``Final``: the hot path writes ``move >> TILE_SHIFT`` and
``(move >> ARM_SHIFT) & ARM_MASK`` inline, the rest of the code calls the
helpers.

At the API, in records, scenarios and adapters a move is a :class:`Move`: the
text form of :mod:`bones.engine.notation` as a value, independent of any
position (``6-4@E``, ``6-4``, ``draw``, ``pass``).  Its ``repr`` is the call
that parses it back, as python-chess does for its moves:

>>> Move.parse("6-4@e")
Move.parse('6-4@E')
>>> str(Move.parse(" Draw "))
'draw'

:func:`bones.engine.notation.move_value` and
:func:`bones.engine.notation.move_code` translate between the two in a
position.  How a hand ended is an :class:`Outcome`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, Literal

from bones.engine.tiles import TileError, parse_halves

# ------------------------------------------------------------- the int layout

#: The move that draws a tile from the boneyard.
DRAW: Final = -1
#: The move that passes the turn.
PASS: Final = -2
#: A play's tile id sits above this many bits.
TILE_SHIFT: Final = 7
#: A play's arm index sits above the flip bit.
ARM_SHIFT: Final = 1
#: The arm field is six bits wide (arms 0 ... 62).
ARM_MASK: Final = 63
#: The flip bit of a lead: the tile's higher half goes to the W.
FLIP: Final = 1
#: The arm index of a tile placed on no arm: a tile the layout cannot take,
#: named so that :meth:`bones.engine.hand.Hand.play` reports it as illegal.
NO_ARM: Final = ARM_MASK
#: A train layout's move arms of a tile laid against the hub double, and
#: against the double owed toes (each makes the next arm; docs/trains.md).
#: Only the Python core plays train layouts, so they are not part of the
#: layout the native core shares (not in ``__all__``).
HUB_ARM: Final = ARM_MASK - 2
FOOT_ARM: Final = ARM_MASK - 1


def play_code(tile: int, arm: int, flip: bool = False) -> int:
    """The code of laying ``tile`` on arm ``arm`` (``flip`` for a lead only)."""
    return tile << TILE_SHIFT | arm << ARM_SHIFT | (FLIP if flip else 0)


def lead_code(tile: int, flip: bool = False) -> int:
    """The code of leading ``tile``; ``flip`` puts its higher half to the W."""
    return tile << TILE_SHIFT | (FLIP if flip else 0)


def is_tile_move(move: int) -> bool:
    """Whether ``move`` lays a tile (rather than drawing or passing)."""
    return move >= 0


def tile_of(move: int) -> int:
    """The tile id a play lays."""
    return move >> TILE_SHIFT


def arm_of(move: int) -> int:
    """The arm index a play is laid on."""
    return (move >> ARM_SHIFT) & ARM_MASK


def is_flipped(move: int) -> bool:
    """Whether a lead puts the tile's higher half to the W."""
    return bool(move & FLIP)


# ------------------------------------------------------------- arm names


class NotationError(ValueError):
    """Text that is not a move at all (a typo), as opposed to an illegal move."""


# The targets of train layouts (docs/language.md, "Train layouts"), as a
# Move's ``arm``: numbers above every arm of a line or spinner layout, so the
# two families never clash.  A train hand translates them to its move arms.
#: ``T<n>``: seat n's personal train is TARGET_SEAT + n.
TARGET_SEAT: Final = 64
#: ``M``, ``M2``, ...: the public trains from TARGET_PUBLIC.
TARGET_PUBLIC: Final = 96
#: ``H``: against the hub double itself.
TARGET_HUB: Final = 112
#: ``F``: against the double owed toes.
TARGET_FOOT: Final = 113
#: ``A<k>``: arm k is TARGET_ARM + k - 1.
TARGET_ARM: Final = 128
_MAX_SEAT_TARGET = TARGET_PUBLIC - TARGET_SEAT
_MAX_PUBLIC_TARGET = TARGET_HUB - TARGET_PUBLIC
_MAX_ARM_TARGET = 1024


def is_train_target(arm: int) -> bool:
    """Whether a Move's ``arm`` names a train layout's target."""
    return arm >= TARGET_SEAT


def arm_name(arm: int) -> str:
    """The name of arm ``arm``, or of a train layout's target.

    >>> [arm_name(a) for a in range(7)]
    ['W', 'E', 'N', 'S', 'N2', 'S2', 'N3']
    >>> [arm_name(a) for a in (TARGET_SEAT + 2, TARGET_PUBLIC, TARGET_PUBLIC + 1,
    ...                        TARGET_HUB, TARGET_FOOT, TARGET_ARM + 4)]
    ['T2', 'M', 'M2', 'H', 'F', 'A5']
    """
    if arm >= TARGET_SEAT:
        if arm >= TARGET_ARM:
            return f"A{arm - TARGET_ARM + 1}"
        if arm == TARGET_HUB:
            return "H"
        if arm == TARGET_FOOT:
            return "F"
        if arm >= TARGET_PUBLIC:
            k = arm - TARGET_PUBLIC
            return "M" + (str(k + 1) if k else "")
        return f"T{arm - TARGET_SEAT}"
    if arm < 2:
        return "WE"[arm]
    spinner, side = divmod(arm - 2, 2)
    return ("N", "S")[side] + (str(spinner + 1) if spinner else "")


_ARM_TEXT = re.compile(r"^([NSEW])(\d*)$")
_TARGET_TEXT = re.compile(r"^([TMHFA])(0|[1-9]\d*)?$")


def _target_index(name: str, letter: str, number: str | None) -> int:
    """The Move target of a train layout's name (``T0``, ``M``, ``H``, ``F``, ``A3``)."""
    if letter in "HF":
        if number is not None:
            raise NotationError(f"'{name}' is not a target ({letter} has no number)")
        return TARGET_HUB if letter == "H" else TARGET_FOOT
    if letter == "M":
        k = int(number) if number is not None else 1
        if k < 1 or k > _MAX_PUBLIC_TARGET:
            raise NotationError(f"'{name}' is not a target (public trains are M, M2, ...)")
        return TARGET_PUBLIC + k - 1
    if number is None:
        raise NotationError(f"'{name}' is not a target ({letter} takes a number: "
                            f"{'T0, T1' if letter == 'T' else 'A1, A2'}, ...)")
    n = int(number)
    if letter == "T":
        if n >= _MAX_SEAT_TARGET:
            raise NotationError(f"'{name}' is not a target (no table has seat {n})")
        return TARGET_SEAT + n
    if n < 1 or n > _MAX_ARM_TARGET:
        raise NotationError(f"'{name}' is not a target (arms are A1, A2, ...)")
    return TARGET_ARM + n - 1


def arm_index(name: str) -> int:
    """The index of the arm named ``name`` (case-insensitive).

    >>> arm_index("s2")
    5
    """
    text = name.strip().upper()
    target = _TARGET_TEXT.match(text)
    if target:
        return _target_index(name, target.group(1), target.group(2))
    match = _ARM_TEXT.match(text)
    if not match:
        raise NotationError(f"'{name}' is not an arm (arms are W, E, N, S, N2, S2, ...; "
                            "train targets T0, M, H, F, A1, ...)")
    letter, number = match.groups()
    if letter in "WE":
        if number:
            raise NotationError(f"'{name}' is not an arm (W and E have no number)")
        return "WE".index(letter)
    spinner = int(number) if number else 1
    if spinner < 1 or (number and spinner == 1 and number != "1"):
        raise NotationError(f"'{name}' is not an arm")
    index = 2 + 2 * (spinner - 1) + "NS".index(letter)
    if index >= NO_ARM:
        raise NotationError(f"'{name}' is not an arm (no layout has that many spinners)")
    return index


# ------------------------------------------------------------- the value

MoveKind = Literal["play", "draw", "pass"]


@dataclass(frozen=True, slots=True)
class Move:
    """A move as people write it, independent of any position.

    ``kind`` is ``"play"``, ``"draw"`` or ``"pass"``.  A play names its tile
    by ``halves`` in the order written (the half laid against the arm first;
    for a lead, the half that goes to the W first) and, unless it is *bare*,
    the ``arm`` it goes on.  A bare tile is a lead, or a play with one legal
    placement; only a position tells which (see
    :func:`bones.engine.notation.move_code`).

    >>> Move.parse("2-1@N2") == Move("play", (2, 1), 4)
    True
    >>> Move.parse("6-4").bare, Move.parse("pass").kind
    (True, 'pass')
    """

    kind: MoveKind
    halves: tuple[int, int] | None = None
    arm: int | None = None

    def __post_init__(self) -> None:
        if self.kind == "play":
            if self.halves is None:
                raise ValueError("a play names its tile: Move('play', (6, 4), arm)")
        elif self.kind in ("draw", "pass"):
            if self.halves is not None or self.arm is not None:
                raise ValueError(f"{self.kind} takes no tile or arm")
        else:
            raise ValueError(f"a move's kind is 'play', 'draw' or 'pass', not {self.kind!r}")

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move that ``text`` names (``6-4@E``, ``6-4``, ``draw``, ``pass``).

        Raises :class:`NotationError` for text that is not a move.
        """
        raw = text.strip()
        word = raw.lower()
        if word == "draw":
            return DRAW_MOVE
        if word == "pass":
            return PASS_MOVE
        if not raw:
            raise NotationError("empty move (type a tile like 6-4@E, draw or pass)")
        tile_text, at, arm_text = raw.partition("@")
        try:
            halves = parse_halves(tile_text)
        except TileError as err:
            raise NotationError(str(err)) from None
        if at and not arm_text.strip():
            raise NotationError(f"'{raw}': name an arm after @ (W, E, N, S, N2, ...)")
        return cls("play", halves, arm_index(arm_text) if at else None)

    @property
    def bare(self) -> bool:
        """A play that names no arm (a lead, or a tile's only placement)."""
        return self.kind == "play" and self.arm is None

    def __str__(self) -> str:
        if self.halves is None:
            return self.kind
        text = f"{self.halves[0]}-{self.halves[1]}"
        return text if self.arm is None else f"{text}@{arm_name(self.arm)}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


#: The draw and the pass, as values.
DRAW_MOVE: Final = Move("draw")
PASS_MOVE: Final = Move("pass")


# ------------------------------------------------------------- outcomes


class Outcome(IntEnum):
    """How a hand stands: still ``PLAYING``, or how it ended.

    ``DOMINO``: a seat played its last tile; ``BLOCKED``: nobody can move;
    ``TARGET``: a score reached the target in the middle of the hand (the
    match ends there).  :attr:`label` is the lower-case name records use.

    >>> Outcome.BLOCKED.label, Outcome.parse("domino")
    ('blocked', <Outcome.DOMINO: 1>)
    """

    PLAYING = 0
    DOMINO = 1
    BLOCKED = 2
    TARGET = 3

    @property
    def label(self) -> str:
        """The lower-case name: ``"playing"``, ``"domino"``, ..."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Outcome:
        """The outcome named ``text`` (as :attr:`label` writes it)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(o.label for o in cls)
            raise ValueError(f"'{text}' is not an outcome ({names})") from None


__all__ = [
    "DRAW", "PASS", "TILE_SHIFT", "ARM_SHIFT", "ARM_MASK", "FLIP", "NO_ARM",
    "play_code", "lead_code", "is_tile_move", "tile_of", "arm_of", "is_flipped",
    "NotationError", "arm_name", "arm_index", "is_train_target",
    "Move", "MoveKind", "DRAW_MOVE", "PASS_MOVE", "Outcome",
]
