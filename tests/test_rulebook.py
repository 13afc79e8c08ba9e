"""Every worked example in the rule documents, named after the clause it checks.

Clause ids (R1.1 ...) are those of docs/explanation/rules.md. Sources:
000 "How to play Yahtzee", 001 "Yahtzee rules: the score card explained",
002 "Yahtzee", 003 "Yahtzee scoring and the Joker rule" (shared/rules/).
"""

from __future__ import annotations

import pytest

from yahtzee_rules import (
    Category,
    Dice,
    IllegalActionError,
    Scorecard,
    Turn,
    fill,
    legal_fills,
    score,
    totals,
)

C = Category

PAR = {C.ACES: 3, C.TWOS: 6, C.THREES: 9, C.FOURS: 12, C.FIVES: 15, C.SIXES: 18}


# --- R3 upper section -------------------------------------------------------------


def test_r3_1_upper_box_counts_only_its_face_22256() -> None:
    """000: a roll of 2-2-2-5-6 scores 6 in Twos, 5 in Fives or 6 in Sixes."""
    dice = Dice("22256")
    assert (score(dice, C.TWOS), score(dice, C.FIVES), score(dice, C.SIXES)) == (6, 5, 6)


def test_r3_1_upper_box_counts_only_its_face_44426() -> None:
    """001 and 003: with 4-4-4-6-2, Fours scores 12, Sixes 6 and Twos 2."""
    dice = Dice([4, 4, 4, 6, 2])
    assert (score(dice, C.FOURS), score(dice, C.SIXES), score(dice, C.TWOS)) == (12, 6, 2)


def test_r3_2_three_of_each_face_is_exactly_63_and_earns_35() -> None:
    """001, 002, 003: 3 + 6 + 9 + 12 + 15 + 18 = 63; 003: an upper section of 98."""
    result = totals(Scorecard(PAR))
    assert (result.upper_subtotal, result.upper_bonus, result.upper_total) == (63, 35, 98)


def test_r3_2_one_short_of_63_earns_nothing() -> None:
    card = Scorecard({**PAR, C.ACES: 2})
    assert (totals(card).upper_subtotal, totals(card).upper_bonus) == (62, 0)
    assert totals(card).upper_bonus_needed == 1


def test_r3_2_four_sixes_make_up_for_two_missing_ones() -> None:
    """001: four Sixes (24 instead of 18) leave 6 points of slack; 002: they make up for two ones."""
    card = Scorecard({**PAR, C.ACES: 1, C.SIXES: 24})
    assert totals(card).upper_subtotal == 67
    assert totals(card).upper_bonus == 35


def test_r3_3_lower_boxes_never_count_towards_63() -> None:
    """000 common mistakes, 003: only Aces through Sixes count towards 63."""
    card = Scorecard({C.SIXES: 30, C.CHANCE: 30, C.YAHTZEE: 50, C.FIVES: 25})
    result = totals(card)
    assert result.upper_subtotal == 55
    assert result.upper_bonus == 0
    assert result.grand_total == 135


# --- R4 lower section ---------------------------------------------------------------


def test_r4_1_three_of_a_kind_adds_all_five_dice() -> None:
    """003: 4-4-4-6-2 scores 20 in Three of a Kind (not only the three 4s)."""
    assert score(Dice("44462"), C.THREE_OF_A_KIND) == 20


def test_r4_1_three_33356_choices() -> None:
    """001: with 3, 3, 3, 5 and 6: 20 as Three of a kind, 20 as Chance, 9 in Threes."""
    options = legal_fills(Scorecard(), "33356")
    assert (options[C.THREE_OF_A_KIND], options[C.CHANCE], options[C.THREES]) == (20, 20, 9)


def test_r4_2_four_of_a_kind_adds_all_five_dice() -> None:
    assert score(Dice("55552"), C.FOUR_OF_A_KIND) == 22
    assert score(Dice("55522"), C.FOUR_OF_A_KIND) == 0


def test_r4_3_full_house_needs_a_triple_and_a_pair() -> None:
    """000: a pair plus three unrelated dice is not a full house; a triple and a pair is 25."""
    assert score(Dice("22333"), C.FULL_HOUSE) == 25
    assert score(Dice("22345"), C.FULL_HOUSE) == 0
    assert score(Dice("22233"), C.FULL_HOUSE) == 25


def test_r4_3_five_equal_dice_are_not_a_full_house_outside_the_joker() -> None:
    """003: outside the Joker rule five equal dice are not a full house."""
    assert score(Dice("33333"), C.FULL_HOUSE) == 0
    assert legal_fills(Scorecard(), "33333")[C.FULL_HOUSE] == 0


@pytest.mark.parametrize("dice", ["12346", "23451", "34566", "13456", "11234", "23345"])
def test_r4_4_small_straight_any_four_in_a_row(dice: str) -> None:
    """000: 1-2-3-4, 2-3-4-5 or 3-4-5-6; extra dice are harmless; 001: 1, 2, 3, 4, 6 scores 30."""
    assert score(Dice(dice), C.SMALL_STRAIGHT) == 30


@pytest.mark.parametrize("dice", ["12356", "11223", "12456", "22346"])
def test_r4_4_repeated_numbers_do_not_extend_a_straight(dice: str) -> None:
    """000: repeated numbers do not extend a straight."""
    assert score(Dice(dice), C.SMALL_STRAIGHT) == 0


@pytest.mark.parametrize("dice", ["12345", "23456"])
def test_r4_5_large_straight_and_it_also_counts_as_small(dice: str) -> None:
    """000: 1-2-3-4-5 or 2-3-4-5-6; 001: a Large Straight can also be scored as a Small one."""
    assert score(Dice(dice), C.LARGE_STRAIGHT) == 40
    assert score(Dice(dice), C.SMALL_STRAIGHT) == 30


def test_r4_5_four_in_a_row_is_not_a_large_straight() -> None:
    assert score(Dice("12346"), C.LARGE_STRAIGHT) == 0


def test_r4_6_yahtzee_is_five_equal_dice_for_50() -> None:
    assert score(Dice("66666"), C.YAHTZEE) == 50
    assert score(Dice("66665"), C.YAHTZEE) == 0


def test_r4_7_chance_is_any_five_dice_total() -> None:
    assert score(Dice("12356"), C.CHANCE) == 17


def test_r4_8_a_box_the_dice_do_not_qualify_for_scores_zero() -> None:
    """000, 002, 003: if nothing fits, write a zero; every turn fills one box."""
    card = fill(Scorecard(), "12356", C.YAHTZEE)
    assert card[C.YAHTZEE] == 0


# --- R2 turns: the worked example of 000 ------------------------------------------------


def test_r2_2_worked_example_keep_the_pairs_and_reroll_the_five() -> None:
    """000: roll 2-2-3-3-5, keep the 2s and 3s, reroll the 5 into a 3: a full house."""
    turn = Turn().roll(outcome="22335").roll(keep="2233", outcome="3")
    assert turn.dice == Dice("22333")
    options = turn.options
    assert options[C.FULL_HOUSE] == 25
    assert options[C.THREES] == 9
    assert options[C.THREE_OF_A_KIND] == 13
    assert options[C.CHANCE] == 13
    # ... or reroll one or both 2s while a roll remains, chasing the Yahtzee.
    assert turn.can_roll("3332")
    assert turn.can_roll("333")
    assert turn.roll(keep="333", outcome="33").dice.is_yahtzee  # type: ignore[union-attr]
    # Once Full House is chosen it cannot be used again.
    card = turn.fill(C.FULL_HOUSE)
    assert card[C.FULL_HOUSE] == 25
    with pytest.raises(IllegalActionError, match="Full House is already filled"):
        fill(card, "44455", C.FULL_HOUSE)


def test_r2_1_a_fourth_roll_is_refused() -> None:
    """000 common mistakes: three rolls is the maximum, including the first roll."""
    turn = Turn().roll(outcome="12345").roll(outcome="12345").roll(outcome="12345")
    assert turn.rolls_left == 0
    with pytest.raises(IllegalActionError, match="at most three rolls"):
        turn.roll(outcome="12345")


def test_r2_2_dice_kept_earlier_may_be_rerolled() -> None:
    """001, 002: you may take back a die you set aside and reroll it."""
    turn = Turn().roll(outcome="66612").roll(keep="666", outcome="34")
    assert turn.roll(keep="34", outcome="125").dice == Dice("12345")


# --- R5 and R6: bonus and forced Joker, 003's worked examples -------------------------------


def test_r5_1_r6_2_bonus_and_forced_upper_box() -> None:
    """003: 50 in Yahtzee, roll five 4s, Fours open: 20 in Fours plus 100; total gain 120."""
    card = Scorecard({C.YAHTZEE: 50})
    assert dict(legal_fills(card, "44444")) == {C.FOURS: 20}
    after = fill(card, "44444", C.FOURS)
    assert totals(after).grand_total - totals(card).grand_total == 120
    assert after.bonus_marks == 1


def test_r6_3_upper_box_filled_any_open_lower_box_with_joker_values() -> None:
    """003: Fours filled and Large Straight open: 40 there plus the 100 bonus."""
    card = Scorecard({C.YAHTZEE: 50, C.FOURS: 12})
    options = legal_fills(card, "44444")
    assert options == {
        C.THREE_OF_A_KIND: 20,
        C.FOUR_OF_A_KIND: 20,
        C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 30,
        C.LARGE_STRAIGHT: 40,
        C.CHANCE: 20,
    }
    assert max(options, key=options.__getitem__) is C.LARGE_STRAIGHT
    after = fill(card, "44444", C.LARGE_STRAIGHT)
    assert totals(after).grand_total - totals(card).grand_total == 140


def test_r5_2_r6_2_zero_in_yahtzee_no_bonus_but_forced_upper_box() -> None:
    """003: zero in Yahtzee, roll five 3s: no bonus; Threes is open, so 15 there."""
    card = Scorecard({C.YAHTZEE: 0})
    assert dict(legal_fills(card, "33333")) == {C.THREES: 15}
    after = fill(card, "33333", C.THREES)
    assert after.bonus_marks == 0
    assert totals(after).grand_total == 15


def test_r6_4_upper_box_and_every_lower_box_filled_zero_in_an_open_upper_box() -> None:
    """000, 002, 003: with the face box and all lower boxes filled, write 0 in an open upper box."""
    lower = dict.fromkeys(Category.lower(), 0)
    card = Scorecard({**lower, C.YAHTZEE: 50, C.CHANCE: 5, C.FOURS: 12})
    assert dict(legal_fills(card, "44444")) == {
        C.ACES: 0,
        C.TWOS: 0,
        C.THREES: 0,
        C.FIVES: 0,
        C.SIXES: 0,
    }
    after = fill(card, "44444", C.SIXES)
    assert (after[C.SIXES], after.bonus_marks) == (0, 1)


def test_r6_2_choosing_a_lower_box_while_the_upper_box_is_open_is_refused() -> None:
    """000, 003 mistakes: ignoring the forced upper box."""
    card = Scorecard({C.YAHTZEE: 50})
    with pytest.raises(IllegalActionError, match="the forced Joker requires Fours"):
        fill(card, "44444", C.LARGE_STRAIGHT)


def test_r5_1_no_bonus_before_the_yahtzee_box_is_filled() -> None:
    """000 mistakes: giving every later Yahtzee a bonus; the Yahtzee box must already hold 50."""
    card = fill(Scorecard(), "22222", C.TWOS)
    assert (card.bonus_marks, legal_fills(card, "22222")[C.YAHTZEE]) == (0, 50)


def test_r8_1_grand_total_adds_both_sections_and_the_marks() -> None:
    """000 Winning, 002 Scoring: upper + 35 + lower + 100 per bonus check."""
    card = Scorecard(
        {
            **PAR,
            C.THREE_OF_A_KIND: 20,
            C.FOUR_OF_A_KIND: 20,
            C.FULL_HOUSE: 25,
            C.SMALL_STRAIGHT: 30,
            C.LARGE_STRAIGHT: 40,
            C.YAHTZEE: 50,
            C.CHANCE: 20,
        },
        bonus_marks=1,
    )
    result = totals(card)
    assert (result.upper_total, result.lower_subtotal, result.yahtzee_bonus) == (98, 205, 100)
    assert result.grand_total == 98 + 205 + 100
