"""Resigning the match and leaving the table (bones.web.etiquette), and the bots
the seat pickers offer (bones.web.offered), through the ASGI test client.

Each has its status codes, its record in the save and in every seat's log, the
series it updates, and saves that still load: a save from before these fields,
and a save with them read by the record reader every front end uses.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")

from bones.games.game import GameError, GameSession  # noqa: E402
from bones.games.playmeta import PlayMetaError, read_play  # noqa: E402
from bones.games.record import parse_record  # noqa: E402
from bones.web.tokens import new_key  # noqa: E402
from tests.test_web import host_headers, make, new_game, seat_headers  # noqa: E402
from tests.test_web_social import QUICK, play_out, table, view  # noqa: E402


def post(client, gid: str, what: str, key: str, body: dict | None = None):
    return client.post(f"/api/games/{gid}/{what}", json=body if body is not None else {},
                       headers=seat_headers(key))


def save_of(saves: Path, name: str) -> dict:
    return json.loads((saves / name).read_text())


# -------------------------------------------------------------- resign


def test_resigning_ends_the_match_for_the_other_side_and_is_recorded(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    gid, (k0, k1) = g["id"], [s["key"] for s in g["seats"]]
    before = view(client, gid, k1)
    assert not before["over"] and before["notices"] == [] and not before["resigned"]
    r = post(client, gid, "resign", k0)
    assert r.status_code == 200, r.text
    mine = r.json()
    assert mine["over"] and mine["resigned"] and mine["winner"] == 1
    assert mine["result"] == "You resigned the match: Seat 1 wins"
    assert mine["legal"] == [] and mine["turn"] is None and not mine["your_turn"]
    other = view(client, gid, k1)
    assert other["result"] == "Seat 0 resigned the match: You win"
    assert other["notices"] == [{"kind": "resign", "seat": 0, "who": "Seat 0", "hand": 1,
                                 "ply": 0, "bot": None, "level": None}]
    # the series counts it; a rematch is offered as after any match
    assert other["social"]["series"]["wins"] == [0, 1]
    assert other["social"]["rematch"]["open"]
    # the save: meta.play.resigned, and the game loads again as over
    play = save_of(saves, g["save"])["meta"]["play"]
    assert play["resigned"]["seat"] == 0 and play["resigned"]["winner"] == 1
    again = GameSession.resume(saves / g["save"])
    assert again.over and again.match.winner == 1 and again.resigned["seat"] == 0
    # nothing is left to resign, move or take back
    assert post(client, gid, "resign", k1).status_code == 409
    body = {"move": "draw", "version": other["version"]}
    assert client.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(k1)).status_code == 409


def test_a_resignation_mid_hand_keeps_the_moves_and_the_rematch_moves_the_series_on(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    # play until someone has moved, then seat 1 resigns
    for _ in range(200):
        v0 = view(client, gid, k0)
        if v0["events"]:
            break
        for key in (k0, k1):
            v = view(client, gid, key)
            if v["your_turn"]:
                post(client, gid, "moves", key, {"move": v["legal"][0]["move"], "version": v["version"]})
        time.sleep(0.01)
    r = post(client, gid, "resign", k1)
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["over"] and v["notices"][0]["ply"] == len(v["events"]) > 0
    # three players, one side each: the leader among the others wins, or it is a draw
    scores = v["scores"]
    leaders = [o for o in (0, 2) if scores[o] == max(scores[0], scores[2])]
    assert v["winner"] == (leaders[0] if len(leaders) == 1 else -1)
    for key in (k0, k1):
        assert post(client, gid, "rematch", key, {"accept": True}).status_code == 200
    nxt = view(client, gid, k0)
    assert nxt["social"]["series"]["match"] == 2 and not nxt["over"] and nxt["notices"] == []
    assert sum(nxt["social"]["series"]["wins"]) == (1 if v["winner"] >= 0 else 0)


@pytest.mark.parametrize("body, status", [({"why": "tired"}, 400), ([], 400)])
def test_resign_refuses_a_body_it_does_not_read(server, body, status) -> None:
    app, client = server
    g = new_game(app, client, players=2)
    r = post(client, g["id"], "resign", g["seats"][0]["key"], body)
    assert r.status_code == status and "error" in r.json() and "\n" not in r.json()["error"]


def test_resign_and_leave_need_a_seats_key(server) -> None:
    app, client = server
    g = new_game(app, client, players=2)
    gid = g["id"]
    for what in ("resign", "leave"):
        r = client.post(f"/api/games/{gid}/{what}", json={}, headers={"Origin": "http://localhost"})
        assert r.status_code == 401, r.text
        assert post(client, gid, what, new_key()).status_code == 403
        assert post(client, "0123456789abcdef", what, new_key()).status_code == 404
        # the host key is not a seat; a watch key only watches
        assert client.post(f"/api/games/{gid}/{what}", json={}, headers=host_headers(app)).status_code == 403
        watch = client.post(f"/api/games/{gid}/watch", json={}, headers=host_headers(app)).json()
        r = post(client, gid, what, watch["key"])
        assert r.status_code == 403 and "watch link" in r.json()["error"]
        # no GET of them: the API's one line for an unknown endpoint
        r = client.get(f"/api/games/{gid}/{what}")
        assert r.status_code == 404 and r.json()["error"].startswith("no such endpoint")
    assert not view(client, gid, g["seats"][0]["key"])["over"]


# --------------------------------------------------------------- leave


def test_leaving_hands_the_seat_to_a_bot_for_good_and_is_recorded(server, saves: Path) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client, variant=QUICK)
    post(client, gid, "name", k1, {"name": "Bo"})
    r = post(client, gid, "leave", k1)
    assert r.status_code == 200, r.text
    assert r.json() == {"left": True, "seat": 1, "bot": "heuristic", "level": "Casual",
                        "over": False}
    # the key stops working, with a line that says why
    r = client.get(f"/api/games/{gid}", headers=seat_headers(k1))
    assert r.status_code == 403 and r.json()["error"] == "you left this table: a bot plays your seat now"
    assert post(client, gid, "leave", k1).status_code == 403
    v = view(client, gid, k0)
    assert v["seats"][1]["kind"] == "bot" and v["seats"][1]["bot"] == "heuristic"
    assert v["notices"][0] == {"kind": "leave", "seat": 1, "who": "Bo", "hand": 1,
                               "ply": v["notices"][0]["ply"], "bot": "heuristic", "level": "Casual"}
    people = client.get(f"/api/games/{gid}/people", headers=host_headers(app)).json()
    assert not people["seats"][1]["person"]
    # the save: a bot's seat now (not a handed one), and the departure
    play = save_of(saves, v["save"] if "save" in v else next(p.name for p in saves.glob("*.json")))["meta"]["play"]
    assert play["seats"][1] == "heuristic" and "handed" not in play
    assert play["left"][0]["seat"] == 1 and play["left"][0]["name"] == "Bo"
    # the match goes on to its end with the bot; only the person still seated is asked
    end = play_out(client, gid, [k0])
    assert end["social"]["rematch"]["needed"] == [0]
    r = post(client, gid, "rematch", k0, {"accept": True})
    assert r.status_code == 200 and r.json()["social"]["series"]["match"] == 2


def test_the_last_person_to_leave_resigns_the_match(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    gid, key = g["id"], g["seats"][0]["key"]
    r = post(client, gid, "leave", key)
    assert r.status_code == 200 and r.json()["over"] is True
    play = save_of(saves, g["save"])["meta"]["play"]
    assert play["resigned"]["seat"] == 0 and play["resigned"]["winner"] == 1
    assert play["left"][0]["seat"] == 0
    again = GameSession.resume(saves / g["save"])
    assert again.over and again.config.seats[0] == "heuristic"


def test_a_departure_survives_a_restart(saves: Path) -> None:
    app, client = make(saves)
    with client:
        gid, (k0, k1) = table(app, client)
        assert post(client, gid, "leave", k1).status_code == 200
    app, client = make(saves)
    with client:
        r = client.get(f"/api/games/{gid}", headers=seat_headers(k1))
        assert r.status_code == 403 and "you left this table" in r.json()["error"]
        assert view(client, gid, k0)["notices"][0]["kind"] == "leave"


# --------------------------------------------------------------- saves


def test_old_saves_load_and_new_ones_read_everywhere(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    path = saves / g["save"]
    old = path.read_text()  # a save from before resign and leave: no such fields
    assert "resigned" not in old and "left" not in json.loads(old)["meta"]["play"]
    assert not GameSession.resume(path).over
    post(client, g["id"], "resign", g["seats"][1]["key"])
    data = json.loads(path.read_text())
    # the record reader of every front end (bones replay, analyse, the saves list) takes it
    record = parse_record(data)
    assert record.hands[-1].end is None  # the hand in play: interrupted
    # code that does not know the fields ignores them: the rest of meta.play is as before
    play = dict(data["meta"]["play"])
    play.pop("resigned")
    assert read_play({"play": play}, 2).seats == ("human", "human")


@pytest.mark.parametrize("field, value, message", [
    ("resigned", "yes", "meta.play.resigned must be an object"),
    ("resigned", {"seat": 5, "hand": 1, "ply": 0, "winner": 1}, "must name a seat from 0 to 1"),
    ("resigned", {"seat": 0, "hand": 1, "ply": 0, "winner": 9}, "resigned.winner must be"),
    ("resigned", {"seat": 0, "hand": 1, "ply": 0, "winner": 1, "name": "a\nb"}, "resigned: a name"),
    ("left", {}, "meta.play.left must be a list"),
    ("left", [{"seat": 0, "hand": 1, "ply": 0}], "left[0].bot must name the bot"),
    ("left", [{"seat": 0, "hand": 0, "ply": 0, "bot": "greedy"}], "must name a seat"),
])
def test_a_corrupt_resignation_or_departure_is_one_line(field, value, message) -> None:
    with pytest.raises(PlayMetaError, match=re.escape(message)) as err:
        read_play({"play": {"seats": ["human", "greedy"], field: value}}, 2)
    assert "\n" not in str(err.value)


def test_a_save_with_a_corrupt_departure_is_refused_when_opened(server, saves: Path) -> None:
    app, client = server
    g = new_game(app, client, players=2)
    path = saves / g["save"]
    data = json.loads(path.read_text())
    data["meta"]["play"]["left"] = [{"seat": 7}]
    assert client.request("DELETE", f"/api/games/{g['id']}", json={},
                          headers=host_headers(app)).status_code == 200
    path.write_text(json.dumps(data))
    with pytest.raises(GameError):
        GameSession.resume(path)
    r = client.post("/api/saves/open", json={"name": g["save"]}, headers=host_headers(app))
    assert r.status_code == 400 and "meta.play.left[0]" in r.json()["error"]


# ------------------------------------------------------------- offered


def test_the_offered_bots_are_one_list_of_bots_the_server_runs(server) -> None:
    from bones.web.levels import LEVELS, OTHERS

    app, client = server
    data = client.get("/api/bots").json()
    offered = data["offered"]
    # the levels first, weakest first, then the others without a level
    assert [o["bot"] for o in offered] == [bot for _, bot, _ in LEVELS] + [bot for bot, _, _ in OTHERS]
    assert [(o["label"], o["level"], o["rank"]) for o in offered[:len(LEVELS)]] == [
        ("Beginner", "Beginner", 1), ("Casual", "Casual", 2), ("Strong", "Strong", 3), ("Expert", "Expert", 4)]
    assert all(o["level"] is None and o["rank"] is None for o in offered[len(LEVELS):])
    assert sum(o["default"] for o in offered) == 1
    runnable = {b["name"] for b in data["bots"]}
    for o in offered:
        assert o["bot"].split(":")[0] in runnable and o["description"] and o["detail"] == o["bot"]
        # a game seats each one as the picker sends it, and shows its level at the table
        g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": o["bot"]}])
        v = view(client, g["id"], g["seats"][0]["key"])
        assert v["seats"][1]["bot"] == o["bot"] and v["seats"][1]["level"] == o["level"]
        assert v["seats"][0]["level"] is None  # a person has no level
        client.request("DELETE", f"/api/games/{g['id']}", json={}, headers=host_headers(app))


def test_the_levels_are_the_ladders_bots_in_its_order() -> None:
    """Each level is a built-in of the strength ladder (bench/strength.py), the
    levels in the ladder's order, so 'each clearly stronger than the one below'
    is what bench/levels.py measures (bench/results/levels.md)."""
    from bench.levels import levels
    from bench.strength import ladder
    from bones.web.levels import LEVELS, level_of

    rungs = ladder(45)
    bots = [bot for _, bot, _ in LEVELS]
    assert all(bot in rungs for bot in bots)
    assert [rungs.index(bot) for bot in bots] == sorted(rungs.index(bot) for bot in bots)
    assert levels() == [(level, bot) for level, bot, _ in LEVELS]
    assert [level_of(bot) for bot in bots] == ["Beginner", "Casual", "Strong", "Expert"]
    assert level_of("search:iterations=20") is None and level_of(None) is None


# ---------------------------------------------------------------- hint


def test_a_hint_is_the_searchs_move_on_your_turn_against_bots(server) -> None:
    from tests.test_web import wait_turn

    app, client = server
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    gid, key = g["id"], g["seats"][0]["key"]
    v = wait_turn(client, gid, key)
    r = client.get(f"/api/games/{gid}/hint", headers=seat_headers(key))
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["move"] in {m["move"] for m in v["legal"]} and h["hint"].startswith(h["move"])
    # the words bones play's ? and bones analyse say: Sniff is played to a
    # target, so the chance ranks, and why the best beats the next best
    from bones.games.analysis import ranked
    from bones.games.why import because

    order = ranked(app.state.server.store.get(gid).session.hint_values())
    assert h["hint"].startswith(f"{order[0].notation} ({order[0].win:.0%} to win the match, ")
    assert h["hint"].endswith(f"): {because(order[0], order[1])}")
    assert client.get(f"/api/games/{gid}/hint").status_code == 401


def test_no_hint_at_a_table_of_people_or_out_of_turn(server) -> None:
    app, client = server
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    gid, keys = g["id"], [s["key"] for s in g["seats"]]
    for key in keys:
        r = client.get(f"/api/games/{gid}/hint", headers=seat_headers(key))
        assert r.status_code == 409 and "games against bots only" in r.json()["error"]
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    post(client, g["id"], "resign", g["seats"][0]["key"])
    r = client.get(f"/api/games/{g['id']}/hint", headers=seat_headers(g["seats"][0]["key"]))
    assert r.status_code == 409 and "not your turn" in r.json()["error"]


# ------------------------------------------------------------ new link


def test_the_host_makes_a_new_link_for_a_persons_seat_and_the_old_one_stops(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    r = client.post(f"/api/games/{gid}/seats/1/link", json={}, headers=host_headers(app))
    assert r.status_code == 201, r.text
    link = r.json()
    assert link["seat"] == 1 and link["url"].endswith(f"#game={gid}&seat=1&key={link['key']}")
    assert link["qr"].startswith("<svg") and link["handed"] is None
    assert view(client, gid, link["key"])["you"] == 1
    assert client.get(f"/api/games/{gid}", headers=seat_headers(k1)).status_code == 403
    assert view(client, gid, k0)["you"] == 0  # the other seats' links are untouched
    # only the host; only a person's seat; a seat that exists
    assert client.post(f"/api/games/{gid}/seats/1/link", json={}, headers=seat_headers(k0)).status_code == 403
    r = client.post(f"/api/games/{gid}/seats/2/link", json={}, headers=host_headers(app))
    assert r.status_code == 409 and "bot's seat" in r.json()["error"]
    assert client.post(f"/api/games/{gid}/seats/7/link", json={}, headers=host_headers(app)).status_code == 404
    assert client.post(f"/api/games/{gid}/seats/x/link", json={}, headers=host_headers(app)).status_code == 404
    r = client.post(f"/api/games/{gid}/seats/1/link", json={"seat": 1}, headers=host_headers(app))
    assert r.status_code == 400


def test_a_new_link_survives_a_restart(saves: Path) -> None:
    app, client = make(saves)
    with client:
        gid, _ = table(app, client)
        key = client.post(f"/api/games/{gid}/seats/0/link", json={}, headers=host_headers(app)).json()["key"]
    app, client = make(saves)
    with client:
        assert view(client, gid, key)["you"] == 0


# ------------------------------------------------- every new endpoint's errors

#: (method, path after /api/games/{id}, who may call it)
NEW_ENDPOINTS = [("POST", "resign", "seat"), ("POST", "leave", "seat"),
                 ("POST", "seats/1/link", "host"), ("GET", "hint", "seat")]


def _one_line(r, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    text = r.json()["error"]
    assert text and "\n" not in text and "Traceback" not in text, text
    return text


@pytest.mark.parametrize("method, path, who", NEW_ENDPOINTS)
def test_every_new_endpoint_refuses_a_bad_request_with_one_line_and_its_status(server, method, path, who) -> None:
    app, client = server
    gid, (k0, _k1) = table(app, client)
    good = host_headers(app) if who == "host" else seat_headers(k0)
    url = f"/api/games/{gid}/{path}"

    def call(headers, **kw):
        if method == "POST" and "json" not in kw and "content" not in kw:
            kw["json"] = {}
        return client.request(method, url, headers=headers, **kw)

    _one_line(call({"Origin": "http://localhost"}), 401)  # no key
    _one_line(call(seat_headers(new_key())), 403)  # a key of no seat
    _one_line(client.request(method, f"/api/games/0123456789abcdef/{path}", headers=good,
                             **({"json": {}} if method == "POST" else {})), 404)
    watch = client.post(f"/api/games/{gid}/watch", json={}, headers=host_headers(app)).json()["key"]
    _one_line(call(seat_headers(watch)), 403)  # a spectator
    _one_line(call(seat_headers(k0) if who == "host" else host_headers(app)), 403)  # the other kind of key
    if method == "POST":
        _one_line(call(good, json={"extra": 1}), 400)  # a field it does not read
        _one_line(call(good, json=[1]), 400)  # not an object
        _one_line(call({**good, "Content-Type": "application/json"}, content="{not json"), 400)
        _one_line(call({**good, "Content-Type": "text/plain"}, content="x"), 415)
        # a cross-site request
        _one_line(call({**good, "Origin": "https://evil.example"}, json={}), 403)
    # nothing above changed the game: both people still seated, the match in play
    assert not view(client, gid, k0)["over"] and view(client, gid, _k1)["you"] == 1


@pytest.mark.once  # a burst within the window: the native core's hints are quick enough
def test_a_hint_is_limited_to_a_burst_then_429_with_retry_after(server) -> None:
    from bones.web.limits import BURST
    from tests.test_web import wait_turn

    app, client = server
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    gid, key = g["id"], g["seats"][0]["key"]
    wait_turn(client, gid, key)
    for _ in range(BURST):
        assert client.get(f"/api/games/{gid}/hint", headers=seat_headers(key)).status_code == 200
    r = client.get(f"/api/games/{gid}/hint", headers=seat_headers(key))
    assert "too many requests" in _one_line(r, 429) and int(r.headers["Retry-After"]) >= 1


def test_no_hint_for_a_seat_handed_to_a_bot(server) -> None:
    app, client = server
    g = new_game(app, client, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    gid, key = g["id"], g["seats"][0]["key"]
    r = client.post(f"/api/games/{gid}/seats/0", json={"bot": "greedy"}, headers=host_headers(app))
    assert r.status_code == 200, r.text
    r = client.get(f"/api/games/{gid}/hint", headers=seat_headers(key))
    assert _one_line(r, 409) == "a bot plays your seat now: a hint is for your own turn"


def test_no_new_link_for_a_seat_whose_person_left(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    assert post(client, gid, "leave", k1).status_code == 200
    r = client.post(f"/api/games/{gid}/seats/1/link", json={}, headers=host_headers(app))
    assert _one_line(r, 409) == ("seat 1's person left the table: a bot plays it to the match's end, "
                                 "and a seat left has no link")
    assert view(client, gid, k0)["seats"][1]["bot"] == "heuristic"
