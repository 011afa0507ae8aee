"""End-to-end: two people on their own browsers and a bot at one table: names,
chat, presence, a seat handed to a bot and back, and a rematch on the same links;
a save with a seat handed to a bot resumed from the Saves page with a link for it."""

from __future__ import annotations

import time

import pytest

from .test_web_browser import TIMEOUT, click_move, view

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

#: All Fives to 5 points: a match of a hand or two, so the rematch comes soon.
QUICK = "name: quick-fives\nextends: all-fives\nmatch:\n  points: 5\n"


def settle(pg) -> None:
    """Close a hand-end table that is open (but not the one that ends the match)."""
    if pg.locator("#handend[open]").count() and not (view(pg) or {}).get("over"):
        pg.click("#next-hand")


def play_turn(pg) -> bool:
    """Play one move if it is this page's turn; True when it moved."""
    settle(pg)
    v = view(pg)
    if not v or not v["your_turn"] or v["over"] or pg.evaluate("() => window.bonesTable.sending"):
        return False
    click_move(pg, v)
    pg.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
    return True


def test_two_people_and_a_bot_name_chat_hand_over_and_rematch(page, browser, served) -> None:
    page.goto(served.url)  # the host's browser: the host key
    page.wait_for_selector("#start")
    game = served.api("POST", "/api/games", {
        "variant": QUICK, "players": 3, "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
        key=served.host_key)
    links = {s["seat"]: s["url"] for s in game["seats"]}
    other = browser.new_context(viewport={"width": 900, "height": 900})
    guest = other.new_page()
    errors: list[str] = []
    guest.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(links[0])
        guest.goto(links[1])
        for pg in (page, guest):
            pg.wait_for_selector("#name-input", timeout=TIMEOUT)

        # names: chosen on opening the link, shown to the other as text
        page.fill("#name-input", "Ana")
        page.click("#name-save")
        guest.fill("#name-input", "<b>Bo</b>")
        guest.click("#name-save")
        page.wait_for_function("() => document.querySelector('#seats').innerText.includes('<b>Bo</b>')",
                               timeout=TIMEOUT)
        assert page.locator("#seats b").count() == 0  # a name is never markup
        assert guest.inner_text("#my-name") == "<b>Bo</b>"
        guest.wait_for_function("() => document.querySelector('#seats').innerText.includes('Ana')",
                                timeout=TIMEOUT)
        assert guest.evaluate("() => localStorage.getItem('bones.name')") == "<b>Bo</b>"

        # chat: a typed message and a one-click reaction, each seen by the other
        page.fill("#chat-input", "hello <i>Bo</i>")
        page.click("#chat-send")
        guest.wait_for_function("() => document.querySelector('#chat-log').innerText.includes('hello <i>Bo</i>')",
                                timeout=TIMEOUT)
        assert guest.locator("#chat-log i").count() == 0
        guest.click('.reaction[data-text="good game"]')
        page.wait_for_function("() => document.querySelector('#chat-log').innerText.includes('<b>Bo</b>: good game')",
                               timeout=TIMEOUT)

        # presence: the host sees Bo connected
        row = '#presence tr[data-seat="1"]'
        page.wait_for_function(f"() => {{ const r = document.querySelector('{row}'); "
                               "return r && r.innerText.includes('<b>Bo</b>') && r.innerText.includes('connected'); }",
                               timeout=TIMEOUT)
        assert "a bot" in page.inner_text('#presence tr[data-seat="2"]')

        # the host hands Bo's seat to a bot: the game goes on without Bo
        page.select_option(f"{row} select.hand-bot", "greedy")
        page.click(f"{row} .hand-to-bot")
        page.wait_for_function(f"() => document.querySelector('{row}').innerText.includes('played by greedy')",
                               timeout=TIMEOUT)
        guest.wait_for_function("() => document.querySelector('#status').innerText.includes('handed your seat')",
                                timeout=TIMEOUT)
        start = view(page)["version"]
        end = time.monotonic() + 60
        while time.monotonic() < end:
            v = view(page)
            if v["over"] or (v["version"] > start + 2 and any(e["seat"] == 1 for e in v["events"])):
                break
            if not play_turn(page):
                time.sleep(0.05)
        v = view(page)
        assert v["over"] or any(e["seat"] == 1 for e in v["events"]), "the bot never played Bo's seat"
        # ... and back: Bo's link plays again
        page.click(f"{row} .hand-back")
        page.wait_for_function(f"() => !document.querySelector('{row}').innerText.includes('played by')",
                               timeout=TIMEOUT)
        guest.wait_for_function("() => !window.bonesTable.view.social.handed", timeout=TIMEOUT)

        # both play the match out
        end = time.monotonic() + 240
        while time.monotonic() < end and not (view(page)["over"] and view(guest)["over"]):
            if not (play_turn(page) or play_turn(guest)):
                time.sleep(0.05)
        assert view(page)["over"] and view(guest)["over"]
        first = view(page)
        assert first["social"]["series"]["match"] == 1

        # the rematch: asked by both, on the same links
        urls = (page.url, guest.url)
        for pg in (page, guest):
            pg.wait_for_selector("#handend[open] #rematch-now", timeout=TIMEOUT)
            pg.click("#rematch-now")
        for pg in (page, guest):
            pg.wait_for_function("() => { const v = window.bonesTable.view; "
                                 "return v.social.series.match === 2 && !v.over; }", timeout=TIMEOUT)
        assert (page.url, guest.url) == urls  # no new link
        second = view(page)
        assert second["you"] == 1 and view(guest)["you"] == 2  # everyone one seat on
        assert second["social"]["names"] == [None, "Ana", "<b>Bo</b>"]
        wins = second["social"]["series"]["wins"]
        assert sum(wins) == (1 if first["winner"] is not None and first["winner"] >= 0 else 0)
        assert "series, match 2" in page.inner_text("#series")
        assert "<b>Bo</b>: good game" in page.inner_text("#chat-log")  # the chat goes on
        # the Saves page lists both matches of the series, with the names
        page.goto(f"{served.base}/#saves")
        page.wait_for_selector("tr[data-series]", timeout=TIMEOUT)
        rows = page.locator("tr[data-series]")
        assert rows.count() == 2
        text = page.inner_text("#saves")
        assert "match 1" in text and "match 2" in text and "Ana, <b>Bo</b>" in text
        assert not errors, errors
    finally:
        other.close()


def test_a_save_with_a_handed_seat_resumes_with_a_link_for_it(page, served) -> None:
    page.goto(served.url)  # the host's browser
    page.wait_for_selector("#start")
    host = served.host_key
    game = served.api("POST", "/api/games", {
        "variant": "sniff", "players": 3, "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, key=host)
    gid, keys = game["id"], {s["seat"]: s["key"] for s in game["seats"]}
    served.api("POST", f"/api/games/{gid}/seats/0", {"bot": "greedy"}, key=host)
    end = time.monotonic() + 30
    while not served.api("GET", f"/api/games/{gid}", key=keys[1])["your_turn"]:  # the bots answer
        assert time.monotonic() < end, "the bots never answered"
        time.sleep(0.05)
    served.api("DELETE", f"/api/games/{gid}", {}, key=host)  # forgotten: its save stays
    page.goto(f"{served.base}/#saves")
    page.wait_for_selector("button.resume", timeout=TIMEOUT)
    # the Saves page says the person's seat is played by a bot for now
    assert "seat 0 handed to greedy" in page.inner_text("#saves td.names")
    page.click("button.resume")
    # the seat links: seat 0 is a person's again, played by the bot; this browser takes seat 1
    page.wait_for_selector('.link[data-seat="0"]', timeout=TIMEOUT)
    assert "handed to greedy" in page.inner_text('.link[data-seat="0"]')
    assert "handed" not in page.inner_text('.link[data-seat="1"]')
    page.wait_for_function("() => window.bonesTable.view && window.bonesTable.view.you === 1", timeout=TIMEOUT)
    page.wait_for_function("() => { const r = document.querySelector('#presence tr[data-seat=\"0\"]'); "
                           "return r && r.innerText.includes('played by greedy'); }", timeout=TIMEOUT)
