"""Speed and memory figures for yahtzee_rules, printed, never asserted.

Run: ``python benchmarks/bench.py`` (add ``--quick`` for a short run). The
machine is shared and noisy, so each figure is the best of several repeats and
is also given as a ratio to a plain-Python reference loop timed in the same
run: ratios move far less than raw times between runs.

Targets (2-core machine): scoring all 13 boxes for all 252 rolls through
``score`` in at most 0.35 ms per pass; at least 7,000 complete random solitaire
games per second through the public API (roll, keep, fill).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path

from _timing import best_of

from yahtzee_rules import Category, Dice, Game, score

CATEGORIES = tuple(Category)
ROLLS = Dice.all()


def score_pass() -> None:
    for dice in ROLLS:
        for category in CATEGORIES:
            score(dice, category)


def reference_pass() -> None:
    """The same 3,276 iterations doing only a tuple lookup: the interpreter's floor."""
    table = tuple(range(13))
    for _dice in ROLLS:
        for category in CATEGORIES:
            table[category]


def random_game(rng: random.Random) -> int:
    """One complete solitaire game: three rolls with random keeps, a random legal box."""
    game = Game.new(1)
    while not game.is_over:
        game = game.roll(rng)
        for _ in range(2):
            dice = game.dice
            assert dice is not None
            game = game.roll(rng, keep=rng.choice(dice.keeps()))
        game = game.fill(rng.choice(tuple(game.options)))
    return game.player_totals(0).grand_total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="the src directory of a baseline checkout: print the figures of "
        "bench_versus.py (import, advice, optimal games, cache) beside its own",
    )
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 7

    print(f"yahtzee_rules benchmarks (best of {repeats})")
    print(f"python {sys.version.split()[0]} on {sys.platform}")
    print()

    per_pass = best_of(repeats, 50, score_pass)
    floor = best_of(repeats, 50, reference_pass)
    print("score(): all 13 boxes x 252 distinct rolls")
    print(f"  {per_pass * 1e3:.3f} ms per pass (target <= 0.35 ms)")
    print(f"  {per_pass / 3276 * 1e9:.0f} ns per call")
    print(f"  {per_pass / floor:.1f}x the bare loop with a tuple lookup ({floor * 1e3:.3f} ms)")
    print()

    rng = random.Random(2026)
    games = 300 if args.quick else 1500
    per_game = best_of(repeats, games, lambda: random_game(rng))
    print("random solitaire games through Game.roll / keep / Game.fill")
    print(f"  {1 / per_game:,.0f} games per second (target >= 7,000)")
    print(f"  {per_game * 1e6:.0f} us per game, {per_game / 13 * 1e6:.1f} us per turn")
    print()

    here = Path(__file__).parent
    for name in (
        "bench_notation",
        "bench_solver",
        "bench_build",
        "bench_executors",
        "bench_envs",
        "bench_distribution",
        "bench_triple",
    ):
        path = here / f"{name}.py"
        if path.exists():
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None
            assert spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module  # so that pickling finds its functions (executors)
            spec.loader.exec_module(module)
            saved, sys.argv = sys.argv, [str(path), *(["--quick"] if args.quick else [])]
            try:
                module.main()
            finally:
                sys.argv = saved
            print()
    if args.baseline is not None:
        import bench_versus

        print("issue 12 figures, beside the baseline's")
        bench_versus.main(["--baseline", str(args.baseline), *(["--quick"] if args.quick else [])])


if __name__ == "__main__":
    main()
