"""``python -m bench.inference_quality``: how much the inference's worlds know.

The search weighs each sampled world by how likely it makes the other seats'
plays (:mod:`bones.bots.infer`); this measures what that buys where it
matters, the other hands.  First hands of a variant are played by ``--bots``
(the model of the other seat is always ``heuristic``'s; the bot that really
plays it may be another); at every decision with a choice of seat 0, once
at least one other seat has chosen among two or more moves, ``--worlds``
worlds of seat 0's view are sampled and, for each temperature of ``--taus``
(0: every world weighs the same, the sampler alone), the worlds' weighted
share of every unseen tile's holder is compared with the true deal:

* ``brier``: the mean over the unseen tiles and the seats that may hold
  them of (the share the worlds give the seat) less (1 if it holds the
  tile), squared; lower is better, the sampler alone is the reference;
* ``ess``: the weights' effective sample size, ``(Σw)² / Σw²``, as a share
  of the worlds (1: all weigh alike).

Everything is seeded (hand ``i`` is the first hand of ``Match(rules, seed +
i)``, the bots and the sampler draw from ``Rng(seed + i)``)::

    python -m bench.inference_quality block-2p --hands 60 --bots heuristic,heuristic
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from bench.common import walk
from bones.bots import make_bot
from bones.bots.infer import log_likelihood, other_choices
from bones.engine.hand import Hand
from bones.engine.moves import Move
from bones.engine.rng import Rng
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import observe, sample_world


def mixed_log_likelihood(world: Hand, seat: int, history: Sequence[tuple[int, int, int]],
                         tau: float, mix: float) -> float:
    """:func:`bones.bots.infer.log_likelihood` (the same number when ``mix``
    is 0) under a robust model: a seat chooses uniformly among its legal
    moves with probability ``mix``, else by the heuristic's softmax."""
    if mix <= 0:
        return log_likelihood(world, seat, history, tau)
    if tau <= 0 or world.rules.trains is not None:
        return 0.0
    ll = 0.0
    for at, values in other_choices(world, seat, history):
        top = max(values)
        total = sum(math.exp((v - top) / tau) for v in values)
        p = math.exp((values[at] - top) / tau) / total
        ll += math.log(mix / len(values) + (1 - mix) * p)
    return ll


def measure(variant: str, bots: list[str], hands: int, worlds: int, taus: list[float],
            seed: int, mix: float = 0.0) -> dict[str, object]:
    """The mean Brier score and effective sample share at each temperature."""
    rules = compile_rules(load_variant(variant), len(bots), False)
    players = rules.players
    made = [make_bot(b) for b in bots]
    brier = {t: 0.0 for t in taus}
    ess = {t: 0.0 for t in taus}
    positions = 0
    def choose(hand: Hand, seat: int, legal: list[Move], rng: Rng) -> Move:
        return made[seat].choose(observe(hand, seat, legal), rng)

    for hand, seat, legal, rng, chose in walk(rules, hands, seed, choose):
        if seat == 0 and len(legal) > 1 and chose - {0}:
            obs = observe(hand, 0, legal)
            history = obs.layout.log
            sampled = [sample_world(obs, rng) for _ in range(worlds)]
            lls = {t: [mixed_log_likelihood(w, 0, history, t, mix) if t > 0 else 0.0
                       for w in sampled] for t in taus}
            hidden = rules.tiles.full & ~(hand.hands[0] | hand.on_table | hand.out_of_play)
            unseen = [t for t in range(hidden.bit_length()) if hidden >> t & 1]
            for t in taus:
                top = max(lls[t])
                w = [math.exp(x - top) for x in lls[t]]
                total = sum(w)
                ess[t] += total * total / sum(x * x for x in w) / worlds
                err = 0.0
                for tile in unseen:
                    for s in range(1, players):
                        share = sum(wi for wi, world in zip(w, sampled)
                                    if world.hands[s] >> tile & 1) / total
                        truth = hand.hands[s] >> tile & 1
                        err += (share - truth) ** 2
                brier[t] += err / (len(unseen) * (players - 1))
            positions += 1
    return {
        "variant": variant, "bots": bots, "hands": hands, "worlds": worlds, "seed": seed,
        "mix": mix,
        "positions": positions,
        "brier": {str(t): brier[t] / max(positions, 1) for t in taus},
        "ess": {str(t): ess[t] / max(positions, 1) for t in taus},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.inference_quality",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("variant")
    p.add_argument("--bots", default="heuristic,heuristic",
                   help="the bots that play the hands, seat 0 first (default heuristic,heuristic)")
    p.add_argument("--hands", type=int, default=60)
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--taus", default="0,0.5,2,8,32")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--mix", type=float, default=0.0,
                   help="the model's share of a uniform choice among the legal moves (0: none)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    taus = [float(x) for x in a.taus.split(",")]
    got = measure(a.variant, a.bots.split(","), a.hands, a.worlds, taus, a.seed, a.mix)
    if a.json:
        print(json.dumps(got, indent=2))
        return 0
    print(f"{a.variant}, {a.bots}: {got['positions']} positions of seat 0, "
          f"{a.worlds} worlds each, seed {a.seed}")
    print("tau      brier     ess share")
    for t in taus:
        print(f"{t:<8g} {got['brier'][str(t)]:.5f}   {got['ess'][str(t)]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
