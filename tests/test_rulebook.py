"""Every worked example in the rule documents, named after the clause it checks.

Clause ids (R1.1 ...) are those of docs/explanation/rules.md. Sources:
000 "How to play Yahtzee", 001 "Yahtzee rules: the score card explained",
002 "Yahtzee", 003 "Yahtzee scoring and the Joker rule" (shared/rules/).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from yahtzee_rules import (
    Category,
    Dice,
    Game,
    IllegalActionError,
    Match,
    Rules,
    Scorecard,
    TieRule,
    Turn,
    chance_of,
    fill,
    legal_fills,
    roll_off,
    score,
    totals,
)
from yahtzee_rules.core.triple import TripleBox

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


# --- The rest of the text: Joker cases, odds, editions, variants, ties, matches -------------


def test_r5_2_r6_3_zero_in_yahtzee_upper_box_filled_joker_values_without_a_bonus() -> None:
    """000: with zero in Yahtzee and the matching upper box filled, the same Joker placement
    and fixed lower values apply, with no bonus (002: "the joker rules still apply")."""
    card = Scorecard({C.YAHTZEE: 0, C.FOURS: 12})
    options = legal_fills(card, "44444")
    assert options[C.FULL_HOUSE] == 25
    assert options[C.SMALL_STRAIGHT] == 30
    assert options[C.LARGE_STRAIGHT] == 40
    assert options[C.CHANCE] == 20
    assert C.ACES not in options  # an open upper box only once every lower box is filled
    after = fill(card, "44444", C.FULL_HOUSE)
    assert (after[C.FULL_HOUSE], after.bonus_marks) == (25, 0)


def test_r4_3_a_full_house_is_25_whatever_the_dice() -> None:
    """001 FAQ: a Full House of sixes and fives is worth as much as one of ones and twos."""
    assert score("66655", C.FULL_HOUSE) == score("11122", C.FULL_HOUSE) == 25


def test_five_of_a_kind_in_one_throw_is_1_in_1296() -> None:
    """001: rolling five of a kind in a single throw is a 1 in 1,296 chance."""
    assert chance_of(C.YAHTZEE, rolls_left=1) == Fraction(1, 1296)


def test_a_large_straight_from_scratch_lands_about_1_time_in_4() -> None:
    """002: even with all three rolls, a Large Straight chased from scratch lands about
    1 time in 4 (keeping the best dice for it: 0.2611)."""
    chance = chance_of(C.LARGE_STRAIGHT)
    assert 0.25 < chance < 0.27


def test_r6_hasbros_current_order_three_or_four_of_a_kind_first() -> None:
    """001: Hasbro's current instructions fill Three or Four of a Kind first, only then
    Chance or another combination (``kinds-first``)."""
    rules = Rules.from_name("kinds-first")
    card = Scorecard({C.YAHTZEE: 50, C.FOURS: 12})
    assert dict(legal_fills(card, "44444", rules=rules)) == {
        C.THREE_OF_A_KIND: 20,
        C.FOUR_OF_A_KIND: 20,
    }
    kinds_filled = Scorecard({C.YAHTZEE: 50, C.FOURS: 12, C.THREE_OF_A_KIND: 0})
    assert dict(legal_fills(kinds_filled, "44444", rules=rules)) == {C.FOUR_OF_A_KIND: 20}
    both = Scorecard({C.YAHTZEE: 50, C.FOURS: 12, C.THREE_OF_A_KIND: 0, C.FOUR_OF_A_KIND: 0})
    assert dict(legal_fills(both, "44444", rules=rules)) == {
        C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 30,
        C.LARGE_STRAIGHT: 40,
        C.CHANCE: 20,
    }
    # the forced Joker, the default (000, 002, 003), lets any open lower box take it
    assert C.CHANCE in legal_fills(card, "44444")


def test_forced_yahtzee_every_yahtzee_goes_in_its_upper_box_even_the_first() -> None:
    """002 Variations: Forced Yahtzee scores every Yahtzee in its matching upper box, even
    the first; once that box is filled, the first Yahtzee scores normally."""
    rules = Rules.from_name("forced-yahtzee")
    assert dict(legal_fills(Scorecard(), "44444", rules=rules)) == {C.FOURS: 20}
    assert legal_fills(Scorecard(), "44444")[C.YAHTZEE] == 50  # not so under Classic
    fours_filled = Scorecard({C.FOURS: 12})
    assert legal_fills(fours_filled, "44444", rules=rules)[C.YAHTZEE] == 50


def test_triple_yahtzee_three_columns_score_single_double_and_triple() -> None:
    """002 Variations: three columns at once, scoring single, double and triple value."""
    rules = Rules.from_name("triple")
    assert rules.card.multipliers == (1, 2, 3)
    assert len(rules.card) == 3 * 13
    for box, points in ((TripleBox.FOURS_X1, 12), (TripleBox.FOURS_X2, 24)):
        card = Turn(rules=rules).roll(outcome="44426").fill(box)
        assert totals(card, rules=rules).grand_total == points
    card = Turn(rules=rules).roll(outcome="44426").fill(TripleBox.FOURS_X3)
    assert totals(card, rules=rules).grand_total == 36


def test_solo_the_box_rules_allow_one_player() -> None:
    """002 Variations: Solo; 000 and 002: a game is 13 turns per player."""
    game = Game.new(["Ann"])
    turns = 0
    while not game.is_over:
        game = game.roll(outcome="12345")
        game = game.fill(next(iter(game.options)))
        turns += 1
    assert turns == 13
    assert game.result.winners == ("Ann",)


def test_setup_highest_total_starts_and_tied_players_reroll() -> None:
    """000 and 002 Setup: everyone rolls all five dice, the highest total starts, ties reroll."""
    decided = roll_off(["Ann", "Bob", "Cy"], outcomes=["66655", "66655", "12345", "11111", "22222"])
    assert decided.starter == 1  # Bob, after Ann and Bob tied on 28 and rolled again


@pytest.mark.parametrize(
    ("tie", "winners"),
    [(TieRule.SHARE, ("P0", "P1")), (TieRule.UPPER_TOTAL, ("P0",)), (TieRule.PLAY_OFF, ())],
)
def test_r8_2_ties_share_the_win_or_compare_upper_totals_or_play_again(
    tie: TieRule, winners: tuple[str, ...]
) -> None:
    """000: share the win, or agree beforehand to compare upper totals or play again;
    003: agree one beforehand or share the win."""
    upper_heavy = Scorecard((3, 6, 9, 12, 15, 18, 0, 0, 0, 0, 0, 0, 30))  # 128
    lower_heavy = Scorecard((0, 0, 0, 0, 0, 0, 30, 30, 25, 30, 0, 0, 13))  # 128
    rules = Rules(tie=tie)
    game = Game(
        ["P0", "P1"], rules=rules, cards=(upper_heavy, lower_heavy), first=0, current=0, turn=None
    )
    assert game.result.winners == winners
    assert (game.result.play_off == ("P0", "P1")) is (tie is TieRule.PLAY_OFF)


def test_two_player_best_of_three_or_five_alternating_who_rolls_first() -> None:
    """002 Two-Player Notes: play best of three or five; alternate who rolls first each game."""
    for best_of in (3, 5):
        match = Match.new(["Ann", "Bob"], best_of=best_of)
        starters = []
        while match.can_start_next() or match.current is not None:
            if match.current is None:
                match = match.next_game()
            current = match.current
            assert current is not None
            if not current.actions:
                starters.append(current.game.current_player)
            outcome = "66666" if current.game.current_player == "Ann" else "12345"
            match = match.roll(outcome=outcome)
            options = match.current.game.options  # type: ignore[union-attr]
            match = match.fill(max(options, key=options.__getitem__))
        assert match.winners == ("Ann",)
        assert starters == ["Ann", "Bob", "Ann"][: len(starters)]
        assert len(starters) == best_of // 2 + 1
