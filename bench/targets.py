"""Issue 37's simulate targets, side by side in one run (``--only targets``).

Each case is one whole ``bones simulate VARIANT --hands N --players P --bots
BOT --jobs 1 --seed 1 --quiet --json`` process on the native core, start-up
included, timed by the wall clock and by its CPU seconds (user + system of
the child: what a shared machine's load disturbs least). The peers'
documented random-move loops (OpenSpiel's ``python_block_dominoes``, the
``dominoes`` package) are timed in-process in the same run, so the ratios
of the two block games are taken within one run. The targets are issue 37's:
Sniff with random bots at 700k hands/s, greedy 300k/s, heuristic 100k/s,
``block-2p`` at 300x OpenSpiel and ``partnership-block`` at 100x
``dominoes``.
"""

from __future__ import annotations

import os
import resource
import subprocess
import time
from collections.abc import Callable
from typing import Any

from bench.common import bones_command
from bench.native import PEER_OF, _peer_rate

# (variant, players, bot, hands, target): target in hands/s, or "Nx" a peer
CASES: list[tuple[str, int, str, int, str]] = [
    ("sniff", 2, "random", 1_000_000, "700000"),
    ("sniff", 2, "greedy", 1_000_000, "300000"),
    ("sniff", 2, "heuristic", 200_000, "100000"),
    ("block-2p", 2, "random", 1_000_000, "300x"),
    ("partnership-block", 4, "random", 1_000_000, "100x"),
]


def _simulate(variant: str, players: int, bot: str, hands: int) -> tuple[float, float]:
    """Wall and CPU seconds of one whole ``bones simulate`` process."""
    cmd = bones_command() + ["simulate", variant, "--hands", str(hands), "--players",
                             str(players), "--bots", bot, "--jobs", "1", "--seed", "1",
                             "--quiet", "--json"]
    env = {**os.environ, "BONES_CORE": "native"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def run(scale: float = 1.0, peer_games: int = 2_000,
        log: Callable[[str], None] = print) -> dict[str, object]:
    """Every case at ``scale`` times its hands; the peers at ``peer_games``."""
    try:
        import bones_native  # noqa: F401
    except ImportError as err:
        why = f"the native core is not installed ({err}); pip install ./native"
        log(f"  skipped: {why}")
        return {"skipped": why}
    peers: dict[str, float | None] = {}
    result: dict[str, object] = {}
    for variant, players, bot, hands, target in CASES:
        hands = max(1, round(hands * scale))
        wall, cpu = _simulate(variant, players, bot, hands)
        entry: dict[str, Any] = {
            "players": players, "bot": bot, "hands": hands,
            "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
            "hands_per_s": round(hands / wall), "hands_per_cpu_s": round(hands / cpu),
        }
        line = (f"  {variant:18} {bot:9} {hands:>9,} hands: {entry['hands_per_s']:>9,}/s wall, "
                f"{entry['hands_per_cpu_s']:>9,}/CPU s")
        if target.endswith("x"):
            if variant not in peers:
                peers[variant] = _peer_rate(variant, peer_games)[1]
            peer = PEER_OF[variant][0]
            rate = peers[variant]
            entry["target"] = f"{target} {peer}"
            if rate is None:
                entry[peer] = {"skipped": "not importable"}
                line += f"; {peer} not importable"
            else:
                over = hands / cpu / rate
                entry[peer] = {"games_per_s": round(rate), "over_peer_cpu": round(over, 1)}
                line += f"; {peer} {round(rate):,} games/s: {over:.0f}x (target {target})"
        else:
            entry["target"] = int(target)
            line += f" (target {int(target):,}/s)"
        log(line)
        result[f"{variant}/{bot}"] = entry
    return result
