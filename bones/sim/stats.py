"""Confidence intervals for simulation summaries.

Games (matches, or hands under ``--hands``) are the independent units: hands
within a match are correlated, so per-hand figures are ratio estimates
(total over matches / hands over matches) whose standard error comes from
the spread across matches (the delta method), never from the hands
themselves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval (``lo``/``hi``) and standard error."""

    value: float
    lo: float
    hi: float
    se: float | None = None  # None for Wilson intervals

    def scaled(self, k: float) -> Estimate:
        """The estimate of ``k`` times the quantity.

        >>> Estimate(2.0, 1.0, 3.0, 0.5).scaled(2)
        Estimate(value=4.0, lo=2.0, hi=6.0, se=1.0)
        """
        return Estimate(self.value * k, self.lo * k, self.hi * k,
                        None if self.se is None else self.se * k)

    def shifted(self, k: float) -> Estimate:
        """The estimate of the quantity plus ``k``."""
        return Estimate(self.value + k, self.lo + k, self.hi + k, self.se)

    def clipped(self) -> Estimate:
        """A share's normal interval kept within 0..1."""
        return Estimate(self.value, max(0.0, self.lo), min(1.0, self.hi), self.se)


def wilson(successes: float, n: int, z: float = Z95) -> Estimate:
    """The Wilson score interval for a proportion.

    >>> e = wilson(60, 100)
    >>> round(e.lo, 4), round(e.hi, 4)
    (0.502, 0.6906)
    >>> wilson(0, 0).value
    0.0
    """
    if n <= 0:
        return Estimate(0.0, 0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # the interval touches 0 or 1 exactly at the extremes (rounding aside)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return Estimate(p, lo, hi)


def normal(value: float, se: float) -> Estimate:
    return Estimate(value, value - Z95 * se, value + Z95 * se, se)


class Moments:
    """Sums and cross-products of per-game quantities, read as estimates.

    ``sums[i]`` is the total of quantity ``i`` over ``n`` games and
    ``pairs[(i, j)]`` (``i <= j``) the total of their products, for the pairs
    that were collected.
    """

    def __init__(self, n: int, sums: list[int], pairs: dict[tuple[int, int], int]) -> None:
        self.n = n
        self.sums = sums
        self.pairs = pairs

    def _pair(self, i: int, j: int) -> int:
        return self.pairs[(i, j) if i <= j else (j, i)]

    def linear_var(self, coeffs: dict[int, float]) -> float:
        """Sample variance across games of ``sum(c * q[i])``."""
        n = self.n
        if n < 2:
            return 0.0
        mean = sum(c * self.sums[i] for i, c in coeffs.items()) / n
        second = 0.0
        for i, ci in coeffs.items():
            for j, cj in coeffs.items():
                second += ci * cj * self._pair(i, j)
        return max(0.0, (second - n * mean * mean) / (n - 1))

    def mean(self, i: int) -> Estimate:
        """Mean per game of quantity ``i``, with its standard error."""
        n = self.n
        if not n:
            return normal(0.0, 0.0)
        return normal(self.sums[i] / n, math.sqrt(self.linear_var({i: 1.0}) / n))

    def linear(self, coeffs: dict[int, float]) -> Estimate:
        """Mean per game of ``sum(c * q[i])``, with its standard error.

        >>> m = Moments(3, [3, 6], {(0, 0): 5, (0, 1): 8, (1, 1): 14})
        >>> round(m.linear({1: 1.0, 0: -1.0}).value, 4)
        1.0
        """
        n = self.n
        if not n:
            return normal(0.0, 0.0)
        value = sum(c * self.sums[i] for i, c in coeffs.items()) / n
        return normal(value, math.sqrt(self.linear_var(coeffs) / n))

    def ratio(self, i: int, by: int, scale: float = 1.0) -> Estimate:
        """``scale * sum(q[i]) / sum(q[by])`` with a delta-method error."""
        n = self.n
        total = self.sums[by]
        if not n or not total:
            return normal(0.0, 0.0)
        r = self.sums[i] / total
        var = self.linear_var({i: 1.0, by: -r} if i != by else {i: 0.0})
        se = math.sqrt(var / n) / (total / n)
        return normal(scale * r, scale * se)

    def proportion(self, i: int, scale: int = 1) -> Estimate:
        """Wilson interval of a 0/1 quantity (``scale`` for a summed multiple)."""
        return wilson(self.sums[i] / scale, self.n)

    def diff_mean(self, a: int, b: int) -> Estimate:
        """Paired difference of the means of quantities ``a`` and ``b``."""
        n = self.n
        if not n:
            return normal(0.0, 0.0)
        var = self.linear_var({a: 1.0, b: -1.0}) if a != b else 0.0
        return normal((self.sums[a] - self.sums[b]) / n, math.sqrt(var / n))

    def diff_ratio(self, a: int, a_by: int, b: int, b_by: int) -> Estimate:
        """Paired difference of two ratios (each ``sum/sum``) over the same games."""
        n = self.n
        ta, tb = self.sums[a_by], self.sums[b_by]
        if not n or not ta or not tb:
            return normal(0.0, 0.0)
        ra, rb = self.sums[a] / ta, self.sums[b] / tb
        ha, hb = ta / n, tb / n
        coeffs: dict[int, float] = {}
        for index, c in ((a, 1 / ha), (a_by, -ra / ha), (b, -1 / hb), (b_by, rb / hb)):
            coeffs[index] = coeffs.get(index, 0.0) + c
        return normal(ra - rb, math.sqrt(self.linear_var(coeffs) / n))


def histogram_stats(hist: dict[int, int]) -> dict[str, float]:
    """Count, mean, standard deviation, min, median and max of a histogram."""
    total = sum(hist.values())
    if not total:
        return {"n": 0, "mean": 0.0, "sd": 0.0, "min": 0, "median": 0, "max": 0}
    s = sum(v * c for v, c in hist.items())
    s2 = sum(v * v * c for v, c in hist.items())
    mean = s / total
    sd = math.sqrt(max(0.0, (s2 - total * mean * mean) / (total - 1))) if total > 1 else 0.0
    seen = 0
    median = 0
    for v in sorted(hist):
        seen += hist[v]
        if 2 * seen >= total:
            median = v
            break
    return {"n": total, "mean": mean, "sd": sd, "min": min(hist), "median": median,
            "max": max(hist)}


__all__ = ["Z95", "Estimate", "Moments", "histogram_stats", "normal", "wilson"]
