"""Interleaved A/B of whole ``bones simulate`` processes between two installs.

``python -m bench.ab PYTHON_A PYTHON_B [--rounds N]`` runs the same commands
under two interpreters, each with its own bones and native core installed
(for example a checkout of an older commit with its own virtual environment,
and this one), alternating A and B and swapping their order every round.
Each run is timed in CPU seconds (user + system of the child), which a
shared machine's load disturbs less than the wall clock; the medians and
every run are printed.  The cases are random play on each core, so they
measure the engine and the command, not a bot.  Run it with bytecode
caches (``env -u PYTHONDONTWRITEBYTECODE``): without them every run compiles
its sources, and the side with more code looks slower.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess

CASES = [
    ("python", ["sniff", "--hands", "10000"]),
    ("python", ["all-fives", "--players", "4", "--hands", "10000"]),
    ("python", ["muggins", "--hands", "10000"]),
    ("native", ["sniff", "--hands", "200000"]),
    ("native", ["all-fives", "--hands", "200000"]),
    ("native", ["partnership-block", "--players", "4", "--hands", "200000"]),
]


def cpu_seconds(python: str, core: str, args: list[str]) -> float:
    """The CPU seconds of one ``bones simulate`` process under ``python``."""
    env = {**os.environ, "BONES_CORE": core}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-m", "bones", "simulate", *args, "--bots", "random", "--jobs", "1",
                    "--quiet", "--seed", "1"], env=env, check=True, stdout=subprocess.DEVNULL,
                   cwd=os.path.expanduser("~"))  # not a checkout: each side imports its own bones
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.split("\n")[0])
    parser.add_argument("a", help="interpreter of side A (its bones installed)")
    parser.add_argument("b", help="interpreter of side B")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--core", choices=["python", "native"], action="append",
                        help="only the cases of this core (repeatable; default both)")
    opts = parser.parse_args()
    cases = [(core, args) for core, args in CASES if not opts.core or core in opts.core]
    sides = [("A", opts.a), ("B", opts.b)]
    out: dict[tuple[str, str, str], list[float]] = {}
    for rnd in range(opts.rounds):
        order = sides if rnd % 2 == 0 else sides[::-1]
        for core, args in cases:
            for label, python in order:
                out.setdefault((core, args[0], label), []).append(cpu_seconds(python, core, args))
    print(f"A: {opts.a}\nB: {opts.b}")
    for core, args in cases:
        a, b = out[(core, args[0], "A")], out[(core, args[0], "B")]
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"{core:7s} {' '.join(args):42s} A {ma:6.2f} s  B {mb:6.2f} s  B/A {mb / ma:5.2f}  "
              f"(A {' '.join(f'{x:.2f}' for x in a)}; B {' '.join(f'{x:.2f}' for x in b)})")


if __name__ == "__main__":
    main()
