"""What describes a bot: its parameters and its entry in the list of bots.

A leaf module: the bots' own modules (``basic``, ``search``) import it, and
:mod:`bones.bots` builds the registry from their ``INFOS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - a leaf at run time
    from bones.bots import Bot

#: The kinds of outside bots (:mod:`bones.bots.external`): the word before a
#: bot text's first colon.
KINDS = ("py", "file", "ep", "cmd")


@dataclass(frozen=True)
class Param:
    name: str
    kind: type  # int, float or str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    #: the largest value, the same on the command line, in a save and on the
    #: server (:data:`bones.bots.BOT_LIMITS`)
    maximum: float | None = None


@dataclass(frozen=True)
class BotInfo:
    name: str
    summary: str
    params: tuple[Param, ...]
    factory: Callable[..., Bot]


def named(name: str, params: tuple[Param, ...], values: dict[str, Any]) -> str:
    """``name`` followed by the parameters that differ from their defaults.

    >>> named("search", (Param("iterations", int, 50, ""),), {"iterations": 200})
    'search:iterations=200'
    """
    parts = [name]
    for p in params:
        value = values.get(p.name, p.default)
        if value != p.default:
            parts.append(f"{p.name}={_show(value)}")
    return ":".join(parts)


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


__all__ = ["KINDS", "BotInfo", "Param", "named"]
