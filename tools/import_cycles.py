"""Import cycles among the modules of ``bones``, function-local imports included.

    python tools/import_cycles.py            # the cycles, one per line (exit 1 if any)
    python tools/import_cycles.py --edges    # every import edge, with where it is

Imports under ``if TYPE_CHECKING:`` are left out (they never run); every
other ``import`` and ``from ... import``, at module level or inside a
function, is an edge.  A cycle is a strongly connected component of more
than one module (or a module importing itself).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bones"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path, modules: set[str]) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) for each import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    visit(sub, top)
                continue
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    out.append((alias.name, child.lineno, top))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")
                    up = up[: len(up) - (child.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    out.append((full if full in modules else base, child.lineno, top))
            visit(child, inner)

    visit(tree, True)
    return [(m, line, top) for m, line, top in out if m in modules and m != me]


def graph() -> dict[str, list[tuple[str, str]]]:
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in files}
    edges: dict[str, list[tuple[str, str]]] = {m: [] for m in modules}
    for path in files:
        for target, line, top in imports(path, modules):
            where = f"{path.relative_to(ROOT)}:{line}" + ("" if top else " (in a function)")
            edges[module_name(path)].append((target, where))
    return edges


def cycles(edges: dict[str, list[tuple[str, str]]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _ in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in sorted(edges):
        if v not in index:
            connect(v)
    return sorted(out)


def main() -> int:
    edges = graph()
    if "--edges" in sys.argv:
        for source in sorted(edges):
            for target, where in edges[source]:
                print(f"{source} -> {target}  ({where})")
        return 0
    found = cycles(edges)
    for component in found:
        inside = set(component)
        print("cycle: " + ", ".join(component))
        shown = sorted({(s, t, w) for s in component for t, w in edges[s] if t in inside})
        for source, target, where in shown:
            print(f"    {source} -> {target}  ({where})")
    if not found:
        print("no import cycles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
