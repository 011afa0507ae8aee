"""`bones play`: a game at the terminal against bots or friends, saved after every move.

This module only reads the command line; the game itself is
:class:`bones.engine.game.GameSession` and its turn loop :func:`bones.cli.turns.run`,
drawn by :mod:`bones.cli.render`.
"""

from __future__ import annotations

import shlex
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Optional

import typer

_HELP = """Play a variant at the terminal against bots (or friends at the same keyboard).

NAME-or-FILE is a built-in variant (see `bones list`) or a variant file.
Without options: two players (or the variant's smallest table), you in seat 0
against the strongest bot.  The game is saved after every move, by default under
$XDG_DATA_HOME/bones/saves/ (~/.local/share/bones/saves/); Ctrl-C, end of input
or `q` stops it, and `bones play --resume FILE` goes on exactly where it stopped.
Moves may be piped on standard input, one per line.

At the prompt: a move's number or its notation (6-4@E, draw, pass, or a bare
tile when it fits one place); ? a hint, h the hand's history, r the rules,
u take back your last move (against bots), q save and quit.

Exit codes: 0 the game finished or was stopped and saved; 1 a problem (an
invalid variant file, a save that cannot be resumed or written); 2 a usage error.
"""

_SETUP_OPTIONS = ("--players", "--teams", "--seat", "--humans", "--bots", "--level", "--seed", "--save")


def register(app: typer.Typer) -> None:
    app.command("play", help=_HELP)(play_command)


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(f"bones play: {message}", err=True)
    return typer.Exit(code)


def play_command(
    variant: Optional[str] = typer.Argument(None, metavar="NAME-or-FILE",
                                            help="A built-in variant or a variant file."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players."),
    teams: bool = typer.Option(False, "--teams", help="Play in two partnerships (seats 0+2 v 1+3)."),
    seat: Optional[int] = typer.Option(None, "--seat", help="Your seat, from 0 (default 0)."),
    humans: Optional[int] = typer.Option(
        None, "--humans", help="Players at this keyboard, in seats --seat, --seat+1, ... "
        "(default 1; 0 watches bots play; 2 or more: hot-seat)."),
    bots: Optional[str] = typer.Option(
        None, "--bots", help="Bots for the other seats in seat order, comma-separated "
        "(e.g. greedy,search:iterations=200); overrides --level."),
    level: Optional[str] = typer.Option(
        None, "--level", help="easy (greedy), medium (heuristic) or hard (search, the default)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the deals and the bots "
                                       "(default: a fresh one, shown and saved)."),
    tiles: str = typer.Option("ascii", "--tiles", help="ascii ([3|5]) or unicode "
                              "(domino glyphs; double-six sets only)."),
    no_color: bool = typer.Option(False, "--no-color", help="No colours (NO_COLOR is honoured too)."),
    save: Optional[Path] = typer.Option(None, "--save", help="Save the game to this file "
                                       "(it must not exist yet).", metavar="FILE"),
    delay: Optional[float] = typer.Option(
        None, "--delay", help="Seconds to pause after each bot move "
        "(default 0.5 at a terminal, 0 otherwise).", metavar="SECONDS"),
    resume: Optional[Path] = typer.Option(None, "--resume", help="Go on with a saved game.",
                                          metavar="FILE"),
) -> None:
    from bones.engine.game import GameError, GameSession
    from bones.engine.record import RecordError, check_record_file
    from bones.engine.saves import SaveError, save_lock

    given = {"--players": players, "--teams": teams or None, "--seat": seat, "--humans": humans,
             "--bots": bots, "--level": level, "--seed": seed, "--save": save}
    if tiles not in ("ascii", "unicode"):
        raise _fail(f"--tiles must be ascii or unicode, not '{tiles}'", 2)
    if delay is not None and delay < 0:
        raise _fail("--delay must be 0 or more seconds", 2)

    if resume is not None:
        if variant is not None:
            raise _fail("--resume takes no variant: the save holds it", 2)
        clash = [name for name in _SETUP_OPTIONS if given[name] is not None and name != "--bots"]
        if clash:
            raise _fail(f"{clash[0]} cannot change a saved game; give only --resume FILE "
                        "(with --tiles, --no-color, --delay or --bots if you like)", 2)
        if not resume.exists():
            raise _fail(f"{resume}: no such file", 2)
        trusted = [b.strip() for b in bots.split(",")] if bots else []
        with ExitStack() as held:
            try:
                check_record_file(resume)  # before a lock file is made beside it
                held.enter_context(save_lock(resume))
                session = GameSession.resume(resume, trusted)
            except (GameError, SaveError, RecordError) as err:
                raise _fail(str(err), 1) from None
            ui = _make_ui(session, tiles, no_color, delay)
            if session.over:
                ui.start(session, True)
                ui.message("this game is already over", "note")
                ui.show_match_end(session)
                return
            _play(session, ui, resumed=True)
        return
    else:
        if variant is None:
            raise _fail("name a variant (see bones list) or a variant file, or give --resume FILE", 2)
        loaded = _load(variant)
        if save is not None and save.exists():
            raise _fail(f"{save} already exists: resume it with --resume {shlex.quote(str(save))}, "
                        "or choose another --save file", 2)
        if bots is not None and not bots.strip():
            raise _fail("--bots is empty (write bots like greedy,search)", 2)
        bot_list = [b.strip() for b in bots.split(",")] if bots else None
        if bot_list is not None and not all(bot_list):
            raise _fail(f"--bots: an empty bot name in '{bots}'", 2)
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
                bots=bot_list, level=level or "hard", seed=seed, save_path=save, source=variant)
        except GameError as err:
            raise _fail(str(err), 2) from None

    ui = _make_ui(session, tiles, no_color, delay)
    try:
        with session.new_save():
            _play(session, ui)
    except GameError as err:
        raise _fail(str(err), 1) from None


def _make_ui(session, tiles: str, no_color: bool, delay: float | None):  # type: ignore[no-untyped-def]
    from bones.cli.render import TerminalUI, TileFace, TileStyleError, make_console

    try:
        face = TileFace(tiles == "unicode", session.rules.tiles.highest)
    except TileStyleError as err:
        raise _fail(str(err), 2) from None
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if delay is None:
        delay = 0.5 if interactive and session.human_seats else 0.0
    console = make_console(no_color, interactive)
    return TerminalUI(console, interactive=interactive, face=face, delay=delay)


def _load(ref: str):  # type: ignore[no-untyped-def]
    from bones.cli.options import variant_or_exit

    # a file that exists but is wrong is a problem found (1); a name or
    # path that names nothing is a usage error (2)
    return variant_or_exit("play", ref)


def _play(session, ui, resumed: bool = False) -> None:  # type: ignore[no-untyped-def]
    from bones.cli.turns import FINISHED, run
    from bones.engine.game import GameError

    where = shlex.quote(str(session.save_path))
    try:
        outcome = run(session, ui, resumed)
    except (EOFError, KeyboardInterrupt) as stop:
        why = "input ended" if isinstance(stop, EOFError) else "interrupted"
        ui.console.print()
        ui.message(f"{why}: the game is saved in {session.save_path}")
        ui.message(f"resume it with: bones play --resume {where}")
        return
    except GameError as err:
        raise _fail(str(err), 1) from None
    if outcome != FINISHED:
        ui.message(f"game saved in {session.save_path}")
        ui.message(f"resume it with: bones play --resume {where}")
