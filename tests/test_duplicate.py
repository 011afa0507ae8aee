"""Duplicate play (``--duplicate``): every deal from every seat rotation of
the lineup, every game of a deal from the same shuffles, the deal as the
unit of the paired statistics, ties apart; the same totals for any number
of workers (both cores agree: tests/test_differential_sim.py)."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from typing import Any

import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.engine.match import Match
from bones.lang.load import load_variant
from bones.sim import simulation as sim
from bones.sim.duplicate import deal_key, deal_parts, deal_results, rotations, seating

runner = CliRunner()


def _run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_rotations_are_the_lineups_different_seatings() -> None:
    assert rotations(("a", "b")) == 2
    assert rotations(("a", "b", "c")) == 3
    assert rotations(("a", "b", "a")) == 3
    assert rotations(("a", "b", "a", "b")) == 2  # partnerships: both team assignments
    assert rotations(("a", "b", "c", "d")) == 4
    assert rotations(("a", "a")) == 1
    assert [seating(("a", "b", "a", "b"), r) for r in range(2)] == [
        ("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_deal_keys_round_trip() -> None:
    for games in (1, 2, 3, 4, 10):
        for wins in ([0, 0], [games, 0], [1, games - 1], [0, 0, games]):
            for ties in (0, games):
                key = deal_key(wins, ties, games)
                assert deal_parts(key, len(wins), games) == (wins, ties)
    hist = {deal_key([2, 0], 0, 2): 5, deal_key([1, 1], 0, 2): 3, deal_key([0, 1], 1, 2): 1}
    out = deal_results(hist, ["a", "b"], 2)
    assert out["swept"] == [5, 0]
    assert out["results"][0] == {"wins": [2, 0], "ties": 0, "deals": 5}


class _Recorder:
    """Every shuffle and every seating the Python path makes, by deal."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # (deal seed, hand number) -> per match: its variant and every
        # shuffle it made of that hand (more than one: redeals)
        self.shuffles: dict[tuple[int, int], dict[int, list[Any]]] = defaultdict(dict)
        self.seatings: dict[int, list[tuple[int, ...]]] = defaultdict(list)
        shuffle = Match._shuffle_deal
        play_game = sim._play_game
        recorder = self
        serial = iter(range(1 << 30))

        def recorded_shuffle(match: Match) -> tuple[list[int], list[int]]:
            hands, boneyard = shuffle(match)
            if "recorded_as" not in vars(match):  # the match's number, once
                vars(match)["recorded_as"] = next(serial)
            games = recorder.shuffles[(match.seed, len(match.history) + 1)]
            got = games.setdefault(vars(match)["recorded_as"], [match.rules.name])
            got.append((tuple(hands), tuple(boneyard)))
            return hands, boneyard

        def recorded_game(config: sim.SimConfig, t: int, rules: Any, prep: Any,
                          seated: list[int], *args: Any) -> None:
            if t == 0:
                recorder.seatings[args[1]].append(tuple(seated))
            play_game(config, t, rules, prep, seated, *args)

        monkeypatch.setattr(Match, "_shuffle_deal", recorded_shuffle)
        monkeypatch.setattr(sim, "_play_game", recorded_game)
        # the Python path plays (the native core never calls these)
        from bones.engine import core

        monkeypatch.setattr(core, "native", lambda: None)
        sim._CACHE.clear()


@pytest.mark.parametrize("name,players,teams,bots,hands_only", [
    ("all-fives", 2, False, ["heuristic", "greedy"], False),   # matches: later leads by lot
    ("all-fives", 3, False, ["heuristic", "greedy", "random"], False),
    ("sniff", 4, True, ["heuristic", "greedy"], True),
    ("partnership-block", 4, True, ["heuristic", "greedy", "random", "heuristic"], True),
    ("kozel", 4, True, ["greedy", "random"], False),          # redeals
])
def test_every_game_of_a_deal_is_dealt_from_the_same_shuffles(
        name: str, players: int, teams: bool, bots: list[str], hands_only: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    rec = _Recorder(monkeypatch)
    table = sim.Table(name, load_variant(name), players, teams)
    config = sim.make_config([table], bots, games=6, seed=11, hands_only=hands_only,
                             duplicate=True)
    summary = sim.simulate(config)
    games = config.rotations
    assert summary.deals == 6 and summary.n == 6 * games
    seeds = {sim.game_seed(11, d) for d in range(6)}
    assert {seed for seed, _ in rec.shuffles} == seeds
    for (seed, number), dealt in rec.shuffles.items():
        # every game that reached hand `number` of this deal shuffled it alike
        # (the same hands and boneyard order, and as many times: redeals too)
        assert len({tuple(attempts[1:]) for attempts in dealt.values()}) == 1, (seed, number)
        if number == 1:
            assert len(dealt) == games
    # the rotations are complete: each deal seated every rotation once
    assert set(rec.seatings) == seeds
    for seats in rec.seatings.values():
        assert sorted(seats) == sorted(
            tuple((s + r) % players for s in range(players)) for r in range(games))


def test_without_the_leads_apart_the_later_hands_would_differ() -> None:
    """The reason for the ``LEADS`` stream: in All Fives a hand after a block
    is led by lot, drawn before the shuffle, so two matches from one seed
    whose first hands ended differently deal their second hands differently
    unless the lot draws from a stream of its own."""
    from bones.lang.compile import compile_rules

    rules = compile_rules(load_variant("all-fives"), 2)
    differ = 0
    for seed in range(40):
        second = []
        for leads_apart in (False, True):
            for end_by in (0, 1):  # play the first hand out two ways
                match = Match(rules, seed=seed, leads_apart=leads_apart)
                hand = match.new_hand()
                while not hand.over:
                    legal = hand.legal_moves()
                    hand.apply(legal[0] if end_by == 0 else legal[-1])
                match.finish_hand(hand)
                if not match.game_over:
                    second.append((leads_apart, match.next_deal().hands))
        shared = [h for apart, h in second if not apart]
        apart = [h for a, h in second if a]
        if len(apart) == 2:
            assert apart[0] == apart[1], seed
        if len(shared) == 2 and shared[0] != shared[1]:
            differ += 1
    assert differ > 0


def _config(**kw: Any) -> sim.SimConfig:
    args = {"games": 30, "seed": 7, "hands_only": True, "duplicate": True}
    args.update(kw)
    return sim.make_config(["block-2p"], ["heuristic", "greedy"], **args)


def test_the_totals_do_not_depend_on_batches_processes_or_dask() -> None:
    config = _config()
    whole = sim.simulate(config, batch_size=30).totals()
    assert sim.simulate(config, batch_size=1).totals() == whole
    assert sim.simulate(config, batch_size=7).totals() == whole
    pool = sim.process_executor(2)
    try:
        assert sim.simulate(config, executor=pool, workers=2, batch_size=4).totals() == whole
    finally:
        sim.stop_processes(pool)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = sim.simulate(config, client.get_executor(), workers=2, batch_size=3)
    assert got.totals() == whole
    parts = sim.Summary.empty(sim.Layout(config), sim.deal_layout(config))
    for start, stop in ((20, 30), (0, 5), (5, 20)):
        parts.merge(sim.run_batch(config, start, stop))
    assert parts.totals() == whole


def test_ties_are_counted_apart_never_as_losses() -> None:
    """block-2p hands tie when the blocked hands hold equal pips: the win
    rate is of the decided games, and every game is a win of one bot or a
    tie."""
    config = _config(games=200)
    dup = sim.report(config, sim.simulate(config))["duplicate"]
    assert dup["ties"] > 0 and dup["decided"] + dup["ties"] == dup["games"] == 400
    a, b = dup["bots"]
    assert a["wins"] + b["wins"] == dup["decided"]
    for r in (a, b):
        assert r["decided_win_rate"]["value"] == round(r["wins"] / dup["decided"], 4)
    assert a["decided_win_rate"]["value"] + b["decided_win_rate"]["value"] == pytest.approx(1)
    rows = dup["deal_results"]
    assert sum(r["deals"] for r in rows) == 200
    assert sum(r["ties"] * r["deals"] for r in rows) == dup["ties"]
    assert a["deals_won_every_game"] == sum(r["deals"] for r in rows if r["wins"][0] == 2)


def test_the_margin_interval_is_computed_over_deals() -> None:
    """Each deal played alone gives its own margin; the report's mean and
    standard error are those of these per-deal margins (not of the games)."""
    config = _config(games=40)
    whole = sim.simulate(config)
    dup = sim.report(config, whole)["duplicate"]
    layout = sim.deal_layout(config)
    assert layout is not None
    a, b = layout.index["0.bot0.score"], layout.index["0.bot1.score"]
    margins = []
    for d in range(40):
        one = sim.run_batch(config, d, d + 1)
        margins.append(one.deal_sums[a] - one.deal_sums[b])
    mean = sum(margins) / 40
    se = math.sqrt(sum((m - mean) ** 2 for m in margins) / 39 / 40)
    got = dup["bots"][0]["margin_per_deal"]
    assert got["value"] == pytest.approx(mean, abs=1e-4)
    assert got["se"] == pytest.approx(se, abs=1e-4)
    assert dup["bots"][0]["margin_per_game"]["value"] == pytest.approx(mean / 2, abs=1e-4)


def test_cli_json_is_the_same_for_any_jobs() -> None:
    bodies = []
    for jobs in ("1", "2"):
        result = _run("simulate", "block-2p", "--hands", "40", "--bots", "heuristic,greedy",
                      "--seed", "5", "--duplicate", "--jobs", jobs, "--json", "--quiet")
        assert result.exit_code == 0, result.output
        body = json.loads(result.stdout)
        body.pop("run")
        bodies.append(body)
    assert bodies[0] == bodies[1]
    body = bodies[0]
    assert body["version"] == sim.FORMAT_VERSION == 2
    assert body["requested"] == 80 and body["games"] == 80
    assert body["duplicate"]["deals"] == 40 and body["duplicate"]["games_per_deal"] == 2
    plain = json.loads(_run("simulate", "block-2p", "--hands", "4", "--bots", "heuristic,greedy",
                            "--seed", "5", "--json", "--quiet").stdout)
    assert plain["duplicate"] is None


def test_csv_adds_the_paired_columns() -> None:
    result = _run("simulate", "block-2p", "--hands", "20", "--bots", "heuristic,greedy",
                  "--seed", "5", "--duplicate", "--csv")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = lines[0].split(",")
    assert header[-9:] == ["deals", "decided_win_rate", "decided_lo", "decided_hi",
                           "margin_per_deal", "margin_lo", "margin_hi",
                           "deals_won_every_game", "tied_games"]
    assert lines[1].split(",")[header.index("deals")] == "20"
    assert lines[3].startswith("seat,0,") and lines[3].endswith(",,,,,,,,,")


def test_text_report_says_deals_and_ties() -> None:
    result = _run("simulate", "block-2p", "--hands", "50", "--bots", "heuristic,greedy",
                  "--seed", "5", "--duplicate")
    assert result.exit_code == 0, result.output
    assert "100 hands (50 deals x 2 seatings, duplicate)" in result.stdout
    assert "paired over 50 deals" in result.stdout
    assert "neither a win nor a loss" in result.stdout


def test_tournament_plays_every_seating_in_duplicate() -> None:
    result = _run("tournament", "all-fives", "--bots", "random,greedy,heuristic", "-n", "3",
                  "--seed", "3", "--duplicate", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    dup = body["duplicate"]
    assert dup["deals_per_seating"] == 3 and len(dup["seatings"]) == 3
    for run in dup["seatings"]:
        assert run["deals"] == 3 and run["games"] == 6
        assert [r["bot"] for r in run["bots"]] == run["seating"]
    assert [r["games"] for r in body["ranking"]] == [12, 12, 12]
    assert json.loads(_run("tournament", "all-fives", "--bots", "random,greedy", "-n", "1",
                           "--seed", "3", "--json").stdout)["duplicate"] is None


def test_compare_plays_the_same_deals_under_both_variants(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rec = _Recorder(monkeypatch)
    config = sim.make_config(["all-fives", "docs/examples/house-fives.yaml"],
                             ["heuristic", "greedy"], games=5, seed=3, duplicate=True)
    summary = sim.simulate(config)
    body = sim.report(config, summary)
    assert body["compare"]["b"]["duplicate"]["deals"] == 5
    assert [r["bot"] for r in body["compare"]["difference"]["duplicate"]] == ["heuristic",
                                                                           "greedy"]
    first = {seed: dealt for (seed, number), dealt in rec.shuffles.items() if number == 1}
    assert len(first) == 5
    for dealt in first.values():
        assert len(dealt) == 4  # two rotations under each variant
        assert sorted(attempts[0] for attempts in dealt.values()) == [
            "all-fives", "all-fives", "house-fives", "house-fives"]
        assert len({tuple(attempts[1:]) for attempts in dealt.values()}) == 1


def test_compare_refuses_variants_that_cannot_share_a_deal() -> None:
    result = _run("compare", "all-fives", "sniff", "-n", "3", "--bots", "heuristic,greedy",
                  "--duplicate")
    assert result.exit_code == 2
    line = "bones compare: --duplicate needs the same deals under both variants, and " \
        "all-fives and sniff cannot share one: 9 tiles a hand against 7"
    assert result.output.strip() == line
    result = _run("compare", "block-2p", "all-fives", "--hands", "3",
                  "--bots", "heuristic,greedy", "--duplicate")
    assert result.exit_code == 2 and "7 tiles a hand against 9" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [
    ("simulate", "sniff"), ("compare", "sniff", "sniff"),
])
def test_one_bot_has_no_rotations_to_compare(command: tuple[str, ...]) -> None:
    result = _run(*command, "-n", "2", "--bots", "greedy", "--duplicate")
    assert result.exit_code == 2
    assert result.output.strip().endswith("--duplicate needs at least two different bots "
                                          "(one bot in every seat has a single seating)")


def _per_deal(config: sim.SimConfig, deals: int) -> list[list[int]]:
    """Each deal's vector (its decided games, wins and points per table),
    from the deal played alone."""
    return [sim.run_batch(config, d, d + 1).deal_sums for d in range(deals)]


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def test_the_decided_win_rate_interval_is_the_delta_method_over_deals() -> None:
    """wins / decided summed over deals, its standard error from each deal's
    residual (wins - rate x decided): a ratio of paired sums, not a
    proportion of independent games."""
    config = _config(games=60)
    dup = sim.report(config, sim.simulate(config))["duplicate"]
    layout = sim.deal_layout(config)
    assert layout is not None
    dec, win = layout.index["0.decided"], layout.index["0.bot0.win"]
    deals = _per_deal(config, 60)
    rate = sum(v[win] for v in deals) / sum(v[dec] for v in deals)
    residual_mean, residual_se = _mean_se([v[win] - rate * v[dec] for v in deals])
    assert residual_mean == pytest.approx(0, abs=1e-9)
    se = residual_se / (sum(v[dec] for v in deals) / 60)
    got = dup["bots"][0]["decided_win_rate"]
    assert got["value"] == pytest.approx(rate, abs=1e-4)
    assert got["se"] == pytest.approx(se, abs=1e-4)
    assert got["lo"] == pytest.approx(rate - 1.959964 * se, abs=2e-4)


def test_compare_differences_are_paired_by_deal() -> None:
    """bones compare --duplicate: A less B over the same deals, the standard
    error of the per-deal differences (the deal's margin under A less its
    margin under B; the delta method for the win rates)."""
    config = sim.make_config(["all-fives", "docs/examples/house-fives.yaml"],
                             ["heuristic", "greedy"], games=24, seed=4, hands_only=True,
                             duplicate=True)
    body = sim.report(config, sim.simulate(config))
    diff = body["compare"]["difference"]["duplicate"][0]
    layout = sim.deal_layout(config)
    assert layout is not None
    ix = layout.index
    deals = _per_deal(config, 24)
    margins = [(v[ix["0.bot0.score"]] - v[ix["0.bot1.score"]])
               - (v[ix["1.bot0.score"]] - v[ix["1.bot1.score"]]) for v in deals]
    mean, se = _mean_se([float(m) for m in margins])
    assert diff["margin_per_deal"]["value"] == pytest.approx(mean, abs=1e-4)
    assert diff["margin_per_deal"]["se"] == pytest.approx(se, abs=1e-4)
    # the win rates: ra - rb, each a ratio of sums over the same deals
    wa, da = [v[ix["0.bot0.win"]] for v in deals], [v[ix["0.decided"]] for v in deals]
    wb, db = [v[ix["1.bot0.win"]] for v in deals], [v[ix["1.decided"]] for v in deals]
    ra, rb = sum(wa) / sum(da), sum(wb) / sum(db)
    ha, hb = sum(da) / 24, sum(db) / 24
    _, se_rate = _mean_se([(w - ra * d) / ha - (x - rb * e) / hb
                           for w, d, x, e in zip(wa, da, wb, db)])
    assert diff["decided_win_rate"]["value"] == pytest.approx(ra - rb, abs=1e-4)
    assert diff["decided_win_rate"]["se"] == pytest.approx(se_rate, abs=1e-4)
    # unpaired, the interval would be wider: the deals' luck is shared
    _, se_a = _mean_se([float(v[ix["0.bot0.score"]] - v[ix["0.bot1.score"]]) for v in deals])
    _, se_b = _mean_se([float(v[ix["1.bot0.score"]] - v[ix["1.bot1.score"]]) for v in deals])
    assert se < math.sqrt(se_a ** 2 + se_b ** 2)
