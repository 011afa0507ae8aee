"""Variants for the web: built-in names, or uploaded text that may extend only built-ins.

A client never names a path.  A variant from a client is either a built-in
name (checked against :func:`bones.lang.load.builtin_names` and the
aliases) or the text of a variant file.  Uploaded text is parsed in memory
(it has no file of its own: its problems are reported at ``upload.yaml``),
and its ``extends:`` may name only a built-in variant: anything that looks
like a path, or a name that is not built in, is a problem at the
``extends`` line, and nothing is read from the disk but the built-in files.
"""

from __future__ import annotations

import difflib
import functools
from typing import Any

from bones.lang.load import VariantError, builtin_names
from bones.lang.spec import Variant
from bones.lang.yamlsource import LocatedProblem

#: What uploaded text is called in its problems.
UPLOAD_NAME = "upload.yaml"
#: The largest variant text accepted (the engine's own cap on files is 1 MiB;
#: a real house rule is a few hundred bytes, the longest built-in about 9 KB).
MAX_VARIANT_TEXT = 64 * 1024


class WebVariantError(ValueError):
    """A variant reference from a client that names no built-in and is no text."""


def _aliases() -> dict[str, str]:
    from bones.lang.load import load_variant

    out: dict[str, str] = {}
    for name in builtin_names():
        variant = load_variant(name)
        out[name.lower()] = name
        for alias in variant.aliases:
            out[alias.lower()] = name
    return out


@functools.lru_cache(maxsize=1)
def builtin_index() -> dict[str, str]:
    """Lower-case name or alias -> the built-in's name."""
    return _aliases()


def builtin_name(text: str) -> str | None:
    """The built-in variant ``text`` names (a name or an alias, any case), or None."""
    key = text.strip().lower()
    if not key or len(key) > 64:
        return None
    return builtin_index().get(key)


@functools.lru_cache(maxsize=64)
def load_builtin(name: str) -> Variant:
    from bones.lang.load import load_variant

    return load_variant(name)


def looks_like_text(ref: str) -> bool:
    """Variant text has a newline or a colon; a built-in name has neither."""
    return "\n" in ref or ":" in ref


def load_text(text: str) -> Variant:
    """The variant written in ``text``; raises :class:`VariantError` with every problem.

    ``extends:`` may name only a built-in variant.
    """
    from bones.lang.load import load_variant_text

    if len(text.encode("utf-8", "replace")) > MAX_VARIANT_TEXT:
        raise VariantError([LocatedProblem(UPLOAD_NAME, 1, 1, (), (
            f"the text is too large (variant texts are limited to {MAX_VARIANT_TEXT // 1024} KiB)"))])
    # text has no folder: its extends: may name only a built-in variant
    return load_variant_text(text, file=UPLOAD_NAME, allow_files=False)


def resolve(ref: Any) -> tuple[Variant, str]:
    """(the variant, its label) for a client's ``variant`` field: a built-in or text.

    Raises :class:`VariantError` for text with problems and
    :class:`WebVariantError` for anything else.
    """
    if not isinstance(ref, str) or not ref.strip():
        raise WebVariantError("variant must be a built-in variant's name or a variant file's text")
    if looks_like_text(ref):
        return load_text(ref), UPLOAD_NAME
    name = builtin_name(ref)
    if name is None:
        close = difflib.get_close_matches(ref.strip().lower(), list(builtin_index()), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise WebVariantError(f"unknown variant '{ref.strip()[:40]}'{hint} "
                              f"(built-in variants: {', '.join(builtin_names())})")
    return load_builtin(name), name


def problems_json(problems: list[LocatedProblem]) -> list[dict[str, Any]]:
    """Problems as the API gives them: ``line``, ``column``, ``path``, ``message`` (and ``file``)."""
    return [{"file": p.file, "line": p.line, "column": p.col, "path": p.dotted_path,
             "message": p.message} for p in problems]


def validate_text(text: str) -> dict[str, Any]:
    """``{"ok": bool, "problems": [...]}`` for variant text, as `bones validate` finds them."""
    try:
        variant = load_text(text)
    except VariantError as err:
        return {"ok": False, "problems": problems_json(err.problems)}
    return {"ok": True, "problems": [], "name": variant.name,
            "players": sorted(variant.players.counts)}


def summary_rows() -> list[dict[str, Any]]:
    """The built-in variants as `bones list --json` gives them."""
    from bones.lang.describe import catalogue

    return catalogue()


def details(variant: Variant, players: int | None = None) -> dict[str, Any]:
    """The model and the rules text of `bones show`."""
    from bones.lang.describe import describe

    return {
        "name": variant.name,
        "summary": " ".join(variant.summary.split()),
        "players": sorted(variant.players.counts),
        "partnerships": variant.players.partnerships.kind,
        "rules": describe(variant, players),
        "model": variant.model_dump(mode="json"),
    }
