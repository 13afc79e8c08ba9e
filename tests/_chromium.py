"""The installed Chromium the browser tests and ``scripts/web_screenshots.py`` drive.

Both launch the same browser the same way: Debian's ``chromium`` (or the executable in
``YAHTZEE_RULES_CHROMIUM``), headless, with no sandbox, GPU or background networking.
"""

from __future__ import annotations

import os
import shutil

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: Why a browser test module is skipped where no Chromium is found.
NO_CHROMIUM = (
    "no Chromium to drive: install Debian's chromium (apt-get install chromium) or set "
    "YAHTZEE_RULES_CHROMIUM to a Chromium executable"
)


def find_chromium() -> str | None:
    """The Chromium executable to launch: ``YAHTZEE_RULES_CHROMIUM``, else ``chromium`` on the
    path, else ``None``."""
    return os.environ.get("YAHTZEE_RULES_CHROMIUM") or shutil.which("chromium")
