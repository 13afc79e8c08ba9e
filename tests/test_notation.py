"""The text notation: exact round trips for every value, the grammar's examples, and strictness."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _records import records, revalidate
from yahtzee_rules import (
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    JokerRule,
    Keep,
    MalformedInputError,
    Roll,
    Rules,
    Scorecard,
    TieRule,
    Turn,
    from_notation,
    to_notation,
)
from yahtzee_rules.formats.notation import (
    MAX_INPUT_LENGTH,
    parse_action,
    parse_category,
    parse_dice,
    parse_game,
    parse_keep,
    parse_record,
    parse_rules,
    parse_scorecard,
    parse_turn,
)
from yahtzee_rules.testing import strategies as yst

ANY_RULES = yst.rules()


# --- round trips: value -> text -> value, and the text is what str() gives -----------------


@given(yst.dice())
def test_dice_round_trip(dice: Dice) -> None:
    assert parse_dice(to_notation(dice)) == dice
    assert to_notation(dice) == str(dice)


@given(yst.keeps())
def test_keep_round_trip(keep: Keep) -> None:
    assert parse_keep(to_notation(keep)) == keep
    assert to_notation(keep) == str(keep)


@given(yst.categories())
def test_category_round_trip(category: Category) -> None:
    assert parse_category(to_notation(category)) is category
    assert to_notation(category) == category.code


@given(ANY_RULES)
def test_rules_round_trip(rules: Rules) -> None:
    text = str(rules)
    assert Rules.parse(text) == rules
    assert to_notation(rules) == text
    assert eval(repr(rules), {"Rules": Rules, "JokerRule": JokerRule, "TieRule": TieRule}) == rules


@given(yst.scorecards(rules=ANY_RULES))
def test_scorecard_round_trip(card: Scorecard) -> None:
    text = str(card)
    assert Scorecard.parse(text) == card
    assert parse_scorecard(text) == card
    assert " " not in text
    assert "/" not in text


@given(yst.turns(rules=ANY_RULES))
def test_turn_round_trip(turn: Turn) -> None:
    text = str(turn)
    assert Turn.parse(text) == turn
    assert from_notation(text, Turn) == turn


@settings(max_examples=50)
@given(yst.games(rules=ANY_RULES))
def test_game_round_trip(game: Game) -> None:
    text = str(game)
    assert Game.parse(text) == game
    assert parse_game(text) == game


@settings(max_examples=30)
@given(records(rules=ANY_RULES))
def test_record_round_trip(record: GameRecord) -> None:
    text = str(record)
    parsed = GameRecord.parse(text)
    assert parsed == record
    assert parsed.game == record.game
    assert parse_record(text).actions == record.actions


@settings(max_examples=20)
@given(records(from_game=True, max_turns=3))
def test_record_from_a_position_round_trip(record: GameRecord) -> None:
    assert GameRecord.parse(str(record)) == record


def test_reprs_are_evaluable_calls() -> None:
    record = GameRecord.parse("forced 0 Ann : 22345 2/2456 c")
    namespace = {"GameRecord": GameRecord, "Roll": Roll, "Fill": Fill, "Category": Category}
    assert eval(repr(record), namespace) == record
    for action in record.actions:
        assert eval(repr(action), namespace) == action
    card = Scorecard.parse("4=20,y=50,+1")
    assert eval(repr(card), {"Scorecard": Scorecard, "Category": Category}) == card


# --- text -> value -> text is the identity on accepted text ----------------------------------

PARSERS = {
    "dice": parse_dice,
    "keep": parse_keep,
    "category": parse_category,
    "rules": parse_rules,
    "scorecard": parse_scorecard,
    "turn": parse_turn,
    "game": parse_game,
    "record": parse_record,
    "action": parse_action,
}


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """Small edits of a valid text: insert, delete or replace a few characters."""
    alphabet = st.sampled_from("0123456789-=+,/@: abcdefghklnorsuy%ABF\t")
    chars = list(text)
    for _ in range(draw(st.integers(1, 3))):
        operation = draw(st.sampled_from(("insert", "delete", "replace")))
        position = draw(st.integers(0, len(chars)))
        if operation == "insert":
            chars.insert(position, draw(alphabet))
        elif chars and position < len(chars):
            if operation == "delete":
                del chars[position]
            else:
                chars[position] = draw(alphabet)
    return "".join(chars)


@st.composite
def notation_texts(draw: st.DrawFn) -> tuple[str, str]:
    kind = draw(st.sampled_from(sorted(PARSERS)))
    value: object
    if kind == "dice":
        value = draw(yst.dice())
    elif kind == "keep":
        value = draw(yst.keeps())
    elif kind == "category":
        value = draw(yst.categories())
    elif kind == "rules":
        value = draw(ANY_RULES)
    elif kind == "scorecard":
        value = draw(yst.scorecards(rules=ANY_RULES))
    elif kind == "turn":
        value = draw(yst.turns(rules=ANY_RULES))
    elif kind == "game":
        value = draw(yst.games(rules=ANY_RULES, max_players=3))
    else:
        record = draw(records(rules=ANY_RULES, max_players=2, max_turns=4))
        value = record if kind == "record" or not record.actions else record.actions[-1]
    return kind, to_notation(value)


@settings(max_examples=300)
@given(st.data())
def test_any_accepted_text_is_canonical_and_valid(data: st.DataObject) -> None:
    kind, text = data.draw(notation_texts())
    edited = data.draw(mutated(text))
    try:
        value = PARSERS[kind](edited)
    except MalformedInputError:
        return
    written = to_notation(value)
    if written != edited:  # the one leniency: a card's boxes read in any order
        assert sorted(re.split(r"[ ,/]", written)) == sorted(re.split(r"[ ,/]", edited)), edited
        assert PARSERS[kind](written) == value
    revalidate(value)


# --- the grammar, by example ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("forced", Rules()),
        ("free-choice", Rules(joker=JokerRule.FREE_CHOICE)),
        ("none,yb=0", Rules(joker=JokerRule.NONE, yahtzee_bonus=0)),
        (
            "forced,ub=50,ut=105,yb=50",
            Rules(upper_bonus=50, upper_bonus_threshold=105, yahtzee_bonus=50),
        ),
    ],
)
def test_rules_notation(text: str, value: Rules) -> None:
    assert parse_rules(text) == value
    assert str(value) == text


@pytest.mark.parametrize(
    ("text", "boxes", "marks"),
    [
        ("-", {}, 0),
        ("1=3,fh=25", {Category.ACES: 3, Category.FULL_HOUSE: 25}, 0),
        ("6=30,y=50,c=30,+2", {Category.SIXES: 30, Category.YAHTZEE: 50, Category.CHANCE: 30}, 2),
    ],
)
def test_scorecard_notation(text: str, boxes: dict[Category, int], marks: int) -> None:
    assert parse_scorecard(text) == Scorecard(boxes, bonus_marks=marks)
    assert str(Scorecard(boxes, bonus_marks=marks)) == text


def test_game_notation_short_form_is_a_new_game() -> None:
    game = Game.new(["Ann", "Bob", "Cy"], rules=Rules(joker="free-choice"), first=2)
    assert str(game) == "free-choice 2 Ann,Bob,Cy"
    assert parse_game("free-choice 2 Ann,Bob,Cy") == game
    with pytest.raises(MalformedInputError, match="without cards and progress"):
        parse_game("free-choice 2 Ann,Bob,Cy -/-/- -")


def test_current_player_follows_from_cards_and_first_seat() -> None:
    game = Game.new(["Ann", "Bob", "Cy"], first=1)
    for outcome in ("12345", "22222", "33333"):
        game = game.roll(outcome=outcome).fill(Category.CHANCE)
    game = game.roll(outcome="11111").fill(Category.ACES)
    text = str(game)
    assert text == "forced 1 Ann,Bob,Cy c=15/1=5,c=15/c=10 -"
    assert parse_game(text).current_player == "Cy"


def test_finished_game_has_end_progress() -> None:
    game = Game.new(["Ann"])
    for category in Category:
        game = game.roll(outcome="12345").fill(category)
    assert str(game).endswith(" end")
    assert parse_game(str(game)) == game
    with pytest.raises(MalformedInputError, match="the game is over"):
        parse_game(str(game)[: -len("end")] + "-")


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("Ann", "Ann"),
        ("Player 1", "Player%201"),
        ("a,b:c%d", "a%2Cb%3Ac%25d"),
        ("Zoë", "Zoë"),
        ("wide\u3000space", "wide%E3%80%80space"),  # a tab is no name: see test_names.py
        ("zero\u200bwidth", "zero%E2%80%8Bwidth"),
        ("\u00a0nbsp", "%C2%A0nbsp"),
    ],
)
def test_player_names_escape_only_what_they_must(name: str, written: str) -> None:
    game = Game.new([name, "Bob"])
    assert str(game) == f"forced 0 {written},Bob"
    assert parse_game(str(game)).players == (name, "Bob")


@pytest.mark.parametrize(
    "text",
    [
        "forced 0 Player 1",  # unescaped space
        "forced 0 Ann%2cx",  # lower-case hex
        "forced 0 A%6Enn",  # escape of a character that needs none
        "forced 0 Ann%2",  # cut-off escape
        "forced 0 Ann%FF",  # not UTF-8
        "forced 0 Ann,Ann",  # repeated name
        "forced 0 %20",  # blank name
        "forced 2 Ann,Bob",  # no such seat
        "forced 01 Ann,Bob",  # not a plain int
    ],
)
def test_bad_game_headers(text: str) -> None:
    with pytest.raises(MalformedInputError) as error:
        parse_game(text)
    assert str(error.value).startswith(f"game {text!r}")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12345", Roll("12345")),
        ("2/2456", Roll("2456", keep="2")),
        ("12345/", Roll("", keep="12345")),
        ("fh", Fill(Category.FULL_HOUSE)),
        ("1", Fill(Category.ACES)),
    ],
)
def test_actions(text: str, value: Roll | Fill) -> None:
    assert parse_action(text) == value
    assert str(value) == text


@pytest.mark.parametrize("text", ["/12345", "1234", "2/245", "21/345", "2//2345", "f", "FH", ""])
def test_bad_actions(text: str) -> None:
    with pytest.raises(MalformedInputError, match="neither a fill"):
        parse_action(text)


def test_record_notation_example() -> None:
    record = GameRecord.new(["Ann", "Bob"])
    record = (
        record.roll(outcome="22345").roll(keep="2345", outcome="6").fill(Category.LARGE_STRAIGHT)
    )
    record = record.roll(outcome="11234").roll(keep="1", outcome="1111").fill(Category.YAHTZEE)
    assert str(record) == "forced 0 Ann,Bob : 22345 2345/6 ls 11234 1/1111 y"
    assert parse_record(str(record)) == record


# --- strictness ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parser", "text", "fragment"),
    [
        (parse_dice, "63613", "ascending"),
        (parse_dice, "12347", "ascending"),
        (parse_keep, "333333", "zero to five"),
        (parse_category, "Full House", "no box has this code"),
        (parse_rules, "forced,ub=35", "Classic value"),
        (parse_rules, "forced,yb=0,ub=50", "out of order"),
        (parse_rules, "hasbro", "unknown Joker rule"),
        (parse_rules, "forced,ub=1234567890", "at most 9 digits"),
        (parse_scorecard, "1=3,1=3", "repeated"),
        (parse_scorecard, "fh=25,1=3,fh=0", "repeated; write each box once"),
        (parse_scorecard, "1=3,", "empty field"),
        (parse_scorecard, "+1", "not a box"),
        (parse_scorecard, "y=50,+0", "bonus marks; leave"),
        (parse_scorecard, "", "empty field"),
        (parse_turn, "forced  - -", "empty field"),
        (parse_turn, "forced - 12345@0", "turn progress"),
        (parse_turn, "forced - 12345@4", "turn progress"),
        (parse_turn, "forced - 54321@1", "turn progress"),
        (parse_turn, "forced - -x", "turn progress"),
        (parse_turn, "forced -", "2 fields"),
        (parse_record, "forced 0 Ann", "no ':' field"),
        (parse_record, "forced 0 Ann : 12345 c ", "empty field"),
    ],
)
def test_non_canonical_or_malformed_text_is_refused(parser, text: str, fragment: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MalformedInputError, match=fragment):
        parser(text)


def test_from_notation_checks_the_kind() -> None:
    assert from_notation("fh", Fill) == Fill(Category.FULL_HOUSE)
    with pytest.raises(MalformedInputError, match="not a Roll"):
        from_notation("fh", Roll)
    with pytest.raises(MalformedInputError, match="no notation"):
        from_notation("fh", int)
    with pytest.raises(MalformedInputError, match="has no notation"):
        to_notation(3)


def test_long_input_is_quoted_shortened() -> None:
    text = "1=3," * 1000
    with pytest.raises(MalformedInputError) as error:
        parse_scorecard(text)
    assert "(4000 characters)" in str(error.value)
    assert len(str(error.value)) < 400


def test_oversized_input_is_refused_before_reading() -> None:
    text = "forced 0 Ann : " + "12345 " * (MAX_INPUT_LENGTH // 6)
    with pytest.raises(MalformedInputError, match="longer than the limit"):
        parse_record(text)


@pytest.mark.parametrize(
    ("parser", "text", "fragment"),
    [
        (parse_scorecard, "2=7", "no roll scores 7 in Twos"),
        (parse_scorecard, "fh=24", "no roll scores 24 in Full House"),
        (parse_scorecard, "c=31", "no roll scores 31 in Chance"),
        (parse_scorecard, "4=20,y=0,+1", "need 50 in the Yahtzee box, which holds 0"),
        (parse_scorecard, "4=20,+1", "need 50 in the Yahtzee box, which holds None"),
        (parse_scorecard, "4=20,y=50,+2", "only 1 filled boxes could hold an extra Yahtzee"),
        (parse_turn, "forced - 12345@4", "1 to 3 rolls"),
        (parse_turn, "forced - 12347@1", "turn progress"),
        (parse_turn, "forced,yb=0 4=20,y=50,+1 -", "no Yahtzee bonus"),
        (
            parse_turn,
            "forced 1=0,2=0,3=0,4=0,5=0,6=0,3k=0,4k=0,fh=0,ss=0,ls=0,y=0,c=5 -",
            "complete",
        ),
        (parse_game, "forced 0 Ann,Bob -/c=20 -", "turn order"),
        (parse_game, "forced 0 Ann -/- -", "2 cards for 1 players"),
        (
            parse_record,
            "forced 0 Ann : 12345 12345 12345 12345",
            "action 3 '12345': roll: this turn has used all 3",
        ),
        (parse_record, "forced 0 Ann : 12345 6/6666", "action 1 '6/6666': keep '6'"),
        (parse_record, "forced 0 Ann : 12347", "neither a fill"),
    ],
)
def test_impossible_positions_are_refused(parser, text: str, fragment: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MalformedInputError) as error:
        parser(text)
    assert fragment in str(error.value)
    assert repr(text)[:40] in str(error.value)


@pytest.mark.parametrize("tie", ["play-oFf", "PLAY-OFF", "play_off", " play-off", "Upper-Total"])
def test_rules_notation_takes_only_the_canonical_spelling_of_a_tie_rule(tie: str) -> None:
    with pytest.raises(MalformedInputError, match="the tie rule is written tie="):
        Rules.parse(f"forced,tie={tie}")
    assert Rules.from_name(f"forced,tie={tie}").tie is not TieRule.SHARE  # names are lenient
