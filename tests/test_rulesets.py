"""The scorecard as data: cards, boxes and rulesets, and what every ruleset must satisfy.

Known answers for the Yacht card follow Hoyle's rules as its docs page cites them; the
property tests run over every card (those with house switches too) with every Joker
rule, bonus values, Forced Yahtzee and boxes filled in card order.
"""

from __future__ import annotations

import random
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    CLASSIC,
    TRIPLE,
    TRIPLE_IN_ORDER,
    YACHT,
    YATZY,
    Box,
    Card,
    Category,
    Dice,
    Game,
    GameRecord,
    GreedyStrategy,
    JokerRule,
    MalformedInputError,
    Match,
    RandomStrategy,
    Rules,
    Scorecard,
    TieRule,
    Turn,
    YachtBox,
    YatzyBox,
    box_options,
    can_fill,
    fill,
    forced_category,
    from_dict,
    from_json,
    is_joker,
    legal_fills,
    score,
    simulate,
    to_dict,
    to_json,
    totals,
    verify_fill,
)
from yahtzee_rules.core.classic import classic_scores
from yahtzee_rules.core.triple import triple_scores
from yahtzee_rules.core.yacht import yacht_scores
from yahtzee_rules.core.yatzy import yatzy_scores
from yahtzee_rules.formats.notation import from_notation, to_notation
from yahtzee_rules.testing import strategies as yst

YACHT_RULES = Rules.from_name("yacht")
EVERY_CARD = (CLASSIC, YACHT, YATZY, TRIPLE, TRIPLE_IN_ORDER)
# with the cards that house switches make (classic+5fh, yatzy+5fh, ...)
SWITCHED_TOO = tuple(Card.named(name) for name in Card.names(switched=True))


# --- cards and boxes --------------------------------------------------------------------


@pytest.mark.parametrize("card", EVERY_CARD, ids=lambda c: c.name)
def test_a_cards_table_is_its_scorer_over_every_roll(card: Card) -> None:
    scorer = {
        CLASSIC: classic_scores,
        YACHT: yacht_scores,
        YATZY: yatzy_scores,
        TRIPLE: triple_scores,
        TRIPLE_IN_ORDER: triple_scores,
    }[card]
    for dice in Dice.all():
        row = card.table[Dice.all().index(dice)]
        assert row == scorer(dice.faces)
        for box in card.members:
            assert score(dice, box) == row[box] == dice.score(box) == box.score(dice)


@pytest.mark.parametrize("card", EVERY_CARD, ids=lambda c: c.name)
def test_possible_values_are_every_score_a_joker_value_or_a_joker_zero(card: Card) -> None:
    fixed = dict(card.joker_values)
    joker = card.yahtzee is not None
    for box in card.members:
        # a Joker writes 0 only in an upper box or a fixed-value box
        zero = {0} if joker and (box in fixed or box.face is not None) else set()
        expected = {row[box] for row in card.table} | zero
        if box in fixed:
            expected.add(fixed[box])
        assert card.possible[box] == expected
        fives = {card.score(Dice([f] * 5), box) for f in range(1, 7)} | zero
        if box in fixed:
            fives.add(fixed[box])
        assert card.five_of_a_kind[box] == fives
    for box in card.lower:
        if all(row[box] for row in card.table):  # Chance, Choice: no roll scores 0
            assert 0 not in card.possible[box]
            assert 0 not in card.five_of_a_kind[box]


def test_the_classic_card_is_categorys_and_the_yacht_card_yachtboxs() -> None:
    assert CLASSIC.boxes is Category
    assert CLASSIC.members == tuple(Category)
    assert YACHT.boxes is YachtBox
    assert len(YACHT) == 12
    assert Card.named("classic") is CLASSIC
    assert Card.named("yacht") is YACHT
    assert Card.names() == ("classic", "yacht", "yatzy", "triple", "triple-in-order")
    with pytest.raises(MalformedInputError, match="card 'quintuple': no such card; cards are"):
        Card.named("quintuple")


def test_boxes_of_different_cards_are_never_equal() -> None:
    # Classic's Three of a Kind and Yacht's Full House are both position 6.
    assert int(Category.THREE_OF_A_KIND) == int(YachtBox.FULL_HOUSE) == 6
    assert Category.THREE_OF_A_KIND != YachtBox.FULL_HOUSE
    assert Category.THREE_OF_A_KIND == 6
    by_box: dict[Box, int] = {Category.THREE_OF_A_KIND: 1}
    assert by_box.get(YachtBox.FULL_HOUSE) is None
    options = Turn(rules=YACHT_RULES).roll(outcome="12345").options
    with pytest.raises(KeyError):
        options[Category.FULL_HOUSE]  # Yacht's Little Straight is 8 too


@pytest.mark.parametrize(
    ("dice", "box", "points"),
    [
        ("44445", YachtBox.FOUR_OF_A_KIND, 16),  # the four matching dice only
        ("44444", YachtBox.FOUR_OF_A_KIND, 16),
        ("44455", YachtBox.FOUR_OF_A_KIND, 0),
        ("22333", YachtBox.FULL_HOUSE, 13),  # the total of the dice
        ("33333", YachtBox.FULL_HOUSE, 0),  # five of a kind is not a full house
        ("12345", YachtBox.LITTLE_STRAIGHT, 30),
        ("12345", YachtBox.BIG_STRAIGHT, 0),
        ("23456", YachtBox.BIG_STRAIGHT, 30),
        ("12346", YachtBox.LITTLE_STRAIGHT, 0),  # no small straight of four
        ("55555", YachtBox.YACHT, 50),
        ("55554", YachtBox.YACHT, 0),
        ("13366", YachtBox.CHOICE, 19),
        ("13366", YachtBox.SIXES, 12),
        ("13366", YachtBox.ONES, 1),
    ],
)
def test_yacht_known_answers(dice: str, box: YachtBox, points: int) -> None:
    assert score(dice, box) == points


def test_yacht_has_no_upper_bonus_no_yacht_bonus_and_no_joker() -> None:
    assert YACHT_RULES.upper_bonus == 0
    assert YACHT_RULES.yahtzee_bonus == 0
    assert YACHT_RULES.joker is JokerRule.NONE
    card = Scorecard({YachtBox.YACHT: 50, YachtBox.SIXES: 30, YachtBox.FIVES: 25})
    turn = Turn(card, rules=YACHT_RULES).roll(outcome="44444")
    assert turn.options[YachtBox.FOURS] == 20
    assert turn.options[YachtBox.FULL_HOUSE] == 0  # no Joker: five 4s are no full house
    assert turn.options[YachtBox.FOUR_OF_A_KIND] == 16
    filled = turn.fill(YachtBox.CHOICE)
    assert filled.bonus_marks == 0
    assert totals(filled, rules=YACHT_RULES).grand_total == 50 + 30 + 25 + 20


# --- rulesets ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", Rules.names())
def test_every_named_ruleset_round_trips_by_name_text_and_repr(name: str) -> None:
    rules = Rules.from_name(name)
    assert Rules.from_name(rules.name) == rules
    assert Rules.parse(str(rules)) == rules
    assert eval(repr(rules)) == rules  # the names in yahtzee_rules evaluate


@given(yst.rules(cards=SWITCHED_TOO, placements=True))
def test_any_ruleset_reads_back_from_its_name_and_its_notation(rules: Rules) -> None:
    assert Rules.from_name(rules.name) == rules
    assert Rules.parse(str(rules)) == rules
    assert from_dict(to_dict(rules), Rules) == rules


def test_rules_name_the_card_only_when_it_is_not_classic() -> None:
    assert str(Rules()) == "forced"
    assert Rules().name == "forced"
    assert str(YACHT_RULES) == "yacht"
    assert YACHT_RULES.name == "yacht"
    forced_yacht = attrs.evolve(YACHT_RULES, joker=JokerRule.FORCED, upper_bonus=35)
    assert str(forced_yacht) == "yacht,forced,ub=35"
    assert forced_yacht.name == "yacht, forced, upper_bonus=35"
    assert Rules.for_card(YACHT) == YACHT_RULES
    assert Rules.for_card(CLASSIC) == Rules()


def test_a_joker_rule_that_repeats_the_cards_own_is_refused() -> None:
    with pytest.raises(MalformedInputError, match="repeats the yacht ruleset's own"):
        Rules.parse("yacht,none")
    with pytest.raises(MalformedInputError, match="repeats the yacht value"):
        Rules.parse("yacht,ub=0")


def test_a_card_with_no_five_of_a_kind_box_has_no_joker_or_bonus() -> None:
    plain = Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores)
    assert Rules.for_card(plain).joker is JokerRule.NONE
    with pytest.raises(MalformedInputError, match="neither a Joker nor a Yahtzee bonus"):
        Rules(card=plain)


def test_a_card_and_rules_of_different_cards_are_refused_naming_both() -> None:
    yacht_card = Scorecard({YachtBox.CHOICE: 20})
    with pytest.raises(MalformedInputError, match="a Yacht card, but the rules 'forced' play"):
        Turn(yacht_card, rules=Rules())
    with pytest.raises(MalformedInputError, match="a Yacht card, but the rules 'forced' play"):
        fill(yacht_card, "12345", YachtBox.LITTLE_STRAIGHT, rules=Rules())
    with pytest.raises(MalformedInputError, match="a Classic card, but the rules 'yacht' play"):
        Turn(Scorecard(), rules=YACHT_RULES, dice="12345", rolls_used=1).fill(Category.CHANCE)
    with pytest.raises(MalformedInputError, match="a box of the Classic card, not of the Yacht"):
        Turn(rules=YACHT_RULES).roll(outcome="12345").fill(Category.CHANCE)
    with pytest.raises(MalformedInputError, match="add up a card under its own rules"):
        totals(yacht_card, rules=Rules())


def test_rules_left_out_are_the_cards_usual_rules_everywhere() -> None:
    for name in Card.names(switched=True):
        design = Card.named(name)
        usual = Rules.for_card(design)
        card = Scorecard(card=design)
        box = design.members[0]
        dice = Dice("66666")
        assert Turn(card).rules == usual == Turn(card, rules=None).rules
        assert fill(card, dice, box) == fill(card, dice, box, rules=usual)
        assert dict(legal_fills(card, dice)) == dict(legal_fills(card, dice, rules=usual))
        assert dict(box_options(card, dice)) == dict(box_options(card, dice, rules=usual))
        assert can_fill(card, dice, box)
        assert can_fill(card, dice, box, rules=None)
        verify_fill(card, dice, box)
        assert is_joker(card, dice) == is_joker(card, dice, rules=usual)
        assert forced_category(card, dice) == forced_category(card, dice, rules=usual)
        filled = fill(card, dice, box)
        assert totals(filled) == totals(filled, rules=usual) == totals(filled, rules=None)
    assert Game.new(2).rules == Rules() == Game.new(2, rules=None).rules
    assert GameRecord.new(1, rules=None).game.rules == Rules()
    assert Match.new(2, rules=None).rules == Rules()


# --- what every ruleset satisfies ------------------------------------------------------------

ANY_RULES = yst.rules(cards=SWITCHED_TOO, placements=True)


@settings(max_examples=40)
@given(yst.games(rules=ANY_RULES, finished=True, max_players=2))
def test_a_finished_cards_total_is_its_points_plus_its_bonuses(game: Game) -> None:
    rules = game.rules
    for card in game.cards:
        # each column: its points plus its upper bonus, times its multiplier (one column of
        # multiplier 1 on every card but Triple Yahtzee's); the Yahtzee bonus added once
        expected = card.bonus_marks * rules.yahtzee_bonus
        for column, multiplier in zip(card.card.columns, card.card.multipliers, strict=True):
            upper = sum(card[box] or 0 for box in column if box.face is not None)
            written = sum(card[box] or 0 for box in column)
            bonus = rules.upper_bonus if upper >= rules.upper_bonus_threshold else 0
            expected += multiplier * (written + bonus)
        assert totals(card, rules=rules).grand_total == expected


@settings(max_examples=60)
@given(yst.turns(rules=ANY_RULES), st.data())
def test_every_legal_fill_keeps_the_card_valid(turn: Turn, data: st.DataObject) -> None:
    if turn.dice is None:
        turn = turn.roll(outcome=data.draw(yst.dice()))
    box = data.draw(st.sampled_from(tuple(turn.options)))
    card = turn.fill(box)
    assert card[box] == turn.options[box]
    rebuilt = Scorecard(card.boxes, bonus_marks=card.bonus_marks, card=card.card)
    assert rebuilt == card
    assert Scorecard.parse(str(card)) == card


@settings(max_examples=30)
@given(yst.records(rules=ANY_RULES, max_players=2))
def test_a_record_reads_back_in_every_format_and_replays_to_its_game(record: GameRecord) -> None:
    rules = record.start.rules
    assert GameRecord.parse(str(record), rules=rules) == record
    assert GameRecord.from_share_code(record.share_code(), rules=rules) == record
    assert from_json(to_json(record), GameRecord, rules=rules) == record
    assert from_notation(to_notation(record), GameRecord) == record
    replayed = record.start
    for action in record.actions:
        replayed = GameRecord.from_game(replayed).play(action).game
    assert replayed == record.game
    game = record.game
    assert Game.parse(str(game)) == game
    assert from_dict(to_dict(game), Game) == game
    if game.turn is not None:
        assert Turn.parse(str(game.turn)) == game.turn


@settings(max_examples=20)
@given(yst.records(rules=ANY_RULES, max_players=2))
def test_a_record_read_under_other_rules_is_refused_naming_both(record: GameRecord) -> None:
    rules = record.start.rules
    other = YACHT_RULES if rules.card is CLASSIC else Rules()
    both = f"written under the {rules.name!r} rules, not the {other.name!r} rules"
    with pytest.raises(MalformedInputError, match=re.escape(both)):
        GameRecord.parse(str(record), rules=other)
    with pytest.raises(MalformedInputError, match=re.escape(both)):
        GameRecord.from_share_code(record.share_code(), rules=other)
    with pytest.raises(MalformedInputError, match=re.escape(both)):
        from_json(to_json(record), GameRecord, rules=other)


# --- Yacht end to end ------------------------------------------------------------------------


def test_yacht_plays_whole_games_and_saves_and_loads_them() -> None:
    rng = random.Random(7)
    record = GameRecord.new(["Ann", "Bob"], rules=YACHT_RULES)
    strategy = GreedyStrategy()
    while not record.game.is_over:
        game = record.game
        turn = game.turn
        assert turn is not None
        record = (
            record.roll(rng) if turn.dice is None else record.fill(strategy.choose_box(turn, rng))
        )
    game = record.game
    assert all(card.is_complete and len(card.boxes) == 12 for card in game.cards)
    assert game.round == 12
    text = str(record)
    assert text.startswith("yacht 0 Ann,Bob : ")
    assert GameRecord.parse(text) == record
    assert GameRecord.from_share_code(record.share_code()) == record
    document = to_dict(record)
    assert document["start"]["rules"]["card"] == "yacht"
    assert from_dict(document, GameRecord) == record
    assert str(game.cards[0]).count("=") == 12  # a full card: every box written


def test_simulate_plays_yacht_with_the_librarys_strategies() -> None:
    greedy = simulate(GreedyStrategy(), games=200, seed=3, rules=YACHT_RULES)
    random_play = simulate(RandomStrategy(), games=200, seed=3, rules=YACHT_RULES)
    assert 0 < random_play.mean < greedy.mean
    # No upper bonus and no extra-Yacht bonus: a card holds at most its boxes' maxima.
    assert greedy.maximum <= sum(max(YACHT.possible[box]) for box in YACHT.members)


def test_yacht_values_print_and_parse_with_the_cards_own_codes() -> None:
    card = Scorecard({YachtBox.BIG_STRAIGHT: 30, YachtBox.CHOICE: 20})
    assert str(card) == "yacht:bs=30,ch=20"
    assert Scorecard.parse("yacht:bs=30,ch=20") == card
    assert repr(card) == "Scorecard({YachtBox.BIG_STRAIGHT: 30, YachtBox.CHOICE: 20})"
    assert repr(Scorecard(card=YACHT)) == "Scorecard(card=YACHT)"
    assert eval(repr(card)) == card
    assert to_dict(card) == {
        "version": 1,
        "type": "scorecard",
        "card": "yacht",
        "boxes": {"big_straight": 30, "choice": 20},
        "bonus_marks": 0,
    }
    turn = Turn(card, rules=YACHT_RULES).roll(outcome="13366")
    assert str(turn) == "yacht bs=30,ch=20 13366@1"
    assert Turn.parse(str(turn)) == turn
    with pytest.raises(MalformedInputError, match="written without a card name"):
        Scorecard.parse("classic:c=20")
    with pytest.raises(MalformedInputError, match="no such card"):
        Scorecard.parse("quintuple:c=20")
    with pytest.raises(MalformedInputError, match="is not a box written as code=points"):
        Scorecard.parse("yacht:c=20")  # Yacht's Choice is 'ch'


def test_a_yacht_box_document_is_not_a_category() -> None:
    with pytest.raises(MalformedInputError, match="a box of the Yacht card, not a Category"):
        from_dict(to_dict(YachtBox.CHOICE), Category)
    assert from_dict(to_dict(YachtBox.CHOICE), YachtBox) is YachtBox.CHOICE
    assert from_notation("ch", YachtBox) is YachtBox.CHOICE


def test_everything_written_before_cards_existed_reads_back_unchanged() -> None:
    # Documents of the first release: no "card" key, Classic box names and codes.
    assert Rules.parse("none,yb=0") == Rules(joker="none", yahtzee_bonus=0)
    assert Scorecard.parse("4=20,y=50,+1") == Scorecard(
        {Category.FOURS: 20, Category.YAHTZEE: 50}, bonus_marks=1
    )
    old = {"version": 1, "type": "scorecard", "boxes": {"fours": 12}, "bonus_marks": 0}
    assert from_dict(old, Scorecard) == Scorecard({Category.FOURS: 12})
    assert GameRecord.from_share_code("y1AAIAA0FubgNCb2JMC-O6bw").game.dice == Dice("12345")


def test_box_is_the_type_every_cards_boxes_share() -> None:
    assert all(isinstance(box, Box) for card in EVERY_CARD for box in card.members)
    assert YachtBox.parse("little straight") is YachtBox.LITTLE_STRAIGHT
    assert YachtBox.for_face(6) is YachtBox.SIXES
    assert YachtBox.parse("chance ") is YachtBox.CHOICE  # Yacht's name for it is Choice
    with pytest.raises(MalformedInputError, match="category '3k': no such box"):
        YachtBox.parse("3k")  # Yacht has no Three of a Kind


def test_the_shipped_schema_is_written_from_the_cards() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "make_schema.py"
    spec = importlib.util.spec_from_file_location("make_schema", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0


# --- tie rules (000: "share the win or agree beforehand to compare upper totals or play again")

C = Category
UPPER_HEAVY = Scorecard((3, 6, 9, 12, 15, 18, 0, 0, 0, 0, 0, 0, 30))  # 63 + 35 + 30 = 128
LOWER_HEAVY = Scorecard((0, 0, 0, 0, 0, 0, 30, 30, 25, 30, 0, 0, 13))  # 128, upper total 0
BEHIND = Scorecard((0,) * 12 + (5,))  # 5, the least Chance holds


def finished(cards: tuple[Scorecard, ...], rules: Rules) -> Game:
    return Game(
        [f"P{seat}" for seat in range(len(cards))],
        rules=rules,
        cards=cards,
        first=0,
        current=0,
        turn=None,
    )


@pytest.mark.parametrize(
    ("tie", "winners", "play_off"),
    [
        (TieRule.SHARE, ("P0", "P1"), ()),
        (TieRule.UPPER_TOTAL, ("P0",), ()),
        (TieRule.PLAY_OFF, (), ("P0", "P1")),
    ],
)
def test_a_tie_for_the_highest_total_is_settled_by_the_tie_rule(
    tie: TieRule, winners: tuple[str, ...], play_off: tuple[str, ...]
) -> None:
    rules = Rules(tie=tie)
    game = finished((UPPER_HEAVY, LOWER_HEAVY, BEHIND), rules)
    assert [s.total for s in game.standings()] == [128, 128, 5]
    result = game.result
    assert result.winners == winners
    assert result.play_off == play_off
    assert result.is_tie is (tie is not TieRule.UPPER_TOTAL)


def test_a_tie_rule_changes_nothing_without_a_tie() -> None:
    for tie in TieRule:
        game = finished((UPPER_HEAVY, BEHIND), Rules(tie=tie))
        assert game.result.winners == ("P0",)
        assert game.result.play_off == ()


def test_equal_upper_totals_still_share_under_the_upper_total_rule() -> None:
    game = finished((UPPER_HEAVY, UPPER_HEAVY), Rules(tie=TieRule.UPPER_TOTAL))
    assert game.result.winners == ("P0", "P1")


def test_the_tie_rule_is_written_in_every_format() -> None:
    rules = Rules(joker="free-choice", tie="play-off")
    assert str(rules) == "free-choice,tie=play-off"
    assert rules.name == "free-choice, tie=play-off"
    assert to_dict(rules)["tie"] == "play-off"
    record = GameRecord.new(["Ann", "Bob"], rules=rules).roll(outcome="12345")
    assert GameRecord.from_share_code(record.share_code()) == record
    assert str(record) == "free-choice,tie=play-off 0 Ann,Bob : 12345"
    with pytest.raises(MalformedInputError, match="'tie=share' is the default"):
        Rules.parse("forced,tie=share")
    with pytest.raises(MalformedInputError, match="no such tie rule"):
        Rules.parse("forced,tie=coin")


# --- Yatzy (Scandinavian): known answers and the published optimum -------------------------

YATZY_RULES = Rules.from_name("yatzy")


@pytest.mark.parametrize(
    ("dice", "box", "points"),
    [
        ("66542", YatzyBox.ONE_PAIR, 12),  # the highest pair
        ("33552", YatzyBox.ONE_PAIR, 10),
        ("12345", YatzyBox.ONE_PAIR, 0),
        ("33552", YatzyBox.TWO_PAIRS, 16),
        ("33335", YatzyBox.TWO_PAIRS, 0),  # four of a kind is not two pairs
        ("22333", YatzyBox.TWO_PAIRS, 10),
        ("44452", YatzyBox.THREE_OF_A_KIND, 12),  # the three matching dice only
        ("44442", YatzyBox.FOUR_OF_A_KIND, 16),
        ("12345", YatzyBox.SMALL_STRAIGHT, 15),
        ("23456", YatzyBox.SMALL_STRAIGHT, 0),
        ("23456", YatzyBox.LARGE_STRAIGHT, 20),
        ("22333", YatzyBox.FULL_HOUSE, 13),  # the total of the dice
        ("33333", YatzyBox.FULL_HOUSE, 0),  # five of a kind is not a full house
        ("66666", YatzyBox.YATZY, 50),
        ("13366", YatzyBox.CHANCE, 19),
    ],
)
def test_yatzy_known_answers(dice: str, box: YatzyBox, points: int) -> None:
    assert score(dice, box) == points


def test_yatzy_has_a_50_point_bonus_at_63_and_no_yatzy_bonus_or_joker() -> None:
    card = Scorecard(
        {
            YatzyBox.ONES: 3,
            YatzyBox.TWOS: 6,
            YatzyBox.THREES: 9,
            YatzyBox.FOURS: 12,
            YatzyBox.FIVES: 15,
            YatzyBox.SIXES: 18,
            YatzyBox.YATZY: 50,
        }
    )
    assert totals(card).grand_total == 63 + 50 + 50
    turn = Turn(card, rules=YATZY_RULES).roll(outcome="44444")
    assert turn.options[YatzyBox.FULL_HOUSE] == 0  # no Joker
    assert turn.fill(YatzyBox.CHANCE).bonus_marks == 0


def test_yatzy_optimal_play_is_the_published_value() -> None:
    solver = pytest.importorskip("yahtzee_rules.bots.solver")
    table = solver.load_table(rules=YATZY_RULES)
    # 248.4399894: the published optimum of Scandinavian Yatzy (DESIGN.md's reference
    # numbers, cross-checked in the literature).
    assert table.value(table.start) == pytest.approx(248.4399894, abs=1e-6)
