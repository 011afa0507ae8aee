"""Every scenario file replays exactly; the runner catches each kind of mismatch.

``tests/scenarios/*.yaml`` are the worked examples of docs/rules.md part 3 and of
the seed documents (``bones check`` runs the same files).  Files under
``tests/scenarios/pending/`` are examples the engine does not follow yet: they
are not run here, but a test checks that they still fail, so a fix is noticed
and the file moved up.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from bones.engine.scenario import run_scenario

HERE = Path(__file__).resolve().parent / "scenarios"
SCENARIOS = sorted(HERE.glob("*.yaml"))
PENDING = sorted((HERE / "pending").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.ok, "\n".join(result.lines())


def test_pending_scenarios_still_fail() -> None:
    # one test over the directory, so an empty pending/ is a pass, not a skip
    for path in PENDING:
        result = run_scenario(path)
        assert result.status == "mismatch", (
            f"{path.name} now passes (or no longer runs): move it to tests/scenarios/ "
            f"({result.lines()})"
        )


def _sources() -> list[str]:
    return [yaml.safe_load(p.read_text())["source"] for p in SCENARIOS]


@pytest.mark.parametrize("example", [f"S{n}" for n in range(1, 23) if n != 12])
def test_every_rules_example_has_a_scenario(example: str) -> None:
    # S12 (an unreachable count) is a unit test in test_points.py
    pattern = re.compile(rf"docs/rules\.md (S\d+[′']?, )*{example}\b")
    assert any(pattern.search(s) for s in _sources()), f"no scenario names docs/rules.md {example}"


@pytest.mark.parametrize("seed", [f"SEED{n}" for n in range(5)])
def test_every_seed_has_a_scenario(seed: str) -> None:
    assert any(re.search(rf"\b{seed}\b", s) for s in _sources()), f"no scenario names {seed}"


def test_every_scenario_names_a_source_and_quotes_it() -> None:
    for path in SCENARIOS:
        text = path.read_text()
        assert text.startswith("#"), f"{path.name}: start with a comment quoting the example"
        assert yaml.safe_load(text)["source"].strip(), path.name


# ------------------------------------------------------ the runner itself


def _write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


S2 = """\
variant: sniff
source: test
steps:
  - {play: 4-4, expect: {count: 8}}
  - {play: 6-4@W, expect: {count: 14}}
  - {play: 1-4@E, expect: {count: %s, points: %s}}
"""


def test_wrong_count_is_reported_at_its_step(tmp_path: Path) -> None:
    result = run_scenario(_write(tmp_path, S2 % (13, 15)))
    assert result.status == "mismatch"
    assert (result.step, result.key, result.expected, result.got) == (3, "count", 13, 15)
    assert result.lines() == [f"{result.file}: step 3: expected count 13, got 15"]


def test_wrong_points_are_reported(tmp_path: Path) -> None:
    result = run_scenario(_write(tmp_path, S2 % (15, 0)))
    assert result.lines()[0].endswith("step 3: expected points 0, got 15")


def test_right_expectations_pass(tmp_path: Path) -> None:
    assert run_scenario(_write(tmp_path, S2 % (15, 15))).ok


@pytest.mark.parametrize("expect, message", [
    ("{ends: {W: 6, E: 1, N: 4}}", "expected ends {W: 6, E: 1, N: 4}, got {W: 6, E: 1, N: 4, S: 4}"),
    ("{ends: {w: 6, e: 1, s: 4, n: 4}}", None),    # arm names in any case and order
    ("{scores: [0, 15]}", "expected scores [0, 15], got [15, 0]"),
    ("{game_over: true}", "expected game_over true, got false"),
    ("{winner: 0}", "expected winner 0, got none"),
    ("{winner: none}", None),
])
def test_each_expectation_is_checked(tmp_path: Path, expect: str, message: str | None) -> None:
    text = S2.replace("{count: %s, points: %s}", expect)
    result = run_scenario(_write(tmp_path, text))
    if message is None:
        assert result.ok, result.lines()
    else:
        assert result.lines()[0].endswith(f"step 3: {message}")


def test_a_legal_move_expected_illegal_fails(tmp_path: Path) -> None:
    text = S2 % (15, 15) + "  - {play: 1-5@E, expect: {error: illegal}}\n"
    result = run_scenario(_write(tmp_path, text))
    assert result.step == 4 and "expected 1-5@E to be illegal" in result.message


def test_an_illegal_move_leaves_the_state_and_the_turn(tmp_path: Path) -> None:
    text = S2 % (15, 15) + (
        "  - {seat: 1, play: 2-3@N, expect: {error: illegal, count: 15, scores: [15, 0]}}\n"
        "  - {seat: 1, play: 4-2@N, expect: {count: 13}}\n"   # sniff: 6 + 1 + 2 + 4 (k=3 counts d)
    )
    result = run_scenario(_write(tmp_path, text))
    assert result.ok, result.lines()


def test_an_unexpected_illegal_move_fails(tmp_path: Path) -> None:
    text = S2 % (15, 15) + "  - play: 2-3@N\n"
    result = run_scenario(_write(tmp_path, text))
    assert result.step == 4
    assert result.message.startswith("expected a legal move, got: 2-3@N is not legal now; legal:")


def test_an_arm_the_layout_lacks_counts_as_illegal(tmp_path: Path) -> None:
    text = "variant: muggins\nsource: t\nsteps:\n  - play: 3-5\n  - {play: 5-1@N, expect: {error: illegal}}\n"
    assert run_scenario(_write(tmp_path, text)).ok


def test_an_ambiguous_bare_tile_is_a_mismatch(tmp_path: Path) -> None:
    text = "variant: sniff\nsource: t\nsteps:\n  - play: 4-4\n  - play: 4-1\n"
    result = run_scenario(_write(tmp_path, text))
    assert result.step == 2 and "fits 4 places" in result.message


def test_seat_is_asserted(tmp_path: Path) -> None:
    text = "variant: sniff\nsource: t\nleader: 1\nsteps:\n  - {seat: 0, play: 4-4}\n"
    result = run_scenario(_write(tmp_path, text))
    assert result.lines()[0].endswith("step 1: expected seat 0 to move, got seat 1")


HAND = """\
variant: sniff
source: t
leader: 0
deal: [[6-6, 1-2], [3-4]]
boneyard: [0-5, 6-1]
steps:
  - {seat: 0, play: 6-6}
  - {seat: 1, draw: %s}
"""


def test_draw_asserts_the_tile(tmp_path: Path) -> None:
    assert run_scenario(_write(tmp_path, HAND % "0-5")).ok
    assert run_scenario(_write(tmp_path, HAND % "5-0")).ok   # either order of halves
    result = run_scenario(_write(tmp_path, HAND % "6-1"))
    assert result.lines()[0].endswith("step 2: expected draw 1-6, got 0-5")


def test_expect_end_is_checked(tmp_path: Path) -> None:
    # seat 1 draws 0-5 and 1-6, lays 6-1; seat 0 goes out with 1-2, and
    # seat 1 loses its 3-4 and 0-5 (12 pips, rounded to 10)
    base = HAND % "0-5" + "  - {seat: 1, draw: 1-6}\n  - {seat: 1, play: 6-1@W}\n" \
        "  - {seat: 0, play: 1-2@W}\n"
    result = run_scenario(_write(tmp_path, base + "expect_end: {hand: domino, settlement: [0, -10]}\n"))
    assert result.ok, result.lines()
    result = run_scenario(_write(tmp_path, base + "expect_end: {hand: blocked}\n"))
    assert result.lines()[0].endswith("end: expected hand blocked, got domino")
    result = run_scenario(_write(tmp_path, base + "expect_end: {scores: [0, -5]}\n"))
    assert result.lines()[0].endswith("end: expected scores [0, -5], got [0, -10]")
    result = run_scenario(_write(tmp_path, HAND % "0-5" + "expect_end: {settlement: [0, 0]}\n"))
    assert "end: expected settlement [0, 0], got none (the hand is playing)" in result.lines()[0]


def test_playing_after_the_hand_ended_is_a_mismatch(tmp_path: Path) -> None:
    text = "variant: sniff\nsource: t\nleader: 0\ndeal: [[3-4], [1-1]]\nsteps:\n" \
        "  - play: 3-4\n  - pass\nexpect_end: {hand: domino}\n"
    result = run_scenario(_write(tmp_path, text))
    assert result.step == 2 and "the hand is already over (domino)" in result.message


def test_hand_mode_reserve_and_out_of_play(tmp_path: Path) -> None:
    # one tile in the boneyard under a reserve of one: nothing to draw, so the
    # hand is blocked at once; the unlisted tiles are out of play
    text = ("variant: sniff\nsource: t\nrules: {deal: {reserve: 1}}\nleader: 0\n"
            "deal: [[6-6, 1-2], [3-4]]\nboneyard: [6-1]\nsteps:\n  - play: 6-6\n"
            "expect_end: {hand: blocked, settlement: [-5, -5]}\n")
    assert run_scenario(_write(tmp_path, text)).ok


def test_variant_path_is_relative_to_the_scenario(tmp_path: Path) -> None:
    sub = tmp_path / "s"
    (sub / "v").mkdir(parents=True)
    (sub / "v" / "house.yaml").write_text("name: house\nextends: muggins\n")
    text = "variant: v/house.yaml\nsource: t\nsteps:\n  - {play: 5-5, expect: {points: 10}}\n"
    assert run_scenario(_write(sub, text)).ok


def test_variant_outside_the_scenario_folder_needs_allow_dirs(tmp_path: Path) -> None:
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "house.yaml").write_text("name: house\nextends: muggins\n")
    sub = tmp_path / "s"
    sub.mkdir()
    text = "variant: ../v/house.yaml\nsource: t\nsteps:\n  - {play: 5-5, expect: {points: 10}}\n"
    path = _write(sub, text)
    refused = run_scenario(path)
    assert [p.format().split(": ", 1)[1] for p in refused.problems] == [
        "variant: '../v/house.yaml' is outside the folder of the file that names it (name a built-in "
        "variant, or a .yaml file inside that folder; --allow-dir DIR allows another folder)"
    ]
    assert run_scenario(path, allow_dirs=[tmp_path / "v"]).ok


# --------------------------------------------------------- malformed files


@pytest.mark.parametrize("text, line, col, fragment", [
    ("variant: sniff\nsource: t\nstepz: []\nsteps: [play: 4-4]\n", 3, 1, "unknown key 'stepz'; did you mean 'steps'?"),
    ("variant: sniff\nsource: t\nsteps:\n  - {play: 4-4, expect: {count: x}}\n", 4, 33, "not a whole number"),
    ("variant: sniff\nsource: t\nsteps:\n  - {play: 4-4, draw: true}\n", 4, 5, "exactly one of play, draw and pass"),
    ("variant: sniff\nsource: t\nsteps:\n  - play: 4-4@Q\n", 4, 11, "not a play (expected a tile like 6-4, or TILE@ARM like 6-4@W, got '4-4@Q')"),
    ("variant: sniff\nsource: t\nsteps:\n  - dra\n", 4, 5,
     "not a step (expected draw, pass, or a mapping like {play: 6-4@W}, got 'dra')"),
    ("variant: sniff\nsource: t\nsteps:\n  - {play: 4-4, expect: {cuont: 8}}\n", 4, 26,
     "unknown key 'cuont'; did you mean 'count'?"),
    ("variant: sniff\nsource: t\nsteps:\n  - {pas: true}\n", 4, 6, "unknown key 'pas'; did you mean 'pass'?"),
    ("variant: snif\nsource: t\nsteps: [play: 4-4]\n", 1, 10, "unknown variant 'snif'"),
    ("variant: sniff\nsource: t\nrules: {match: {check: sometimes}}\nsteps: [play: 4-4]\n", 3, 24, "rules.match.check"),
    ("variant: sniff\nsource: t\nsteps:\n  - play: 9-9\n", 4, 11, "9-9 is not in the double-6 set"),
    ("variant: sniff\nsource: t\nsteps:\n  - draw\n", 4, 5, "layout mode (no deal) takes only plays"),
    ("variant: sniff\nsource: t\nsteps:\n  - {play: 4-4, claim: 5}\n", 4, 24, "muggins rule is off"),
    ("variant: sniff\nsource: t\ndeal: [[4-4], [4-4]]\nsteps: [play: 4-4]\n", 3, 16, "4-4 is given twice"),
    ("variant: sniff\nsource: t\nplayers: 5\nsteps: [play: 4-4]\n", 3, 10, "not 5"),
    ("variant: sniff\nsource: t\nscores: [1]\nsteps: [play: 4-4]\n", 3, 9, "give 2 scores"),
    ("variant: sniff\nsource: t\nleader: 2\nsteps: [play: 4-4]\n", 3, 9, "seat 2 does not exist"),
    ("variant: sniff\nsource: [t\n", 3, 1, "YAML syntax error"),
    ("variant: sniff\nsource: t\nsource: u\nsteps: [play: 4-4]\n", 3, 1, "duplicate key"),
    ("- just a list\n", 1, 1, "a scenario file is a mapping"),
    ("variant: sniff\nsteps: [play: 4-4]\n", 1, 1, "missing required key 'source'"),
])
def test_malformed_files_give_located_errors(tmp_path: Path, text: str, line: int, col: int,
                                             fragment: str) -> None:
    result = run_scenario(_write(tmp_path, text))
    assert result.status == "error"
    first = result.problems[0]
    assert fragment in first.message or fragment in first.format(), first.format()
    assert (first.line, first.col) == (line, col), first.format()
    assert "\n" not in first.format()


def test_a_missing_file_is_an_error_not_an_exception(tmp_path: Path) -> None:
    result = run_scenario(tmp_path / "nope.yaml")
    assert result.status == "error" and "no such file" in result.lines()[0]


def test_the_json_schema_accepts_every_scenario_and_rejects_a_bad_step() -> None:
    import jsonschema

    from bones.engine.schemagen import scenario_schema

    validator = jsonschema.Draft7Validator(scenario_schema())
    for path in SCENARIOS + PENDING:
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text()))]
        assert not errors, (path.name, errors)
    bad = {"variant": "sniff", "source": "t",
           "steps": [{"play": "4-4", "draw": True}, "dra", {"play": "4-4@Q"}, {"pass": True, "sea": 1}]}
    assert len(list(validator.iter_errors(bad))) == 4
