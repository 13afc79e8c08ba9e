"""JSON documents: round trips for every value, the published schema, and strict reading."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings

from _records import records
from yahtzee_rules import (
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    Keep,
    MalformedInputError,
    Roll,
    Rules,
    Scorecard,
    Turn,
    from_dict,
    from_json,
    json_schema,
    possible_values,
    to_dict,
    to_json,
)
from yahtzee_rules.formats.serialization import MAX_JSON_LENGTH
from yahtzee_rules.testing import strategies as yst

ANY_RULES = yst.rules()
VALIDATOR = jsonschema.Draft202012Validator(json_schema())


def check_round_trip(value: object, kind: type) -> dict[str, Any]:
    data = to_dict(value)
    assert data["version"] == 1
    assert from_dict(data, kind) == value
    text = to_json(value)
    assert text.isascii()
    assert from_json(text, kind) == value
    assert from_json(text.encode(), kind) == value
    assert json.loads(text) == data
    VALIDATOR.validate(data)
    return data


@given(yst.dice())
def test_dice(value: Dice) -> None:
    check_round_trip(value, Dice)


@given(yst.keeps())
def test_keeps(value: Keep) -> None:
    check_round_trip(value, Keep)


@given(yst.categories())
def test_categories(value: Category) -> None:
    check_round_trip(value, Category)


@given(ANY_RULES)
def test_rules(value: Rules) -> None:
    check_round_trip(value, Rules)


@given(yst.scorecards(rules=ANY_RULES))
def test_scorecards(value: Scorecard) -> None:
    check_round_trip(value, Scorecard)


@given(yst.turns(rules=ANY_RULES))
def test_turns(value: Turn) -> None:
    check_round_trip(value, Turn)


@settings(max_examples=50)
@given(yst.games(rules=ANY_RULES))
def test_games(value: Game) -> None:
    data = check_round_trip(value, Game)
    assert data["current"] == value.current


@settings(max_examples=30)
@given(records(rules=ANY_RULES))
def test_records(value: GameRecord) -> None:
    check_round_trip(value, GameRecord)
    for action in value.actions:
        check_round_trip(action, type(action))


def test_schema_ships_in_the_package_and_matches_the_rules() -> None:
    source = resources.files("yahtzee_rules").joinpath("schema", "v1.schema.json")
    assert json.loads(source.read_text(encoding="utf-8")) == json_schema()
    jsonschema.Draft202012Validator.check_schema(json_schema())
    boxes = json_schema()["$defs"]["boxes"]["properties"]
    for category in Category:
        assert set(boxes[category.name.lower()]["enum"]) == possible_values(category)


def test_json_schema_returns_a_copy() -> None:
    schema = json_schema()
    schema["$defs"].clear()
    assert json_schema()["$defs"]


def test_boxes_may_come_in_any_order() -> None:
    card = from_dict(card_doc({"chance": 20, "twos": 4}), Scorecard)
    assert card == Scorecard({Category.TWOS: 4, Category.CHANCE: 20})
    assert list(to_dict(card)["boxes"]) == ["twos", "chance"]


def test_document_example() -> None:
    record = GameRecord.new(["Ann"]).roll(outcome="12345").fill(Category.LARGE_STRAIGHT)
    assert to_dict(record) == {
        "version": 1,
        "type": "game_record",
        "start": {
            "players": ["Ann"],
            "rules": {
                "joker": "forced",
                "upper_bonus": 35,
                "upper_bonus_threshold": 63,
                "yahtzee_bonus": 100,
            },
            "first": 0,
            "current": 0,
            "cards": [{"boxes": {}, "bonus_marks": 0}],
            "turn": {"dice": None, "rolls_used": 0},
        },
        "actions": [
            {"type": "roll", "keep": [], "outcome": [1, 2, 3, 4, 5]},
            {"type": "fill", "category": "large_straight"},
        ],
    }


# --- hostile documents -----------------------------------------------------------------------


def card_doc(boxes: dict[str, Any], marks: Any = 0) -> dict[str, Any]:
    return {"version": 1, "type": "scorecard", "boxes": boxes, "bonus_marks": marks}


@pytest.mark.parametrize(
    ("boxes", "marks", "fragment"),
    [
        ({"twos": 7}, 0, "7 is not a value Twos can hold"),
        ({"full_house": 24}, 0, "24 is not a value Full House can hold"),
        ({"chance": 31}, 0, "31 is not a value Chance can hold"),
        ({"yahtzee": 0, "fours": 20}, 1, "bonus marks need 50 in the Yahtzee box"),
        ({"fours": 20}, 1, "bonus marks need 50 in the Yahtzee box"),
        ({"fours": 20, "yahtzee": 50}, 2, "only 1 filled boxes"),
        ({"twos": True}, 0, "True is a bool, not an int"),
        ({"twos": 4.0}, 0, "4.0 is a float, not an int"),
        ({"twos": "4"}, 0, "'4' is a str, not an int"),
        ({"twos": None}, 0, "None is a NoneType, not an int"),
        ({"deuces": 4}, 0, "'deuces' is not one of"),
        ({}, True, "True is a bool, not an int"),
        ({}, -1, "-1 is outside 0 to 12"),
    ],
)
def test_impossible_scorecards(boxes: dict[str, Any], marks: Any, fragment: str) -> None:
    with pytest.raises(MalformedInputError) as error:
        from_dict(card_doc(boxes, marks), Scorecard)
    assert fragment in str(error.value)


def test_versions_and_types() -> None:
    good = card_doc({})
    assert from_dict(good, Scorecard) == Scorecard()
    for version, fragment in [
        (2, "unknown version 2"),
        (0, "unknown version 0"),
        (True, "True is a bool, not an int"),
        ("1", "'1' is a str, not an int"),
    ]:
        with pytest.raises(MalformedInputError, match=fragment):
            from_dict({**good, "version": version}, Scorecard)
    with pytest.raises(MalformedInputError, match="no 'version'"):
        from_dict({k: v for k, v in good.items() if k != "version"}, Scorecard)
    with pytest.raises(MalformedInputError, match="not a dice document"):
        from_dict(good, Dice)
    with pytest.raises(MalformedInputError, match="unknown key 'extra'"):
        from_dict({**good, "extra": 1}, Scorecard)
    with pytest.raises(MalformedInputError, match="missing 'bonus_marks'"):
        from_dict({"version": 1, "type": "scorecard", "boxes": {}}, Scorecard)
    with pytest.raises(MalformedInputError, match="no JSON form"):
        from_dict(good, int)
    with pytest.raises(MalformedInputError, match="has no JSON form"):
        to_dict(3)


def turn_doc(**changes: Any) -> dict[str, Any]:
    data = to_dict(Turn().roll(outcome="12345"))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"rolls_used": 4}, "4 is outside 0 to 3"),
        ({"rolls_used": 0}, "dice before the first roll"),
        ({"dice": None}, "no dice after 1 rolls"),
        ({"dice": [1, 2, 3, 4, 7]}, "$.dice[4]: 7 is outside 1 to 6"),
        ({"dice": [0, 2, 3, 4, 5]}, "$.dice[0]: 0 is outside 1 to 6"),
        ({"dice": [5, 4, 3, 2, 1]}, "not in ascending order"),
        ({"dice": [1, 2, 3, 4]}, "4 faces"),
        ({"dice": "12345"}, "not a list"),
        ({"dice": [1, 2, 3, 4, True]}, "True is a bool, not an int"),
        (
            {
                "card": {"boxes": {"fours": 20, "yahtzee": 50}, "bonus_marks": 1},
                "rules": {**to_dict(Rules(yahtzee_bonus=0)), "version": None},
            },
            "unknown key",
        ),
    ],
)
def test_impossible_turns(changes: dict[str, Any], fragment: str) -> None:
    with pytest.raises(MalformedInputError) as error:
        from_dict(turn_doc(**changes), Turn)
    assert fragment in str(error.value)


def test_bonus_marks_need_a_yahtzee_bonus_in_the_rules() -> None:
    rules = to_dict(Rules(yahtzee_bonus=0))
    del rules["version"], rules["type"]
    data = turn_doc(rules=rules, card={"boxes": {"fours": 20, "yahtzee": 50}, "bonus_marks": 1})
    with pytest.raises(MalformedInputError, match="no Yahtzee bonus"):
        from_dict(data, Turn)


def test_a_complete_card_has_no_turn() -> None:
    card = Scorecard(dict.fromkeys(Category, 0) | {Category.CHANCE: 5})
    data = turn_doc(card=to_dict(card) | {"version": None})
    del data["card"]["version"], data["card"]["type"]
    with pytest.raises(MalformedInputError, match="the card is complete"):
        from_dict(data, Turn)


def test_game_documents_are_checked() -> None:
    game = Game.new(["Ann", "Bob"]).roll(outcome="12345").fill(Category.CHANCE)
    data = to_dict(game)
    assert from_dict(data, Game) == game
    cases: list[tuple[dict[str, Any], str]] = [
        ({"current": 0}, "current seat 0"),
        ({"current": 2}, "2 is outside 0 to 1"),
        ({"first": False}, "False is a bool"),
        ({"players": ["Ann", "Ann"]}, "appears twice"),
        ({"players": ["Ann", 3]}, "3 is an int, not a string"),
        ({"players": []}, "no players"),
        ({"cards": data["cards"][:1]}, "1 cards for 2 players"),
        ({"turn": None}, "not over"),
        ({"turn": {"dice": None, "rolls_used": 0, "x": 1}}, "unknown key 'x'"),
    ]
    for changes, fragment in cases:
        with pytest.raises(MalformedInputError) as error:
            from_dict({**data, **changes}, Game)
        assert fragment in str(error.value), (changes, str(error.value))


def test_record_documents_name_the_illegal_action() -> None:
    record = GameRecord.new(["Ann"]).roll(outcome="12345").fill(Category.CHANCE)
    data = to_dict(record)
    data["actions"].append({"type": "fill", "category": "aces"})
    with pytest.raises(MalformedInputError, match=r"\$\.actions: action 2 '1': fill Aces: no dice"):
        from_dict(data, GameRecord)
    data["actions"][2] = {"type": "roll", "keep": [1], "outcome": [1, 1, 1, 1]}
    with pytest.raises(MalformedInputError, match="action 2 '1/1111': keep '1': nothing to hold"):
        from_dict(data, GameRecord)
    data["actions"][2] = {"type": "roll", "keep": [], "outcome": [1, 1, 1, 1]}
    with pytest.raises(MalformedInputError, match="are 4 dice"):
        from_dict(data, GameRecord)
    data["actions"][2] = {"type": "jump"}
    with pytest.raises(MalformedInputError, match="not a roll or a fill"):
        from_dict(data, GameRecord)
    data["actions"] = [{"type": "roll", "keep": [], "outcome": [1, 2, 3, 4, 5]}] * 60
    with pytest.raises(MalformedInputError, match="at most 52"):
        from_dict(data, GameRecord)


def test_four_rolls_in_a_record_are_refused() -> None:
    data = to_dict(GameRecord.new(["Ann"]))
    data["actions"] = [{"type": "roll", "keep": [], "outcome": [1, 2, 3, 4, 5]}] * 4
    with pytest.raises(
        MalformedInputError, match="action 3 '12345': roll: this turn has used all 3"
    ):
        from_dict(data, GameRecord)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"version": 1, "type": "dice", "faces": [1, 2, 3, 4, 5]', "not JSON"),
        ('{"version": 1, "version": 1, "type": "dice", "faces": [1, 2, 3, 4, 5]}', "appears twice"),
        ('{"version": NaN, "type": "dice", "faces": [1, 2, 3, 4, 5]}', "NaN is not JSON"),
        (
            '{"version": 1, "type": "dice", "faces": [1, 2, 3, 4, 5' + "0" * 20 + "]}",
            "more than 9 digits",
        ),
        ("[" * (MAX_JSON_LENGTH + 1), "longer than the limit"),
        ("[" * 50_000, "not readable"),
        ("", "not JSON"),
    ],
)
def test_bad_json_text(text: str, fragment: str) -> None:
    with pytest.raises(MalformedInputError) as error:
        from_json(text, Dice)
    assert fragment in str(error.value)
    assert len(str(error.value)) < 500


def test_bad_json_bytes() -> None:
    with pytest.raises(MalformedInputError, match="not UTF-8"):
        from_json(b'{"version": 1, "type": "dice\xff"}', Dice)
    with pytest.raises(MalformedInputError, match="longer than the limit"):
        from_json(b" " * (4 * MAX_JSON_LENGTH + 1), Dice)
    with pytest.raises(MalformedInputError, match="not text or bytes"):
        from_json(12, Dice)  # type: ignore[call-overload]


def test_roll_and_fill_documents() -> None:
    assert to_dict(Roll("456", keep="22")) == {
        "version": 1,
        "type": "roll",
        "keep": [2, 2],
        "outcome": [4, 5, 6],
    }
    assert from_dict({"version": 1, "type": "fill", "category": "yahtzee"}, Fill) == Fill(
        Category.YAHTZEE
    )


def test_the_schemas_documents_are_the_kinds_of_value() -> None:
    from yahtzee_rules.formats.notation import KINDS

    documents = {entry["$ref"].removeprefix("#/$defs/") for entry in json_schema()["oneOf"]}
    assert documents == {f"{kind.name}_document" for kind in KINDS}
