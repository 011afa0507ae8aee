"""The tail of the move times (issue 38): ``run.move_time`` gives each bot's
99th percentile and longest move beside the median and the 90th percentile,
from the same histograms in both cores, in ``--json`` and in the text
summary."""

from __future__ import annotations

import json
import math
import time

import pytest
from typer.testing import CliRunner

from bones.bots import make_bot
from bones.cli.app import app
from bones.sim.simulation import TIME_BINS, move_clock, time_stats

runner = CliRunner()


def _bin(ms: float) -> int:
    return round(TIME_BINS * math.log(ms * 1000))


def _ms(b: int) -> float:
    return math.exp(b / TIME_BINS) / 1000


def test_the_tail_of_a_histogram() -> None:
    """98 quick moves, one slow and one very slow: the median and the 90th
    percentile are the quick ones', the 99th the slow one's, the largest the
    very slow one's (each its bin's time)."""
    quick, slow, stuck = _bin(2.0), _bin(150.0), _bin(4000.0)
    got = time_stats({quick: 98, slow: 1, stuck: 1})
    assert got["moves"] == 100
    assert got["median_ms"] == got["p90_ms"] == _ms(quick)
    assert got["p99_ms"] == _ms(slow)
    assert got["max_ms"] == _ms(stuck)
    assert abs(got["max_ms"] - 4000.0) / 4000.0 < 0.03  # a bin is about 5% wide
    assert time_stats({quick: 1})["max_ms"] == time_stats({quick: 1})["median_ms"]
    assert time_stats({}) == {"moves": 0, "median_ms": 0.0, "p90_ms": 0.0, "p99_ms": 0.0,
                              "max_ms": 0.0}


@pytest.mark.parametrize("bots", [
    "greedy,random",  # the native simulation when the native core is active (its histograms)
    "search:iterations=4:tree=1,heuristic",  # the Python path: search times every move
])
def test_the_report_gives_every_bots_tail(bots: str) -> None:
    result = runner.invoke(app, ["simulate", "sniff", "--hands", "40", "--bots", bots,
                                 "--seed", "3", "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    timing = json.loads(result.stdout)["run"]["move_time"]
    assert set(timing) == set(bots.split(","))
    for name, t in timing.items():
        c = t["choices"]
        assert c["moves"] > 0, name
        assert 0 < c["median_ms"] <= c["p90_ms"] <= c["p99_ms"] <= c["max_ms"], (name, c)
        assert set(t["all_moves"]) == set(c)


def test_the_text_summary_shows_the_tail() -> None:
    result = runner.invoke(app, ["simulate", "block-2p", "--hands", "10", "--bots",
                                 "search:iterations=4,random", "--seed", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "time a move with a choice, ms" in text
    head = next(line for line in text.splitlines() if "moves timed" in line)
    assert [w for w in ("median", "p90", "p99", "max") if w in head] == ["median", "p90", "p99",
                                                                         "max"]
    row = next(line for line in text.splitlines() if "search:iterations=4" in line
               and any(ch.isdigit() for ch in line.split("search:iterations=4")[1]))
    assert len([w for w in row.replace("│", " ").split() if w[0].isdigit()]) == 5, row


@pytest.mark.parametrize(("bot", "clock"), [
    ("random", time.perf_counter),
    ("heuristic", time.perf_counter),
    ("search", time.thread_time),
    ("ismcts", time.thread_time),
    ("search:threads=2", time.perf_counter),
    ("ismcts:threads=2", time.perf_counter),
])
def test_a_bot_is_timed_by_the_clock_that_sees_its_work(bot: str, clock: object) -> None:
    """A search is timed in CPU time of the playing thread, unless it
    spreads a move over threads of its own: that thread's CPU time would
    miss their work (a median of 0.4 ms for ``search:threads=2`` in
    Partners, where a move takes tens), so the wall clock times it."""
    assert move_clock(make_bot(bot)) is clock
