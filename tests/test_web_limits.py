"""What `bones serve` limits and how (docs/serve.md, "Limits"): the analyses'
workers, moves, budget and rate; what a client may seat against ``--jobs``;
tables that answer while their bot thinks.  Through the ASGI test client."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")

from tests.test_web import host_headers, make, new_game, seat_headers  # noqa: E402


class SlowBot:
    """A bot that thinks until it is told to stop (the test's stand-in for a long search)."""

    name = "slow"

    def __init__(self, thinking: threading.Event, release: threading.Event) -> None:
        self.thinking = thinking
        self.release = release

    def choose(self, obs, rng) -> int:
        self.thinking.set()
        self.release.wait(30)
        return obs.legal_moves()[0]


def test_reads_chat_and_names_are_answered_while_a_bot_thinks(saves: Path, monkeypatch) -> None:
    from bones.games import game as game_module

    thinking, release = threading.Event(), threading.Event()
    monkeypatch.setattr(game_module, "_make_bot", lambda spec: SlowBot(thinking, release))
    app, client = make(saves)
    with client:
        g = new_game(app, client, variant="all-fives", seed=4,
                     seats=[{"kind": "human"}, {"kind": "bot", "bot": "search"}])
        gid, key = g["id"], g["seats"][0]["key"]
        end = time.monotonic() + 30
        while not thinking.is_set() and time.monotonic() < end:
            v = client.get(f"/api/games/{gid}", headers=seat_headers(key)).json()
            if v["your_turn"]:
                client.post(f"/api/games/{gid}/moves", headers=seat_headers(key),
                            json={"move": v["legal"][0]["move"], "version": v["version"]})
            time.sleep(0.01)
        assert thinking.is_set(), "the bot never had a choice to think about"
        try:
            started = time.monotonic()
            v = client.get(f"/api/games/{gid}", headers=seat_headers(key))
            chat = client.post(f"/api/games/{gid}/chat", json={"text": "take your time"},
                               headers=seat_headers(key))
            name = client.post(f"/api/games/{gid}/name", json={"name": "Ana"}, headers=seat_headers(key))
            feed = client.get(f"/api/games/{gid}/chat", headers=seat_headers(key))
            people = client.get(f"/api/games/{gid}/people", headers=host_headers(app))
            took = time.monotonic() - started
            assert [r.status_code for r in (v, chat, name, feed, people)] == [200] * 5
            assert v.json()["busy"] is True and not v.json()["your_turn"]
            assert took < 3.0, f"the table waited {took:.1f} s for its bot"
            version = v.json()["version"]
        finally:
            release.set()
        # the bot's move is made once it has thought, and the table goes on
        end = time.monotonic() + 20
        while time.monotonic() < end:
            after = client.get(f"/api/games/{gid}", headers=seat_headers(key)).json()
            if after["version"] > version:
                break
            time.sleep(0.02)
        assert after["version"] > version and after["social"]["names"][0] == "Ana"


def test_a_take_back_while_the_bot_thinks_discards_its_move(saves: Path, monkeypatch) -> None:
    from bones.games import game as game_module

    thinking, release = threading.Event(), threading.Event()
    monkeypatch.setattr(game_module, "_make_bot", lambda spec: SlowBot(thinking, release))
    app, client = make(saves)
    with client:
        for seed in range(20):
            g = new_game(app, client, variant="block-2p", seed=seed,
                         seats=[{"kind": "human"}, {"kind": "bot", "bot": "search"}])
            gid, key = g["id"], g["seats"][0]["key"]
            v = client.get(f"/api/games/{gid}", headers=seat_headers(key)).json()
            if not v["your_turn"]:
                continue
            thinking.clear()
            r = client.post(f"/api/games/{gid}/moves", headers=seat_headers(key),
                            json={"move": v["legal"][0]["move"], "version": v["version"]})
            assert r.status_code == 200
            end = time.monotonic() + 5
            while not thinking.is_set() and time.monotonic() < end:
                time.sleep(0.01)
            if not thinking.is_set():  # the bot's reply was forced
                continue
            r = client.post(f"/api/games/{gid}/takeback", json={"version": r.json()["version"]},
                            headers=seat_headers(key))
            assert r.status_code == 200, r.text
            back = r.json()
            release.set()
            time.sleep(0.3)
            now = client.get(f"/api/games/{gid}", headers=seat_headers(key)).json()
            # the move the bot thought of for the position taken back was never made
            assert now["version"] == back["version"] and now["your_turn"] and now["events"] == back["events"]
            return
    pytest.fail("no game gave the bot a choice after the person's first move")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_client_seats_no_bot_of_more_threads_than_jobs(saves: Path, jobs: int) -> None:
    app, client = make(saves, jobs=jobs)
    with client:
        bots = client.get("/api/bots").json()
        search = {p["name"]: p["max"] for b in bots["bots"] if b["name"] == "search" for p in b["params"]}
        assert search["threads"] == jobs and bots["jobs"] == jobs
        too_many = f"search:threads={jobs + 1}"
        message = f"search: threads may be at most {jobs} on this server (its --jobs)"
        r = client.post("/api/games", headers=host_headers(app), json={
            "variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": too_many}]})
        assert (r.status_code, r.json()["error"]) == (400, f"seats[1]: {message}")
        r = client.post("/api/simulations", headers=host_headers(app),
                        json={"variant": "sniff", "games": 1, "bots": [too_many]})
        assert (r.status_code, r.json()["error"]) == (400, message)
        g = new_game(app, client, seats=[{"kind": "human"}, {"kind": "human"}])
        r = client.post(f"/api/games/{g['id']}/seats/1", json={"bot": too_many}, headers=host_headers(app))
        assert (r.status_code, r.json()["error"]) == (400, message)
        ok = client.post("/api/games", headers=host_headers(app), json={
            "variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": f"search:threads={jobs}"}]})
        assert ok.status_code == 201, ok.text


def test_a_save_whose_bot_has_more_threads_than_jobs_is_refused_in_one_line(saves: Path) -> None:
    from bones.games.game import GameSession
    from bones.lang.load import load_variant

    saves.mkdir(parents=True)
    session = GameSession.new(load_variant("sniff"), bots=["search:threads=64"], seed=3,
                              save_path=saves / "many.json")
    session.save()
    app, client = make(saves, jobs=2)
    with client:
        r = client.post("/api/saves/open", json={"name": "many.json"}, headers=host_headers(app))
        assert (r.status_code, r.json()["error"]) == (
            400, "seat 1: search: threads may be at most 2 on this server (its --jobs)")


# ------------------------------------------------------------- analyses

GOLDEN = Path(__file__).resolve().parent / "golden" / "all-fives.record.json"


def test_an_analysis_needs_the_host_key(server) -> None:
    app, client = server
    text = GOLDEN.read_text()
    r = client.post("/api/analyse", json={"record": text, "budget": 1}, headers={"Origin": "http://localhost"})
    assert r.status_code == 401 and "host key" in r.json()["error"]
    g = new_game(app, client)
    r = client.post("/api/analyse", json={"record": text, "budget": 1}, headers=seat_headers(g["seats"][0]["key"]))
    assert r.status_code == 403


def test_an_analysis_runs_in_the_jobs_workers_one_at_a_time_for_a_client(server, monkeypatch) -> None:
    from bones.web import replay

    app, client = server
    started, release = threading.Event(), threading.Event()
    threads: list[str] = []

    def slow(record, label, budget):
        threads.append(threading.current_thread().name)
        started.set()
        release.wait(30)
        return {"format": "bones-analysis"}

    monkeypatch.setattr(replay, "analysis_of", slow)
    body = {"record": GOLDEN.read_text(), "budget": 1}
    first: list = []
    worker = threading.Thread(target=lambda: first.append(
        client.post("/api/analyse", json=body, headers=host_headers(app))))
    worker.start()
    try:
        assert started.wait(20)
        again = client.post("/api/analyse", json=body, headers=host_headers(app))
        assert again.status_code == 429 and "still running" in again.json()["error"]
    finally:
        release.set()
        worker.join(30)
    assert first[0].status_code == 200
    assert threads[0].startswith("bones-bot")  # a --jobs worker
    assert client.post("/api/analyse", json=body, headers=host_headers(app)).status_code == 200


def test_an_analysis_is_capped_in_moves_and_in_moves_times_budget(server, monkeypatch) -> None:
    from bones.web import analyses

    app, client = server
    text = GOLDEN.read_text()  # 9 hands, 229 moves
    r = client.post("/api/analyse", json={"record": text, "budget": 1000}, headers=host_headers(app))
    assert (r.status_code, r.json()["error"]) == (413, (
        "229 moves at 1000 worlds a decision are more than the server analyses at once "
        "(100,000 moves × worlds): give budget at most 436, or run bones analyse FILE"))
    monkeypatch.setattr(analyses, "MAX_MOVES", 200)
    r = client.post("/api/analyse", json={"record": text, "budget": 1}, headers=host_headers(app))
    assert (r.status_code, r.json()["error"]) == (
        413, "the record holds 229 moves: the server analyses at most 200 (bones analyse FILE has no limit)")


def test_analyses_are_rate_limited_per_client(server) -> None:
    from bones.web.analyses import RATE_REQUESTS, RATE_SECONDS

    app, client = server
    for _ in range(RATE_REQUESTS):
        r = client.post("/api/analyse", json={"record": "{}"}, headers=host_headers(app))
        assert r.status_code == 422
    r = client.post("/api/analyse", json={"record": "{}"}, headers=host_headers(app))
    assert r.status_code == 429 and "too many analyses" in r.json()["error"]
    assert 1 <= int(r.headers["retry-after"]) <= RATE_SECONDS + 1


def test_a_seats_analysis_runs_in_a_worker_and_counts_against_its_rate(server, monkeypatch) -> None:
    from bones.web.games import WebGame
    from bones.web.limits import BURST

    app, client = server
    g = new_game(app, client, seats=[{"kind": "human"}, {"kind": "human"}])
    gid, key = g["id"], g["seats"][0]["key"]
    threads: list[str] = []
    real = WebGame.analysis

    def spy(self, seat, hand):
        threads.append(threading.current_thread().name)
        return real(self, seat, hand)

    monkeypatch.setattr(WebGame, "analysis", spy)
    for _ in range(BURST):  # hand 1 is not over: 409, counted all the same
        assert client.get(f"/api/games/{gid}/analysis?hand=1", headers=seat_headers(key)).status_code == 409
    r = client.get(f"/api/games/{gid}/analysis?hand=1", headers=seat_headers(key))
    assert r.status_code == 429 and r.headers["retry-after"]
    assert threads and all(name.startswith("bones-bot") for name in threads)  # the --jobs workers'
    # another seat's count is its own
    assert client.get(f"/api/games/{gid}/analysis?hand=1",
                      headers=seat_headers(g["seats"][1]["key"])).status_code == 409
