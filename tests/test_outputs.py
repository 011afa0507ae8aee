"""Every file a command writes follows one rule (bones.games.outfile, issue 24):
a regular file is replaced atomically, a symbolic link is followed (it stays a
link), a FIFO or a device is written through (never replaced), ``-`` is
standard output, a directory is refused; a save never creates a folder but the
default one (0700), and a full disk while locking a save is one line."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.games.outfile import OutputError, create_output, write_output

runner = CliRunner()
ROOT = Path(__file__).resolve().parent
GOOD_SAVE = ROOT / "corpus" / "records" / "good-unfinished.json"


def run(args: list[str], tmp_path: Path, answers: str = "q\n"):
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": "100"}
    result = runner.invoke(app, args, input=answers, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output
    return result


def errors(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


SIM = ["simulate", "sniff", "-n", "2", "--seed", "1", "-q", "--json", "--bots", "random"]


# ---------------------------------------------------------------- --out


def test_out_through_a_symlink_writes_its_target_and_the_link_stays(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old\n")
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    result = run([*SIM, "--out", str(link)], tmp_path)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == "report.json"
    assert json.loads(target.read_text())["games"] == 2


def test_out_through_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    assert run([*SIM, "--out", str(link)], tmp_path).exit_code == 0
    assert link.is_symlink() and json.loads((tmp_path / "made.json").read_text())["games"] == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_out_to_a_fifo_writes_through_it_and_leaves_it_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run([*SIM, "--out", str(fifo)], tmp_path)
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(got[0])["games"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_out_to_a_character_device_writes_through(tmp_path: Path) -> None:
    # the write itself is the library's, so /dev/null is never at risk here: a
    # character device is opened for writing, never renamed over
    before = os.stat("/dev/null")
    write_output("/dev/null", "nothing\n")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_out_dash_is_standard_output(tmp_path: Path) -> None:
    result = run([*SIM, "--out", "-"], tmp_path)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["games"] == 2
    assert not (tmp_path / "-").exists()


def test_out_naming_a_directory_is_refused_before_the_run(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    result = run([*SIM, "--out", str(folder)], tmp_path)
    assert result.exit_code == 1
    assert errors(result) == [f"bones simulate: cannot write {folder}: it is a directory"]
    assert folder.is_dir() and not list(folder.iterdir())


def test_out_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    result = run([*SIM, "--out", str(tmp_path / "nowhere" / "r.json")], tmp_path)
    assert result.exit_code == 1
    assert errors(result) == [f"bones simulate: cannot write {tmp_path / 'nowhere' / 'r.json'}: "
                              f"no such folder {tmp_path / 'nowhere'}"]
    assert not (tmp_path / "nowhere").exists()


def test_a_replaced_file_keeps_its_permissions_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    out.write_text("old")
    out.chmod(0o640)
    assert run([*SIM, "--out", str(out)], tmp_path).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name != "data"] == ["r.json"]


def test_schema_out_follows_a_symlinked_schema_file(tmp_path: Path) -> None:
    folder = tmp_path / "schemas"
    folder.mkdir()
    (tmp_path / "real.json").write_text("{}")
    (folder / "variant.schema.json").symlink_to(tmp_path / "real.json")
    result = run(["schema", "--out", str(folder)], tmp_path)
    assert result.exit_code == 0, result.output
    assert (folder / "variant.schema.json").is_symlink()
    assert "bones variant file" in (tmp_path / "real.json").read_text()


def test_the_library_refuses_a_directory_and_never_replaces_with_create(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        write_output(tmp_path, "x")
    link = tmp_path / "link"
    link.symlink_to("absent")
    assert create_output(link, "x") is False  # a new file never replaces a name, a link included
    assert link.is_symlink() and not (tmp_path / "absent").exists()


# ---------------------------------------------------------------- saves


def test_a_save_resumed_through_a_symlink_stays_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "games" / "real.json"
    real.parent.mkdir()
    shutil.copy(GOOD_SAVE, real)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    before = real.read_text()
    result = run(["play", "--resume", str(link)], tmp_path, answers="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert real.read_text() != before  # the moves went to the file the link names
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games", "link.json"]
    assert [p.name for p in real.parent.iterdir()] == ["real.json"]  # no lock left


def test_play_save_into_a_missing_folder_is_refused_and_nothing_is_made(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "game.json"
    result = run(["play", "sniff", "--bots", "random", "--save", str(target)], tmp_path)
    assert result.exit_code == 2
    assert errors(result) == [f"bones play: --save {target}: no such folder {target.parent}"]
    assert not (tmp_path / "no").exists()


def test_play_creates_its_default_save_folder_owner_only(tmp_path: Path) -> None:
    result = run(["play", "sniff", "--bots", "random", "--seed", "3"], tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "data" / "bones" / "saves"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (save,) = folder.glob("*.json")
    assert stat.S_IMODE(save.stat().st_mode) == 0o600


def test_a_full_disk_while_locking_a_save_is_one_line_and_keeps_the_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    shutil.copy(GOOD_SAVE, save)
    before = save.read_bytes()
    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        if data.startswith(b'{"pid"'):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    result = run(["play", "--resume", str(save)], tmp_path, answers="1\nq\n")
    monkeypatch.undo()
    assert result.exit_code == 1
    assert errors(result) == [f"bones play: cannot lock {save}: No space left on device"]
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
