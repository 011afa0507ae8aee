"""``python -m bench.levels``: are the web table's bot levels each clearly
stronger than the one below?

The levels are :data:`bones.web.levels.LEVELS` ("Beginner" ... "Expert",
each a built-in bot with its settings).  For every level above the first this
plays ``bones tournament VARIANT --bots BELOW,LEVEL`` (whole matches, the
seats alternating) and reports the level's win rate against the one below
with its Wilson 95% interval.  A level is *clearly stronger* when the lower
end of that interval is above one half; ``--check`` exits 1 when one is not.

A benchmark, not a test: the figures depend on nothing but the seed (every
level's bot is reproducible), the times on the machine.  The figures of a run
are in bench/results/levels.md.

    python -m bench.levels                        # all-fives, 200 matches a pairing
    python -m bench.levels --variants all-fives,sniff -n 300 --check
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from typing import Any

from bench.common import machine_info

VARIANTS = ("all-fives",)


def levels() -> list[tuple[str, str]]:
    """The levels, weakest first: ``(level, bot text)``."""
    from bones.web.levels import LEVELS

    return [(level, bot) for level, bot, _ in LEVELS]


def pairing(variant: str, below: str, above: str, matches: int, seed: int, jobs: int) -> dict[str, Any]:
    """``above`` against ``below`` in ``variant``: the command, its win rate and interval."""
    cmd = [sys.executable, "-m", "bones", "tournament", variant, "--bots", f"{below},{above}",
           "-n", str(matches), "--seed", str(seed), "--jobs", str(jobs), "--json", "-q"]
    if jobs > 1:
        cmd.append("--oversubscribe")
    command = shlex.join(["bones", *cmd[3:]])
    print("$ " + command, file=sys.stderr, flush=True)
    start = time.perf_counter()
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    report: dict[str, Any] = json.loads(done.stdout)
    names = report["bots"]
    # the row (above) against the column (below)
    cell = report["matrix"][names.index(above)][names.index(below)]
    return {"variant": variant, "command": command, "below": below, "above": above,
            "wins": round(cell["value"] * cell["games"]), "games": cell["games"],
            "value": cell["value"], "lo": cell["lo"], "hi": cell["hi"],
            "clear": cell["lo"] > 0.5, "seconds": round(time.perf_counter() - start, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.levels", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--matches", type=int, default=200, help="matches per pairing")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every level is clearly stronger than the one below")
    ap.add_argument("--json", action="store_true")
    o = ap.parse_args(argv)
    ladder = levels()
    rows = []
    for variant in o.variants.split(","):
        for (_, below), (level, above) in zip(ladder, ladder[1:]):
            rows.append({"level": level, **pairing(variant, below, above, o.matches, o.seed, o.jobs)})
    m = machine_info()
    if o.json:
        print(json.dumps({"machine": m, "levels": ladder, "pairings": rows}, indent=1))
    else:
        print(f"bones web levels, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
              f"{m.get('cpu_model')}, {m.get('cores')} cores, load {m.get('load_average')}, "
              f"commit {str(m.get('commit', ''))[:7]}")
        print()
        print("| variant | level (bot) | v the level below | wins / matches "
              "| win rate, Wilson 95% | clearly stronger |")
        print("|---|---|---|---|---|---|")
        names = {bot: level for level, bot in ladder}
        for r in rows:
            print(f"| {r['variant']} | {r['level']} (`{r['above']}`) | {names[r['below']]} (`{r['below']}`) "
                  f"| {r['wins']} / {r['games']} | {100 * r['value']:.1f}% [{100 * r['lo']:.1f}, "
                  f"{100 * r['hi']:.1f}] | {'yes' if r['clear'] else '**no**'} |")
        print()
        for r in rows:
            print(f"    {r['command']}    # {r['seconds']} s")
    return 1 if o.check and not all(r["clear"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
