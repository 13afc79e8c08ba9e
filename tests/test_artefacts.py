"""The built sdist and wheel: every file of the package in the wheel, and valid metadata.

CI builds both (``python -m build``: the sdist, then the wheel from the sdist) and
points ``YAHTZEE_RULES_DIST`` at the directory; without it these tests build their own
copy, when the ``build`` package is installed. A data file left out of the wheel (the JSON
schema, ``py.typed``, anything else in the package that is not Python) fails
:func:`test_the_wheel_ships_every_file_of_the_package`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest

from yahtzee_rules.support.l10n import DEFAULT_LOCALE, LOCALES

# Interpreter-independent and costly: CI runs it on 3.11 only (see pyproject.toml).
pytestmark = pytest.mark.main_interpreter

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "yahtzee_rules"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DIST_VARIABLE = "YAHTZEE_RULES_DIST"


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory holding the sdist and the wheel (CI's, or built here)."""
    given = os.environ.get(DIST_VARIABLE)
    if given:
        return Path(given)
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out


def _one(dist: Path, pattern: str) -> Path:
    (found,) = dist.glob(pattern)
    return found


COMPILED = {".so", ".pyd"}  # built (an editable install's, in the tree), never in git


def package_files(tree: Path) -> set[str]:
    """Every source file of the package in a source tree, as a wheel names it
    (``yahtzee_rules/...``): not the compiled kernel an editable install builds there."""
    return {
        path.relative_to(tree.parent).as_posix()
        for path in tree.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix != ".pyc"
        and path.suffix not in COMPILED
    }


def missing_from_wheel(wheel: Path, tree: Path) -> list[str]:
    """The files of the package's source tree that the wheel does not ship, sorted."""
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    return sorted(package_files(tree) - shipped)


def test_the_wheel_ships_every_file_of_the_package(dist: Path) -> None:
    wheel = _one(dist, "*.whl")
    assert missing_from_wheel(wheel, PACKAGE) == []
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    # the data files by name too, in case the tree above were ever empty
    assert {"yahtzee_rules/py.typed", "yahtzee_rules/schema/v1.schema.json"} <= names
    assert {
        f"yahtzee_rules/support/locales/{locale}/LC_MESSAGES/yahtzee_rules.mo"
        for locale in LOCALES
        if locale != DEFAULT_LOCALE
    } <= names  # the compiled catalogues the library reads
    # nothing but the package and its metadata
    assert {name.split("/")[0] for name in names} == {
        "yahtzee_rules",
        f"yahtzee_rules-{PYPROJECT['project']['version']}.dist-info",
    }


def test_the_wheel_carries_the_compiled_modules_for_every_later_cpython(dist: Path) -> None:
    """Built where a C compiler exists (CI): the solver's kernel and the values' builder,
    one ``abi3`` module each beside its C file, and the wheel's tag says it
    (``cp311-abi3-<platform>``), so that 3.12 and 3.13 install the same wheel."""
    wheel = _one(dist, "*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (wheel_info,) = [n for n in names if n.endswith(".dist-info/WHEEL")]
        tags = [
            line.split(":", 1)[1].strip()
            for line in archive.read(wheel_info).decode().splitlines()
            if line.startswith("Tag:")
        ]
    prefixes = ("yahtzee_rules/bots/solver/_ckernel.", "yahtzee_rules/support/_cvalues.")
    modules = sorted(n for n in names if n.startswith(prefixes))
    sources = [f"{prefix}c" for prefix in prefixes]
    if modules == sorted(sources):
        assert tags == ["py3-none-any"]  # built without a compiler: pure Python and NumPy
        if os.environ.get("YAHTZEE_RULES_KERNEL") == "require":
            pytest.fail("the wheel has no compiled modules, and this run requires them")
        return
    assert modules == sorted([*sources, *(f"{prefix}abi3.so" for prefix in prefixes)])
    (tag,) = tags
    assert tag.startswith("cp311-abi3-")
    assert wheel.name.endswith(f"-{tag}.whl")


def test_a_file_left_out_of_the_wheel_is_named(dist: Path, tmp_path: Path) -> None:
    wheel = _one(dist, "*.whl")
    left_out = "yahtzee_rules/schema/v1.schema.json"
    doctored = tmp_path / wheel.name
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(doctored, "w") as copy:
        for item in source.infolist():
            if item.filename != left_out:
                copy.writestr(item, source.read(item))
    assert missing_from_wheel(doctored, PACKAGE) == [left_out]


def test_the_sdist_ships_the_package_its_tests_and_docs(dist: Path) -> None:
    sdist = _one(dist, "*.tar.gz")
    version = PYPROJECT["project"]["version"]
    prefix = f"yahtzee_rules-{version}/"
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(prefix) for name in archive.getnames()}
    assert {f"src/{name}" for name in package_files(PACKAGE)} <= names
    assert {
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        "conftest.py",
        "hatch_build.py",
    } <= names
    assert any(name.startswith("tests/test_") for name in names)
    assert any(name.startswith("docs/") for name in names)


def _wheel_metadata(dist: Path) -> tuple[str, dict[str, list[str]]]:
    wheel = _one(dist, "*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        raw = archive.read(name).decode("utf-8")
    message = HeaderParser().parsestr(raw)
    fields: dict[str, list[str]] = {}
    for key, value in message.items():
        fields.setdefault(key, []).append(value)
    return raw, fields


def test_the_wheel_metadata_is_valid_and_says_what_pyproject_says(dist: Path) -> None:
    metadata = pytest.importorskip("packaging.metadata")
    raw, fields = _wheel_metadata(dist)
    parsed = metadata.Metadata.from_email(raw, validate=True)  # raises on invalid metadata
    project = PYPROJECT["project"]
    assert parsed.name == project["name"]
    assert str(parsed.version) == project["version"]
    assert str(parsed.requires_python) == project["requires-python"]
    assert parsed.license_expression == project["license"]
    assert fields["Classifier"] == project["classifiers"]
    assert parsed.description_content_type == "text/markdown"
    assert parsed.description is not None
    assert parsed.description.strip() == (ROOT / "README.md").read_text("utf-8").strip()
    extras = project["optional-dependencies"]
    assert sorted(str(extra) for extra in parsed.provides_extra or []) == sorted(extras)
    requires = [str(req) for req in parsed.requires_dist or []]
    for dependency in project["dependencies"]:
        assert dependency in requires
    for extra, dependencies in extras.items():
        for dependency in dependencies:
            assert f'{dependency}; extra == "{extra}"' in requires


def test_the_version_is_said_once_in_the_source_and_once_in_pyproject() -> None:
    from yahtzee_rules.support import _version

    assert _version.__version__ == PYPROJECT["project"]["version"]


def test_the_wheel_installs_the_command_and_the_hypothesis_hook(dist: Path) -> None:
    wheel = _one(dist, "*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        entry_points = archive.read(name).decode("utf-8")
    for group, entries in (
        ("console_scripts", PYPROJECT["project"]["scripts"]),
        *PYPROJECT["project"]["entry-points"].items(),
    ):
        assert f"[{group}]" in entry_points
        for key, target in entries.items():
            assert f"{key} = {target}" in entry_points


def test_an_installed_run_tests_the_installed_package() -> None:
    # Set by CI where the suite runs against the wheel installed in a fresh environment.
    if os.environ.get("YAHTZEE_RULES_INSTALLED") != "1":
        pytest.skip("the suite runs against the source tree here")
    import yahtzee_rules

    assert not Path(yahtzee_rules.__file__).resolve().is_relative_to(ROOT / "src")
    assert "site-packages" in Path(yahtzee_rules.__file__).parts
