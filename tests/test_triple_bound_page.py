"""The upper bound on Triple Yahtzee's optimum on its page is the script's rendering.

``scripts/triple_bound.py --write`` solves the relaxed column game, keeps the figures in
``docs/explanation/triple-bound.json`` and writes the page's marked block; ``--check``
(run here; it computes nothing) fails when the block is not that rendering. The
relaxation's kernels are checked on the one-turn game against plain recursion.
"""

from __future__ import annotations

import functools
import json
import math
from itertools import product

import pytest

from _scripts import check_runs_light, load_script
from yahtzee_rules import Dice, Turn


def test_the_check_passes_and_computes_nothing() -> None:
    check_runs_light("triple_bound", "numpy", "yahtzee_rules.bots.solver")


def test_a_stale_block_is_found_and_the_bound_is_above_what_is_played() -> None:
    script = load_script("triple_bound")
    data = script._check_format(json.loads(script.DATA.read_text(encoding="utf-8")))
    assert script.render(data) == script._block()
    strength = load_script("triple_strength")
    played = json.loads(strength.DATA.read_text(encoding="utf-8"))
    best = max(row["mean"] + strength.Z99 * row["stderr"] for row in played["strategies"])
    assert data["bound"] > best  # a bound on the optimum is above every strategy's mean
    assert data["bound"] == pytest.approx(
        sum(data["multipliers"]) * data["column_value"] + 100 * data["bonus_excess"]
    )
    data["column_value"] += 1
    assert script.render(data) != script._block()


def test_the_best_chance_of_five_of_a_kind_in_a_turn() -> None:
    pytest.importorskip("numpy")
    script = load_script("triple_bound")
    assert script.best_yahtzee_chance() == pytest.approx(2783176 / 6**10, abs=1e-15)


def test_one_turn_of_the_column_game_is_the_best_box_by_plain_recursion() -> None:
    """With one turn left, the column game is worth the best expected single fill."""
    pytest.importorskip("numpy")
    script = load_script("triple_bound")
    rules = script.column_rules()

    @functools.cache
    def after(faces: tuple[int, ...], left: int) -> float:
        dice = Dice(faces)
        best = float(max(Turn(rules=rules).roll(outcome=faces).options.values()))  # the rules
        if left:
            for kept in {tuple(k.faces) for k in dice.keeps()}:
                best = max(best, held(kept, left))
        return best

    @functools.cache
    def held(kept: tuple[int, ...], left: int) -> float:
        rest = 5 - len(kept)
        total = math.fsum(
            after(tuple(sorted(kept + thrown)), left - 1)
            for thrown in product(range(1, 7), repeat=rest)
        )
        return total / float(6**rest)

    expected = held((), 3)
    assert script.column_value(1, progress=False) == pytest.approx(expected, abs=1e-9)


@pytest.mark.slow
def test_thirteen_turns_without_passing_are_the_classic_game() -> None:
    """With as many turns as boxes and none let pass, the column game is the Classic game
    under its rules, whose table the solver builds; letting turns pass is worth more (a
    box given up can be chosen at the end)."""
    pytest.importorskip("numpy")
    from yahtzee_rules.bots.solver import load_table

    script = load_script("triple_bound")
    table = load_table(rules=script.column_rules())
    optimum = table.expected_final(table.start)
    assert script.column_value(13, False, passing=False) == pytest.approx(optimum, abs=1e-9)
    assert script.column_value(13, False) > optimum + 1
