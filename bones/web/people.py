"""The people at a web table: names, presence, and seats handed to bots and back.

* A person names their seat with its own key (``POST /api/games/{id}/name``);
  a key names only its own seat.  The name is stored in the save
  (:mod:`bones.games.people`) and shown at the table as plain text.
* The server notes when each seat's key last asked for anything; a seat
  whose key asked within :data:`CONNECTED_SECONDS` is *connected* (its page
  long-polls every :data:`~bones.web.routes.LONG_POLL` seconds at most), one
  that ever asked or has a name has *joined*.  Only the host reads presence
  (``GET /api/games/{id}/people``).
* The host may hand a person's seat to a built-in bot (checked by
  :func:`bones.web.games.check_bot` within ``BOT_LIMITS``) and back
  (``POST /api/games/{id}/seats/{seat}``); the person's key stays valid
  throughout, so their link works again once the seat is handed back.  The
  save records the handed seats (``meta.play.handed``): opening it again
  (:meth:`bones.web.games.GameStore.open_save`) gives such a seat a link, as
  any person's seat, still played by the bot until the host hands it back.

Every operation runs under the game's lock (:meth:`WebGame.held`) and touches
no other game; the rate limits (:func:`limit`) are kept per game and per key.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from bones.web.errors import ApiError
from bones.web.limits import limit

if TYPE_CHECKING:  # pragma: no cover
    from bones.games.game import GameSession
    from bones.web.games import GameStore, WebGame

HUMAN = "human"  # bones.games.game.HUMAN, without loading the engine

#: A seat whose key asked within this many seconds is connected.
CONNECTED_SECONDS = 30.0
#: The chat messages a seat's view carries (the newest).
VIEW_CHAT = 60


def name_of(session: GameSession, seat: int) -> str:
    """How the table names ``seat`` to everyone: the person's name, or the bot's, or the seat."""
    name = session.names[seat]
    spec = session.config.seats[seat]
    if spec != HUMAN:
        bot = spec.split(":")[0]
        return f"{name} ({bot})" if name else bot
    return name or f"Seat {seat}"


def social_json(game: WebGame, session: GameSession, seat: int) -> dict[str, Any]:
    """The ``social`` part of a seat's view: every seat's name, the chat, the
    series and the rematch (``stamp`` grows with every change of them)."""
    from bones.web.chat import messages_json
    from bones.web.series import series_json

    return {
        "stamp": game.stamp,
        "you": seat,
        "names": [session.names[k] for k in range(session.players)],
        "labels": [name_of(session, k) for k in range(session.players)],
        # a seat of a person handed to a bot (a spectator, SPECTATOR, has no seat)
        "handed": None if seat < 0 or session.is_human(seat) else session.config.seats[seat],
        "chat": messages_json(session)[-VIEW_CHAT:],
        **series_json(game, session),
    }


def set_name(game: WebGame, key: str | None, value: Any) -> dict[str, Any]:
    """Name the seat of ``key`` (the key that asks, never another seat); the seat is
    read under the game's lock, where no rematch can move it meanwhile."""
    from bones.bots import BOTS
    from bones.games.people import PeopleError, clean_name, new_name

    try:
        clean_name(value)
    except PeopleError as err:
        raise ApiError(400, str(err)) from None
    with game.held() as session:
        seat = game.seat_of(key)
        try:  # it shows, passes for no label of the table and names no tile
            name = new_name(value, max(session.rules.tiles.high), BOTS)
        except PeopleError as err:
            raise ApiError(422, str(err)) from None
        limit(game, "name", seat)  # under the game's lock, as every count of the game
        if session.names[seat] != name:
            session.names[seat] = name
            session.save()
            game.saved()
            game.stamp += 1
        return game.seat_view(session, seat)


def presence(game: WebGame) -> dict[str, Any]:
    """Who sits where, who has joined and who is connected now (for the host)."""
    now = time.time()
    with game.held() as session:
        seats = []
        for k in range(session.players):
            person = k in game.seat_hashes
            seen = game.seen.get(k)
            spec = session.config.seats[k]
            seats.append({
                "seat": k, "name": session.names[k], "label": name_of(session, k),
                "person": person, "bot": None if spec == HUMAN else spec,
                "joined": person and (seen is not None or session.names[k] is not None),
                "connected": person and seen is not None and now - seen < CONNECTED_SECONDS,
                "seen_seconds_ago": None if seen is None else round(now - seen, 1),
                "rematch": k in game.accepted,
            })
        return {"id": game.id, "save": game.path.name, "over": session.over,
                "connected_seconds": CONNECTED_SECONDS, "seats": seats}


def hand_seat(game: WebGame, seat: int, bot: str | None, store: GameStore | None = None
              ) -> dict[str, Any]:
    """Hand a person's ``seat`` to ``bot`` (a built-in bot's spec, checked by the
    caller with :func:`bones.web.games.check_bot`), or back to the person (``bot``
    None).  The game goes on where it is; the person's key stays valid.  After
    a match, handing over the last person seated who had not asked for a
    rematch starts it (:func:`bones.web.series.start_if_ready`, in ``store``)."""
    from bones.games.game import SeatConfig
    from bones.web.series import start_if_ready

    spec = HUMAN if bot is None else bot
    with game.held() as session:
        if not 0 <= seat < session.players:
            raise ApiError(404, f"no seat {seat}: the seats are 0 to {session.players - 1}")
        if seat not in game.seat_hashes:
            raise ApiError(409, f"seat {seat} is a bot's seat from the start: only a person's "
                                "seat is handed to a bot and back")
        seats = list(session.config.seats)
        # the save remembers the seat is a person's (meta.play.handed), so it is
        # one again, with a link, when the save is opened later
        handed = sorted((set(session.handed) - {seat}) | ({seat} if bot is not None else set()))
        if seats[seat] != spec or session.handed != handed:
            seats[seat] = spec
            session.config = SeatConfig(tuple(seats), session.config.level)
            session.handed = handed
            session.save()
            game.saved()
            game.stamp += 1
            game.accepted.discard(seat)
            if store is not None and session.over and start_if_ready(store, game, session) is None:
                store.note_over(game)  # the answers, as a rematch answer keeps them
    return presence(game)


__all__ = ["CONNECTED_SECONDS", "hand_seat", "name_of",
           "presence", "set_name", "social_json"]
