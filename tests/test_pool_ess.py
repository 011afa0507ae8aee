"""The tempering of the tree's pool of worlds (``bones.bots.infer.tempered``):
the weights ``exp(lam * ll)`` keep an effective sample size of at least
``POOL_ESS`` of the pool, ``lam`` the largest such exponent to the
bisection's resolution, and 1 (the weights untouched) where the pool is
already that wide.  Pure Python: the same in either core's pass; the native
``tempered`` is checked against it through the tree's decisions
(tests/test_ismcts.py) and in native/src/bots/infer.rs's tests.
"""

from __future__ import annotations

import math

import pytest

from bones.bots.infer import POOL_DRAWS, POOL_ESS, TEMPER_STEPS, pool_ess, pool_size, tempered
from bones.bots.search import DEFAULT_ITERATIONS, DEFAULT_TREE, DEFAULT_TREE_WORLDS
from bones.engine.rng import Rng


def _lls(seed: int, n: int, spread: float) -> list[float]:
    rng = Rng(seed)
    return [-spread * rng.random() ** 2 for _ in range(n)]


def test_a_wide_pool_is_left_untouched() -> None:
    assert tempered([0.0] * 200) == 1.0
    assert tempered([-3.0]) == 1.0  # one world: the whole pool
    lls = _lls(1, 200, 0.5)  # weights within a factor e^0.5 of each other
    assert pool_ess(lls) >= POOL_ESS * 200
    assert tempered(lls) == 1.0


@pytest.mark.parametrize("seed,spread", [(2, 40.0), (3, 60.0), (4, 300.0), (5, 3000.0)])
def test_a_narrow_pool_is_tempered_to_the_floor(seed: int, spread: float) -> None:
    lls = _lls(seed, 200, spread)
    assert pool_ess(lls) < POOL_ESS * 200  # collapsed
    lam = tempered(lls)
    assert 0.0 < lam < 1.0
    # a multiple of the bisection's step, at the floor, and the largest such
    assert lam * 2 ** TEMPER_STEPS == int(lam * 2 ** TEMPER_STEPS)
    assert pool_ess(lls, lam) >= POOL_ESS * 200
    assert pool_ess(lls, lam + 2.0 ** -TEMPER_STEPS) < POOL_ESS * 200
    # the order of the worlds changes nothing (the bisection's test
    # compares sums, in the pool's order: equal here within rounding)
    assert abs(tempered(sorted(lls)) - lam) <= 2.0 ** -TEMPER_STEPS


def test_the_floor_is_a_share_of_the_pool() -> None:
    lls = [0.0] + [-50.0] * 99  # one world counts
    assert math.isclose(pool_ess(lls), 1.0)
    assert tempered(lls, 0.0) == 1.0
    low, high = tempered(lls, 0.1), tempered(lls, 0.5)
    assert 0.0 < high < low < 1.0
    assert pool_ess(lls, low) >= 10.0 and pool_ess(lls, high) >= 50.0
    assert tempered(lls, 1.0) == 0.0  # only equal weights fill the whole pool


def test_a_tree_pools_no_more_worlds_than_a_third_of_its_iterations() -> None:
    # the default tree keeps its whole pool; a small budget weighs a few worlds
    assert pool_size(DEFAULT_TREE_WORLDS, DEFAULT_TREE * DEFAULT_ITERATIONS) == DEFAULT_TREE_WORLDS
    assert POOL_DRAWS == 3
    assert pool_size(1000, 5) == 1 and pool_size(1000, 0) == 1
    assert pool_size(1000, 880) == 293 and pool_size(30, 880) == 30
