"""Runs every Python example in README.md and the documentation pages as a test.

Sybil collects the fenced ```python blocks of the Markdown files: a block that
starts with ``>>>`` is a doctest session whose output must match exactly; any
other block is plain code that must run without raising. The blocks of one page
share a namespace, in page order, so a tutorial can build on its earlier steps.
A block can be skipped with an HTML comment ``<!-- skip: next -->`` before it.

Docstrings in ``src`` are collected by pytest's own ``--doctest-modules``.

Solver tables built while testing go to one temporary directory for the whole
session (``YAHTZEE_RULES_CACHE_DIR``, removed at the end), never to the user's
cache, unless the variable is already set.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

# Helper scripts and the built site are not test modules.
collect_ignore = ["conftest.py", "scripts", "site"]
# The integrations' modules and pages need their extras (all in the dev group); without
# one they are not collected, and tests/test_zoo.py, tests/test_spiel.py say why they skip.
for _needed, _paths in {
    "pettingzoo": ["src/yahtzee_rules/integrations/zoo.py", "docs/how-to/pettingzoo.md"],
    "pyspiel": ["src/yahtzee_rules/integrations/spiel.py", "docs/how-to/openspiel.md"],
}.items():
    if importlib.util.find_spec(_needed) is None:
        collect_ignore += _paths

# The Hypothesis profiles of every test and page: derandomised under CI=true, and no
# deadline on a busy machine.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

#: The one switch for work that takes minutes: ``YAHTZEE_RULES_SLOW=1`` runs the tests marked
#: ``slow`` and the page examples skipped ``if(not RUN_SLOW, ...)`` (the pages see this name).
RUN_SLOW = os.environ.get("YAHTZEE_RULES_SLOW") == "1"


def _page_namespace(namespace: dict[str, object]) -> None:
    namespace["RUN_SLOW"] = RUN_SLOW


pytest_collect_file = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS),
        SkipParser(),
    ],
    # Every Markdown file pytest visits: README.md and docs/ (the pytest testpaths).
    patterns=["*.md"],
    setup=_page_namespace,
).pytest()


CACHE_VARIABLE = "YAHTZEE_RULES_CACHE_DIR"
#: "dir": the session's cache directory; "made": set if made here; "file": the test file running.
_CACHE: dict[str, str] = {}


def pytest_configure(config: pytest.Config) -> None:
    """Set the session's cache directory, and under pytest-xdist run pages whole.

    The examples of a page share a namespace, so plain ``-n`` distribution
    ("load", test by test) would break them; "loadfile" sends each file, page or
    test module, to a single worker. Workers inherit the cache directory.
    """
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadfile"
    if not _CACHE:
        existing = os.environ.get(CACHE_VARIABLE)
        if existing:
            _CACHE["dir"] = existing
        else:
            _CACHE["dir"] = os.environ[CACHE_VARIABLE] = tempfile.mkdtemp(
                prefix="yahtzee-rules-test-cache-"
            )
            _CACHE["made"] = "yes"


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's cache directory if this session made it."""
    if _CACHE.pop("made", None):
        shutil.rmtree(_CACHE["dir"], ignore_errors=True)
        if os.environ.get(CACHE_VARIABLE) == _CACHE["dir"]:
            del os.environ[CACHE_VARIABLE]
    _CACHE.clear()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests marked ``slow`` unless :data:`RUN_SLOW` (they take minutes)."""
    if RUN_SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set YAHTZEE_RULES_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Put the variable back for each test if an earlier one (a doc example) removed it,
    and at the first test of each file if an earlier file changed it: a page's examples
    share its setting, and a page may run before any test module (under pytest-xdist)."""
    if _CACHE:
        if _CACHE.get("file") != str(item.path):
            _CACHE["file"] = str(item.path)
            os.environ[CACHE_VARIABLE] = _CACHE["dir"]
        os.environ.setdefault(CACHE_VARIABLE, _CACHE["dir"])


@pytest.fixture(scope="session")
def session_cache_dir() -> Path:
    """The directory solver tables built during the session are cached in."""
    return Path(_CACHE["dir"])
