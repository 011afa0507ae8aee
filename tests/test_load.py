"""bones.lang.load: reading variant files, extends, and located problems.

Each problem is asserted as the exact line `bones validate` prints, so a change
of wording or position is a deliberate change of these tests.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_budget import examples

from bones.lang.load import (
    MAX_EXTENDS,
    LocatedProblem,
    VariantError,
    builtin_names,
    builtin_path,
    deep_merge,
    load_mapping,
    load_variant,
)
from bones.lang.spec import Variant

# the language alone (no core plays): the same in both passes of .ci/run,
# so it runs in one, the Python-core pass's
pytestmark = pytest.mark.core_blind

VARIANTS = Path(__file__).resolve().parent.parent / "variants"
BUILTIN_FILES = sorted(VARIANTS.glob("*.yaml"))

# A small valid variant; tests change a line or two of it.
GOOD = """\
name: house
summary: A house game
deal:
  hand_size: {2: 7, 3: 6, 4: 5}
layout:
  spinner: {kind: first_double, order: any}
scoring:
  when: {kind: multiple_of, divisors: [5]}
  points: {kind: divided, by: 5}
settlement:
  domino: {kind: domino_er}
  blocked: {kind: lightest}
match: {kind: target, points: 61}
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in a temporary directory so messages name files as `v.yaml`."""
    monkeypatch.chdir(tmp_path)


def write(name: str, text: str | bytes) -> str:
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return name


def errors(ref: str | os.PathLike[str], **kwargs: object) -> list[str]:
    with pytest.raises(VariantError) as info:
        load_variant(ref, **kwargs)
    err = info.value
    assert isinstance(err, ValueError)
    assert str(err) == "\n".join(p.format() for p in err.problems)
    assert all(isinstance(p, LocatedProblem) for p in err.problems)
    return [p.format() for p in err.problems]


# ------------------------------------------------------------------ valid


def test_good_file_loads() -> None:
    variant = load_variant(write("v.yaml", GOOD))
    assert isinstance(variant, Variant)
    assert variant.name == "house"
    assert variant.hand_size(3) == 6
    assert variant.layout.spinner.kind == "first_double"
    assert load_variant(Path("v.yaml")) == variant


def test_one_number_for_all_counts() -> None:
    write("v.yaml", GOOD.replace("{2: 7, 3: 6, 4: 5}", "5"))
    assert load_variant("v.yaml").hand_size(4) == 5


def test_overrides_merge_like_extends() -> None:
    write("v.yaml", GOOD)
    v = load_variant("v.yaml", overrides={"deal": {"reserve": 2}, "match": {"kind": "hands", "count": 3}})
    assert v.deal.hand_size == {2: 7, 3: 6, 4: 5}
    assert v.reserve(2) == 2
    assert v.match.kind == "hands"
    assert v.name == "house"


def test_overrides_keep_whole_file_problems_in_the_file() -> None:
    write("v.yaml", GOOD.replace("match: {kind: target, points: 61}\n", ""))
    assert errors("v.yaml", overrides={"deal": {"reserve": 1}}) == ["v.yaml:1:1: missing required key 'match'"]


def test_bad_overrides_are_reported_at_overrides() -> None:
    write("v.yaml", GOOD)
    assert errors("v.yaml", overrides={"deal": {"hand_size": "many"}}) == [
        "<overrides>:1:1: deal.hand_size: not a whole number "
        "(expected an integer or a mapping of player counts, got 'many')"
    ]


# --------------------------------------------------------- schema errors


def test_unknown_key_with_suggestion() -> None:
    write("v.yaml", GOOD.replace("  hand_size:", "  hand_sise: 3\n  hand_size:"))
    assert errors("v.yaml") == ["v.yaml:4:3: deal.hand_sise: unknown key 'hand_sise'; did you mean 'hand_size'?"]


def test_unknown_key_without_suggestion_lists_keys() -> None:
    write("v.yaml", GOOD + "colour:\n  x: 1\n")
    assert errors("v.yaml") == [
        "v.yaml:14:1: colour: unknown key 'colour' (expected one of: name, extends, aliases, summary, "
        "sources, tiles, players, deal, lead, layout, scoring, drawing, turn, hand_end, bonuses, "
        "settlement, match)"
    ]


def test_key_of_another_kind() -> None:
    write("v.yaml", GOOD.replace("{kind: first_double, order: any}", "{kind: none, order: any}"))
    assert errors("v.yaml") == [
        "v.yaml:6:25: layout.spinner.order: unknown key 'order' for kind none "
        "(used by kind first_double, every_double, led_double, every_double_but_led)"
    ]


def test_wrong_type() -> None:
    write("v.yaml", GOOD.replace("{2: 7, 3: 6, 4: 5}", "seven"))
    assert errors("v.yaml") == [
        "v.yaml:4:14: deal.hand_size: not a whole number "
        "(expected an integer or a mapping of player counts, got 'seven')"
    ]


def test_wrong_type_inside_per_count_mapping() -> None:
    write("v.yaml", GOOD.replace("3: 6,", "3: six,"))
    assert errors("v.yaml") == ["v.yaml:4:24: deal.hand_size.3: not a whole number (expected an integer, got 'six')"]


def test_bad_player_count_key() -> None:
    write("v.yaml", GOOD.replace("{2: 7, 3: 6, 4: 5}", "{2: 7, 3: 6, 4: 5, 11: 2}"))
    assert errors("v.yaml") == [
        "v.yaml:4:33: deal.hand_size.11: not a player count (expected an integer from 2 to 10, got 11)"
    ]


def test_floats_and_booleans_are_not_numbers() -> None:
    write("v.yaml", GOOD + "tiles: {highest: 6.0}\nhand_end: {partners_both_out: 1}\n")
    assert errors("v.yaml") == [
        "v.yaml:14:18: tiles.highest: not a whole number (expected an integer, got 6.0)",
        "v.yaml:15:31: hand_end.partners_both_out: not true or false (expected true or false, got 1)",
    ]


def test_out_of_range() -> None:
    write("v.yaml", GOOD + "tiles: {highest: 30}\nplayers: {counts: [1, 2]}\n")
    assert errors("v.yaml") == [
        "v.yaml:14:18: tiles.highest: too large (expected 3 to 18, got 30)",
        "v.yaml:15:20: players.counts.0: too small (expected 2 to 10, got 1)",
    ]


def test_bad_kind() -> None:
    write("v.yaml", GOOD.replace("kind: first_double", "kind: firstdouble"))
    assert errors("v.yaml") == [
        "v.yaml:6:19: layout.spinner.kind: unknown kind 'firstdouble' "
        "(expected one of: none, first_double, every_double, led_double, every_double_but_led, inline_sniff)"
    ]


def test_missing_kind() -> None:
    write("v.yaml", GOOD.replace("match: {kind: target, points: 61}", "match:\n  points: 61"))
    assert errors("v.yaml") == ["v.yaml:13:1: match: missing required key 'kind' (expected one of: target, penalty, hands, rounds)"]


def test_kind_written_as_a_word_instead_of_a_mapping() -> None:
    write("v.yaml", GOOD.replace("{kind: first_double, order: any}", "first_double"))
    assert errors("v.yaml") == [
        "v.yaml:6:12: layout.spinner: not a mapping (expected a mapping such as {kind: first_double}, "
        "got 'first_double')"
    ]


def test_missing_required_key_points_at_parent() -> None:
    write("v.yaml", GOOD.replace("  hand_size: {2: 7, 3: 6, 4: 5}", "  reserve: 1"))
    assert errors("v.yaml") == ["v.yaml:3:1: deal: missing required key 'hand_size'"]


def test_missing_required_top_level_key() -> None:
    write("v.yaml", "# a comment\n" + GOOD.replace("match: {kind: target, points: 61}\n", ""))
    assert errors("v.yaml") == ["v.yaml:2:1: missing required key 'match'"]


def test_unknown_literal_value() -> None:
    write("v.yaml", GOOD + "players:\n  direction: widdershins\n")
    assert errors("v.yaml") == [
        "v.yaml:15:14: players.direction: unknown value 'widdershins' (expected one of: clockwise, counterclockwise)"
    ]


def test_literal_or_list_union() -> None:
    write("v.yaml", GOOD.replace("order: any}", "order: any, count: drop3}"))
    assert errors("v.yaml") == [
        "v.yaml:6:52: layout.spinner.count: unknown value 'drop3' "
        "(expected one of drop2, sniff-count, or a list of 5 numbers)"
    ]
    write("v.yaml", GOOD.replace("order: any}", "order: any, count: [2, 2]}"))
    assert errors("v.yaml") == ["v.yaml:6:52: layout.spinner.count: wrong length (expected 5 items, got 2)"]


def test_bad_name_and_tile_patterns() -> None:
    write("v.yaml", GOOD.replace("name: house", "name: House Rules") + "lead:\n  first: {kind: tile, tile: 6/6}\n")
    assert errors("v.yaml") == [
        "v.yaml:1:7: name: not a valid name (expected lower-case letters, digits and hyphens, like all-fives, "
        "got 'House Rules')",
        "v.yaml:15:29: lead.first.tile: not a tile (expected two numbers like 6-6 or 3-2, got '6/6')",
    ]


def test_empty_value_is_reported_at_its_key() -> None:
    write("v.yaml", GOOD.replace("summary: A house game", "summary:"))
    assert errors("v.yaml") == ["v.yaml:2:1: summary: not text (expected a string, got nothing)"]


def test_all_problems_are_reported_in_file_order() -> None:
    write(
        "v.yaml",
        GOOD.replace("{2: 7, 3: 6, 4: 5}", "seven")
        .replace("kind: first_double", "kind: firstdouble")
        .replace("  blocked: {kind: lightest}\n", ""),
    )
    assert errors("v.yaml") == [
        "v.yaml:4:14: deal.hand_size: not a whole number "
        "(expected an integer or a mapping of player counts, got 'seven')",
        "v.yaml:6:19: layout.spinner.kind: unknown kind 'firstdouble' "
        "(expected one of: none, first_double, every_double, led_double, every_double_but_led, inline_sniff)",
        "v.yaml:10:1: settlement: missing required key 'blocked'",
    ]


# ------------------------------------------------------------ YAML traps


def test_duplicate_key() -> None:
    write("v.yaml", GOOD + "deal:\n  hand_size: 5\n")
    assert errors("v.yaml") == ["v.yaml:14:1: deal: duplicate key 'deal' (first at line 3)"]


def test_duplicate_nested_key() -> None:
    write("v.yaml", GOOD.replace("  blocked: {kind: lightest}", "  blocked: {kind: lightest}\n  blocked: {kind: nobody}"))
    assert errors("v.yaml") == ["v.yaml:13:3: settlement.blocked: duplicate key 'blocked' (first at line 12)"]


@pytest.mark.parametrize("word", ["yes", "No", "ON", "off"])
def test_yes_no_value_where_a_word_is_expected(word: str) -> None:
    write("v.yaml", GOOD + f"players:\n  direction: {word}\n")
    assert errors("v.yaml") == [
        f"v.yaml:15:14: players.direction: {word} is read as a boolean; quote it ('{word}') if you meant the word"
    ]


def test_muggins_on_must_be_quoted() -> None:
    write("v.yaml", GOOD.replace("points: {kind: divided, by: 5}", "points: {kind: divided, by: 5}\n  muggins: {kind: on}"))
    assert errors("v.yaml") == [
        "v.yaml:10:19: scoring.muggins.kind: on is read as a boolean; quote it ('on') if you meant the word"
    ]
    write("v.yaml", GOOD.replace("points: {kind: divided, by: 5}", "points: {kind: divided, by: 5}\n  muggins: {kind: transfer}"))
    assert load_variant("v.yaml").scoring.muggins.kind == "transfer"


def test_yes_as_a_key() -> None:
    write("v.yaml", GOOD + "players:\n  on: 3\n")
    assert errors("v.yaml") == ["v.yaml:15:3: players.on: on is read as a boolean; quote it ('on') if you meant the word"]


def test_yes_for_a_boolean_field_is_fine() -> None:
    write("v.yaml", GOOD + "hand_end: {partners_both_out: no}\n")
    assert load_variant("v.yaml").hand_end.partners_both_out is False


def test_oversize_file_is_refused_before_parsing() -> None:
    write("v.yaml", "name: x\n" + "#" * (1024 * 1024) + "\n[")
    assert errors("v.yaml") == [
        "v.yaml:1:1: the file is too large (1048586 bytes; a variant file is limited to 1 MiB)"
    ]


def test_yaml_syntax_error() -> None:
    write("v.yaml", GOOD.replace("summary: A house game", "summary: A: house game"))
    assert errors("v.yaml") == ["v.yaml:2:11: YAML syntax error: mapping values are not allowed here"]


def test_yaml_syntax_error_with_context() -> None:
    write("v.yaml", "name: x\ndeal: [1, 2\n")
    assert errors("v.yaml") == [
        "v.yaml:3:1: YAML syntax error: expected ',' or ']', but got '<stream end>' "
        "(while parsing a flow sequence at line 2, column 7)"
    ]


def test_tab_indentation() -> None:
    write("v.yaml", "name: x\ndeal:\n\thand_size: 5\n")
    assert errors("v.yaml") == [
        "v.yaml:3:1: YAML syntax error: found character '\\t' that cannot start any token "
        "(while scanning for the next token)"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n- b\n", "v.yaml:1:1: the file must be a mapping of keys (like name: my-variant), not a list"),
        ("just words\n", "v.yaml:1:1: the file must be a mapping of keys (like name: my-variant), not a single value"),
        ("# nothing\n", "v.yaml:1:1: the file is empty (expected a mapping of keys, like name: my-variant)"),
        ("", "v.yaml:1:1: the file is empty (expected a mapping of keys, like name: my-variant)"),
    ],
)
def test_not_a_mapping(text: str, message: str) -> None:
    write("v.yaml", text)
    assert errors("v.yaml") == [message]


def test_not_utf8() -> None:
    write("v.yaml", b"name: x\nsummary: caf\xe9\n")
    assert errors("v.yaml") == ["v.yaml:2:13: the file is not UTF-8 text (byte 0xe9 cannot be read); save it as UTF-8"]


def test_utf8_with_bom_is_fine() -> None:
    write("v.yaml", "\ufeff" + GOOD.replace("A house game", "Café rules"))
    assert load_variant("v.yaml").summary == "Café rules"


def test_unsafe_tags_are_refused() -> None:
    write("v.yaml", GOOD.replace("summary: A house game", "summary: !!python/object:os.system echo"))
    assert errors("v.yaml") == [
        "v.yaml:2:10: summary: the tag !!python/object:os.system is not allowed: bones reads plain YAML only, never Python objects"
    ]


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ("!!python/object/apply:os.system [echo]", "v.yaml:4:14"),
        ("!!python/name:os.system {a: 1}", "v.yaml:4:14"),
        ("!!python/object:os.system {hand_size: 5}", "v.yaml:4:14"),
        ("!!python/tuple [1, 2]", "v.yaml:4:14"),
    ],
)
def test_a_python_tag_gets_one_message(value: str, where: str) -> None:
    """The tag is reported once; the value it stood for draws no second message."""
    write("v.yaml", GOOD.replace("hand_size: {2: 7, 3: 6, 4: 5}", f"hand_size: {value}"))
    tag = value.split()[0]
    assert errors("v.yaml") == [
        f"{where}: deal.hand_size: the tag {tag} is not allowed: bones reads plain YAML only, never Python objects"
    ]


def test_a_python_tag_on_the_whole_file() -> None:
    write("v.yaml", "!!python/object/apply:os.system\n- echo hi\n")
    assert errors("v.yaml") == [
        "v.yaml:1:1: the tag !!python/object/apply:os.system is not allowed: bones reads plain YAML only, never Python objects"
    ]


def test_recursive_alias() -> None:
    write("v.yaml", "name: x\nsources: &a [*a]\n")
    assert errors("v.yaml") == ["v.yaml:2:10: sources.0: an alias refers to the value that contains it"]


def test_anchors_and_merge_keys_work() -> None:
    text = GOOD.replace(
        "settlement:\n  domino: {kind: domino_er}\n  blocked: {kind: lightest}",
        "settlement:\n  domino: &s {kind: lightest, ties: share}\n  blocked:\n    <<: *s\n    ties: nobody",
    )
    v = load_variant(write("v.yaml", text))
    assert v.settlement.domino.ties == "share"
    assert v.settlement.blocked.ties == "nobody"


def test_deep_nesting() -> None:
    write("v.yaml", "name: " + "[" * 5000 + "]" * 5000 + "\n")
    assert errors("v.yaml") == ["v.yaml:1:1: the file is nested too deeply (more than 64 levels)"]


def test_alias_expansion_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import bones.lang.yamlsource

    monkeypatch.setattr(bones.lang.yamlsource, "MAX_NODES", 500)
    rows = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    rows += [f"{k}: &{k} [{', '.join([f'*{p}'] * 10)}]" for p, k in zip("abc", "bcd")]
    write("v.yaml", "\n".join(rows) + "\n")
    (line,) = errors("v.yaml")
    assert line.endswith(": the file has more than 500 values (after expanding aliases)")


def test_missing_file_and_directory() -> None:
    assert errors("nope.yaml") == ["nope.yaml:1:1: no such file"]
    os.mkdir("d.yaml")
    assert errors("d.yaml") == ["d.yaml:1:1: is a directory, not a variant file"]


# -------------------------------------------------------------- semantics


def test_hands_do_not_fit_in_the_set() -> None:
    write("v.yaml", GOOD.replace("4: 5}", "4: 6}\n  reserve: 5"))
    assert errors("v.yaml") == [
        "v.yaml:4:30: deal.hand_size.4: 4 players x 6 tiles + 5 reserved = 29 tiles, but the double-6 set has 28"
    ]


def test_unreachable_scoring_list() -> None:
    write("v.yaml", GOOD.replace("{kind: multiple_of, divisors: [5]}", "{kind: in_list, counts: [60, 70]}"))
    assert errors("v.yaml") == [
        "v.yaml:8:33: scoring.when.counts: no reachable count can score: every count is above 48, "
        "the largest count this layout can show"
    ]


def test_partnership_with_odd_player_count() -> None:
    write("v.yaml", GOOD + "players:\n  partnerships:\n    kind: required\n    player_counts: [3, 4]\n")
    assert errors("v.yaml") == [
        "v.yaml:17:21: players.partnerships.player_counts.0: two equal teams need an even number of players, not 3"
    ]


def test_semantic_problem_in_block_list() -> None:
    write("v.yaml", GOOD + "players:\n  counts: [2, 4]\n  partnerships:\n    kind: optional\n    player_counts:\n      - 4\n      - 3\n")
    assert errors("v.yaml") == [
        "v.yaml:4:24: deal.hand_size.3: 3 players is not an allowed player count (2, 4)",
        "v.yaml:20:9: players.partnerships.player_counts.1: 3 players is not an allowed player count (2, 4)",
    ]


def test_semantic_problem_about_a_default_points_at_the_nearest_key() -> None:
    write("v.yaml", GOOD + "lead:\n  later: {kind: alternate}\n")
    assert errors("v.yaml") == [
        "v.yaml:15:17: lead.later.kind: alternate leads need exactly two players (use rotate for more)"
    ]


# ---------------------------------------------------------------- extends


BASE = GOOD.replace("name: house", "name: base\naliases: [the-base]")


def test_extends_merges_and_replaces() -> None:
    write("base.yaml", BASE)
    write(
        "child.yaml",
        """\
        name: child
        extends: base.yaml
        deal:
          reserve: 1
        layout:
          spinner: {kind: first_double, count: sniff-count}
        scoring:
          when: {kind: multiple_of, divisors: [3, 5]}
        """,
    )
    v = load_variant("child.yaml")
    assert v.name == "child"
    assert v.aliases == []  # aliases are not inherited
    assert v.summary == "" and v.sources == []  # nor the prose about the parent's rules
    assert v.deal.hand_size == {2: 7, 3: 6, 4: 5}
    assert v.reserve(2) == 1
    assert v.layout.spinner.order == "any"
    assert v.layout.spinner.count == "sniff-count"
    assert v.scoring.when.divisors == [3, 5]  # lists replace
    assert v.extends == "base.yaml"


def test_kind_change_replaces_the_mapping() -> None:
    write("base.yaml", BASE)
    write("child.yaml", "name: child\nextends: base.yaml\nlayout:\n  spinner: {kind: inline_sniff}\n")
    spinner = load_variant("child.yaml").layout.spinner
    assert spinner.kind == "inline_sniff"  # no stale `order: any` from the parent
    mapping, origin = load_mapping("child.yaml")
    assert mapping["layout"] == {"spinner": {"kind": "inline_sniff"}}
    assert origin.chain == ("child.yaml", "base.yaml")


def test_load_mapping_resolves_the_chain() -> None:
    write("base.yaml", BASE)
    write("mid/mid.yaml", "name: mid\nextends: ../base.yaml\nsummary: middle\n")
    write("child.yaml", "name: child\nextends: mid/mid.yaml\ndeal: {reserve: 2}\n")
    mapping, origin = load_mapping("child.yaml", allow_dirs=["."])
    assert list(mapping)[:2] == ["name", "extends"]
    assert mapping["name"] == "child"
    assert "aliases" not in mapping
    assert "summary" not in mapping  # mid's summary describes mid, not child
    assert mapping["deal"] == {"hand_size": {2: 7, 3: 6, 4: 5}, "reserve": 2}
    assert origin.chain == ("child.yaml", "mid/mid.yaml", "base.yaml")
    assert origin.locate(("deal", "hand_size", 3)) == ("base.yaml", 5, 24)
    assert origin.locate(("deal", "reserve")) == ("child.yaml", 3, 17)


def test_child_must_name_itself() -> None:
    write("base.yaml", BASE)
    write("child.yaml", "extends: base.yaml\ndeal: {reserve: 1}\n")
    assert errors("child.yaml") == ["child.yaml:1:1: missing required key 'name'"]


def test_error_in_parent_is_reported_in_the_parent() -> None:
    write("base.yaml", BASE.replace("3: 6,", "3: six,"))
    write("child.yaml", "name: child\nextends: base.yaml\ndeal:\n  reserve: lots\n")
    assert errors("child.yaml") == [
        "child.yaml:4:12: deal.reserve: not a whole number (expected an integer or a mapping of player counts, got 'lots')",
        "base.yaml:5:24: deal.hand_size.3: not a whole number (expected an integer, got 'six')",
    ]


def test_semantic_error_from_parent_value() -> None:
    write("base.yaml", BASE)
    write("child.yaml", "name: child\nextends: base.yaml\ntiles: {highest: 4}\n")
    # 15 tiles: the parent's hands no longer fit
    assert errors("child.yaml") == [
        "base.yaml:5:24: deal.hand_size.3: 3 players x 6 tiles = 18 tiles, but the double-4 set has 15",
        "base.yaml:5:30: deal.hand_size.4: 4 players x 5 tiles = 20 tiles, but the double-4 set has 15",
    ]


def test_syntax_error_in_parent() -> None:
    write("base.yaml", "name: base\ndeal: {\n")
    write("child.yaml", "name: child\nextends: base.yaml\n")
    (line,) = errors("child.yaml")
    assert line.startswith("base.yaml:3:1: YAML syntax error:")


def test_extends_cycle() -> None:
    write("a.yaml", "name: a\nextends: sub/b.yaml\n")
    write("sub/b.yaml", "name: b\nextends: ../a.yaml\n")
    # sub/b.yaml may name ../a.yaml only because the folder is allowed explicitly
    assert errors("a.yaml", allow_dirs=["."]) == ["sub/b.yaml:2:10: extends: cycle: a.yaml -> sub/b.yaml -> a.yaml"]


def test_extends_itself() -> None:
    write("a.yaml", "name: a\nextends: a.yaml\n")
    assert errors("a.yaml") == ["a.yaml:2:10: extends: cycle: a.yaml -> a.yaml"]


def test_missing_parent() -> None:
    write("child.yaml", "name: child\nextends: parts/base.yaml\n")
    assert errors("child.yaml") == ["child.yaml:2:10: extends: no such file 'parts/base.yaml' (looked for parts/base.yaml)"]


def test_extends_must_be_a_string() -> None:
    write("child.yaml", "name: child\nextends: [a.yaml]\n")
    assert errors("child.yaml") == [
        "child.yaml:2:10: extends: not a variant name or path "
        "(expected a built-in variant name or a path relative to this file, got a list)"
    ]


def test_unknown_builtin_parent() -> None:
    write("child.yaml", "name: child\nextends: no-such-variant-xyz\n")
    (line,) = errors("child.yaml")
    assert line.startswith("child.yaml:2:10: extends: unknown variant 'no-such-variant-xyz'")


def test_chain_of_eight_is_allowed_and_nine_is_not() -> None:
    write("f0.yaml", BASE.replace("name: base", "name: f0"))
    for i in range(1, MAX_EXTENDS + 2):
        write(f"f{i}.yaml", f"name: f{i}\nextends: f{i - 1}.yaml\n")
    assert load_variant(f"f{MAX_EXTENDS}.yaml").name == f"f{MAX_EXTENDS}"
    chain = " -> ".join(f"f{i}.yaml" for i in range(MAX_EXTENDS + 1, -1, -1))
    assert errors(f"f{MAX_EXTENDS + 1}.yaml") == [f"f1.yaml:2:10: extends: chain deeper than 8 files: {chain}"]


def test_problems_in_child_and_reading_problems_together() -> None:
    write("base.yaml", BASE)
    write("child.yaml", "name: child\nextends: base.yaml\nsummary: a\nsummary: b\ntiles: {highest: 2}\n")
    assert errors("child.yaml") == [
        "child.yaml:4:1: summary: duplicate key 'summary' (first at line 3)",
        "child.yaml:5:18: tiles.highest: too small (expected 3 to 18, got 2)",
    ]


# ---------------------------------------------------------------- merging


def test_deep_merge() -> None:
    parent = {"a": {"b": 1, "c": [1, 2]}, "s": {"kind": "x", "k": 1}, "t": {"kind": "y", "k": 1}, "u": 1}
    child = {"a": {"c": [3]}, "s": {"kind": "z"}, "t": {"j": 2}, "v": 2}
    merged = deep_merge(parent, child)
    assert merged == {"a": {"b": 1, "c": [3]}, "s": {"kind": "z"}, "t": {"kind": "y", "k": 1, "j": 2}, "u": 1, "v": 2}
    assert parent["a"] == {"b": 1, "c": [1, 2]}  # unchanged
    merged["a"]["c"].append(4)
    assert child["a"]["c"] == [3]


@examples(60)
@given(
    st.recursive(
        st.dictionaries(st.sampled_from("abck"), st.integers(0, 3) | st.sampled_from(["x", "y"]), max_size=4),
        lambda inner: st.dictionaries(st.sampled_from("abck"), inner, max_size=4),
        max_leaves=12,
    ),
)
def test_deep_merge_with_itself_and_empty(d: dict) -> None:
    assert deep_merge(d, {}) == d
    assert deep_merge({}, d) == d
    assert deep_merge(d, d) == d


# --------------------------------------------------------------- built-ins


def test_builtin_names_match_the_variant_folder() -> None:
    names = builtin_names()
    assert names == sorted(names)
    assert len(names) == len(BUILTIN_FILES)


@pytest.mark.parametrize("path", BUILTIN_FILES, ids=lambda p: p.stem)
def test_every_builtin_loads(path: Path) -> None:
    variant = load_variant(path)
    assert variant.name == path.stem
    assert load_variant(path.stem.upper()) == variant
    for alias in variant.aliases:
        assert Path(builtin_path(alias)).name == path.name


def test_unknown_builtin_name() -> None:
    if not builtin_names():
        pytest.skip("no built-in variants yet")
    name = builtin_names()[0]
    typo = name[:-1] + ("x" if name[-1] != "x" else "y")
    (line,) = errors(typo)
    assert line == f"{typo}: unknown variant '{typo}'; did you mean '{name}'? (bones list shows them)"
    with pytest.raises(VariantError):
        builtin_path("certainly-not-a-variant")


def test_relative_path_that_looks_like_a_name_is_read_as_a_file() -> None:
    write("house", GOOD)
    assert load_variant("house").name == "house"


# ------------------------------------------------------------------ fuzzing


@examples(150)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_random_input_only_raises_variant_error(content: str | bytes) -> None:
    write("fuzz.yaml", content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)
    try:
        load_variant("fuzz.yaml")
    except VariantError as err:
        assert err.problems
        for p in err.problems:
            assert "\n" not in p.format()
            assert p.line >= 1 and p.col >= 1


@st.composite
def mutated_yaml(draw: st.DrawFn) -> str:
    text = GOOD
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        chunk = draw(st.sampled_from([":", "- ", "{", "}", "[", "]", "\n", "  ", "yes", "&a ", "*a", "!!str ", "'", '"', "7", "kind: x", "#", "<<: ", "\t", "? "]))
        end = min(len(text), pos + draw(st.integers(0, 6)))
        if op == "insert":
            text = text[:pos] + chunk + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[end:]
        else:
            text = text[:pos] + chunk + text[end:]
    return text


@examples(200)
@given(mutated_yaml())
def test_mutated_variant_only_raises_variant_error(text: str) -> None:
    write("fuzz.yaml", text)
    try:
        load_variant("fuzz.yaml")
    except VariantError as err:
        assert err.problems
        assert all("\n" not in p.format() for p in err.problems)


def _schema_words() -> list[str]:
    """Every field name and kind in the schema: keys a fuzzed file is likely to hit."""
    import typing

    from pydantic import BaseModel

    import bones.lang.spec as spec

    words: set[str] = set()
    for obj in vars(spec).values():
        if isinstance(obj, type) and issubclass(obj, BaseModel) and obj is not BaseModel:
            words.update(obj.model_fields)
            kind = obj.model_fields.get("kind")
            if kind is not None:
                words.update(str(a) for a in typing.get_args(kind.annotation))
    return sorted(words)


_WORDS = _schema_words()
_SCALARS = st.one_of(
    st.integers(-3, 40),
    st.sampled_from(_WORDS),
    st.sampled_from([None, True, False, 1.5, "", "6-6", "yes", "x" * 70, "drop2"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.sampled_from(_WORDS) | st.integers(1, 11), inner, max_size=5),
    max_leaves=15,
)


@examples(120)
@given(
    st.fixed_dictionaries(
        {"name": st.just("fuzz")},
        optional={w: _VALUES for w in ["deal", "players", "lead", "layout", "scoring", "drawing", "settlement", "match", "tiles", "sources", "hand_end"]},
    )
)
def test_random_structures_only_raise_variant_error(data: dict) -> None:
    import yaml

    write("fuzz.yaml", yaml.safe_dump(data))
    try:
        load_variant("fuzz.yaml")
    except VariantError as err:
        assert err.problems
        for p in err.problems:
            assert p.file == "fuzz.yaml" and p.line >= 1 and p.col >= 1
            assert "\n" not in p.format()
            assert not p.message.startswith(("Input should", "Value error")), p.format()


def test_exact_target_that_no_score_can_reach() -> None:
    # every play scores a multiple of 5 and nothing else changes a score: 61
    # can never be hit exactly, so the match could only end at the hand limit
    text = GOOD.replace("points: {kind: divided, by: 5}", "points: {kind: count}").replace(
        "settlement:\n  domino: {kind: domino_er}\n  blocked: {kind: lightest}",
        "settlement:\n  domino: {kind: nobody}\n  blocked: {kind: nobody}",
    ).replace("match: {kind: target, points: 61}", "match: {kind: target, points: 61, check: exact}")
    write("v.yaml", text)
    assert errors("v.yaml") == [
        "v.yaml:13:31: match.points: an exact target of 61 can never be reached: "
        "every score changes by a multiple of 5"
    ]
    write("w.yaml", text.replace("points: 61, check", "points: 60, check"))
    assert load_variant("w.yaml").match.points == 60
