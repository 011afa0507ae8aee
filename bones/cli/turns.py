"""The turn loop of `bones play`: whose turn it is, the prompt's keys, the hand and match ends.

:func:`run` drives a :class:`bones.engine.game.GameSession` and talks to the
player only through a :class:`PlayUI` (the terminal one is
:class:`bones.cli.render.TerminalUI`; tests may drive it with another).
"""

from __future__ import annotations

from typing import Protocol

from bones.engine.game import Event, GameError, GameSession, Option
from bones.engine.hand import Hand
from bones.engine.match import HandSummary


class PlayUI(Protocol):
    """What :func:`run` needs from a user interface."""

    def start(self, session: GameSession, resumed: bool) -> None: ...
    def show_table(self, session: GameSession, seat: int) -> None: ...
    def show_options(self, session: GameSession, options: list[Option]) -> None: ...
    def read(self, prompt: str) -> str: ...  # raises EOFError when input ends
    def message(self, text: str, style: str = "") -> None: ...
    def show_event(self, session: GameSession, event: Event) -> None: ...
    def show_hand_end(self, session: GameSession, hand: Hand, summary: HandSummary) -> None: ...
    def show_match_end(self, session: GameSession) -> None: ...
    def show_history(self, session: GameSession) -> None: ...
    def show_rules(self, session: GameSession) -> None: ...
    def handoff(self, session: GameSession, seat: int) -> None: ...
    def between_hands(self, session: GameSession) -> None: ...
    def bot_pause(self) -> None: ...


FINISHED, STOPPED = "finished", "stopped"


def run(session: GameSession, ui: PlayUI, resumed: bool = False) -> str:
    """Play until the match ends (:data:`FINISHED`) or the player quits
    (:data:`STOPPED`; the game is saved).  EOF and Ctrl-C propagate to the
    caller after the last move has been saved."""
    ui.start(session, resumed)
    session.save()
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
            ui.handoff(session, seat)
            at_keyboard = seat
        if _human_turn(session, ui, seat) == STOPPED:
            return STOPPED
        _hand_ended(session, ui)
    return FINISHED


def _hand_ended(session: GameSession, ui: PlayUI) -> bool:
    if session.finished is None:
        return False
    hand, summary = session.finished
    session.finished = None
    ui.show_hand_end(session, hand, summary)
    if session.over:
        ui.show_match_end(session)
    else:
        ui.between_hands(session)
    return True


def _human_turn(session: GameSession, ui: PlayUI, seat: int) -> str:
    ui.show_table(session, seat)
    options = session.options()
    ui.show_options(session, options)
    while True:
        who = session.seat_name(seat)
        text = ui.read("Your move: " if who == "You" else f"{who}, your move: ")
        word = text.strip().lower()
        if word in ("q", "quit"):
            return STOPPED
        if word in ("?", "hint"):
            ui.message(f"hint: {session.hint()}", "hint")
            continue
        if word in ("h", "history"):
            ui.show_history(session)
            continue
        if word in ("r", "rules"):
            ui.show_rules(session)
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
        text = ui.read("points you claim for this play (Enter for none): ").strip()
        if not text:
            return 0
        if text.isdigit():
            return int(text)
        ui.message(f"'{text}' is not a number of points: type a whole number like 10, or Enter for none",
                   "error")



__all__ = ["FINISHED", "STOPPED", "PlayUI", "run"]
