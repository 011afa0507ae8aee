"""The `bones serve` command itself: what it prints, where it listens, and how it stops."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install 'bones[web]'")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(args: list[str], tmp_path: Path,
           until: bytes = b"ready in") -> tuple[subprocess.Popen[bytes], list[str]]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path),
           "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "bones", "serve", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    out = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and until not in out:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out += chunk
    while until in out and not out.endswith(b"\n"):
        out += os.read(fd, 65536)
    lines = out.decode().splitlines()
    if not any(until.decode() in line for line in lines):
        proc.kill()
        raise AssertionError("bones serve did not start:\n" + "\n".join(lines))
    return proc, lines


def _stop(proc: subprocess.Popen[bytes], lines: list[str]) -> list[str]:
    proc.send_signal(signal.SIGINT)  # Ctrl-C
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    rest = out.decode().splitlines()
    assert rest == ["bones serve: stopped; every game is saved"], rest  # nothing else, no warning
    return lines + rest


def test_serve_listens_on_localhost_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    port = _free_port()
    proc, lines = _serve(["--port", str(port)], tmp_path)
    try:
        assert any(line.startswith(f"bones serve: the table is at http://127.0.0.1:{port}/#host=")
                   for line in lines), lines
        assert not any("other devices" in line for line in lines)
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    finally:
        lines = _stop(proc, lines)
    assert lines[-1] == "bones serve: stopped; every game is saved"


def test_ctrl_c_answers_a_tables_waiting_long_poll_with_the_table(tmp_path: Path) -> None:
    """A page long-polls its game (``?wait=VERSION``) for up to 20 s; Ctrl-C answers
    it at once with the table as it is (200), not an error after the grace period,
    and the server prints nothing but its stop line."""
    import json
    import threading
    import urllib.request

    port = _free_port()
    proc, lines = _serve(["--port", str(port)], tmp_path)
    base = f"http://127.0.0.1:{port}"
    host_key = next(line for line in lines if "#host=" in line).split("#host=", 1)[1].split()[0]

    def call(method: str, path: str, key: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method, headers={
            "Origin": base, "Content-Type": "application/json", "Authorization": f"Bearer {key}"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, {"error": err.read().decode()}

    answers: list[tuple[int, dict, float]] = []
    try:
        status, game = call("POST", "/api/games", host_key, {
            "variant": "sniff", "players": 2, "seed": 1, "seats": [{"kind": "human"}] * 2})
        assert status == 201, game
        key = game["seats"][0]["key"]
        status, view = call("GET", f"/api/games/{game['id']}", key)
        assert status == 200

        def poll() -> None:
            started = time.monotonic()
            got = call("GET", f"/api/games/{game['id']}?wait={view['version']}", key)
            answers.append((*got, time.monotonic() - started))

        waiting = threading.Thread(target=poll)
        waiting.start()
        time.sleep(1.0)  # the poll is waiting on the server
        assert not answers
    finally:
        lines = _stop(proc, lines)
    waiting.join(timeout=30)
    assert len(answers) == 1
    status, answer, seconds = answers[0]
    assert status == 200, answer
    assert answer["version"] == view["version"] and answer["id"] == game["id"]
    assert seconds < 1.0 + 1.5  # answered as Ctrl-C came, not after the 2-s grace period


@pytest.mark.parametrize("attempt", range(3))  # Ctrl-C at once after "ready", several times
def test_serve_on_the_network_prints_an_address_other_devices_reach(tmp_path: Path, attempt: int) -> None:
    port = _free_port()
    proc, lines = _serve(["--host", "0.0.0.0", "--port", str(port)], tmp_path)
    _stop(proc, lines)
    network = [line for line in lines if "other devices on your network:" in line]
    assert len(network) == 1, lines
    address = network[0].split("http://", 1)[1].split(":", 1)[0]
    # an address another device can use, never the wildcard or this machine's loopback
    assert address not in ("0.0.0.0", "127.0.0.1", "localhost") and address.count(".") == 3, network


@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_while_the_server_starts_stops_it_cleanly(tmp_path: Path, attempt: int) -> None:
    # Ctrl-C as soon as the first line is out: before uvicorn has taken the signal
    # over, while the event loop is being built; no traceback, nothing lost
    proc, lines = _serve(["--port", "0"], tmp_path, until=b"the table is at")
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    rest = out.decode().splitlines()
    assert proc.returncode == 0, rest
    assert rest[-1] == "bones serve: stopped; every game is saved", rest
    assert not any("Traceback" in line or "Exception" in line or "Error" in line for line in rest), rest


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback on this machine")
def test_serve_on_an_ipv6_address_prints_a_url_with_brackets(tmp_path: Path) -> None:
    proc, lines = _serve(["--host", "::1", "--port", "0"], tmp_path)
    try:
        table = [line for line in lines if "the table is at" in line]
        assert len(table) == 1, lines
        url = table[0].split("the table is at ", 1)[1]
        assert url.startswith("http://[::1]:"), url
        port = int(url.split("]:", 1)[1].split("/", 1)[0])
        with socket.create_connection(("::1", port), timeout=5):
            pass
    finally:
        _stop(proc, lines)


def test_a_url_writes_an_ipv6_host_in_brackets() -> None:
    from bones.web.api import url_host

    assert url_host("::1") == "[::1]"
    assert url_host("fe80::1") == "[fe80::1]"
    assert url_host("[::1]") == "[::1]"
    assert url_host("192.168.1.2") == "192.168.1.2"
    assert url_host("example.org") == "example.org"


def test_open_on_a_machine_with_no_browser_says_so(tmp_path: Path, monkeypatch) -> None:
    # issue 32: `bones serve --open` with no browser said nothing
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env["PATH"] = str(Path(sys.executable).parent)  # no browser, no xdg-open, no lynx
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    for key in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(key, raising=False)
    proc, lines = _serve(["--port", str(_free_port()), "--open"], tmp_path)
    _stop(proc, lines)
    assert ("bones serve: --open: no browser could be opened on this machine; open the table's "
            "link above in a browser yourself") in lines, lines


def test_open_browser_reports_a_browser_that_fails(monkeypatch) -> None:
    import webbrowser

    from bones.cli.serve_cmd import _open_browser

    monkeypatch.setattr(webbrowser, "open", lambda url: True)
    assert _open_browser("http://127.0.0.1:1/") is None

    def broken(url: str) -> bool:
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "open", broken)
    assert "no browser could be opened" in (_open_browser("http://127.0.0.1:1/") or "")
