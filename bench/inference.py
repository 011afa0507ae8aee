"""How much a bot's moves tell about its hand: the inference's models against real play.

    python -m bench.inference [--variant block-2p] [--bots heuristic,pimc,search] [--hands 60]

The search weights each sampled world by how likely it makes the plays the
other seats were seen to make (docs/bots.md, "Inference").  That is worth
only as much as the model of how they play predicts their moves from their
hands.  This plays ``--hands`` first hands of the variant with each bot in
every seat (seeded: the deal of hand ``i`` is ``Match(rules, seed + i)``'s
first, the bot draws from ``Rng(i)``) and, at every decision with a choice,
scores two models of the mover, both seeing the mover's true hand and the
table (as a sampled world does):

* ``heuristic``: a softmax of the ``heuristic`` bot's values of the legal
  moves (the inference's model, ``bones.bots.infer.heuristic_values``);
* ``solver``: a softmax of the exact solver's values with every hand in
  sight (a player who plays perfectly; block games only, where every hand
  can be solved).

For each it prints how often its best move is the move played (ties
shared) and the mean log-likelihood of the moves played per decision at
the best temperature of a grid, beside a uniform model's: the difference
is the information a decision gives the inference, in nats.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

TEMPERATURES = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)


def _decisions(variant: str, bot_name: str, hands: int, seed: int,
               solve: bool) -> list[tuple[list[float], list[float] | None, int]]:
    """``(heuristic values, solver values or None, index played)`` of every decision."""
    from bones.bots import make_bot
    from bones.bots.infer import heuristic_values
    from bones.bots.solve import Solver, solvable
    from bones.engine.hand import PLAYING
    from bones.engine.match import Match
    from bones.engine.rng import Rng
    from bones.lang.compile import compile_rules
    from bones.lang.load import load_variant
    from bones.seat.observation import observe

    rules = compile_rules(load_variant(variant), 2, False)
    bot = make_bot(bot_name)
    solver = Solver()
    full = rules.tiles.full
    out: list[tuple[list[float], list[float] | None, int]] = []
    for i in range(hands):
        hand = Match(rules, seed + i).new_hand()
        rng = Rng(i)
        while hand.state == PLAYING:
            legal = hand.legal_moves()
            seat = hand.turn
            if len(legal) == 1:
                hand.apply(legal[0])
                continue
            move = bot.choose(observe(hand, seat, legal), rng)
            unseen = full & ~(hand.hands[seat] | hand.on_table | hand.out_of_play)
            counts = [x.bit_count() for x in hand.hands]
            values = heuristic_values(hand, unseen, counts, hand.drawable, legal)
            exact = (solver.values(hand, rules.owner[seat], list(hand.scores), legal)
                     if solve and solvable(hand, 99) else None)
            out.append((values, None if exact is None else [float(v) for v in exact],
                        legal.index(move)))
            hand.apply(move)
    return out


def _top(values: list[float], played: int) -> float:
    best = max(values)
    tied = [k for k, v in enumerate(values) if v == best]
    return (played in tied) / len(tied)


def _loglik(rows: list[tuple[list[float], int]], tau: float) -> float:
    total = 0.0
    for values, played in rows:
        top = max(values)
        z = sum(math.exp((v - top) / tau) for v in values if v > -math.inf)
        total += (values[played] - top) / tau - math.log(z)
    return total / len(rows)


def run(variant: str, bots: list[str], hands: int, seed: int) -> dict[str, Any]:
    report: dict[str, Any] = {"variant": variant, "hands": hands, "seed": seed, "bots": {}}
    for name in bots:
        rows = _decisions(variant, name, hands, seed, solve=True)
        if not rows:
            continue
        uniform = sum(-math.log(len(h)) for h, _, _ in rows) / len(rows)
        entry: dict[str, Any] = {"decisions": len(rows), "uniform": round(uniform, 4)}
        models = {"heuristic": [(h, k) for h, _, k in rows]}
        if all(s is not None for _, s, _ in rows):
            models["solver"] = [(s, k) for _, s, k in rows if s is not None]
        for model, judged in models.items():
            ll, tau = max((_loglik(judged, t), t) for t in TEMPERATURES)
            entry[model] = {"top": round(sum(_top(v, k) for v, k in judged) / len(judged), 4),
                            "loglik": round(ll, 4), "temperature": tau,
                            "nats": round(ll - uniform, 4)}
        report["bots"][name] = entry
    return report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.inference", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="block-2p")
    ap.add_argument("--bots", default="heuristic,pimc,search")
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    o = ap.parse_args(argv)
    report = run(o.variant, [b for b in o.bots.split(",") if b], o.hands, o.seed)
    if o.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{o.variant}: {o.hands} first hands a bot, seed {o.seed}")
    print(f"{'bot':<12} {'decisions':>9} {'model':<10} {'top move':>8} "
          f"{'loglik':>8} {'uniform':>8} {'nats':>6} {'temp':>5}")
    for name, e in report["bots"].items():
        for model in ("heuristic", "solver"):
            if model in e:
                m = e[model]
                print(f"{name:<12} {e['decisions']:>9} {model:<10} {m['top']:>8.1%} "
                      f"{m['loglik']:>8.3f} {e['uniform']:>8.3f} {m['nats']:>6.3f} "
                      f"{m['temperature']:>5g}")


if __name__ == "__main__":
    main()
