"""The bots the page offers a seat, each with a plain description: the one list
the seat pickers read (``GET /api/bots``, ``offered``), so what the table calls
its opponents is decided here and nowhere in the page.

Each entry names a bot text the server runs (checked by
:func:`bones.web.games.check_bot` as any client's), the label a player reads,
a sentence saying how it plays, and the technical name shown as a detail.
Levels ("Beginner" ... "Expert") calibrated by the strength ladder belong
here too, as entries whose ``bot`` carries the settings of that level: the
page needs no change for them.
"""

from __future__ import annotations

from typing import Any

#: (bot text, label, how it plays) in the order the picker lists them.
OFFERED: tuple[tuple[str, str, str], ...] = (
    ("random", "Random", "plays any tile that fits, at random: a table to learn the rules at"),
    ("greedy", "Greedy", "takes the most points it can right now and never plans ahead"),
    ("heuristic", "Careful", "scores where it can, but watches what it leaves the next player "
                             "and keeps its numbers varied"),
    ("pimc", "Thinker", "imagines where the unseen tiles could be and plays each move out "
                        "(bones 0.1's search)"),
    ("search", "Searcher", "the strongest: reads what the others' plays reveal and solves "
                           "the end of each hand exactly (the default opponent)"),
    ("ismcts", "Planner", "grows one tree of plans over every deal it cannot tell apart"),
    ("epimc", "Reasoner", "chooses once for every deal it cannot tell apart, using what "
                          "the others' plays reveal"),
)
#: The bot the pickers start on.
DEFAULT = "search"


def offered(jobs: int | None = None) -> list[dict[str, Any]]:
    """The offered bots: ``{"bot", "label", "description", "detail", "default"}`` each,
    only those the server runs (``jobs``: its ``--jobs``)."""
    from bones.web.games import ApiError, check_bot

    out = []
    for bot, label, description in OFFERED:
        try:
            spec = check_bot(bot, jobs)
        except ApiError:  # pragma: no cover - every entry is a bot the server runs
            continue
        out.append({"bot": spec, "label": label, "description": description,
                    "detail": spec, "default": bot == DEFAULT})
    return out


__all__ = ["DEFAULT", "OFFERED", "offered"]
