"""Scorecard values and totals (clauses R1.1, R3.2, R5, R8.1)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from yahtzee_rules import (
    Category,
    MalformedInputError,
    Rules,
    Scorecard,
    possible_values,
    totals,
)
from yahtzee_rules.testing import strategies as yst

C = Category


@pytest.mark.parametrize(
    ("boxes", "marks", "message"),
    [
        ({C.TWOS: 7}, 0, "no roll scores 7 in Twos"),
        ({C.FULL_HOUSE: 24}, 0, "no roll scores 24 in Full House"),
        ({C.CHANCE: 31}, 0, "no roll scores 31 in Chance"),
        ({C.CHANCE: 4}, 0, "no roll scores 4 in Chance"),
        ({C.YAHTZEE: 25}, 0, "no roll scores 25 in Yahtzee"),
        ({C.ACES: -1}, 0, "no roll scores -1 in Aces"),
        ({C.ACES: True}, 0, "a bool, not points"),
        ({C.ACES: 3.0}, 0, "a float, not points"),
        ({C.YAHTZEE: 0, C.FOURS: 20}, 1, "need 50 in the Yahtzee box, which holds 0"),
        ({C.FOURS: 20}, 1, "which holds None"),
        ({C.YAHTZEE: 50}, 1, "only 0 filled boxes could hold an extra Yahtzee"),
        ({C.YAHTZEE: 50, C.FOURS: 12}, 1, "only 0 filled boxes"),
        ({C.YAHTZEE: 50, C.FOURS: 20}, 2, "only 1 filled boxes"),
        ({C.YAHTZEE: 50}, -1, "not a non-negative int"),
        ({C.YAHTZEE: 50}, True, "not a non-negative int"),
        ({3: 9}, 0, "not a Category"),
        ([None] * 12, 0, "12 values given"),
        ("3,6,9", 0, "give a mapping"),
    ],
)
def test_impossible_cards_are_refused(boxes: Any, marks: Any, message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        Scorecard(boxes, bonus_marks=marks)


def test_possible_values_per_box() -> None:
    assert possible_values(C.SIXES) == {0, 6, 12, 18, 24, 30}
    assert possible_values(C.SMALL_STRAIGHT) == {0, 30}
    assert possible_values(C.LARGE_STRAIGHT) == {0, 40}
    assert possible_values(C.YAHTZEE) == {0, 50}
    assert possible_values(C.CHANCE) == set(range(5, 31))  # no roll and no Joker writes 0
    assert possible_values(C.THREE_OF_A_KIND) == {0, *range(5, 31)}


@given(yst.scorecards())
def test_reachable_cards_survive_validation_and_repr(card: Scorecard) -> None:
    rebuilt = Scorecard(card.boxes, bonus_marks=card.bonus_marks)
    assert rebuilt == card
    assert hash(rebuilt) == hash(card)
    assert Scorecard(card.to_mapping(), bonus_marks=card.bonus_marks) == card
    assert eval(repr(card), {"Scorecard": Scorecard, "Category": Category}) == card
    assert len(card.open_categories) + len(card.filled_categories) == 13
    assert card.turns_played == len(card.filled_categories)


@given(yst.scorecards(), yst.rules())
def test_totals_add_up(card: Scorecard, rules: Rules) -> None:
    t = totals(card, rules=rules)
    upper = sum(card[c] or 0 for c in Category.upper())
    lower = sum(card[c] or 0 for c in Category.lower())
    assert t.upper_subtotal == upper
    assert t.upper_bonus == (rules.upper_bonus if upper >= rules.upper_bonus_threshold else 0)
    assert t.upper_total == upper + t.upper_bonus
    assert t.lower_subtotal == lower
    assert t.yahtzee_bonus == card.bonus_marks * rules.yahtzee_bonus
    assert t.lower_total == lower + t.yahtzee_bonus
    assert t.grand_total == t.upper_total + t.lower_total
    assert t.upper_bonus_needed == max(0, rules.upper_bonus_threshold - upper) or t.upper_bonus


@given(yst.scorecards(min_filled=13))
def test_a_complete_card_is_within_the_possible_range(card: Scorecard) -> None:
    assert card.is_complete
    assert not card.open_categories
    # 1,575 is the highest possible Classic total (12 extra Yahtzees).
    assert 0 <= totals(card).grand_total <= 1575
    assert card.bonus_marks <= 12


def test_cards_are_immutable_values() -> None:
    card = Scorecard({C.ACES: 3})
    with pytest.raises(AttributeError):
        card.boxes = (None,) * 13  # type: ignore[misc]
    mapping = {C.ACES: 3}
    Scorecard(mapping)
    assert mapping == {C.ACES: 3}


def test_totals_refuse_other_types() -> None:
    with pytest.raises(MalformedInputError, match="not a Scorecard"):
        totals({C.ACES: 3})  # type: ignore[arg-type]
