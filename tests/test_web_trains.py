"""`bones serve` with a train layout (issue 35): the view's rows from the hub, a play on
a chosen train, an illegal train refused with one line, markers seen by every seat,
8 seats, and a spectator who sees the rows and no hand."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")

from starlette.testclient import TestClient  # noqa: E402

from bones.web.app import ServeConfig, create_app  # noqa: E402

ORIGIN = {"Origin": "http://localhost"}


@pytest.fixture
def server(tmp_path: Path):
    app = create_app(ServeConfig(saves=tmp_path, pace=0.0, processes=False))
    return app, TestClient(app, base_url="http://localhost")


def host(app) -> dict[str, str]:
    return {**ORIGIN, "Authorization": f"Bearer {app.state.server.host_key}"}


def auth(key: str) -> dict[str, str]:
    return {**ORIGIN, "Authorization": f"Bearer {key}"}


def new_game(app, client, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body, headers=host(app))
    assert r.status_code == 201, r.text
    return r.json()


def view(client, gid: str, key: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(key))
    assert r.status_code == 200, r.text
    return r.json()


def move(client, gid: str, key: str, text: str, version: int):
    return client.post(f"/api/games/{gid}/moves", json={"move": text, "version": version},
                       headers=auth(key))


def people(app, client, variant: str, players: int, seed: int) -> tuple[str, dict[int, str]]:
    g = new_game(app, client, variant=variant, players=players, seed=seed,
                 seats=[{"kind": "human"}] * players)
    return g["id"], {s["seat"]: s["key"] for s in g["seats"]}


def mover(client, gid: str, keys: dict[int, str]) -> dict[str, Any]:
    v = view(client, gid, keys[0])
    return view(client, gid, keys[v["turn"]])


def test_the_train_variants_are_offered_with_the_built_ins_and_shown(server) -> None:
    app, client = server
    rows = client.get("/api/variants").json()
    assert set(rows) == {"variants"}  # no separate list of built-ins under way
    trains = [r for r in rows["variants"] if r["family"] == "trains"]
    assert [r["name"] for r in trains] == ["chicken-foot", "mexican-train"]
    assert all(r["players"] == [2, 3, 4, 5, 6, 7, 8] for r in trains)
    d = client.get("/api/variants/mexican-trains").json()  # an alias
    assert d["name"] == "mexican-train" and "Mexican" in d["summary"]


def test_the_view_holds_the_rows_from_the_hub_and_a_play_goes_on_the_chosen_train(server) -> None:
    app, client = server
    gid, keys = people(app, client, "mexican-train", 4, 7)
    v = mover(client, gid, keys)
    t = v["trains"]
    # before the hub is placed: its holder's only move is the bare double
    assert t["hub"] is None and t["hub_tile"] == {"a": 12, "b": 12}
    assert [m["move"] for m in v["legal"]] == ["12-12"] and v["legal"][0]["arm"] is None
    v = move(client, gid, keys[v["you"]], "12-12", v["version"]).json()
    t = v["trains"]
    assert t["hub"] == {"a": 12, "b": 12, "last": True}
    assert [r["target"] for r in t["rows"]] == ["T0", "T1", "T2", "T3", "M"]
    assert [r["kind"] for r in t["rows"]] == ["seat"] * 4 + ["public"]
    assert [r["owner"] for r in t["rows"]] == [0, 1, 2, 3, None]
    me = v["you"]
    assert t["rows"][me]["who"] == "You" and t["rows"][(me + 1) % 4]["who"] == f"Seat {(me + 1) % 4}"
    assert all(r["open"] == 12 and not r["started"] and not r["tiles"] for r in t["rows"])
    assert t["first_turn"] is True and t["markers"] is True
    # the first turn: only the mover's own train, named by its target, at the hub's 12
    plays = [m for m in v["legal"] if m["kind"] == "play"]
    assert plays and {m["arm"] for m in plays} == {f"T{me}"} and {m["pip"] for m in plays} == {12}
    assert all(m["move"].endswith(f"@T{me}") for m in plays)
    chosen = plays[-1]
    r = move(client, gid, keys[me], chosen["move"], v["version"])
    assert r.status_code == 200, r.text
    after = r.json()
    row = after["trains"]["rows"][me]
    a, b = (int(x) for x in chosen["tile"].split("-"))
    assert row["started"] and row["tiles"] == [{"near": 12, "far": a + b - 12,
                                                "double": a == b, "last": True}]
    assert row["open"] == a + b - 12
    assert {"arm": f"T{me}", "pip": row["open"]} in after["ends"]
    assert after["events"][-1]["move"] == chosen["move"]
    assert after["count"] == 0 and after["count_parts"] == []


def test_an_illegal_train_is_refused_with_one_line_and_422(server) -> None:
    app, client = server
    gid, keys = people(app, client, "mexican-train", 3, 2)
    v = mover(client, gid, keys)
    v = move(client, gid, keys[v["you"]], "12-12", v["version"]).json()
    me = v["you"]
    tile = next(m["tile"] for m in v["legal"] if m["kind"] == "play")
    cases = {
        f"{tile}@M": "is not legal now; legal: ",  # the Mexican train, in a first turn
        f"{tile}@T{(me + 1) % 3}": "is not legal now; legal: ",  # another seat's unmarked train
        f"{tile}@T7": "the layout has no T7 now",  # 3 players
        f"{tile}@E": "this layout's places are train targets",
        f"{tile}@A1": "the layout has no A1 now",
    }
    for text, words in cases.items():
        r = move(client, gid, keys[me], text, v["version"])
        assert r.status_code == 422, (text, r.text)  # an illegal move (docs/serve.md)
        error = r.json()["error"]
        assert words in error and "\n" not in error, (text, error)
    assert view(client, gid, keys[me])["version"] == v["version"]  # nothing was played


def test_markers_are_seen_by_every_seat_and_a_spectator_sees_no_hand(server) -> None:
    app, client = server
    gid, keys = people(app, client, "mexican-train", 3, 5)
    watch = client.post(f"/api/games/{gid}/watch", json={}, headers=host(app)).json()["key"]
    rng = random.Random(5)
    marked_seen = False
    for step in range(400):
        v = mover(client, gid, keys)
        if v["over"] or v["hand_number"] > 1:
            break
        views = [view(client, gid, keys[s]) for s in range(3)]
        watched = []
        if step % 8 == 0:  # a watch link reads at most 60 times in 10 s
            spectator = view(client, gid, watch)
            assert spectator["spectator"] and spectator["hand"] == [] and spectator["legal"] == []
            watched = [spectator]
        rows = [[{k: r[k] for k in r if k != "who"} for r in x["trains"]["rows"]]
                for x in views + watched]
        assert all(r == rows[0] for r in rows)  # one table for every seat and the spectator
        on_table = sum(len(r["tiles"]) for r in rows[0]) + (v["trains"]["hub"] is not None)
        played = sum(1 for e in v["events"] if e["kind"] == "play")
        assert on_table == played
        for s, x in enumerate(views):
            # a seat's own tiles, and no other seat's, are in its view
            mine = {t["name"] for t in x["hand"]}
            others = set().union(*({t["name"] for t in y["hand"]} for y in views if y is not x))
            assert not mine & others
            assert x["seats"][s]["tiles"] == len(mine)
        marked = [r["owner"] for r in rows[0] if r["marked"]]
        marked_seen |= bool(marked)
        for seat in marked:  # a marked train takes anyone's tile (after the first turns)
            assert views[seat]["trains"]["rows"][seat]["marked"]
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        choice = rng.choice(plays) if plays else v["legal"][0]
        r = move(client, gid, keys[v["you"]], choice["move"], v["version"])
        assert r.status_code == 200, r.text
    assert marked_seen


def test_eight_seats_and_the_chicken_foot(server) -> None:
    app, client = server
    g = new_game(app, client, variant="chicken-foot", players=8, seed=3,
                 seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 7)
    assert len(g["seats"]) == 1  # the one person's link; the bots need none
    key = g["seats"][0]["key"]
    seen = {"H": False, "F": False, "toe": False}
    end = time.monotonic() + 60
    while time.monotonic() < end:
        v = view(client, g["id"], key)
        assert len(v["seats"]) == 8
        if v["over"] or v["hand_number"] > 2:
            break
        t = v["trains"]
        seen["toe"] |= any(r["from"].startswith("A") for r in t["rows"])
        if t["hub"] is not None and t["hub_left"]:  # every seat sees what the hub still takes
            assert t["hub_binds"] and t["needs"] == {"H": t["hub_left"]}
            seen["H"] = True
        if not v["your_turn"]:
            time.sleep(0.01)
            continue
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        targets = {m["arm"] for m in plays}
        if t["hub"] is not None and t["hub_left"]:
            assert targets <= {"H"}
        feet = [r for r in t["rows"] if r["foot"] is not None and r["foot"]["binds"]]
        if feet:
            assert targets <= {"F"} and t["needs"] == {"F": feet[0]["foot"]["left"]}
            assert feet[0]["open"] == -1 and feet[0]["tiles"][-1]["double"]
            seen["F"] |= bool(targets)
        choice = plays[0] if plays else v["legal"][0]
        r = move(client, g["id"], key, choice["move"], v["version"])
        assert r.status_code == 200, r.text
    assert all(seen.values()), seen


def test_a_replay_of_a_train_game_shows_its_rows_frame_by_frame(server, tmp_path: Path) -> None:
    app, client = server
    gid, keys = people(app, client, "chicken-foot", 3, 4)
    rng = random.Random(4)
    for _ in range(30):
        v = mover(client, gid, keys)
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        choice = rng.choice(plays) if plays else v["legal"][0]
        assert move(client, gid, keys[v["you"]], choice["move"], v["version"]).status_code == 200
    save = next(g["save"] for g in client.get("/api/games", headers=host(app)).json()["games"]
                if g["id"] == gid)
    r = client.post("/api/replay", json={"record": (tmp_path / save).read_text()}, headers=ORIGIN)
    assert r.status_code == 200, r.text
    frames = r.json()["hands"][0]["frames"]
    assert frames[0]["trains"]["hub"] is None  # the deal, before the hub
    last = frames[-1]["trains"]
    played = sum(1 for f in frames[1:] if f["move"] not in ("draw", "pass"))
    assert sum(len(row["tiles"]) for row in last["rows"]) + 1 == played
    assert [row["target"] for row in last["rows"]] == [f"A{k}" for k in range(1, len(last["rows"]) + 1)]


@pytest.mark.once  # the analysis of a train round runs on the Python core under either pass
def test_a_seat_analyses_its_moves_of_a_train_round(server) -> None:
    """A finished train round is analysed like any hand: the seat's own decisions, each
    ranked by one key, the best move's figure the highest in it."""
    app, client = server
    gid, keys = people(app, client, "chicken-foot", 2, 6)
    for _ in range(300):
        v = mover(client, gid, keys)
        if v["history"]:
            break
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        choice = plays[0] if plays else v["legal"][0]
        assert move(client, gid, keys[v["you"]], choice["move"], v["version"]).status_code == 200
    assert v["history"]
    r = client.get(f"/api/games/{gid}/analysis?hand=1", headers=auth(keys[0]))
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["seats"] == [0] and [h["number"] for h in a["hands"]] == [1]
    decisions = a["hands"][0]["decisions"]
    assert all(d["seat"] == 0 for d in decisions)
    assert decisions
    for d in decisions:
        assert d["best"][d["ranked_by"]] == max(m[d["ranked_by"]] for m in d["moves"])


@pytest.mark.once  # the analysis of a train round runs on the Python core under either pass
def test_the_replay_analysis_draws_the_best_moves_rows(server, tmp_path: Path) -> None:
    """The Replay page's analysis of a train game gives each decision ``best_trains``: the
    rows from the hub had the best move been played (the frame's own rows when the best
    move is the one played), as ``best_layout`` does for a line."""
    app, client = server
    gid, keys = people(app, client, "mexican-train", 2, 5)
    for _ in range(6):
        v = mover(client, gid, keys)
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        choice = plays[-1] if plays else v["legal"][0]
        assert move(client, gid, keys[v["you"]], choice["move"], v["version"]).status_code == 200
    save = next(g["save"] for g in client.get("/api/games", headers=host(app)).json()["games"]
                if g["id"] == gid)
    text = (tmp_path / save).read_text()
    r = client.post("/api/analyse", json={"record": text, "budget": 3}, headers=host(app))
    assert r.status_code == 200, r.text
    frames = client.post("/api/replay", json={"record": text}, headers=ORIGIN).json()
    decisions = [d for hd in r.json()["hands"] for d in hd["decisions"]]
    assert decisions
    differs = 0
    for d in decisions:
        frame = frames["hands"][d["hand"] - 1]["frames"][d["ply"]]
        before = frames["hands"][d["hand"] - 1]["frames"][d["ply"] - 1]["trains"]
        best = d["best_trains"]
        if d["best"]["move"] in ("draw", "pass"):
            assert best is None
            continue
        laid = sum(len(row["tiles"]) for row in best["rows"]) + (best["hub"] is not None)
        assert laid == sum(len(row["tiles"]) for row in before["rows"]) + \
            (before["hub"] is not None) + 1  # one tile more than before the decision
        if d["best"]["move"] == d["played"]["move"]:
            assert best == frame["trains"]
        else:
            differs += best != frame["trains"]
    assert all("best_trains" in d for d in decisions)
    assert differs or all(d["best"]["move"] == d["played"]["move"] for d in decisions)
