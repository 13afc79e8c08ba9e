"""The docs build fails on any warning: a copy of the site with planted mistakes does not build.

The copy is small (the real ``mkdocs.yml`` with a nav of two pages), so the build is quick;
exactly the three planted warnings abort it, so the rest of the copy builds cleanly.

``mkdocs.yml`` sets ``strict: true`` and turns a link to a missing anchor into a warning,
so a plain ``mkdocs build`` (the README's command and CI's) aborts on a broken
cross-reference, a link to a missing page or a missing anchor. ``--quiet`` must not be
added to those commands: it drops the warnings before strict mode counts them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")  # the docs dependency group
pytest.importorskip("mkdocstrings")

ROOT = Path(__file__).resolve().parents[1]
#: What the site's build reads besides the pages: the hooks and griffe extensions, and the
#: package's source (the API reference's handler loads it to resolve cross-references).
SITE_SOURCES = ("scripts", "src")
#: The two pages of the small copy: a home page, and the page the mistakes are planted in,
#: which also links correctly to the home page and to an anchor of its own.
PAGES = {
    "index.md": "# Home\n\nThe [planted page](planted.md).\n",
    "planted.md": (
        "# Planted\n\n## A real section\n\n"
        "Back [home](index.md) and to [this section](#a-real-section).\n"
    ),
}


def _with_nav_of(config: str, pages: dict[str, str]) -> str:
    """The site's own ``mkdocs.yml`` text with its ``nav`` replaced by one of ``pages``.

    Every other setting (strictness, validation, theme, hooks, plugins, extensions) is
    kept as written, so the build below is strict only if the real config makes it so.
    """
    lines = config.splitlines()
    start = lines.index("nav:")
    end = start + 1
    while end < len(lines) and (not lines[end] or lines[end].startswith((" ", "-"))):
        end += 1
    nav = ["nav:", *(f"  - {name}" for name in pages)]
    return "\n".join([*lines[:start], *nav, *lines[end:]]) + "\n"


def _copy_of_the_site(into: Path) -> Path:
    """A small copy of the site: the real config and sources, with a nav of two pages."""
    into.mkdir()
    for name in SITE_SOURCES:
        shutil.copytree(
            ROOT / name, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (into / "mkdocs.yml").write_text(_with_nav_of(config, PAGES), encoding="utf-8")
    (into / "docs").mkdir()
    for name, text in PAGES.items():
        (into / "docs" / name).write_text(text, encoding="utf-8")
    return into


def _build(site: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` with no ``--strict`` flag: the config alone must make it strict."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(out)],
        cwd=site,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_a_planted_warning_fails_the_build(tmp_path: Path) -> None:
    site = _copy_of_the_site(tmp_path / "copy")
    page = site / "docs" / "planted.md"
    planted = (
        "\n\nPlanted: [a name that is not there][yahtzee_rules.no_such_name],"
        " [a page that is not there](no-such-page.md) and"
        " [an anchor that is not there](#no-such-anchor).\n"
    )
    page.write_text(page.read_text(encoding="utf-8") + planted, encoding="utf-8")
    done = _build(site, tmp_path / "site")
    log = done.stdout + done.stderr
    assert done.returncode != 0, log
    assert "Aborted with 3 warnings in strict mode" in log, log
    assert "yahtzee_rules.no_such_name" in log
    assert "no-such-page.md" in log
    assert "#no-such-anchor" in log


def test_the_docs_commands_keep_their_warnings() -> None:
    # --quiet (-q) drops the warnings before strict mode counts them: no docs command uses it.
    for path in (ROOT / ".ci" / "run", ROOT / "README.md"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"\b(mkdocs|zensical) (build|serve)\b", line):
                assert not re.search(r"\s(--quiet|-q)\b", line.split("mkdocs", 1)[-1]), line
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^strict: true$", config, re.M)
    assert re.search(r"^  anchors: warn$", config, re.M)
