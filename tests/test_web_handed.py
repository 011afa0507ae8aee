"""A person's seat handed to a bot stays a person's seat in the save (``meta.play.handed``).

The host of `bones serve` may hand a person's seat to a bot and back
(docs/serve.md).  The save records which seats are such people's seats, so
that opening it later through the Saves page gives the seat a link again
(the bot plays it until the host hands it back), a rematch moves the record
with its seat, `bones play --resume` gives the seat back to the terminal,
an old save without the field loads as before and a corrupt one is refused
in one line.
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
from bones.games.game import GameError, GameSession  # noqa: E402
from tests.test_web import host_headers, make, seat_headers, wait_turn  # noqa: E402
from tests.test_web_social import QUICK, play_out, table, view  # noqa: E402


def hand(app, client, gid: str, seat: int, bot: str | None) -> dict:
    r = client.post(f"/api/games/{gid}/seats/{seat}", json={"bot": bot}, headers=host_headers(app))
    assert r.status_code == 200, r.text
    return r.json()


def play_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["meta"]["play"]


def handed_save(app, client, saves: Path, bot: str = "heuristic") -> tuple[str, Path]:
    """A game of two people and a bot whose seat 1 (Bob) the host handed to ``bot``,
    then forgotten by the server (its save stays in the folder): the save's name."""
    gid, (k0, k1) = table(app, client)
    client.post(f"/api/games/{gid}/name", json={"name": "Bob"}, headers=seat_headers(k1))
    hand(app, client, gid, 1, bot)
    wait_turn(client, gid, k0)  # the bots have answered
    path = app.state.server.store.get(gid).path
    forget(app, client, gid)
    return path.name, path


def forget(app, client, gid: str) -> None:
    """Delete the game (its save stays) and wait for its bots to stop."""
    r = client.request("DELETE", f"/api/games/{gid}", json={}, headers=host_headers(app))
    assert r.status_code == 200, r.text
    task = app.state.server.bot_tasks.get(gid)
    end = time.monotonic() + 10
    while task is not None and not task.done() and time.monotonic() < end:
        time.sleep(0.01)  # a bot thinking finishes its move, then stops
    assert task is None or task.done(), "the deleted game's bots play on"


def open_save(app, client, name: str):
    return client.post("/api/saves/open", json={"name": name}, headers=host_headers(app))


def move_when_my_turn(client, gid: str, key: str, timeout: float = 20.0) -> dict:
    """Wait for this seat's turn and make its first legal move; the answer."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = view(client, gid, key)
        if v["your_turn"]:
            body = {"move": v["legal"][0]["move"], "version": v["version"]}
            if v["muggins"] and v["legal"][0]["kind"] == "play":
                body["claim"] = 0
            r = client.post(f"/api/games/{gid}/moves", json=body, headers=seat_headers(key))
            if r.status_code == 200:
                return r.json()
            assert r.status_code == 409, r.text  # a bot moved in between: look again
        time.sleep(0.01)
    raise AssertionError("the seat's turn never came")


def test_a_handed_seat_gets_a_link_again_when_its_save_is_opened(server, saves: Path) -> None:
    app, client = server
    name, path = handed_save(app, client, saves)
    play = play_of(path)
    assert play["handed"] == [1] and play["seats"] == ["human", "heuristic", "greedy"]
    # the Saves list says so, as bones play --list does
    listed = {s["name"]: s for s in client.get("/api/saves", headers=host_headers(app)).json()["saves"]}
    assert listed[name]["handed"] == [1] and listed[name]["seats"][1] == "heuristic"
    from bones.games.savelist import list_saves

    assert [e.handed for e in list_saves(saves) if e.path.name == name] == [(1,)]
    r = open_save(app, client, name)
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["id"]
    keys = {s["seat"]: s["key"] for s in g["seats"]}
    assert sorted(keys) == [0, 1]  # the person's seat has a link; the bot's from the start none
    assert [s["handed"] for s in g["seats"]] == [None, "heuristic"]
    # the presence panel shows seat 1 as Bob's, handed to the bot, as before the save was closed
    people = client.get(f"/api/games/{gid}/people", headers=host_headers(app)).json()["seats"]
    assert [(s["person"], s["bot"]) for s in people] == [(True, None), (True, "heuristic"),
                                                        (False, "greedy")]
    assert people[1]["label"] == "Bob (heuristic)"
    mine = view(client, gid, keys[1])
    assert mine["you"] == 1 and mine["social"]["handed"] == "heuristic" and mine["legal"] == []
    # the bot plays seat 1 meanwhile: seat 0 plays on and seat 1's turns go by
    start = mine["version"]
    for _ in range(3):
        after = move_when_my_turn(client, gid, keys[0])
        if after["over"]:
            break
    seen = view(client, gid, keys[1])
    assert seen["version"] > start
    assert any(e["seat"] == 1 for e in seen["events"]) or seen["hand_number"] > mine["hand_number"]
    # handed back: the new link plays the seat, and the save no longer lists it as handed
    back = hand(app, client, gid, 1, None)
    assert back["seats"][1]["bot"] is None and back["seats"][1]["person"]
    assert view(client, gid, keys[1])["social"]["handed"] is None
    assert "handed" not in play_of(app.state.server.store.get(gid).path)
    end = time.monotonic() + 30
    while time.monotonic() < end:  # the people play on until Bob's link has made a move
        now = view(client, gid, keys[1])
        assert not now["over"], "the match ended before seat 1's turn"
        if now["your_turn"]:
            assert move_when_my_turn(client, gid, keys[1])["you"] == 1
            break
        if view(client, gid, keys[0])["your_turn"]:
            move_when_my_turn(client, gid, keys[0])
        time.sleep(0.01)
    else:
        raise AssertionError("seat 1's turn never came")
    # and handed again, the save records it again
    hand(app, client, gid, 1, "greedy")
    assert play_of(app.state.server.store.get(gid).path)["handed"] == [1]


def test_a_save_with_every_person_handed_to_a_bot_still_opens(server, saves: Path) -> None:
    app, client = server
    gid, _ = table(app, client)
    hand(app, client, gid, 0, "greedy")
    hand(app, client, gid, 1, "greedy")
    path = app.state.server.store.get(gid).path
    assert play_of(path)["handed"] == [0, 1]
    forget(app, client, gid)
    r = open_save(app, client, path.name)
    assert r.status_code == 201, r.text
    assert sorted(s["seat"] for s in r.json()["seats"]) == [0, 1]


def test_an_old_save_without_the_field_opens_as_it_did(server, saves: Path) -> None:
    app, client = server
    name, path = handed_save(app, client, saves)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["meta"]["play"]["handed"]  # a save written before meta.play.handed
    path.write_text(json.dumps(data), encoding="utf-8")
    assert GameSession.resume(path).handed == []
    r = open_save(app, client, name)
    assert r.status_code == 201, r.text
    assert [s["seat"] for s in r.json()["seats"]] == [0]  # seat 1 is a bot's seat, as it was saved


@pytest.mark.parametrize("value,words", [
    ("1", "handed must list seats from 0 to 2"),
    ([3], "handed must list seats from 0 to 2"),
    ([True], "handed must list seats from 0 to 2"),
    ([1, 1], "handed lists a seat more than once"),
    ([0], "handed lists seat 0, which no bot plays in the save's seats"),
])
def test_a_corrupt_handed_field_is_refused_in_one_line(server, saves: Path, value, words) -> None:
    app, client = server
    name, path = handed_save(app, client, saves)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["meta"]["play"]["handed"] = value
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GameError, match=f"meta.play: {words}"):
        GameSession.resume(path)
    r = open_save(app, client, name)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert "\n" not in r.json()["error"]
    r = CliRunner().invoke(cli, ["play", "--resume", str(path)], input="q\n", env={"NO_COLOR": "1"})
    assert r.exit_code == 1 and words in r.output and len(r.output.strip().splitlines()) == 1


def test_a_rematch_moves_a_handed_seat_on_with_its_person(server, saves: Path) -> None:
    app, client = server
    gid, (k0, k1) = table(app, client, variant=QUICK, seed=5)
    hand(app, client, gid, 1, "heuristic")
    play_out(client, gid, [k0])  # the bot plays Bob's seat to the end
    r = client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k0))
    assert r.status_code == 200, r.text  # a handed seat needs no answer: the next match starts
    game = app.state.server.store.get(gid)
    play = play_of(game.path)
    assert play["series"]["match"] == 2
    assert play["seats"] == ["greedy", "human", "heuristic"] and play["handed"] == [2]
    assert view(client, gid, k1)["you"] == 2 and view(client, gid, k1)["social"]["handed"] == "heuristic"
    # the second match's save, opened later, gives Bob's seat 2 its link
    forget(app, client, gid)
    r = open_save(app, client, game.path.name)
    assert r.status_code == 201, r.text
    keys = {s["seat"]: s["key"] for s in r.json()["seats"]}
    assert sorted(keys) == [1, 2]
    assert view(client, r.json()["id"], keys[2])["social"]["handed"] == "heuristic"


def test_bones_play_resume_gives_a_handed_seat_back_to_the_terminal(server, saves: Path) -> None:
    app, client = server
    _, path = handed_save(app, client, saves, bot="greedy")
    r = CliRunner().invoke(cli, ["play", "--resume", str(path)], input="q\n",
                           env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "seat 1 was handed to the bot greedy in bones serve: it is played at this keyboard again" \
        in r.output
    assert "seats: seat 0 human, seat 1 human, seat 2 greedy" in r.output
    play = play_of(path)  # saved as the terminal plays it: Bob's seat is a human seat again
    assert play["seats"] == ["human", "human", "greedy"] and "handed" not in play


def test_a_deleted_games_bots_stop_and_leave_its_save_alone(saves: Path) -> None:
    # the save of a deleted game may be opened again as a new game: the old
    # game's bots must not go on writing it (nor hold its lock meanwhile)
    app, client = make(saves)
    with client:
        app.state.server.config.pace = 0.02
        gid, _ = table(app, client)
        hand(app, client, gid, 0, "greedy")
        hand(app, client, gid, 1, "greedy")  # bots in every seat: the game plays itself
        path = app.state.server.store.get(gid).path
        end = time.monotonic() + 10
        while len(json.loads(path.read_text())["hands"][0]["moves"]) < 2 and time.monotonic() < end:
            time.sleep(0.01)
        forget(app, client, gid)
        assert not GameSession.resume(path).over, "the deleted game's bots played the match out"
        before = path.read_text()
        time.sleep(0.3)  # some fifteen bot moves at this pace, were the bots still playing
        assert path.read_text() == before
        r = open_save(app, client, path.name)
        assert r.status_code == 201, r.text


def test_a_game_handed_over_by_an_older_server_records_the_seat_at_its_next_save(saves: Path) -> None:
    app, client = make(saves, host_key="h" * 43)
    with client:
        gid, (k0, k1) = table(app, client)
        hand(app, client, gid, 1, "greedy")
        wait_turn(client, gid, k0)
    path = next(saves.glob("*.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["meta"]["play"]["handed"]  # the save as a server before meta.play.handed wrote it
    path.write_text(json.dumps(data), encoding="utf-8")
    app, client = make(saves, host_key="h" * 43)  # restarted: the index keeps seat 1's key
    with client:
        assert view(client, gid, k1)["social"]["handed"] == "greedy"
        move_when_my_turn(client, gid, k0)
        assert play_of(path)["handed"] == [1]


def test_a_save_opens_at_once_after_its_game_is_deleted_mid_move(saves: Path) -> None:
    # a bot thinking holds the save; deleting the game waits for its move,
    # so the save can be opened again straight away (not 423, "in use")
    app, client = make(saves)
    with client:
        gid, _ = table(app, client)
        hand(app, client, gid, 0, "search:seconds=0.4")
        hand(app, client, gid, 1, "search:seconds=0.4")  # bots in every seat, slow ones
        game = app.state.server.store.get(gid)
        end = time.monotonic() + 10
        while not game.busy:  # a bot is thinking
            assert time.monotonic() < end, "no bot moved"
            time.sleep(0.005)
        r = client.request("DELETE", f"/api/games/{gid}", json={}, headers=host_headers(app))
        assert r.status_code == 200, r.text
        r = open_save(app, client, game.path.name)
        assert r.status_code == 201, r.text


def wait_over(client, gid: str, key: str, timeout: float = 60.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = view(client, gid, key)
        if v["over"]:
            return v
        time.sleep(0.02)
    raise AssertionError("the bots never finished the match")


def test_a_rematch_starts_when_every_person_is_handed_to_a_bot(server, saves: Path) -> None:
    # issue 32: every accept got 409 ("your seat is a bot's now"), and the series stalled
    app, client = server
    gid, (k0, k1) = table(app, client, variant=QUICK, seed=5)
    hand(app, client, gid, 0, "greedy")
    hand(app, client, gid, 1, "greedy")
    wait_over(client, gid, k0)
    r = client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k1))
    assert r.status_code == 200, r.text
    assert r.json()["social"]["series"]["match"] == 2 and r.json()["you"] == 2
    assert play_of(app.state.server.store.get(gid).path)["handed"] == [1, 2]


def test_handing_over_the_last_person_who_had_not_answered_starts_the_rematch(server, saves: Path) -> None:
    # issue 32: seat 0 asked, then the host handed seat 1 to a bot: nobody left to answer, no rematch
    app, client = server
    gid, (k0, k1) = table(app, client, variant=QUICK, seed=5)
    play_out(client, gid, [k0, k1])
    r = client.post(f"/api/games/{gid}/rematch", json={"accept": True}, headers=seat_headers(k0))
    assert r.status_code == 200 and r.json()["social"]["series"]["match"] == 1
    hand(app, client, gid, 1, "heuristic")
    now = view(client, gid, k0)
    assert now["social"]["series"]["match"] == 2 and not now["over"] and now["you"] == 1
    assert view(client, gid, k1)["social"]["handed"] == "heuristic"  # still the bot's, a seat on


def test_a_long_poll_on_a_deleted_game_answers_at_once_that_it_is_gone(server) -> None:
    import threading

    app, client = server
    gid, (k0, k1) = table(app, client)
    end = time.monotonic() + 20
    while time.monotonic() < end:  # until the game waits for a person (its version then stays)
        views = [view(client, gid, k) for k in (k0, k1)]
        if any(x["your_turn"] for x in views):
            break
        time.sleep(0.02)
    version = views[0]["version"]
    answers: list = []

    def poll() -> None:
        started = time.monotonic()
        r = client.get(f"/api/games/{gid}?wait={version}", headers=seat_headers(k0))
        answers.append((r, time.monotonic() - started))

    waiting = threading.Thread(target=poll)
    waiting.start()
    time.sleep(0.5)  # the poll is waiting (the game waits for a person)
    assert not answers
    forget(app, client, gid)
    waiting.join(15)
    (r, took), = answers
    assert r.status_code == 404 and r.json()["error"] == f"game {gid} was deleted by the host (its save stays)"
    assert took < 10, took  # not the long poll's 20 s
