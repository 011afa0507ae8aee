"""Simulation: same totals for any batching, process count or Dask cluster;
interval arithmetic; the commands' exit codes and JSON layout."""

from __future__ import annotations

import json
import math
import os
import platform
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.sim.simulation import (
    FORMAT_VERSION,
    Layout,
    Summary,
    game_seed,
    make_config,
    process_executor,
    report,
    run_batch,
    run_facts,
    simulate,
)
from bones.sim.stats import Moments, wilson

runner = CliRunner()


def _config(games: int = 12, hands_only: bool = False):
    return make_config(["all-fives"], ["greedy", "random"], games=games, seed=5,
                       hands_only=hands_only)


def test_totals_do_not_depend_on_batches_processes_or_dask() -> None:
    config = _config()
    reference = simulate(config, batch_size=12).totals()
    assert simulate(config, batch_size=1).totals() == reference
    with process_executor(2) as pool:
        assert simulate(config, pool, workers=2, batch_size=3).totals() == reference

    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = simulate(config, client.get_executor(), workers=2, batch_size=2)
    assert got.totals() == reference
    assert reference["n"] == 12


def test_seeds_and_rotation() -> None:
    assert game_seed(1, 0) != game_seed(1, 1) != game_seed(2, 1)
    config = make_config(["all-fives"], ["greedy", "random", "heuristic"], games=6,
                         seed=1, players=3)
    summary = simulate(config)
    layout = Layout(config)
    # every bot sat in every seat twice: per-seat points add up to per-bot points
    for q in ("play", "settle", "score"):
        seats = sum(summary.sums[layout.index[f"0.seat{s}.{q}"]] for s in range(3))
        bots = sum(summary.sums[layout.index[f"0.bot{d}.{q}"]] for d in range(3))
        assert seats == bots
    wins = sum(summary.sums[layout.index[f"0.seat{s}.win"]] for s in range(3))
    ties = summary.sums[layout.index["0.tie"]]
    assert wins + ties == 6


def test_hands_mode_counts_single_hands() -> None:
    config = _config(10, hands_only=True)
    body = report(config, simulate(config))
    assert body["mode"] == "hands" and body["hands_per_game"]["value"] == 1.0
    assert sum(body["hands_per_game_distribution"].values()) == 10


def test_ctrl_c_keeps_finished_batches() -> None:
    config = _config(12)

    def stop(done: int) -> None:
        if done >= 4:
            raise KeyboardInterrupt

    summary = simulate(config, batch_size=4, progress=stop)
    assert summary.partial and summary.n == 4
    full = simulate(_config(4), batch_size=4)
    assert summary.totals() == full.totals()


def test_wilson_interval_values() -> None:
    e = wilson(60, 100)
    assert (round(e.lo, 4), round(e.hi, 4)) == (0.5020, 0.6906)
    e = wilson(0, 10)
    assert e.lo == 0.0 and round(e.hi, 4) == 0.2775
    e = wilson(10, 10)
    assert e.hi == 1.0 and round(e.lo, 4) == 0.7225
    e = wilson(520, 1000)
    assert round(e.lo, 4) == 0.4890


def test_moments_match_direct_formulas() -> None:
    rng = random.Random(2)
    rows = [(rng.randrange(1, 9), rng.randrange(0, 60), rng.randrange(0, 60)) for _ in range(50)]
    n = len(rows)
    sums = [sum(r[i] for r in rows) for i in range(3)]
    pairs = {(i, j): sum(r[i] * r[j] for r in rows) for i in range(3) for j in range(i, 3)}
    m = Moments(n, sums, pairs)
    xs = [r[1] for r in rows]
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    assert math.isclose(m.mean(1).value, mean)
    assert math.isclose(m.mean(1).se, sd / math.sqrt(n))
    # ratio: delta method from the residuals x - r h
    r = sums[1] / sums[0]
    resid = [x - r * h for h, x, _ in rows]
    se = math.sqrt(sum(e * e for e in resid) / (n - 1) / n) / (sums[0] / n)
    assert math.isclose(m.ratio(1, 0).value, r)
    assert math.isclose(m.ratio(1, 0).se, se)
    # paired difference: the spread of the per-game differences
    d = [a - b for _, a, b in rows]
    dm = sum(d) / n
    dse = math.sqrt(sum((x - dm) ** 2 for x in d) / (n - 1) / n)
    assert math.isclose(m.diff_mean(1, 2).value, dm)
    assert math.isclose(m.diff_mean(1, 2).se, dse)
    assert m.diff_ratio(1, 0, 1, 0).se == 0.0


# ------------------------------------------------------------------- CLI

def _run(*args: str):
    return runner.invoke(app, list(args))


def test_simulate_json_layout_and_repeatability() -> None:
    args = ("simulate", "all-fives", "-n", "4", "--bots", "greedy,random", "--seed", "9",
            "--json", "--quiet")
    first = _run(*args)
    assert first.exit_code == 0, first.output
    body = json.loads(first.stdout)
    assert body["format"] == "bones-simulation" and body["version"] == FORMAT_VERSION
    assert body["seed"] == 9 and body["games"] == 4 and body["partial"] is False
    assert body["variant"]["name"] == "all-fives" and body["lineup"] == ["greedy", "random"]
    assert [b["bot"] for b in body["bots"]] == ["greedy", "random"]
    assert [s["seat"] for s in body["seats"]] == [0, 1]
    for key in ("hands_per_game", "moves_per_hand", "blocked_share", "leader", "ties",
                "margin", "scoring", "ahead"):
        assert key in body
    run = body.pop("run")
    for key in ("engine_version", "machine", "jobs", "workers", "seconds", "move_time"):
        assert key in run
    again = json.loads(_run(*args).stdout)
    again.pop("run")
    assert again == body


def test_the_run_facts_name_python_and_the_machine_as_platform_does() -> None:
    """run_facts reads them without importing platform (a short run's start)."""
    facts = run_facts([], 1.0, jobs=1, workers=1, scheduler=None)
    assert facts["python"] == platform.python_version()
    assert facts["machine"] == f"{platform.system()} {platform.machine()}, {os.cpu_count()} cpus"


def test_simulate_table_csv_and_out(tmp_path) -> None:
    result = _run("simulate", "sniff", "-n", "2", "--seed", "1", "--quiet",
                  "--bots", "greedy,random")
    assert result.exit_code == 0, result.output
    assert "per bot" in result.stdout and "seed 1" in result.stdout
    result = _run("simulate", "all-fives", "-n", "2", "--players", "3", "--seed", "1",
                  "--csv", "--bots", "greedy,random")
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("kind,name,games,wins")
    assert len(lines) == 1 + 2 + 3  # header, two bots, three seats
    out = tmp_path / "r.json"
    result = _run("simulate", "all-fives", "--hands", "3", "--seed", "1", "--json",
                  "--out", str(out))
    assert result.exit_code == 0 and json.loads(out.read_text())["mode"] == "hands"


@pytest.mark.parametrize("args,code,text", [
    (("simulate", "no-such-variant"), 2, "unknown variant"),
    (("simulate", "all-fives", "--bots", "gredy"), 2, "did you mean greedy"),
    (("simulate", "all-fives", "--bots", "search:seconds=1"), 2, "time budgets"),
    (("simulate", "all-fives", "-n", "2", "--hands", "2"), 2, "not both"),
    (("simulate", "all-fives", "--json", "--csv"), 2, "not both"),
    (("simulate", "all-fives", "--players", "9"), 2, "not 9"),
    (("simulate", "all-fives", "--jobs", "0"), 2, "--jobs"),
    (("simulate", "all-fives", "-n", "0"), 2, "at least 1"),
    (("simulate", "all-fives", "--bots", "a,b,c,d"), 2, "unknown bot"),
    (("simulate", "all-fives", "--bots", "greedy,greedy,greedy"), 2, "3 bots for 2 seats"),
    (("tournament", "all-fives", "--bots", "greedy"), 2, "at least two bots"),
    (("tournament", "all-fives", "--bots", "greedy,greedy"), 2, "once"),
    (("compare", "all-fives", "partners"), 2, "players"),
])
def test_usage_errors_are_one_line(args: tuple[str, ...], code: int, text: str) -> None:
    result = _run(*args)
    assert result.exit_code == code, result.output
    assert text in result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def test_quiet_is_quiet_and_the_seed_is_in_the_report() -> None:
    for extra in ((), ("--json",)):
        result = _run("simulate", "all-fives", "-n", "2", "--bots", "greedy,random", "--quiet",
                      *extra)
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
        if extra:
            assert isinstance(json.loads(result.stdout)["seed"], int)
        else:
            assert re.search(r"seed \d+", result.stdout)
    result = _run("tournament", "all-fives", "--bots", "greedy,random", "-n", "1", "--quiet")
    assert result.exit_code == 0 and result.stderr == ""
    assert re.search(r"seed \d+", result.stdout)


def test_one_bot_in_every_seat_prints_no_per_bot_win_rate() -> None:
    result = _run("simulate", "all-fives", "-n", "2", "--bots", "random", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "every seat: random" in result.stdout
    assert "per bot" not in result.stdout and "per seat" in result.stdout
    result = _run("compare", "all-fives", "sniff", "-n", "2", "--bots", "random", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "random wins" not in result.stdout and "seat 0 wins" in result.stdout
    result = _run("compare", "all-fives", "sniff", "-n", "2", "--bots", "random,greedy",
                  "--seed", "1")
    assert "random wins" in result.stdout and "greedy wins" in result.stdout


def test_jobs_are_capped_at_what_helps(monkeypatch) -> None:
    from bones.cli.options import worker_count

    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert worker_count(1000, 5) == (2, "--jobs 1000: using 2 workers, for 2 CPUs "
                                        "(--oversubscribe to insist)")
    assert worker_count(1000, 5, oversubscribe=True) == (
        5, "--jobs 1000: using 5 workers, for 5 batches of games")
    assert worker_count(2, 50) == (2, None)
    # --oversubscribe has a ceiling: 4 per CPU, however many are asked for
    assert worker_count(100_000, 2000, oversubscribe=True) == (
        8, "--jobs 100000: using 8 workers, for 2 CPUs (--oversubscribe allows 4 per CPU)")
    assert worker_count(6, 2000, oversubscribe=True) == (6, None)
    # the command says so once, on standard error, and still gives the same totals
    args = ("simulate", "all-fives", "-n", "3", "--bots", "greedy,random", "--seed", "4",
            "--json")
    capped = _run(*args, "--jobs", "1000")
    assert capped.exit_code == 0, capped.output
    assert capped.stderr.count("--jobs 1000: using") == 1
    body = json.loads(capped.stdout)
    assert body["run"]["jobs"] == 1000 and body["run"]["workers"] <= 2
    plain = json.loads(_run(*args).stdout)
    body.pop("run"), plain.pop("run")
    assert body == plain


def test_bots_json_lists_every_bot_and_parameter() -> None:
    from bones.bots import BOTS
    from bones.bots.levels import LEVELS

    result = _run("bots", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    # the levels first (one line each), then every bot by its algorithm's name
    assert [r["name"] for r in rows if r["kind"] == "level"] == [name for name, _, _ in LEVELS]
    assert [r["name"] for r in rows if r["kind"] != "level"] == list(BOTS)
    assert [r["kind"] for r in rows].index("builtin") == len(LEVELS)
    search = next(r for r in rows if r["name"] == "search")
    assert {"iterations", "rollouts"} <= {p["name"] for p in search["params"]}
    assert all({"name", "default", "help", "choices"} == set(p) for r in rows for p in r["params"])


def test_invalid_variant_file_is_a_problem(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: broken\ntiles: {highest: 6}\n")
    result = _run("simulate", str(bad), "-n", "1")
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_bots_tournament_and_compare() -> None:
    result = _run("bots")
    assert result.exit_code == 0
    for name in ("random", "greedy", "heuristic", "search", "iterations=", "rollouts=",
                 "seconds=", "policy="):
        assert name in result.stdout

    result = _run("tournament", "all-fives", "--bots", "random,greedy,heuristic", "-n", "2",
                  "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["bots"] == ["random", "greedy", "heuristic"]
    assert len(body["seatings"]) == 3 and body["matrix"][0][0] is None
    assert body["matrix"][0][1]["games"] == 2
    assert [r["games"] for r in body["ranking"]] == [4, 4, 4]

    result = _run("tournament", "all-fives", "--players", "3", "--bots",
                  "random,greedy,heuristic", "-n", "1", "--seed", "3", "--json")
    assert len(json.loads(result.stdout)["seatings"]) == 2

    result = _run("compare", "all-fives", "all-fives-cribbage", "-n", "3", "--seed", "2",
                  "--bots", "greedy", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    diff = body["compare"]["difference"]
    assert body["compare"]["b"]["variant"]["name"] == "all-fives-cribbage"
    for key in ("hands_per_game", "moves_per_hand", "blocked_share", "leader_win_rate",
                "margin", "bots", "seats"):
        assert key in diff
    same = json.loads(_run("compare", "all-fives", "all-fives", "-n", "3", "--seed", "2",
                           "--bots", "greedy", "--json").stdout)
    d = same["compare"]["difference"]
    assert d["moves_per_hand"]["value"] == 0 and d["moves_per_hand"]["hi"] == 0
    result = _run("compare", "all-fives", "all-fives", "-n", "2", "--seed", "2")
    assert result.exit_code == 0 and "A - B" in result.stdout


def test_summary_merge_is_exact() -> None:
    config = _config(6)
    layout = Layout(config)
    whole = simulate(config, batch_size=6)
    parts = Summary.empty(layout)
    for start, stop in ((3, 6), (0, 2), (2, 3)):
        parts.merge(run_batch(config, start, stop))
    assert parts.totals() == whole.totals()


# ------------------------------------------- the fast path changes nothing

_REPORTS = Path(__file__).resolve().parent / "data" / "sim_reports_before.json"


def test_reports_are_those_of_the_plain_loop() -> None:
    """The `--json` body (everything outside ``run``) of a few runs is exactly
    what the plain loop gave before the fast path (no observation for bots
    that do not read one, legal moves computed once, sampled timing): the
    file was written by that loop, on the same stream, in the layout's
    version 1: version 2 is the same body with ``duplicate`` (null)."""
    import json

    for entry in json.loads(_REPORTS.read_text()):
        case = dict(entry["case"])
        config = make_config(case.pop("variants"), case.pop("bots"), case.pop("games"),
                             case.pop("seed"), **case)
        got = json.loads(json.dumps(report(config, simulate(config)), sort_keys=True))
        assert got.pop("duplicate") is None and got.pop("version") == 2
        for side in (got, got.get("compare", {}).get("b", {})):
            assert side.pop("duplicate", None) is None
        before = dict(entry["report"])
        assert before.pop("version") == 1
        assert got == before, entry["case"]


@pytest.mark.parametrize("columns", [80, 200])
def test_bot_labels_stay_whole_and_distinct_and_intervals_unbroken(columns: int) -> None:
    """At 80 columns, in a pipe, and on a wide terminal: every bot name is printed
    whole (in the table, or beside a short label in a legend), no two bots print
    alike, nothing is cut with an ellipsis and no interval is broken across lines."""
    names = ["search:iterations=2:policy=random", "search:iterations=3:policy=random", "greedy"]
    runs = [
        ("simulate", "block-2p", "--hands", "4", "--bots", ",".join(names[:2]), "--seed", "1"),
        ("tournament", "block-2p", "-n", "1", "--bots", ",".join(names), "--seed", "1"),
    ]
    for args in runs:
        result = runner.invoke(app, list(args), env={"COLUMNS": str(columns)})
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        assert all(len(line) <= columns for line in lines), result.stdout
        assert "…" not in result.stdout
        for line in lines:
            assert line.count("[") == line.count("]"), line  # an interval on one line
        used = names[:2] if args[0] == "simulate" else names
        for name in used:
            whole = [line for line in lines if re.search(rf"(^|[\s│]){re.escape(name)}(\s|$)", line)]
            assert whole, f"{name} is never printed whole:\n{result.stdout}"
        # the rows of the first table are told apart by their labels
        first = [line.split("│")[1].strip() for line in lines if line.startswith("│")][:len(used)]
        assert len(set(first)) == len(used), result.stdout


def test_workers_are_threads_for_native_batches_and_processes_for_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    from bones.cli.simrun import Runner
    from bones.engine import core
    from bones.sim.simulation import plays_natively

    config = make_config(["sniff"], ["random"], games=64, seed=3, hands_only=True)
    kinds = {}
    for name in ("python", "native"):
        if name == "native" and core._import()[0] is None:
            continue  # the native core is not installed: nothing to check
        monkeypatch.setenv("BONES_CORE", name)
        run = Runner(2, None, config.games, oversubscribe=True, quiet=True)
        try:
            executor = run._executor_for(config)
            kinds[name] = (type(executor), plays_natively(config))
            # the same totals from either kind of worker
            assert run.run(config).totals() == simulate(config).totals()
        finally:
            run.close()
    assert kinds["python"] == (ProcessPoolExecutor, False)
    if "native" in kinds:
        assert kinds["native"] == (ThreadPoolExecutor, True)
