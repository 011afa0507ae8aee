"""The table of a train layout in a real browser (issue 35): rows from the hub with their
markers, a train move played by dragging a tile onto its train and by tapping a tile
then a train, on a desktop and at a phone's width with 8 seats, and axe on the page."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

from .test_access_browser import _axe, serious  # noqa: E402
from .test_web_browser import TIMEOUT, view  # noqa: E402

MIN_PX = 44  # a drop target's least side (Apple's and Google's touch-target size)


def start(served, variant: str, players: int, seed: int) -> dict:
    return served.api("POST", "/api/games", {
        "variant": variant, "players": players, "seed": seed,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)},
        key=served.host_key)


def my_turn(page) -> dict:
    page.wait_for_function("() => { const v = window.bonesTable && window.bonesTable.view; "
                           "return v && (v.your_turn || v.over) && !window.bonesTable.sending; }",
                           timeout=TIMEOUT)
    # a round's end shows its account in a dialog: closed, as its button would
    page.evaluate("() => { for (const d of document.querySelectorAll('dialog[open]')) d.close(); }")
    return view(page)


def after(page, v: dict) -> None:
    """Waits for the table to move past ``v``; if it never does, the failure says
    what the page showed (its version, whether it is still sending, its status
    line), so a rare stall is diagnosed from the CI's log."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"() => window.bonesTable.view.version > {v['version']}",
                               timeout=TIMEOUT)
    except PlaywrightTimeout:
        seen = page.evaluate("""() => ({version: window.bonesTable.view.version,
            sending: window.bonesTable.sending, your_turn: window.bonesTable.view.your_turn,
            status: (document.querySelector('#status') || {}).innerText})""")
        raise AssertionError(f"the table stayed at version {v['version']} after a move: {seen}") from None


def check_rows(page) -> dict:
    """The rows on the page are the view's: every train by its target, its tiles, its
    marker and its open end; returns what was seen."""
    v = view(page)
    t = v["trains"]
    seen = {"marked": 0, "owes": 0}
    if t["hub"] is None:
        assert "places it to open the round" in page.inner_text("#board")
        return seen
    shown = page.eval_on_selector_all("#board .train-row", """rows => rows.map((r) => ({
        target: r.dataset.target, tiles: r.querySelectorAll('.train-tile').length,
        marker: !!r.querySelector('.marker'), text: r.innerText }))""")
    assert [r["target"] for r in shown] == [r["target"] for r in t["rows"]]
    for row, got in zip(t["rows"], shown):
        assert got["tiles"] == len(row["tiles"]), (row, got)
        assert got["marker"] == row["marked"], (row, got)
        if row["marked"]:
            assert "marker" in got["text"]
            seen["marked"] += 1
        if row["owes"]:
            assert f"double owes {row['owes']}" in got["text"]
            seen["owes"] += 1
        if row["open"] >= 0 and not page.query_selector(f'#board .train-row[data-target="{row["target"]}"] .target'):
            assert f"→ {row['open']}" in got["text"], (row, got)
    return seen


def drag_to_train(page, tile: str, arm: str) -> None:
    """Press on the tile, move until it is a drag (its trains light up), drop it on ``arm``."""
    box = page.locator(f'.hand-tile[data-tile="{tile}"]').bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0], start[1] - 20)
    page.wait_for_selector(f'#board .target[data-arm="{arm}"]')
    lit = page.eval_on_selector_all("#board .target", "els => els.map(e => e.dataset.arm)")
    t = page.locator(f'#board .target[data-arm="{arm}"]').bounding_box()
    end = (t["x"] + t["width"] / 2, t["y"] + t["height"] / 2)
    for k in range(1, 6):
        page.mouse.move(start[0] + (end[0] - start[0]) * k / 5, start[1] - 20 + (end[1] - start[1] + 20) * k / 5)
    page.mouse.up()
    assert arm in lit


def test_a_train_move_by_drag_and_the_markers_on_the_rows(page, served) -> None:
    game = start(served, "mexican-train", 3, 4)
    page.goto(game["seats"][0]["url"])
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    dragged = 0
    seen = {"marked": 0, "owes": 0}
    for _ in range(80):
        v = my_turn(page)
        if v["over"] or v["hand_number"] > 1:
            break
        for k, n in check_rows(page).items():
            seen[k] += n
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        if not plays:
            page.click("#draw" if any(m["kind"] == "draw" for m in v["legal"]) else "#pass")
        elif plays[0]["arm"] is None:  # the hub: a tap places it
            page.click(f'.hand-tile[data-tile="{plays[0]["tile"]}"]')
        else:
            m = plays[-1]
            drag_to_train(page, m["tile"], m["arm"])
            after(page, v)
            mine = [e for e in view(page)["events"] if e["seat"] == 0 and e["kind"] == "play"]
            assert mine[-1]["move"] == m["move"] or view(page)["hand_number"] > 1
            dragged += 1
            continue
        after(page, v)
        if seen["marked"] and dragged >= 3:
            break
    assert dragged >= 3 and seen["marked"], (dragged, seen)
    assert "marker" in page.inner_text("#board")
    # the live region speaks each play by its train, and no count (a train layout has none)
    live = page.eval_on_selector_all("#live p", "ps => ps.map((p) => p.textContent)")
    plays = [x for x in live if " plays " in x]
    assert plays and all(re.search(r" plays [a-z]+(–[a-z]+| [a-z]+)? on (T\d|M)\.$", x) for x in plays), plays
    assert not any("count" in x for x in live), live


def test_a_phone_taps_a_tile_then_a_train_with_8_seats(browser, served) -> None:
    game = start(served, "mexican-train", 8, 6)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True,
                              is_mobile=True, has_touch=True, device_scale_factor=2)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(game["seats"][0]["url"])
    pg.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    tapped = 0
    axed = False
    axe = _axe()
    for _ in range(80):
        v = my_turn(pg)
        if v["over"] or v["hand_number"] > 1:
            break
        check_rows(pg)
        if v["trains"]["hub"] is not None:
            assert len(v["seats"]) == 8 and len(v["trains"]["rows"]) == 9
            # nothing wider than the phone: the rows wrap
            assert pg.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        if not plays:
            pg.click("#draw" if any(m["kind"] == "draw" for m in v["legal"]) else "#pass")
            after(pg, v)
            continue
        tiles = [m["tile"] for m in plays]
        several = [t for t in tiles if tiles.count(t) > 1]
        tile = several[0] if several else plays[-1]["tile"]
        options = [m for m in plays if m["tile"] == tile]
        if len(options) == 1:
            pg.tap(f'.hand-tile[data-tile="{tile}"]')  # one place: the tap plays it
            after(pg, v)
            continue
        pg.tap(f'.hand-tile[data-tile="{tile}"]')
        pg.wait_for_selector("#board .target")
        boxes = pg.eval_on_selector_all("#board .target", """els => els.map((e) => {
            const r = e.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return { arm: e.dataset.arm, w: r.width, h: r.height, x: r.left, right: r.right,
                     hit: !!hit && hit.closest('.target') === e }; })""")
        assert sorted(b["arm"] for b in boxes) == sorted(m["arm"] for m in options)
        for b in boxes:
            assert b["w"] >= MIN_PX and b["h"] >= MIN_PX and b["x"] >= 0 and b["right"] <= 390, b
        if not axed:  # the accessibility checks of the other pages, on a train table with a tile chosen
            bad = serious(axe, pg)
            assert not bad, bad
            axed = True
        chosen = options[-1]
        pg.locator(f'#board .target[data-arm="{chosen["arm"]}"]').scroll_into_view_if_needed()
        pg.tap(f'#board .target[data-arm="{chosen["arm"]}"]')
        after(pg, v)
        assert [e for e in view(pg)["events"] if e["seat"] == 0][-1]["move"] == chosen["move"] \
            or view(pg)["hand_number"] > 1
        tapped += 1
        if tapped >= 2:
            break
    assert tapped >= 1 and axed
    assert not errors, errors
    ctx.close()


def test_the_chicken_foot_rows_and_its_targets(page, served) -> None:
    game = start(served, "chicken-foot", 3, 8)
    page.goto(game["seats"][0]["url"])
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    seen = {"H": 0, "F": 0, "toe": 0}
    for _ in range(120):
        v = my_turn(page)
        if v["over"] or v["hand_number"] > 2:
            break
        check_rows(page)
        t = v["trains"]
        seen["toe"] += any(r["from"].startswith("A") for r in t["rows"])
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        if not plays:
            page.click("#draw" if any(m["kind"] == "draw" for m in v["legal"]) else "#pass")
            after(page, v)
            continue
        m = plays[0]
        if m["arm"] in ("H", "F"):
            # the hub's or the foot's target, drawn in its own row
            page.evaluate(f"() => {{ const t = window.bonesTable; t.selected = {m['tile']!r}; t.drawBoard(); }}")
            where = ".hub-row" if m["arm"] == "H" else ".train-row.binds"
            page.wait_for_selector(f'#board {where} .target[data-arm="{m["arm"]}"]')
            assert "H" not in m["arm"] or "takes" in page.inner_text("#board .hub-row")
            seen[m["arm"]] += 1
            page.click(f'#board .target[data-arm="{m["arm"]}"]')
        else:
            page.click(f'.hand-tile[data-tile="{m["tile"]}"]')
            if len([x for x in plays if x["tile"] == m["tile"]]) > 1:
                page.click(f'#board .target[data-move="{m["move"]}"]')
        after(page, v)
    assert seen["H"] and seen["toe"], seen


def test_the_seat_picker_offers_the_train_games_with_up_to_8_seats(page, served) -> None:
    page.goto(served.url)
    page.wait_for_selector("#start")
    labels = page.eval_on_selector_all("#variant option", "os => os.map((o) => o.textContent)")
    assert "mexican-train" in labels and "chicken-foot" in labels
    assert not [label for label in labels if "preview" in label]
    page.select_option("#variant", "mexican-train")
    page.wait_for_function("() => document.querySelector('#players').dataset.ready === 'mexican-train'")
    counts = page.eval_on_selector_all("#players option", "os => os.map((o) => o.value)")
    assert counts == [str(n) for n in range(2, 9)]
    page.select_option("#players", "8")
    assert page.locator(".seat-config").count() == 8
    page.select_option('.seat-config:nth-child(2) select.bot', "greedy")
    for k in range(3, 9):
        page.select_option(f'.seat-config:nth-child({k}) select.bot', "greedy")
    page.click("#start")
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    v = view(page)
    assert v["players"] == 8 and v["variant"]["name"] == "mexican-train"
    page.wait_for_selector("#board .train-row, #board .board-empty")


def test_the_round_end_dialog_draws_the_trains_as_they_ended(page, served) -> None:
    """The hand-end dialog of a train layout draws the round's rows from the hub (the
    view's ``hand_end.trains``, with the table's row rendering) beside the charges."""
    game = start(served, "mexican-train", 2, 3)
    page.goto(game["seats"][0]["url"])
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    for _ in range(150):
        page.wait_for_function("() => { const v = window.bonesTable && window.bonesTable.view; "
                               "return v && (v.your_turn || v.hand_end) && !window.bonesTable.sending; }",
                               timeout=TIMEOUT)
        v = view(page)
        if v["hand_end"]:
            break
        # the first legal move, played as the page plays a tapped one
        page.evaluate("() => window.bonesTable.play(window.bonesTable.view.legal[0])")
        after(page, v)
    v = view(page)
    end = v["hand_end"]
    assert end and end["trains"] and end["trains"]["hub"], "no round ended"
    page.wait_for_selector("#handend[open] #handend-trains .train-row", timeout=TIMEOUT)
    shown = page.eval_on_selector_all("#handend-trains .train-row", """rows => rows.map((r) => ({
        target: r.dataset.target, tiles: r.querySelectorAll('.train-tile').length,
        marker: !!r.querySelector('.marker') }))""")
    rows = end["trains"]["rows"]
    assert [r["target"] for r in shown] == [r["target"] for r in rows] == ["T0", "T1", "M"]
    assert [r["tiles"] for r in shown] == [len(r["tiles"]) for r in rows]
    assert sum(r["tiles"] for r in shown) > 0
    assert [r["marker"] for r in shown] == [r["marked"] for r in rows]
    assert page.locator("#handend .hub-row .hub-tile").count() == 1
    # no drop target in a finished round's picture, and the charges table is still there
    assert page.locator("#handend-trains .target").count() == 0
    assert page.locator("#handend table.settlement tbody tr").count() == 2
    assert serious(_axe(), page) == []


def test_the_replay_draws_the_best_moves_rows_on_a_train_game(page, served) -> None:
    """The replay of a train game draws its rows, and "show the best move" redraws them
    with the best move in place of the move played (the analysis's ``best_trains``)."""
    game = start(served, "mexican-train", 2, 4)
    page.goto(game["seats"][0]["url"])
    page.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    for _ in range(3):
        v = my_turn(page)
        page.evaluate("() => window.bonesTable.play(window.bonesTable.view.legal.at(-1))")
        after(page, v)
    page.goto(served.url)
    page.click('nav a[data-view="saves"]')
    page.wait_for_selector("#saves a")
    page.click("#saves a")
    page.wait_for_selector("#replay-analyse")
    page.click("#replay-analyse")
    page.wait_for_function("() => document.querySelector('#replay-analysis')"
                           ".innerText.includes('expected loss')", timeout=4 * TIMEOUT)
    differs = same = 0
    for _ in range(12):
        page.click("#replay-next")
        text = page.inner_text("#replay-analysis")
        if "analysis: seat 0 played" not in text:
            continue
        assert page.locator("#replay-board .train-row").count() >= 3  # T0, T1, M
        before = page.inner_html("#replay-board")
        page.check("#replay-best")
        if "the best move" in text.splitlines()[-1]:
            assert page.inner_html("#replay-board") == before
            same += 1
        else:
            assert "the board shows" in page.inner_text("#replay-analysis")
            assert page.inner_html("#replay-board") != before
            assert page.locator("#replay-board .train-row").count() >= 3
            differs += 1
        page.uncheck("#replay-best")
        assert page.inner_html("#replay-board") == before
    assert differs + same >= 2, (differs, same)
