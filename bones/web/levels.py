"""The levels of the bots the table offers (:data:`LEVELS`, "Beginner" to
"Expert", weakest first) and the other bots beside them (:data:`OTHERS`):
data only, read by :mod:`bones.web.offered` (the seat pickers' list), the
state's seats and the table's notices (:func:`level_of`).

The levels are calibrated by the strength ladder: ``python -m bench.levels``
plays every level against the one below it and checks that it wins clearly
(the lower end of the 95% interval of its win rate above one half); its
figures are in bench/results/levels.md.  Changing a level's bot means running
it again.
"""

from __future__ import annotations

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


def level_of(bot: str | None) -> str | None:
    """The level a seat's bot text plays at ("Expert"), or ``None`` (a person, another bot)."""
    return next((level for level, text, _ in LEVELS if text == bot), None)


__all__ = ["DEFAULT", "LEVELS", "OTHERS", "level_of"]
