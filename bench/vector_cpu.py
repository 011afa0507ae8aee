"""CPU seconds inside the vector environment's ``step`` for a fixed number of
table steps: one thread, ``random`` opponents, a random legal action per
table chosen in NumPy (outside the timing) as ``python -m bench.adapters``
chooses it.  CPU time of the process (``time.process_time``) is what a
shared machine's load disturbs least; with one thread the tables step on
the calling thread alone.

``python -m bench.vector_cpu [--variant NAME] [--steps N] [--envs N]``

Run it under two installs of the native core, alternating, for an A/B of
the Rust loop (bench/results/adapters.md).
"""

from __future__ import annotations

import argparse
import time


def cpu_rate(variant: str, steps: int, envs: int) -> tuple[int, float]:
    """(table steps, CPU seconds inside ``step``)."""
    import numpy as np

    from bones.adapters.vector import BonesVectorEnv

    venv = BonesVectorEnv(variant, num_envs=envs, opponents="random", num_threads=1, copy=False)
    _, info = venv.reset(seed=1)
    rng = np.random.default_rng(1)
    pool = [rng.random((envs, venv.space.num_actions), dtype=np.float32) for _ in range(16)]
    calls = max(1, steps // envs)
    inside = 0.0
    for k in range(calls):
        actions = (pool[k % 16] * info["action_mask"]).argmax(axis=1)
        start = time.process_time()
        _, _, _, _, info = venv.step(actions)
        inside += time.process_time() - start
    venv.close()
    return calls * envs, inside


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.vector_cpu",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="all-fives")
    ap.add_argument("--steps", type=int, default=1_000_000, help="table steps")
    ap.add_argument("--envs", type=int, default=256, help="tables")
    o = ap.parse_args(argv)
    done, cpu = cpu_rate(o.variant, o.steps, o.envs)
    print(f"{o.variant}: {done:,} table steps, {cpu:.3f} CPU s inside step, "
          f"{done / cpu:,.0f} steps per CPU second")


if __name__ == "__main__":
    main()
