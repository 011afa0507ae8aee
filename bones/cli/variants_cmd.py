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


# ------------------------------------------------------------ list helpers


def _per(value: Any) -> str:
    if isinstance(value, dict):
        values = list(value.values())
        if len(set(values)) == 1:
            return str(values[0])
        return "/".join(str(value[k]) for k in sorted(value))
    return str(value)


def _players_summary(variant: Any) -> str:
    counts = sorted(variant.players.counts)
    text = str(counts[0]) if len(counts) == 1 else (
        f"{counts[0]}-{counts[-1]}" if counts == list(range(counts[0], counts[-1] + 1))
        else ",".join(str(c) for c in counts)
    )
    parts = variant.players.partnerships
    if parts.kind == "required":
        text += " (teams)"
    elif parts.kind == "optional":
        text += " (teams optional)"
    return text


def _spinner_summary(variant: Any) -> str:
    sp = variant.layout.spinner
    if sp.kind == "none":
        return "none"
    if sp.kind == "inline_sniff":
        return "in-line sniff"
    count = sp.count if isinstance(sp.count, str) else "[" + ",".join(str(m) for m in sp.count) + "]"
    order = {"sides_first": "sides first", "any": "any edge", "all_four_first": "all four first"}[sp.order]
    label = {"first_double": "first double", "every_double": "every double",
             "led_double": "led double"}[sp.kind]
    return f"{label}, {count}, {order}"


def _scoring_summary(variant: Any) -> str:
    when, points = variant.scoring.when, variant.scoring.points
    if when.kind == "none":
        return "none"
    if when.kind == "matching_ends":
        return "matching ends " + ", ".join(f"{k}:{v}" for k, v in sorted(when.points.items()))
    if when.kind == "multiple_of":
        test = "x" + "|".join(str(d) for d in when.divisors)
    else:
        test = "list of " + str(len(when.counts))
    worth = {"count": "count", "sum_of_quotients": "sum of quotients",
             "per_divisor": "count per divisor"}.get(points.kind)
    if points.kind == "divided":
        worth = f"count/{points.by}"
    elif points.kind == "flat":
        worth = f"{points.amount} each"
    muggins = ", muggins" if variant.scoring.muggins.kind != "none" else ""
    return f"{test} -> {worth}{muggins}"


def _target_summary(variant: Any) -> str:
    match = variant.match
    if match.kind == "hands":
        return f"{match.count} hand" + ("" if match.count == 1 else "s")
    check = {"hand_end": "", "immediate": ", immediate", "exact": ", exact"}[match.check]
    return _per(match.points) + check


def _list_rows() -> list[dict[str, Any]]:
    from bones.engine.load import builtin_names, load_variant

    rows = []
    for name in builtin_names():
        v = load_variant(name)
        rows.append({
            "name": v.name,
            "aliases": list(v.aliases),
            "summary": " ".join(v.summary.split()),
            "players": sorted(v.players.counts),
            "partnerships": v.players.partnerships.kind,
            "players_text": _players_summary(v),
            "spinner": _spinner_summary(v),
            "scoring": _scoring_summary(v),
            "target": _target_summary(v),
        })
    return rows


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
