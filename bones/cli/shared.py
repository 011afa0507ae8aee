"""What every command shares that needs no command line library: the exit
codes, how errors and notes are written, loading a variant, and ``--jobs``.

Typer is not imported here, so that a command run without it (``bones
simulate``'s quick path, :mod:`bones.cli.quick`) shares these with the
commands Typer runs; :mod:`bones.cli.options` declares the options and
re-exports these names.  Exit codes: :mod:`bones.cli.options`.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from bones.lang.spec import Variant
    from bones.lang.yamlsource import LocatedProblem


class ctrl_c_raises:  # noqa: N801 - used as a function: ``with ctrl_c_raises():``
    """Within the block, Ctrl-C raises ``KeyboardInterrupt`` (a command that
    keeps what it has done catches it); after it, Ctrl-C is as before.  Only
    the main thread sets handlers; an ignored Ctrl-C stays ignored."""

    def __enter__(self) -> None:
        self.previous: object = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, None)):
            self.previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)  # type: ignore[arg-type]


EXIT_OK = 0
EXIT_PROBLEM = 1
EXIT_USAGE = 2

#: ANSI colour and style codes, which :func:`echo` drops when its stream is
#: no terminal (as ``typer.echo`` does)
_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Write ``text`` (and a newline) to standard output or, with ``err``,
    standard error, and flush: ``typer.echo`` for text, without Typer (ANSI
    codes dropped when the stream is no terminal)."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # pragma: no cover - no stream attached
        return
    if nl:
        text += "\n"
    if text:
        if not stream.isatty():
            text = _ANSI.sub("", text)
        stream.write(text)
    stream.flush()


# ------------------------------------------------------------------ errors


class CommandError(Exception):
    """A one-line error and the exit code it means."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def note(text: str, quiet: bool = False) -> None:
    """A remark for people on standard error (silenced by --quiet)."""
    if not quiet:
        echo(text, err=True)


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
    from bones.lang.errors import VariantError  # not the YAML reader: a cached built-in reads none

    if cached:
        from bones.games.cache import load_builtin as load
    else:
        from bones.lang.load import load_variant as load
    try:
        return load(ref)  # type: ignore[no-any-return]
    except VariantError as err:
        raise CommandError(load_problem(err, ref), input_exit_code(ref)) from None


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
