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
raises :class:`VariantError` carrying them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

MAX_BYTES = 1024 * 1024
MAX_NODES = 100_000
MAX_DEPTH = 64

#: The words YAML 1.1 reads as booleans that people write meaning the word.
BOOL_WORDS = frozenset({"yes", "no", "on", "off", "y", "n"})

_MAP_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:set"}
_SEQ_TAGS = {"tag:yaml.org,2002:seq"}
_MERGE_TAG = "tag:yaml.org,2002:merge"

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


class VariantError(ValueError):
    """A variant file (or name) that cannot be loaded; ``problems`` lists all of them."""

    def __init__(self, problems: Iterable[LocatedProblem]) -> None:
        self.problems: list[LocatedProblem] = list(problems)
        super().__init__("\n".join(p.format() for p in self.problems))

    def __str__(self) -> str:
        return "\n".join(p.format() for p in self.problems)


# --------------------------------------------------------------------- nodes


class YNode:
    """A YAML value with its position.

    ``kind`` is ``"map"`` (``value``: dict of key to ``(key node, value node)``),
    ``"seq"`` (``value``: list of nodes) or ``"scalar"`` (``value``: the Python
    value).  ``block`` is true for a block (indented) mapping or list;
    ``text`` is a scalar's source text; ``bool_word`` is set when a plain
    ``yes``/``no``/``on``/``off`` was read as a boolean.
    """

    __slots__ = ("kind", "value", "file", "line", "col", "block", "text", "bool_word")

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
    ) -> None:
        self.kind = kind
        self.value = value
        self.file = file
        self.line = line
        self.col = col
        self.block = block
        self.text = text
        self.bool_word = bool_word

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


def read_bytes(path: Any, file: str) -> bytes:
    """The bytes of a file (a path or an importlib Traversable), at most MAX_BYTES."""

    def fail(message: str) -> VariantError:
        return VariantError([LocatedProblem(file, 1, 1, (), message)])

    try:
        if isinstance(path, (str, os.PathLike)):
            st = os.stat(path)
            import stat as _stat

            if _stat.S_ISDIR(st.st_mode):
                raise fail("is a directory, not a variant file")
            if st.st_size > MAX_BYTES:
                raise fail(_too_big(st.st_size))
            with open(path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        else:  # a Traversable from importlib.resources
            if not path.is_file():
                raise fail("no such file")
            data = path.read_bytes()
    except FileNotFoundError:
        raise fail("no such file") from None
    except IsADirectoryError:
        raise fail("is a directory, not a variant file") from None
    except PermissionError:
        raise fail("cannot read the file: permission denied") from None
    except OSError as err:
        raise fail(f"cannot read the file: {err.strerror or err}") from None
    if len(data) > MAX_BYTES:
        raise fail(_too_big(len(data)))
    return data


def _too_big(size: int) -> str:
    return f"the file is too large ({size} bytes; variant files are limited to 1 MiB)"


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


def read_yaml(path: Any, file: str | None = None) -> tuple[YNode | None, list[LocatedProblem]]:
    """Read a YAML file into a node tree.

    Returns the root (None for an empty document) and the problems that did
    not stop the reading (duplicate keys, bad scalars); raises
    :class:`VariantError` when the file cannot be read or parsed.
    """
    if file is None:
        file = display_name(path) if isinstance(path, (str, os.PathLike)) else str(path)
    text = decode(read_bytes(path, file), file)
    return parse_yaml(text, file)


def parse_yaml(text: str, file: str) -> tuple[YNode | None, list[LocatedProblem]]:
    """Parse YAML text (see :func:`read_yaml`)."""
    import yaml

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
        import yaml

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
                if node.tag not in _SEQ_TAGS:
                    self.problem(node, path, f"the tag {node.tag} is not supported here (write a plain list)")
                items = [self._build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
                return YNode("seq", items, self.file, line, col, block=not node.flow_style)
            if node.tag not in _MAP_TAGS:
                self.problem(node, path,
                             f"the tag {node.tag} is not supported here (write a plain mapping)")
            return YNode("map", self._entries(node, path, depth), self.file, line, col,
                         block=not node.flow_style)
        finally:
            self.active.discard(id(node))

    def _scalar(self, node: Any, path: Path) -> YNode:
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        try:
            value = self.constructor.construct_object(node)
        except Exception as err:  # noqa: BLE001 - any constructor failure is a problem in the file
            reason = " ".join(str(getattr(err, "problem", None) or err).split())
            self.problem(node, path, f"cannot read the value {node.value!r}: {reason}")
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
