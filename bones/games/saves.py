"""Save files of games: where they go, how a new one is created, and the lock of one in play.

Nothing a player saved may be lost, so three rules hold for every writer of
a save (`bones play` and `bones serve` alike):

* **A new save never replaces a file.**  :func:`create_save` writes the whole
  first version to a temporary file and links it into place, which fails if
  the name exists; :func:`new_save_path` then tries the next free name
  (``sniff-20260101-120000-5.json``, ``…-5-2.json``, ...), so two games started
  in the same second with the same seed both keep their save.
* **A save in play is locked.**  :func:`save_lock` is a context manager held
  while a process reads and writes one save.  A second holder is refused at
  once with :class:`SaveInUse`, whose one-line message names the process that
  holds it.  The lock is an advisory ``flock`` on a hidden file beside the save
  (``.NAME.lock``), so the kernel releases it when its holder dies: a lock left
  by a killed process is taken over by the next session, and the process
  details it wrote are simply replaced.  A terminal game holds the lock for
  the whole game; the web server holds it only while it serves one request on
  that game::

      with save_lock(path):
          session = GameSession.resume(path)
          session.play(move)          # saves under the lock

* **Every later version replaces the save atomically** (a temporary file
  renamed over it: a crash leaves the old version or the new one, never half a
  file); see :func:`bones.games.record.write_record`.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bones.games.outfile import OutputError, create_output, resolve_output, write_output

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class SaveError(ValueError):
    """A save that cannot be created, locked or written; the message is one line."""


class SaveExists(SaveError):
    """:func:`create_save` found a file of that name already there."""


@dataclass(frozen=True)
class LockHolder:
    """Who holds a save's lock, as the holder wrote it into the lock file."""

    pid: int
    host: str
    command: str
    since: float  # seconds since the epoch

    def describe(self) -> str:
        when = time.strftime("%H:%M:%S", time.localtime(self.since))
        where = "" if self.host == socket.gethostname() else f" on {self.host}"
        return f"process {self.pid}{where} ({self.command}, since {when})"


class SaveInUse(SaveError):
    """Another session holds the save's lock."""

    def __init__(self, path: Path, holder: LockHolder | None) -> None:
        self.path = path
        self.holder = holder
        who = holder.describe() if holder else "another process"
        super().__init__(f"{path} is in use by {who}; finish or quit that game first")


# ------------------------------------------------------------------- where


def default_save_dir() -> Path:
    """Where saves go without ``--save``: ``$XDG_DATA_HOME/bones/saves``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "bones" / "saves"


def default_save_stem(variant_name: str, seed: int) -> str:
    """``NAME-YYYYMMDD-HHMMSS-SEED``: the save's name before any ``-2``, ``-3`` suffix."""
    return f"{variant_name}-{time.strftime('%Y%m%d-%H%M%S')}-{seed}"


def new_save_path(directory: Path, stem: str, attempt: int) -> Path:
    """The ``attempt``-th candidate name (from 1) for a new save: ``stem.json``, ``stem-2.json``..."""
    return directory / (f"{stem}.json" if attempt <= 1 else f"{stem}-{attempt}.json")


def lock_path(path: Path) -> Path:
    """The hidden lock file beside a save."""
    return path.with_name(f".{path.name}.lock")


# ---------------------------------------------------------------- writing


def create_save(path: Path, text: str) -> None:
    """Write ``text`` as the new file ``path``, whole, or raise :class:`SaveExists`.

    The text goes to a temporary file first, which is then hard-linked to
    ``path`` (an atomic create that fails on an existing name), so no reader
    ever sees half a save and no existing file, link or device is replaced
    (:func:`bones.games.outfile.create_output`).  The folder must exist
    (:func:`make_save_dir` makes the default one): a missing folder is a
    :class:`SaveError`, never created on the way.
    """
    try:
        created = create_output(path, text, new_mode=0o600)
    except OutputError as err:
        raise SaveError(str(err)) from None
    if not created:
        raise SaveExists(f"{path} already exists")


def replace_save(path: Path, text: str, *, fsync: bool = False) -> None:
    """Replace ``path`` with ``text`` atomically (a temporary file renamed over
    it), by the rule of every output (:func:`bones.games.outfile.write_output`):
    a save reached through a symbolic link is written at the link's target and
    the link stays; a directory or a device is refused (:class:`SaveError`)."""
    try:
        target = resolve_output(path)
        if target.exists() and not target.is_file():
            raise SaveError(f"cannot write {path}: it is not a regular file")
        write_output(path, text, fsync=fsync, new_mode=0o600)
    except OutputError as err:
        raise SaveError(str(err)) from None


def make_save_dir(folder: Path) -> None:
    """Create the default save folder if it is missing, readable by its owner
    only (0700, as `bones serve` keeps it); a folder that exists is left as it is."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as err:
        raise SaveError(f"cannot create the save folder {folder}: {err.strerror or err}") from None


def _unlink(path: str | Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# ------------------------------------------------------------------ locks


def _command() -> str:
    args = [os.path.basename(sys.argv[0] or "python")] + sys.argv[1:3]
    text = " ".join(a for a in args if a)
    if text.startswith(("__main__.py", "-m")):
        text = "bones " + text.split(" ", 1)[-1]
    return text[:60] or "bones"


def read_holder(path: Path) -> LockHolder | None:
    """What the lock file of save ``path`` says about its holder (None if unreadable)."""
    try:
        with open(lock_path(path), encoding="utf-8") as f:
            data = json.loads(f.read(4096))
        return LockHolder(int(data["pid"]), str(data["host"]), str(data["command"]),
                          float(data["since"]))
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def _try_lock(fd: int) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    import msvcrt  # pragma: no cover - Windows

    try:  # pragma: no cover
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:  # pragma: no cover
        return False
    return True  # pragma: no cover


@contextmanager
def save_lock(path: str | os.PathLike[str], command: str | None = None) -> Iterator[Path]:
    """Hold the lock of the save ``path`` (which need not exist yet) for the ``with`` block.

    Raises :class:`SaveInUse` at once, naming the holder, when another process
    (or another ``save_lock`` in this one) holds it; never waits.  ``command``
    is what the holder is doing, shown to a refused session (default: the
    command line, shortened).  The lock dies with its process, so a lock
    left by a killed session is taken over without anyone's help.  On
    leaving the block the lock file is removed.  Yields the save's path.
    """
    save = Path(path)
    # a save reached through a symbolic link is locked where it lies, so the
    # link and the file's own name share one lock
    where = Path(os.path.realpath(save)) if os.path.islink(save) else save
    lock = lock_path(where)
    if not lock.parent.is_dir():
        raise SaveError(f"cannot lock {save}: no such folder {lock.parent}")
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise SaveError(f"cannot lock {save}: {err.strerror or err}") from None
        if not _try_lock(fd):
            os.close(fd)
            raise SaveInUse(save, read_holder(where))
        # the holder before us may have removed the file between our open and
        # our lock: then we hold a lock on a file nobody else will ever open
        try:
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        info = {"pid": os.getpid(), "host": socket.gethostname(),
                "command": command or _command(), "since": time.time()}
        try:
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(info).encode())
        except OSError as err:  # a full disk: the save itself is not touched
            raise SaveError(f"cannot lock {save}: {err.strerror or err}") from None
        yield save
    finally:
        _unlink(lock)  # before unlocking: the next holder then always opens a fresh file
        os.close(fd)




__all__ = [
    "LockHolder", "SaveError", "SaveExists", "SaveInUse", "create_save", "default_save_dir",
    "default_save_stem", "lock_path", "make_save_dir", "new_save_path", "read_holder",
    "replace_save",
    "save_lock",
]
