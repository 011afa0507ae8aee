"""The console script's entry point (``bones``, ``python -m bones``).

A Ctrl-C while the command line is still loading (its modules imported, or
Typer building the commands from their signatures) ends the process as an
interrupted command (exit status 130, nothing printed) instead of a
traceback from the middle of an import; once a command runs, it handles
Ctrl-C itself (``bones simulate`` keeps its finished games, ``bones serve``
stops cleanly, ``bones play`` saves).
"""

from __future__ import annotations

import sys

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


def main() -> None:
    """Load the command line and run it."""
    try:
        from bones.cli.app import main as run

        run()
    except KeyboardInterrupt:  # not yet in a command (a command handles its own)
        sys.exit(EXIT_INTERRUPTED)
