"""Interleaved A/B of ``bones simulate`` for issue 35 (bench/results/trains-35.md).

The base's sources (``git archive b909dcd | tar -x -C /tmp/trains-base``) and
this checkout alternate, the order swapped every round; each run is the whole
``bones simulate`` process, timed in CPU seconds (user + system of the child),
which a shared machine's load disturbs less than the wall clock.  Run from
the checkout: ``nice python bench/results/trains-35-ab.py [BASE]``.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parents[2])
CASES = [
    ("python", ["sniff", "--hands", "10000"]),
    ("python", ["all-fives", "--players", "4", "--hands", "10000"]),
    ("native", ["sniff", "--hands", "200000"]),
    ("native", ["partnership-block", "--players", "4", "--hands", "200000"]),
]


def main() -> None:
    roots = {"base": sys.argv[1] if len(sys.argv) > 1 else "/tmp/trains-base", "trains": HERE}
    out: dict[tuple[str, str, str], list[float]] = {}
    for rnd in range(4):
        order = list(roots.items()) if rnd % 2 == 0 else list(reversed(roots.items()))
        for core, args in CASES:
            for label, root in order:
                env = {**os.environ, "BONES_CORE": core, "PYTHONPATH": root}
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([sys.executable, "-m", "bones", "simulate", *args, "--bots", "random",
                                "--jobs", "1", "--quiet", "--seed", "1"], env=env, cwd=root,
                               check=True, stdout=subprocess.DEVNULL)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                out.setdefault((core, args[0], label), []).append(cpu)
    for (core, name, label), runs in sorted(out.items()):
        shown = " ".join(f"{x:.2f}" for x in runs)
        print(f"{core:7s} {name:18s} {label:7s} median CPU {statistics.median(runs):6.2f} s  "
              f"runs {shown}")


if __name__ == "__main__":
    main()
