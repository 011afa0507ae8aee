"""``python -m bench.duplicate``: how many games duplicate play saves.

Plays one match-up of two bots twice from the same seed, with the same
number of games: plainly (``bones simulate``: every game its own deal, the
seats alternating) and in duplicate (``bones simulate --duplicate``: half
as many deals, each from both seatings).  For two figures it gives the 95%
interval's width both ways:

* the first bot's **margin**, its points a game less the other bot's: over
  the plain run's games (each game its own unit), over the duplicate run's
  deals (``margin_per_game``, the deal the unit);
* its **win rate of decided games**: Wilson over the plain run's decided
  games, the delta method over the duplicate run's deals.

Plain play needs ``(plain width / duplicate width)^2`` times the games to
reach duplicate's width (the width shrinks as one over the square root of
the games), so duplicate saves ``1 - (duplicate width / plain width)^2`` of
them.  A benchmark, not a test: every figure depends on the seed alone.

    python -m bench.duplicate block-2p --hands 2000 --bots heuristic,greedy --seed 2026
    python -m bench.duplicate all-fives -n 1000 --bots heuristic,greedy --seed 2026
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from bench.common import machine_info


def _plain(variant: str, bots: list[str], games: int, seed: int,
           hands_only: bool) -> dict[str, Any]:
    """The plain run, game by game: the first bot's margin and its wins
    and losses of decided games."""
    from bones.sim.simulation import Layout, make_config, run_batch
    from bones.sim.stats import Z95, wilson

    config = make_config([variant], bots, games, seed, hands_only=hands_only)
    ix = Layout(config).index
    a, b = ix["0.bot0.score"], ix["0.bot1.score"]
    wa, wb = ix["0.bot0.win"], ix["0.bot1.win"]
    margins = []
    wins = decided = 0
    for g in range(games):
        one = run_batch(config, g, g + 1)
        margins.append(one.sums[a] - one.sums[b])
        wins += one.sums[wa]
        decided += one.sums[wa] + one.sums[wb]
    mean = sum(margins) / games
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (games - 1))
    rate = wilson(wins, decided)
    return {"games": games, "margin": round(mean, 3),
            "margin_width": round(2 * Z95 * sd / math.sqrt(games), 3),
            "decided_win_rate": round(rate.value, 4), "decided_games": decided,
            "win_width": round(rate.hi - rate.lo, 4)}


def _duplicate(variant: str, bots: list[str], deals: int, seed: int,
               hands_only: bool) -> dict[str, Any]:
    from bones.sim.simulation import make_config, report, simulate

    config = make_config([variant], bots, deals, seed, hands_only=hands_only, duplicate=True)
    dup = report(config, simulate(config))["duplicate"]
    first = dup["bots"][0]
    margin, rate = first["margin_per_game"], first["decided_win_rate"]
    return {"deals": deals, "games": dup["games"], "margin": margin["value"],
            "margin_width": round(margin["hi"] - margin["lo"], 3),
            "decided_win_rate": rate["value"], "decided_games": dup["decided"],
            "win_width": round(rate["hi"] - rate["lo"], 4)}


def run(variant: str, bots: list[str], games: int, seed: int, hands_only: bool) -> dict[str, Any]:
    """Both runs and what duplicate saves."""
    started = time.perf_counter()
    plain = _plain(variant, bots, games, seed, hands_only)
    dup = _duplicate(variant, bots, games // 2, seed, hands_only)
    saved = {}
    for key in ("margin_width", "win_width"):
        ratio = (plain[key] / dup[key]) ** 2 if dup[key] else math.inf
        saved[key] = {"plain_games_for_the_same_width": round(ratio * dup["games"]),
                      "saved": round(1 - 1 / ratio, 3) if ratio else 0.0}
    return {"variant": variant, "bots": bots, "seed": seed,
            "unit": "hands" if hands_only else "matches",
            "plain": plain, "duplicate": dup, "saving": saved,
            "seconds": round(time.perf_counter() - started, 1), "machine": machine_info()}


def describe(out: dict[str, Any]) -> str:
    p, d, s = out["plain"], out["duplicate"], out["saving"]
    unit = out["unit"]
    first = out["bots"][0]
    return "\n".join([
        f"{out['variant']}, {' v '.join(out['bots'])}, seed {out['seed']}: "
        f"{p['games']} {unit} plain, {d['deals']} deals x 2 = {d['games']} in duplicate",
        f"  {first}'s margin a game: plain {p['margin']:+.2f} (95% width {p['margin_width']}), "
        f"duplicate {d['margin']:+.2f} (width {d['margin_width']}): plain needs "
        f"{s['margin_width']['plain_games_for_the_same_width']} {unit} for duplicate's width "
        f"(saved {100 * s['margin_width']['saved']:.0f}%)",
        f"  {first}'s wins of decided games: plain {100 * p['decided_win_rate']:.1f}% "
        f"(width {100 * p['win_width']:.1f} points), duplicate "
        f"{100 * d['decided_win_rate']:.1f}% (width {100 * d['win_width']:.1f}): plain needs "
        f"{s['win_width']['plain_games_for_the_same_width']} {unit} "
        f"(saved {100 * s['win_width']['saved']:.0f}%)",
        f"  {out['seconds']} s",
    ])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.duplicate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant")
    size = ap.add_mutually_exclusive_group(required=True)
    size.add_argument("-n", type=int, help="matches in each run")
    size.add_argument("--hands", type=int, help="first hands in each run")
    ap.add_argument("--bots", required=True, help="two different bots, comma-separated")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", metavar="FILE", help="write the figures to FILE")
    o = ap.parse_args(argv)
    bots = o.bots.split(",")
    if len(bots) != 2 or bots[0] == bots[1]:
        ap.error("--bots takes two different bots")
    games = o.hands if o.hands is not None else o.n
    if games < 4 or games % 2:
        ap.error("the number of games must be even and at least 4")
    out = run(o.variant, bots, games, o.seed, o.hands is not None)
    print(describe(out))
    if o.json:
        with open(o.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
