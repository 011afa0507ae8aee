"""Simulations for the command line, without Typer: what ``bones simulate``
does once its options are read, and what ``bones tournament`` and ``bones
compare`` share with it (the tables, the runner and its executors, the
progress bar, the reports' output).

:mod:`bones.cli.simulate_cmd` declares the commands to Typer and calls
these; :mod:`bones.cli.quick` reads a plain ``bones simulate`` command line
itself and calls :func:`run_simulate` without loading Typer (issue 37).
The engine is :mod:`bones.sim.simulation` (runs, their reports and run facts) and
:mod:`bones.sim.report` (tournaments).
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from bones.bots import Bot, BotError, make_bot, permit_outside, split_bots, time_limited_bots
from bones.cli.page import Column, Grid, Page, PlainPage, RichPage, plain_width
from bones.cli.shared import (
    EXIT_PROBLEM,
    EXIT_USAGE,
    CommandError,
    ctrl_c_raises,
    echo,
    load_variant,
    note,
    worker_count,
)
from bones.engine.rng import new_seed

if TYPE_CHECKING:  # pragma: no cover - the engine and rich are imported inside the commands
    from concurrent.futures import Executor

    from rich.console import Console

    from bones.sim.simulation import Forfeit, SimConfig, Summary, Table


def outcome(name: str, body: Callable[[], int]) -> int:
    """Run a command body: its exit code, or its error written as ``bones
    NAME: ...`` on standard error and that error's exit code."""
    try:
        return body()
    except CommandError as err:
        echo(f"bones {name}: {err}", err=True)
        return err.code


def run_simulate(variant: str, matches: Optional[int] = None, hands: Optional[int] = None,
                 players: Optional[int] = None, teams: bool = False,
                 bots: Optional[list[str]] = None, seed: Optional[int] = None, jobs: int = 1,
                 oversubscribe: bool = False, scheduler: Optional[str] = None,
                 duplicate: bool = False, as_json: bool = False, as_csv: bool = False,
                 out: Optional[Path] = None, quiet: bool = False) -> int:
    """``bones simulate`` with its options read: the exit code (an error
    raises :class:`CommandError`)."""
    if as_json and as_csv:
        raise CommandError("give --json or --csv, not both", EXIT_USAGE)
    check_out(out)
    games = game_count(matches, hands)
    tables = load_tables([variant], players, teams)
    config = build_config(tables, bots, games, seed, hands is not None, duplicate)
    runner = Runner(jobs, scheduler, games, oversubscribe, quiet)
    report, summary = run_one(config, runner, games, "simulating", quiet)
    if as_csv:
        write_report(out, _csv(report))
    elif as_json or out is not None:
        emit(out, report, as_json, _print_simulation)
    else:
        show_simulation(report)
    return exit_code("simulate", summary, config)


def run_one(config: SimConfig, runner: Runner, games: int, label: str,
            quiet: bool) -> tuple[dict[str, Any], Summary]:
    """Run one configuration with a progress bar: (its report with the run
    facts, the merged summary)."""
    from bones.sim.simulation import report

    started = time.perf_counter()
    bar = ProgressBar(config.total_games, label, quiet)
    try:
        summary = runner.run(config, bar)
    finally:
        bar.stop()
        runner.close()
    body = report(config, summary)
    body["run"] = runner.facts([summary], time.perf_counter() - started)
    return body, summary


# ----------------------------------------------------------------- shared

def load_tables(refs: list[str], players: Optional[int], teams: bool) -> list[Table]:
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


def build_config(tables: list[Table], bots: Optional[list[str]], games: int,
                 seed: Optional[int], hands_only: bool, duplicate: bool = False) -> SimConfig:
    from bones.sim.simulation import SimError, make_config

    if seed is None:
        seed = new_seed()
    try:
        names = [b.name for b in parse_bots(bots or ["heuristic"])]
        return make_config(tables, names, games, seed, hands_only=hands_only,
                           duplicate=duplicate)
    except (BotError, SimError) as err:
        raise CommandError(str(err), EXIT_USAGE) from None


def parse_bots(values: list[str]) -> list[Bot]:
    # the command line is the one place outside bots (py:, file:, ep:,
    # cmd:) may be named: permit exactly those named here
    texts = split_bots(values)
    permit_outside(texts)
    return [make_bot(text) for text in texts]


def reproducibility() -> dict[str, Any]:
    limited = time_limited_bots()
    if not limited:
        return {"reproducible": True}
    return {"reproducible": False,
            "not_reproducible_because": f"time-limited bots: {', '.join(limited)}"}


def print_reproducibility(page: Console | Page, body: dict[str, Any]) -> None:
    run = body.get("run", {})
    if run.get("reproducible") is False:
        page.print(f"NOT REPRODUCIBLE: {run['not_reproducible_because']} (a move that "
                      "overruns its time limit loses the game, and time depends on the machine)")


def game_count(matches: Optional[int], hands: Optional[int]) -> int:
    if matches is not None and hands is not None:
        raise CommandError("give -n (matches) or --hands, not both", EXIT_USAGE)
    games = hands if hands is not None else matches if matches is not None else 200
    if games < 1:
        raise CommandError("the number of games must be at least 1", EXIT_USAGE)
    return games


class Runner:
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

    def run(self, config: SimConfig, bar: ProgressBar | None = None) -> Summary:
        """Play ``config``: Ctrl-C from here on stops it with what finished
        (a partial summary), never the whole command."""
        from bones.sim.simulation import Layout, SimError, Summary, simulate

        bar = bar or ProgressBar(config.total_games, "", quiet=True)
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
        from bones.sim.simulation import run_facts

        return {**run_facts(summaries, seconds, jobs=self.jobs, workers=self.workers,
                            scheduler=self.scheduler), **reproducibility()}


class ProgressBar:
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


def write_report(out: Optional[Path], text: str) -> None:
    if out is None:
        echo(text, nl=not text.endswith("\n"))
        return
    from bones.games.outfile import OutputError, write_output

    try:
        write_output(out, text)  # a device, a FIFO or "-" written through; a link followed
    except OutputError as err:
        raise CommandError(str(err), EXIT_PROBLEM) from None


def check_out(out: Optional[Path]) -> None:
    """Refuse an --out that cannot be written (a directory, a missing folder)
    before the run, not after it."""
    if out is None:
        return
    from bones.games.outfile import OutputError, resolve_output

    try:
        resolve_output(out)
    except OutputError as err:
        raise CommandError(str(err), EXIT_PROBLEM) from None


def pct(e: dict[str, Any]) -> str:
    return f"{100 * e['value']:.1f}% [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]"


def num(e: dict[str, Any], digits: int = 2) -> str:
    return f"{e['value']:.{digits}f} ± {e['value'] - e['lo']:.{digits}f}"


def make_console(out: Optional[Path]) -> Console:
    from rich.console import Console

    if out is not None:
        return Console(record=True, file=open(os.devnull, "w"), width=120)
    return Console(highlight=False)


def short_labels(names: list[str]) -> list[str]:
    """Short labels A, B, ... (then A1 ...), one per bot, for a legend."""
    abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [abc[i] if i < 26 else f"{abc[i % 26]}{i // 26}" for i in range(len(names))]


def print_legend(page: Page, labels: list[str], names: list[str]) -> None:
    """The bots behind the short labels: each whole, one per line, never cut."""
    for label, name in zip(labels, names):
        page.print(f"  {label} = {name}", markup=False, wrap=False)


def emit(out: Path | None, report: dict[str, Any], as_json: bool,
         printer: Callable[[Console, dict[str, Any]], None]) -> None:
    """A report as JSON, or as tables on the screen (and as their text in ``--out``)."""
    if as_json:
        write_report(out, json.dumps(report, indent=2) + "\n")
        return
    console = make_console(out)
    printer(console, report)
    if out is not None:
        write_report(out, console.export_text())


def exit_code(command: str, summary: Summary, config: SimConfig) -> int:
    """The exit code of a run: a run stopped early says so and exits 1."""
    if summary.partial:
        why = f" ({summary.stopped_by})" if summary.stopped_by else ""
        done = (f"{summary.deals} of {config.games} deals ({summary.n} games)"
                if config.duplicate else f"{summary.n} of {config.games} games")
        echo(f"bones {command}: partial: stopped after {done}{why}", err=True)
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
    """A simulation's report through a rich console (``--out``, a terminal)."""
    write_simulation(RichPage(console), body)


def show_simulation(body: dict[str, Any]) -> None:
    """A simulation's report on standard output: as plain text when rich
    would print just that text (no terminal, everything fits), else through
    rich (:mod:`bones.cli.page`)."""
    width = plain_width()
    if width is not None:
        page = PlainPage(width)
        write_simulation(page, body)
        text = page.text()
        if text is not None:
            echo(text, nl=False)
            return
    emit(None, body, False, _print_simulation)


def write_simulation(page: Page, body: dict[str, Any]) -> None:
    """A simulation's report: what ran, the tables per bot and per seat, the
    game's statistics, the paired ones of a duplicate run and the bots' times."""
    v = body["variant"]
    unit = "hands" if body["mode"] == "hands" else "matches"
    partial = " (PARTIAL)" if body["partial"] else ""
    dup = body.get("duplicate")
    deals = (f" ({dup['deals']} deals x {dup['games_per_deal']} seatings, duplicate)"
             if dup else "")
    page.print(f"{v['name']}, {v['players']} players{' in teams' if v['teams'] else ''}: "
               f"{body['games']} {unit}{deals}{partial}, seed {body['seed']}")
    print_reproducibility(page, body)
    sections = [("bot", body["bots"], "bot"), ("seat", body["seats"], "seat")]
    if len(body["bots"]) == 1:
        # one bot in every seat: its "win rate" is only how often anybody won
        page.print(f"every seat: {body['bots'][0]['bot']}")
        sections = sections[1:]
    for title, rows, key in sections:
        names = [str(r[key]) for r in rows]
        columns = [Column(title, no_wrap=True), Column("wins", True, True),
                   Column("play/hand", True, True), Column("settle/hand", True, True),
                   Column(f"points/{'hand' if unit == 'hands' else 'match'}", True, True)]
        cells = [[pct(r["win_rate"]), num(r["play_points_per_hand"]),
                  num(r["settlement_points_per_hand"]), num(r["points_per_game"], 1)]
                 for r in rows]
        heading = f"per {title} (95% intervals)"
        t = Grid(heading, columns, [[name, *row] for name, row in zip(names, cells)])
        if key == "bot" and not page.fits(t):
            # bot names too long for the screen: short labels and a legend, so
            # no two bots ever print alike (never search:ite... twice)
            labels = short_labels(names)
            page.table(Grid(heading, columns,
                            [[label, *row] for label, row in zip(labels, cells)]))
            print_legend(page, labels, names)
        else:
            page.table(t)
    _print_game(page, body, unit)
    if dup:
        _print_duplicate(page, dup, unit)
    _print_times(page, body)


def _print_duplicate(page: Page, dup: dict[str, Any], unit: str) -> None:
    """The paired statistics of a duplicate run (the deal is the unit)."""
    games = dup["games_per_deal"]
    columns = [Column("bot", no_wrap=True), Column("wins of decided", True, True),
               Column("margin/deal", True, True),
               Column(f"margin/{unit[:-2] if unit == 'matches' else 'hand'}", True, True),
               Column(f"won all {games}", True, True)]
    page.table(Grid(f"paired over {dup['deals']} deals of {games} {unit} (95% intervals)",
                    columns,
                    [[r["bot"], pct(r["decided_win_rate"]), num(r["margin_per_deal"], 1),
                      num(r["margin_per_game"], 2), str(r["deals_won_every_game"])]
                     for r in dup["bots"]]))
    page.print(f"decided {dup['decided']} of {dup['games']} {unit}; tied {dup['ties']} "
               "(apart: neither a win nor a loss)")
    names = [r["bot"] for r in dup["bots"]]
    shown = []
    for row in dup["deal_results"][:6]:
        wins = "-".join(str(w) for w in row["wins"])
        tie = f", {row['ties']} tied" if row["ties"] else ""
        shown.append(f"{wins}{tie}: {row['deals']}")
    page.print(f"deal results (wins {'-'.join(names)}): " + "; ".join(shown)
               + ("; ..." if len(dup["deal_results"]) > 6 else ""), markup=False, wrap=False)


def _print_times(page: Page, body: dict[str, Any]) -> None:
    """Each bot's time a move with a choice: the median, 90th and 99th
    percentiles and the longest (``run.move_time``: CPU time of the bots
    that search, every move; sampled wall time of the others)."""
    timing = body.get("run", {}).get("move_time", {})
    rows = [(name, t["choices"]) for name, t in timing.items() if t["choices"]["moves"]]
    if not rows:
        return
    columns = [Column("bot", overflow="fold")]
    columns += [Column(column, True, True) for column in ("moves timed", "median", "p90", "p99",
                                                         "max")]
    page.table(Grid("time a move with a choice, ms", columns,
                    [[name, f"{c['moves']:,}", *(_ms(c[k]) for k in ("median_ms", "p90_ms",
                                                                     "p99_ms", "max_ms"))]
                     for name, c in rows]))


def _ms(ms: float) -> str:
    """A time in milliseconds, to about its histogram bin's precision."""
    return f"{ms:.3g}" if ms < 1000 else f"{ms:,.0f}"


def _print_game(page: Page, body: dict[str, Any], unit: str) -> None:
    """The whole-game statistics of a simulation, and how often each count scored."""
    rows = []
    if unit == "matches":
        rows.append(["hands per match", num(body["hands_per_game"])])
    rows.append(["moves per hand", num(body["moves_per_hand"])])
    rows.append(["blocked hands", pct(body["blocked_share"])])
    lead = body["leader"]
    rows.append([f"{'first ' if unit == 'matches' else ''}leader wins "
                 f"(fair {100 * lead['fair_share']:.0f}%)", pct(lead["win_rate"])])
    rows.append(["no winner", pct(body["ties"])])
    m = body["margin"]
    rows.append(["final margin", f"{num(m['mean'], 1)} (sd {m['sd']:.1f}, "
                 f"{m['min']}..{m['max']})"])
    page.table(Grid("game", [Column("statistic"), Column("value (95%)", right=True)], rows))
    counts = body["scoring"]["counts"]
    plays = body["scoring"]["plays"]
    if plays:
        top = sorted(counts.items(), key=lambda kv: -kv[1])[:8]
        shown = ", ".join(f"{k}: {100 * v / plays:.1f}%" for k, v in
                          sorted(top, key=lambda kv: int(kv[0])))
        page.print(f"scoring counts ({plays} scoring plays): {shown}")
