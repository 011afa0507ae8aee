"""Writing an output file: the one rule every writer of bones follows.

``--out`` of `bones simulate`, `tournament` and `compare`, `bones schema
--out`, every save of `bones play` and `bones serve` write through
:func:`write_output`, which looks at what the name is before writing:

* nothing there yet, or a **regular file**: the text goes to a temporary file
  beside it, renamed over it when whole (a crash leaves the old version or the
  new one, never half a file); a replaced file keeps its permissions;
* a **symbolic link** is followed: its target is written by these same rules
  and the link stays a link (a dangling link creates its target);
* a **character device** (``/dev/null``, a terminal) or a **FIFO** is written
  to directly, never replaced;
* ``-`` is standard output;
* a **directory**, a block device or a socket is refused.

Every failure is an :class:`OutputError` with a one-line message naming the
path; nothing is left behind.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path

from bones.lang.yamlsource import file_kind


class OutputError(ValueError):
    """An output that cannot be written; the message is one line."""


def _reason(err: OSError) -> str:
    return err.strerror or str(err) or type(err).__name__


def resolve_output(path: str | os.PathLike[str]) -> Path:
    """Where writing ``path`` puts the text: the path itself, or the end of
    its chain of symbolic links.  Refuses (:class:`OutputError`) a directory,
    a block device, a socket and a missing folder."""
    name = os.fspath(path)
    target = Path(os.path.realpath(name)) if os.path.islink(name) else Path(name)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        folder = target.parent
        if not folder.is_dir():
            raise OutputError(f"cannot write {name}: no such folder {str(folder) or '.'}") from None
        return target
    except (OSError, ValueError) as err:
        why = _reason(err) if isinstance(err, OSError) else "not a valid path"
        raise OutputError(f"cannot write {name}: {why}") from None
    mode = info.st_mode
    if stat.S_ISREG(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return target
    raise OutputError(f"cannot write {name}: it is {file_kind(mode)}")


def write_output(path: str | os.PathLike[str], text: str, *, fsync: bool = False,
                 new_mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` by the rules of this module.

    ``new_mode`` is the permission of a file created here (default: 0666
    less the umask, as any program's); a replaced file keeps its own.
    ``fsync`` flushes a regular file to the disk before it replaces the old.
    """
    name = os.fspath(path)
    if name == "-":
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as err:
            raise OutputError(f"cannot write to standard output: {_reason(err)}") from None
        return
    target = resolve_output(name)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_through(name, target, text)
        return
    mode = stat.S_IMODE(info.st_mode) if info is not None else (
        new_mode if new_mode is not None else 0o666 & ~_umask())
    _replace(name, target, text, mode, fsync)


def _write_through(name: str, target: Path, text: str) -> None:
    """A device or a FIFO: written to as it is, never created, truncated or replaced."""
    try:
        fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    try:
        data = text.encode("utf-8")
        while data:
            done = os.write(fd, data)
            data = data[done:]
    except OSError as err:
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    finally:
        os.close(fd)


def _replace(name: str, target: Path, text: str, mode: int, fsync: bool) -> None:
    """A regular file (or a new one): a temporary file beside it, renamed over it."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(out.fileno(), mode)
            if fsync:
                os.fsync(out.fileno())
        os.replace(tmp, target)
    except OSError as err:
        _unlink(tmp)
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    except BaseException:
        _unlink(tmp)
        raise


def create_output(path: str | os.PathLike[str], text: str, *, new_mode: int = 0o600) -> bool:
    """Write ``text`` as the new file ``path``, whole; False (nothing written)
    when any file, link or device has that name already.

    The text goes to a temporary file first, hard-linked to ``path`` (an
    atomic create that fails on an existing name), so no reader ever sees
    half a file and nothing is replaced; without hard links, an exclusive
    create.  The folder must exist.
    """
    name = os.fspath(path)
    target = Path(name)
    if not target.parent.is_dir():
        raise OutputError(f"cannot write {name}: no such folder {str(target.parent) or '.'}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                if hasattr(os, "fchmod"):
                    os.fchmod(out.fileno(), new_mode)
            os.link(tmp, target)
        except FileExistsError:
            return False
        except OSError as err:
            if os.path.lexists(target):
                return False
            if isinstance(err, PermissionError) or err.errno in _NO_LINKS:  # pragma: no cover
                return _create_exclusive(name, target, text, new_mode)  # FAT, some shares
            raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    finally:
        _unlink(tmp)
    return True


#: errno values of a file system without hard links
_NO_LINKS = {getattr(errno, e, -1) for e in ("EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV")}


def _create_exclusive(name: str, target: Path, text: str, mode: int) -> bool:  # pragma: no cover
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        return False
    except OSError as err:
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as err:
        _unlink(target)
        raise OutputError(f"cannot write {name}: {_reason(err)}") from None
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _unlink(path: str | os.PathLike[str]) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


__all__ = ["OutputError", "create_output", "resolve_output", "write_output"]
