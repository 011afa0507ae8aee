"""``bones simulate``'s quick path (bones.cli.quick) reads a command line as
Typer does, or leaves it to Typer (issue 37).

The quick path runs a plain ``bones simulate`` without loading Typer; it
must never read a command line otherwise than the whole command line would:
its option table against Typer's command, each command line it reads against
what Typer hands the command, and whole runs (output, errors, exit codes)
through both paths side by side.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bones.cli import app as cli
from bones.cli import simulate_cmd
from bones.cli.quick import OPTIONS, parse
from bones.cli.simrun import run_simulate


def _typer_params() -> dict[str, Any]:
    return {p.name: p for p in cli.build("simulate").params}


def test_the_option_table_agrees_with_typers_command() -> None:
    params = _typer_params()
    by_name = {opt: p for p in params.values() for opt in getattr(p, "opts", [])}
    for name, spec in OPTIONS.items():
        p = by_name[name]  # every name the quick path reads is one of Typer's
        assert spec.dest == p.name, name
        assert (spec.kind == "flag") == bool(p.is_flag), name
        assert spec.multiple == p.multiple, name
        assert not p.secondary_opts and p.envvar is None, name
        type_name = type(p.type).__name__
        if spec.kind == "int":
            assert type_name in ("IntParamType", "IntRange"), name
            assert (getattr(p.type, "min", None), getattr(p.type, "max", None)) == (
                spec.low, spec.high), name
            assert not getattr(p.type, "clamp", False)
        elif spec.kind == "str":
            assert type_name == "StringParamType", name
    # every name of each option the table reads (no alias left to Typer alone)
    for dest in {s.dest for s in OPTIONS.values()}:
        assert set(params[dest].opts) == {n for n, s in OPTIONS.items() if s.dest == dest}
    # what the table leaves to Typer: the path Click checks, the argument
    assert {n for n in params if n not in {s.dest for s in OPTIONS.values()}} == {"variant", "out"}


def test_the_command_and_the_quick_path_call_the_same_body_alike() -> None:
    """simulate_command passes its parameters to run_simulate in order, and
    run_simulate's defaults are Typer's."""
    command = list(inspect.signature(simulate_cmd.simulate_command).parameters)
    body = inspect.signature(run_simulate).parameters
    assert command == list(body)
    for name, p in _typer_params().items():
        if name != "variant":
            assert body[name].default == p.default, name


READ = [
    ["simulate", "sniff"],
    ["simulate", "sniff", "--hands", "1"],
    ["simulate", "--hands=3", "kozel"],
    ["simulate", "sniff", "-n", "5", "--seed", "-7", "--bots", "random", "--bots",
     "greedy,heuristic", "-q", "--json"],
    ["simulate", "-p", "3", "sniff", "-j", "2", "--teams", "--oversubscribe", "--duplicate",
     "--csv", "--scheduler", "tcp://127.0.0.1:1", "--quiet"],
    ["simulate", "sniff", "--players=4", "--jobs=3", "--matches", "007", "--seed=0"],
    ["simulate", "sniff", "--seed", "18446744073709551615", "--hands", "1000000000"],
    ["simulate", "sniff", "--seed", "-18446744073709551615", "-n", "0", "--bots="],
    ["simulate", "sniff", "-n", "-3", "--jobs", "0", "--players", "-1"],
    ["simulate", "", "--bots", "search:iterations=4"],
    ["simulate", "variants/sniff.yaml", "--bots", "cmd:./bot --x=1"],
]

LEFT_TO_TYPER = [
    ["simulate"],
    ["simulate", "--help"],
    ["simulate", "sniff", "--help"],
    ["simulate", "sniff", "-h"],
    ["simulate", "sniff", "--hands"],
    ["simulate", "sniff", "--hands", "x"],
    ["simulate", "sniff", "--hands", "+1"],
    ["simulate", "sniff", "--hands", "1" * 5000],  # past int()'s digit limit: Click's message
    ["simulate", "sniff", "--hands", " 1"],
    ["simulate", "sniff", "--hands", "1_0"],
    ["simulate", "sniff", "--hands", "1000000001"],
    ["simulate", "sniff", "--seed", "18446744073709551616"],
    ["simulate", "sniff", "--seed", "-18446744073709551616"],
    ["simulate", "sniff", "kozel"],
    ["simulate", "sniff", "--json", "--json"],
    ["simulate", "sniff", "--matches", "1", "-n", "2"],
    ["simulate", "sniff", "--json=1"],
    ["simulate", "sniff", "-n5"],
    ["simulate", "sniff", "-n=5"],
    ["simulate", "sniff", "-qn", "5"],
    ["simulate", "sniff", "--out", "report.txt"],
    ["simulate", "sniff", "--bots", "--json"],
    ["simulate", "sniff", "--scheduler", "-x"],
    ["simulate", "--", "sniff"],
    ["simulate", "-", "--hands", "1"],
    ["simulate", "sniff", "--hand", "1"],
    ["simulate", "sniff", "--no-teams"],
    ["--version", "simulate", "sniff"],
    ["list"],
]


@pytest.mark.parametrize("args", READ, ids=" ".join)
def test_a_plain_command_line_is_read_as_typer_reads_it(args: list[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []

    def record(*given: Any, **named: Any) -> int:
        bound = inspect.signature(run_simulate).bind(*given, **named)
        bound.apply_defaults()
        seen.append(dict(bound.arguments))
        return 0

    monkeypatch.setattr(simulate_cmd, "run_simulate", record)
    done = CliRunner().invoke(cli.app, args)
    assert done.exit_code == 0, done.output
    quick = parse(args)
    assert quick is not None
    bound = inspect.signature(run_simulate).bind(**quick)
    bound.apply_defaults()
    assert seen == [dict(bound.arguments)]


@pytest.mark.parametrize("args", LEFT_TO_TYPER, ids=lambda a: " ".join(a)[:60])
def test_anything_else_is_left_to_typer(args: list[str]) -> None:
    assert parse(args) is None


def test_shell_completion_is_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse(["simulate", "sniff"]) is not None
    monkeypatch.setenv("_BONES_COMPLETE", "bash_complete")
    assert parse(["simulate", "sniff"]) is None


#: Runs the whole command line (Typer) as the console script did before the quick path
_WHOLE = "import sys; sys.argv[0] = 'bones'; from bones.cli.app import main; main()"


def _run(tmp_path: Path, code: list[str], args: list[str]) -> tuple[int, str, str]:
    env = dict(os.environ, BONES_CACHE_DIR=str(tmp_path / "cache"), NO_COLOR="1", COLUMNS="100")
    done = subprocess.run([sys.executable, *code, *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    out = done.stdout
    if out.startswith("{"):  # a JSON report: all but its run's times
        report = json.loads(out)
        assert report.pop("run")["seconds"] >= 0
        out = json.dumps(report)
    return done.returncode, out, done.stderr


@pytest.mark.parametrize("args", [
    ["simulate", "sniff", "--hands", "3", "--seed", "11", "--bots", "random,greedy"],
    ["simulate", "kozel", "-n", "2", "--seed", "5", "--json", "--quiet"],
    ["simulate", "sniff", "--hands", "4", "--seed", "3", "--csv", "--duplicate"],
    ["simulate", "snif", "--hands", "1"],  # no such variant: 2
    ["simulate", "sniff", "--json", "--csv"],  # exclusive: 2
    ["simulate", "sniff", "-n", "0"],  # 2
    ["simulate", "sniff", "--hands", "1", "--bots", "gredy"],  # an unknown bot: 2
], ids=lambda a: " ".join(a)[:60])
def test_the_quick_path_runs_as_the_whole_command_line(tmp_path: Path, args: list[str]) -> None:
    quick = _run(tmp_path, ["-m", "bones"], args)
    whole = _run(tmp_path, ["-c", _WHOLE], args)
    assert quick == whole
    assert quick[1] or quick[2].startswith("bones simulate: ")


def test_a_number_past_ints_digit_limit_is_a_usage_error_not_a_traceback() -> None:
    # int() refuses more than 4,300 digits with a ValueError: the quick path
    # reads at most 20 and leaves the rest to Click, which says it in one line
    done = subprocess.run([sys.executable, "-m", "bones", "simulate", "sniff", "--hands",
                           "9" * 5000], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "Invalid value for '--hands'" in done.stderr
