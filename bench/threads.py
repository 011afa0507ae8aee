"""The native search's threads: wall time a move with a choice, by threads.

    python -m bench.threads [--positions 60] [--threads 1,2] [--variants all-fives,block-2p]

Positions with a choice are taken from the first hands of matches played by
``greedy`` (seeded 0, 1, ...) at each variant's default table (its smallest
number of players, in partnerships where they are required); at each one ``search`` (its defaults, or
``--bot``) chooses with each number of threads from the same stream, and
whether the moves were the same is reported (``same_moves``: always where
the worlds are judged or solved; where the information-set tree chooses,
``threads=N`` grows N trees side by side, another search, so the share of
positions with the same move is given too).  Prints, per variant and threads, the
median and the 90th percentile of the wall time a move (``perf_counter``:
the threads' work included, unlike a simulation's CPU time of the calling
thread) and the process's CPU time a move, with the machine's load average,
which the speed-up depends on (a loaded 2-core machine gains little).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from bench.common import compile_table


def _positions(rules: Any, n: int) -> list[Any]:
    from bones.bots.policies import greedy_move
    from bones.engine.match import Match
    from bones.seat.observation import observe

    out: list[Any] = []
    seed = 0
    while len(out) < n:
        hand = Match(rules, seed).new_hand()
        while not hand.over:
            legal = hand.legal_moves()
            if len(legal) > 1 and len(out) < n:
                out.append(observe(hand, hand.turn, legal))
            hand.apply(greedy_move(hand, legal))
        seed += 1
    return out


def run(variants: list[str], threads: list[int], positions: int, bot: str) -> dict[str, Any]:
    from bones.bots import make_bot
    from bones.engine import core
    from bones.engine.rng import Rng

    if core.native() is None:
        raise SystemExit("bench.threads measures the native search: install the native core")
    out: dict[str, Any] = {"bot": bot, "positions": positions, "cpus": os.cpu_count(),
                           "load_before": list(os.getloadavg()), "variants": {}}
    for name in variants:
        rules = compile_table(name)
        obs = _positions(rules, positions)
        moves: dict[int, list[int]] = {}
        rows = {}
        for k in threads:
            searcher = make_bot(f"{bot}:threads={k}" if k != 1 else bot)
            walls, cpus, chosen = [], [], []
            for i, o in enumerate(obs):
                w, c = time.perf_counter(), time.process_time()
                chosen.append(searcher.choose(o, Rng(i)))
                walls.append((time.perf_counter() - w) * 1000)
                cpus.append((time.process_time() - c) * 1000)
            moves[k] = chosen
            walls.sort()
            rows[str(k)] = {"median_wall_ms": round(statistics.median(walls), 3),
                            "p90_wall_ms": round(walls[int(0.9 * (len(walls) - 1))], 3),
                            "median_cpu_ms": round(statistics.median(cpus), 3)}
        first = moves[threads[0]]
        rows["same_moves"] = all(m == first for m in moves.values())
        rows["same_move_share"] = round(
            sum(all(m[i] == first[i] for m in moves.values()) for i in range(len(first)))
            / max(1, len(first)), 3)
        out["variants"][name] = rows
    out["load_after"] = list(os.getloadavg())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--variants", default="all-fives,block-2p")
    parser.add_argument("--bot", default="search")
    args = parser.parse_args()
    got = run(args.variants.split(","), [int(t) for t in args.threads.split(",")],
              args.positions, args.bot)
    print(json.dumps(got, indent=2))


if __name__ == "__main__":
    main()
