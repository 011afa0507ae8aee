"""Records and saves as hostile input: a fixed corpus of bad files, special files, and fuzzing.

``tests/corpus/records/`` holds damaged and malicious records and saves;
``tests/corpus/records.json`` gives, for each, the exit code and the exact
one-line message of ``bones replay FILE`` (``bones analyse FILE`` gives the same) and
``bones play --resume FILE``.
FIFOs, devices, directories and oversized files are made at test time.
Hypothesis then mutates a real save and checks that neither command ever
shows a traceback.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_budget import bounded, examples
from typer.testing import CliRunner

from bones.cli.app import app
from bones.games.record import MAX_RECORD_BYTES

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "records"
CASES = json.loads((ROOT / "tests" / "corpus" / "records.json").read_text())


def run(args: list[str], answers: str = "q\n"):
    result = runner.invoke(app, args, input=answers, env={"NO_COLOR": "1", "COLUMNS": "100"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}")
    return result


def error_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def test_the_corpus_lists_every_file() -> None:
    assert sorted(c["file"] for c in CASES) == sorted(p.name for p in CORPUS.glob("*.json"))
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_replay_of_corpus_file(case: dict) -> None:
    path = CORPUS / case["file"]
    code, message = case["replay"]
    result = run(["replay", str(path)])
    assert result.exit_code == code, result.output
    assert error_lines(result) == ([message.replace("{file}", str(path))] if message else [])


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_analyse_of_corpus_file(case: dict) -> None:
    # bones analyse reads a record as bones replay does: the same code and line
    path = CORPUS / case["file"]
    code, message = case["replay"]
    result = run(["analyse", str(path), "--budget", "2"])
    assert result.exit_code == code, result.output
    expected = message.replace("{file}", str(path)).replace("bones replay: ", "bones analyse: ")
    assert error_lines(result) == ([expected] if message else [])


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_resume_of_corpus_file(case: dict, tmp_path: Path) -> None:
    path = tmp_path / case["file"]
    shutil.copy(CORPUS / case["file"], path)
    before = path.read_bytes()
    code, message = case["resume"]
    result = run(["play", "--resume", str(path)])
    assert result.exit_code == code, result.output
    assert error_lines(result) == ([message.replace("{file}", str(path))] if message else [])
    if code:
        assert path.read_bytes() == before  # a refused save is left exactly as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no lock left behind


# ---------------------------------------------------------- special files

_LIMIT_AS = 1 << 30  # 1 GiB of address space: /dev/zero read without end would exceed it


def _limited() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (_LIMIT_AS, _LIMIT_AS))


def run_bounded(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """A real process, with a time limit and an address-space limit."""
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path))
    return subprocess.run([sys.executable, "-m", "bones", *args], input="q\n", text=True,
                          capture_output=True, timeout=60, env=env, cwd=tmp_path,
                          preexec_fn=_limited)


def special_files(tmp_path: Path) -> list[tuple[str, str]]:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    big = tmp_path / "big.json"
    with open(big, "wb") as out:
        out.truncate(MAX_RECORD_BYTES + 1)  # sparse: costs no disk
    return [
        ("/dev/zero", "/dev/zero: is a device, not a record file"),
        (str(fifo), f"{fifo}: is a FIFO (named pipe), not a record file"),
        (str(folder), f"{folder}: is a directory, not a record file"),
        (str(big), f"{big}: too large for a record (4,194,305 bytes; records and saves "
                   "are limited to 4 MiB)"),
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs and devices")
@pytest.mark.parametrize("command", ["replay", "resume"])
def test_devices_fifos_folders_and_huge_files_are_refused_at_once(tmp_path: Path,
                                                                   command: str) -> None:
    for path, message in special_files(tmp_path):
        args = ["replay", path] if command == "replay" else ["play", "--resume", path]
        result = run_bounded(args, tmp_path)
        prefix = "bones replay: " if command == "replay" else "bones play: "
        assert result.returncode == 1, (path, result.stderr)
        assert result.stderr.strip().splitlines() == [prefix + message], result.stderr
    assert not list(Path("/dev").glob(".zero.lock"))


def test_a_file_that_grows_past_the_cap_while_read_is_refused(tmp_path, monkeypatch) -> None:
    from bones.games import record

    path = tmp_path / "small.json"
    path.write_text("{}")
    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 1)  # the stat said 2 bytes: refused early
    result = run(["replay", str(path)])
    assert result.exit_code == 1 and "too large for a record" in result.stderr


# --------------------------------------------------------------- fuzzing

GOOD = (CORPUS / "good-unfinished.json").read_text()


def _mutate_text(text: str, rnd: random.Random) -> str:
    kind = rnd.randrange(6)
    i = rnd.randrange(len(text) + 1)
    if kind == 0:  # cut it short
        return text[:i]
    if kind == 1:  # nest brackets where a value goes
        return text[:i] + rnd.choice("[{") * rnd.randrange(1, 3000) + text[i:]
    if kind == 2:  # flip a character
        return text[:i] + chr(rnd.choice([0, 7, 27, 34, 44, 48, 58, 91, 92, 93, 123, 125, 0xD800,
                                          0xFFFF, 0x202E])) + text[i + 1:]
    if kind == 3:  # repeat a chunk
        j = rnd.randrange(i, min(len(text), i + 400) + 1)
        return text[:i] + text[i:j] * rnd.randrange(2, 50) + text[j:]
    if kind == 4:  # delete a chunk
        return text[:i] + text[i + rnd.randrange(1, 200):]
    return text[:i] + rnd.choice(["1e999", "-0", "NaN", '"\\ud800"', "9" * 5000, "null", "[]",
                                  "{}", '"draw"', "true", '"6-6@N"']) + text[i:]


def _json_values() -> st.SearchStrategy[object]:
    return st.recursive(
        st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                    max_size=4),
        max_leaves=20)


def _replace_somewhere(data: object, value: object, rnd: random.Random) -> object:
    """``data`` with one randomly chosen node (at any depth) replaced by ``value``."""
    if not isinstance(data, (dict, list)) or rnd.random() < 0.25:
        return value
    keys = list(data) if isinstance(data, dict) else list(range(len(data)))
    if not keys:
        return value
    key = rnd.choice(keys)
    data[key] = _replace_somewhere(data[key], value, rnd)
    return data


def _check_both(text: str, tmp_path: Path) -> None:
    """Replay and resume the text: one line or success, within 20 s and 200 MB."""
    bounded(lambda: _replay_and_resume(text, tmp_path))


def _replay_and_resume(text: str, tmp_path: Path) -> None:
    path = tmp_path / "fuzz.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    for args in (["replay", str(path)], ["play", "--resume", str(path)]):
        result = run(args)
        assert result.exit_code in (0, 1), (args, result.output)
        if result.exit_code:
            lines = error_lines(result)
            assert len(lines) == 1, result.stderr
        assert "Traceback" not in result.output
    for extra in tmp_path.iterdir():
        if extra.name != "fuzz.json":  # pragma: no cover - a failure
            raise AssertionError(f"left behind: {extra.name}")


@examples(60)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 3))
def test_fuzzed_text_never_gives_a_traceback(tmp_path_factory, seed: int, steps: int) -> None:
    rnd = random.Random(seed)
    text = GOOD
    for _ in range(steps):
        text = _mutate_text(text, rnd)
    _check_both(text, tmp_path_factory.mktemp("fuzz"))


@examples(40)
@given(seed=st.integers(0, 2**32), value=_json_values())
def test_fuzzed_structure_never_gives_a_traceback(tmp_path_factory, seed: int,
                                                   value: object) -> None:
    data = _replace_somewhere(json.loads(GOOD), value, random.Random(seed))
    _check_both(json.dumps(data), tmp_path_factory.mktemp("fuzz"))
