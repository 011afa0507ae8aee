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


def _tools_module():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import import_cycles
    finally:
        sys.path.pop(0)
    return import_cycles


#: What each package may import besides itself, ``bones`` (the lazy public
#: names) and ``bones._version``: the layers of README's "How it is built",
#: from the bottom.  The engine plays compiled tables and imports nothing
#: above it; the language compiles into the engine's tables; a seat's view
#: sits on the engine; bots see a seat; simulation and kept games run bots;
#: the front ends (the learning adapters, the terminal, the web server) sit
#: on the library, and only the terminal's `bones serve` starts the server.
LAYERS = {
    "bones.engine": (),
    "bones.lang": ("bones.engine",),
    "bones.seat": ("bones.engine",),
    "bones.bots": ("bones.engine", "bones.seat"),
    "bones.sim": ("bones.engine", "bones.lang", "bones.seat", "bones.bots"),
    "bones.games": ("bones.engine", "bones.lang", "bones.seat", "bones.bots"),
    "bones.adapters": ("bones.engine", "bones.lang", "bones.seat", "bones.bots"),
    "bones.web": ("bones.engine", "bones.lang", "bones.seat", "bones.bots", "bones.sim",
                  "bones.games"),
    "bones.cli": ("bones.engine", "bones.lang", "bones.seat", "bones.bots", "bones.sim",
                  "bones.games", "bones.web"),
}


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def _upward(edges: dict[str, list[tuple[str, str]]]) -> list[str]:
    return [f"{source} -> {target}  ({where})"
            for source, targets in edges.items() for target, where in targets
            if source != "bones" and _package(source) in LAYERS
            and _package(target) != _package(source)
            and target not in ("bones", "bones._version")
            and _package(target) not in LAYERS[_package(source)]]


def test_the_layers_import_downwards() -> None:
    edges = _tools_module().graph()
    packages = {_package(m) for m in edges if m.count(".") >= 1} - {"bones.__main__", "bones._version"}
    assert packages == set(LAYERS), "a new package needs its place in LAYERS"
    assert _upward(edges) == []


def test_the_layer_check_sees_an_upward_import() -> None:
    # the engine importing a model would put pydantic on the hot path; the
    # web server importing the terminal would tie the two front ends
    edges = {"bones.engine.hand": [("bones.lang.spec", "hand.py:1 (in a function)"),
                                   ("bones.engine.moves", "hand.py:2"), ("bones", "hand.py:3")],
             "bones.web.app": [("bones.cli.render", "app.py:1"), ("bones.games.game", "app.py:2")]}
    assert _upward(edges) == ["bones.engine.hand -> bones.lang.spec  (hand.py:1 (in a function))",
                              "bones.web.app -> bones.cli.render  (app.py:1)"]


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


#: The library's packages that draw nothing: tables, progress bars and
#: colours are the front ends' (bones.seat.picture, the text picture the
#: learning adapters render, is the one use of rich below them).
DRAWS_NOTHING = ("engine", "lang", "bots", "sim", "games")


def test_presentation_stays_in_the_front_ends() -> None:
    import ast

    found = []
    for package in DRAWS_NOTHING:
        for path in sorted((ROOT / "bones" / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {n}"
                          for n in names if n == "rich" or n.startswith("rich.")]
    assert found == []


def test_the_engine_plays_from_compiled_rules_alone() -> None:
    """bones/engine imports nothing of the language, not even for types, and
    reads no attribute of the variant a Rules was compiled from: it plays
    from the compiled codes alone (Rules.variant is for the layers above)."""
    import ast

    found = []
    for path in sorted((ROOT / "bones" / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {n}"
                      for n in names if n == "bones.lang" or n.startswith("bones.lang.")]
            if isinstance(node, ast.Attribute) and node.attr == "variant":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} reads .variant")
    assert found == []
