"""Hostile values for every public constructor, reader and method that takes an argument.

Each entry point is called with values chosen to break careless code: integers too long
to print, deeply nested lists and dicts, ``None``, the wrong container, huge text and
objects whose ``repr`` fails. Only :class:`~yahtzee_rules.support.errors.RulesError` subclasses may
escape, and their messages must stay short. The cross product is fixed, so the run is
deterministic; ``test_hostile_arguments_in_random_places`` adds a Hypothesis run that
mixes hostile values into otherwise valid calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yahtzee_rules as yr
from _kinds import KINDS
from _records import example_of
from yahtzee_rules import (
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    Keep,
    Match,
    Roll,
    Rules,
    RulesError,
    Scorecard,
    Turn,
)
from yahtzee_rules.formats import notation, sharecode

HUGE = 10**5000


def _nested_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _nested_dict(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"x": value}
    return value


class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr fails")


HOSTILE: dict[str, object] = {
    "huge int": HUGE,
    "huge negative int": -HUGE,
    "huge int in a list": [1, 2, 3, 4, HUGE],
    "huge ints": [HUGE] * 6,
    "nested list": _nested_list(50_000),
    "nested dict": _nested_dict(50_000),
    "list in a list": [[1, 2, 3, 4, 5]],
    "None": None,
    "empty list": [],
    "empty dict": {},
    "huge text": "1" * 200_000,
    "huge name list": ["x" * 200_000],
    "float nan": float("nan"),
    "bool": True,
    "bytes": b"12345",
    "object": object(),
    "bad repr": _BadRepr(),
    "list of bad repr": [_BadRepr()],
}

GAME = Game.new(["Ann", "Bob"])
RECORD = GameRecord.new(["Ann", "Bob"])
TURN = Turn().roll(outcome="12345")

# Each entry calls one public entry point with the hostile value in one argument.
CALLS: dict[str, Callable[[Any], object]] = {
    "Dice": Dice,
    "Keep": Keep,
    "Dice.from_counts": Dice.from_counts,
    "Dice.count": lambda v: Dice("12345").count(v),
    "Dice.score": lambda v: Dice("12345").score(v),
    "Category.for_face": Category.for_face,
    "Category.parse": Category.parse,
    "YachtBox.parse": yr.YachtBox.parse,
    "Rules.joker": lambda v: Rules(joker=v),
    "Rules.upper_bonus": lambda v: Rules(upper_bonus=v),
    "Rules.upper_bonus_threshold": lambda v: Rules(upper_bonus_threshold=v),
    "Rules.yahtzee_bonus": lambda v: Rules(yahtzee_bonus=v),
    "Rules.card": lambda v: Rules(card=v),
    "Rules.tie": lambda v: Rules(tie=v),
    "Rules.parse": Rules.parse,
    "Rules.from_name": Rules.from_name,
    "Scorecard": Scorecard,
    "Scorecard.box": lambda v: Scorecard({Category.CHANCE: v}),
    "Scorecard.bonus_marks": lambda v: Scorecard({Category.YAHTZEE: 50}, bonus_marks=v),
    "Scorecard.card": lambda v: Scorecard(card=v),
    "Scorecard.parse": Scorecard.parse,
    "Scorecard.get": lambda v: Scorecard()[v],
    "Turn.card": lambda v: Turn(card=v),
    "Turn.rules": lambda v: Turn(rules=v),
    "Turn.dice": lambda v: Turn(dice=v, rolls_used=1),
    "Turn.rolls_used": lambda v: Turn(rolls_used=v),
    "Turn.parse": Turn.parse,
    "Turn.roll.keep": lambda v: TURN.roll(keep=v),
    "Turn.roll.outcome": lambda v: TURN.roll(keep="12", outcome=v),
    "Turn.roll.rng": lambda v: TURN.roll(rng=v),
    "Turn.fill": lambda v: TURN.fill(v),
    "Turn.can_fill": lambda v: TURN.can_fill(v),
    "Turn.can_roll": lambda v: TURN.can_roll(v),
    "Game.new": Game.new,
    "Game.new.rules": lambda v: Game.new(1, rules=v),
    "Game.new.first": lambda v: Game.new(2, first=v),
    "Game.parse": Game.parse,
    "Game.player_card": GAME.player_card,
    "Game.player_totals": GAME.player_totals,
    "Game.roll.keep": lambda v: GAME.roll(outcome="12345").roll(keep=v),
    "Game.roll.outcome": lambda v: GAME.roll(outcome=v),
    "Game.fill": lambda v: GAME.roll(outcome="12345").fill(v),
    "GameRecord.new": GameRecord.new,
    "GameRecord.new.first": lambda v: GameRecord.new(2, first=v),
    "GameRecord.parse": GameRecord.parse,
    "GameRecord.parse.rules": lambda v: GameRecord.parse("forced 0 Ann :", rules=v),
    "GameRecord.from_share_code": GameRecord.from_share_code,
    "GameRecord.undo": RECORD.undo,
    "GameRecord.roll.outcome": lambda v: RECORD.roll(outcome=v),
    "GameRecord.fill": lambda v: RECORD.roll(outcome="12345").fill(v),
    "Match.new": Match.new,
    "Match.new.best_of": lambda v: Match.new(2, best_of=v),
    "Match.new.rules": lambda v: Match.new(2, rules=v),
    "Match.parse": Match.parse,
    "Match.parse.rules": lambda v: Match.parse("bo3 forced 0 Ann,Bob :", rules=v),
    "Match.from_share_code": Match.from_share_code,
    "Match.with_record": lambda v: Match.new(2).with_record(v),
    "Match.fill": lambda v: Match.new(2).roll(outcome="12345").fill(v),
    "Roll": lambda v: Roll(v),
    "Roll.keep": lambda v: Roll("123", keep=v),
    "Fill": lambda v: Fill(v),
    "roll_off": yr.roll_off,
    "roll_off.outcomes": lambda v: yr.roll_off(2, outcomes=v),
    "score.dice": lambda v: yr.score(v, Category.CHANCE),
    "score.box": lambda v: yr.score("12345", v),
    "legal_fills.card": lambda v: yr.legal_fills(v, "12345"),
    "legal_fills.dice": lambda v: yr.legal_fills(Scorecard(), v),
    "legal_fills.rules": lambda v: yr.legal_fills(Scorecard(), "12345", rules=v),
    "fill.box": lambda v: yr.fill(Scorecard(), "12345", v),
    "totals.card": lambda v: yr.totals(v),
    "totals.rules": lambda v: yr.totals(Scorecard(), rules=v),
    "possible_values": yr.possible_values,
    "roll_distribution": yr.roll_distribution,
    "best_keep.dice": lambda v: yr.best_keep(Category.YAHTZEE, v),
    "best_keep.target": lambda v: yr.best_keep(v, "12345"),
    "best_keep.rolls_left": lambda v: yr.best_keep(Category.YAHTZEE, "12345", rolls_left=v),
    "chance_of.target": lambda v: yr.chance_of(v),
    "chance_of.rolls_left": lambda v: yr.chance_of(Category.YAHTZEE, rolls_left=v),
    "sharecode.decode_record": sharecode.decode_record,
    "to_dict": yr.to_dict,
    "to_notation": yr.to_notation,
}
for _reader in (
    "parse_dice",
    "parse_keep",
    "parse_category",
    "parse_rules",
    "parse_scorecard",
    "parse_turn",
    "parse_game",
    "parse_record",
    "parse_action",
):
    CALLS[f"notation.{_reader}"] = getattr(notation, _reader)


def _kind_calls(kind: type) -> dict[str, Callable[[Any], object]]:
    name = kind.__name__

    def from_dict_rules(v: Any) -> object:
        return yr.from_dict(yr.to_dict(GAME) if kind is Game else {}, kind, rules=v)

    def from_notation_kind(v: Any) -> object:
        return yr.from_notation(yr.to_notation(example_of(kind)), v)

    def from_dict(v: Any) -> object:
        return yr.from_dict(v, kind)

    def from_json(v: Any) -> object:
        return yr.from_json(v, kind)

    def from_notation(v: Any) -> object:
        return yr.from_notation(v, kind)

    return {
        f"from_dict[{name}]": from_dict,
        f"from_dict.rules[{name}]": from_dict_rules,
        f"from_json[{name}]": from_json,
        f"from_notation[{name}]": from_notation,
        f"from_notation.kind[{name}]": from_notation_kind,
    }


CALLS["from_dict.kind"] = lambda v: yr.from_dict({}, v)
CALLS["from_json.kind"] = lambda v: yr.from_json("{}", v)
CALLS["from_json.nested"] = lambda v: yr.from_json(json.dumps(v) if _jsonable(v) else "[]", Dice)


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


for _kind in KINDS:
    CALLS.update(_kind_calls(_kind))


def call_safely(call: Callable[[Any], object], value: object) -> None:
    """Call; only a RulesError with a short message may escape."""
    try:
        call(value)
    except RulesError as error:
        message = str(error)
        assert 0 < len(message) < 2000, message[:300]


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
@pytest.mark.parametrize("entry", sorted(CALLS))
def test_hostile_values_raise_only_rules_errors(entry: str, hostile: str) -> None:
    call_safely(CALLS[entry], HOSTILE[hostile])


DEEP_JSON = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 50_000 + "1" + "}" * 50_000


@pytest.mark.parametrize("text", [DEEP_JSON, DEEP_OBJECT, "9" * 5000, "-" + "9" * 5000])
@pytest.mark.parametrize("kind", KINDS)
def test_hostile_json_text(kind: type, text: str) -> None:
    call_safely(lambda t: yr.from_json(t, kind), text)
    call_safely(lambda t: yr.from_json(t, kind), '{"version": 1, "faces": ' + text + "}")


@settings(max_examples=300, derandomize=True)
@given(
    st.sampled_from(sorted(CALLS)),
    st.one_of(
        st.sampled_from(sorted(HOSTILE)).map(HOSTILE.__getitem__),
        st.integers(),
        st.integers(min_value=10**4300),
        st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none()), max_size=7),
        st.text(max_size=20),
    ),
)
def test_hostile_arguments_in_random_places(entry: str, value: object) -> None:
    call_safely(CALLS[entry], value)
