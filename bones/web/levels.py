"""The levels the table offers: the product's levels, :mod:`bones.bots.levels`
(the same data ``bones play --level`` and ``bones bots`` read), re-exported for
the web's modules."""

from __future__ import annotations

from bones.bots.levels import DEFAULT, LEVELS, OTHERS, level_of

__all__ = ["DEFAULT", "LEVELS", "OTHERS", "level_of"]
