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


def _bones() -> list[str]:
    script = Path(sys.executable).parent / "bones"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bones"]


@pytest.mark.parametrize("delay", [0.25, 0.5, 2.0])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_never_prints_a_traceback(delay: float, jobs: str, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*_bones(), "simulate", "sniff", "--hands", "50000000", "--bots", "random",
         "--jobs", jobs, "--seed", "4", "--json", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
        # as from a terminal: a suite run in the background (where the shell
        # ignores Ctrl-C for its jobs) would otherwise pass that on
        preexec_fn=_ctrl_c_as_from_a_terminal)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # hung: every thread's stack, then fail
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=30)
        pytest.fail("bones simulate hung after Ctrl-C:\n" + err.decode()[-6000:])
    text = err.decode()
    assert "Traceback" not in text and "Exception" not in text, text
    if proc.returncode == 130:  # stopped while loading: nothing to report
        assert out == b"" and text == "", text
        return
    assert proc.returncode == 1, (proc.returncode, text)
    body = json.loads(out)
    assert body["partial"] is True and 0 <= body["games"] < 50_000_000
    assert f"partial: stopped after {body['games']} of 50000000 games" in text, text


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
    with pytest.raises(SystemExit) as stop:
        entry.main()
    assert stop.value.code == entry.EXIT_INTERRUPTED
    assert capsys.readouterr() == ("", "")
