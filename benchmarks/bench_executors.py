"""Throughput on a 2-worker process pool against serial runs, printed, never asserted.

Run: ``python benchmarks/bench_executors.py`` (``--quick`` for fewer games), or as
part of ``benchmarks/bench.py``. Target (2-core machine): a 2-worker
``ProcessPoolExecutor`` gives at least 1.8x the serial throughput of ``simulate``
and of the batched optimal simulator. Both runs play the same chunks (so the same
games, bit for bit); the pool is started and warmed up before it is timed. The
machine is shared and noisy: compare the ratio, printed from one run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from yahtzee_rules import GreedyStrategy, SimulationResult, simulate


def _timed(run: Callable[[], SimulationResult]) -> tuple[float, SimulationResult]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def _compare(
    label: str,
    games: int,
    serial: Callable[[], SimulationResult],
    pooled: Callable[[], SimulationResult],
) -> None:
    alone, first = _timed(serial)
    together, second = _timed(pooled)
    assert first.scores == second.scores, "the pool played other games"
    print(label)
    print(f"  serial          {games / alone:>10,.0f} games per second ({alone:.1f} s)")
    print(f"  2-worker pool   {games / together:>10,.0f} games per second ({together:.1f} s)")
    print(f"  ratio           {alone / together:>10.2f}x (target >= 1.8x)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args(argv)
    greedy_games = 4_000 if args.quick else 8_000  # chunks of 1,000
    optimal_games = 100_000 if args.quick else 200_000  # chunks of 50,000

    print("executor=: serial against a 2-worker ProcessPoolExecutor")
    with ProcessPoolExecutor(2) as pool:
        # The machine's own ceiling: two CPU-bound tasks with nothing to share. On a busy
        # shared machine this is well under 2x, and the library's ratios cannot beat it.
        spins = [range(40_000_000)] * 2
        alone = time.perf_counter()
        for numbers in spins:
            sum(numbers)
        alone = time.perf_counter() - alone
        together = time.perf_counter()
        for total in [pool.submit(sum, numbers) for numbers in spins]:
            total.result()
        together = time.perf_counter() - together
        print(f"control: two sums of 40M ints, serial / pool {alone / together:.2f}x")
        warm = [pool.submit(simulate, GreedyStrategy(), games=20, seed=n) for n in range(2)]
        for future in warm:
            future.result()
        _compare(
            f"simulate(GreedyStrategy()), {greedy_games:,} games",
            greedy_games,
            lambda: simulate(GreedyStrategy(), games=greedy_games, seed=1),
            lambda: simulate(GreedyStrategy(), games=greedy_games, seed=1, executor=pool),
        )
        try:
            from yahtzee_rules.bots.solver import load_table, simulate_optimal
        except ImportError:
            print("(the batched optimal simulator needs NumPy: skipped)")
            return
        table = load_table()
        warm = [pool.submit(simulate_optimal, table, games=200, seed=n) for n in range(2)]
        for future in warm:
            future.result()
        _compare(
            f"simulate_optimal (full table), {optimal_games:,} games",
            optimal_games,
            lambda: simulate_optimal(table, games=optimal_games, seed=1),
            lambda: simulate_optimal(table, games=optimal_games, seed=1, executor=pool),
        )


if __name__ == "__main__":
    main()
