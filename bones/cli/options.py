"""What every command shares: the options, the exit codes and how errors read.

Exit codes (the README's table says the same):

* ``0`` all is well;
* ``1`` a problem found in an input that exists: an invalid variant or
  scenario file, a failed scenario, a corrupt record or save, a path that is
  not a regular file (a directory, a device, a FIFO) or is too large, a file
  that cannot be written, a cluster that cannot be reached, a run stopped
  early;
* ``2`` a usage error: the command line is wrong - an unknown option or a bad
  value, options that exclude each other, a variant name that is not built
  in, a path that does not exist.

Every error a command reports on standard error is one line that starts with
``bones COMMAND: ``.  Options several commands take are declared here once
(as ``Annotated`` types), so they are spelled, abbreviated and explained the
same way everywhere.

Nothing heavy is imported here: the engine is imported inside the helpers.
What needs no Typer (the exit codes, :class:`CommandError`, :func:`note`,
loading a variant, ``--jobs``) is in :mod:`bones.cli.shared` and
re-exported here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from bones.cli.formats import Format
from bones.cli.shared import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    OVERSUBSCRIBE_PER_CPU,
    CommandError,
    first_problem,
    input_exit_code,
    load_problem,
    load_variant,
    missing_file,
    note,
    worker_count,
)
from bones.engine.bounds import GAMES_LIMIT, SEED_LIMIT

if TYPE_CHECKING:  # pragma: no cover
    from bones.lang.spec import Variant

__all__ = [
    "EXIT_OK", "EXIT_PROBLEM", "EXIT_USAGE", "OVERSUBSCRIBE_PER_CPU", "Bots", "CommandError",
    "Duplicate", "FormatOption", "Hands", "Jobs", "Json", "Matches", "Out", "Oversubscribe",
    "Players", "Quiet", "Scheduler", "Seed", "Teams", "fail", "first_problem",
    "input_exit_code", "load_problem", "load_variant", "missing_file", "note",
    "variant_or_exit", "worker_count",
]


# ------------------------------------------------------------------ options
# Annotated types: a command writes ``seed: Seed = None``.

Seed = Annotated[Optional[int], typer.Option(
    "--seed", help="Master seed: the same seed plays the same games, bots' choices included "
    "(default: a fresh one, shown and recorded in the report or the save).", show_default=False,
    min=-SEED_LIMIT, max=SEED_LIMIT)]
Jobs = Annotated[int, typer.Option(
    "--jobs", "-j", help="Local worker processes (at most one per batch and, "
    "without --oversubscribe, per CPU).")]
Oversubscribe = Annotated[bool, typer.Option(
    "--oversubscribe", help="Allow more --jobs than CPUs (at most 4 per CPU).")]
Scheduler = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS", help="A Dask scheduler, tcp://HOST:PORT.",
    show_default=False)]
Bots = Annotated[Optional[list[str]], typer.Option(
    "--bots", help="Bots by seat, comma-separated, or --bots repeated with one bot each "
    "(for a bot text with a comma); a shorter list repeats (see `bones bots`; default "
    "heuristic).", show_default=False)]
Players = Annotated[Optional[int], typer.Option(
    "--players", "-p", help="Number of players (default: the smallest the variant allows).",
    show_default=False)]
Teams = Annotated[bool, typer.Option(
    "--teams", help="Two partnerships (seats 0+2 against 1+3).")]
Json = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
Quiet = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Nothing on standard error but errors (no progress, no notes).")]
Out = Annotated[Optional[Path], typer.Option(
    "--out", metavar="FILE", help="Write the report to FILE instead of standard output.",
    show_default=False)]
FormatOption = Annotated[Format, typer.Option(
    "--format", "-f", case_sensitive=False,
    help="text: for people; json: a list of results; github: GitHub Actions annotations.")]
Matches = Annotated[Optional[int], typer.Option(
    "-n", "--matches", help=f"Whole matches to play (default 200; at most {GAMES_LIMIT:,}).",
    show_default=False, max=GAMES_LIMIT)]
Hands = Annotated[Optional[int], typer.Option(
    "--hands", help="Play this many independent first hands instead of matches "
    f"(at most {GAMES_LIMIT:,}).", show_default=False, max=GAMES_LIMIT)]
Duplicate = Annotated[bool, typer.Option(
    "--duplicate", help="Play every deal from every seat rotation of the bots (the same "
    "shuffles in each), so -n or --hands counts deals; paired statistics over deals, ties "
    "apart.")]


# ------------------------------------------------------------------ errors
# (the exit codes, CommandError, note, the loading helpers and --jobs are in
# bones.cli.shared, which needs no Typer; re-exported here)


def fail(command: str, message: str, code: int) -> NoReturn:
    """Print ``bones COMMAND: message`` on standard error and exit with ``code``."""
    typer.echo(f"bones {command}: {message}", err=True)
    raise typer.Exit(code)


def variant_or_exit(command: str, ref: str) -> Variant:
    """:func:`load_variant`, printing the error and exiting on failure."""
    try:
        return load_variant(ref)
    except CommandError as err:
        fail(command, str(err), err.code)
