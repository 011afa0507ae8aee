"""Whole-program figures, measured on the ``bones`` CLI in subprocesses:
simulate's scaling over --jobs, peak memory of a long run, start-up time."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import time
from collections.abc import Callable

from bench.common import REPO, bones_command, median


def _simulate_missing(bones: list[str]) -> str:
    probe = subprocess.run(bones + ["simulate", "--help"], capture_output=True, text=True,
                           check=False)
    if probe.returncode != 0 or "--hands" not in probe.stdout:
        return "`bones simulate --hands` is not available yet"
    return ""


#: bots of the simulate runs: random moves, so the engine and the process
#: plumbing are measured rather than a bot's thinking
BOTS = "random"


def simulate_args(bones: list[str], hands: int, jobs: int, variant: str) -> list[str]:
    return bones + ["simulate", variant, "--hands", str(hands), "--jobs", str(jobs),
                    "--bots", BOTS, "--seed", "1", "--quiet", "--json"]


def _reported_seconds(stdout: str) -> float | None:
    """The run time simulate reports itself (start-up excluded), if any."""
    try:
        return float(json.loads(stdout)["run"]["seconds"])
    except (ValueError, KeyError, TypeError):
        return None


def scaling(hands: int = 200_000, jobs: tuple[int, ...] = (1, 2), variant: str = "sniff",
            bones_path: str | None = None, log: Callable[[str], None] = print) -> dict[str, object]:
    """Wall time of one ``bones simulate`` per job count (start-up included)."""
    bones = bones_command(bones_path)
    why = _simulate_missing(bones)
    if why:
        log(f"  scaling: skipped: {why}")
        return {"skipped": why}
    runs = {}
    for j in jobs:
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(simulate_args(bones, hands, j, variant),
                              capture_output=True, text=True, check=False)
        took = time.perf_counter() - start
        cpu = _children_cpu() - cpu
        if done.returncode != 0:
            why = f"simulate --jobs {j} failed: {done.stderr.strip()[-300:]}"
            log(f"  scaling: {why}")
            return {"failed": why}
        inside = _reported_seconds(done.stdout)
        runs[str(j)] = {"seconds": round(took, 3), "hands_per_s": round(hands / took),
                        "reported_seconds": inside, "cpu_seconds": round(cpu, 3)}
        log(f"  simulate {variant} --hands {hands:,} --jobs {j}: {took:.2f} s wall, "
            f"{hands / took:,.0f} hands/s (simulate reports {inside} s)")
    out: dict[str, object] = {"variant": variant, "hands": hands, "bots": BOTS, "runs": runs}
    if "1" in runs and "2" in runs:
        one, two = runs["1"], runs["2"]
        out["speedup_2_over_1"] = round(one["seconds"] / two["seconds"], 2)
        if one["reported_seconds"] and two["reported_seconds"]:
            # without the interpreter start and imports, which do not scale
            out["speedup_2_over_1_reported"] = round(
                one["reported_seconds"] / two["reported_seconds"], 2)
        # CPU spent in all processes: what parallelism costs in extra work,
        # so the speed-up an idle machine allows is at most 2 * cpu1 / cpu2
        if two["cpu_seconds"]:
            out["cpu_2_over_1"] = round(two["cpu_seconds"] / one["cpu_seconds"], 3)
        log(f"  CPU seconds, all processes: --jobs 1 {one['cpu_seconds']:.2f}, "
            f"--jobs 2 {two['cpu_seconds']:.2f}")
        log(f"  --jobs 2 / --jobs 1 speed-up: {out['speedup_2_over_1']}x wall, "
            f"{out.get('speedup_2_over_1_reported')}x as simulate reports it (target >= 1.8x)")
    return out


def _children_cpu() -> float:
    """User + system CPU seconds of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants, from /proc."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    stat = fh.read()
            except OSError:
                continue
            # the command name may hold spaces: fields resume after its ')'
            parent[int(entry)] = int(stat[stat.rindex(b")") + 2:].split()[1])
    tree, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        for child, ppid in parent.items():
            if ppid == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid in tree:
        try:
            with open(f"/proc/{pid}/statm", encoding="ascii") as fh:
                total += int(fh.read().split()[1]) * page
        except OSError:
            continue
    return total


def memory(hands: int = 1_000_000, jobs: int = 2, variant: str = "sniff",
           bones_path: str | None = None, interval: float = 0.1,
           log: Callable[[str], None] = print) -> dict[str, object]:
    """Peak resident memory of one ``bones simulate``, all its processes summed."""
    bones = bones_command(bones_path)
    why = _simulate_missing(bones)
    if why:
        log(f"  memory: skipped: {why}")
        return {"skipped": why}
    if not os.path.isdir("/proc/self"):
        return {"skipped": "no /proc to sample the process tree"}
    start = time.perf_counter()
    proc = subprocess.Popen(simulate_args(bones, hands, jobs, variant),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timeline: list[int] = []
    while proc.poll() is None:
        timeline.append(_tree_rss(proc.pid))
        time.sleep(interval)
    samples = len(timeline)
    peak = max(timeline, default=0)
    # memory that stays flat has the same peak in both halves of the run
    half = samples // 2
    halves = [max(timeline[:half], default=0), max(timeline[half:], default=0)]
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    took = time.perf_counter() - start
    if proc.returncode != 0:
        return {"failed": f"simulate exited {proc.returncode}: {stderr.strip()[-300:]}"}
    # the largest single process, as the kernel saw it (kilobytes on Linux)
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    mb = peak / 2**20
    log(f"  simulate {variant} --hands {hands:,} --jobs {jobs}: peak tree RSS {mb:.0f} MB "
        f"({samples} samples; halves {halves[0] / 2**20:.0f}/{halves[1] / 2**20:.0f} MB), "
        f"{took:.1f} s (target < 100 MB)")
    return {"variant": variant, "hands": hands, "jobs": jobs, "bots": BOTS, "seconds": round(took, 2),
            "peak_tree_rss_mb": round(mb, 1), "samples": samples,
            "largest_process_rss_mb": round(largest / 2**20, 1),
            "peak_halves_mb": [round(h / 2**20, 1) for h in halves]}


def startup(runs: int = 7, bones_path: str | None = None,
            log: Callable[[str], None] = print) -> dict[str, object]:
    """Wall and CPU time (user + system of the child) of short commands,
    interpreter start included; CPU time is what a loaded machine changes least."""
    import resource

    bones = bones_command(bones_path)
    commands = {
        "bones --help": ["--help"],
        "bones validate variants/sniff.yaml": ["validate", str(REPO / "variants" / "sniff.yaml")],
    }
    out: dict[str, object] = {"command": bones, "runs": runs}
    for label, args in commands.items():
        times, cpu, code = [], [], 0
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(bones + args, capture_output=True, check=False)
            times.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
            code = code or done.returncode
        entry = {"median_s": round(median(times), 3), "min_s": round(min(times), 3),
                 "cpu_median_s": round(median(cpu), 3), "exit_code": code}
        out[label] = entry
        log(f"  {label:36} median {entry['median_s']:.3f} s  min {entry['min_s']:.3f} s"
            f"  CPU {entry['cpu_median_s']:.3f} s  exit {code}")
    return out
