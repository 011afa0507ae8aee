"""Function-local imports in ``bones`` outside the seams where they belong.

    python tools/local_imports.py            # the stray ones, one per line (exit 1 if any)
    python tools/local_imports.py --all      # every function-local import, stray or not
    python tools/local_imports.py --count    # how many function-local imports there are

A module's dependencies are read at its top (issue 30): an ``import`` inside
a function is allowed only

- at the command line's entry path (``bones/cli``): the entry point and the
  table of commands load a command's module when it runs, and each command
  loads what it needs when it runs, so ``bones --version``, ``--help`` and
  ``list`` start at once (issue 37, ``tests/test_startup_imports.py``);
- at the bots' registry (``bones/bots/__init__.py``), which names each bot's
  module without importing it until the bot is made;
- in the web table (``bones/web``): ``bones serve`` listens before the
  engine, the language's models and the game layer load (pydantic alone is
  most of a second), and :func:`bones.web.games.warm` loads them in the
  background right after; the routes import them when a request needs them
  (what the server loads at start is imported at the module heads);
- for an optional extra (:data:`OPTIONAL`): a package that only some
  installs have or only one command needs (the web server's, the learning
  frameworks', the cluster's, rich's tables and progress bars, numpy,
  the native core, the platform's own modules);
- or with a ``# lazy: <reason>`` comment in the comment lines just above it
  or on its own lines, saying why this import waits (an import cycle it
  breaks, a command's start-up it keeps light).

Imports under ``if TYPE_CHECKING:`` never run and are not counted.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bones"

#: Where function-local imports are the design (paths relative to the root)
SEAMS = ("bones/cli/", "bones/bots/__init__.py", "bones/web/")

#: Top-level packages some installs lack or only one command needs
OPTIONAL = frozenset({
    "dask", "distributed", "torch", "gymnasium", "pettingzoo", "pyspiel", "open_spiel",
    "stable_baselines3", "sb3_contrib", "numpy", "starlette", "uvicorn", "segno", "idna",
    "rich", "msvcrt", "ctypes", "webbrowser", "bones_native",
})

MARK = "# lazy:"


class Local(NamedTuple):
    path: str
    line: int
    function: str
    statement: str
    allowed: str  # why it may stay, or "" when it is stray


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top(node: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name.split(".")[0] for alias in node.names}
    return {(node.module or "").split(".")[0]} if not node.level else {"bones"}


def locals_in(path: Path, rel: str | None = None) -> list[Local]:
    """The function-local imports of one file, each with why it may stay
    (``rel``: the file's path from the root, when it is elsewhere)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    rel = rel or path.relative_to(ROOT).as_posix()
    found: list[Local] = []

    def why(node: ast.Import | ast.ImportFrom) -> str:
        if rel.startswith(SEAMS):
            return "seam"
        if _top(node) <= OPTIONAL:
            return "optional"
        if any(MARK in line for line in lines[node.lineno - 1:node.end_lineno or node.lineno]):
            return "comment"
        above = node.lineno - 2  # the comment block just above
        while above >= 0 and lines[above].strip().startswith("#"):
            if lines[above].strip().startswith(MARK):
                return "comment"
            above -= 1
        return ""

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    visit(sub, function)
                continue
            inner = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = child.name
            elif isinstance(child, ast.Lambda):
                inner = "<lambda>"
            if isinstance(child, (ast.Import, ast.ImportFrom)) and function:
                found.append(Local(rel, child.lineno, function, ast.unparse(child), why(child)))
            visit(child, inner)

    visit(ast.parse(text), "")
    return found


def every_local() -> list[Local]:
    return [found for path in sorted(PACKAGE.rglob("*.py")) for found in locals_in(path)]


def main(argv: list[str]) -> int:
    found = every_local()
    if "--count" in argv:
        print(len(found))
        return 0
    shown = found if "--all" in argv else [f for f in found if not f.allowed]
    for f in shown:
        print(f"{f.path}:{f.line}: {f.function}: {f.statement}"
              + (f"  [{f.allowed}]" if f.allowed else ""))
    stray = sum(1 for f in found if not f.allowed)
    if "--all" not in argv:
        print(f"{stray} stray function-local import(s)" if stray
              else "no stray function-local imports", file=sys.stderr)
    return 1 if stray and "--all" not in argv else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
