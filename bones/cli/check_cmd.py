"""`bones check`: replay scenario files and report the first mismatch of each.

The engine is imported inside the command, so `bones --help` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Optional

import typer

from bones.cli.formats import Format, github_annotation
from bones.cli.formats import gh_escape as _gh_escape
from bones.cli.options import EXIT_USAGE, FormatOption, fail, missing_file
from bones.cli.validate_cmd import STDIN, AllowDir

if TYPE_CHECKING:  # pragma: no cover - the engine is imported inside the commands
    from bones.games.scenario import ScenarioResult


def _run(path: str, allow_dirs: list[str]) -> ScenarioResult:
    """The result of one file; an unexpected failure becomes a one-line error.

    ``-`` is standard input: a scenario with no folder, whose ``variant:``
    may name a built-in, or a file inside an ``--allow-dir``.
    """
    from bones.games.scenario import ScenarioResult, run_scenario, run_scenario_text
    from bones.lang.errors import VariantError
    from bones.lang.yamlsource import LocatedProblem, read_stream

    shown = STDIN if path == "-" else path
    try:
        if path == "-":
            try:
                data = read_stream(sys.stdin.buffer, STDIN, what="scenario file")
            except VariantError as err:
                return ScenarioResult(STDIN, "error", problems=err.problems)
            return run_scenario_text(data, file=STDIN, allow_dirs=allow_dirs)
        return run_scenario(path, allow_dirs=allow_dirs)
    except Exception as err:  # noqa: BLE001 - never a traceback for a user's file
        if os.environ.get("BONES_DEBUG"):
            raise
        message = f"internal error while checking: {type(err).__name__}: {err}".splitlines()[0]
        return ScenarioResult(shown, "error", problems=[
            LocatedProblem(shown, 0, 0, (), message + " (set BONES_DEBUG=1 for a traceback)")])


def check(
    files: list[str] = typer.Argument(
        ..., metavar="FILE...", help="Scenario files (YAML), or - for standard input.", show_default=False,
    ),
    format: FormatOption = Format.text,
    allow_dir: Optional[list[str]] = AllowDir,
) -> None:
    """Replay scenario files (worked examples of the rules) and report each one.

    Prints `FILE: ok` or the first mismatch, `FILE: step N: expected count 15,
    got 13`; a malformed file is reported at its line and column. The format is
    described in docs/scenarios.md.

    `-` reads a scenario from standard input; its variant: may name a
    built-in, or a file inside an --allow-dir.

    Exit codes: 0 every scenario passed; 1 a scenario failed or could not be
    read; 2 a usage error (among them a path that is not a file).
    """
    for path in files:
        problem = missing_file(path)
        if problem is not None:
            fail("check", problem, EXIT_USAGE)
    if files.count("-") > 1:
        fail("check", "standard input (-) can be read only once", EXIT_USAGE)
    allow_dirs = list(allow_dir or [])
    results = [_run(path, allow_dirs) for path in files]
    ok = all(r.ok for r in results)
    if format is Format.json:
        typer.echo(json.dumps([r.to_dict() for r in results], indent=2, ensure_ascii=False))
    elif format is Format.github:
        for r in results:
            if r.ok:
                typer.echo(f"{r.file}: ok")
            elif r.status == "error":
                for p in r.problems:
                    typer.echo(github_annotation(p))
            else:
                body = r.lines()[0][len(r.file) + 2:]
                typer.echo(f"::error file={_gh_escape(r.file, prop=True)}::{_gh_escape(body)}")
    else:
        for r in results:
            for line in r.lines():
                typer.echo(line)
    raise typer.Exit(0 if ok else 1)


def register(app: typer.Typer) -> None:
    app.command("check")(check)
