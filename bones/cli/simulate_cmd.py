"""`bones simulate`, `bones bots`, `bones tournament` and `bones compare`.

The engine work is :mod:`bones.engine.sim`; this module reads options, picks the
executor (in-process, local processes or a Dask cluster) and prints.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Optional

import typer

_EXIT_HELP = ("Exit codes: 0 ok; 1 a problem (an invalid variant file, a cluster that "
              "cannot be reached, a run stopped early by Ctrl-C: its partial results are "
              "still reported); 2 a usage error.")

_SIM_HELP = f"""Simulate games between bots and report statistics with 95% intervals.

NAME-or-FILE is a built-in variant or a variant file.  -n plays whole matches
(default 200); --hands N plays N independent first hands instead.  --bots
gives one bot per seat (a shorter list repeats); seats rotate across games so
every bot sits in every seat equally.  Without --seed a seed is chosen, shown
and recorded.  The same seed gives the same totals for any --jobs and with
--scheduler.  Win rates have Wilson intervals; points use standard errors
across matches.  `bones bots` lists the bots.

{_EXIT_HELP}"""


def _run_one(config: Any, jobs: int, scheduler: str | None, games: int, label: str,
             quiet: bool, *, show_seed: bool) -> tuple[dict[str, Any], Any]:
    """Run one configuration with a progress bar: (its report with the run
    facts, the merged summary)."""
    from bones.engine.sim import report

    runner = _Runner(jobs, scheduler)
    if show_seed:
        # a chosen seed is always shown: without it the run cannot be repeated
        typer.echo(f"seed {config.seed}", err=True)
    started = time.perf_counter()
    bar = _Progress(games, label, quiet)
    try:
        summary = runner.run(config, bar)
    finally:
        bar.stop()
        runner.close()
    body = report(config, summary)
    body["run"] = _run_facts(runner, started, [summary])
    return body, summary

def register(app: typer.Typer) -> None:
    app.command("simulate", help=_SIM_HELP)(simulate_command)
    app.command("bots", help="List the bots with their parameters and defaults.")(bots_command)
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


class _Fail(Exception):
    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _fail(command: str, err: _Fail) -> typer.Exit:
    typer.echo(f"bones {command}: {err}", err=True)
    return typer.Exit(err.code)


# ----------------------------------------------------------------- shared

def _tables(refs: list[str], players: Optional[int], teams: bool) -> list[Any]:
    from bones.engine.load import VariantError
    from bones.engine.rules import RulesError, compile_rules
    from bones.engine.sim import Table, load_variant

    tables = []
    for ref in refs:
        try:
            variant = load_variant(ref)
        except VariantError as err:
            problems = getattr(err, "problems", None) or []
            first = problems[0].format() if problems else str(err).splitlines()[0]
            more = (f" (and {len(problems) - 1} more; see bones validate {ref})"
                    if len(problems) > 1 else "")
            raise _Fail(f"{first}{more}", 1 if Path(ref).is_file() else 2) from None
        try:
            rules = compile_rules(variant, players, True if teams else None)
        except RulesError as err:
            raise _Fail(str(err), 2) from None
        tables.append(Table(ref, variant, rules.players, rules.teams))
    return tables


def _config(tables: list[Any], bots: str, games: int, seed: Optional[int],
            hands_only: bool) -> Any:
    from bones.engine.bots import BotError
    from bones.engine.match import new_seed
    from bones.engine.sim import SimError, make_config

    if seed is None:
        seed = new_seed()
    try:
        names = [b.name for b in _parse_bots(bots)]
        return make_config(tables, names, games, seed, hands_only=hands_only)
    except (BotError, SimError) as err:
        raise _Fail(str(err), 2) from None


def _parse_bots(text: str) -> list[Any]:
    from bones.engine.bots import parse_bots

    return parse_bots(text)


class _Runner:
    """The executor for --jobs / --scheduler, opened once and closed at the end."""

    def __init__(self, jobs: int, scheduler: Optional[str]) -> None:
        if jobs < 1:
            raise _Fail("--jobs must be at least 1", 2)
        if scheduler and jobs != 1:
            raise _Fail("--jobs and --scheduler exclude each other (the cluster "
                        "decides its workers)", 2)
        self.jobs = jobs
        self.scheduler = scheduler
        self.executor: Any = None
        self.client: Any = None
        self.workers = jobs
        if scheduler:
            try:
                from distributed import Client
            except ImportError:
                raise _Fail("--scheduler needs Dask: pip install 'bones[cluster]'", 2) from None
            try:
                self.client = Client(scheduler, timeout=10)
            except (OSError, TimeoutError, ValueError) as err:
                raise _Fail(f"cannot reach the scheduler at {scheduler}: {err}", 1) from None
            self.executor = self.client.get_executor()
            self.workers = max(1, sum(self.client.nthreads().values()))
        elif jobs > 1:
            from bones.engine.sim import process_executor

            self.executor = process_executor(jobs)

    def run(self, config: Any, progress: Any = None) -> Any:
        from bones.engine.sim import SimError, simulate

        try:
            return simulate(config, self.executor, self.workers, progress=progress)
        except SimError as err:
            raise _Fail(str(err), 1) from None

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        elif self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)

    def facts(self) -> dict[str, Any]:
        return {"jobs": self.jobs, "workers": self.workers, "scheduler": self.scheduler}


class _Progress:
    """A progress bar on standard error, only for a terminal."""

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        self.bar: Any = None
        self.offset = 0  # games of earlier runs sharing this bar
        if quiet or not sys.stderr.isatty():
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=Console(stderr=True),
                            transient=True)
        self.task = self.bar.add_task(label, total=total)
        self.bar.start()

    def __call__(self, done: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=self.offset + done)

    def advance_base(self, games: int) -> None:
        self.offset += games

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _run_facts(runner: _Runner, started: float, summaries: list[Any]) -> dict[str, Any]:
    import platform

    from bones._version import __version__
    from bones.engine.sim import timing_report

    seconds = time.perf_counter() - started
    games = sum(s.n for s in summaries)
    timing: dict[str, Any] = {}
    for s in summaries:
        timing.update(timing_report(s))
    return {
        "engine_version": __version__,
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cpus",
        **runner.facts(),
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "move_time": timing,
    }


def _write(out: Optional[Path], text: str) -> None:
    if out is None:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    tmp = out.with_name(out.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    except OSError as err:
        raise _Fail(f"cannot write {out}: {err.strerror or err}", 1) from None


def _pct(e: dict[str, Any]) -> str:
    return f"{100 * e['value']:.1f}% [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]"


def _num(e: dict[str, Any], digits: int = 2) -> str:
    return f"{e['value']:.{digits}f} ± {e['value'] - e['lo']:.{digits}f}"


def _console(out: Optional[Path]) -> Any:
    from rich.console import Console

    if out is not None:
        return Console(record=True, file=open(os.devnull, "w"), width=120)
    return Console(highlight=False)


# --------------------------------------------------------------- simulate

def simulate_command(
    variant: str = typer.Argument(..., metavar="NAME-or-FILE",
                                  help="A built-in variant or a variant file."),
    matches: Optional[int] = typer.Option(None, "-n", "--matches",
                                          help="Whole matches to play (default 200)."),
    hands: Optional[int] = typer.Option(None, "--hands",
                                        help="Play this many independent first hands instead."),
    players: Optional[int] = typer.Option(None, "--players", "-p",
                                          help="Number of players (default: the smallest)."),
    teams: bool = typer.Option(False, "--teams", help="Two partnerships (seats 0+2 v 1+3)."),
    bots: str = typer.Option("heuristic", "--bots",
                             help="Bots by seat, comma-separated (see `bones bots`)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Master seed (chosen when left out)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Local worker processes."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="A Dask scheduler, tcp://HOST:PORT."),
    as_json: bool = typer.Option(False, "--json", help="Every number as JSON."),
    as_csv: bool = typer.Option(False, "--csv", help="One CSV row per bot and seat."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the report to FILE."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    try:
        code = _simulate(variant, matches, hands, players, teams, bots, seed, jobs,
                         scheduler, as_json, as_csv, out, quiet)
    except _Fail as err:
        raise _fail("simulate", err) from None
    raise typer.Exit(code)


def _simulate(variant: str, matches: Optional[int], hands: Optional[int],
              players: Optional[int], teams: bool, bots: str, seed: Optional[int], jobs: int,
              scheduler: Optional[str], as_json: bool, as_csv: bool, out: Optional[Path],
              quiet: bool) -> int:
    if matches is not None and hands is not None:
        raise _Fail("give -n (matches) or --hands, not both", 2)
    if as_json and as_csv:
        raise _Fail("give --json or --csv, not both", 2)
    games = hands if hands is not None else matches if matches is not None else 200
    if games < 1:
        raise _Fail("the number of games must be at least 1", 2)
    tables = _tables([variant], players, teams)
    config = _config(tables, bots, games, seed, hands is not None)

    body, summary = _run_one(config, jobs, scheduler, games, "simulating", quiet,
                    show_seed=seed is None or not (quiet or as_json or as_csv))
    if as_json:
        _write(out, json.dumps(body, indent=2) + "\n")
    elif as_csv:
        _write(out, _csv(body))
    else:
        console = _console(out)
        _print_simulation(console, body)
        if out is not None:
            _write(out, console.export_text())
    if summary.partial:
        typer.echo(f"partial: stopped after {summary.n} of {games} games", err=True)
        return 1
    return 0


def _csv(body: dict[str, Any]) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "name", "games", "wins", "win_rate", "win_lo", "win_hi",
                "play_per_hand", "play_lo", "play_hi", "settle_per_hand", "settle_lo",
                "settle_hi", "points_per_game", "points_lo", "points_hi"])
    rows = [("bot", b["bot"], b) for b in body["bots"]]
    rows += [("seat", str(s["seat"]), s) for s in body["seats"]]
    for kind, name, r in rows:
        cells: list[Any] = [kind, name, r["games"], r["wins"]]
        for key in ("win_rate", "play_points_per_hand", "settlement_points_per_hand",
                    "points_per_game"):
            cells += [r[key]["value"], r[key]["lo"], r[key]["hi"]]
        w.writerow(cells)
    return buf.getvalue()


def _print_simulation(console: Any, body: dict[str, Any]) -> None:
    from rich.table import Table

    v = body["variant"]
    unit = "hands" if body["mode"] == "hands" else "matches"
    partial = " (PARTIAL)" if body["partial"] else ""
    console.print(f"{v['name']}, {v['players']} players{' in teams' if v['teams'] else ''}: "
                  f"{body['games']} {unit}{partial}, seed {body['seed']}")
    for title, rows, key in (("bot", body["bots"], "bot"), ("seat", body["seats"], "seat")):
        t = Table(title=f"per {title} (95% intervals)", title_justify="left")
        t.add_column(title)
        t.add_column("wins", justify="right", no_wrap=True)
        t.add_column("play/hand", justify="right", no_wrap=True)
        t.add_column("settle/hand", justify="right", no_wrap=True)
        t.add_column(f"points/{'hand' if unit == 'hands' else 'match'}", justify="right",
                     no_wrap=True)
        for r in rows:
            t.add_row(str(r[key]), _pct(r["win_rate"]), _num(r["play_points_per_hand"]),
                      _num(r["settlement_points_per_hand"]), _num(r["points_per_game"], 1))
        console.print(t)
    t = Table(title="game", title_justify="left")
    t.add_column("statistic")
    t.add_column("value (95%)", justify="right")
    if unit == "matches":
        t.add_row("hands per match", _num(body["hands_per_game"]))
    t.add_row("moves per hand", _num(body["moves_per_hand"]))
    t.add_row("blocked hands", _pct(body["blocked_share"]))
    lead = body["leader"]
    t.add_row(f"{'first ' if unit == 'matches' else ''}leader wins "
              f"(fair {100 * lead['fair_share']:.0f}%)", _pct(lead["win_rate"]))
    t.add_row("no winner", _pct(body["ties"]))
    m = body["margin"]
    t.add_row("final margin", f"{_num(m['mean'], 1)} (sd {m['sd']:.1f}, "
              f"{m['min']}..{m['max']})")
    console.print(t)
    counts = body["scoring"]["counts"]
    plays = body["scoring"]["plays"]
    if plays:
        top = sorted(counts.items(), key=lambda kv: -kv[1])[:8]
        shown = ", ".join(f"{k}: {100 * v / plays:.1f}%" for k, v in
                          sorted(top, key=lambda kv: int(kv[0])))
        console.print(f"scoring counts ({plays} scoring plays): {shown}")


# ------------------------------------------------------------------- bots

def bots_command() -> None:
    from bones.engine.bots import BOTS

    for info in BOTS.values():
        typer.echo(f"{info.name}: {info.summary}")
        for p in info.params:
            extra = f" (one of {', '.join(p.choices)})" if p.choices else ""
            default = f"{p.default:g}" if isinstance(p.default, float) else p.default
            typer.echo(f"    {p.name}={default}  {p.help}{extra}")
    typer.echo("Write a bot as name:key=value:key=value, e.g. search:iterations=40:rollouts=2; "
               "several bots separated by commas.")


# ------------------------------------------------------------- tournament

def tournament_command(
    variant: str = typer.Argument(..., metavar="NAME-or-FILE",
                                  help="A built-in variant or a variant file."),
    bots: str = typer.Option(..., "--bots", help="At least two bots, comma-separated."),
    matches: int = typer.Option(100, "-n", "--matches",
                                help="Matches per pairing (or per seating)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Players per table."),
    teams: bool = typer.Option(False, "--teams", help="Two partnerships."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Master seed."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Local worker processes."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="A Dask scheduler, tcp://HOST:PORT."),
    as_json: bool = typer.Option(False, "--json", help="Every number as JSON."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the report to FILE."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    try:
        code = _tournament(variant, bots, matches, players, teams, seed, jobs, scheduler,
                           as_json, out, quiet)
    except _Fail as err:
        raise _fail("tournament", err) from None
    raise typer.Exit(code)


def _tournament(variant: str, bots: str, matches: int, players: Optional[int], teams: bool,
                seed: Optional[int], jobs: int, scheduler: Optional[str], as_json: bool,
                out: Optional[Path], quiet: bool) -> int:
    from bones.engine.bots import BotError
    from bones.engine.match import new_seed
    from bones.engine.sim import FORMAT_VERSION, Layout, SimError, make_config
    from bones.engine.stats import wilson

    if matches < 1:
        raise _Fail("the number of matches must be at least 1", 2)
    tables = _tables([variant], players or 2, teams)
    n_players = tables[0].players
    try:
        names = [b.name for b in _parse_bots(bots)]
    except BotError as err:
        raise _Fail(str(err), 2) from None
    if len(set(names)) != len(names):
        raise _Fail("each bot may be named once in a tournament", 2)
    if len(names) < 2:
        raise _Fail("a tournament needs at least two bots", 2)
    if len(names) < n_players:
        raise _Fail(f"{n_players} players need at least {n_players} different bots", 2)
    chosen = seed is None
    seed = new_seed() if seed is None else seed
    seatings: list[tuple[str, ...]] = []
    for group in itertools.combinations(names, n_players):
        first, rest = group[0], group[1:]
        # rotation covers the cyclic shifts; the other orders are their own runs
        for order in itertools.permutations(rest):
            seatings.append((first, *order))
    configs = []
    for lineup in seatings:
        try:
            configs.append(make_config(tables, list(lineup), matches, seed))
        except SimError as err:
            raise _Fail(str(err), 2) from None
    runner = _Runner(jobs, scheduler)
    if chosen or not (quiet or as_json):
        typer.echo(f"seed {seed}; {len(configs)} seating{'s' * (len(configs) != 1)} "
                   f"x {matches} matches", err=True)
    started = time.perf_counter()
    bar = _Progress(matches * len(configs), "tournament", quiet)
    wins = {b: 0 for b in names}
    games = {b: 0 for b in names}
    ahead = {(a, b): [0, 0] for a in names for b in names if a != b}
    summaries = []
    partial = False
    try:
        for config in configs:
            summary = runner.run(config, bar)
            bar.advance_base(summary.n)
            summaries.append(summary)
            layout = Layout(config)
            distinct = config.distinct
            for d, name in enumerate(distinct):
                wins[name] += summary.sums[layout.index[f"0.bot{d}.win"]]
                games[name] += summary.n
                for e, other in enumerate(distinct):
                    if d != e:
                        cell = ahead[(name, other)]
                        cell[0] += summary.sums[layout.index[f"0.ahead{d}.{e}"]]
                        cell[1] += summary.n
            if summary.partial:
                partial = True
                break
    finally:
        bar.stop()
        runner.close()

    def est(k: int, n: int) -> dict[str, float]:
        e = wilson(k, n)
        return {"value": round(e.value, 4), "lo": round(e.lo, 4), "hi": round(e.hi, 4)}

    ranking = sorted(names, key=lambda b: -(wins[b] / games[b] if games[b] else 0))
    body = {
        "format": "bones-tournament",
        "version": FORMAT_VERSION,
        "variant": {"name": tables[0].variant.name, "ref": variant, "players": n_players,
                    "teams": tables[0].teams},
        "seed": seed,
        "matches_per_seating": matches,
        "seatings": [list(s) for s in seatings],
        "partial": partial,
        "bots": names,
        "matrix": [[None if a == b else {**est(*ahead[(a, b)]), "games": ahead[(a, b)][1]}
                    for b in names] for a in names],
        "ranking": [{"bot": b, "games": games[b], "wins": wins[b],
                     "win_rate": est(wins[b], games[b])} for b in ranking],
        "run": _run_facts(runner, started, summaries),
    }
    if as_json:
        _write(out, json.dumps(body, indent=2) + "\n")
    else:
        console = _console(out)
        _print_tournament(console, body)
        if out is not None:
            _write(out, console.export_text())
    if partial:
        typer.echo("partial: stopped early", err=True)
        return 1
    return 0


def _print_tournament(console: Any, body: dict[str, Any]) -> None:
    from rich.table import Table

    v = body["variant"]
    names = body["bots"]
    console.print(f"{v['name']}, {v['players']} players: {body['matches_per_seating']} "
                  f"matches per seating, seed {body['seed']}"
                  + (" (PARTIAL)" if body["partial"] else ""))
    what = "wins against" if v["players"] == 2 else "finishes ahead of"
    t = Table(title=f"row {what} column (95%)", title_justify="left")
    t.add_column("")
    for b in names:
        t.add_column(b, justify="right")
    for a, row in zip(names, body["matrix"]):
        t.add_row(a, *("-" if cell is None else _pct(cell) for cell in row))
    console.print(t)
    t = Table(title="ranking", title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("bot")
    t.add_column("matches", justify="right")
    t.add_column("wins (95%)", justify="right")
    for i, r in enumerate(body["ranking"], 1):
        t.add_row(str(i), r["bot"], str(r["games"]), _pct(r["win_rate"]))
    console.print(t)


# ---------------------------------------------------------------- compare

def compare_command(
    a: str = typer.Argument(..., metavar="A", help="A variant name or file."),
    b: str = typer.Argument(..., metavar="B", help="Another variant name or file."),
    matches: Optional[int] = typer.Option(None, "-n", "--matches",
                                          help="Matches per variant (default 200)."),
    hands: Optional[int] = typer.Option(None, "--hands", help="Independent hands instead."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players."),
    teams: bool = typer.Option(False, "--teams", help="Two partnerships."),
    bots: str = typer.Option("heuristic", "--bots", help="Bots by seat, comma-separated."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Master seed."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Local worker processes."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="A Dask scheduler, tcp://HOST:PORT."),
    as_json: bool = typer.Option(False, "--json", help="Every number as JSON."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the report to FILE."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    try:
        code = _compare(a, b, matches, hands, players, teams, bots, seed, jobs, scheduler,
                        as_json, out, quiet)
    except _Fail as err:
        raise _fail("compare", err) from None
    raise typer.Exit(code)


def _compare(a: str, b: str, matches: Optional[int], hands: Optional[int],
             players: Optional[int], teams: bool, bots: str, seed: Optional[int], jobs: int,
             scheduler: Optional[str], as_json: bool, out: Optional[Path], quiet: bool) -> int:

    if matches is not None and hands is not None:
        raise _Fail("give -n (matches) or --hands, not both", 2)
    games = hands if hands is not None else matches if matches is not None else 200
    if games < 1:
        raise _Fail("the number of games must be at least 1", 2)
    tables = _tables([a, b], players, teams)
    if tables[0].players != tables[1].players:
        raise _Fail(f"{a} is played by {tables[0].players} players here and {b} by "
                    f"{tables[1].players}; choose one with --players", 2)
    config = _config(tables, bots, games, seed, hands is not None)
    body, summary = _run_one(config, jobs, scheduler, games, "comparing", quiet,
                    show_seed=seed is None or not (quiet or as_json))
    if as_json:
        _write(out, json.dumps(body, indent=2) + "\n")
    else:
        console = _console(out)
        _print_compare(console, body)
        if out is not None:
            _write(out, console.export_text())
    if summary.partial:
        typer.echo(f"partial: stopped after {summary.n} of {games} games", err=True)
        return 1
    return 0


def _print_compare(console: Any, body: dict[str, Any]) -> None:
    from rich.table import Table

    va = body
    vb = body["compare"]["b"]
    diff = body["compare"]["difference"]
    unit = "hands" if body["mode"] == "hands" else "matches"
    console.print(f"A = {va['variant']['ref']}, B = {vb['variant']['ref']}: {body['games']} "
                  f"paired {unit}, seed {body['seed']}"
                  + (" (PARTIAL)" if body["partial"] else ""))
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

    for ba, bb, bd in zip(va["bots"], vb["bots"], diff["bots"]):
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
    console.print(t)
