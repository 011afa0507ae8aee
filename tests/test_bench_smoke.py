"""The benchmark's sections run and report the figures they promise.

Nothing here is timed: speeds are reported by ``python -m bench``, never
asserted.  Sizes are tiny so this stays a smoke test.
"""

from __future__ import annotations

import json

import pytest

from bench import __main__ as bench_main
from bench import duplicate, fused, peers, proposals, system, throughput
from bench.common import compile_table, machine_info, tables


def test_tables_cover_every_allowed_player_count() -> None:
    assert tables("sniff") == [("2p", 2, False), ("3p", 3, False), ("4p", 4, False),
                               ("4p-teams", 4, True)]
    assert tables("muggins") == [("2p", 2, False), ("3p", 3, False), ("4p", 4, False)]
    # partnerships required: only the team game exists
    assert tables("partnership-block") == [("4p-teams", 4, True)]


def test_play_hands_plays_exactly_the_hands_asked_across_matches() -> None:
    rules = compile_table("sniff", 2)
    # more hands than one match lasts, so several matches are played
    hands, moves = throughput.play_hands(rules, 40, seed=3)
    assert hands == 40
    assert moves >= 40 * 7  # every hand lays at least one player's whole hand


def test_random_throughput_rows() -> None:
    out = throughput.run(hands=3, rounds=1, variants=("muggins",), log=lambda _: None)
    rows = out["rows"]
    assert [r["table"] for r in rows] == ["2p", "3p", "4p"]
    for row in rows:
        assert row["hands_per_s"] > 0 and row["moves_per_s"] > row["hands_per_s"]
        assert len(row["hands_per_s_rounds"]) == 1


def test_greedy_throughput_runs_or_says_why_not() -> None:
    out = throughput.run(hands=2, rounds=1, variants=("sniff",), bot="greedy",
                         log=lambda _: None)
    if "skipped" in out:
        assert "make_bot" in out["skipped"]
    else:
        assert len(out["rows"]) == 4 and all(r["moves_per_s"] > 0 for r in out["rows"])


def test_bones_peer_driver_counts_plays_and_passes() -> None:
    games, plays, moves = peers.bones_driver("block-2p", 2)(10, 5)
    assert games == 10
    assert 10 <= plays <= moves  # at least the lead each game; passes add moves


def test_peers_run_or_say_why_not() -> None:
    out = peers.run(games=3, rounds=2, log=lambda _: None)
    assert set(out) == {"openspiel", "dominoes"}
    for entry in out.values():
        if "skipped" in entry:
            assert "bones[bench]" in entry["skipped"]
            continue
        sides = entry["sides"]
        assert any(name.startswith("bones:") for name in sides)
        assert all(len(s["games_per_s_rounds"]) == 2 for s in sides.values())
        assert entry["ratios"] and all(r > 0 for r in entry["ratios"].values())


def test_system_sections_report_or_skip() -> None:
    start = system.startup(runs=1, log=lambda _: None)
    assert start["bones --help"]["exit_code"] == 0
    assert start["bones validate variants/sniff.yaml"]["median_s"] > 0
    scale = system.scaling(hands=200, log=lambda _: None)
    assert "skipped" in scale or scale["runs"].keys() == {"1", "2"}
    mem = system.memory(hands=200, jobs=1, interval=0.01, log=lambda _: None)
    assert "skipped" in mem or mem["peak_tree_rss_mb"] > 0


def test_main_writes_json_with_machine_and_section(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    assert bench_main.main(["--quick", "--only", "startup", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert {"cpu_model", "cores", "python", "engine_version", "commit"} <= set(report["machine"])
    assert "startup" in report and "random" not in report
    assert "bones --help" in capsys.readouterr().out


def test_machine_info_names_a_commit() -> None:
    info = machine_info()
    assert info["cores"] and info["commit"]


def test_proposal_prototypes_run_and_restore_the_engine() -> None:
    from bones.engine.match import Match
    from bones.engine.tiles import TileSet
    from bones.seat import observation

    before = (observation.observe, Match.finish_hand, TileSet.pips_of, TileSet.parse)
    out = proposals.run(games=4, rounds=2, log=lambda _: None)
    assert any(k.startswith("block-2p") for k in out)
    assert all(r["now"] > 0 and r["with"] > 0 for r in out.values())
    # the monkey-patches must not leak into the rest of the test session
    assert (observation.observe, Match.finish_hand, TileSet.pips_of, TileSet.parse) == before


def test_pips_prototype_agrees_with_the_engine() -> None:
    from bones.engine.tiles import tile_set

    for highest in (6, 9, 12):
        ts = tile_set(highest)
        for mask in (0, 1, ts.full, ts.doubles, ts.full ^ ts.doubles, 0b1011 << 20):
            mask &= ts.full
            assert proposals._pips_fast(ts, mask) == ts.pips_of(mask)


def test_fused_playout_plays_the_same_games_as_the_engine() -> None:
    from bench.common import compile_table

    for name, players in (("block-2p", 2), ("partnership-block", 4)):
        rules = compile_table(name, players)
        assert fused.fusable(rules)
        plain = fused.fused_games(rules, 60, 11, fused=False)
        once = fused.fused_games(rules, 60, 11, fused=True)
        assert plain == once
        assert {state for _, _, state, _ in plain} == {1, 2}  # dominoes and blocks both seen
    assert not fused.fusable(compile_table("sniff", 2))


def test_adapter_speeds_cover_every_installed_adapter(capsys) -> None:
    import importlib.util

    from bench import adapters

    installed = ["engine"] + [name for name, module in (("pettingzoo", "pettingzoo"),
                                                        ("gymnasium", "gymnasium"),
                                                        ("openspiel", "pyspiel"))
                              if importlib.util.find_spec(module) is not None]
    rates = adapters.run(steps=30, rounds=1, core="python")
    assert sorted(rates) == sorted(installed) and all(r > 0 for r in rates.values())
    adapters.main(["--steps", "30", "--rounds", "1", "--vector-steps", "3000"])
    out = capsys.readouterr().out
    assert "python steps/s" in out
    if "vector: skipped" not in out:  # the vector environment on a train layout beside
        assert "vector mexican-train, 256 envs, 2 threads:" in out
    for name in installed:
        assert f"  {name} " in out


def test_vector_cpu_times_the_steps_it_counts(capsys) -> None:
    from bones.engine import core

    if core.native() is None or not hasattr(core.native(), "VectorCore"):
        pytest.skip("the vector environment needs the native core")
    from bench import vector_cpu

    done, cpu = vector_cpu.cpu_rate("mexican-train", 2_000, 16)
    assert done == 2_000 - 2_000 % 16 and cpu > 0
    vector_cpu.main(["--variant", "chicken-foot", "--steps", "500", "--envs", "4"])
    assert capsys.readouterr().out.startswith("chicken-foot: 500 table steps, ")


def test_strength_tournament_rates_a_small_tournament(capsys) -> None:
    from bench import strength

    assert strength.ladder(45)[-3:] == ["pimc", "search", "search:iterations=180"]
    assert strength.main(["--tournament", "--variants", "block-2p", "--bots", "random,greedy",
                          "-n", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "block-2p" in out and "bones tournament block-2p --bots random,greedy" in out
    assert "random" in out and "greedy" in out


def test_ceiling_beats_random_from_the_true_deal() -> None:
    from bench import ceiling

    row = ceiling.play("block-2p", ceiling.CHEAT, "random", 3, 7)
    assert row["games"] == 6 and row["wins"] >= 3


def test_the_inference_bench_scores_both_models_of_a_bot(capsys) -> None:
    from bench import inference

    report = inference.run("block-2p", ["heuristic", "greedy"], 3, 7)
    entry = report["bots"]["heuristic"]
    assert entry["decisions"] > 5 and set(entry) >= {"heuristic", "solver", "uniform"}
    # the heuristic's moves are its own model's best, far above chance
    assert entry["heuristic"]["top"] > 0.8 and entry["heuristic"]["nats"] > 0.3
    assert report == inference.run("block-2p", ["heuristic", "greedy"], 3, 7)  # seeded
    inference.main(["--bots", "greedy", "--hands", "2"])
    assert "greedy" in capsys.readouterr().out


def test_the_pool_bench_writes_every_field_of_the_flat_table(tmp_path) -> None:
    # native/benches/pool_vs_rayon.rs reads this file with the core's own reader
    from bench.pool_vs_rayon import write_table
    from bones.engine import flat

    path = tmp_path / "table.txt"
    write_table("all-fives", path)
    table = flat.flatten(compile_table("all-fives"))
    read = {}
    for line in path.read_text().splitlines():
        if " = " in line:
            key, value = line.split(" = ")
            read[key] = int(value)
        else:
            key, _, values = line.partition(" :")
            read[key] = [int(v) for v in values.split()]
    assert read == {k: v for k, v in table.items() if k != "format"}


def test_duplicate_compares_the_widths_of_plain_and_duplicate_runs() -> None:
    out = duplicate.run("block-2p", ["heuristic", "greedy"], 40, seed=3, hands_only=True)
    plain, dup = out["plain"], out["duplicate"]
    assert plain["games"] == dup["games"] == 40 and dup["deals"] == 20
    assert plain["margin_width"] > 0 and dup["margin_width"] > 0
    assert plain["decided_games"] <= 40 and dup["decided_games"] <= 40
    for figure in out["saving"].values():
        ratio = 1 / (1 - figure["saved"]) if figure["saved"] < 1 else float("inf")
        assert figure["plain_games_for_the_same_width"] == pytest.approx(40 * ratio, rel=0.05)
    assert "plain needs" in duplicate.describe(out)
