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

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> from bones.engine.match import Match
>>> hand = Match(compile_rules(load_variant("all-fives")), seed=1).new_hand()
>>> first = hand.legal_moves()[0]
>>> parse_move(hand, format_move(hand, first)) == first
True

The same as values: :func:`move_value` gives the :class:`~bones.engine.moves.Move`
a code stands for in a position (its arm always named, so the value means the
same move in any position that has the arm), and :func:`move_code` resolves a
``Move`` or its text back to the code:

>>> move_code(hand, move_value(hand, first)) == first
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bones.engine.moves import (
    DRAW,
    DRAW_MOVE,
    FOOT_ARM,
    HUB_ARM,
    NO_ARM,
    PASS,
    PASS_MOVE,
    Move,
    NotationError,
    arm_index,
    arm_name,
    arm_of,
    is_flipped,
    is_train_target,
    lead_code,
    play_code,
    tile_of,
)
from bones.engine.tiles import TileError

if TYPE_CHECKING:  # pragma: no cover - the hand imports this module lazily
    from bones.engine.handlike import HandLike


class AmbiguousMoveError(NotationError):
    """A bare tile that has more than one legal placement."""

    def __init__(self, message: str, options: list[str]) -> None:
        super().__init__(message)
        self.options = options


def _placements(hand: HandLike, tile: int) -> list[int]:
    """The legal plays of ``tile`` in ``hand``."""
    return [m for m in hand.legal_moves() if m >= 0 and tile_of(m) == tile]


def move_value(hand: HandLike, move: int, *, bare: bool | None = None) -> Move:
    """The :class:`Move` that the code ``move`` stands for in the position
    ``hand`` (before it is made).

    ``bare`` forces (True) or forbids (False) the bare-tile form of a play;
    by default (None) the value always names the arm, so it is the same move
    in any position.  A lead is always bare.
    """
    if move == DRAW:
        return DRAW_MOVE
    if move == PASS:
        return PASS_MOVE
    if hand.rules.trains is not None:
        return _train_value(hand, move, bare)
    ts = hand.rules.tiles
    tile, arm = tile_of(move), arm_of(move)
    low, high = ts.low[tile], ts.high[tile]
    if not hand.placed:
        return Move("play", (high, low) if is_flipped(move) else (low, high))
    halves = (low, high)
    if arm < len(hand.arm_open) and hand.arm_open[arm] >= 0:
        pip = hand.arm_open[arm]
        far = ts.other_half[tile][pip]
        if far >= 0:
            halves = (pip, far)
    if arm >= len(hand.arm_open) or bare:
        return Move("play", halves)
    return Move("play", halves, arm)


def _train_value(hand: HandLike, move: int, bare: bool | None) -> Move:
    """:func:`move_value` in a train layout: the target named as
    docs/language.md says (``T<n>``, ``M``, ``H``, ``F``, ``A<k>``)."""
    ts = hand.rules.tiles
    tile, arm = tile_of(move), arm_of(move)
    low, high = ts.low[tile], ts.high[tile]
    if not hand.placed:
        return Move("play", (low, high))
    if arm == HUB_ARM:
        pip = hand.hub_number  # type: ignore[attr-defined]
    elif arm == FOOT_ARM:
        owed = hand.binding()  # type: ignore[attr-defined]
        pip = owed[1] if owed is not None else -1
    else:
        pip = hand.arm_open[arm] if arm < len(hand.arm_open) else -1
    far = ts.other_half[tile][pip] if pip >= 0 else -1
    halves = (pip, far) if far >= 0 else (low, high)
    if bare:
        return Move("play", halves)
    return Move("play", halves, hand.target_of(arm))  # type: ignore[attr-defined]


def format_move(hand: HandLike, move: int, *, bare: bool | None = None) -> str:
    """The notation of ``move`` in the position ``hand`` (before it is made).

    ``bare`` forces (True) or forbids (False) the bare-tile form; by default
    a tile is bare when it has only one legal placement.
    """
    if bare is None and move >= 0 and hand.placed:
        placements = _placements(hand, tile_of(move))
        bare = len(placements) == 1 and placements[0] == move
    return str(move_value(hand, move, bare=bare))


def move_code(hand: HandLike, move: Move | str) -> int:
    """The move code that ``move`` (a :class:`Move` or its text) names in the
    position ``hand``.

    Raises :class:`NotationError` for text that is not a move, or that names
    an arm the layout does not have; legality is checked by :meth:`Hand.play`.
    """
    value = Move.parse(move) if isinstance(move, str) else move
    if value.halves is None:
        return DRAW if value.kind == "draw" else PASS
    a, b = value.halves
    try:
        tile = hand.rules.tiles.tile(a, b)
    except TileError as err:
        raise NotationError(str(err)) from None
    trains = hand.rules.trains is not None
    if value.arm is not None and is_train_target(value.arm) != trains:
        kind = "train targets (T0, M, H, F, A1, ...)" if trains else "arms (W, E, N, S, ...)"
        raise NotationError(f"'{value}': this layout's places are {kind}")
    if trains and hand.placed and value.arm is not None:
        arm = hand.arm_of_target(value.arm)  # type: ignore[attr-defined]
        if arm is None:
            raise NotationError(f"'{value}': the layout has no {arm_name(value.arm)} now")
        return play_code(tile, arm)
    if not hand.placed:
        if value.arm is not None:
            raise NotationError(f"'{value}': the lead takes no arm; write it as {a}-{b}")
        return lead_code(tile, flip=a > b)
    if value.arm is not None:
        if value.arm >= len(hand.arm_open):
            raise NotationError(
                f"'{value}': the layout has no arm {arm_name(value.arm)} yet")
        return play_code(tile, value.arm)
    placements = _placements(hand, tile)
    if len(placements) == 1:
        return placements[0]
    if not placements:
        # not playable anywhere: name the tile on no arm so play() reports it
        return play_code(tile, NO_ARM)
    options = [format_move(hand, m, bare=False) for m in placements]
    raise AmbiguousMoveError(
        f"'{value}' fits {len(placements)} places; say which: {', '.join(options)}", options
    )


def parse_move(hand: HandLike, text: str) -> int:
    """The move code that ``text`` names in the position ``hand``.

    Raises :class:`NotationError` for text that is not a move, or that names
    an arm the layout does not have; legality is checked by :meth:`Hand.play`.
    """
    return move_code(hand, Move.parse(text))


__all__ = [
    "NotationError", "AmbiguousMoveError", "Move", "arm_name", "arm_index",
    "format_move", "parse_move", "move_value", "move_code",
]
