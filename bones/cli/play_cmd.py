"""`bones play`: a game at the terminal against bots or friends, saved after every move.

This module only reads the command line; the game itself is
:class:`bones.games.game.GameSession` and its turn loop :func:`bones.cli.turns.run`,
drawn by :mod:`bones.cli.render`.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import typer

from bones.bots import BotError, delay_problem, parse_bots
from bones.bots.levels import LEVELS, LevelError, find_level
from bones.cli.options import Players, Seed, Teams, variant_or_exit
from bones.cli.shared import ctrl_c_raises

_HELP = """Play a variant at the terminal against bots (or friends at the same keyboard).

NAME-or-FILE is a built-in variant (see `bones list`) or a variant file.
Without options: two players (or the variant's smallest table), you in seat 0
against the strongest bot (the Expert level); --level NAME picks the bots'
level (`bones bots` lists the levels).  The game is saved after every move, by default under
$XDG_DATA_HOME/bones/saves/ (~/.local/share/bones/saves/); Ctrl-C, end of input
or `q` stops it, and `bones play --resume FILE` goes on exactly where it stopped
(`--resume` alone lists the saves, `--continue` resumes the newest unfinished one).
Moves may be piped on standard input, one per line.

At the prompt: a move's number or its notation (6-4@E, draw, pass, or a bare
tile when it fits one place); ? a hint, h the hand's history, r the rules,
u take back your last move (against bots), q save and quit (at every prompt),
help the keys.  The tile as printed ([6|4]) is accepted.  A forced draw or pass
is made for you and shown (--ask-forced to type it yourself).

Exit codes: 0 the game finished or was stopped and saved; 1 a problem (an
invalid variant file, a save that cannot be resumed or written); 2 a usage error.
"""

# the levels as --help shows them: "Novice (random), ..., Expert (search)"
_LEVELS_HELP = ", ".join(f"{level.name} ({level.bot})" for level in LEVELS)

_SETUP_OPTIONS = ("--players", "--teams", "--seat", "--humans", "--level", "--seed", "--save")


def register(app: typer.Typer) -> None:
    app.command("play", help=_HELP)(play_command)


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(f"bones play: {message}", err=True)
    return typer.Exit(code)


@dataclass
class _Screen:
    """How the game is shown: chosen on every run, never saved."""

    tiles: str
    no_color: bool
    delay: float | None
    ask_forced: bool
    json: bool


def play_command(
    variant: Optional[str] = typer.Argument(
        None, metavar="NAME-or-FILE", help="A built-in variant or a variant file; with "
        "--resume, the save to go on with."),
    players: Players = None,
    teams: Teams = False,
    seat: Optional[int] = typer.Option(None, "--seat", help="Your seat, from 0 (default 0)."),
    humans: Optional[int] = typer.Option(
        None, "--humans", help="Players at this keyboard, in seats --seat, --seat+1, ... "
        "(default 1; 0 watches bots play; 2 or more: hot-seat)."),
    bots: Optional[str] = typer.Option(
        None, "--bots", help="Bots for the other seats in seat order, comma-separated "
        "(e.g. greedy,search:iterations=200); a shorter list repeats, or with --level "
        "the level's bot takes the seats after it.  With --resume: the bots of the save "
        "you trust to start, if they are not built-in."),
    level: Optional[str] = typer.Option(
        None, "--level", metavar="NAME", help="The bots' level, weakest first: "
        + _LEVELS_HELP + " (the default; any case; `bones bots` says how each plays)."),
    seed: Seed = None,
    tiles: str = typer.Option("ascii", "--tiles", help="ascii ([3|5]) or unicode "
                              "(domino glyphs; double-six sets only)."),
    no_color: bool = typer.Option(False, "--no-color", help="No colours (NO_COLOR is honoured too)."),
    save: Optional[Path] = typer.Option(None, "--save", help="Save the game to this file "
                                       "(it must not exist yet).", metavar="FILE"),
    delay: Optional[float] = typer.Option(
        None, "--delay", help="Seconds to pause after each bot move "
        "(default 0.5 at a terminal, 0 otherwise).", metavar="SECONDS"),
    resume: bool = typer.Option(
        False, "--resume", help="Go on with the saved game FILE (bones play --resume FILE); "
        "without FILE, list the saved games."),
    continue_: bool = typer.Option(False, "--continue", help="Go on with the newest "
                                   "unfinished saved game."),
    ask_forced: bool = typer.Option(
        False, "--ask-forced", help="Ask even when your only move is a draw or a pass "
        "(by default it is made for you and shown)."),
    json_out: bool = typer.Option(False, "--json", help="When the game ends or stops, print "
                                  "its result as one line of JSON (the last line of output)."),
) -> None:
    if tiles not in ("ascii", "unicode"):
        raise _fail(f"--tiles must be ascii or unicode, not '{tiles}'", 2)
    if delay is not None:
        problem = delay_problem(delay, "--delay")
        if problem is not None:
            raise _fail(problem, 2)
    screen = _Screen(tiles, no_color, delay, ask_forced, json_out)
    given = {"--players": players, "--teams": teams or None, "--seat": seat, "--humans": humans,
             "--level": level, "--seed": seed, "--save": save}
    if resume or continue_:
        clash = [name for name in _SETUP_OPTIONS if given.get(name) is not None]
        if clash:
            raise _fail(f"{clash[0]} cannot change a saved game; give only --resume FILE "
                        "(with --tiles, --no-color, --delay or --bots if you like)", 2)
        if resume and continue_:
            raise _fail("--resume and --continue exclude each other", 2)
        path = _continue_path(variant) if continue_ else (
            Path(variant) if variant is not None else None)
        if path is None:
            _list_saves()
            return
        _resume_game(path, bots, screen)
        return
    if variant is None:
        raise _fail("name a variant (see bones list) or a variant file, or give --resume FILE", 2)
    if level is not None:
        try:
            find_level(level)
        except LevelError as err:
            raise _fail(f"--level: {err}", 2) from None
    _new_game(variant, players, teams, seat, humans, bots, level, seed, save, screen)


def _new_game(ref: str, players: int | None, teams: bool, seat: int | None, humans: int | None,
              bots: str | None, level: str | None, seed: int | None, save: Path | None,
              screen: _Screen) -> None:
    from bones.games.game import DEFAULT_LEVEL, GameError, GameSession

    loaded = _load(ref)
    if save is not None and os.path.lexists(save):
        raise _fail(f"{save} already exists: resume it with --resume {shlex.quote(str(save))}, "
                    "or choose another --save file", 2)
    if save is not None and not save.absolute().parent.is_dir():
        # only the default save folder is made: a mistyped folder is never created
        raise _fail(f"--save {save}: no such folder {save.parent}", 2)
    bot_list = _bot_list(bots) if bots is not None else None
    if teams and players is None:
        # --teams alone means the smallest table the variant plays in partnerships
        partnered = sorted(set(loaded.players.partnerships.player_counts)
                           & set(loaded.players.counts))
        if loaded.players.partnerships.kind != "none" and partnered:
            players = partnered[0]
    try:
        session = GameSession.new(
            loaded, players=players, teams=True if teams else None,
            seat=0 if seat is None else seat, humans=1 if humans is None else humans,
            bots=bot_list, level=level or DEFAULT_LEVEL, level_given=level is not None,
            seed=seed, save_path=save, source=ref)
    except GameError as err:
        raise _fail(str(err), 2) from None
    ui = _make_ui(session, screen)
    try:
        with session.new_save():
            _play(session, ui, screen)
    except GameError as err:
        raise _fail(str(err), 1) from None


def _bot_list(text: str) -> list[str]:
    """The bots of --bots, with the messages `bones simulate --bots` gives."""
    try:
        return [bot.name for bot in parse_bots(text)]
    except BotError as err:
        raise _fail(str(err), 2) from None


def _resume_game(path: Path, bots: str | None, screen: _Screen) -> None:
    from bones.games.game import GameError, GameSession
    from bones.games.record import RecordError, check_record_file
    from bones.games.saves import SaveError, save_lock

    if not path.exists():
        raise _fail(f"{path}: no such file", 2)
    trusted = [b.strip() for b in bots.split(",")] if bots else []
    with ExitStack() as held:
        try:
            check_record_file(path)  # before a lock file is made beside it
            held.enter_context(save_lock(path))
            session = GameSession.resume(path, trusted)
        except (GameError, SaveError, RecordError) as err:
            raise _fail(str(err), 1) from None
        # a person's seat the host of `bones serve` handed to a bot (meta.play.handed)
        # comes back to the person: at the terminal, to whoever plays the human seats
        handed = {k: session.config.seats[k] for k in session.handed}
        if not session.over:
            session.hand_back_all()
        ui = _make_ui(session, screen)
        if handed and not session.over:
            for seat, bot in handed.items():
                ui.message(f"seat {seat} was handed to the bot {bot} in bones serve: "
                           "it is played at this keyboard again", "note")
        if session.over:
            ui.start(session, True)
            ui.message("this game is already over", "note")
            ui.show_match_end(session)
            _print_json(session, screen, "finished")
            return
        _play(session, ui, screen, resumed=True)


def _continue_path(ref: str | None) -> Path:
    from bones.games.savelist import list_saves
    from bones.games.saves import default_save_dir

    if ref is not None:
        raise _fail("--continue takes no variant or file: it resumes the newest unfinished save", 2)
    for entry in list_saves():
        if entry.problem is None and not entry.finished and entry.holder is None:
            return entry.path
    raise _fail(f"no unfinished game to continue in {default_save_dir()}", 1)


def _list_saves() -> None:
    from bones.games.savelist import list_saves
    from bones.games.saves import default_save_dir

    folder = default_save_dir()
    saves = list_saves(folder)
    if not saves:
        typer.echo(f"no saved games in {folder}")
        return
    typer.echo(f"saved games in {folder}, newest first "
               "(bones play --resume FILE goes on with one; --continue, the newest unfinished):")
    for entry in saves:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.modified))
        if entry.problem is not None:
            state = f"cannot be resumed: {entry.problem}"
        else:
            side = "teams" if entry.teams else "scores"
            state = (f"{entry.variant}, {entry.players} players, hand {entry.hands}, "
                     f"{side} {'-'.join(str(s) for s in entry.scores)}, "
                     + ("finished" if entry.finished else "unfinished"))
            for seat in entry.handed:
                state += f", seat {seat} handed to {entry.seats[seat]}"
            if entry.holder is not None:
                state += f", in use by process {entry.holder.pid}"
        typer.echo(f"  {entry.path.name}")
        typer.echo(f"      {when}  {state}")


def _make_ui(session, screen: _Screen):  # type: ignore[no-untyped-def]
    from bones.cli.render import TerminalUI, make_console
    from bones.seat.picture import TileFace, TileStyleError

    try:
        face = TileFace(screen.tiles == "unicode", session.rules.tiles.highest)
    except TileStyleError as err:
        raise _fail(str(err), 2) from None
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    delay = screen.delay
    if delay is None:
        delay = 0.5 if interactive and session.human_seats else 0.0
    console = make_console(screen.no_color, interactive)
    return TerminalUI(console, interactive=interactive, face=face, delay=delay)


def _load(ref: str):  # type: ignore[no-untyped-def]

    # a file that exists but is wrong is a problem found (1); a name or
    # path that names nothing is a usage error (2)
    return variant_or_exit("play", ref)


def _play(session, ui, screen: _Screen, resumed: bool = False) -> None:  # type: ignore[no-untyped-def]
    from bones.bots.stop import ctrl_c_stops
    from bones.cli.turns import FINISHED, run
    from bones.games.game import GameError

    where = shlex.quote(str(session.save_path))
    try:
        # Ctrl-C during the game saves it and says how to go on, at once even
        # while a bot or the hint thinks (bones.bots.stop)
        with ctrl_c_raises(), ctrl_c_stops():
            outcome = run(session, ui, resumed, ask_forced=screen.ask_forced)
    except (EOFError, KeyboardInterrupt) as stop:
        why = "input ended" if isinstance(stop, EOFError) else "interrupted"
        ui.console.print()
        ui.message(f"{why}: the game is saved in {session.save_path}")
        ui.message(f"resume it with: bones play --resume {where}")
        _print_json(session, screen, "stopped")
        return
    except GameError as err:
        raise _fail(str(err), 1) from None
    if outcome != FINISHED:
        ui.message(f"game saved in {session.save_path}")
        ui.message(f"resume it with: bones play --resume {where}")
    _print_json(session, screen, "finished" if outcome == FINISHED else "stopped")


def _print_json(session, screen: _Screen, state: str) -> None:  # type: ignore[no-untyped-def]
    if not screen.json:
        return

    match = session.match
    owners = session.rules.owners
    typer.echo(json.dumps({
        "save": str(session.save_path),
        "variant": session.variant.name,
        "seed": session.seed,
        "players": session.rules.players,
        "teams": session.rules.teams,
        "seats": list(session.config.seats),
        "state": state,
        "hands": len(match.history),
        "scores": list(match.scores[:owners]),
        "winner": match.winner if match.game_over and match.winner >= 0 else None,
    }))
