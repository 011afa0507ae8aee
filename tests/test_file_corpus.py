"""Variant and scenario files as hostile input: a fixed corpus, and fuzzing.

``tests/corpus/variants/`` and ``tests/corpus/scenarios/`` hold malformed and
malicious files (bad YAML, wrong types, Python tags, alias bombs, deep
nesting, parents and variants outside the folder, devices...);
``tests/corpus/variants.json`` and ``scenarios.json`` give, for each, the exit
code and the exact lines of ``bones validate FILE`` and ``bones check FILE``
run in that folder.  Hypothesis then mutates real files and checks that no
input gives a traceback, a hang, unbounded memory, or quotes a file that is
not a mapping.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import bounded as _bounded
from hypothesis_budget import examples
from typer.testing import CliRunner

from bones.cli.app import app

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "corpus"
VARIANTS = ROOT.parent / "variants"
SCENARIOS = ROOT / "scenarios"
runner = CliRunner()


def _cases(kind: str) -> list[dict]:
    return json.loads((CORPUS / f"{kind}.json").read_text(encoding="utf-8"))


def run(args: list[str], stdin: str | bytes | None = None):
    result = runner.invoke(app, args, input=stdin, env={"NO_COLOR": "1", "COLUMNS": "200"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}")
    return result


@pytest.mark.parametrize("kind", ["variants", "scenarios"])
def test_the_corpus_lists_every_file(kind: str) -> None:
    assert sorted(c["file"] for c in _cases(kind)) == sorted(p.name for p in (CORPUS / kind).glob("*.yaml"))


@pytest.mark.parametrize(("kind", "command"), [("variants", "validate"), ("scenarios", "check")])
def test_every_corpus_file_gives_its_message(kind: str, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS / kind)
    monkeypatch.delenv("BONES_ALLOW_DIRS", raising=False)
    wrong = []
    for case in _cases(kind):
        result = run([command, case["file"]])
        lines = [line for line in result.output.splitlines() if line.strip()]
        if (result.exit_code, lines) != (case["code"], case["lines"]):
            wrong.append((case["file"], result.exit_code, lines))
        assert "Traceback" not in result.output
        assert "must never be echoed" not in result.output and "never quoted" not in result.output
    assert not wrong, wrong


def test_no_corpus_message_quotes_a_file_that_is_not_a_mapping() -> None:
    for kind in ("variants", "scenarios"):
        for case in _cases(kind):
            text = " ".join(case["lines"])
            assert "must never be echoed" not in text and "never quoted" not in text and "root:" not in text, case


# ------------------------------------------------------------------ fuzzing

SEEDS_V = [p.read_bytes() for p in sorted(VARIANTS.glob("*.yaml"))]
SEEDS_S = [p.read_bytes() for p in sorted(SCENARIOS.glob("*.yaml"))[:12]]
MARKER = "zqxjmarker"


def _mutations(seeds: list[bytes]) -> st.SearchStrategy[bytes]:
    def mutate(data: bytes, ops: list[tuple[int, int, bytes]]) -> bytes:
        out = bytearray(data)
        for kind, where, chunk in ops:
            if not out:
                out.extend(chunk)
                continue
            i = where % len(out)
            if kind == 0:
                out[i:i + len(chunk)] = chunk  # overwrite
            elif kind == 1:
                out[i:i] = chunk  # insert
            else:
                del out[i:i + 1 + len(chunk)]  # delete
        return bytes(out)

    chunks = st.one_of(
        st.binary(min_size=1, max_size=8),
        st.sampled_from([b":", b"- ", b"[", b"]", b"{", b"}", b"&a ", b"*a", b"!!python/object:os.system ",
                         b"\n  ", b"'", b'"', b"extends: /etc/passwd\n", b"extends: ../x.yaml\n", b"<<: ",
                         b"yes", b"-1", b"99999999999999999999", b"\t", b"\x00", b"\xff", b"#"]),
    )
    ops = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10**6), chunks), min_size=1, max_size=6)
    return st.builds(mutate, st.sampled_from(seeds), ops)


@settings(examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=_mutations(SEEDS_V))
def test_mutated_variant_files(data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("v")
    path = folder / "fuzz.yaml"
    path.write_bytes(data)

    def check() -> None:
        result = run(["validate", str(path), "--format", "json"])
        assert result.exit_code in (0, 1, 2), result.output
        assert "Traceback" not in result.output
        if result.exit_code != 2:
            json.loads(result.output)

    _bounded(check)


@settings(examples(40), suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=_mutations(SEEDS_S))
def test_mutated_scenario_files(data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("s")
    path = folder / "fuzz.yaml"
    path.write_bytes(data)

    def check() -> None:
        result = run(["check", str(path), "--format", "json"])
        assert result.exit_code in (0, 1, 2), result.output
        assert "Traceback" not in result.output

    _bounded(check)


@examples(40)
@given(words=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60))
def test_a_non_mapping_file_is_never_quoted(words: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Whatever a file holds, if it is not a mapping, no message quotes it."""
    folder = tmp_path_factory.mktemp("q")
    secret = f"{MARKER}{abs(hash(words)) % 10**6}"
    for name, text in (("scalar.yaml", f"{secret} {words}\n"), ("list.yaml", f"- {secret}\n- {words!r}\n")):
        (folder / name).write_text(text, encoding="utf-8")
        for command in ("validate", "check"):
            result = run([command, str(folder / name)])
            assert secret not in result.output, (command, name, result.output)
    # a parent that is not a mapping, named by a variant file, is not quoted either
    (folder / "child.yaml").write_text("name: c\nextends: scalar.yaml\n", encoding="utf-8")
    result = run(["validate", str(folder / "child.yaml")])
    assert secret not in result.output


def test_a_scenario_variant_that_is_not_a_path_is_only_a_builtin_name(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`variant: notes.txt` never reads notes.txt from the working directory."""
    monkeypatch.chdir(tmp_path)
    Path("notes.txt").write_text("name: x\n", encoding="utf-8")
    Path("case.yaml").write_text("variant: notes.txt\nsource: t\nsteps: [play: 4-4]\n", encoding="utf-8")
    result = run(["check", "case.yaml"])
    assert result.output == "case.yaml:1:10: variant: unknown variant 'notes.txt' (bones list shows them)\n"
    assert os.path.exists("notes.txt")
