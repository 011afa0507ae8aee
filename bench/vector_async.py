"""The vector environment stepped synchronously (``step``) and
asynchronously (``send``/``recv``) against a slow opponent.

``python -m bench.vector_async [--envs N] [--batch B] [--opponents BOT]
[--threads T] [--seconds S] [--rounds R] [--scoring]``

Both modes play the same tables (2-player All Fives, from seat 0, seeded
alike) with a random legal action per table (NumPy, seeded) for about
``--seconds`` each, alternating, ``--rounds`` times; a *step* is one table's
step (its learner's action and the opponent's replies).  ``step`` waits for
the slowest table of every step; ``recv`` returns the first ``--batch``
tables to finish, and the learner sends their actions at once while the
others are still thinking.  Prints the steps per second of each mode and
their ratio (each the median of the rounds); results go to
bench/results/adapters.md with the command.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from bones.adapters.vector import BonesVectorEnv


def _choose(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def sync_rate(o: argparse.Namespace, seed: int) -> float:
    venv = BonesVectorEnv("all-fives", num_envs=o.envs, opponents=o.opponents,
                          num_threads=o.threads, scoring=o.scoring)
    rng = np.random.default_rng(seed)
    _, info = venv.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < o.seconds:
        _, _, _, _, info = venv.step(_choose(info["action_mask"], rng))
        steps += o.envs
    rate = steps / (time.perf_counter() - start)
    venv.close()
    return rate


def async_rate(o: argparse.Namespace, seed: int) -> float:
    venv = BonesVectorEnv("all-fives", num_envs=o.envs, opponents=o.opponents,
                          num_threads=o.threads, scoring=o.scoring, batch_size=o.batch)
    rng = np.random.default_rng(seed)
    venv.async_reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < o.seconds:
        _, _, _, _, info = venv.recv()
        venv.send(_choose(info["action_mask"], rng), info["env_id"])
        steps += o.batch
    rate = steps / (time.perf_counter() - start)
    venv.recv(venv.core.outstanding)
    venv.close()
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--opponents", default="search:iterations=50")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scoring", action="store_true", help="observe the scoring view too")
    o = ap.parse_args()
    print(f"{o.envs} tables of all-fives against {o.opponents}, {o.threads} threads, "
          f"recv batches of {o.batch}, {o.seconds:g} s a mode a round, {o.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    sync, asyn = [], []
    for r in range(o.rounds):
        sync.append(sync_rate(o, 1 + r))
        asyn.append(async_rate(o, 1 + r))
        print(f"round {r + 1}: step {sync[-1]:,.0f} steps/s, send/recv {asyn[-1]:,.0f} "
              f"steps/s", flush=True)
    s, a = statistics.median(sync), statistics.median(asyn)
    print(f"median: step {s:,.0f} steps/s, send/recv {a:,.0f} steps/s, ratio {a / s:.2f}; "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
