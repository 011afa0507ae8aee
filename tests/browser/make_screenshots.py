"""Make the screenshots in docs/ (run by hand: python tests/browser/make_screenshots.py).

It starts `bones serve` on a scratch save folder and drives Debian's chromium.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Served, chromium_path, free_port  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"


def main() -> None:
    from playwright.sync_api import sync_playwright

    served = Served(Path(tempfile.mkdtemp()) / "saves", free_port())
    served.start()
    print(f"bones serve ready in {served.ready_seconds:.2f} s")
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
            ctx = b.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
            pg = ctx.new_page()
            pg.goto(served.url)
            pg.wait_for_selector("#start")
            pg.select_option("#variant", "sniff")
            pg.fill("#seed", "26")
            pg.select_option('.seat-config:nth-child(2) select.bot', "greedy")
            pg.click("#start")
            pg.wait_for_selector(".hand-tile")
            for turn in range(7):
                pg.wait_for_function("() => window.bonesTable.view.your_turn || window.bonesTable.view.over")
                v = pg.evaluate("() => window.bonesTable.view")
                if v["history"]:
                    break
                ends = [m["tile"] for m in v["legal"] if m.get("arm")]
                if turn >= 3 and len(ends) > len(set(ends)):
                    break  # a tile that fits several ends: the pictures show its drop targets
                plays = [m for m in v["legal"] if m["kind"] == "play"]
                m = max(plays, key=lambda x: x.get("points", 0)) if plays else v["legal"][0]
                pg.evaluate("(m) => window.bonesTable.play(m)", m)
                time.sleep(0.6)
            pg.wait_for_function("() => window.bonesTable.view.your_turn")
            v = pg.evaluate("() => window.bonesTable.view")
            multi = [m["tile"] for m in v["legal"] if m.get("tile")]
            twice = [t for t in multi if multi.count(t) > 1]
            if twice:
                pg.click(f'.hand-tile[data-tile="{twice[0]}"]')
            time.sleep(0.3)
            pg.screenshot(path=str(DOCS / "serve-table.png"))
            phone = pg.context.new_page()  # the same browser: it holds the seat's key
            phone.set_viewport_size({"width": 390, "height": 844})
            phone.goto(pg.url)
            phone.wait_for_selector(".hand-tile")
            if twice:  # a tile on more than one end: the phone shows its drop targets
                phone.click(f'.hand-tile[data-tile="{twice[0]}"]')
            time.sleep(0.5)
            phone.screenshot(path=str(DOCS / "serve-phone.png"))
            # the same table in the dark, on a phone, its tile's ends lit as when it is dragged
            phone.emulate_media(color_scheme="dark")
            phone.reload()
            phone.wait_for_selector(".hand-tile")
            if twice:
                phone.click(f'.hand-tile[data-tile="{twice[0]}"]')
            time.sleep(0.5)
            phone.screenshot(path=str(DOCS / "serve-dark-phone.png"))
            phone.emulate_media(color_scheme="light")
            pg.goto(served.base + "/#house")
            pg.wait_for_selector("#house-text")
            pg.fill("#house-text", "name: my-house\nextends: all-fives\nsummary: six tiles each\n"
                                   "deal:\n  hand_size: seven\nmatch:\n  points: 150\n")
            pg.click("#check")
            pg.wait_for_selector(".problem")
            pg.screenshot(path=str(DOCS / "serve-house-rule.png"))
            pg.goto(served.base + "/#simulate=all-fives")
            pg.wait_for_selector("#sim-run")
            pg.select_option("#sim-compare", "sniff")
            pg.select_option("#sim-mode", "games")
            pg.fill("#sim-hands", "200")
            pg.fill("#sim-bots", "greedy,heuristic")
            pg.click("#sim-run")
            pg.wait_for_selector("svg.chart.difference", timeout=300_000)
            # the comparison's shared charts (the differences, the histograms on shared bins)
            pg.locator("#sim-report .charts.shared").screenshot(path=str(DOCS / "serve-simulation.png"))
            pg.set_viewport_size({"width": 390, "height": 844})
            time.sleep(0.3)
            pg.locator("#sim-report svg.chart.difference").screenshot(path=str(DOCS / "serve-compare-phone.png"))
            b.close()
    finally:
        served.stop()


if __name__ == "__main__":
    main()
