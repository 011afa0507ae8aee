"""The native stepwise hand behind the Python :class:`~bones.engine.hand.Hand`'s interface.

:class:`NativeHand` wraps a ``bones_native.Hand`` (the Rust kernel, see
:mod:`bones.engine.core`) and presents what the code around a hand reads
and calls: ``legal_moves``, ``is_legal``, ``play`` (checked, with a muggins
claim), ``apply``, ``copy``, ``public_copy``, ``state``/``over``, ``count``,
``last_points``, ``scores``, ``winner``, ``game_over``, ``settlement``,
``turn``, ``hands``, ``on_table``, the boneyard, ``log``, ``voids``,
``open_ends()`` and the layout's arms and hubs.  The scenario runner, record
replay and the adapters get one from :func:`bones.engine.core.new_hand`
when the native core is active, and play the same games as on the Python
reference, move for move (tests/test_nativehand.py checks every field after
every move).

What differs, on purpose:

* ``hands`` and ``boneyard`` are tuples, read from the kernel: change them by
  assigning the whole sequence (``hand.hands = masks``), which writes it
  into the kernel; ``hand.hands[seat] = mask`` raises instead of silently
  changing a copy;
* ``scores`` is the list the hand was given (a match's running scores, as
  with the Python hand): the kernel's scores are copied into it after every
  move;
* :meth:`public_copy` (what a bot observes) and :meth:`to_python` are
  Python hands: bots and the world sampler read and copy plain Python
  structures, and may step them as they would any observation's layout;
* a pickle of a native hand loads as its Python twin (the same state).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bones.engine.hand import PLAYING, Hand, IllegalMoveError
from bones.engine.handfields import NativeFields, fill_native
from bones.engine.handstate import NATIVE_FIELDS
from bones.engine.nativecopy import NativeCopying
from bones.engine.notation import format_move

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from bones.engine.rules import Rules


class NativeHand(NativeCopying, NativeFields):
    """One hand on the native core, read and stepped like a Python ``Hand``.

    Every field the kernel keeps is read from it by name (``NativeFields``,
    generated from :data:`bones.engine.handstate.HAND_STATE`); ``hands``,
    ``boneyard`` and ``scores`` are assigned whole, and the rules and the
    void bounds are kept here.
    """

    __slots__ = ("rules", "_h", "_scores", "voids")

    def __init__(self, rules: Rules, native: Any, scores: list[int],
                 voids: list[tuple[int, int, int, int]] | None = None) -> None:
        """``native`` is a ``bones_native.Hand`` of ``rules``; ``scores`` the
        list this hand keeps up to date (its values are the kernel's)."""
        self.rules = rules
        self._h = native
        self._scores = scores
        # (seat, tiles it was proven not to hold, its draw count then, the
        # length of the log then): kept here, as the Python hand keeps them
        self.voids: list[tuple[int, int, int, int]] = voids if voids is not None else []

    @property
    def native(self) -> Any:
        """The ``bones_native.Hand`` underneath."""
        return self._h

    # ------------------------------------------------------------ copying

    def copy(self) -> NativeHand:
        """An independent copy (the rules are shared, the scores copied)."""
        return NativeHand(self.rules, self._h.copy(), self._scores[:], self.voids[:])

    def to_python(self, seat: int | None = None) -> Hand:
        """The Python :class:`Hand` in exactly this state (scores copied);
        with ``seat``, what that seat may see (:meth:`Hand.scrub_for`). The
        native hand hands over every field in one call."""
        new = Hand.__new__(Hand)
        new.rules = self.rules
        fill_native(new, self._h.fields(seat))
        new.scores = self._scores[:]
        new.voids = self.voids[:]
        return new

    def public_copy(self, seat: int) -> Hand:
        """What ``seat`` may see, as a Python hand (see :meth:`Hand.public_copy`)."""
        return self.to_python(seat)

    # ------------------------------------------------------ reading state

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's tile mask (assign a whole sequence to change them)."""
        return tuple(self._h.get("hands"))

    @hands.setter
    def hands(self, masks: Sequence[int]) -> None:
        ts = self.rules.tiles
        self._h.set_hands([ts.tiles_of(m) for m in masks])

    @property
    def boneyard(self) -> tuple[int, ...]:
        """The boneyard in drawing order (assign a whole sequence to change it)."""
        return tuple(self._h.get("boneyard"))

    @boneyard.setter
    def boneyard(self, tiles: Sequence[int]) -> None:
        self._h.boneyard = list(tiles)

    @property
    def scores(self) -> list[int]:
        return self._scores

    @scores.setter
    def scores(self, scores: list[int]) -> None:
        """Keep ``scores`` (a match's list) up to date from now on."""
        self._h.scores = list(scores)
        self._scores = scores

    @property
    def over(self) -> bool:
        return bool(self._h.get("state") != PLAYING)

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn (the reserve excluded)."""
        h = self._h
        return max(int(h.get("bone_end")) - int(h.get("bone_pos")), 0)

    @property
    def boneyard_left(self) -> int:
        return len(self._h.get("boneyard")) - int(self._h.get("bone_pos"))

    def open_tiles(self) -> int:
        """The mask of tiles that could be laid on some open arm."""
        return int(self._h.get("open_mask"))

    def open_ends(self) -> dict[int, int]:
        """The pip to match on each arm open for play, by arm index."""
        return {a: pip for a, pip in enumerate(self._h.get("arm_open")) if pip >= 0}

    def recount(self) -> int:
        return int(self._h.recount())

    def pips_left(self, seat: int) -> int:
        return int(self._h.pips_left(seat))

    # -------------------------------------------------------------- moves

    def legal_moves(self) -> list[int]:
        """Every legal move of the player to move, as move codes."""
        moves: list[int] = self._h.legal_moves()
        return moves

    def is_legal(self, move: int) -> bool:
        return bool(self._h.is_legal(move))

    def play(self, move: int, claim: int | None = None) -> int:
        """Apply ``move`` after checking it; returns the points it scored."""
        h = self._h
        if h.get("state") != PLAYING:
            raise IllegalMoveError("the hand is over", [])
        if not h.is_legal(move):
            legal = [format_move(self, m) for m in h.legal_moves()]
            raise IllegalMoveError(
                f"{format_move(self, move)} is not legal now; legal: {', '.join(legal)}",
                legal,
            )
        self.apply(move, claim)
        return int(h.get("last_points"))

    def apply(self, move: int, claim: int | None = None) -> None:
        """Apply a legal move without checking it (the fast path)."""
        h = self._h
        if move < 0 and h.get("extra") < 0:
            # a pass, or a draw forced by having nothing to play, proves the
            # seat holds no tile of the open ends (Hand.voids); declining an
            # extra play after a double proves nothing
            seat = h.get("turn")
            open_mask = h.get("open_mask")
            if not h.hand_mask(seat) & open_mask:
                self.voids.append((seat, open_mask, h.get("drawn")[seat], h.moves))
        h.apply(move, claim)
        self._scores[:] = h.scores

    def __repr__(self) -> str:
        return (f"<NativeHand {self.rules.name} turn {self.turn} count {self.count} "
                f"moves {self._h.moves} state {self.state}>")


__all__ = ["NATIVE_FIELDS", "NativeHand"]
