"""examples/train_actions.py, the worked training example: its action
features measure what bones' own bots measure, its training is seeded, and
the policy it saves plays through ``bones simulate`` (at a tiny budget: the
documented run takes minutes and is not part of the suite)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from typer.testing import CliRunner  # noqa: E402

import bones.bots as bots_module  # noqa: E402
from bones.adapters.common import Game, compile_table  # noqa: E402
from bones.bots.basic import _reply_estimate, barred_for  # noqa: E402
from bones.bots.policies import greedy_move  # noqa: E402
from bones.cli.app import app  # noqa: E402
from bones.engine.moves import TILE_SHIFT  # noqa: E402
from bones.seat.observation import Observation  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "train_actions.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_actions", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ex = _load()


def _observations(hands: int, seed: int) -> list[Observation]:
    """Every decision with a choice in ``hands`` greedy hands of All Fives."""
    rules = compile_table("all-fives", 2, None)
    found = []
    for k in range(hands):
        game = Game(rules, None, seed=seed + k)
        while not game.over:
            obs = game.observe(game.turn)
            legal = obs.legal_moves()
            if len(legal) > 1:
                found.append(obs)
            game.step(greedy_move(obs.layout, legal))
    return found


def _weights(**named: float) -> object:
    return np.array([named.get(name, 0.0) for name in ex.FEATURES])


def test_the_points_feature_is_what_greedy_maximises() -> None:
    # greedy: most points, then the heaviest tile, then a double; never a
    # voluntary draw.  The same order as weights on the features:
    w = _weights(points=1.0, shed=1e-3, double=1e-6, draw=-100.0)
    observations = _observations(12, 40)
    assert len(observations) > 100
    for obs in observations:
        legal, rows = ex.features(obs)
        assert rows.shape == (len(legal), len(ex.FEATURES))
        assert legal[int(np.argmax(rows @ w))] == greedy_move(obs.layout, legal)


def test_the_reply_feature_is_the_heuristics_estimate() -> None:
    checked = 0
    for obs in _observations(12, 90):
        legal, rows = ex.features(obs)
        rules = obs.rules
        opponent = rules.opponent_after[obs.seat]
        candidates = obs.unseen & ~barred_for(obs, opponent)
        p_hold = min(1.0, obs.counts[opponent] / obs.unseen.bit_count())
        for move, row in zip(legal, rows):
            if move < 0 or obs.hand == 1 << (move >> TILE_SHIFT):
                continue
            expected = _reply_estimate(obs.layout, move, candidates, p_hold)
            assert row[ex.FEATURES.index("reply")] == pytest.approx(expected / 10)
            checked += expected > 0
    assert checked > 50


def test_training_is_seeded_and_the_policy_plays_in_simulate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots_module, "_PERMITTED", set())
    a = ex.train(2, str(tmp_path / "a.npz"), hands=6, seed=4, log=100)
    b = ex.train(2, str(tmp_path / "b.npz"), hands=6, seed=4, log=100)
    c = ex.train(2, str(tmp_path / "c.npz"), hands=6, seed=5, log=100)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.any(a != 0)  # it learned something from its first hands
    bot = f"file:{SCRIPT}:ActionBot:weights={tmp_path / 'a.npz'}"
    result = CliRunner().invoke(app, ["simulate", "all-fives", "-n", "2", "--seed", "3",
                                      "--json", "--quiet", "--bots", bot, "--bots", "greedy"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    played = next(row for row in body["bots"] if row["bot"] == bot)
    assert played["games"] == 2


def test_weights_for_other_features_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    np.savez(path, weights=np.zeros(3), features=np.array(["points", "shed", "double"]))
    with pytest.raises(ValueError, match="trained on other features"):
        ex.ActionBot(str(path))
