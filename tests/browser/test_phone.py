"""The table on a phone: drop targets a finger can hit, and nothing covering the moves.

Positions come from seeded games of several built-in variants played through the
API (every seat a person, the moves chosen by a seeded random policy); one phone
page shows each position as the seat to move sees it, chooses each tile that fits,
and the test reads the bounding box of every drop target the page draws.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

MIN_PX = 44  # a drop target's least side, in CSS pixels (Apple's and Google's touch-target size)
TIMEOUT = 30_000

# (variant, players, seed, hands to play): spinners' four arms (sniff, all-fives,
# muggins), and long lines that turn at the phone's edge (block-2p, bergen: 2 players
# and a draw until playable)
GAMES = [
    ("sniff", 2, 11, 2),
    ("all-fives", 3, 12, 1),
    ("block-2p", 2, 13, 2),
    ("bergen", 2, 14, 1),
    ("muggins", 4, 15, 1),
]

# Per position: every tile that fits, chosen in turn through the page's own Table
# (its drop targets are the ones a person sees), then every open end at once through
# drawBoard (the spinner's four ends together); the boxes of all of them.
MEASURE = """async (v) => {
  const t = window.bonesTable;
  t.render(v);
  for (const d of document.querySelectorAll('dialog[open]')) d.close();  // a hand's end
  const board = document.querySelector('#board');
  board.scrollIntoView({ block: 'center' });
  const box = (e) => { const r = e.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height }; };
  const read = () => [...board.querySelectorAll('.target')].map((g) => {
    const r = g.querySelector('rect').getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { arm: g.dataset.arm, move: g.dataset.move, ...box(g.querySelector('rect')),
             hit: !!hit && hit.closest('.target') === g, over: hit ? hit.outerHTML.slice(0, 80) : null };
  });
  const tiles = [...new Set(v.legal.filter((m) => m.arm).map((m) => m.tile))];
  const chosen = [];
  for (const tile of tiles) {
    t.selected = tile;
    t.drawBoard();
    chosen.push({ tile, targets: read(), moves: v.legal.filter((m) => m.tile === tile && m.arm).length });
  }
  t.selected = null;
  const { drawBoard } = await import('/static/js/board.js');
  const all = v.ends.map((e) => ({ arm: e.arm, move: `all@${e.arm}`, tile: 'x' }));
  drawBoard(board, v.layout, { targets: all });
  const every = read();
  const armLen = Math.max(0, ...v.layout.arms ? v.layout.arms.map((a) => a.tiles.length) : [0]);
  t.drawBoard();
  return { chosen, every, ends: v.ends.length, armLen, board: box(board),
           page: { w: document.documentElement.clientWidth, h: document.documentElement.scrollHeight } };
}"""


def positions(served, variant: str, players: int, seed: int, hands: int, rng: random.Random) -> list[dict[str, Any]]:
    """The views of the seat to move at every turn with a play on an open end."""
    game = served.api("POST", "/api/games", {"variant": variant, "players": players, "seed": seed,
                                             "seats": [{"kind": "human"}] * players},
                      key=served.host_key)
    keys = {s["seat"]: s["key"] for s in game["seats"]}
    out: list[dict[str, Any]] = []
    v = served.api("GET", f"/api/games/{game['id']}", key=keys[0])
    for _ in range(400):
        if v["over"] or len(v["history"]) >= hands:
            break
        v = served.api("GET", f"/api/games/{game['id']}", key=keys[v["turn"]])
        plays = [m for m in v["legal"] if m["kind"] == "play"]
        if any(m.get("arm") for m in plays):
            out.append(v)
        m = rng.choice(plays) if plays else v["legal"][0]
        body: dict[str, Any] = {"move": m["move"], "version": v["version"]}
        if v.get("muggins") and m["kind"] == "play":
            body["claim"] = 0
        v = served.api("POST", f"/api/games/{game['id']}/moves", body, key=keys[v["turn"]])
    return out


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def check_targets(targets: list[dict[str, Any]], m: dict[str, Any], where: str) -> None:
    board, page = m["board"], m["page"]
    for t in targets:
        assert t["w"] >= MIN_PX - 0.01 and t["h"] >= MIN_PX - 0.01, (where, t)
        # inside the board (which clips), the page's width, and reachable by scrolling
        assert board["x"] - 0.5 <= t["x"] and t["x"] + t["w"] <= board["x"] + board["w"] + 0.5, (where, t, board)
        assert board["y"] - 0.5 <= t["y"] and t["y"] + t["h"] <= board["y"] + board["h"] + 0.5, (where, t, board)
        assert 0 <= t["x"] and t["x"] + t["w"] <= page["w"] + 0.5, (where, t, page)
        assert t["hit"], (where, "another element covers the target's centre", t)
    for i, a in enumerate(targets):
        for b in targets[i + 1:]:
            if a["arm"] != b["arm"]:
                assert overlap(a, b) == 0, (where, a, b)


def phone_page(browser, served, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True,
                              is_mobile=True, has_touch=True, device_scale_factor=2)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    game = served.api("POST", "/api/games", {"variant": "sniff", "seed": 1,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]},
                      key=served.host_key)
    pg.goto(game["seats"][0]["url"])
    pg.wait_for_selector(".hand-tile", timeout=TIMEOUT)
    pg.evaluate("() => window.bonesTable.stop()")  # the test shows the positions itself
    return ctx, pg, errors


def run_positions(pg, views: list[dict[str, Any]], label: str) -> dict[str, int]:
    seen = {"positions": 0, "targets": 0, "four_ends": 0, "long_arms": 0, "several": 0}
    for n, v in enumerate(views):
        m = pg.evaluate(MEASURE, v)
        where = f"{label} position {n} ({v['variant']['name']}, hand {v['hand_number']}, version {v['version']})"
        for c in m["chosen"]:
            # one target per legal move on an end (a tile on a double's both sides is one end each)
            assert len(c["targets"]) == c["moves"], (where, c)
            check_targets(c["targets"], m, f"{where}, {c['tile']}")
            seen["targets"] += len(c["targets"])
            seen["several"] += len({t["arm"] for t in c["targets"]}) > 1
        assert len(m["every"]) == m["ends"], (where, m["every"])
        check_targets(m["every"], m, f"{where}, every end")
        seen["positions"] += 1
        seen["four_ends"] += m["ends"] >= 4
        seen["long_arms"] += m["armLen"] >= 5
    return seen


@pytest.fixture(scope="module")
def views(served_module):
    rng = random.Random(2026)
    return [v for g in GAMES for v in positions(served_module, *g, rng=rng)]


@pytest.fixture(scope="module")
def served_module(tmp_path_factory):
    from .serving import Served, free_port

    s = Served(tmp_path_factory.mktemp("phone") / "saves", free_port())
    s.start()
    yield s
    s.stop()


def test_drop_targets_on_a_390_by_844_phone(browser, served_module, views) -> None:
    ctx, pg, errors = phone_page(browser, served_module, 390, 844)
    try:
        seen = run_positions(pg, views, "390x844")
    finally:
        ctx.close()
    assert not errors, errors
    assert seen["positions"] >= 50, seen
    assert seen["four_ends"] >= 5, seen   # a spinner with its four arms open
    assert seen["long_arms"] >= 5, seen   # lines that turn at the edge
    assert seen["several"] >= 10, seen    # tiles that fit more than one end


def test_drop_targets_on_a_360_by_740_phone(browser, served_module, views) -> None:
    ctx, pg, errors = phone_page(browser, served_module, 360, 740)
    try:
        chosen = views[::4]
        seen = run_positions(pg, chosen, "360x740")
    finally:
        ctx.close()
    assert not errors, errors
    assert seen["positions"] >= 12 and seen["four_ends"] >= 1, seen


# The table's other parts on a phone: read in the page after the view is shown.
PARTS = """(v) => {
  const t = window.bonesTable;
  sessionStorage.clear();
  t.shownEnd = null;
  t.firstView = false;
  t.render(v);
  const rect = (e) => { const r = e.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height }; };
  const out = { page: document.documentElement.scrollWidth, viewport: innerWidth };
  const dlg = document.querySelector('#handend');
  if (dlg.open) {
    const table = dlg.querySelector('table.settlement');
    out.dialog = rect(dlg);
    out.table = { ...rect(table), client: table.clientWidth, scroll: table.scrollWidth,
                  overflow: getComputedStyle(table).overflowX };
    dlg.close();
  }
  // the log: its markers ("10.", "100.") need the list's left padding
  const ol = document.querySelector('#log');
  const probe = document.createElement('span');
  probe.style.font = getComputedStyle(ol).font;
  probe.style.fontVariantNumeric = getComputedStyle(ol).fontVariantNumeric;
  probe.style.whiteSpace = 'pre';
  document.body.append(probe);
  const widths = {};
  for (const n of [9, 10, 99, 100, v.events.length]) { probe.textContent = `${n}. `; widths[n] = probe.getBoundingClientRect().width; }
  probe.remove();
  out.log = { items: ol.children.length, padding: parseFloat(getComputedStyle(ol).paddingLeft), widths };
  // a toast while a tile with several ends is chosen: it covers no button of the table
  const several = v.legal.filter((m) => m.arm).map((m) => m.tile)
    .find((x, i, all) => all.indexOf(x) !== i);
  if (several) { t.selected = several; t.drawBoard(); t.drawHand(); }
  t.announce('Seat 1 plays 6-4@E: count 10 — scores 10! · Seat 2 plays 4-1@W: count 15 — scores 15!');
  const toast = document.querySelector('.toast');
  // wherever the page is scrolled: its top, the hand at the screen's bottom, its end
  out.scrolls = [];
  for (const at of ['top', 'hand', 'end']) {
    if (at === 'top') scrollTo(0, 0);
    else if (at === 'hand') document.querySelector('#actions').scrollIntoView({ block: 'end' });
    else scrollTo(0, document.documentElement.scrollHeight);
    out.scrolls.push({ at, toast: rect(toast),
      buttons: [...document.querySelectorAll('#game button, #game .target')].map((b) =>
        ({ what: b.id || b.dataset.move || b.dataset.tile || b.className, ...rect(b) })) });
  }
  out.several = several || null;
  toast.remove();
  return out;
}"""


def boxes_meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_the_phone_table_toast_settlement_log_and_empty_caption(browser, served_module, views, size) -> None:
    ctx, pg, errors = phone_page(browser, served_module, *size)
    try:
        # the empty table's caption: whole, inside the board
        caption = pg.evaluate("""() => { const c = document.querySelector('#board .board-empty');
          const r = c.getBoundingClientRect(), b = c.parentElement.getBoundingClientRect();
          return { inside: r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom,
                   whole: c.scrollWidth <= c.clientWidth, text: c.textContent }; }""")
        assert caption["inside"] and caption["whole"] and "empty" in caption["text"], caption
        ended = [v for v in views if v["hand_end"]]
        long_logs = [v for v in views if len(v["events"]) >= 10]
        assert ended and long_logs
        checked = {"settlement": 0, "toast": 0}
        for v in ended[:3] + long_logs[-3:]:
            out = pg.evaluate(PARTS, v)
            assert out["page"] <= out["viewport"], out  # nothing widens the page
            if "dialog" in out:
                d, t = out["dialog"], out["table"]
                assert d["x"] >= 0 and d["x"] + d["w"] <= out["viewport"], out
                assert t["x"] >= d["x"] and t["x"] + t["w"] <= d["x"] + d["w"], out
                assert t["overflow"] in ("auto", "scroll"), out  # a wider table scrolls in its box
                checked["settlement"] += 1
            log = out["log"]
            assert log["items"] == len(v["events"])
            for n in (10, 99, 100, len(v["events"])):
                assert log["widths"][str(n)] <= log["padding"], (n, log)
            for seen in out["scrolls"]:
                for b in seen["buttons"]:
                    assert not boxes_meet(seen["toast"], b), (seen["at"], seen["toast"], b)
            checked["toast"] += bool(out["several"])
        assert checked["settlement"] >= 3 and checked["toast"] >= 1, checked
    finally:
        ctx.close()
    assert not errors, errors
