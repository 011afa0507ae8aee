"""Loading variant files: the public API.

>>> from bones.lang.load import load_variant
>>> variant = load_variant("all-fives")                       # doctest: +SKIP
>>> variant = load_variant("house.yaml", overrides={"deal": {"hand_size": 6}})  # doctest: +SKIP

A *ref* is a built-in variant's name or alias (any case) or the path of a YAML
file.  Loading reads the file safely, follows ``extends:`` (deep-merging each
parent under its child), validates the result against :class:`bones.lang.spec.Variant`
and runs :func:`bones.lang.spec.semantic_problems`.  Any failure raises
:class:`VariantError`, whose ``problems`` are *all* the problems found, each a
:class:`LocatedProblem` at the file, line and column that wrote the value --
in the parent file when the value came from a parent::

    house.yaml:4:14: deal.hand_size: not a whole number (expected an integer
    or a mapping of player counts, got 'seven')

(one line when printed; wrapped here).

Merging (``extends``, and the ``overrides`` of scenario files): mappings merge
key by key; scalars and lists replace; a mapping whose ``kind:`` differs from
the parent's replaces it whole.  A file that extends another gives its own
``name``; its ``aliases``, ``summary`` and ``sources`` are its own too (never
inherited: the parent's prose describes the parent's rules).  Values the
parent gives for player counts the child no longer allows are dropped.
"""

from __future__ import annotations

import difflib
import functools
import os
import stat
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import yaml
from pydantic import ValidationError

from bones.lang.errors import VariantError
from bones.lang.problems import find, locate_at, position, pydantic_problems, show_value
from bones.lang.spec import FORMS, Variant, per_count_values, semantic_problems
from bones.lang.yamlsource import (
    MAX_BYTES,
    LocatedProblem,
    YNode,
    decode,
    display_name,
    file_kind,
    from_plain,
    parse_yaml,
    read_yaml,
)

if typing.TYPE_CHECKING:  # pragma: no cover
    from importlib.resources.abc import Traversable

    from bones.lang.spec import Variant

__all__ = [
    "LocatedProblem",
    "VariantError",
    "Origin",
    "MAX_EXTENDS",
    "builtin_names",
    "builtin_path",
    "deep_merge",
    "load_mapping",
    "load_variant",
    "load_variant_text",
]

#: The most ``extends`` links a chain may follow (a file and 8 ancestors).
MAX_EXTENDS = 8

_YAML_SUFFIXES = (".yaml", ".yml")


# ------------------------------------------------------------ the registry


def _builtin_dir() -> Path:
    """The built-in variant files: ``bones/variants`` inside an installed
    wheel, the top-level ``variants/`` folder in a source checkout."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "variants"
    return installed if installed.is_dir() else package.parent / "variants"


@functools.lru_cache(maxsize=1)
def _registry() -> tuple[dict[str, Traversable], tuple[str, ...]]:
    """(lower-case name/alias/file stem -> file, the canonical names)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    index: dict[str, Traversable] = {}
    names: list[str] = []
    try:
        entries = sorted(_builtin_dir().iterdir(), key=lambda e: e.name)
    except (OSError, ModuleNotFoundError):  # pragma: no cover - a broken install
        entries = []
    for entry in entries:
        if not entry.name.lower().endswith(_YAML_SUFFIXES) or not entry.is_file():
            continue
        stem = entry.name.rsplit(".", 1)[0]
        name, aliases = stem, []
        try:
            data = yaml.load(entry.read_bytes(), Loader=loader)  # noqa: S506 - a safe loader
        except Exception:  # noqa: BLE001 - a broken built-in is still listed; loading it reports why
            data = None
        if isinstance(data, dict):
            if isinstance(data.get("name"), str) and data["name"]:
                name = data["name"]
            if isinstance(data.get("aliases"), list):
                aliases = [a for a in data["aliases"] if isinstance(a, str)]
        names.append(name)
        for key in (name, stem, *aliases):
            index.setdefault(key.lower(), entry)
    return index, tuple(sorted(set(names)))


def builtin_names() -> list[str]:
    """The names of the built-in variants, sorted."""
    return list(_registry()[1])


def _unknown_name(name: str) -> VariantError:
    index, _ = _registry()
    message = f"unknown variant {name!r}"
    close = difflib.get_close_matches(name.lower(), list(index), n=1, cutoff=0.6)
    if close:
        message += f"; did you mean {close[0]!r}?"
    message += " (bones list shows them)"
    return VariantError([LocatedProblem(name, 0, 0, (), message)])


def _find_builtin(name: str) -> Traversable | None:
    key = name.strip().lower()
    if not key or "/" in key or "\\" in key:
        return None
    fast = _builtin_dir() / f"{key}.yaml"
    try:
        if fast.is_file():
            return fast
    except OSError:  # pragma: no cover
        pass
    return _registry()[0].get(key)


def builtin_path(name: str) -> Traversable:
    """The file of a built-in variant named ``name`` (or an alias), any case.

    Raises :class:`VariantError` naming the built-in variants (and the closest
    one) when there is no such variant.  The result is a :class:`pathlib.Path`
    in a source checkout or an ordinary install.
    """
    found = _find_builtin(name)
    if found is None:
        raise _unknown_name(name)
    return found


# ------------------------------------------------------------------ merging


def _kind_changed(parent: YNode, child: YNode) -> bool:
    p, c = parent.get("kind"), child.get("kind")
    if p is None or c is None:
        return False
    pv, cv = p[1].value, c[1].value
    return type(pv) is not type(cv) or pv != cv


def _merge_nodes(parent: YNode, child: YNode) -> YNode:
    if parent.kind != "map" or child.kind != "map" or _kind_changed(parent, child):
        return child
    entries = dict(parent.value)
    for key, (key_node, value) in child.value.items():
        if key in entries:
            entries[key] = (key_node, _merge_nodes(entries[key][1], value))
        else:
            entries[key] = (key_node, value)
    return YNode("map", entries, child.file, child.line, child.col, block=child.block)


def deep_merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """``child`` merged over ``parent`` (neither is changed).

    Mappings merge key by key; scalars and lists replace; a mapping whose
    ``kind`` differs from the parent's replaces it whole.

    >>> deep_merge({"deal": {"hand_size": 7, "reserve": 1}, "match": {"kind": "target", "points": 61}},
    ...            {"deal": {"hand_size": 5}, "match": {"kind": "hands", "count": 3}})
    {'deal': {'hand_size': 5, 'reserve': 1}, 'match': {'kind': 'hands', 'count': 3}}
    """
    merged: dict[str, Any] = _merge_nodes(from_plain(parent, "<parent>"),
                                          from_plain(child, "<child>")).to_plain()
    return merged


#: Keys a file never inherits: who it is, and the prose that describes its
#: rules (the parent's summary and source notes describe the parent's rules,
#: which the child changes; ``bones show`` must not print them as the child's).
OWN_KEYS = frozenset({"name", "aliases", "extends", "summary", "sources"})


def _merge_extends(parent: YNode, child: YNode) -> YNode:
    """A child file over its parent: the child's own name, aliases, summary and sources."""
    own = OWN_KEYS
    base = YNode(
        "map",
        {k: v for k, v in parent.value.items() if k not in own},
        parent.file,
        parent.line,
        parent.col,
        block=parent.block,
    )
    merged = _merge_nodes(base, child)
    # the child's own keys first, as a file would write them
    head = {k: merged.value[k] for k in ("name", "extends", "aliases") if k in merged.value}
    merged.value = {**head, **{k: v for k, v in merged.value.items() if k not in head}}
    return merged


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class Origin:
    """Where a loaded variant came from.

    ``file`` names the file read (as messages name it), ``builtin`` the
    built-in variant's name when ``ref`` named one, ``chain`` the file and then
    each file it extends.  ``locate(path)`` gives the file, line and column
    that wrote the value at a key path (the nearest written parent when the
    value is a default).
    """

    file: str
    builtin: str | None
    chain: tuple[str, ...]
    tree: YNode = field(repr=False, compare=False)

    def locate(self, path: tuple[str | int, ...] | list[str | int]) -> tuple[str, int, int]:
        node, key_node, _ = find(self.tree, tuple(path))
        at = position(node, key_node)
        return at.file, at.line, at.col


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.lower().endswith(_YAML_SUFFIXES)


#: The environment variable read when ``allow_dirs`` is not given: folders
#: (separated by ``os.pathsep``) whose files ``extends:`` may also name.
ALLOW_DIRS_ENV = "BONES_ALLOW_DIRS"


def _allowed_roots(allow_dirs: Iterable[str | os.PathLike[str]] | None) -> tuple[str, ...]:
    if allow_dirs is None:
        allow_dirs = [d for d in os.environ.get(ALLOW_DIRS_ENV, "").split(os.pathsep) if d]
    return tuple(os.path.realpath(os.fspath(d)) for d in allow_dirs)


def _inside(path: str, folder: str) -> bool:
    try:
        return os.path.commonpath([path, folder]) == folder
    except ValueError:  # different drives
        return False


@dataclass(frozen=True)
class _Text:
    """A variant given as text (an upload, standard input): it has no folder."""

    data: bytes
    file: str


#: ``named_by`` for a ref written in text that has no folder (standard input).
NO_FOLDER = _Text(b"", "<text>")


class _Reader:
    """Reads a chain of variant files under the file access policy (docs/language.md).

    A parent named by ``extends:`` is a built-in name, or a ``.yaml``/``.yml``
    regular file whose real path lies inside the folder of the file that
    names it, or inside one of ``allow_dirs``.  Text without a folder may
    name files only inside ``allow_dirs``, and none when ``allow_files`` is
    false.
    """

    def __init__(self, allow_dirs: Iterable[str | os.PathLike[str]] | None = None,
                 allow_files: bool = True) -> None:
        self.problems: list[LocatedProblem] = []
        self.files: list[str] = []
        self.builtin_files: set[str] = set()
        self.roots = _allowed_roots(allow_dirs) if allow_files else ()
        self.allow_files = allow_files

    def fail(self, *problems: LocatedProblem) -> VariantError:
        return VariantError(self.problems + list(problems))

    def open_ref(self, ref: str | os.PathLike[str]) -> tuple[Any, str, str | None]:
        """(the file to read, its display name, the built-in name or None)."""
        if isinstance(ref, os.PathLike):
            return ref, display_name(ref), None
        if not isinstance(ref, str):
            raise TypeError(f"a variant ref is a name or a path, not {type(ref).__name__}")
        if _looks_like_path(ref):
            return ref, display_name(ref), None
        found = _find_builtin(ref)
        if found is not None:
            self.builtin_files.add(_builtin_display(found))
            return found, _builtin_display(found), ref
        if os.path.exists(ref):
            return ref, display_name(ref), None
        raise _unknown_name(ref)

    def read_root(self, source: Any, display: str) -> tuple[YNode | None, list[LocatedProblem]]:
        if isinstance(source, _Text):
            return parse_yaml(decode(source.data, display), display)
        return read_yaml(source, display)

    def read_tree(self, source: Any, display: str, chain: list[tuple[str, str]]) -> YNode:
        if display not in self.files:
            self.files.append(display)
        try:
            root, problems = self.read_root(source, display)
        except VariantError as err:
            raise self.fail(*err.problems) from None
        if root is not None and root.refused:
            raise self.fail(*problems)
        if root is None:
            raise self.fail(
                LocatedProblem(display, 1, 1, (),
                               "the file is empty (expected a mapping of keys, like name: my-variant)")
            )
        if root.kind != "map":
            # say what is wrong, never what the file holds: it may not be a variant file at all
            what = "a list" if root.kind == "seq" else "a single value"
            raise self.fail(
                LocatedProblem(
                    display, root.line, root.col, (),
                    f"the file must be a mapping of keys (like name: my-variant), not {what}",
                )
            )
        self.problems.extend(problems)
        chain = chain + [(_identity(source), display)]
        entry = root.get("extends")
        if entry is None or entry[1].value is None:
            return root
        node = entry[1]
        if node.kind != "scalar" or not isinstance(node.value, str) or not node.value.strip():
            raise self.fail(
                locate_at(node, None, ("extends",),
                    f"not a variant name or path (expected a built-in variant name or a path relative "
                    f"to this file, got {show_value(node.to_plain(), node)})")
            )
        parent_source, parent_display = self.resolve_parent(source, node)
        names = [d for _, d in chain]
        ident = _identity(parent_source)
        if any(ident == i for i, _ in chain):
            raise self.fail(
                locate_at(node, None, ("extends",), "cycle: " + " -> ".join(names + [parent_display]))
            )
        if len(chain) > MAX_EXTENDS:
            raise self.fail(
                locate_at(node, None, ("extends",),
                    f"chain deeper than {MAX_EXTENDS} files: " + " -> ".join(names + [parent_display]))
            )
        parent = self.read_tree(parent_source, parent_display, chain)
        return _merge_extends(parent, root)

    def resolve_parent(self, source: Any, node: YNode) -> tuple[Any, str]:
        ref: str = node.value.strip()
        if not _looks_like_path(ref):
            found = _find_builtin(ref)
            if found is None:
                err = _unknown_name(ref)
                raise self.fail(locate_at(node, None, ("extends",), err.problems[0].message))
            self.builtin_files.add(_builtin_display(found))
            return found, _builtin_display(found)
        problem = self.check_path(ref, source)
        if isinstance(problem, str):
            raise self.fail(locate_at(node, None, ("extends",), problem))
        return problem

    def check_path(self, ref: str, named_by: Any) -> str | tuple[Any, str]:
        """(the file, its display name) for a path that ``named_by`` names, or what is wrong."""
        if "\x00" in ref:  # no file system takes one: say so where it is written
            return f"{ref!r} is not a path (it holds a NUL byte)"
        if not isinstance(named_by, (str, os.PathLike, _Text)):  # a built-in inside a zipped install
            inside = _builtin_dir().joinpath(*ref.replace("\\", "/").split("/"))
            if not inside.is_file():
                return f"no such file {ref!r} (looked for <built-in>/{ref})"
            return inside, f"<built-in>/{ref}"
        folders = list(self.roots)
        if isinstance(named_by, _Text):
            if not self.allow_files:
                return f"{ref!r}: here extends may name only a built-in variant (bones list shows them)"
            if not folders:
                return (f"{ref!r} is not a built-in variant, and text read without a folder may name "
                        f"only files inside a folder given with --allow-dir")
            base, shown_base, whose = os.getcwd(), "", "every folder given with --allow-dir"
        else:
            base = os.path.dirname(os.path.abspath(os.fspath(named_by)))
            shown_base = os.path.dirname(display_name(named_by))
            whose = "the folder of the file that names it"
            folders.append(os.path.realpath(base))
        target = os.path.join(base, ref)
        shown = ref if os.path.isabs(ref) else os.path.normpath(os.path.join(shown_base, ref))
        real = os.path.realpath(target)
        if not any(_inside(real, folder) for folder in folders):
            return (f"{ref!r} is outside {whose} (name a built-in variant, or a .yaml file inside "
                    f"that folder; --allow-dir DIR allows another folder)")
        try:
            st = os.stat(real)
        except FileNotFoundError:
            return f"no such file {ref!r} (looked for {shown})"
        except OSError as err:
            return f"cannot read {ref!r}: {err.strerror or type(err).__name__}"
        if stat.S_ISDIR(st.st_mode):
            return f"{ref!r} is a directory, not a variant file"
        if not stat.S_ISREG(st.st_mode):
            return f"{ref!r} is {file_kind(st.st_mode)}, not a variant file (only regular files are read)"
        if not ref.lower().endswith(_YAML_SUFFIXES):
            return f"{ref!r} is not a variant file (a parent file's name ends in .yaml or .yml)"
        return target, shown


def _identity(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.path.normcase(os.path.realpath(os.fspath(source)))
    return str(source)


def _builtin_display(entry: Any) -> str:
    if isinstance(entry, os.PathLike):
        return display_name(os.fspath(entry))
    return f"<built-in>/{entry.name}"


def _resolve(ref: Any, reader: _Reader, named_by: Any = None) -> tuple[YNode, Origin]:
    source: Any  # a _Text, a Path or a built-in's Traversable: what read_tree reads
    if isinstance(ref, _Text):
        source, display, builtin = ref, ref.file, None
    elif named_by is not None and isinstance(ref, str) and _looks_like_path(ref):
        found = reader.check_path(ref, named_by)
        if isinstance(found, str):
            raise VariantError([LocatedProblem(ref, 0, 0, (), found)])
        source, display = found
        builtin = None
    elif named_by is not None and isinstance(ref, str):
        # a ref written in a file that is not a path is a built-in name, never
        # a file found from the working directory
        entry = _find_builtin(ref)
        if entry is None:
            raise _unknown_name(ref)
        source, display, builtin = entry, _builtin_display(entry), ref
        reader.builtin_files.add(display)
    else:
        source, display, builtin = reader.open_ref(ref)
    try:
        tree = reader.read_tree(source, display, [])
    except VariantError as err:
        raise VariantError(_sorted(err.problems, tuple(reader.files))) from None
    return tree, Origin(display, builtin, tuple(reader.files), tree)


Dirs = Union[Iterable[Union[str, "os.PathLike[str]"]], None]


def load_mapping(ref: str | os.PathLike[str], *, allow_dirs: Dirs = None) -> tuple[dict[str, Any], Origin]:
    """The mapping a variant file describes once its ``extends`` chain is merged.

    It is not validated (see :func:`load_variant`); reading problems (YAML
    syntax, duplicate keys, a missing parent...) raise :class:`VariantError`.
    """
    reader = _Reader(allow_dirs)
    tree, origin = _resolve(ref, reader)
    if reader.problems:
        raise VariantError(_sorted(reader.problems, origin.chain))
    return tree.to_plain(), origin


def load_variant(
    ref: str | os.PathLike[str],
    *,
    overrides: dict[str, Any] | YNode | None = None,
    allow_dirs: Dirs = None,
    named_by: str | os.PathLike[str] | _Text | None = None,
) -> Variant:
    """Read, merge, validate and check a variant; raise :class:`VariantError` listing every problem.

    ``overrides`` (a mapping, such as a scenario file's ``rules:``) is merged
    over the variant with the rules of :func:`deep_merge`.  Give it as a
    :class:`bones.lang.yamlsource.YNode` (from
    :func:`bones.lang.yamlsource.read_yaml`) to have its problems located in its
    own file; plain values are reported at ``<overrides>``.

    A file named by ``extends:`` must be a ``.yaml``/``.yml`` regular file
    inside the folder of the file naming it, or inside one of ``allow_dirs``
    (default: the folders in the ``BONES_ALLOW_DIRS`` environment variable).
    ``named_by`` (a scenario file) makes a path ``ref`` obey the same rule,
    relative to that file; :data:`NO_FOLDER` for a ref from text with no
    folder (it may name only files inside ``allow_dirs``).
    """
    reader = _Reader(allow_dirs)
    tree, origin = _resolve(ref, reader, named_by)
    return _validated(tree, origin, reader, overrides)


def load_variant_text(
    text: str | bytes,
    *,
    file: str = "<text>",
    allow_files: bool = False,
    allow_dirs: Dirs = None,
    overrides: dict[str, Any] | YNode | None = None,
) -> Variant:
    """A variant from text (an upload, standard input), as :func:`load_variant` reads a file.

    Text has no folder of its own: with ``allow_files`` false (the default)
    its ``extends:`` may name only a built-in variant; with it true, also a
    file inside ``allow_dirs`` (relative paths from the working directory).
    Problems are located at ``file``, line and column.

    >>> load_variant_text("name: mine\\nextends: sniff\\n", file="upload.yaml").name
    'mine'
    """
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    if len(data) > MAX_BYTES:
        raise VariantError([LocatedProblem(file, 1, 1, (), f"the text is too large ({len(data)} bytes; "
                                           "a variant file is limited to 1 MiB)")])
    reader = _Reader(allow_dirs if allow_files else (), allow_files)
    tree, origin = _resolve(_Text(data, file), reader)
    return _validated(tree, origin, reader, overrides)


def _validated(tree: YNode, origin: Origin, reader: _Reader,
               overrides: dict[str, Any] | YNode | None) -> Variant:
    files = origin.chain
    if overrides is not None:
        over = from_plain(overrides, "<overrides>")
        if over.kind != "map":
            raise VariantError([LocatedProblem(over.file, over.line, over.col, (),
                                               "overrides must be a mapping")])
        merged = _merge_nodes(tree, over)
        # problems with the variant as a whole stay at the variant's file
        tree = YNode("map", merged.value, tree.file, tree.line, tree.col, block=tree.block)
        if over.file not in files:
            files = files + (over.file,)
    if len(origin.chain) > 1:
        tree = _fit_inherited_to_counts(tree, origin.file)
    variant, problems = validate_tree(tree)
    problems = _into_own_file(problems, tree, origin.file, reader.builtin_files)
    refused = tree.refused_paths()
    if refused:  # a refused tag was reported once; nothing more about its value
        problems = [p for p in problems if not any(p.path[: len(r)] == r for r in refused)]
    problems = reader.problems + problems
    if problems:
        raise VariantError(_sorted(problems, files))
    assert variant is not None
    return variant


def _fit_inherited_to_counts(tree: YNode, own: str) -> YNode:
    """Drop what a file inherited for player counts it no longer allows.

    A house rule that narrows ``players.counts`` never has to override the
    parent's per-count values (``hand_size: {2: 7, 3: 6, 4: 5}``) or
    partnership counts for the counts it dropped: inherited entries for those
    counts go; anything the file itself wrote stays (and is checked).
    """

    written, _, found = find(tree, ("players", "counts"))
    if not found or written.file != own:
        return tree  # the counts are inherited with the values
    try:
        variant = Variant.model_validate(tree.to_plain(), strict=True)
    except ValidationError:
        return tree  # the problems are reported as they are
    counts = set(variant.players.counts)
    for path, value in per_count_values(variant):
        if set(value) <= counts:
            continue
        node, _, found = find(tree, path)
        if found and node.kind == "map":
            node.value = {
                k: (kn, v) for k, (kn, v) in node.value.items()
                if k in counts or not isinstance(k, int) or kn.file == own
            }
    parts = find(tree, ("players", "partnerships"))
    node, key_node, found = find(tree, ("players", "partnerships", "player_counts"))
    partnered = variant.players.partnerships.kind != "none"
    if (found and partnered and node.kind == "seq" and node.file != own
            and not set(variant.players.partnerships.player_counts) <= counts):
        node.value = [item for item in node.value if item.value in counts]
        if not node.value and parts[2] and parts[0].kind == "map":
            # no partnership game is left: the inherited partnership rules go too
            parts[0].value = {k: e for k, e in parts[0].value.items() if e[0].file == own}
            parts[0].value.setdefault("kind", (YNode("scalar", "kind", own, 0, 0),
                                               YNode("scalar", "none", own, 0, 0)))
            both, _, has_both = find(tree, ("hand_end", "partners_both_out"))
            if has_both and both.file != own:
                hand_end, _, _ = find(tree, ("hand_end",))
                hand_end.value = {k: e for k, e in hand_end.value.items() if k != "partners_both_out"}
    return tree


def _into_own_file(
    problems: list[LocatedProblem], tree: YNode, own: str, builtin_files: set[str]
) -> list[LocatedProblem]:
    """Point problems found in a built-in parent at the user's own file.

    A built-in file is valid on its own, so a problem inside it comes from a
    change the user's file made; it is reported at the nearest key that file
    wrote (or its top), saying which built-in the value comes from.
    """
    if own in builtin_files:
        return problems
    out = []
    for p in problems:
        if p.file not in builtin_files:
            out.append(p)
            continue
        at = tree
        node, key_node = tree, None
        for el in p.path:
            entry = node.get(el) if node.kind == "map" else None
            if entry is None:
                break
            key_node, node = entry
            if key_node.file == own:
                at = key_node
        line, col = (at.line, at.col) if at is not tree else (1, 1)
        parent = p.file.rsplit("/", 1)[-1]
        out.append(LocatedProblem(own, line, col, p.path, f"{p.message} (the value comes from {parent})"))
    return out


def _sorted(problems: list[LocatedProblem], files: tuple[str, ...]) -> list[LocatedProblem]:
    rank = {f: i for i, f in enumerate(files)}
    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=lambda p: (rank.get(p.file, len(rank)), p.file, p.line, p.col))


# --------------------------------------------------------------- validation


def validate_tree(tree: YNode) -> tuple[Variant | None, list[LocatedProblem]]:
    """Validate a merged node tree: (the variant or None, its located problems)."""

    data = tree.to_plain()
    try:
        variant = Variant.model_validate(data, strict=True)
    except ValidationError as err:
        return None, pydantic_problems(tree, err.errors(include_url=False), Variant, FORMS)
    problems = []
    for problem in semantic_problems(variant):
        node, key_node, _ = find(tree, tuple(problem.path))
        problems.append(locate_at(node, key_node, tuple(problem.path), problem.message))
    return (variant if not problems else None), problems
