"""A real `bones serve` process and Debian's Chromium driven by Playwright.

The browser is the system's ``chromium`` (``apt-get install chromium``), launched by its
path; Playwright's own browser download is never used.  Without a browser the tests
skip with a message, except under ``CI=true``, where a missing browser fails the run.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def _missing(what: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI=true: the browser tests must run; .ci/run installs chromium)")
    pytest.skip(f"{what}: install Debian's chromium (apt-get install chromium) and the test extra")


def chromium_path() -> str | None:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is not installed")
    path = chromium_path()
    if path is None:
        _missing("no chromium on PATH")
    args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=args + ["--disable-gpu"])
        yield b
        b.close()


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

    def api(self, method: str, path: str, body: dict | None = None, key: str | None = None):  # type: ignore[no-untyped-def]
        import json
        import urllib.request

        headers = {"Origin": self.base, "Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = json.dumps(body or {}).encode() if method != "GET" else None
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())


@pytest.fixture
def served(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = Served(tmp_path / "saves", free_port())
    s.start()
    yield s
    s.stop()


@pytest.fixture
def page(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1200, "height": 860}, bypass_csp=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert not errors, errors
