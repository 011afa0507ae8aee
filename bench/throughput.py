"""Whole hands and moves per second of bones itself, random and greedy play.

Hands are played inside matches (``Match.new_hand`` ... ``finish_hand``), as
``bones simulate`` plays them, so dealing, lead rules and the hand summary are
part of the cost.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from bench.common import compile_table, median, tables

VARIANTS = ("sniff", "all-fives", "muggins", "fives-and-threes")


def play_hands(rules, hands: int, seed: int, choose: Callable | None = None) -> tuple[int, int]:
    """Play ``hands`` hands in consecutive matches; returns (hands, moves).

    ``choose(hand)`` picks a move; ``None`` is a uniformly random legal move,
    inlined because the driver's own cost is part of what is measured.
    """
    from bones.engine.match import Match

    rng = random.Random(seed)
    pick = rng.choice
    done = moves = 0
    match_seed = seed
    while done < hands:
        match = Match(rules, match_seed)
        match_seed += 1
        while not match.game_over and done < hands:
            hand = match.new_hand()
            if choose is None:
                while not hand.state:
                    hand.apply(pick(hand.legal_moves()))
                    moves += 1
            else:
                while not hand.state:
                    hand.apply(choose(hand))
                    moves += 1
            match.finish_hand(hand)
            done += 1
    return done, moves


def measure(rules, hands: int, rounds: int, seed: int = 1,
            make_choose: Callable | None = None) -> dict[str, object]:
    """Median rates over ``rounds`` runs of ``hands`` hands each."""
    hand_rates, move_rates, moves_per_hand, cpu_rates = [], [], [], []
    for r in range(rounds):
        choose = make_choose(seed + r) if make_choose else None
        start, cpu = time.perf_counter(), time.process_time()
        n, moves = play_hands(rules, hands, seed + 1000 * r, choose)
        took = time.perf_counter() - start
        cpu = time.process_time() - cpu
        hand_rates.append(n / took)
        move_rates.append(moves / took)
        moves_per_hand.append(moves / n)
        # per CPU second of this process: what the machine's other load
        # does not take away (wall-clock rates fall when cores are shared)
        cpu_rates.append(n / cpu if cpu > 0 else 0.0)
    return {
        "hands": hands,
        "rounds": rounds,
        "hands_per_s": round(median(hand_rates)),
        "moves_per_s": round(median(move_rates)),
        "moves_per_hand": round(median(moves_per_hand), 2),
        "hands_per_cpu_s": round(median(cpu_rates)),
        "hands_per_s_rounds": [round(x) for x in hand_rates],
    }


def greedy_factory() -> tuple[Callable | None, str]:
    """A function seed -> choose(hand) for the greedy bot, or why there is none.

    The bot is driven through its public protocol, ``bot.choose(observe(hand,
    seat), rng)``, so building the observation is part of the measured cost.
    """
    try:
        from bones.bots import make_bot
        from bones.seat.observation import observe
    except ImportError as err:
        return None, f"bones.bots.make_bot is not available ({err})"

    def make(seed: int):
        choose = make_bot("greedy").choose
        rng = random.Random(seed)
        return lambda hand: choose(observe(hand, hand.turn), rng)

    return make, ""


def run(hands: int = 20_000, rounds: int = 3, variants: tuple[str, ...] = VARIANTS,
        bot: str = "random", log: Callable[[str], None] = print) -> dict[str, object]:
    """The throughput table for ``bot`` ("random" or "greedy")."""
    make_choose = None
    if bot == "greedy":
        make_choose, why = greedy_factory()
        if make_choose is None:
            log(f"  greedy: skipped: {why}")
            return {"skipped": why}
    rows = []
    for name in variants:
        for label, players, teams in tables(name):
            rules = compile_table(name, players, teams)
            row = {"variant": name, "table": label, "players": players, "teams": teams}
            row.update(measure(rules, hands, rounds, make_choose=make_choose))
            log(f"  {bot:7} {name:17} {label:9} {row['hands_per_s']:>9,} hands/s "
                f"{row['moves_per_s']:>10,} moves/s  ({row['moves_per_hand']} moves/hand; "
                f"{row['hands_per_cpu_s']:,} hands per CPU s)")
            rows.append(row)
    return {"bot": bot, "rows": rows}
