"""Shared test configuration: spies on the solver's helper processes. The Hypothesis
profiles and the switch for slow tests (``YAHTZEE_RULES_SLOW=1``) are the root
conftest.py's, which pytest loads for every test under it."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def started_helpers(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every helper process a build starts (its process and connection; None if it could
    not start), recorded as it starts."""
    from yahtzee_rules.bots.solver import _workers

    started: list[Any] = []
    start = _workers.start_helper

    def spy(*args: Any) -> Any:
        started.append(start(*args))
        return started[-1]

    monkeypatch.setattr(_workers, "start_helper", spy)
    return started


@pytest.fixture
def claimed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many chunks this process solved, level by level (the helpers solved the rest)."""
    from yahtzee_rules.bots.solver import _workers

    counts: list[int] = []
    claim = _workers.claim

    def spy(*args: Any) -> int:
        counts.append(claim(*args))
        return counts[-1]

    monkeypatch.setattr(_workers, "claim", spy)
    return counts


@pytest.fixture
def waiting_for_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds wait for their helpers to start, so that they surely take part."""
    from yahtzee_rules.bots.solver import _workers

    prepare = _workers.Crew.prepare

    def prepare_and_wait(crew: _workers.Crew, plan: Any) -> None:
        prepare(crew, plan)
        crew.wait()

    monkeypatch.setattr(_workers.Crew, "prepare", prepare_and_wait)


@pytest.fixture
def unpickled_in_a_helper(tmp_path: Path) -> Callable[[object, str], list[str]]:
    """Unpickle a plan in a fresh interpreter, as a helper does: ``len(plan.<levels>)``,
    then the library's modules it imported."""

    def run(plan: object, levels: str) -> list[str]:
        path = tmp_path / "plan.pickle"
        path.write_bytes(pickle.dumps(plan))
        program = (
            "import pickle, sys\n"
            f"plan = pickle.loads(open({str(path)!r}, 'rb').read())\n"
            f"print(len(plan.{levels}), "
            "*sorted(m for m in sys.modules if m.startswith('yahtzee_rules')))"
        )
        found = subprocess.run(
            [sys.executable, "-c", program], capture_output=True, text=True, check=True
        )
        return found.stdout.split()

    return run


@pytest.fixture(params=["compiled", "numpy"])
def kernel_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each path of the per-turn tables in turn: the compiled kernel (skipped where it is
    not built, unless ``YAHTZEE_RULES_KERNEL=require``, as CI sets it) and NumPy."""
    from yahtzee_rules.bots.solver import _turns

    if request.param == "compiled":
        if _turns._KERNEL is None:
            pytest.skip("the compiled kernel is not built here")
    else:
        monkeypatch.setattr(_turns, "_KERNEL", None)
    return str(request.param)
