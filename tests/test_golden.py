"""Golden playthroughs and golden records of every built-in variant.

A change in dealing, legal moves, counting, scoring or settlement shows up as
a line diff against ``tests/golden/<variant>.txt``.  If the change is meant,
regenerate with ``python tests/golden_gen.py --update`` and review the diff.
"""

from __future__ import annotations

import json

import golden_gen
import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.engine.match import Match
from bones.engine.notation import parse_move
from bones.games.record import VERSION, _deal_from, load_record, record_match, replay
from bones.lang.load import builtin_names

NAMES = builtin_names()


def test_every_builtin_has_golden_files():
    missing = [str(p.name) for name in NAMES for p in golden_gen.paths(name) if not p.exists()]
    assert not missing, (
        f"built-in variants without golden files: {', '.join(missing)}; "
        "run python tests/golden_gen.py --update"
    )


def test_no_stray_golden_files():
    known = {p.name for name in NAMES for p in golden_gen.paths(name)}
    stray = sorted(p.name for p in golden_gen.GOLDEN.iterdir() if p.name not in known)
    assert not stray, f"golden files of no built-in variant: {', '.join(stray)}"


@pytest.mark.parametrize("name", NAMES)
def test_playthrough_matches_golden(name):
    path, _ = golden_gen.paths(name)
    if not path.exists():
        pytest.fail(f"{path.name} is missing; run python tests/golden_gen.py --update {name}")
    text, _ = golden_gen.playthrough(name)
    expected = path.read_text()
    if text != expected:
        pytest.fail("playthrough differs from the golden file:\n"
                    + golden_gen.diff(expected, text, path.name), pytrace=False)


def _play_part(data: dict) -> dict:
    # what the engine decided; the variant's prose and the engine version may change freely
    return {k: data[k] for k in ("players", "teams", "seed", "start_scores", "hands", "result")}


@pytest.mark.parametrize("name", NAMES)
def test_record_matches_golden(name):
    _, path = golden_gen.paths(name)
    if not path.exists():
        pytest.fail(f"{path.name} is missing; run python tests/golden_gen.py --update {name}")
    _, record = golden_gen.playthrough(name)
    golden = json.loads(path.read_text())
    assert _play_part(record.model_dump(mode="json")) == _play_part(golden)


@pytest.mark.parametrize("name", NAMES)
def test_bones_replay_round_trips_golden_record(name):
    _, path = golden_gen.paths(name)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    golden = json.loads(path.read_text())
    assert sum(line.startswith("hand ") for line in lines) == len(golden["hands"])
    final = " ".join(map(str, golden["result"]["scores"]))
    assert lines[-1].endswith(f"scores {final}")
    assert "wins" in lines[-1] or "draw" in lines[-1]


@pytest.mark.parametrize("name", ["sniff", "fives-and-threes", "partners"])
def test_recorder_and_record_match_agree(name):
    """The live Recorder and the after-the-fact record_match build the same record."""
    _, record = golden_gen.playthrough(name)
    replayed = replay(record)
    assert replayed.finished and replayed.scores == record.result.scores
    # rebuild the same match from the record's deals through Match.history
    match = Match(replayed.rules, seed=record.seed)
    for hand_record, hand in zip(record.hands, replayed.hands):
        live = match.start_hand(_deal_from(replayed.rules, hand_record.deal, "hand"))
        for step in hand.moves:
            live.apply(parse_move(live, step.notation))
        match.finish_hand(live)
    rebuilt = record_match(match, meta=record.meta)
    assert rebuilt.model_dump() == record.model_dump()


def test_golden_record_loads_with_every_field(tmp_path):
    record = load_record(golden_gen.paths("sniff")[1])
    assert record.format == "bones-record" and record.version == VERSION
    assert record.players == 2 and record.result.finished
    assert all(h.end in ("domino", "blocked", "target") for h in record.hands)


def test_bones_replay_verbose_prints_every_move():
    _, path = golden_gen.paths("block-2p")
    result = CliRunner().invoke(app, ["replay", str(path), "--verbose"])
    assert result.exit_code == 0, result.output
    golden = json.loads(path.read_text())
    moves = [m for h in golden["hands"] for m in h["moves"]]
    move_lines = [line for line in result.output.splitlines() if " seat " in line and "count" in line]
    assert len(move_lines) == len(moves)
    assert all(m in line for m, line in zip(moves, move_lines))


def test_bones_replay_exit_codes(tmp_path):
    runner = CliRunner()
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(golden_gen.paths("sniff")[1].read_text()[:500])
    result = runner.invoke(app, ["replay", str(corrupt)])
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1 and "not valid JSON" in result.output
    illegal = tmp_path / "illegal.json"
    data = json.loads(golden_gen.paths("sniff")[1].read_text())
    data["hands"][0]["moves"][1] = "draw" if data["hands"][0]["moves"][1] != "draw" else "pass"
    illegal.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(illegal)])
    assert result.exit_code == 1
    assert "hand 1, move 2" in result.output and "Traceback" not in result.output
    assert runner.invoke(app, ["replay", str(tmp_path / "nope.json")]).exit_code == 2
    assert runner.invoke(app, ["replay"]).exit_code == 2
