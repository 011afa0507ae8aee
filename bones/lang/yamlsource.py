"""Reading YAML with the line and column of every key and value.

:func:`read_yaml` reads a file with PyYAML's safe loader into a tree of
:class:`YNode` (a mapping, a list or a scalar, each knowing its file, line and
column), so that a problem found later, in the merged and validated variant,
can be reported at the place that wrote the value, even in a parent file.

The reader refuses what PyYAML would load silently or dangerously:

- files over :data:`MAX_BYTES` (before parsing) and bytes that are not UTF-8;
- duplicate keys (PyYAML keeps the last one), naming both positions;
- tags that are not plain YAML types (no Python objects: safe loading only);
- aliases that refer to themselves, and documents that expand past
  :data:`MAX_NODES` values or :data:`MAX_DEPTH` levels.

Keys are kept as ints or strings: a key YAML 1.1 reads as a boolean
(``on:``), a null or a float is kept as the text it was written as, and
remembered, so the error about it can say what happened.

Problems are :class:`LocatedProblem`; a file that cannot be read at all
raises :class:`VariantError` carrying them (:mod:`bones.lang.errors`).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Any

from bones.engine.bounds import NUMBER_LIMIT
from bones.lang.errors import VariantError

MAX_BYTES = 1024 * 1024
MAX_NODES = 100_000
MAX_DEPTH = 64

#: The words YAML 1.1 reads as booleans that people write meaning the word.
BOOL_WORDS = frozenset({"yes", "no", "on", "off", "y", "n"})

_MAP_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:set"}
_SEQ_TAGS = {"tag:yaml.org,2002:seq"}
_MERGE_TAG = "tag:yaml.org,2002:merge"
_SCALAR_TAGS = {
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "timestamp", "value")
}
_STANDARD = "tag:yaml.org,2002:"

Path = tuple[Any, ...]


# ------------------------------------------------------------------ problems


@dataclass(frozen=True)
class LocatedProblem:
    """One problem in a variant file, at a line and column (1-based).

    ``line`` and ``col`` are 0 when the problem has no place in a file (an
    unknown built-in name); ``path`` is the key path, empty for the file.
    """

    file: str
    line: int
    col: int
    path: tuple[str | int, ...]
    message: str

    @property
    def dotted_path(self) -> str:
        return ".".join(str(p) for p in self.path)

    def format(self) -> str:
        """``FILE:LINE:COL: key.path: message``."""
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        if self.path:
            return f"{where}: {self.dotted_path}: {self.message}"
        return f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "path": self.dotted_path,
            "message": self.message,
        }


# --------------------------------------------------------------------- nodes


class YNode:
    """A YAML value with its position.

    ``kind`` is ``"map"`` (``value``: dict of key to ``(key node, value node)``),
    ``"seq"`` (``value``: list of nodes) or ``"scalar"`` (``value``: the Python
    value).  ``block`` is true for a block (indented) mapping or list;
    ``text`` is a scalar's source text; ``bool_word`` is set when a plain
    ``yes``/``no``/``on``/``off`` was read as a boolean; ``refused`` marks a
    value left out because its tag was refused (already reported).
    """

    __slots__ = ("kind", "value", "file", "line", "col", "block", "text", "bool_word", "refused")

    def __init__(
        self,
        kind: str,
        value: Any,
        file: str,
        line: int,
        col: int,
        *,
        block: bool = False,
        text: str | None = None,
        bool_word: bool = False,
        refused: bool = False,
    ) -> None:
        self.kind = kind
        self.value = value
        self.file = file
        self.line = line
        self.col = col
        self.block = block
        self.text = text
        self.bool_word = bool_word
        self.refused = refused

    def __repr__(self) -> str:
        return f"YNode({self.kind}, {self.file}:{self.line}:{self.col})"

    @property
    def is_empty(self) -> bool:
        """A value left empty (``key:`` with nothing after it)."""
        return self.kind == "scalar" and self.value is None and self.text == ""

    def get(self, key: Any) -> tuple[YNode, YNode] | None:
        if self.kind != "map":
            return None
        pair: tuple[YNode, YNode] | None = self.value.get(key)
        return pair

    def refused_paths(self, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The key paths of every refused value under this node."""
        if self.refused:
            return [path]
        if self.kind == "map":
            return [p for k, (_, v) in self.value.items() for p in v.refused_paths(path + (k,))]
        if self.kind == "seq":
            return [p for i, v in enumerate(self.value) for p in v.refused_paths(path + (i,))]
        return []

    def to_plain(self) -> Any:
        """The plain Python value (dicts, lists, scalars)."""
        if self.kind == "map":
            return {k: v.to_plain() for k, (_, v) in self.value.items()}
        if self.kind == "seq":
            return [v.to_plain() for v in self.value]
        return self.value


def from_plain(value: Any, file: str, line: int = 1, col: int = 1) -> YNode:
    """A node tree for a plain value that has no source (overrides given in code)."""
    if isinstance(value, YNode):
        return value
    if isinstance(value, dict):
        entries = {}
        for k, v in value.items():
            entries[k] = (YNode("scalar", k, file, line, col, text=str(k)), from_plain(v, file, line, col))
        return YNode("map", entries, file, line, col)
    if isinstance(value, (list, tuple)):
        return YNode("seq", [from_plain(v, file, line, col) for v in value], file, line, col)
    return YNode("scalar", value, file, line, col, text=None)


# ------------------------------------------------------------------- reading


def display_name(path: str | os.PathLike[str]) -> str:
    """How a file is named in messages: relative to the working directory when inside it."""
    text = os.fspath(path)
    if os.path.isabs(text):
        try:
            rel = os.path.relpath(text)
        except ValueError:  # another drive on Windows
            return text
        if not rel.startswith(os.pardir):
            return rel
    return text


def read_bytes(path: Any, file: str, *, what: str = "variant file") -> bytes:
    """The bytes of a regular file (a path or an importlib Traversable), at most MAX_BYTES.

    The file is opened without blocking and checked to be a regular file
    before anything is read, so a FIFO, a device (``/dev/zero``) or a
    directory is refused at once instead of hanging or reading without end.
    """

    def fail(message: str) -> VariantError:
        return VariantError([LocatedProblem(file, 1, 1, (), message)])

    try:
        if isinstance(path, (str, os.PathLike)):
            data = _read_regular(path, what, fail)
        else:  # a Traversable from importlib.resources
            if not path.is_file():
                raise fail("no such file")
            data = path.read_bytes()
    except FileNotFoundError:
        raise fail("no such file") from None
    except IsADirectoryError:
        raise fail(f"is a directory, not a {what}") from None
    except PermissionError:
        raise fail("cannot read the file: permission denied") from None
    except OSError as err:
        raise fail(f"cannot read the file: {err.strerror or type(err).__name__}") from None
    if len(data) > MAX_BYTES:
        raise fail(_too_big(len(data), what))
    return data


def _read_regular(path: str | os.PathLike[str], what: str, fail: Any) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise fail(f"is a directory, not a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise fail(f"is {file_kind(st.st_mode)}, not a {what} (only regular files are read)")
        if st.st_size > MAX_BYTES:
            raise fail(_too_big(st.st_size, what))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        fh = os.fdopen(fd, "rb")
        fd = -1  # the file object owns it now
        with fh:
            return fh.read(MAX_BYTES + 1)
    finally:
        if fd >= 0:
            os.close(fd)


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words (``a named pipe (FIFO)``)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_stream(stream: Any, file: str, *, what: str = "variant file") -> bytes:
    """At most MAX_BYTES from a binary stream (standard input), or a located error."""
    try:
        data = stream.read(MAX_BYTES + 1)
    except OSError as err:
        message = f"cannot read: {err.strerror or type(err).__name__}"
        raise VariantError([LocatedProblem(file, 1, 1, (), message)]) from None
    if len(data) > MAX_BYTES:
        message = f"the input is too large (more than {MAX_BYTES} bytes; a {what} is limited to 1 MiB)"
        raise VariantError([LocatedProblem(file, 1, 1, (), message)])
    return bytes(data)


def _too_big(size: int, what: str = "variant file") -> str:
    return f"the file is too large ({size} bytes; a {what} is limited to 1 MiB)"


def decode(data: bytes, file: str) -> str:
    """UTF-8 text (a byte-order mark is dropped); other bytes are a located error."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        start = err.start
        line_start = data.rfind(b"\n", 0, start) + 1
        line = data.count(b"\n", 0, start) + 1
        col = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
        if data.startswith(b"\xef\xbb\xbf") and line == 1:
            col -= 1
        raise VariantError(
            [
                LocatedProblem(
                    file, line, col, (),
                    f"the file is not UTF-8 text (byte 0x{data[start]:02x} cannot be read); save it as UTF-8",
                )
            ]
        ) from None


def read_yaml(
    path: Any, file: str | None = None, *, what: str = "variant file"
) -> tuple[YNode | None, list[LocatedProblem]]:
    """Read a YAML file into a node tree.

    Returns the root (None for an empty document) and the problems that did
    not stop the reading (duplicate keys, bad scalars); raises
    :class:`VariantError` when the file cannot be read or parsed.
    """
    if file is None:
        file = display_name(path) if isinstance(path, (str, os.PathLike)) else str(path)
    text = decode(read_bytes(path, file, what=what), file)
    return parse_yaml(text, file)


def parse_yaml(text: str, file: str) -> tuple[YNode | None, list[LocatedProblem]]:
    """Parse YAML text (see :func:`read_yaml`)."""
    import yaml  # lazy: a simulation reads no YAML (compiled-variant cache)

    loader = None
    try:
        loader = yaml.SafeLoader(text)
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as err:
        raise VariantError([_syntax_problem(err, file)]) from None
    except yaml.reader.ReaderError as err:
        line, col = _offset_position(text, err.position)
        what = f"#x{err.character:04x}" if isinstance(err.character, int) else repr(err.character)
        raise VariantError(
            [LocatedProblem(file, line, col, (), f"YAML syntax error: the character {what} is not allowed")]
        ) from None
    except yaml.YAMLError as err:  # pragma: no cover - every PyYAML error is one of the above
        raise VariantError([LocatedProblem(file, 1, 1, (), f"YAML syntax error: {err}")]) from None
    except RecursionError:
        raise VariantError(
            [LocatedProblem(file, 1, 1, (), f"the file is nested too deeply (more than {MAX_DEPTH} levels)")]
        ) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        return None, []
    builder = _Builder(file)
    root = builder.build(node, (), 0)
    return root, builder.problems


def _offset_position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _syntax_problem(err: Any, file: str) -> LocatedProblem:
    mark = err.problem_mark or err.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    message = err.problem or err.context or "cannot be parsed"
    if err.problem and err.context:
        where = ""
        if err.context_mark is not None and err.context_mark is not err.problem_mark:
            where = f" at line {err.context_mark.line + 1}, column {err.context_mark.column + 1}"
        message = f"{err.problem} ({err.context}{where})"
    return LocatedProblem(file, line, col, (), f"YAML syntax error: {message}")


class _Fatal(Exception):
    pass


class _Builder:
    """Turns PyYAML's composed nodes into YNodes, collecting problems."""

    def __init__(self, file: str) -> None:
        import yaml  # lazy: a simulation reads no YAML (compiled-variant cache)

        self.yaml = yaml
        self.file = file
        self.problems: list[LocatedProblem] = []
        self.count = 0
        self.active: set[int] = set()
        self.constructor = yaml.constructor.SafeConstructor()

    def problem(self, node: Any, path: Path, message: str) -> None:
        mark = node.start_mark
        self.problems.append(LocatedProblem(self.file, mark.line + 1, mark.column + 1, tuple(path), message))

    def build(self, node: Any, path: Path, depth: int) -> YNode:
        try:
            return self._build(node, path, depth)
        except _Fatal:
            raise VariantError(self.problems) from None

    def _build(self, node: Any, path: Path, depth: int) -> YNode:
        yaml = self.yaml
        self.count += 1
        if self.count > MAX_NODES:
            self.problem(node, path, f"the file has more than {MAX_NODES} values (after expanding aliases)")
            raise _Fatal
        if depth > MAX_DEPTH:
            self.problem(node, path, f"nested too deeply (more than {MAX_DEPTH} levels)")
            raise _Fatal
        if id(node) in self.active:
            self.problem(node, path, "an alias refers to the value that contains it")
            raise _Fatal
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                if node.tag not in _SEQ_TAGS and self.refuse_tag(node, path, "a plain list"):
                    return self.refused(node, line, col)
                items = [self._build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
                return YNode("seq", items, self.file, line, col, block=not node.flow_style)
            if node.tag not in _MAP_TAGS and self.refuse_tag(node, path, "a plain mapping"):
                return self.refused(node, line, col)
            return YNode("map", self._entries(node, path, depth), self.file, line, col,
                         block=not node.flow_style)
        finally:
            self.active.discard(id(node))

    def refuse_tag(self, node: Any, path: Path, plain: str) -> bool:
        """Report a tag that is not plain YAML (once: the value is then left out)."""
        tag = str(node.tag)
        shown = "!!" + tag[len(_STANDARD):] if tag.startswith(_STANDARD) else tag
        if tag.startswith(_STANDARD + "python/"):
            self.problem(node, path,
                         f"the tag {shown} is not allowed: bones reads plain YAML only, never Python objects")
        else:
            self.problem(node, path, f"the tag {shown} is not supported here (write {plain})")
        return True

    def refused(self, node: Any, line: int, col: int) -> YNode:
        """A refused value: empty, and marked so later checks say nothing more about it."""
        return YNode("scalar", None, self.file, line, col, text=None, refused=True)

    def _scalar(self, node: Any, path: Path) -> YNode:
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        if node.tag not in _SCALAR_TAGS and self.refuse_tag(node, path, "a plain value"):
            return self.refused(node, line, col)
        try:
            value = self.constructor.construct_object(node)
        except Exception as err:  # noqa: BLE001 - any constructor failure is a problem in the file
            reason = " ".join(str(getattr(err, "problem", None) or err).split())[:120]
            text = str(node.value)
            shown = repr(text) if len(text) <= 40 else repr(text[:37] + "...")
            if "integer string conversion" in reason:  # Python's own cap on digits
                reason = f"a number of {len(text)} digits (at most {NUMBER_LIMIT})"
            self.problem(node, path, f"cannot read the value {shown}: {reason}")
            value = node.value
        bool_word = (
            isinstance(value, bool) and node.style is None and node.value.lower() in BOOL_WORDS
        )
        return YNode("scalar", value, self.file, line, col, text=node.value, bool_word=bool_word)

    def _key(self, key_node: Any, path: Path, depth: int) -> tuple[Any, YNode] | None:
        yaml = self.yaml
        if not isinstance(key_node, yaml.ScalarNode):
            self.problem(key_node, path, "a key must be a single word or number, not a list or mapping")
            return None
        kn = self._scalar(key_node, path)
        key = kn.value
        if isinstance(key, bool) or not isinstance(key, (str, int)):
            key = key_node.value  # on:, null:, 1.5: are kept as written
        return key, kn

    def _entries(self, node: Any, path: Path, depth: int) -> dict[Any, tuple[YNode, YNode]]:
        explicit: dict[Any, tuple[YNode, YNode]] = {}
        merged: dict[Any, tuple[YNode, YNode]] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                for source in self._merge_sources(value_node, path, depth):
                    for k, entry in source.value.items():
                        merged.setdefault(k, entry)
                continue
            got = self._key(key_node, path, depth)
            if got is None:
                continue
            key, kn = got
            value = self._build(value_node, path + (key,), depth + 1)
            if key in explicit:
                first = explicit[key][0]
                self.problem(key_node, path + (key,),
                             f"duplicate key {_quote(key)} (first at line {first.line})")
            explicit[key] = (kn, value)
        if not merged:
            return explicit
        result = {k: v for k, v in merged.items() if k not in explicit}
        result.update(explicit)
        return result

    def _merge_sources(self, value_node: Any, path: Path, depth: int) -> list[YNode]:
        built = self._build(value_node, path, depth + 1)
        sources = built.value if built.kind == "seq" else [built]
        good = [s for s in sources if s.kind == "map"]
        if len(good) != len(sources):
            self.problem(value_node, path, "a merge key (<<) takes a mapping or a list of mappings")
        return good


def _quote(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)
