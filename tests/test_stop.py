"""A long search can be stopped (issue 38): the cooperative stop
(:mod:`bones.bots.stop`) that both cores honour, Ctrl-C in ``bones play``
while a bot thinks (and in-process, as for the ``?`` hint and ``bones
analyse``), a deleted or abandoned game's bot in ``bones serve`` and an
analysis whose client went away.

The long search is the position of issue 38 solved without a limit
(``SearchBot(nodes=0)``, which no bot text can ask for): far longer than any
test waits.  A search stopped raises :class:`Stopped`; one that finished
would not, so every test here fails when the stop is not honoured.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from native_support import bones_native
from test_search_bound import ISSUE_38_RNG, _native, _rules, issue_38_position

from bones.bots.epimc import EpimcBot
from bones.bots.ismcts import IsmctsBot
from bones.bots.search import PimcBot, SearchBot
from bones.bots.stop import Stop, Stopped, ctrl_c_stops, current, native_call, watching
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.seat.observation import Observation, observe

native_only = pytest.mark.skipif(bones_native is None, reason="the native core is not installed")


def _early_position() -> Observation:
    """The first decision of an All Fives hand: nothing can be solved (the
    tree's position)."""
    hand = Match(_rules("all-fives"), seed=4).new_hand()
    while len(hand.legal_moves()) < 2:
        hand.apply(hand.legal_moves()[0])
    return observe(hand, hand.turn)


#: each bot, how it searches the position natively (its native half) and in Python
SEARCHES: dict[str, tuple[Callable[[], Any], str, Callable[[], Observation]]] = {
    "search (worlds)": (lambda: SearchBot(nodes=0), "Searcher", issue_38_position),
    "pimc": (lambda: PimcBot(iterations=20_000), "Searcher", _early_position),
    "ismcts": (lambda: IsmctsBot(iterations=20_000, solve=14, nodes=0), "Ismcts",
               issue_38_position),
    "epimc": (lambda: EpimcBot(nodes=0), "Epimc", issue_38_position),
}


def _run(name: str, core: str, rng: Rng) -> Any:
    make, kind, position = SEARCHES[name]
    bot, obs = make(), position()
    legal = obs.legal_moves()
    if core == "python":
        return bot.python_search(obs, rng, legal)
    return bot.native_search(_native(kind, obs.rules), obs, rng, legal)


@contextmanager
def _set_after(stop: Stop, seconds: float) -> Iterator[None]:
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@pytest.mark.parametrize("core", ["python", pytest.param("native", marks=native_only)])
@pytest.mark.parametrize("name", list(SEARCHES))
def test_a_stop_set_from_another_thread_ends_a_long_search(name: str, core: str) -> None:
    stop = Stop()
    start = time.monotonic()
    with watching(stop), _set_after(stop, 0.3), pytest.raises(Stopped):
        _run(name, core, Rng(ISSUE_38_RNG))
    # the search would run for minutes; it ended within moments of the stop
    assert time.monotonic() - start < 15


@pytest.mark.parametrize("core", ["python", pytest.param("native", marks=native_only)])
@pytest.mark.parametrize("name", list(SEARCHES))
def test_a_stop_already_set_ends_a_search_at_once(name: str, core: str) -> None:
    stop = Stop()
    stop.set()
    with watching(stop), pytest.raises(Stopped):
        _run(name, core, Rng(ISSUE_38_RNG))


def test_the_stop_is_per_thread_and_a_search_unwatched_is_untouched() -> None:
    stop = Stop()
    seen: list[Stop | None] = []
    with watching(stop):
        assert current() is stop
        other = threading.Thread(target=lambda: seen.append(current()))
        other.start()
        other.join()
    assert current() is None and seen == [None]
    # a stop nobody sets changes nothing: the same decision as without one
    obs = _early_position()
    bot = SearchBot(iterations=6, tree=0)
    with watching(Stop()):
        watched = bot.search(obs, Rng(3), obs.legal_moves())
    assert watched == bot.search(obs, Rng(3), obs.legal_moves())


@native_only
def test_ctrl_c_stops_a_native_search_on_the_main_thread() -> None:
    """Where Ctrl-C raises KeyboardInterrupt (the main thread: ``bones
    play``'s bots and ``?`` hint, ``bones analyse``), a native search waits
    for its helper thread in short steps: Ctrl-C stops the search and goes
    on as KeyboardInterrupt, at once."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    obs = issue_38_position()
    bot, searcher, legal = SearchBot(nodes=0), _native("Searcher", obs.rules), obs.legal_moves()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    stop = Stop()
    try:
        timer.start()
        start = time.monotonic()
        # the search as `bones play` makes it: on the main thread, watching a
        # stop (or not: then it makes one of its own)
        with ctrl_c_stops(), watching(stop), pytest.raises(KeyboardInterrupt):
            bot.native_search(searcher, obs, Rng(ISSUE_38_RNG), legal)
        assert time.monotonic() - start < 15
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert stop.is_set()  # Ctrl-C stopped the search: it was told to end


@native_only
def test_a_native_call_runs_on_a_helper_thread_only_where_ctrl_c_stops_it() -> None:
    """Off the main thread, or outside ctrl_c_stops (a simulation, which times
    a bot by its thread's CPU time), the native call runs on the calling
    thread, handed the watched stop's flag; within it, on a helper thread."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("the main thread's case")
    names: list[str] = []

    def call(flag: Any) -> int:
        names.append(threading.current_thread().name)
        return 7 if flag is None else 8

    stop = Stop()
    got: list[int] = []

    def elsewhere() -> None:
        with ctrl_c_stops(), watching(stop):
            got.append(native_call(call))
        got.append(native_call(call))

    worker = threading.Thread(target=elsewhere, name="worker")
    worker.start()
    worker.join()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        got.append(native_call(call))  # the main thread, outside ctrl_c_stops
        with ctrl_c_stops():
            got.append(native_call(call))
    finally:
        signal.signal(signal.SIGINT, previous)
    main = threading.current_thread().name
    assert got == [8, 7, 7, 8] and names == ["worker", "worker", main, "bones-search"]


def _bones() -> list[str]:
    script = Path(sys.executable).parent / "bones"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bones"]


@native_only
def test_ctrl_c_in_bones_play_while_a_bot_thinks(tmp_path: Path) -> None:
    """A bot with five seconds a move: Ctrl-C a second into its first move
    ends the game at once (saved, exit 0), not when the move is made."""
    save = tmp_path / "game.json"
    proc = subprocess.Popen(
        [*_bones(), "play", "all-fives", "--humans", "0", "--bots", "search:seconds=5",
         "--seed", "3", "--save", str(save), "--delay", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "BONES_CORE": "native", "PYTHONFAULTHANDLER": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        head = ""
        while "saving every move" not in head:  # the game has begun: the bot thinks
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            head += line
        time.sleep(1.0)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, (proc.returncode, err[-2000:])
    assert "interrupted: the game is saved" in out and "Seat 0 plays" not in out
    # the move would have taken four more seconds
    assert waited < 3.0, waited
    assert save.exists()
