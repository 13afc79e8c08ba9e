"""Measure WinStrategy against OptimalStrategy with the arena's tournament (common dice,
seats rotated): the head-to-head share with a 99 % interval, and fields of 4 and 10.

    python scripts/play_to_win.py --deals 100000 --workers 2
    python scripts/play_to_win.py --deals 2000 --field 4

``--field N`` plays one WinStrategy against N - 1 OptimalStrategy copies at N seats and
reports the WinStrategy's win share (a fair share is 1/N). The tables are built (and
cached) on first use: the target table for the last turns takes a few minutes.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import time
from concurrent.futures import Executor

from yahtzee_rules import OptimalStrategy, Rules, Strategy
from yahtzee_rules.arena import TournamentResult, tournament
from yahtzee_rules.solver import WinStrategy, load_table, target_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--open-boxes", type=int, default=2)
    parser.add_argument("--maximum", type=int, default=200)
    parser.add_argument("--field", type=int, default=2, help="players per game")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    rules = Rules()
    table = load_table(rules=rules)
    targets = target_table(rules=rules, maximum=args.maximum, open_boxes=args.open_boxes)
    win = WinStrategy(table, targets, open_boxes=args.open_boxes)
    bots: dict[str, Strategy] = {"win": win}
    for number in range(1, args.field):
        bots[f"optimal {number}"] = OptimalStrategy(table)
    started = time.perf_counter()
    if args.workers > 1:
        with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
            result = _run(bots, args, pool)
    else:
        result = _run(bots, args, None)
    seconds = time.perf_counter() - started
    print(f"{result.deals} deals, {result.games} games, {seconds:.0f} s")
    print(result.report())


def _run(
    bots: dict[str, Strategy], args: argparse.Namespace, pool: Executor | None
) -> TournamentResult:
    return tournament(
        bots, deals=args.deals, seats=args.field, seed=args.seed, confidence=0.99, executor=pool
    )


if __name__ == "__main__":
    main()
