"""Shared test configuration: Hypothesis profiles, slow tests skipped unless asked for, and
a spy on the solver's helper processes."""

from __future__ import annotations

import os
from typing import Any

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


@pytest.fixture
def started_helpers(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every helper process a build starts (its process and connection; None if it could
    not start), recorded as it starts."""
    from yahtzee_rules.solver import _workers

    started: list[Any] = []
    start = _workers._start

    def spy(*args: Any) -> Any:
        started.append(start(*args))
        return started[-1]

    monkeypatch.setattr(_workers, "_start", spy)
    return started
