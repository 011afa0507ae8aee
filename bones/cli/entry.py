"""The console script's entry point (``bones``, ``python -m bones``).

Ctrl-C is bones' from this module's first line: while the command line
loads (its modules imported, Typer building the commands from their
signatures) and during a command that keeps nothing, it ends the process as
an interrupted command (exit status 130, nothing printed), never a traceback
from the middle of an import.  A command that keeps what it has done takes
Ctrl-C as ``KeyboardInterrupt`` inside :func:`bones.cli.shared.ctrl_c_raises` (``bones
simulate`` keeps its finished games, ``bones play`` saves; ``bones serve``
hands it to its server).

A Ctrl-C held back (blocked) by the program that started bones is acted on
as soon as the handler is in place, and a Ctrl-C its starter ignores (a
shell's background job) stays ignored, as Python itself does.

Only Python's own start comes before this module: the interpreter and its
``site`` module (with an editable install, the finder of the ``.pth`` file).

``bones --version`` alone is answered without loading the command line
(Typer and the command modules): it reads only the version and which core
plays (:func:`bones.cli.process.version_only`).  A plain ``bones simulate``
command line runs without Typer too (:mod:`bones.cli.quick`).
"""

from __future__ import annotations

import os
import signal
import sys

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C where nothing is kept: end at once, quietly, as interrupted."""
    os._exit(EXIT_INTERRUPTED)


def take_ctrl_c() -> bool:
    """Install :func:`_interrupted` for Ctrl-C, unless the process ignores
    Ctrl-C or another handler than Python's own is in place; then let a
    Ctrl-C held back by the starter through.  Whether it was installed."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, _interrupted)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    return True


def main() -> None:
    """Load the command line and run it (``bones --version`` alone: answer
    it; ``bones simulate``: its quick path first)."""
    take_ctrl_c()
    try:
        if sys.argv[1:] == ["--version"]:
            from bones.cli.process import version_only as run
        elif sys.argv[1:2] == ["simulate"]:
            from bones.cli.quick import main as run  # without Typer when it can
        else:
            from bones.cli.app import main as run
        run()
    except KeyboardInterrupt:  # a Ctrl-C raised outside ctrl_c_raises: as interrupted
        sys.exit(EXIT_INTERRUPTED)
