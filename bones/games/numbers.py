"""Numbers people type: a move's number at the prompt, a claim, a query value,
a path segment, a bot's parameter.

One rule for every front end: a whole number is 1 to :data:`MAX_DIGITS` ASCII
digits and nothing else.  ``str.isdigit()`` and ``int()`` accept far more
(``²``, ``٣``, ``1_000``, `` 5``, a sign, thousands of digits), which either
reads as a number nobody wrote or fails with a traceback.
"""

from __future__ import annotations

import re

#: The most digits a typed number may have: every number bones reads from a
#: person or a client is far shorter (a move, a claim, a version, a seat...).
MAX_DIGITS = 15
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


def ascii_number(text: str | None) -> int | None:
    """``text`` as a whole number if it is 1 to :data:`MAX_DIGITS` ASCII digits, else None.

    >>> ascii_number("42"), ascii_number("²"), ascii_number("--5"), ascii_number("1_000")
    (42, None, None, None)
    >>> ascii_number("٣") is None and ascii_number("9" * 5000) is None and ascii_number("") is None
    True
    """
    if text is None or not _DIGITS.fullmatch(text):
        return None
    return int(text)


__all__ = ["MAX_DIGITS", "ascii_number"]
