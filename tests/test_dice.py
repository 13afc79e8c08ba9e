"""Dice and keeps: construction, notation, validation (clauses R2.2, R4)."""

from __future__ import annotations

import itertools
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee_rules import Dice, Keep, MalformedInputError
from yahtzee_rules.core.dice import outcome_index, roll_table
from yahtzee_rules.testing import strategies as yst


def test_text_and_list_forms_are_equal() -> None:
    assert Dice("13366") == Dice([1, 3, 3, 6, 6]) == Dice((6, 3, 1, 6, 3))
    assert hash(Dice("13366")) == hash(Dice([6, 6, 3, 3, 1]))


@given(st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_order_never_matters(faces: list[int]) -> None:
    original = list(faces)
    dice = Dice(faces)
    assert faces == original  # the input is not mutated
    assert dice == Dice(sorted(faces)) == Dice(reversed(faces))
    assert dice.faces == tuple(sorted(faces))
    assert dice.total == sum(faces)
    assert sum(dice.counts) == 5
    assert all(dice.count(f) == faces.count(f) for f in range(1, 7))


@given(yst.dice())
def test_str_and_repr_round_trip(dice: Dice) -> None:
    assert Dice(str(dice)) == dice
    assert eval(repr(dice), {"Dice": Dice}) == dice
    assert len(str(dice)) == 5


@given(yst.dice())
def test_keeps_are_exactly_the_sub_multisets(dice: Dice) -> None:
    keeps = dice.keeps()
    assert len(set(keeps)) == len(keeps)
    for keep in Keep.all():
        subset = all(keep.faces.count(f) <= dice.count(f) for f in range(1, 7))
        assert keep.issubset(dice) == subset
        assert (keep in keeps) == subset


def test_there_are_462_keeps() -> None:
    assert len(Keep.all()) == len(set(Keep.all())) == 462
    assert Keep() == Keep("") == Keep([])


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1234", "not five digits"),
        ("123456", "not five digits"),
        ("12a45", "not five digits"),
        ("1 2 3", "not five digits"),
        ("12347", "face 7 is outside 1-6"),
        ("02345", "face 0 is outside 1-6"),
        ("\uff11\uff12\uff13\uff14\uff15", "not five digits"),  # full-width digits
        ([1, 2, 3], "3 faces given"),
        ([1, 2, 3, 4, 5, 6], "6 faces given"),
        ([1, 2, 3, 4, True], "face True is a bool, not an int"),
        ([1, 2, 3, 4, 5.0], "face 5.0 is a float, not an int"),
        ([1, 2, 3, 4, "5"], "face '5' is a str, not an int"),
        ([1, 2, 3, 4, 9], "face 9 is outside 1-6"),
        (12345, "an int is not dice"),
        (None, "a NoneType is not dice"),
        (b"12345", "a bytes is not dice"),
        ({1, 2, 3, 4, 5}, "a set is not dice"),
    ],
)
def test_bad_dice_are_refused_with_a_message_naming_the_input(value: Any, message: str) -> None:
    with pytest.raises(MalformedInputError, match=message) as info:
        Dice(value)
    assert repr(value)[:10] in str(info.value)


@pytest.mark.parametrize("value", ["1234567", [1, 2, 3, 4, 5, 6], "7", [0]])
def test_bad_keeps_are_refused(value: Any) -> None:
    with pytest.raises(MalformedInputError, match="keep"):
        Keep(value)


def test_dice_are_immutable() -> None:
    dice = Dice("12345")
    with pytest.raises(AttributeError):
        dice.faces = (6, 6, 6, 6, 6)  # type: ignore[misc]
    assert dice == Dice("12345")


def test_dice_survive_pickling_with_their_tables() -> None:
    dice = pickle.loads(pickle.dumps(Dice("13366")))
    assert dice == Dice("13366")
    assert dice.total == 19


def test_from_counts_and_its_errors() -> None:
    assert Dice.from_counts([0, 0, 0, 0, 0, 5]) == Dice("66666")
    with pytest.raises(MalformedInputError, match="adding up to five"):
        Dice.from_counts([1, 1, 1, 1, 1, 1])


def test_roll_uses_only_the_given_generator() -> None:
    state = random.getstate()
    first = [Dice.roll(random.Random(11)) for _ in range(3)]
    assert first == [Dice.roll(random.Random(11)) for _ in range(3)]
    assert random.getstate() == state


def test_rolls_are_fair_over_many_throws() -> None:
    rng = random.Random(5)
    counts = [0] * 6
    for _ in range(6000):
        for face in Dice.roll(rng):
            counts[face - 1] += 1
    # 30,000 faces: each face 5,000 +- 4.5 standard deviations (sd ~ 64.5)
    assert all(abs(c - 5000) < 290 for c in counts)


def test_every_outcome_of_every_keep_reads_its_digits_as_documented() -> None:
    # roll_table's index is the thrown faces read as base-6 digits, least significant
    # first (outcome_index, its documented inverse), and the entry is the dice they make

    for keep in Keep.all():
        table = roll_table(keep)
        thrown = 5 - len(keep.faces)
        assert len(table) == 6**thrown
        for faces in itertools.product(range(1, 7), repeat=thrown):
            assert table[outcome_index(faces)] == Dice(keep.faces + faces)
