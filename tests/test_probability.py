"""Exact probabilities: roll distributions and the chance of making a pattern."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee_rules import (
    Category,
    Dice,
    Keep,
    MalformedInputError,
    best_keep,
    chance_of,
    roll_distribution,
    score,
)
from yahtzee_rules.testing import strategies as yst

ORDERED_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def ordered_count(category: Category) -> int:
    """Brute force over the 7,776 ordered rolls: how many score in ``category``."""
    return sum(1 for faces in ORDERED_ROLLS if score(Dice(faces), category) > 0)


class TestRollDistribution:
    def test_first_roll_matches_the_7776_ordered_rolls(self) -> None:
        counts = Counter(Dice(faces) for faces in ORDERED_ROLLS)
        distribution = roll_distribution()
        assert len(distribution) == 252
        assert {d: p * 7776 for d, p in distribution.items()} == counts

    @pytest.mark.parametrize(
        ("category", "count"),
        [
            (Category.YAHTZEE, 6),
            (Category.LARGE_STRAIGHT, 240),
            (Category.SMALL_STRAIGHT, 1200),
            (Category.FULL_HOUSE, 300),
        ],
    )
    def test_known_counts_over_ordered_rolls(self, category: Category, count: int) -> None:
        assert ordered_count(category) == count
        hit = sum(p for d, p in roll_distribution().items() if score(d, category) > 0)
        assert hit == Fraction(count, 7776)
        assert chance_of(category, rolls_left=1) == hit

    @given(yst.keeps())
    def test_is_a_distribution_over_the_rolls_containing_the_keep(self, keep: Keep) -> None:
        distribution = roll_distribution(keep)
        assert sum(distribution.values()) == 1
        assert all(p > 0 for p in distribution.values())
        assert set(distribution) == {d for d in Dice.all() if keep.issubset(d)}

    @given(yst.keeps())
    def test_matches_enumerating_the_thrown_dice(self, keep: Keep) -> None:
        thrown = 5 - len(keep)
        counts = Counter(
            Dice((*keep.faces, *faces)) for faces in itertools.product(range(1, 7), repeat=thrown)
        )
        assert dict(roll_distribution(keep)) == {
            d: Fraction(n, 6**thrown) for d, n in counts.items()
        }

    def test_accepts_keep_like_values(self) -> None:
        assert roll_distribution("66") == roll_distribution(Keep("66")) == roll_distribution([6, 6])
        assert roll_distribution(None) == roll_distribution(Keep())

    def test_rejects_bad_keeps(self) -> None:
        with pytest.raises(MalformedInputError, match="'1234567'"):
            roll_distribution("1234567")


def yahtzee_markov_chain() -> Fraction:
    """P(Yahtzee in a turn) derived independently: keep the most common face, reroll the rest.

    The state is how many dice show the most common face (1-5); transition counts come
    from enumerating the ordered throws of the other dice.
    """

    def first_roll() -> dict[int, Fraction]:
        tally = Counter(max(Counter(f).values()) for f in ORDERED_ROLLS)
        return {k: Fraction(n, 7776) for k, n in tally.items()}

    def step(held: int) -> dict[int, Fraction]:
        if held == 5:
            return {5: Fraction(1)}
        thrown = 5 - held
        tally: Counter[int] = Counter()
        for faces in itertools.product(range(1, 7), repeat=thrown):
            # the held dice show 1s (the face does not matter by symmetry)
            counts = Counter((1,) * held + faces)
            tally[max(counts.values())] += 1
        return {k: Fraction(n, 6**thrown) for k, n in tally.items()}

    state = first_roll()
    for _ in range(2):
        new: dict[int, Fraction] = Counter()  # type: ignore[assignment]
        for held, p in state.items():
            for k, q in step(held).items():
                new[k] += p * q
        state = new
    return state.get(5, Fraction(0))


def test_yahtzee_in_a_turn_is_the_published_figure() -> None:
    derived = yahtzee_markov_chain()
    assert derived == Fraction(2_783_176, 60_466_176)
    assert chance_of(Category.YAHTZEE) == derived
    assert round(float(derived), 5) == 0.04603


patterns = st.sampled_from(
    [
        Category.YAHTZEE,
        Category.LARGE_STRAIGHT,
        Category.SMALL_STRAIGHT,
        Category.FULL_HOUSE,
        Category.FOUR_OF_A_KIND,
        Category.SIXES,
    ]
)


@given(patterns, yst.dice(), st.integers(0, 2))
def test_bellman_equation(category: Category, dice: Dice, rolls_left: int) -> None:
    """The chance with r rolls left is the best keep's average of the chance with r - 1."""
    here = chance_of(category, dice, rolls_left=rolls_left)
    if rolls_left == 0:
        assert here == (1 if score(dice, category) > 0 else 0)
        return
    values = {
        keep: sum(
            p * chance_of(category, after, rolls_left=rolls_left - 1)
            for after, p in roll_distribution(keep).items()
        )
        for keep in dice.keeps()
    }
    best = max(values.values())
    assert here == max(best, chance_of(category, dice, rolls_left=rolls_left - 1))
    keep, value = best_keep(category, dice, rolls_left=rolls_left)
    assert value == here
    assert keep.issubset(dice)
    if keep != Keep(dice):
        assert values[keep] == here


@given(patterns, yst.dice())
def test_more_rolls_never_hurt(category: Category, dice: Dice) -> None:
    chances = [chance_of(category, dice, rolls_left=r) for r in range(3)]
    assert chances == sorted(chances)
    assert 0 <= chances[0] <= chances[2] <= 1


def test_a_turn_before_rolling_averages_over_the_first_roll() -> None:
    for category in (Category.YAHTZEE, Category.FULL_HOUSE):
        expected = sum(
            p * chance_of(category, d, rolls_left=2) for d, p in roll_distribution().items()
        )
        assert chance_of(category) == expected


def test_predicates_and_categories_agree() -> None:
    def is_large_straight(dice: Dice) -> bool:
        return set(dice.faces) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})

    assert chance_of(is_large_straight) == chance_of(Category.LARGE_STRAIGHT)
    assert chance_of(is_large_straight, "12346", rolls_left=1) == Fraction(1, 6)


def test_ties_prefer_holding_fewer_dice() -> None:
    keep, value = best_keep(Category.CHANCE, "12345")  # Chance always scores
    assert (keep, value) == (Keep(), Fraction(1))


def test_no_rolls_left_holds_everything() -> None:
    assert best_keep(Category.YAHTZEE, "22222", rolls_left=0) == (Keep("22222"), Fraction(1))


@pytest.mark.parametrize("rolls_left", [0, 4, -1, True, 1.0])
def test_rejects_bad_rolls_before_the_first_roll(rolls_left: object) -> None:
    with pytest.raises(MalformedInputError, match="rolls_left"):
        chance_of(Category.YAHTZEE, rolls_left=rolls_left)  # type: ignore[arg-type]


@pytest.mark.parametrize("rolls_left", [3, -1, False])
def test_rejects_bad_rolls_after_a_roll(rolls_left: object) -> None:
    with pytest.raises(MalformedInputError, match="rolls_left"):
        chance_of(Category.YAHTZEE, "12345", rolls_left=rolls_left)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="rolls_left"):
        best_keep(Category.YAHTZEE, "12345", rolls_left=rolls_left)  # type: ignore[arg-type]


def test_rejects_targets_that_are_not_patterns() -> None:
    with pytest.raises(MalformedInputError, match="target 'yahtzee'"):
        chance_of("yahtzee")  # type: ignore[arg-type]

    def not_a_test(dice: Dice) -> int:
        return dice.total

    with pytest.raises(MalformedInputError, match="returns True or False"):
        chance_of(not_a_test)  # type: ignore[arg-type]
