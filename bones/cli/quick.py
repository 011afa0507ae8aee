"""``bones simulate`` without Typer: the quick path of a plain command line.

Typer and its Click are about a sixth of what a short ``bones simulate``
executes (importing them and building the command from its signature), so
:mod:`bones.cli.entry` hands every ``bones simulate ...`` command line here
first.  :func:`parse` reads the common ones (the variant and the options
below, each value spelled as Typer surely reads it) and the simulation runs
as under Typer (:func:`bones.cli.simrun.run_simulate`, the same exit codes
and messages); anything else, ``--help``, an unknown or repeated option, a
value Typer might read otherwise or refuse (out of range, not plain
digits, a missing one), ``--out`` (whose path Click checks), shell
completion, goes to the whole command line (:mod:`bones.cli.app`), which
says what Typer says.  ``tests/test_quick.py`` checks that this table and
Typer's command agree, option by option, and that both read each command
line alike.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, NamedTuple

from bones.cli.process import guard_output
from bones.engine.bounds import GAMES_LIMIT, SEED_LIMIT


class Spec(NamedTuple):
    """One option of ``bones simulate``: its parameter, and for a value
    option its kind (``"int"`` or ``"str"``), its bounds and whether it may
    repeat (for a flag, ``kind`` is ``"flag"``)."""

    dest: str
    kind: str
    low: int | None = None
    high: int | None = None
    multiple: bool = False


_GAMES = Spec("matches", "int", None, GAMES_LIMIT)

#: Every option the quick path reads, by each of its names (Typer's declaration:
#: :mod:`bones.cli.options` and :func:`bones.cli.simulate_cmd.simulate_command`)
OPTIONS: dict[str, Spec] = {
    "-n": _GAMES,
    "--matches": _GAMES,
    "--hands": Spec("hands", "int", None, GAMES_LIMIT),
    "--players": Spec("players", "int"),
    "-p": Spec("players", "int"),
    "--teams": Spec("teams", "flag"),
    "--bots": Spec("bots", "str", multiple=True),
    "--seed": Spec("seed", "int", -SEED_LIMIT, SEED_LIMIT),
    "--jobs": Spec("jobs", "int"),
    "-j": Spec("jobs", "int"),
    "--oversubscribe": Spec("oversubscribe", "flag"),
    "--scheduler": Spec("scheduler", "str"),
    "--duplicate": Spec("duplicate", "flag"),
    "--json": Spec("as_json", "flag"),
    "--csv": Spec("as_csv", "flag"),
    "--quiet": Spec("quiet", "flag"),
    "-q": Spec("quiet", "flag"),
}

#: A whole number as Typer surely reads it (Python's ``int`` reads more), of
#: a bounded length (a longer one is left to the whole command line's reading)
_INT = re.compile(r"-?[0-9]{1,20}")


def _value(spec: Spec, text: str) -> Any:
    """``text`` read as ``spec``'s value; None when the whole command line
    should read it."""
    if spec.kind == "str":
        return None if text.startswith("-") else text  # "--bots --json": Click's own reading
    if not _INT.fullmatch(text):
        return None
    number = int(text)
    if (spec.low is not None and number < spec.low) or (spec.high is not None
                                                        and number > spec.high):
        return None
    return number


def parse(args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of :func:`bones.cli.simrun.run_simulate` for
    ``bones ARGS``, or None when this is no plain ``bones simulate`` command
    line (the whole command line reads it)."""
    if args[:1] != ["simulate"] or any(name.startswith("_") and name.endswith("_COMPLETE")
                                       for name in os.environ):
        return None  # another command, or shell completion
    found: dict[str, Any] = {}
    rest = args[1:]
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        if not token.startswith("-"):
            if "variant" in found:
                return None  # a second argument: Typer's error
            found["variant"] = token
            continue
        name, eq, text = token.partition("=")
        spec = OPTIONS.get(name if eq and name.startswith("--") else token)
        if spec is None or (spec.dest in found and not spec.multiple):
            return None  # --help, --out, an unknown, a repeated or a glued option
        if spec.kind == "flag":
            if eq:
                return None
            found[spec.dest] = True
            continue
        if not eq:
            if i == len(rest):
                return None  # no value: Typer's error
            text = rest[i]
            i += 1
        value = _value(spec, text)
        if value is None:
            return None
        if spec.multiple:
            found.setdefault(spec.dest, []).append(value)
        else:
            found[spec.dest] = value
    return found if "variant" in found else None


def main() -> None:
    """``bones simulate ...``: run it here when :func:`parse` reads it, else
    through the whole command line."""
    options = parse(sys.argv[1:])
    if options is None:
        from bones.cli.app import main as whole  # Typer and every command's table

        whole()
        return
    guard_output(lambda: sys.exit(_run(options)))


def _run(options: dict[str, Any]) -> int:
    """The simulation's exit code, Ctrl-C and a lost standard input ending it
    as Typer's command line ends them."""
    from bones.cli.simrun import outcome, run_simulate  # the engine: only once the line is read

    try:
        return outcome("simulate", lambda: run_simulate(**options))
    except KeyboardInterrupt:
        return 130
    except EOFError:
        print("\nAborted!", file=sys.stderr, flush=True)
        return 1


__all__ = ["OPTIONS", "Spec", "main", "parse"]
