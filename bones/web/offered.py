"""The bots the page offers a seat, each with a plain description: the one list
the seat pickers read (``GET /api/bots``, ``offered``), so what the table calls
its opponents is decided here and nowhere in the page.

First the levels (:data:`LEVELS`), "Beginner" to "Expert", each a built-in
bot with its settings; then a few other bots (:data:`OTHERS`) for those who
want them, without a level.  Each entry names a bot text the server runs
(checked by :func:`bones.web.games.check_bot` as any client's), the label a
player reads, a sentence saying how it plays, and the technical name shown as
a detail.

The levels are calibrated by the strength ladder: ``python -m bench.levels``
plays every level against the one below it and checks that it wins clearly
(the lower end of the 95% interval of its win rate above one half); its
figures are in bench/results/levels.md.  Changing a level's bot means running
it again.
"""

from __future__ import annotations

from typing import Any

#: (level, bot text, how it plays), weakest first.
LEVELS: tuple[tuple[str, str, str], ...] = (
    ("Beginner", "greedy", "takes the most points it can right now and never plans ahead"),
    ("Casual", "heuristic", "scores where it can, but watches what it leaves the next player "
                            "and keeps its numbers varied"),
    ("Strong", "pimc", "imagines where the unseen tiles could be and plays each move out"),
    ("Expert", "search", "reads what the others' plays reveal and solves the end of each hand "
                         "exactly: the strongest"),
)
#: (bot text, label, how it plays): bots offered beside the levels, without one.
OTHERS: tuple[tuple[str, str, str], ...] = (
    ("random", "Random", "plays any tile that fits, at random: a table to learn the rules at"),
    ("ismcts", "Planner", "another kind of search, for the curious: grows one tree of plans "
                          "over every deal it cannot tell apart"),
    ("epimc", "Reasoner", "another kind of search, for the curious: chooses once for every "
                          "deal it cannot tell apart, using what the others' plays reveal"),
)
#: The bot the pickers start on.
DEFAULT = "search"


def offered(jobs: int | None = None) -> list[dict[str, Any]]:
    """The offered bots, the levels first (weakest first), then the others:
    ``{"bot", "label", "level", "rank", "description", "detail", "default"}``
    each (``level``/``rank``: the level's name and 1.. for a level, ``None``
    for the others), only those the server runs (``jobs``: its ``--jobs``)."""
    from bones.web.games import ApiError, check_bot

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


def level_of(bot: str | None) -> str | None:
    """The level a seat's bot text plays at ("Expert"), or ``None`` (a person, another bot)."""
    return next((level for level, text, _ in LEVELS if text == bot), None)


__all__ = ["DEFAULT", "LEVELS", "OTHERS", "level_of", "offered"]
