"""`bones serve`'s JSON API through the ASGI test client: every endpoint, every bad request.

Each security point of the issue has a test here: keys (unguessable, only in
headers, never logged, stored as hashes), private save files, nothing hidden
reaching a client, no client-named path or code, the Host/Origin/JSON/size
guards, caps, and one game's failure staying in that game.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")

from starlette.testclient import TestClient  # noqa: E402

from bones.games.game import GameSession  # noqa: E402
from bones.web.app import MAX_BODY, ServeConfig, create_app  # noqa: E402

ORIGIN = {"Origin": "http://localhost"}


def make(saves: Path, **kw):
    config = ServeConfig(saves=saves, pace=0.0, processes=False, **kw)
    app = create_app(config)
    client = TestClient(app, base_url="http://localhost")
    return app, client


def host_headers(app) -> dict[str, str]:
    return {**ORIGIN, "Authorization": f"Bearer {app.state.server.host_key}"}


def seat_headers(key: str) -> dict[str, str]:
    return {**ORIGIN, "Authorization": f"Bearer {key}"}


def new_game(app, client, **body):
    body.setdefault("variant", "sniff")
    body.setdefault("seed", 11)
    r = client.post("/api/games", json=body, headers=host_headers(app))
    assert r.status_code == 201, r.text
    return r.json()


def wait_turn(client, gid: str, key: str, timeout: float = 20.0) -> dict:
    """The view once it is this seat's turn (or the game is over)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = client.get(f"/api/games/{gid}", headers=seat_headers(key)).json()
        if v["your_turn"] or v["over"]:
            return v
        time.sleep(0.02)
    raise AssertionError("the bots never answered")


# ------------------------------------------------------------- variants


def test_variants_lists_every_builtin_with_summary(server) -> None:
    from bones.lang.load import builtin_names

    _, client = server
    rows = client.get("/api/variants").json()["variants"]
    assert [r["name"] for r in rows] == builtin_names()
    assert all(r["summary"] and r["players"] for r in rows)


def test_variant_details_is_bones_show(server) -> None:
    from bones.lang.describe import describe
    from bones.lang.load import load_variant

    _, client = server
    d = client.get("/api/variants/east-coast").json()  # an alias
    assert d["name"] == "sniff"
    assert d["rules"] == describe(load_variant("sniff"))
    assert d["model"]["name"] == "sniff"
    assert client.get("/api/variants/sniff?players=3").json()["rules"] == describe(load_variant("sniff"), 3)


@pytest.mark.parametrize("path,status", [
    ("/api/variants/nope", 404),
    ("/api/variants/..%2F..%2Fetc%2Fpasswd", 404),
    ("/api/variants/sniff?players=9", 400),
    ("/api/variants/sniff?players=x", 400),
    ("/api/nothing-here", 404),
])
def test_variant_bad_requests(server, path: str, status: int) -> None:
    _, client = server
    r = client.get(path)
    assert r.status_code == status
    assert r.json()["error"]


def test_validate_reports_the_problems_bones_validate_reports(server, tmp_path: Path) -> None:
    from bones.lang.load import VariantError, load_variant

    _, client = server
    text = "name: house\nextends: all-fives\ndeal:\n  hand_size: seven\n"
    r = client.post("/api/validate", json={"text": text}, headers=ORIGIN).json()
    assert r["ok"] is False
    file = tmp_path / "house.yaml"
    file.write_text(text)
    with pytest.raises(VariantError) as err:
        load_variant(file)
    expected = [(p.line, p.col, p.dotted_path, p.message) for p in err.value.problems]
    assert [(p["line"], p["column"], p["path"], p["message"]) for p in r["problems"]] == expected
    assert r["problems"][0]["line"] == 4
    ok = client.post("/api/validate", json={"text": "name: house\nextends: all-fives\n"}, headers=ORIGIN).json()
    assert ok == {"ok": True, "problems": [], "name": "house", "players": [2, 3, 4]}


@pytest.mark.parametrize("parent", ["/etc/passwd", "../../../../etc/passwd", "house.yaml",
                                    "variants/sniff.yaml", "not-a-variant"])
def test_uploaded_text_may_extend_only_builtins(server, parent: str) -> None:
    _, client = server
    r = client.post("/api/validate", json={"text": f"name: x\nextends: {parent}\n"}, headers=ORIGIN).json()
    assert r["ok"] is False
    (problem,) = r["problems"]
    assert problem["line"] == 2 and problem["path"] == "extends"
    # a name that is no built-in is unknown; a path is refused as a path
    expected = "unknown variant" if parent == "not-a-variant" else "only a built-in variant"
    assert expected in problem["message"]
    assert "root:" not in json.dumps(r)  # nothing of /etc/passwd


@pytest.mark.parametrize("body,status", [
    ({}, 400), ({"text": 5}, 400), ({"text": "x", "more": 1}, 400),
])
def test_validate_bad_bodies(server, body, status) -> None:
    _, client = server
    assert client.post("/api/validate", json=body, headers=ORIGIN).status_code == status


def test_validate_odd_texts_answer_problems_not_errors(server) -> None:
    _, client = server
    for text in ["", "[1, 2]", "a: [", "x" * (70 * 1024), "!!python/object:os.system {}", "[" * 5000]:
        r = client.post("/api/validate", json={"text": text}, headers=ORIGIN)
        assert r.status_code == 200, text[:20]
        assert r.json()["ok"] is False and r.json()["problems"][0]["message"]


def test_rules_of_uploaded_text(server) -> None:
    _, client = server
    r = client.post("/api/rules", json={"text": "name: h\nextends: sniff\nmatch:\n  points: 100\n"},
                    headers=ORIGIN)
    assert r.status_code == 200 and "100" in r.json()["rules"]
    bad = client.post("/api/rules", json={"text": "name: h\nextends: sniff\nmatch: 5\n"}, headers=ORIGIN)
    assert bad.status_code == 422 and bad.json()["problems"][0]["line"] == 3


def test_bots_lists_the_builtin_bots_with_limits(server) -> None:
    _, client = server
    bots = {b["name"]: b for b in client.get("/api/bots").json()["bots"]}
    assert set(bots) == {"random", "greedy", "heuristic", "pimc", "search", "ismcts", "epimc",
                         "blunder"}
    assert {p["name"]: p["max"] for p in bots["search"]["params"]}["iterations"] == 2000
    assert {p["name"]: p["max"] for p in bots["blunder"]["params"]}["rate"] == 1


# ------------------------------------------------------------------ games


def test_a_whole_game_against_bots_and_the_save_is_a_bones_play_save(server, saves: Path) -> None:
    app, client = server
    # a greedy bot: the server's default seats (search bots: 30 s of this
    # test in the Python core) play in other tests' games (issue 37)
    g = new_game(app, client, variant="all-fives", seed=5,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    key = g["seats"][0]["key"]
    assert g["seats"][0]["url"].split("#", 1)[1] == f"game={g['id']}&seat=0&key={key}"
    moves = 0
    while True:
        v = wait_turn(client, g["id"], key)
        if v["over"]:
            break
        m = v["legal"][0]
        r = client.post(f"/api/games/{g['id']}/moves", json={"move": m["move"], "version": v["version"]},
                        headers=seat_headers(key))
        assert r.status_code == 200, r.text
        assert r.json()["version"] == v["version"] + 1
        moves += 1
        if v["history"]:
            break  # one hand is enough here
    assert moves > 3
    session = GameSession.resume(saves / g["save"])  # what `bones play --resume` does
    assert session.hand_number >= 2 or session.over
    assert stat.S_IMODE((saves / g["save"]).stat().st_mode) == 0o600


def test_the_view_hides_other_seats_and_the_boneyard(server) -> None:
    app, client = server
    g = new_game(app, client, variant="sniff", seed=3, players=3,
                 seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    game = app.state.server.store.get(g["id"])
    hand = game.session.hand
    ts = game.session.rules.tiles
    keys = {s["seat"]: s["key"] for s in g["seats"]}
    for seat, key in keys.items():
        text = client.get(f"/api/games/{g['id']}", headers=seat_headers(key)).text
        view = json.loads(text)
        assert [t["name"] for t in view["hand"]] == [ts.names[t] for t in ts.tiles_of(hand.hands[seat])]
        hidden = [ts.names[t] for s in range(3) if s != seat for t in ts.tiles_of(hand.hands[s])]
        hidden += [ts.names[t] for t in hand.boneyard]
        shown = {t["name"] for t in view["hand"]}
        assert not shown & set(hidden)
        # no hidden tile's name appears anywhere in the answer, except on the table
        for name in hidden:
            assert f'"{name}"' not in text
        assert "boneyard_order" not in text and "rng" not in text


def test_a_draw_shows_its_tile_to_the_drawer_only(server) -> None:
    app, client = server
    for seed in range(40):
        g = new_game(app, client, variant="sniff", seed=seed,
                     seats=[{"kind": "human"}, {"kind": "human"}])
        keys = [s["key"] for s in g["seats"]]
        for _ in range(30):
            views = [client.get(f"/api/games/{g['id']}", headers=seat_headers(k)).json() for k in keys]
            mover = next((v for v in views if v["your_turn"]), None)
            if mover is None or mover["over"]:
                break
            draw = [m for m in mover["legal"] if m["kind"] == "draw"]
            m = draw[0] if draw else mover["legal"][0]
            r = client.post(f"/api/games/{g['id']}/moves", json={"move": m["move"], "version": mover["version"]},
                            headers=seat_headers(keys[mover["you"]]))
            assert r.status_code == 200, r.text
            if draw:
                mine = r.json()["events"][-1]
                other = client.get(f"/api/games/{g['id']}", headers=seat_headers(keys[1 - mover["you"]])).json()
                theirs = other["events"][-1]
                assert mine["kind"] == theirs["kind"] == "draw"
                assert "drew" in mine and "drew" not in theirs
                return
    pytest.fail("no draw happened in 40 games")


def test_illegal_moves_get_the_reason_bones_play_gives(server) -> None:
    app, client = server
    g = new_game(app, client, seed=8)
    key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], key)
    game = app.state.server.store.get(g["id"])
    held = {t["name"] for t in v["hand"]}
    legal_tiles = {m.get("tile") for m in v["legal"]}
    bad = next(t for t in held if t not in legal_tiles) if held - legal_tiles else None
    cases = ["9-9@E", "banana", "draw" if not any(m["kind"] == "draw" for m in v["legal"]) else "pass", "3"]
    if bad:
        cases.append(bad)
    for text in cases:
        expected = None
        try:
            game.session.parse(text)
        except Exception as err:  # noqa: BLE001
            expected = str(err)
        r = client.post(f"/api/games/{g['id']}/moves", json={"move": text, "version": v["version"]},
                        headers=seat_headers(key))
        assert r.status_code == 422, (text, r.text)
        if text != "3":
            assert r.json()["error"] == expected
    after = client.get(f"/api/games/{g['id']}", headers=seat_headers(key)).json()
    assert after["version"] == v["version"]


def test_stale_versions_and_turns_get_409(server) -> None:
    app, client = server
    g = new_game(app, client, seed=9, seats=[{"kind": "human"}, {"kind": "human"}])
    keys = [s["key"] for s in g["seats"]]
    views = [client.get(f"/api/games/{g['id']}", headers=seat_headers(k)).json() for k in keys]
    mover = next(v for v in views if v["your_turn"])
    waiter = next(v for v in views if not v["your_turn"])
    m = mover["legal"][0]["move"]
    body = {"move": m, "version": mover["version"]}
    r = client.post(f"/api/games/{g['id']}/moves", json={**body, "version": mover["version"] + 5},
                    headers=seat_headers(keys[mover["you"]]))
    assert r.status_code == 409
    r = client.post(f"/api/games/{g['id']}/moves", json=body, headers=seat_headers(keys[waiter["you"]]))
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    assert client.post(f"/api/games/{g['id']}/moves", json=body,
                       headers=seat_headers(keys[mover["you"]])).status_code == 200
    # the same click again: the version has moved on
    r = client.post(f"/api/games/{g['id']}/moves", json=body, headers=seat_headers(keys[mover["you"]]))
    assert r.status_code == 409 and "moved on" in r.json()["error"]


@pytest.mark.parametrize("body", [
    {"move": 5, "version": 0}, {"move": "", "version": 0}, {"move": "6-4@E"},
    {"move": "6-4@E", "version": "0"}, {"move": "6-4@E", "version": 0, "extra": 1},
    {"move": "x" * 100, "version": 0},
])
def test_bad_move_bodies(server, body) -> None:
    app, client = server
    g = new_game(app, client)
    r = client.post(f"/api/games/{g['id']}/moves", json=body, headers=seat_headers(g["seats"][0]["key"]))
    assert r.status_code in (400, 409, 422) and r.json()["error"]


def test_keys_are_needed_and_checked(server) -> None:
    app, client = server
    g = new_game(app, client)
    other = new_game(app, client, seed=12)
    url = f"/api/games/{g['id']}"
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer " + "A" * 43}).status_code == 403
    assert client.get(url, headers={"Authorization": "Basic abc"}).status_code == 401
    # a seat of another game is no seat of this one
    assert client.get(url, headers=seat_headers(other["seats"][0]["key"])).status_code == 403
    # the host key is not a seat key
    assert client.get(url, headers=host_headers(app)).status_code == 403
    # a key in the query string is ignored
    assert client.get(f"{url}?key={g['seats'][0]['key']}").status_code == 401
    assert client.get("/api/games/0123456789abcdef", headers=seat_headers(g["seats"][0]["key"])).status_code == 404


def test_keys_are_unguessable_and_stored_only_as_hashes(server, saves: Path) -> None:
    app, client = server
    games = [new_game(app, client, seed=s, seats=[{"kind": "human"}, {"kind": "human"}]) for s in range(3)]
    keys = [s["key"] for g in games for s in g["seats"]]
    assert len(set(keys)) == len(keys)
    assert all(len(k) >= 43 for k in keys)  # 256 random bits
    stored = "".join(p.read_text() for p in saves.rglob("*.json"))
    for key in keys + [app.state.server.host_key]:
        assert key not in stored
    for index in (saves / "web").glob("*.json"):
        assert stat.S_IMODE(index.stat().st_mode) == 0o600
    assert stat.S_IMODE((saves / "web").stat().st_mode) == 0o700


def test_keys_never_reach_a_log(saves: Path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    app, client = make(saves)
    with client:
        g = new_game(app, client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        key = g["seats"][0]["key"]
        v = wait_turn(client, g["id"], key)
        client.post(f"/api/games/{g['id']}/moves", json={"move": "zz", "version": v["version"]},
                    headers=seat_headers(key))
        client.get(f"/api/games/{g['id']}", headers=seat_headers("B" * 43))
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert key not in text and app.state.server.host_key not in text


def test_host_key_guards_host_operations(server) -> None:
    app, client = server
    for method, path in [("POST", "/api/games"), ("GET", "/api/games"), ("GET", "/api/saves"),
                         ("POST", "/api/saves/open"), ("POST", "/api/simulations"),
                         ("GET", "/api/simulations/abc")]:
        kw = {"json": {}, "headers": ORIGIN} if method == "POST" else {}
        assert client.request(method, path, **kw).status_code == 401, path
        kw2 = {"json": {}, "headers": seat_headers("C" * 43)} if method == "POST" else \
            {"headers": {"Authorization": "Bearer " + "C" * 43}}
        assert client.request(method, path, **kw2).status_code == 403, path


@pytest.mark.parametrize("body,status,words", [
    ({"variant": "nope"}, 400, "unknown variant"),
    ({"variant": "/etc/passwd"}, 400, "unknown variant"),
    ({"variant": "name: x\nextends: /etc/passwd\n"}, 422, "only a built-in"),
    ({"variant": "name: x\nextends: sniff\ndeal:\n  hand_size: 40\n"}, 422, "line 4"),
    ({"variant": 5}, 400, "variant"),
    ({"variant": "sniff", "players": 7}, 400, "players"),
    ({"variant": "sniff", "players": "2"}, 400, "players"),
    ({"variant": "sniff", "seats": [{"kind": "bot", "bot": "search"}] * 2}, 400, "human"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "cmd:rm -rf"}]}, 400, "built-in"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "py:os:system"}]}, 400, "built-in"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "file:/tmp/x.py:Bot"}]}, 400, "built-in"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "search:iterations=100000"}]}, 400, "at most"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "search:seconds=60"}]}, 400, "at most"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy:depth=3"}]}, 400,
     "greedy takes no parameters"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "search:policy=random"}]}, 400,
     "not allowed"),
    ({"variant": "sniff", "seats": [{"kind": "human"}, {"kind": "robot"}]}, 400, "kind"),
    ({"variant": "sniff", "seats": [{"kind": "human"}]}, 400, "players"),
    ({"variant": "sniff", "seats": "human"}, 400, "seats"),
    ({"variant": "sniff", "teams": "yes"}, 400, "teams"),
    ({"variant": "sniff", "seed": -1}, 400, "seed"),
    ({"variant": "sniff", "save": "/tmp/x.json"}, 400, "unknown field"),
])
def test_bad_new_games(server, body, status, words) -> None:
    app, client = server
    r = client.post("/api/games", json=body, headers=host_headers(app))
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


def test_a_house_rule_game_from_text(server) -> None:
    app, client = server
    g = new_game(app, client, variant="name: house\nextends: all-fives\nmatch:\n  points: 50\n")
    v = client.get(f"/api/games/{g['id']}", headers=seat_headers(g["seats"][0]["key"])).json()
    assert v["variant"]["name"] == "house" and v["target"] == "target 50"


def test_muggins_claims(server) -> None:
    app, client = server
    g = new_game(app, client, variant="name: mug\nextends: all-fives\nscoring:\n  muggins:\n    kind: forfeit\n")
    key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], key)
    assert v["muggins"] and all("points" not in m for m in v["legal"])
    play = next(m for m in v["legal"] if m["kind"] == "play")
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": play["move"], "version": v["version"]},
                    headers=seat_headers(key))
    assert r.status_code == 422 and "claim" in r.json()["error"]
    r = client.post(f"/api/games/{g['id']}/moves",
                    json={"move": play["move"], "version": v["version"], "claim": 0}, headers=seat_headers(key))
    assert r.status_code == 200
    assert r.json()["events"][-1]["claim"] == 0


def test_take_back_against_bots(server) -> None:
    app, client = server
    g = new_game(app, client, seed=21)
    key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], key)
    assert v["take_back"] is False or v["events"]
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": v["legal"][0]["move"], "version": v["version"]},
                    headers=seat_headers(key))
    after = wait_turn(client, g["id"], key)
    assert after["take_back"] is True
    r = client.post(f"/api/games/{g['id']}/takeback", json={"version": after["version"]}, headers=seat_headers(key))
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["version"] > after["version"]
    assert back["hand"] == v["hand"] and back["your_turn"]
    r = client.post(f"/api/games/{g['id']}/takeback", json={"version": after["version"]}, headers=seat_headers(key))
    assert r.status_code == 409


def test_a_draw_cannot_be_taken_back_at_the_web_table(server) -> None:
    # issue 32: draw, take back, draw again gave the same tile: the player
    # learnt the stock's next tile and could play instead
    app, client = server
    g = new_game(app, client, variant="muggins", seed=2,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                        {"kind": "bot", "bot": "greedy"}])
    gid, key = g["id"], g["seats"][0]["key"]
    drawn = []
    for _ in range(2):  # the forced draw, then a draw by choice
        v = wait_turn(client, gid, key)
        r = client.post(f"/api/games/{gid}/moves", json={"move": "draw", "version": v["version"]},
                        headers=seat_headers(key))
        assert r.status_code == 200, r.text
        drawn.append(r.json()["events"][-1]["drew"])
    assert drawn[1]["name"] == "2-6", drawn
    v = wait_turn(client, gid, key)
    assert v["take_back"] is False and "a draw cannot be taken back" in v["take_back_why"]
    r = client.post(f"/api/games/{gid}/takeback", json={"version": v["version"]}, headers=seat_headers(key))
    assert r.status_code == 409 and "a draw cannot be taken back" in r.json()["error"]
    after = client.get(f"/api/games/{gid}", headers=seat_headers(key)).json()
    assert after["boneyard"] == v["boneyard"] and "2-6" in [t["name"] for t in after["hand"]]


def test_take_back_refused_with_two_humans(server) -> None:
    app, client = server
    g = new_game(app, client, seats=[{"kind": "human"}, {"kind": "human"}])
    key = g["seats"][0]["key"]
    v = client.get(f"/api/games/{g['id']}", headers=seat_headers(key)).json()
    r = client.post(f"/api/games/{g['id']}/takeback", json={"version": v["version"]}, headers=seat_headers(key))
    assert r.status_code == 409 and "bots only" in r.json()["error"]


def test_long_poll_answers_when_the_bot_moves(saves: Path) -> None:
    app, client = make(saves)
    app.state.server.config.pace = 0.3
    with client:
        # a searching bot at a budget the Python core moves quickly under load
        g = new_game(app, client, seed=1, seats=[{"kind": "human"},
                                                 {"kind": "bot", "bot": "search:iterations=40"}])
        key = g["seats"][0]["key"]
        v = client.get(f"/api/games/{g['id']}", headers=seat_headers(key)).json()
        if v["your_turn"]:
            v = client.post(f"/api/games/{g['id']}/moves", json={"move": v["legal"][0]["move"],
                            "version": v["version"]}, headers=seat_headers(key)).json()
        started = time.monotonic()
        w = client.get(f"/api/games/{g['id']}?wait={v['version']}", headers=seat_headers(key)).json()
        assert w["version"] > v["version"]
        assert time.monotonic() - started < 10
        assert client.get(f"/api/games/{g['id']}?wait=abc", headers=seat_headers(key)).status_code == 400


def test_list_and_delete_games(server) -> None:
    app, client = server
    g = new_game(app, client)
    listed = client.get("/api/games", headers=host_headers(app)).json()
    assert [x["id"] for x in listed["games"]] == [g["id"]] and listed["live"] == 1
    assert "key" not in json.dumps(listed)
    assert client.request("DELETE", f"/api/games/{g['id']}", json={}, headers=host_headers(app)).status_code == 200
    assert client.get(f"/api/games/{g['id']}", headers=seat_headers(g["seats"][0]["key"])).status_code == 404
    assert client.request("DELETE", f"/api/games/{g['id']}", json={}, headers=host_headers(app)).status_code == 404


def test_live_games_are_capped(saves: Path) -> None:
    app, client = make(saves, max_games=2)
    with client:
        new_game(app, client, seed=1)
        new_game(app, client, seed=2)
        r = client.post("/api/games", json={"variant": "sniff"}, headers=host_headers(app))
        assert r.status_code == 503 and "max-games" in r.json()["error"]


def test_one_games_failure_stays_in_that_game(server, monkeypatch) -> None:
    app, client = server
    store = app.state.server.store
    bad = new_game(app, client, seed=31, seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])
    good = new_game(app, client, seed=31, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    from bones.games import game as game_module

    real = game_module.GameSession.bot_thinking

    def broken(self):
        if self.config.seats[self.hand.turn] != "heuristic":
            return real(self)

        def boom() -> int:  # the bot fails while it thinks, outside the game's lock
            raise RuntimeError("boom")
        return boom

    monkeypatch.setattr(game_module.GameSession, "bot_thinking", broken)
    for g in (bad, good):
        key = g["seats"][0]["key"]
        for _ in range(3):
            v = wait_turn(client, g["id"], key, timeout=5) if not store.get(g["id"]).error else None
            if v is None or v["over"] or not v["your_turn"]:
                break
            client.post(f"/api/games/{g['id']}/moves", json={"move": v["legal"][0]["move"],
                        "version": v["version"]}, headers=seat_headers(key))
            time.sleep(0.2)
    bad_view = client.get(f"/api/games/{bad['id']}", headers=seat_headers(bad["seats"][0]["key"])).json()
    good_view = client.get(f"/api/games/{good['id']}", headers=seat_headers(good["seats"][0]["key"])).json()
    assert bad_view["error"] and "boom" in bad_view["error"]
    assert good_view["error"] is None and good_view["version"] >= 4


# --------------------------------------------------------------- the guards


def test_host_header_is_checked(server) -> None:
    _, client = server
    assert client.get("/api/variants", headers={"Host": "evil.example"}).status_code == 421
    assert client.get("/api/variants", headers={"Host": "localhost:8765"}).status_code == 200
    assert client.get("/api/variants", headers={"Host": "127.0.0.1:1"}).status_code == 200
    assert client.get("/", headers={"Host": "attacker.test:8765"}).status_code == 421


def test_allowed_host_names(saves: Path) -> None:
    app, client = make(saves, allow_hosts=["table.lan"])
    with client:
        assert client.get("/api/variants", headers={"Host": "table.lan:8765"}).status_code == 200
        assert client.get("/api/variants", headers={"Host": "other.lan"}).status_code == 421


def test_state_changes_need_a_same_origin_json_body(server) -> None:
    app, client = server
    auth = {"Authorization": f"Bearer {app.state.server.host_key}"}
    body = {"variant": "sniff"}
    assert client.post("/api/games", json=body, headers=auth).status_code == 403  # no Origin
    assert client.post("/api/games", json=body, headers={**auth, "Origin": "http://evil.example"}).status_code == 403
    assert client.post("/api/games", json=body, headers={**auth, "Origin": "null"}).status_code == 403
    form = client.post("/api/games", data={"variant": "sniff"}, headers={**auth, **ORIGIN})
    assert form.status_code == 415
    plain = client.post("/api/games", content=b'{"variant": "sniff"}',
                        headers={**auth, **ORIGIN, "Content-Type": "text/plain"})
    assert plain.status_code == 415
    assert client.post("/api/games", content=b"{not json", headers={**auth, **ORIGIN,
                       "Content-Type": "application/json"}).status_code == 400
    assert client.post("/api/games", json=[1], headers={**auth, **ORIGIN}).status_code == 400
    assert client.request("DELETE", "/api/simulations/x", headers={**auth, **ORIGIN}).status_code == 415
    assert client.get("/api/games", headers=auth).status_code == 200  # reads need no Origin


def test_bodies_are_capped(server) -> None:
    _, client = server
    big = b'{"text": "' + b"a" * (MAX_BODY + 10) + b'"}'
    r = client.post("/api/validate", content=big, headers={**ORIGIN, "Content-Type": "application/json"})
    assert r.status_code == 413

    def chunks():
        yield b'{"text": "'
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"a" * 65536
        yield b'"}'

    r = client.post("/api/validate", content=chunks(), headers={**ORIGIN, "Content-Type": "application/json"})
    assert r.status_code == 413


@pytest.mark.parametrize("length", ["\u00b2", "--5", "9" * 5000, "1_000", "+5"])
def test_a_content_length_that_is_no_ascii_number_is_400_not_a_traceback(server, length: str) -> None:
    from async_support import run_async

    app, _ = server
    scope = {"type": "http", "method": "POST", "path": "/api/validate", "raw_path": b"/api/validate",
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "server": ("localhost", 80), "client": ("127.0.0.1", 1),
             "headers": [(b"host", b"localhost"), (b"origin", b"http://localhost"),
                         (b"content-type", b"application/json"),
                         (b"content-length", length.encode("latin-1"))]}
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    run_async(app(scope, receive, send))
    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"]) == {"error": "the Content-Length header is not a number of bytes"}


def test_safety_headers(server) -> None:
    _, client = server
    r = client.get("/")
    assert r.status_code == 200 and "<title>" in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"
    assert client.get("/api/variants").headers["cache-control"] == "no-store"
    assert client.get("/static/js/main.js").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    assert client.put("/api/variants", json={}, headers=ORIGIN).status_code in (404, 405)


# ------------------------------------------------------------------ saves


def test_saves_of_bones_play_continue_in_the_browser(server, saves: Path) -> None:
    from bones.lang.load import load_variant

    app, client = server
    path = saves / "terminal.json"
    session = GameSession.new(load_variant("all-fives"), seed=4, save_path=path, bots=["greedy"])
    session.save()
    listed = client.get("/api/saves", headers=host_headers(app)).json()["saves"]
    entry = next(s for s in listed if s["name"] == "terminal.json")
    assert entry["variant"] == "all-fives" and entry["seats"] == ["human", "greedy"]
    r = client.post("/api/saves/open", json={"name": "terminal.json"}, headers=host_headers(app))
    assert r.status_code == 201, r.text
    g = r.json()
    key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], key)
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": v["legal"][0]["move"], "version": v["version"]},
                    headers=seat_headers(key))
    assert r.status_code == 200
    resumed = GameSession.resume(path)  # and back to the terminal
    assert len(resumed.current.moves) >= len(v["events"]) + 1


def test_the_save_list_reads_each_save_as_bones_play_does(server, saves: Path) -> None:
    # one reader for both (bones.games.savelist): a save over the record size
    # cap is listed as unreadable without being read whole, and a record
    # that no bones play session wrote cannot be resumed
    from bones.games.record import MAX_RECORD_BYTES
    from bones.lang.load import load_variant

    app, client = server
    GameSession.new(load_variant("sniff"), seed=4, save_path=saves / "good.json", level="easy").save()
    with (saves / "huge.json").open("wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)
    record = json.loads((saves / "good.json").read_text(encoding="utf-8"))
    del record["meta"]["play"]
    (saves / "plain.json").write_text(json.dumps(record), encoding="utf-8")
    listed = {s["name"]: s for s in client.get("/api/saves", headers=host_headers(app)).json()["saves"]}
    assert listed["good.json"]["seats"] == ["human", "blunder"] and listed["good.json"]["hands"] == 1
    assert listed["huge.json"]["unreadable"] and "too large for a record" in listed["huge.json"]["problem"]
    assert listed["plain.json"]["unreadable"] and listed["plain.json"]["problem"] == "not a bones play save"


@pytest.mark.parametrize("field,value,problem", [
    ("names", "Ana", "meta.play: names must list one name (or null) for each of the 2 seats"),
    ("series", {"id": 5}, "meta.play: series.id must be a short text"),
    ("chat", [{"seat": 7, "text": "hi", "at": 1}], "meta.play: chat[0].seat must be a seat from 0 to 1"),
])
def test_a_save_with_a_corrupt_meta_play_is_unreadable_and_no_response_names_a_path(
        server, saves: Path, field: str, value, problem: str) -> None:
    # issue 32: listed as readable, then opening it answered 400 with the server's absolute path
    from bones.lang.load import load_variant

    app, client = server
    GameSession.new(load_variant("sniff"), seed=4, save_path=saves / "good.json", level="easy").save()
    record = json.loads((saves / "good.json").read_text(encoding="utf-8"))
    record["meta"]["play"][field] = value
    (saves / "bad.json").write_text(json.dumps(record), encoding="utf-8")
    listed = {s["name"]: s for s in client.get("/api/saves", headers=host_headers(app)).json()["saves"]}
    assert listed["bad.json"] == {"name": "bad.json", "modified": listed["bad.json"]["modified"],
                                  "game": None, "unreadable": True, "problem": problem}
    answers = [
        client.post("/api/saves/open", json={"name": "bad.json"}, headers=host_headers(app)),
        client.post("/api/replay", json={"save": "bad.json"}, headers=host_headers(app)),
        client.post("/api/analyse", json={"save": "bad.json"}, headers=host_headers(app)),
        client.post("/api/replay", json={"record": json.dumps(record)}, headers=host_headers(app)),
    ]
    assert [r.status_code for r in answers] == [400, 422, 422, 422]
    assert [r.json()["error"] for r in answers] == [
        f"bad.json: {problem}", f"bad.json: {problem}", f"bad.json: {problem}", f"record: {problem}"]
    assert all(str(saves) not in r.text and str(saves.resolve()) not in r.text for r in answers)


def test_no_error_names_a_path_of_the_server(server, saves: Path) -> None:
    from bones.games.saves import save_lock

    app, client = server
    g = new_game(app, client, seed=14, seats=[{"kind": "human"}, {"kind": "human"}])
    key = g["seats"][0]["key"]
    with save_lock(saves / g["save"], "bones play"):  # a terminal has the game open
        r = client.get(f"/api/games/{g['id']}", headers=seat_headers(key))
    assert r.status_code == 423 and r.json()["error"].startswith(f"game {g['id']}: {g['save']} is in use")
    (saves / g["save"]).write_text("{", encoding="utf-8")  # broken behind the server's back
    r = client.get(f"/api/games/{g['id']}", headers=seat_headers(key))
    assert r.status_code == 500 and g["save"] in r.json()["error"]
    assert str(saves) not in r.text and str(saves.resolve()) not in r.text


@pytest.mark.parametrize("name,status", [
    ("../../etc/passwd", 400), ("/etc/passwd", 400), ("nope.json", 404), ("web", 400),
    (".hidden.json", 400), (5, 400),
])
def test_saves_are_opened_only_by_listed_name(server, name, status) -> None:
    app, client = server
    r = client.post("/api/saves/open", json={"name": name}, headers=host_headers(app))
    assert r.status_code == status


def test_a_save_whose_bot_is_not_builtin_is_refused(server, saves: Path) -> None:
    from bones.lang.load import load_variant

    app, client = server
    path = saves / "odd.json"
    session = GameSession.new(load_variant("sniff"), seed=4, save_path=path, bots=["search:iterations=50"])
    session.save()
    # a save another program wrote (or an older bones, before one set of limits)
    path.write_text(path.read_text().replace("search:iterations=50", "search:iterations=5000"))
    r = client.post("/api/saves/open", json={"name": "odd.json"}, headers=host_headers(app))
    assert r.status_code == 400 and "seat 1" in r.json()["error"]


def test_a_restarted_server_continues_every_game_with_the_same_links(saves: Path) -> None:
    app, client = make(saves)
    with client:
        g = new_game(app, client, seed=6)
        key = g["seats"][0]["key"]
        v = wait_turn(client, g["id"], key)
        v = client.post(f"/api/games/{g['id']}/moves", json={"move": v["legal"][0]["move"],
                        "version": v["version"]}, headers=seat_headers(key)).json()
    app2, client2 = make(saves)
    with client2:
        again = client2.get(f"/api/games/{g['id']}", headers=seat_headers(key))
        assert again.status_code == 200
        assert again.json()["version"] >= v["version"]
        v2 = wait_turn(client2, g["id"], key)
        r = client2.post(f"/api/games/{g['id']}/moves", json={"move": v2["legal"][0]["move"],
                         "version": v2["version"]}, headers=seat_headers(key))
        assert r.status_code == 200


def test_a_save_changed_by_the_terminal_is_read_again(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, seed=2)
    key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], key)
    session = GameSession.resume(saves / g["save"])  # `bones play --resume` moves meanwhile
    session.play(session.parse(v["legal"][0]["move"]))
    time.sleep(0.01)
    os.utime(saves / g["save"])
    w = client.get(f"/api/games/{g['id']}", headers=seat_headers(key)).json()
    assert w["version"] > v["version"]


# ------------------------------------------------------------------ replay


def test_replay_a_record_and_a_save(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, seed=2)
    key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], key)
    client.post(f"/api/games/{g['id']}/moves", json={"move": v["legal"][0]["move"], "version": v["version"]},
                headers=seat_headers(key))
    text = (saves / g["save"]).read_text()
    r = client.post("/api/replay", json={"record": text}, headers=ORIGIN)
    assert r.status_code == 200, r.text
    frames = r.json()["hands"][0]["frames"]
    assert frames[0]["move"] is None and frames[1]["move"] == v["events"][0]["move"] if v["events"] else True
    assert len(frames) >= 2
    by_name = client.post("/api/replay", json={"save": g["save"]}, headers=host_headers(app))
    assert by_name.status_code == 200
    assert client.post("/api/replay", json={"save": g["save"]}, headers=ORIGIN).status_code == 401


@pytest.mark.parametrize("body,status", [
    ({"record": "{"}, 422), ({"record": "[" * 10000}, 422), ({"record": "{}"}, 422),
    ({"record": 5}, 400), ({}, 400), ({"record": "{}", "save": "x.json"}, 400),
])
def test_bad_replays(server, body, status) -> None:
    _, client = server
    assert client.post("/api/replay", json=body, headers=ORIGIN).status_code == status


# ------------------------------------------------------------- simulations


def run_sim(app, client, body, timeout: float = 60):
    r = client.post("/api/simulations", json=body, headers=host_headers(app))
    assert r.status_code == 202, r.text
    sid = r.json()["id"]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = client.get(f"/api/simulations/{sid}", headers=host_headers(app)).json()
        if s["state"] != "running":
            return s
        time.sleep(0.05)
    raise AssertionError("the simulation did not finish")


def test_a_simulation_reports_what_bones_simulate_json_reports(server) -> None:
    from bones.sim.simulation import make_config, report, simulate

    app, client = server
    s = run_sim(app, client, {"variant": "sniff", "hands": 60, "bots": ["greedy"], "seed": 7})
    assert s["state"] == "done" and s["done"] == 60
    expected = report(make_config(["sniff"], ["greedy"], 60, 7, hands_only=True), simulate(
        make_config(["sniff"], ["greedy"], 60, 7, hands_only=True)))
    got = dict(s["report"])
    got.pop("run")
    assert got == expected


def test_a_comparison_of_two_variants(server) -> None:
    app, client = server
    s = run_sim(app, client, {"variant": "all-fives", "compare": "name: h\nextends: all-fives\ndeal:\n  hand_size: 6\n",
                              "hands": 40, "seed": 3})
    assert s["state"] == "done" and "compare" in s["report"]


def test_a_simulation_can_be_cancelled(saves: Path, monkeypatch) -> None:
    from bones.web import sims

    monkeypatch.setattr(sims, "MAX_GAMES", 1_000_000)
    app, client = make(saves)
    with client:
        r = client.post("/api/simulations", json={"variant": "sniff", "hands": 20000, "bots": ["greedy"]},
                        headers=host_headers(app))
        sid = r.json()["id"]
        c = client.request("DELETE", f"/api/simulations/{sid}", json={}, headers=host_headers(app))
        assert c.status_code == 200
        end = time.monotonic() + 60
        while time.monotonic() < end:
            s = client.get(f"/api/simulations/{sid}", headers=host_headers(app)).json()
            if s["state"] != "running":
                break
            time.sleep(0.05)
        assert s["state"] == "cancelled" and s["done"] < 20000
        assert s["report"]["partial"] is True


@pytest.mark.parametrize("body,status", [
    ({"variant": "sniff", "hands": 10**6}, 400), ({"variant": "sniff", "hands": 0}, 400),
    ({"variant": "sniff", "hands": 5, "games": 5}, 400),
    ({"variant": "sniff", "bots": ["cmd:evil"]}, 400), ({"variant": "sniff", "bots": ["search:seconds=1"]}, 400),
    ({"variant": "sniff", "bots": "greedy,greedy,greedy"}, 400),
    ({"variant": "nope"}, 400), ({"variant": "sniff", "compare": "partners"}, 400),
    ({"variant": "sniff", "out": "/tmp/x"}, 400),
])
def test_bad_simulations(server, body, status) -> None:
    app, client = server
    r = client.post("/api/simulations", json=body, headers=host_headers(app))
    assert r.status_code == status, r.text


def test_simulations_are_capped(saves: Path) -> None:
    app, client = make(saves, max_simulations=1)
    with client:
        first = client.post("/api/simulations", json={"variant": "sniff", "hands": 20000},
                            headers=host_headers(app))
        assert first.status_code == 202
        second = client.post("/api/simulations", json={"variant": "sniff", "hands": 10}, headers=host_headers(app))
        assert second.status_code == 503
        client.request("DELETE", f"/api/simulations/{first.json()['id']}", json={}, headers=host_headers(app))
        assert client.get("/api/simulations/nope", headers=host_headers(app)).status_code == 404


def test_about_names_the_limits(server) -> None:
    _, client = server
    about = client.get("/api/").json() if client.get("/api/").status_code == 200 else client.get("/api").json()
    assert about["limits"]["body_bytes"] == MAX_BODY


def test_a_save_held_by_bones_play_is_refused_while_held(server, saves: Path) -> None:
    from bones.games.saves import save_lock

    app, client = server
    g = new_game(app, client, seed=14, seats=[{"kind": "human"}, {"kind": "human"}])
    key = g["seats"][0]["key"]
    with save_lock(saves / g["save"], "bones play"):  # a terminal has the game open
        r = client.get(f"/api/games/{g['id']}", headers=seat_headers(key))
        assert r.status_code == 423 and "in use" in r.json()["error"]
    assert client.get(f"/api/games/{g['id']}", headers=seat_headers(key)).status_code == 200


def test_analyse_a_record_and_a_save(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, seed=2)
    key = g["seats"][0]["key"]
    for _ in range(3):
        v = wait_turn(client, g["id"], key)
        client.post(f"/api/games/{g['id']}/moves",
                    json={"move": v["legal"][-1]["move"], "version": v["version"]},
                    headers=seat_headers(key))
    text = (saves / g["save"]).read_text()
    r = client.post("/api/analyse", json={"record": text, "budget": 5}, headers=host_headers(app))
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["format"] == "bones-analysis" and a["seats"] == [0] and a["budget"] == 5
    decisions = [d for hd in a["hands"] for d in hd["decisions"]]
    assert decisions and all(d["seat"] == 0 for d in decisions)
    replayed = client.post("/api/replay", json={"record": text}, headers=ORIGIN).json()
    for d in decisions:
        frame = replayed["hands"][d["hand"] - 1]["frames"][d["ply"]]
        assert frame["move"] == d["played"]["move"] and frame["seat"] == d["seat"]
        if d["best"]["move"] == d["played"]["move"]:
            assert d["best_layout"] == frame["layout"]  # the best move drawn is the move played
    by_name = client.post("/api/analyse", json={"save": g["save"], "budget": 5},
                          headers=host_headers(app))
    assert by_name.status_code == 200
    assert by_name.json()["hands"] == [dict(h) for h in a["hands"]]
    assert client.post("/api/analyse", json={"save": g["save"]}, headers=ORIGIN).status_code == 401
    # the search is the host's: a record without the host key is refused too
    assert client.post("/api/analyse", json={"record": text}, headers=ORIGIN).status_code == 401
    for body, status in [({"record": text, "budget": 0}, 400), ({"record": "{}"}, 422), ({}, 400)]:
        assert client.post("/api/analyse", json=body, headers=host_headers(app)).status_code == status


def test_a_seat_analyses_its_moves_of_a_finished_hand(server, monkeypatch) -> None:
    from bones.web import games

    # 25 worlds a decision, not the page's 100 (23 s of the Python core,
    # issue 37): what is checked is the answer's shape and keys, not its figures
    monkeypatch.setattr(games, "ANALYSIS_BUDGET", 25)
    app, client = server
    g = new_game(app, client, seed=3, variant="all-fives",
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    gid, key = g["id"], g["seats"][0]["key"]
    url = f"/api/games/{gid}/analysis"
    assert client.get(f"{url}?hand=1", headers=seat_headers(key)).status_code == 409
    for _ in range(60):
        v = wait_turn(client, gid, key)
        if v["hand_end"] is not None or v["over"]:
            break
        client.post(f"/api/games/{gid}/moves", json={"move": v["legal"][0]["move"],
                                                      "version": v["version"]},
                    headers=seat_headers(key))
    assert v["hand_end"] is not None
    r = client.get(f"{url}?hand=1", headers=seat_headers(key))
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["seats"] == [0] and [h["number"] for h in a["hands"]] == [1]
    decisions = a["hands"][0]["decisions"]
    assert decisions and all(d["seat"] == 0 for d in decisions)
    # what the browser shows: the key that ranked (All Fives has a target: the
    # chance), best first in it, and the words where the move played was not it
    assert all(d["ranked_by"] in ("win", "value") for d in decisions)
    assert any(d["ranked_by"] == "win" for d in decisions)
    for d in decisions:
        assert d["best"][d["ranked_by"]] == max(m[d["ranked_by"]] for m in d["moves"])
    assert any(d.get("why") for d in decisions if d["mistake"])
    assert client.get(f"{url}?hand=1", headers=ORIGIN).status_code == 401
    assert client.get(f"{url}?hand=x", headers=seat_headers(key)).status_code == 400
    assert client.get(f"{url}?hand=0", headers=seat_headers(key)).status_code == 400
    assert client.get(f"{url}?hand=9", headers=seat_headers(key)).status_code == 409


# ---------------------------------------------------------- body text


@pytest.mark.parametrize("body", [
    b'{"text": "name: x\\ud800"}',  # an escape of half a surrogate pair
    b'{"\\udfff": 1}',  # in a field's name
    b'{"text": "\xed\xa0\x80"}',  # the same half encoded as bytes: not UTF-8
    b'{"text": "\xff\xfe"}',  # bytes that are no UTF-8 at all
])
def test_a_body_that_is_not_unicode_text_is_refused_in_one_line_everywhere(
        saves: Path, caplog, body: bytes) -> None:
    caplog.set_level(logging.DEBUG)
    app, client = make(saves)
    with client:
        g = new_game(app, client)
        gid = g["id"]
        host = {**host_headers(app), "Content-Type": "application/json"}
        seat = {**seat_headers(g["seats"][0]["key"]), "Content-Type": "application/json"}
        for path in ("/api/validate", "/api/rules", "/api/games", f"/api/games/{gid}/moves",
                     f"/api/games/{gid}/takeback", "/api/saves/open", "/api/replay",
                     "/api/simulations"):
            r = client.post(path, content=body, headers=seat if gid in path else host)
            assert r.status_code == 400, (path, r.status_code, r.text)
            message = r.json()["error"]
            assert "\n" not in message and ("Unicode" in message or "UTF-8" in message), message
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Traceback" not in logged and "Error" not in logged, logged
    assert not [r for r in caplog.records if r.exc_info], logged


def test_a_surrogate_pair_escape_is_text_and_accepted(server) -> None:
    app, client = server
    text = b'name: "a \\ud83c\\udca1"\nextends: sniff\n'
    r = client.post("/api/validate", content=b'{"text": "' + text.replace(b"\n", b"\\n")
                    .replace(b'"', b'\\"') + b'"}',
                    headers={**host_headers(app), "Content-Type": "application/json"})
    assert r.status_code == 200, r.text


def test_opening_a_save_that_is_already_a_live_game_reopens_that_game(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, seed=12)
    key = g["seats"][0]["key"]
    listed = client.get("/api/saves", headers=host_headers(app)).json()["saves"]
    entry = next(s for s in listed if s["game"] == g["id"])
    for _ in range(2):
        r = client.post("/api/saves/open", json={"name": entry["name"]}, headers=host_headers(app))
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["id"] == g["id"] and body["reopened"] is True
        assert all("key" not in s for s in body["seats"])  # keys are never shown twice
    # the seat link made when the game was created still plays it
    r = client.get(f"/api/games/{g['id']}", headers=seat_headers(key))
    assert r.status_code == 200, r.text
    games = client.get("/api/games", headers=host_headers(app)).json()["games"]
    assert [x["id"] for x in games].count(g["id"]) == 1 and len(games) == 1
