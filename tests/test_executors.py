"""``executor=``: chunks seeded from (seed, chunk index), the same results on any executor."""

from __future__ import annotations

import importlib.util
import itertools
import os
import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    """A table from the (session's) cache: it pickles as a reference to its file."""
    solver.load_table(start=LATE)  # built and written the first time
    return solver.load_table(start=LATE)


@pytest.fixture(scope="module")
def built() -> Any:
    """A table not from the cache: it pickles by value."""
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


def test_a_table_pickles_without_its_caches(built: Any) -> None:
    from yahtzee_rules import Turn

    solver.advise(Turn(LATE).roll(outcome="66612"), built)  # fills the per-turn caches
    copy = pickle.loads(pickle.dumps(built))
    assert copy.rules == built.rules
    assert copy.start == built.start
    assert (copy.values == built.values).all()
    assert len(pickle.dumps(built)) < built.values.nbytes + 10_000


def test_a_cached_table_pickles_as_a_reference_its_unpickler_maps(table: Any) -> None:
    data = pickle.dumps(table)
    assert len(data) < 2_000  # its path, key and digest, not 8 MB of values
    copy = pickle.loads(data)
    assert copy is not table
    assert copy.values.tobytes() == table.values.tobytes()
    assert (copy.rules, copy.start) == (table.rules, table.start)
    assert not copy.values.flags.writeable
    assert not copy.values.flags.owndata
    assert isinstance(copy.values.base, np.memmap)  # the file's pages, not a copy
    assert pickle.loads(data) is copy  # once per process: later chunks share it


def test_a_table_written_by_load_table_pickles_as_a_reference(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    written = solver.load_table(start=LATE)  # built, then written
    assert len(pickle.dumps(written)) < 2_000
    assert pickle.loads(pickle.dumps(written)).values.tobytes() == written.values.tobytes()
    assert len(pickle.dumps(solver.load_table(start=LATE, cache=False))) > 1_000_000


def _file_with(path: Any, values: Any, rules: Any, start: Any) -> None:
    """Write ``values`` to the table file ``path`` under its right key."""
    from yahtzee_rules.bots.solver._model import mask_of, model_of
    from yahtzee_rules.bots.solver._storage import table_key, write_npz

    key = np.array(table_key(rules, mask_of(start)))
    joker = model_of(rules).joker
    assert write_npz(path, ".optimal-", key=key, values=values, joker=joker)


def test_a_changed_file_is_never_used(
    table: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yahtzee_rules.bots.solver._table import TableFileError

    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    path = solver.cache_path(start=LATE)
    _file_with(path, table.values, table.rules, table.start)
    here = solver.cached_table(start=LATE)
    data = pickle.dumps(here)
    changed = table.values.copy()
    changed[np.flatnonzero(changed)[0]] += 1e-9  # one value, a hair off, under the same key
    _file_with(path, changed, table.rules, table.start)
    with pytest.raises(TableFileError, match=r"table file .*no file holding the values"):
        pickle.loads(data)
    path.unlink()  # a missing file: the same error, naming the file
    with pytest.raises(TableFileError, match=str(path.name)):
        pickle.loads(data)


def test_a_table_whose_file_is_gone_or_replaced_pickles_by_value(
    table: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    path = solver.cache_path(start=LATE)
    _file_with(path, table.values, table.rules, table.start)
    here = solver.cached_table(start=LATE)
    _file_with(path, table.values, table.rules, table.start)  # another file in its place
    assert len(pickle.dumps(here)) > table.values.nbytes
    again = solver.cached_table(start=LATE)
    assert len(pickle.dumps(again)) < 2_000
    path.unlink()
    copy = pickle.loads(pickle.dumps(again))  # by value: no file needed
    assert copy.values.tobytes() == table.values.tobytes()


def test_a_damaged_file_never_gives_other_values(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every fifth byte from the values member's zip header to its first values flipped:
    # the same values (a flip in padding) or TableFileError, never other values
    import zipfile

    from yahtzee_rules import Rules
    from yahtzee_rules.bots.solver._table import _OPENED, TableFileError

    yacht = Rules.from_name("yacht")
    good = solver.load_table(rules=yacht)  # the session's cache: 32 KB of values
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    path = solver.cache_path(rules=yacht)
    _file_with(path, good.values, good.rules, good.start)
    data = pickle.dumps(solver.cached_table(rules=yacht))
    original = path.read_bytes()
    start = zipfile.ZipFile(path).getinfo("values.npy").header_offset
    outcomes = {"same": 0, "refused": 0}
    for position in range(start, start + 300, 5):
        damaged = bytearray(original)
        damaged[position] ^= 0x10
        (tmp_path / "damaged").write_bytes(bytes(damaged))
        os.replace(tmp_path / "damaged", path)  # as files are replaced: never in place
        _OPENED.clear()  # a fresh worker's first chunk
        try:
            table = pickle.loads(data)
        except TableFileError:
            outcomes["refused"] += 1
        else:
            assert table.values.tobytes() == good.values.tobytes()
            outcomes["same"] += 1
    assert outcomes["same"]  # flips in the padding
    assert outcomes["refused"]


def test_a_worker_finds_the_file_in_its_own_cache_dir(
    table: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path / "there"))
    _file_with(solver.cache_path(start=LATE), table.values, table.rules, table.start)
    data = pickle.dumps(solver.cached_table(start=LATE))
    (tmp_path / "there").rename(tmp_path / "here")  # another machine's cache directory
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path / "here"))
    assert pickle.loads(data).values.tobytes() == table.values.tobytes()


def test_a_file_another_writer_wrote_is_read_once_instead(
    table: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # NumPy's own savez_compressed: nothing to map in place, so the values are read
    from yahtzee_rules.bots.solver._model import mask_of, model_of
    from yahtzee_rules.bots.solver._storage import table_key

    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    path = solver.cache_path(start=LATE)
    key = np.array(table_key(table.rules, mask_of(table.start)))
    np.savez_compressed(path, key=key, values=table.values, joker=model_of(table.rules).joker)
    copy = pickle.loads(pickle.dumps(solver.cached_table(start=LATE)))
    assert copy.values.tobytes() == table.values.tobytes()
    assert not isinstance(copy.values.base, np.memmap)


def test_a_pool_plays_a_table_pickled_by_value_the_same(built: Any) -> None:
    with ProcessPoolExecutor(2) as pool:
        there = solver.simulate_optimal(built, games=500, seed=9, executor=pool)
    assert there.scores == solver.simulate_optimal(built, games=500, seed=9).scores


def test_the_batched_optimal_policy_is_the_same_on_a_pool() -> None:
    pytest.importorskip("gymnasium")
    from yahtzee_rules import Rules
    from yahtzee_rules.integrations.vector import SolitaireVectorEnv, optimal_actions

    yacht = Rules.from_name("yacht")
    table = solver.load_table(rules=yacht)  # from the session's cache
    envs = SolitaireVectorEnv(num_envs=64, rules=yacht)
    batches = [envs.reset(seed=4)[0]]
    for _ in range(5):
        batches.append(envs.step(optimal_actions(table, batches[-1]))[0])
    with ProcessPoolExecutor(2) as pool:
        there = [pool.submit(optimal_actions, table, batch) for batch in batches]
        for batch, future in zip(batches, there, strict=True):
            assert future.result().tolist() == optimal_actions(table, batch).tolist()


def _visited(rules: Any, games: int, steps: int) -> dict[str, Any]:
    """The observations of ``steps`` steps of random legal play, stacked into one batch."""
    from yahtzee_rules.integrations.vector import SolitaireVectorEnv

    envs = SolitaireVectorEnv(num_envs=games, rules=rules)
    observations, info = envs.reset(seed=6)
    rng = np.random.default_rng(6)
    found = []
    for _ in range(steps):
        found.append(observations)
        masks = info["action_mask"].astype(bool)
        observations, *_, info = envs.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    return {name: np.concatenate([batch[name] for batch in found]) for name in found[0]}


def test_optimal_actions_take_an_executor_with_the_same_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("gymnasium")
    from yahtzee_rules import Rules
    from yahtzee_rules.integrations import vector

    yacht = Rules.from_name("yacht")
    table = solver.load_table(rules=yacht)  # from the session's cache: pickled by reference
    batch = _visited(yacht, games=90, steps=30)  # 2,700 games, some of them finished
    here = vector.optimal_actions(table, batch)
    assert (here == -1).any()
    assert (here >= 0).any()
    # 8 chunks of 250 games, then the last 700 in 12 chunks of 62 games (the last of 18)
    monkeypatch.setattr(vector, "ACTIONS_CHUNK", 250)
    assert vector.optimal_actions(table, batch).tolist() == here.tolist()  # chunks, here
    serial = Serial()
    assert vector.optimal_actions(table, batch, executor=serial).tolist() == here.tolist()
    assert serial.tasks == 20
    with ProcessPoolExecutor(2) as pool:
        there = vector.optimal_actions(table, batch, executor=pool)
    assert there.dtype == np.int64
    assert there.tolist() == here.tolist()
    empty = {name: array[:0] for name, array in batch.items()}
    assert vector.optimal_actions(table, empty, executor=serial).tolist() == []


@given(st.integers(0, 10**6), st.integers(4, 40_000))
def test_a_batch_is_cut_into_whole_chunks_then_quarters(games: int, size: int) -> None:
    pytest.importorskip("gymnasium")
    from yahtzee_rules.integrations import vector

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vector, "ACTIONS_CHUNK", size)
        spans = vector._spans(games)
    assert spans[0][0] == 0
    assert spans[-1][1] == games
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))  # contiguous, in order
    sizes = [hi - lo for lo, hi in spans]
    if games <= size:
        assert sizes == [games]
        return
    quarter = max(1, size // 4)
    whole = [s for s in sizes if s == size]
    assert sizes[: len(whole)] == whole  # whole chunks first, then quarters
    assert all(s <= quarter for s in sizes[len(whole) :])
    assert games - size * len(whole) < 3 * size  # only the last two chunks' worth in quarters


def test_optimal_actions_on_an_executor_name_a_bad_game_by_its_place_in_the_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("gymnasium")
    from yahtzee_rules import Rules
    from yahtzee_rules.integrations import vector

    yacht = Rules.from_name("yacht")
    table = solver.load_table(rules=yacht)
    batch = _visited(yacht, games=100, steps=8)
    batch["dice"][537] = [1, 2, 3, 4, 300]  # kept as it is by the compacting: int16
    batch["dice"][612] = [6, 5, 4, 3, 2]
    monkeypatch.setattr(vector, "ACTIONS_CHUNK", 100)
    with ProcessPoolExecutor(2) as pool:
        for executor in (None, Serial(), pool):
            with pytest.raises(MalformedInputError, match=r"game 537 \(dice \[1, 2, 3, 4, 300\]"):
                vector.optimal_actions(table, batch, executor=executor)
    with pytest.raises(MalformedInputError, match="has no submit method"):
        vector.optimal_actions(table, batch, executor="pool")  # type: ignore[arg-type]


def test_a_sequential_test_stops_at_the_same_deal_on_any_executor() -> None:
    bots: dict[str, Strategy] = {"greedy": GreedyStrategy(), "random": RandomStrategy()}
    with ThreadPoolExecutor(2) as pool:
        there = tournament(bots, deals=300, sprt=Sprt(edge=0.1), executor=pool)
    assert there.deals == 100
    assert there == tournament(bots, deals=300, sprt=Sprt(edge=0.1))


def test_a_dask_cluster_gives_the_same_results(table: Any) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        # the dashboard on a free port: suites running at once (CI's interpreters) would race for 8787
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        pool = client.get_executor()
        result = simulate(RandomStrategy(), games=GAMES, seed=9, executor=pool)
        assert result.scores == simulate(RandomStrategy(), games=GAMES, seed=9).scores
        optimal = solver.simulate_optimal(table, games=OPTIMAL_GAMES, seed=9, executor=pool)
        assert optimal.scores == solver.simulate_optimal(table, games=OPTIMAL_GAMES, seed=9).scores
        if importlib.util.find_spec("gymnasium") is None:
            return
        from yahtzee_rules import Rules
        from yahtzee_rules.integrations import vector

        yacht = Rules.from_name("yacht")
        cached = solver.load_table(rules=yacht)  # a reference to the session cache's file
        batch = _visited(yacht, games=90, steps=30)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(vector, "ACTIONS_CHUNK", 500)  # 3 chunks, then 10 quarters
            there = vector.optimal_actions(cached, batch, executor=pool)
        assert there.tolist() == vector.optimal_actions(cached, batch).tolist()
