"""Every constant the two cores share is the same on both sides.

The native core lists its own (``bones_native.constants()``: the move
layout, the outcome codes, every family of rule codes, the flat table's
fields in order, the format version, the stream labels and the match and
simulation limits); each is compared here with the Python module that
defines it.  The Python side's lists are collected from the modules (every
upper-case int of a code family), so a code added, removed or renumbered
on one side only fails a test, as does a code family the native core does
not know.
"""

from __future__ import annotations

import dataclasses
import re
from types import ModuleType
from typing import Any

import pytest
from native_support import bones_native, skip_native

import bones
from bones.engine import flat, moves, rules, settle
from bones.engine import match as match_module
from bones.engine import rng as rng_module

pytestmark = skip_native()

#: Each code family of the Rust core (`native/src/kernel/codes.rs`): the Python
#: module defining it and the prefix of its names.
PREFIXED: dict[str, tuple[ModuleType, str]] = {
    "WHEN": (rules, "WHEN_"),
    "POINTS": (rules, "POINTS_"),
    "SPIN": (rules, "SPIN_"),
    "ORDER": (rules, "ORDER_"),
    "DRAW": (rules, "DRAW_"),
    "CHECK": (rules, "CHECK_"),
    "MUGGINS": (rules, "MUGGINS_"),
    "OVER_CLAIM": (rules, "OVER_CLAIM_"),
    "LEAD": (rules, "LEAD_"),
    "NONE": (rules, "NONE_"),
    "LATER": (rules, "LATER_"),
    "SETTLE": (settle, "SETTLE_"),
    "AMOUNT": (settle, "AMOUNT_"),
    "TIES": (settle, "TIES_"),
    "PER": (settle, "PER_"),
    "ROUND": (settle, "ROUND_"),
}


def _int_constants(module: ModuleType) -> dict[str, int]:
    """The module's own upper-case int constants."""
    return {name: value for name, value in vars(module).items()
            if name.isupper() and type(value) is int}


def python_codes() -> dict[str, dict[str, int]]:
    """Every rule code family as the Python side defines it."""
    families = {family: {name: value for name, value in _int_constants(module).items()
                         if name.startswith(prefix)}
                for family, (module, prefix) in PREFIXED.items()}
    return families


@pytest.fixture(scope="module")
def native() -> dict[str, Any]:
    return bones_native.constants()


def test_the_format_version(native: dict[str, Any]) -> None:
    assert native["format"] == flat.FORMAT_VERSION == bones_native.TABLE_FORMAT


def test_the_move_layout(native: dict[str, Any]) -> None:
    python = {name: getattr(moves, name) for name in moves.__all__
              if type(getattr(moves, name)) is int}
    assert native["moves"] == python
    # and the helpers agree with the layout on a lead flipped on the last tile
    code = moves.play_code(189, 0, flip=True)
    assert code == 189 << native["moves"]["TILE_SHIFT"] | native["moves"]["FLIP"]


def test_the_outcome_codes(native: dict[str, Any]) -> None:
    assert native["outcomes"] == {o.name: o.value for o in moves.Outcome}


def test_every_rule_code(native: dict[str, Any]) -> None:
    python = python_codes()
    assert sorted(native["codes"]) == sorted(python), "the code families differ"
    for family, codes in python.items():
        assert native["codes"][family] == codes, f"the {family} codes differ"


def test_every_code_constant_of_the_rule_modules_is_in_a_family() -> None:
    """A new family of codes on the Python side must be listed (and so
    compared) here: every upper-case int of rules.py and settle.py is."""
    for module in (rules, settle):
        prefixes = tuple(p for m, p in PREFIXED.values() if m is module)
        strays = [name for name in _int_constants(module) if not name.startswith(prefixes)]
        assert strays == [], f"{module.__name__}: codes in no family: {strays}"


def test_the_table_fields_in_order(native: dict[str, Any]) -> None:
    table = flat.flatten(bones.compile_rules(bones.load_variant("sniff"), 2))
    assert list(table) == ["format", *native["table_fields"], *native["match_fields"]]


def test_the_core_reads_every_field_it_lists(native: dict[str, Any]) -> None:
    for field in native["table_fields"]:
        table = flat.flatten(bones.compile_rules(bones.load_variant("sniff"), 2))
        del table[field]
        with pytest.raises(ValueError, match=f"no field '{field}'"):
            bones_native.Rules(table)
            pytest.fail(f"the native core does not read {field!r}")


def _format_line(kind: str) -> list[str]:
    """The codes of a settle or lead field, as flat.TABLE_FORMAT describes them."""
    found = re.search(rf": {kind} \[([^\]]*)\]", flat.TABLE_FORMAT)
    assert found, kind
    return [part.split()[0] for part in found.group(1).split(",")]


def test_the_settlement_codes_in_order(native: dict[str, Any]) -> None:
    assert native["settle_fields"] == _format_line("settle")
    # the order flatten writes them in: a rule of distinct values, read back
    names = [f.name for f in dataclasses.fields(settle.Settle)]
    values = {name: 10 + i for i, name in enumerate(names)}
    values["doubles_lose"] = True
    codes = flat._settlement(settle.Settle(**values))
    by_value = {int(v): k for k, v in values.items()}
    assert [by_value[c] for c in codes] == native["settle_fields"]


def test_the_lead_codes_in_order(native: dict[str, Any]) -> None:
    assert native["lead_fields"] == _format_line("lead")
    assert flat._lead(rules.LeadRule(kind=10, arg=11, if_none=12)) == [10, 11, 12]
    assert [f.name for f in dataclasses.fields(rules.LeadRule)] == native["lead_fields"]


def test_the_hand_fields(native: dict[str, Any]) -> None:
    from bones.engine import hand

    assert tuple(native["hand_fields"]) == bones_native.HAND_FIELDS
    kept = [f for f in hand.FIELDS if f not in ("rules", "scores", "voids")]
    assert list(native["hand_fields"]) == kept


def test_streams_and_limits(native: dict[str, Any]) -> None:
    from bones.sim import simulation as sim
    assert native["streams"] == {"DEALS": rng_module.DEALS, "BOTS": rng_module.BOTS}
    assert native["match"] == {"MAX_HANDS": match_module.MAX_HANDS,
                               "MAX_REDEALS": match_module._MAX_REDEALS}
    sides = {name.upper(): i for i, name in enumerate(sim._SIDE) if i}
    assert native["sim"] == {"TIME_SAMPLE": sim.TIME_SAMPLE, **sides}
    assert native["TIME_BINS"] == sim.TIME_BINS


def test_the_match_value_unit(native: dict[str, Any]) -> None:
    from bones.bots import matchvalue

    assert native["search"] == {"WIN": matchvalue.WIN}


def test_the_tree_of_search_has_the_ismcts_defaults(native: dict[str, Any]) -> None:
    # the vector environment's native search opponent grows it with these
    from bones.bots import ismcts

    assert native["ismcts"] == {"DEFAULT_EXPLORE": ismcts.DEFAULT_EXPLORE,
                                "DEFAULT_SCALE": ismcts.DEFAULT_SCALE,
                                "DEFAULT_WORLDS": ismcts.DEFAULT_WORLDS}


def test_an_unknown_code_is_a_one_line_error_at_load() -> None:
    base = flat.flatten(bones.compile_rules(bones.load_variant("sniff"), 2))
    table = dict(base, order=99)
    with pytest.raises(ValueError, match=r"^unknown edge order code 99 in the flat table$"):
        bones_native.Rules(table)
    table = dict(base, settle_blocked=[*base["settle_blocked"][:6], 7, *base["settle_blocked"][7:]])
    with pytest.raises(ValueError, match=r"^unknown settlement ties code 7 in the flat table$"):
        bones_native.Rules(table)
