"""What people write at a table: the checks every name and message passes.

* :func:`printable` — the characters a name or a message may hold: printable
  ones, and the joiners of an emoji sequence (👩‍💻, 🏳️‍🌈, a flag's tags), never
  a control character, a line break or a bidirectional override.
* :func:`blank` — whether a text would render as nothing (spaces, a Hangul
  filler such as U+3164, a braille blank, a lone combining mark).
* :func:`interface_label` — whether a name reads as one of the table's own
  labels (``You``, ``Seat 2``, ``Seat 2 (greedy)``, ``Team A``, a bot's name),
  so nobody can pass for the interface or for another seat.
* :func:`table_talk` — the tile a text names, if any: the one filter of names
  and chat messages ("no table talk").

What the table-talk filter is meant to catch: a player telling the table which
tiles they hold in the forms people write tiles in, by mistake or in plain
words.  Before matching, the text is normalised: NFKC (``⁶``, ``６`` and ``⑥``
are 6), every decimal digit of any script to ASCII (``٦`` is 6), every dash
and minus to ``-``, every space to one space, invisible characters and
combining marks dropped.  Then a tile is two pip numbers of the set (digits,
or words: ``zero``/``blank`` to ``twelve``) joined by a dash, ``|``, ``/``,
``\\``, ``:``, ``x``, ``×``, a comma, ``&``, ``and``, ``by`` or a space
(``6-4``, ``[6|4]``, ``0 4``, ``0–4``, ``0,4``, ``⁶-⁴``, ``six-four``,
``six and four``), a double written as ``double six``, or two glued digits
with a leading zero (``04``: nobody writes a number so).  An ordinary
number is not a tile: ``15`` is a score, ``6.4`` a decimal, ``1,000`` a
thousand.  It cannot catch a code agreed beforehand ("my lucky number"),
and does not try.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_ZWJ = "\u200d"
_BLACK_FLAG = "\U0001f3f4"
#: Letters and symbols that render as nothing (Unicode calls them letters or
#: symbols, so ``str.isspace`` and ``str.isprintable`` let them through).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f")
_INVISIBLE = ("Mn", "Me", "Cf", "Zs", "Zl", "Zp", "Cc")


def printable(text: str) -> bool:
    """Whether every character of ``text`` may stand in a name or a message.

    >>> printable("Ana"), printable("👩\u200d💻 dev"), printable("🏳️\u200d🌈")
    (True, True, True)
    >>> printable("a\\nb"), printable("\u202eevil"), printable("\u200d")
    (False, False, False)
    """
    for i, ch in enumerate(text):
        if ch.isprintable():
            continue
        if ch == _ZWJ and _joins_emoji(text, i):
            continue
        if 0xE0020 <= ord(ch) <= 0xE007F and _in_flag_tags(text, i):
            continue
        return False
    return True


def _joins_emoji(text: str, i: int) -> bool:
    """A zero-width joiner between two parts of an emoji sequence."""
    if not 0 < i < len(text) - 1:
        return False
    before, after = text[i - 1], text[i + 1]
    return (not before.isspace() and before != _ZWJ
            and unicodedata.category(after) in ("So", "Sk"))


def _in_flag_tags(text: str, i: int) -> bool:
    """A tag character of a subdivision flag (🏴 followed by tags, ending with U+E007F)."""
    j = i
    while j > 0 and 0xE0020 <= ord(text[j - 1]) <= 0xE007F:
        j -= 1
    return j > 0 and text[j - 1] == _BLACK_FLAG


def blank(text: str) -> bool:
    """Whether ``text`` renders as nothing: no character is visible on its own.

    >>> blank("\u3164"), blank("\u0301"), blank(" \u2800 "), blank("Ana"), blank("👩\u200d💻")
    (True, True, True, False, False)
    """
    return not any(unicodedata.category(ch) not in _INVISIBLE and ch not in _BLANKS
                   and not 0xE0020 <= ord(ch) <= 0xE007F for ch in text)


def _plain(text: str) -> str:
    """``text`` as the filters read it: NFKC, decimal digits in ASCII, dashes as
    ``-``, spaces as one space, invisible characters and marks dropped, lower case."""
    out = []
    for ch in unicodedata.normalize("NFKC", text):
        cat = unicodedata.category(ch)
        digit = unicodedata.decimal(ch, None)
        if digit is not None:
            out.append(str(digit))
        elif cat == "Pd" or ch in "\u2212\u2796":  # every dash, the minus signs
            out.append("-")
        elif cat in ("Zs", "Zl", "Zp") or ch in "\t\n\r":
            out.append(" ")
        elif cat in ("Mn", "Me", "Cf") or ch in _BLANKS:
            continue
        elif ch in "\u00d7\u2715\u2716":  # multiplication signs
            out.append("x")
        elif ch in "\u00a6\u2502\u2223\u01c0":  # bars
            out.append("|")
        elif ch in "\u2044\u2215":  # slashes
            out.append("/")
        else:
            out.append(ch)
    return re.sub(r" +", " ", "".join(out)).strip().casefold()


_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve")
_PIP = r"(?:[0-9]{1,2}|blanks?|" + "|".join(_WORDS) + ")"
_JOIN = r"\s*(?:[-|/\\:x,&]|and|by)\s*|\s+"
_PAIR = re.compile(rf"(?<![0-9a-z.]){_PIP}(?:{_JOIN}){_PIP}(?![0-9a-z]|\.[0-9])")
_PAIR_PARTS = re.compile(rf"({_PIP})(?:{_JOIN})({_PIP})")
_DOUBLE = re.compile(rf"(?<![a-z])double[\s-]*({_PIP})(?![0-9a-z])")
_GLUED = re.compile(r"(?<![0-9.,])0([0-9])(?![0-9]|[.,][0-9])")


def _pip(word: str) -> int:
    if word[0].isdigit():
        return int(word)
    if word.startswith("blank"):
        return 0
    return _WORDS.index(word)


def table_talk(text: str, top: int) -> str | None:
    """The tile of a set with pips 0 to ``top`` that ``text`` names, as the set
    names it (``"4-6"``), or None.

    >>> [table_talk(t, 6) for t in ("I hold 6-4", "[6|4]", "0 4", "0\u20134", "04", "0,4",
    ...                             "\u2076-\u2074", "six-four", "double six", "nice 15!")]
    ['4-6', '4-6', '0-4', '0-4', '0-4', '0-4', '4-6', '4-6', '6-6', None]
    >>> table_talk("7-4", 6), table_talk("7-4", 9), table_talk("1,000 points", 6), table_talk("6.4 s", 6)
    (None, '4-7', None, None)
    """
    plain = _plain(text)
    for found in _PAIR.finditer(plain):
        parts = _PAIR_PARTS.fullmatch(found.group(0))
        if parts is None:  # pragma: no cover - _PAIR matched it
            continue
        a, b = _pip(parts.group(1)), _pip(parts.group(2))
        if a <= top and b <= top:
            return f"{min(a, b)}-{max(a, b)}"
    for found in _DOUBLE.finditer(plain):
        a = _pip(found.group(1))
        if a <= top:
            return f"{a}-{a}"
    for found in _GLUED.finditer(plain):
        b = int(found.group(1))
        if b <= top:
            return f"0-{b}"
    return None


_LABEL = re.compile(r"you|me|host|spectator|boneyard|seat ?[0-9]+.*|team ?[a-z](?:[^a-z].*)?")


def interface_label(name: str, bots: Iterable[str] = ()) -> bool:
    """Whether ``name`` reads as one of the table's own labels: ``You``, ``Seat 2``
    (and anything after it, ``Seat 2 (greedy)``), ``Team A``, the host, a spectator,
    the boneyard, or a bot's name (any of ``bots``, alone or with a bot's
    parameters, or in brackets after a name, as a seat handed to a bot is shown).

    >>> [interface_label(n, ["greedy"]) for n in ("You", "Ｓｅａｔ 2 (greedy)", "team a",
    ...                                           "Greedy", "Ana (greedy)", "Youssef", "Seatbelt")]
    [True, True, True, True, True, False, False]
    """
    plain = _plain(name)
    if _LABEL.fullmatch(plain):
        return True
    names = {b.casefold() for b in bots}
    head = re.split(r"[\s:(]", plain, maxsplit=1)[0]
    if head in names:
        return True
    bracket = re.search(r"\(([^)]*)\)\s*$", plain)
    return bracket is not None and re.split(r"[\s:]", bracket.group(1).strip() or " ")[0] in names


__all__ = ["blank", "interface_label", "printable", "table_talk"]
