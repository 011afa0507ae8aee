"""What variant and scenario files may read, and how bones reads a file at all.

The policy (docs/language.md, "Which files a variant may read"):

- ``extends:`` (and a scenario's ``variant:``) names a built-in variant, or a
  ``.yaml``/``.yml`` regular file found by a relative path inside the folder
  of the file that names it; anything else needs ``--allow-dir DIR`` (or the
  ``allow_dirs`` argument, or ``BONES_ALLOW_DIRS``);
- text with no folder (standard input, an upload) names only built-ins, and
  files inside an allowed folder when files are allowed at all;
- every file is checked to be a regular file before it is read, and is capped
  at 1 MiB: a FIFO or a device never hangs and never reads without end;
- no message quotes content from a file that did not parse as a mapping.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.games.scenario import load_scenario_text, run_scenario
from bones.lang.load import VariantError, load_variant, load_variant_text

SECRET = "hunter2-do-not-print"
OUTSIDE = "outside the folder of the file that names it"


@pytest.fixture()
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/secret.txt and tmp/other/base.yaml outside tmp/house/, where the user works."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BONES_ALLOW_DIRS", raising=False)
    (tmp_path / "secret.txt").write_text(f"{SECRET}\nline two {SECRET}\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "base.yaml").write_text("name: base\nextends: sniff\n")
    (tmp_path / "house").mkdir()
    return tmp_path


def problems(ref: str | Path, **kwargs: object) -> list[str]:
    with pytest.raises(VariantError) as info:
        load_variant(ref, **kwargs)
    return [p.format() for p in info.value.problems]


def child(tree: Path, parent: str) -> Path:
    path = tree / "house" / "house.yaml"
    path.write_text(f"name: house\nextends: {parent}\n")
    return path


# ------------------------------------------------------------ extends: paths


@pytest.mark.parametrize("parent", ["/etc/passwd", "/etc/shadow", "../../../../etc/passwd", "../secret.txt"])
def test_extends_cannot_leave_the_folder(tree: Path, parent: str) -> None:
    (line,) = problems(child(tree, parent))
    assert line == (
        f"house/house.yaml:2:10: extends: {parent!r} is {OUTSIDE} (name a built-in variant, or a "
        ".yaml file inside that folder; --allow-dir DIR allows another folder)"
    )
    assert SECRET not in line and "root:" not in line


def test_extends_a_yaml_file_outside_needs_allow_dir(tree: Path) -> None:
    path = child(tree, "../other/base.yaml")
    (line,) = problems(path)
    assert OUTSIDE in line
    assert load_variant(path, allow_dirs=[tree / "other"]).name == "house"


def test_allow_dirs_from_the_environment(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = child(tree, "../other/base.yaml")
    monkeypatch.setenv("BONES_ALLOW_DIRS", str(tree / "other"))
    assert load_variant(path).name == "house"


def test_a_symlink_inside_the_folder_to_a_file_outside_is_refused(tree: Path) -> None:
    os.symlink(tree / "other" / "base.yaml", tree / "house" / "link.yaml")
    (line,) = problems(child(tree, "link.yaml"))
    assert OUTSIDE in line


def test_a_file_in_a_subfolder_is_fine(tree: Path) -> None:
    (tree / "house" / "parts").mkdir()
    (tree / "house" / "parts" / "base.yaml").write_text("name: base\nextends: sniff\n")
    assert load_variant(child(tree, "parts/base.yaml")).name == "house"


def test_a_parent_that_is_not_a_yaml_file(tree: Path) -> None:
    (tree / "house" / "notes.txt").write_text(f"{SECRET}\n")
    (line,) = problems(child(tree, "house/../notes.txt"))
    assert line == (
        "house/house.yaml:2:10: extends: 'house/../notes.txt' is not a variant file "
        "(a parent file's name ends in .yaml or .yml)"
    )


def test_extends_names_a_directory(tree: Path) -> None:
    (tree / "house" / "parts.yaml").mkdir()
    assert problems(child(tree, "parts.yaml")) == [
        "house/house.yaml:2:10: extends: 'parts.yaml' is a directory, not a variant file"
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_extends_names_a_fifo_without_hanging(tree: Path) -> None:
    os.mkfifo(tree / "house" / "pipe.yaml")
    got: list[list[str]] = []
    worker = threading.Thread(target=lambda: got.append(problems(child(tree, "pipe.yaml"))), daemon=True)
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "reading a FIFO named by extends hung"
    assert got == [[
        "house/house.yaml:2:10: extends: 'pipe.yaml' is a named pipe (FIFO), not a variant file "
        "(only regular files are read)"
    ]]


def test_a_builtin_may_still_be_named(tree: Path) -> None:
    assert load_variant(child(tree, "all-fives")).name == "house"


# ---------------------------------------------------------- text, no folder


def test_uploaded_text_names_only_builtins(tree: Path) -> None:
    assert load_variant_text("name: up\nextends: sniff\n", file="up.yaml").name == "up"
    with pytest.raises(VariantError) as info:
        load_variant_text("name: up\nextends: other/base.yaml\n", file="up.yaml")
    assert [p.format() for p in info.value.problems] == [
        "up.yaml:2:10: extends: 'other/base.yaml': here extends may name only a built-in variant "
        "(bones list shows them)"
    ]
    # even an explicit folder does not let upload text read files unless files are allowed
    with pytest.raises(VariantError):
        load_variant_text("name: up\nextends: other/base.yaml\n", file="up.yaml", allow_dirs=[tree / "other"])
    ok = load_variant_text("name: up\nextends: other/base.yaml\n", allow_files=True, allow_dirs=[tree / "other"])
    assert ok.name == "up"


def test_uploaded_text_problems_are_located() -> None:
    with pytest.raises(VariantError) as info:
        load_variant_text("name: up\nextends: sniff\ndeal: {hand_sise: 5}\n", file="up.yaml")
    assert [p.to_dict() for p in info.value.problems] == [{
        "file": "up.yaml", "line": 3, "col": 8, "path": "deal.hand_sise",
        "message": "unknown key 'hand_sise'; did you mean 'hand_size'?",
    }]


# ------------------------------------------------ reading files: validate


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("command", ["validate", "check"])
@pytest.mark.parametrize("path", ["pipe.yaml", "/dev/zero"])
def test_a_fifo_or_a_device_never_hangs(tmp_path: Path, command: str, path: str) -> None:
    """Something that exists but is not a regular file is a problem (exit 1), said at once."""
    os.mkfifo(tmp_path / "pipe.yaml")
    proc = subprocess.run(
        [sys.executable, "-m", "bones", command, path],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    what = "variant" if command == "validate" else "scenario"
    kind = "a named pipe (FIFO)" if path == "pipe.yaml" else "a character device"
    assert (proc.returncode, proc.stderr) == (1, "")
    assert proc.stdout == f"{path}:1:1: is {kind}, not a {what} file (only regular files are read)\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_the_loader_refuses_a_fifo_or_a_device_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkfifo("pipe.yaml")
    assert problems("pipe.yaml") == [
        "pipe.yaml:1:1: is a named pipe (FIFO), not a variant file (only regular files are read)"
    ]
    assert problems("/dev/zero") == [
        "/dev/zero:1:1: is a character device, not a variant file (only regular files are read)"
    ]
    for path in ("pipe.yaml", "/dev/zero"):
        result = run_scenario(path)
        assert [p.format() for p in result.problems] == [
            f"{path}:1:1: is {'a named pipe (FIFO)' if path == 'pipe.yaml' else 'a character device'}, "
            "not a scenario file (only regular files are read)"
        ]


def test_a_file_that_is_not_a_mapping_is_never_quoted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("notes.yaml").write_text(f"{SECRET} and more words\n")
    Path("list.yaml").write_text(f"- {SECRET}\n- two\n")
    Path("scen.yaml").write_text(f"{SECRET}: [\n")
    result = CliRunner().invoke(app, ["validate", "notes.yaml", "list.yaml"])
    assert result.exit_code == 1
    assert SECRET not in result.output
    assert result.output.splitlines() == [
        "notes.yaml:1:1: the file must be a mapping of keys (like name: my-variant), not a single value",
        "list.yaml:1:1: the file must be a mapping of keys (like name: my-variant), not a list",
    ]
    result = CliRunner().invoke(app, ["check", "notes.yaml", "list.yaml", "scen.yaml"])
    assert result.exit_code == 1
    assert SECRET not in result.output


def test_a_scenario_variant_cannot_read_outside(tree: Path) -> None:
    scen = tree / "house" / "case.yaml"
    scen.write_text("variant: ../secret.txt\nsource: t\nsteps: [{play: 5-5}]\n")
    result = run_scenario(scen)
    assert result.status == "error"
    (problem,) = result.problems
    assert problem.format().startswith("house/case.yaml:1:10: variant: '../secret.txt' is " + OUTSIDE)
    assert SECRET not in problem.format()


# -------------------------------------------------- standard input ("-")


def test_validate_reads_standard_input(tree: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["validate", "-"], input="name: mine\nextends: sniff\n")
    assert (result.exit_code, result.output) == (0, "<stdin>: ok\n")
    result = runner.invoke(app, ["validate", "-"], input="name: mine\nextends: sniff\ndeal: {hand_size: x}\n")
    assert result.exit_code == 1
    assert result.output.startswith("<stdin>:3:19: deal.hand_size: not a whole number")
    result = runner.invoke(app, ["validate", "-"], input="name: mine\nextends: other/base.yaml\n")
    assert result.exit_code == 1
    assert result.output == (
        "<stdin>:2:10: extends: 'other/base.yaml' is not a built-in variant, and text read without a "
        "folder may name only files inside a folder given with --allow-dir\n"
    )
    result = runner.invoke(app, ["validate", "--allow-dir", "other", "-"], input="name: mine\nextends: other/base.yaml\n")
    assert (result.exit_code, result.output) == (0, "<stdin>: ok\n")


def test_standard_input_is_read_once(tree: Path) -> None:
    for command in ("validate", "check"):
        result = CliRunner().invoke(app, [command, "-", "-"], input="")
        assert result.exit_code == 2
        assert "standard input (-) can be read only once" in result.output


def test_check_reads_standard_input(tree: Path) -> None:
    text = "variant: all-fives\nsource: t\nsteps:\n  - {play: 5-5, expect: {count: 10, points: 10}}\n"
    result = CliRunner().invoke(app, ["check", "-"], input=text)
    assert (result.exit_code, result.output) == (0, "<stdin>: ok\n")
    loaded = load_scenario_text(text, file="<stdin>")
    assert loaded.file == "<stdin>"


def test_standard_input_is_capped(tree: Path) -> None:
    result = CliRunner().invoke(app, ["validate", "-"], input="#" * (1024 * 1024 + 10))
    assert result.exit_code == 1
    assert result.output == (
        "<stdin>:1:1: the input is too large (more than 1048576 bytes; a variant file is limited to 1 MiB)\n"
    )


# --------------------------------------------------------- unknown names


def test_unknown_variant_message_is_short() -> None:
    proc = subprocess.run([sys.executable, "-m", "bones", "validate", "snif"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2  # a name that names nothing is a usage error
    assert proc.stderr == "bones validate: snif: unknown variant 'snif'; did you mean 'sniff'? (bones list shows them)\n"
