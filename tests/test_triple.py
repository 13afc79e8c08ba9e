"""Triple Yahtzee: known answers for the reading docs/rulesets/triple.md gives and cites.

Three columns of the Classic boxes, filled in any order; each column adds up as a
Classic card (its own 35-point bonus at 63) and is multiplied by 1, 2 or 3; an extra
Yahtzee is five equal dice once all three Yahtzee boxes are filled, earns 100 (added
once) when all three hold 50, and follows the forced Joker with "the matching upper
box" read as any open matching upper box. The shared property tests in
tests/test_rulesets.py run over this card too.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    CLASSIC,
    TRIPLE,
    TRIPLE_IN_ORDER,
    Category,
    Fill,
    Game,
    GameRecord,
    GreedyStrategy,
    IllegalActionError,
    JokerRule,
    MalformedInputError,
    OptimalStrategy,
    RandomStrategy,
    Rules,
    Scorecard,
    TripleBox,
    Turn,
    box_options,
    forced_category,
    from_json,
    is_joker,
    simulate,
    to_json,
    totals,
)
from yahtzee_rules.formats.notation import from_notation, to_notation
from yahtzee_rules.testing import strategies as yst

T = TripleBox
TRIPLE_RULES = Rules.from_name("triple")
ALL_50 = {T.YAHTZEE_X1: 50, T.YAHTZEE_X2: 50, T.YAHTZEE_X3: 50}


# --- the card ---------------------------------------------------------------------------------


def test_the_card_is_three_columns_of_the_classic_boxes() -> None:
    assert len(TRIPLE) == 39
    assert TRIPLE.multipliers == (1, 2, 3)
    assert [len(column) for column in TRIPLE.columns] == [13, 13, 13]
    for column, multiplier in zip(TRIPLE.columns, TRIPLE.multipliers, strict=True):
        for box, classic in zip(column, Category, strict=True):
            assert box.label == f"{classic.label} ×{multiplier}"
            assert box.code == f"{classic.code}.{multiplier}"
            assert box.face == classic.face
            assert box.row == int(classic)
            assert box.multiplier == multiplier
            assert box.column == multiplier - 1
    assert TRIPLE.yahtzees == (T.YAHTZEE_X1, T.YAHTZEE_X2, T.YAHTZEE_X3)
    assert TRIPLE.face_boxes(4) == (T.FOURS_X1, T.FOURS_X2, T.FOURS_X3)
    assert T.parse("fh.2") is T.FULL_HOUSE_X2
    assert T.parse("Full House ×2") is T.FULL_HOUSE_X2
    assert T.parse("full house x2") is T.FULL_HOUSE_X2
    assert T.parse("ones x3") is T.ACES_X3
    with pytest.raises(MalformedInputError, match="no such box"):
        T.parse("fh")  # a column is always named


def test_every_one_column_card_keeps_one_column_of_multiplier_one() -> None:
    assert CLASSIC.columns == (CLASSIC.members,)
    assert CLASSIC.multipliers == (1,)
    assert CLASSIC.yahtzees == (Category.YAHTZEE,)
    assert CLASSIC.face_boxes(6) == (Category.SIXES,)
    assert all(box.column == 0 and box.multiplier == 1 for box in Category)
    with pytest.raises(MalformedInputError, match="not a die face"):
        TRIPLE.face_boxes(7)


def test_the_ruleset_is_classics_bonuses_and_forced_joker_on_the_triple_card() -> None:
    assert TRIPLE_RULES.card is TRIPLE
    assert TRIPLE_RULES.joker is JokerRule.FORCED
    assert (TRIPLE_RULES.upper_bonus, TRIPLE_RULES.upper_bonus_threshold) == (35, 63)
    assert TRIPLE_RULES.yahtzee_bonus == 100
    assert "triple" in Rules.names()
    assert str(TRIPLE_RULES) == TRIPLE_RULES.name == "triple"
    assert Rules.for_card(TRIPLE) == TRIPLE_RULES
    free = Rules.from_name("triple, free-choice")
    assert free.joker is JokerRule.FREE_CHOICE
    assert Rules.parse(str(free)) == free
    assert Rules.from_name("triple, none, yahtzee_bonus=0").yahtzee_bonus == 0


# --- totals: per column, then multiplied --------------------------------------------------------


def test_each_column_earns_its_own_upper_bonus_and_is_multiplied() -> None:
    # Column 2 reaches 63 (three of each face), column 1 has 62, column 3 only Chance.
    card = Scorecard(
        {
            T.ACES_X1: 2,
            T.TWOS_X1: 6,
            T.THREES_X1: 9,
            T.FOURS_X1: 12,
            T.FIVES_X1: 15,
            T.SIXES_X1: 18,
            T.ACES_X2: 3,
            T.TWOS_X2: 6,
            T.THREES_X2: 9,
            T.FOURS_X2: 12,
            T.FIVES_X2: 15,
            T.SIXES_X2: 18,
            T.CHANCE_X3: 20,
        }
    )
    t = totals(card)
    first, second, third = t.columns
    assert (first.upper_subtotal, first.upper_bonus, first.grand_total) == (62, 0, 62)
    assert (second.upper_subtotal, second.upper_bonus, second.grand_total) == (63, 35, 98)
    assert (third.upper_subtotal, third.lower_subtotal, third.grand_total) == (0, 20, 20)
    assert t.upper_subtotal == 62 + 2 * 63
    assert t.upper_bonus == 2 * 35
    assert t.lower_subtotal == 3 * 20
    assert t.grand_total == 62 + 2 * 98 + 3 * 20
    assert t.upper_bonus_needed == 1 + 0 + 63
    assert totals(card, rules=TRIPLE_RULES) == t


def test_the_yahtzee_bonus_is_added_once_not_multiplied() -> None:
    card = Scorecard({**ALL_50, T.FOURS_X3: 20}, bonus_marks=1)
    t = totals(card)
    assert t.yahtzee_bonus == 100
    assert t.grand_total == 50 + 2 * 50 + 3 * (50 + 20) + 100
    assert [c.yahtzee_bonus for c in t.columns] == [0, 0, 0]


def test_a_classic_cards_totals_have_no_columns() -> None:
    assert totals(Scorecard({Category.CHANCE: 20})).columns == ()


# --- extra Yahtzees: the Joker and the bonus ------------------------------------------------------


def test_five_of_a_kind_is_no_joker_while_a_yahtzee_box_is_open() -> None:
    card = Scorecard({T.YAHTZEE_X1: 50, T.YAHTZEE_X2: 50})
    turn = Turn(card, rules=TRIPLE_RULES).roll(outcome="44444")
    assert not is_joker(card, "44444", rules=TRIPLE_RULES)
    assert turn.options[T.YAHTZEE_X3] == 50
    assert turn.options[T.CHANCE_X1] == 20
    assert turn.options[T.FULL_HOUSE_X2] == 0  # five of a kind is no full house
    assert turn.fill(T.YAHTZEE_X3).bonus_marks == 0


def test_the_forced_joker_sends_an_extra_yahtzee_to_any_open_matching_upper_box() -> None:
    turn = Turn(Scorecard(ALL_50), rules=TRIPLE_RULES).roll(outcome="44444")
    assert dict(turn.options) == {T.FOURS_X1: 20, T.FOURS_X2: 20, T.FOURS_X3: 20}
    assert forced_category(turn.card, "44444", rules=TRIPLE_RULES) is None  # three to choose
    why = box_options(turn.card, "44444", rules=TRIPLE_RULES)[T.CHANCE_X1].reason
    assert why == (
        "the forced Joker requires a matching upper box while one is open: "
        "five 4s must go in Fours ×1 or Fours ×2 or Fours ×3"
    )
    with pytest.raises(IllegalActionError, match="must go in Fours ×1 or Fours ×2"):
        turn.fill(T.CHANCE_X3)
    filled = turn.fill(T.FOURS_X3)
    assert filled.bonus_marks == 1
    assert box_options(turn.card, "44444", rules=TRIPLE_RULES)[T.FOURS_X2].bonus == 100


def test_one_open_matching_box_is_the_forced_box() -> None:
    card = Scorecard({**ALL_50, T.FOURS_X1: 8, T.FOURS_X3: 12})
    assert forced_category(card, "44444", rules=TRIPLE_RULES) is T.FOURS_X2


def test_with_every_matching_box_filled_the_joker_takes_any_open_lower_box() -> None:
    card = Scorecard({**ALL_50, T.SIXES_X1: 18, T.SIXES_X2: 24, T.SIXES_X3: 30})
    turn = Turn(card, rules=TRIPLE_RULES).roll(outcome="66666")
    options = turn.options
    assert options[T.LARGE_STRAIGHT_X3] == 40
    assert options[T.FULL_HOUSE_X1] == 25
    assert options[T.CHANCE_X2] == 30
    assert T.ACES_X1 not in options
    why = box_options(card, "66666", rules=TRIPLE_RULES)[T.ACES_X1].reason
    assert why is not None
    assert why.startswith(
        "the forced Joker allows an upper box other than Sixes ×1 or Sixes ×2 or Sixes ×3 "
        "only once every lower box is filled"
    )
    filled = turn.fill(T.LARGE_STRAIGHT_X3)
    # 40 in the x3 column, the 100-point bonus once
    assert totals(filled).grand_total == totals(card).grand_total + 3 * 40 + 100


def test_no_bonus_unless_every_yahtzee_box_holds_50_but_the_joker_still_applies() -> None:
    card = Scorecard({T.YAHTZEE_X1: 50, T.YAHTZEE_X2: 0, T.YAHTZEE_X3: 50})
    assert is_joker(card, "22222", rules=TRIPLE_RULES)
    turn = Turn(card, rules=TRIPLE_RULES).roll(outcome="22222")
    assert set(turn.options) == {T.TWOS_X1, T.TWOS_X2, T.TWOS_X3}
    assert turn.fill(T.TWOS_X2).bonus_marks == 0
    with pytest.raises(MalformedInputError, match="bonus marks need 50 in every Yahtzee box"):
        Scorecard({**card.to_mapping(), T.TWOS_X1: 10}, bonus_marks=1)


def test_the_free_choice_joker_gives_fixed_values_once_every_matching_box_is_filled() -> None:
    free = Rules.from_name("triple, free-choice")
    open_face = Turn(Scorecard({**ALL_50, T.THREES_X1: 9}), rules=free).roll(outcome="33333")
    assert open_face.options[T.FULL_HOUSE_X2] == 0
    filled = Scorecard({**ALL_50, T.THREES_X1: 9, T.THREES_X2: 9, T.THREES_X3: 9})
    turn = Turn(filled, rules=free).roll(outcome="33333")
    assert turn.options[T.FULL_HOUSE_X2] == 25
    assert turn.options[T.ACES_X1] == 0


def test_no_joker_scores_an_extra_yahtzee_like_any_roll() -> None:
    none = Rules.from_name("triple, none")
    turn = Turn(Scorecard(ALL_50), rules=none).roll(outcome="55555")
    assert turn.options[T.FULL_HOUSE_X1] == 0
    assert turn.options[T.CHANCE_X3] == 25
    assert turn.fill(T.CHANCE_X3).bonus_marks == 1


# --- games, records and formats --------------------------------------------------------------------


def test_a_game_lasts_39_turns_a_player_and_saves_in_every_format() -> None:
    rng = random.Random(11)
    record = GameRecord.new(["Ann", "Bob"], rules=TRIPLE_RULES)
    greedy = GreedyStrategy()
    while record.game.turn is not None:
        turn = record.game.turn
        if turn.dice is None:
            record = record.roll(rng)
            continue
        keep = greedy.choose_keep(turn, rng) if turn.rolls_left else None
        if keep is None:
            record = record.fill(greedy.choose_box(turn, rng))
        else:
            record = record.roll(rng, keep=keep)
    game = record.game
    assert all(card.is_complete for card in game.cards)
    assert sum(isinstance(action, Fill) for action in record.actions) == 2 * 39
    assert GameRecord.parse(str(record), rules=TRIPLE_RULES) == record
    assert GameRecord.from_share_code(record.share_code(), rules=TRIPLE_RULES) == record
    assert from_json(to_json(record), GameRecord, rules=TRIPLE_RULES) == record
    assert from_notation(to_notation(record), GameRecord) == record
    assert Game.parse(str(game)) == game
    with pytest.raises(MalformedInputError, match="not the 'forced' rules"):
        GameRecord.from_share_code(record.share_code(), rules=Rules())


def test_boxes_are_written_with_their_column() -> None:
    card = Scorecard({T.FOURS_X2: 12, T.CHANCE_X3: 22})
    assert str(card) == "triple:4.2=12,c.3=22"
    assert Scorecard.parse("triple:4.2=12,c.3=22") == card
    turn = Turn(card, rules=TRIPLE_RULES).roll(outcome="13366")
    assert Turn.parse(str(turn)) == turn
    with pytest.raises(MalformedInputError, match="code=points"):
        Scorecard.parse("triple:4=12")


def test_greedy_counts_a_boxs_points_times_its_columns_multiplier() -> None:
    turn = Turn(rules=TRIPLE_RULES).roll(outcome="22333")
    assert GreedyStrategy().choose_box(turn, random.Random(0)) is T.FULL_HOUSE_X3
    card = Scorecard({T.FULL_HOUSE_X3: 25, T.FULL_HOUSE_X2: 25, T.THREE_OF_A_KIND_X3: 13})
    turn = Turn(card, rules=TRIPLE_RULES).roll(outcome="22333")
    # Full House x1 writes 25, Chance x3 writes 3 x 13 = 39
    assert GreedyStrategy().choose_box(turn, random.Random(0)) is T.CHANCE_X3


def test_simulation_plays_triple_with_the_heuristic_strategies() -> None:
    greedy = simulate(GreedyStrategy(), games=20, rules=TRIPLE_RULES, seed=3)
    rand = simulate(RandomStrategy(), games=5, rules=TRIPLE_RULES, seed=3)
    assert greedy.games == 20
    assert rand.games == 5
    assert greedy.mean > rand.mean


@given(st.from_type(TripleBox), yst.scorecards(rules=TRIPLE_RULES, min_filled=39, max_filled=39))
@settings(max_examples=10)
def test_hypothesis_draws_triple_boxes_and_complete_cards(box: TripleBox, card: Scorecard) -> None:
    assert isinstance(box, TripleBox)
    assert card.is_complete
    assert card.card is TRIPLE


# --- the solver ----------------------------------------------------------------------------------


def test_the_exact_solver_refuses_triple_naming_the_reason() -> None:
    pytest.importorskip("numpy")
    from yahtzee_rules.bots.solver import build_table, cache_path, load_table

    reason = "the exact solver is out of reach for the Triple Yahtzee card"
    for ask in (
        lambda: load_table(rules=TRIPLE_RULES),
        lambda: build_table(rules=TRIPLE_RULES),
        lambda: cache_path(rules=TRIPLE_RULES),
        lambda: OptimalStrategy(rules=TRIPLE_RULES),
    ):
        with pytest.raises(MalformedInputError, match=reason) as raised:
            ask()
        assert "2^39" in str(raised.value)
        assert "10^13" in str(raised.value)


# --- the in-order option: each row fills left to right --------------------------------------------

IN_ORDER = Rules.from_name("triple-in-order")


def test_in_order_a_box_opens_once_the_box_to_its_left_is_filled() -> None:
    assert IN_ORDER.card is TRIPLE_IN_ORDER
    assert TRIPLE_IN_ORDER.left_to_right
    assert not TRIPLE.left_to_right
    turn = Turn(rules=IN_ORDER).roll(outcome="22333")
    assert set(turn.options) == set(TRIPLE.columns[0])
    reason = box_options(turn.card, "22333", rules=IN_ORDER)[T.FULL_HOUSE_X3].reason
    assert reason == (
        "Full House ×3 opens once Full House ×2 is filled; on this card each row fills "
        "left to right"
    )
    with pytest.raises(IllegalActionError, match="opens once Full House ×2 is filled"):
        turn.fill(T.FULL_HOUSE_X3)
    card = turn.fill(T.FULL_HOUSE_X1)
    later = Turn(card, rules=IN_ORDER).roll(outcome="22333")
    assert later.options[T.FULL_HOUSE_X2] == 25
    assert T.FULL_HOUSE_X3 not in later.options


def test_in_order_the_forced_joker_takes_the_leftmost_open_matching_box() -> None:
    card = Scorecard({**ALL_50, T.FOURS_X1: 8}, card=TRIPLE_IN_ORDER)
    turn = Turn(card, rules=IN_ORDER).roll(outcome="44444")
    assert dict(turn.options) == {T.FOURS_X2: 20}
    assert forced_category(card, "44444", rules=IN_ORDER) is T.FOURS_X2
    assert turn.fill(T.FOURS_X2).bonus_marks == 1


def test_in_order_a_card_filled_out_of_order_is_refused_and_the_cards_differ() -> None:
    with pytest.raises(MalformedInputError, match="filled while Fours ×1 is open"):
        Scorecard({T.FOURS_X2: 8}, card=TRIPLE_IN_ORDER)
    assert Scorecard({T.FOURS_X2: 8}).card is TRIPLE  # the boxes' own card fills freely
    card = Scorecard({T.FOURS_X1: 8}, card=TRIPLE_IN_ORDER)
    assert card != Scorecard({T.FOURS_X1: 8})
    assert str(card) == "triple-in-order:4.1=8"
    assert repr(card) == "Scorecard({TripleBox.FOURS_X1: 8}, card=TRIPLE_IN_ORDER)"
    assert Scorecard.parse(str(card)) == card
    with pytest.raises(MalformedInputError, match="Triple Yahtzee in order card"):
        Turn(card, rules=TRIPLE_RULES)


def test_a_table_for_triple_cannot_be_made_from_values_either() -> None:
    np = pytest.importorskip("numpy")
    from yahtzee_rules.bots.solver import Table

    with pytest.raises(MalformedInputError, match="out of reach for the Triple Yahtzee card"):
        Table(np.zeros(1), rules=TRIPLE_RULES)


def test_left_to_right_must_be_a_bool() -> None:
    import attrs

    with pytest.raises(MalformedInputError, match="card left_to_right 'yes': not a bool"):
        attrs.evolve(TRIPLE, name="triple-odd", left_to_right="yes")  # type: ignore[arg-type]
