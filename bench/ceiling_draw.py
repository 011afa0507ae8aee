"""``python -m bench.ceiling_draw``: the cheating ceiling of ``search`` in any built-in.

:mod:`bench.ceiling` solves whole deals, so it only covers two-player games
without drawing.  Here the cheat is ``search`` itself (the same budget, tree,
playouts and solver) handed an observation that gives every hidden hand
away: its :meth:`~bones.seat.observation.Observation.limits` bound every
other seat to hold none of the tiles outside its true hand (a bound of 0 on
the rest of the unseen tiles), so every world either core's sampler deals
(:func:`bones.seat.observation.sample_world`, native/src/bots/world.rs;
on a train layout ``TrainView::limits``, native/src/bots/trains.rs, which
deals through the same ``world::deal_unseen_into``) has the true hands, and only
the boneyard's order is still drawn at random.  The stronger ``oracle``
sees the boneyard's order too: its observation carries the true order as a
private ``_stock``, which both samplers lay out instead of shuffling
(``sample_world``; ``View::stock`` and ``TrainView::stock`` natively), so
every world is the true deal.  Neither is a bot of the registry, of ``bones bots``,
the web or the adapters: they exist only in this bench, and honest bots get
the real observation (an observation without ``_stock`` draws its worlds
exactly as before).  The native search runs both at full speed.

It plays pairings of full matches (``--hands``: first hands only) on
paired deals: deal ``i`` is the match seeded ``game_seed(seed, i)`` with its
leads apart (as ``bones simulate --duplicate``), played once with the first
bot on each side (on a partnership game, in both seats of that side); the
bot in seat ``s`` draws from ``stream(game seed, BOTS, s)``.  Every pairing
plays the same deals, so the rows can be read side by side:

    python -m bench.ceiling_draw all-fives --deals 40 \\
        --pairings cheat:heuristic,search:heuristic,cheat:search

A pairing is ``A:B`` with ``cheat`` (``--cheat``, the search that sees the
hands), ``oracle`` (the same search seeing the boneyard's order too),
``four`` (``--four``, 4x the default's budget) or any bot text without a
colon.  A game is won by the side that wins the match (in hands
mode: scores more in the hand, or is charged less where points count
against a side: a penalty match, a train layout's round); a game's margin
is in that sense too (positive: the first bot ahead).  Wilson 95%
intervals on decided games; ``--json`` prints the rows with the command.
The train games are two-sided at two seats (``--players 2``; ``--hands``
plays one round a match).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from bones.bots import Bot, make_bot
from bones.engine.match import Match
from bones.engine.rng import BOTS, Rng, stream
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import Observation, observe
from bones.sim.simulation import game_seed
from bones.sim.stats import wilson

#: the pairing names that stand for the cheats and for 4x the default's budget
CHEAT = "cheat"
ORACLE = "oracle"
FOUR = "four"


class Seen(Observation):
    """An observation whose void bounds pin every other seat's hand to the
    truth (``pinned``): a world sampled from it is the true deal but for
    the boneyard's order."""

    pinned: list[list[tuple[int, int]]]
    _stock: list[int] | None

    def limits(self) -> list[list[tuple[int, int]]]:
        return self.pinned


def seen(obs: Observation, hands: list[int], stock: list[int] | None = None) -> Seen:
    """``obs`` with every hidden hand given away: seat ``s`` (not the
    observer, holding tiles) may hold no unseen tile outside ``hands[s]``;
    with ``stock`` (the boneyard past its draw position), its order too."""
    got = Seen(*obs)
    got._stock = stock
    got.pinned = [[] for _ in obs.counts]
    for s, h in enumerate(hands):
        rest = obs.unseen & ~h
        if s != obs.seat and obs.counts[s] and rest:
            got.pinned[s] = [(rest, 0)]
    return got


def play(variant: str, a: str, b: str, deals: int, seed: int, cheat: str, four: str,
         players: int | None = None, hands_only: bool = False) -> dict[str, Any]:
    """``a`` against ``b`` (each ``cheat``, ``oracle``, ``four`` or a bot text) on
    ``deals`` paired deals, each played once from either side."""
    rules = compile_rules(load_variant(variant), players, None)
    if rules.owners != 2:
        raise SystemExit(f"{variant}: {rules.owners} sides; the ceiling is for two")
    spec = {CHEAT: cheat, ORACLE: cheat, FOUR: four}
    bots: dict[str, Bot] = {n: make_bot(spec.get(n, n)) for n in (a, b)}
    wins = ties = games = 0
    margin = 0
    for i in range(deals):
        gs = game_seed(seed, i)
        for side in (0, 1):
            seats = [a if rules.owner[s] == side else b for s in range(rules.players)]
            rngs = [stream(gs, BOTS, s) for s in range(rules.players)]
            match = Match(rules, seed=gs, leads_apart=True)
            result = _match(match, seats, bots, rngs, hands_only)
            # a side's margin: points it scored more, or charges it took fewer
            # where points count against it (a penalty match, train rounds)
            ahead = result[side] - result[1 - side]
            if rules.lowest_wins:
                ahead = -ahead
            if hands_only:
                won, tie = ahead > 0, ahead == 0
            else:
                won, tie = match.winner == side, match.winner < 0
            wins += won
            ties += tie
            games += 1
            margin += ahead
    rate = wilson(wins, games - ties)
    label = {CHEAT: f"cheat ({cheat})", ORACLE: f"oracle ({cheat})", FOUR: four}
    return {"pairing": f"{a}:{b}", "bot": label.get(a, a), "against": label.get(b, b),
            "games": games, "wins": wins, "ties": ties,
            "win_rate": [round(rate.value, 4), round(rate.lo, 4), round(rate.hi, 4)],
            "margin": round(margin / max(games, 1), 2)}


def _match(match: Match, seats: list[str], bots: dict[str, Bot], rngs: list[Rng],
           hands_only: bool) -> list[int]:
    """Play ``match`` (its first hand only with ``hands_only``); each side's result."""
    while not match.game_over:
        hand = match.new_hand()
        before = list(match.scores)
        while not hand.state:
            legal = hand.legal_moves()
            if len(legal) == 1:
                move = legal[0]
            else:
                seat = hand.turn
                name = seats[seat]
                obs = observe(hand, seat, legal)
                if name in (CHEAT, ORACLE):
                    stock = None
                    if name == ORACLE:
                        stock = list(hand.boneyard[len(hand.boneyard) - obs.boneyard_left:])
                    obs = seen(obs, list(hand.hands), stock)
                move = bots[name].choose(obs, rngs[seat])
            hand.apply(move)
        ended = match.finish_hand(hand)
        if hands_only:
            return [x - y for x, y in zip(ended.scores, before)]
    return list(match.scores)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.ceiling_draw", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant")
    ap.add_argument("--deals", type=int, default=20, help="paired deals (each played twice)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--pairings", default="cheat:heuristic,search:heuristic,cheat:search",
                    help="A:B,... (cheat, oracle, four or a bot text without a colon)")
    ap.add_argument("--cheat", default="search",
                    help="the search that sees every hand (cheat, oracle)")
    ap.add_argument("--four", default="search:iterations=720", help="4x the default's budget")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--hands", action="store_true", help="first hands instead of matches")
    ap.add_argument("--json", action="store_true")
    o = ap.parse_args(argv)
    rows = []
    for pairing in o.pairings.split(","):
        a, _, b = pairing.partition(":")
        if not a or not b:
            ap.error(f"a pairing is A:B, not {pairing!r}")
        started = time.process_time()
        row = play(o.variant, a, b, o.deals, o.seed, o.cheat, o.four, o.players, o.hands)
        row["cpu_seconds"] = round(time.process_time() - started, 1)
        rows.append(row)
        if not o.json:
            rate = row["win_rate"]
            print(f"{row['bot']} v {row['against']}: {row['wins']}/{row['games']} "
                  f"({row['ties']} ties) = {100 * rate[0]:.1f}% [{100 * rate[1]:.1f}, "
                  f"{100 * rate[2]:.1f}] of decided, {row['margin']:+} a game, "
                  f"{row['cpu_seconds']} s CPU", flush=True)
    command = "python -m bench.ceiling_draw " + " ".join(sys.argv[1:] if argv is None else argv)
    if o.json:
        print(json.dumps({"variant": o.variant, "deals": o.deals, "seed": o.seed,
                          "hands": o.hands, "rows": rows, "command": command}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
