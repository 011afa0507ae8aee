"""One set of conventions for every command: the same bad input gets the same
exit code and the same ``bones COMMAND: `` message prefix; shared options are
spelled the same everywhere.  The exit code each test expects is read from
the README's exit-code table (the row that lists the kind of input), so the
table and the commands cannot drift apart."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def _readme_exit_codes() -> dict[int, str]:
    """The README's exit-code table: each code with its row's text."""
    rows = re.findall(r"^\| (\d+) \| (.*) \|$", (ROOT / "README.md").read_text(encoding="utf-8"), re.M)
    return {int(code): text for code, text in rows}


README_EXIT_CODES = _readme_exit_codes()


def exit_code_for(example: str) -> int:
    """The exit code whose README row lists ``example``."""
    codes = [code for code, text in README_EXIT_CODES.items() if example in text]
    assert len(codes) == 1, f"the README's exit-code table lists {example!r} in rows {codes}"
    return codes[0]


UNKNOWN_VARIANT = exit_code_for("a variant name that is not built in")
MISSING_PATH = exit_code_for("a path that does not exist")
NOT_A_FILE = exit_code_for("a path that is not a regular file (a directory")
INVALID_FILE = exit_code_for("an invalid variant or scenario file")
BAD_VALUE = exit_code_for("an unknown option or a bad value")

# how each command takes a variant: the arguments before and after it
VARIANT_COMMANDS = {
    "show": ((), ()),
    "validate": ((), ()),
    "play": ((), ("--humans", "0", "--bots", "random", "--delay", "0")),
    "simulate": ((), ("-n", "1")),
    "compare": ((), ("sniff", "-n", "1")),
    "tournament": ((), ("--bots", "random,greedy", "-n", "1")),
}
# commands that read a file of another kind
FILE_COMMANDS = ("check", "replay", "analyse")


def _run(*args: str):
    return runner.invoke(app, list(args), input="")


def _one_error_line(result, command: str) -> str:
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"bones {command}: "), lines[0]
    return lines[0]


@pytest.fixture()
def bad_variant(tmp_path: Path) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nextends: sniff\ndeal:\n  hand_size: seven\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", VARIANT_COMMANDS)
def test_an_unknown_variant_is_a_usage_error_everywhere(command: str) -> None:
    before, after = VARIANT_COMMANDS[command]
    result = _run(command, *before, "snif", *after)
    assert result.exit_code == UNKNOWN_VARIANT, result.output
    line = _one_error_line(result, command)
    assert "unknown variant 'snif'" in line and "did you mean 'sniff'" in line


@pytest.mark.parametrize("command", [*VARIANT_COMMANDS, *FILE_COMMANDS])
def test_a_missing_file_is_a_usage_error_everywhere(command: str, tmp_path: Path) -> None:
    before, after = VARIANT_COMMANDS.get(command, ((), ()))
    missing = str(tmp_path / "missing.yaml")
    result = _run(command, *before, missing, *after)
    assert result.exit_code == MISSING_PATH, result.output
    assert "no such file" in _one_error_line(result, command)


@pytest.mark.parametrize("command", [*VARIANT_COMMANDS, *FILE_COMMANDS])
def test_a_directory_is_a_problem_everywhere(command: str, tmp_path: Path) -> None:
    before, after = VARIANT_COMMANDS.get(command, ((), ()))
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    result = _run(command, *before, str(folder), *after)
    assert result.exit_code == NOT_A_FILE, result.output
    if command in ("validate", "check"):  # their report is their output
        assert "directory" in result.stdout and "Traceback" not in result.output
    else:
        assert "directory" in _one_error_line(result, command)


@pytest.mark.parametrize("command", [c for c in VARIANT_COMMANDS if c != "validate"])
def test_an_invalid_variant_file_is_a_problem_everywhere(command: str, bad_variant: str) -> None:
    before, after = VARIANT_COMMANDS[command]
    result = _run(command, *before, bad_variant, *after)
    assert result.exit_code == INVALID_FILE, result.output
    line = _one_error_line(result, command)
    assert "bad.yaml:4:" in line and "hand_size" in line


def test_validate_reports_an_invalid_file_on_standard_output(bad_variant: str) -> None:
    # validate's report is its output: the problems go to stdout, located
    result = _run("validate", bad_variant)
    assert result.exit_code == INVALID_FILE
    assert "bad.yaml:4:" in result.stdout and result.stderr == ""


@pytest.mark.parametrize("command", ["play", "simulate", "compare", "tournament"])
def test_a_bad_seed_is_a_usage_error_everywhere(command: str) -> None:
    before, after = VARIANT_COMMANDS[command]
    result = _run(command, *before, "sniff", *after, "--seed", "x")
    assert result.exit_code == BAD_VALUE
    assert "Invalid value for '--seed'" in result.stderr


@pytest.mark.parametrize("command", ["simulate", "compare", "tournament"])
def test_bad_jobs_and_bots_are_usage_errors_everywhere(command: str) -> None:
    before, after = VARIANT_COMMANDS[command]
    result = _run(command, *before, "sniff", *after, "--jobs", "0")
    assert result.exit_code == BAD_VALUE
    assert "--jobs must be at least 1" in _one_error_line(result, command)
    args = [a for a in after if a not in ("random,greedy",)]
    if "--bots" in args:
        args.remove("--bots")
    result = _run(command, *before, "sniff", *args, "--bots", "gredy,random")
    assert result.exit_code == BAD_VALUE
    assert "did you mean greedy" in _one_error_line(result, command)


def _every_command() -> list[str]:
    import typer.main

    return sorted(typer.main.get_command(app).commands)


def test_every_command_is_covered() -> None:
    # a new command joins the lists above, or is one of those that read no input
    reads_nothing = {"list", "bots", "schema", "serve"}
    assert set(_every_command()) == set(VARIANT_COMMANDS) | set(FILE_COMMANDS) | reads_nothing


@pytest.mark.parametrize("command", _every_command())
def test_a_malformed_command_line_is_a_usage_error_everywhere(command: str) -> None:
    # Click reports it: the usage line, then the error (README, "Exit codes")
    result = _run(command, "--no-such-option")
    assert result.exit_code == BAD_VALUE, result.output
    assert "No such option: --no-such-option" in result.stderr and "Traceback" not in result.output
    assert result.stderr.startswith(f"Usage: bones {command} ")


def test_the_readme_lists_every_exit_code() -> None:
    assert sorted(README_EXIT_CODES) == [0, 1, 2, 130]


@pytest.mark.parametrize("command", ["simulate", "compare", "tournament", "play", "show"])
def test_shared_options_are_spelled_the_same(command: str) -> None:
    help_text = _run(command, "--help").stdout
    for option in ("--players", "-p"):
        assert option in help_text
    if command != "show":
        assert "--seed" in help_text and "--teams" in help_text and "--bots" in help_text
    if command in ("simulate", "compare", "tournament"):
        for option in ("--jobs", "-j", "--oversubscribe", "--scheduler", "--json", "--quiet",
                       "-q", "--out"):
            assert option in help_text


def test_schema_prints_to_standard_output_without_out(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = _run("schema")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["title"]
    assert "scenario" in json.loads(_run("schema", "scenario").stdout)["title"]
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran
    result = _run("schema", "recipe")
    assert result.exit_code == BAD_VALUE
    assert _one_error_line(result, "schema").endswith("(one of scenario, variant)")


def test_shell_completion_is_offered() -> None:
    assert "--install-completion" in _run("--help").stdout
    result = runner.invoke(app, ["--show-completion", "bash"], prog_name="bones")
    assert result.exit_code == 0, result.output
    assert "complete -o default -F _bones_completion bones" in result.stdout
    result = runner.invoke(app, [], prog_name="bones",
                           env={"_BONES_COMPLETE": "complete_bash", "COMP_WORDS": "bones sim",
                                "COMP_CWORD": "1"})
    assert result.stdout.split() == ["simulate"]


FULL_OUTPUT = exit_code_for("a standard output that cannot be written")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ("list",), ("show", "sniff"), ("validate", "sniff"), ("bots",), ("schema",), ("--help",),
    ("replay", "tests/corpus/records/good-save.json"),
    ("simulate", "sniff", "-n", "1", "--seed", "1", "-q", "--bots", "random"),
])
def test_a_full_standard_output_is_one_line_not_a_traceback(args: tuple[str, ...]) -> None:
    # `bones list > /dev/full` printed an OSError traceback from every command
    import os
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "bones", *args], stdout=full, text=True,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=120,
                              env=dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1"))
    assert done.returncode == FULL_OUTPUT
    command = args[0] if not args[0].startswith("-") else ""
    assert done.stderr.splitlines() == [
        f"bones{' ' + command if command else ''}: cannot write to standard output: "
        "No space left on device"], done.stderr
