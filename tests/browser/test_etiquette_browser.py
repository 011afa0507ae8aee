"""The table's etiquette in Chromium (issue 33, section 3): resigning the match
and leaving the table, each confirmed and recorded in the save and the log with
the series updated; the host's Invite showing the seat links and QR codes
again; the bots offered by the server's one list, each mapped to its bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

from .test_web_browser import TIMEOUT, open_game, view, wait_my_turn  # noqa: E402


def save_json(served, name: str) -> dict:
    return json.loads((Path(served.saves) / name).read_text())


def test_resigning_asks_first_ends_the_match_and_is_recorded(page, served) -> None:
    open_game(page, served, seed=2)
    wait_my_turn(page)
    gid = page.evaluate("() => window.bonesTable.id")
    # the confirmation: Cancel changes nothing
    page.click("#resign")
    page.wait_for_selector("#confirm[open]")
    assert "Resign the match?" in page.inner_text("#confirm")
    page.click("#confirm-no")
    page.wait_for_selector("#confirm[open]", state="detached")
    assert not view(page)["over"]
    page.click("#resign")
    page.click("#confirm-yes")
    page.wait_for_function("() => window.bonesTable.view.over", timeout=TIMEOUT)
    v = view(page)
    assert v["result"] == "You resigned the match: Seat 1 (greedy) wins"
    assert "You resign the match" in page.inner_text("#log")
    assert "resigned the match" in page.inner_text("#live")
    # the series: the bot's side has won a match
    assert page.inner_text('.series-score[data-seat="1"] b') == "1"
    assert page.query_selector("#resign") is None  # nothing left to resign
    games = served.api("GET", "/api/games", key=served.host_key)["games"]
    play = save_json(served, next(g["save"] for g in games if g["id"] == gid))["meta"]["play"]
    assert play["resigned"]["seat"] == 0 and play["resigned"]["winner"] == 1


def test_leaving_the_table_hands_the_seat_to_a_bot_and_tells_the_table(browser, served) -> None:
    game = served.api("POST", "/api/games", {"variant": "sniff", "seed": 5,
                                             "seats": [{"kind": "human"}, {"kind": "human"},
                                                       {"kind": "bot", "bot": "greedy"}]},
                      key=served.host_key)
    pages = []
    for seat in game["seats"]:
        context = browser.new_context(viewport={"width": 800, "height": 800}, bypass_csp=True)
        pg = context.new_page()
        pg.goto(seat["url"])
        pg.wait_for_selector(".hand-tile", timeout=TIMEOUT)
        pages.append(pg)
    stay, go = pages
    go.click("#leave")
    go.wait_for_selector("#confirm[open]")
    assert "Leave the table?" in go.inner_text("#confirm")
    go.click("#confirm-yes")
    go.wait_for_selector("text=You left the table", timeout=TIMEOUT)
    assert "The Casual bot (heuristic) plays your seat" in go.inner_text("main")
    stay.wait_for_function("() => document.querySelector('#log').innerText.includes('leaves the table')",
                           timeout=TIMEOUT)
    assert "Seat 1 leaves the table; the Casual bot (heuristic) plays the seat" in stay.inner_text("#log")
    assert "Seat 1 left the table" in stay.inner_text("#live")
    assert view(stay)["seats"][1]["kind"] == "bot"
    play = save_json(served, game["save"])["meta"]["play"]
    assert play["left"][0]["seat"] == 1 and play["seats"][1] == "heuristic"
    for pg in pages:
        pg.context.close()


def test_the_hosts_invite_shows_the_seat_links_and_qr_codes_again(page, served) -> None:
    page.goto(served.url)
    page.wait_for_selector("#start")
    page.select_option("#players", "3")
    page.select_option('.seat-config:nth-child(2) select.kind', "human")
    page.click("#start")
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    first = page.eval_on_selector_all("#seat-links .seat-url", "els => els.map(e => e.value)")
    assert len(first) == 2
    gid = page.evaluate("() => window.bonesTable.id")
    # later, in a new tab of the host's browser: the card is gone, Invite shows the links
    again = page.context.new_page()
    again.goto(f"{served.base}/#play={gid}")
    again.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    assert again.query_selector("#seat-links") is None
    again.click("#invite")
    again.wait_for_selector("#invite-dialog[open]")
    shown = again.eval_on_selector_all("#invite-dialog .seat-url", "els => els.map(e => e.value)")
    assert shown == first
    qrs = again.eval_on_selector_all("#invite-dialog .qr", "els => els.map(e => e.innerHTML.slice(0, 4))")
    assert qrs == ["<svg", "<svg"]
    again.click("#invite-close")
    again.wait_for_selector("#invite-dialog[open]", state="detached")
    # a seat's page (no host key) has no Invite
    ctx = page.context.browser.new_context(bypass_csp=True)
    guest = ctx.new_page()
    guest.goto(first[1])
    guest.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    assert guest.query_selector("#invite, #presence-invite") is None
    # the host in another browser (its links are not kept there): a new link for seat 1
    other = page.context.browser.new_context(bypass_csp=True)
    elsewhere = other.new_page()
    elsewhere.goto(served.url)
    elsewhere.wait_for_selector("#start")
    elsewhere.goto(f"{served.base}/#play={gid}")
    elsewhere.click("#presence-invite")
    elsewhere.wait_for_selector("#presence-invite-dialog[open]")
    assert elsewhere.inner_text('#presence-invite-dialog .link[data-seat="1"]').count("keeps no link") == 1
    button = '#presence-invite-dialog .new-link[data-seat="1"]'
    elsewhere.click(button)
    assert "old link stops working" in elsewhere.inner_text(button)
    elsewhere.click(button)
    elsewhere.wait_for_selector('#presence-invite-dialog .link[data-seat="1"] .seat-url')
    fresh = elsewhere.input_value('#presence-invite-dialog .link[data-seat="1"] .seat-url')
    assert fresh != first[1] and f"#game={gid}&seat=1&key=" in fresh
    # the old link of seat 1 stops working; the new one plays it
    guest.reload()
    guest.wait_for_function("() => document.querySelector('#status') && "
                            "document.querySelector('#status').innerText.includes('not a seat')", timeout=TIMEOUT)
    new_guest = other.new_page()
    new_guest.goto(fresh)
    new_guest.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    ctx.close()
    other.close()
    again.close()


@pytest.mark.parametrize("level, bot", [("Novice", "random"), ("Beginner", "blunder"),
                                        ("Casual", "heuristic"), ("Expert", "search")])
def test_the_seat_picker_offers_the_bots_by_level_each_mapped_to_its_bot(page, served, level, bot) -> None:
    offered = served.api("GET", "/api/bots")["offered"]
    page.goto(served.url)
    page.wait_for_selector("#start")
    picker = '.seat-config:nth-child(2) select.bot'
    options = page.eval_on_selector_all(f'{picker} option',
                                        "els => els.map(e => [e.value, e.textContent, e.title])")
    assert options == [[o["bot"], f"{o['label']} ({o['detail']})", o["description"]] for o in offered]
    # the levels in a group of their own, weakest first, then the other bots
    groups = page.eval_on_selector_all(f"{picker} optgroup", """els => els.map(g =>
        [g.label, [...g.querySelectorAll('option')].map(o => o.textContent.split(' (')[0])])""")
    assert groups[0] == ["By level, weakest first", ["Novice", "Beginner", "Casual", "Expert"]]
    assert groups[1][0] == "Other bots" and "Sampler" in groups[1][1]
    default = next(o for o in offered if o["default"])
    assert page.input_value(picker) == default["bot"]
    # the level's name maps to its bot: chosen by its name, seated as that bot, described
    pick = next(o for o in offered if o["level"] == level)
    assert pick["bot"] == bot
    page.select_option(picker, label=f"{level} ({bot})")
    assert page.inner_text(f"{picker} ~ .bot-about") == pick["description"]
    page.fill("#seed", "1")
    page.click("#start")
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    seat = view(page)["seats"][1]
    assert seat["bot"] == bot and seat["level"] == level
    # and the table names the level beside the bot
    assert f"({bot}), {level}:" in page.inner_text("#seats")
