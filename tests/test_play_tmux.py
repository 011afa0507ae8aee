"""`bones play` in a real terminal: tmux runs it, types into it and reads the screen.

Skipped only where tmux is not installed.  The tmux server runs on a private
socket, so the test never touches anyone's own tmux sessions.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bones.games.record import load_record, replay

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parent.parent


class Terminal:
    """One tmux window of a fixed size running a command."""

    def __init__(self, socket: str, name: str) -> None:
        self.socket = socket
        self.name = name

    def tmux(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                             text=True, timeout=20)
        return out.stdout

    def start(self, command: str, env: dict[str, str], width: int = 100, height: int = 48) -> None:
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # keep the pane open after the command so its last screen and status can be read
        script = f"cd {shlex.quote(str(ROOT))} && env {exports} {command}; echo EXITED $?; sleep 60"
        subprocess.run(["tmux", "-L", self.socket, "new-session", "-d", "-s", self.name,
                        "-x", str(width), "-y", str(height), script], check=True, timeout=20)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def wait_for(self, test: Callable[[str], bool] | str, timeout: float = 30.0) -> str:
        check = (lambda s: test in s) if isinstance(test, str) else test
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {test!r}; the screen was:\n{screen}")


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    # a fresh server per test: a server still shutting down refuses new sessions
    socket = f"bones-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    term = Terminal(socket, "play")
    try:
        yield term
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=20)
        # tmux leaves the socket file of a killed server behind
        base = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (base / socket).unlink(missing_ok=True)


def _held(screen: str) -> int:
    """How many tiles the "You hold" line shows (-1 when there is none)."""
    match = re.search(r"^  You hold: (.*)$", screen, re.M)
    return match.group(1).count("[") if match else -1


def _after_our_move(term: Terminal, held: int) -> str:
    """The redrawn table once our move and the bots' replies are made (and saved)."""
    return term.wait_for(lambda s: "Your move:" in s and _held(s) not in (-1, held))


def _command(*args: str) -> str:
    return " ".join(shlex.quote(a) for a in (sys.executable, "-m", "bones", "play", *args))


def test_play_draws_the_table_in_a_terminal(terminal: Terminal, tmp_path: Path) -> None:
    save = tmp_path / "tty.json"
    env = {"XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    terminal.start(_command("all-fives", "--bots", "greedy", "--seed", "4", "--save", str(save),
                            "--delay", "0"), env)
    screen = terminal.wait_for("Your move:")
    lines = screen.splitlines()
    # the table: title with the seed and target, scores, tile counts, the layout, the ends
    assert any(re.search(r"─ all-fives · hand 1 · seed 4 · target 250 ─", line) for line in lines)
    assert any(line.startswith("  scores: You 0 · Seat 1 ") for line in lines)
    assert any(re.match(r"  tiles: .*You \d+ · .*Seat 1 \(greedy\) \d+ · boneyard \d+", line)
               for line in lines)
    assert any(line.startswith("  open ends: ") and "count: " in line for line in lines)
    assert any(re.match(r"  You hold: (\[\d\|\d\] )+\(\d+ pips\)", line) for line in lines)
    assert "your moves:" in screen and re.search(r"^\s+1\. \S+", screen, re.M)
    # the first table is drawn under the start-up lines, which name the seed and the save
    assert "new game, 2 players, seed 4" in screen and f"saving every move to {save}" in screen

    # the bot leads or we do; either way, after our move the layout has an arm label
    terminal.keys("1", "Enter")
    screen = _after_our_move(terminal, _held(screen))
    assert re.search(r"^  W:\d .*\[\d\|\d\].* E:\d$", screen, re.M)
    # every later table is drawn on a cleared screen
    assert "saving every move to" not in screen and screen.count("your moves:") == 1
    assert re.search(r"^    Seat 1 (draws \d+, then )?plays \S+: count \d+", screen, re.M)

    terminal.keys("q", "Enter")
    screen = terminal.wait_for("EXITED")
    assert "resume it with: bones play --resume" in screen
    assert "EXITED 0" in screen
    record = load_record(save)
    assert record.hands[0].moves and replay(record).finished is False


def test_ctrl_c_saves_and_resume_goes_on(terminal: Terminal, tmp_path: Path) -> None:
    save = tmp_path / "int.json"
    env = {"XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    terminal.start(_command("sniff", "--bots", "random", "--seed", "8", "--save", str(save),
                            "--delay", "0"), env)
    screen = terminal.wait_for("Your move:")
    terminal.keys("1", "Enter")
    _after_our_move(terminal, _held(screen))
    moves_before = load_record(save).hands[0].moves
    terminal.keys("C-c")
    screen = terminal.wait_for("EXITED")
    assert "interrupted: the game is saved in" in screen and "EXITED 0" in screen
    assert load_record(save).hands[0].moves == moves_before

    terminal.name = "resumed"  # a second window on the same server (the first one idles)
    terminal.start(_command("--resume", str(save), "--delay", "0"), env)
    screen = terminal.wait_for("Your move:")
    assert "─ sniff · hand 1 · seed 8 ·" in screen
    terminal.keys("q", "Enter")
    screen = terminal.wait_for("EXITED")
    assert "EXITED 0" in screen


def test_hot_seat_hides_each_hand(terminal: Terminal, tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    env = {"XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    terminal.start(_command("all-fives", "--humans", "2", "--seed", "6", "--save", str(save)), env)
    terminal.wait_for("Pass the keyboard to seat 0")
    terminal.keys("Enter")
    screen = terminal.wait_for("Seat 0, your move:")
    assert "Seat 0 holds:" in screen and "Seat 1 holds:" not in screen
    terminal.keys("1", "Enter")
    screen = terminal.wait_for("Pass the keyboard to seat 1")
    # seat 0's tiles are gone from the screen before seat 1 sits down
    assert "holds:" not in screen and "[" not in screen
    # ...and from the scrollback: seat 1 cannot scroll up to them
    history = terminal.tmux("capture-pane", "-p", "-S", "-", "-t", terminal.name)
    assert "Seat 0 holds:" not in history
    terminal.keys("Enter")
    screen = terminal.wait_for("Seat 1, your move:")
    assert "Seat 1 holds:" in screen and "Seat 0 holds:" not in screen
    assert re.search(r"^    Seat 0 plays \S+: count \d+", screen, re.M)  # what seat 0 did
    terminal.keys("q", "Enter")
    assert "EXITED 0" in terminal.wait_for("EXITED")


def test_the_scores_stay_on_an_80_by_24_screen(terminal: Terminal, tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    terminal.start(_command("all-fives", "--bots", "greedy", "--seed", "12", "--delay", "0"),
                   env, width=80, height=24)
    screen = terminal.wait_for("Your move:")
    tables = 0
    while "Your move:" in screen and tables < 10:
        lines = screen.splitlines()
        assert any(line.startswith("  scores: ") for line in lines), screen
        assert any("  open ends: " in line and "count: " in line for line in lines), screen
        assert any(re.match(r"\s+1\. ", line) for line in lines), screen
        tables += 1
        before = screen
        terminal.keys("1", "Enter")
        screen = terminal.wait_for(
            lambda s, before=before: (s != before and s.rstrip().endswith("Your move:"))
            or "Press Enter" in s or "game over" in s)
    assert tables >= 3
    terminal.keys("q", "Enter")
    assert "EXITED 0" in terminal.wait_for("EXITED")


def test_r_pages_the_rules_and_draws_the_board_again(terminal: Terminal, tmp_path: Path) -> None:
    """At an 80 x 24 terminal `r` shows the rules through the pager (wrapped at
    words, not 90 lines pushing the board away); leaving the pager brings the
    board back."""
    env = {"XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "PYTHONPATH": str(ROOT),
           "PAGER": "less"}
    terminal.start(_command("all-fives", "--bots", "greedy", "--seed", "4", "--delay", "0"),
                   env, width=80, height=24)
    terminal.wait_for("Your move:")
    terminal.keys("r", "Enter")
    paged = terminal.wait_for("All Fives as pagat gives it")
    assert "Your move:" not in paged  # the pager has the screen
    words = set("All Fives as pagat gives it: the first double is the spinner".split())
    assert words <= set(paged.split())  # the opening sentence, its words whole
    terminal.keys("q")
    screen = terminal.wait_for(lambda s: s.rstrip().endswith("Your move:") and "  scores: " in s)
    assert any(line.startswith("  open ends: ") for line in screen.splitlines())
    terminal.keys("q", "Enter")
    assert "EXITED 0" in terminal.wait_for("EXITED")
