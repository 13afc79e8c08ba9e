"""The exact score distribution under optimal-expectation play, and target play."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from yahtzee_rules import (
    Box,
    Category,
    Dice,
    JokerRule,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    roll_distribution,
    totals,
)

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.solver")

FORCED = Rules()
FREE = Rules(joker=JokerRule.FREE_CHOICE)
NO_JOKER = Rules(joker=JokerRule.NONE)
YACHT_RULES = Rules.from_name("yacht")

_ROLLS = {keep: list(roll_distribution(keep).items()) for keep in Keep.all()}


def thrown(dice: Dice, keep: Keep) -> str:
    """The faces thrown to turn ``keep`` into ``dice``."""
    rest = Counter(dice.faces) - Counter(keep.faces)
    return "".join(str(face) for face in sorted(rest.elements()))


def mix(parts: list[tuple[float, dict[int, float]]]) -> dict[int, float]:
    out: dict[int, float] = {}
    for weight, dist in parts:
        for total, p in dist.items():
            out[total] = out.get(total, 0.0) + weight * p
    return out


class BruteForce:
    """Every roll of every turn, through the public API, following best_action."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.rules = table.rules
        self.cards: dict[tuple[int | None, ...], dict[int, float]] = {}
        self.turns: dict[tuple[object, ...], dict[int, float]] = {}

    def card(self, card: Scorecard) -> dict[int, float]:
        if card.is_complete:
            return {totals(card, rules=self.rules).grand_total: 1.0}
        if card.boxes not in self.cards:
            start = Turn(card, rules=self.rules)
            self.cards[card.boxes] = mix(
                [
                    (float(p), self.turn(start.roll(outcome=thrown(d, Keep()))))
                    for d, p in _ROLLS[Keep()]
                ]
            )
        return self.cards[card.boxes]

    def turn(self, turn: Turn) -> dict[int, float]:
        key = (turn.card.boxes, turn.dice, turn.rolls_left)
        if key not in self.turns:
            action = solver.best_action(turn, self.table)
            if isinstance(action, Box):
                found = self.card(turn.fill(action))
            else:
                found = mix(
                    [
                        (float(p), self.turn(turn.roll(keep=action, outcome=thrown(d, action))))
                        for d, p in _ROLLS[action]
                    ]
                )
            self.turns[key] = found
        return self.turns[key]


def as_dict(d: Any) -> dict[int, float]:
    return {t: p for t, p in enumerate(d.probabilities) if p > 0}


def close(a: dict[int, float], b: dict[int, float]) -> bool:
    return all(abs(a.get(t, 0.0) - b.get(t, 0.0)) < 1e-12 for t in set(a) | set(b))


def open_card(rules: Rules, open_boxes: list[Box], points: int = 0) -> Scorecard:
    """A card with the given boxes open, the others filled with 0 (Chance with ``points``)."""
    card = rules.card
    boxes = {b: 0 for b in card.members if b not in open_boxes}
    chance = next((b for b in card.members if b.label in ("Chance", "Choice")), None)
    if chance is not None and chance in boxes and points:
        boxes[chance] = points
    return Scorecard(boxes, card=card)


REDUCED = [
    (FORCED, [Category.CHANCE]),
    (FORCED, [Category.YAHTZEE, Category.SIXES]),
    (FREE, [Category.YAHTZEE, Category.FULL_HOUSE]),
    (FORCED, [Category.FOURS, Category.FIVES, Category.SIXES]),
    (NO_JOKER, [Category.LARGE_STRAIGHT, Category.THREE_OF_A_KIND, Category.CHANCE]),
]


@pytest.mark.parametrize(("rules", "boxes"), REDUCED, ids=lambda x: getattr(x, "name", None))
def test_distributions_match_brute_force_on_reduced_games(rules: Rules, boxes: list[Box]) -> None:
    card = open_card(rules, boxes, points=20)
    table = solver.build_table(rules=rules, start=card)
    found = solver.score_distribution(card, table=table)
    assert math.fsum(found.probabilities) == pytest.approx(1, abs=1e-12)
    assert close(as_dict(found), BruteForce(table).card(card))
    assert found.mean == pytest.approx(table.expected_final(card), abs=1e-9)


def test_distribution_with_the_yahtzee_box_holding_50_counts_bonuses() -> None:
    card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
    card = Scorecard({**card.to_mapping(), Category.YAHTZEE: 50})
    table = solver.build_table(start=card)
    found = solver.score_distribution(card, table=table)
    assert close(as_dict(found), BruteForce(table).card(card))
    assert found.maximum == 50 + 2 * 100 + 30 + 30


def test_mid_turn_distributions_match_brute_force() -> None:
    card = open_card(FORCED, [Category.YAHTZEE, Category.SIXES, Category.CHANCE])
    table = solver.build_table(start=card)
    brute = BruteForce(table)
    turn = Turn(card).roll(outcome="66612")
    for position in (turn, turn.roll(keep="666", outcome="62")):
        found = solver.score_distribution(position, table=table)
        assert close(as_dict(found), brute.turn(position))


def test_yacht_distribution_matches_brute_force() -> None:
    design = YACHT_RULES.card
    open_boxes = [b for b in design.members if b.label in ("Yacht", "Full House")]
    card = Scorecard({b: 0 for b in design.members if b not in open_boxes}, card=design)
    table = solver.build_table(rules=YACHT_RULES, start=card)
    found = solver.score_distribution(card, table=table)
    assert close(as_dict(found), BruteForce(table).card(card))


def test_a_complete_card_has_its_total_for_certain() -> None:
    card = Scorecard({c: 0 for c in Category} | {Category.CHANCE: 17})
    table = solver.build_table(start=card)
    found = solver.score_distribution(card, table=table)
    assert found.probability(17) == 1.0
    assert found.median == found.minimum == found.maximum == 17


def test_distribution_refuses_mismatched_inputs() -> None:
    card = open_card(FORCED, [Category.CHANCE])
    table = solver.build_table(start=card)
    with pytest.raises(MalformedInputError, match="table for"):
        solver.score_distribution(card, rules=FREE, table=table)
    with pytest.raises(MalformedInputError, match="covers only"):
        solver.score_distribution(Scorecard(), table=table)
    with pytest.raises(MalformedInputError, match="not a Table"):
        solver.score_distribution(card, table="table")  # type: ignore[arg-type]


def test_score_distribution_values_are_checked() -> None:
    with pytest.raises(MalformedInputError, match="sums to 1"):
        solver.ScoreDistribution([0.5, 0.25])
    with pytest.raises(MalformedInputError, match="at least 0"):
        solver.ScoreDistribution([1.5, -0.5])
    with pytest.raises(MalformedInputError, match="from 0 to 100"):
        solver.ScoreDistribution([1.0]).percentile(101)
    with pytest.raises(MalformedInputError, match="not an int"):
        solver.ScoreDistribution([1.0]).p_at_least(1.5)  # type: ignore[arg-type]
    d = solver.ScoreDistribution([0.2, 0.3, 0.5])
    assert d == solver.ScoreDistribution((0.2, 0.3, 0.5))
    assert hash(d) == hash(solver.ScoreDistribution((0.2, 0.3, 0.5)))
    assert d.p_at_least(3) == 0.0 and d.p_at_least(-4) == 1.0
    assert d.percentile(0) == 0 and d.percentile(20) == 0 and d.percentile(20.5) == 1


@pytest.mark.slow
def test_free_choice_distribution_from_the_empty_card() -> None:
    table = solver.load_table(rules=FREE)
    found = solver.score_distribution(rules=FREE, table=table)
    assert found.mean == pytest.approx(table.value(Scorecard()), abs=1e-9)
    assert found.median == 248
    assert found.std == pytest.approx(59.6117, abs=5e-5)
