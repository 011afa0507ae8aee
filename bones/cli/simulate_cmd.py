"""`bones simulate`, `bones bots`, `bones tournament` and `bones compare`.

The engine work is :mod:`bones.sim.simulation` (runs, their reports and run
facts) and :mod:`bones.sim.report` (tournaments); this module declares the
commands' options to Typer and formats the tournaments and comparisons;
:mod:`bones.cli.simrun` (no Typer: ``bones simulate``'s quick path runs it
alone, :mod:`bones.cli.quick`) runs them, picks the executor (in-process,
local processes or a Dask cluster) and formats a simulation.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from bones.bots import BOTS, BotError
from bones.bots.levels import LEVELS
from bones.cli.options import (
    EXIT_PROBLEM,
    EXIT_USAGE,
    Bots,
    CommandError,
    Duplicate,
    Hands,
    Jobs,
    Json,
    Matches,
    Out,
    Oversubscribe,
    Players,
    Quiet,
    Scheduler,
    Seed,
    Teams,
    note,
)
from bones.cli.page import RichPage, fits
from bones.cli.simrun import (
    ProgressBar,
    Runner,
    build_config,
    check_out,
    emit,
    exit_code,
    game_count,
    load_tables,
    num,
    outcome,
    parse_bots,
    pct,
    print_legend,
    print_reproducibility,
    run_one,
    run_simulate,
    short_labels,
)
from bones.engine.bounds import GAMES_LIMIT
from bones.engine.rng import new_seed

if TYPE_CHECKING:  # pragma: no cover - the engine and rich are imported inside the commands
    from rich.console import Console
    from rich.table import Table as RichTable

    from bones.sim.report import Tournament

_EXIT_HELP = ("Exit codes: 0 ok; 1 a problem (an invalid variant file, a cluster that "
              "cannot be reached, a run stopped early by Ctrl-C: its partial results are "
              "still reported); 2 a usage error.")

_SIM_HELP = f"""Simulate games between bots and report statistics with 95% intervals.

NAME-or-FILE is a built-in variant or a variant file.  -n plays whole matches
(default 200); --hands N plays N independent first hands instead.  --bots
gives one bot per seat (a shorter list repeats); seats rotate across games so
every bot sits in every seat equally; --duplicate plays every deal from every
rotation instead (the same shuffles in each) and reports paired statistics
over deals.  Without --seed a seed is chosen and
recorded in the report (text and --json).  The same seed gives the same totals for any --jobs and with
--scheduler.  Win rates have Wilson intervals; points use standard errors
across matches.  `bones bots` lists the bots.

{_EXIT_HELP}"""


def register(app: typer.Typer) -> None:
    app.command("simulate", help=_SIM_HELP)(simulate_command)
    app.command("bots", help="List the bots with their parameters and defaults.\n\n"
                "Exit codes: 0 ok; 2 a usage error.")(bots_command)
    app.command(
        "tournament",
        help="Every pair of bots in 2-player matches, both seat orders (with --players 3 "
        "or 4: every seating of every group of bots); a win matrix with intervals and a "
        f"ranking.\n\n{_EXIT_HELP}",
    )(tournament_command)
    app.command(
        "compare",
        help="Simulate two variants (or house-rule files) with the same bots and the same "
        "seeds game by game, and report each statistic's difference (A - B) with its "
        f"95% interval.\n\n{_EXIT_HELP}",
    )(compare_command)


def _command(name: str, body: Callable[[], int]) -> NoReturn:
    """Run a command body: its exit code, or its error as ``bones NAME: ...``."""
    raise typer.Exit(outcome(name, body))


# --------------------------------------------------------------- simulate

def simulate_command(
    variant: str = typer.Argument(..., metavar="NAME-or-FILE",
                                  help="A built-in variant or a variant file."),
    matches: Matches = None,
    hands: Hands = None,
    players: Players = None,
    teams: Teams = False,
    bots: Bots = None,
    seed: Seed = None,
    jobs: Jobs = 1,
    oversubscribe: Oversubscribe = False,
    scheduler: Scheduler = None,
    duplicate: Duplicate = False,
    as_json: Json = False,
    as_csv: bool = typer.Option(False, "--csv", help="One CSV row per bot and seat."),
    out: Out = None,
    quiet: Quiet = False,
) -> None:
    _command("simulate", lambda: run_simulate(
        variant, matches, hands, players, teams, bots, seed, jobs, oversubscribe, scheduler,
        duplicate, as_json, as_csv, out, quiet))


# ------------------------------------------------------------------- bots

def bots_command(as_json: Json = False) -> None:
    from bones.bots.external import entry_points  # subprocess and more: for this listing only

    installed = entry_points()
    if as_json:
        # the levels first (kind "level", the bot text each plays), then the bots
        rows: list[dict[str, Any]] = [
            {"name": level.name, "kind": "level", "bot": level.bot, "summary": level.description,
             "params": []} for level in LEVELS]
        rows += [{"name": info.name, "kind": "builtin", "summary": info.summary,
                 "params": [{"name": p.name, "default": p.default, "help": p.help,
                             "choices": list(p.choices) if p.choices else None}
                            for p in info.params]}
                for info in BOTS.values()]
        # installed packages' bots, listed without loading them
        rows += [{"name": f"ep:{name}", "kind": "entry-point",
                  "summary": f"an installed package's bot ({ep.value})", "entry_point": ep.value,
                  "params": []}
                 for name, ep in sorted(installed.items())]
        typer.echo(json.dumps(rows, indent=2))
        return
    typer.echo("Levels, weakest first (bones play --level NAME; the web table's seat picker):")
    width = max(len(level.name) for level in LEVELS)
    for level in LEVELS:
        typer.echo(f"  {level.name:<{width}}  {level.bot}: {level.description}")
    typer.echo("Bots by algorithm (for experts; any of them with its parameters):")
    for info in BOTS.values():
        typer.echo(f"{info.name}: {info.summary}")
        for p in info.params:
            extra = f" (one of {', '.join(p.choices)})" if p.choices else ""
            default = f"{p.default:g}" if isinstance(p.default, float) else p.default
            typer.echo(f"    {p.name}={default}  {p.help}{extra}")
    typer.echo("Installed bots (entry-point group bones.bots; use as ep:NAME):")
    for name, ep in sorted(installed.items()):
        typer.echo(f"  ep:{name}  ({ep.value})")
    if not installed:
        typer.echo("  none")
    typer.echo("Write a bot as name:key=value:key=value, e.g. search:iterations=40:rollouts=2; "
               "several bots separated by commas, or --bots repeated with one bot each "
               "(needed when a bot's text has a comma).")
    typer.echo("Bots from outside bones (named on the command line only, see docs/bots.md):")
    typer.echo("  py:package.module:Class[:key=value]   a Python class")
    typer.echo("  file:path/to/bot.py:Class[:key=value] a class in a Python file")
    typer.echo("  ep:NAME[:key=value]                   an installed package's bot")
    typer.echo("  cmd:[timeout=SECONDS:]PROGRAM ARGS    a program speaking the line protocol")


# ------------------------------------------------------------- tournament

def tournament_command(
    variant: str = typer.Argument(..., metavar="NAME-or-FILE",
                                  help="A built-in variant or a variant file."),
    bots: list[str] = typer.Option(..., "--bots", help="At least two bots, comma-separated, "
                                   "or --bots repeated with one bot each (see `bones bots`)."),
    matches: int = typer.Option(100, "-n", "--matches", max=GAMES_LIMIT,
                                help="Matches per pairing (or per seating; with --duplicate, "
                                f"deals; at most {GAMES_LIMIT:,})."),
    players: Players = None,
    teams: Teams = False,
    seed: Seed = None,
    jobs: Jobs = 1,
    oversubscribe: Oversubscribe = False,
    scheduler: Scheduler = None,
    duplicate: Duplicate = False,
    as_json: Json = False,
    out: Out = None,
    quiet: Quiet = False,
) -> None:
    def body() -> int:
        from bones.sim.report import Tournament, TournamentError
        from bones.sim.simulation import SimError

        if matches < 1:
            raise CommandError("the number of matches must be at least 1", EXIT_USAGE)
        check_out(out)
        (table,) = load_tables([variant], players or 2, teams)
        try:
            names = [b.name for b in parse_bots(bots)]
            plan = Tournament.plan(table, names, matches,
                                   new_seed() if seed is None else seed, duplicate)
        except (BotError, SimError, TournamentError) as err:
            raise CommandError(str(err), EXIT_USAGE) from None
        runner = Runner(jobs, scheduler, matches, oversubscribe, quiet)
        report = _play_tournament(plan, runner, quiet)
        emit(out, report, as_json, _print_tournament)
        if plan.partial:
            typer.echo("bones tournament: partial: stopped early", err=True)
            return EXIT_PROBLEM
        return 0

    _command("tournament", body)


def _play_tournament(plan: Tournament, runner: Runner, quiet: bool) -> dict[str, Any]:
    """Play every seating of ``plan`` (stopping at a partial run): its report."""
    count = len(plan.configs)
    each = (f"{plan.matches} deals x {plan.configs[0].rotations} rotations" if plan.duplicate
            else f"{plan.matches} matches")
    note(f"{count} seating{'s' * (count != 1)} x {each}", quiet)
    started = time.perf_counter()
    bar = ProgressBar(plan.total_matches, "tournament", quiet)
    try:
        for config in plan.configs:
            summary = runner.run(config, bar)
            bar.advance_base(summary.n)
            plan.add(config, summary)
            if summary.partial:
                break
    finally:
        bar.stop()
        runner.close()
    report: dict[str, Any] = plan.report()
    report["run"] = runner.facts(plan.summaries, time.perf_counter() - started)
    return report


def _print_tournament(console: Console, body: dict[str, Any]) -> None:
    from rich.table import Table

    v = body["variant"]
    names = body["bots"]
    dup = body.get("duplicate")
    per = (f"{body['matches_per_seating']} deals per seating, each from every rotation "
           "(duplicate)" if dup else f"{body['matches_per_seating']} matches per seating")
    console.print(f"{v['name']}, {v['players']} players: {per}, seed {body['seed']}"
                  + (" (PARTIAL)" if body["partial"] else ""))
    print_reproducibility(console, body)
    what = "wins against" if v["players"] == 2 else "finishes ahead of"

    def matrix(labels: list[str], split: bool) -> RichTable:
        # a cell is never broken inside its interval: on one line, or (split)
        # the rate on one line and its whole interval on the next
        t = Table(title=f"row {what} column (95%)", title_justify="left")
        t.add_column("", no_wrap=True)
        for b in labels:
            t.add_column(b, justify="right", no_wrap=True)
        for a, row in zip(labels, body["matrix"]):
            cells = ("-" if cell is None else pct(cell) for cell in row)
            t.add_row(a, *(c.replace(" [", "\n[", 1) if split else c for c in cells))
        return t

    letters = short_labels(list(names))
    tries = [(list(names), False), (letters, False), (letters, True)]
    for labels, split in tries:
        t = matrix(labels, split)
        if fits(console, t):
            break
    console.print(t)
    if labels is letters:
        print_legend(RichPage(console), letters, list(names))
    t = Table(title="ranking", title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("bot", no_wrap=True)
    t.add_column("matches", justify="right")
    t.add_column("wins (95%)", justify="right")
    for i, r in enumerate(body["ranking"], 1):
        t.add_row(str(i), r["bot"], str(r["games"]), pct(r["win_rate"]))
    console.print(t)
    _print_ratings(console, body["ratings"])
    if dup:
        _print_paired_seatings(console, dup, list(names))


def _print_paired_seatings(console: Console, dup: dict[str, Any], names: list[str]) -> None:
    """Each seating's paired statistics in a duplicate tournament (the bots
    as letters, with the legend, when their names do not fit)."""
    from rich.table import Table

    def table(label: dict[str, str]) -> RichTable:
        t = Table(title="paired, per seating, over deals (95% intervals)",
                  title_justify="left")
        t.add_column("bot", no_wrap=True)
        t.add_column("wins of decided", justify="right", no_wrap=True)
        t.add_column("margin/deal", justify="right", no_wrap=True)
        t.add_column("won all", justify="right", no_wrap=True)
        t.add_column("tied", justify="right", no_wrap=True)
        for run in dup["seatings"]:
            rows = run["bots"]
            for j, r in enumerate(rows):
                t.add_row(label[r["bot"]], pct(r["decided_win_rate"]),
                          num(r["margin_per_deal"], 1), str(r["deals_won_every_game"]),
                          str(run["ties"]) if not j else "", end_section=j == len(rows) - 1)
        return t

    t = table({n: n for n in names})
    if fits(console, t):
        console.print(t)
        return
    letters = short_labels(names)
    console.print(table(dict(zip(names, letters))))
    print_legend(RichPage(console), letters, names)


def _print_ratings(console: Console, ratings: dict[str, Any]) -> None:
    """The ratings table (:func:`bones.sim.ratings.ratings_report`)."""
    from rich.table import Table

    if ratings.get("error"):
        console.print(f"ratings: {ratings['error']}")
        return
    t = Table(title=f"ratings (Elo; {ratings['anchor']} = 0)", title_justify="left")
    t.add_column("bot", no_wrap=True)
    t.add_column("Elo", justify="right")
    t.add_column("95% interval", justify="right")
    for r in ratings["bots"]:
        interval = "anchor" if r["bot"] == ratings["anchor"] else f"[{r['lo']:+.0f}, {r['hi']:+.0f}]"
        t.add_row(r["bot"], f"{r['elo']:+.0f}", interval)
    console.print(t)


# ---------------------------------------------------------------- compare

def compare_command(
    a: str = typer.Argument(..., metavar="A", help="A variant name or file."),
    b: str = typer.Argument(..., metavar="B", help="Another variant name or file."),
    matches: Matches = None,
    hands: Hands = None,
    players: Players = None,
    teams: Teams = False,
    bots: Bots = None,
    seed: Seed = None,
    jobs: Jobs = 1,
    oversubscribe: Oversubscribe = False,
    scheduler: Scheduler = None,
    duplicate: Duplicate = False,
    as_json: Json = False,
    out: Out = None,
    quiet: Quiet = False,
) -> None:
    def body() -> int:
        games = game_count(matches, hands)
        check_out(out)
        tables = load_tables([a, b], players, teams)
        if tables[0].players != tables[1].players:
            raise CommandError(f"{a} is played by {tables[0].players} players here and {b} "
                               f"by {tables[1].players}; choose one with --players", EXIT_USAGE)
        config = build_config(tables, bots, games, seed, hands is not None, duplicate)
        runner = Runner(jobs, scheduler, games, oversubscribe, quiet)
        report, summary = run_one(config, runner, games, "comparing", quiet)
        emit(out, report, as_json, _print_compare)
        return exit_code("compare", summary, config)

    _command("compare", body)


def _print_compare(console: Console, body: dict[str, Any]) -> None:
    from rich.table import Table

    va = body
    vb = body["compare"]["b"]
    diff = body["compare"]["difference"]
    unit = "hands" if body["mode"] == "hands" else "matches"
    dup = va.get("duplicate")
    deals = (f" ({dup['deals']} deals x {dup['games_per_deal']} seatings, duplicate)"
             if dup else "")
    console.print(f"A = {va['variant']['ref']}, B = {vb['variant']['ref']}: {body['games']} "
                  f"paired {unit}{deals}, seed {body['seed']}"
                  + (" (PARTIAL)" if body["partial"] else ""))
    print_reproducibility(console, body)
    t = Table(title="A - B with 95% intervals", title_justify="left")
    for col in ("statistic", "A", "B", "A - B"):
        t.add_column(col, justify="left" if col == "statistic" else "right")

    def row(label: str, ea: dict[str, Any], eb: dict[str, Any], ed: dict[str, Any],
            pct: bool) -> None:
        if pct:
            t.add_row(label, f"{100 * ea['value']:.1f}%", f"{100 * eb['value']:.1f}%",
                      f"{100 * ed['value']:+.1f} ± {100 * (ed['value'] - ed['lo']):.1f} pts")
        else:
            t.add_row(label, f"{ea['value']:.2f}", f"{eb['value']:.2f}",
                      f"{ed['value']:+.2f} ± {ed['value'] - ed['lo']:.2f}")

    one_bot = len(va["bots"]) == 1  # in every seat: its win rate says nothing
    for ba, bb, bd in zip(va["bots"], vb["bots"], diff["bots"]):
        if not one_bot:
            row(f"{ba['bot']} wins", ba["win_rate"], bb["win_rate"], bd["win_rate"], True)
        row(f"{ba['bot']} play pts/hand", ba["play_points_per_hand"],
            bb["play_points_per_hand"], bd["play_points_per_hand"], False)
        row(f"{ba['bot']} settle pts/hand", ba["settlement_points_per_hand"],
            bb["settlement_points_per_hand"], bd["settlement_points_per_hand"], False)
    for sa, sb, sd in zip(va["seats"], vb["seats"], diff["seats"]):
        row(f"seat {sa['seat']} wins", sa["win_rate"], sb["win_rate"], sd["win_rate"], True)
    if unit == "matches":
        row("hands per match", va["hands_per_game"], vb["hands_per_game"],
            diff["hands_per_game"], False)
    row("moves per hand", va["moves_per_hand"], vb["moves_per_hand"], diff["moves_per_hand"],
        False)
    row("blocked hands", va["blocked_share"], vb["blocked_share"], diff["blocked_share"], True)
    row("leader wins", va["leader"]["win_rate"], vb["leader"]["win_rate"],
        diff["leader_win_rate"], True)
    row("final margin", va["margin"]["mean"], vb["margin"]["mean"], diff["margin"], False)
    if dup:
        # the paired statistics, the deal the unit (both variants deal alike)
        for ba, bb, bd in zip(dup["bots"], vb["duplicate"]["bots"], diff["duplicate"]):
            row(f"{ba['bot']} wins of decided (deals)", ba["decided_win_rate"],
                bb["decided_win_rate"], bd["decided_win_rate"], True)
            row(f"{ba['bot']} margin per deal", ba["margin_per_deal"], bb["margin_per_deal"],
                bd["margin_per_deal"], False)
    console.print(t)
