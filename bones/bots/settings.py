"""What a search bot is told, as one value: the settings of a bot family,
built once when the bot is made, and handed to the native core as one
object (``bones_native.SearchSettings`` or ``TreeSettings``), read once
into the Rust search's budget (``search::Budget``, ``ismcts::Config``).

* :class:`SearchSettings`: the determinized searches, ``search``,
  ``pimc`` and ``epimc`` (native/src/bots/search.rs, epimc.rs);
* :class:`TreeSettings`: the information-set tree, ``ismcts`` and the tree
  ``search`` grows where it cannot solve (native/src/bots/ismcts.rs).

What changes from call to call stays an argument: the position, the legal
moves, the stream's state, the match table of the rules being played and
the analysis's even root.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class SearchSettings:
    """A determinized search's settings (``bones.bots.search.SearchBot``'s
    parameters but the objective, which depends on the rules played)."""

    #: worlds sampled per move
    iterations: int
    #: playouts per move and world
    rollouts: int
    #: how playouts play (``bones.bots.rollouts.POLICIES``)
    policy: str
    #: a time budget per move instead of ``iterations`` (0: none)
    seconds: float
    #: solve worlds exactly with at most this many tiles in the hands and
    #: nothing left to draw (0: never)
    solve: int
    #: the inference's temperature (0: every world weighs the same)
    infer: float
    #: threads of the native search (judging the worlds: the same moves for any number)
    threads: int
    #: the most positions the solve of one world may visit (0: no limit)
    nodes: int
    #: whether the inference judges the plays made after draws
    #: (``bones.bots.infer.DEFAULT_DRAWS``; false: every world weighs 1 once
    #: anybody drew)
    draws: bool = True

    def native(self) -> Any:
        """This value in the native core (``bones_native.SearchSettings``),
        made once a process."""
        return _native("SearchSettings", self)


@dataclass(frozen=True)
class TreeSettings:
    """An information-set tree's settings (``bones.bots.ismcts.IsmctsBot``'s
    parameters)."""

    #: iterations (one sampled world each) per move
    iterations: int
    #: a time budget per move instead of ``iterations`` (0: none)
    seconds: float
    #: how playouts play
    policy: str
    #: the exploration constant of the upper confidence bound
    explore: float
    #: points of a hand's margin worth a reward of 1 (0: the rules' ``tree_scale``)
    scale: float
    #: solve leaves exactly with at most this many tiles in the hands (0: never)
    solve: int
    #: the inference's temperature (0: a fresh world each iteration)
    infer: float
    #: worlds in the inference's pool
    worlds: int
    #: the most moves the tree holds below the root (0: no limit)
    depth: int
    #: the most positions the solve of one leaf may visit (0: no limit)
    nodes: int
    #: trees grown side by side, sharing the iterations (1: one tree)
    threads: int = 1
    #: the weight of the heuristic's prior in the bound (0: none)
    prior: float = 0.0
    #: whether the inference judges the plays made after draws
    draws: bool = True

    def native(self) -> Any:
        """This value in the native core (``bones_native.TreeSettings``),
        made once a process."""
        return _native("TreeSettings", self)


#: native settings already made, by kind and value
_MADE: dict[tuple[str, SearchSettings | TreeSettings], Any] = {}


def _native(kind: str, settings: SearchSettings | TreeSettings) -> Any:
    got = _MADE.get((kind, settings))
    if got is None:
        # the module of the native halves the settings are handed to (they
        # may be used with BONES_CORE=python too, by tests comparing the cores)
        import bones_native

        got = getattr(bones_native, kind)(asdict(settings))
        if len(_MADE) > 256:
            _MADE.clear()
        _MADE[(kind, settings)] = got
    return got


__all__ = ["SearchSettings", "TreeSettings"]
