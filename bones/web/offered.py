"""The bots the page offers a seat, each with a plain description: the one list
the seat pickers read (``GET /api/bots``, ``offered``), so what the table calls
its opponents is decided here and nowhere in the page.

First the levels (:data:`bones.web.levels.LEVELS`), "Beginner" to "Expert",
each a built-in bot with its settings, calibrated by the strength ladder (see
:mod:`bones.web.levels`); then a few other bots (``OTHERS``) for those who
want them, without a level.  Each entry names a bot text the server runs
(checked by :func:`bones.web.games.check_bot` as any client's), the label a
player reads, a sentence saying how it plays, and the technical name shown as
a detail.
"""

from __future__ import annotations

from typing import Any

from bones.web.games import ApiError, check_bot
from bones.web.levels import DEFAULT, LEVELS, OTHERS, level_of


def offered(jobs: int | None = None) -> list[dict[str, Any]]:
    """The offered bots, the levels first (weakest first), then the others:
    ``{"bot", "label", "level", "rank", "description", "detail", "default"}``
    each (``level``/``rank``: the level's name and 1.. for a level, ``None``
    for the others), only those the server runs (``jobs``: its ``--jobs``)."""
    entries: list[tuple[str, str, str, str | None, int | None]] = [
        (bot, level, description, level, rank)
        for rank, (level, bot, description) in enumerate(LEVELS, start=1)]
    entries += [(bot, label, description, None, None) for bot, label, description in OTHERS]
    out = []
    for bot, label, description, level, rank in entries:
        try:
            spec = check_bot(bot, jobs)
        except ApiError:  # pragma: no cover - every entry is a bot the server runs
            continue
        out.append({"bot": spec, "label": label, "level": level, "rank": rank,
                    "description": description, "detail": spec, "default": bot == DEFAULT})
    return out


__all__ = ["DEFAULT", "LEVELS", "OTHERS", "level_of", "offered"]
