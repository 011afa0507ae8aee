"""What the bridges to outside opponents share: paired deals, the run across
processes, and the report.

A *pair* is one deal played twice with the sides swapped: the same tiles in
the same seats, bones' bot in one side's seats the first time and in the
other side's the second time, so neither side profits from a lucky deal.
Games are the unit of the figures: each ends in a win, a tie or a loss for
bones, and a tie is not a win.  Both the win rate of the decided games and
the win rate of all games are given with Wilson 95% intervals
(:func:`bones.sim.stats.wilson`).  The deals' results are read as ``bones
simulate --duplicate`` reads its own
(:func:`bones.sim.duplicate.deal_results`).

The time of a move is the wall-clock time of one decision with more than one
legal option (forced moves are made at once by both sides and not counted);
with ``--jobs 2`` the two processes share the machine with whatever else
runs, so times are comparable between the sides of one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from bench.common import machine_info
from bones.sim.duplicate import deal_key, deal_results


@dataclass
class Game:
    """One game of a pair, from bones' side."""

    deal: int             # the deal's seed
    bones_side: int       # the seat (2 players) or team (partnerships) bones played
    outcome: int          # +1 bones won, 0 tie, -1 bones lost
    points: int           # bones' points less the opponent's
    moves: int            # moves of both sides in the game, passes included
    bones_ms: list[float] = field(default_factory=list)   # decisions with a choice
    peer_ms: list[float] = field(default_factory=list)


def pairs_of(deals: int, seed: int) -> list[tuple[int, int]]:
    """Every game to play: (deal seed, bones' side), two per deal."""
    return [(seed + i, side) for i in range(deals) for side in (0, 1)]


def play_all(task: Callable[[tuple[int, int]], Game], games: list[tuple[int, int]], jobs: int,
             progress: Callable[[list[Game], int], None] | None = None,
             init: Callable[..., None] | None = None, initargs: tuple = ()) -> list[Game]:
    """Play ``games`` with ``task`` in ``jobs`` processes; results in order.

    ``task`` and ``init`` (run first in every process) must be module-level
    functions: the workers import them."""
    out: list[Game] = []
    if init is not None:
        init(*initargs)
    if jobs <= 1:
        for g in games:
            out.append(task(g))
            if progress:
                progress(out, len(games))
        return out
    ctx = multiprocessing.get_context("spawn")  # no state shared with the parent
    with ctx.Pool(jobs, initializer=init, initargs=initargs) as pool:
        for result in pool.imap(task, games, chunksize=1):
            out.append(result)
            if progress:
                progress(out, len(games))
    return out


def _wilson(successes: int, n: int) -> dict[str, float]:
    from bones.sim.stats import wilson

    e = wilson(successes, n)
    return {"rate": round(100 * e.value, 1), "lo": round(100 * e.lo, 1), "hi": round(100 * e.hi, 1)}


def _ms(values: Iterable[float]) -> dict[str, float | int]:
    v = sorted(values)
    if not v:
        return {"decisions": 0}
    return {"decisions": len(v), "median_ms": round(statistics.median(v), 2),
            "p90_ms": round(v[min(len(v) - 1, int(0.9 * len(v)))], 2),
            "mean_ms": round(statistics.fmean(v), 2)}


def summarise(games: list[Game]) -> dict[str, object]:
    wins = sum(g.outcome > 0 for g in games)
    ties = sum(g.outcome == 0 for g in games)
    losses = sum(g.outcome < 0 for g in games)
    by_deal: dict[int, list[int]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g.outcome)
    pairs = [o for o in by_deal.values() if len(o) == 2]
    # each pair's result: bones' wins, the peer's, the ties
    results: dict[int, int] = {}
    for o in pairs:
        key = deal_key([sum(x > 0 for x in o), sum(x < 0 for x in o)], o.count(0), 2)
        results[key] = results.get(key, 0) + 1
    swept = deal_results(results, ("bones", "peer"), 2)["swept"]
    return {
        "games": len(games),
        "pairs": len(pairs),
        "wins": wins, "ties": ties, "losses": losses,
        "win_rate_decided": _wilson(wins, wins + losses),
        "win_rate_all": _wilson(wins, len(games)),
        "mean_points": round(statistics.fmean(g.points for g in games), 2) if games else 0.0,
        # pairs: bones won both games of the deal / split or tied / lost both
        "pairs_won_both": swept[0],
        "pairs_lost_both": swept[1],
        "bones_time": _ms(t for g in games for t in g.bones_ms),
        "peer_time": _ms(t for g in games for t in g.peer_ms),
    }


def describe(summary: dict, bones: str, peer: str) -> str:
    s = summary
    d, a = s["win_rate_decided"], s["win_rate_all"]
    bt, pt = s["bones_time"], s["peer_time"]
    lines = [
        f"{s['pairs']} paired deals, {s['games']} games: bones {bones} won {s['wins']}, "
        f"tied {s['ties']}, lost {s['losses']} against {peer}",
        f"  win rate of decided games {d['rate']}% [{d['lo']}, {d['hi']}] (Wilson 95%)",
        f"  win rate of all games     {a['rate']}% [{a['lo']}, {a['hi']}] (a tie is not a win)",
        f"  mean points per game (bones less peer) {s['mean_points']:+}; deals won twice "
        f"{s['pairs_won_both']}, lost twice {s['pairs_lost_both']}",
    ]
    for who, t in (("bones", bt), ("peer", pt)):
        if t.get("decisions"):
            lines.append(f"  {who:5} median {t['median_ms']} ms a move with a choice "
                         f"(90th percentile {t['p90_ms']} ms, {t['decisions']} decisions)")
    return "\n".join(lines)


def common_args(ap: argparse.ArgumentParser, bot: str = "search") -> None:
    ap.add_argument("--deals", type=int, default=200, help="paired deals (each played twice; 200)")
    ap.add_argument("--seed", type=int, default=2026, help="the first deal's seed (2026)")
    ap.add_argument("--bot", default=bot, help=f"bones' bot ({bot})")
    ap.add_argument("--jobs", type=int, default=1, help="processes (1)")
    ap.add_argument("--json", metavar="FILE", help="write the summary and every game to FILE")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")


def report(opts: argparse.Namespace, games: list[Game], peer: str, settings: dict,
           started: float, argv: list[str] | None) -> dict[str, object]:
    summary = summarise(games)
    print(describe(summary, opts.bot, peer))
    took = time.time() - started
    print(f"  {took:.0f} s wall clock, --jobs {opts.jobs}")
    body: dict[str, object] = {
        "command": " ".join([sys.argv[0] if argv is None else "", *(sys.argv[1:] if argv is None
                                                                     else argv)]).strip(),
        "bones_bot": opts.bot, "peer": peer, "settings": settings,
        "deals": opts.deals, "seed": opts.seed, "jobs": opts.jobs,
        "seconds": round(took, 1),
        "machine": machine_info(),
        "summary": summary,
        "games": [asdict(g) for g in games],
    }
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as fh:
            json.dump(body, fh, indent=1)
            fh.write("\n")
    return body


def partial_file(opts: argparse.Namespace) -> str | None:
    """Where the games so far are kept during a run: FILE.partial for --json FILE."""
    return opts.json + ".partial" if opts.json else None


def progress_printer(quiet: bool, partial: str | None = None) -> Callable[[list[Game], int], None]:
    """Every 20 games: a line with the tally so far on stderr (unless
    ``quiet``) and, with ``partial``, the games so far as JSON in that file,
    so a long run that is stopped still leaves its figures."""
    start = time.time()

    def show(done: list[Game], total: int) -> None:
        n = len(done)
        if n % 20 and n != total:
            return
        if partial:
            with open(partial, "w", encoding="utf-8") as fh:
                json.dump({"summary": summarise(done), "games": [asdict(g) for g in done]}, fh)
        if not quiet:
            w = sum(g.outcome > 0 for g in done)
            t = sum(g.outcome == 0 for g in done)
            print(f"  {n}/{total} games, {time.time() - start:.0f} s: bones won {w}, tied {t}, "
                  f"lost {n - w - t}", file=sys.stderr, flush=True)

    return show
