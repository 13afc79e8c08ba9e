"""Regenerate the web table's screenshots in docs/images (phone and desktop width).

Serves the web table on a free local port, opens one fixed position (a three-player
game in round 10, the coach's advice shown) in Chromium through Playwright, and
saves ``docs/images/web-table-phone.png`` (360 px wide) and
``docs/images/web-table-desktop.png`` (1280 px wide)::

    .venv/bin/python scripts/web_screenshots.py

Needs the web extra, Playwright and an installed Chromium (Debian's ``chromium``,
or the path in ``YAHTZEE_RULES_CHROMIUM``).
"""

from __future__ import annotations

import random
import socket
import sys
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from yahtzee_rules import GameRecord, GreedyStrategy, play_turn
from yahtzee_rules.apps.web import create_app

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the Chromium the browser tests launch, launched alike

from _chromium import CHROMIUM_ARGS, find_chromium  # noqa: E402

DOCS_IMAGES = ROOT / "docs" / "images"
SIZES = {"phone": (360, 740), "desktop": (1280, 900)}


def position() -> str:
    """The link of the position shown: Ann to hold and reroll in round 10 of three players."""
    record = GameRecord.new(["Ann", "Bob", "Cy"])
    rng = random.Random(16)
    for _ in range(27):
        record = play_turn(record, GreedyStrategy(), rng)
    record = record.roll(outcome="33456")
    return f"/play/{record.share_code()}?seats=hgh&coach=1"


def main() -> int:
    chromium = find_chromium()
    if chromium is None:
        print(
            "no Chromium: apt-get install chromium, or set YAHTZEE_RULES_CHROMIUM", file=sys.stderr
        )
        return 1
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(rng=random.Random(0), table_for=lambda rules: None)  # the heuristic coach
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for name, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}{position()}")
                target = DOCS_IMAGES / f"web-table-{name}.png"
                page.screenshot(path=str(target), full_page=True)
                print(target)
                context.close()
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
