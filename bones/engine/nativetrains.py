"""The native stepwise train hand behind the Python :class:`~bones.engine.trains.TrainHand`'s interface.

:class:`NativeTrainHand` wraps a ``bones_native.TrainHand`` (the Rust
kernel's round of a train layout, docs/trains.md) and is what
:func:`bones.engine.core.new_hand` hands out for a train layout under
``BONES_CORE=native``.  The kernel steps the round (``legal_moves``,
``is_legal``, ``apply``, ``play``, ``copy``); everything else the code
around a train hand reads (the layout's arms, owners and markers, the owed
doubles, ``targets``, ``binding``, ``needs``, ``ends``, ``target_of``,
``arm_of_target``, the notation) is read from the Python ``TrainHand`` in
exactly the kernel's state (:meth:`NativeTrainHand.to_python`), made from
the kernel's fields in one call and kept until the next move, so no rule is
decided twice.  ``tests/test_nativetrains.py`` checks every field after
every move against the Python reference.

As with :class:`~bones.engine.nativehand.NativeHand`: ``hands`` and
``boneyard`` are tuples (assign the whole sequence to change them),
``scores`` is the list the hand was given and is kept up to date,
:meth:`public_copy` is a Python hand, and a pickle loads as the Python twin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bones.engine.hand import PLAYING, Hand, IllegalMoveError
from bones.engine.nativecopy import NativeCopying
from bones.engine.notation import format_move
from bones.engine.trains import TrainHand

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from bones.engine.leads import Deal
    from bones.engine.rules import Rules


#: the Python fields the kernel's ``fields()`` gives under the same name
_COPIED = ("state", "turn", "leader", "placed", "passes", "drawn_turn", "bone_pos", "laid_turn",
           "hub_left", "hub_arms", "domino_seat", "last_player", "won_by", "winner",
           "game_over", "extra", "spun")


class NativeTrainHand(NativeCopying):
    """One round of a train layout on the native core, read and stepped like
    a Python :class:`~bones.engine.trains.TrainHand`."""

    __slots__ = ("rules", "_h", "_scores", "_start", "_twin", "_bone")

    def __init__(self, rules: Rules, native: Any, scores: list[int],
                 start: tuple[bool, int, int, Sequence[bool] | None, int, int]) -> None:
        """``native`` is a ``bones_native.TrainHand`` of ``rules``;
        ``scores`` the list this hand keeps up to date; ``start`` the deal's
        fields the Python twin needs (lead_doubles_only, out_of_play, pot,
        got_in, lead_tile, number)."""
        self.rules = rules
        self._h = native
        self._scores = scores
        self._start = start
        self._twin: TrainHand | None = None
        # the boneyard as last assigned (a sampled world's, its drawn part
        # scrubbed to -1), else None: the kernel's
        self._bone: tuple[int, ...] | None = None

    @classmethod
    def from_deal(cls, rules: Rules, deal: Deal, module: Any, table: dict[str, Any],
                  scores: list[int] | None = None, pot: int = 0,
                  got_in: Sequence[bool] | None = None, number: int = 1) -> NativeTrainHand:
        """The round ``deal`` starts (as :meth:`TrainHand.from_deal`), on
        ``module``, ``table`` the rules' flat table
        (:func:`bones.engine.core.flat_table`)."""
        if scores is None:
            scores = [0] * rules.owners
        ts = rules.tiles
        native = module.TrainHand(
            table, [ts.tiles_of(h) for h in deal.hands], list(deal.boneyard),
            deal.leader, deal.lead_tile, list(scores), number)
        start = (deal.lead_doubles_only, deal.out_of_play, pot,
                 tuple(got_in) if got_in is not None else None, deal.lead_tile, number)
        return cls(rules, native, scores, start)

    @property
    def native(self) -> Any:
        """The ``bones_native.TrainHand`` underneath."""
        return self._h

    # ------------------------------------------------------------ copying

    def copy(self) -> NativeTrainHand:
        """An independent copy (the rules are shared, the scores copied)."""
        new = NativeTrainHand(self.rules, self._h.copy(), self._scores[:], self._start)
        new._bone = self._bone
        return new

    def to_python(self) -> TrainHand:
        """The Python :class:`TrainHand` in exactly this state (scores copied)."""
        return self._python().copy()

    def _python(self) -> TrainHand:
        """The Python twin of this state, made once per state (not to be changed)."""
        twin = self._twin
        if twin is not None:
            return twin
        twin = twin_of(self.rules, self._h.fields(), list(self.boneyard), self._start)
        self._twin = twin
        return twin

    def public_copy(self, seat: int) -> Hand:
        """What ``seat`` may see, as a Python ``TrainHand`` (see :meth:`Hand.public_copy`)."""
        return self._python().public_copy(seat)

    # ------------------------------------------------------ reading state

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's tile mask (assign a whole sequence to change them)."""
        return tuple(self._h.hand_masks())

    @hands.setter
    def hands(self, masks: Sequence[int]) -> None:
        ts = self.rules.tiles
        self._h.set_hands([ts.tiles_of(m) for m in masks])
        self._twin = None

    @property
    def boneyard(self) -> tuple[int, ...]:
        """The boneyard in drawing order (assign a whole sequence to change it)."""
        return self._bone if self._bone is not None else tuple(self._h.boneyard)

    @boneyard.setter
    def boneyard(self, tiles: Sequence[int]) -> None:
        """Reorder the boneyard; a tile unknown (-1, a sampled world's drawn
        part) keeps the kernel's, which is never read again."""
        now = self._h.boneyard
        self._h.boneyard = [t if t >= 0 else now[i] for i, t in enumerate(tiles)]
        self._bone = tuple(tiles)
        self._twin = None

    @property
    def scores(self) -> list[int]:
        return self._scores

    @scores.setter
    def scores(self, scores: list[int]) -> None:
        """Keep ``scores`` (a match's list) up to date from now on."""
        self._h.scores = list(scores)
        self._scores = scores
        self._twin = None

    @property
    def state(self) -> int:
        return int(self._h.state)

    @property
    def turn(self) -> int:
        return int(self._h.turn)

    @property
    def over(self) -> bool:
        return bool(self._h.state != PLAYING)

    def pips_left(self, seat: int) -> int:
        return int(self._h.pips_left(seat))

    def recount(self) -> int:
        return 0

    def __getattr__(self, name: str) -> Any:
        """Every other field and reading method of a train hand, from the
        Python twin of this state."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._python(), name)

    # -------------------------------------------------------------- moves

    def legal_moves(self) -> list[int]:
        """Every legal move of the player to move, as move codes (the Python order)."""
        moves: list[int] = self._h.legal_moves()
        return moves

    def is_legal(self, move: int) -> bool:
        return bool(self._h.is_legal(move))

    def play(self, move: int, claim: int | None = None) -> int:
        """Apply ``move`` after checking it; a train play scores no points."""
        if self.over:
            raise IllegalMoveError("the hand is over", [])
        if not self._h.is_legal(move):
            legal = [format_move(self, m) for m in self._h.legal_moves()]
            raise IllegalMoveError(
                f"{format_move(self, move)} is not legal now; legal: {', '.join(legal)}", legal)
        self.apply(move, claim)
        return 0

    def apply(self, move: int, claim: int | None = None) -> None:
        """Apply a legal move without checking it (an illegal one is a ValueError)."""
        self._h.apply(move)
        self._twin = None
        self._scores[:] = self._h.scores

    def __repr__(self) -> str:
        return (f"<NativeTrainHand {self.rules.name} turn {self.turn} moves {self._h.moves} "
                f"state {self.state}>")


def twin_of(rules: Rules, f: dict[str, Any], boneyard: list[int],
            start: tuple[bool, int, int, Sequence[bool] | None, int, int]) -> TrainHand:
    """The Python :class:`TrainHand` of a kernel round's ``fields()`` ``f``
    (``bones_native.TrainHand.fields``), its boneyard ``boneyard`` and the
    deal's ``start`` (lead_doubles_only, out_of_play, pot, got_in,
    lead_tile, number)."""
    doubles_only, out_of_play, pot, got_in, lead_tile, number = start
    twin = TrainHand(rules, f["hands"], boneyard, f["leader"], list(f["scores"]), lead_tile,
                     doubles_only, out_of_play, pot, got_in, number)
    for name in _COPIED:
        setattr(twin, name, f[name])
    twin.won_seat = f["won_by"]
    twin.must_cover = f["must_cover"]
    twin.drawn = list(f["drawn"])
    twin.on_table = f["on_table"]
    twin.settlement = f["settlement"]
    twin.log = [tuple(e) for e in f["log"]]
    twin.arm_open = list(f["arm_open"])
    twin.arm_end = list(f["arm_end"])
    twin.arm_owner = list(f["arm_owner"])
    arms = len(twin.arm_open)
    twin.arm_weight = [1] * arms
    twin.arm_hub = [-1] * arms
    twin.arm_root = [-1] * arms
    twin.arm_side = [False] * arms
    twin.arm_stub = [False] * arms
    twin.arm_frozen = [-1] * arms
    twin.marked = list(f["marked"])
    twin.first_done = list(f["first_done"])
    twin.owed = [list(o) for o in f["owed"]]
    return twin


__all__ = ["NativeTrainHand", "twin_of"]
