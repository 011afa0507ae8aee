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
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from bones.cli.formats import Format
from bones.engine.bounds import GAMES_LIMIT, SEED_LIMIT

if TYPE_CHECKING:  # pragma: no cover
    from bones.lang.spec import Variant
    from bones.lang.yamlsource import LocatedProblem

EXIT_OK = 0
EXIT_PROBLEM = 1
EXIT_USAGE = 2


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


class CommandError(Exception):
    """A one-line error and the exit code it means."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def fail(command: str, message: str, code: int) -> NoReturn:
    """Print ``bones COMMAND: message`` on standard error and exit with ``code``."""
    typer.echo(f"bones {command}: {message}", err=True)
    raise typer.Exit(code)


def note(text: str, quiet: bool = False) -> None:
    """A remark for people on standard error (silenced by --quiet)."""
    if not quiet:
        typer.echo(text, err=True)


def input_exit_code(ref: str) -> int:
    """The exit code for an input that could not be loaded: a problem found in
    something that exists (1), or a name or path that names nothing (2)."""
    if ref == "-":
        return EXIT_PROBLEM
    return EXIT_PROBLEM if os.path.lexists(ref) else EXIT_USAGE


def missing_file(path: str) -> str | None:
    """``PATH: no such file`` when nothing is at ``path`` (a usage error);
    ``None`` otherwise, and the loader says what is wrong with what is there."""
    if path == "-" or os.path.lexists(path):  # "-": standard input, for the loader
        return None
    return f"{path}: no such file"


def first_problem(problems: list[LocatedProblem], ref: str) -> str:
    """The first of a load's problems, with how many more there are."""
    first: str = problems[0].format()
    if len(problems) > 1:
        more = len(problems) - 1
        first += (f" (and {more} more problem{'s' * (more > 1)}; "
                  f"see bones validate {shlex.quote(ref)})")
    return first


def load_problem(err: BaseException, ref: str) -> str:
    """The first problem of a failed load, with how many more there are."""
    problems = getattr(err, "problems", None)
    if problems:
        return first_problem(list(problems), ref)
    return (str(err).splitlines() or [type(err).__name__])[0]


def load_variant(ref: str, cached: bool = False) -> Variant:
    """Load a variant for a command; raise :class:`CommandError` (1 for a bad
    file, 2 for a name or path that names nothing).

    ``cached``: a built-in may come from :mod:`bones.games.cache` as a
    stand-in for the model, for commands that only play it."""
    from bones.lang.yamlsource import VariantError

    if cached:
        from bones.games.cache import load_builtin as load
    else:
        from bones.lang.load import load_variant as load
    try:
        return load(ref)  # type: ignore[no-any-return]
    except VariantError as err:
        raise CommandError(load_problem(err, ref), input_exit_code(ref)) from None


def variant_or_exit(command: str, ref: str) -> Variant:
    """:func:`load_variant`, printing the error and exiting on failure."""
    try:
        return load_variant(ref)
    except CommandError as err:
        fail(command, str(err), err.code)


# ------------------------------------------------------------------ --jobs


#: The most workers per CPU ``--oversubscribe`` starts (more only thrash).
OVERSUBSCRIBE_PER_CPU = 4


def worker_count(jobs: int, batches: int, oversubscribe: bool = False) -> tuple[int, str | None]:
    """The workers worth starting for ``--jobs jobs`` and ``batches`` batches,
    and why fewer, if fewer: no more than the batches (an idle worker helps
    nobody) and no more than the CPUs (with ``oversubscribe``,
    :data:`OVERSUBSCRIBE_PER_CPU` times the CPUs).

    >>> worker_count(1, 100)
    (1, None)
    >>> worker_count(8, 3, oversubscribe=True)
    (3, '--jobs 8: using 3 workers, for 3 batches of games')
    """
    if jobs < 1:
        raise CommandError("--jobs must be at least 1", EXIT_USAGE)
    workers = min(jobs, max(1, batches))
    reason = None
    if workers < jobs:
        reason = f"{batches} batch{'es' * (batches != 1)} of games"
    cpus = os.cpu_count() or 1
    if not oversubscribe and workers > cpus:
        workers = cpus
        reason = f"{cpus} CPU{'s' * (cpus != 1)} (--oversubscribe to insist)"
    elif workers > OVERSUBSCRIBE_PER_CPU * cpus:
        workers = OVERSUBSCRIBE_PER_CPU * cpus
        reason = (f"{cpus} CPU{'s' * (cpus != 1)} (--oversubscribe allows "
                  f"{OVERSUBSCRIBE_PER_CPU} per CPU)")
    if reason is None:
        return workers, None
    return workers, f"--jobs {jobs}: using {workers} worker{'s' * (workers != 1)}, for {reason}"
