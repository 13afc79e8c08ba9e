"""Shared test configuration: Hypothesis profiles, and slow tests skipped unless asked for."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``slow`` unless ``YAHTZEE_RULES_SLOW=1`` (they take minutes)."""
    if os.environ.get("YAHTZEE_RULES_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set YAHTZEE_RULES_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
