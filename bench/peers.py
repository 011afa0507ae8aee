"""bones against each peer on the peer's own game, A/B interleaved.

Both sides run in this one process, alternately and in alternating order, for
several rounds; ratios are taken per round (so a burst of load from elsewhere
hits both sides of a ratio alike) and the median is reported.  The peers'
drivers follow docs/peers.md sections 1.9 and 2.7.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable

from bench.common import compile_table, match_factory, median

# (games, tile plays, all moves including passes)
Driver = Callable[[int, int], tuple[int, int, int]]


def bones_driver(variant: str, players: int) -> Driver:
    """One game = the first hand of a fresh match (its first-lead rule)."""
    rules = compile_table(variant, players)

    def run(games: int, seed: int) -> tuple[int, int, int]:
        rng = random.Random(seed)
        pick = rng.choice
        new_match = match_factory(rules)
        plays = moves = 0
        for g in range(games):
            match = new_match(seed + g)
            hand = match.new_hand()
            while not hand.state:
                move = pick(hand.legal_moves())
                hand.apply(move)
                moves += 1
                if move >= 0:
                    plays += 1
            match.finish_hand(hand)
        return games, plays, moves

    return run


def openspiel_drivers() -> tuple[dict[str, Driver], str]:
    try:
        import pyspiel

        # importing the module registers python_block_dominoes (docs/peers.md 1.1)
        importlib.import_module("open_spiel.python.games.block_dominoes")
    except ImportError as err:
        return {}, f"open_spiel is not importable ({err}); pip install 'bones[bench]'"
    game = pyspiel.load_game("python_block_dominoes")

    def chance_deal(games: int, seed: int) -> tuple[int, int, int]:
        # the peer's documented driver: chance nodes sampled from chance_outcomes()
        rng = random.Random(seed)
        plays = 0
        for _ in range(games):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(rng.choice(s.chance_outcomes())[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
                    plays += 1
            s.returns()
        return games, plays, plays

    def sample_deal(games: int, seed: int) -> tuple[int, int, int]:
        # the faster deal of docs/peers.md 1.9: 14 distinct tiles applied in order
        rng = random.Random(seed)
        plays = 0
        for _ in range(games):
            s = game.new_initial_state()
            for tile in rng.sample(range(28), 14):
                s.apply_action(tile)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                plays += 1
            s.returns()
        return games, plays, plays

    return {"openspiel": chance_deal, "openspiel-fast-deal": sample_deal}, ""


def dominoes_drivers() -> tuple[dict[str, Driver], str]:
    try:
        import dominoes
    except ImportError as err:
        return {}, f"the dominoes package is not importable ({err}); pip install 'bones[bench]'"
    six_six = dominoes.Domino(6, 6)

    def one_game(games: int, seed: int) -> tuple[int, int, int]:
        # like partnership-block's first hand: the 6-6 holder leads it (the
        # peer plays it inside Game.new, so it is counted as a play here)
        random.seed(seed)  # the package deals with the module-level generator
        rng = random.Random(seed)
        plays = games
        for _ in range(games):
            g = dominoes.Game.new(starting_domino=six_six)
            while g.result is None:
                g.make_move(*rng.choice(g.valid_moves))
                plays += 1
        return games, plays, plays

    return {"dominoes": one_game}, ""


def duel(sides: dict[str, Driver], games: int, rounds: int, seed: int = 1) -> dict[str, dict]:
    """Run every side ``rounds`` times, interleaved; per-round rates."""
    names = list(sides)
    out: dict[str, dict] = {n: {"games_per_s": [], "plays_per_s": [], "moves_per_s": [],
                                "games_per_cpu_s": []} for n in names}
    for r in range(rounds):
        order = names if r % 2 == 0 else names[::-1]
        for name in order:
            start, cpu = time.perf_counter(), time.process_time()
            g, plays, moves = sides[name](games, seed + r * games)
            took = time.perf_counter() - start
            cpu = time.process_time() - cpu
            out[name]["games_per_cpu_s"].append(g / cpu if cpu > 0 else 0.0)
            out[name]["games_per_s"].append(g / took)
            out[name]["plays_per_s"].append(plays / took)
            out[name]["moves_per_s"].append(moves / took)
    return out


def summarise(rates: dict[str, dict], bones: str) -> dict[str, object]:
    sides = {}
    for name, r in rates.items():
        sides[name] = {
            "games_per_s": round(median(r["games_per_s"])),
            "plays_per_s": round(median(r["plays_per_s"])),
            "moves_per_s": round(median(r["moves_per_s"])),
            "games_per_cpu_s": round(median(r["games_per_cpu_s"])),
            "games_per_s_rounds": [round(x) for x in r["games_per_s"]],
        }
    ratios, cpu_ratios = {}, {}
    for name, r in rates.items():
        if name != bones:
            for key, into in (("games_per_s", ratios), ("games_per_cpu_s", cpu_ratios)):
                per_round = [a / b for a, b in zip(rates[bones][key], r[key]) if b]
                into[f"{bones}/{name}"] = round(median(per_round), 2)
    return {"sides": sides, "ratios": ratios, "ratios_cpu": cpu_ratios}


def run(games: int = 3_000, rounds: int = 5,
        log: Callable[[str], None] = print) -> dict[str, object]:
    result: dict[str, object] = {}
    pairs = (
        ("openspiel", "block-2p", 2, openspiel_drivers, 8.0),
        ("dominoes", "partnership-block", 4, dominoes_drivers, 2.0),
    )
    for key, variant, players, load, target in pairs:
        peers, why = load()
        if not peers:
            log(f"  {key}: skipped: {why}")
            result[key] = {"skipped": why}
            continue
        bones = f"bones:{variant}"
        sides = {bones: bones_driver(variant, players), **peers}
        # one unmeasured warm-up game each (imports, first-call caches)
        duel(sides, 20, 1, seed=10_000)
        summary = summarise(duel(sides, games, rounds), bones)
        summary.update({"games": games, "rounds": rounds, "target_ratio": target})
        for name, s in summary["sides"].items():
            log(f"  {name:22} {s['games_per_s']:>8,} games/s {s['plays_per_s']:>9,} plays/s "
                f"{s['moves_per_s']:>9,} moves/s {s['games_per_cpu_s']:>8,} games per CPU s")
        for name, ratio in summary["ratios"].items():
            cpu_ratio = summary["ratios_cpu"][name]
            log(f"  ratio {name}: {ratio}x wall, {cpu_ratio}x CPU (target >= {target}x)")
        result[key] = summary
    return result
