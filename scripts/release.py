"""Prepare a release: the version in its two homes, the classifier, the changelog's section.

``python scripts/release.py 1.0.0`` (from the repository's root, or ``--root DIR``):

- sets ``version`` in ``pyproject.toml`` and ``__version__`` in
  ``src/yahtzee_rules/support/_version.py`` (``tests/test_artefacts.py`` checks that the
  two agree with the built wheel);
- from 1.0 on, sets the classifier ``Development Status :: 5 - Production/Stable``
  (the API policy's promises start there);
- moves the changelog's ``## [Unreleased]`` entries under a new ``## [VERSION] - DATE``
  heading (``--date``, today by default), leaving ``## [Unreleased]`` empty above it.

It changes nothing if any step cannot be done (the version is not newer than the current
one, the changelog has no Unreleased entries or already has the section), and prints
what it changed. Commit the result, build and check it with ``bash .ci/run``, then tag it.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path

PYPROJECT = "pyproject.toml"
VERSION_FILE = "src/yahtzee_rules/support/_version.py"
CHANGELOG = "CHANGELOG.md"
BETA = "Development Status :: 4 - Beta"
STABLE = "Development Status :: 5 - Production/Stable"
UNRELEASED = "## [Unreleased]"

_PYPROJECT_VERSION = re.compile(r'^version = "([^"]+)"$', re.M)
_SOURCE_VERSION = re.compile(r'^__version__ = "([^"]+)"$', re.M)
_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


class ReleaseError(Exception):
    """A release step that cannot be done; nothing was written."""


def _parse(version: str) -> tuple[int, int, int]:
    match = _VERSION.match(version)
    if match is None:
        raise ReleaseError(f"version {version[:40]!r}: not MAJOR.MINOR.PATCH")
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


def _one(pattern: re.Pattern[str], text: str, where: str) -> re.Match[str]:
    matches = list(pattern.finditer(text))
    if len(matches) != 1:
        raise ReleaseError(f"{where}: expected one version line, found {len(matches)}")
    return matches[0]


def prepare(root: Path, version: str, date: datetime.date) -> list[str]:
    """Make the release changes under ``root``; what was changed, one line each."""
    new = _parse(version)
    pyproject = (root / PYPROJECT).read_text(encoding="utf-8")
    source = (root / VERSION_FILE).read_text(encoding="utf-8")
    changelog = (root / CHANGELOG).read_text(encoding="utf-8")

    current = _one(_PYPROJECT_VERSION, pyproject, PYPROJECT)
    in_source = _one(_SOURCE_VERSION, source, VERSION_FILE)
    if current.group(1) != in_source.group(1):
        raise ReleaseError(
            f"{PYPROJECT} says {current.group(1)}, {VERSION_FILE} {in_source.group(1)}"
        )
    if new <= _parse(current.group(1)):
        raise ReleaseError(f"version {version}: not newer than {current.group(1)}")
    if f"## [{version}]" in changelog:
        raise ReleaseError(f"{CHANGELOG}: already has a section for {version}")
    start = changelog.find(UNRELEASED)
    if start < 0:
        raise ReleaseError(f"{CHANGELOG}: no {UNRELEASED} section")
    body_start = start + len(UNRELEASED)
    following = changelog.find("\n## [", body_start)
    body = changelog[body_start : following if following >= 0 else len(changelog)]
    if not body.strip():
        raise ReleaseError(f"{CHANGELOG}: nothing under {UNRELEASED}")

    changed = [f"{PYPROJECT}, {VERSION_FILE}: version {current.group(1)} -> {version}"]
    pyproject = _PYPROJECT_VERSION.sub(f'version = "{version}"', pyproject)
    source = _SOURCE_VERSION.sub(f'__version__ = "{version}"', source)
    if new[0] >= 1 and BETA in pyproject:
        pyproject = pyproject.replace(BETA, STABLE)
        changed.append(f"{PYPROJECT}: classifier {STABLE}")
    heading = f"## [{version}] - {date.isoformat()}"
    # the new heading goes right under Unreleased, which is left empty above it
    changelog = changelog[:body_start] + "\n\n" + heading + changelog[body_start:]
    changed.append(f"{CHANGELOG}: the Unreleased entries are now under {heading}")

    (root / PYPROJECT).write_text(pyproject, encoding="utf-8")
    (root / VERSION_FILE).write_text(source, encoding="utf-8")
    (root / CHANGELOG).write_text(changelog, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    """Prepare the release named on the command line; 0 if done, 1 if refused."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("version", help="the new version, MAJOR.MINOR.PATCH (e.g. 1.0.0)")
    parser.add_argument("--date", type=datetime.date.fromisoformat, default=None)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args(argv)
    try:
        changed = prepare(args.root, args.version, args.date or datetime.date.today())
    except ReleaseError as error:
        print(f"release.py: {error}; nothing changed", file=sys.stderr)
        return 1
    for line in changed:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
