"""`bones list`, `bones show` and `bones schema`: the variants and their rules.

Nothing heavy is imported at module level: the engine, pydantic, yaml and rich
are imported inside the commands, so `bones --help` stays fast.

Variants are read with :mod:`bones.engine.load`, whose errors carry every problem
at its file, line and column; the commands print them one per line and exit 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

# ------------------------------------------------------------------ loading


def _problem_text(err: BaseException) -> str:
    problems = getattr(err, "problems", None)
    if problems:
        return "\n".join(p.format() if hasattr(p, "format") else str(p) for p in problems)
    return " ".join(str(err).split()) or err.__class__.__name__


def _load_or_exit(ref: str) -> Any:
    from bones.cli.options import variant_or_exit

    return variant_or_exit("show", ref)


def _list_rows() -> list[dict[str, Any]]:
    from bones.engine.describe import catalogue_row
    from bones.engine.load import builtin_names, load_variant

    return [catalogue_row(load_variant(name)) for name in builtin_names()]


# ----------------------------------------------------------------- commands


def register(app: typer.Typer) -> None:
    @app.command("list")
    def list_cmd(
        as_json: bool = typer.Option(False, "--json",
                                     help="Print a JSON list of objects instead of a table."),
    ) -> None:
        """List the built-in variants: aliases, players, spinner, scoring, target."""
        try:
            rows = _list_rows()
        except (ValueError, OSError) as err:
            typer.echo(_problem_text(err), err=True)
            raise typer.Exit(1) from None
        if as_json:
            import json

            typer.echo(json.dumps(rows, indent=2))
            return
        from rich.console import Console
        from rich.table import Table

        table = Table(title="Built-in variants (bones show NAME for the rules)")
        for column in ("name", "aliases", "players", "spinner", "scoring", "target"):
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(row["name"], ", ".join(row["aliases"]), row["players_text"],
                          row["spinner"], row["scoring"], row["target"])
        console = Console()
        if not console.is_terminal:
            console = Console(width=160)  # a pipe or a file: no terminal width to fit
        console.print(table)

    @app.command("show")
    def show_cmd(
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
        from bones.engine.describe import describe

        typer.echo(describe(v, players), nl=False)

    @app.command("schema")
    def schema_cmd(
        name: str = typer.Argument("variant", metavar="[NAME]",
                                   help="The schema to print: variant or scenario."),
        out: Optional[Path] = typer.Option(
            None, "--out", "-o", metavar="DIR",
            help="Write every schema into DIR (created if missing) instead of printing one."),
    ) -> None:
        """Print the JSON Schema of variant files (or of scenario files) for
        editors; with --out DIR, write every schema (variant.schema.json ...) there."""
        from bones.engine.schemagen import render, schemas, write_schemas

        if out is None:
            every = schemas()
            chosen = every.get(f"{name}.schema.json")
            if chosen is None:
                names = ", ".join(sorted(k.removesuffix(".schema.json") for k in every))
                typer.echo(f"bones schema: no schema named '{name}' (one of {names})", err=True)
                raise typer.Exit(2)
            typer.echo(render(chosen), nl=False)
            return
        try:
            written = write_schemas(out)
        except OSError as err:
            typer.echo(f"bones schema: cannot write to {out}: {err.strerror}", err=True)
            raise typer.Exit(1) from None
        for path in written:
            typer.echo(str(path))


def resolved_yaml(variant: Any) -> str:
    """A variant written out in full as YAML: extends applied, defaults filled in."""
    import yaml

    data = variant.model_dump(mode="python", exclude={"extends"})
    header = (
        f"# {variant.name}, resolved by `bones show --yaml`: every rule written out"
        + (f", extends {variant.extends} applied" if variant.extends else "")
        + ".\n"
    )
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=88)
