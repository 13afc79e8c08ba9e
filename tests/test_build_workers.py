"""The table build shares its levels with helper processes: the same floats however it goes.

The helpers are real processes mapping the same memory; chunks are claimed without a
lock, so the claim loop is also run under every interleaving Hypothesis finds, one read
or write at a time.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import Category, Rules, Scorecard

np = pytest.importorskip("numpy")
pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.solver import _workers, build_table  # noqa: E402

# Nine boxes open: about 70,000 states, a fraction of a second to build.
CARD = Scorecard({Category.ACES: 2, Category.TWOS: 4, Category.YAHTZEE: 50, Category.CHANCE: 20})
CARD_MASK = sum(1 << c for c, points in enumerate(CARD.boxes) if points is not None)


@pytest.fixture(scope="module")
def alone() -> Any:
    """The card's values built in this process alone."""
    return build_table(start=CARD, workers=1).values


@pytest.fixture
def helpers(
    monkeypatch: pytest.MonkeyPatch, started_helpers: list[Any], waiting_for_helpers: None
) -> list[Any]:
    """Every helper started (its process and connection), with any build size taking them."""
    monkeypatch.setattr(_workers, "PROCESS_STATES", 0)
    return started_helpers


def test_helpers_solve_chunks_and_give_the_same_floats(
    alone: Any, helpers: list[Any], claimed: list[int]
) -> None:
    two = build_table(start=CARD, workers=2)
    assert len(helpers) == 1
    assert helpers[0] is not None
    assert np.array_equal(two.values, alone)
    here = sum(claimed)
    claimed.clear()
    build_table(start=CARD, workers=1)
    assert here < sum(claimed)  # the helper solved the others
    assert all(process.poll() is not None for process, _ in helpers)  # ended


@pytest.mark.parametrize("name", ["free-choice", "forced-yahtzee", "yatzy", "forced-yatzy"])
def test_other_rules_build_the_same_floats_with_helpers(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Other Joker rules, Forced Yahtzee, Yatzy's card and its boxes in card order."""
    rules = Rules.from_name(name)
    boxes = rules.card.members
    start = Scorecard({boxes[0]: 0, boxes[1]: 0, boxes[2]: 0, boxes[3]: 0}, card=rules.card)
    alone = build_table(rules=rules, start=start, workers=1).values
    monkeypatch.setattr(_workers, "PROCESS_STATES", 0)
    assert np.array_equal(build_table(rules=rules, start=start, workers=2).values, alone)


def test_three_workers_give_the_same_floats(alone: Any, helpers: list[Any]) -> None:
    assert np.array_equal(build_table(start=CARD, workers=3).values, alone)
    assert len(helpers) == 2
    assert all(process.poll() is not None for process, _ in helpers)


def test_a_helper_that_dies_mid_build_changes_nothing(alone: Any, helpers: list[Any]) -> None:
    def kill_halfway(done: int, total: int) -> None:
        process = helpers[0][0]
        if done > total // 2 and process.poll() is None:
            process.kill()
            process.wait()

    table = build_table(start=CARD, workers=2, progress=kill_halfway)
    assert helpers[0][0].returncode is not None
    assert helpers[0][0].returncode < 0  # killed
    assert np.array_equal(table.values, alone)


def test_helpers_that_cannot_start_leave_the_work_here(
    alone: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_workers, "PROCESS_STATES", 0)
    monkeypatch.setattr(_workers, "start_helper", lambda *args: None)
    assert np.array_equal(build_table(start=CARD, workers=4).values, alone)


def test_a_helper_still_starting_is_not_waited_for(
    alone: Any, monkeypatch: pytest.MonkeyPatch, claimed: list[int], started_helpers: list[Any]
) -> None:
    monkeypatch.setattr(_workers, "PROCESS_STATES", 0)
    # a helper that takes a minute to start: the build solves every level here
    monkeypatch.setattr(_workers, "PROGRAM", "import time\ntime.sleep(60)\n" + _workers.PROGRAM)
    table = build_table(start=CARD, workers=2, progress=lambda *p: None)
    assert np.array_equal(table.values, alone)
    here = sum(claimed)
    claimed.clear()
    build_table(start=CARD, workers=1)
    assert here == sum(claimed)  # every chunk
    assert started_helpers[0][0].returncode is not None  # ended with the build, not a minute later


def test_an_error_in_the_build_ends_the_helpers(helpers: list[Any]) -> None:
    def fail(done: int, total: int) -> None:
        if done > total // 3:
            raise RuntimeError("stopped")

    with pytest.raises(RuntimeError, match="stopped"):
        build_table(start=CARD, workers=2, progress=fail)
    assert helpers
    assert all(process.poll() is not None for process, _ in helpers)


def test_small_builds_start_no_helper(monkeypatch: pytest.MonkeyPatch, alone: Any) -> None:
    def refuse(*args: Any) -> None:
        raise AssertionError("a helper was started")

    monkeypatch.setattr(_workers, "start_helper", refuse)
    assert CARD.boxes.count(None) == 9
    assert np.array_equal(build_table(start=CARD, workers=2).values, alone)
    assert _workers.helpers_for(2, _workers.PROCESS_STATES) == 1
    assert _workers.helpers_for(1, _workers.PROCESS_STATES) == 0


def test_progress_runs_from_zero_to_the_total(helpers: list[Any]) -> None:
    seen: list[tuple[int, int]] = []
    build_table(start=CARD, workers=2, progress=lambda *p: seen.append(p))
    total = seen[0][1]
    assert seen[0] == (0, total)
    assert seen[-1] == (total, total)
    assert all(a[0] <= b[0] and b[1] == total for a, b in itertools.pairwise(seen))


# --------------------------------------------------------------------------------------
# The claim loop, one read or write at a time, under interleavings Hypothesis picks.
# --------------------------------------------------------------------------------------


class Turns:
    """Lets one worker thread at a time touch the claims, in the order of ``schedule``."""

    def __init__(self, schedule: list[int], workers: int) -> None:
        self.condition = threading.Condition()
        self.schedule = iter(schedule)
        self.live = set(range(workers))
        self.current = self._pick()

    def _pick(self) -> int | None:
        for worker in self.schedule:
            if worker in self.live:
                return worker
        return min(self.live, default=None)  # schedule used up: the lowest live worker

    @contextmanager
    def turn(self, worker: int) -> Iterator[None]:
        with self.condition:
            self.condition.wait_for(lambda: self.current == worker)
            yield
            self.current = self._pick()
            self.condition.notify_all()

    def finish(self, worker: int) -> None:
        with self.condition:
            self.live.discard(worker)
            if self.current == worker:
                self.current = self._pick()
            self.condition.notify_all()


class Claims:
    """A worker's view of shared claims: each access waits for the worker's turn."""

    def __init__(self, data: list[int], turns: Turns, worker: int) -> None:
        self.data, self.turns, self.worker = data, turns, worker

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, index: int) -> int:
        with self.turns.turn(self.worker):
            return self.data[index]

    def __setitem__(self, index: int, value: int) -> None:
        with self.turns.turn(self.worker):
            self.data[index] = value


def run_workers(
    chunks: int, workers: int, schedule: list[int], late: set[int]
) -> list[tuple[int, int]]:
    """Every (worker, chunk) solved when ``workers`` threads claim ``chunks`` chunks."""
    data = [0] * (2 * workers)
    edges = [chunks * w // workers for w in range(workers + 1)]
    data[0::2], data[1::2] = edges[:-1], edges[1:]
    turns = Turns(schedule, workers)
    solved: list[tuple[int, int]] = []

    def work(worker: int) -> None:
        def solve(chunk: int) -> None:
            with turns.turn(worker):  # solving takes a turn too
                solved.append((worker, chunk))

        try:
            if worker not in late:
                _workers.claim(worker, Claims(data, turns, worker), solve)  # type: ignore[arg-type]
        finally:
            turns.finish(worker)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive()
    return solved


@settings(max_examples=150, deadline=None)
@given(
    chunks=st.integers(0, 12),
    workers=st.integers(1, 4),
    schedule=st.lists(st.integers(0, 3), max_size=120),
    late=st.sets(st.integers(1, 3)),
)
def test_claims_solve_every_chunk_under_any_interleaving(
    chunks: int, workers: int, schedule: list[int], late: set[int]
) -> None:
    """Every chunk is solved at least once (some twice, when two workers race for it)."""
    solved = run_workers(chunks, workers, schedule, late & set(range(1, workers)))
    assert {chunk for _, chunk in solved} == set(range(chunks))  # none left, none outside


def test_claims_without_races_solve_each_chunk_once() -> None:
    solved = run_workers(10, 3, [], set())  # one worker at a time, to the end
    assert sorted(chunk for _, chunk in solved) == list(range(10))


def test_a_helper_imports_no_rules_module(unpickled_in_a_helper: Any) -> None:
    """A helper unpickles the plan's arrays without the dice, boxes or rules modules."""
    from yahtzee_rules import Rules
    from yahtzee_rules.bots.solver import _internal

    found = unpickled_in_a_helper(
        _internal.BuildPlan(_internal.model_of(Rules()), CARD_MASK), "solving"
    )
    assert found[0] == "10"  # levels: 9 open boxes, and the complete cards
    assert {"yahtzee_rules.bots.solver._kernels", "yahtzee_rules.bots.solver._model"} <= set(found)
    assert not {
        "yahtzee_rules.core.rules",
        "yahtzee_rules.core.boxes",
        "yahtzee_rules.core.dice",
    } & set(found)
