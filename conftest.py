"""Runs every Python example in README.md and the documentation pages as a test.

Sybil collects the fenced ```python blocks of the Markdown files: a block that
starts with ``>>>`` is a doctest session whose output must match exactly; any
other block is plain code that must run without raising. The blocks of one page
share a namespace, in page order, so a tutorial can build on its earlier steps.
A block can be skipped with an HTML comment ``<!-- skip: next -->`` before it.

Docstrings in ``src`` are collected by pytest's own ``--doctest-modules``.
"""

from __future__ import annotations

import doctest
import os

import pytest
from hypothesis import HealthCheck, settings
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

# Helper scripts and the built site are not test modules.
collect_ignore = ["conftest.py", "scripts", "site"]

# The same Hypothesis profiles as tests/conftest.py, so property-test examples in the
# pages are derandomised under CI=true and have no deadline on a busy machine.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

pytest_collect_file = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS),
        SkipParser(),
    ],
    # Every Markdown file pytest visits: README.md and docs/ (the pytest testpaths).
    patterns=["*.md"],
).pytest()


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, run each page's examples in one worker, in order.

    The examples of a page share a namespace, so plain ``-n`` distribution
    ("load", test by test) would break them; "loadfile" sends each file, page or
    test module, to a single worker.
    """
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadfile"
