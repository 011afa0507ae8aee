"""Which core plays: the native extension when it can, else the Python engine.

The native core is the ``bones_native`` extension (the ``bones-native``
distribution, built from ``native/`` with ``pip install ./native``).  It
interprets the same compiled tables as :mod:`bones.engine.hand`, flattened by
:mod:`bones.engine.flat`, and plays the same games move for move.

``BONES_CORE`` chooses:

* unset (or ``auto``): native when it is installed and was built for this
  bones' table format; otherwise Python.  An extension built for another
  format (an editable checkout pulled without rebuilding) is not used, and a
  one-line note says how to rebuild it;
* ``python``: the Python reference, always;
* ``native``: the native core, or a one-line :class:`CoreError` saying why
  it cannot be loaded.

>>> import os
>>> active_name() in ("native core", "pure Python")
True
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, overload

# the table format the native core must be built for, without loading the
# engine: `bones --version` imports this module and nothing more, so the
# engine's modules are imported inside the functions that play
from bones.engine.tableformat import FORMAT_VERSION

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from bones.engine.handlike import HandLike
    from bones.engine.leads import Deal
    from bones.engine.rules import Rules

ENV = "BONES_CORE"
REBUILD = "pip install ./native"


class CoreError(RuntimeError):
    """The core asked for cannot run (one line for people)."""


_loaded: dict[str, Any] = {}
_warned = False


def _choice() -> str:
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("", "auto"):
        return "auto"
    if value in ("python", "native"):
        return value
    raise CoreError(f"{ENV} must be python or native, not {value!r}")


def _import() -> tuple[Any, str]:
    """(the native module or None, why not)."""
    if "module" in _loaded:
        return _loaded["module"], _loaded["why"]
    module, why = None, ""
    try:
        import bones_native
    except ImportError as err:
        why = f"the native core is not installed ({err}); install it with {REBUILD}"
    else:
        built = getattr(bones_native, "TABLE_FORMAT", "?")
        if built != FORMAT_VERSION:
            why = (f"the native core was built for table format {built} but this bones "
                   f"uses {FORMAT_VERSION}: rebuild it with {REBUILD}")
        else:
            module = bones_native
    _loaded["module"], _loaded["why"] = module, why
    return module, why


def native() -> Any:
    """The ``bones_native`` module when the native core is to run, else None.

    Raises :class:`CoreError` when ``BONES_CORE=native`` and it cannot run.
    """
    global _warned
    choice = _choice()
    if choice == "python":
        return None
    module, why = _import()
    if module is None:
        if choice == "native":
            raise CoreError(f"{ENV}=native: {why}")
        if why and "rebuild" in why and not _warned:
            _warned = True
            print(f"bones: {why} (using the Python core)", file=sys.stderr)
    return module


def active_name() -> str:
    """The core that runs, as ``bones --version`` names it."""
    return "native core" if native() is not None else "pure Python"


# ------------------------------------------------------------ flat tables

_RULES_CACHE: dict[int, tuple[Any, Any]] = {}


def flat_table(rules: Rules) -> dict[str, Any]:
    """The flat table of ``rules`` (:func:`bones.engine.flat.flatten`)."""
    from bones.engine.flat import flatten  # lazy: bones --version loads this module

    return flatten(rules)


def native_rules(rules: Any, module: Any = None) -> Any:
    """The native core's table for ``rules`` (built once per Rules object)."""
    module = module or native()
    if module is None:
        raise CoreError("the native core is not in use")
    got = _RULES_CACHE.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    table = module.Rules(flat_table(rules))
    if len(_RULES_CACHE) > 64:
        _RULES_CACHE.clear()
    _RULES_CACHE[id(rules)] = (rules, table)
    return table


_OBJECTS: dict[tuple[str, int], tuple[Any, Any]] = {}


def native_object(rules: Any, kind: str) -> Any:
    """``bones_native.<kind>`` (``Searcher``, ``Ismcts``, ``Epimc``: a bot's
    native half) for ``rules``, made once per Rules object, when the native
    core is active; else None, as when the core refuses the table or was
    built before ``kind`` (the Python bot then takes the same decisions)."""
    module = native()
    if module is None:
        return None
    got = _OBJECTS.get((kind, id(rules)))
    if got is not None and got[0] is rules:
        return got[1] or None
    try:
        made = getattr(module, kind)(flat_table(rules))
    except (ValueError, AttributeError):
        made = False
    if len(_OBJECTS) > 64:
        _OBJECTS.clear()
    _OBJECTS[(kind, id(rules))] = (rules, made)
    return made or None


def native_hand(rules: Any, deal: Any, scores: list[int] | None = None,
                module: Any = None, record: bool = True, pot: int = 0,
                got_in: list[bool] | None = None, number: int = 1) -> Any:
    """A native stepwise hand dealt like ``Match.start_hand(deal)``."""
    module = module or native()
    ts = rules.tiles
    return module.Hand(
        native_rules(rules, module),
        [ts.tiles_of(h) for h in deal.hands],
        list(deal.boneyard),
        deal.leader,
        scores=list(scores) if scores is not None else None,
        lead_tile=deal.lead_tile,
        lead_doubles_only=deal.lead_doubles_only,
        out_of_play=ts.tiles_of(deal.out_of_play),
        record=record,
        pot=pot,
        got_in=got_in,
        number=number,
    )


@overload
def new_hand(rules: Rules, deal: Deal, *, scores: list[int] | None = None,
             pot: int = 0, got_in: list[bool] | None = None, number: int = 1) -> HandLike: ...


@overload
def new_hand(rules: Rules, deal: Sequence[int], *legacy: Any, scores: list[int] | None = None,
             pot: int = 0, got_in: list[bool] | None = None, number: int = 1) -> HandLike: ...


def new_hand(rules: Rules, deal: Deal | Sequence[int], *legacy: Any,
             scores: list[int] | None = None, pot: int = 0,
             got_in: list[bool] | None = None, number: int = 1) -> HandLike:
    """The hand ``deal`` starts (as :meth:`Hand.from_deal <bones.engine.hand.Hand.from_deal>`),
    stepped by the core that runs: a :class:`~bones.engine.nativehand.NativeHand`
    when the native core is active, else the Python
    :class:`~bones.engine.hand.Hand`.  Both read and play alike, and play the
    same games; ``scores`` (a match's running list) is kept up to date by
    either.

    ``got_in`` says which sides start the hand already in (a match whose
    ``get_in_scope`` is ``match``).  The older form, ``Hand``'s own
    arguments (``new_hand(rules, hands, boneyard, leader, scores, lead_tile,
    lead_doubles_only, out_of_play, pot)``), still deals the same hand.
    """
    # lazy: bones --version loads this module; the hands load with the first hand
    from bones.engine.leads import Deal

    if not isinstance(deal, Deal):
        deal, old_scores, old_pot = _legacy_deal(deal, *legacy)
        scores = scores if scores is not None else old_scores
        pot = pot or old_pot
    if rules.trains is not None:
        return new_train_hand(rules, deal, scores, pot, got_in, number)
    module = native()
    if module is None:
        from bones.engine.hand import Hand  # lazy: only the Python core's hands need it

        return Hand.from_deal(rules, deal, scores, pot, got_in, number)
    from bones.engine.nativehand import NativeHand  # lazy: see Deal above

    if scores is None:
        scores = [0] * rules.owners
    return NativeHand(rules, native_hand(rules, deal, scores, module, pot=pot, got_in=got_in,
                                         number=number), scores)


def new_train_hand(rules: Rules, deal: Deal, scores: list[int] | None = None, pot: int = 0,
                   got_in: Sequence[bool] | None = None, number: int = 1) -> HandLike:
    """A train layout's stepwise hand (docs/trains.md): under
    ``BONES_CORE=native`` a :class:`~bones.engine.nativetrains.NativeTrainHand`
    (the kernel steps it, the Python ``TrainHand`` of its state is read for
    everything else), else the Python :class:`~bones.engine.trains.TrainHand`."""
    if _choice() == "native":
        module = native()
        from bones.engine.nativetrains import NativeTrainHand  # lazy: see new_hand

        return NativeTrainHand.from_deal(rules, deal, module, flat_table(rules), scores, pot,
                                         got_in, number)
    from bones.engine.trains import TrainHand  # lazy: only train layouts need it

    return TrainHand.from_deal(rules, deal, scores, pot, got_in, number)


_noted: set[str] = set()


def note_python_only(rules: Rules, why: str) -> None:
    """Say once, on stderr, that the Python core plays ``rules`` although
    ``BONES_CORE=native`` asked for the native one: ``why`` the native core
    refused a simulation's table."""
    if _choice() == "native" and rules.name not in _noted:
        _noted.add(rules.name)
        print(f"bones: the native core does not play {rules.name}: {why} "
              "(using the Python core)", file=sys.stderr)


def _legacy_deal(hands: Sequence[int], boneyard: Sequence[int] = (), leader: int = 0,
                 scores: list[int] | None = None, lead_tile: int = -1,
                 lead_doubles_only: bool = False, out_of_play: int = 0,
                 pot: int = 0) -> tuple[Deal, list[int] | None, int]:
    """``new_hand``'s older arguments as (deal, scores, pot)."""
    from bones.engine.leads import Deal  # lazy: see new_hand

    return (Deal(tuple(hands), tuple(boneyard), leader, lead_tile, lead_doubles_only,
                 out_of_play), scores, pot)


__all__ = ["CoreError", "ENV", "active_name", "flat_table", "native", "native_hand", "native_object",
           "native_rules", "new_hand", "new_train_hand"]
