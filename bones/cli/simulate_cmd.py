"""`bones simulate`, `bones bots`, `bones tournament` and `bones compare`.

The engine work is :mod:`bones.sim.simulation` (runs and their reports) and
:mod:`bones.sim.report` (tournaments, run facts); this module reads
options, picks the executor (in-process, local processes or a Dask cluster)
and formats.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import typer

from bones.bots import BOTS, Bot, BotError, make_bot, permit_outside, split_bots, time_limited_bots
from bones.bots.levels import LEVELS
from bones.cli.entry import ctrl_c_raises
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
    fail,
    load_variant,
    note,
    worker_count,
)
from bones.engine.bounds import GAMES_LIMIT
from bones.engine.rng import new_seed

if TYPE_CHECKING:  # pragma: no cover - the engine and rich are imported inside the commands
    from concurrent.futures import Executor

    from rich.console import Console
    from rich.table import Table as RichTable

    from bones.sim.report import Tournament
    from bones.sim.simulation import Forfeit, SimConfig, Summary, Table

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


def _run_one(config: SimConfig, runner: _Runner, games: int, label: str,
             quiet: bool) -> tuple[dict[str, Any], Summary]:
    """Run one configuration with a progress bar: (its report with the run
    facts, the merged summary)."""
    from bones.sim.simulation import report

    started = time.perf_counter()
    bar = _Progress(config.total_games, label, quiet)
    try:
        summary = runner.run(config, bar)
    finally:
        bar.stop()
        runner.close()
    body = report(config, summary)
    body["run"] = runner.facts([summary], time.perf_counter() - started)
    return body, summary


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
    try:
        code = body()
    except CommandError as err:
        fail(name, str(err), err.code)
    raise typer.Exit(code)


# ----------------------------------------------------------------- shared

def _tables(refs: list[str], players: Optional[int], teams: bool) -> list[Table]:
    from bones.engine.rules import RulesError
    from bones.lang.compile import compile_rules
    from bones.sim.simulation import Table

    tables = []
    for ref in refs:
        # a built-in comes from the compiled cache when it can (fast start-up)
        variant = load_variant(ref, cached=True)
        try:
            rules = compile_rules(variant, players, True if teams else None)
        except RulesError as err:
            raise CommandError(str(err), EXIT_USAGE) from None
        tables.append(Table(ref, variant, rules.players, rules.teams))
    return tables


def _config(tables: list[Table], bots: Optional[list[str]], games: int, seed: Optional[int],
            hands_only: bool, duplicate: bool = False) -> SimConfig:
    from bones.sim.simulation import SimError, make_config

    if seed is None:
        seed = new_seed()
    try:
        names = [b.name for b in _parse_bots(bots or ["heuristic"])]
        return make_config(tables, names, games, seed, hands_only=hands_only,
                           duplicate=duplicate)
    except (BotError, SimError) as err:
        raise CommandError(str(err), EXIT_USAGE) from None


def _parse_bots(values: list[str]) -> list[Bot]:
    # the command line is the one place outside bots (py:, file:, ep:,
    # cmd:) may be named: permit exactly those named here
    texts = split_bots(values)
    permit_outside(texts)
    return [make_bot(text) for text in texts]


def _reproducibility() -> dict[str, Any]:
    limited = time_limited_bots()
    if not limited:
        return {"reproducible": True}
    return {"reproducible": False,
            "not_reproducible_because": f"time-limited bots: {', '.join(limited)}"}


def _print_reproducibility(console: Console, body: dict[str, Any]) -> None:
    run = body.get("run", {})
    if run.get("reproducible") is False:
        console.print(f"NOT REPRODUCIBLE: {run['not_reproducible_because']} (a move that "
                      "overruns its time limit loses the game, and time depends on the machine)")


def _games(matches: Optional[int], hands: Optional[int]) -> int:
    if matches is not None and hands is not None:
        raise CommandError("give -n (matches) or --hands, not both", EXIT_USAGE)
    games = hands if hands is not None else matches if matches is not None else 200
    if games < 1:
        raise CommandError("the number of games must be at least 1", EXIT_USAGE)
    return games


class _Runner:
    """The executor for --jobs / --scheduler, opened once and closed at the end.

    No more local workers start than there are batches to share, nor (without
    --oversubscribe) than there are CPUs; a capped --jobs is said once on
    standard error."""

    def __init__(self, jobs: int, scheduler: Optional[str], games: int,
                 oversubscribe: bool = False, quiet: bool = False) -> None:
        from bones.sim.simulation import default_batch_size

        if jobs < 1:
            raise CommandError("--jobs must be at least 1", EXIT_USAGE)
        if scheduler and jobs != 1:
            raise CommandError("--jobs and --scheduler exclude each other (the cluster "
                               "decides its workers)", EXIT_USAGE)
        self.jobs = jobs
        self.scheduler = scheduler
        self.executor: Executor | None = None  # the cluster's
        self.client: Any = None
        self._local: dict[str, Executor] = {}  # "threads" / "processes", opened when first needed
        if scheduler:
            self._connect(scheduler)
            return
        planned = -(-games // default_batch_size(games, jobs))  # batches, none made
        self.workers, why = worker_count(jobs, planned, oversubscribe)
        if why:
            note(why, quiet)

    def _connect(self, scheduler: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise CommandError("--scheduler needs Dask: pip install 'bones[cluster]'",
                               EXIT_USAGE) from None
        try:
            self.client = Client(scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError) as err:
            raise CommandError(f"cannot reach the scheduler at {scheduler}: {err}",
                               EXIT_PROBLEM) from None
        self.executor = self.client.get_executor()
        self.workers = max(1, sum(self.client.nthreads().values()))

    def run(self, config: SimConfig, bar: _Progress | None = None) -> Summary:
        """Play ``config``: Ctrl-C from here on stops it with what finished
        (a partial summary), never the whole command."""
        from bones.sim.simulation import Layout, SimError, Summary, simulate

        bar = bar or _Progress(config.total_games, "", quiet=True)
        with ctrl_c_raises():
            try:
                return simulate(config, self._executor_for(config), self.workers,
                                progress=bar, forfeit=bar.forfeit)
            except SimError as err:
                raise CommandError(str(err), EXIT_PROBLEM) from None
            except KeyboardInterrupt:  # before the first batch: nothing finished
                from bones.sim.simulation import deal_layout

                nothing = Summary.empty(Layout(config), deal_layout(config))
                nothing.partial = True
                return nothing

    def _executor_for(self, config: SimConfig) -> Executor | None:
        """The cluster's executor; else, for more than one worker, threads when
        the native core plays the batches (it releases the GIL) and processes
        when Python does."""
        from bones.sim import simulation as sim

        if self.executor is not None:
            return self.executor
        if self.workers == 1 and not sim.needs_own_process(config):
            return None
        # a Python bot from outside plays in a worker process even for one
        # job: if it ends its process, the run keeps the games before it
        kind = "threads" if sim.plays_natively(config) else "processes"
        if kind not in self._local:
            make = sim.thread_executor if kind == "threads" else sim.process_executor
            self._local[kind] = make(self.workers)
        return self._local[kind]

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        from bones.sim.simulation import stop_processes

        for kind, executor in self._local.items():
            if kind == "processes":
                stop_processes(executor)  # a batch still running is not waited for
            else:
                executor.shutdown(wait=False, cancel_futures=True)
        self._local.clear()

    def facts(self, summaries: list[Summary], seconds: float) -> dict[str, Any]:
        from bones.sim.report import run_facts

        return {**run_facts(summaries, seconds, jobs=self.jobs, workers=self.workers,
                            scheduler=self.scheduler), **_reproducibility()}


class _Progress:
    """A progress bar on standard error, only for a terminal; and the games
    that failing bots lost, one line each (with or without --quiet)."""

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

    def forfeit(self, lost: Forfeit) -> None:
        line = f"bones: {lost}"
        if self.bar is not None:
            self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            print(line, file=sys.stderr, flush=True)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _write(out: Optional[Path], text: str) -> None:
    if out is None:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    from bones.games.outfile import OutputError, write_output

    try:
        write_output(out, text)  # a device, a FIFO or "-" written through; a link followed
    except OutputError as err:
        raise CommandError(str(err), EXIT_PROBLEM) from None


def _check_out(out: Optional[Path]) -> None:
    """Refuse an --out that cannot be written (a directory, a missing folder)
    before the run, not after it."""
    if out is None:
        return
    from bones.games.outfile import OutputError, resolve_output

    try:
        resolve_output(out)
    except OutputError as err:
        raise CommandError(str(err), EXIT_PROBLEM) from None


def _pct(e: dict[str, Any]) -> str:
    return f"{100 * e['value']:.1f}% [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]"


def _num(e: dict[str, Any], digits: int = 2) -> str:
    return f"{e['value']:.{digits}f} ± {e['value'] - e['lo']:.{digits}f}"


def _console(out: Optional[Path]) -> Console:
    from rich.console import Console

    if out is not None:
        return Console(record=True, file=open(os.devnull, "w"), width=120)
    return Console(highlight=False)


def _fits(console: Console, table: RichTable) -> bool:
    """Whether a rich table prints at its natural width, nothing wrapped or cut."""
    from rich.measure import Measurement

    unlimited = console.options.update(width=1_000_000)  # measure unclamped
    width: int = Measurement.get(console, unlimited, table).maximum
    return width <= int(console.width)


def _letters(names: list[str]) -> list[str]:
    """Short labels A, B, ... (then A1 ...), one per bot, for a legend."""
    abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [abc[i] if i < 26 else f"{abc[i % 26]}{i // 26}" for i in range(len(names))]


def _print_legend(console: Console, labels: list[str], names: list[str]) -> None:
    """The bots behind the short labels: each whole, one per line, never cut."""
    for label, name in zip(labels, names):
        console.print(f"  {label} = {name}", no_wrap=True, overflow="ignore", crop=False,
                      markup=False, highlight=False)


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
    def body() -> int:
        if as_json and as_csv:
            raise CommandError("give --json or --csv, not both", EXIT_USAGE)
        _check_out(out)
        games = _games(matches, hands)
        tables = _tables([variant], players, teams)
        config = _config(tables, bots, games, seed, hands is not None, duplicate)
        runner = _Runner(jobs, scheduler, games, oversubscribe, quiet)
        report, summary = _run_one(config, runner, games, "simulating", quiet)
        if as_csv:
            _write(out, _csv(report))
        else:
            _emit(out, report, as_json, _print_simulation)
        return _partial("simulate", summary, config)

    _command("simulate", body)


def _emit(out: Path | None, report: dict[str, Any], as_json: bool,
          printer: Callable[[Console, dict[str, Any]], None]) -> None:
    """A report as JSON, or as tables on the screen (and as their text in ``--out``)."""
    if as_json:
        _write(out, json.dumps(report, indent=2) + "\n")
        return
    console = _console(out)
    printer(console, report)
    if out is not None:
        _write(out, console.export_text())


def _partial(command: str, summary: Summary, config: SimConfig) -> int:
    """The exit code of a run: a run stopped early says so and exits 1."""
    if summary.partial:
        why = f" ({summary.stopped_by})" if summary.stopped_by else ""
        done = (f"{summary.deals} of {config.games} deals ({summary.n} games)"
                if config.duplicate else f"{summary.n} of {config.games} games")
        typer.echo(f"bones {command}: partial: stopped after {done}{why}", err=True)
        return EXIT_PROBLEM
    return 0


def _csv(body: dict[str, Any]) -> str:
    import csv  # for this format only, as rich is for tables

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    dup = body.get("duplicate")
    paired = {r["bot"]: r for r in dup["bots"]} if dup else {}
    w.writerow(["kind", "name", "games", "wins", "win_rate", "win_lo", "win_hi",
                "play_per_hand", "play_lo", "play_hi", "settle_per_hand", "settle_lo",
                "settle_hi", "points_per_game", "points_lo", "points_hi"]
               + (["deals", "decided_win_rate", "decided_lo", "decided_hi", "margin_per_deal",
                   "margin_lo", "margin_hi", "deals_won_every_game", "tied_games"]
                  if dup else []))
    rows = [("bot", b["bot"], b) for b in body["bots"]]
    rows += [("seat", str(s["seat"]), s) for s in body["seats"]]
    for kind, name, r in rows:
        cells: list[Any] = [kind, name, r["games"], r["wins"]]
        for key in ("win_rate", "play_points_per_hand", "settlement_points_per_hand",
                    "points_per_game"):
            cells += [r[key]["value"], r[key]["lo"], r[key]["hi"]]
        if dup:
            p = paired.get(name) if kind == "bot" else None
            if p is None:  # a seat: the paired figures are per bot
                cells += [""] * 9
            else:
                cells += [dup["deals"]]
                for key in ("decided_win_rate", "margin_per_deal"):
                    cells += [p[key]["value"], p[key]["lo"], p[key]["hi"]]
                cells += [p["deals_won_every_game"], dup["ties"]]
        w.writerow(cells)
    return buf.getvalue()


def _print_simulation(console: Console, body: dict[str, Any]) -> None:
    from rich.table import Table

    v = body["variant"]
    unit = "hands" if body["mode"] == "hands" else "matches"
    partial = " (PARTIAL)" if body["partial"] else ""
    dup = body.get("duplicate")
    deals = (f" ({dup['deals']} deals x {dup['games_per_deal']} seatings, duplicate)"
             if dup else "")
    console.print(f"{v['name']}, {v['players']} players{' in teams' if v['teams'] else ''}: "
                  f"{body['games']} {unit}{deals}{partial}, seed {body['seed']}")
    _print_reproducibility(console, body)
    sections = [("bot", body["bots"], "bot"), ("seat", body["seats"], "seat")]
    if len(body["bots"]) == 1:
        # one bot in every seat: its "win rate" is only how often anybody won
        console.print(f"every seat: {body['bots'][0]['bot']}")
        sections = sections[1:]
    for title, rows, key in sections:
        names = [str(r[key]) for r in rows]

        def table(labels: list[str], title: str = title, rows: list[Any] = rows) -> RichTable:
            t = Table(title=f"per {title} (95% intervals)", title_justify="left")
            t.add_column(title, no_wrap=True)
            t.add_column("wins", justify="right", no_wrap=True)
            t.add_column("play/hand", justify="right", no_wrap=True)
            t.add_column("settle/hand", justify="right", no_wrap=True)
            t.add_column(f"points/{'hand' if unit == 'hands' else 'match'}", justify="right",
                         no_wrap=True)
            for label, r in zip(labels, rows):
                t.add_row(label, _pct(r["win_rate"]), _num(r["play_points_per_hand"]),
                          _num(r["settlement_points_per_hand"]), _num(r["points_per_game"], 1))
            return t

        t = table(names)
        if key == "bot" and not _fits(console, t):
            # bot names too long for the screen: short labels and a legend, so
            # no two bots ever print alike (never search:ite... twice)
            labels = _letters(names)
            t = table(labels)
            console.print(t)
            _print_legend(console, labels, names)
        else:
            console.print(t)
    _print_game(console, body, unit)
    if dup:
        _print_duplicate(console, dup, unit)
    _print_times(console, body)


def _print_duplicate(console: Console, dup: dict[str, Any], unit: str) -> None:
    """The paired statistics of a duplicate run (the deal is the unit)."""
    from rich.table import Table

    games = dup["games_per_deal"]
    t = Table(title=f"paired over {dup['deals']} deals of {games} {unit} (95% intervals)",
              title_justify="left")
    t.add_column("bot", no_wrap=True)
    t.add_column("wins of decided", justify="right", no_wrap=True)
    t.add_column("margin/deal", justify="right", no_wrap=True)
    t.add_column(f"margin/{unit[:-2] if unit == 'matches' else 'hand'}", justify="right",
                 no_wrap=True)
    t.add_column(f"won all {games}", justify="right", no_wrap=True)
    for r in dup["bots"]:
        t.add_row(r["bot"], _pct(r["decided_win_rate"]), _num(r["margin_per_deal"], 1),
                  _num(r["margin_per_game"], 2), str(r["deals_won_every_game"]))
    console.print(t)
    console.print(f"decided {dup['decided']} of {dup['games']} {unit}; tied {dup['ties']} "
                  "(apart: neither a win nor a loss)")
    names = [r["bot"] for r in dup["bots"]]
    shown = []
    for row in dup["deal_results"][:6]:
        wins = "-".join(str(w) for w in row["wins"])
        tie = f", {row['ties']} tied" if row["ties"] else ""
        shown.append(f"{wins}{tie}: {row['deals']}")
    console.print(f"deal results (wins {'-'.join(names)}): " + "; ".join(shown)
                  + ("; ..." if len(dup["deal_results"]) > 6 else ""),
                  markup=False, highlight=False, soft_wrap=True)


def _print_times(console: Console, body: dict[str, Any]) -> None:
    """Each bot's time a move with a choice: the median, 90th and 99th
    percentiles and the longest (``run.move_time``: CPU time of the bots
    that search, every move; sampled wall time of the others)."""
    from rich.table import Table

    timing = body.get("run", {}).get("move_time", {})
    rows = [(name, t["choices"]) for name, t in timing.items() if t["choices"]["moves"]]
    if not rows:
        return
    t = Table(title="time a move with a choice, ms", title_justify="left")
    t.add_column("bot", overflow="fold")
    for column in ("moves timed", "median", "p90", "p99", "max"):
        t.add_column(column, justify="right", no_wrap=True)
    for name, c in rows:
        t.add_row(name, f"{c['moves']:,}", *(_ms(c[k]) for k in ("median_ms", "p90_ms",
                                                                  "p99_ms", "max_ms")))
    console.print(t)


def _ms(ms: float) -> str:
    """A time in milliseconds, to about its histogram bin's precision."""
    return f"{ms:.3g}" if ms < 1000 else f"{ms:,.0f}"


def _print_game(console: Console, body: dict[str, Any], unit: str) -> None:
    """The whole-game statistics of a simulation, and how often each count scored."""
    from rich.table import Table

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
        _check_out(out)
        (table,) = _tables([variant], players or 2, teams)
        try:
            names = [b.name for b in _parse_bots(bots)]
            plan = Tournament.plan(table, names, matches,
                                   new_seed() if seed is None else seed, duplicate)
        except (BotError, SimError, TournamentError) as err:
            raise CommandError(str(err), EXIT_USAGE) from None
        runner = _Runner(jobs, scheduler, matches, oversubscribe, quiet)
        report = _play_tournament(plan, runner, quiet)
        _emit(out, report, as_json, _print_tournament)
        if plan.partial:
            typer.echo("bones tournament: partial: stopped early", err=True)
            return EXIT_PROBLEM
        return 0

    _command("tournament", body)


def _play_tournament(plan: Tournament, runner: _Runner, quiet: bool) -> dict[str, Any]:
    """Play every seating of ``plan`` (stopping at a partial run): its report."""
    count = len(plan.configs)
    each = (f"{plan.matches} deals x {plan.configs[0].rotations} rotations" if plan.duplicate
            else f"{plan.matches} matches")
    note(f"{count} seating{'s' * (count != 1)} x {each}", quiet)
    started = time.perf_counter()
    bar = _Progress(plan.total_matches, "tournament", quiet)
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
    _print_reproducibility(console, body)
    what = "wins against" if v["players"] == 2 else "finishes ahead of"

    def matrix(labels: list[str], split: bool) -> RichTable:
        # a cell is never broken inside its interval: on one line, or (split)
        # the rate on one line and its whole interval on the next
        t = Table(title=f"row {what} column (95%)", title_justify="left")
        t.add_column("", no_wrap=True)
        for b in labels:
            t.add_column(b, justify="right", no_wrap=True)
        for a, row in zip(labels, body["matrix"]):
            cells = ("-" if cell is None else _pct(cell) for cell in row)
            t.add_row(a, *(c.replace(" [", "\n[", 1) if split else c for c in cells))
        return t

    letters = _letters(list(names))
    tries = [(list(names), False), (letters, False), (letters, True)]
    for labels, split in tries:
        t = matrix(labels, split)
        if _fits(console, t):
            break
    console.print(t)
    if labels is letters:
        _print_legend(console, letters, list(names))
    t = Table(title="ranking", title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("bot", no_wrap=True)
    t.add_column("matches", justify="right")
    t.add_column("wins (95%)", justify="right")
    for i, r in enumerate(body["ranking"], 1):
        t.add_row(str(i), r["bot"], str(r["games"]), _pct(r["win_rate"]))
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
                t.add_row(label[r["bot"]], _pct(r["decided_win_rate"]),
                          _num(r["margin_per_deal"], 1), str(r["deals_won_every_game"]),
                          str(run["ties"]) if not j else "", end_section=j == len(rows) - 1)
        return t

    t = table({n: n for n in names})
    if _fits(console, t):
        console.print(t)
        return
    letters = _letters(names)
    console.print(table(dict(zip(names, letters))))
    _print_legend(console, letters, names)


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
        games = _games(matches, hands)
        _check_out(out)
        tables = _tables([a, b], players, teams)
        if tables[0].players != tables[1].players:
            raise CommandError(f"{a} is played by {tables[0].players} players here and {b} "
                               f"by {tables[1].players}; choose one with --players", EXIT_USAGE)
        config = _config(tables, bots, games, seed, hands is not None, duplicate)
        runner = _Runner(jobs, scheduler, games, oversubscribe, quiet)
        report, summary = _run_one(config, runner, games, "comparing", quiet)
        _emit(out, report, as_json, _print_compare)
        return _partial("compare", summary, config)

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
    _print_reproducibility(console, body)
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
