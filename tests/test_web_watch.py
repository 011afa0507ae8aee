"""Spectators and reaching friends (`bones serve`): watch links, what a watch key
may read and do, their caps, and ``--public-url``/``--allow-host``.

The central check: a watch key, following a whole game played by bots and a
person, never receives a tile of any hand or of the boneyard in anything it
is answered while a hand is in play; it sees the hands only as they are
turned up at a hand's end, exactly as the players see them.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")

from async_support import run_async  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from bones.web.app import ServeConfig, create_app  # noqa: E402
from bones.web.games import ApiError  # noqa: E402
from bones.web.watch import (  # noqa: E402
    MAX_PER_KEY,
    MAX_SPECTATORS,
    MAX_WATCH_LINKS,
    RATE_REQUESTS,
    RateLimit,
)

ORIGIN = {"Origin": "http://localhost"}


def make(saves: Path, **kw: Any) -> tuple[Any, TestClient]:
    kw.setdefault("pace", 0.0)
    app = create_app(ServeConfig(saves=saves, processes=False, **kw))
    return app, TestClient(app, base_url="http://localhost")


@pytest.fixture
def server(tmp_path: Path):
    app, client = make(tmp_path / "saves")
    with client:
        yield app, client


def auth(key: str) -> dict[str, str]:
    return {**ORIGIN, "Authorization": f"Bearer {key}"}


def host(app: Any) -> dict[str, str]:
    return auth(app.state.server.host_key)


def new_game(app: Any, client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("variant", "sniff")
    body.setdefault("seed", 5)
    body.setdefault("seats", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])  # a quick bot
    r = client.post("/api/games", json=body, headers=host(app))
    assert r.status_code == 201, r.text
    return r.json()


def watch_link(app: Any, client: TestClient, gid: str) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/watch", json={}, headers=host(app))
    assert r.status_code == 201, r.text
    return r.json()


def wait_turn(client: TestClient, gid: str, key: str) -> dict[str, Any]:
    """The seat's view once it is its turn (the game then waits, at one version)."""
    for _ in range(2000):
        v = client.get(f"/api/games/{gid}", headers=auth(key)).json()
        if v["your_turn"] or v["over"]:
            return v
        time.sleep(0.01)
    raise AssertionError("the bots never answered")


# ------------------------------------------------- what a watch key reads

_NAME = re.compile(r"(?<![\d-])(\d+)-(\d+)(?![\d-])")


def tiles_named(data: Any) -> set[tuple[int, int]]:
    """Every tile an answer names: tile objects and tile names inside any text."""
    found: set[tuple[int, int]] = set()
    if isinstance(data, dict):
        if "a" in data and "b" in data and isinstance(data["a"], int):
            found.add((min(data["a"], data["b"]), max(data["a"], data["b"])))
        for v in data.values():
            found |= tiles_named(v)
    elif isinstance(data, list):
        for v in data:
            found |= tiles_named(v)
    elif isinstance(data, str):
        for a, b in _NAME.findall(data):
            found.add((min(int(a), int(b)), max(int(a), int(b))))
    return found


def hidden_now(game: Any) -> tuple[int, set[tuple[int, int]]]:
    """The game's version and the tiles nobody may see now: every hand in play and
    the boneyard (read under the game's lock, so the two agree)."""
    with game.lock:
        session = game.session
        hand = session.hand
        ts = session.rules.tiles
        boneyard = list(hand.boneyard)  # the deal's order; the last boneyard_left are still in it
        tiles = boneyard[len(boneyard) - hand.boneyard_left:]
        if not hand.over:
            for mask in hand.hands:
                tiles += ts.tiles_of(mask)
        return game.version, {(min(ts.low[t], ts.high[t]), max(ts.low[t], ts.high[t])) for t in tiles}


def check_spectator_answer(game: Any, answer: dict[str, Any], seat_view: dict[str, Any] | None) -> bool:
    """Check one spectator's state; False when the game moved on meanwhile (not checked)."""
    version, hidden = hidden_now(game)
    if version != answer["version"]:
        return False
    assert answer["spectator"] is True and answer["you"] == -1
    assert answer["hand"] == [] and answer["pips"] == 0 and answer["legal"] == []
    assert answer["your_turn"] is False and answer["take_back"] is False
    assert all("drew" not in e for e in answer["events"])
    assert "(yours)" not in json.dumps(answer) and '"You"' not in json.dumps(answer)
    public = {k: v for k, v in answer.items() if k != "hand_end"}
    leaked = tiles_named(public) & hidden
    where = [k for k, v in public.items() if tiles_named(v) & leaked]
    assert not leaked, f"a watch key received hidden tiles {sorted(leaked)} in {where} at version {version}"
    # every seat's tile count, the boneyard's size, the scores: as the seats see them
    if seat_view is not None and seat_view["version"] == answer["version"]:
        assert [s["tiles"] for s in answer["seats"]] == [s["tiles"] for s in seat_view["seats"]]
        for key in ("boneyard", "scores", "layout", "count", "hand_number", "history", "turn"):
            assert answer[key] == seat_view[key], key
        assert [e["move"] for e in answer["events"]] == [e["move"] for e in seat_view["events"]]
        # the hands turned up at the last hand's end: exactly what the players saw
        if seat_view["hand_end"] is not None:
            assert [r["tiles"] for r in answer["hand_end"]["rows"]] == \
                [r["tiles"] for r in seat_view["hand_end"]["rows"]]
    return True


REFUSED = [
    ("POST", "/api/games/{id}/moves", {"move": "draw", "version": 0}),
    ("POST", "/api/games/{id}/takeback", {"version": 0}),
    ("GET", "/api/games/{id}/analysis?hand=1", None),
    ("POST", "/api/games/{id}/watch", {}),
    ("DELETE", "/api/games/{id}/watch", {}),
    ("DELETE", "/api/games/{id}", {}),
    ("GET", "/api/games", None),
    ("POST", "/api/games", {"variant": "sniff"}),
    ("GET", "/api/saves", None),
    ("POST", "/api/saves/open", {"name": "{save}"}),
    ("POST", "/api/replay", {"save": "{save}"}),
    ("POST", "/api/analyse", {"save": "{save}"}),
    ("POST", "/api/simulations", {"variant": "sniff"}),
    ("GET", "/api/simulations/0123456789abcdef", None),
    ("DELETE", "/api/simulations/0123456789abcdef", {}),
]


def refusals(client: TestClient, key: str, gid: str, save: str) -> list[tuple[str, int, str]]:
    out = []
    for method, path, body in REFUSED:
        url = path.replace("{id}", gid)
        data = json.loads(json.dumps(body).replace("{save}", save)) if body is not None else None
        r = client.request(method, url, json=data, headers=auth(key))
        out.append((f"{method} {url}", r.status_code, r.text))
    return out


def test_a_watch_key_reads_no_tile_in_a_whole_game_and_can_do_nothing_but_watch(server) -> None:
    app, client = server
    g = new_game(app, client, variant="bergen", players=3, seed=21,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                        {"kind": "bot", "bot": "heuristic"}])
    gid, seat_key = g["id"], g["seats"][0]["key"]
    w = watch_link(app, client, gid)
    # this test asks far faster than a page does (its own test is below)
    app.state.server.spectators.rate = RateLimit(10**6, 1.0)
    assert w["url"].startswith("http://localhost/#watch=") and w["url"].endswith(f"&key={w['key']}")
    assert w["qr"].startswith("<svg") and w["key"] not in w["qr"].split("<title>")[0]
    game = app.state.server.store.get(gid)
    checked = hands_seen = refused = 0
    for _ in range(600):
        seat_view = client.get(f"/api/games/{gid}", headers=auth(seat_key)).json()
        paths = [f"/api/games/{gid}"]
        if _ % 4 == 0:  # the long poll, answered at once for a version the watcher has not seen
            paths.append(f"/api/games/{gid}?wait={seat_view['version'] - 1}")
        for path in paths:
            r = client.get(path, headers=auth(w["key"]))
            assert r.status_code == 200, r.text
            checked += check_spectator_answer(game, r.json(), seat_view)
        if seat_view["hand_end"] is not None:
            hands_seen = max(hands_seen, seat_view["hand_end"]["hand"])
        if checked > 20 and not refused and not seat_view["over"]:  # during a hand
            for what, status, text in refusals(client, w["key"], gid, g["save"]):
                assert status == 403, (what, status, text)
                assert not tiles_named(json.loads(text)), (what, text)
            refused += 1
        if seat_view["over"]:
            break
        if seat_view["your_turn"]:
            m = seat_view["legal"][0]
            r = client.post(f"/api/games/{gid}/moves", headers=auth(seat_key),
                            json={"move": m["move"], "version": seat_view["version"]})
            assert r.status_code in (200, 409), r.text
        else:
            time.sleep(0.01)
    assert seat_view["over"], "the game did not end in 600 steps"
    assert checked >= 30 and hands_seen >= 2 and refused == 1
    # a watch key's move is refused with a reason naming what it is
    r = client.post(f"/api/games/{gid}/moves", json={"move": "draw", "version": 0}, headers=auth(w["key"]))
    assert r.status_code == 403 and "watch link" in r.json()["error"]


def test_the_spectators_labels_name_no_viewer_in_a_partnership_game(server) -> None:
    app, client = server
    g = new_game(app, client, variant="partners", seed=2,
                 seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3)
    w = watch_link(app, client, g["id"])
    seat = wait_turn(client, g["id"], g["seats"][0]["key"])  # the game waits for its person
    v = client.get(f"/api/games/{g['id']}", headers=auth(w["key"])).json()
    assert v["teams"] and [o["who"] for o in v["owners"]] == ["Team A: seats 0+2", "Team B: seats 1+3"]
    assert [s["who"] for s in v["seats"]] == ["Seat 0", "Seat 1 (greedy)", "Seat 2 (greedy)", "Seat 3 (greedy)"]
    assert check_spectator_answer(app.state.server.store.get(g["id"]), v, seat)


def test_keys_without_a_link_and_links_of_another_game_are_refused(server) -> None:
    app, client = server
    a = new_game(app, client, seed=1)
    b = new_game(app, client, seed=2)
    wa = watch_link(app, client, a["id"])
    r = client.get(f"/api/games/{b['id']}", headers=auth(wa["key"]))
    assert r.status_code == 403 and r.json()["error"] == "that key is not a seat of this game"
    assert client.get(f"/api/games/{a['id']}").status_code == 401
    r = client.post(f"/api/games/{a['id']}/watch", json={}, headers=auth(a["seats"][0]["key"]))
    assert r.status_code == 403  # a seat is not the host
    assert client.post(f"/api/games/{a['id']}/watch", json={}, headers=ORIGIN).status_code == 401
    assert client.post("/api/games/0123456789abcdef/watch", json={}, headers=host(app)).status_code == 404
    r = client.post(f"/api/games/{a['id']}/watch", json={"seat": 1}, headers=host(app))
    assert r.status_code == 400 and "unknown field" in r.json()["error"]
    # the guards of every state change hold for the new endpoint
    no_origin = {"Authorization": host(app)["Authorization"]}
    assert client.post(f"/api/games/{a['id']}/watch", json={}, headers=no_origin).status_code == 403
    r = client.post(f"/api/games/{a['id']}/watch", content=b"{}",
                    headers={**host(app), "Content-Type": "text/plain"})
    assert r.status_code == 415


def test_watch_links_are_capped_revocable_and_survive_a_restart(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    app, client = make(saves)
    with client:
        g = new_game(app, client, seed=4)
        links = [watch_link(app, client, g["id"]) for _ in range(MAX_WATCH_LINKS)]
        assert links[-1]["links"] == links[-1]["max"] == MAX_WATCH_LINKS
        r = client.post(f"/api/games/{g['id']}/watch", json={}, headers=host(app))
        assert r.status_code == 429 and "\n" not in r.json()["error"]
        assert "20 watch links" in r.json()["error"]
    index = (saves / "web" / f"{g['id']}.json").read_text()
    assert all(link["key"] not in index for link in links)  # only hashes are kept
    app2, client2 = make(saves)
    with client2:
        for link in (links[0], links[-1]):
            r = client2.get(f"/api/games/{g['id']}", headers=auth(link["key"]))
            assert r.status_code == 200 and r.json()["spectator"] is True
        r = client2.request("DELETE", f"/api/games/{g['id']}/watch", json={}, headers=host(app2))
        assert r.status_code == 200 and r.json() == {"revoked": MAX_WATCH_LINKS}
        r = client2.get(f"/api/games/{g['id']}", headers=auth(links[0]["key"]))
        # issue 32: it said "that key is not a seat of this game"
        assert (r.status_code, r.json()["error"]) == (403, REVOKED)
        again = watch_link(app2, client2, g["id"])
        assert again["links"] == 1
    app3, client3 = make(saves)
    with client3:  # a restarted server still knows the revoked links
        r = client3.get(f"/api/games/{g['id']}?wait=0", headers=auth(links[1]["key"]))
        assert (r.status_code, r.json()["error"]) == (403, REVOKED)
        assert client3.get(f"/api/games/{g['id']}", headers=auth(again["key"])).status_code == 200
        assert client3.get(f"/api/games/{g['id']}", headers=auth("x" * 43)).json()["error"] == \
            "that key is not a seat of this game"


REVOKED = "this watch link was revoked: the host stopped every watch link of this game (ask for a new one)"


def test_spectators_at_once_are_capped_per_game(server) -> None:
    app, client = server
    a = new_game(app, client, seed=1)
    b = new_game(app, client, seed=2)
    spectators = app.state.server.spectators
    game_a = app.state.server.store.get(a["id"])
    game_b = app.state.server.store.get(b["id"])

    async def scenario() -> None:
        held = [spectators.admitted(game_a, f"k{i}" * 10) for i in range(MAX_SPECTATORS)]
        for ctx in held:
            await ctx.__aenter__()
        with pytest.raises(ApiError) as err:
            async with spectators.admitted(game_a, "another-key-0123456789"):
                pass
        assert err.value.status == 429 and f"{MAX_SPECTATORS} spectators" in err.value.message
        async with spectators.admitted(game_b, "another-key-0123456789"):  # another game: no effect
            pass
        await held[0].__aexit__(None, None, None)
        async with spectators.admitted(game_a, "another-key-0123456789"):  # a place is free again
            pass
        for ctx in held[1:]:
            await ctx.__aexit__(None, None, None)
        assert spectators.watching == {}

    run_async(scenario())


def test_twenty_long_polls_hold_their_places_and_the_next_spectator_gets_429(server) -> None:
    import httpx

    app, client = server
    g = new_game(app, client, seed=3)
    seat_key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], seat_key)
    links = [watch_link(app, client, g["id"])["key"] for _ in range(MAX_SPECTATORS)]

    async def scenario() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://localhost") as http:
            url = f"/api/games/{g['id']}"
            polls = [asyncio.ensure_future(http.get(f"{url}?wait={v['version']}", headers=auth(k)))
                     for k in links]
            for _ in range(500):  # until every long poll is waiting
                await asyncio.sleep(0.01)
                if app.state.server.spectators.watching.get(g["id"]) == MAX_SPECTATORS:
                    break
            r = await http.get(url, headers=auth(links[0]))
            assert r.status_code == 429 and "20 spectators watching" in r.json()["error"]
            seat = await http.get(url, headers=auth(seat_key))  # the seats are not counted
            assert seat.status_code == 200
            m = v["legal"][0]["move"]
            moved = await http.post(f"{url}/moves", json={"move": m, "version": v["version"]},
                                    headers=auth(seat_key))
            assert moved.status_code == 200, moved.text
            answers = await asyncio.gather(*polls)  # the move answers every waiting spectator
            assert {a.status_code for a in answers} == {200}
            assert all(a.json()["version"] > v["version"] for a in answers)
            assert (await http.get(url, headers=auth(links[0]))).status_code == 200

    run_async(scenario())
    assert app.state.server.spectators.watching == {}


def test_a_flood_from_one_watch_link_gets_429_and_touches_no_other(server) -> None:
    app, client = server
    a = new_game(app, client, seed=1)
    b = new_game(app, client, seed=2)
    wa, wa2, wb = watch_link(app, client, a["id"]), watch_link(app, client, a["id"]), watch_link(app, client, b["id"])
    # the server's count, in a window no slow machine can outlast (the window slides: below)
    app.state.server.spectators.rate = RateLimit(RATE_REQUESTS, 3600.0)
    statuses = [client.get(f"/api/games/{a['id']}", headers=auth(wa["key"])).status_code
                for _ in range(RATE_REQUESTS + 5)]
    assert statuses[:RATE_REQUESTS] == [200] * RATE_REQUESTS
    assert set(statuses[RATE_REQUESTS:]) == {429}
    r = client.get(f"/api/games/{a['id']}", headers=auth(wa["key"]))
    assert "too many requests" in r.json()["error"]
    assert client.get(f"/api/games/{a['id']}", headers=auth(wa2["key"])).status_code == 200
    assert client.get(f"/api/games/{b['id']}", headers=auth(wb["key"])).status_code == 200
    assert client.get(f"/api/games/{a['id']}", headers=auth(a["seats"][0]["key"])).status_code == 200
    # a long poll is counted as any request (issue 32: ?wait=V&stamp=x answered at once was not)
    game = app.state.server.store.get(a["id"])
    for _ in range(500):  # until the game waits for its person (then it stays at one version)
        if client.get(f"/api/games/{a['id']}", headers=auth(a["seats"][0]["key"])).json()["your_turn"]:
            break
        time.sleep(0.01)
    app.state.server.spectators.rate = RateLimit(0, 10.0)  # nothing is allowed
    for query in (f"?wait={game.version}", f"?wait={game.version}&stamp=x", f"?wait={game.version - 1}"):
        r = client.get(f"/api/games/{a['id']}{query}", headers=auth(wa2["key"]))
        assert r.status_code == 429 and r.headers["retry-after"], query


def test_a_long_poll_with_a_stale_stamp_is_counted(server) -> None:
    # ?wait=<version>&stamp=x is answered at once (the stamp differs): 300 of 300 were
    app, client = server
    g = new_game(app, client, seed=1)
    w = watch_link(app, client, g["id"])
    app.state.server.spectators.rate = RateLimit(RATE_REQUESTS, 3600.0)
    game = app.state.server.store.get(g["id"])
    statuses = [client.get(f"/api/games/{g['id']}?wait={game.version}&stamp=x",
                           headers=auth(w["key"])).status_code for _ in range(RATE_REQUESTS + 5)]
    assert statuses.count(200) <= RATE_REQUESTS and set(statuses[RATE_REQUESTS:]) == {429}


def test_one_watch_key_holds_at_most_a_few_of_a_games_places(server) -> None:
    app, client = server
    g = new_game(app, client, seed=2)
    game = app.state.server.store.get(g["id"])
    spectators = app.state.server.spectators
    one, other = "k" * 43, "o" * 43

    async def scenario() -> None:
        held = [spectators.admitted(game, one) for _ in range(MAX_PER_KEY)]
        for ctx in held:
            await ctx.__aenter__()
        with pytest.raises(ApiError) as err:
            async with spectators.admitted(game, one):
                pass
        assert err.value.status == 429 and "this watch link already follows the game" in err.value.message
        async with spectators.admitted(game, other):  # another link still gets a place
            pass
        for ctx in held:
            await ctx.__aexit__(None, None, None)
        async with spectators.admitted(game, one):  # and the link its places back
            pass
        assert spectators.watching == {} and spectators.holding == {}

    run_async(scenario())


def test_the_rate_limit_window_slides() -> None:
    rate = RateLimit(3, 10.0)
    assert [rate.allow("x", t) for t in (0.0, 1.0, 2.0, 3.0)] == [True, True, True, False]
    assert rate.allow("y", 3.0)  # each name its own
    assert not rate.allow("x", 9.9)
    assert rate.allow("x", 10.5)  # the first has left the window
    assert not rate.allow("x", 10.6)


# --------------------------------------------------------- reaching friends


@pytest.mark.parametrize("text,expected", [
    ("https://table.example.org", "https://table.example.org"),
    ("https://Table.Example.org/", "https://table.example.org"),
    ("http://192.168.1.20:8080", "http://192.168.1.20:8080"),
    ("https://table.example.org:443", "https://table.example.org"),  # as a browser's Origin says it
    ("https://[2001:db8::1]:8443/", "https://[2001:db8::1]:8443"),
    # an internationalised name, as browsers send it (issue 32: accepted, then every request got 421)
    ("https://b\u00fccher.example", "https://xn--bcher-kva.example"),
    ("https://\u4f8b\u3048.\u30c6\u30b9\u30c8/", "https://xn--r8jz45g.xn--zckzah"),
    ("https://xn--bcher-kva.example", "https://xn--bcher-kva.example"),
])
def test_public_urls_accepted(text: str, expected: str) -> None:
    from bones.web.links import check_public_url

    assert check_public_url(text) == expected


@pytest.mark.parametrize("text,words", [
    ("table.example.org", "http:// or https://"),
    ("ftp://table.example.org", "http:// or https://"),
    ("https://", "names no host"),
    ("https://table.example.org/?x=1", "no query"),
    ("https://table.example.org/#host=abc", "fragment"),
    ("https://me:pw@table.example.org", "user name"),
    ("https://table.example.org/bones/", "without a path"),
    ("https://table.example.org:99999", "port must be"),
    # issue 32: each of these was accepted
    ("https://ta ble.example.org", "must not hold spaces, quotes or control characters"),
    ('https://"table".example.org', "must not hold spaces, quotes or control characters"),
    ("https://table;rm.example.org", "may hold only letters, digits, hyphens and dots"),
    ("https://table%2fx.example.org", "no %-escapes"),
    ("https://table..example.org", "empty label"),
    ("https://-table.example.org", "no hyphen at a label's start or end"),
    ("https://table.example.org:0", "port must be a number from 1 to 65535"),
    ("https://" + "a" * 300 + ".example.org", "longer than 253 characters"),
    ("https://" + "a" * 64 + ".example.org", "a label longer than 63 characters"),
    ("https://xn--zz.example.org", "not a valid internationalised name"),
    ("https://999.1.1.1", "neither an IP address nor a name"),
    ("https://table_x.example.org", "may hold only letters, digits, hyphens and dots"),
])
def test_public_urls_refused_in_one_line(text: str, words: str) -> None:
    from bones.web.links import PublicUrlError, check_public_url

    with pytest.raises(PublicUrlError) as err:
        check_public_url(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_public_url_makes_every_link_and_is_accepted_by_the_guards(tmp_path: Path) -> None:
    app, client = make(tmp_path / "saves", public_url="https://table.example.org")
    with client:
        g = new_game(app, client, seats=[{"kind": "human"}, {"kind": "human"}])
        assert all(s["url"].startswith("https://table.example.org/#game=") for s in g["seats"])
        w = watch_link(app, client, g["id"])
        assert w["url"].startswith("https://table.example.org/#watch=")
        # a reverse proxy passing the public name as Host, the page's Origin the public URL
        proxied = {"Host": "table.example.org", "Origin": "https://table.example.org",
                   "Authorization": host(app)["Authorization"]}
        r = client.post(f"/api/games/{g['id']}/watch", json={}, headers=proxied)
        assert r.status_code == 201, r.text
        # a tunnel that keeps the Host it was given (localhost): the public Origin is accepted
        tunnel = {"Origin": "https://table.example.org", "Authorization": host(app)["Authorization"]}
        assert client.post(f"/api/games/{g['id']}/watch", json={}, headers=tunnel).status_code == 201
        other = {**tunnel, "Origin": "https://evil.example.org"}
        assert client.post(f"/api/games/{g['id']}/watch", json={}, headers=other).status_code == 403
        assert client.get("/api/bots", headers={"Host": "evil.example.org"}).status_code == 421


def test_an_internationalised_public_url_works_as_browsers_send_it(tmp_path: Path) -> None:
    from bones.web.links import check_public_url

    app, client = make(tmp_path / "saves", public_url=check_public_url("https://b\u00fccher.example"))
    with client:
        g = new_game(app, client, seats=[{"kind": "human"}, {"kind": "human"}])
        assert all(s["url"].startswith("https://xn--bcher-kva.example/#game=") for s in g["seats"])
        # a browser sends the punycode form in Host and Origin: both pass
        proxied = {"Host": "xn--bcher-kva.example", "Origin": "https://xn--bcher-kva.example",
                   "Authorization": host(app)["Authorization"]}
        r = client.post(f"/api/games/{g['id']}/watch", json={}, headers=proxied)
        assert r.status_code == 201, r.text


def test_links_use_the_lan_address_when_the_host_page_is_on_loopback(tmp_path: Path) -> None:
    app, client = make(tmp_path / "saves", host="0.0.0.0", public_host="192.168.7.9", port=8765,
                       allow_hosts=["table.lan"])
    with client:
        g = new_game(app, client)
        assert g["seats"][0]["url"].startswith("http://192.168.7.9:8765/#game=")
        assert watch_link(app, client, g["id"])["url"].startswith("http://192.168.7.9:8765/#watch=")
        # reached by an allowed name, the links keep the name the friends used
        r = client.post(f"/api/games/{g['id']}/watch", json={},
                        headers={**host(app), "Host": "table.lan:8765", "Origin": "http://table.lan:8765"})
        assert r.status_code == 201 and r.json()["url"].startswith("http://table.lan:8765/#watch=")


def test_lan_address_is_never_loopback_and_falls_back_to_the_host_name(monkeypatch) -> None:
    import socket

    from bones.cli import serve_cmd

    found = serve_cmd.lan_address()
    assert found is None or not found.startswith("127.")

    class NoRoute:
        def __init__(self, *a: Any) -> None: ...
        def __enter__(self) -> NoRoute:
            return self
        def __exit__(self, *a: Any) -> None: ...
        def connect(self, *a: Any) -> None:
            raise OSError("Network is unreachable")

    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "gethostbyname", lambda name: "192.168.3.4")
    assert serve_cmd.lan_address() == "192.168.3.4"
    monkeypatch.setattr(socket, "gethostbyname", lambda name: "127.0.1.1")  # Debian's /etc/hosts
    assert serve_cmd.lan_address() is None


def test_serve_refuses_a_bad_public_url_in_one_line(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "bones", "serve", "--port", "0", "--public-url",
                        "table.example.org/?x"], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines() == ["bones serve: --public-url 'table.example.org/?x': must start "
                                     "with http:// or https://"]


def test_serve_prints_the_public_url_and_what_to_do_for_friends_elsewhere(tmp_path: Path) -> None:
    from test_serve_cli import _serve, _stop

    proc, lines = _serve(["--port", "0", "--public-url", "https://Table.Example.org/",
                          "--allow-host", "table.lan"], tmp_path)
    lines = _stop(proc, lines)
    table = [line for line in lines if "the table is at" in line]
    assert len(table) == 1 and re.match(r"bones serve: the table is at https://table\.example\.org/#host="
                                        r"[\w-]+ \(on this machine: http://127\.0\.0\.1:\d+/#host=", table[0])
    assert "bones serve: friends reach it at https://table.example.org/ (every seat and watch link " \
        "uses that address)" in lines, lines
    assert not any("friends elsewhere" in line for line in lines)
    proc, lines = _serve(["--port", "0"], tmp_path)
    lines = _stop(proc, lines)
    advice = [line for line in lines if "friends elsewhere" in line]
    assert len(advice) == 1 and "--public-url" in advice[0] and "--allow-host" in advice[0], lines


def test_a_spectator_follows_the_peoples_names_and_chat_and_cannot_chat(server) -> None:
    """The table's social part reaches spectators (read-only): a long poll of a
    watch key wakes on a seat's name as a seat's does, and answers as a
    spectator (the key is never looked up as a seat); posting is refused."""
    import threading

    app, client = server
    g = new_game(app, client)
    w = watch_link(app, client, g["id"])
    seat_key = g["seats"][0]["key"]
    v = wait_turn(client, g["id"], seat_key)
    answers: list[Any] = []

    def follow() -> None:
        q = f"/api/games/{g['id']}?wait={v['version']}&stamp={v['social']['stamp']}"
        answers.append(client.get(q, headers=auth(w["key"])))

    spectator = threading.Thread(target=follow)
    spectator.start()
    time.sleep(0.3)  # the spectator is waiting at this version and stamp
    r = client.post(f"/api/games/{g['id']}/name", json={"name": "Ana"}, headers=auth(seat_key))
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{g['id']}/chat", json={"text": "hello"}, headers=auth(seat_key))
    assert r.status_code == 200, r.text
    spectator.join(30)
    assert answers and answers[0].status_code == 200, answers and answers[0].text
    seen = answers[0].json()
    assert seen["spectator"] and seen["social"]["names"][0] == "Ana"
    assert seen["social"]["handed"] is None
    now = client.get(f"/api/games/{g['id']}", headers=auth(w["key"])).json()
    assert [m["text"] for m in now["social"]["chat"]] == ["hello"]
    assert check_spectator_answer(app.state.server.store.get(g["id"]), now, None)
    r = client.post(f"/api/games/{g['id']}/chat", json={"text": "hi"}, headers=auth(w["key"]))
    assert r.status_code == 403 and "watch link" in r.json()["error"]
