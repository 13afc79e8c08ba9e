"""Solver tables are keyed by what their values depend on: never by the tie rule.

The tie rule only says who wins a finished game, so a game that differs from a
cached table's only in its tie rule reads the same file, and takes advice from the
same table, for every kind of table the solver keeps (expected values, decisions,
target tables).
"""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import numpy as np
import pytest

from yahtzee_rules import Category, MalformedInputError, Rules, Scorecard, TieRule, Turn

solver = pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.simulation import OptimalStrategy  # noqa: E402

LATE = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
TIES = [tie for tie in TieRule if tie is not TieRule.SHARE]
RULESETS = [Rules(), Rules.from_name("yacht"), Rules.from_name("yatzy")]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    return tmp_path


def _late(rules: Rules) -> Scorecard:
    boxes = rules.card.members
    return Scorecard(dict.fromkeys(boxes[:-2], 0), card=rules.card)


def _never(done: int, total: int) -> None:
    raise AssertionError("a table the cache holds was built again")


@pytest.mark.parametrize("tie", TIES)
@pytest.mark.parametrize("rules", RULESETS, ids=str)
def test_a_tie_rule_only_difference_reads_the_same_table_file(
    cache: Path, rules: Rules, tie: TieRule
) -> None:
    other = attrs.evolve(rules, tie=tie)
    start = _late(rules)
    assert solver.cache_path(rules=other, start=start) == solver.cache_path(
        rules=rules, start=start
    )
    built = solver.load_table(rules=rules, start=start)
    again = solver.load_table(rules=other, start=start, progress=_never)
    assert np.array_equal(again.values, built.values)
    assert again.rules == other  # the table answers for the rules asked for
    assert len(list(cache.glob("optimal-*.npz"))) == 1


@pytest.mark.parametrize("tie", TIES)
def test_a_tie_rule_only_difference_reads_the_same_decision_file(cache: Path, tie: TieRule) -> None:
    yacht = Rules.from_name("yacht")
    first = solver.load_decisions(solver.build_table(rules=yacht))
    other = solver.build_table(rules=attrs.evolve(yacht, tie=tie))
    second = solver.load_decisions(other)
    assert second.path == first.path
    assert len(list(cache.glob("decisions-*.npy"))) == 1


@pytest.mark.parametrize("tie", TIES)
def test_a_tie_rule_only_difference_reads_the_same_target_file(cache: Path, tie: TieRule) -> None:
    card = Scorecard({c: 0 for c in Category if c not in (Category.CHANCE, Category.ACES)})
    first = solver.target_table(start=card, maximum=40)
    other = attrs.evolve(Rules(), tie=tie)
    second = solver.target_table(rules=other, start=card, maximum=40, progress=_never)
    assert second.probability(card, 30) == first.probability(card, 30)
    assert len(list(cache.glob("target-*.npz"))) == 1


@pytest.mark.parametrize("tie", TIES)
def test_a_table_advises_a_game_whose_only_difference_is_the_tie_rule(tie: TieRule) -> None:
    table = solver.build_table(start=LATE)
    rules = attrs.evolve(Rules(), tie=tie)
    turn = Turn(LATE, rules=rules).roll(outcome="66612")
    shared = Turn(LATE).roll(outcome="66612")
    assert solver.best_action(turn, table) == solver.best_action(shared, table)
    assert solver.best_box(turn, table) == solver.best_box(shared, table)
    assert solver.advise(turn, table).best == solver.advise(shared, table).best
    optimal = OptimalStrategy(table, rules=rules)
    assert optimal.choose_box(turn, random.Random(0)) == solver.best_box(shared, table)
    distribution = solver.score_distribution(turn, table=table)
    assert distribution.mean == solver.score_distribution(shared, table=table).mean


def test_a_table_still_refuses_rules_whose_values_differ() -> None:
    table = solver.build_table(start=LATE)
    turn = Turn(LATE, rules=Rules(upper_bonus=36)).roll(outcome="66612")
    with pytest.raises(MalformedInputError, match="the turn plays"):
        solver.best_action(turn, table)
