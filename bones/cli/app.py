"""The `bones` Typer application.

Each command group lives in its own module with a ``register(app)`` function.
Modules import the engine inside their command functions, not at import time,
so `bones --help` and `bones validate` start fast.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys

import typer

app = typer.Typer(
    name="bones",
    help="Rules engine, player and simulator for the point-domino family "
    "(Sniff, All Fives, Muggins, Fives and Threes...), driven by YAML variant files.\n\n"
    "Exit codes: 0 ok, 1 a problem found, 2 a usage error.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

# Command modules, in the order their commands appear in `bones --help`.
COMMAND_MODULES = (
    "bones.cli.variants_cmd",
    "bones.cli.validate_cmd",
    "bones.cli.check_cmd",
    "bones.cli.replay_cmd",
    "bones.cli.analyse_cmd",
    "bones.cli.play_cmd",
    "bones.cli.simulate_cmd",
    "bones.cli.serve_cmd",
)


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name == name:
                continue  # a command group not written yet
            raise
        module.register(app)


def _print_version(value: bool) -> None:
    if value:
        from bones._version import __version__
        from bones.engine.core import CoreError, active_name

        try:
            core = active_name()
        except CoreError as err:
            typer.echo(f"bones: {err}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"bones {__version__} ({core})")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", is_eager=True,
        callback=_print_version,
    ),
) -> None:
    """Rules engine, player and simulator for the point-domino family."""


_register_all()


#: Errors of a standard output that cannot take more: a full disk or device
#: (``> /dev/full``), a quota, an I/O error, a reader that went away.
_OUTPUT_ERRNOS = frozenset(getattr(errno, name) for name in
                           ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EPIPE") if hasattr(errno, name))


def main() -> None:
    """Console-script entry point.

    A standard output that fails (``bones list > /dev/full``) ends the
    command as a broken pipe does, exit status 1, with one line on standard
    error instead of a traceback; what was left to print is dropped.
    """
    try:
        try:
            app()
        finally:
            sys.stdout.flush()  # what is buffered fails here, not at interpreter exit
    except OSError as err:
        if err.errno not in _OUTPUT_ERRNOS:
            raise
        _drop_stdout()
        if err.errno != errno.EPIPE:
            _say(f"{_prefix()}: cannot write to standard output: {err.strerror or err}")
        sys.exit(1)


def _drop_stdout() -> None:
    """Send whatever is still buffered for standard output nowhere, so the
    interpreter's last flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no descriptor
        pass


def _say(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # pragma: no cover - standard error is gone too
        pass


def _prefix() -> str:
    """``bones COMMAND``: how this run's errors begin."""
    for arg in sys.argv[1:]:
        if not arg.startswith("-"):
            return f"bones {arg[:30]}"
    return "bones"


if __name__ == "__main__":
    main()
