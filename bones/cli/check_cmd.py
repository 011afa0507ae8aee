"""`bones check`: replay scenario files and report the first mismatch of each.

The engine is imported inside the command, so `bones --help` stays fast.
"""

from __future__ import annotations

import os
from typing import Any

import typer

from bones.cli.formats import Format, github_annotation
from bones.cli.formats import gh_escape as _gh_escape
from bones.cli.options import EXIT_USAGE, FormatOption, fail, missing_file


def _run(path: str) -> Any:
    """The result of one file; an unexpected failure becomes a one-line error."""
    from bones.engine.scenario import ScenarioResult, run_scenario
    from bones.engine.yamlsource import LocatedProblem

    try:
        return run_scenario(path)
    except Exception as err:  # noqa: BLE001 - never a traceback for a user's file
        if os.environ.get("BONES_DEBUG"):
            raise
        message = f"internal error while checking: {type(err).__name__}: {err}".splitlines()[0]
        return ScenarioResult(path, "error", problems=[
            LocatedProblem(path, 0, 0, (), message + " (set BONES_DEBUG=1 for a traceback)")])


def check(
    files: list[str] = typer.Argument(
        ..., metavar="FILE...", help="Scenario files (YAML).", show_default=False,
    ),
    format: FormatOption = Format.text,
) -> None:
    """Replay scenario files (worked examples of the rules) and report each one.

    Prints `FILE: ok` or the first mismatch, `FILE: step N: expected count 15,
    got 13`; a malformed file is reported at its line and column. The format is
    described in docs/scenarios.md.

    Exit codes: 0 every scenario passed; 1 a scenario failed or could not be
    read; 2 a usage error (among them a path that is not a file).
    """
    for path in files:
        problem = missing_file(path)
        if problem is not None:
            fail("check", problem, EXIT_USAGE)
    results = [_run(path) for path in files]
    ok = all(r.ok for r in results)
    if format is Format.json:
        import json

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
