"""The text form of moves, shared by the CLI, records and scenario files.

* a play is ``TILE@ARM`` with the half that matches the arm first
  (``2-1@E`` lays the 2 against an open 2), or the bare tile when it has only
  one legal placement;
* the lead is the bare tile, its halves in order from W to E (``6-2`` puts the
  6 to the W);
* ``draw`` and ``pass``.

Arms are W and E (the line, or a spinner's long sides), N and S (the first
spinner's cross ends, or the in-line sniff's stubs), then N2/S2, N3/S3, ...
for later spinners in order of appearance.

>>> from bones.engine.load import load_variant
>>> from bones.engine.rules import compile_rules
>>> from bones.engine.match import Match
>>> hand = Match(compile_rules(load_variant("all-fives")), seed=1).new_hand()
>>> parse_move(hand, format_move(hand, hand.legal_moves()[0])) == hand.legal_moves()[0]
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bones.engine.hand import DRAW, PASS, Hand
from bones.engine.tiles import TileError, parse_halves


class NotationError(ValueError):
    """Text that is not a move at all (a typo), as opposed to an illegal move."""


class AmbiguousMoveError(NotationError):
    """A bare tile that has more than one legal placement."""

    def __init__(self, message: str, options: list[str]) -> None:
        super().__init__(message)
        self.options = options


def arm_name(arm: int) -> str:
    """The name of arm ``arm``.

    >>> [arm_name(a) for a in range(7)]
    ['W', 'E', 'N', 'S', 'N2', 'S2', 'N3']
    """
    if arm < 2:
        return "WE"[arm]
    spinner, side = divmod(arm - 2, 2)
    return ("N", "S")[side] + (str(spinner + 1) if spinner else "")


_ARM_TEXT = re.compile(r"^([NSEW])(\d*)$")


def arm_index(name: str) -> int:
    """The index of the arm named ``name`` (case-insensitive).

    >>> arm_index("s2")
    5
    """
    match = _ARM_TEXT.match(name.strip().upper())
    if not match:
        raise NotationError(f"'{name}' is not an arm (arms are W, E, N, S, N2, S2, ...)")
    letter, number = match.groups()
    if letter in "WE":
        if number:
            raise NotationError(f"'{name}' is not an arm (W and E have no number)")
        return "WE".index(letter)
    spinner = int(number) if number else 1
    if spinner < 1 or (number and spinner == 1 and number != "1"):
        raise NotationError(f"'{name}' is not an arm")
    return 2 + 2 * (spinner - 1) + "NS".index(letter)


@dataclass(frozen=True)
class Move:
    """A move as a value: ``kind`` is "play", "draw" or "pass"."""

    kind: str
    tile: int = -1
    arm: int = -1
    flip: bool = False

    @classmethod
    def from_code(cls, code: int) -> Move:
        if code == DRAW:
            return cls("draw")
        if code == PASS:
            return cls("pass")
        return cls("play", code >> 7, (code >> 1) & 63, bool(code & 1))

    @property
    def code(self) -> int:
        if self.kind == "draw":
            return DRAW
        if self.kind == "pass":
            return PASS
        return self.tile << 7 | self.arm << 1 | int(self.flip)


def format_move(hand: Hand, move: int, *, bare: bool | None = None) -> str:
    """The notation of ``move`` in the position ``hand`` (before it is made).

    ``bare`` forces (True) or forbids (False) the bare-tile form; by default
    a tile is bare when it has only one legal placement.
    """
    if move == DRAW:
        return "draw"
    if move == PASS:
        return "pass"
    ts = hand.rules.tiles
    tile, arm = move >> 7, (move >> 1) & 63
    if not hand.placed:
        low, high = ts.low[tile], ts.high[tile]
        return f"{high}-{low}" if move & 1 else f"{low}-{high}"
    if arm >= len(hand.arm_open):
        return ts.names[tile]
    if hand.arm_open[arm] >= 0:
        pip = hand.arm_open[arm]
        far = ts.other_half[tile][pip]
        text = f"{pip}-{far}" if far >= 0 else ts.names[tile]
    else:
        text = ts.names[tile]
    if bare is None:
        placements = [m for m in hand.legal_moves() if m >= 0 and m >> 7 == tile]
        bare = len(placements) == 1 and placements[0] == move
    return text if bare else f"{text}@{arm_name(arm)}"


def parse_move(hand: Hand, text: str) -> int:
    """The move code that ``text`` names in the position ``hand``.

    Raises :class:`NotationError` for text that is not a move, or that names
    an arm the layout does not have; legality is checked by :meth:`Hand.play`.
    """
    raw = text.strip()
    word = raw.lower()
    if word == "draw":
        return DRAW
    if word == "pass":
        return PASS
    if not raw:
        raise NotationError("empty move (type a tile like 6-4@E, draw or pass)")
    tile_text, _, arm_text = raw.partition("@")
    try:
        a, b = parse_halves(tile_text)
        tile = hand.rules.tiles.tile(a, b)
    except TileError as err:
        raise NotationError(str(err)) from None
    if not hand.placed:
        if arm_text:
            raise NotationError(f"'{raw}': the lead takes no arm; write it as {tile_text.strip()}")
        return tile << 7 | (1 if a > b else 0)
    if arm_text:
        arm = arm_index(arm_text)
        if arm >= len(hand.arm_open):
            raise NotationError(f"'{raw}': the layout has no arm {arm_text.strip().upper()} yet")
        return tile << 7 | arm << 1
    placements = [m for m in hand.legal_moves() if m >= 0 and m >> 7 == tile]
    if len(placements) == 1:
        return placements[0]
    if not placements:
        # not playable anywhere: name the tile on no arm so play() reports it
        return tile << 7 | 63 << 1
    options = [format_move(hand, m, bare=False) for m in placements]
    raise AmbiguousMoveError(
        f"'{raw}' fits {len(placements)} places; say which: {', '.join(options)}", options
    )

