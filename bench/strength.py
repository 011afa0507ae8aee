"""``python -m bench.strength``: the ladder of bones' bots, rated.

Plays ``bones tournament`` (every pair of bots, both seat orders, whole
matches) between ``random``, ``greedy``, ``heuristic``, ``pimc`` (the
determinized search that was ``search`` before the solver), ``search`` and
``search`` at four times its worlds, on 2-player All Fives, Sniff, Muggins
and ``block-2p``, and prints each variant's Elo ratings with 95% intervals
(:mod:`bones.engine.ratings`, Bradley-Terry, ``random`` = 0) and every
command it ran with its seed. ``--peers`` adds the matches against the two
peers' best honest bots (``bench/versus_openspiel.py``: ISMCTS on
``block-2p``; ``bench/versus_dominoes.py``: ``probabilistic_alphabeta`` on
``partnership-block``), which are slow (seconds a move).

A benchmark, not a test: the figures depend on nothing but the seed (every
bot here is reproducible), the times on the machine.
bench/results/search-issue20.md ("The ladder") gives the figures of its runs.

    python -m bench.strength                  # 40 matches a pairing
    python -m bench.strength -n 200 --jobs 2 --json --out strength.json
    python -m bench.strength --variants block-2p --peers --peer-deals 20
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

VARIANTS = ("all-fives", "sniff", "muggins", "block-2p")


def ladder(iterations: int | None = None) -> list[str]:
    """The bots of the ladder (``search`` at 1x and 4x its default worlds)."""
    if iterations is None:
        from bones.bots.search import DEFAULT_ITERATIONS

        iterations = DEFAULT_ITERATIONS
    return ["random", "greedy", "heuristic", "pimc", "search",
            f"search:iterations={4 * iterations}"]


def _run(cmd: list[str]) -> str:
    print("$ " + shlex.join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return done.stdout


def tournament(variant: str, bots: list[str], matches: int, seed: int, jobs: int) -> dict[str, object]:
    """One variant's tournament: the command, its ratings and win matrix."""
    cmd = [sys.executable, "-m", "bones", "tournament", variant, "--bots", ",".join(bots),
           "-n", str(matches), "--seed", str(seed), "--jobs", str(jobs), "--json", "-q"]
    if jobs > 1:
        cmd.append("--oversubscribe")
    start = time.perf_counter()
    report: dict[str, Any] = json.loads(_run(cmd))
    return {
        "variant": variant,
        "command": shlex.join(["bones", *cmd[3:]]),
        "seed": seed,
        "matches_per_pairing": matches,
        "seconds": round(time.perf_counter() - start, 1),
        "ratings": report.get("ratings"),
        "report": report,
    }


def peers(deals: int, seed: int, bot: str = "search") -> list[dict[str, object]]:
    """The matches against the peers (each deal twice, the seats swapped)."""
    import os
    import tempfile

    out = []
    for module, variant in (("bench.versus_openspiel", "block-2p"),
                            ("bench.versus_dominoes", "partnership-block")):
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        cmd = [sys.executable, "-m", module, "--deals", str(deals), "--seed", str(seed),
               "--bot", bot, "--json", path, "--quiet"]
        try:
            text = _run(cmd)
            with open(path) as f:
                got = json.load(f).get("summary")
        except (subprocess.CalledProcessError, OSError, json.JSONDecodeError) as err:
            text, got = "", {"error": str(err)}
        finally:
            os.unlink(path)
        out.append({"variant": variant, "command": shlex.join(["python", *cmd[1:-3]]),
                    "text": text.strip(), "summary": got})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--matches", type=int, default=40, help="matches per pairing")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--bots", default=None, help="the ladder, comma-separated (default: "
                    + ",".join(ladder(45)) + ")")
    ap.add_argument("--peers", action="store_true", help="also play the two peers (slow)")
    ap.add_argument("--peer-deals", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", default=None)
    o = ap.parse_args(argv)
    bots = o.bots.split(",") if o.bots else ladder()
    result: dict[str, Any] = {"machine": machine_info(), "date": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                       time.gmtime()),
                    "bots": bots, "variants": []}
    for variant in o.variants.split(","):
        result["variants"].append(tournament(variant, bots, o.matches, o.seed, o.jobs))
    if o.peers:
        result["peers"] = peers(o.peer_deals, o.seed)
    if o.json:
        text = json.dumps(result, indent=1)
    else:
        m = result["machine"]
        lines = [f"bones strength ladder, {result['date']}, {m.get('cpu_model')}, "
                 f"{m.get('cores')} cores, load {m.get('load_average')}, "
                 f"commit {str(m.get('commit', ''))[:7]}"]
        for v in result["variants"]:
            lines.append("")
            lines.append(f"{v['variant']}: {v['matches_per_pairing']} matches a pairing, "
                         f"seed {v['seed']}, {v['seconds']} s")
            lines.append(f"  $ {v['command']}")
            ratings = v["ratings"] or {}
            for r in ratings.get("bots", []):
                lines.append(f"  {r['bot']:<28} {r['elo']:+7.0f}  [{r['lo']:+.0f}, {r['hi']:+.0f}]")
        for p in result.get("peers", []):
            lines.append("")
            lines.append(f"peers, {p['variant']}: $ {p['command']}")
            lines.append("  " + (p["text"] or json.dumps(p["summary"])).replace("\n", "\n  "))
        text = "\n".join(lines)
    if o.out:
        with open(o.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
