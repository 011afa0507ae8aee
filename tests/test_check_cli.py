"""`bones check`: one line per file, exit codes, JSON output, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bones.cli.app import app

SCENARIOS = Path(__file__).resolve().parent / "scenarios"

# SEED1: the source id of docs/rules.md
OK = """\
variant: sniff
source: "SEED1, US version"
steps:
  - {play: 4-4, expect: {count: 8, points: 0}}
  - {play: 6-4@W, expect: {count: 14, points: 0}}
  - {play: 1-4@E, expect: {count: 15, points: 15}}
"""

runner = CliRunner()


def _files(tmp_path: Path, **texts: str) -> list[str]:
    paths = []
    for name, text in texts.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        paths.append(str(path))
    return paths


def test_all_builtin_scenarios_pass() -> None:
    files = sorted(str(p) for p in SCENARIOS.glob("*.yaml"))
    result = runner.invoke(app, ["check", *files])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == len(files)
    assert all(line.endswith(": ok") for line in lines)


def test_one_line_per_file_and_exit_1_on_a_mismatch(tmp_path: Path) -> None:
    good, bad = _files(tmp_path, good=OK, bad=OK.replace("count: 15", "count: 13"))
    result = runner.invoke(app, ["check", good, bad])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{good}: ok",
        f"{bad}: step 3: expected count 13, got 15",
    ]


def test_malformed_file_is_a_located_line_not_a_traceback(tmp_path: Path) -> None:
    (bad,) = _files(tmp_path, bad=OK.replace("steps:", "stepz:"))
    result = runner.invoke(app, ["check", bad])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.splitlines() == [
        f"{bad}:3:1: stepz: unknown key 'stepz'; did you mean 'steps'?",
    ]


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.yaml")
    result = runner.invoke(app, ["check", missing])
    assert result.exit_code == 2
    assert result.output.strip() == f"bones check: {missing}: no such file"


def test_usage_errors_exit_2() -> None:
    assert runner.invoke(app, ["check"]).exit_code == 2
    assert runner.invoke(app, ["check", "--format", "xml", "x.yaml"]).exit_code == 2


def test_json_format(tmp_path: Path) -> None:
    good, bad, broken = _files(
        tmp_path, good=OK, bad=OK.replace("points: 15", "points: 5"), broken="variant: [\n")
    result = runner.invoke(app, ["check", "--format", "json", good, bad, broken])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data[0] == {"file": good, "status": "ok"}
    assert data[1] == {"file": bad, "status": "mismatch", "step": 3, "key": "points",
                       "expected": 5, "got": 15, "message": "expected points 5, got 15"}
    assert data[2]["status"] == "error"
    assert data[2]["problems"][0]["message"].startswith("YAML syntax error")


def test_github_format(tmp_path: Path) -> None:
    (bad,) = _files(tmp_path, bad=OK.replace("count: 14", "count: 41"))
    result = runner.invoke(app, ["check", "-f", "github", bad])
    assert result.exit_code == 1
    assert result.output.startswith("::error file=")
    assert "step 2: expected count 41, got 14" in result.output


def test_every_file_is_reported_even_after_a_failure(tmp_path: Path) -> None:
    files = _files(tmp_path, a="variant: nope\nsource: x\nsteps: [play: 1-1]\n", b=OK)
    result = runner.invoke(app, ["check", *files])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == f"{files[1]}: ok"
