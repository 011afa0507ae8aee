"""How long short ``bones`` commands take to start.

``python -m bench.startup [--runs N] [--callgrind] [--source DIR]``

Each command runs once to warm the file cache, then N times (9 by default)
as a fresh process; the median wall time and the median CPU time (user +
system of the child) are printed with the exact command line.  The bytecode
of the bones package is written first, as ``pip install`` does
(``bench.common.compile_bytecode``), so an editable checkout started with
``PYTHONDONTWRITEBYTECODE`` set is timed as an installed one runs.  On a
loaded machine the wall time stretches; the CPU time moves less.

``--callgrind`` also counts each command's instructions once under
valgrind's callgrind (about 50 times slower): a count the neighbours on a
shared machine do not change, for comparing two versions.  ``--source DIR``
runs the bones of another checkout through the same console script,
interpreter and native core (``PYTHONPATH=DIR``), to measure before and
after side by side.

Targets (issue 37): ``bones --version`` at most 0.10 s and ``bones simulate
sniff --hands 1`` at most 0.15 s, median wall time on an idle machine.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time

from bench.common import bones_command, compile_bytecode, median

#: (arguments, target median wall seconds or None)
COMMANDS: list[tuple[list[str], float | None]] = [
    (["--version"], 0.10),
    (["simulate", "sniff", "--hands", "1"], 0.15),
    (["list"], None),
    (["--help"], None),
]


def time_command(argv: list[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``runs`` fresh processes, after one warm-up run."""
    walls: list[float] = []
    cpus: list[float] = []
    for i in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False,
                              env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{shlex.join(argv)} exited {done.returncode}: "
                             f"{done.stderr.decode(errors='replace').strip()}")
        if i == 0:
            continue  # the warm-up
        walls.append(wall)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return walls, cpus


def instructions(argv: list[str], env: dict[str, str]) -> int:
    """The instructions one run executes, counted by callgrind."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                          check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"callgrind {shlex.join(argv)} failed: {done.stderr[-400:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__.split("\n")[1])
    ap.add_argument("--runs", type=int, default=9, help="timed runs per command (default 9)")
    ap.add_argument("--callgrind", action="store_true",
                    help="also count each command's instructions under callgrind")
    ap.add_argument("--source", metavar="DIR",
                    help="run the bones package of this checkout (PYTHONPATH=DIR)")
    opts = ap.parse_args(argv)
    env = dict(os.environ)
    if opts.source:
        env["PYTHONPATH"] = os.path.abspath(opts.source)
        compileall.compile_dir(os.path.join(opts.source, "bones"), quiet=1)
    else:
        compile_bytecode()
    bones = bones_command()  # the console script imports bones from PYTHONPATH first
    if opts.callgrind and not shutil.which("valgrind"):
        raise SystemExit("--callgrind needs valgrind")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {opts.runs} runs after a warm-up; "
          f"BONES_CORE={os.environ.get('BONES_CORE', '(unset)')}"
          + (f"; PYTHONPATH={env['PYTHONPATH']}" if opts.source else ""))
    for extra, target in COMMANDS:
        command = bones + extra
        walls, cpus = time_command(command, opts.runs, env)
        goal = f"  target <= {target:.2f} s" if target is not None else ""
        counted = f", {instructions(command, env) / 1e6:.0f}M instructions" if opts.callgrind else ""
        print(f"{shlex.join(command)}\n    median {median(walls):.3f} s wall "
              f"(min {min(walls):.3f}, max {max(walls):.3f}), median {median(cpus):.3f} s CPU"
              f"{counted}{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
