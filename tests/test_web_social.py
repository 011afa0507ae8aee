"""The people at a `bones serve` table: names, presence, seats handed to bots,
chat and rematches, through the ASGI test client (the fixtures of test_web.py).

Each rule of docs/serve.md ("Names, presence, rematch and chat") has a test:
validation with one-line 400s, names and messages kept as text, 429 with
Retry-After on a flood that touches no other game, keys acting only as their
own seat, only the host handing seats, and nothing lost across a restart.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")

from typer.testing import CliRunner  # noqa: E402

from bones.cli.app import app as cli  # noqa: E402
from bones.games.game import GameSession  # noqa: E402
from bones.web.limits import BURST  # noqa: E402
from tests.test_web import host_headers, make, new_game, seat_headers  # noqa: E402

#: A match that ends after a hand or two: All Fives to 5 points.
QUICK = "name: quick-fives\nextends: all-fives\nmatch:\n  points: 5\n"
TWO_PEOPLE_AND_A_BOT = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


def table(app, client, variant: str = "sniff", seed: int = 11) -> tuple[str, list[str]]:
    """A 3-seat game of two people (seats 0 and 1) and a greedy bot; its id and keys."""
    g = new_game(app, client, variant=variant, players=3, seats=TWO_PEOPLE_AND_A_BOT, seed=seed)
    return g["id"], [s["key"] for s in g["seats"]]


def view(client, gid: str, key: str) -> dict:
    r = client.get(f"/api/games/{gid}", headers=seat_headers(key))
    assert r.status_code == 200, r.text
    return r.json()


def play_out(client, gid: str, keys: list[str], timeout: float = 60.0) -> dict:
    """Both people play their first legal move until the match is over (the bot answers)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for key in keys:
            v = view(client, gid, key)
            if v["over"]:
                return v
            if v["your_turn"]:
                body = {"move": v["legal"][0]["move"], "version": v["version"]}
                if v["muggins"] and v["legal"][0]["kind"] == "play":
                    body["claim"] = 0
                r = client.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(key))
                assert r.status_code in (200, 409), r.text
        time.sleep(0.005)
    raise AssertionError("the match never ended")


# ---------------------------------------------------------------- names


def test_a_name_is_trimmed_stored_and_shown_to_every_seat_as_text(server, saves: Path) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    r = client.post(f"/api/games/{gid}/name", json={"name": "  <b>Ana</b> & co "}, headers=seat_headers(k0))
    assert r.status_code == 200, r.text
    mine = r.json()
    assert mine["social"]["names"][0] == "<b>Ana</b> & co"
    assert mine["seats"][0]["who"] == "You"  # your own seat stays "You"
    other = view(client, gid, k1)
    assert other["seats"][0]["who"] == "<b>Ana</b> & co"  # the name, not markup
    assert other["seats"][2]["who"] == "Seat 2 (greedy)"  # a bot shows its bot name
    assert other["social"]["labels"] == ["<b>Ana</b> & co", "Seat 1", "greedy"]
    assert other["owners"][0]["who"] == "<b>Ana</b> & co"  # scores and history columns
    # stored in the save: bones play --resume names the seat
    save = next(saves.glob("*.json"))
    assert json.loads(save.read_text())["meta"]["play"]["names"] == ["<b>Ana</b> & co", None, None]
    assert GameSession.resume(save).seat_name(0) == "<b>Ana</b> & co"


@pytest.mark.parametrize("name, message", [
    ("", "a name needs at least one character that is not a space"),
    ("   ", "a name needs at least one character that is not a space"),
    ("x" * 25, "a name has at most 24 characters (this one has 25)"),
    ("Ana\nBob", "a name may hold only printable characters (no line breaks or control characters)"),
    ("Ana\u0007", "a name may hold only printable characters (no line breaks or control characters)"),
    (7, "name must be text"),
    (None, "name must be text"),
])
def test_a_bad_name_is_refused_with_one_line(server, name, message) -> None:
    app, client = server
    gid, (k0, _) = table(app, client)
    r = client.post(f"/api/games/{gid}/name", json={"name": name}, headers=seat_headers(k0))
    assert r.status_code == 400
    assert r.json() == {"error": message}


LABEL = "a name may not read as one of the table's own labels (You, Seat N, Team A, a bot's name): choose another"


@pytest.mark.parametrize("name, message", [
    # issue 32: each of these was accepted
    ("\u3164", "a name must show: this one has no visible character (only spaces, fillers or marks)"),
    ("\u0301", "a name must show: this one has no visible character (only spaces, fillers or marks)"),
    ("\u2800\u2800", "a name must show: this one has no visible character (only spaces, fillers or marks)"),
    ("\u0301Ana", "a name may not start with a combining mark"),
    ("You", LABEL), ("you", LABEL), ("\uff39\uff4f\uff55", LABEL), ("Seat 2 (greedy)", LABEL),
    ("Seat 1", LABEL), ("Team A", LABEL), ("greedy", LABEL), ("Ana (search)", LABEL),
    # the one table-talk filter: a name is shown through every hand
    ("Ana 6-4", "a name may not name a tile (no table talk): it reads as 4-6"),
    ("[5|5]", "a name may not name a tile (no table talk): it reads as 5-5"),
    ("double six", "a name may not name a tile (no table talk): it reads as 6-6"),
])
def test_a_name_that_hides_or_passes_for_the_table_is_refused(server, name, message) -> None:
    app, client = server
    gid, (k0, _) = table(app, client)
    r = client.post(f"/api/games/{gid}/name", json={"name": name}, headers=seat_headers(k0))
    assert (r.status_code, r.json()) == (422, {"error": message})
    assert client.get(f"/api/games/{gid}", headers=seat_headers(k0)).json()["social"]["names"][0] is None


@pytest.mark.parametrize("name", ["\U0001f469\u200d\U0001f4bb", "\U0001f3f3\ufe0f\u200d\U0001f308 Bo",
                                  "\U0001f9d1\U0001f3fd\u200d\U0001f680",
                                  "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
                                  "Youssef", "Route 66", "Agent 007", "Zo\u00eb"])
def test_emoji_sequences_and_ordinary_names_are_accepted(server, saves: Path, name: str) -> None:
    app, client = server
    gid, (k0, _) = table(app, client)
    r = client.post(f"/api/games/{gid}/name", json={"name": name}, headers=seat_headers(k0))
    assert r.status_code == 200, r.text
    assert r.json()["social"]["names"][0] == name
    save = app.state.server.store.get(gid).path
    assert GameSession.resume(save).names[0] == name  # and the save reads back


@pytest.mark.parametrize("text", ["\u202eevil", "a\u200db", "\u200d\U0001f4bb", "x\u2066y"])
def test_joiners_and_direction_marks_outside_an_emoji_are_refused(server, text: str) -> None:
    app, client = server
    gid, (k0, _) = table(app, client)
    r = client.post(f"/api/games/{gid}/name", json={"name": text}, headers=seat_headers(k0))
    assert r.status_code == 400 and "printable" in r.json()["error"]


def test_a_save_with_a_name_made_before_the_rules_still_opens(server, saves: Path) -> None:
    # nothing saved is lost: a name a save holds is read as a name, whatever it says
    from bones.games.record import load_record, write_record

    app, client = server
    gid, keys = table(app, client)
    path = app.state.server.store.get(gid).path
    client.request("DELETE", f"/api/games/{gid}", json={}, headers=host_headers(app))
    record = load_record(path)
    record.meta["play"]["names"] = ["You", "Seat 1 6-4", None]
    path.unlink()
    write_record(record, path, new=True)
    assert GameSession.resume(path).names[:2] == ["You", "Seat 1 6-4"]


def test_a_key_names_only_its_own_seat(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    # no field names another seat
    r = client.post(f"/api/games/{gid}/name", json={"name": "Bob", "seat": 0}, headers=seat_headers(k1))
    assert r.status_code == 400 and "unknown field 'seat'" in r.json()["error"]
    client.post(f"/api/games/{gid}/name", json={"name": "Bob"}, headers=seat_headers(k1))
    assert view(client, gid, k0)["social"]["names"] == [None, "Bob", None]
    # the host key is not a seat, and a key of another game is no key here
    assert client.post(f"/api/games/{gid}/name", json={"name": "H"}, headers=host_headers(app)).status_code == 403
    gid2, (other, _) = table(app, client, seed=12)
    assert client.post(f"/api/games/{gid}/name", json={"name": "X"}, headers=seat_headers(other)).status_code == 403
    r = client.post(f"/api/games/{gid}/name", json={"name": "X"}, headers={"Origin": "http://localhost"})
    assert r.status_code == 401


# ------------------------------------------------------------- presence


def test_only_the_host_sees_presence_and_it_shows_who_joined(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    assert client.get(f"/api/games/{gid}/people", headers=seat_headers(k0)).status_code == 403
    assert client.get(f"/api/games/{gid}/people").status_code == 401
    p = client.get(f"/api/games/{gid}/people", headers=host_headers(app)).json()
    assert [(s["person"], s["joined"], s["connected"]) for s in p["seats"]] == [
        (True, False, False), (True, False, False), (False, False, False)]
    view(client, gid, k1)  # seat 1 opens its link
    p = client.get(f"/api/games/{gid}/people", headers=host_headers(app)).json()
    assert [(s["joined"], s["connected"]) for s in p["seats"]] == [(False, False), (True, True), (False, False)]
    assert p["seats"][2]["bot"] == "greedy"
    # a seat not heard from for longer than CONNECTED_SECONDS is no longer connected
    game = app.state.server.store.get(gid)
    game.seen[1] -= 3600
    p = client.get(f"/api/games/{gid}/people", headers=host_headers(app)).json()
    assert (p["seats"][1]["joined"], p["seats"][1]["connected"]) == (True, False)


def test_the_host_hands_a_seat_to_a_bot_and_back_and_the_link_keeps_working(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    client.post(f"/api/games/{gid}/name", json={"name": "Bob"}, headers=seat_headers(k1))
    # only the host hands seats
    r = client.post(f"/api/games/{gid}/seats/1", json={"bot": "greedy"}, headers=seat_headers(k0))
    assert r.status_code == 403
    for bot, message in [("rm -rf", "is not a built-in bot"), ("nosuchbot", "is not a built-in bot"),
                         ("search:iterations=99999999", "may be at most")]:
        r = client.post(f"/api/games/{gid}/seats/1", json={"bot": bot}, headers=host_headers(app))
        assert r.status_code == 400 and message in r.json()["error"], r.text
    r = client.post(f"/api/games/{gid}/seats/2", json={"bot": None}, headers=host_headers(app))
    assert r.status_code == 409 and "only a person's seat" in r.json()["error"]
    assert client.post(f"/api/games/{gid}/seats/9", json={"bot": "greedy"},
                       headers=host_headers(app)).status_code == 404
    r = client.post(f"/api/games/{gid}/seats/1", json={"bot": "greedy"}, headers=host_headers(app))
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["bot"] == "greedy" and r.json()["seats"][1]["label"] == "Bob (greedy)"
    # the bot now plays seat 1: seat 0 plays and the game goes past seat 1's turns
    before = view(client, gid, k0)
    moved = 0
    end = time.monotonic() + 20
    while moved < 3 and time.monotonic() < end:
        v = view(client, gid, k0)
        if v["your_turn"]:
            client.post(f"/api/games/{gid}/moves", json={"move": v["legal"][0]["move"], "version": v["version"]},
                        headers=seat_headers(k0))
            moved += 1
        time.sleep(0.01)
    mine = view(client, gid, k1)  # the person's key still reads their seat
    assert mine["version"] > before["version"] and mine["social"]["handed"] == "greedy"
    assert mine["legal"] == [] and not mine["your_turn"]
    assert any(e["seat"] == 1 for e in mine["events"]) or mine["hand_number"] > before["hand_number"]
    # handed back: the same key plays again
    r = client.post(f"/api/games/{gid}/seats/1", json={"bot": None}, headers=host_headers(app))
    assert r.status_code == 200 and r.json()["seats"][1]["bot"] is None
    assert view(client, gid, k1)["social"]["handed"] is None


def test_a_person_cannot_move_while_their_seat_is_a_bot(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    v = view(client, gid, k0)
    turn = v["turn"]
    key = [k0, k1][turn] if turn in (0, 1) else None
    if key is None:  # the bot leads: wait for a person's turn
        end = time.monotonic() + 10
        while view(client, gid, k0)["turn"] == 2 and time.monotonic() < end:
            time.sleep(0.01)
        turn = view(client, gid, k0)["turn"]
        key = [k0, k1][turn]
    app.state.server.config.pace = 30.0  # the bot waits: the seat stays at its turn
    client.post(f"/api/games/{gid}/seats/{turn}", json={"bot": "greedy"}, headers=host_headers(app))
    v = view(client, gid, key)
    r = client.post(f"/api/games/{gid}/moves", json={"move": "draw", "version": v["version"]},
                    headers=seat_headers(key))
    assert r.status_code == 409 and "handed your seat to the bot greedy" in r.json()["error"]


# ----------------------------------------------------------------- chat


def test_chat_is_text_from_the_posting_seat_and_is_saved(server, saves: Path) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    client.post(f"/api/games/{gid}/name", json={"name": "Ana"}, headers=seat_headers(k0))
    r = client.post(f"/api/games/{gid}/chat", json={"text": " <script>alert(1)</script> hi "},
                    headers=seat_headers(k0))
    assert r.status_code == 200, r.text
    msgs = view(client, gid, k1)["social"]["chat"]
    assert [(m["seat"], m["name"], m["text"]) for m in msgs] == [(0, "Ana", "<script>alert(1)</script> hi")]
    feed = client.get(f"/api/games/{gid}/chat?after=0", headers=seat_headers(k1)).json()
    assert [m["text"] for m in feed["messages"]] == ["<script>alert(1)</script> hi"]
    assert "good game" in feed["reactions"]
    assert client.get(f"/api/games/{gid}/chat?after=1", headers=seat_headers(k1)).json()["messages"] == []
    assert client.get(f"/api/games/{gid}/chat").status_code == 401
    assert client.get(f"/api/games/{gid}/chat?after=x", headers=seat_headers(k1)).status_code == 400
    saved = json.loads(next(saves.glob("*.json")).read_text())["meta"]["play"]["chat"]
    assert saved[0]["text"] == "<script>alert(1)</script> hi" and saved[0]["seat"] == 0


@pytest.mark.parametrize("text, status, message", [
    ("x" * 201, 400, "a message has at most 200 characters (this one has 201)"),
    ("", 400, "a message needs some text"),
    ("a\nb", 400, "a message may hold only printable characters (no line breaks or control characters)"),
    (["hi"], 400, "text must be the message's text"),
    ("I hold 6-4 and [5|5]", 422,
     "a message may not name a tile while a hand is in play (no table talk): it reads as 4-6"),
    # issue 32: each of these passed the filter
    ("0 4", 422, "a message may not name a tile while a hand is in play (no table talk): it reads as 0-4"),
    ("0\u20134", 422, "a message may not name a tile while a hand is in play (no table talk): it reads as 0-4"),
    ("04", 422, "a message may not name a tile while a hand is in play (no table talk): it reads as 0-4"),
    ("0,4", 422, "a message may not name a tile while a hand is in play (no table talk): it reads as 0-4"),
    ("\u2076\u2013\u2074", 422,
     "a message may not name a tile while a hand is in play (no table talk): it reads as 4-6"),
    ("I have six-four", 422,
     "a message may not name a tile while a hand is in play (no table talk): it reads as 4-6"),
    ("\u3164", 400, "a message needs some text (this one shows nothing)"),
])
def test_a_bad_message_is_refused_with_one_line(server, text, status, message) -> None:
    app, client = server
    gid, (k0, _) = table(app, client)
    r = client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=seat_headers(k0))
    assert (r.status_code, r.json()) == (status, {"error": message})


def test_a_chat_flood_gets_429_with_retry_after_and_touches_no_other_game(server) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    gid2, (j0, _) = table(app, client, seed=12)
    for i in range(BURST):
        r = client.post(f"/api/games/{gid}/chat", json={"text": f"m{i}"}, headers=seat_headers(k0))
        assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/chat", json={"text": "one more"}, headers=seat_headers(k0))
    assert r.status_code == 429 and r.json()["error"].startswith("too many requests")
    assert 1 <= int(r.headers["retry-after"]) <= 11
    # the other seat of this game, and the other game, chat on
    assert client.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers=seat_headers(k1)).status_code == 200
    assert client.post(f"/api/games/{gid2}/chat", json={"text": "hi"}, headers=seat_headers(j0)).status_code == 200
    assert len(view(client, gid, k1)["social"]["chat"]) == BURST + 1
    # the window passes: the key may post again
    game = app.state.server.store.get(gid)
    game.recent = {k: [t - 60 for t in v] for k, v in game.recent.items()}
    assert client.post(f"/api/games/{gid}/chat", json={"text": "later"}, headers=seat_headers(k0)).status_code == 200


# -------------------------------------------------------------- rematch


def test_a_rematch_accepted_by_both_starts_the_next_match_on_the_same_links(server, saves: Path) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client, variant=QUICK, seed=5)
    client.post(f"/api/games/{gid}/name", json={"name": "Ana"}, headers=seat_headers(k0))
    client.post(f"/api/games/{gid}/name", json={"name": "Bob"}, headers=seat_headers(k1))
    r = client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k0))
    assert r.status_code == 409 and "not over" in r.json()["error"]
    game = app.state.server.store.get(gid)
    game.recent.clear()
    first = play_out(client, gid, [k0, k1])
    first_save = game.path.name
    winner_seats = [s for s in range(3) if first["owners"][first["winner"]]["seats"].count(s)] \
        if first["winner"] is not None and first["winner"] >= 0 else []
    assert first["social"]["rematch"] == {"open": True, "accepted": [], "needed": [0, 1]}
    assert first["social"]["series"]["wins"] == [1 if s in winner_seats else 0 for s in range(3)]
    r = client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k0))
    assert r.json()["social"]["rematch"]["accepted"] == [0] and r.json()["over"]
    assert client.post(f"/api/games/{gid}/rematch", json={"accept": "yes"},
                       headers=seat_headers(k1)).status_code == 400
    r = client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k1))
    assert r.status_code == 200, r.text
    second = r.json()
    # the same links: Ana's key now sits in seat 1, Bob's in seat 2, the bot in seat 0
    assert not second["over"] and second["hand_number"] == 1
    assert view(client, gid, k0)["you"] == 1 and view(client, gid, k1)["you"] == 2
    assert second["social"]["names"] == [None, "Ana", "Bob"]
    assert second["seats"][0]["bot"] == "greedy"
    assert second["social"]["series"]["match"] == 2
    assert second["social"]["series"]["wins"] == [1 if (s - 1) % 3 in winner_seats else 0 for s in range(3)]
    # each match its own save; the new one knows its series
    assert game.path.name != first_save and (saves / first_save).exists()
    play = json.loads(game.path.read_text())["meta"]["play"]
    assert play["series"]["match"] == 2 and play["series"]["saves"] == [first_save]
    assert play["seats"] == ["greedy", "human", "human"]
    listed = {s["name"]: s for s in client.get("/api/saves", headers=host_headers(app)).json()["saves"]}
    assert listed[game.path.name]["series"] == {"id": gid, "match": 2}
    assert listed[first_save]["series"] == {"id": gid, "match": 1}
    assert listed[game.path.name]["names"] == [None, "Ana", "Bob"]


def test_a_rematch_flood_is_refused_with_429(server) -> None:
    app, client = server
    gid, (k0, _) = table(app, client)
    codes = [client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k0)).status_code
             for _ in range(BURST + 1)]
    assert codes == [409] * BURST + [429]


# -------------------------------------------------------------- restart


def test_a_restart_loses_no_name_message_hand_over_or_series(saves: Path) -> None:
    app, client = make(saves, host_key="h" * 43)
    with client:
        gid, (k0, k1) = table(app, client, variant=QUICK, seed=5)
        client.post(f"/api/games/{gid}/name", json={"name": "Ana"}, headers=seat_headers(k0))
        client.post(f"/api/games/{gid}/name", json={"name": "Bob"}, headers=seat_headers(k1))
        client.post(f"/api/games/{gid}/chat", json={"text": "good game"}, headers=seat_headers(k1))
        play_out(client, gid, [k0, k1])
        client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k0))
        client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k1))
        client.post(f"/api/games/{gid}/seats/2", json={"bot": "heuristic"}, headers=host_headers(app))
        before = view(client, gid, k0)
    app, client = make(saves, host_key="h" * 43)
    with client:
        after = view(client, gid, k0)
        assert after["you"] == 1 and view(client, gid, k1)["you"] == 2
        for part in ("names", "labels", "chat", "series"):
            assert after["social"][part] == before["social"][part], part
        assert after["social"]["labels"] == ["greedy", "Ana", "Bob (heuristic)"]
        assert after["social"]["series"]["match"] == 2
        assert view(client, gid, k1)["social"]["handed"] == "heuristic"
        r = client.post(f"/api/games/{gid}/seats/2", json={"bot": None}, headers=host_headers(app))
        assert r.status_code == 200 and view(client, gid, k1)["social"]["handed"] is None


def test_a_rematch_answer_survives_a_restart(saves: Path) -> None:
    app, client = make(saves, host_key="h" * 43)
    with client:
        gid, (k0, k1) = table(app, client, variant=QUICK, seed=5)
        play_out(client, gid, [k0, k1])
        client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k0))
    app, client = make(saves, host_key="h" * 43)
    with client:
        assert view(client, gid, k1)["social"]["rematch"]["accepted"] == [0]
        r = client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k1))
        assert r.json()["social"]["series"]["match"] == 2


# ------------------------------------------------- saves of the terminal


def test_replay_and_resume_of_a_browser_game_show_the_names(server, saves: Path) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client)
    client.post(f"/api/games/{gid}/name", json={"name": "Ana"}, headers=seat_headers(k0))
    client.post(f"/api/games/{gid}/name", json={"name": "Bob"}, headers=seat_headers(k1))
    save = app.state.server.store.get(gid).path
    session = GameSession.resume(save)
    assert [session.seat_name(k) for k in range(3)] == ["Ana", "Bob", "Seat 2"]
    out = CliRunner().invoke(cli, ["replay", str(save)])  # the command in-process: no start-up
    assert out.exit_code == 0, out.output
    assert "seats: 0 Ana, 1 Bob" in out.stdout
    data = json.loads(CliRunner().invoke(cli, ["replay", "--json", str(save)]).stdout)
    assert data["names"] == ["Ana", "Bob", None]


def test_a_save_with_a_bad_name_is_refused_and_an_old_save_loads(server, saves: Path) -> None:
    app, client = server
    gid, (k0, _) = table(app, client)
    save = app.state.server.store.get(gid).path
    data = json.loads(save.read_text())
    assert "names" not in data["meta"]["play"]  # nothing added until someone names a seat
    GameSession.resume(save)
    data["meta"]["play"]["names"] = ["x" * 40, None, None]
    bad = saves / "bad.json"
    bad.write_text(json.dumps(data))
    from bones.games.game import GameError

    with pytest.raises(GameError, match=r"meta.play: names\[0\]: a name has at most 24 characters"):
        GameSession.resume(bad)


def test_the_chat_keeps_its_newest_messages_and_their_numbers_go_on(server, saves: Path) -> None:
    from bones.games.people import MAX_CHAT

    app, client = server
    gid, (k0, k1) = table(app, client)
    game = app.state.server.store.get(gid)
    assert game.session is not None
    game.session.chat = [{"n": i, "seat": 0, "name": None, "text": f"m{i}", "at": 0.0}
                         for i in range(1, MAX_CHAT + 1)]
    r = client.post(f"/api/games/{gid}/chat", json={"text": "newest"}, headers=seat_headers(k1))
    assert r.status_code == 200, r.text
    saved = GameSession.resume(game.path).chat
    assert len(saved) == MAX_CHAT and saved[0]["text"] == "m2"
    assert (saved[-1]["n"], saved[-1]["text"], saved[-1]["seat"]) == (MAX_CHAT + 1, "newest", 1)
    feed = client.get(f"/api/games/{gid}/chat?after={MAX_CHAT}", headers=seat_headers(k0)).json()
    assert [m["text"] for m in feed["messages"]] == ["newest"]


def test_a_team_is_named_by_its_people(server) -> None:
    app, client = server
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    g = new_game(app, client, variant="all-fives", players=4, teams=True, seats=seats)
    gid, (k0, k1) = g["id"], [s["key"] for s in g["seats"]]
    assert view(client, gid, k0)["owners"][0]["who"] == "Team A: seats 0+2 (yours)"
    client.post(f"/api/games/{gid}/name", json={"name": "Ana"}, headers=seat_headers(k0))
    owners = view(client, gid, k1)["owners"]
    assert [o["who"] for o in owners] == ["Team A: Ana+seat 2", "Team B: seats 1+3 (yours)"]
