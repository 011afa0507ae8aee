"""The vector environment's thread pool against rayon: table steps a second.

    python -m bench.pool_vs_rayon [--variant all-fives] [--envs 256] [--threads 2]
                                  [--steps 400] [--rounds 5] [--opponent random]

Steps ``--envs`` tables of the variant ``--steps`` times, one job a step of
every table (what ``BonesVectorEnv.step`` does), once on the native core's
persistent pool (``native/src/run/pool.rs``) and once with rayon's
``par_chunks_mut`` in blocks of the pool's size, in turns, ``--rounds``
times; both start from the same seeded tables, draw the same learner
actions and must end alike.  Each round's two runs follow each other, so
the figure is the median of the rounds' ratios (pool over rayon, above 1
when the pool steps faster), with its quartiles: on a loaded machine a
round's rates swing by a factor of two or more, its ratio much less.  The stepping is
``native/benches/pool_vs_rayon.rs`` (rayon is a feature of that bench only:
the shipped core does not depend on it), built by ``cargo bench``; this
script writes the flat table it reads, runs it, and prints its rounds with
their medians and the machine.  Run it alone: the machine's load moves
both figures (the load average is printed).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import compile_table, machine_info

NATIVE = Path(__file__).resolve().parent.parent / "native"


def write_table(variant: str, path: Path) -> None:
    """The variant's flat table (``bones.engine.flat.flatten``), one field a
    line: ``key = v`` for an int, ``key : v1 v2 ...`` for a list."""
    from bones.engine import flat

    lines = []
    for key, value in flat.flatten(compile_table(variant)).items():
        if isinstance(value, list):
            lines.append(f"{key} : {' '.join(str(int(v)) for v in value)}")
        elif not isinstance(value, str):
            lines.append(f"{key} = {int(value)}")
    path.write_text("\n".join(lines) + "\n")


def run(variant: str, envs: int, threads: int, steps: int, rounds: int,
        opponent: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "table.txt"
        write_table(variant, table)
        command = ["cargo", "bench", "--quiet", "--no-default-features", "--features", "rayon",
                   "--bench", "pool_vs_rayon", "--", str(table), str(envs), str(threads),
                   str(steps), str(rounds), opponent]
        out = subprocess.run(command, cwd=NATIVE, capture_output=True, text=True, check=True)
    rows = re.findall(r"pool (\d+) table steps/s, rayon (\d+) table steps/s", out.stdout)
    pool = [int(p) for p, _ in rows]
    rayon = [int(r) for _, r in rows]
    ratios = sorted(p / r for p, r in zip(pool, rayon))
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    return {
        "variant": variant, "envs": envs, "threads": threads, "steps": steps,
        "opponent": opponent, "pool": pool, "rayon": rayon,
        "pool_median": statistics.median(pool), "rayon_median": statistics.median(rayon),
        "pool_over_rayon": round(statistics.median(ratios), 3),
        "quartiles": [round(quartiles[0], 3), round(quartiles[2], 3)],
        "machine": machine_info(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="all-fives")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--opponent", default="random", choices=["random", "greedy", "heuristic"])
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    result = run(args.variant, args.envs, args.threads, args.steps, args.rounds, args.opponent)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    pool, rayon, machine = result["pool"], result["rayon"], result["machine"]
    for i, (p, r) in enumerate(zip(pool, rayon)):
        print(f"round {i}: pool {p:,} table steps/s, rayon {r:,}")
    print(f"median: pool {result['pool_median']:,.0f}, rayon {result['rayon_median']:,.0f} "
          f"table steps/s; pool/rayon {result['pool_over_rayon']} a round "
          f"(quartiles {result['quartiles'][0]}, {result['quartiles'][1]}; "
          f"{args.variant}, {args.envs} tables, {args.threads} threads, {args.opponent} opponents, "
          f"{args.steps} steps a run)")
    print(f"machine: {machine['cpu_model']}, {machine['cores']} cores, "
          f"load average {machine['load_average']}")


if __name__ == "__main__":
    sys.exit(main())
