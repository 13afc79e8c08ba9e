"""Untrusted input: every reader refuses garbage with MalformedInputError and nothing else.

Each reader is fed arbitrary text, bytes and JSON-like data, and near-valid
input made by editing a valid value. Only MalformedInputError may escape, and
whatever is accepted must be a valid value (it survives the validating
constructors again).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from _kinds import KINDS
from _records import example_of, records, revalidate
from yahtzee_rules import (
    Dice,
    Game,
    GameRecord,
    MalformedInputError,
    Match,
    Rules,
    Scorecard,
    Turn,
    from_dict,
    from_json,
    from_notation,
    to_dict,
    to_json,
)
from yahtzee_rules.formats import notation
from yahtzee_rules.support._text import quote, show
from yahtzee_rules.testing import strategies as yst

TEXT_READERS: dict[str, Callable[[Any], object]] = {
    "parse_dice": notation.parse_dice,
    "parse_keep": notation.parse_keep,
    "parse_category": notation.parse_category,
    "parse_rules": notation.parse_rules,
    "parse_scorecard": notation.parse_scorecard,
    "parse_turn": notation.parse_turn,
    "parse_game": notation.parse_game,
    "parse_record": notation.parse_record,
    "parse_action": notation.parse_action,
    "Rules.parse": Rules.parse,
    "Scorecard.parse": Scorecard.parse,
    "Turn.parse": Turn.parse,
    "Game.parse": Game.parse,
    "GameRecord.parse": GameRecord.parse,
    "GameRecord.from_share_code": GameRecord.from_share_code,
    "Match.parse": Match.parse,
    "Match.from_share_code": Match.from_share_code,
}


def _json_reader(kind: type) -> Callable[[Any], object]:
    return lambda text: from_json(text, kind)


def _notation_reader(kind: type) -> Callable[[Any], object]:
    return lambda text: from_notation(text, kind)


for _kind in KINDS:
    TEXT_READERS[f"from_json[{_kind.__name__}]"] = _json_reader(_kind)
    TEXT_READERS[f"from_notation[{_kind.__name__}]"] = _notation_reader(_kind)

NOTATION_ALPHABET = "0123456789-=+,/@: abcdefhklnorsuyAPF%\t"

json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["dice", "scorecard", "game", "game_record", "roll", "fill", "forced"]),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                ["version", "type", "faces", "boxes", "bonus_marks", "players", "turn", "x"]
            )
            | st.text(max_size=5),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


def names_the_input(message: str, data: object) -> bool:
    """Whether ``message`` names what it refuses: the input shown (its start, when long), the
    text it decodes to, or for a document read as JSON the place in it (``at $.players[0]``)."""
    shown = [show(data)[:20].rstrip("'\"")]
    if isinstance(data, bytes):
        try:
            shown.append(quote(data.decode("utf-8"))[:20].rstrip("'\""))
        except UnicodeDecodeError:
            shown.append("UTF-8")
    return " at $" in message or any(part in message for part in shown)


def read_safely(reader: Callable[[Any], object], data: object) -> None:
    try:
        value = reader(data)
    except MalformedInputError as error:
        message = str(error)
    else:
        revalidate(value)
        return
    assert names_the_input(message, data), f"{message!r} does not name the input {data!r}"


def test_the_message_check_can_fail() -> None:
    assert names_the_input("dice '1234x': a face is 1 to 6", "1234x")
    assert not names_the_input("a face is 1 to 6", "1234x")
    assert not names_the_input("not an object", {"faces": 7})
    assert names_the_input("dice JSON at $.faces: 7 is an int, not a string", {"faces": 7})


@settings(max_examples=300)
@given(
    st.sampled_from(sorted(TEXT_READERS)),
    st.one_of(
        st.text(),
        st.text(alphabet=NOTATION_ALPHABET, max_size=40),
        st.binary(),
        json_like,
    ),
)
def test_text_readers_refuse_anything(name: str, data: object) -> None:
    read_safely(TEXT_READERS[name], data)


@settings(max_examples=200)
@given(st.sampled_from(KINDS), json_like)
def test_from_dict_refuses_anything(kind: type, data: object) -> None:
    read_safely(lambda d: from_dict(d, kind), data)


@settings(max_examples=100)
@given(st.sampled_from(KINDS), json_like)
def test_from_dict_refuses_anything_with_the_right_header(kind: type, data: object) -> None:
    body = data if isinstance(data, dict) else {"x": data}
    document = {"version": 1, "type": to_dict(example_of(kind))["type"], **body}
    read_safely(lambda d: from_dict(d, kind), document)


@st.composite
def valid_values(draw: st.DrawFn) -> object:
    return draw(
        st.one_of(
            yst.dice(),
            yst.keeps(),
            yst.categories(),
            yst.rules(),
            yst.scorecards(rules=yst.rules()),
            yst.turns(rules=yst.rules()),
            yst.games(rules=yst.rules(), max_players=2),
            records(rules=yst.rules(), max_players=2, max_turns=4),
        )
    )


def _paths(data: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(_paths(value, (*prefix, key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.extend(_paths(value, (*prefix, index)))
    return found


@settings(max_examples=300)
@given(valid_values(), st.data())
def test_edited_documents_are_refused_or_valid(value: object, data: st.DataObject) -> None:
    kind = type(value)
    document = copy.deepcopy(to_dict(value))
    for _ in range(data.draw(st.integers(1, 2))):
        paths = _paths(document)
        path = data.draw(st.sampled_from(paths[1:] or paths))
        parent: Any = document
        for step in path[:-1]:
            parent = parent[step]
        if not path:
            break
        operation = data.draw(st.sampled_from(("replace", "delete", "nudge")))
        if operation == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif operation == "nudge" and type(parent[path[-1]]) is int:
            parent[path[-1]] += data.draw(st.sampled_from((-1, 1, 5, -5, 100)))
        else:
            parent[path[-1]] = data.draw(json_like)
    read_safely(lambda d: from_dict(d, kind), document)


@settings(max_examples=200)
@given(valid_values(), st.data())
def test_edited_json_and_share_codes_are_refused_or_valid(
    value: object, data: st.DataObject
) -> None:
    text = to_json(value) if not isinstance(value, GameRecord) else value.share_code()
    position = data.draw(st.integers(0, len(text)))
    length = data.draw(st.integers(0, 3))
    insert = data.draw(st.text(alphabet='{}[]",:0123456789tfnAQw_-', max_size=3))
    edited = text[:position] + insert + text[position + length :]
    if isinstance(value, GameRecord):
        read_safely(GameRecord.from_share_code, edited)
    else:
        read_safely(lambda t: from_json(t, type(value)), edited)


def test_messages_stay_short_for_huge_input() -> None:
    name = "x" * 20_000
    huge_inputs: list[tuple[Callable[[Any], object], object]] = [
        (notation.parse_game, f"forced 0 {name},{name}"),
        (notation.parse_game, f"forced 0 {'a%' * 20_000}"),
        (notation.parse_scorecard, "1=3" * 20_000),
        (notation.parse_record, "forced 0 Ann : " + "1" * 50_000),
        (notation.parse_rules, "forced," + "u" * 50_000),
        (lambda d: from_dict(d, Game), {**to_dict(Game.new(1)), "players": [name, name]}),
        (lambda t: from_json(t, Dice), '{"version": 1, "type": "dice", "faces": "' + name + '"}'),
        (GameRecord.from_share_code, "y1" + "A" * 50_000),
    ]
    for reader, data in huge_inputs:
        try:
            reader(data)
        except MalformedInputError as error:
            message = str(error)
        else:
            message = ""
        assert 0 < len(message) < 1000, message[:200]
