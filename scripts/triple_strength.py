"""Measure how well Triple Yahtzee is played, and write the figures into the docs.

Three strategies play the same number of solitaire games of Triple Yahtzee (the same
seed, so the same first roll of every game): TripleStrategy (each column valued by the
Classic table, each turn solved over every column), RotationStrategy (the columns in
rotation, each played by the optimal Classic policy) and GreedyStrategy. For each, its
mean score with a 99 % confidence interval (normal approximation: mean ± 2.576 standard
errors); for each pair, the difference of the means with its interval.

    python scripts/triple_strength.py --games 2000               # print the table
    nice python scripts/triple_strength.py --write               # 100,000 games each; publish
    python scripts/triple_strength.py --check                    # exit 1 if stale
    python scripts/triple_strength.py --render                   # rewrite from the JSON

``--write`` stores the raw figures in ``docs/explanation/triple-strength.json`` and
rewrites the marked block of ``docs/explanation/triple-yahtzee.md`` from it.
``--check`` plays no games (it imports neither the solver nor NumPy): it checks the
file's format and that the block is what this script renders from it. Every figure
on the page comes from here.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from _published import Z99, Published  # noqa: E402

from yahtzee_rules import GreedyStrategy, Rules  # noqa: E402

DATA = ROOT / "docs" / "explanation" / "triple-strength.json"
PAGE = ROOT / "docs" / "explanation" / "triple-yahtzee.md"
FORMAT = "yahtzee-rules triple strength"

#: The strategies measured, strongest first: a name, and what it is.
LINE_UP = (
    ("triple", "TripleStrategy: each column valued by the Classic table, each turn over all"),
    ("rotation", "RotationStrategy: the columns in rotation, each by the optimal Classic policy"),
    ("greedy", "GreedyStrategy: the most points now (times the column's multiplier)"),
)

PUBLISHED = Published(DATA, PAGE, FORMAT, "triple", tuple(name for name, _ in LINE_UP))
_block, write_block, _check_format = PUBLISHED.block, PUBLISHED.write_block, PUBLISHED.check_format


def strategies(rules: Rules) -> dict[str, Any]:
    """The strategies measured, for ``rules``."""
    from yahtzee_rules.bots.solver import RotationStrategy, TripleStrategy

    made = {
        "triple": TripleStrategy(rules=rules),
        "rotation": RotationStrategy(rules=rules),
        "greedy": GreedyStrategy(),
    }
    assert list(made) == [name for name, _ in LINE_UP]
    return made


def play(games: int, seed: int, workers: int) -> dict[str, Any]:
    """Play every strategy ``games`` games: the stored results."""
    from yahtzee_rules import __version__, simulate
    from yahtzee_rules.bots.solver import column_rules, load_table

    rules = Rules.from_name("triple")
    classic = load_table(rules=column_rules(rules))
    rows = []
    started = time.perf_counter()
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        for name, strategy in strategies(rules).items():
            result = simulate(strategy, games=games, seed=seed, rules=rules, executor=pool)
            rows.append(
                {
                    "name": name,
                    "games": result.games,
                    "mean": result.mean,
                    "stderr": result.stderr,
                    "std": result.std,
                    "minimum": result.minimum,
                    "maximum": result.maximum,
                    "seconds": round(result.seconds, 1),
                }
            )
            print(f"{name}: {result.games} games in {result.seconds:.1f} s", file=sys.stderr)
    finally:
        if pool is not None:
            pool.shutdown()
    command = f"python scripts/triple_strength.py --write --games {games} --seed {seed}"
    return {
        "format": FORMAT,
        "version": 1,
        "library": __version__,
        "rules": rules.name,
        "games": games,
        "seed": seed,
        "seconds": round(time.perf_counter() - started, 1),
        "command": command,
        "classic_optimum": classic.expected_final(classic.start),
        "multipliers": list(rules.card.multipliers),
        "strategies": rows,
    }


def render(data: dict[str, Any]) -> list[str]:
    """The page's block, from the stored results."""
    rows = data["strategies"]
    multiplied = sum(data["multipliers"]) * data["classic_optimum"]
    lines = [
        f"Triple Yahtzee (rules `{data['rules']}`), {data['games']:,} solitaire games a "
        f"strategy, the same seed for each; intervals at 99 %, produced by "
        f"`{data['command']}` with version {data['library']}:",
        "",
        "| strategy | mean score | standard deviation | lowest | highest |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['name']} | {row['mean']:.1f} ± {Z99 * row['stderr']:.1f} "
            f"| {row['std']:.1f} | {row['minimum']} | {row['maximum']} |"
        )
    lines += ["", "| pair | difference of the means |", "|---|---:|"]
    for one, other in itertools.combinations(rows, 2):
        spread = Z99 * math.hypot(one["stderr"], other["stderr"])
        lines.append(
            f"| {one['name']} over {other['name']} | {one['mean'] - other['mean']:+.1f} "
            f"± {spread:.1f} |"
        )
    lines += [
        "",
        f"The Classic optimum is {data['classic_optimum']:.4f}; "
        f"{' + '.join(str(m) for m in data['multipliers'])} = {sum(data['multipliers'])} times "
        f"it is {multiplied:.1f}.",
        "",
        "The strategies:",
        "",
    ]
    lines += [f"- **{name}**: {what}" for name, what in LINE_UP]
    return lines


def main(argv: list[str] | None = None) -> int:
    return PUBLISHED.main(
        argv, description=__doc__.splitlines()[0], games=100_000, play=play, render=render
    )


if __name__ == "__main__":
    raise SystemExit(main())
