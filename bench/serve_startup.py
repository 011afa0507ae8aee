"""How long `bones serve` takes to start: python bench/serve_startup.py [RUNS].

Runs the command, polls until it answers ``GET /api`` (no engine needed) and
``GET /api/variants`` (the engine loaded), and prints wall and CPU seconds of
each run.  On a loaded machine the wall time stretches; the CPU time does not.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait(url: str) -> None:
    while True:
        try:
            urllib.request.urlopen(url, timeout=10).read()
            return
        except OSError:
            time.sleep(0.01)


def main(runs: int = 3) -> None:
    for _ in range(runs):
        port = _port()
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "bones", "serve", "--port", str(port),
                                 "--saves", tempfile.mkdtemp()],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait(f"http://127.0.0.1:{port}/api")
            first, first_cpu = time.perf_counter() - started, _cpu(proc.pid)
            _wait(f"http://127.0.0.1:{port}/api/variants")
            full, full_cpu = time.perf_counter() - started, _cpu(proc.pid)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(15)
        print(f"first answer {first:.2f} s ({first_cpu:.2f} s CPU); "
              f"variants listed {full:.2f} s ({full_cpu:.2f} s CPU)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
