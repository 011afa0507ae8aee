"""`bones validate`: exit codes, the three output formats, and no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_budget import examples
from typer.testing import CliRunner

from bones.cli.app import app
from bones.lang.load import builtin_names

DATA = Path(__file__).resolve().parent / "data"

GOOD = """\
name: house
deal:
  hand_size: 5
settlement:
  domino: {kind: domino_er}
  blocked: {kind: lightest}
match: {kind: target, points: 61}
"""

BAD = """\
name: house
deal:
  hand_sise: 5
settlement:
  domino: {kind: domino_er}
  blocked: {kind: lightest}
match: {kind: targett, points: 61}
"""

BAD_LINES = [
    "bad.yaml:2:1: deal: missing required key 'hand_size'",
    "bad.yaml:3:3: deal.hand_sise: unknown key 'hand_sise'; did you mean 'hand_size'?",
    "bad.yaml:7:15: match.kind: unknown kind 'targett' (expected one of: target, penalty, hands, rounds)",
]


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(BAD, encoding="utf-8")
    # an internal error must fail the tests, not turn into a message
    return CliRunner(env={"BONES_DEBUG": "1"})


def run(runner: CliRunner, *args: str):
    result = runner.invoke(app, ["validate", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_valid_file(runner: CliRunner) -> None:
    result = run(runner, "good.yaml")
    assert result.exit_code == 0
    assert result.output == "good.yaml: ok\n"


def test_invalid_file_prints_every_problem(runner: CliRunner) -> None:
    result = run(runner, "good.yaml", "bad.yaml")
    assert result.exit_code == 1
    assert result.output.splitlines() == ["good.yaml: ok", *BAD_LINES]


def test_builtin_name(runner: CliRunner) -> None:
    names = builtin_names()
    if not names:
        pytest.skip("no built-in variants yet")
    result = run(runner, names[0].upper())
    assert result.exit_code == 0
    assert result.output == f"{names[0].upper()}: ok\n"


def test_unknown_name_is_a_one_line_usage_error(runner: CliRunner) -> None:
    result = run(runner, "no-such-variant-xyz")
    assert result.exit_code == 2
    assert len(result.output.splitlines()) == 1
    assert result.output.startswith(
        "bones validate: no-such-variant-xyz: unknown variant 'no-such-variant-xyz'")


def test_missing_file_is_a_usage_error(runner: CliRunner) -> None:
    result = run(runner, "nope.yaml")
    assert result.exit_code == 2
    assert result.output == "bones validate: nope.yaml:1:1: no such file\n"


@pytest.mark.parametrize("args", [[], ["good.yaml", "--format", "xml"], ["--nope", "good.yaml"]])
def test_usage_errors_exit_2(runner: CliRunner, args: list[str]) -> None:
    result = run(runner, *args)
    assert result.exit_code == 2


def test_json_format(runner: CliRunner) -> None:
    result = run(runner, "good.yaml", "bad.yaml", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data[0] == {"file": "good.yaml", "valid": True, "problems": []}
    assert data[1]["file"] == "bad.yaml"
    assert data[1]["valid"] is False
    assert data[1]["problems"][1] == {
        "file": "bad.yaml",
        "line": 3,
        "col": 3,
        "path": "deal.hand_sise",
        "message": "unknown key 'hand_sise'; did you mean 'hand_size'?",
    }
    assert len(data[1]["problems"]) == 3
    ok = run(runner, "good.yaml", "--format", "JSON")
    assert ok.exit_code == 0
    assert json.loads(ok.output)[0]["valid"] is True


def test_github_format(runner: CliRunner) -> None:
    result = run(runner, "bad.yaml", "good.yaml", "-f", "github")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "::error file=bad.yaml,line=2,col=1::deal: missing required key 'hand_size'",
        "::error file=bad.yaml,line=3,col=3::deal.hand_sise: unknown key 'hand_sise'; did you mean 'hand_size'?",
        "::error file=bad.yaml,line=7,col=15::match.kind: unknown kind 'targett' (expected one of: target, penalty, hands, rounds)",
        "good.yaml: ok",
    ]


def test_github_format_escapes(runner: CliRunner) -> None:
    Path("a,b.yaml").write_text(GOOD + "'50%': 1\n", encoding="utf-8")
    result = run(runner, "a,b.yaml", "-f", "github")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "::error file=a%2Cb.yaml,line=8,col=1::50%25: unknown key '50%25' (expected one of: name, extends, "
        "aliases, summary, sources, tiles, players, deal, lead, layout, scoring, drawing, turn, hand_end, bonuses, settlement, match)"
    ]


@pytest.mark.parametrize("fixture", sorted((DATA / "bad").glob("*.yaml")), ids=lambda p: p.stem)
def test_bad_fixtures(runner: CliRunner, fixture: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file in tests/data/bad lists the lines `bones validate` must print, as `# expect:` comments."""
    monkeypatch.chdir(DATA)
    expected = [
        line.removeprefix("# expect: ").rstrip("\n")
        for line in fixture.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.startswith("# expect: ")
    ]
    assert expected, f"{fixture.name} has no # expect: lines"
    result = run(runner, f"bad/{fixture.name}")
    assert result.exit_code == 1
    assert result.output.splitlines() == expected


def test_internal_errors_become_one_line(monkeypatch: pytest.MonkeyPatch, runner: CliRunner) -> None:
    import bones.lang.load

    def boom(ref: str, **options: object) -> None:
        raise RuntimeError("simulated bug\nsecond line")

    monkeypatch.setattr(bones.lang.load, "load_variant", boom)
    result = CliRunner().invoke(app, ["validate", "good.yaml"])
    assert result.exit_code == 1
    assert result.output == (
        "good.yaml: internal error while loading: RuntimeError: simulated bug (set BONES_DEBUG=1 for a traceback)\n"
    )
    with pytest.raises(RuntimeError):
        run(runner, "good.yaml")  # BONES_DEBUG=1 lets the bug through


@examples(40)
@given(content=st.binary(max_size=120) | st.text(max_size=120).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_random_files_exit_0_or_1(runner: CliRunner, content: bytes) -> None:
    Path("fuzz.yaml").write_bytes(content)
    result = run(runner, "fuzz.yaml", "--format", "json")
    assert result.exit_code in (0, 1)
    assert json.loads(result.output)[0]["file"] == "fuzz.yaml"


def test_real_process_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("name: [\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "bones", "validate", "bad.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.startswith("bad.yaml:2:1: YAML syntax error:")


def test_command_module_imports_no_engine() -> None:
    code = (
        "import sys, bones.cli.validate_cmd; "
        "heavy = [m for m in ('bones.lang.load', 'bones.lang.spec', 'pydantic', 'yaml') if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert out.strip() == "[]"


def test_version_names_the_core() -> None:
    import bones.engine

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    from bones.engine.core import active_name

    assert result.stdout.strip() == f"bones {bones.__version__} ({active_name()})"
