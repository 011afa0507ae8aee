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

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from bones.engine.hand import Hand
    from bones.engine.rules import Rules


class HandLike(Protocol):
    """One hand, from the lead to its settlement, on either core."""

    @property
    def rules(self) -> Rules: ...

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
    def bone_pos(self) -> int: ...

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

    # per side: whether it has scored the get-in amount (scoring.get_in)
    @property
    def got_in(self) -> list[bool]: ...

    @property
    def state(self) -> int: ...

    @property
    def over(self) -> bool: ...

    @property
    def turn(self) -> int: ...

    @property
    def leader(self) -> int: ...

    @property
    def count(self) -> int: ...

    @property
    def placed(self) -> int: ...

    @property
    def on_table(self) -> int: ...

    @property
    def drawn_turn(self) -> int: ...

    # the layout: arms and hubs, as Hand describes them
    @property
    def arm_open(self) -> Sequence[int]: ...

    @property
    def arm_end(self) -> Sequence[int]: ...

    @property
    def arm_weight(self) -> Sequence[int]: ...

    @property
    def arm_hub(self) -> Sequence[int]: ...

    @property
    def arm_stub(self) -> Sequence[bool]: ...

    @property
    def hub_pip(self) -> Sequence[int]: ...

    @property
    def hub_k(self) -> Sequence[int]: ...

    @property
    def hub_vals(self) -> Sequence[tuple[int, ...]]: ...

    @property
    def hub_cross(self) -> Sequence[tuple[int, ...]]: ...

    @property
    def hub_spins(self) -> Sequence[bool]: ...

    @property
    def last_points(self) -> int: ...

    @property
    def last_player(self) -> int: ...

    @property
    def domino_seat(self) -> int: ...

    @property
    def winner(self) -> int: ...

    @property
    def game_over(self) -> bool: ...

    @property
    def settlement(self) -> list[int] | None: ...

    @property
    def pot(self) -> int: ...

    @property
    def log(self) -> Sequence[tuple[int, int, int]]: ...

    @property
    def voids(self) -> list[tuple[int, int, int, int]]: ...

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
