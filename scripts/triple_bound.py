"""An upper bound on the optimum of Triple Yahtzee, from a relaxation; written into the docs.

    nice python scripts/triple_bound.py --write    # compute (minutes), store, render
    python scripts/triple_bound.py --check          # exit 1 if the page is stale
    python scripts/triple_bound.py --render         # rewrite the block from the JSON

The bound, for the rules ``triple`` (the page says why it holds)::

    optimum <= (1 + 2 + 3) * W + 100 * E[max(B - 3, 0)]

- ``W``: the best expected score of one Classic column alone over all 39 turns, rolling
  its own dice each turn and then filling one of its open boxes *or letting the turn
  pass*, with five dice of a kind scored at the free-choice Joker's values in any open
  box once its Yahtzee box is filled, and no extra-Yahtzee bonus (boxes left open at
  the end score 0). Solved exactly here: the Classic states times the turns left, one
  sweep of the solver's own kernels per turn.
- ``B``: binomial, 39 turns, each ending on five dice of a kind with the best chance a
  turn can have (``q``, solved here by the same kernels): a bound on how many turns
  end so, of which the first three must fill the Yahtzee boxes before any bonus.

``--write`` stores the figures in ``docs/explanation/triple-bound.json`` and rewrites
the marked block of ``docs/explanation/triple-yahtzee.md``; ``--check`` computes
nothing (it imports neither the solver nor NumPy).
"""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from _published import Published  # noqa: E402

DATA = ROOT / "docs" / "explanation" / "triple-bound.json"
PAGE = ROOT / "docs" / "explanation" / "triple-yahtzee.md"
FORMAT = "yahtzee-rules triple bound"
TURNS = 39  # a Triple Yahtzee game: 3 columns of 13 boxes, one box a turn
YAHTZEE_BOXES = 3
BONUS = 100  # the extra-Yahtzee bonus of the rules "triple", added once

PUBLISHED = Published(DATA, PAGE, FORMAT, "triple-bound", ())
_block, _check_format = PUBLISHED.block, PUBLISHED.check_format


def column_rules() -> Any:
    """The relaxed column's rules: the Classic card, the free-choice Joker, no bonus."""
    from yahtzee_rules import Rules

    return Rules(joker="free-choice", yahtzee_bonus=0)


def best_yahtzee_chance() -> float:
    """The best chance a turn (three rolls, any keeps) can end on five dice of a kind."""
    import numpy as np

    from yahtzee_rules.bots.solver._internal import (
        average_keeps,
        best_over_subkeeps,
        dice_geometry,
    )
    from yahtzee_rules.bots.solver._kernels import workspace_for

    g = dice_geometry()
    space = workspace_for(1)
    keep = space.keeps(0, 1)
    keep[g.five :, 0] = [1.0 if d.faces[0] == d.faces[4] else 0.0 for d in g.dice]
    best_over_subkeeps(average_keeps(keep, space), space)
    rolls = best_over_subkeeps(average_keeps(keep, space), space)
    return float(np.einsum("i,ij->j", g.probability, rolls)[0])


def excess_mean(turns: int, chance: float, free: int) -> float:
    """``E[max(B - free, 0)]`` for ``B`` binomial with ``turns`` trials of ``chance``."""
    return math.fsum(
        (k - free) * math.comb(turns, k) * chance**k * (1 - chance) ** (turns - k)
        for k in range(free + 1, turns + 1)
    )


def column_value(turns: int, progress: bool = True, *, passing: bool = True) -> float:
    """``W``: the relaxed column's best expected score from the empty card, ``turns`` turns
    (``passing=False``: every turn fills a box, as in the Classic game)."""
    import numpy as np

    from yahtzee_rules.bots.solver._geometry import CHUNK
    from yahtzee_rules.bots.solver._internal import (
        BuildPlan,
        average_keeps,
        best_over_subkeeps,
        dice_geometry,
        final_values,
        flat_index,
        model_of,
    )
    from yahtzee_rules.bots.solver._kernels import workspace_for

    model = model_of(column_rules())
    plan = BuildPlan(model, 0)
    g = dice_geometry()
    five = g.five
    boxes = model.card.n
    previous = np.zeros(model.states_count)  # no turn left: nothing more to score
    started = time.perf_counter()
    for left in range(1, turns + 1):
        values = np.zeros(model.states_count)
        for index in range(1, len(plan.levels)):  # level 0: complete cards, worth 0
            filled = boxes - index
            if filled > turns - left:  # not reachable with this many turns left
                continue
            masks, uppers, flags = plan.solving[index]
            for lo in range(0, len(masks), CHUNK):
                m, u, y = (a[lo : lo + CHUNK].astype(np.intp) for a in (masks, uppers, flags))
                size = len(m)
                space = workspace_for(size)
                keep = space.keeps(0, size)
                final_values(model, previous, m, u, y, out=keep[five:])
                here = flat_index(model, m, u, y)
                if passing:  # or let the turn pass, after the last roll: a turn fewer
                    np.maximum(keep[five:], previous[here], out=keep[five:])
                best_over_subkeeps(average_keeps(keep, space), space)
                rolls = best_over_subkeeps(average_keeps(keep, space), space)
                values[here] = np.einsum("i,ij->j", g.probability, rolls)
            level = plan.levels[index]
            values[level.targets] = values[level.sources]
        previous = values
        if progress:
            start = previous[flat_index(model, 0, 0, 0)]
            print(
                f"{left} turns left: {start:.4f} from the empty card "
                f"({time.perf_counter() - started:.0f} s)",
                file=sys.stderr,
            )
    return float(previous[flat_index(model, 0, 0, 0)])


def play(games: int, seed: int, workers: int) -> dict[str, Any]:
    """Compute the bound's parts (``games``, ``seed``, ``workers`` are not used)."""
    from yahtzee_rules import Rules, __version__

    rules = Rules.from_name("triple")
    multipliers = [int(m) for m in rules.card.multipliers]
    assert len(rules.card.columns) * 13 == TURNS
    assert rules.yahtzee_bonus == BONUS
    started = time.perf_counter()
    chance = best_yahtzee_chance()
    excess = excess_mean(TURNS, chance, YAHTZEE_BOXES)
    column = column_value(TURNS)
    bound = sum(multipliers) * column + BONUS * excess
    return {
        "format": FORMAT,
        "version": 1,
        "library": __version__,
        "rules": rules.name,
        "column_rules": column_rules().name,
        "turns": TURNS,
        "multipliers": multipliers,
        "column_value": column,
        "yahtzee_chance": chance,
        "yahtzee_chance_fraction": str(Fraction(chance).limit_denominator(60466176)),
        "bonus_excess": excess,
        "bound": bound,
        "seconds": round(time.perf_counter() - started, 1),
        "command": "python scripts/triple_bound.py --write",
        "strategies": [],
    }


def render(data: dict[str, Any]) -> list[str]:
    """The page's block, from the stored figures."""
    total = sum(data["multipliers"])
    return [
        f"For the rules `{data['rules']}`, produced by `{data['command']}` with version "
        f"{data['library']}:",
        "",
        "| part | value |",
        "|---|---:|",
        f"| W: one column alone, {data['turns']} turns, passing allowed "
        f"(rules `{data['column_rules']}`) | {data['column_value']:.4f} |",
        f"| {' + '.join(str(m) for m in data['multipliers'])} = {total} times W "
        f"| {total * data['column_value']:.1f} |",
        f"| q: the best chance a turn ends on five of a kind | {data['yahtzee_chance']:.6f} |",
        f"| {BONUS} times E[max(B - 3, 0)], B binomial ({data['turns']}, q) "
        f"| {BONUS * data['bonus_excess']:.2f} |",
        f"| **upper bound on the optimum** | **{data['bound']:.1f}** |",
    ]


def main(argv: list[str] | None = None) -> int:
    return PUBLISHED.main(
        argv, description=__doc__.splitlines()[0], games=0, play=play, render=render
    )


if __name__ == "__main__":
    raise SystemExit(main())
