"""The seam between the two cores: what a hand presents, whichever core steps it.

:class:`HandLike` is what the code around a hand reads and calls (the
match, the scenario runner, record replay, the notation): the Python
:class:`~bones.engine.hand.Hand` and the native core's
:class:`~bones.engine.nativehand.NativeHand` both satisfy it, so a match
stepped by either core is typed as one (mypy checks that both do, see the
end of this module).  Code that needs more than this (the bots, the world
sampler, the adapters' encoders) works on a Python ``Hand``: a native hand
gives one by ``public_copy`` or ``to_python``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from bones.engine.handfields import HandFields

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from bones.engine.hand import Hand


class HandLike(HandFields, Protocol):
    """One hand, from the lead to its settlement, on either core.

    The fields it reads are declared once (:mod:`bones.engine.handstate`,
    those marked ``public``) and come from :class:`HandFields`; the ones
    assigned whole from outside, the derived ones and the methods are here.
    """

    # every seat's tile mask; assigning a whole sequence deals new hands
    # (the scenario runner's layout mode)
    @property
    def hands(self) -> Sequence[int]: ...

    @hands.setter
    def hands(self, masks: list[int]) -> None: ...

    # the boneyard in drawing order; assigning a whole sequence reorders it
    # (a draw chosen by chance)
    @property
    def boneyard(self) -> Sequence[int]: ...

    @boneyard.setter
    def boneyard(self, tiles: list[int]) -> None: ...

    @property
    def drawable(self) -> int: ...

    @property
    def boneyard_left(self) -> int: ...

    # the match's running scores, kept up to date by the hand; assigning a
    # list makes the hand keep that one
    @property
    def scores(self) -> list[int]: ...

    @scores.setter
    def scores(self, scores: list[int]) -> None: ...

    @property
    def over(self) -> bool: ...

    def legal_moves(self) -> list[int]: ...

    def is_legal(self, move: int) -> bool: ...

    def play(self, move: int, claim: int | None = None) -> int: ...

    def apply(self, move: int, claim: int | None = None) -> None: ...

    def copy(self) -> HandLike: ...

    def public_copy(self, seat: int) -> Hand: ...

    def open_ends(self) -> dict[int, int]: ...

    def open_tiles(self) -> int: ...

    def pips_left(self, seat: int) -> int: ...

    def recount(self) -> int: ...


if TYPE_CHECKING:  # pragma: no cover - mypy checks that both hands fit the seam
    from bones.engine.nativehand import NativeHand

    def _python(hand: Hand) -> HandLike:
        return hand

    def _native(hand: NativeHand) -> HandLike:
        return hand


__all__ = ["HandLike"]
