"""Worker processes and outside bots, seen from the outside: a run's workers
die with it whatever kills it, --oversubscribe has a ceiling and Ctrl-C
stops a run at once, a Python bot that ends its process costs the run only
the games after it (said in one line), bots' output never reaches the
report, and a command bot's descendants cannot keep bones' output open."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads processes from /proc (Linux)")


def _bones(*args: str) -> list[str]:
    return [sys.executable, "-m", "bones", *args]


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started (as /proc lists them, every thread's)."""
    found: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                found.update(int(p) for p in
                             Path(f"/proc/{pid}/task/{task}/children").read_text().split())
            except (FileNotFoundError, ProcessLookupError):
                pass
    except FileNotFoundError:
        pass
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _wait_for(what, timeout: float = 60.0, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(step)
    return what()


def _kill(pids: set[int]) -> None:
    """Kill what a failed test may have left running."""
    for pid in pids:
        if _alive(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def _ctrl_c_as_from_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# ------------------------------------------------------- orphaned workers


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_worker_processes_die_with_their_parent_however_it_dies(how: int, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        _bones("simulate", "sniff", "-n", "100000", "--bots", "search:iterations=30",
               "--jobs", "2", "--oversubscribe", "--seed", "1", "--quiet"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    workers: set[int] = set()
    try:
        # ready: both workers have started and are computing
        workers = _wait_for(lambda: (lambda c: c if len(c) >= 2 else None)(
            _children(proc.pid))) or set()
        assert workers and len(workers) >= 2, workers
        proc.send_signal(how)
        proc.wait(timeout=30)
        left = _wait_for(lambda: not any(_alive(p) for p in workers), timeout=20)
        assert left, [p for p in workers if _alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
        _kill(workers)


def test_a_worker_whose_parent_is_gone_before_it_starts_ends_at_once() -> None:
    # the parent died between the fork and the request to die with it
    code = ("from bones.sim.simulation import die_with_parent\n"
            "import os\n"
            "die_with_parent(os.getppid() + 1_000_000)\n"
            "print('still running')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1 and "still running" not in result.stdout


# ----------------------------------------------------- --oversubscribe


def test_an_oversubscribed_run_is_capped_and_stops_within_moments_of_ctrl_c(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        _bones("simulate", "sniff", "-n", "2000", "--bots", "search:iterations=30",
               "--jobs", "100000", "--oversubscribe", "--seed", "1", "--json"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
        preexec_fn=_ctrl_c_as_from_a_terminal)
    cpus = os.cpu_count() or 1
    workers: set[int] = set()
    started: set[int] = set()
    try:
        workers = _wait_for(lambda: (lambda c: c if len(c) >= min(4 * cpus, 2) else None)(
            _children(proc.pid))) or set()
        time.sleep(1.0)  # every worker started: none more will
        started = _children(proc.pid)
        assert len(started) <= 4 * cpus, len(started)
        asked = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - asked
    finally:
        if proc.poll() is None:
            proc.kill()
        _kill(workers | started)
    text = err.decode()
    assert "Traceback" not in text, text
    assert f"--jobs 100000: using {4 * cpus} workers" in text, text
    assert text.count("--jobs 100000") == 1, text
    assert proc.returncode == 1 and json.loads(out)["partial"] is True, text
    assert not any(_alive(p) for p in workers | started)
    # a second here; generous for a loaded machine, far below a batch of search games
    assert took < 10, took


# ------------------------------------------- a Python bot that ends its process


EXITING_BOT = '''
import os

class Exiting:
    """Plays its first legal move, and ends its process at its 40th decision."""
    def __init__(self):
        self.decisions = 0

    def choose(self, obs, rng):
        self.decisions += 1
        if self.decisions == 40:
            os._exit(7)
        return obs.legal_moves()[0]
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_python_bot_that_ends_its_process_leaves_a_partial_report_and_one_line(
        jobs: str, tmp_path: Path) -> None:
    path = tmp_path / "exiting.py"
    path.write_text(EXITING_BOT)
    result = subprocess.run(
        _bones("simulate", "all-fives", "-n", "200", "--bots", f"file:{path}:Exiting",
               "--bots", "greedy", "--jobs", jobs, "--oversubscribe", "--seed", "3", "--json",
               "--quiet"),
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, (result.returncode, result.stderr)
    body = json.loads(result.stdout)
    assert body["partial"] is True and body["games"] < 200
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"bones simulate: partial: stopped after {body['games']} of 200")
    assert "worker process died" in lines[0], lines


# ------------------------------------------------------ bots that print


PRINTING_BOT = '''
import os
print("loading the printing bot")

class Printing:
    def __init__(self):
        print("made a printing bot")

    def choose(self, obs, rng):
        print("thinking about", obs.legal_moves())
        os.write(1, b"written straight to descriptor 1\\n")
        return obs.legal_moves()[0]

    def notify(self, event):
        print("heard", event["type"])
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_what_a_python_bot_prints_never_reaches_the_json_report(jobs: str, tmp_path: Path) -> None:
    path = tmp_path / "printing.py"
    path.write_text(PRINTING_BOT)
    result = subprocess.run(
        _bones("simulate", "all-fives", "-n", "4", "--bots", f"file:{path}:Printing",
               "--bots", "greedy", "--jobs", jobs, "--oversubscribe", "--seed", "3", "--json",
               "--quiet"),
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)  # only the report
    assert body["games"] == 4
    assert "thinking about" in result.stderr and "straight to descriptor 1" in result.stderr


# ------------------------------------- a command bot's lingering descendants


def test_a_command_bots_detached_grandchild_cannot_hold_bones_output_open(tmp_path: Path) -> None:
    # the bot starts a grandchild in a session of its own (beyond the reach of
    # its process group) that lives on; bones' output must still end with bones
    pids = tmp_path / "pids"
    bot = tmp_path / "lingering.py"
    bot.write_text(textwrap.dedent(f"""
        import json, os, subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                                 start_new_session=True)
        open({str(pids)!r}, "a").write(f"{{child.pid}}\\n")
        sys.stderr.write("lingering bot says hello\\n")
        sys.stderr.flush()
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "move":
                print(message["legal"][0], flush=True)
    """))
    started = time.monotonic()
    proc = subprocess.Popen(
        _bones("simulate", "all-fives", "-n", "2", "--bots", f"cmd:{sys.executable} {bot}",
               "--bots", "greedy", "--seed", "1", "--json", "--quiet"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        out, err = proc.communicate(timeout=60)  # EOF on both: nobody else holds them
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
        for line in (pids.read_text().split() if pids.exists() else []):
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(line), signal.SIGKILL)
    assert proc.returncode == 0, err.decode()
    assert json.loads(out)["games"] == 2
    assert "lingering bot says hello" in err.decode()  # its standard error still comes through
    assert took < 60
