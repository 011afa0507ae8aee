"""Make docs/serve-friends.png, the table with names, chat and presence (run by hand:
python tests/browser/make_social_screenshot.py).  Two people on their own browser
contexts and a bot, as tests/browser/test_web_social_browser.py plays them."""

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
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
            host = b.new_context(viewport={"width": 1200, "height": 900}).new_page()
            guest = b.new_context(viewport={"width": 900, "height": 900}).new_page()
            host.goto(served.url)
            host.wait_for_selector("#start")
            game = served.api("POST", "/api/games", {
                "variant": "sniff", "players": 3, "seed": 26,
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]},
                key=served.host_key)
            links = {s["seat"]: s["url"] for s in game["seats"]}
            host.goto(links[0])
            guest.goto(links[1])
            for pg, name in ((host, "Ana"), (guest, "Bo")):
                pg.wait_for_selector("#name-input")
                pg.fill("#name-input", name)
                pg.click("#name-save")
                pg.wait_for_selector("#my-name")
            host.fill("#chat-input", "ready when you are")
            host.click("#chat-send")
            guest.wait_for_function("() => document.querySelector('#chat-log').innerText.includes('ready')")
            guest.click('.reaction[data-text="good game"]')
            host.wait_for_function("() => { const r = document.querySelector('#presence tr[data-seat=\"1\"]'); "
                                   "return r && r.innerText.includes('Bo') && r.innerText.includes('connected'); }")
            time.sleep(0.5)
            host.screenshot(path=str(DOCS / "serve-friends.png"), full_page=True)
            b.close()
    finally:
        served.stop()


if __name__ == "__main__":
    main()
