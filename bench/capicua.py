"""``python -m bench.capicua``: how often a bot finishes by capicúa and earns
the pass bonuses (issue 31, section 4).

Plays ``--hands`` hands of a partnership variant with the pass bonuses and
capicúa (``dominican`` by default) in whole seeded matches, one bot's side
against the other's, the sides swapped every match, on the Python
reference engine, and counts for each bot's side:

* the hands it won, and those it won by going out with a capicúa (the
  going-out tile fitting every open end: ``Hand.out_bonus``, the rule the
  hand scores by);
* the capicúa chances: moves of a player holding two tiles where some legal
  move leaves the last tile fitting every open end (a capicúa set up), and
  how often the bot took one;
* the pass bonuses it earned (``pass_bonuses``, the rule the hand scores
  by): the pass on the opening tile, and the round of passes after its play.

A benchmark, not a test: the figures depend on nothing but the seed. The
command and its result go to bench/results/bots-partnership.md.

    python -m bench.capicua                          # dominican, heuristic vs greedy, 2000 hands
    python -m bench.capicua --hands 500 --bots heuristic,random --seed 3 --json
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from typing import Any

from bones.bots import make_bot
from bones.engine.hand import DOMINO, OPENING_PASS, PASS, ROUND_PASS, Hand, pass_bonuses
from bones.engine.match import Match
from bones.engine.moves import TILE_SHIFT
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.seat.observation import observe
from bones.sim.stats import wilson


def _capicua(hand: Hand, tile: int) -> bool:
    """Whether going out with ``tile`` on ``hand``'s ends is a capicúa: its
    out bonus, less the last-tile bonus, is the capicúa's."""
    rules = hand.rules
    bonus = hand.out_bonus(tile)
    if tile == rules.last_tile:
        bonus -= rules.last_tile_points
    return bonus > 0


def _sets_up(hand: Hand, move: int) -> bool:
    """Whether ``move`` (of a player holding two tiles) leaves the last tile
    fitting every open end."""
    seat = hand.turn
    left = hand.hands[seat] & ~(1 << (move >> TILE_SHIFT))
    after = hand.copy()
    after.apply(move)
    return after.state == 0 and bool(left) and _capicua(after, left.bit_length() - 1)


class _Side:
    """One bot's side's counts."""

    def __init__(self, bot: str) -> None:
        self.bot = bot
        self.hands = self.won = self.capicua = 0
        self.chances = self.taken = 0
        self.opening = self.round = self.pass_points = 0

    def report(self) -> dict[str, Any]:
        def share(k: int, n: int) -> dict[str, float]:
            e = wilson(k, n)
            return {"value": round(e.value, 4), "lo": round(e.lo, 4), "hi": round(e.hi, 4)}

        return {
            "bot": self.bot,
            "hands": self.hands,
            "won": self.won,
            "won_share": share(self.won, self.hands),
            "capicua_wins": self.capicua,
            "capicua_per_hand": share(self.capicua, self.hands),
            "capicua_per_win": share(self.capicua, self.won),
            "setup_chances": self.chances,
            "setups_taken": self.taken,
            "setup_taken_share": share(self.taken, self.chances),
            "opening_passes": self.opening,
            "round_passes": self.round,
            "pass_points_per_hand": round(self.pass_points / self.hands, 3) if self.hands else 0.0,
        }


def play(rules: Rules, bots: tuple[str, str], hands: int, seed: int) -> list[_Side]:
    """Count ``hands`` hands of whole matches, ``bots[0]``'s side on team 0
    of even matches and team 1 of odd ones."""
    sides = [_Side(bots[0]), _Side(bots[1])]
    players = [make_bot(b) for b in bots]
    rng = Rng(seed)
    played = 0
    game = 0
    while played < hands:
        match = Match(rules, seed * 100_003 + game)
        # side index (0: bots[0]) of every score owner
        of_owner = [(o + game) % 2 for o in range(rules.owners)]
        while not match.game_over and played < hands:
            hand = match.new_hand()
            assert isinstance(hand, Hand)
            while not hand.over:
                seat = hand.turn
                side = sides[of_owner[rules.owner[seat]]]
                legal = hand.legal_moves()
                move = players[of_owner[rules.owner[seat]]].choose(observe(hand, seat, legal), rng)
                if move == PASS and hand.extra < 0:  # (declining an extra play earns nothing)
                    for owner, points, which in pass_bonuses(rules, hand, seat, hand.passes + 1):
                        earner = sides[of_owner[owner]]
                        earner.pass_points += points
                        earner.opening += which == OPENING_PASS
                        earner.round += which == ROUND_PASS
                elif move >= 0 and hand.hands[seat].bit_count() == 2:
                    setups = [m for m in legal if m >= 0 and _sets_up(hand, m)]
                    if setups:
                        side.chances += 1
                        side.taken += move in setups
                elif move >= 0 and hand.hands[seat].bit_count() == 1 and \
                        _capicua(hand, move >> TILE_SHIFT):
                    side.capicua += 1
                hand.apply(move)
            for s in sides:
                s.hands += 1
            if hand.won_by >= 0:
                sides[of_owner[hand.won_by]].won += 1
            if hand.state == DOMINO and hand.won_by < 0:  # pragma: no cover - a domino has a winner
                raise AssertionError("a hand gone out without a winner")
            match.finish_hand(hand)
            played += 1
        game += 1
    return sides


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.capicua", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", nargs="?", default="dominican")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--bots", default="heuristic,greedy", help="two bots, comma-separated")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    o = ap.parse_args(argv)
    bots = tuple(b.strip() for b in o.bots.split(","))
    if len(bots) != 2:
        ap.error("--bots: two bots, comma-separated")
    rules = compile_rules(load_variant(o.variant), None, None)
    if rules.owners != 2 or not rules.capicua_points:
        ap.error(f"{o.variant}: a variant of two sides with a capicúa bonus is needed")
    command = shlex.join(["python", "-m", "bench.capicua", *(argv if argv is not None
                                                             else sys.argv[1:])])
    start = time.perf_counter()
    sides = play(rules, (bots[0], bots[1]), o.hands, o.seed)
    result = {"command": command, "variant": o.variant, "hands": o.hands, "seed": o.seed,
              "seconds": round(time.perf_counter() - start, 1),
              "sides": [s.report() for s in sides]}
    if o.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"$ {command}")
    print(f"{o.variant}: {o.hands} hands, seed {o.seed} (95% intervals)")
    for s in result["sides"]:
        def pct(e: dict[str, float]) -> str:
            return f"{100 * e['value']:.1f}% [{100 * e['lo']:.1f}, {100 * e['hi']:.1f}]"

        print(f"  {s['bot']:>10}: won {pct(s['won_share'])}; capicúa {s['capicua_wins']} "
              f"({pct(s['capicua_per_hand'])} of hands, {pct(s['capicua_per_win'])} of wins); "
              f"set-up taken {s['setups_taken']}/{s['setup_chances']} "
              f"({pct(s['setup_taken_share'])}); opening passes {s['opening_passes']}, "
              f"round passes {s['round_passes']}, pass points/hand {s['pass_points_per_hand']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
