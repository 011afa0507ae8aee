"""bones: a rules engine for the point-domino family, driven by YAML variant files.

The top-level names load lazily, so ``import bones`` (as the CLI does at
start-up) costs nothing until they are used:

>>> import bones
>>> rules = bones.compile_rules(bones.load_variant("sniff"), players=2)
>>> hand = bones.Match(rules, seed=1).new_hand()
>>> len(hand.legal_moves()) > 0
True

The library lives in :mod:`bones.engine`, the command line in
:mod:`bones.cli`; ``python -m bones`` runs the command line.
"""

from __future__ import annotations

import importlib

from bones._version import __version__

# nothing else is imported here: the command line's entry point
# (bones.cli.entry) takes Ctrl-C only after this package has loaded
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_EXPORTS = {
    "load_variant": "bones.lang.load",
    "VariantError": "bones.lang.load",
    "builtin_names": "bones.lang.load",
    "Variant": "bones.lang.spec",
    "compile_rules": "bones.lang.compile",
    "Rules": "bones.engine.rules",
    "Match": "bones.engine.match",
    "Deal": "bones.engine.match",
    "Hand": "bones.engine.hand",
    "DRAW": "bones.engine.moves",
    "PASS": "bones.engine.moves",
    "Move": "bones.engine.moves",
    "Outcome": "bones.engine.moves",
    "IllegalMoveError": "bones.engine.hand",
    "format_move": "bones.engine.notation",
    "parse_move": "bones.engine.notation",
    "move_value": "bones.engine.notation",
    "move_code": "bones.engine.notation",
    "observe": "bones.seat.observation",
    "sample_world": "bones.seat.observation",
    "make_bot": "bones.bots",
    "load_record": "bones.games.record",
    "save_record": "bones.games.record",
    "replay": "bones.games.record",
    "record_match": "bones.games.record",
    "Recorder": "bones.games.record",
    "RecordError": "bones.games.record",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bones' has no attribute {name!r}")

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
