"""bones' bot against the ``dominoes`` package's ``probabilistic_alphabeta``,
inside the package's own game.

    python -m bench.versus_dominoes --deals 200 --jobs 2

Each game is one ``dominoes.Game`` (the first game of the package's series:
the [6-6] holder leads it) and, move for move beside it, the first hand of a
bones ``partnership-block`` match from the same deal.  bones' bot holds the
seats of one team (0 + 2 or 1 + 3) and chooses in bones' hand from its own
seat's :class:`~bones.seat.observation.Observation`; the peer's player
holds the other team's seats and chooses in the package's game, as its docs
say players are used (it reorders ``game.valid_moves`` and the first is
played).  Every move is made in both games: at every turn the two agree on
the mover and the legal moves, each move is legal in both, and the game ends
with the same result and points in both (:class:`OutOfStep` otherwise).

The rules are the same (docs/peers.md section 2, tests/test_peers.py); the
bridge maps the two representations:

* the package merges a tile that fits both ends when they show the same
  number into one move on the left; bones lists it on both arms, which give
  the same position, so a bones move goes to the package by the number it
  covers (the left end when both match);
* the package skips a seat that cannot play (its ``moves`` record ``None``);
  bones writes the pass, so bones passes until its turn is the package's;
* ``Game.new(starting_domino=[6-6])`` plays the [6-6] itself; bones plays it
  as the lead its variant requires.

The peer's bot is ``probabilistic_alphabeta(start_move=K, sample_size=S)``,
the package's strongest player that does not look at hidden hands
(``omniscient`` does).  Uncapped it runs an exact alpha-beta search over
every hand the others could hold, which takes minutes a move early in a
game; its two documented parameters cap it: ``sample_size`` samples that
many possible deals instead of all, and ``start_move`` leaves moves before
that number to the next player in the chain, here ``bota_gorda`` (heaviest
tile first; players compose, as the package's docs show), instead of the
hand's dealt order.  The package deals and samples with the module-level
``random``, which is seeded for every game from the deal's seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from bench.versus import (
    Game,
    common_args,
    pairs_of,
    partial_file,
    play_all,
    progress_printer,
    report,
)

PEER = "probabilistic_alphabeta"
START_MOVE = 4
SAMPLE_SIZE = 8


class OutOfStep(AssertionError):
    """The two games disagree (a move legal in one only, or another end)."""


@dataclass(frozen=True)
class Setup:
    bot: str = "search"
    start_move: int = START_MOVE
    sample_size: int = SAMPLE_SIZE
    check: bool = True


def peer_player(start_move: int, sample_size: int) -> Any:
    """The package's player: ``bota_gorda`` ordering, then the capped
    ``probabilistic_alphabeta`` on top (a stable sort keeps the first order
    among equally good moves)."""
    from dominoes import players

    search = players.probabilistic_alphabeta(start_move=start_move, sample_size=sample_size)

    def player(game: Any) -> None:
        players.bota_gorda(game)
        search(game)

    return player


def _settings(setup: Setup) -> dict[str, object]:
    return {"peer_player": f"{PEER}(start_move={setup.start_move}, sample_size={setup.sample_size})"
                           " after bota_gorda",
            "variant": "partnership-block", "game": "dominoes.Game.new(starting_domino=[6-6])"}


def play(deal: int, bones_team: int, setup: Setup = Setup()) -> Game:
    """One game from deal ``deal`` with bones' bot in team ``bones_team``'s seats."""
    import dominoes

    from bones.bots import make_bot
    from bones.engine.hand import PASS
    from bones.engine.match import Deal, Match
    from bones.engine.moves import arm_of, tile_of
    from bones.engine.rng import Rng
    from bones.lang.compile import compile_rules
    from bones.lang.load import load_variant
    from bones.seat.observation import observe

    rules = _rules(compile_rules, load_variant)
    ts = rules.tiles
    bot = make_bot(setup.bot)
    peer = peer_player(setup.start_move, setup.sample_size)

    saved = random.getstate()
    try:
        random.seed(deal)  # the package deals with the module-level generator
        game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
        random.seed(deal * 2 + bones_team + 1)  # the peer's sampling in this game
        six = ts.tile(6, 6)
        leader = game.starting_player
        hands = [ts.mask_of([ts.tile(d.first, d.second) for d in h]) for h in game.hands]
        hands[leader] |= 1 << six  # Game.new has already played it
        hand = Match(rules, seed=deal).start_hand(Deal(tuple(hands), (), leader, lead_tile=six))
        lead = hand.legal_moves()
        if len(lead) != 1 or tile_of(lead[0]) != six:
            raise OutOfStep(f"deal {deal}: bones does not lead the [6-6] from seat {leader}")
        hand.apply(lead[0])
        rng = Rng(deal * 2 + bones_team)
        bones_ms: list[float] = []
        peer_ms: list[float] = []
        moves = 1

        def covered(move: int) -> int:
            return hand.arm_open[arm_of(move)]

        while game.result is None:
            while hand.turn != game.turn:  # seats the package skipped
                if hand.legal_moves() != [PASS]:
                    raise OutOfStep(f"deal {deal}: the package skipped seat {hand.turn}, "
                                    "which can play in bones")
                hand.apply(PASS)
                moves += 1
            legal = hand.legal_moves()
            if PASS in legal:  # the package has a seat move that must pass in bones
                raise OutOfStep(f"deal {deal}: seat {hand.turn} must pass in bones, "
                                "but the package has it play")
            left_end, right_end = game.board.left_end(), game.board.right_end()
            valid = game.valid_moves
            if setup.check:
                ours = {(tile_of(m), covered(m)) for m in legal}
                theirs = {(ts.tile(d.first, d.second), left_end if left else right_end)
                          for d, left in valid}
                if ours != theirs:
                    raise OutOfStep(f"deal {deal}, seat {hand.turn}: legal moves differ")
            if hand.turn % 2 == bones_team:
                if len(legal) == 1:
                    move = legal[0]
                else:
                    start = time.perf_counter()
                    move = bot.choose(observe(hand, hand.turn), rng)
                    bones_ms.append((time.perf_counter() - start) * 1000)
                t, pip = tile_of(move), covered(move)
                d = dominoes.Domino(ts.low[t], ts.high[t])
                left = pip == left_end
                if (d, left) not in valid:
                    raise OutOfStep(f"deal {deal}: bones' {ts.names[t]} on {pip} is not valid "
                                    "in the package")
            else:
                if len(valid) > 1:
                    start = time.perf_counter()
                    peer(game)
                    peer_ms.append((time.perf_counter() - start) * 1000)
                d, left = game.valid_moves[0]
                t = ts.tile(d.first, d.second)
                pip = left_end if left else right_end
                found = [m for m in legal if tile_of(m) == t and covered(m) == pip]
                if not found:
                    raise OutOfStep(f"deal {deal}: the package's {d} on {pip} is not legal in bones")
                move = found[0]
            hand.apply(move)
            game.make_move(d, left)
            moves += 1
        while not hand.over and hand.legal_moves() == [PASS]:
            hand.apply(PASS)  # (bones ends a blocked hand when it sees it)
        result = game.result
        if not hand.over:
            raise OutOfStep(f"deal {deal}: the package's game ended, bones' hand did not")
        points = [max(result.points, 0), max(-result.points, 0)]
        if list(hand.settlement) != points:
            raise OutOfStep(f"deal {deal}: the package scores {points}, bones {hand.settlement}")
    finally:
        random.setstate(saved)
    ours_points = points[bones_team] - points[1 - bones_team]
    outcome = (ours_points > 0) - (ours_points < 0)
    return Game(deal, bones_team, outcome, ours_points, moves, bones_ms, peer_ms)


_RULES: list[Any] = []


def _rules(compile_rules: Any, load_variant: Any) -> Any:
    if not _RULES:
        _RULES.append(compile_rules(load_variant("partnership-block"), 4))
    return _RULES[0]


_SETUP: list[Setup] = []


def _task(game: tuple[int, int]) -> Game:
    return play(game[0], game[1], _SETUP[0] if _SETUP else Setup())


def _init(setup: Setup) -> None:
    _SETUP[:] = [setup]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.versus_dominoes",
                                 description=__doc__.split("\n\n")[0])
    common_args(ap)
    ap.add_argument("--start-move", type=int, default=START_MOVE,
                    help=f"the peer searches from this move on (moves are 0-indexed, "
                    f"the [6-6] and passes count; {START_MOVE})")
    ap.add_argument("--sample-size", type=int, default=SAMPLE_SIZE,
                    help=f"possible deals the peer searches a move ({SAMPLE_SIZE})")
    opts = ap.parse_args(argv)
    try:
        import dominoes  # noqa: F401
    except ImportError as err:
        print(f"the dominoes package is not importable ({err}); pip install 'bones[bench]'",
              file=sys.stderr)
        return 2
    setup = Setup(opts.bot, opts.start_move, opts.sample_size)
    started = time.time()
    games = pairs_of(opts.deals, opts.seed)
    results = play_all(_task, games, opts.jobs, progress_printer(opts.quiet, partial_file(opts)),
                       _init, (setup,))
    report(opts, results, PEER, _settings(setup), started, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
