"""How large a whole number bones reads may be: one bound per kind of number.

The native core holds every count and score in 64-bit integers, and Python's
engine must play the same games, so a number is range-checked where it is
read (a variant or scenario file, a record or save, an option, a request)
with a one-line error that gives the bound, never passed on to overflow:

* :data:`SEED_LIMIT`: a seed is a whole number of at most 64 bits
  (from ``-SEED_LIMIT`` to ``SEED_LIMIT``; the generator reduces it mod 2**64);
* :data:`NUMBER_LIMIT`: every other number of a variant, a scenario or a
  record (points, targets, scores, claims, sizes, seats...) is at most a
  million million either way, so that 500 hands of the largest scores still
  add up far inside 64 bits;
* :data:`GAMES_LIMIT`: the games of one run (``-n``, ``--hands``).

Two sentinels both cores write, each named once per core (the native
core's are ``kernel::table``'s, compared with these by
``tests/test_shared_constants.py``):

* :data:`UNLIMITED_DRAWS`: the ``max_draws`` of a table that draws until a
  tile fits, more than any boneyard holds;
* :data:`BELOW_ANY_SCORE`: below every score, gain and points a bot
  compares, where a running maximum of them starts.

>>> number_problem(10**30)
'too large (at most 1000000000000, got 1000000000000000000000000000000)'
>>> number_problem(5) is None
True
"""

from __future__ import annotations

SEED_LIMIT = 2**64 - 1
NUMBER_LIMIT = 10**12
GAMES_LIMIT = 10**9
UNLIMITED_DRAWS = 1 << 30
BELOW_ANY_SCORE = -(1 << 30)


def shown(value: int) -> str:
    """A number as a message shows it: whole, unless it is longer than a line."""
    text = str(value)
    return text if len(text) <= 40 else f"a number of {len(text.lstrip('-'))} digits"


def number_problem(value: int, limit: int = NUMBER_LIMIT, low: int | None = None) -> str | None:
    """What is wrong with ``value`` for a number bounded by ``limit`` (and
    ``low``, default ``-limit``), or None.  Message: ``too large (at most N, got V)``."""
    low = -limit if low is None else low
    if value > limit:
        return f"too large (at most {limit}, got {shown(value)})"
    if value < low:
        return f"too small (at least {low}, got {shown(value)})"
    return None


def first_out_of_range(value: object, limit: int = NUMBER_LIMIT) -> tuple[str, str] | None:
    """The first whole number inside ``value`` (lists, tuples, mapping keys
    and values, walked in order) beyond ``limit`` either way: ``(where, problem)``,
    ``where`` being ``""`` or the index path (``[2]``, ``[3][0]``)."""
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            problem = number_problem(item, limit)
            if problem is not None:
                return where, problem
        elif isinstance(item, (list, tuple)):
            stack.extend((x, f"{where}[{i}]") for i, x in reversed(list(enumerate(item))))
        elif isinstance(item, dict):
            for key, x in reversed(list(item.items())):
                stack.append((x, f"{where}[{key!r}]" if not isinstance(key, str) else f"{where}.{key}"))
                if isinstance(key, int) and not isinstance(key, bool):
                    stack.append((key, where))
    return None


def bound_message(value: object, limit: int = NUMBER_LIMIT) -> str | None:
    """:func:`first_out_of_range` as one message (``too large at [1] (at most N, got V)``), or None."""
    found = first_out_of_range(value, limit)
    if found is None:
        return None
    where, problem = found
    if not where:
        return problem
    word, _, rest = problem.partition(" (")
    return f"{word} at {where.lstrip('.')} ({rest}"


__all__ = ["BELOW_ANY_SCORE", "GAMES_LIMIT", "NUMBER_LIMIT", "SEED_LIMIT", "UNLIMITED_DRAWS",
           "bound_message", "first_out_of_range", "number_problem", "shown"]
