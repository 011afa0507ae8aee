"""The list of saved games: each save read (not replayed) for what a list shows.

It sits above both :mod:`bones.games.record` (which reads a save) and
:mod:`bones.games.saves` (files, names and locks), which know nothing of
each other's callers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bones.games.record import RecordError, load_record
from bones.games.saves import LockHolder, default_save_dir, lock_path, read_holder


@dataclass(frozen=True)
class SaveSummary:
    """What a list of saved games shows of one save (read without replaying it)."""

    path: Path
    modified: float  # seconds since the epoch
    variant: str | None = None
    players: int = 0
    teams: bool = False
    scores: tuple[int, ...] = ()
    finished: bool = False
    hands: int = 0
    seats: tuple[str, ...] = ()  # what sits in each seat: "human" or a bot
    holder: LockHolder | None = None  # the session playing it now, if any
    problem: str | None = None  # why it cannot be read (then the fields above are empty)
    names: tuple[str | None, ...] = ()  # the names people chose for their seats (`bones serve`)
    series: tuple[str, int] | None = None  # the series of rematches it is in, and its match
    handed: tuple[int, ...] = ()  # people's seats a bot plays for now (`bones serve`)


def list_saves(directory: Path | None = None) -> list[SaveSummary]:
    """The saves in ``directory`` (default :func:`bones.games.saves.default_save_dir`), newest first.

    Each is read (size-capped, as every record) but not replayed; a file that
    cannot be read is listed with its problem rather than left out.
    """
    folder = directory if directory is not None else default_save_dir()
    try:
        entries = [p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith(".")]
    except OSError:
        return []
    out = []
    for path in entries:
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        holder = read_holder(path) if lock_path(path).exists() else None
        try:
            record = load_record(path)
        except RecordError as err:
            text = str(err)
            out.append(SaveSummary(path, modified, holder=holder,
                                   problem=text[len(str(path)) + 2:] if text.startswith(str(path))
                                   else text))
            continue
        name = record.variant.get("name") if isinstance(record.variant, dict) else None
        play = record.meta.get("play")
        seats = play.get("seats") if isinstance(play, dict) else None
        names, series, handed = _people(play, record.players)
        out.append(SaveSummary(path, modified, str(name) if name else None, record.players,
                               record.teams, tuple(record.result.scores),
                               record.result.finished, len(record.hands),
                               tuple(str(s) for s in seats) if isinstance(seats, list) else (),
                               holder, None if "play" in record.meta else "not a bones play save",
                               names=names, series=series, handed=handed))
    out.sort(key=lambda s: (s.modified, s.path.name), reverse=True)
    return out


def _people(play: object, players: int) -> tuple[
        tuple[str | None, ...], tuple[str, int] | None, tuple[int, ...]]:
    """A save's names, series and handed seats (:mod:`bones.games.people`),
    or none if unreadable."""
    from bones.games.people import PeopleError, Series, handed_from, names_from

    if not isinstance(play, dict):
        return (), None, ()
    try:
        names = tuple(names_from(play.get("names"), players)) if play.get("names") else ()
        raw = play.get("series")
        series = Series.from_json(raw, players) if raw is not None else None
        seats = play.get("seats")
        handed = (tuple(handed_from(play.get("handed"), [s != "human" for s in seats]))
                  if isinstance(seats, list) and len(seats) == players else ())
    except PeopleError:
        return (), None, ()
    return names, ((series.id, series.match) if series is not None else None), handed


__all__ = ["SaveSummary", "list_saves"]
