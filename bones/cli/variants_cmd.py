"""`bones list`, `bones show` and `bones schema`: the variants and their rules.

Nothing heavy is imported at module level: the engine, pydantic, yaml and rich
are imported inside the commands, so `bones --help` stays fast.

Variants are read with :mod:`bones.lang.load`, whose errors carry every problem
at its file, line and column; the commands print them one per line and exit 1.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from bones.cli.options import variant_or_exit

if TYPE_CHECKING:  # pragma: no cover - the engine is imported inside the commands
    from bones.lang.spec import Variant

# ------------------------------------------------------------------ loading


def _problem_text(err: BaseException) -> str:
    problems = getattr(err, "problems", None)
    if problems:
        return "\n".join(p.format() if hasattr(p, "format") else str(p) for p in problems)
    return " ".join(str(err).split()) or err.__class__.__name__


def _load_or_exit(ref: str) -> Variant:
    return variant_or_exit("show", ref)


# ----------------------------------------------------------------- commands


def register(app: typer.Typer) -> None:
    app.command("list")(list_command)
    app.command("show")(show_command)
    app.command("schema")(schema_command)


def list_command(
    as_json: bool = typer.Option(False, "--json",
                                 help="Print a JSON list of objects instead of a table."),
) -> None:
    """List the built-in variants: aliases, players, spinner, scoring, target."""
    from bones.games.cache import catalogue  # kept while the built-ins and the code are

    try:
        rows, families = catalogue()
    except (ValueError, OSError) as err:
        typer.echo(_problem_text(err), err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    _print_table(rows, families)


def show_command(
    variant: str = typer.Argument(..., metavar="NAME-or-FILE",
                                  help="A built-in name or alias, or a variant file."),
    players: Optional[int] = typer.Option(None, "--players", "-p",
                                          help="Describe the game for this many players."),
    as_yaml: bool = typer.Option(False, "--yaml",
                                 help="Print the fully resolved variant file (extends applied, "
                                      "every rule written out) instead of the rules text."),
) -> None:
    """Print a variant's complete rules in plain English."""
    v = _load_or_exit(variant)
    if players is not None and players not in v.players.counts:
        allowed = ", ".join(str(c) for c in v.players.counts)
        typer.echo(f"bones show: --players {players}: {v.name} is played by {allowed} players",
                   err=True)
        raise typer.Exit(2)
    if as_yaml:
        typer.echo(resolved_yaml(v), nl=False)
        return
    from bones.lang.describe import describe

    _page(describe(v, players))

def schema_command(
    name: str = typer.Argument("variant", metavar="[NAME]",
                               help="The schema to print: variant or scenario."),
    out: Optional[Path] = typer.Option(
        None, "--out", "-o", metavar="DIR",
        help="Write every schema into DIR (created if missing) instead of printing one."),
) -> None:
    """Print the JSON Schema of variant files (or of scenario files) for
    editors; with --out DIR, write every schema (variant.schema.json ...) there."""
    from bones.lang.schemagen import render, schemas

    if out is None:
        every = schemas()
        chosen = every.get(f"{name}.schema.json")
        if chosen is None:
            names = ", ".join(sorted(k.removesuffix(".schema.json") for k in every))
            typer.echo(f"bones schema: no schema named '{name}' (one of {names})", err=True)
            raise typer.Exit(2)
        typer.echo(render(chosen), nl=False)
        return
    from bones.games.outfile import OutputError, write_output

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        typer.echo(f"bones schema: cannot write to {out}: {err.strerror or err}", err=True)
        raise typer.Exit(1) from None
    for filename, schema in schemas().items():
        path = out / filename
        try:
            write_output(path, render(schema))  # a link followed, a device written through
        except OutputError as err:
            typer.echo(f"bones schema: {err}", err=True)
            raise typer.Exit(1) from None
        typer.echo(str(path))


def _grouped(rows: list[dict[str, Any]],
             families: dict[str, str]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The rows by family (``families``: describe.FAMILIES, in its order), by
    name within each."""
    return [(heading, sorted((r for r in rows if r["family"] == key), key=lambda r: r["name"]))
            for key, heading in families.items() if any(r["family"] == key for r in rows)]


def _print_table(rows: list[dict[str, Any]], families: dict[str, str]) -> None:
    """The catalogue as one table a family (point games, partnership games,
    block games), or one block per variant where a table would break words."""
    from rich.console import Console
    from rich.table import Table

    title = "Built-in variants (bones show NAME for the rules)"
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # a pipe or a file: no terminal width to fit
    # the narrowest table that breaks no word: each column as wide as its
    # longest word (a name whole), plus the borders and padding
    columns = list(zip(*(_cells(row) for row in rows)))
    narrowest = sum(max(len(w) for cell in col for w in (cell.split() if i else [cell]))
                    for i, col in enumerate(columns)) + 3 * len(columns) + 1
    if narrowest > console.width:
        # too narrow for a table without breaking a word: one block per variant
        typer.echo(_stacked(title, rows, families, console.width))
        return
    console.print(title, style="bold", justify="center")
    widths = [max(len(c) for c in col) for col in columns]
    for heading, group in _grouped(rows, families):
        table = Table(title=heading, title_justify="left")
        # names and aliases are what a user types next: never broken or cut;
        # the other cells wrap at words; every family's table has the same columns
        for column, width in zip(("name", "aliases", "players", "spinner", "scoring", "target"),
                                 widths):
            table.add_column(column, no_wrap=column == "name", min_width=min(width, 12))
        for row in group:
            table.add_row(*_cells(row))
        console.print(table)


def _cells(row: dict[str, Any]) -> tuple[str, ...]:
    return (row["name"], ", ".join(row["aliases"]), row["players_text"], row["spinner"],
            row["scoring"], row["target"])


def _stacked(title: str, rows: list[dict[str, Any]], families: dict[str, str],
             width: int) -> str:
    """The catalogue for a narrow screen: each variant's name (and aliases) on a
    line of its own, its rules below, wrapped at words and never inside a name."""
    def wrap(text: str, indent: str) -> list[str]:
        return textwrap.wrap(text, max(width, 20), initial_indent=indent, subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False)

    out = [title]
    for heading, group in _grouped(rows, families):
        out += ["", heading.upper()]
        for row in group:
            out += _block(row, wrap)
    return "\n".join(out)


def _block(row: dict[str, Any], wrap: Any) -> list[str]:
    """One variant of the stacked catalogue: its name (and aliases), its rules below."""
    head = row["name"] + (f" (also {', '.join(row['aliases'])})" if row["aliases"] else "")
    return ["", *wrap(head, ""),
            *wrap(f"players {row['players_text']}; spinner: {row['spinner']}; "
                  f"scoring: {row['scoring']}; target: {row['target']}", "    ")]


def _page(text: str) -> None:
    """Long text for people: at a terminal, wrapped at words to its width and
    through a pager when taller than the screen; in a pipe or a file, as is."""
    if not sys.stdout.isatty():
        typer.echo(text, nl=False)
        return
    from rich.console import Console

    console = Console(highlight=False)
    lines = console.render_lines(text, console.options, pad=False)
    if len(lines) < console.height:
        console.print(text, markup=False, highlight=False, end="")
        return
    with console.pager(styles=False):
        console.print(text, markup=False, highlight=False, end="")


def resolved_yaml(variant: Variant) -> str:
    """A variant written out in full as YAML: extends applied, defaults filled in."""
    import yaml

    data = variant.model_dump(mode="python", exclude={"extends"})
    header = (
        f"# {variant.name}, resolved by `bones show --yaml`: every rule written out"
        + (f", extends {variant.extends} applied" if variant.extends else "")
        + ".\n"
    )
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=88)
