"""Copying and pickling a hand on the native core, as one would a Python hand.

:class:`NativeCopying` gives :class:`~bones.engine.nativehand.NativeHand`
and :class:`~bones.engine.nativetrains.NativeTrainHand` the same
``copy.copy``, ``copy.deepcopy`` and pickle behaviour from what each
defines: ``copy()`` (the kernel's state copied, the rules shared), the
``scores`` it keeps up to date, and ``to_python()`` (its Python twin).  A
pickle holds the Python twin, so it loads without the native core.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from typing import Self

    from bones.engine.hand import Hand


class NativeCopying:
    """``__copy__``, ``__deepcopy__`` and ``__reduce__`` for a native hand."""

    __slots__ = ()

    _scores: list[int]

    @property
    def scores(self) -> list[int]:  # pragma: no cover - every native hand defines it
        raise NotImplementedError

    @scores.setter
    def scores(self, scores: list[int]) -> None:  # pragma: no cover
        raise NotImplementedError

    def copy(self) -> Self:  # pragma: no cover - every native hand defines it
        raise NotImplementedError

    def to_python(self) -> Hand:  # pragma: no cover - every native hand defines it
        raise NotImplementedError

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """``copy.deepcopy``: :meth:`copy`, keeping the scores shared with a
        match copied alongside."""
        new = self.copy()
        new.scores = copy.deepcopy(self._scores, memo)
        memo[id(self)] = new
        return new

    def __reduce__(self) -> Any:
        """A pickle holds the Python twin (with the same scores list)."""
        twin = self.to_python()
        twin.scores = self._scores
        return _same, (twin,)


def _same(hand: Hand) -> Hand:
    """Unpickle a native hand: its Python twin, pickled whole."""
    return hand


__all__ = ["NativeCopying"]
