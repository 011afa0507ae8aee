"""How often the analysis calls the default search's own moves mistakes, and
how often it flags a dump (docs/play.md, "Deterministic").

    python -m bench.analysis_verdicts [-n 40] [--variant all-fives] [--budget 200]

Plays ``-n`` one-hand games of ``search:iterations=200`` against itself
(seeds 0, 1, ...); once per game, from its second move on, seat 0 instead
dumps its lightest tile into a scoring chance when it can: a tile scoring
nothing that hands the next seat 10 points or more with a seventh of the
tiles it cannot see, when another move is 10 points better by the same
one-move reckoning (tests/test_analysis.py's games).  Seat 0 is then
analysed at ``--budget`` worlds a decision, and the search's own decisions
and the dumps are counted apart: the mistakes, the mean loss in points and,
where the match is at stake, the mean match-win chance given away, with the
key that ranked each decision.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from typing import Any


def _after(hand: Any, move: int) -> Any:
    trial = hand.copy()
    trial.apply(move)
    return trial


def _reply(hand: Any, move: int) -> int:
    trial = _after(hand, move)
    if trial.over:
        return 0
    return max((_after(trial, m).last_points for m in trial.legal_moves()), default=0)


def _exposure(hand: Any, move: int) -> float:
    trial = _after(hand, move)
    if trial.over:
        return 0.0
    unseen = hand.rules.tiles.full & ~(hand.hands[hand.turn] | trial.on_table | trial.out_of_play)
    tiles = hand.rules.tiles.tiles_of(unseen)
    hits = 0
    for t in tiles:
        probe = trial.copy()
        probe.hands = list(probe.hands)
        probe.hands[probe.turn] = 1 << t
        if any(m >= 0 and _after(probe, m).last_points >= 10 for m in probe.legal_moves()):
            hits += 1
    return hits / max(1, len(tiles))


def _dump(hand: Any) -> int | None:
    from bones.engine.moves import tile_of

    legal = hand.legal_moves()
    tiles = [m for m in legal if m >= 0]
    if len(legal) < 2 or not tiles:
        return None
    pips = hand.rules.tiles.pips
    light = min(pips[tile_of(m)] for m in tiles)
    net = {m: _after(hand, m).last_points - _reply(hand, m) for m in legal}
    for m in tiles:
        if (pips[tile_of(m)] == light and _after(hand, m).last_points == 0
                and _reply(hand, m) >= 10 and max(net.values()) >= net[m] + 10
                and _exposure(hand, m) >= 0.15):
            return m
    return None


def game(variant: str, seed: int, budget: int) -> tuple[list[Any], list[Any]]:
    """The analysed decisions of seat 0: (its search's own, its dumps)."""
    from bones.games.analysis import analyse
    from bones.games.game import GameSession
    from bones.lang.load import load_variant

    session = GameSession.new(load_variant(variant), humans=0,
                              bots=["search:iterations=200"], seed=seed)
    dumps: list[int] = []
    while not session.over and session.hand_number <= 1:
        hand = session.hand
        assert hand is not None
        if hand.turn == 0 and len(hand.log) >= 2 and not dumps:
            move = _dump(hand)
            if move is not None:
                dumps.append(len(hand.log) + 1)
                session.play(move)
                continue
        session.bot_move()
    analysis = analyse(session.to_record(), seats=[0], budget=budget)
    own = [d for d in analysis.decisions if d.ply not in dumps]
    dumped = [d for d in analysis.decisions if d.ply in dumps]
    return own, dumped


def _line(name: str, ds: list[Any]) -> str:
    if not ds:
        return f"{name}: none"
    wins = [d.win_loss for d in ds if d.win_loss is not None]
    keys = {k: sum(1 for d in ds if d.ranked_by == k) for k in ("win", "value")}
    given = f", mean chance given away {statistics.fmean(wins):.2%}" if wins else ""
    return (f"{name}: {sum(d.mistake for d in ds)} mistakes of {len(ds)} decisions, "
            f"mean loss {statistics.fmean(d.loss for d in ds):.2f} points{given} "
            f"(ranked by the chance {keys['win']}, by points {keys['value']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.analysis_verdicts")
    parser.add_argument("-n", type=int, default=40, help="games (seeds 0 to n-1)")
    parser.add_argument("--variant", default="all-fives")
    parser.add_argument("--budget", type=int, default=200)
    args = parser.parse_args(argv)
    own: list[Any] = []
    dumped: list[Any] = []
    for seed in range(args.n):
        o, d = game(args.variant, seed, args.budget)
        own += o
        dumped += d
        print(f"seed {seed}: {len(o)} own decisions, {len(d)} dump", file=sys.stderr)
    print(f"{args.variant}, {args.n} one-hand games of search:iterations=200 against itself, "
          f"seat 0 analysed at {args.budget} worlds a decision")
    print(_line("the search's own moves", own))
    print(_line("the dumps", dumped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
