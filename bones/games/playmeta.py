"""``meta.play``: what a `bones play` save keeps beside its record, read by one reader.

A save is a game record whose ``meta.play`` holds what resuming needs: the
seats (``"human"`` or a bot), the level, the take-backs, an old save's
dealing generator, and what people added in `bones serve` (names, chat, the
series, the seats handed to a bot: :mod:`bones.games.people`).

:func:`read_play` is the only reader of it.  :func:`bones.games.record.parse_record`
calls it, so every front end that reads a record or a save gets the same
verdict on the same file, and the same line for a corrupt field (``meta.play:
names must list one name (or null) for each of the 2 seats``): `bones play
--resume`, `bones replay`, `bones analyse`, the list of saves (`bones play
--resume` alone, `GET /api/saves`) and the server's replays and analyses.
What a save's bots may do is another matter, decided when they would start
(:meth:`bones.games.game.GameSession.resume`): a record that names a bot
nobody trusts still replays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bones.games.people import PeopleError, Series, chat_from, clean_name, handed_from, names_from

HUMAN = "human"
#: Where our fields live: ``record["meta"]["play"]``.
KEY = "play"


class PlayMetaError(ValueError):
    """A ``meta.play`` that is not what `bones play` writes; the message is one line,
    starting with the field (``meta.play.seats ...``, ``meta.play: names ...``)."""


@dataclass(frozen=True)
class PlayMeta:
    """A save's ``meta.play``, read and checked."""

    seats: tuple[str, ...]
    level: str = "hard"
    source: str | None = None
    takebacks: list[dict[str, Any]] = field(default_factory=list)
    names: list[str | None] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    series: Series | None = None
    handed: list[int] = field(default_factory=list)
    #: the resignation that ended the match (None: none), and who left the table
    resigned: dict[str, Any] | None = None
    left: list[dict[str, Any]] = field(default_factory=list)
    #: an old save's dealing generator (Python's ``random`` state), or None
    rng: tuple[Any, ...] | None = None

    @property
    def people(self) -> list[int]:
        """The seats of people: human seats and those handed to a bot for a while."""
        return sorted({k for k, s in enumerate(self.seats) if s == HUMAN} | set(self.handed))


def read_play(meta: Any, players: int) -> PlayMeta | None:
    """``meta["play"]`` of a record of ``players`` seats, checked field by field;
    None when there is none (a record, not a save); else :class:`PlayMetaError`.

    >>> read_play({}, 2) is None
    True
    >>> read_play({"play": {"seats": ["human", "greedy"], "names": ["Ana", None]}}, 2).names
    ['Ana', None]
    >>> read_play({"play": {"seats": ["human", "greedy"], "names": "Ana"}}, 2)
    Traceback (most recent call last):
    ...
    bones.games.playmeta.PlayMetaError: meta.play: names must list one name (or null) for each of the 2 seats
    """
    if not isinstance(meta, dict) or KEY not in meta:
        return None
    play = meta[KEY]
    if not isinstance(play, dict):
        raise PlayMetaError("meta.play must be an object")
    seats = play.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
        raise PlayMetaError("meta.play.seats must list each seat's player: \"human\" or a bot")
    if len(seats) != players:
        raise PlayMetaError(f"meta.play.seats names {len(seats)} seats for {players} players")
    level = play.get("level", "hard")
    source = play.get("source")
    if not isinstance(level, str) or not isinstance(source, (str, type(None))):
        raise PlayMetaError("meta.play: level and source must be text")
    try:
        names = names_from(play.get("names"), players)
        handed = handed_from(play.get("handed"), [s != HUMAN for s in seats])
        chat = chat_from(play.get("chat"), players)
        raw_series = play.get("series")
        series = Series.from_json(raw_series, players) if raw_series is not None else None
    except PeopleError as err:
        raise PlayMetaError(f"meta.play: {err}") from None
    resigned = _resigned(play.get("resigned"), players)
    left = _left(play.get("left"), players)
    return PlayMeta(tuple(seats), level, source, _takebacks(play.get("takebacks", [])), names,
                    chat, series, handed, resigned, left, _rng(play.get("rng")))


def _table_event(data: Any, players: int, what: str) -> dict[str, Any]:
    """A resignation or a departure: ``seat``, ``hand`` (from 1), ``ply`` (the moves
    of that hand made before it), and optionally ``name`` and ``at``."""
    if not isinstance(data, dict):
        raise PlayMetaError(f"meta.play.{what} must be an object")
    seat: Any = data.get("seat")
    hand: Any = data.get("hand")
    ply: Any = data.get("ply")
    name: Any = data.get("name")
    at: Any = data.get("at")
    if not (_whole(seat) and 0 <= seat < players and _whole(hand) and hand >= 1
            and _whole(ply) and ply >= 0):
        raise PlayMetaError(f"meta.play.{what} must name a seat from 0 to {players - 1}, "
                            "a hand from 1 and the moves made before it")
    if name is not None:
        try:
            clean_name(name)
        except PeopleError as err:
            raise PlayMetaError(f"meta.play.{what}: {err}") from None
    if at is not None and (isinstance(at, bool) or not isinstance(at, (int, float))):
        raise PlayMetaError(f"meta.play.{what}.at must be a time in seconds")
    return dict(data)


def _resigned(data: Any, players: int) -> dict[str, Any] | None:
    """``{"seat", "hand", "ply", "winner"}``: who resigned the match, when, and
    the side that won by it (-1 for none)."""
    if data is None:
        return None
    entry = _table_event(data, players, "resigned")
    winner: Any = entry.get("winner")
    if not _whole(winner) or not -1 <= winner < players:
        raise PlayMetaError("meta.play.resigned.winner must be the winning side (or -1)")
    return entry


def _left(data: Any, players: int) -> list[dict[str, Any]]:
    """``[{"seat", "hand", "ply", "bot"}]``: the people who left the table, in order."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise PlayMetaError("meta.play.left must be a list of departures")
    out = []
    for k, item in enumerate(data[:1000]):
        entry = _table_event(item, players, f"left[{k}]")
        if not isinstance(entry.get("bot"), str) or not entry["bot"]:
            raise PlayMetaError(f"meta.play.left[{k}].bot must name the bot that took the seat")
        out.append(entry)
    return out


def _takebacks(data: Any) -> list[dict[str, Any]]:
    """A save's take-backs: ``{"hand", "ply", "undone"}`` each, in order."""
    if not isinstance(data, list):
        raise PlayMetaError("meta.play.takebacks must be a list of take-backs")
    for k, entry in enumerate(data):
        hand: Any = entry.get("hand") if isinstance(entry, dict) else None
        ply: Any = entry.get("ply") if isinstance(entry, dict) else None
        undone: Any = entry.get("undone") if isinstance(entry, dict) else None
        if not (_whole(hand) and hand >= 1 and _whole(ply) and ply >= 0
                and isinstance(undone, list) and all(isinstance(m, str) for m in undone)):
            raise PlayMetaError(f"meta.play.takebacks[{k}] must be a take-back "
                                "{\"hand\", \"ply\", \"undone\": [moves]}")
    return [dict(entry) for entry in data]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rng(data: Any) -> tuple[Any, ...] | None:
    """An old save's generator state, checked by setting a generator to it."""
    if data is None:
        return None
    try:
        version, internal, gauss = data
        words = tuple(int(x) for x in internal)
        if not all(0 <= w < 2**32 for w in words):  # Python's generator holds 32-bit words
            raise ValueError("a word is not 32 bits")
        state = (int(version), words, gauss)
        random.Random().setstate(state)
    except (TypeError, ValueError, OverflowError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise PlayMetaError(f"meta.play.rng is not the state of a random generator ({reason})") from None
    return state


__all__ = ["HUMAN", "KEY", "PlayMeta", "PlayMetaError", "read_play"]
