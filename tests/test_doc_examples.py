"""The Python examples of the docs that are not doctests run as written.

docs/api.md and README.md are doctests (test_engine.py, the README's
doctest-glob); the examples below are plain code blocks, so each file's
blocks run in order in one namespace, as a reader would type them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: file -> the frameworks its examples import (skipped without them)
EXAMPLES = {
    "docs/simulate.md": (),
    "docs/adapters.md": ("pettingzoo", "gymnasium", "pyspiel"),
}


def blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_python_examples_run(name: str) -> None:
    for module in EXAMPLES[name]:
        pytest.importorskip(module)
    found = blocks(ROOT / name)
    assert found, f"{name} has no Python example"
    namespace: dict[str, object] = {"__name__": "__doc_example__"}
    from bones.engine import core

    native = core.native() is not None
    for number, code in enumerate(found, 1):
        if not native and any(v in code for v in ("adapters.vector", "adapters.sb3", "make_vec")):
            continue  # the vector environment (SB3's over it too) runs in the native core only
        try:
            exec(compile(code, f"{name} example {number}", "exec"), namespace)
        except Exception as err:  # noqa: BLE001 - report which example broke
            pytest.fail(f"{name}, example {number}: {type(err).__name__}: {err}")
