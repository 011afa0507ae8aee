"""Doctest collection for the modules under ``bones/``.

The native vector environment (``bones.adapters.vector``, and the SB3
environment over it, ``bones.adapters.sb3``) runs only in the
native core: its examples are skipped, saying why, when the Python core runs
(``BONES_CORE=python``, or no native core built), as its tests are.
"""

from __future__ import annotations

import pytest

#: modules whose doctests need the native core
NATIVE_ONLY = ("bones/adapters/vector.py", "bones/adapters/sb3.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from bones.engine import core

    if core.native() is not None:
        return
    skip = pytest.mark.skip(reason="the vector environment runs in the native core only")
    for item in items:
        if str(item.path).replace("\\", "/").endswith(NATIVE_ONLY):
            item.add_marker(skip)
