"""Known answers over all 7,776 ordered rolls of five dice.

Published figures: 6 Yahtzees ("a 1 in 1,296 chance" in one throw, rules document
001); 240 large straights, 2 x 5! (C. Taylor, "The Probability of a Large Straight in
Yahtzee in a Single Roll", ThoughtCo, 2017: about 3.09%); 1,200 small straights with
large straights included (C. Taylor, "Probability of a Small Straight in Yahtzee in a
Single Roll": 1200/7776, about 15.43%); 300 full houses (about 3.86%). The same
numbers are the design notes' known reference numbers. Each count is also derived
again below from first principles.
"""

from __future__ import annotations

import itertools
from math import comb

import pytest

from yahtzee_rules import Category, Dice, score

ORDERED_ROLLS = list(itertools.product(range(1, 7), repeat=5))


AS_DICE = {roll: Dice(roll) for roll in ORDERED_ROLLS}


def nonzero(category: Category) -> int:
    return sum(1 for roll in ORDERED_ROLLS if score(AS_DICE[roll], category) > 0)


def test_there_are_7776_ordered_rolls_and_252_distinct_ones() -> None:
    assert len(ORDERED_ROLLS) == 6**5 == 7776
    assert len(set(AS_DICE.values())) == comb(6 + 5 - 1, 5) == 252
    assert set(Dice.all()) == set(AS_DICE.values())


@pytest.mark.parametrize(
    ("category", "expected"),
    [
        # five equal dice: one per face
        (Category.YAHTZEE, 6),
        # 1-2-3-4-5 or 2-3-4-5-6 in any order: 2 * 5!
        (Category.LARGE_STRAIGHT, 2 * 120),
        # published figure, large straights included
        (Category.SMALL_STRAIGHT, 1200),
        # face of the triple (6) * face of the pair (5) * positions of the pair C(5,2)
        (Category.FULL_HOUSE, 6 * 5 * comb(5, 2)),
        # exactly four (6 faces * 5 others * 5 positions) plus five of a kind
        (Category.FOUR_OF_A_KIND, 6 * 5 * 5 + 6),
        # exactly three (6 * C(5,3) * 5 * 5) plus at least four
        (Category.THREE_OF_A_KIND, 6 * comb(5, 3) * 25 + 156),
        # every roll scores in Chance
        (Category.CHANCE, 7776),
    ],
)
def test_lower_box_nonzero_counts(category: Category, expected: int) -> None:
    assert nonzero(category) == expected


@pytest.mark.parametrize("category", Category.upper())
def test_upper_box_scores_unless_the_face_is_absent(category: Category) -> None:
    assert nonzero(category) == 6**5 - 5**5 == 4651


def test_yahtzee_in_one_throw_is_1_in_1296() -> None:
    """001: rolling five of a kind in a single throw is a 1 in 1,296 chance."""
    assert nonzero(Category.YAHTZEE) * 1296 == 7776


def test_multiset_weights_add_up_to_the_ordered_rolls() -> None:
    for dice in Dice.all():
        assert dice.ways == sum(1 for roll in ORDERED_ROLLS if AS_DICE[roll] == dice)
