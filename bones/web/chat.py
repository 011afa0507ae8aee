"""The chat of a web table: short plain-text messages from the seats.

* Only a seat's key posts (``POST /api/games/{id}/chat``), as that seat: the
  message carries the seat and the name it has then, never anything the
  client claims about who it is.
* A message is 1 to :data:`~bones.games.people.MAX_MESSAGE` printable
  characters, stored in the save (:mod:`bones.games.people`) and shown as
  text, never as markup.
* A message never carries tiles: while a hand is in play a message that
  names a tile (``6-4``, ``[6|4]``, ``0 4``, ``six-four``...: the one filter
  of names and messages, :func:`bones.games.talk.table_talk`) is refused
  (422), so nobody tells the table what they hold; when no hand is in play
  the hands are face up anyway.
* Each key may post :data:`~bones.web.people.BURST` messages in
  :data:`~bones.web.people.WINDOW` seconds; more are refused with 429 and
  ``Retry-After``, counted per game.

:func:`feed` is the read-only form of the chat (names and text, no key
needed beyond the reader's own): what a spectator's page could read.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from bones.web.errors import ApiError
from bones.web.limits import limit

if TYPE_CHECKING:  # pragma: no cover
    from bones.games.game import GameSession
    from bones.web.games import WebGame

#: The quick reactions the page offers as one-click messages.
REACTIONS = ("good game", "nice play", "well played", "oops", "thanks")


def names_a_tile(session: GameSession, text: str) -> str | None:
    """The tile of the game's set ``text`` names (``6-4``, ``[6|4]``, ``0 4``,
    ``six-four``...: :func:`bones.games.talk.table_talk`, the filter of names
    too), or None."""
    from bones.games.talk import table_talk

    return table_talk(text, max(session.rules.tiles.high))


def messages_json(session: GameSession) -> list[dict[str, Any]]:
    """The chat, oldest first: its number (from 1), seat, name (or null), text, time."""
    return [{"n": m.get("n", i), "seat": m["seat"], "name": m["name"], "text": m["text"], "at": m["at"]}
            for i, m in enumerate(session.chat, 1)]


def post(game: WebGame, key: str | None, value: Any) -> dict[str, Any]:
    """Post ``value`` as the message of ``key``'s seat (read under the game's lock,
    where no rematch can move it meanwhile); the seat's view after it."""
    from bones.games.people import MAX_CHAT, PeopleError, new_message

    try:
        text = new_message(value)
    except PeopleError as err:
        raise ApiError(400, str(err)) from None
    with game.held() as session:
        seat = game.seat_of(key)
        hand = session.hand
        tile = names_a_tile(session, text) if hand is not None and not hand.over \
            and not session.over else None
        if tile is not None:
            raise ApiError(422, "a message may not name a tile while a hand is in play "
                                f"(no table talk): it reads as {tile}")
        limit(game, "chat", seat)
        number = session.chat[-1].get("n", len(session.chat)) + 1 if session.chat else 1
        session.chat.append({"n": number, "seat": seat, "name": session.names[seat], "text": text,
                             "at": round(time.time(), 3)})
        del session.chat[:-MAX_CHAT]
        session.save()
        game.saved()
        game.stamp += 1
        return game.seat_view(session, seat)


def feed(game: WebGame, after: int = 0) -> dict[str, Any]:
    """The chat as anyone at the table may read it: messages after number ``after``."""
    with game.held() as session:
        out = messages_json(session)
    return {"id": game.id, "stamp": game.stamp, "messages": [m for m in out if m["n"] > after],
            "reactions": list(REACTIONS)}


__all__ = ["REACTIONS", "feed", "messages_json", "names_a_tile", "post"]
