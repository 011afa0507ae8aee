"""A compiled :class:`~bones.engine.rules.Rules` flattened into plain ints.

The native core (the ``bones_native`` extension, built from ``native/``)
does not read pydantic models, closures or Python tuples: it receives the
table this module makes once per run, a dict of ints and lists of ints, and
interprets it.  Nothing here is variant-specific: every rule the compiler
turned into a code is passed on as that code.

The table is declared once, on :class:`~bones.engine.rules.Rules`: each
field made with :func:`~bones.engine.rules.table` names its kind (one of
:data:`KINDS`) and its meaning.  From that declaration come
:func:`flatten`, the table's description :data:`TABLE_FORMAT` and its
version :data:`FORMAT_VERSION` (a hash of the description, which also
covers the rule codes, the move layout and the stepwise hand's fields), and
the native core's ``Table`` with its reader, which ``tools/generate_native.py``
writes into ``native/src/kernel/table_fields.rs`` (a test fails when that
file is stale).  The extension carries the version it was built for
(``bones_native.TABLE_FORMAT``): when they differ (an editable checkout
pulled without rebuilding the extension), :mod:`bones.engine.core` says how
to rebuild and runs the Python core.

>>> from bones.lang.load import load_variant
>>> from bones.lang.compile import compile_rules
>>> table = flatten(compile_rules(load_variant("sniff"), 2))
>>> table["players"], table["highest"], table["spinner_mult"]
(2, 6, [2, 2, 2, 1, 0])
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable
from typing import Any

from bones.engine import moves, rules, settle
from bones.engine.handstate import HAND_STATE
from bones.engine.rules import LeadRule, Rules, TableField
from bones.engine.settle import Settle

#: A settlement rule's codes in the flat table, in order (the native core's
#: ``Settle::FIELDS``).
SETTLE_FIELDS = ("kind", "amount", "flat", "unit", "per", "divisor", "ties", "doubles_lose", "mode",
                 "compare", "against")
#: A lead rule's codes, in order (``LeadRule::FIELDS``).
LEAD_FIELDS = ("kind", "arg", "if_none")
#: A train layout's fields (:class:`~bones.engine.rules.TrainRules`), in
#: order, before each tile's charge (``Trains::FIELDS``).
TRAIN_FIELDS = ("top", "rounds", "placing_ends_turn", "seat_trains", "public", "public_needs_own",
                "public_in_first_turn", "hub_tiles", "cover", "toes", "cover_self",
                "first_turn_multi", "first_turn_stop", "marker_off_anywhere", "marker_penalty",
                "lose_at", "cover_self_only", "one_more_anywhere", "release", "out_on_double",
                "hub_set_aside", "many_per_turn", "first_spinner")


def _settlement(rule: Settle) -> list[int]:
    return [int(getattr(rule, name)) for name in SETTLE_FIELDS]


def _lead(rule: LeadRule) -> list[int]:
    return [int(getattr(rule, name)) for name in LEAD_FIELDS]


def _trains(rules: Any) -> list[int]:
    if rules is None:
        return []
    return [int(getattr(rules, name)) for name in TRAIN_FIELDS] + [int(v) for v in rules.values]


def _fixed(value: Any) -> list[int]:
    return [int(v) for v in value]


#: Every kind of field, with how its value is written into the flat table
#: and, in words, what the table holds.  ``ints[N]`` and ``flags[N]`` take
#: their length; ``code:Enum/FAMILY`` names the native enum and the family
#: of constants (``FAMILY_*``) of :mod:`bones.engine.rules` or
#: :mod:`bones.engine.settle` whose codes it holds.
KINDS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "flag": (int, "0|1"),
    "int": (int, "int"),
    "count": (int, "int >= 0"),
    "code": (int, "code"),
    "ints": (lambda v: list(v or ()), "[int]"),
    "seats": (list, "[seat per seat]"),
    "ints[N]": (_fixed, "[N ints]"),
    "flags[N]": (_fixed, "[N 0|1]"),
    "optional": (lambda v: [] if v is None else [int(v)], "[] or [int]"),
    "settle": (_settlement, "[" + ", ".join(SETTLE_FIELDS) + "]"),
    "lead": (_lead, "[" + ", ".join(LEAD_FIELDS) + "]"),
    "trains": (_trains, "[] or [" + ", ".join(TRAIN_FIELDS) + ", charge per tile...]"),
}

_SIZED = re.compile(r"^(ints|flags)\[(\d+)\]$")


def base_kind(kind: str) -> str:
    """``kind`` without its length or code family (a key of :data:`KINDS`)."""
    sized = _SIZED.match(kind)
    if sized:
        return f"{sized.group(1)}[N]"
    return kind.split(":", 1)[0]


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of the flat table, as :class:`Rules` declares it."""

    name: str
    kind: str
    meaning: str
    part: str  # "hand" or "match"

    @property
    def base(self) -> str:
        return base_kind(self.kind)

    @property
    def size(self) -> int:
        """The length of an ``ints[N]`` or ``flags[N]`` field (else 0)."""
        sized = _SIZED.match(self.kind)
        return int(sized.group(2)) if sized else 0

    @property
    def enum(self) -> str:
        """The native enum of a ``code`` field (else "")."""
        return self.kind.split(":", 1)[1].split("/")[0] if self.base == "code" else ""

    @property
    def family(self) -> str:
        """The constants' prefix of a ``code`` field's family (else "")."""
        return self.kind.split("/", 1)[1] if self.base == "code" else ""


def _declared() -> tuple[Field, ...]:
    found = []
    for f in dataclasses.fields(Rules):
        spec = f.metadata.get("table")
        if isinstance(spec, TableField):
            if base_kind(spec.kind) not in KINDS:  # pragma: no cover - a declaration's typo
                raise ValueError(f"Rules.{f.name}: unknown table kind {spec.kind!r}")
            found.append(Field(f.name, spec.kind, spec.meaning, spec.part))
    return tuple(found)


#: The flat table's fields, in order: a hand's, then a match's.
FIELDS: tuple[Field, ...] = tuple(
    sorted(_declared(), key=lambda f: f.part != "hand"))


def code_families() -> dict[str, dict[str, int]]:
    """Every family of rule codes (``ORDER``: ``{"ORDER_SIDES": 0, ...}``):
    the upper-case int constants of :mod:`bones.engine.rules` and
    :mod:`bones.engine.settle`, grouped by the family prefixes the table's
    code fields and settlement and lead rules name."""
    families = {f.family for f in FIELDS if f.family}
    families |= {"SPIN", "LEAD", "NONE", "SETTLE", "AMOUNT", "TIES", "PER", "ROUND", "COMPARE",
                 "AGAINST"}
    constants = {name: value for module in (rules, settle) for name, value in vars(module).items()
                 if name.isupper() and type(value) is int}
    out: dict[str, dict[str, int]] = {}
    # the longest prefix wins: OVER_CLAIM_LOST is OVER_CLAIM's, not OVER's
    for name, value in sorted(constants.items(), key=lambda item: item[1]):
        family = max((p for p in families if name.startswith(p + "_")), key=len, default="")
        if family:
            out.setdefault(family, {})[name] = value
    return dict(sorted(out.items()))


def _describe() -> str:
    lines = [f"{f.name}: {f.kind} {KINDS[f.base][1]}; {f.meaning}"
             for f in FIELDS if f.part == "hand"]
    lines.append("match (read by whole simulations):")
    lines += [f"  {f.name}: {f.kind} {KINDS[f.base][1]}; {f.meaning}"
              for f in FIELDS if f.part == "match"]
    lines.append("codes:")
    lines += [f"  {family}: " + ", ".join(f"{v} {n}" for n, v in codes.items())
              for family, codes in code_families().items()]
    lines.append(f"moves: tile << {moves.TILE_SHIFT} | arm << {moves.ARM_SHIFT} | flip "
                 f"{moves.FLIP}; arm mask {moves.ARM_MASK}; DRAW {moves.DRAW}; PASS {moves.PASS}; "
                 f"no arm {moves.NO_ARM}")
    lines.append("ends: " + ", ".join(f"{o.name} {o.value}" for o in moves.Outcome))
    lines.append("stepwise hand (bones_native.Hand.fields): " + ", ".join(
        f"{f.name} {f.kind}" for f in HAND_STATE if f.native))
    return "\n".join(lines) + "\n"


#: Every field of the flat table, in order, with its meaning, then the rule
#: codes, the move layout and the stepwise hand's fields: rendered from the
#: declarations, so any change to them changes :data:`FORMAT_VERSION`.
TABLE_FORMAT = _describe()

FORMAT_VERSION = hashlib.sha256(TABLE_FORMAT.encode()).hexdigest()[:16]


class Unsupported(ValueError):
    """A rule the flat table (and so the native core) cannot express yet."""


def flatten(rules: Rules) -> dict[str, Any]:
    """The flat table of ``rules``: its declared fields, each written as its
    kind says, after the format version (a train layout's too: the native
    core plays it in simulations, docs/trains.md)."""
    table: dict[str, Any] = {"format": FORMAT_VERSION}
    for f in FIELDS:
        table[f.name] = KINDS[f.base][0](getattr(rules, f.name))
    return table


__all__ = ["FIELDS", "FORMAT_VERSION", "KINDS", "LEAD_FIELDS", "SETTLE_FIELDS", "TABLE_FORMAT",
           "TRAIN_FIELDS",
           "Field", "Unsupported", "base_kind", "code_families", "flatten"]
