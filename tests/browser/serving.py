"""Helpers of the browser tests: Debian's chromium and a `bones serve` subprocess."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> str | None:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A `bones serve` subprocess on a fixed port (so a restart keeps the links)."""

    def __init__(self, saves: Path, port: int) -> None:
        self.saves = saves
        self.port = port
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.host_key = ""
        self.ready_seconds = 0.0
        self.ready_cpu: float | None = None

    def start(self) -> None:
        started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bones", "serve", "--port", str(self.port), "--saves", str(self.saves),
             "--pace", "0.05"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "the table is at" not in line:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError(f"bones serve did not start: {line} {err}")
        self.url = line.split(" at ", 1)[1].strip()
        self.host_key = self.url.split("#host=", 1)[1]
        # ready when it answers
        import urllib.request

        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/bots", timeout=1).read()
                break
            except OSError:
                time.sleep(0.02)
        self.ready_seconds = time.perf_counter() - started
        self.ready_cpu = _cpu_seconds(self.proc.pid)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def api(self, method: str, path: str, body: dict | None = None, key: str | None = None):
        import json
        import urllib.request

        headers = {"Origin": self.base, "Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = json.dumps(body or {}).encode() if method != "GET" else None
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used (Linux), None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
