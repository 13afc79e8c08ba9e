"""scripts/release.py: the version in both homes, the classifier and the changelog's section."""

from __future__ import annotations

import datetime
import shutil
import tomllib
from pathlib import Path

import pytest

from _scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
FILES = ("pyproject.toml", "src/yahtzee_rules/support/_version.py", "CHANGELOG.md")
DAY = datetime.date(2027, 1, 15)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The three files the script changes, copied from this checkout, with an entry under
    ``## [Unreleased]`` if it has none (as after a release)."""
    for name in FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    changelog = tmp_path / "CHANGELOG.md"
    text = changelog.read_text(encoding="utf-8")
    head, _, rest = text.partition("## [Unreleased]\n")
    if rest.lstrip("\n").startswith("## ["):  # nothing under Unreleased
        entry = "\n### Added\n\n- A feature released next.\n\n"
        changelog.write_text(head + "## [Unreleased]\n" + entry + rest.lstrip("\n"), "utf-8")
    return tmp_path


def _current() -> tuple[int, int, int]:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    major, minor, patch = (int(part) for part in version.split("."))
    return major, minor, patch


def _next() -> str:
    """A version newer than this checkout's: 1.0.0 from 0.x, else the next minor one."""
    major, minor, _ = _current()
    return "1.0.0" if major == 0 else f"{major}.{minor + 1}.0"


def _read(root: Path, name: str) -> str:
    return (root / name).read_text(encoding="utf-8")


def test_the_release_sets_the_version_the_classifier_and_the_changelog_section(
    copy: Path,
) -> None:
    release = load_script("release")
    before = _read(copy, "CHANGELOG.md")
    unreleased = before.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    version = _next()
    changed = release.prepare(copy, version, DAY)
    assert len(changed) == (3 if _current()[0] == 0 else 2)  # the classifier, once
    project = tomllib.loads(_read(copy, "pyproject.toml"))["project"]
    assert project["version"] == version
    assert "Development Status :: 5 - Production/Stable" in project["classifiers"]
    assert not any("Beta" in classifier for classifier in project["classifiers"])
    assert f'__version__ = "{version}"' in _read(copy, FILES[1])
    after = _read(copy, "CHANGELOG.md")
    assert after.count("## [Unreleased]") == 1
    # Unreleased is empty; its entries, unchanged, are under the new heading
    assert f"## [Unreleased]\n\n## [{version}] - 2027-01-15" + unreleased in after
    assert after.replace(f"\n\n## [{version}] - 2027-01-15", "", 1) == before
    # the rest of pyproject is as it was
    original = _read(ROOT, "pyproject.toml")
    assert _read(copy, "pyproject.toml").count("\n") == original.count("\n")


@pytest.mark.parametrize(
    ("version", "message"),
    [
        (".".join(map(str, _current())), "not newer"),
        ("0.0.9", "not newer"),
        ("1.0", "not MAJOR.MINOR.PATCH"),
    ],
)
def test_a_release_that_cannot_be_made_changes_nothing(
    copy: Path, version: str, message: str
) -> None:
    release = load_script("release")
    before = {name: _read(copy, name) for name in FILES}
    with pytest.raises(release.ReleaseError, match=message):
        release.prepare(copy, version, DAY)
    assert {name: _read(copy, name) for name in FILES} == before


def test_a_second_run_is_refused(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = load_script("release")
    version = _next()
    major, minor, _ = (int(part) for part in version.split("."))
    assert release.main([version, "--date", "2027-01-15", "--root", str(copy)]) == 0
    assert version in capsys.readouterr().out
    patch = f"{major}.{minor}.1"
    assert release.main([patch, "--root", str(copy)]) == 1  # nothing under Unreleased
    assert "nothing under ## [Unreleased]; nothing changed" in capsys.readouterr().err
    assert release.main([version, "--root", str(copy)]) == 1
