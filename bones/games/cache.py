"""A cache of compiled built-in variants, so a run starts without the models.

Reading a variant means YAML and pydantic (about a quarter of a second of
imports and model building); playing it needs only the compiled
:class:`~bones.engine.rules.Rules`.  For a built-in variant named on the
command line, :func:`load_builtin` keeps what the compiler made in one small
file per variant under the user's cache directory and, the next time, hands
back a :class:`CachedVariant` that stands for the model without importing
it, with the compiled tables at hand.

The key of an entry is a SHA-256 of everything the result depends on: the
bytes of every built-in variant file (a built-in may extend another), the
source of every module of the compiler (so an edited checkout never reads
tables an older compiler made; the package version is not enough, it does
not change in a checkout), the cache's own format and the Python version.
A variant file named by path is never cached.

``bones list`` keeps its catalogue the same way (:func:`catalogue`): the
rows it shows, as JSON, keyed by the same inputs plus the source of
:mod:`bones.lang.describe` that writes them, so a listing reads no YAML and
builds no model while nothing changed.  Only a catalogue that was made
without a problem is kept: a built-in that fails to load fails as it always
did, with its file, line and column.

An entry is plain data written by :mod:`marshal` (the compiled tables'
settlements, lead rules, train layout and tile set as the fields they are
made from): reading one loads no :mod:`pickle`, which costs a short run more
than the read.

The cache is only an optimisation, so it fails safe:

* ``BONES_CACHE=off`` turns it off; ``BONES_CACHE_DIR`` moves it (default
  ``$XDG_CACHE_HOME/bones``, else ``~/.cache/bones``);
* an entry is read only from a folder and a file owned by the user and
  writable by nobody else (never load one another user could have written),
  opened without following a symbolic link;
* a folder that cannot be created or written, a corrupt or foreign entry:
  the variant is loaded and compiled as if there were no cache.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import stat
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.rules import Rules
    from bones.lang.spec import Variant

#: Bump when the layout of an entry changes (3: written by marshal, not pickle).
CACHE_FORMAT = 3
ENV_OFF = "BONES_CACHE"
ENV_DIR = "BONES_CACHE_DIR"

#: The modules whose source decides what a built-in compiles to.
COMPILER = ("games.cache", "engine.handstate", "lang.compile", "lang.load", "lang.problems", "engine.rules",
            "engine.settle", "lang.spec", "engine.tiles", "lang.yamlsource")
#: ... and what ``bones list`` shows of it.
CATALOGUE = (*COMPILER, "lang.describe")
CATALOGUE_REF = "bones list"  # no variant's name: it has a space
ENTRY_SUFFIX = ".marshal"

_YAML_SUFFIXES = (".yaml", ".yml")
_PACKAGE = Path(__file__).resolve().parent.parent  # bones/


def builtin_dir() -> Path:
    """The built-in variant files (as :mod:`bones.lang.load` finds them)."""
    package = _PACKAGE
    installed = package / "variants"
    return installed if installed.is_dir() else package.parent / "variants"


def enabled() -> bool:
    return os.environ.get(ENV_OFF, "").strip().lower() not in ("0", "off", "no", "false")


def cache_dir() -> Path:
    given = os.environ.get(ENV_DIR)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bones"


def is_builtin_ref(ref: str) -> bool:
    """Whether ``ref`` names a built-in rather than a file (the loader's rule)."""
    return bool(ref.strip()) and not ("/" in ref or "\\" in ref
                                      or ref.lower().endswith(_YAML_SUFFIXES))


def key(ref: str, modules: tuple[str, ...] = COMPILER) -> str | None:
    """The entry's key for ``ref`` (made by ``modules``), or None when the
    files cannot be read."""
    digest = hashlib.sha256(f"bones-cache|{CACHE_FORMAT}|{sys.version_info[:2]}|".encode())
    digest.update(ref.strip().lower().encode() + b"\0")
    try:
        for module in modules:
            digest.update(module.encode() + b"\0")
            digest.update((_PACKAGE / f"{module.replace('.', '/')}.py").read_bytes())
        for entry in sorted(builtin_dir().iterdir(), key=lambda e: e.name):
            if entry.name.lower().endswith(_YAML_SUFFIXES) and entry.is_file():
                digest.update(entry.name.encode() + b"\0")
                digest.update(entry.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


# ------------------------------------------------------------- the entries

def _safe_stat(st: os.stat_result) -> bool:
    """Owned by this user and writable by no one else."""
    getuid = getattr(os, "getuid", None)
    if getuid is not None and st.st_uid != getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read(folder: Path, name: str) -> dict[str, Any] | None:
    data = _read_bytes(folder, name)
    if data is None:
        return None
    try:
        entry = marshal.loads(data)  # the user's own file, checked by _read_bytes
    except Exception:  # noqa: BLE001 - a corrupt entry is a miss
        return None
    return entry if isinstance(entry, dict) and entry.get("format") == CACHE_FORMAT else None


def _read_bytes(folder: Path, name: str) -> bytes | None:
    """The bytes of the user's own entry, or None (see the module's notes)."""
    try:
        if not _safe_stat(os.stat(folder)):
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(folder / name, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _safe_stat(st) or st.st_size > 1 << 22:
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            return handle.read()
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def _write(folder: Path, name: str, entry: dict[str, Any]) -> None:
    try:
        data = marshal.dumps(entry)
    except ValueError:  # pragma: no cover - a value marshal cannot write: no entry
        return
    _write_bytes(folder, name, data)


def _write_bytes(folder: Path, name: str, data: bytes) -> None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _safe_stat(os.stat(folder)):
            return
        import tempfile  # lazy: a run that reads the cache writes nothing (random, shutil)

        fd, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=Path(name).suffix)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temp, folder / name)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        pass  # an unwritable cache is no cache


class CachedVariant:
    """Stands for a built-in variant's model, read from the cache.

    Its ``name`` and its JSON dump (what a simulation's report and key use)
    are at hand; :func:`bones.lang.compile.compile_rules` takes the cached
    tables from it; any other attribute loads the real model once.
    """

    def __init__(self, ref: str, entry_key: str, entry: dict[str, Any]) -> None:
        self.ref = ref
        self._key = entry_key
        self._entry = entry
        self._model: Variant | None = None

    @property
    def name(self) -> str:
        return str(self._entry["name"])

    def model_dump(self, *, mode: str = "python", **options: Any) -> Any:
        if mode == "json" and not options:
            return marshal.loads(marshal.dumps(self._entry["dump"]))  # a copy
        return self.model().model_dump(mode=mode, **options)

    def model(self) -> Variant:
        """The real, validated model (loaded on first use)."""
        if self._model is None:
            from bones.lang.load import load_variant  # lazy: a cached built-in reads no YAML

            self._model = load_variant(self.ref)
        return self._model

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") or attr in ("ref", "_key", "_entry", "_model"):
            raise AttributeError(attr)
        return getattr(self.model(), attr)

    def __reduce__(self) -> tuple[Any, tuple[str, str, dict[str, Any]]]:
        return (CachedVariant, (self.ref, self._key, self._entry))

    def cached_rules(self, players: int | None, teams: bool | None) -> Rules:
        """The rules for a table, from the cache when it has them."""
        # lazy: bones list reads its catalogue from this module without the compiler
        from bones.engine.rules import LeadRule, Rules, TrainRules
        from bones.engine.settle import Settle  # lazy: as above
        from bones.engine.tiles import TileSet  # lazy: as above
        from bones.lang.compile import compile_rules  # lazy: as above
        tables = self._entry["tables"]
        got = tables.get(self._entry["requests"].get((players, teams), (players, teams)))
        if got is None:
            rules = compile_rules(self.model(), players, teams)
            got = _remember(self._key, self._entry, players, teams, rules)
        plain, objects = got
        made: dict[str, type[Any]] = {cls.__name__: cls for cls in (LeadRule, Settle, TileSet, TrainRules)}
        return Rules(variant=self, **plain,
                     **{name: made[kind](**args) for name, (kind, args) in objects.items()})


def _state(rules: Rules) -> tuple[dict[str, Any], dict[str, tuple[str, dict[str, Any]]]]:
    """The fields of ``rules`` but its variant, as marshal writes them: the
    plain values, and each object (a settlement, a lead rule, a train layout,
    the tile set) as its class's name and the fields it is made from."""
    plain: dict[str, Any] = {}
    objects: dict[str, tuple[str, dict[str, Any]]] = {}
    for f in fields(rules):
        if f.name == "variant":
            continue
        value = getattr(rules, f.name)
        if is_dataclass(value):
            objects[f.name] = (type(value).__name__,
                               {g.name: getattr(value, g.name) for g in fields(value) if g.init})
        else:
            plain[f.name] = value
    return plain, objects


def _remember(entry_key: str, entry: dict[str, Any], players: int | None,
              teams: bool | None, rules: Rules) -> Any:
    """Keep the tables of ``rules`` in ``entry`` (and on disk); what was kept."""
    resolved = (rules.players, rules.teams)
    entry["tables"][resolved] = state = _state(rules)
    entry["requests"][(players, teams)] = resolved
    _write(cache_dir(), entry_key + ENTRY_SUFFIX, entry)
    return state


def load_builtin(ref: str) -> Any:
    """The variant ``ref`` names: a :class:`CachedVariant` for a built-in the
    cache holds, else the loaded model (remembered for next time when it is a
    built-in).  Raises what :func:`bones.lang.load.load_variant` raises."""
    entry_key = key(ref) if enabled() and is_builtin_ref(ref) else None
    if entry_key is not None:
        entry = _read(cache_dir(), entry_key + ENTRY_SUFFIX)
        if entry is not None:
            return CachedVariant(ref, entry_key, entry)
    from bones.lang.load import load_variant  # lazy: see CachedVariant.model

    variant = load_variant(ref)
    if entry_key is not None:
        entry = {"format": CACHE_FORMAT, "name": variant.name,
                 "dump": variant.model_dump(mode="json"), "tables": {}, "requests": {}}
        _write(cache_dir(), entry_key + ENTRY_SUFFIX, entry)
        standin = CachedVariant(ref, entry_key, entry)
        standin._model = variant
        return standin
    return variant


def catalogue() -> tuple[list[dict[str, Any]], dict[str, str]]:
    """``bones list``'s rows (:func:`bones.lang.describe.catalogue`) and the
    families' headings (:data:`bones.lang.describe.FAMILIES`), from the cache
    when it holds them for these built-ins and this code.  Raises what the
    catalogue raises (nothing is kept then)."""
    entry_key = key(CATALOGUE_REF, CATALOGUE) if enabled() else None
    name = f"{entry_key}.catalogue.json"
    if entry_key is not None:
        data = _read_bytes(cache_dir(), name)
        try:
            entry = json.loads(data) if data is not None else None
        except ValueError:  # a corrupt entry is a miss
            entry = None
        if (isinstance(entry, dict) and entry.get("format") == CACHE_FORMAT
                and isinstance(entry.get("rows"), list)
                and isinstance(entry.get("families"), dict)):
            return entry["rows"], entry["families"]
    # lazy: the YAML reader and the models, only when the catalogue is made
    from bones.lang.describe import FAMILIES
    from bones.lang.describe import catalogue as made  # lazy: as above

    rows = made()
    if entry_key is not None:
        entry = {"format": CACHE_FORMAT, "rows": rows, "families": FAMILIES}
        _write_bytes(cache_dir(), name, json.dumps(entry).encode())
    return rows, dict(FAMILIES)


__all__ = ["CACHE_FORMAT", "CachedVariant", "cache_dir", "catalogue", "enabled", "key",
           "load_builtin"]
