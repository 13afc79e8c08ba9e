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
    """The three files the script changes, copied from this checkout."""
    for name in FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    return tmp_path


def _read(root: Path, name: str) -> str:
    return (root / name).read_text(encoding="utf-8")


def test_the_release_sets_the_version_the_classifier_and_the_changelog_section(
    copy: Path,
) -> None:
    release = load_script("release")
    before = _read(copy, "CHANGELOG.md")
    unreleased = before.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    changed = release.prepare(copy, "1.0.0", DAY)
    assert len(changed) == 3
    project = tomllib.loads(_read(copy, "pyproject.toml"))["project"]
    assert project["version"] == "1.0.0"
    assert "Development Status :: 5 - Production/Stable" in project["classifiers"]
    assert not any("Beta" in classifier for classifier in project["classifiers"])
    assert '__version__ = "1.0.0"' in _read(copy, FILES[1])
    after = _read(copy, "CHANGELOG.md")
    assert after.count("## [Unreleased]") == 1
    # Unreleased is empty; its entries, unchanged, are under the new heading
    assert "## [Unreleased]\n\n## [1.0.0] - 2027-01-15" + unreleased in after
    assert after.replace("\n\n## [1.0.0] - 2027-01-15", "", 1) == before
    # the rest of pyproject is as it was
    original = _read(ROOT, "pyproject.toml")
    assert _read(copy, "pyproject.toml").count("\n") == original.count("\n")


@pytest.mark.parametrize(
    ("version", "message"),
    [("0.1.0", "not newer"), ("0.0.9", "not newer"), ("1.0", "not MAJOR.MINOR.PATCH")],
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
    assert release.main(["1.0.0", "--date", "2027-01-15", "--root", str(copy)]) == 0
    assert "1.0.0" in capsys.readouterr().out
    assert release.main(["1.0.1", "--root", str(copy)]) == 1  # nothing under Unreleased
    assert "nothing under ## [Unreleased]; nothing changed" in capsys.readouterr().err
    assert release.main(["1.0.0", "--root", str(copy)]) == 1
