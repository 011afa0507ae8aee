"""Prototypes of the changes proposed in bench/results/performance-history.md, measured A/B.

``python -m bench.proposals`` monkey-patches each proposal into the running
engine (never into its files) and compares paired rounds, alternating the
order, against the unpatched engine on the same seeds.  The patches were
written against engine commit a9b500f; once the engine adopts a change, its
line here measures nothing and can go.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from bench.common import compile_table, match_factory


def _lean_finish(self, hand):
    """Proposal 4: finish_hand without copying the moves or recounting pips."""
    from bones.engine.match import HandSummary
    from bones.engine.settle import hand_winner

    rules = self.rules
    dom = hand.domino_seat
    summary = HandSummary(len(self.history) + 1, self.current_deal, hand.log, hand.state,
                          dom, hand.last_player, hand.settlement, self.scores[:],
                          hand_winner(hand.settlement, rules.owner[dom] if dom >= 0 else -1), [])
    self.history.append(summary)
    if hand.game_over:
        self.game_over, self.winner = True, hand.winner
    elif rules.hands_in_match and len(self.history) >= rules.hands_in_match:
        self.game_over = True
        top = max(self.scores)
        leaders = [o for o, s in enumerate(self.scores) if s == top]
        self.winner = leaders[0] if len(leaders) == 1 else -1
    self.current = None
    return summary


# keyed by id(): hashing a TileSet hashes all its tables (about 1 µs), more
# than the lookup saves; tile sets are shared singletons, so ids are stable
_CHUNKS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _chunk_tables(tileset) -> tuple[tuple[int, ...], ...]:
    found = _CHUNKS.get(id(tileset))
    if found is not None:
        return found
    n, pips = tileset.size, tileset.pips
    found = _CHUNKS[id(tileset)] = tuple(
        tuple(sum(pips[7 * k + b] for b in range(7) if m >> b & 1 and 7 * k + b < n)
              for m in range(128))
        for k in range((n + 6) // 7)
    )
    return found


def _pips_fast(self, mask: int) -> int:
    """Proposal 6: pips by 7-bit chunk tables instead of a loop over bits."""
    tables = _chunk_tables(self)
    total = k = 0
    while mask:
        total += tables[k][mask & 127]
        mask >>= 7
        k += 1
    return total


class Patches:
    """Switch the deal-side proposals (2's tile parse, 4, 6) on and off."""

    def __init__(self) -> None:
        from bones.engine.match import Match
        from bones.engine.tiles import TileSet

        self.match, self.tileset = Match, TileSet
        self.orig = (Match.finish_hand, TileSet.pips_of, TileSet.parse)
        parse = TileSet.parse
        parsed: dict[str, int] = {}

        def parse_once(tileset, text: str) -> int:
            # proposal 2's part: the lead tile's text is read once, not per deal
            tile = parsed.get(text)
            if tile is None:
                tile = parsed[text] = parse(tileset, text)
            return tile

        self.fast = (_lean_finish, _pips_fast, parse_once)

    def set(self, on: bool) -> None:
        finish, pips, parse = self.fast if on else self.orig
        self.match.finish_hand, self.tileset.pips_of, self.tileset.parse = finish, pips, parse


def one_hand_games(rules, games: int, seed: int) -> None:
    rng = random.Random(seed)
    pick = rng.choice
    new_match = match_factory(rules)
    for g in range(games):
        match = new_match(seed + g)
        hand = match.new_hand()
        while not hand.state:
            hand.apply(pick(hand.legal_moves()))
        match.finish_hand(hand)


def paired(run_a: Callable[[int], float], run_b: Callable[[int], float],
           rounds: int) -> tuple[float, float, float]:
    """Median rates of A and B and the median of per-round B/A ratios."""
    a, b = [], []
    for r in range(rounds):
        for side in ("ab" if r % 2 == 0 else "ba"):
            (a if side == "a" else b).append((run_a if side == "a" else run_b)(r))
    return statistics.median(a), statistics.median(b), statistics.median(
        y / x for x, y in zip(a, b))


def _rate(fn: Callable[[], int]) -> float:
    start = time.perf_counter()
    n = fn()
    return n / (time.perf_counter() - start)


def _view_observe(hand, seat):
    """Proposal 12's bound: an observation that copies nothing.

    Not a safe observation (the layout is the live, unscrubbed hand); it
    measures what copying costs the built-in bots.
    """
    from bones.seat.observation import Observation

    rules = hand.rules
    return Observation(
        rules=rules, seat=seat, hand=hand.hands[seat], turn=hand.turn, layout=hand,
        counts=tuple(h.bit_count() for h in hand.hands), drawn=tuple(hand.drawn),
        drawable=hand.drawable, boneyard_left=hand.boneyard_left, scores=tuple(hand.scores),
        voids=(), unseen=0, out_of_play=hand.out_of_play)


def simulate_proposals(hands: int, rounds: int, bots: str = "random") -> dict[str, dict]:
    """bones.sim.simulation.run_batch as it is, and with proposal 12's bound."""
    from bones.seat import observation
    from bones.sim import simulation as sim

    config = sim.make_config(["sniff"], [bots], hands, 1, hands_only=True)
    real_observe = observation.observe

    def side(view: bool) -> Callable[[int], float]:
        def go(r: int) -> float:
            observation.observe = _view_observe if view else real_observe
            try:
                return _rate(lambda: (sim.run_batch(config, r * hands, (r + 1) * hands), hands)[1])
            finally:
                observation.observe = real_observe
        return go

    a, b, ratio = paired(side(False), side(True), rounds)
    return {f"simulate sniff --bots {bots}: proposal 12 bound (no observe copy)": {
        "now": round(a), "with": round(b), "ratio": round(ratio, 3)}}


def fused_run(games: int, rounds: int) -> dict[str, dict]:
    from bench.fused import fused_games

    out = {}
    for name, players in (("block-2p", 2), ("partnership-block", 4)):
        rules = compile_table(name, players)
        # the fused loop must play the very same games
        if fused_games(rules, 200, 3, False) != fused_games(rules, 200, 3, True):
            out[f"{name}: fused playout"] = {"now": 0, "with": 0, "ratio": 0.0,
                                             "error": "the fused playout played other games"}
            continue

        def side(fused: bool, rules=rules):
            return lambda r: _rate(lambda: len(fused_games(rules, games, r, fused)))

        a, b, ratio = paired(side(False), side(True), rounds)
        out[f"{name}: fused playout (proposal 14)"] = {"now": round(a), "with": round(b),
                                                       "ratio": round(ratio, 3)}
    return out


def run(games: int = 2_000, rounds: int = 10, log: Callable[[str], None] = print) -> dict:
    """Every prototype not yet in the engine, A/B against the engine as it is."""
    from bench.throughput import greedy_factory, play_hands
    from bones.bots.policies import greedy_move

    out: dict[str, dict] = {}
    patches = Patches()
    for name, players in (("block-2p", 2), ("partnership-block", 4)):
        rules = compile_table(name, players)

        def side(on: bool, rules=rules):
            def go(r: int) -> float:
                patches.set(on)
                try:
                    return _rate(lambda: (one_hand_games(rules, games, r), games)[1])
                finally:
                    patches.set(False)
            return go

        a, b, ratio = paired(side(False), side(True), rounds)
        out[f"{name}: proposals 2(parse)+4+6"] = {"now": round(a), "with": round(b),
                                                   "ratio": round(ratio, 3)}
    rules = compile_table("sniff", 2)
    make, _ = greedy_factory()
    if make is not None:
        hands = max(games // 4, 50)

        def greedy(r: int) -> float:
            return _rate(lambda: play_hands(rules, hands, r, make(r))[0])

        def direct(r: int) -> float:
            return _rate(lambda: play_hands(rules, hands, r, lambda hand: greedy_move(hand))[0])

        a, b, ratio = paired(greedy, direct, rounds)
        out["greedy sniff 2p: proposal 12 bound (no observe copy)"] = {
            "now": round(a), "with": round(b), "ratio": round(ratio, 3)}
        out.update(simulate_proposals(hands, rounds))
    out.update(fused_run(games, rounds))
    for label, r in out.items():
        log(f"  {label:60} now {r['now']:>7,}  with {r['with']:>7,}  ratio {r['ratio']:.3f}")
    return out


if __name__ == "__main__":
    run()
