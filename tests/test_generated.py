"""The code both cores derive from the declarations is what they render.

The flat table's fields are declared on :class:`bones.engine.rules.Rules`
and a hand's in :data:`bones.engine.handstate.HAND_STATE`;
``tools/generate_native.py`` writes the native ``Table`` and its reader, the
binding's hand conversions and the Python hand's generated module from them.
A declaration changed without regenerating fails here (as the JSON schemas
do in test_schema.py).
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

import bones
from bones.engine import flat, handstate
from bones.engine.hand import Hand
from bones.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import generate_native
    finally:
        sys.path.pop(0)
    return generate_native


def test_the_generated_files_are_fresh() -> None:
    tool = _tool()
    rust = tool.rustfmt_available()
    assert tool.stale(rust=rust) == [], "run python tools/generate_native.py"
    if not rust:  # pragma: no cover - rustfmt comes with the Rust toolchain
        source = (ROOT / "native/src/kernel/table_fields.rs").read_text()
        assert f'TABLE_FORMAT: &str = "{flat.FORMAT_VERSION}"' in source


def test_every_declared_field_is_in_the_flat_table_in_order() -> None:
    declared = [f.name for f in dataclasses.fields(Rules) if "table" in f.metadata]
    table = flat.flatten(bones.compile_rules(bones.load_variant("all-fives"), 2))
    assert list(table) == ["format", *[f.name for f in flat.FIELDS]]
    assert set(table) - {"format"} == set(declared)
    # a hand's fields first, then a match's
    parts = [f.part for f in flat.FIELDS]
    assert parts == sorted(parts, key=lambda p: p != "hand")


def test_the_rust_table_has_one_field_per_declaration() -> None:
    source = (ROOT / "native/src/kernel/table_fields.rs").read_text()
    struct = source[source.index("pub struct Table {"):source.index("pub struct MatchRules")]
    fields = re.findall(r"pub (\w+): ", struct)
    assert fields == [f.name for f in flat.FIELDS if f.part == "hand"]
    reader = source[source.index("impl Table {"):source.index("impl MatchRules {")]
    assert re.findall(r"(\w+): read::", reader) == fields


def test_the_format_describes_every_field_and_code() -> None:
    for f in flat.FIELDS:
        assert re.search(rf"^\s*{f.name}: {re.escape(f.kind)} ", flat.TABLE_FORMAT, re.M), f.name
    for family, codes in flat.code_families().items():
        assert f"  {family}: " in flat.TABLE_FORMAT
        assert all(name.startswith(family + "_") for name in codes)
    # every field a native hand hands over is named in the format too
    assert all(name in flat.TABLE_FORMAT for name in handstate.NATIVE_FIELDS)


def test_the_hand_is_what_the_declaration_says() -> None:
    assert Hand.__slots__ == handstate.FIELDS
    rules = bones.compile_rules(bones.load_variant("sniff"), 2)
    hand = bones.Match(rules, seed=3).new_hand()
    for _ in range(4):
        hand.apply(hand.legal_moves()[0])
    kinds = {"int": int, "flag": bool, "mask": int}
    for f in handstate.HAND_STATE:
        value = getattr(hand, f.name)
        if f.kind in kinds:
            assert isinstance(value, kinds[f.kind]), f.name
        elif f.kind == "settlement":
            assert value is None or isinstance(value, list), f.name
        elif f.kind != "rules":
            assert isinstance(value, list), f.name


def test_an_unknown_kind_is_refused_at_declaration() -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        handstate._f("x", "widget", "a widget")
