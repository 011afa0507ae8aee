"""A hint for the seat to move (``GET /api/games/{id}/hint``): the search's best
move from the seat's own view, as `bones play`'s ``?`` gives it
(:meth:`bones.games.game.GameSession.hint`).

Hints are for a person playing against bots, as take-backs are: at a table of
several people a hint would be help the others do not get (409).  A seat asks
at most :data:`bones.web.limits.BURST` times in
:data:`~bones.web.limits.WINDOW` seconds (429); it runs in one of the
server's ``--jobs`` workers, without the game's lock (the table is served
while it thinks), and its search stops when the page asking goes away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bones.web.errors import ApiError
from bones.web.limits import limit

if TYPE_CHECKING:  # pragma: no cover
    from bones.web.games import WebGame


def hint(game: WebGame, key: str | None) -> dict[str, Any]:
    """The hint for ``key``'s seat: ``{"hint": text, "move": notation}``."""
    with game.held() as session:
        seat = game.seat_of(key)
        if not session.is_human(seat):  # the host handed the seat to a bot
            raise ApiError(409, "a bot plays your seat now: a hint is for your own turn")
        if len(game.seat_hashes) != 1 or len(session.human_seats) != 1:
            raise ApiError(409, "hints are for games against bots only (one person at the table)")
        hand = session.hand
        if session.over or hand is None or hand.over or hand.turn != seat:
            raise ApiError(409, "a hint is for your turn: it is not your turn now")
        limit(game, "hint", seat)
        think = session.hint_thinking()
    # off the game's and the save's locks, as a bot thinks: the table is served meanwhile
    text = think()
    return {"hint": text, "move": text.split(" ", 1)[0]}


__all__ = ["hint"]
