"""`bones analyse FILE`: what each decision of a game cost, by the search."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from bones.cli.options import EXIT_PROBLEM, EXIT_USAGE, Json, Quiet, fail, missing_file

if TYPE_CHECKING:  # pragma: no cover
    from bones.games.analysis import Analysis, Decision, MoveValue

HELP = (
    "Analyse a game record or a save of bones play: for every decision of a seat (a move "
    "with a choice), the search's expected value of the move played and of the best move, "
    "judged from that seat's information only (its tiles, the table, the history: never the "
    "other hands), the points given away, and a summary: the biggest mistakes and the "
    "expected loss per hand.  A value is the seat's side's expected points from that move "
    "to the end of the hand less the best opposing side's; where the match is at stake "
    "(a variant with a target), each move also shows the side's probability of winning "
    "the match after the hand (the search's match value), and the moves are ranked by it "
    "(by points elsewhere): the best move, the mistakes and the figure shown first all "
    "use that one key.  Under a decision that was not the best move, a line says why in "
    "words (what the best move scores or blocks, what the move played gives away).  "
    "The same file, --seed and "
    "--budget give the same analysis.\n\n"
    "Exit codes: 0 analysed; 1 the file is not a readable record, or does not replay; "
    "2 usage error (a missing file, a seat that is not one, a bad value); 130 Ctrl-C."
)


def register(app: typer.Typer) -> None:
    app.command("analyse", help=HELP)(analyse_command)


def analyse_command(
    file: Path = typer.Argument(..., metavar="RECORD-or-SAVE",
                                help="A record written by bones, or a save of bones play (JSON)."),
    seat: Optional[list[int]] = typer.Option(
        None, "--seat", metavar="N", show_default=False,
        help="Analyse this seat (repeat for several; default: every human seat of a "
        "bones play save, or every seat when the record names none)."),
    budget: int = typer.Option(
        200, "--budget", "-b", min=1, max=100_000, metavar="WORLDS",
        help="Worlds the search samples per decision: more is slower and more precise."),
    seed: Optional[int] = typer.Option(
        None, "--seed", show_default=False,
        help="The seed of the search's draws (default: the record's seed, so the analysis "
        "of a decision is what the ? hint said there at the same budget)."),
    json_out: Json = False,
    quiet: Quiet = False,
) -> None:
    from bones.games.analysis import analyse, analysis_json
    from bones.games.record import RecordError, load_record

    problem = missing_file(str(file))
    if problem is not None:
        fail("analyse", problem, EXIT_USAGE)
    try:
        record = load_record(file)
    except RecordError as err:
        fail("analyse", _located(file, err), EXIT_PROBLEM)
    players = record.players
    for s in seat or ():
        if not 0 <= s < players:
            fail("analyse", f"--seat {s}: this game has seats 0 to {players - 1}", EXIT_USAGE)
    bar = _Bar(quiet)
    try:
        result = analyse(record, seat or None, budget, seed, progress=bar)
    except RecordError as err:
        bar.stop()
        fail("analyse", _located(file, err), EXIT_PROBLEM)
    except KeyboardInterrupt:
        bar.stop()
        raise typer.Exit(130) from None
    bar.stop()
    if json_out:
        typer.echo(json.dumps(analysis_json(result, str(file)), indent=2))
        return
    for line in report_lines(result, str(file)):
        typer.echo(line)


def _located(file: Path, err: Exception) -> str:
    message = (str(err).splitlines() or ["not a readable record"])[0]
    return message if message.startswith(str(file)) else f"{file}: {message}"


class _Bar:
    """A progress bar on standard error, only for a terminal (and not with --quiet)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet or not sys.stderr.isatty()
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.quiet:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(),
                                TimeRemainingColumn(), console=Console(stderr=True),
                                transient=True)
            self.task = self.bar.add_task("analysing", total=total)
            self.bar.start()
        self.bar.update(self.task, completed=done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


# ------------------------------------------------------------- the report


def _v(value: float) -> str:
    return f"{value:+.1f}"


def _move(v: MoveValue, by_win: bool = False) -> str:
    # the other moves to the same position are named with it: one move, one value
    name = " = ".join([v.notation, *(n for _, n in v.same)])
    if v.win is None:
        return f"{name} ({_v(v.value)})"
    if by_win:  # the figure that ranked first
        return f"{name} (wins {v.win:.1%}, {_v(v.value)})"
    return f"{name} ({_v(v.value)}, wins {v.win:.1%})"


def _gap(d: Decision) -> str | None:
    """How much better the best move is, in the decision's key (None: no
    better at the shown precision)."""
    from bones.games.analysis import BY_WIN

    if d.ranked_by == BY_WIN:
        win_loss = d.win_loss or 0.0
        return f"{win_loss:.1%} more to win" if round(win_loss * 100, 1) > 0 else None
    return f"{d.loss:.1f} better" if round(d.loss, 1) > 0 else None


def decision_line(d: Decision) -> str:
    """One decision: ``move 4, seat 1: played 5-5 (+7.2); best 0-0 (+20.4), 13.2
    better``; where the match-win probability ranks, it comes first and the
    gap is in it: ``best 0-0 (wins 41.0%, +20.4), 3.1% more to win``."""
    from bones.games.analysis import BY_WIN

    by_win = d.ranked_by == BY_WIN
    head = f"move {d.ply:>2}, seat {d.seat}: played {_move(d.played, by_win)}"
    if d.best_played:  # the best move, or one to the same position
        return f"{head}; the best move"
    gap = _gap(d)
    if gap is None:  # a move the search cannot tell apart from the best
        return f"{head}; as good as the best, {_move(d.best, by_win)}"
    mark = "  mistake" if d.mistake else ""
    return f"{head}; best {_move(d.best, by_win)}, {gap}{mark}"


def why_line(d: Decision) -> str | None:
    """Why the best move is better than the one played, in words
    (:func:`bones.games.why.because`), or None when the move played is as
    good: ``why: 6-0@N scores 10 (the ends add to 10); 0-0 leaves 5-5 open
    for a 20 to the next player``."""
    from bones.games.why import because

    if d.best_played or _gap(d) is None or d.best.reasons is None:
        return None
    return f"why: {because(d.best, d.played)}"


def report_lines(analysis: Analysis, source: str) -> list[str]:
    """The text report of ``bones analyse``."""
    seats = analysis.seats
    who = ", ".join(str(s) for s in seats)
    table = f"{analysis.players} players" + (" in two teams" if analysis.teams else "")
    wins = any(d.played.win is not None for d in analysis.decisions)
    lines = [f"{source}: {analysis.variant}, {table}; seat{'s' * (len(seats) != 1)} {who}, "
             f"{analysis.budget} worlds a decision, seed {analysis.seed}",
             "values: the mover's side's expected points to the end of the hand, "
             "less the best opposing side's"
             + ("; wins: its probability of winning the match, which ranks the moves"
                if wins else "")]
    for hand in analysis.hands:
        losses = ", ".join(f"seat {s} {hand.loss(s):.1f}" for s in seats)
        state = "" if hand.end is not None else " (unfinished)"
        lines.append(f"hand {hand.number}{state}: expected loss {losses}")
        for d in hand.decisions:
            lines.append("  " + decision_line(d))
            why = why_line(d)
            if why is not None:
                lines.append("      " + why)
    lines.append("summary:")
    hands = max(1, len(analysis.hands))
    for s in seats:
        mine = [d for d in analysis.decisions if d.seat == s]
        mistakes = sum(1 for d in mine if d.mistake)
        total = analysis.loss(s)
        given = (f", {analysis.win_loss(s):.1%} of the match given away" if wins else "")
        lines.append(f"  seat {s}: {len(mine)} decision{'s' * (len(mine) != 1)}, "
                     f"{mistakes} mistake{'s' * (mistakes != 1)}, expected loss "
                     f"{total:.1f} points ({total / hands:.1f} a hand){given}")
    biggest = analysis.biggest()
    if biggest:
        lines.append("biggest mistakes:")
        for d in biggest:
            lines.append(f"  hand {d.hand}, {decision_line(d).removesuffix('  mistake')}")
    else:
        lines.append("no mistakes")
    return lines
