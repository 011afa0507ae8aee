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
from typing import Any

import pytest
import yaml

from bones.games.scenario import run_scenario

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

    from bones.lang.schemagen import scenario_schema

    validator = jsonschema.Draft7Validator(scenario_schema())
    for path in SCENARIOS + PENDING:
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text()))]
        assert not errors, (path.name, errors)
    bad = {"variant": "sniff", "source": "t",
           "steps": [{"play": "4-4", "draw": True}, "dra", {"play": "4-4@Q"}, {"pass": True, "sea": 1}]}
    assert len(list(validator.iter_errors(bad))) == 4


# ------------------------------------------------------------ match files


def _match_files() -> list[Path]:
    return [p for p in SCENARIOS if "hands" in (yaml.safe_load(p.read_text()) or {})]


def test_every_later_lead_rule_of_a_built_in_has_a_match_scenario() -> None:
    # docs/scenarios.md: tests/scenarios/ holds a match file for every
    # later-lead rule (and, after a block, lead-again rule) a built-in uses
    from bones.engine.rules import LATER_DOMINOER, LATER_WINNER
    from bones.games.scenario import load_scenario
    from bones.lang.compile import compile_rules
    from bones.lang.load import builtin_names, load_variant

    def rule(rules: Any) -> tuple[int, ...]:
        if rules.lead_later in (LATER_DOMINOER, LATER_WINNER):  # they lead again by a rule
            return rules.lead_later, rules.lead_again.kind
        return (rules.lead_later,)

    used = {rule(compile_rules(load_variant(name))) for name in builtin_names()}
    covered = {rule(load_scenario(p).rules) for p in _match_files()}
    assert len(used) >= 4 and used <= covered, sorted(used - covered)


def _pips(tile: str) -> int:
    a, b = tile.split("-")
    return int(a) + int(b)


def test_each_lot_in_a_match_file_follows_the_sources_rule() -> None:
    # "each player draws one tile and highest tile starts" (SEED0): worked out
    # here from the file alone, without the engine, for every lot a file gives
    checked = 0
    for path in _match_files():
        for n, hand in enumerate(yaml.safe_load(path.read_text())["hands"], 1):
            if "lot" not in hand:
                continue
            contenders = list(range(len(hand["deal"])))
            for draws in hand["lot"]:
                assert len(draws) == len(contenders), (path.name, n)
                best = max(_pips(t) for t in draws)
                contenders = [c for c, t in zip(contenders, draws) if _pips(t) == best]
            assert contenders == [hand["expect_leader"]], (path.name, n)
            checked += 1
    assert checked >= 4


def test_a_lead_at_random_in_a_match_file_is_the_documented_draw() -> None:
    # docs/random.md: a lead at random is below(players), the first draw of
    # the hand's deal stream stream(seed, DEALS, h)
    from bones.engine.rng import DEALS, stream

    path = HERE / "match-seed3-sniff-set-rotates.yaml"
    data = yaml.safe_load(path.read_text())
    assert data["rules"]["lead"]["first"] == {"kind": "random"}
    players = data["players"]
    assert data["hands"][0]["expect_leader"] == stream(data["seed"], DEALS, 1).below(players)
    assert run_scenario(path).ok


MATCH = """\
variant: sniff
source: t
scores: [225, 225]
hands:
  - lot: [[2-3, 6-5]]
    expect_leader: 1
    deal: [[1-2, 3-4], [5-5, 5-0]]
    steps:
      - {seat: 1, play: 5-5}
      - {seat: 0, pass: true}
      - {seat: 1, play: 5-0@W, expect: {count: 10, points: 10}}
    expect_end: {hand: domino, settlement: [-10, 0], scores: [215, 245], game_over: false}
  - expect_leader: 1
    deal: [[2-3], [6-6, 1-4, 3-3]]
    steps:
      - {seat: 1, play: 6-6, expect: {count: 12}}
    expect_end: {hand: blocked, settlement: [-5, -10], scores: [210, 235]}
  - lot: [[6-3, 5-4], [1-0, 2-2]]
    expect_leader: 1
    deal: [[3-4, 6-2], [5-5, 5-0]]
    steps:
      - {seat: 1, play: 5-5}
      - {seat: 0, pass: true}
      - {seat: 1, play: 5-0@W}
    expect_end: {hand: domino, scores: [195, 255], game_over: true, winner: 1}
expect_match: {scores: [195, 255], game_over: true, winner: 1}
"""


def test_a_match_file_replays(tmp_path: Path) -> None:
    result = run_scenario(_write(tmp_path, MATCH))
    assert result.ok, result.lines()


@pytest.mark.parametrize("old, new, line", [
    # the later-lead rule's choice, checked before the hand's first step
    ("  - expect_leader: 1\n    deal: [[2-3]", "  - expect_leader: 0\n    deal: [[2-3]",
     "hand 2: start: expected leader 0, got 1"),
    # a step of a later hand
    ("play: 6-6, expect: {count: 12}", "play: 6-6, expect: {count: 6}", "hand 2: step 1: expected count 6, got 12"),
    # the end of a hand: the scores carried from the hands before
    ("scores: [210, 235]}", "scores: [200, 235]}", "hand 2: end: expected scores [200, 235], got [210, 235]"),
    # the match
    ("expect_match: {scores: [195, 255], game_over: true, winner: 1}", "expect_match: {winner: 0}",
     "match: expected winner 0, got 1"),
    # a lot the engine does not draw (the domino-er leads hand 2)
    ("  - expect_leader: 1\n    deal: [[2-3]", "  - lot: [[1-1, 2-2]]\n    deal: [[2-3]",
     "hand 2: start: the file gives a lot, but the lead rule chose seat 1 without drawing one"),
    # a lot tied after its last round, and one decided before its last round
    ("[[6-3, 5-4], [1-0, 2-2]]", "[[6-3, 5-4]]",
     "hand 3: start: the lot is tied after round 1 (the file gives 1): give the next round under lot"),
    ("[[6-3, 5-4], [1-0, 2-2]]", "[[6-3, 4-4], [1-0, 2-2]]",
     "hand 3: start: the lot was decided in round 1, but the file gives 2 rounds"),
    ("[[6-3, 5-4], [1-0, 2-2]]", "[[6-3, 5-4], [1-0, 2-2, 3-3]]",
     "hand 3: start: round 2 of the lot has 2 contenders, the file gives 3 tiles"),
    ("[[2-3, 6-5]]", "[[2-3]]", "hand 1: start: round 1 of the lot has more contenders than the 1 tiles the file gives"),
    # a hand that is not over cannot be followed by another
    ("    steps:\n      - {seat: 1, play: 6-6, expect: {count: 12}}\n", "    steps: []\n",
     "hand 2: end: expected hand blocked, got playing"),
])
def test_each_match_mismatch_names_its_hand(tmp_path: Path, old: str, new: str, line: str) -> None:
    assert old in MATCH
    result = run_scenario(_write(tmp_path, MATCH.replace(old, new)))
    assert result.status == "mismatch"
    assert result.lines() == [f"{result.file}: {line}"]


def test_a_hand_left_playing_or_after_the_match_is_a_mismatch(tmp_path: Path) -> None:
    playing = MATCH.replace("    steps:\n      - {seat: 1, play: 6-6, expect: {count: 12}}\n", "    steps: []\n")
    playing = playing.replace("    expect_end: {hand: blocked, settlement: [-5, -10], scores: [210, 235]}\n", "")
    result = run_scenario(_write(tmp_path, playing))
    assert result.lines()[0].endswith(
        "hand 2: end: the hand is not over after its steps (playing), but the file gives hand 3")
    extra = MATCH.replace("expect_match:", "  - deal: [[1-1], [2-2]]\nexpect_match:")
    result = run_scenario(_write(tmp_path, extra))
    assert result.lines()[0].endswith(
        "hand 4: start: the match is already over (winner seat 1 after hand 3), but the file gives hand 4")


def test_the_last_hand_of_a_match_file_may_stop_in_play(tmp_path: Path) -> None:
    text = MATCH.split("  - lot: [[6-3")[0] + "  - deal: [[5-5, 5-1], [2-3, 6-1]]\n    leader: 0\n" \
        "    steps: [{play: 5-5, expect: {scores: [220, 235]}}]\n" \
        "expect_match: {scores: [220, 235], game_over: false, winner: none}\n"
    result = run_scenario(_write(tmp_path, text))
    assert result.ok, result.lines()


def test_a_match_mismatch_in_json_names_hand_and_phase(tmp_path: Path) -> None:
    result = run_scenario(_write(tmp_path, MATCH.replace("expect_match: {scores: [195, 255]",
                                                         "expect_match: {scores: [0, 0]")))
    assert result.to_dict() == {
        "file": result.file, "status": "mismatch", "phase": "match", "step": None, "key": "scores",
        "expected": [0, 0], "got": [195, 255], "message": "expected scores [0, 0], got [195, 255]"}
    result = run_scenario(_write(tmp_path, MATCH.replace("play: 6-6, expect: {count: 12}",
                                                         "play: 6-6, expect: {count: 6}")))
    assert result.to_dict()["hand"] == 2 and result.to_dict()["step"] == 1
    assert "phase" not in result.to_dict()


def test_a_single_hand_file_takes_a_lot_and_expect_leader(tmp_path: Path) -> None:
    text = ("variant: sniff\nsource: t\nlot: [[6-6, 0-1]]\nexpect_leader: %d\n"
            "deal: [[3-4], [1-1]]\nsteps: [{seat: 0, play: 3-4}]\n")
    assert run_scenario(_write(tmp_path, text % 0)).ok
    result = run_scenario(_write(tmp_path, text % 1))
    assert result.lines()[0].endswith(": start: expected leader 1, got 0")


@pytest.mark.parametrize("text, line, col, fragment", [
    (MATCH.replace("source: t\n", "source: t\nsteps: [play: 4-4]\n"), 3, 8,
     "steps: a match file (hands:) gives steps under each hand"),
    (MATCH.replace("source: t\n", "source: t\nleader: 0\n"), 3, 9, "leader: a match file (hands:) gives leader under each hand"),
    ("variant: sniff\nsource: t\nsteps: [play: 4-4]\nexpect_match: {winner: 0}\n", 4, 15,
     "expect_match needs hands:"),
    (MATCH.replace("    deal: [[2-3], [6-6", "    dael: [[2-3], [6-6"), 14, 5,
     "hands.1.dael: unknown key 'dael'; did you mean 'deal'?"),
    (MATCH.replace("  - expect_leader: 1\n    deal: [[2-3]", "  - expect_leader: 2\n    deal: [[2-3]"), 13, 20,
     "hands.1.expect_leader: seat 2 does not exist with 2 players"),
    (MATCH.replace("  - expect_leader: 1\n    deal: [[2-3]", "  - leader: 5\n    deal: [[2-3]"), 13, 13,
     "hands.1.leader: seat 5 does not exist"),
    (MATCH.replace("  - expect_leader: 1\n    deal: [[2-3]", "  - leader: 1\n    expect_leader: 1\n    deal: [[2-3]"),
     14, 20, "give leader (the lead rule is not applied) or expect_leader"),
    (MATCH.replace("    expect_leader: 1\n    deal: [[1-2", "    leader: 1\n    deal: [[1-2"), 5, 10,
     "hands.0.lot: a lot is drawn only when the lead rule chooses the leader"),
    (MATCH.replace("[[2-3, 6-5]]", "[[6-5, 5-6]]"), 5, 17, "5-6 is drawn twice in one round of the lot (also at 0)"),
    (MATCH.replace("deal: [[2-3], [6-6, 1-4, 3-3]]", "deal: [[2-3], [6-6, 1-4, 3-2]]"), 14, 30,
     "2-3 is given twice"),
    (MATCH.replace("hands:\n", "hands: []\n").split("  - lot")[0], 4, 8, "hands"),
    (MATCH.replace("expect_match: {scores: [195, 255]", "expect_match: {scores: [195]"), 26, 24,
     "expect_match.scores: give 2 numbers"),
])
def test_malformed_match_files_give_located_errors(tmp_path: Path, text: str, line: int, col: int,
                                                   fragment: str) -> None:
    result = run_scenario(_write(tmp_path, text))
    assert result.status == "error", result.lines()
    found = [p for p in result.problems if fragment in p.format()]
    assert found, result.lines()
    assert (found[0].line, found[0].col) == (line, col), found[0].format()
    assert all("\n" not in p.format() for p in result.problems)


def test_the_json_schema_takes_match_files_and_rejects_a_bad_hand() -> None:
    import jsonschema

    from bones.lang.schemagen import scenario_schema

    validator = jsonschema.Draft7Validator(scenario_schema())
    assert not list(validator.iter_errors(yaml.safe_load(MATCH)))
    def spoilt(hand: int, change: Any) -> dict[str, Any]:
        data = yaml.safe_load(MATCH)
        change(data["hands"][hand])
        return data

    for bad in (spoilt(0, lambda h: h["steps"].append("dra")),
                spoilt(1, lambda h: h.update(dael=h.pop("deal"))),
                spoilt(2, lambda h: h.update(lot="6-3")),
                spoilt(2, lambda h: h.update(expect_leader=-1)),
                {**yaml.safe_load(MATCH), "expect_match": {"hand": "domino"}}):
        assert list(validator.iter_errors(bad)), bad


def test_the_examples_in_docs_scenarios_md_replay(tmp_path: Path) -> None:
    doc = (HERE.parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", doc, flags=re.S)
    assert any("hands:" in b for b in blocks)
    for n, block in enumerate(blocks):
        result = run_scenario(_write(tmp_path, block, f"example{n}.yaml"))
        assert result.ok, result.lines()
