"""The analysis's reasons in words: one phrasing for every front end.

:mod:`bones.games.reasons` gives the facts of a move on the table (points
scored, an end left open for the next opponent, a double stranded, numbers
only the mover holds or the next opponent lacks); :func:`contrast` phrases
what sets the better of two moves apart from the other, as `bones analyse`,
the ``?`` hint of `bones play` and the browser (hint and analysis) say it:

* ``6-0@N scores 10 (the ends add to 10)``
* ``0-0 leaves 5-5 open for a 20 to the next player``
* ``6-6@E keeps the last 4s: nobody else can follow the 4``
* ``4-2 leaves the 2 that nobody can follow``
* ``3-1 plays to the 1, which the next player has shown they lack``
* ``5-4 leaves your 4-4 stranded (no 4 end left for it)``
* ``2-0 goes out``
* ``6-1 leaves no end you can follow``
* ``3-3 keeps 5 different numbers in your hand (1-6: 4)``
* ``6-5 lays down 11 pips (1-0: 1)``

Only the facts that differ between the two moves in the better one's
favour are said; when none does, the difference lies further in the hand
than one move (:data:`LATER`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from bones.games.analysis import MoveValue
    from bones.games.reasons import Reasons

#: Said when no fact on the table sets the better move apart.
LATER = "the difference shows later in the hand, not on the table now"


def _numbers(pips: Sequence[int]) -> str:
    names = [f"{p}s" for p in pips]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _ends(pips: Sequence[int]) -> str:
    names = [str(p) for p in pips]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def scores(name: str, r: Reasons) -> str:
    """``6-0@N scores 10 (the ends add to 10)``."""
    why = f" (the ends add to {r.count})" if r.count is not None else ""
    return f"{name} scores {r.scores}{why}"


def contrast(better: MoveValue, other: MoveValue) -> list[str]:
    """What sets ``better`` apart from ``other`` on the table, in words: its
    own gains first, then what ``other`` gives away.  Empty when either has
    no facts (a move valued without them)."""
    a, b = better.reasons, other.reasons
    if a is None or b is None:
        return []
    out: list[str] = []
    if a.out and not b.out:
        out.append(f"{better.notation} goes out")
    if a.scores > b.scores:
        out.append(scores(better.notation, a))
    shut = [p for p in a.shut if p not in b.shut]
    if shut:
        out.append(f"{better.notation} keeps the last {_numbers(shut)}: "
                   f"nobody else can follow the {_ends(shut)}")
    dead = [p for p in a.dead if p not in b.dead]
    if dead:
        out.append(f"{better.notation} leaves the {_ends(dead)} that nobody can follow")
    voids = [p for p in a.voids if p not in b.voids and p not in a.shut]
    if voids:
        out.append(f"{better.notation} plays to the {_ends(voids)}, which the next player "
                   "has shown they lack")
    given = b.reply.points if b.reply is not None else 0
    kept = a.reply.points if a.reply is not None else 0
    if b.reply is not None and given > kept:
        out.append(f"{other.notation} leaves {b.reply.tile} open for a {given} "
                   "to the next player")
    stranded = [d for d in b.stranded if d not in a.stranded]
    if stranded:
        pips = [d.split("-")[0] for d in stranded]
        out.append(f"{other.notation} leaves your {' and '.join(stranded)} stranded "
                   f"(no {' or '.join(pips)} end left for {'it' if len(stranded) == 1 else 'them'})")
    if a.follows and not b.follows:
        out.append(f"{other.notation} leaves no end you can follow")
    if a.numbers > b.numbers:
        out.append(f"{better.notation} keeps {a.numbers} different numbers in your hand "
                   f"({other.notation}: {b.numbers})")
    if a.pips > b.pips and not out:
        out.append(f"{better.notation} lays down {a.pips} pips ({other.notation}: {b.pips})")
    if b.scores > a.scores and out:
        # the other scores more now, and gives it back (or more) later
        out.append(f"{other.notation} scores {b.scores} now")
    return out


def because(better: MoveValue, other: MoveValue) -> str:
    """:func:`contrast` as one sentence: its phrases joined by ``; ``, or
    :data:`LATER` when the table shows no difference."""
    phrases = contrast(better, other)
    return "; ".join(phrases) if phrases else LATER


__all__ = ["LATER", "because", "contrast", "scores"]
