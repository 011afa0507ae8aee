"""Each command imports what it needs, and no more (issue 37).

Every command a user types pays for every module it imports, and so does
every test that starts the command line.  Each check runs the command in a
fresh interpreter and reads the modules it ended with: ``bones --version``
loads neither Typer nor the engine, ``bones list`` no bot, simulation, web
server or other command (``--json``: not rich either; its catalogue, once
cached, neither YAML nor the models: tests/test_cache.py), a simulation of
random or one-move bots none of the search bots, and a plain ``bones
simulate`` neither Typer nor any command module (its quick path,
:mod:`bones.cli.quick`; tests/test_quick.py), nor rich when its tables go
to a stream that is no terminal (:mod:`bones.cli.page`; tests/test_page.py).  The last tests keep the
imports inside functions at their seams (tools/local_imports.py).  The seams that make this
so are the command line's table of commands (:data:`bones.cli.app.COMMANDS`)
and the bots' registry (:data:`bones.bots.BOTS`): both name their entries
without importing them, and the last tests check each table against the
modules it names.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import typer

import bones.bots
from bones.cli import app as cli

ROOT = Path(__file__).resolve().parent.parent

#: Runs the command line as the console script does, then writes the names of
#: the modules it imported into the file named first.
_RUN = """\
import sys
out, sys.argv = sys.argv[1], ["bones", *sys.argv[2:]]
from bones.cli.entry import main
try:
    main()
except SystemExit:
    pass
names = sorted(sys.modules)
import json
with open(out, "w") as fh:
    json.dump(names, fh)
"""

#: The search bots' modules (and what only they use)
SEARCH = {"bones.bots.search", "bones.bots.ismcts", "bones.bots.epimc", "bones.bots.solve",
          "bones.bots.matchvalue", "bones.bots.infer", "bones.bots.rollouts", "bones.bots.stop",
          "bones.bots.settings"}


def imported(tmp_path: Path, *args: str) -> set[str]:
    """The modules ``bones ARGS`` imports, in a fresh interpreter."""
    out = tmp_path / "modules.txt"
    env = dict(os.environ, BONES_CACHE_DIR=str(tmp_path / "cache"), NO_COLOR="1")
    done = subprocess.run([sys.executable, "-c", _RUN, str(out), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert out.exists(), done.stderr
    return set(json.loads(out.read_text()))


def _under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


def _commands(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith("bones.cli.") and m.endswith("_cmd")}


def test_version_loads_neither_the_command_line_nor_the_engine(tmp_path: Path) -> None:
    modules = imported(tmp_path, "--version")
    assert _under(modules, "bones") == {"bones", "bones._version", "bones.cli", "bones.cli.entry",
                                        "bones.cli.process", "bones.engine", "bones.engine.core",
                                        "bones.engine.tableformat"}
    assert not _under(modules, "typer", "click", "rich", "pydantic", "yaml")


@pytest.mark.parametrize("args", [("list",), ("list", "--json")])
def test_list_loads_no_bot_simulation_web_or_other_command(tmp_path: Path,
                                                           args: tuple[str, ...]) -> None:
    modules = imported(tmp_path, *args)
    assert "bones.lang.describe" in modules  # it ran (a fresh cache: the catalogue is made)
    assert not _under(modules, "bones.bots", "bones.sim", "bones.web", "bones.adapters",
                      "starlette", "uvicorn")
    assert _under(modules, "bones.games") == {"bones.games", "bones.games.cache"}
    assert _commands(modules) == {"bones.cli.variants_cmd"}
    if "--json" in args:
        assert not _under(modules, "rich")
    else:
        assert "rich.table" in modules  # the table it prints


@pytest.mark.once  # the native core's simulation path: the Python core's loads more
@pytest.mark.parametrize(("bots", "output"), [("random", ("--json",)), ("random", ("--csv",)),
                                             ("greedy,heuristic", ())])
def test_a_simulation_of_one_move_bots_loads_no_search(tmp_path: Path, bots: str,
                                                       output: tuple[str, ...]) -> None:
    modules = imported(tmp_path, "simulate", "sniff", "--hands", "2", "--seed", "1", "--bots", bots,
                       "--quiet", *output)
    assert "bones.sim.simulation" in modules  # it ran
    assert not modules & SEARCH, sorted(modules & SEARCH)
    assert not _under(modules, "bones.web", "bones.adapters", "bones.bots.external")
    # the quick path (bones.cli.quick): no Typer, Click or command module
    assert not _commands(modules) and not _under(modules, "typer", "click")
    assert "bones.cli.app" not in modules and "bones.cli.options" not in modules
    # the report's tables, to a stream that is no terminal, without rich (bones.cli.page)
    assert not _under(modules, "rich")
    if not output:
        assert "bones.cli.page" in modules


#: Every bones module a plain random-bot simulation may need (the quick path,
#: the bots' registry and the one-move bots, the engine's rules and flat
#: table, the compiled-variant cache, the simulation and its report)
QUICK = {"bones", "bones._version", "bones.bots", "bones.bots.basic", "bones.bots.info",
         "bones.bots.policies", "bones.cli", "bones.cli.entry", "bones.cli.page",
         "bones.cli.process", "bones.cli.quick", "bones.cli.shared", "bones.cli.simrun",
         "bones.engine", "bones.engine.bounds", "bones.engine.core", "bones.engine.flat",
         "bones.engine.handstate", "bones.engine.moves", "bones.engine.rng", "bones.engine.rules",
         "bones.engine.settle", "bones.engine.tableformat", "bones.engine.tiles", "bones.games",
         "bones.games.cache", "bones.lang", "bones.lang.compile", "bones.lang.errors",
         "bones.sim", "bones.sim.duplicate", "bones.sim.simulation", "bones.sim.stats"}


#: Standard modules a plain random-bot simulation never loads, each with the
#: branch that does (their imports cost more than a short run plays)
UNNEEDED = {
    "difflib": "a mistyped bot's or parameter's hint (bones.bots)",
    "platform": "Windows' run facts (bones.sim.simulation.machine: os.uname elsewhere)",
    "pickle": "worker processes (the compiled-variant cache is read by marshal)",
}


@pytest.mark.once  # the native core's simulation path
def test_a_plain_simulation_loads_only_what_it_needs(tmp_path: Path) -> None:
    """``bones simulate sniff --hands 1`` printing its tables to a pipe: no
    third-party package but the native core (no rich, Typer, Click, pydantic,
    YAML), and no bones module beyond :data:`QUICK`."""
    args = ("simulate", "sniff", "--hands", "1", "--seed", "1")
    assert "yaml" in imported(tmp_path, *args)  # the first run compiles sniff into the cache
    modules = imported(tmp_path, *args)
    assert "bones.sim.simulation" in modules and "bones.cli.page" in modules  # it ran
    outside = {m.split(".")[0] for m in modules
               if not m.startswith("__editable__")} - set(sys.stdlib_module_names)
    assert outside <= {"__main__", "bones", "bones_native", "_distutils_hack", "sitecustomize",
                       "usercustomize"}, sorted(outside)
    assert _under(modules, "bones") <= QUICK, sorted(_under(modules, "bones") - QUICK)
    assert not modules & UNNEEDED.keys(), sorted(modules & UNNEEDED.keys())


@pytest.mark.parametrize("args", [("simulate", "--help"), ("simulate", "sniff", "--hands", "x")])
def test_a_simulate_command_line_the_quick_path_leaves_loads_typer(
        tmp_path: Path, args: tuple[str, ...]) -> None:
    modules = imported(tmp_path, *args)
    assert {"typer", "bones.cli.app", "bones.cli.quick"} <= modules
    assert _commands(modules) == {"bones.cli.simulate_cmd"}


def test_help_lists_every_command_from_the_table(tmp_path: Path) -> None:
    modules = imported(tmp_path, "--help")
    assert _commands(modules) == set(cli.COMMANDS.values())
    assert not modules & SEARCH and not _under(modules, "bones.web", "rich")


def test_the_command_table_names_what_each_module_registers() -> None:
    by_module: dict[str, set[str]] = {}
    for name, module in cli.COMMANDS.items():
        by_module.setdefault(module, set()).add(name)
    for module, names in by_module.items():
        registered = {c.name for c in cli.registered(module).registered_commands}
        assert registered == names, module
    group = typer.main.get_command(cli.app)
    assert list(group.commands) == list(cli.COMMANDS)  # --help's order


def test_the_bot_registry_names_what_each_module_declares() -> None:
    import importlib

    by_module: dict[str, list[str]] = {}
    for name, module in bones.bots._MODULES.items():
        by_module.setdefault(module, []).append(name)
    for module, names in by_module.items():
        assert [info.name for info in importlib.import_module(module).INFOS] == names, module
    assert [bones.bots.BOTS[name].name for name in bones.bots.BOTS] == list(bones.bots._MODULES)


def test_a_registered_bot_reads_as_before_and_an_unknown_one_is_refused() -> None:
    assert "search" in bones.bots.BOTS and "gredy" not in bones.bots.BOTS
    assert bones.bots.BOT_LIMITS["search"]["iterations"] == max(
        p.maximum for p in bones.bots.BOTS["search"].params if p.name == "iterations")
    with pytest.raises(KeyError):
        bones.bots.BOTS["gredy"]
    with pytest.raises(KeyError):
        bones.bots.BOT_LIMITS["gredy"]
    assert list(bones.bots.BOT_LIMITS) == list(bones.bots.BOTS) == list(bones.bots._MODULES)


def _local_imports() -> ModuleType:
    spec = importlib.util.spec_from_file_location("local_imports", ROOT / "tools" / "local_imports.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_function_local_imports_stay_at_their_seams() -> None:
    """A module's dependencies are read at its top (issue 30): an import inside
    a function is at a seam (the command line, the bots' registry, the web
    table), of an optional extra, or says why it waits (``# lazy: ...``)."""
    tool = _local_imports()
    found = tool.every_local()
    stray = [f"{f.path}:{f.line}: {f.statement}" for f in found if not f.allowed]
    assert not stray, "imports to move to the module head or mark '# lazy: <why>':\n" + "\n".join(
        stray)
    # the checker sees what it should: a marked wait, an extra and a seam
    kinds = {(f.path, f.allowed) for f in found}
    assert ("bones/engine/core.py", "comment") in kinds
    assert ("bones/bots/__init__.py", "seam") in kinds
    assert any(kind == "optional" for _, kind in kinds)


def test_the_local_import_checker_tells_stray_from_allowed(tmp_path: Path) -> None:
    tool = _local_imports()
    source = (
        "import os\n"
        "def f():\n"
        "    import json\n"
        "    # lazy: a reason\n"
        "    import csv\n"
        "    import rich  # an optional extra\n"
        "    from bones.engine import (  # lazy: a reason\n"
        "        core,\n"
        "    )\n"
        "    if TYPE_CHECKING:\n"
        "        import typing\n"
        "    return os, json, csv, rich, core\n"
    )
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    found = tool.locals_in(path, "bones/engine/probe.py")
    assert [f.allowed for f in tool.locals_in(path, "bones/cli/probe.py")] == ["seam"] * 4
    assert [(f.line, f.allowed) for f in found] == [(3, ""), (5, "comment"), (6, "optional"),
                                                    (7, "comment")]
