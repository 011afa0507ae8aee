"""No import cycle among bones' modules, function-local imports included
(tools/import_cycles.py is the check; issue 9 removed the last ones)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_import_cycle() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "import_cycles.py")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "no import cycles"


def _tools_module():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import import_cycles
    finally:
        sys.path.pop(0)
    return import_cycles


def test_the_layers_import_downwards() -> None:
    # the library knows no front end; the page's server and the terminal are
    # two front ends that share only the library (what both need, such as
    # where each tile lies or the catalogue of variants, lives in the engine)
    edges = _tools_module().graph()
    library = ("bones.engine", "bones.lang", "bones.seat", "bones.bots", "bones.sim", "bones.games")
    wrong = [f"{source} -> {target}  ({where})"
             for source, targets in edges.items() for target, where in targets
             if (source.startswith(library) and target.startswith(("bones.cli", "bones.web")))
             or (source.startswith("bones.web") and target.startswith("bones.cli"))]
    assert wrong == []


def test_the_check_finds_a_cycle_and_counts_function_local_imports() -> None:
    import_cycles = _tools_module()
    # a function-local import is an edge: the record/saves cycle of issue 9
    # ran through one
    path = ROOT / "bones" / "games" / "record.py"
    modules = {"bones.games.saves", "bones.engine.moves", "bones.games.record"}
    found = import_cycles.imports(path, modules)
    assert found, "record.py imports other bones modules"
    edges = {"a": [("b", "a.py:1 (in a function)")], "b": [("a", "b.py:1")], "c": []}
    assert import_cycles.cycles(edges) == [["a", "b"]]
    assert import_cycles.cycles({"a": [("b", "")], "b": [], "c": [("a", "")]}) == []
