"""Rate the library's strategies by the cost of their choices, and write the figures into the docs.

Each strategy of the ladder plays the same solitaire games (the same seed) under
Hasbro's rules, rated by :func:`yahtzee_rules.bots.evaluation.evaluate`: its mean cost
a choice and a game against optimal play, beside its mean score. For each pair of
neighbours on the ladder, the games it takes to tell the two apart at 99 % by their
mean scores and by their mean costs a game (from the spread measured, for a normal
approximation: ``n = (2.576 / difference)^2 (sd_a^2 + sd_b^2)``).

    python scripts/bot_ladder.py --games 200                    # print the tables
    python scripts/bot_ladder.py --write --games 2000 --workers 2   # and publish them
    python scripts/bot_ladder.py --check                        # exit 1 if stale
    python scripts/bot_ladder.py --render                       # rewrite from the JSON

``--write`` stores the raw figures in ``docs/explanation/bot-ladder.json`` and rewrites
the marked block of ``docs/explanation/game-review.md`` from it. ``--check`` plays no
games (it imports neither the solver nor NumPy): it checks the file's format and that
the block is what this script renders from it. Every figure on the page comes from here.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from _published import Z99, Published  # noqa: E402

from yahtzee_rules import Box, GreedyStrategy, Keep, RandomStrategy, Rules, Turn  # noqa: E402

DATA = ROOT / "docs" / "explanation" / "bot-ladder.json"
PAGE = ROOT / "docs" / "explanation" / "game-review.md"
FORMAT = "yahtzee-rules bot ladder"

#: The ladder, weakest first: a name, and what the strategy is.
LADDER = (
    ("first box", "PolicyStrategy over a trivial policy: never rerolls, fills the first legal box"),
    ("random", "RandomStrategy: a random keep or stop, then a random legal box"),
    ("greedy", "GreedyStrategy: the most points now, keeps as a casual player does"),
    ("greedy keeps, optimal boxes", "GreedyStrategy's keeps, OptimalStrategy's boxes"),
    ("optimal", "OptimalStrategy: the most points expected"),
)

PUBLISHED = Published(DATA, PAGE, FORMAT, "ladder", tuple(name for name, _ in LADDER))
_block, write_block, _check_format = PUBLISHED.block, PUBLISHED.write_block, PUBLISHED.check_format


def first_legal_box(observation: Any, mask: Any) -> int:
    """A trivial policy for the RL adapter: the first box the mask allows (32 on)."""
    return next(action for action in range(32, len(mask)) if mask[action])


class GreedyKeepsOptimalBoxes:
    """Holds dice as GreedyStrategy does, fills boxes as OptimalStrategy does."""

    def __init__(self, optimal: Any) -> None:
        self.greedy = GreedyStrategy()
        self.optimal = optimal

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        return self.greedy.choose_keep(turn, rng)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        box: Box = self.optimal.choose_box(turn, rng)
        return box


def strategies(table: Any) -> dict[str, Any]:
    """The ladder's strategies, for ``table``'s rules."""
    from yahtzee_rules.bots.policy import PolicyStrategy
    from yahtzee_rules.bots.simulation import OptimalStrategy

    optimal = OptimalStrategy(table)
    made = {
        "first box": PolicyStrategy(first_legal_box),
        "random": RandomStrategy(),
        "greedy": GreedyStrategy(),
        "greedy keeps, optimal boxes": GreedyKeepsOptimalBoxes(optimal),
        "optimal": optimal,
    }
    assert list(made) == [name for name, _ in LADDER]
    return made


def play(games: int, seed: int, workers: int) -> dict[str, Any]:
    """Rate every strategy of the ladder over ``games`` games: the stored results."""
    from yahtzee_rules import __version__
    from yahtzee_rules.bots.evaluation import evaluate
    from yahtzee_rules.bots.solver import load_table

    rules = Rules()
    table = load_table(rules=rules)
    rows = []
    started = time.perf_counter()
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        for name, strategy in strategies(table).items():
            rated = evaluate(
                strategy, games=games, seed=seed, rules=rules, table=table, executor=pool
            )
            rows.append(
                {
                    "name": name,
                    "games": rated.games,
                    "choices": rated.choices,
                    "mean_score": rated.mean_score,
                    "score_stderr": rated.score_stderr,
                    "mean_cost": rated.mean_cost,
                    "cost_stderr": rated.cost_stderr,
                    "cost_per_game": rated.cost_per_game,
                    "cost_per_game_stderr": rated.cost_per_game_stderr,
                    "luck_per_game": rated.luck_per_game,
                    "luck_stderr": rated.luck_stderr,
                    "optimum": rated.optimum,
                }
            )
            print(f"{name}: {rated.games} games in {rated.seconds:.1f} s", file=sys.stderr)
    finally:
        if pool is not None:
            pool.shutdown()
    return {
        "format": FORMAT,
        "version": 1,
        "library": __version__,
        "rules": rules.name,
        "games": games,
        "seed": seed,
        "seconds": round(time.perf_counter() - started, 1),
        "command": f"python scripts/bot_ladder.py --write --games {games} --seed {seed}",
        "strategies": rows,
    }


def _sd(stderr: float, games: int) -> float:
    return stderr * math.sqrt(games)


def _games_to_tell_apart(difference: float, sd_a: float, sd_b: float) -> float:
    if difference == 0:
        return math.inf
    return (Z99 / difference) ** 2 * (sd_a * sd_a + sd_b * sd_b)


def render(data: dict[str, Any]) -> list[str]:
    """The page's block, from the stored results."""
    rows = data["strategies"]
    games = data["games"]
    lines = [
        f"Under Hasbro's rules, {games:,} solitaire games a strategy (the same dice for "
        f"each), against the optimum's {rows[0]['optimum']:.2f}; intervals at 99 %, "
        f"produced by `{data['command']}` with version {data['library']}:",
        "",
        "| strategy | mean score | mean cost a choice | mean cost a game | luck a game |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['name']} | {row['mean_score']:.2f} ± {Z99 * row['score_stderr']:.2f} "
            f"| {row['mean_cost']:.3f} ± {Z99 * row['cost_stderr']:.3f} "
            f"| {row['cost_per_game']:.2f} ± {Z99 * row['cost_per_game_stderr']:.2f} "
            f"| {row['luck_per_game']:+.2f} ± {Z99 * row['luck_stderr']:.2f} |"
        )
    lines += [
        "",
        "Games each strategy must play to tell neighbours on the ladder apart at 99 %, "
        "by their mean scores and by their mean costs a game:",
        "",
        "| pair | by mean score | by mean cost | by score / by cost |",
        "|---|---:|---:|---:|",
    ]
    for weaker, stronger in itertools.pairwise(rows):
        by_score = _games_to_tell_apart(
            stronger["mean_score"] - weaker["mean_score"],
            _sd(weaker["score_stderr"], games),
            _sd(stronger["score_stderr"], games),
        )
        by_cost = _games_to_tell_apart(
            weaker["cost_per_game"] - stronger["cost_per_game"],
            _sd(weaker["cost_per_game_stderr"], games),
            _sd(stronger["cost_per_game_stderr"], games),
        )
        lines.append(
            f"| {weaker['name']} / {stronger['name']} | {math.ceil(by_score):,} "
            f"| {math.ceil(by_cost):,} | {by_score / by_cost:.1f} times |"
        )
    lines += ["", "The ladder's strategies:", ""]
    lines += [f"- **{name}**: {what}" for name, what in LADDER]
    return lines


def main(argv: list[str] | None = None) -> int:
    return PUBLISHED.main(
        argv, description=__doc__.splitlines()[0], games=200, play=play, render=render
    )


if __name__ == "__main__":
    raise SystemExit(main())
