"""Loading variant files: the public API.

>>> from bones.engine.load import load_variant
>>> variant = load_variant("all-fives")                       # doctest: +SKIP
>>> variant = load_variant("house.yaml", overrides={"deal": {"hand_size": 6}})  # doctest: +SKIP

A *ref* is a built-in variant's name or alias (any case) or the path of a YAML
file.  Loading reads the file safely, follows ``extends:`` (deep-merging each
parent under its child), validates the result against :class:`bones.engine.spec.Variant`
and runs :func:`bones.engine.spec.semantic_problems`.  Any failure raises
:class:`VariantError`, whose ``problems`` are *all* the problems found, each a
:class:`LocatedProblem` at the file, line and column that wrote the value --
in the parent file when the value came from a parent::

    house.yaml:4:14: deal.hand_size: not a whole number (expected an integer or a mapping of player counts, got 'seven')

Merging (``extends``, and the ``overrides`` of scenario files): mappings merge
key by key; scalars and lists replace; a mapping whose ``kind:`` differs from
the parent's replaces it whole.  A file that extends another gives its own
``name`` and ``aliases`` (aliases are never inherited); ``summary`` and
``sources`` are inherited unless given.
"""

from __future__ import annotations

import difflib
import functools
import os
import stat
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Literal, Union, get_args, get_origin

from bones.engine.yamlsource import (
    MAX_BYTES,
    LocatedProblem,
    VariantError,
    YNode,
    decode,
    display_name,
    file_kind,
    from_plain,
    parse_yaml,
    read_yaml,
)

if typing.TYPE_CHECKING:  # pragma: no cover
    from bones.engine.spec import Variant

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
def _registry() -> tuple[dict[str, Any], tuple[str, ...]]:
    """(lower-case name/alias/file stem -> file, the canonical names)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    index: dict[str, Any] = {}
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


def _find_builtin(name: str) -> Any | None:
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


def builtin_path(name: str) -> Any:
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


def _merge_extends(parent: YNode, child: YNode) -> YNode:
    """A child file over its parent: the child's own name and aliases; no parent extends."""
    own = {"name", "aliases", "extends"}
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
        node, key_node, _ = _find(self.tree, tuple(path))
        at = _position(node, key_node)
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
                LocatedProblem(display, 1, 1, (), "the file is empty (expected a mapping of keys, like name: my-variant)")
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
                _at(node, None, ("extends",),
                    f"not a variant name or path (expected a built-in variant name or a path relative "
                    f"to this file, got {_show(node.to_plain(), node)})")
            )
        parent_source, parent_display = self.resolve_parent(source, node)
        names = [d for _, d in chain]
        ident = _identity(parent_source)
        if any(ident == i for i, _ in chain):
            raise self.fail(
                _at(node, None, ("extends",), "cycle: " + " -> ".join(names + [parent_display]))
            )
        if len(chain) > MAX_EXTENDS:
            raise self.fail(
                _at(node, None, ("extends",),
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
                raise self.fail(_at(node, None, ("extends",), err.problems[0].message))
            self.builtin_files.add(_builtin_display(found))
            return found, _builtin_display(found)
        problem = self.check_path(ref, source)
        if isinstance(problem, str):
            raise self.fail(_at(node, None, ("extends",), problem))
        return problem

    def check_path(self, ref: str, named_by: Any) -> str | tuple[Any, str]:
        """(the file, its display name) for a path that ``named_by`` names, or what is wrong."""
        if not isinstance(named_by, (str, os.PathLike, _Text)):  # a built-in inside a zipped install
            target = _builtin_dir().joinpath(*ref.replace("\\", "/").split("/"))
            if not target.is_file():
                return f"no such file {ref!r} (looked for <built-in>/{ref})"
            return target, f"<built-in>/{ref}"
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
            shown_base, whose = os.path.dirname(display_name(named_by)), "the folder of the file that names it"
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
    if isinstance(ref, _Text):
        source, display, builtin = ref, ref.file, None
    elif named_by is not None and isinstance(ref, str) and _looks_like_path(ref):
        found = reader.check_path(ref, named_by)
        if isinstance(found, str):
            raise VariantError([LocatedProblem(ref, 0, 0, (), found)])
        source, display = found
        builtin = None
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
    over the variant with the rules of :func:`deep_merge`.  Give it as a :class:`bones.engine.yamlsource.YNode` (from
    :func:`bones.engine.yamlsource.read_yaml`) to have its problems located in its
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


def _validated(tree: YNode, origin: Origin, reader: _Reader, overrides: dict[str, Any] | YNode | None) -> Variant:
    files = origin.chain
    if overrides is not None:
        over = from_plain(overrides, "<overrides>")
        if over.kind != "map":
            raise VariantError([LocatedProblem(over.file, over.line, over.col, (), "overrides must be a mapping")])
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
    from pydantic import ValidationError

    from bones.engine.spec import Variant, per_count_values

    written, _, found = _find(tree, ("players", "counts"))
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
        node, _, found = _find(tree, path)
        if found and node.kind == "map":
            node.value = {
                k: (kn, v) for k, (kn, v) in node.value.items()
                if k in counts or not isinstance(k, int) or kn.file == own
            }
    parts = _find(tree, ("players", "partnerships"))
    node, key_node, found = _find(tree, ("players", "partnerships", "player_counts"))
    partnered = variant.players.partnerships.kind != "none"
    if (found and partnered and node.kind == "seq" and node.file != own
            and not set(variant.players.partnerships.player_counts) <= counts):
        node.value = [item for item in node.value if item.value in counts]
        if not node.value and parts[2] and parts[0].kind == "map":
            # no partnership game is left: the inherited partnership rules go too
            parts[0].value = {k: e for k, e in parts[0].value.items() if e[0].file == own}
            parts[0].value.setdefault("kind", (YNode("scalar", "kind", own, 0, 0), YNode("scalar", "none", own, 0, 0)))
            both, _, has_both = _find(tree, ("hand_end", "partners_both_out"))
            if has_both and both.file != own:
                hand_end, _, _ = _find(tree, ("hand_end",))
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
    from pydantic import ValidationError

    from bones.engine.spec import Variant, semantic_problems

    data = tree.to_plain()
    try:
        variant = Variant.model_validate(data, strict=True)
    except ValidationError as err:
        return None, _pydantic_problems(tree, err.errors(include_url=False))
    problems = []
    for problem in semantic_problems(variant):
        node, key_node, _ = _find(tree, tuple(problem.path))
        problems.append(_at(node, key_node, tuple(problem.path), problem.message))
    return (variant if not problems else None), problems


def _find(tree: YNode, path: tuple[Any, ...]) -> tuple[YNode, YNode | None, bool]:
    """The node at ``path`` (or the deepest written one), its key node, and whether all was found."""
    node, key_node = tree, None
    for el in path:
        if node.kind == "map":
            entry = node.value.get(el)
            if entry is None and isinstance(el, int):
                entry = node.value.get(str(el))
            if entry is not None:
                key_node, node = entry
                continue
        elif node.kind == "seq" and isinstance(el, int) and 0 <= el < len(node.value):
            key_node, node = None, node.value[el]
            continue
        return node, key_node, False
    return node, key_node, True


def _position(node: YNode, key_node: YNode | None, at_key: bool = False) -> YNode:
    """Where to point for a problem with a value: the value when it is on the key's line."""
    if at_key and key_node is not None:
        return key_node
    if node.kind == "scalar":
        if node.is_empty and key_node is not None:
            return key_node
        return node
    if not node.block:
        return node
    return key_node if key_node is not None else node


def _at(node: YNode, key_node: YNode | None, path: tuple[Any, ...], message: str, at_key: bool = False) -> LocatedProblem:
    at = _position(node, key_node, at_key)
    return LocatedProblem(at.file, at.line, at.col, tuple(path), message)


# ------------------------------------------------ types along an error's loc


def _unwrap(tp: Any) -> tuple[Any, list[Any]]:
    meta: list[Any] = []
    while get_origin(tp) is typing.Annotated:
        args = get_args(tp)
        tp = args[0]
        meta.extend(args[1:])
    return tp, meta


def _is_model(tp: Any) -> bool:
    from pydantic import BaseModel

    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _kind_of(model: Any) -> Any:
    f = model.model_fields.get("kind")
    if f is None:
        return None
    args = get_args(f.annotation)
    return args[0] if args else None


def _constraints(meta: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    todo = list(meta)
    while todo:
        item = todo.pop(0)
        inner = getattr(item, "metadata", None)
        if isinstance(inner, list):
            todo.extend(inner)
        for name in ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern"):
            value = getattr(item, name, None)
            if value is not None and name not in out:
                out[name] = value
    return out


@dataclass
class _UnionStep:
    index: int  # the loc index of the member tag
    path: tuple[Any, ...]
    members: list[Any]
    member: Any


@dataclass
class _Walk:
    path: tuple[Any, ...] = ()
    tp: Any = None
    meta: list[Any] = field(default_factory=list)
    model: Any = None  # the model whose field the last step named
    kinds: list[Any] | None = None  # the discriminated union the model was chosen from
    unions: list[_UnionStep] = field(default_factory=list)
    at_key: bool = False
    unknown_field: bool = False  # the last step named no field of its model
    complete: bool = True


def _member_for_tag(members: list[Any], tag: Any) -> Any:
    tag = str(tag)
    for m in members:
        t, _ = _unwrap(m)
        o = get_origin(t)
        if tag.startswith("dict[") and o is dict:
            return m
        if tag.startswith("list[") and o is list:
            return m
        if tag.startswith("literal[") and o is Literal:
            return m
        if tag in ("int", "constrained-int") and t is int:
            return m
        if tag in ("str", "constrained-str") and t is str:
            return m
    return None


def _walk(loc: tuple[Any, ...]) -> _Walk:
    from bones.engine.spec import Variant

    w = _Walk()
    tp: Any = Variant
    meta: list[Any] = []
    path: list[Any] = []
    i = 0
    while i < len(loc):
        tp, more = _unwrap(tp)
        meta = meta + more
        el = loc[i]
        if _is_union(tp):
            members = [a for a in get_args(tp) if a is not type(None)]
            if len(members) == 1:
                tp = members[0]
                continue
            if all(_is_model(_unwrap(m)[0]) for m in members):
                chosen = next((m for m in members if _kind_of(_unwrap(m)[0]) == el), None)
                if chosen is None:
                    break
                w.kinds = members
                tp, meta = chosen, []
                i += 1
                continue
            chosen = _member_for_tag(members, el)
            if chosen is None:
                break
            w.unions.append(_UnionStep(i, tuple(path), members, chosen))
            tp, meta = chosen, []
            i += 1
            continue
        if _is_model(tp):
            w.model = tp
            f = tp.model_fields.get(el) if isinstance(el, str) else None
            path.append(el)
            i += 1
            if f is None:
                w.unknown_field = True
                tp, meta = None, []
                break
            tp, meta = f.annotation, list(f.metadata)
            # a model reached through this field is not from a union any more
            if not _is_union(_unwrap(tp)[0]):
                w.kinds = None
            continue
        origin = get_origin(tp)
        if origin is dict:
            kt, vt = get_args(tp)
            path.append(el)
            if i + 1 < len(loc) and loc[i + 1] == "[key]":
                w.at_key = True
                tp, meta = kt, []
                i += 2
                continue
            tp, meta = vt, []
            i += 1
            continue
        if origin is list:
            path.append(el)
            tp, meta = get_args(tp)[0], []
            i += 1
            continue
        break
    if i < len(loc):
        w.complete = False
        path.extend(x for x in loc[i:] if x != "[key]")
    tp, more = _unwrap(tp)
    if _is_union(tp):
        members = [a for a in get_args(tp) if a is not type(None)]
        if len(members) == 1:
            tp, extra = _unwrap(members[0])
            more = more + extra
    w.path, w.tp, w.meta = tuple(path), tp, meta + more
    return w


# ---------------------------------------------------------- error messages


def _show(value: Any, node: YNode | None = None) -> str:
    if node is not None and node.kind == "scalar":
        if node.bool_word:
            return f"{node.text} (read as a boolean)"
        if node.is_empty:
            return "nothing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, bytes):
        return "binary data"
    import datetime

    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"a date ({value.isoformat()})"
    return type(value).__name__


def _bool_message(node: YNode) -> str:
    return f"{node.text} is read as a boolean; quote it ('{node.text}') if you meant the word"


def _range_expect(c: dict[str, Any]) -> str:
    lo = c["ge"] if "ge" in c else (c["gt"] + 1 if "gt" in c else None)
    hi = c["le"] if "le" in c else (c["lt"] - 1 if "lt" in c else None)
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    if lo is not None:
        return f"at least {lo}"
    return f"at most {hi}"


def _int_expect(c: dict[str, Any]) -> str:
    if not any(k in c for k in ("ge", "gt", "le", "lt")):
        return "an integer"
    text = _range_expect(c)
    return f"an integer from {text}" if " to " in text else f"an integer, {text}"


def _describe(tp: Any) -> str:
    t, meta = _unwrap(tp)
    o = get_origin(t)
    if t is int:
        return "an integer"
    if t is str:
        return "text"
    if t is bool:
        return "true or false"
    if o is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(t))
    if o is dict:
        kt, _ = get_args(t)
        k, kmeta = _unwrap(kt)
        c = _constraints(kmeta)
        if k is int and c.get("ge") == 2 and c.get("le") == 10:
            return "a mapping of player counts"
        return "a mapping"
    if o is list:
        c = _constraints(meta)
        item = _unwrap(get_args(t)[0])[0]
        if c.get("min_length") is not None and c.get("min_length") == c.get("max_length"):
            return f"a list of {c['min_length']} {'numbers' if item is int else 'items'}"
        return "a list of numbers" if item is int else "a list"
    if _is_model(t):
        return "a mapping"
    return str(t)


def _join_or(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    sep = ", or " if any("," in p for p in parts) else " or "
    return ", ".join(parts[:-1]) + sep + parts[-1]


def _headline(tp: Any) -> str:
    t, _ = _unwrap(tp)
    o = get_origin(t)
    if t is int:
        return "not a whole number"
    if o is Literal:
        return "not a valid value"
    if o is list:
        return "not a list"
    if o is dict or _is_model(t):
        return "not a mapping"
    if t is str:
        return "not text"
    return "not valid"


def _union_members_take_text(members: list[Any]) -> bool:
    for m in members:
        t, _ = _unwrap(m)
        if t is str or get_origin(t) is Literal:
            return True
    return False


def _matching_member(members: list[Any], value: Any) -> Any:
    for m in members:
        t, _ = _unwrap(m)
        o = get_origin(t)
        if isinstance(value, dict) and (o is dict or _is_model(t)):
            return m
        if isinstance(value, list) and o is list:
            return m
        if isinstance(value, str) and (o is Literal or t is str):
            return m
        if isinstance(value, int) and not isinstance(value, bool) and t is int:
            return m
    return None


def _pydantic_problems(tree: YNode, errors: Sequence[Mapping[str, Any]]) -> list[LocatedProblem]:
    out: list[LocatedProblem] = []
    groups: dict[tuple[Any, ...], list[tuple[Mapping[str, Any], _Walk]]] = {}
    order: list[tuple[str, Any]] = []
    for err in errors:
        w = _walk(tuple(err["loc"]))
        if w.unions:
            key = tuple(err["loc"][: w.unions[0].index])
            if key not in groups:
                groups[key] = []
                order.append(("group", key))
            groups[key].append((err, w))
        else:
            order.append(("one", (err, w)))
    for what, item in order:
        if what == "one":
            out.append(_one_problem(tree, *item))
            continue
        items = groups[item]
        step = items[0][1].unions[0]
        node, key_node, found = _find(tree, step.path)
        value = node.to_plain() if found else items[0][0]["input"]
        member = _matching_member(step.members, value)
        chosen = [(e, w) for e, w in items if member is not None and w.unions[0].member is member]
        if chosen:
            for e, w in chosen:
                leaf = len(e["loc"]) == step.index + 1
                if leaf and e["type"] == "literal_error" and len(step.members) > 1:
                    out.append(_union_problem(tree, step, node, key_node, found, value, e["type"]))
                else:
                    out.append(_one_problem(tree, e, w))
        else:
            out.append(_union_problem(tree, step, node, key_node, found, value, None))
    return out


def _union_problem(
    tree: YNode, step: _UnionStep, node: YNode, key_node: YNode | None, found: bool, value: Any, etype: str | None
) -> LocatedProblem:
    shown = _show(value, node if found else None)
    if found and node.bool_word and _union_members_take_text(step.members):
        return _at(node, key_node, step.path, _bool_message(node))
    expected = _join_or([_describe(m) for m in step.members])
    if etype == "literal_error" and isinstance(value, str):
        message = f"unknown value {shown} (expected {expected})"
    else:
        message = f"{_headline(step.members[0])} (expected {expected}, got {shown})"
    return _at(node, key_node, step.path, message)


def _one_problem(tree: YNode, err: Mapping[str, Any], w: _Walk) -> LocatedProblem:
    etype: str = err["type"]
    ctx: dict[str, Any] = err.get("ctx") or {}
    path = w.path
    node, key_node, found = _find(tree, path)
    value = err.get("input")
    shown = _show(value, node if found else None)
    cons = _constraints(w.meta)

    def at(message: str, *, at_key: bool = False, where: tuple[Any, ...] = path) -> LocatedProblem:
        n, k, _ = _find(tree, where)
        return _at(n, k, where, message, at_key)

    if w.at_key:
        if found and key_node is not None and key_node.bool_word:
            return at(_bool_message(key_node), at_key=True)
        shown = _show(value, key_node if found else None)
        player_count = cons.get("ge") == 2 and cons.get("le") == 10
        what = "not a player count" if player_count else "invalid key"
        expect = _int_expect(cons)
        if etype in ("int_type", "int_parsing", "greater_than", "greater_than_equal", "less_than", "less_than_equal"):
            return at(f"{what} (expected {expect}, got {shown})", at_key=True)
        return at(f"invalid key: {err['msg']}", at_key=True)

    if etype == "missing":
        parent = path[:-1]
        return at(f"missing required key {path[-1]!r}", where=parent)

    if etype == "extra_forbidden" or (etype == "invalid_key" and w.unknown_field):
        key = path[-1]
        if found and key_node is not None and key_node.bool_word:
            return at(_bool_message(key_node), at_key=True)
        names = list(w.model.model_fields) if w.model is not None else []
        suggestion = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
        if suggestion:
            return at(f"unknown key {key!r}; did you mean {suggestion[0]!r}?", at_key=True)
        if w.kinds and w.model is not None:
            users = [
                str(_kind_of(_unwrap(m)[0]))
                for m in w.kinds
                if _unwrap(m)[0] is not w.model and key in _unwrap(m)[0].model_fields
            ]
            if users:
                return at(
                    f"unknown key {key!r} for kind {_kind_of(w.model)} "
                    f"(used by kind {', '.join(users)})",
                    at_key=True,
                )
        expected = f" (expected one of: {', '.join(names)})" if names else ""
        return at(f"unknown key {key!r}{expected}", at_key=True)

    if etype in ("union_tag_invalid", "union_tag_not_found"):
        members = [a for a in get_args(w.tp) if a is not type(None)] if _is_union(w.tp) else []
        kinds = [str(_kind_of(_unwrap(m)[0])) for m in members]
        expected = f" (expected one of: {', '.join(kinds)})" if kinds else ""
        if etype == "union_tag_not_found":
            return at(f"missing required key 'kind'{expected}")
        kind_path = path + ("kind",)
        knode, kkey, kfound = _find(tree, kind_path)
        if kfound and knode.bool_word:
            return at(_bool_message(knode), where=kind_path)
        tag = knode.to_plain() if kfound else ctx.get("tag")
        if not isinstance(tag, str):
            got = _show(tag, knode if kfound else None)
            return at(f"not a valid kind{expected[:-1]}, got {got})", where=kind_path)
        return at(f"unknown kind {_show(tag)}{expected}", where=kind_path)

    if etype in ("model_type", "model_attributes_type", "dict_type"):
        if _is_union(w.tp) and all(_is_model(_unwrap(m)[0]) for m in get_args(w.tp)):
            members = [a for a in get_args(w.tp) if a is not type(None)]
            kinds = [str(_kind_of(_unwrap(m)[0])) for m in members]
            if isinstance(value, str) and value in kinds:
                return at(f"not a mapping (expected a mapping such as {{kind: {value}}}, got {shown})")
            return at(f"not a mapping (expected a mapping with a kind: key, got {shown})")
        return at(f"not a mapping (expected a mapping of keys, got {shown})")

    if found and node.bool_word and etype in ("literal_error", "string_type", "string_pattern_mismatch"):
        return at(_bool_message(node))

    if etype == "literal_error":
        choices = [str(a) for a in get_args(w.tp)] if get_origin(w.tp) is Literal else []
        expected = f"one of: {', '.join(choices)}" if choices else str(ctx.get("expected"))
        if not isinstance(value, str):
            return at(f"not a valid value (expected {expected}, got {shown})")
        return at(f"unknown value {shown} (expected {expected})")
    if etype in ("int_type", "int_parsing", "int_from_float"):
        return at(f"not a whole number (expected an integer, got {shown})")
    if etype in ("greater_than", "greater_than_equal"):
        return at(f"too small (expected {_range_expect(cons or ctx)}, got {shown})")
    if etype in ("less_than", "less_than_equal"):
        return at(f"too large (expected {_range_expect(cons or ctx)}, got {shown})")
    if etype in ("bool_type", "bool_parsing"):
        return at(f"not true or false (expected true or false, got {shown})")
    if etype == "string_type":
        return at(f"not text (expected a string, got {shown})")
    if etype == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        if "a-z0-9" in pattern:
            return at(f"not a valid name (expected lower-case letters, digits and hyphens, like all-fives, got {shown})")
        if r"\d{1,2}" in pattern:
            return at(f"not a tile (expected two numbers like 6-6 or 3-2, got {shown})")
        return at(f"not in the expected form (expected text matching {pattern}, got {shown})")
    if etype == "string_too_short":
        return at("empty (expected at least one character)")
    if etype == "string_too_long":
        return at(f"too long (expected at most {ctx.get('max_length')} characters, got {len(value) if isinstance(value, str) else shown})")
    if etype == "list_type":
        return at(f"not a list (expected {_describe(w.tp) if get_origin(w.tp) is list else 'a list'}, got {shown})")
    if etype in ("too_short", "too_long"):
        lo, hi = cons.get("min_length"), cons.get("max_length")
        actual = ctx.get("actual_length")
        if lo is not None and lo == hi:
            return at(f"wrong length (expected {lo} items, got {actual})")
        if etype == "too_short":
            return at(f"too short (expected at least {ctx.get('min_length')} item{'s' if ctx.get('min_length') != 1 else ''}, got {actual})")
        return at(f"too long (expected at most {ctx.get('max_length')} items, got {actual})")
    return at(f"{err['msg'][:1].lower()}{err['msg'][1:]} (got {shown})")

