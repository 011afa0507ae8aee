"""``python -m bench``: run the benchmark sections and print (or save) figures."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

from bench import JSON_VERSION, native, peers, proposals, system, targets, throughput
from bench.common import compile_bytecode, machine_info

# name -> (full-size run, quick run); each takes the parsed options
Section = Callable[[argparse.Namespace], dict]
SECTIONS: dict[str, tuple[Section, Section]] = {
    "random": (
        lambda o: throughput.run(o.hands or 20_000, o.rounds or 3, bot="random"),
        lambda o: throughput.run(o.hands or 300, 1, bot="random"),
    ),
    "greedy": (
        lambda o: throughput.run(o.hands or 5_000, o.rounds or 3, bot="greedy"),
        lambda o: throughput.run(o.hands or 100, 1, bot="greedy"),
    ),
    "peers": (
        lambda o: peers.run(o.games or 3_000, o.rounds or 5),
        lambda o: peers.run(o.games or 200, 2),
    ),
    "scaling": (
        lambda o: system.scaling(o.sim_hands or 200_000, bones_path=o.bones),
        lambda o: system.scaling(o.sim_hands or 600, bones_path=o.bones),
    ),
    "memory": (
        lambda o: system.memory(o.mem_hands or 1_000_000, o.mem_jobs, bones_path=o.bones),
        lambda o: system.memory(o.mem_hands or 1_000, o.mem_jobs, bones_path=o.bones),
    ),
    "startup": (
        lambda o: system.startup(7, bones_path=o.bones),
        lambda o: system.startup(3, bones_path=o.bones),
    ),
    "native": (
        lambda o: native.run(o.hands or 20_000, o.rounds or 3, o.sim_hands or 20_000),
        lambda o: native.run(o.hands or 200, 1, o.sim_hands or 200, peer_games=50),
    ),
    # issue 37's simulate targets: whole commands at full size, beside the peers
    "targets": (
        lambda o: targets.run(1.0),
        lambda o: targets.run(0.001, peer_games=50),
    ),
    # prototypes of the proposals in bench/results/performance-history.md: run only when asked
    "proposals": (
        lambda o: proposals.run(o.games or 2_000, o.rounds or 10),
        lambda o: proposals.run(o.games or 100, 2),
    ),
}
DEFAULT = [name for name in SECTIONS if name != "proposals"]


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="a smoke run (well under 20 s)")
    ap.add_argument("--only", metavar="NAME", action="append", choices=list(SECTIONS),
                    help=f"run only this section (repeatable): {', '.join(SECTIONS)}; "
                    "all but proposals run by default")
    ap.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    ap.add_argument("--hands", type=int, help="hands per round in random/greedy")
    ap.add_argument("--games", type=int, help="games per side and round against peers")
    ap.add_argument("--rounds", type=int, help="rounds (the median is reported)")
    ap.add_argument("--sim-hands", type=int, help="hands of the --jobs scaling run (200,000)")
    ap.add_argument("--mem-hands", type=int, help="hands of the memory run (1,000,000)")
    ap.add_argument("--mem-jobs", type=int, default=2, help="--jobs of the memory run (2)")
    ap.add_argument("--bones", metavar="PATH", help="the bones executable to time")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    opts = parse(argv)
    chosen = opts.only or DEFAULT
    report: dict[str, object] = {
        "json_version": JSON_VERSION,
        "command": "python -m bench " + " ".join(sys.argv[1:] if argv is None else argv),
        "quick": opts.quick,
        "machine": machine_info(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    m = report["machine"]
    print(f"bones {m['engine_version']} @ {m['commit']}  Python {m['python']}  "
          f"{m['cpu_model']} x{m['cores']}  load {m['load_average']}")
    compile_bytecode()
    began = time.perf_counter()
    for name in chosen:
        print(f"[{name}]")
        full, quick = SECTIONS[name]
        start = time.perf_counter()
        report[name] = (quick if opts.quick else full)(opts)
        report[name]["section_seconds"] = round(time.perf_counter() - start, 2)
    report["total_seconds"] = round(time.perf_counter() - began, 2)
    print(f"total {report['total_seconds']} s")
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
            fh.write("\n")
        print(f"wrote {opts.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
