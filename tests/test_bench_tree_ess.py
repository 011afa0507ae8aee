"""``bench.tree_ess``: the effective size of the tree's pool of worlds."""

from __future__ import annotations

from bench import tree_ess


def test_the_pool_is_measured_where_the_tree_grows_and_tempered_to_the_floor() -> None:
    got = tree_ess.measure("all-fives", 1, 20, 1.0, 2031, 0.5, with_brier=True)
    assert isinstance(got["positions"], int) and got["positions"] > 3
    raw, tempered, lam = got["ess"], got["tempered_ess"], got["lambda"]
    assert isinstance(raw, dict) and isinstance(tempered, dict) and isinstance(lam, dict)
    assert 1.0 <= raw["min"] <= raw["median"] <= 20.0
    assert tempered["min"] >= 10.0 and tempered["median"] >= raw["median"]
    assert 0.0 < lam["min"] <= lam["median"] <= 1.0
    brier = got["brier"]
    assert isinstance(brier, dict) and set(brier) == {"uniform", "raw", "tempered"}
    assert all(0.0 <= v <= 1.0 for v in brier.values())
