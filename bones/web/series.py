"""Rematches: a series of matches on the same seat links.

When a match is over, each person at the table may ask for a rematch
(``POST /api/games/{id}/rematch``), a person whose seat the host handed to a
bot too.  When someone has asked and every person seated has (a seat handed
to a bot needs no answer), the next match starts at once, whether the last
answer or the host handing the last seat over made it so:

* the same variant, table and names, each person and bot moved one seat on
  (seat ``s`` sits in seat ``s + 1``, the last in seat 0), so the lead and
  the order of play change from match to match;
* its seed derived from the last match's (``derive(seed, match number)``,
  docs/random.md), so a series is reproducible from its first seed;
* a new save of its own; the game id and every seat key stay, so every seat
  link keeps working (a key follows its person to their new seat);
* the series (its id, the match's number, the matches each person won before
  it and the earlier saves) is stored in the new save's ``meta.play.series``
  (:class:`bones.games.people.Series`), and the table's chat goes on in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bones.web.errors import ApiError
from bones.web.limits import limit

if TYPE_CHECKING:  # pragma: no cover
    from bones.games.game import GameSession
    from bones.games.people import Series
    from bones.web.games import GameStore, WebGame


def current_series(game: WebGame, session: GameSession) -> Series:
    """The series this match is in (a first match is match 1 of its own series)."""
    from bones.games.people import Series

    return session.series or Series(game.id, 1, [0] * session.players, [])


def wins_after(session: GameSession, series: Series) -> list[int]:
    """Each person's matches won, this match included once it is over."""
    wins = list(series.wins)
    match = session.match
    if session.over and match.winner >= 0:
        for seat in range(session.players):
            if session.rules.owner[seat] == match.winner:
                wins[series.person_at(seat, session.players)] += 1
    return wins


def needed(game: WebGame, session: GameSession) -> list[int]:
    """The seats whose person must accept a rematch: the people seated now (a
    seat handed to a bot needs no answer, though its person may give one)."""
    return sorted(s for s in game.seat_hashes if session.is_human(s))


def ready(game: WebGame, session: GameSession) -> bool:
    """Whether the next match starts now: the match is over, someone asked for
    it (a person, seated or handed to a bot) and every person seated did."""
    return session.over and bool(game.accepted) and set(needed(game, session)) <= game.accepted


def series_json(game: WebGame, session: GameSession) -> dict[str, Any]:
    """The series and rematch part of a seat's ``social`` view: ``series.wins[k]``
    is the matches won by whoever sits in seat ``k`` now."""
    series = current_series(game, session)
    wins = wins_after(session, series)
    players = session.players
    return {
        "series": {"match": series.match, "saves": len(series.saves),
                   "wins": [wins[series.person_at(k, players)] for k in range(players)]},
        "rematch": {"open": session.over, "accepted": sorted(game.accepted),
                    "needed": needed(game, session)},
    }


def answer(store: GameStore, game: WebGame, key: str | None, accept: Any) -> dict[str, Any]:
    """``seat`` asks for a rematch (or withdraws); when everyone seated has asked,
    the next match begins.  The seat's view after it."""
    if not isinstance(accept, bool):
        raise ApiError(400, "accept must be true or false")
    with game.held() as session:
        seat = game.seat_of(key)  # under the lock: another answer may have moved the seats
        limit(game, "rematch", seat)
        if not session.over:
            raise ApiError(409, "the match is not over: a rematch is offered when it ends")
        # a person whose seat a bot plays may answer too: when every person is
        # handed to a bot, theirs are the only answers there can be
        if accept:
            game.accepted.add(seat)
        else:
            game.accepted.discard(seat)
        game.stamp += 1
        fresh = start_if_ready(store, game, session)
        if fresh is None:
            store.note_over(game)  # keeps the answers across a restart
            return game.seat_view(session, seat)
        return game.seat_view(fresh, (seat + 1) % session.players)


def start_if_ready(store: GameStore, game: WebGame, session: GameSession) -> GameSession | None:
    """The next match, started on the same links if :func:`ready` (else None), under
    the game's lock: after a rematch answer, and after a seat is handed to a bot
    (the last person seated who had not answered may be the one handed)."""
    from bones.engine.rng import derive
    from bones.games.people import Series

    if not ready(game, session):
        return None
    series = current_series(game, session)
    if session.series is None:  # the first match learns that it opens a series
        session.series = series
        session.save()
    players = session.players
    nxt = Series(series.id, series.match + 1, wins_after(session, series),
                 series.saves + [game.path.name])

    def moved(values: list[Any]) -> list[Any]:  # seat s -> seat s + 1
        return [values[(k - 1) % players] for k in range(players)]

    names = moved(list(session.names))
    chat = list(session.chat)
    handed = sorted((s + 1) % players for s in session.handed)

    def prepare(new: GameSession) -> None:
        new.names = names
        new.chat = chat
        new.series = nxt
        new.handed = handed  # a handed seat's bot moves on with its seat

    seed = derive(session.seed, nxt.match) % 2**63
    with store._lock:
        store._admit()
        fresh = store.new_session(session.variant, session.rules, session.source,
                                  moved(list(session.config.seats)), seed, prepare)
    game.path = fresh.save_path
    game.session = fresh
    game.seat_hashes = {(s + 1) % players: h for s, h in game.seat_hashes.items()}
    game.seen = {(s + 1) % players: t for s, t in game.seen.items()}
    game.recent = {(kind, (s + 1) % players): t for (kind, s), t in game.recent.items()}
    game.accepted = set()
    game.error = None
    game.saved()
    store.note_over(game)  # the index names the new save and the moved keys
    return fresh


__all__ = ["answer", "current_series", "needed", "ready", "series_json", "start_if_ready", "wins_after"]
