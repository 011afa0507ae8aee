"""The distribution installs one import package, ``bones``.

The library and the command line are imported only as ``bones``: no
top-level ``engine`` or ``cli`` module exists, and no file is loaded twice
under two names.  The wheel test builds the real wheel, installs it into a
fresh virtual environment and runs it there.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import bones

ROOT = Path(__file__).resolve().parent.parent

#: the wheel and the package do not depend on the core: one pass of the suite
pytestmark = pytest.mark.once


@pytest.mark.parametrize("name", ["engine", "lang", "seat", "bots", "sim", "games", "cli"])
def test_no_generic_top_level_package(name: str) -> None:
    assert importlib.util.find_spec(name) is None, f"'import {name}' must not work"


def test_every_module_is_loaded_once() -> None:
    import bones.cli.app  # noqa: F401
    import bones.sim.simulation  # noqa: F401

    seen: dict[str, str] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not path or not str(Path(path).resolve()).startswith(str(ROOT / "bones")):
            continue
        assert name.startswith("bones"), f"{path} is loaded as {name!r}"
        assert str(Path(path).resolve()) not in seen, (
            f"{path} is loaded twice, as {seen[str(Path(path).resolve())]} and {name}")
        seen[str(Path(path).resolve())] = name


def test_public_names() -> None:
    for name in bones.__all__:
        assert getattr(bones, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        bones.nothing  # noqa: B018 - the failing attribute access is the test


def test_python_dash_m_bones() -> None:
    result = subprocess.run([sys.executable, "-m", "bones", "--help"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "validate" in result.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # CI builds the wheel once and names it in BONES_WHEEL (.ci/run)
    given = os.environ.get("BONES_WHEEL")
    if given:
        assert Path(given).is_file(), f"BONES_WHEEL={given}: no such wheel"
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
                   check=True, timeout=300)
    (built,) = out.glob("bones-*.whl")
    return built


def test_wheel_holds_only_bones(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
        names = set(archive.namelist())
    assert {t for t in tops if not t.endswith(".dist-info")} == {"bones"}
    # every built-in variant ships, the train games among them
    for path in (ROOT / "variants").glob("*.yaml"):
        assert f"bones/variants/{path.name}" in names
    assert {"bones/variants/mexican-train.yaml", "bones/variants/chicken-foot.yaml"} <= names
    assert "bones/schemas/variant.schema.json" in names
    assert "bones/py.typed" in names


def test_wheel_installs_and_runs_in_a_fresh_environment(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=600)
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    probe = ("import importlib.util, bones, sys; "
             "assert importlib.util.find_spec('engine') is None; "
             "assert importlib.util.find_spec('cli') is None; "
             "print(bones.compile_rules(bones.load_variant('sniff'), players=2).players)")
    result = subprocess.run([str(python), "-c", probe], capture_output=True, text=True,
                            cwd=tmp_path, env=clean, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"
    result = subprocess.run([str(python), "-m", "bones", "--help"], capture_output=True,
                            text=True, cwd=tmp_path, env=clean, timeout=120)
    assert result.returncode == 0, result.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    installed = {p.name for p in Path(site).iterdir() if (p / "__init__.py").exists()}
    assert "engine" not in installed and "cli" not in installed
    assert "bones" in installed


def test_no_type_ignore_where_mypy_does_not_look() -> None:
    # an ignore comment in a file mypy never reads is noise that looks like a
    # check; mypy's own warn_unused_ignores keeps those of the library honest
    import tomllib

    checked = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
    marker = "type: " + "ignore"
    found = [f"{path.relative_to(ROOT)}:{n}"
             for folder in ("tests", "bench", "tools") if folder not in checked
             for path in sorted((ROOT / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if marker in line]
    assert found == [], "mypy does not check these files: " + ", ".join(found)
