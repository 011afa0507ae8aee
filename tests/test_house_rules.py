"""A house rule is the user's file: narrowing a built-in's player counts needs
no overrides of keys the user did not write, and every message about a house
rule points into the house rule's own file (issue 11, items 6 and 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bones.lang.compile import compile_rules
from bones.lang.load import VariantError, builtin_names, load_variant

# no core plays in these tests (tools/core_calls.py: 0 calls of core.native, no
# process, under BONES_CORE=native): the Python-core pass of .ci/run only (issue 37)
pytestmark = pytest.mark.core_blind


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _cases() -> list[tuple[str, int]]:
    out = []
    for name in builtin_names():
        v = load_variant(name)
        out.extend((name, c) for c in v.players.counts)
    return out


@pytest.mark.parametrize(("name", "count"), _cases(), ids=lambda x: str(x))
def test_narrowing_a_builtin_to_one_count_validates(name: str, count: int) -> None:
    Path("house.yaml").write_text(f"name: house\nextends: {name}\nplayers: {{counts: [{count}]}}\n")
    variant = load_variant("house.yaml")
    assert variant.players.counts == [count]
    parent = load_variant(name)
    rules, parent_rules = compile_rules(variant, count), compile_rules(parent, count)
    # what the house rule kept plays exactly as the parent at that count
    for attr in ("hand_size", "reserve", "target", "teams", "check"):
        assert getattr(rules, attr) == getattr(parent_rules, attr), attr


def test_the_issue_example_has_no_errors_in_the_builtin() -> None:
    Path("house.yaml").write_text("name: four\nextends: all-fives\nplayers: {counts: [4]}\n")
    variant = load_variant("house.yaml")
    assert variant.deal.hand_size == {4: 5}
    assert variant.match.points == {4: 200}


def test_dropping_the_partnership_count_drops_the_partnership_game() -> None:
    Path("house.yaml").write_text("name: two\nextends: all-fives\nplayers: {counts: [2, 3]}\n")
    variant = load_variant("house.yaml")
    assert variant.players.partnerships.kind == "none"
    assert not variant.hand_end.partners_both_out


def test_a_count_the_user_wrote_is_still_checked_in_the_users_file() -> None:
    Path("house.yaml").write_text("name: h\nextends: all-fives\nplayers: {counts: [3]}\ndeal: {hand_size: {2: 7}}\n")
    with pytest.raises(VariantError) as info:
        load_variant("house.yaml")
    assert [p.format() for p in info.value.problems] == [
        "house.yaml:4:23: deal.hand_size.2: 2 players is not an allowed player count (3)"
    ]


def test_a_new_count_without_values_is_reported_in_the_users_file() -> None:
    Path("house.yaml").write_text("name: h\nextends: all-fives\nplayers: {counts: [4, 5]}\n")
    with pytest.raises(VariantError) as info:
        load_variant("house.yaml")
    lines = [p.format() for p in info.value.problems]
    assert lines == [
        "house.yaml:1:1: deal.hand_size: no value for 5 players (allowed player counts: 4, 5) "
        "(the value comes from all-fives.yaml)",
        "house.yaml:1:1: match.points: no value for 5 players (allowed player counts: 4, 5) "
        "(the value comes from all-fives.yaml)",
        "house.yaml:1:1: settlement.blocked.ties: no value for 5 players (allowed player counts: 4, 5) "
        "(the value comes from all-fives.yaml)",
    ]


@pytest.mark.parametrize("name", builtin_names())
def test_no_house_rule_message_points_into_a_builtin(name: str) -> None:
    """Whatever the house rule breaks, the messages name only the user's file."""
    Path("house.yaml").write_text(
        f"name: house\nextends: {name}\nplayers: {{counts: [2, 3, 4, 5, 6, 7, 8, 9, 10]}}\ntiles: {{highest: 3}}\n"
    )
    with pytest.raises(VariantError) as info:
        load_variant("house.yaml")
    assert info.value.problems
    assert {p.file for p in info.value.problems} == {"house.yaml"}


NEVER = """\
name: never
deal: {hand_size: 7}
scoring: {when: {kind: none}}
settlement: {domino: {kind: nobody}, blocked: {kind: %s}}
match: {kind: target, points: 61, check: %s}
"""


@pytest.mark.parametrize("check", ["hand_end", "immediate", "exact"])
@pytest.mark.parametrize("blocked", ["nobody", "own_penalty"])
def test_a_target_nothing_can_reach_is_refused(check: str, blocked: str) -> None:
    Path("never.yaml").write_text(NEVER % (blocked, check))
    with pytest.raises(VariantError) as info:
        load_variant("never.yaml")
    assert [p.format() for p in info.value.problems] == [
        "never.yaml:5:31: match.points: the target can never be reached: nothing adds to a score "
        "(no play scores, there is no knock bonus, and each settlement is nobody or own_penalty)"
    ]


def test_a_get_in_above_every_play_cannot_reach_the_target() -> None:
    Path("never.yaml").write_text(
        NEVER.replace("scoring: {when: {kind: none}}",
                      "scoring: {when: {kind: multiple_of, divisors: [5]}, get_in: 500}") % ("nobody", "hand_end"))
    with pytest.raises(VariantError) as info:
        load_variant("never.yaml")
    (line,) = [p.format() for p in info.value.problems]
    assert "nothing adds to a score (no play scores the get-in of 500," in line


@pytest.mark.parametrize("source", [
    "drawing: {kind: until_playable, knock_bonus: 1}\n",
    "settlement: {domino: {kind: domino_er}, blocked: {kind: nobody}}\n",
])
def test_one_way_to_score_is_enough(source: str) -> None:
    text = NEVER % ("nobody", "hand_end")
    if source.startswith("settlement"):
        text = text.replace("settlement: {domino: {kind: nobody}, blocked: {kind: nobody}}\n", source)
    else:
        text += source
    Path("ok.yaml").write_text(text)
    assert load_variant("ok.yaml").name == "never"
