"""The error of a variant that cannot be loaded.

A leaf module: a command that plays a variant from the compiled cache
catches this error without loading the YAML reader
(:mod:`bones.lang.yamlsource`, which raises it with the problems it found,
each a :class:`~bones.lang.yamlsource.LocatedProblem`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - a leaf at run time
    from bones.lang.yamlsource import LocatedProblem


class VariantError(ValueError):
    """A variant file (or name) that cannot be loaded; ``problems`` lists all of them."""

    def __init__(self, problems: Iterable[LocatedProblem]) -> None:
        self.problems: list[LocatedProblem] = list(problems)
        super().__init__("\n".join(p.format() for p in self.problems))

    def __str__(self) -> str:
        return "\n".join(p.format() for p in self.problems)


__all__ = ["VariantError"]
