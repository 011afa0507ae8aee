"""Bradley-Terry ratings: they recover known strengths, their intervals cover
the truth about as often as they claim, and a clean sweep stays finite."""

from __future__ import annotations

import json
import math
import random

import pytest
from typer.testing import CliRunner

from bones.cli.app import app
from bones.sim.ratings import (
    ELO,
    RatingError,
    default_anchor,
    fit_ratings,
    pairwise,
    ratings_report,
)


def _simulate(truth: dict[str, float], games: int, rng: random.Random,
              draw: float = 0.0) -> dict[tuple[str, str], tuple[float, float, float]]:
    names = list(truth)
    out = {}
    for x, a in enumerate(names):
        for b in names[x + 1:]:
            p = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
            ab = ba = tie = 0
            for _ in range(games):
                u = rng.random()
                if u < draw:
                    tie += 1
                elif rng.random() < p:
                    ab += 1
                else:
                    ba += 1
            out[(a, b)] = (ab, ba, tie)
    return out


TRUTH = {"random": 0.0, "greedy": 350.0, "heuristic": 520.0, "search": 600.0}


def test_ratings_recover_known_strengths() -> None:
    results = _simulate(TRUTH, 4000, random.Random(1))
    fitted = {r.bot: r for r in fit_ratings(list(TRUTH), results)}
    assert fitted["random"] == ("random", 0.0, 0.0, 0.0)
    for bot, elo in TRUTH.items():
        assert fitted[bot].elo == pytest.approx(elo, abs=40)
        assert fitted[bot].lo <= fitted[bot].elo <= fitted[bot].hi


def test_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    rng = random.Random(2)
    covered = trials = 0
    for _ in range(150):
        results = _simulate(TRUTH, 150, rng)
        for r in fit_ratings(list(TRUTH), results):
            if r.bot == "random":
                continue
            trials += 1
            covered += r.lo <= TRUTH[r.bot] <= r.hi
    assert 0.90 <= covered / trials <= 0.99


def test_a_clean_sweep_is_finite_and_ordered() -> None:
    results = {("random", "greedy"): (0, 50, 0), ("random", "search"): (0, 50, 0),
               ("greedy", "search"): (0, 50, 0)}
    fitted = {r.bot: r for r in fit_ratings(["random", "greedy", "search"], results)}
    assert all(math.isfinite(v) for r in fitted.values() for v in r[1:])
    assert 0 < fitted["greedy"].elo < fitted["search"].elo
    assert fitted["greedy"].lo > 0  # fifty straight wins are clearly better


def test_the_order_of_a_pair_does_not_matter_and_the_anchor_moves_everything() -> None:
    one = fit_ratings(["a", "b", "c"], {("a", "b"): (30, 20, 5), ("b", "c"): (25, 25, 0),
                                        ("a", "c"): (40, 10, 0)}, anchor="a")
    two = fit_ratings(["a", "b", "c"], {("b", "a"): (20, 30, 5), ("c", "b"): (25, 25, 0),
                                        ("c", "a"): (10, 40, 0)}, anchor="c")
    shift = two[0].elo - one[0].elo
    for r1, r2 in zip(one, two):
        assert r2.elo == pytest.approx(r1.elo + shift, abs=1e-6)
    # two bots: the rating gap is the log-odds of their results, draws
    # counted half each way and one virtual draw added
    pair = fit_ratings(["a", "b"], {("a", "b"): (30, 20, 5)}, anchor="b")
    assert pair[0].elo / ELO == pytest.approx(math.log(33 / 23))


def test_bots_that_never_met_cannot_be_rated() -> None:
    with pytest.raises(RatingError, match="no games link"):
        fit_ratings(["a", "b", "c", "d"], {("a", "b"): (5, 5, 0), ("c", "d"): (5, 5, 0)})
    with pytest.raises(RatingError, match="anchor"):
        fit_ratings(["a", "b"], {("a", "b"): (5, 5, 0)}, anchor="z")


def test_the_anchor_is_random_when_it_plays() -> None:
    assert default_anchor(["greedy", "random", "search"]) == "random"
    assert default_anchor(["greedy", "search"]) == "greedy"


def test_pairwise_reads_a_tournaments_ahead_counts() -> None:
    ahead = {("a", "b"): [7, 10], ("b", "a"): [2, 10]}
    assert pairwise(["a", "b"], ahead) == {("a", "b"): (7.0, 2.0, 1.0)}
    report = ratings_report(["a", "b"], ahead)
    assert report["anchor"] == "a" and [r["bot"] for r in report["bots"]] == ["a", "b"]


def test_the_tournament_reports_ratings_in_text_and_json() -> None:
    runner = CliRunner()
    args = ["tournament", "all-fives", "--bots", "greedy,random", "-n", "6", "--seed", "3",
            "--quiet"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    ratings = body["ratings"]
    assert ratings["anchor"] == "random"
    by_bot = {r["bot"]: r for r in ratings["bots"]}
    assert by_bot["random"]["elo"] == 0.0
    assert by_bot["greedy"]["lo"] <= by_bot["greedy"]["elo"] <= by_bot["greedy"]["hi"]
    text = runner.invoke(app, args)
    assert text.exit_code == 0
    assert "ratings (Elo; random = 0)" in text.stdout and "anchor" in text.stdout
