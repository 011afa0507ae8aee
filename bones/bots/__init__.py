"""Bots: players that see only an :class:`~bones.seat.observation.Observation`.

A bot is written as text: its name and parameters separated by colons,
``search:iterations=800:rollouts=4``; several bots are separated by commas
(:func:`split_bots`: or ``--bots`` repeated, one bot each).  Outside bots
name their kind, ``py:``, ``file:``, ``ep:`` or ``cmd:``
(:mod:`bones.bots.external`, docs/bots.md), and load only when the
command line permitted them (:func:`permit_outside`).

>>> bot = make_bot("search:iterations=50")
>>> bot.name
'search:iterations=50'
>>> [b.name for b in parse_bots("greedy, random")]
['greedy', 'random']
>>> make_bot("gredy")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bones.bots.BotError: unknown bot 'gredy' (did you mean greedy?); bots: random, greedy, ...

The protocol: ``bot.choose(obs, rng) -> int`` returns one of
``obs.legal_moves()`` (a move code); all its randomness comes from ``rng``,
a :class:`bones.engine.rng.Rng` (``random()``, ``below(n)``, ``choice``,
``shuffle``: docs/random.md).
A bot never claims muggins points wrongly: it plays the move and the engine
credits the true points.  A bot is not asked for a forced move (one legal
move): simulations and ``bones play`` make it themselves.

What a bot declares, for simulations to skip work it does not need:

* ``decide(hand, legal, rng) -> int`` (optional): the move from the live hand
  and its legal moves, with no :class:`Observation` built.  Only a built-in
  bot that reads nothing but what the mover may see (its own tiles, the
  layout, counts and scores) defines it; it must choose as ``choose`` would.
* ``draws = False``: it never draws from ``rng`` (it gets ``None``).
* ``expensive = True``: its every decision is timed (others are sampled).
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, Protocol

from bones.bots.info import KINDS, BotInfo, Param, _show, named

if TYPE_CHECKING:  # the protocol's types: a bot's module imports the engine it plays with
    from bones.engine.rng import Rng
    from bones.seat.observation import Observation


class BotError(ValueError):
    """A bot text that names no bot or gives a bad parameter."""


class Bot(Protocol):
    name: str

    def choose(self, obs: Observation, rng: Rng) -> int: ...


#: Every built-in bot and the module that declares it (in its ``INFOS``), in
#: the order lists of bots show them.
_MODULES = {
    "random": "bones.bots.basic",
    "greedy": "bones.bots.basic",
    "heuristic": "bones.bots.basic",
    "pimc": "bones.bots.search",
    "search": "bones.bots.search",
    "ismcts": "bones.bots.ismcts",
    "epimc": "bones.bots.epimc",
    "blunder": "bones.bots.blunder",
}


class _Registry(MutableMapping[str, BotInfo]):
    """The bots by name: every name known at once, a bot's entry (and its
    module, with what it imports) loaded when first looked up, so a run of
    random bots never imports the search bots."""

    def __init__(self, modules: dict[str, str]) -> None:
        #: a bot's entry, or the name of the module that declares it
        self._entries: dict[str, BotInfo | str] = dict(modules)

    def __getitem__(self, name: str) -> BotInfo:
        entry = self._entries[name]
        if isinstance(entry, str):
            for info in importlib.import_module(entry).INFOS:
                self._entries[info.name] = info
            entry = self._entries[name]
            if isinstance(entry, str):
                raise LookupError(f"{entry} declares no bot {name!r}")
        return entry

    def __setitem__(self, name: str, info: BotInfo) -> None:
        self._entries[name] = info

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries


class _Limits(Mapping[str, dict[str, float]]):
    """Each bot's largest parameter values (:data:`BOT_LIMITS`), read from
    its entry when first looked up."""

    def __getitem__(self, name: str) -> dict[str, float]:
        return {p.name: p.maximum for p in BOTS[name].params if p.maximum is not None}

    def __iter__(self) -> Iterator[str]:
        return iter(BOTS)

    def __len__(self) -> int:
        return len(BOTS)

    def __contains__(self, name: object) -> bool:
        return name in BOTS


#: Every bot by name.
BOTS: MutableMapping[str, BotInfo] = _Registry(_MODULES)


def canonical(name: str, values: dict[str, Any]) -> str:
    """``name`` followed by the parameters that differ from their defaults."""
    return named(name, BOTS[name].params, values)


#: A bot parameter's number as every front end reads it: ASCII digits only (an
#: optional minus, a decimal point for a real number), never what ``int()``
#: and ``float()`` also take (``٣``, ``1_000``, ``+5``, ``1e3``, ``inf``, spaces,
#: thousands of digits); forty digits are plenty to say "too large".
_WHOLE = re.compile(r"-?[0-9]{1,40}")
_REAL = re.compile(r"-?(?:[0-9]{1,40}(?:\.[0-9]{0,40})?|\.[0-9]{1,40})")


def _short(text: str) -> str:
    """``text`` as a message quotes it: at most 24 characters."""
    return text if len(text) <= 24 else text[:20] + "..."


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean NAME?)`` for the name of ``known`` closest to a
    mistyped ``word``, or "" when none is close."""
    import difflib  # only a mistyped bot pays for it (a plain simulation never does)

    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _convert(bot: str, param: Param, text: str) -> Any:
    shown = _short(text)
    value: Any = text
    if param.kind is int:
        if not _WHOLE.fullmatch(text):
            raise BotError(f"{bot}: {param.name} must be a whole number, not '{shown}'")
        value = int(text)
    elif param.kind is float:
        if not _REAL.fullmatch(text):
            if text.lower().lstrip("+-") in ("inf", "infinity", "nan"):
                raise BotError(f"{bot}: {param.name} must be a finite number, not '{shown}'")
            raise BotError(f"{bot}: {param.name} must be a number, not '{shown}'")
        value = float(text)
    if param.choices and value not in param.choices:
        raise BotError(
            f"{bot}: {param.name} must be one of {', '.join(param.choices)}, not '{shown}'"
        )
    if param.minimum is not None and value < param.minimum:
        raise BotError(f"{bot}: {param.name} must be at least {_show(param.minimum)}, not {shown}")
    if param.maximum is not None and value > param.maximum:
        raise BotError(f"{bot}: {param.name} may be at most {_show(param.maximum)}, not {shown}")
    return value


def delay_problem(seconds: float, option: str) -> str | None:
    """What is wrong with a pause between bot moves (``--delay``, ``--pace``):
    a number of seconds from 0 to :data:`MAX_DELAY`, or None."""
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_DELAY:
        return f"{option} must be from 0 to {_show(MAX_DELAY)} seconds, not {seconds:g}"
    return None


#: Outside bot texts the command line named in this process (see permit_outside).
_PERMITTED: set[str] = set()


def kind_of(text: str) -> str:
    """``"builtin"``, or the outside kind a bot text names (py, file, ep, cmd)."""
    head = text.strip().partition(":")[0].strip().lower()
    return head if head in KINDS else "builtin"


def permit_outside(texts: list[str]) -> None:
    """Allow the outside bots among ``texts`` to load in this process (and in
    worker processes forked from it).  Only the command line calls this:
    bot texts from a variant file, a save, a record or a server request
    never load outside code."""
    _PERMITTED.update(t.strip() for t in texts if kind_of(t) != "builtin")


def permitted_outside() -> list[str]:
    """The outside bot texts the command line permitted in this process (for
    worker processes to permit them too)."""
    return sorted(_PERMITTED)


def time_limited_bots() -> list[str]:
    """The permitted bots with a time limit per decision (``cmd:``): a run
    with one is not reproducible."""
    return sorted(t for t in _PERMITTED if kind_of(t) == "cmd")


def make_bot(text: str) -> Bot:
    """The bot written as ``name:key=value:...`` (or an outside bot the
    command line permitted: ``py:``, ``file:``, ``ep:``, ``cmd:``)."""
    kind = kind_of(text)
    if kind != "builtin":
        return _make_outside(kind, text.strip())
    name, values = parse_bot(text)
    info = BOTS[name]
    full = {p.name: values.get(p.name, p.default) for p in info.params}
    bot: Bot = info.factory(**full)
    return bot


def parse_bot(text: str) -> tuple[str, dict[str, Any]]:
    """The built-in bot ``name:key=value:...`` names and the parameters it gives,
    each checked (its kind, its choices, its limits): the one reader of bot
    texts, for the command line, saves and the server alike.

    >>> parse_bot("Search:iterations=200:seconds=0.5")
    ('search', {'iterations': 200, 'seconds': 0.5})
    >>> parse_bot("search:iterations=\u0663")
    Traceback (most recent call last):
    ...
    bones.bots.BotError: search: iterations must be a whole number, not '\u0663'
    """
    parts = [p.strip() for p in text.strip().split(":")]
    name = parts[0].lower()
    if name not in BOTS:
        known = ", ".join(BOTS)
        shown = _short(name) or "(empty)"
        raise BotError(f"unknown bot '{shown}'{_did_you_mean(name, BOTS)}; bots: {known}")
    info = BOTS[name]
    params = {p.name: p for p in info.params}
    values: dict[str, Any] = {}
    for part in parts[1:]:
        key, eq, raw = part.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            raise BotError(f"{name}: write parameters as key=value, not '{_short(part)}'")
        if key not in params:
            if not params:
                raise BotError(f"{name} takes no parameters (got '{_short(key)}')")
            raise BotError(f"{name} has no parameter '{_short(key)}'{_did_you_mean(key, params)}; "
                           f"parameters: {', '.join(params)}")
        if key in values:
            raise BotError(f"{name}: {key} is given twice")
        values[key] = _convert(name, params[key], raw.strip())
    return name, values


def _make_outside(kind: str, text: str) -> Bot:
    # outside bots only: their module brings subprocesses, pipes and threads
    from bones.bots.external import CommandBot, OutsideBotError, load_python

    if text not in _PERMITTED:
        raise BotError(f"{text}: outside bots ({kind}:) load only when named on the command "
                       "line (bones simulate, tournament or compare --bots)")
    try:
        if kind == "cmd":
            return CommandBot(text)
        bot: Bot = load_python(text)
        return bot
    except OutsideBotError as err:
        raise BotError(str(err)) from None


def split_bots(values: list[str] | str) -> list[str]:
    """Bot texts from ``--bots`` values.

    One value: bots separated by commas.  Several values (``--bots`` given
    more than once): each value is one bot, commas and all, which is how a
    bot text containing a comma is given.
    """
    if isinstance(values, str):
        values = [values]
    if len(values) == 1:
        items = values[0].split(",")
        if not any(item.strip() for item in items):
            raise BotError("no bots given (write them like greedy,search:iterations=40)")
        for item in items:
            if not item.strip():
                raise BotError(f"an empty bot name in '{values[0]}'")
        return [item.strip() for item in items]
    out = []
    for value in values:
        if not value.strip():
            raise BotError("an empty --bots value")
        if "," in value and kind_of(value) == "builtin":
            raise BotError(f"'{value.strip()}': when --bots is given more than once, each "
                           "value is one bot; give each of these bots its own --bots")
        out.append(value.strip())
    return out


def parse_bots(text: str) -> list[Bot]:
    """Bots separated by commas: ``"search:iterations=40,greedy"``."""
    items = [item for item in text.split(",")]
    if not any(item.strip() for item in items):
        raise BotError("no bots given (write them like greedy,search:iterations=40)")
    bots = []
    for item in items:
        if not item.strip():
            raise BotError(f"an empty bot name in '{text}'")
        bots.append(make_bot(item))
    return bots


#: The largest value of each numeric parameter of each built-in bot: one set
#: of limits for the command line, saves and the web server (whose clients
#: may give only these parameters).
BOT_LIMITS: Mapping[str, dict[str, float]] = _Limits()
#: The longest pause after a bot's move, in seconds (``bones play --delay``,
#: ``bones serve --pace``).
MAX_DELAY = 10.0

__all__ = ["BOTS", "BOT_LIMITS", "MAX_DELAY", "Bot", "BotError", "BotInfo", "Param", "canonical",
           "delay_problem", "kind_of", "make_bot", "parse_bot", "parse_bots", "permit_outside",
           "permitted_outside", "split_bots", "time_limited_bots"]
