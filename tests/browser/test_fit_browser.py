"""A phone that fits (issue 33, section 5): no page wider than a 360 or 390 px
screen, the replay's controls with drawn icons, a spinner's cross arms upright
in every arm, and a web app manifest with icons that makes the table installable."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

from .test_web_browser import TIMEOUT  # noqa: E402

WIDE_NAME = "Bartholomew-the-Great"  # a long name in the Saves list


def too_wide(page) -> list[str]:
    """The page's overflow, and any element reaching past the screen's right edge."""
    return page.evaluate("""() => {
      const w = document.documentElement.clientWidth, out = [];
      if (document.documentElement.scrollWidth > w) out.push(`page ${document.documentElement.scrollWidth} > ${w}`);
      for (const e of document.querySelectorAll('main *, header *')) {
        const r = e.getBoundingClientRect();
        if (r.width && r.right > w + 1 && getComputedStyle(e).position !== 'fixed') {
          let clipped = false;
          for (let p = e.parentElement; p; p = p.parentElement) {
            const o = getComputedStyle(p).overflowX;
            if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = p.getBoundingClientRect().right <= w + 1; break; }
          }
          if (!clipped) out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className} right ${Math.round(r.right)}`);
        }
      }
      return out.slice(0, 8);
    }""")


@pytest.mark.parametrize("width", [360, 390])
def test_no_page_is_wider_than_a_phone(browser, served, width) -> None:
    game = served.api("POST", "/api/games", {"variant": "sniff", "seed": 3,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]},
                      key=served.host_key)
    served.api("POST", f"/api/games/{game['id']}/name", {"name": WIDE_NAME}, key=game["seats"][0]["key"])
    watch = served.api("POST", f"/api/games/{game['id']}/watch", {}, key=served.host_key)
    ctx = browser.new_context(viewport={"width": width, "height": 800}, bypass_csp=True)
    pg = ctx.new_page()
    found = {}

    def check(name: str, ready: str) -> None:
        pg.wait_for_selector(ready, timeout=TIMEOUT)
        pg.wait_for_timeout(100)
        bad = too_wide(pg)
        if bad:
            found[name] = bad

    pg.goto(served.url)
    check("play", "#start")
    pg.goto(served.base + "/#rules")
    check("variants", ".variant-card")
    pg.goto(served.base + "/#rules=sniff")
    check("a variant's rules", "#rules-pre")
    pg.goto(served.base + "/#house")
    check("house rule", "#house-text")
    pg.fill("#house-text", "name: broken\nextends: all-fives\ndeal:\n  hand_size: seven\n")
    pg.click("#check")
    check("house rule with a problem", ".problem")
    pg.goto(served.base + "/#simulate")
    check("simulate", "#sim-run")
    pg.goto(served.base + "/#saves")
    check("saves", ".resume")
    pg.goto(served.base + f"/#replay={game['save']}")
    check("replay", "#replay-slider")
    pg.goto(game["seats"][0]["url"])
    check("table", ".hand-tile")
    pg.click("#invite") if pg.query_selector("#invite") else None
    pg.goto(watch["url"])
    check("spectator", "#watching")
    ctx.close()
    assert not found, found


def test_the_replay_controls_show_drawn_icons(page, served) -> None:
    game = served.api("POST", "/api/games", {"variant": "sniff", "seed": 3}, key=served.host_key)
    page.goto(served.url)
    page.wait_for_selector("#start")
    page.goto(served.base + f"/#replay={game['save']}")
    page.wait_for_selector("#replay-slider", timeout=TIMEOUT)
    for button in ("#replay-first", "#replay-prev", "#replay-next", "#replay-last"):
        icon = page.locator(f"{button} svg.icon path")
        box = icon.bounding_box()
        assert box and box["width"] >= 8 and box["height"] >= 8, button  # drawn, not a font's glyph
        assert page.get_attribute(button, "aria-label")
    assert "⏮" not in page.inner_text(".controls") and "⏭" not in page.inner_text(".controls")
    page.click("#replay-last")
    page.click("#replay-first")
    assert page.inner_text("#replay-info").startswith("hand 1 · move 0")


def test_a_spinners_cross_arms_are_upright_in_every_arm(page, served) -> None:
    """N2 above S2 across a horizontal arm (W or E), N2 left of S2 across a vertical one."""
    page.goto(served.url)
    page.wait_for_selector("#start")
    placed = page.evaluate("""async () => {
      const { computeLayout } = await import('/static/js/layout.js');
      const t = (near, far, extra = {}) => ({ near, far, double: near === far, cross: null, last: false, ...extra });
      const out = {};
      for (const [name, arm] of [['W', 0], ['E', 1], ['N', 2], ['S', 3]]) {
        // a non-spinner double lead is not needed: lead 6-6 spins (arms 0-3); a 5-5 spinner
        // in one arm opens its cross arms 4 (N2) and 5 (S2)
        const arms = [0, 1, 2, 3, 4, 5].map((k) => ({ arm: k, name: ['W', 'E', 'N', 'S', 'N2', 'S2'][k], open: 6, tiles: [] }));
        arms[arm].tiles = [t(6, 5), t(5, 5, { cross: [4, 5] })];
        arms[arm].open = 5;
        arms[4].open = 5; arms[5].open = 5;
        const layout = { lead: t(6, 6, { cross: [2, 3] }), arms };
        const { ends } = computeLayout(layout, { maxX: 20, maxY: 20 });
        out[name] = { n2: ends.N2, s2: ends.S2 };
      }
      return out;
    }""")
    for arm, ends in placed.items():
        n2, s2 = ends["n2"], ends["s2"]
        if arm in ("W", "E"):
            assert n2["y"] < s2["y"], (arm, n2, s2)
        else:
            assert n2["x"] < s2["x"], (arm, n2, s2)


def test_the_table_is_installable_with_a_manifest_and_icons(page, served) -> None:
    page.goto(served.url)
    page.wait_for_selector("#start")
    href = page.get_attribute('link[rel="manifest"]', "href")
    manifest = page.evaluate(f"async () => (await fetch('{href}')).json()")
    assert manifest["name"] and manifest["short_name"] == "bones" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        if icon["type"] != "image/png":
            continue
        got = page.evaluate("""async (src) => { const r = await fetch(src); const b = await r.blob();
            const img = await createImageBitmap(b); return [r.status, b.type, img.width, img.height]; }""", icon["src"])
        assert got[0] == 200 and got[1] == "image/png" and f"{got[2]}x{got[3]}" == icon["sizes"], got
        sizes.add(got[2])
    assert {192, 512} <= sizes
    # what Chromium itself says stands between the page and installing it (a test
    # browser's context is incognito, which is not the page's doing)
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
