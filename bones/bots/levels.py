"""The levels people pick an opponent by (:data:`LEVELS`, "Novice" to
"Expert", weakest first), each a built-in bot with fixed settings, and the
other bots offered beside them without a level (:data:`OTHERS`): data only,
read by ``bones play --level``, ``bones bots`` and the web table's seat
pickers (:mod:`bones.web.offered`).

The levels are calibrated by the strength ladder, ``python -m bench.strength``:
every level against the one below it in every built-in, on paired deals; a
level should be at least 150 Elo above the one below (``--check``), except
where the game's whole span from Novice cannot hold it (``--check`` measures
that span and lists those rungs: ``block-2p``'s honest span holds two levels
150 apart, not four).  Its figures are in bench/results/levels.md and
docs/bots.md.  Changing a level's bot means running it again.

The levels are the same bots in every game, none chosen by a game's name: the
Beginner is the Casual bot made weaker by one knob, ``blunder`` (55% of its
choices a random legal move, :mod:`bones.bots.blunder`), which puts it between
Novice and Casual wherever that span is wide.

>>> [level.name for level in LEVELS]
['Novice', 'Beginner', 'Casual', 'Expert']
>>> find_level("expert").bot
'search'
>>> find_level("master")
Traceback (most recent call last):
...
bones.bots.levels.LevelError: unknown level 'master': one of Novice, Beginner, Casual, Expert
"""

from __future__ import annotations

from typing import NamedTuple


class Level(NamedTuple):
    """A level: its name, the bot text it plays (``search``) and how it plays."""

    name: str
    bot: str
    description: str


class LevelError(ValueError):
    """A name that is no level; the message is one line naming the levels."""


#: The levels, weakest first; the last is the strongest bot bones has.
LEVELS: tuple[Level, ...] = (
    Level("Novice", "random", "plays any tile that fits, at random: a table to learn the rules at"),
    Level("Beginner", "blunder", "plays Casual's move, except that at 55% of its choices it plays "
                                 "any tile that fits, at random"),
    Level("Casual", "heuristic", "scores where it can, but watches what it leaves the next player "
                                 "and keeps its numbers varied"),
    Level("Expert", "search", "reads what the others' plays reveal and solves the end of each hand "
                              "exactly: the strongest"),
)
#: (bot text, label, how it plays): bots offered beside the levels, without one.
OTHERS: tuple[tuple[str, str, str], ...] = (
    ("greedy", "Grabber", "takes the most points it can right now and never plans ahead "
                          "(the Beginner until issue 34: a level below Casual only where plays score)"),
    ("pimc", "Sampler", "imagines where the unseen tiles could be and plays each move out: "
                        "between Casual and Expert, but not a level apart from Expert"),
    ("ismcts", "Planner", "another kind of search, for the curious: grows one tree of plans "
                          "over every deal it cannot tell apart"),
    ("epimc", "Reasoner", "another kind of search, for the curious: chooses once for every "
                          "deal it cannot tell apart, using what the others' plays reveal"),
)
#: The names of ``bones play``'s first levels, still accepted (the same rungs:
#: "easy" played ``greedy`` until the Beginner became ``blunder``).
ALIASES = {"easy": "Beginner", "medium": "Casual", "hard": "Expert"}
#: The bot the pickers start on, and the level ``bones play`` seats without ``--level``.
DEFAULT = "search"
DEFAULT_LEVEL = "Expert"


def level_names() -> list[str]:
    """The levels' names, weakest first."""
    return [level.name for level in LEVELS]


def find_level(name: str) -> Level:
    """The level called ``name`` (any case; or one of :data:`ALIASES`), or
    :class:`LevelError`."""
    wanted = name.strip().casefold()
    wanted = ALIASES.get(wanted, wanted).casefold()
    for level in LEVELS:
        if level.name.casefold() == wanted:
            return level
    raise LevelError(f"unknown level {name!r}: one of {', '.join(level_names())}")


def level_of(bot: str | None) -> str | None:
    """The level a seat's bot text plays at ("Expert"), or ``None`` (a person, another bot)."""
    return next((level.name for level in LEVELS if level.bot == bot), None)


__all__ = ["ALIASES", "DEFAULT", "DEFAULT_LEVEL", "LEVELS", "OTHERS", "Level", "LevelError", "find_level",
           "level_names", "level_of"]
