"""``python -m bench.tree_ess``: how many of the tree's pool of worlds count.

``search``'s tree (with ``tinfer=T``) draws its iterations' worlds from a
pool of ``--worlds`` sampled worlds, each weighing ``exp(log_likelihood)``
of the other seats' plays at temperature ``T``
(:func:`bones.bots.infer.log_likelihood`, past draws as ``idraw=1``).  This
measures the pool's effective sample size, ``ESS = (Σw)² / Σw²`` (out of
``--worlds``), at the positions where ``search`` grows its tree: first hands
of ``Match(rules, seed + i)`` played by ``--bots`` at every seat (``heuristic`` by default), every
decision with a choice where :meth:`SearchBot.grows_tree`, once another seat
has chosen among two or more moves; the sampler draws from ``Rng(seed +
i)``.  It reports the distribution of the raw ESS and of the ESS after the
tree's tempering (:func:`bones.bots.infer.tempered`) with its λ.  Python
core only (the reference); seconds to minutes a game::

    python -m bench.tree_ess cuban all-fives --hands 20 --tau 8
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from bench.common import walk
from bones.bots import make_bot
from bones.bots.infer import log_likelihood, pool_ess, tempered
from bones.bots.search import SearchBot
from bones.engine.hand import Hand
from bones.engine.moves import Move
from bones.engine.rng import Rng
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import observe, sample_world


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def _brier(hand: Hand, seat: int, pool: list[Hand], lls: list[float], lam: float) -> float:
    """The Brier score of the pool's weighed shares of the hidden tiles'
    holders (each other seat, and nobody: the boneyard or out of play)
    against the true deal, the weights ``exp(lam * ll)``
    (bench/inference_quality.py's score)."""
    top = max(lls)
    w = [math.exp(lam * (x - top)) for x in lls]
    total = sum(w)
    rules = hand.rules
    hidden = rules.tiles.full & ~(hand.hands[seat] | hand.on_table | hand.out_of_play)
    tiles = [t for t in range(hidden.bit_length()) if hidden >> t & 1]
    others = [s for s in range(rules.players) if s != seat]
    err = 0.0
    for tile in tiles:
        for s in others:
            share = sum(wi for wi, world in zip(w, pool) if world.hands[s] >> tile & 1) / total
            err += (share - (hand.hands[s] >> tile & 1)) ** 2
    return err / (len(tiles) * len(others))


def measure(variant: str, hands: int, worlds: int, tau: float, seed: int,
            floor: float | None, player: str = "heuristic",
            with_brier: bool = False) -> dict[str, object]:
    """The ESS of every position met, raw and tempered."""
    rules = compile_rules(load_variant(variant))
    bot = make_bot(player)
    search = SearchBot()
    raw: list[float] = []
    tempered_ess: list[float] = []
    brier: dict[str, float] | None = {"uniform": 0.0, "raw": 0.0, "tempered": 0.0} \
        if with_brier else None
    briered = 0
    lams: list[float] = []

    def choose(hand: Hand, seat: int, legal: list[Move], rng: Rng) -> Move:
        return bot.choose(observe(hand, seat, legal), rng)

    for hand, seat, legal, rng, chose in walk(rules, hands, seed, choose):
        if len(legal) > 1 and chose:
            obs = observe(hand, seat, legal)
            if search.grows_tree(obs):
                pool = [sample_world(obs, rng) for _ in range(worlds)]
                lls = [log_likelihood(w, seat, obs.layout.log, tau, True) for w in pool]
                raw.append(pool_ess(lls))
                lam = 1.0
                if floor is not None:
                    lam = tempered(lls, floor)
                    lams.append(lam)
                    tempered_ess.append(pool_ess(lls, lam))
                if brier is not None:
                    for key, k in (("uniform", 0.0), ("raw", 1.0), ("tempered", lam)):
                        brier[key] += _brier(hand, seat, pool, lls, k)
                    briered += 1

    def dist(xs: list[float]) -> dict[str, float]:
        if not xs:
            return {}
        return {"p10": quantile(xs, 0.1), "p25": quantile(xs, 0.25),
                "median": quantile(xs, 0.5), "mean": sum(xs) / len(xs), "min": min(xs),
                "under_10": sum(x < 10 for x in xs) / len(xs),
                "under_50": sum(x < 50 for x in xs) / len(xs)}

    return {"variant": variant, "bots": player, "hands": hands, "worlds": worlds, "tau": tau, "seed": seed,
            "positions": len(raw), "ess": dist(raw), "floor": floor,
            "tempered_ess": dist(tempered_ess), "lambda": dist(lams),
            "brier": {k: v / max(1, briered) for k, v in brier.items()} if brier else None}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.tree_ess",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("variants", nargs="+")
    p.add_argument("--hands", type=int, default=20)
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--tau", type=float, default=8.0)
    p.add_argument("--seed", type=int, default=2031)
    p.add_argument("--bots", default="heuristic", help="the bot that plays every seat")
    p.add_argument("--floor", type=float, default=None,
                   help="also the ESS after tempering to this floor (a share of the pool)")
    p.add_argument("--brier", action="store_true",
                   help="also the Brier score of the tiles' holders: uniform, raw and tempered")
    a = p.parse_args(argv)
    for v in a.variants:
        print(json.dumps(measure(v, a.hands, a.worlds, a.tau, a.seed, a.floor, a.bots, a.brier)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
