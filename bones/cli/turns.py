"""The turn loop of `bones play`: whose turn it is, the prompt's keys, the hand and match ends.

:func:`run` drives a :class:`bones.games.game.GameSession` and talks to the
player only through a :class:`PlayUI` (the terminal one is
:class:`bones.cli.render.TerminalUI`; tests may drive it with another).
"""

from __future__ import annotations

from typing import Protocol

from bones.engine.handlike import HandLike
from bones.engine.match import HandSummary
from bones.engine.moves import DRAW
from bones.games.game import Event, GameError, GameSession, Option
from bones.games.numbers import ascii_number


class PlayUI(Protocol):
    """What :func:`run` needs from a user interface."""

    def start(self, session: GameSession, resumed: bool) -> None: ...
    def show_table(self, session: GameSession, seat: int) -> None: ...
    def show_options(self, session: GameSession, options: list[Option]) -> None: ...
    def read(self, prompt: str) -> str: ...  # raises EOFError when input ends
    def message(self, text: str, style: str = "", prose: bool = False) -> None: ...
    def show_event(self, session: GameSession, event: Event) -> None: ...
    def show_hand_end(self, session: GameSession, hand: HandLike, summary: HandSummary) -> None: ...
    def show_match_end(self, session: GameSession) -> None: ...
    def show_history(self, session: GameSession) -> None: ...
    def show_rules(self, session: GameSession) -> bool: ...  # True: draw the table again
    def handoff(self, session: GameSession, seat: int) -> str: ...  # what was typed
    def between_hands(self, session: GameSession) -> str: ...  # what was typed ("" if nothing)
    def show_analysis(self, session: GameSession, number: int) -> None: ...  # `a` after a hand
    def bot_pause(self) -> None: ...


FINISHED, STOPPED = "finished", "stopped"

QUIT_WORDS = ("q", "quit")
#: typed after a hand: its analysis (`bones analyse` of that hand)
ANALYSE_WORDS = ("a", "analyse", "analyze")
#: the keys of the move prompt, for `help`
KEYS = ("keys: a move's number, its notation (6-4@E, draw, pass) or the tile as shown "
        "([6|4]); ? a hint; h this hand's history; r the rules; u take back your last "
        "move; q save and quit (at any prompt); help these keys")


class _Quit(Exception):
    """`q` typed at a prompt other than the move prompt."""


def run(session: GameSession, ui: PlayUI, resumed: bool = False, ask_forced: bool = False) -> str:
    """Play until the match ends (:data:`FINISHED`) or the player quits
    (:data:`STOPPED`; the game is saved).  EOF and Ctrl-C propagate to the
    caller after the last move has been saved.  A human's only move, when
    it is a draw or a pass, is made for them and shown, unless
    ``ask_forced``."""
    ui.start(session, resumed)
    session.save()
    try:
        return _loop(session, ui, ask_forced)
    except _Quit:
        return STOPPED


def _loop(session: GameSession, ui: PlayUI, ask_forced: bool) -> str:
    at_keyboard = -1 if len(session.human_seats) > 1 else (session.human_seats or [-1])[0]
    while not session.over:
        hand = session.hand
        assert hand is not None and not hand.over
        seat = hand.turn
        if not session.is_human(seat):
            event = session.bot_move()
            ui.show_event(session, event)
            if _hand_ended(session, ui):
                continue
            ui.bot_pause()
            continue
        if seat != at_keyboard:
            _check_quit(ui.handoff(session, seat))
            at_keyboard = seat
        if not ask_forced and _forced(session, ui, seat):
            _hand_ended(session, ui)
            continue
        if _human_turn(session, ui, seat) == STOPPED:
            return STOPPED
        _hand_ended(session, ui)
    return FINISHED


def _check_quit(text: str) -> None:
    if text.strip().lower() in QUIT_WORDS:
        raise _Quit


def _forced(session: GameSession, ui: PlayUI, seat: int) -> bool:
    """Make a human's only move for them when it is a draw or a pass (and say so)."""
    options = session.options()
    if len(options) != 1 or options[0].move >= 0:
        return False
    why = "nothing fits" + ("" if options[0].move == DRAW else " and nothing can be drawn")
    ui.message(f"{session.seat_name(seat)}: {why}: {options[0].text} (forced)", "note")
    ui.show_event(session, session.play(options[0].move))
    return True


def _hand_ended(session: GameSession, ui: PlayUI) -> bool:
    if session.finished is None:
        return False
    hand, summary = session.finished
    session.finished = None
    ui.show_hand_end(session, hand, summary)
    if session.over:
        ui.show_match_end(session)
        return True
    number = summary.hand_number
    while True:
        reply = ui.between_hands(session)
        _check_quit(reply)
        if reply.strip().lower() not in ANALYSE_WORDS:
            return True
        ui.show_analysis(session, number)


def _human_turn(session: GameSession, ui: PlayUI, seat: int) -> str:
    ui.show_table(session, seat)
    options = session.options()
    ui.show_options(session, options)
    while True:
        who = session.seat_name(seat)
        text = ui.read("Your move: " if who == "You" else f"{who}, your move: ")
        word = text.strip().lower()
        if word in QUIT_WORDS:
            return STOPPED
        if word in ("help", "keys"):
            ui.message(KEYS, "note", prose=True)
            continue
        if word in ("?", "hint"):
            ui.message(f"hint: {session.hint()}", "hint")
            continue
        if word in ("h", "history"):
            ui.show_history(session)
            continue
        if word in ("r", "rules"):
            if ui.show_rules(session):  # a pager had the screen: the board comes back
                ui.show_table(session, seat)
                ui.show_options(session, options)
            continue
        if word in ("u", "undo"):
            try:
                undone = session.take_back()
            except GameError as err:
                ui.message(str(err), "error")
                continue
            ui.message(f"took back {undone} move{'s' * (undone != 1)}", "note")
            ui.show_table(session, seat)
            options = session.options()
            ui.show_options(session, options)
            continue
        try:
            move = session.parse(text)
        except GameError as err:
            ui.message(str(err), "error")
            continue
        claim = None
        if session.muggins and move >= 0:
            claim = _read_claim(ui)
        event = session.play(move, claim)
        ui.show_event(session, event)
        return "moved"


def _read_claim(ui: PlayUI) -> int:
    while True:
        text = ui.read("points you claim for this play (Enter for none, q to quit): ").strip()
        if not text:
            return 0
        points = ascii_number(text)
        if points is not None:
            return points
        _check_quit(text)
        shown = text if len(text) <= 20 else text[:17] + "..."
        ui.message(f"'{shown}' is not a number of points: type a whole number like 10, or Enter for none",
                   "error")


__all__ = ["FINISHED", "STOPPED", "PlayUI", "run"]
