"""Playing feels direct, and you know it is your turn (issue 33, sections 1 and 2):
drag and drop by mouse, touch and pen, an illegal drop snapping back, tiles that
slide in unless the reader asked for less motion, the points of a scoring play
beside its tile, sound off by default and remembered, a dark theme, the tab's
title and icon, one vibration and a notification when the tab is hidden."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

from .test_web_browser import TIMEOUT, click_move, open_game, view, wait_my_turn  # noqa: E402

#: A fake Notification (permission asked only by the page's button) and a counted vibrate.
SPIES = """
window.__asked = 0;
class FakeNotification {
  constructor(title, options) { (window.__shown = window.__shown || []).push({ title, body: options.body }); }
  close() {}
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => { window.__asked += 1; FakeNotification.permission = "granted"; return "granted"; };
window.Notification = FakeNotification;
window.__vibrated = 0;
navigator.vibrate = () => { window.__vibrated += 1; return true; };
"""


def center(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page, start: tuple[float, float], end: tuple[float, float], check=None) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(start[0] + (end[0] - start[0]) * k / 8, start[1] + (end[1] - start[1]) * k / 8)
    if check:
        check()
    page.mouse.up()


def multi_end_turn(page, served, seed: int = 0):
    """Play by clicking until this seat holds a tile that fits two or more ends; its view."""
    for _ in range(40):
        v = wait_my_turn(page)
        ends = [m["tile"] for m in v["legal"] if m.get("arm")]
        twice = [t for t in ends if ends.count(t) > 1]
        if twice:
            return v, twice[0]
        click_move(page, v)
        page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
    pytest.skip("no tile fitting two ends came up")


def test_a_drag_plays_a_move_lighting_the_legal_ends_and_an_illegal_drop_does_not(page, served) -> None:
    open_game(page, served, seed=0)
    v = wait_my_turn(page)
    # the lead: dropped anywhere on the table
    tile = next(m["tile"] for m in v["legal"] if m["kind"] == "play")
    sel = f'.hand-tile[data-tile="{tile}"]'
    # an illegal drop (on the hand row, off the table) snaps back: nothing is played
    mouse_drag(page, center(page, sel), center(page, "#actions .pips"))
    page.wait_for_function("() => document.querySelector('#status').classList.contains('error')")
    assert "does not go there" in page.inner_text("#status")
    page.wait_for_selector(".drag-ghost", state="detached")  # the copy went back and is gone
    assert view(page)["version"] == v["version"] and tile in [t["name"] for t in view(page)["hand"]]
    mouse_drag(page, center(page, sel), center(page, "#board"))
    page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
    assert view(page)["events"][0]["move"].split("@")[0] in (tile, "-".join(reversed(tile.split("-"))))
    # a tile that fits several ends: every one is lit while it is dragged, the drop plays there
    v, tile = multi_end_turn(page, served)
    options = sorted(m["move"] for m in v["legal"] if m.get("tile") == tile)
    lit: list[str] = []
    target = options[-1]

    def lit_now() -> None:
        lit.extend(page.eval_on_selector_all("#board .target", "els => els.map(e => e.dataset.move)"))

    sel = f'.hand-tile[data-tile="{tile}"]'
    start = center(page, sel)
    mouse_drag(page, start, start, None)  # a press without a move is a click: the tile is chosen
    page.wait_for_selector("#board .target")
    page.keyboard.press("Escape")
    page.wait_for_selector("#board .target", state="detached")
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0], start[1] - 20)
    lit_now()
    end = center(page, f'#board .target[data-move="{target}"]')
    for k in range(1, 6):
        page.mouse.move(start[0] + (end[0] - start[0]) * k / 5, start[1] - 20 + (end[1] - start[1] + 20) * k / 5)
    page.mouse.up()
    assert sorted(lit) == options
    page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
    mine = [e for e in view(page)["events"] if e["seat"] == 0]
    assert mine[-1]["move"] == target or view(page)["hand_number"] > v["hand_number"]


def _cdp_touch_drag(page, start, end) -> None:
    cdp = page.context.new_cdp_session(page)
    point = lambda x, y: [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]  # noqa: E731
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point(*start)})
    for k in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": point(
            start[0] + (end[0] - start[0]) * k / 8, start[1] + (end[1] - start[1]) * k / 8)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _cdp_pen_drag(page, start, end) -> None:
    cdp = page.context.new_cdp_session(page)
    base = {"pointerType": "pen", "button": "left", "clickCount": 1}
    cdp.send("Input.dispatchMouseEvent", {**base, "type": "mousePressed", "x": start[0], "y": start[1], "buttons": 1})
    for k in range(1, 9):
        cdp.send("Input.dispatchMouseEvent", {**base, "type": "mouseMoved", "buttons": 1,
                                              "x": start[0] + (end[0] - start[0]) * k / 8,
                                              "y": start[1] + (end[1] - start[1]) * k / 8})
    cdp.send("Input.dispatchMouseEvent", {**base, "type": "mouseReleased", "x": end[0], "y": end[1], "buttons": 0})


@pytest.mark.parametrize("how", ["touch", "pen"])
def test_a_finger_or_a_pen_drags_a_tile_too(browser, served, how) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=how == "touch",
                                  is_mobile=how == "touch", bypass_csp=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    kinds: list[str] = []
    pg.expose_function("notePointer", lambda kind: kinds.append(kind))
    pg.add_init_script("document.addEventListener('pointerdown', (e) => window.notePointer(e.pointerType), true)")
    open_game(pg, served, seed=0)
    v = wait_my_turn(pg)
    tile = next(m["tile"] for m in v["legal"] if m["kind"] == "play")
    drag = _cdp_touch_drag if how == "touch" else _cdp_pen_drag
    # off the table first: nothing is played
    drag(pg, center(pg, f'.hand-tile[data-tile="{tile}"]'), center(pg, "#actions .pips"))
    pg.wait_for_function("() => document.querySelector('#status').classList.contains('error')")
    assert view(pg)["version"] == v["version"]
    drag(pg, center(pg, f'.hand-tile[data-tile="{tile}"]'), center(pg, "#board"))
    pg.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
    assert how in kinds
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_tile_slides_in_unless_less_motion_is_asked_for(page, served, motion) -> None:
    page.emulate_media(reduced_motion=motion)
    open_game(page, served, seed=0)
    v = wait_my_turn(page)
    page.evaluate("""() => { window.__slid = 0;
      new MutationObserver(() => { const t = document.querySelector('#board .tile.arrive');
        if (t && t.getAnimations().length) window.__slid += 1; })
        .observe(document.querySelector('#board'), { childList: true, subtree: true }); }""")
    click_move(page, v)
    page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
    page.wait_for_selector("#board .tile.arrive")
    slid = page.evaluate("() => window.__slid")
    assert (slid > 0) == (motion == "no-preference"), slid


def test_a_scoring_play_shows_its_points_beside_its_tile(page, served) -> None:
    open_game(page, served, seed=0)
    page.evaluate("""() => { window.__pops = [];
      new MutationObserver(() => { for (const t of document.querySelectorAll('#board .score-pop')) {
          const tile = document.querySelector('#board .tile.last rect.face').getBoundingClientRect();
          const box = t.getBoundingClientRect();
          window.__pops.push({ text: t.textContent, dx: Math.abs((box.x + box.width / 2) - (tile.x + tile.width / 2)),
                               dy: tile.y - (box.y + box.height), size: tile.height + tile.width }); } })
        .observe(document.querySelector('#board'), { childList: true, subtree: true }); }""")
    scored = []
    for _ in range(60):
        v = wait_my_turn(page)
        if v["history"] or v["over"]:
            break
        scored += [e for e in v["events"] if e["points"] and e["kind"] == "play" and e["seat"] != 0]
        click_move(page, v)
        page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
        scored += [e for e in view(page)["events"] if e["points"] and e["kind"] == "play"]
        if scored and page.evaluate("() => window.__pops.length"):
            break
    assert scored, "no scoring play came up"
    pops = page.evaluate("() => window.__pops")
    assert pops, "no points were shown by the tile"
    p = pops[0]
    assert p["text"] in {f"+{e['points']}" for e in scored}
    assert p["dx"] < p["size"] and -p["size"] < p["dy"] < p["size"]  # beside the tile that scored


def test_sound_is_off_by_default_one_switch_and_remembered(page, served) -> None:
    open_game(page, served, seed=0)
    wait_my_turn(page)
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    v = view(page)
    click_move(page, v)
    wait_my_turn(page)
    assert page.evaluate("() => window.bonesSignals.sounds") == []  # off: nothing sounded
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    assert page.get_attribute("#sound", "aria-pressed") == "true"  # remembered
    v = wait_my_turn(page)
    if not v["over"] and not v["history"]:
        click_move(page, v)
        page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}", timeout=TIMEOUT)
        page.wait_for_function("() => window.bonesTable.view.your_turn || window.bonesTable.view.history.length",
                               timeout=TIMEOUT)
        if view(page)["your_turn"]:
            page.wait_for_function("() => window.bonesSignals.sounds.length > 0")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_theme_follows_the_screens_colour_scheme(page, served, scheme) -> None:
    page.emulate_media(color_scheme=scheme)
    open_game(page, served, seed=0)
    lum = page.evaluate("""() => { const l = (c) => { const [r, g, b] = c.match(/\\d+/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
      return { page: l(getComputedStyle(document.documentElement).backgroundColor),
               card: l(getComputedStyle(document.querySelector('.social')).backgroundColor),
               text: l(getComputedStyle(document.body).color) }; }""")
    if scheme == "dark":
        assert lum["page"] < 0.2 and lum["card"] < 0.25 and lum["text"] > 0.7, lum
    else:
        assert lum["page"] > 0.8 and lum["text"] < 0.3, lum


def test_the_tab_says_when_it_is_your_turn_and_a_hidden_tab_notifies(browser, served) -> None:
    game = served.api("POST", "/api/games", {"variant": "sniff", "seed": 5,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]},
                      key=served.host_key)
    pages = []
    for seat in game["seats"]:
        context = browser.new_context(viewport={"width": 800, "height": 800}, bypass_csp=True)
        context.add_init_script(SPIES)
        pg = context.new_page()
        pg.goto(seat["url"])
        pg.wait_for_selector(".hand-tile", timeout=TIMEOUT)
        pages.append(pg)
    assert all(pg.evaluate("() => window.__asked") == 0 for pg in pages)  # never asked on load
    mover = next(i for i, pg in enumerate(pages) if view(pg)["your_turn"])
    other = pages[1 - mover]
    assert pages[mover].title() == "● Your turn — bones"
    assert "turn" in pages[mover].get_attribute('link[rel="icon"]', "href")
    assert other.title() == "bones: dominoes at the table"
    assert "turn" not in other.get_attribute('link[rel="icon"]', "href")
    # the other asks for notifications with its one button, then hides its tab
    other.click("#notify")
    other.wait_for_function("() => window.__asked === 1")
    other.wait_for_selector("#notify", state="detached")
    other.evaluate("() => Object.defineProperty(document, 'hidden', { value: true, configurable: true })")
    v = view(pages[mover])
    click_move(pages[mover], v)
    other.wait_for_function("() => window.bonesTable.view.your_turn", timeout=TIMEOUT)
    assert other.title() == "● Your turn — bones"
    pages[mover].wait_for_function("() => document.title === 'bones: dominoes at the table'")
    shown = other.evaluate("() => window.__shown || []")
    assert len(shown) == 1 and shown[0]["title"] == "Your turn — bones"
    # one vibration where the page was used (a click: the button above)
    assert other.evaluate("() => window.__vibrated") == 1
    # nothing in a notification names a tile: not the other seat's, not one's own
    hand = {t["name"] for t in served.api("GET", f"/api/games/{game['id']}",
                                          key=game["seats"][mover]["key"])["hand"]}
    text = json.dumps(shown)
    assert not any(t in text or "-".join(reversed(t.split("-"))) in text for t in hand)
    from .test_watch_browser import tiles_named

    assert not tiles_named(shown)
    for pg in pages:
        pg.context.close()
