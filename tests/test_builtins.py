"""The built-in variant files: they load, they are complete, and they say
what docs/rules.md's table of built-ins says each game is."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel

from bones.lang import spec
from bones.lang.load import builtin_names, load_mapping, load_variant
from bones.lang.spec import points_for_count

# no core plays in these tests (tools/core_calls.py: 0 calls of core.native, no
# process, under BONES_CORE=native): the Python-core pass of .ci/run only (issue 37)
pytestmark = pytest.mark.core_blind

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"

# The table "The built-in variants and where each comes from" of docs/rules.md.
EXPECTED = [
    "sniff", "sniff-english", "all-fives", "all-fives-cribbage", "muggins",
    "all-threes", "all-threes-and-fives", "all-primes", "all-fibs",
    "fives-and-threes", "five-up", "bergen", "partners", "block-2p",
    "partnership-block", "dominican", "puerto-rico-500", "world-pairs", "latin-match",
    "cuban", "kozel", "mexican-train", "chicken-foot",
]
SEED3_FAMILY = ["muggins", "all-threes", "all-threes-and-fives", "all-primes", "all-fibs"]
SEED3_PRIMES = [1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61,
                67, 71, 73, 79, 83]
SEED3_FIBS = [1, 2, 3, 5, 8, 13, 21, 34, 55]


def v(name: str) -> spec.Variant:
    return load_variant(name)


def raw(name: str) -> dict:
    return yaml.safe_load((VARIANTS / f"{name}.yaml").read_text(encoding="utf-8"))


# ------------------------------------------------------------ the whole set


def test_the_builtins_are_exactly_the_rules_table():
    assert sorted(builtin_names()) == sorted(EXPECTED)
    assert sorted(p.stem for p in VARIANTS.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", EXPECTED)
def test_loads_with_no_semantic_problems(name):
    variant = v(name)
    assert variant.name == name  # file name = name
    assert spec.semantic_problems(variant) == []
    assert variant.extends is None  # built-ins are written out in full


@pytest.mark.parametrize("name", EXPECTED)
def test_file_header_and_metadata(name):
    text = (VARIANTS / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=../schemas/variant.schema.json"
    variant = v(name)
    assert variant.summary.strip()
    assert variant.sources, "every built-in names its sources"
    for source in variant.sources:
        assert source.title and source.supports


def _explicit(model: BaseModel, data: object, where: str) -> list[str]:
    """Every field of every model written out in the file (no rule left to a default)."""
    if not isinstance(data, dict):
        return [f"{where}: not a mapping"]
    missing = [f"{where}.{k}" for k in type(model).model_fields if k not in data]
    for key in type(model).model_fields:
        value = getattr(model, key)
        if isinstance(value, BaseModel) and key in data:
            missing += _explicit(value, data[key], f"{where}.{key}")
        elif isinstance(value, list) and key in data:
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    missing += _explicit(item, data[key][i], f"{where}.{key}.{i}")
    return missing


@pytest.mark.parametrize("name", EXPECTED)
def test_every_section_and_key_is_written_out(name):
    data = raw(name)
    missing = [m for m in _explicit(v(name), data, name) if m != f"{name}.extends"]
    assert missing == []


def test_aliases_do_not_clash():
    seen: dict[str, str] = {}
    for name in EXPECTED:
        for key in [name, *v(name).aliases]:
            assert key not in seen, f"{key} is both {seen[key]} and {name}"
            seen[key] = name


@pytest.mark.parametrize("alias, name", [
    ("east-coast", "sniff"), ("west-coast", "five-up"), ("fives", "all-fives"),
    ("EAST-COAST", "sniff"),
])
def test_aliases_load_the_variant(alias, name):
    assert v(alias).name == name


def test_mapping_of_a_builtin_is_its_file():
    mapping, _origin = load_mapping("sniff")
    assert mapping["deal"] == raw("sniff")["deal"]


# -------------------------------------------------------------- key facts


def hands(variant):
    return {c: variant.hand_size(c) for c in variant.players.counts}


def targets(variant):
    return {c: spec.for_players(variant.match.points, c) for c in variant.players.counts}


def test_sniff():
    s = v("sniff")
    assert hands(s) == {2: 7, 3: 6, 4: 5}
    assert s.lead.first.kind == "lot"
    assert s.lead.later.kind == "domino_er" and s.lead.later.after_block.kind == "lot"
    sp = s.layout.spinner
    assert (sp.kind, sp.order, sp.count) == ("first_double", "any", "sniff-count")
    assert s.drawing.kind == "until_playable" and s.drawing.must_play_drawn
    assert not s.drawing.draw_while_able
    for rule in (s.settlement.domino, s.settlement.blocked):
        assert rule.kind == "own_penalty"
        assert (rule.rounding.kind, rule.rounding.unit) == ("nearest", 5)
    assert s.settlement.floor is None  # Decision 6
    assert targets(s) == {2: 250, 3: 200, 4: 200} and s.match.check == "hand_end"
    assert s.players.partnerships.kind == "optional" and s.players.partnerships.player_counts == [4]
    assert s.scoring.when.divisors == [5] and s.scoring.points.kind == "count"
    assert s.scoring.muggins.kind == "none"


def test_sniff_english_is_sniff_with_the_inline_sniff():
    us, en = v("sniff"), v("sniff-english")
    assert en.layout.spinner.kind == "inline_sniff"
    assert list(en.layout.spinner.count) == [2, 1, 0, 0, 0]  # Decision 5
    skip = {"name", "aliases", "summary", "sources", "layout"}
    assert us.model_dump(exclude=skip) == en.model_dump(exclude=skip)
    assert us.layout.doubles == en.layout.doubles


def test_all_fives():
    a = v("all-fives")
    assert hands(a) == {2: 9, 3: 7, 4: 5}
    sp = a.layout.spinner
    assert (sp.kind, sp.order, sp.count) == ("first_double", "sides_first", "drop2")
    d = a.settlement.domino
    assert (d.kind, d.amount, d.rounding.kind, d.rounding.unit, d.rounding.per, d.divisor) == (
        "domino_er", "opponents", "nearest", 5, "aggregate", 1)
    b = a.settlement.blocked
    assert (b.kind, b.amount, b.rounding.unit) == ("lightest", "opponents", 5)
    assert b.ties == {2: "nobody", 3: "share", 4: "nobody"}  # D17, pagat
    assert targets(a) == {2: 250, 3: 200, 4: 200}
    assert not a.drawing.draw_while_able


def test_all_fives_cribbage():
    a = v("all-fives-cribbage")
    assert hands(a) == {2: 7, 3: 5, 4: 5}
    sp = a.layout.spinner
    assert (sp.kind, sp.order, sp.count) == ("first_double", "any", "sniff-count")
    assert (a.scoring.points.kind, a.scoring.points.by) == ("divided", 5)
    for rule in (a.settlement.domino, a.settlement.blocked):
        assert rule.amount == "opponents_minus_own"
        assert (rule.rounding.kind, rule.rounding.unit, rule.divisor) == ("nearest", 5, 5)
    assert a.settlement.domino.kind == "domino_er" and a.settlement.blocked.kind == "lightest"
    assert a.match.points == 61


@pytest.mark.parametrize("name", SEED3_FAMILY)
def test_seed3_family_rules(name):
    m = v(name)
    assert m.layout.spinner.kind == "none"
    assert m.lead.first.kind == "highest_double" and m.lead.later.kind == "first"
    assert hands(m) == {2: 7, 3: 5, 4: 5}
    assert m.reserve(2) == 0
    assert m.drawing.kind == "until_playable" and m.drawing.draw_while_able
    d = m.settlement.domino
    assert (d.kind, d.amount, d.rounding.kind) == ("domino_er", "opponents", "none")
    assert m.settlement.blocked.kind == "each_heavier"
    assert m.settlement.blocked.rounding.kind == "none"
    assert (m.match.kind, m.match.points, m.match.check) == ("target", 200, "immediate")
    assert m.scoring.points.kind == "count"
    assert m.scoring.muggins.kind == "none"


def test_seed3_family_differs_only_in_the_predicate():
    base = v("muggins").model_dump(exclude={"name", "aliases", "summary", "sources", "scoring"})
    for name in SEED3_FAMILY[1:]:
        assert v(name).model_dump(exclude={"name", "aliases", "summary", "sources", "scoring"}) == base
    assert v("muggins").scoring.when.divisors == [5]
    assert v("all-threes").scoring.when.divisors == [3]
    assert sorted(v("all-threes-and-fives").scoring.when.divisors) == [3, 5]
    assert v("all-primes").scoring.when.counts == SEED3_PRIMES  # 1 included, as SEED3
    assert v("all-fibs").scoring.when.counts == SEED3_FIBS


def test_fives_and_threes():
    f = v("fives-and-threes")
    assert hands(f) == {2: 7, 3: 5, 4: 5}
    assert f.layout.spinner.kind == "none" and f.drawing.kind == "none"
    assert f.scoring.when.kind == "multiple_of" and sorted(f.scoring.when.divisors) == [3, 5]
    assert f.scoring.points.kind == "sum_of_quotients"
    table = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4}  # example S11
    assert {c: points_for_count(f.scoring, c) for c in table} == table
    assert points_for_count(f.scoring, 0) == 0 and points_for_count(f.scoring, 7) == 0
    d = f.settlement.domino
    assert (d.kind, d.amount, d.points) == ("domino_er", "flat", 1)
    assert f.hand_end.partners_both_out
    assert f.players.partnerships.kind == "optional" and f.players.partnerships.player_counts == [4]
    assert f.settlement.blocked.kind == "nobody"
    assert (f.match.points, f.match.check) == (61, "exact")
    assert (f.lead.first.kind, f.lead.later.kind, f.lead.later.to) == ("lot", "rotate", "next")


def test_five_up():
    f = v("five-up")
    sp = f.layout.spinner
    assert (sp.kind, sp.order, sp.count) == ("every_double", "sides_first", "drop2")
    assert hands(f) == {2: 5, 3: 5, 4: 5}
    assert "west-coast" in f.aliases


def test_bergen():
    b = v("bergen")
    assert b.layout.spinner.kind == "none"
    assert hands(b) == {2: 6, 3: 6, 4: 5}
    assert b.reserve(2) == b.reserve(4) == 2
    assert b.scoring.when.kind == "matching_ends" and b.scoring.when.points == {2: 2, 3: 3}
    d, bl = b.settlement.domino, b.settlement.blocked
    assert (d.kind, d.amount, d.points) == ("domino_er", "flat", 1)
    assert (bl.kind, bl.amount, bl.points, bl.doubles_lose) == ("lightest", "flat", 1, True)
    assert targets(b) == {2: 15, 3: 10, 4: 10}


def test_partners():
    p = v("partners")
    assert p.players.counts == [4]
    assert p.players.partnerships.kind == "required"
    assert p.players.direction == "counterclockwise"  # rotation to the right
    assert p.hand_size(4) * 4 == 28 and p.reserve(4) == 0
    assert (p.lead.first.kind, p.lead.first.tile) == ("tile", "6-6")
    assert (p.lead.later.kind, p.lead.later.to) == ("rotate", "next")
    assert p.layout.spinner.kind == "first_double"
    assert p.scoring.when.divisors == [5]
    assert (p.settlement.domino.kind, p.settlement.domino.amount) == ("domino_er", "opponents")
    assert p.settlement.blocked.kind == "lightest"
    assert p.match.points == 250


def test_block_2p():
    b = v("block-2p")
    assert b.players.counts == [2] and b.players.partnerships.kind == "none"
    assert b.hand_size(2) == 7 and b.drawing.kind == "none"  # 14 never drawn
    assert (b.lead.first.kind, b.lead.first.seat) == ("seat", 0)
    assert b.scoring.when.kind == "none"
    assert (b.settlement.domino.kind, b.settlement.domino.amount) == ("domino_er", "opponents")
    bl = b.settlement.blocked
    assert (bl.kind, bl.amount, bl.ties, bl.rounding.kind) == ("lightest", "opponents", "nobody", "none")
    assert (b.match.kind, b.match.count) == ("hands", 1)


def test_partnership_block():
    p = v("partnership-block")
    assert p.players.counts == [4] and p.partnered(4)
    assert p.hand_size(4) == 7 and p.drawing.kind == "none"
    assert (p.lead.first.kind, p.lead.first.tile) == ("tile", "6-6")
    assert p.lead.later.kind == "series"
    assert p.scoring.when.kind == "none" and p.layout.spinner.kind == "none"
    d, bl = p.settlement.domino, p.settlement.blocked
    assert (d.kind, d.amount, d.rounding.kind) == ("domino_er", "all_hands", "none")
    assert (bl.kind, bl.amount, bl.ties) == ("lightest", "all_hands", "nobody")
    assert (p.match.points, p.match.check) == (200, "hand_end")


@pytest.mark.parametrize("name", EXPECTED)
def test_no_bare_yaml_booleans_for_off(name):
    # `kind: off` unquoted is the boolean false in YAML 1.1; the files quote it.
    assert "kind: off" not in (VARIANTS / f"{name}.yaml").read_text(encoding="utf-8")
