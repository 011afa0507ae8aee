"""Build hook for the optional compiled core.

Everything about the package is in pyproject.toml.  This file only adds
one thing: with ``BONES_COMPILE=1`` in the environment, ``bones/engine/hand.py``
(the hot path) is compiled with mypyc, which plays the same games about
twice as fast.  Without it, bones installs as pure Python.

    pip install mypy 'setuptools>=77' wheel
    BONES_COMPILE=1 pip install --no-build-isolation .
"""

from __future__ import annotations

import os

from setuptools import setup


def _ext_modules() -> list:
    if os.environ.get("BONES_COMPILE", "").lower() not in ("1", "true", "yes"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as err:  # pragma: no cover - a build-time message
        raise SystemExit(
            "BONES_COMPILE=1 needs mypyc: pip install mypy, then build with "
            "--no-build-isolation"
        ) from err
    # the build needs none of the runtime dependencies: hand.py reads the
    # compiled rules only, so pydantic may be unknown to the type checker.
    # An empty --config-file keeps pyproject's [tool.mypy] (its pydantic
    # plugin, its warnings about unused sections) out of this one-file build.
    return mypycify(
        ["--config-file", "", "--ignore-missing-imports", "bones/engine/hand.py"],
        opt_level="3",
    )


setup(ext_modules=_ext_modules())
