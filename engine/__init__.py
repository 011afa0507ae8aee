"""bones: a rules engine for the point-domino family, driven by YAML variant files.

The top-level names load lazily, so importing :mod:`engine` (as the CLI does
at start-up) costs nothing until they are used:

>>> import engine
>>> rules = engine.compile_rules(engine.load_variant("sniff"), players=2)
>>> hand = engine.Match(rules, seed=1).new_hand()
>>> len(hand.legal_moves()) > 0
True
"""

from __future__ import annotations

import importlib
from typing import Any

from engine._version import __version__

_EXPORTS = {
    "load_variant": "engine.load",
    "VariantError": "engine.load",
    "builtin_names": "engine.load",
    "Variant": "engine.spec",
    "compile_rules": "engine.rules",
    "Rules": "engine.rules",
    "Match": "engine.match",
    "Deal": "engine.match",
    "Hand": "engine.hand",
    "DRAW": "engine.hand",
    "PASS": "engine.hand",
    "IllegalMoveError": "engine.hand",
    "format_move": "engine.notation",
    "parse_move": "engine.notation",
    "observe": "engine.observation",
    "sample_world": "engine.observation",
    "make_bot": "engine.bots",
    "load_record": "engine.record",
    "save_record": "engine.record",
    "replay": "engine.record",
    "record_match": "engine.record",
    "Recorder": "engine.record",
    "RecordError": "engine.record",
}

__all__ = ["__version__", "compiled", *_EXPORTS]


def compiled() -> bool:
    """Whether the hot path (engine.hand) runs compiled by mypyc
    (``BONES_COMPILE=1`` at install time) rather than as Python."""
    import engine.hand

    return not engine.hand.__file__.endswith(".py")


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
