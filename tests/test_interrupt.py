"""Ctrl-C on `bones simulate`, whenever it comes: no traceback, ever.

While the command line loads, the process ends as an interrupted command
(exit 130, nothing printed: bones.cli.entry); once the run has started, the
finished batches are reported as a partial run (exit 1), on threads (the
native core) or worker processes (the Python path) alike.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest


def _ctrl_c_as_from_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _ctrl_c_held_until_bones_takes_it() -> None:
    # as from a terminal (a suite run in the background, where the shell
    # ignores Ctrl-C for its jobs, would otherwise pass that on), and held
    # back: a Ctrl-C sent before bones' entry point has taken it waits for it
    # (bones.cli.entry lets it through), so the test needs no guess of how
    # long Python takes to start on a loaded machine
    _ctrl_c_as_from_a_terminal()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _bones() -> list[str]:
    script = Path(sys.executable).parent / "bones"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bones"]


def _finish(proc: subprocess.Popen[bytes]) -> tuple[bytes, str]:
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # hung: every thread's stack, then fail
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=30)
        pytest.fail("bones hung after Ctrl-C:\n" + err.decode()[-6000:])
    return out, err.decode()


@pytest.mark.parametrize("command", [
    ["list"], ["validate", "sniff"], ["show", "sniff"],
    ["simulate", "sniff", "--hands", "1000", "--json"],
    ["serve", "--port", "0", "--saves", "SAVES"],
])
def test_a_ctrl_c_before_bones_has_started_ends_it_quietly(command: list[str],
                                                          tmp_path: Path) -> None:
    # the Ctrl-C is pending from the first instruction: bones acts on it as
    # soon as its entry point runs, with nothing printed and status 130
    args = [str(tmp_path / "saves") if a == "SAVES" else a for a in command]
    proc = subprocess.Popen([*_bones(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=tmp_path, preexec_fn=_ctrl_c_held_until_bones_takes_it)
    proc.send_signal(signal.SIGINT)
    out, err = _finish(proc)
    assert (proc.returncode, out, err) == (130, b"", ""), (proc.returncode, out, err)


@pytest.mark.parametrize("delay", [0.0, 0.25, 0.5, 2.0])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_never_prints_a_traceback(delay: float, jobs: str, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*_bones(), "simulate", "sniff", "--hands", "50000000", "--bots", "random",
         "--jobs", jobs, "--seed", "4", "--json", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
        preexec_fn=_ctrl_c_held_until_bones_takes_it)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, text = _finish(proc)
    assert "Traceback" not in text and "Exception" not in text, text
    if proc.returncode == 130:  # stopped while loading: nothing to report
        assert out == b"" and text == "", text
        return
    assert proc.returncode == 1, (proc.returncode, text)
    body = json.loads(out)
    assert body["partial"] is True and 0 <= body["games"] < 50_000_000
    assert f"partial: stopped after {body['games']} of 50000000 games" in text, text


@pytest.mark.parametrize("bots,jobs", [("random", "1"), ("random", "2"),
                                       ("search:iterations=5:tree=1", "2")])
def test_ctrl_c_once_games_are_done_reports_them(bots: str, jobs: str, tmp_path: Path) -> None:
    # ready: the progress bar (on a terminal) counts finished games; then a
    # Ctrl-C is always a partial report, on threads and worker processes alike
    import pty
    import re
    import select

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [*_bones(), "simulate", "sniff", "--hands", "50000000", "--bots", bots, "--jobs", jobs,
         "--oversubscribe", "--seed", "4", "--json"],
        stdout=subprocess.PIPE, stderr=follower, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "100"}, preexec_fn=_ctrl_c_held_until_bones_takes_it)
    os.close(follower)
    seen = b""
    done = re.compile(rb"[1-9][0-9]*/50000000")
    deadline = time.monotonic() + 120
    try:
        while not done.search(seen) and time.monotonic() < deadline:
            if select.select([leader], [], [], 1.0)[0]:
                try:
                    seen += os.read(leader, 65536)
                except OSError:
                    break
        assert done.search(seen), seen[-2000:]
        proc.send_signal(signal.SIGINT)
        out = proc.communicate(timeout=60)[0]
        while select.select([leader], [], [], 0.2)[0]:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    text = seen.decode(errors="replace")
    assert "Traceback" not in text, text
    assert proc.returncode == 1, (proc.returncode, text[-2000:])
    body = json.loads(out)
    assert body["partial"] is True and body["games"] > 0
    assert f"partial: stopped after {body['games']} of 50000000 games" in text


def test_a_ctrl_c_held_over_a_block_is_raised_after_it() -> None:
    from bones.sim.simulation import sigint_held

    reached = False
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # even if ignored here
    try:
        with pytest.raises(KeyboardInterrupt):
            with sigint_held():
                # to this thread (other tests' threads may take a signal
                # sent to the process): pending while held, not raised here
                signal.pthread_kill(threading.get_ident(), signal.SIGINT)
                time.sleep(0.05)
                reached = True
    finally:
        signal.signal(signal.SIGINT, before)
    assert reached


def test_a_ctrl_c_while_typer_builds_the_commands_ends_quietly(monkeypatch, capsys) -> None:
    # under load the signal can land after the imports, while Typer reads the
    # commands' signatures: still exit 130 with nothing printed
    import typer.main

    from bones.cli import entry

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(typer.main, "get_command", interrupted)
    monkeypatch.setattr(sys, "argv", ["bones", "list"])
    before = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as stop:
            entry.main()
    finally:
        signal.signal(signal.SIGINT, before)
    assert stop.value.code == entry.EXIT_INTERRUPTED
    assert capsys.readouterr() == ("", "")


def test_the_entry_point_leaves_an_ignored_ctrl_c_ignored() -> None:
    # a shell's background job ignores Ctrl-C; bones does not take it back
    from bones.cli import entry, shared

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert entry.take_ctrl_c() is False
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        with shared.ctrl_c_raises():
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_command_that_keeps_its_work_takes_ctrl_c_as_keyboard_interrupt() -> None:
    from bones.cli import entry, shared

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert entry.take_ctrl_c() is True
        assert signal.getsignal(signal.SIGINT) is entry._interrupted
        with shared.ctrl_c_raises():
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGINT) is entry._interrupted
    finally:
        signal.signal(signal.SIGINT, before)
