"""`bones validate`: check variant files (or built-in names) and report every problem.

The engine is imported inside the command, so `bones --help` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Optional

import typer

from bones.cli.formats import Format, github_annotation
from bones.cli.options import EXIT_USAGE, FormatOption, fail, first_problem, input_exit_code

if TYPE_CHECKING:  # pragma: no cover - the engine is imported inside the commands
    from bones.lang.yamlsource import LocatedProblem

#: How standard input (``-``) is named in messages.
STDIN = "<stdin>"

#: ``--allow-dir``, shared by validate and check.
AllowDir = typer.Option(
    None, "--allow-dir", metavar="DIR", show_default=False,
    help="A folder whose .yaml files extends: (and a scenario's variant:) may also name; "
    "repeatable. Without it a file may name only built-ins and .yaml files inside its own folder.",
)


def _check(ref: str, allow_dirs: list[str]) -> tuple[bool, list[LocatedProblem]]:
    """(valid, problems) for one input; unexpected failures become one problem.

    ``-`` is standard input, read as a variant file with no folder: its
    ``extends:`` may name a built-in, or a file inside an ``--allow-dir``.
    """
    from bones.lang.load import LocatedProblem, VariantError, load_variant, load_variant_text

    try:
        if ref == "-":
            from bones.lang.yamlsource import read_stream

            data = read_stream(sys.stdin.buffer, STDIN)
            load_variant_text(data, file=STDIN, allow_files=True, allow_dirs=allow_dirs)
        else:
            load_variant(ref, allow_dirs=allow_dirs)
    except VariantError as err:
        return False, err.problems
    except Exception as err:  # noqa: BLE001 - never a traceback for a user's file
        if os.environ.get("BONES_DEBUG"):
            raise
        message = f"internal error while loading: {type(err).__name__}: {err}".splitlines()[0]
        return False, [LocatedProblem(ref, 0, 0, (), message + " (set BONES_DEBUG=1 for a traceback)")]
    return True, []


def _shown(ref: str) -> str:
    return STDIN if ref == "-" else ref


def validate(
    files: list[str] = typer.Argument(
        ...,
        metavar="FILE-or-NAME",
        help="Variant files, names of built-in variants, or - for standard input.",
        show_default=False,
    ),
    format: FormatOption = Format.text,
    allow_dir: Optional[list[str]] = AllowDir,
) -> None:
    """Check variant files and print every problem, each at its line and column.

    Output: FILE: ok, or FILE:LINE:COL: key.path: message for each problem
    (--format json: a list of results; github: GitHub Actions annotations).

    `-` reads a variant file from standard input (named <stdin> in messages);
    its extends: may name a built-in, or a file inside an --allow-dir.

    Exit codes: 0 all valid; 1 a problem found; 2 a usage error (among them a
    name that is not a built-in variant, or a path that is not a file).
    """
    if files.count("-") > 1:
        fail("validate", "standard input (-) can be read only once", EXIT_USAGE)
    allow_dirs = list(allow_dir or [])
    results = [(ref, *_check(ref, allow_dirs)) for ref in files]
    for ref, valid, problems in results:
        if not valid and input_exit_code(ref) == EXIT_USAGE:
            fail("validate", first_problem(problems, ref), EXIT_USAGE)
    ok = all(valid for _, valid, _ in results)
    if format is Format.json:
        payload = [
            {"file": _shown(ref), "valid": valid, "problems": [p.to_dict() for p in problems]}
            for ref, valid, problems in results
        ]
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for ref, valid, problems in results:
            if valid:
                typer.echo(f"{_shown(ref)}: ok")
                continue
            for p in problems:
                if format is Format.github:
                    typer.echo(github_annotation(p))
                else:
                    typer.echo(p.format())
    raise typer.Exit(0 if ok else 1)


def register(app: typer.Typer) -> None:
    app.command("validate")(validate)
