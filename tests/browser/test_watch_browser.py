"""A spectator's page in Chromium: the host creates a watch link on its page, a
spectator opens it in another browser and follows the game, receiving no tile
of the host's hand in anything the server answers it while a hand is in play."""

from __future__ import annotations

import json
import re
import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

from .test_web_browser import TIMEOUT, click_move, open_game, view, wait_my_turn  # noqa: E402

_NAME = re.compile(r"(?<![\d-])(\d+)-(\d+)(?![\d-])")


def tiles_named(data) -> set[str]:
    """Every tile an answer names (tile objects and tile names in any text), as 'high-low'."""
    found: set[str] = set()
    if isinstance(data, dict):
        if "a" in data and "b" in data and isinstance(data["a"], int):
            found.add(f"{max(data['a'], data['b'])}-{min(data['a'], data['b'])}")
        for v in data.values():
            found |= tiles_named(v)
    elif isinstance(data, list):
        for v in data:
            found |= tiles_named(v)
    elif isinstance(data, str):
        for a, b in _NAME.findall(data):
            found.add(f"{max(int(a), int(b))}-{min(int(a), int(b))}")
    return found


def test_a_spectator_follows_a_game_and_never_receives_a_seats_tiles(page, browser, served) -> None:
    open_game(page, served, seed=4)
    gid = page.evaluate("() => window.bonesTable.id")
    page.click("#new-watch-link")
    page.wait_for_selector(".watch-url", timeout=TIMEOUT)
    url = page.input_value(".watch-url")
    assert url.startswith(f"http://127.0.0.1:{served.port}/#watch={gid}&key=")
    assert page.inner_html(".watch-link .qr").startswith("<svg")

    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    watcher = context.new_page()
    errors: list[str] = []
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    responses = []
    watcher.on("response", lambda r: responses.append(r) if f"/api/games/{gid}" in r.url else None)
    watcher.goto(url)
    watcher.wait_for_selector("#watching", timeout=TIMEOUT)
    assert "key=" not in watcher.url  # the key leaves the address bar

    seen: dict[int, set[str]] = {}  # the host's hand at each version
    for _ in range(8):
        v = wait_my_turn(page)
        if v["over"] or v["history"]:
            break
        seen[v["version"]] = {t["name"] for t in v["hand"]}
        # the spectator's page shows the same table, without a hand or a move button
        watcher.wait_for_function(f"() => window.bonesTable.view && window.bonesTable.view.version >= {v['version']}",
                                  timeout=TIMEOUT)
        w = view(watcher)
        if w["version"] == v["version"]:
            assert watcher.inner_text("#count") == page.inner_text("#count")
            assert [s["tiles"] for s in w["seats"]] == [s["tiles"] for s in v["seats"]]
        assert watcher.query_selector_all(".hand-tile") == []
        assert watcher.query_selector_all("#draw, #pass, #takeback, .move-option") == []
        click_move(page, v)
        page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
    assert len(seen) >= 3
    log = watcher.inner_text("#log")
    assert "Seat 0 plays" in log or "Seat 0 draws" in log  # the host's moves, by seat, in the log
    answers = [{"status": r.status, "body": r.text()} for r in responses if r.status != 0]
    context.close()
    assert not errors, errors
    assert answers and all(a["status"] == 200 for a in answers), [a["status"] for a in answers]
    checked = 0
    for a in answers:
        data = json.loads(a["body"])
        assert data["spectator"] is True and data["hand"] == [] and data["legal"] == []
        assert all("drew" not in e for e in data["events"])
        if data["version"] in seen:
            public = {k: x for k, x in data.items() if k != "hand_end"}
            leaked = tiles_named(public) & seen[data["version"]]
            assert not leaked, f"the spectator received the host's tiles {sorted(leaked)}"
            checked += 1
    assert checked >= 2


#: All Fives to 5 points: a match of a hand or two.
QUICK = "name: quick-fives\nextends: all-fives\nmatch:\n  points: 5\n"
#: What only a seat can do; a spectator's page shows none of it (the server refuses each with 403).
SEAT_CONTROLS = ("#name-input, #name-save, #rename, #chat-input, #chat-send, .reaction, #rematch, "
                 "#rematch-now, #analyse-hand, #takeback, #draw, #pass, .hand-tile, "
                 "#resign, #leave, #hint, #invite, #notify, #confirm-yes, .target")


def test_a_spectators_page_shows_only_what_a_spectator_can_do(page, browser, served) -> None:
    page.goto(served.url)  # the host's browser: the host key
    page.wait_for_selector("#start")
    game = served.api("POST", "/api/games", {
        "variant": QUICK, "seed": 3, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
        key=served.host_key)
    gid, seat_key = game["id"], game["seats"][0]["key"]
    served.api("POST", f"/api/games/{gid}/chat", {"text": "hello watchers"}, key=seat_key)
    link = served.api("POST", f"/api/games/{gid}/watch", {}, key=served.host_key)
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    watcher = context.new_page()
    # this browser took a seat somewhere before: its name must not be sent as a spectator's
    watcher.add_init_script("localStorage.setItem('bones.name', 'Spy')")
    errors: list[str] = []
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    sent: list[tuple[str, str]] = []
    watcher.on("request", lambda r: sent.append((r.method, r.url)) if "/api/" in r.url else None)
    refused: list[int] = []
    watcher.on("response", lambda r: refused.append(r.status) if r.status >= 400 else None)
    try:
        watcher.goto(link["url"])
        watcher.wait_for_selector("#watching", timeout=TIMEOUT)
        watcher.wait_for_function("() => document.querySelector('#chat-log').innerText.includes('hello watchers')",
                                  timeout=TIMEOUT)
        assert watcher.query_selector_all(SEAT_CONTROLS) == []
        # the seat plays the match out; the spectator sees its end, with nothing to answer
        for _ in range(400):
            v = served.api("GET", f"/api/games/{gid}", key=seat_key)
            if v["over"]:
                break
            if v["your_turn"]:
                served.api("POST", f"/api/games/{gid}/moves",
                           {"move": v["legal"][0]["move"], "version": v["version"]}, key=seat_key)
            else:
                time.sleep(0.05)
        assert v["over"]
        watcher.wait_for_function("() => window.bonesTable.view && window.bonesTable.view.over", timeout=TIMEOUT)
        watcher.wait_for_selector("#handend[open]", timeout=TIMEOUT)
        assert "The match is over" in watcher.inner_text("#rematch-box")
        assert watcher.query_selector_all(SEAT_CONTROLS) == []
        assert watcher.query_selector_all("#next-hand") != []  # the hand-end table still closes
    finally:
        context.close()
    assert not errors, errors
    assert {m for m, _ in sent} == {"GET"}, sent  # a spectator's page never asks to change anything
    assert refused == [], refused
