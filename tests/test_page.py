"""A simulation's report printed without rich is the text rich prints (issue 37).

:mod:`bones.cli.page` prints a report's lines and tables as plain text when
standard output is no terminal and everything fits its width, so that a
short ``bones simulate`` need not import rich.  Each check here prints real
reports both ways, through a rich console and as plain text, at every width
from far too narrow to wide, and wherever the plain page gives a text it
must be rich's own, byte for byte; where it might differ (too narrow, a bot
name rich would read as markup or an emoji, a character of another width)
the plain page must give none, so that rich prints it.
"""

from __future__ import annotations

import copy
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from bones.cli import page as pagemod
from bones.cli.page import PlainPage, RichPage, plain_width
from bones.cli.simrun import Runner, build_config, load_tables, run_one, write_simulation

WIDTHS = range(20, 131)


def _report(variant: str, bots: list[str], games: int, *, hands: bool = True,
            duplicate: bool = False, players: int | None = None) -> dict[str, Any]:
    config = build_config(load_tables([variant], players, False), bots, games, 7, hands, duplicate)
    report, _ = run_one(config, Runner(1, None, games, quiet=True), games, "", True)
    return report


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, Any]]:
    found = {
        "one bot": _report("sniff", ["heuristic"], 1),
        "matches": _report("sniff", ["random,greedy"], 4, hands=False),
        "duplicate": _report("sniff", ["random,greedy"], 12, duplicate=True),
        "three players": _report("muggins", ["random,heuristic,greedy"], 3, players=3),
        "times": _report("sniff", ["search:iterations=3,heuristic"], 2),
    }
    timed = found["times"]["run"]["move_time"]
    assert any(t["choices"]["moves"] for t in timed.values())  # its table is printed
    long = copy.deepcopy(found["matches"])  # names too long for a narrow screen: a legend
    for row, name in zip(long["bots"], ("random-bot-with-a-long-name", "greedy-bot-too")):
        row["bot"] = name
    found["long names"] = long
    unsure = copy.deepcopy(found["one bot"])
    unsure["run"]["reproducible"] = False
    unsure["run"]["not_reproducible_because"] = "time-limited bots: search:seconds=1"
    found["not reproducible"] = unsure
    return found


def _rich(body: dict[str, Any], width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, force_terminal=False,
                      legacy_windows=False, _environ={})
    write_simulation(RichPage(console), body)
    return out.getvalue()


def _plain(body: dict[str, Any], width: int) -> str | None:
    page = PlainPage(width)
    write_simulation(page, body)
    return page.text()


@pytest.mark.parametrize("name", ["one bot", "matches", "duplicate", "three players", "times",
                                  "long names", "not reproducible"])
def test_the_plain_text_is_riches_at_every_width(reports: dict[str, dict[str, Any]],
                                                 name: str) -> None:
    body = reports[name]
    plain = {width: _plain(body, width) for width in WIDTHS}
    for width, text in plain.items():
        if text is not None:
            assert text == _rich(body, width), width
    printed = [width for width, text in plain.items() if text is not None]
    if name == "not reproducible":
        assert not printed or min(printed) > 80  # its long line wraps at 80: rich prints it
    else:
        assert printed == list(range(min(printed), 131))  # narrower than its tables: rich
        assert 20 not in printed and 130 in printed
    if name == "one bot":
        assert 80 in printed  # `bones simulate sniff --hands 1` in a pipe: without rich


@pytest.mark.parametrize("bot", ["[bold]x", "a:smile:b", "caf\u00e9", "wide\u4e00", "back\\slash",
                                 "tab\there"])
def test_text_rich_might_print_otherwise_goes_to_rich(reports: dict[str, dict[str, Any]],
                                                      bot: str) -> None:
    body = copy.deepcopy(reports["matches"])
    body["bots"][0]["bot"] = bot
    assert _plain(body, 130) is None
    body["bots"][0]["bot"] = "plain"
    assert _plain(body, 130) == _rich(body, 130)


class _Stream(io.StringIO):
    def __init__(self, tty: bool, encoding: str = "utf-8") -> None:
        super().__init__()
        self._tty = tty
        self._encoding = encoding

    def isatty(self) -> bool:
        return self._tty

    @property
    def encoding(self) -> str:
        return self._encoding


def test_the_plain_width_is_riches_and_none_where_rich_may_style(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "stdout", _Stream(tty=False))
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: (_ for _ in ()).throw(OSError()))
    assert plain_width() == 80 == Console(file=sys.stdout).width
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((97, 30)))
    assert plain_width() == 97 == Console(file=sys.stdout).width  # a terminal on stdin
    monkeypatch.setenv("COLUMNS", "123")
    assert plain_width() == 123 == Console(file=sys.stdout).width
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert plain_width() is None  # rich styles it
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    assert plain_width() is None
    monkeypatch.delenv("TTY_COMPATIBLE")
    monkeypatch.setattr(sys, "stdout", _Stream(tty=True))
    assert plain_width() is None  # a terminal: colour
    monkeypatch.setattr(sys, "stdout", _Stream(tty=False, encoding="latin-1"))
    assert plain_width() is None  # rich draws ASCII boxes
    monkeypatch.setattr(pagemod.sys, "platform", "win32")
    monkeypatch.setattr(sys, "stdout", _Stream(tty=False))
    assert plain_width() is None


@pytest.mark.once
def test_bones_simulate_prints_the_same_with_and_without_rich(tmp_path: Path) -> None:
    """The command itself: to a pipe without rich, and with ``FORCE_COLOR`` set
    empty (rich then prints no colour, and the page leaves it to rich)."""
    env = dict(os.environ, BONES_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="100")
    env.pop("FORCE_COLOR", None)
    env.pop("TTY_COMPATIBLE", None)
    command = [sys.executable, "-m", "bones", "simulate", "sniff", "--hands", "2", "--seed", "3"]
    plain = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    styled = subprocess.run(command, env=dict(env, FORCE_COLOR=""), capture_output=True,
                            text=True, check=True).stdout
    # the bots' times (wall time, sampled) differ from run to run: the rest may not
    timed = plain.find("time a move")
    assert timed == styled.find("time a move")
    cut = None if timed < 0 else timed
    assert plain[:cut] == styled[:cut]
    assert "┏━" in plain and "sniff, 2 players: 2 hands, seed 3" in plain
