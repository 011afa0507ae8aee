"""What the process of every command shares, before and around the command
line: ``bones --version``'s line, and a standard output that cannot be
written ending the command in one line.

It imports nothing of the command line (Typer) and of the engine only the
choice of core, so that ``bones --version`` (which :mod:`bones.cli.entry`
answers without loading the command line) takes little more than Python's
own start.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable

from bones._version import __version__
from bones.engine.core import CoreError, active_name


def print_version() -> int:
    """Print ``bones --version``'s line, the version and the core that plays;
    the exit status (1, with one line on standard error, when the core
    ``BONES_CORE`` asks for cannot run)."""
    try:
        core = active_name()
    except CoreError as err:
        print(f"bones: {err}", file=sys.stderr)
        return 1
    print(f"bones {__version__} ({core})")
    return 0


#: Errors of a standard output that cannot take more: a full disk or device
#: (``> /dev/full``), a quota, an I/O error, a reader that went away.
_OUTPUT_ERRNOS = frozenset(getattr(errno, name) for name in
                           ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EPIPE") if hasattr(errno, name))


def guard_output(run: Callable[[], object]) -> None:
    """Run a command; a standard output that fails (``bones list >
    /dev/full``) ends it as a broken pipe does, exit status 1, with one line
    on standard error instead of a traceback; what was left to print is
    dropped."""
    try:
        try:
            run()
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


def version_only() -> None:
    """``bones --version`` with nothing else on the command line."""
    guard_output(lambda: sys.exit(print_version()))


__all__ = ["guard_output", "print_version", "version_only"]
