"""How long OpenSpiel's tabular algorithms take on a tiny bones variant.

``python -m bench.openspiel_tree [--variant PATH] [--iterations N]``

On ``tests/data/tiny-block.yaml`` (the block game with the double-3 set and
2 tiles each, every chance node included): one walk of the whole tree
(``get_all_states``), building a ``CFRSolver``, CFR iterations, and
``exploitability.nash_conv`` of the average policy.  Both the CPU time of
this process and the wall time are printed, with the load average: on the
shared 2-core host the wall time mostly measures the other processes.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

TINY = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "tiny-block.yaml")


def _timed(name: str, fn: Callable[[], Any]) -> Any:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    print(f"  {name:32} cpu {time.process_time() - cpu:6.1f} s   "
          f"wall {time.perf_counter() - wall:6.1f} s", flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.openspiel_tree",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default=os.path.normpath(TINY))
    ap.add_argument("--iterations", type=int, default=1, help="CFR iterations")
    o = ap.parse_args(argv)
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability, get_all_states

    import bones.adapters.openspiel  # noqa: F401

    print(f"{o.variant}; load average {os.getloadavg()}")
    game = pyspiel.load_game("python_bones", {"variant": o.variant})
    states = _timed("get_all_states (whole tree)", lambda: get_all_states.get_all_states(
        game, include_terminals=True, include_chance_states=True))
    print(f"  {len(states)} states")
    solver = _timed("CFRSolver(game)", lambda: cfr.CFRSolver(game))
    for _ in range(o.iterations):
        _timed("one CFR iteration", solver.evaluate_and_update_policy)
    value = _timed("nash_conv(average policy)",
                   lambda: exploitability.nash_conv(game, solver.average_policy()))
    print(f"  NashConv {value:.4f}; load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
