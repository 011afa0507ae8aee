"""`bones validate`: check variant files (or built-in names) and report every problem.

The engine is imported inside the command, so `bones --help` stays fast.
"""

from __future__ import annotations

import os
from typing import Any, List

import typer

from bones.cli.formats import Format, github_annotation




def _check(ref: str) -> tuple[bool, list[Any]]:
    """(valid, problems) for one input; unexpected failures become one problem."""
    from bones.engine.load import LocatedProblem, VariantError, load_variant

    try:
        load_variant(ref)
    except VariantError as err:
        return False, err.problems
    except Exception as err:  # noqa: BLE001 - never a traceback for a user's file
        if os.environ.get("BONES_DEBUG"):
            raise
        message = f"internal error while loading: {type(err).__name__}: {err}".splitlines()[0]
        return False, [LocatedProblem(ref, 0, 0, (), message + " (set BONES_DEBUG=1 for a traceback)")]
    return True, []


def validate(
    files: List[str] = typer.Argument(
        ...,
        metavar="FILE-or-NAME",
        help="Variant files, or names of built-in variants.",
        show_default=False,
    ),
    format: Format = typer.Option(
        Format.text,
        "--format",
        "-f",
        help="text: FILE:LINE:COL: key.path: message; json: a list of results; "
        "github: GitHub Actions annotations.",
        case_sensitive=False,
    ),
) -> None:
    """Check variant files and print every problem, each at its line and column.

    Exit codes: 0 all valid, 1 a problem found, 2 a usage error.
    """
    results = [(ref, *_check(ref)) for ref in files]
    ok = all(valid for _, valid, _ in results)
    if format is Format.json:
        import json

        payload = [
            {"file": ref, "valid": valid, "problems": [p.to_dict() for p in problems]}
            for ref, valid, problems in results
        ]
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for ref, valid, problems in results:
            if valid:
                typer.echo(f"{ref}: ok")
                continue
            for p in problems:
                if format is Format.github:
                    typer.echo(github_annotation(p))
                else:
                    typer.echo(p.format())
    raise typer.Exit(0 if ok else 1)


def register(app: typer.Typer) -> None:
    app.command("validate")(validate)
