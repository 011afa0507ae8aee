"""`bones serve` stops thinking nobody wants (issue 38): a deleted or an
abandoned game's bot in the middle of its move, and an analysis whose
client went away, end within moments (:mod:`bones.web.workers`); the game
stays as it was (the move in progress is dropped, nothing saved)."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")

from bones.bots.stop import Stopped  # noqa: E402
from bones.games.game import GameSession  # noqa: E402
from tests.test_web import host_headers, make, new_game, seat_headers  # noqa: E402
from tests.test_web_handed import hand  # noqa: E402

#: a bot that takes five seconds a move
SLOW = "search:seconds=5"


def _slow_table(app, client) -> tuple[str, str]:
    """A 2-player All Fives game whose both seats a five-second bot plays:
    its id and the person's key (seat 0, handed to the bot)."""
    g = new_game(app, client, variant="all-fives", seed=3,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": SLOW}])
    hand(app, client, g["id"], 0, SLOW)
    return g["id"], g["seats"][0]["key"]


def _moves_saved(path: Path) -> int:
    return sum(len(h.log) for h in [GameSession.resume(path).hand] if h is not None)


def _thinking(game, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not game.busy:
        assert time.monotonic() < end, "no bot began to think"
        time.sleep(0.005)


def test_deleting_a_game_stops_its_bot_in_the_middle_of_its_move(saves: Path) -> None:
    app, client = make(saves)
    with client:
        gid, _ = _slow_table(app, client)
        game = app.state.server.store.get(gid)
        _thinking(game)
        before = _moves_saved(game.path)
        sent = time.monotonic()
        r = client.request("DELETE", f"/api/games/{gid}", json={}, headers=host_headers(app))
        waited = time.monotonic() - sent
        assert r.status_code == 200, r.text
        task = app.state.server.bot_tasks[gid]
        assert task.done() and game.error is None  # stopped, not failed
        # the move in progress was dropped, not finished (it had seconds to go)
        assert _moves_saved(game.path) == before
        assert waited < 3.0, waited


def test_an_abandoned_games_bot_stops_and_a_look_starts_it_again(saves: Path,
                                                                 monkeypatch) -> None:
    from bones.web import games

    monkeypatch.setattr(games, "ABANDONED_AFTER", 0.5)
    app, client = make(saves)
    with client:
        gid, key = _slow_table(app, client)
        game = app.state.server.store.get(gid)
        _thinking(game)
        before = _moves_saved(game.path)
        task = app.state.server.bot_tasks[gid]
        end = time.monotonic() + 5
        while not task.done():  # nobody asks about the game: it is abandoned
            assert time.monotonic() < end, "the abandoned game's bot thinks on"
            time.sleep(0.01)
        assert not game.busy and game.error is None
        assert _moves_saved(game.path) == before
        # a person looks again: the bot thinks again
        assert client.get(f"/api/games/{gid}", headers=seat_headers(key)).status_code == 200
        _thinking(game, timeout=5)


def _serve(app) -> tuple[uvicorn.Server, threading.Thread, int]:
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                           lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < end, "the server did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, thread, port


def test_an_analysis_stops_when_its_client_goes_away(saves: Path, monkeypatch) -> None:
    """A long analysis (a whole All Fives match, 229 moves, at the largest
    budget the server's limits take for it): the host's client hangs up in
    the middle, and the analysis ends within moments."""
    from bones.web import replay

    started, stopped = threading.Event(), threading.Event()
    real = replay.analysis_of

    def spy(*args):  # the real analysis, noting how it ends
        started.set()
        try:
            return real(*args)
        except Stopped:
            stopped.set()
            raise

    monkeypatch.setattr(replay, "analysis_of", spy)
    record = (Path(__file__).parent / "golden" / "all-fives.record.json").read_text()
    body = json.dumps({"record": record, "budget": 400}).encode()
    app, _ = make(saves)
    key = app.state.server.host_key
    server, thread, port = _serve(app)
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"POST /api/analyse HTTP/1.1\r\nHost: localhost\r\n"
                     b"Origin: http://localhost\r\nContent-Type: application/json\r\n"
                     b"Authorization: Bearer " + key.encode() + b"\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        assert started.wait(20), "the analysis did not begin"
        time.sleep(0.3)
        assert not stopped.is_set()
        sock.close()  # the client goes away
        assert stopped.wait(5), "the analysis went on without its client"
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_hint_stops_when_its_page_goes_away_and_frees_the_game(saves: Path, monkeypatch) -> None:
    """A hint is a search too (issue 33): it thinks off the game's lock, so the
    table is served meanwhile, and a page that asks for one and goes away
    stops it."""
    from bones.bots.stop import current

    started, stopped = threading.Event(), threading.Event()

    def slow_hint(self):  # thinks until stopped (or 20 s: the test fails)
        def think() -> str:
            started.set()
            end = time.monotonic() + 20
            while time.monotonic() < end:
                stop = current()
                if stop is not None and stop.is_set():
                    stopped.set()
                    raise Stopped()
                time.sleep(0.01)
            return "never"
        return think

    monkeypatch.setattr(GameSession, "hint_thinking", slow_hint)
    app, client = make(saves)
    g = new_game(app, client, variant="sniff", seed=11,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    gid, key = g["id"], g["seats"][0]["key"]
    from tests.test_web import wait_turn

    v = wait_turn(client, gid, key)
    server, thread, port = _serve(app)
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(f"GET /api/games/{gid}/hint HTTP/1.1\r\nHost: localhost\r\n"
                     f"Origin: http://localhost\r\nAuthorization: Bearer {key}\r\n\r\n".encode())
        assert started.wait(20), "the hint did not begin"
        time.sleep(0.3)
        assert not stopped.is_set()
        # the table is served while the hint thinks: its state, and a chat message
        assert client.get(f"/api/games/{gid}", headers=seat_headers(key), timeout=3).status_code == 200
        r = client.post(f"/api/games/{gid}/chat", json={"text": "hmm"}, headers=seat_headers(key), timeout=3)
        assert r.status_code == 200, r.text
        sock.close()  # the page goes away
        assert stopped.wait(5), "the hint went on without its page"
        move = next(m["move"] for m in v["legal"])
        r = client.post(f"/api/games/{gid}/moves", json={"move": move, "version": v["version"]},
                        headers=seat_headers(key))
        assert r.status_code == 200, r.text
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_resignation_while_a_bot_thinks_drops_the_bots_move(saves: Path) -> None:
    """The bots think off the game's lock, so a person may resign (or leave as
    the last one, which resigns) while a bot thinks (issue 33): the bot's move,
    when it comes, is not made in a match that is over."""
    app, client = make(saves)
    with client:
        gid, key = _slow_table(app, client)
        game = app.state.server.store.get(gid)
        _thinking(game)
        r = client.post(f"/api/games/{gid}/resign", json={}, headers=seat_headers(key))
        assert r.status_code == 200, r.text
        resigned_at = r.json()["notices"][0]["ply"]
        end = time.monotonic() + 20
        while game.busy:  # the bot finishes its five seconds of thought
            assert time.monotonic() < end, "the bot never finished"
            time.sleep(0.02)
        after = GameSession.resume(game.path)
        assert after.over and after.resigned is not None
        assert len(after.current.moves) == resigned_at == after.resigned["ply"]
        assert game.error is None
