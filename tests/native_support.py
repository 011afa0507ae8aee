"""What the tests comparing the two cores share.

* :data:`bones_native`: the native module, or ``None`` when it is not
  installed or was built for another table format;
* :func:`skip_native`: the marks that skips such a test module when the native
  core is missing (``BONES_CORE=native``, CI's native pass, makes a missing
  core an error at import instead) or, for tests of what the native core
  plays in place of Python, when ``BONES_CORE=python`` forces the reference;
* :func:`builtin_tables`: every built-in variant at every allowed player
  count, with and without partnerships where the variant allows both.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from bones.engine import core
from bones.lang.load import builtin_names, load_variant


def _load() -> tuple[ModuleType | None, str]:
    try:
        import bones_native as module

        from bones.engine.flat import FORMAT_VERSION

        if module.TABLE_FORMAT != FORMAT_VERSION:
            raise ImportError("built for another table format")
    except ImportError as err:  # pragma: no cover - depends on the install
        if os.environ.get("BONES_CORE") == "native":
            raise
        return None, f"native core not available: {err}"
    return module, ""


bones_native, _why = _load()


def skip_native(*, when_python_forced: bool = False) -> list[pytest.MarkDecorator]:
    """The module mark: skip without the native core (and, if asked, when
    ``BONES_CORE=python`` forces the Python core)."""
    if bones_native is None:
        return [pytest.mark.skip(reason=_why)]
    if when_python_forced and core.native() is None:
        return [pytest.mark.skip(reason="BONES_CORE=python forces the Python core")]
    return []


def builtin_tables() -> list[tuple[str, int, bool]]:
    """(variant, players, teams) for every game the built-ins allow."""
    out = []
    for name in builtin_names():
        variant = load_variant(name)
        for players in variant.players.counts:
            for teams in sorted({variant.partnered(players, False),
                                 variant.partnered(players, True)}):
                out.append((name, players, teams))
    return out
