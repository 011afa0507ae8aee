"""The list of saved games: each save read (not replayed) for what a list shows.

It sits above both :mod:`bones.games.record` (which reads a save) and
:mod:`bones.games.saves` (files, names and locks), which know nothing of
each other's callers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bones.games.playmeta import read_play
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
        # load_record read meta.play with its one reader: a corrupt one made the
        # save unreadable above, with the line every other front end gives
        play = read_play(record.meta, record.players)
        if play is None:
            out.append(SaveSummary(path, modified, str(name) if name else None, record.players,
                                   record.teams, tuple(record.result.scores),
                                   record.result.finished, len(record.hands), (), holder,
                                   "not a bones play save"))
            continue
        series = play.series
        out.append(SaveSummary(path, modified, str(name) if name else None, record.players,
                               record.teams, tuple(record.result.scores),
                               record.result.finished, len(record.hands), play.seats, holder,
                               None, names=tuple(play.names) if any(play.names) else (),
                               series=(series.id, series.match) if series is not None else None,
                               handed=tuple(play.handed)))
    out.sort(key=lambda s: (s.modified, s.path.name), reverse=True)
    return out


__all__ = ["SaveSummary", "list_saves"]
