"""How large the search's exact solves are: positions a world's solve visits,
by the tiles in the hands and the open ends.

    python -m bench.solve_sizes [--games 40] [--variants all-fives,sniff,muggins,block-2p]
                                [--worlds 8] [--cap 2000000] [--bots heuristic] [--out FILE]

Matches are played by ``--bots`` (one per seat, seats rotating, seeded 0,
1, ...).  At every decision with a choice where ``search`` solves its worlds
(nothing left to draw and at most 14 tiles in the hands, the same in every
world: ``bones.bots.search.solvable_view``), ``--worlds`` worlds are dealt as
``search`` deals them and each is solved within ``--cap`` positions (the
native core's count, the same as the Python reference's: a solve that would
visit more is counted as the cap plus one).  Prints, per variant, the
distribution of positions a world (median, 90th and 99th percentiles, the
largest) by the tiles in the hands, by the mover's tiles and the most any
other seat holds, and by the open ends; the share of worlds and of positions
(a position is cut when any of its worlds is) above each candidate limit;
and the CPU time a million positions take.  ``--out`` keeps every world's
row as JSON (the features and its count).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from bench.common import compile_table

#: candidate limits on the positions of one world's solve
LIMITS = (2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000)


def _features(obs: Any) -> dict[str, int]:
    layout = obs.layout
    counts = list(obs.counts)
    mine = counts[obs.seat]
    others = max(c for s, c in enumerate(counts) if s != obs.seat)
    return {"tiles": sum(counts), "mine": mine, "others": others,
            "ends": sum(1 for pip in layout.arm_open if pip >= 0),
            "edges": sum(layout.hub_sides_left), "legal": len(obs.legal_moves())}


def positions(name: str, games: int, bots: list[str]) -> list[Any]:
    """Every observation with a choice that ``search`` would solve, in
    ``games`` matches of ``bots`` (seated in turn)."""
    from bones.bots import make_bot
    from bones.bots.search import DEFAULT_SOLVE, solvable_view
    from bones.engine.match import Match
    from bones.engine.rng import BOTS, stream
    from bones.seat.observation import observe

    rules = compile_table(name, 2)
    lineup = [make_bot(b) for b in bots]
    out = []
    for g in range(games):
        players = rules.players
        seated = [lineup[(s + g) % len(lineup)] for s in range(players)]
        rngs = [stream(g, BOTS, s) for s in range(players)]
        match = Match(rules, seed=g)
        while not match.game_over:
            hand = match.new_hand()
            while not hand.state:
                legal = hand.legal_moves()
                if len(legal) == 1:
                    move = legal[0]
                else:
                    obs = observe(hand, hand.turn, legal)
                    if solvable_view(obs, DEFAULT_SOLVE):
                        out.append(obs)
                    move = seated[hand.turn].choose(obs, rngs[hand.turn])
                hand.apply(move)
            match.finish_hand(hand)
    return out


def _quantiles(values: list[int]) -> dict[str, int]:
    v = sorted(values)
    at = lambda q: v[min(len(v) - 1, int(q * len(v)))]  # noqa: E731
    return {"n": len(v), "median": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": v[-1]}


def run(variants: list[str], games: int, worlds: int, cap: int, bots: list[str],
        log: Any = print) -> dict[str, Any]:
    from bones.bots.search import SearchBot
    from bones.engine import core
    from bones.engine.rng import Rng

    if core.native() is None:
        raise SystemExit("bench.solve_sizes counts the native solver: install the native core")
    # the worlds of search (its sampler, its solve limit of tiles); greedy
    # playouts for the worlds that are cut, which are not measured
    searcher = SearchBot(iterations=worlds, infer=0.0, tree=0, policy="greedy", nodes=cap)
    out: dict[str, Any] = {"games": games, "worlds": worlds, "cap": cap, "bots": bots,
                           "load_before": list(os.getloadavg()), "variants": {}, "rows": []}
    for name in variants:
        found = positions(name, games, bots)
        rows = []
        cpu = 0.0
        for i, obs in enumerate(found):
            t0 = time.thread_time()
            judged = searcher.judge(obs, Rng(i), obs.legal_moves())
            cpu += time.thread_time() - t0
            f = _features(obs)
            rows.extend({"variant": name, "position": i, **f, "nodes": n} for n in judged.nodes)
        nodes = [r["nodes"] for r in rows]
        by = {}
        for key in ("tiles", "ends"):
            groups: dict[int, list[int]] = {}
            for r in rows:
                groups.setdefault(r[key], []).append(r["nodes"])
            by[key] = {k: _quantiles(v) for k, v in sorted(groups.items())}
        pairs: dict[str, list[int]] = {}
        for r in rows:
            pairs.setdefault(f"{r['mine']}+{r['others']}", []).append(r["nodes"])
        by["mine+others"] = {k: _quantiles(v) for k, v in sorted(pairs.items())}
        per_position: dict[int, int] = {}
        for r in rows:
            per_position[r["position"]] = max(per_position.get(r["position"], 0), r["nodes"])
        above = {str(limit): {
            "worlds": round(sum(n > limit for n in nodes) / max(1, len(nodes)), 5),
            "positions": round(sum(n > limit for n in per_position.values())
                               / max(1, len(per_position)), 5)}
            for limit in LIMITS}
        total = sum(nodes)
        out["variants"][name] = {
            "positions": len(found), "worlds": len(nodes), "all": _quantiles(nodes) if nodes else {},
            "above": above, "by": by,
            "cpu_s": round(cpu, 2),
            "cpu_s_per_million": round(cpu / (total / 1e6), 3) if total else None}
        out["rows"].extend(rows)
        log(f"{name}: {len(found)} positions, {len(nodes)} worlds, "
            f"{_quantiles(nodes) if nodes else {}}, cpu {cpu:.1f} s")
    out["load_after"] = list(os.getloadavg())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--variants", default="all-fives,sniff,muggins,block-2p")
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--cap", type=int, default=2_000_000)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--out", help="write the whole result (every world's row) as JSON")
    args = parser.parse_args()
    got = run(args.variants.split(","), args.games, args.worlds, args.cap, args.bots.split(","))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(got, f)
    shown = {k: v for k, v in got.items() if k != "rows"}
    for v in shown["variants"].values():
        v["by"] = {k: {str(g): q for g, q in groups.items()} for k, groups in v["by"].items()}
    print(json.dumps(shown, indent=1))
    print(f"median of the medians: {statistics.median(r['nodes'] for r in got['rows'])}")


if __name__ == "__main__":
    main()
