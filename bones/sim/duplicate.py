"""Duplicate play: every deal played from every seat rotation of the lineup.

A duplicate run plays deal ``d`` once from each distinct rotation of the
lineup (seat ``s`` of rotation ``r`` holds the lineup's entry ``(s + r) mod
players``): two games a deal for two bots or two teams, ``n`` for ``n``
different bots in ``n`` seats, and with partnerships both team assignments.
Every game of a deal is a match seeded by the deal (hand ``h`` shuffled from
the deal's stream of hand ``h``, its leads by lot or at random drawn apart:
docs/random.md), so the luck of the deal falls on every bot alike and what
is left is the difference between the bots.

The deal is then the unit of the paired statistics: a few integers per deal
and table (its decided games, each bot's wins and points over the deal's
games), summed with their pair products like the games' quantities
(:class:`DealLayout`), and a histogram of the deals' results (each bot's
wins and the ties, one integer key: :func:`deal_key`).  Ties are counted
apart: a win rate is of the decided games.

>>> rotations(("search", "pimc"))
2
>>> rotations(("a", "b", "a", "b"))      # partnerships: both team assignments
2
>>> seating(("a", "b", "c"), 1)
('b', 'c', 'a')
>>> deal_parts(deal_key([2, 0], 0, 2), 2, 2)
([2, 0], 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bones.sim.stats import Estimate, Moments


def rotations(lineup: Sequence[str]) -> int:
    """How many different seatings rotating ``lineup`` gives: the smallest
    ``p >= 1`` such that rotating it by ``p`` seats gives it back."""
    n = len(lineup)
    for p in range(1, n + 1):
        if n % p == 0 and all(lineup[s] == lineup[(s + p) % n] for s in range(n)):
            return p
    return n  # pragma: no cover - p = n always qualifies


def seating(lineup: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The bot in each seat in ``rotation``."""
    n = len(lineup)
    return tuple(lineup[(s + rotation) % n] for s in range(n))


def deal_key(wins: Sequence[int], ties: int, games: int) -> int:
    """One integer for a deal's result: each bot's wins over the deal's
    ``games`` games, then the tied games, as the digits of a number in base
    ``games + 1`` (the first bot's wins the lowest digit)."""
    base = games + 1
    key = 0
    for digit in reversed([*wins, ties]):
        key = key * base + digit
    return key


def deal_parts(key: int, bots: int, games: int) -> tuple[list[int], int]:
    """The wins per bot and the ties of a :func:`deal_key`."""
    base = games + 1
    wins = []
    for _ in range(bots):
        key, digit = divmod(key, base)
        wins.append(digit)
    return wins, key


class DealLayout:
    """Where each per-deal quantity sits in a duplicate run's deal vector:
    per table ``t``, the deal's decided games (``{t}.decided``) and per
    distinct bot ``d`` its wins (``{t}.bot{d}.win``) and its sides' points
    (``{t}.bot{d}.score``) over the deal's games.  Every pair product is
    kept (the vector is short), so any linear statistic of a deal has its
    variance across deals."""

    def __init__(self, tables: int, bots: int) -> None:
        self.names: list[str] = []
        for t in range(tables):
            self.names.append(f"{t}.decided")
            for d in range(bots):
                self.names += [f"{t}.bot{d}.win", f"{t}.bot{d}.score"]
        self.index = {name: i for i, name in enumerate(self.names)}
        size = len(self.names)
        self.pairs = [(i, j) for i in range(size) for j in range(i, size)]
        self.slots = [(self.index[f"{t}.decided"],
                       tuple(self.index[f"{t}.bot{d}.win"] for d in range(bots)),
                       tuple(self.index[f"{t}.bot{d}.score"] for d in range(bots)))
                      for t in range(tables)]

    def __len__(self) -> int:
        return len(self.names)


def add_game(deal: list[int], slots: tuple[int, tuple[int, ...], tuple[int, ...]],
             tie: int, wins: Sequence[int], scores: Sequence[int]) -> None:
    """Add one game of a deal to its deal vector: ``tie`` (1 when nobody
    won), each distinct bot's win (0 or 1) and its sides' points."""
    decided, win_at, score_at = slots
    deal[decided] += 1 - tie
    for d, at in enumerate(win_at):
        deal[at] += wins[d]
    for d, at in enumerate(score_at):
        deal[at] += scores[d]


def result_key(deal: Sequence[int], slots: tuple[int, tuple[int, ...], tuple[int, ...]],
               games: int) -> int:
    """The :func:`deal_key` of a finished deal vector's table."""
    decided, win_at, _ = slots
    return deal_key([deal[at] for at in win_at], games - deal[decided], games)


# ----------------------------------------------------------------- report

def deal_results(hist: Mapping[int, int], bots: Sequence[str], games: int) -> dict[str, Any]:
    """The deals' results from their histogram: one row per result seen
    (each bot's wins and the ties, most common first) and, per bot, the
    deals it won in every game (every rotation).  bench/versus.py reads its
    paired deals with it too."""
    parts = []
    swept = [0] * len(bots)
    for key, count in hist.items():
        wins, ties = deal_parts(key, len(bots), games)
        parts.append((count, wins, ties))
        for d, w in enumerate(wins):
            if w == games:
                swept[d] += count
    parts.sort(key=lambda p: (-p[0], [-w for w in p[1]], p[2]))
    rows = [{"wins": wins, "ties": ties, "deals": count} for count, wins, ties in parts]
    return {"results": rows, "swept": swept}


def _margin_coeffs(score_at: Sequence[int], multiplicity: Sequence[int], d: int,
                   sign: float = 1.0) -> dict[int, float]:
    """Bot ``d``'s points per seat less the mean of the other bots'."""
    others = len(score_at) - 1
    coeffs = {score_at[d]: sign / multiplicity[d]}
    for e, at in enumerate(score_at):
        if e != d:
            coeffs[at] = coeffs.get(at, 0.0) - sign / (multiplicity[e] * others)
    return coeffs


def _est(e: Estimate, digits: int = 4) -> dict[str, Any]:
    out = {"value": round(e.value, digits), "lo": round(e.lo, digits),
           "hi": round(e.hi, digits)}
    if e.se is not None:
        out["se"] = round(e.se, digits)
    return out


def paired_report(m: Moments, layout: DealLayout, t: int, bots: Sequence[str],
                  multiplicity: Sequence[int], seatings: Sequence[Sequence[str]],
                  hist: Mapping[int, int], fair: Sequence[float]) -> dict[str, Any]:
    """The paired statistics of table ``t`` over ``m.n`` deals: per bot its
    win rate of the decided games and its margin (its points per seat less
    the other bots', per deal and per game), with 95% intervals computed
    across deals; the deals' results; the tied games apart."""
    games = len(seatings)
    decided_at, win_at, score_at = layout.slots[t]
    decided = m.sums[decided_at]
    results = deal_results(hist, bots, games)
    rows = []
    for d, name in enumerate(bots):
        margin = m.linear(_margin_coeffs(score_at, multiplicity, d))
        rows.append({
            "bot": name,
            "wins": m.sums[win_at[d]],
            "decided_win_rate": _est(m.ratio(win_at[d], decided_at).clipped()),
            "fair_share": round(fair[d], 4),
            "margin_per_deal": _est(margin),
            "margin_per_game": _est(margin.scaled(1 / games)),
            "deals_won_every_game": results["swept"][d],
        })
    return {
        "deals": m.n,
        "games_per_deal": games,
        "seatings": [list(s) for s in seatings],
        "games": m.n * games,
        "decided": decided,
        "ties": m.n * games - decided,
        "bots": rows,
        "deal_results": results["results"],
    }


def paired_difference(m: Moments, layout: DealLayout, bots: Sequence[str],
                      multiplicity: Sequence[int], games: int) -> list[dict[str, Any]]:
    """Per bot, table 0 less table 1 over the same deals (``bones compare
    --duplicate``): the win rate of decided games and the margin per deal."""
    (dec0, win0, score0), (dec1, win1, score1) = layout.slots[0], layout.slots[1]
    out = []
    for d, name in enumerate(bots):
        coeffs = _margin_coeffs(score0, multiplicity, d)
        for at, c in _margin_coeffs(score1, multiplicity, d, -1.0).items():
            coeffs[at] = coeffs.get(at, 0.0) + c
        margin = m.linear(coeffs)
        out.append({
            "bot": name,
            "decided_win_rate": _est(m.diff_ratio(win0[d], dec0, win1[d], dec1)),
            "margin_per_deal": _est(margin),
            "margin_per_game": _est(margin.scaled(1 / games)),
        })
    return out


__all__ = [
    "DealLayout",
    "add_game",
    "deal_key",
    "deal_parts",
    "deal_results",
    "paired_difference",
    "paired_report",
    "result_key",
    "rotations",
    "seating",
]
