"""No two public classes of the library, the command line and the web server
share a name (issue 9: ``spec.Match`` beside ``match.Match``, three classes
called ``Layout``; then ``spec.Deal`` beside ``leads.Deal`` and
``spec.HandEnd`` beside ``handend.HandEnd``): a reader, a traceback or a
``from ... import`` never has to ask which one is meant."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

# no core plays in these tests (tools/core_calls.py: 0 calls of core.native, no
# process, under BONES_CORE=native): the Python-core pass of .ci/run only (issue 37)
pytestmark = pytest.mark.core_blind

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "lang", "seat", "bots", "sim", "games", "cli", "web")


def _classes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for package in PACKAGES:
        for path in sorted((ROOT / "bones" / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    found[node.name].append(str(path.relative_to(ROOT)))
    return found


def test_class_names_are_unique() -> None:
    classes = _classes()
    assert len(classes) > 100  # the walk found the package
    assert {name: where for name, where in classes.items() if len(where) > 1} == {}
