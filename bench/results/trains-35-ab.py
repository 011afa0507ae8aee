"""Interleaved A/B of the simulate hot path: base (b909dcd) vs trains, CPU seconds of the whole process."""
import os, resource, subprocess, sys, statistics
runs = {"base": "/tmp/trains-base", "trains": "/work/wt-trains"}
cases = [("python", ["sniff", "--hands", "10000"]), ("python", ["all-fives", "--players", "4", "--hands", "10000"]),
         ("native", ["sniff", "--hands", "200000"]), ("native", ["partnership-block", "--players", "4", "--hands", "200000"])]
out = {}
for rnd in range(4):
    for core, args in cases:
        for label, root in (runs.items() if rnd % 2 == 0 else reversed(list(runs.items()))):
            env = {**os.environ, "BONES_CORE": core, "PYTHONPATH": root}
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-m", "bones", "simulate", *args, "--bots", "random", "--jobs", "1",
                            "--quiet", "--seed", "1"], env=env, cwd=root, check=True, stdout=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            out.setdefault((core, args[0], label), []).append(cpu)
for (core, name, label), v in sorted(out.items()):
    print(f"{core:7s} {name:18s} {label:7s} median CPU {statistics.median(v):6.2f} s  runs {' '.join(f'{x:.2f}' for x in v)}")
