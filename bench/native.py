"""The native core against the Python core and the peers, in one run.

Three figures per table (``python -m bench --only native``):

* **kernel**: the same pre-dealt first hands played out with random moves on
  the specified stream (``docs/random.md``: one move alone is played without
  a draw, else ``choice(legal)``), on the Python ``Hand`` and on the native
  stepwise hand (``Hand.playout``).  Both must end every hand identically;
  the section checks it.  Hand construction from the deal is timed on both
  sides, dealing is not (the deals are made once, before timing).
* **peers**: the peers' documented random-move loops (OpenSpiel's
  ``python_block_dominoes`` with chance outcomes, the ``dominoes`` package's
  ``Game.new``), timed in-process in the same run.
* **simulate**: the whole ``bones simulate VARIANT --hands N --bots random
  --jobs 1 --quiet`` process under ``BONES_CORE=python`` and
  ``BONES_CORE=native`` (start-up included).  Under the native core the
  whole run is played in native batches (``bones_native.Simulation``, see
  docs/simulate.md); the section says whether the installed core has them.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from typing import Any

from bench.common import bones_command, compile_table, median
from bench.peers import dominoes_drivers, openspiel_drivers

TABLES = (("sniff", 2), ("block-2p", 2), ("partnership-block", 4))
PEER_OF = {"block-2p": ("openspiel", openspiel_drivers), "partnership-block": ("dominoes", dominoes_drivers)}


def _deals(rules: Any, n: int) -> list[Any]:
    from bones.engine.match import Match

    out = []
    for g in range(n):
        match = Match(rules, seed=g)
        match.new_hand()
        out.append(match.current_deal)
    return out


def _python_side(rules: Any, deals: list[Any]) -> tuple[float, list[tuple[int, list[int]]]]:
    from bones.engine.hand import Hand
    from bones.engine.rng import Rng

    ends = []
    start = time.perf_counter()
    for g, deal in enumerate(deals):
        hand = Hand(rules, deal.hands, deal.boneyard, deal.leader, None, deal.lead_tile,
                    deal.lead_doubles_only, deal.out_of_play)
        rng = Rng(g)
        while not hand.state:
            legal = hand.legal_moves()
            if not legal:
                break
            hand.apply(legal[0] if len(legal) == 1 else rng.choice(legal))
        ends.append((hand.state, list(hand.scores)))
    return time.perf_counter() - start, ends


def _native_side(rules: Any, deals: list[Any]) -> tuple[float, list[tuple[int, list[int]]]]:
    from bones.engine.core import native_hand, native_rules

    module = __import__("bones_native")
    native_rules(rules, module)
    ends = []
    start = time.perf_counter()
    for g, deal in enumerate(deals):
        hand = native_hand(rules, deal, None, module, record=False)
        hand.playout("random", g)
        ends.append((hand.state, hand.scores))
    return time.perf_counter() - start, ends


def _peer_rate(variant: str, games: int) -> tuple[str, float | None, str]:
    if variant not in PEER_OF:
        return "", None, ""
    key, load = PEER_OF[variant]
    drivers, why = load()
    if not drivers:
        return key, None, why
    run = drivers[key]
    run(10, 99)  # warm-up
    start = time.perf_counter()
    g, _, _ = run(games, 1)
    return key, g / (time.perf_counter() - start), ""


def _simulate_seconds(variant: str, players: int, hands: int, core: str) -> float:
    cmd = bones_command() + ["simulate", variant, "--hands", str(hands), "--players",
                             str(players), "--bots", "random", "--jobs", "1", "--seed", "1",
                             "--quiet", "--json"]
    env = {**os.environ, "BONES_CORE": core}
    start = time.perf_counter()
    subprocess.run(cmd, env=env, capture_output=True, check=True)
    return time.perf_counter() - start


def run(hands: int = 20_000, rounds: int = 3, sim_hands: int = 20_000,
        peer_games: int = 2_000, log: Callable[[str], None] = print) -> dict[str, object]:
    try:
        import bones_native
    except ImportError as err:
        why = f"the native core is not installed ({err}); pip install ./native"
        log(f"  skipped: {why}")
        return {"skipped": why}
    from bones.engine.core import native

    os.environ.pop("BONES_CORE", None)
    # whether bones simulate plays the random bots' runs in native batches
    dispatches = "random" in getattr(bones_native, "SIM_BOTS", ())
    result: dict[str, object] = {"simulate_dispatches_to_native": dispatches}
    for variant, players in TABLES:
        rules = compile_table(variant, players)
        deals = _deals(rules, hands)
        py_rates, nat_rates = [], []
        for _ in range(rounds):
            took, py_ends = _python_side(rules, deals)
            py_rates.append(hands / took)
            took, nat_ends = _native_side(rules, deals)
            nat_rates.append(hands / took)
            if py_ends != nat_ends:
                raise SystemExit(f"bench: the cores disagree on {variant}")
        peer, peer_rate, why = _peer_rate(variant, peer_games)
        entry: dict[str, Any] = {
            "players": players,
            "hands": hands,
            "kernel_python_hands_per_s": round(median(py_rates)),
            "kernel_native_hands_per_s": round(median(nat_rates)),
            "kernel_native_over_python": round(median(nat_rates) / median(py_rates), 1),
        }
        line = (f"  {variant:18} kernel: python {entry['kernel_python_hands_per_s']:>9,} "
                f"native {entry['kernel_native_hands_per_s']:>10,} hands/s "
                f"({entry['kernel_native_over_python']}x)")
        if peer:
            if peer_rate is None:
                entry[peer] = {"skipped": why}
            else:
                entry[peer] = {"games_per_s": round(peer_rate),
                               "native_kernel_over_peer": round(median(nat_rates) / peer_rate, 1)}
                line += (f"; {peer} {round(peer_rate):,} games/s "
                         f"(native kernel {entry[peer]['native_kernel_over_peer']}x)")
        log(line)
        sim = {}
        for core in ("python", "native"):
            seconds = _simulate_seconds(variant, players, sim_hands, core)
            sim[core] = {"seconds": round(seconds, 2),
                         "hands_per_s": round(sim_hands / seconds)}
        entry["simulate"] = {"hands": sim_hands, **sim}
        if peer_rate is not None:
            for core in ("python", "native"):
                sim[core][f"over_{peer}"] = round(sim[core]["hands_per_s"] / peer_rate, 2)
        log(f"  {'':18} bones simulate --hands {sim_hands}: python "
            f"{sim['python']['hands_per_s']:,}/s, native {sim['native']['hands_per_s']:,}/s "
            f"(whole process{'' if dispatches else '; this core has no native batches'})")
        result[variant] = entry
    native()  # the core the rest of this process would use
    return result
