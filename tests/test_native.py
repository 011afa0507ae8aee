"""Choosing the core (BONES_CORE), the table format check, and panics."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bones.engine import core
from bones.engine.flat import FORMAT_VERSION, TABLE_FORMAT, flatten
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant

ROOT = Path(__file__).resolve().parent.parent

try:
    import bones_native
except ImportError:  # pragma: no cover - depends on the install
    if os.environ.get("BONES_CORE") == "native":
        raise
    bones_native = None

needs_native = pytest.mark.skipif(bones_native is None, reason="native core not installed")


@pytest.fixture
def fresh_core(monkeypatch: pytest.MonkeyPatch):
    """core with its import cache and its one-time note reset."""
    monkeypatch.setattr(core, "_loaded", {})
    monkeypatch.setattr(core, "_warned", False)
    return core


def test_the_crate_reads_this_table_format() -> None:
    """native/src/kernel/table_fields.rs (generated from the declaration)
    names the FORMAT_VERSION of flat.TABLE_FORMAT: change the table's
    description and this fails until the crate follows."""
    source = (ROOT / "native" / "src" / "kernel" / "table_fields.rs").read_text()
    found = re.search(r'TABLE_FORMAT: &str = "([0-9a-f]+)"', source)
    assert found and found.group(1) == FORMAT_VERSION
    assert "settle_domino" in TABLE_FORMAT


def test_flat_table_carries_every_rule_code() -> None:
    rules = compile_rules(load_variant("muggins"), 3)
    table = flatten(rules)
    assert table["format"] == FORMAT_VERSION
    assert table["players"] == 3 and table["owner"] == [0, 1, 2]
    assert table["muggins"] == rules.muggins and table["target"] == rules.target
    assert table["count_points"] == list(rules.count_points)
    assert len(table["settle_domino"]) == len(table["settle_blocked"]) == 11
    assert all(isinstance(v, (int, str, list)) for v in table.values())


def test_python_forced(fresh_core, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BONES_CORE", "python")
    assert fresh_core.native() is None
    assert fresh_core.active_name() == "pure Python"


def test_bad_choice_is_one_line(fresh_core, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BONES_CORE", "rust")
    with pytest.raises(core.CoreError, match="^BONES_CORE must be python or native, not 'rust'$"):
        fresh_core.native()


def test_native_missing(fresh_core, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bones_native", None)  # import fails
    monkeypatch.delenv("BONES_CORE", raising=False)
    assert fresh_core.native() is None  # quietly Python
    monkeypatch.setenv("BONES_CORE", "native")
    with pytest.raises(core.CoreError) as err:
        fresh_core.native()
    message = str(err.value)
    assert "\n" not in message and "pip install ./native" in message


def test_format_mismatch(fresh_core, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    stale = types.ModuleType("bones_native")
    stale.TABLE_FORMAT = "0000000000000000"
    monkeypatch.setitem(sys.modules, "bones_native", stale)
    monkeypatch.delenv("BONES_CORE", raising=False)
    assert fresh_core.native() is None
    assert fresh_core.native() is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1  # said once, in one line
    assert "rebuild it with pip install ./native" in err and "using the Python core" in err
    monkeypatch.setenv("BONES_CORE", "native")
    with pytest.raises(core.CoreError, match="rebuild"):
        fresh_core.native()


@needs_native
def test_native_chosen_when_installed(fresh_core, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BONES_CORE", raising=False)
    assert fresh_core.native() is bones_native
    assert fresh_core.active_name() == "native core"


@needs_native
def test_version_names_the_native_core() -> None:
    env = {**os.environ, "BONES_CORE": "native"}
    out = subprocess.run([sys.executable, "-m", "bones", "--version"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip().endswith("(native core)")
    env["BONES_CORE"] = "python"
    out = subprocess.run([sys.executable, "-m", "bones", "--version"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert "native" not in out.stdout


@needs_native
def test_a_panic_is_a_one_line_error() -> None:
    """PyO3's PanicException derives from BaseException; the binding turns
    a panic into NativeError, an ordinary Exception with one line."""
    with pytest.raises(bones_native.NativeError) as err:
        bones_native._provoke_panic()
    assert isinstance(err.value, Exception)
    assert "\n" not in str(err.value) and "internal error in the native core" in str(err.value)


@needs_native
def test_a_panic_prints_nothing() -> None:
    code = ("import bones_native\n"
            "try:\n    bones_native._provoke_panic()\n"
            "except bones_native.NativeError as e:\n    print('caught')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "caught" and out.stderr == ""


@needs_native
def test_a_stale_table_is_refused() -> None:
    table = flatten(compile_rules(load_variant("sniff"), 2))
    table["format"] = "0" * 16
    with pytest.raises(ValueError, match="rebuild it"):
        bones_native.Rules(table)
    table = flatten(compile_rules(load_variant("sniff"), 2))
    del table["target"]
    with pytest.raises(ValueError, match="no field 'target'"):
        bones_native.Rules(table)


@needs_native
def test_the_stream_matches_the_shared_vectors() -> None:
    """docs/random.md's vectors (tests/data/rng_vectors.json), native side."""
    import json

    data = json.loads((ROOT / "tests" / "data" / "rng_vectors.json").read_text())["vectors"]
    mask = (1 << 64) - 1
    for v in data["next_u64"]:
        r = bones_native.Rng(int(v["seed"]) & mask)
        assert [r.next_u64() for _ in v["out"]] == [int(x) for x in v["out"]]
    for v in data["random"]:
        r = bones_native.Rng(int(v["seed"]) & mask)
        assert [r.random() for _ in v["out"]] == v["out"]
    for v in data["below"]:
        r = bones_native.Rng(int(v["seed"]) & mask)
        assert [r.below(int(v["n"])) for _ in v["out"]] == [int(x) for x in v["out"]]
    for v in data["shuffle"]:
        r = bones_native.Rng(int(v["seed"]) & mask)
        assert r.shuffled(list(range(v["n"]))) == v["out"]
    for v in data["shuffle_tail"]:
        r = bones_native.Rng(int(v["seed"]) & mask)
        assert r.shuffled_tail(list(range(v["n"])), v["k"]) == v["out"]
    for v in data["derive"]:
        path = [int(p) & mask for p in v["path"]]
        assert bones_native.derive(int(v["seed"]) & mask, path) == int(v["out"])


@needs_native
def test_the_stream_matches_python_after_many_draws() -> None:
    from bones.engine.rng import Rng

    py, nat = Rng(12345), bones_native.Rng(12345)
    for n in range(1, 400):
        assert nat.below(n) == py.below(n)
    assert nat.state == py.state
    a = list(range(190))
    py.shuffle(a)
    assert nat.shuffled(list(range(190))) == a
