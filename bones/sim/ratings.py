"""Elo-style ratings fitted on a tournament's results (Bradley-Terry).

Each bot ``i`` gets a strength ``r_i`` such that ``i`` finishes ahead of
``j`` with probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``: Elo's scale,
where 400 points more means ten-to-one odds.  The strengths are fitted by
maximum likelihood on every pairwise result together (a drawn comparison
counts half a win each way), so a bot's rating uses all of its games, not
only those against one opponent.

* **Anchor.** Ratings are relative; the anchor (``random`` when it plays,
  otherwise the first bot named) is fixed at 0 and the others are read
  against it.
* **Prior.** Every pair of bots that met is credited with one extra drawn
  comparison (half a win each way).  This weak prior keeps a rating finite
  when a bot wins every game (the maximum-likelihood rating would then be
  infinite), and moves the others by little once there are more than a few
  dozen games per pairing.
* **Intervals.** 95% intervals are ``rating ± 1.96`` standard errors from the
  curvature of the likelihood (with the prior), relative to the anchor,
  whose own interval is ``[0, 0]``.  With more than two players at a table,
  each game gives one comparison for every pair of seats; those are not
  independent, so the intervals are then somewhat too narrow.

>>> fit = fit_ratings(["a", "b"], {("a", "b"): (30, 10, 0)}, anchor="b")
>>> [(r.bot, round(r.elo)) for r in fit]
[('a', 185), ('b', 0)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

#: Elo points per unit of the logistic (natural) scale.
ELO = 400 / math.log(10)
#: The virtual drawn comparisons credited to every pair that met.
PRIOR_DRAWS = 1.0
_Z95 = 1.959964


class Rating(NamedTuple):
    bot: str
    elo: float
    lo: float
    hi: float


class RatingError(ValueError):
    """Results that cannot be rated (no games, or groups that never met)."""


def default_anchor(bots: Sequence[str]) -> str:
    """``random`` when it plays, otherwise the first bot."""
    for bot in bots:
        if bot == "random" or bot.startswith("random:"):
            return bot
    return bots[0]


def fit_ratings(bots: Sequence[str], results: Mapping[tuple[str, str], tuple[float, float, float]],
                anchor: str | None = None, prior: float = PRIOR_DRAWS) -> list[Rating]:
    """Ratings of ``bots`` in their order, from ``results``.

    ``results[(a, b)]`` is ``(a ahead of b, b ahead of a, drawn)``; each
    unordered pair should appear once (both orders are added up).
    """
    names = list(bots)
    if anchor is None:
        anchor = default_anchor(names)
    if anchor not in names:
        raise RatingError(f"the anchor {anchor} is not among the bots")
    n = len(names)
    at = {b: i for i, b in enumerate(names)}
    wins = [[0.0] * n for _ in range(n)]  # wins[i][j]: i ahead of j, draws halved
    for (a, b), (ab, ba, drawn) in results.items():
        i, j = at[a], at[b]
        wins[i][j] += ab + drawn / 2
        wins[j][i] += ba + drawn / 2
    games = [[wins[i][j] + wins[j][i] for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j] > 0:
                wins[i][j] += prior / 2
                games[i][j] += prior
    _check_connected(names, games)
    k = at[anchor]
    free = [i for i in range(n) if i != k]
    theta = [0.0] * n
    info: list[list[float]] = []
    for _ in range(100):
        grad, info = _derivatives(theta, wins, games, free)
        step = _solve(info, grad)
        for idx, i in enumerate(free):
            theta[i] += max(-3.0, min(3.0, step[idx]))
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    grad, info = _derivatives(theta, wins, games, free)
    cov = _inverse(info)
    out = []
    for i, bot in enumerate(names):
        elo = theta[i] * ELO
        if i == k:
            out.append(Rating(bot, 0.0, 0.0, 0.0))
            continue
        idx = free.index(i)
        se = math.sqrt(max(cov[idx][idx], 0.0)) * ELO
        out.append(Rating(bot, elo, elo - _Z95 * se, elo + _Z95 * se))
    return out


def _derivatives(theta: list[float], wins: list[list[float]], games: list[list[float]],
                 free: list[int]) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and information matrix over ``free``."""
    n = len(theta)
    grad_all = [0.0] * n
    info_all = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j or not games[i][j]:
                continue
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            grad_all[i] += wins[i][j] - games[i][j] * p
            w = games[i][j] * p * (1 - p)
            info_all[i][i] += w
            info_all[i][j] -= w
    grad = [grad_all[i] for i in free]
    info = [[info_all[i][j] for j in free] for i in free]
    return grad, info


def _check_connected(names: list[str], games: list[list[float]]) -> None:
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j, g in enumerate(games[i]):
            if g and j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) != len(names):
        apart = ", ".join(names[i] for i in range(len(names)) if i not in seen)
        raise RatingError(f"cannot rate {apart}: no games link them to {names[0]}")


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    inv = _inverse(a)
    return [sum(inv[i][j] * b[j] for j in range(len(b))) for i in range(len(b))]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small symmetric positive-definite matrix."""
    n = len(a)
    m = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise RatingError("the results do not determine the ratings")
        m[col], m[pivot] = m[pivot], m[col]
        scale = m[col][col]
        m[col] = [v / scale for v in m[col]]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [v - f * w for v, w in zip(m[r], m[col])]
    return [row[n:] for row in m]


def pairwise(bots: Sequence[str], ahead: Mapping[tuple[str, str], Sequence[int]]
             ) -> dict[tuple[str, str], tuple[float, float, float]]:
    """Results for :func:`fit_ratings` from a tournament's ``ahead`` counts:
    ``ahead[(a, b)] = [games a finished ahead of b, games they shared]``."""
    out = {}
    for x, a in enumerate(bots):
        for b in bots[x + 1:]:
            ab, n = ahead[(a, b)][0], ahead[(a, b)][1]
            ba = ahead[(b, a)][0]
            if n:
                out[(a, b)] = (float(ab), float(ba), float(n - ab - ba))
    return out


def ratings_report(bots: Sequence[str], ahead: Mapping[tuple[str, str], Sequence[int]],
                   anchor: str | None = None) -> dict[str, object]:
    """The ``ratings`` part of a tournament report (JSON-ready), best first."""
    anchor = anchor or default_anchor(bots)
    try:
        fitted = fit_ratings(bots, pairwise(bots, ahead), anchor)
    except RatingError as err:
        return {"anchor": anchor, "prior_draws": PRIOR_DRAWS, "error": str(err), "bots": []}
    fitted.sort(key=lambda r: -r.elo)
    return {
        "scale": "Elo (Bradley-Terry): +400 = ten-to-one odds of finishing ahead",
        "anchor": anchor,
        "prior_draws": PRIOR_DRAWS,
        "bots": [{"bot": r.bot, "elo": round(r.elo, 1), "lo": round(r.lo, 1),
                  "hi": round(r.hi, 1)} for r in fitted],
    }


__all__ = ["ELO", "PRIOR_DRAWS", "Rating", "RatingError", "default_anchor", "fit_ratings",
           "pairwise", "ratings_report"]
