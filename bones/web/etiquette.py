"""The table's etiquette: resigning the match and leaving the table.

* ``POST /api/games/{id}/resign`` (a seat's key): the seat resigns the match.
  It ends at once, won by the other side (of more than two sides, by the one
  with the most points; a tie among them is a draw), the hand in play left
  unfinished.  The save records it (``meta.play.resigned``), every seat's log
  shows it, and the series counts the match as any other
  (:func:`bones.web.series.wins_after`); a rematch is offered as after any
  match.  409 when the match is over already.
* ``POST /api/games/{id}/leave`` (a seat's key): the person leaves the table
  for good.  A bot (:data:`LEAVE_BOT`) plays the seat to the match's end, the
  seat's key stops working (403, "you left this table"), and the person takes
  no part in rematches.  The save records it (``meta.play.left``) and every
  seat's log shows it.  When the last person at the table leaves a match in
  play, nobody is left to play it: the match ends as their resignation.

* ``POST /api/games/{id}/seats/{seat}/link`` (the host): a new link for a
  person's seat, for a host who no longer has it (another browser, a
  cleared one).  The seat's old link stops working (403); the new key is shown
  once, as at the game's creation.  404 for no such seat, 409 for a bot's seat
  or a seat whose person left the table.

All run under the game's lock (:meth:`bones.web.games.WebGame.held`), like a move.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from bones.web import tokens
from bones.web.errors import ApiError
from bones.web.levels import level_of

if TYPE_CHECKING:  # pragma: no cover
    from bones.web.games import GameStore, WebGame

#: The bot that plays the seat of a person who left.
LEAVE_BOT = "heuristic"


def resign(game: WebGame, key: str | None) -> dict[str, Any]:
    """The seat of ``key`` resigns the match; its view after it."""
    from bones.games.game import GameError

    with game.held() as session:
        seat = game.seat_of(key)
        if session.over:
            raise ApiError(409, "the match is over already: there is nothing to resign")
        try:
            session.resign(seat, time.time())
        except GameError as err:
            raise ApiError(409, str(err)) from None
        game.saved()
        game.stamp += 1
        return game.seat_view(session, seat)


def leave(store: GameStore, game: WebGame, key: str | None) -> dict[str, Any]:
    """The person of ``key`` leaves the table: a bot takes the seat, the key stops working."""
    from bones.games.game import GameError

    with game.held() as session:
        seat = game.seat_of(key)
        try:
            if not session.over and set(game.seat_hashes) == {seat}:
                # the last person leaves: nobody is left to play the match
                session.resign(seat, time.time())
            entry = session.leave(seat, LEAVE_BOT, time.time())
        except GameError as err:
            raise ApiError(409, str(err)) from None
        game.left_hashes.append(game.seat_hashes.pop(seat))
        game.seen.pop(seat, None)
        game.accepted.discard(seat)
        game.saved()
        game.stamp += 1
        store.write_index(game)
        return {"left": True, "seat": seat, "bot": entry["bot"], "level": level_of(entry["bot"]),
                "over": session.over}


def new_link(store: GameStore, game: WebGame, seat: int) -> str:
    """A new key for the person's ``seat`` (the old one stops working); the key."""
    with game.held() as session:
        if not 0 <= seat < session.players:
            raise ApiError(404, f"no seat {seat}: the seats are 0 to {session.players - 1}")
        if any(entry["seat"] == seat for entry in session.left):
            raise ApiError(409, f"seat {seat}'s person left the table: a bot plays it to the "
                                "match's end, and a seat left has no link")
        if seat not in game.seat_hashes:
            raise ApiError(409, f"seat {seat} is a bot's seat: only a person's seat has a link")
        key = tokens.new_key()
        game.seat_hashes[seat] = tokens.key_hash(key)
        game.seen.pop(seat, None)
        store.write_index(game)
        game.stamp += 1
        return key


def notices_json(session: Any, viewer: int) -> list[dict[str, Any]]:
    """The resignation and the departures of this match, for every seat's log:
    ``{"kind": "resign"|"leave", "seat", "who", "hand", "ply", "bot", "level"}``
    (``level``: the bot's level as the seat pickers offer it, or None)."""
    out = []
    for entry in session.left:
        out.append({"kind": "leave", "seat": entry["seat"], "hand": entry["hand"], "ply": entry["ply"],
                    "who": _who(entry, viewer), "bot": entry["bot"], "level": level_of(entry["bot"])})
    if session.resigned is not None:
        entry = session.resigned
        out.append({"kind": "resign", "seat": entry["seat"], "hand": entry["hand"],
                    "ply": entry["ply"], "who": _who(entry, viewer),
                    "bot": None, "level": None})
    out.sort(key=lambda n: (n["hand"], n["ply"], n["kind"] == "leave"))
    return out


def _who(entry: dict[str, Any], viewer: int) -> str:
    if entry["seat"] == viewer:
        return "You"
    return str(entry.get("name") or f"Seat {entry['seat']}")


__all__ = ["LEAVE_BOT", "leave", "new_link", "notices_json", "resign"]
