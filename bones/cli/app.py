"""The `bones` Typer application.

Each command group lives in its own module with a ``register(app)`` function.
The application knows the commands by name (:data:`COMMANDS`) and imports a
command's module only when that command runs or help lists it, so a command
pays only for what it uses (`bones list` never imports the simulator), and
Typer builds only that command from its signature.  ``bones --version`` alone
does not even load this module (:mod:`bones.cli.entry`, :mod:`bones.cli.process`).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any

import typer
import typer.main
from typer.core import TyperGroup

from bones.cli.process import guard_output, print_version

#: Every command and the module that registers it, in the order `bones --help`
#: lists them (tests/test_startup_imports.py checks each module registers
#: exactly its names).
COMMANDS = {
    "list": "bones.cli.variants_cmd",
    "show": "bones.cli.variants_cmd",
    "schema": "bones.cli.variants_cmd",
    "validate": "bones.cli.validate_cmd",
    "check": "bones.cli.check_cmd",
    "replay": "bones.cli.replay_cmd",
    "analyse": "bones.cli.analyse_cmd",
    "play": "bones.cli.play_cmd",
    "simulate": "bones.cli.simulate_cmd",
    "bots": "bones.cli.simulate_cmd",
    "tournament": "bones.cli.simulate_cmd",
    "compare": "bones.cli.simulate_cmd",
    "serve": "bones.cli.serve_cmd",
}


def registered(module_name: str) -> typer.Typer:
    """A Typer application with the commands ``module_name`` registers."""
    sub = typer.Typer(rich_markup_mode=None)
    importlib.import_module(module_name).register(sub)
    return sub


def build(name: str) -> Any:
    """The Click command ``name``, built by Typer from its function's
    signature (only that command of its module: each costs a few ms)."""
    sub = registered(COMMANDS[name])
    sub.registered_commands = [c for c in sub.registered_commands if c.name == name]
    return typer.main.get_group(sub).commands[name]


class _Commands(MutableMapping[str, Any]):
    """The commands by name: every name known at once, each command built
    (its module imported) when first looked up."""

    def __init__(self) -> None:
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            self._built[name] = build(name)  # KeyError: no such command
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        raise TypeError("bones' commands are fixed")

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS


class _Group(TyperGroup):
    """The root group, whose commands load on demand (:class:`_Commands`)."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _Commands()


app = typer.Typer(
    name="bones",
    cls=_Group,
    help="Rules engine, player and simulator for the point-domino family "
    "(Sniff, All Fives, Muggins, Fives and Threes...), driven by YAML variant files.\n\n"
    "Exit codes: 0 ok, 1 a problem found, 2 a usage error.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        raise typer.Exit(print_version())


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", is_eager=True,
        callback=_print_version,
    ),
) -> None:
    """Rules engine, player and simulator for the point-domino family."""


def main() -> None:
    """Console-script entry point: the application, with a standard output
    that fails ended in one line (:func:`bones.cli.process.guard_output`)."""
    guard_output(app)


if __name__ == "__main__":
    main()
