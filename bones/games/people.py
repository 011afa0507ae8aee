"""The people at a table: their names, their chat and the series they play.

A game played in the browser (`bones serve`) keeps, beside its moves, what
people add to it: the name each person chose for their seat, the messages of
the table's chat and, when a match is one of a series of rematches, which
match of the series it is and how many matches each person had won before it.
They are stored in the save under ``meta.play`` (``names``, ``chat``,
``series``), each optional, so saves written before them load unchanged and
`bones play --resume` and `bones replay` can show the names.  So is
``handed``: the seats of people the host handed to a bot for a while (the
seat's bot is in ``meta.play.seats``), so that the seat stays a person's
when the save is opened again.

Every value is checked when a save is read, as any other part of a save:
a name is 1 to :data:`MAX_NAME` printable characters (emoji sequences
included: :func:`bones.games.talk.printable`), a message at most
:data:`MAX_MESSAGE`; both are plain text (the front ends never render them
as markup).  A name given now passes :func:`new_name` too (it shows, it
passes for no label of the table, it names no tile).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bones.games.talk import blank, interface_label, printable, table_talk

#: The longest name, and the longest chat message, in characters.
MAX_NAME = 24
MAX_MESSAGE = 200
#: The chat messages a save keeps (the oldest are dropped beyond it).
MAX_CHAT = 300


class PeopleError(ValueError):
    """A name, a message or a series that cannot be taken; the message is one line."""


def clean_name(value: Any) -> str:
    """A person's name: trimmed, 1 to :data:`MAX_NAME` printable characters.

    >>> clean_name("  Ana  ")
    'Ana'
    >>> clean_name("a\\nb")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bones.games.people.PeopleError: a name may hold only printable characters ...
    """
    if not isinstance(value, str):
        raise PeopleError("name must be text")
    name = value.strip()
    if not name:
        raise PeopleError("a name needs at least one character that is not a space")
    if len(name) > MAX_NAME:
        raise PeopleError(f"a name has at most {MAX_NAME} characters (this one has {len(name)})")
    if not printable(name):
        raise PeopleError("a name may hold only printable characters "
                          "(no line breaks or control characters)")
    return name


def new_name(value: Any, top: int, bots: Iterable[str] = ()) -> str:
    """A name someone gives their seat now: :func:`clean_name`, and one that
    shows (not blank, not a lone mark), passes for no label of the table
    (``You``, ``Seat 2 (greedy)``, a bot's name) and names no tile of a set
    with pips 0 to ``top`` (:func:`bones.games.talk.table_talk`).  A save's
    names are read with :func:`clean_name` alone: nothing saved is refused
    for a rule it was made before.

    >>> new_name("👩‍💻 Ana", 6)
    '👩‍💻 Ana'
    >>> new_name("Seat 2 (greedy)", 6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bones.games.people.PeopleError: a name may not read as one of the table's own labels ...
    """
    name = clean_name(value)
    if blank(name):
        raise PeopleError("a name must show: this one has no visible character "
                          "(only spaces, fillers or marks)")
    if unicodedata.category(name[0]) in ("Mn", "Me"):
        raise PeopleError("a name may not start with a combining mark")
    if interface_label(name, bots):
        raise PeopleError("a name may not read as one of the table's own labels (You, Seat N, "
                          "Team A, a bot's name): choose another")
    tile = table_talk(name, top)
    if tile is not None:
        raise PeopleError(f"a name may not name a tile (no table talk): it reads as {tile}")
    return name


def clean_message(value: Any) -> str:
    """A chat message: trimmed, 1 to :data:`MAX_MESSAGE` printable characters."""
    if not isinstance(value, str):
        raise PeopleError("text must be the message's text")
    text = value.strip()
    if not text:
        raise PeopleError("a message needs some text")
    if len(text) > MAX_MESSAGE:
        raise PeopleError(f"a message has at most {MAX_MESSAGE} characters (this one has {len(text)})")
    if not printable(text):
        raise PeopleError("a message may hold only printable characters "
                          "(no line breaks or control characters)")
    return text


def new_message(value: Any) -> str:
    """A chat message someone posts now: :func:`clean_message`, and one that shows.
    (Whether it names a tile depends on the hand: the server asks
    :func:`bones.games.talk.table_talk`.)  A save's chat is read with
    :func:`clean_message` alone."""
    text = clean_message(value)
    if blank(text):
        raise PeopleError("a message needs some text (this one shows nothing)")
    return text


@dataclass
class Series:
    """Which match of a series of rematches a save is, and the wins before it.

    ``wins[p]`` counts the matches won by the person who sat in seat ``p`` in
    the series' first match; in match ``m`` (from 1) that person sits in seat
    ``(p + m - 1) % players`` (each rematch moves everyone one seat on).
    """

    id: str
    match: int = 1
    wins: list[int] = field(default_factory=list)
    saves: list[str] = field(default_factory=list)  # the earlier matches' saves

    def seat_of(self, person: int, players: int) -> int:
        return (person + self.match - 1) % players

    def person_at(self, seat: int, players: int) -> int:
        return (seat - (self.match - 1)) % players

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "match": self.match, "wins": list(self.wins),
                "saves": list(self.saves)}

    @classmethod
    def from_json(cls, data: Any, players: int) -> Series:
        if not isinstance(data, dict):
            raise PeopleError("series must be an object")
        sid, match, wins, saves = (data.get("id"), data.get("match"), data.get("wins"),
                                   data.get("saves", []))
        if not isinstance(sid, str) or not 1 <= len(sid) <= 40:
            raise PeopleError("series.id must be a short text")
        if isinstance(match, bool) or not isinstance(match, int) or not 1 <= match <= 100_000:
            raise PeopleError("series.match must be a whole number from 1")
        if not isinstance(wins, list) or len(wins) != players or not all(
                isinstance(w, int) and not isinstance(w, bool) and 0 <= w < match for w in wins):
            raise PeopleError(f"series.wins must hold {players} counts of matches won before this one")
        if not isinstance(saves, list) or not all(isinstance(s, str) and len(s) <= 160 for s in saves):
            raise PeopleError("series.saves must list save names")
        return cls(sid, match, list(wins), list(saves)[-1000:])


def names_from(data: Any, players: int) -> list[str | None]:
    """A save's ``names``: one name (or null) per seat."""
    if data is None:
        return [None] * players
    if not isinstance(data, list) or len(data) != players:
        raise PeopleError(f"names must list one name (or null) for each of the {players} seats")
    out: list[str | None] = []
    for k, name in enumerate(data):
        try:
            out.append(None if name is None else clean_name(name))
        except PeopleError as err:
            raise PeopleError(f"names[{k}]: {err}") from None
    return out


def handed_from(data: Any, bot_seats: list[bool]) -> list[int]:
    """A save's ``handed``: the seats, in order, of people handed to a bot
    (``bot_seats[k]`` is True when seat ``k`` is played by a bot in the save).

    >>> handed_from(None, [False, True])
    []
    >>> handed_from([1], [False, True])
    [1]
    >>> handed_from([0], [False, True])
    Traceback (most recent call last):
    ...
    bones.games.people.PeopleError: handed lists seat 0, which no bot plays in the save's seats
    """
    players = len(bot_seats)
    if data is None:
        return []
    if not isinstance(data, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in data):
        raise PeopleError(f"handed must list seats from 0 to {players - 1} "
                          "(the people's seats handed to a bot)")
    if len(set(data)) != len(data):
        raise PeopleError("handed lists a seat more than once")
    for seat in data:
        if not bot_seats[seat]:
            raise PeopleError(f"handed lists seat {seat}, which no bot plays in the save's seats")
    return sorted(data)


def chat_from(data: Any, players: int) -> list[dict[str, Any]]:
    """A save's ``chat``: messages ``{"n", "seat", "name", "text", "at"}``, oldest first
    (``n`` numbers the game's messages from 1 and keeps growing when the oldest are dropped)."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise PeopleError("chat must be a list of messages")
    out: list[dict[str, Any]] = []
    last = 0
    for k, entry in enumerate(data[-MAX_CHAT:]):
        if not isinstance(entry, dict):
            raise PeopleError(f"chat[{k}] must be a message object")
        seat, at, name = entry.get("seat"), entry.get("at"), entry.get("name")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise PeopleError(f"chat[{k}].seat must be a seat from 0 to {players - 1}")
        if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at):
            raise PeopleError(f"chat[{k}].at must be a time in seconds")
        try:
            text = clean_message(entry.get("text"))
            name = None if name is None else clean_name(name)
        except PeopleError as err:
            raise PeopleError(f"chat[{k}]: {err}") from None
        n = entry.get("n", k + 1)
        if isinstance(n, bool) or not isinstance(n, int) or n <= last:
            raise PeopleError(f"chat[{k}].n must number the messages in order from 1")
        last = n
        out.append({"n": n, "seat": seat, "name": name, "text": text, "at": float(at)})
    return out


__all__ = ["MAX_CHAT", "MAX_MESSAGE", "MAX_NAME", "PeopleError", "Series", "chat_from",
           "clean_message", "clean_name", "handed_from", "names_from", "new_message", "new_name"]
