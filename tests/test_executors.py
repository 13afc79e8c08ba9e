"""``executor=``: chunks seeded from (seed, chunk index), the same results on any executor."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from yahtzee_rules import Category, GreedyStrategy, RandomStrategy, Scorecard, Strategy, simulate
from yahtzee_rules.bots.arena import Sprt, tournament
from yahtzee_rules.support.errors import MalformedInputError

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")

#: Two boxes open: cheap to build and to play; 50,001 games make two chunks, the last of one.
LATE = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
OPTIMAL_GAMES = 50_001
#: Two chunks of simulate's 1,000 games, the last a single game.
GAMES = 1_001


class Serial:
    """The smallest executor: runs each task at once and returns a finished future."""

    def __init__(self) -> None:
        self.tasks = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
        self.tasks += 1
        future: Future[Any] = Future()
        future.set_result(fn(*args))
        return future


@pytest.fixture(scope="module")
def table() -> Any:
    return solver.build_table(start=LATE)


@pytest.fixture(scope="module", params=["process-1", "process-2", "loky-2"])
def executor(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param.startswith("process"):
        with ProcessPoolExecutor(int(request.param[-1])) as pool:
            yield pool
        return
    loky = pytest.importorskip("loky")
    pool = loky.get_reusable_executor(max_workers=2)
    yield pool


@pytest.fixture(scope="module")
def serial_scores(table: Any) -> dict[str, tuple[int, ...]]:
    return {
        "simulate": simulate(RandomStrategy(), games=GAMES, seed=9).scores,
        "optimal": solver.simulate_optimal(table, games=OPTIMAL_GAMES, seed=9).scores,
    }


def test_simulate_is_bit_identical_on_any_executor(
    executor: Any, serial_scores: dict[str, tuple[int, ...]]
) -> None:
    result = simulate(RandomStrategy(), games=GAMES, seed=9, executor=executor)
    assert result.scores == serial_scores["simulate"]
    assert result.games == GAMES


def test_the_optimal_simulator_is_bit_identical_on_any_executor(
    executor: Any, table: Any, serial_scores: dict[str, tuple[int, ...]]
) -> None:
    result = solver.simulate_optimal(table, games=OPTIMAL_GAMES, seed=9, executor=executor)
    assert result.scores == serial_scores["optimal"]


def test_a_tournament_is_bit_identical_on_any_executor(executor: Any) -> None:
    bots: dict[str, Strategy] = {"greedy": GreedyStrategy(), "random": RandomStrategy()}
    here = tournament(bots, deals=101, seed=3)
    there = tournament(bots, deals=101, seed=3, executor=executor)
    assert there == here
    assert there.report() == here.report()


def test_chunks_are_seeded_from_the_seed_and_their_index() -> None:
    # chunk 0 plays as an unsplit run did; the second chunk is not the first one again
    first = simulate(RandomStrategy(), games=1000, seed=5).scores
    both = simulate(RandomStrategy(), games=1003, seed=5).scores
    assert both[:1000] == first
    assert both[1000:] != first[:3]
    assert simulate(RandomStrategy(), games=1003, seed=6).scores[1000:] != both[1000:]


def test_any_object_with_submit_is_an_executor(table: Any) -> None:
    plain = Serial()
    assert simulate(RandomStrategy(), games=GAMES, seed=2, executor=plain).scores == (
        simulate(RandomStrategy(), games=GAMES, seed=2).scores
    )
    assert plain.tasks == 2
    steps: list[tuple[int, int]] = []
    solver.simulate_optimal(
        table, games=OPTIMAL_GAMES, executor=plain, progress=lambda *s: steps.append(s)
    )
    assert steps == [(2, 4), (4, 4)]


def test_progress_counts_games_on_an_executor() -> None:
    done: list[tuple[int, int]] = []
    with ThreadPoolExecutor(2) as pool:
        simulate(RandomStrategy(), games=GAMES, executor=pool, progress=lambda *d: done.append(d))
    assert done == [(1000, GAMES), (GAMES, GAMES)]


def test_serial_progress_spans_every_chunk(table: Any) -> None:
    steps: list[tuple[int, int]] = []
    solver.simulate_optimal(table, games=OPTIMAL_GAMES, progress=lambda *s: steps.append(s))
    assert steps == [(k, 4) for k in range(1, 5)]


def test_an_executor_needs_submit(table: Any) -> None:
    with pytest.raises(MalformedInputError, match="executor 4: has no submit method"):
        simulate(RandomStrategy(), games=1, executor=4)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="has no submit method"):
        solver.simulate_optimal(table, games=1, executor="pool")
    with pytest.raises(MalformedInputError, match="has no submit method"):
        tournament([GreedyStrategy(), GreedyStrategy()], deals=1, executor=object())  # type: ignore[arg-type]


def test_a_table_pickles_without_its_caches(table: Any) -> None:
    from yahtzee_rules import Turn

    solver.advise(Turn(LATE).roll(outcome="66612"), table)  # fills the per-turn caches
    copy = pickle.loads(pickle.dumps(table))
    assert copy.rules == table.rules
    assert copy.start == table.start
    assert (copy.values == table.values).all()
    assert len(pickle.dumps(table)) < table.values.nbytes + 10_000


def test_a_sequential_test_stops_at_the_same_deal_on_any_executor() -> None:
    bots: dict[str, Strategy] = {"greedy": GreedyStrategy(), "random": RandomStrategy()}
    with ThreadPoolExecutor(2) as pool:
        there = tournament(bots, deals=300, sprt=Sprt(edge=0.1), executor=pool)
    assert there.deals == 100
    assert there == tournament(bots, deals=300, sprt=Sprt(edge=0.1))


def test_a_dask_cluster_gives_the_same_results(table: Any) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster,
        distributed.Client(cluster) as client,
    ):
        pool = client.get_executor()
        result = simulate(RandomStrategy(), games=GAMES, seed=9, executor=pool)
        assert result.scores == simulate(RandomStrategy(), games=GAMES, seed=9).scores
        optimal = solver.simulate_optimal(table, games=OPTIMAL_GAMES, seed=9, executor=pool)
        assert optimal.scores == solver.simulate_optimal(table, games=OPTIMAL_GAMES, seed=9).scores
