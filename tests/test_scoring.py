"""Scoring, the Joker variants and filling boxes (clauses R2.3-R2.4, R3-R7)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee_rules import (
    Box,
    Category,
    Dice,
    IllegalActionError,
    JokerRule,
    MalformedInputError,
    Rules,
    Scorecard,
    box_options,
    can_fill,
    fill,
    forced_category,
    is_joker,
    legal_fills,
    possible_values,
    score,
    totals,
    verify_fill,
)
from yahtzee_rules.testing import strategies as yst

C = Category
FREE = Rules(joker=JokerRule.FREE_CHOICE)
NONE = Rules(joker=JokerRule.NONE)
JOKER_FIXED: dict[Box, int] = {C.FULL_HOUSE: 25, C.SMALL_STRAIGHT: 30, C.LARGE_STRAIGHT: 40}


# --- plain scores: invariants over every roll ------------------------------------------


@given(yst.dice(), yst.categories())
def test_score_is_within_the_box_range_and_order_free(dice: Dice, category: Category) -> None:
    value = score(dice, category)
    assert value in possible_values(category)
    assert value == score(str(dice)[::-1], category)
    assert 0 <= value <= 50


@given(yst.dice())
def test_score_relations_between_boxes(dice: Dice) -> None:
    s = {c: score(dice, c) for c in Category}
    assert s[C.CHANCE] == dice.total == sum(s[c] for c in Category.upper())
    assert s[C.FOUR_OF_A_KIND] in (0, dice.total)
    assert s[C.THREE_OF_A_KIND] in (0, dice.total)
    if s[C.FOUR_OF_A_KIND]:
        assert s[C.THREE_OF_A_KIND] == dice.total  # R4.2 implies R4.1
    if s[C.LARGE_STRAIGHT]:
        assert s[C.SMALL_STRAIGHT] == 30  # R4.5 implies R4.4
    if s[C.YAHTZEE]:
        assert s[C.FOUR_OF_A_KIND] == dice.total
        assert s[C.FULL_HOUSE] == 0
    assert not (s[C.FULL_HOUSE] and s[C.SMALL_STRAIGHT])
    for face in range(1, 7):
        assert s[Category.for_face(face)] == face * dice.count(face)  # R3.1


@given(yst.dice())
def test_score_matches_a_direct_reading_of_the_rules(dice: Dice) -> None:
    counts = sorted((dice.count(f) for f in range(1, 7)), reverse=True)
    faces = set(dice.faces)
    runs4 = [{1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}]
    assert (score(dice, C.FULL_HOUSE) == 25) == (counts[:2] == [3, 2])
    assert (score(dice, C.SMALL_STRAIGHT) == 30) == any(r <= faces for r in runs4)
    assert (score(dice, C.LARGE_STRAIGHT) == 40) == (faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}))
    assert (score(dice, C.YAHTZEE) == 50) == (counts[0] == 5)
    assert (score(dice, C.THREE_OF_A_KIND) > 0) == (counts[0] >= 3)


@pytest.mark.parametrize(
    ("dice", "category", "message"),
    [
        ("12345", 3, "not a Category"),
        ("12345", "fourz", "no such box"),
        ("12345", None, "not a Category"),
        ("1234", C.ACES, "not five digits"),
        ([1, 2, 3, 4, True], C.ACES, "bool"),
    ],
)
def test_score_refuses_bad_input(dice: Any, category: Any, message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        score(dice, category)


# --- legal fills: every Joker variant ------------------------------------------------------


@given(yst.scorecards(max_filled=12), yst.dice(), yst.rules())
def test_legal_fills_are_open_boxes_and_never_empty(
    card: Scorecard, dice: Dice, rules: Rules
) -> None:
    options = legal_fills(card, dice, rules=rules)
    assert options  # R2.3: a turn can always fill some box
    assert all(card.is_open(c) for c in options)
    assert list(options) == sorted(options)  # card order
    for category, points in options.items():
        assert points in possible_values(category)
        assert can_fill(card, dice, category, rules=rules)
        verify_fill(card, dice, category, rules=rules)


@given(yst.scorecards(max_filled=12), yst.dice(yahtzee_weight=0), yst.rules())
def test_without_a_joker_every_open_box_takes_its_plain_score(
    card: Scorecard, dice: Dice, rules: Rules
) -> None:
    options = legal_fills(card, dice, rules=rules)
    if not is_joker(card, dice, rules=rules):
        assert options == {c: score(dice, c) for c in card.open_categories}


@given(yst.scorecards(max_filled=12), st.integers(1, 6))
def test_forced_joker_follows_the_three_steps(card: Scorecard, face: int) -> None:
    dice = Dice([face] * 5)
    options = dict(legal_fills(card, dice))
    if card[C.YAHTZEE] is None:
        assert options == {c: score(dice, c) for c in card.open_categories}
        assert forced_category(card, dice) is None
        return
    face_box = Category.for_face(face)
    open_lower = [c for c in Category.lower() if card.is_open(c)]
    if card.is_open(face_box):  # R6.2
        assert options == {face_box: 5 * face}
        assert forced_category(card, dice) is face_box
    elif open_lower:  # R6.3
        assert options == {c: JOKER_FIXED.get(c, 5 * face) for c in open_lower}
        assert forced_category(card, dice) is None
    else:  # R6.4
        assert options == {c: 0 for c in Category.upper() if card.is_open(c)}


@given(yst.scorecards(rules=FREE, max_filled=12), st.integers(1, 6))
def test_free_choice_joker_any_open_box(card: Scorecard, face: int) -> None:
    dice = Dice([face] * 5)
    options = dict(legal_fills(card, dice, rules=FREE))
    assert set(options) == set(card.open_categories)  # R7.1: any open box
    if card[C.YAHTZEE] is None:
        return
    face_filled = not card.is_open(Category.for_face(face))
    for category, points in options.items():
        if category in JOKER_FIXED:
            assert points == (JOKER_FIXED[category] if face_filled else 0)
        elif category.is_upper:
            assert points == score(dice, category)
        else:
            assert points == 5 * face
    assert forced_category(card, dice, rules=FREE) is None


@given(yst.scorecards(rules=NONE, max_filled=12), st.integers(1, 6))
def test_no_joker_scores_an_extra_yahtzee_like_any_roll(card: Scorecard, face: int) -> None:
    dice = Dice([face] * 5)
    options = legal_fills(card, dice, rules=NONE)
    assert options == {c: score(dice, c) for c in card.open_categories}  # R7.2
    assert not is_joker(card, dice, rules=NONE)


def test_free_choice_worked_examples() -> None:
    """R7.1: Full House takes 25 only once the matching upper box is filled."""
    card = Scorecard({C.YAHTZEE: 50})
    assert legal_fills(card, "66666", rules=FREE)[C.FULL_HOUSE] == 0
    assert legal_fills(card, "66666", rules=FREE)[C.SIXES] == 30
    assert legal_fills(card, "66666", rules=FREE)[C.ACES] == 0
    filled = Scorecard({C.YAHTZEE: 50, C.SIXES: 18})
    assert legal_fills(filled, "66666", rules=FREE)[C.LARGE_STRAIGHT] == 40
    after = fill(filled, "66666", C.FULL_HOUSE, rules=FREE)
    assert (after[C.FULL_HOUSE], after.bonus_marks) == (25, 1)


# --- bonus marks (R5) -----------------------------------------------------------------------


@given(yst.scorecards(max_filled=12), yst.dice(yahtzee_weight=0.5), yst.rules())
def test_fill_adds_a_mark_exactly_when_due(card: Scorecard, dice: Dice, rules: Rules) -> None:
    options = legal_fills(card, dice, rules=rules)
    due = dice.is_yahtzee and card[C.YAHTZEE] == 50 and rules.yahtzee_bonus > 0
    for category, points in options.items():
        after = fill(card, dice, category, rules=rules)
        assert after.bonus_marks == card.bonus_marks + due  # R5.1-R5.3
        assert after[category] == points
        assert after.turns_played == card.turns_played + 1
        changed = [c for c in Category if after[c] != card[c]]
        assert changed == [category]  # R2.3, R2.4: one box, nothing else changes
        gained = totals(after, rules=rules).grand_total - totals(card, rules=rules).grand_total
        bonus_before = totals(card, rules=rules).upper_bonus
        bonus_after = totals(after, rules=rules).upper_bonus
        assert gained == points + due * rules.yahtzee_bonus + bonus_after - bonus_before
        assert options[category] == box_options(card, dice, rules=rules)[category].points


@given(yst.scorecards(min_filled=1), yst.dice())
def test_filled_boxes_are_refused_and_the_card_is_unchanged(card: Scorecard, dice: Dice) -> None:
    before = card.boxes
    for category in card.filled_categories:
        assert not can_fill(card, dice, category)
        with pytest.raises(IllegalActionError, match="already filled"):
            fill(card, dice, category)
        option = box_options(card, dice)[category]
        assert option.points is None
        assert "already filled" in str(option.reason)
    assert card.boxes == before


@given(yst.scorecards(max_filled=12), yst.dice(yahtzee_weight=0.5))
def test_box_options_explain_every_closed_box(card: Scorecard, dice: Dice) -> None:
    options = box_options(card, dice)
    legal = legal_fills(card, dice)
    assert list(options) == list(Category)
    for category, option in options.items():
        assert option.is_legal == (category in legal)
        if not option.is_legal:
            assert option.reason
            with pytest.raises(IllegalActionError) as info:
                verify_fill(card, dice, category)
            assert option.reason in str(info.value)


def test_forced_joker_reason_names_the_required_box() -> None:
    card = Scorecard({C.YAHTZEE: 50})
    reason = box_options(card, "44444")[C.CHANCE].reason
    assert reason == "the forced Joker requires Fours, which is open: five 4s must go in Fours"
    lower = {c: 0 for c in Category.lower() if c is not C.CHANCE}
    card = Scorecard({**lower, C.YAHTZEE: 50, C.FOURS: 12})
    reason = box_options(card, "44444")[C.ACES].reason
    assert reason is not None
    assert "open lower boxes: Chance" in reason


def test_rules_validation() -> None:
    with pytest.raises(MalformedInputError, match="joker 'sometimes'"):
        Rules(joker="sometimes")
    with pytest.raises(MalformedInputError, match="upper_bonus -1"):
        Rules(upper_bonus=-1)
    with pytest.raises(MalformedInputError, match="yahtzee_bonus True"):
        Rules(yahtzee_bonus=True)
    with pytest.raises(MalformedInputError, match="rules 'forced'"):
        legal_fills(Scorecard(), "12345", rules="forced")  # type: ignore[arg-type]


def test_zero_yahtzee_bonus_makes_no_marks() -> None:
    rules = Rules(yahtzee_bonus=0)
    card = fill(Scorecard({C.YAHTZEE: 50}), "22222", C.TWOS, rules=rules)
    assert card.bonus_marks == 0


def test_r7_2_no_joker_still_pays_the_bonus_mark() -> None:
    """R7.2: without a Joker an extra Yahtzee scores like any roll, but the bonus still applies."""
    card = fill(Scorecard({C.YAHTZEE: 50}), "22222", C.FULL_HOUSE, rules=NONE)
    assert (card[C.FULL_HOUSE], card.bonus_marks) == (0, 1)
    card = fill(Scorecard({C.YAHTZEE: 50}), "22222", C.CHANCE, rules=NONE)
    assert (card[C.CHANCE], card.bonus_marks) == (10, 1)
