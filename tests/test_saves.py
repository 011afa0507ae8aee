"""Saves are never lost and never run code: unique names, the save lock, stale locks, bots.

Some tests start real `bones play` processes side by side, because a lock
that only works inside one process is no lock.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones import bots as bots_module
from bones.bots import BOTS, BotInfo, Param
from bones.cli.app import app
from bones.games.game import GameError, GameSession
from bones.games.record import load_record
from bones.games.saves import SaveInUse, lock_path, read_holder, save_lock
from bones.lang.load import load_variant

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def env_for(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"XDG_DATA_HOME": str(tmp_path / "data"), "NO_COLOR": "1", "COLUMNS": "100",
                "PYTHONPATH": str(ROOT)})
    return env


def start_play(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "bones", "play", *args], cwd=tmp_path,
                            env=env_for(tmp_path), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(predicate, what: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:  # pragma: no cover - a failure
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def read_until(process: subprocess.Popen[str], text: str) -> str:
    """The process's output up to and including ``text`` (a prompt ends without a newline)."""
    assert process.stdout is not None
    seen = ""
    while not seen.endswith(text):
        char = process.stdout.read(1)
        if not char:  # pragma: no cover - a failure
            raise AssertionError(f"the process ended before {text!r}: {seen[-500:]}")
        seen += char
    return seen


# ------------------------------------------------------------ new saves


def test_two_games_started_in_the_same_second_keep_both_saves(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("bones.games.saves.time.strftime", lambda fmt, *a: "20260101-120000")
    variant = load_variant("sniff")
    a = GameSession.new(variant, bots=["greedy"], seed=5)
    b = GameSession.new(variant, bots=["greedy"], seed=5)
    assert a.save_path == b.save_path  # the same name is wanted by both...
    a.play(a.options()[0].move)
    a.save()
    b.play(b.options()[-1].move)
    b.save()
    # ...but the second takes the next free one and the first game survives
    assert a.save_path.name == "sniff-20260101-120000-5.json"
    assert b.save_path.name == "sniff-20260101-120000-5-2.json"
    assert load_record(a.save_path).hands[0].moves[0] == a.current.moves[0]
    assert load_record(b.save_path).hands[0].moves[0] == b.current.moves[0]
    # and later saves of each go to its own file
    a.play(a.options()[0].move)
    assert len(load_record(a.save_path).hands[0].moves) == len(a.current.moves)
    assert load_record(b.save_path).hands[0].moves == b.current.moves


def test_an_explicit_save_file_is_never_replaced(tmp_path) -> None:
    path = tmp_path / "mine.json"
    session = GameSession.new(load_variant("sniff"), bots=["greedy"], seed=5, save_path=path)
    path.write_text("precious\n")  # appears after the command line was checked
    with pytest.raises(GameError, match="already exists"):
        with session.new_save():
            pass  # pragma: no cover
    assert path.read_text() == "precious\n"
    with pytest.raises(GameError, match="already exists"):
        session.save()
    assert path.read_text() == "precious\n"


def test_new_games_side_by_side_in_two_processes(tmp_path) -> None:
    """Two `bones play sniff --seed 5` at once: both games are saved, to two files."""
    first = start_play(["sniff", "--seed", "5", "--bots", "greedy"], tmp_path)
    second = start_play(["sniff", "--seed", "5", "--bots", "greedy"], tmp_path)
    saves = tmp_path / "data" / "bones" / "saves"
    wait_for(lambda: len(list(saves.glob("sniff-*-5*.json"))) == 2, "two saves")
    out1, err1 = first.communicate("1\nq\n", timeout=120)
    out2, err2 = second.communicate("q\n", timeout=120)
    assert first.returncode == 0 and second.returncode == 0, (err1, err2)
    files = sorted(saves.glob("sniff-*-5*.json"))
    assert len(files) == 2
    moves = sorted(len(load_record(f).hands[0].moves) for f in files)
    assert moves[1] > moves[0]  # the one that moved kept its move
    assert not list(saves.glob(".*"))  # no lock or temporary file left behind


# ----------------------------------------------------------------- locks


def test_a_save_in_play_is_locked_against_a_second_session(tmp_path) -> None:
    save = tmp_path / "game.json"
    holder = start_play(["all-fives", "--bots", "greedy", "--seed", "3", "--save", str(save)],
                        tmp_path)
    try:
        read_until(holder, "Your move: ")  # waiting for the human: the save stands still
        assert read_holder(save) is not None
        before = save.read_text()
        second = subprocess.run([sys.executable, "-m", "bones", "play", "--resume", str(save)],
                                cwd=tmp_path, env=env_for(tmp_path), input="1\n1\nq\n",
                                capture_output=True, text=True, timeout=120)
        assert second.returncode == 1
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert f"{save} is in use by process {holder.pid} (" in lines[0]
        assert "play" in lines[0]
        assert save.read_text() == before  # the refused session wrote nothing
        _, err = holder.communicate("1\nq\n", timeout=120)
        assert holder.returncode == 0, err
    finally:
        if holder.poll() is None:  # pragma: no cover - a failure
            holder.kill()
    assert not lock_path(save).exists()
    # once the first session has quit, the game resumes
    again = runner.invoke(app, ["play", "--resume", str(save)], input="q\n",
                          env={"NO_COLOR": "1"})
    assert again.exit_code == 0, again.output


def test_the_lock_is_refused_within_one_process_and_released_after(tmp_path) -> None:
    save = tmp_path / "g.json"
    with save_lock(save, command="bones serve"):
        with pytest.raises(SaveInUse) as caught:
            with save_lock(save):
                pass  # pragma: no cover
        assert caught.value.holder is not None and caught.value.holder.pid == os.getpid()
        assert "(bones serve, since " in str(caught.value)
        assert "\n" not in str(caught.value)
    assert not lock_path(save).exists()
    with save_lock(save):  # free again
        pass


_HOLD = """
import sys, time
from bones.games.saves import save_lock
with save_lock(sys.argv[1], command="bones play (killed)"):
    print("locked", flush=True)
    time.sleep(600)
"""


def test_a_stale_lock_of_a_killed_process_is_taken_over(tmp_path) -> None:
    save = tmp_path / "g.json"
    child = subprocess.Popen([sys.executable, "-c", _HOLD, str(save)], env=env_for(tmp_path),
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "locked"
        with pytest.raises(SaveInUse, match=f"process {child.pid} "):
            with save_lock(save):
                pass  # pragma: no cover
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    # the dead process left its lock file with its details behind
    assert lock_path(save).exists()
    holder = read_holder(save)
    assert holder is not None and holder.pid == child.pid
    with save_lock(save, command="bones play"):
        mine = read_holder(save)
        assert mine is not None and mine.pid == os.getpid() and mine.command == "bones play"
    # a lock file with rubbish in it is no obstacle either
    lock_path(save).write_text("{{{{ not json")
    with save_lock(save):
        pass


# ------------------------------------------------------------ bots from saves


def _spy_bot(log: list[str]) -> BotInfo:
    def factory(model: str = "none") -> object:
        log.append(model)  # a bot that would open a file or start a program here
        return bots_module.make_bot("greedy")

    return BotInfo("spy", "reads a model file", (Param("model", str, "none", "a file"),), factory)


def test_resuming_never_starts_a_bot_the_player_did_not_name(tmp_path, monkeypatch) -> None:
    log: list[str] = []
    monkeypatch.setitem(BOTS, "spy", _spy_bot(log))
    save = tmp_path / "sent.json"
    session = GameSession.new(load_variant("sniff"), bots=["spy:model=/tmp/evil.pkl"], seed=4,
                              save_path=save)
    session.save()
    log.clear()
    before = save.read_text()
    # someone sends you this save: resuming it must not start their bot
    with pytest.raises(GameError, match=r"seat 1 is the bot 'spy:model=/tmp/evil.pkl'.*"
                                        r"resume with --bots spy:model=/tmp/evil.pkl"):
        GameSession.resume(save)
    assert log == []
    r = runner.invoke(app, ["play", "--resume", str(save)], input="q\n", env={"NO_COLOR": "1"})
    assert r.exit_code == 1 and log == []
    assert len(r.output.strip().splitlines()) == 1
    # naming a different bot does not help either
    r = runner.invoke(app, ["play", "--resume", str(save), "--bots", "spy:model=/tmp/other"],
                      input="q\n", env={"NO_COLOR": "1"})
    assert r.exit_code == 1 and log == []
    assert save.read_text() == before
    # the player names it on their own command line: then it may start
    r = runner.invoke(app, ["play", "--resume", str(save), "--bots", "spy:model=/tmp/evil.pkl"],
                      input="q\n", env={"NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    assert log and set(log) == {"/tmp/evil.pkl"}


def test_built_in_bots_resume_without_being_named(tmp_path) -> None:
    save = tmp_path / "b.json"
    session = GameSession.new(load_variant("all-fives"), players=3,
                              bots=["greedy", "search:iterations=5"], seed=4, save_path=save)
    session.save()
    again = GameSession.resume(save)
    assert again.config.seats == ("human", "greedy", "search:iterations=5")
    # an edited save naming an unknown bot is refused before anything runs
    data = json.loads(save.read_text())
    data["meta"]["play"]["seats"][1] = "os.system"
    save.write_text(json.dumps(data))
    with pytest.raises(GameError, match=r"seat 1 names no bot bones knows \('os.system'\)"):
        GameSession.resume(save)
