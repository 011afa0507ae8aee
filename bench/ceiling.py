"""``python -m bench.ceiling``: the perfect-information ceiling of a block game.

A cheating bot, never offered to users, sees every hand and plays the move
the exact solver (:class:`bones.bots.solve.Solver`, the same values as
``native/src/bots/solve.rs``) values best for its side in the true deal: the most
any search over sampled worlds could learn.  It plays first hands of
``block-2p`` (no drawing: every hand is solvable from its first move) against
a bones bot, every deal twice with the seats swapped, and the honest bots
play the same deals against the same opponent, so the report can say how much
of the gap between ``heuristic`` and the ceiling a search closes:

    python -m bench.ceiling --deals 500 --against pimc --bots heuristic,search

A hand is won by the side that scores more in it (a tie is not a win);
Wilson 95% intervals.  Everything is seeded: the deal of game ``i`` is the
first hand of ``Match(rules, seed + i)`` and the bots draw from ``Rng(seed +
i)``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from bones.bots import make_bot
from bones.bots.solve import Solver, solvable
from bones.engine.hand import Hand
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import observe
from bones.sim.stats import wilson

CHEAT = "ceiling"


def cheat_move(hand: Hand, solver: Solver) -> int:
    """The best move for the mover's side in the true deal."""
    legal = hand.legal_moves()
    if len(legal) == 1:
        return legal[0]
    me = hand.rules.owner[hand.turn]
    values = solver.values(hand, me, list(hand.scores), legal)
    best = max(range(len(legal)), key=lambda i: (values[i], -i))
    return legal[best]


def play(variant: str, a: str, b: str, deals: int, seed: int) -> dict[str, object]:
    """``a`` against ``b`` (either may be ``ceiling``) on ``deals`` paired deals."""
    rules = compile_rules(load_variant(variant), 2, False)
    solver = Solver()
    bots = {name: make_bot(name) for name in (a, b) if name != CHEAT}
    wins = ties = games = 0
    for i in range(deals):
        for side in (0, 1):
            hand = Match(rules, seed + i).new_hand()
            if not solvable(hand, 99):
                raise SystemExit(f"{variant}: a hand with drawing cannot be solved")
            seats = {side: a, 1 - side: b}
            rng = Rng(seed + i)
            start = list(hand.scores)
            while not hand.over:
                legal = hand.legal_moves()
                name = seats[hand.turn]
                if len(legal) == 1:
                    move = legal[0]
                elif name == CHEAT:
                    move = cheat_move(hand, solver)
                else:
                    move = bots[name].choose(observe(hand, hand.turn, legal), rng)
                hand.apply(move)
            gain = [x - y for x, y in zip(hand.scores, start)]
            mine, theirs = gain[rules.owner[side]], gain[rules.owner[1 - side]]
            wins += mine > theirs
            ties += mine == theirs
            games += 1
    rate = wilson(wins, games)
    return {"bot": a, "against": b, "games": games, "wins": wins, "ties": ties,
            "win_rate": [round(rate.value, 4), round(rate.lo, 4), round(rate.hi, 4)]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.ceiling", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="block-2p")
    ap.add_argument("--deals", type=int, default=200, help="paired deals (each played twice)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--against", default="pimc", help="the common opponent")
    ap.add_argument("--bots", default="heuristic,search", help="honest bots to place")
    ap.add_argument("--json", action="store_true")
    o = ap.parse_args(argv)
    rows = []
    for bot in [*o.bots.split(","), CHEAT]:
        started = time.perf_counter()
        row = play(o.variant, bot, o.against, o.deals, o.seed)
        row["seconds"] = round(time.perf_counter() - started, 1)
        rows.append(row)
        if not o.json:
            lo, hi = row["win_rate"][1], row["win_rate"][2]
            print(f"{bot} v {o.against}: {row['wins']}/{row['games']} = "
                  f"{100 * row['win_rate'][0]:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], "
                  f"{row['ties']} ties, {row['seconds']} s", flush=True)
    rates = {r["bot"]: r["win_rate"][0] for r in rows}
    names = o.bots.split(",")
    closes = {}
    if "heuristic" in rates:
        gap = rates[CHEAT] - rates["heuristic"]
        for name in names:
            if name != "heuristic" and gap:
                closes[name] = round((rates[name] - rates["heuristic"]) / gap, 3)
    report = {"variant": o.variant, "deals": o.deals, "seed": o.seed, "against": o.against,
              "rows": rows, "share_of_gap_closed": closes,
              "command": "python -m bench.ceiling " + " ".join(sys.argv[1:] if argv is None
                                                                 else argv)}
    if o.json:
        print(json.dumps(report, indent=1))
    else:
        for name, share in closes.items():
            print(f"{name} closes {100 * share:.0f}% of the gap between heuristic and the ceiling")
    return 0


if __name__ == "__main__":
    sys.exit(main())
