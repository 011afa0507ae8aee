"""The longest decision of ``search``, game by game: CPU time of every
decision with a choice, the longest printed per game.

    python -m bench.search_times [-n 500] [--variants all-fives,sniff,muggins,block-2p]
                                 [--seed 2027] [--bots search,heuristic] [--timed search]
                                 [--players N] [--hands] [--out FILE]

Plays the games ``bones simulate VARIANT -n N --bots BOTS --seed SEED``
plays (the same deals, seats rotating, each seat's bot drawing from its own
stream: docs/random.md), timing every decision with a choice of the bots
named ``--timed`` by the CPU time of this thread (``time.thread_time``, as
the simulation times ``search``: its cost on one core whatever else the
machine runs). Prints one line a game: its longest decision, where it was
(the decision's number in the game, its legal moves, the tiles in each
hand, the tiles left to draw) and the game's median; then, per variant and
over everything, the decisions timed, their median, 99th percentile and
maximum, and the games whose longest decision passed 0.5, 1 and 2 s, with
the load average before and after (a loaded machine slows CPU time too,
through its caches), and the median of every timed decision. ``--players``
seats that many (default: the variant's fewest); ``--hands`` plays each
game's first hand only (a train game's round) instead of its whole match.
``--out`` keeps every game's line as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

from bench.common import compile_table


def play(variant: str, games: int, seed: int, bots: list[str], timed: str,
         log: Any = print, players: int | None = None,
         hands_only: bool = False) -> list[dict[str, Any]]:
    """Every game's longest timed decision (and its median), as rows."""
    from bones.bots import make_bot
    from bones.engine.match import Match
    from bones.engine.rng import BOTS, stream
    from bones.seat.observation import observe
    from bones.sim.simulation import game_seed

    rules = compile_table(variant, players)
    lineup = [make_bot(b) for b in bots]
    players = rules.players
    rows = []
    for g in range(games):
        gs = game_seed(seed, g)
        # seat s of game g holds the lineup's entry (s + g) mod players (sim.run_batch)
        seated = [lineup[((s + g) % players) % len(lineup)] for s in range(players)]
        rngs = [stream(gs, BOTS, s) for s in range(players)]
        match = Match(rules, seed=gs)
        times: list[float] = []
        worst: dict[str, Any] = {"cpu_ms": -1.0}
        decision = 0
        while not match.game_over:
            hand = match.new_hand()
            while not hand.state:
                legal = hand.legal_moves()
                if len(legal) == 1:
                    hand.apply(legal[0])
                    continue
                seat = hand.turn
                bot = seated[seat]
                decision += 1
                obs = observe(hand, seat, legal)
                t0 = time.thread_time()
                move = bot.choose(obs, rngs[seat])
                cpu = (time.thread_time() - t0) * 1000
                if bot.name.split(":")[0] == timed:
                    times.append(cpu)
                    if cpu > worst["cpu_ms"]:
                        worst = {"cpu_ms": round(cpu, 2), "decision": decision,
                                 "seat": seat, "legal": len(legal),
                                 "tiles": [h.bit_count() for h in hand.hands],
                                 "drawable": obs.drawable, "scores": list(match.scores)}
                hand.apply(move)
            match.finish_hand(hand)
            if hands_only:
                break
        winner = match.winner
        row = {"variant": variant, "seed": seed, "game": g, "decisions": len(times),
               "winner": seated[rules.owner.index(winner)].name if winner >= 0 else None,
               "median_ms": round(statistics.median(times), 2) if times else None,
               "times_ms": [round(t, 3) for t in times],
               "max": worst if times else None}
        rows.append(row)
        if times:
            w = worst
            log(f"{variant} seed {seed} game {g}: max {w['cpu_ms']:.1f} ms (decision "
                f"{w['decision']}, {w['legal']} legal, tiles {w['tiles']}, drawable "
                f"{w['drawable']}), median {row['median_ms']} ms over {len(times)}")
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The decisions' figures over ``rows`` (per-game maxima and medians)."""
    maxima = sorted(r["max"]["cpu_ms"] for r in rows if r["max"])
    if not maxima:
        return {"games": len(rows)}
    top = max((r for r in rows if r["max"]), key=lambda r: r["max"]["cpu_ms"])
    return {
        "games": len(rows),
        "decisions": sum(r["decisions"] for r in rows),
        "median_of_game_medians_ms": statistics.median(r["median_ms"] for r in rows
                                                       if r["median_ms"] is not None),
        "median_ms": round(statistics.median(t for r in rows for t in r["times_ms"]), 2),
        "p99_of_game_maxima_ms": maxima[min(len(maxima) - 1, int(0.99 * len(maxima)))],
        "max_ms": maxima[-1],
        "max_at": {k: top[k] for k in ("variant", "seed", "game")} | top["max"],
        "games_over_ms": {str(t): sum(m > t for m in maxima) for t in (500, 1000, 2000)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=500)
    parser.add_argument("--variants", default="all-fives,sniff,muggins,block-2p")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--bots", default="search,heuristic")
    parser.add_argument("--timed", default="search", help="the bot whose decisions are timed")
    parser.add_argument("--players", type=int, default=None,
                        help="seats (default: the variant's fewest)")
    parser.add_argument("--hands", action="store_true",
                        help="each game's first hand only, not its whole match")
    parser.add_argument("--out", help="write every game's row and the figures as JSON")
    args = parser.parse_args()
    load_before = list(os.getloadavg())
    rows: list[dict[str, Any]] = []
    figures: dict[str, Any] = {}
    for variant in args.variants.split(","):
        got = play(variant, args.games, args.seed, args.bots.split(","), args.timed,
                   log=lambda line: print(line, flush=True), players=args.players,
                   hands_only=args.hands)
        rows.extend(got)
        figures[variant] = summary(got)
    figures["all"] = summary(rows)
    out = {"games": args.games, "seed": args.seed, "bots": args.bots, "timed": args.timed,
           "players": args.players, "hands": args.hands,
           "load_before": load_before, "load_after": list(os.getloadavg()),
           "figures": figures}
    print(json.dumps(out, indent=1), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out | {"rows": rows}, f)
    if figures["all"].get("max_ms", 0) > 2000:
        print("a decision took more than 2 s of CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
