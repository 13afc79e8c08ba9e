"""JSON for every value: plain dicts with a version, a published schema, and strict readers.

:func:`to_dict` turns a value into JSON-ready data (dicts, lists, strings, ints,
``None``) whose top level carries ``"version": 1`` and a ``"type"``;
:func:`from_dict` reads it back, checking everything, and :func:`to_json` /
:func:`from_json` do the same with text. Values nested inside a document (the
rules of a game, its cards) have no version or type of their own.

The shape of every document is published as a JSON Schema (draft 2020-12) in
the package, ``yahtzee_rules/schema/v1.schema.json`` (:func:`json_schema`
loads it). The schema checks shapes, types and the values each box can hold;
:func:`from_dict` checks the rest (bonus marks, turn order, the legality of
every recorded action).

Compatibility: every later release reads every version-1 document as this one
does. A document with a version this library does not know is refused with
:class:`~yahtzee_rules.MalformedInputError`; so are unknown keys, since a
version-1 document has none.

Examples:
    >>> from yahtzee_rules import Category, Scorecard, from_dict, to_dict, to_json
    >>> card = Scorecard({Category.FOURS: 12})
    >>> to_dict(card)
    {'version': 1, 'type': 'scorecard', 'boxes': {'fours': 12}, 'bonus_marks': 0}
    >>> from_dict(to_dict(card), Scorecard) == card
    True
    >>> to_json(card)
    '{"version":1,"type":"scorecard","boxes":{"fours":12},"bonus_marks":0}'
    >>> from_dict({"version": 1, "type": "scorecard", "boxes": {"twos": 7}, "bonus_marks": 0},
    ...           Scorecard)
    Traceback (most recent call last):
    ...
    yahtzee_rules.support.errors.MalformedInputError: scorecard JSON at $.boxes.twos: 7 is not a value Twos can hold; possible values are 0, 2, 4, 6, 8, 10
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar, cast, overload

from yahtzee_rules.core.boxes import Box, Card, card_of, check_registered
from yahtzee_rules.core.classic import CLASSIC, Category
from yahtzee_rules.core.dice import DICE_BY_FACES, KEEP_BY_FACES, Dice, faces_from
from yahtzee_rules.core.rules import JokerRule, Rules, TieRule
from yahtzee_rules.formats.notation import KINDS, ValueKind, kind_list
from yahtzee_rules.play.game import Game, make_game
from yahtzee_rules.play.match import MAX_BEST_OF, Match
from yahtzee_rules.play.record import (
    Fill,
    GameRecord,
    Roll,
    check_ruleset,
    fill_action,
    replay_record,
    roll_action,
)
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.turn import MAX_ROLLS, Turn, make_turn
from yahtzee_rules.support._limits import (
    MAX_BONUS,
    MAX_JSON_INDENT,
    MAX_JSON_LENGTH,
    MAX_MATCH_LENGTH,
    MAX_MATCH_PLAYER_GAMES,
    MAX_PLAYERS,
)
from yahtzee_rules.support._text import a_type, brief, quote, show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = [
    "MAX_JSON_INDENT",
    "MAX_JSON_LENGTH",
    "VERSION",
    "from_dict",
    "from_json",
    "json_schema",
    "to_dict",
    "to_json",
]

VERSION = 1
"""The version of the documents :func:`to_dict` writes and the newest :func:`from_dict` reads.
"""

T = TypeVar("T")

_JOKERS = {rule.value: rule for rule in JokerRule}
_TIES = {rule.value: rule for rule in TieRule if rule is not TieRule.SHARE}
_PLACEMENT = ("forced_yahtzee", "in_order")
"""Rules switches written only when true: Forced Yahtzee and boxes in card order."""


def _box_name(box: Box) -> str:
    return box.name.lower()


def _boxes_by_name(design: Card) -> dict[str, Box]:
    return {_box_name(box): box for box in design.members}


_MAX_INT = MAX_BONUS

_KINDS_BY_TYPE = {kind.type: kind for kind in KINDS}


def _kind_of(kind: object) -> ValueKind | None:
    """The registered kind of the class ``kind``: every card's boxes are a ``category``."""
    if not isinstance(kind, type):
        return None
    if issubclass(kind, Box) and kind is not Box:
        kind = Category
    return _KINDS_BY_TYPE.get(kind)


# --- writing -----------------------------------------------------------------------------


def _named(design: Card) -> dict[str, Any]:
    """The ``"card"`` key of a document, which only a card other than Classic has."""
    check_registered(design, "JSON")
    return {} if design is CLASSIC else {"card": design.name}


def _rules_body(rules: Rules) -> dict[str, Any]:
    tie = {} if rules.tie is TieRule.SHARE else {"tie": rules.tie.value}
    return {
        **_named(rules.card),
        "joker": rules.joker.value,
        "upper_bonus": rules.upper_bonus,
        "upper_bonus_threshold": rules.upper_bonus_threshold,
        "yahtzee_bonus": rules.yahtzee_bonus,
        **tie,
        **{field: True for field in _PLACEMENT if getattr(rules, field)},
    }


def _card_body(card: Scorecard) -> dict[str, Any]:
    return {
        "boxes": {
            _box_name(c): p
            for c, p in zip(card.card.members, card.boxes, strict=True)
            if p is not None
        },
        "bonus_marks": card.bonus_marks,
    }


def _progress_body(turn: Turn) -> dict[str, Any]:
    return {
        "dice": None if turn.dice is None else list(turn.dice.faces),
        "rolls_used": turn.rolls_used,
    }


def _game_body(game: Game) -> dict[str, Any]:
    return {
        "players": list(game.players),
        "rules": _rules_body(game.rules),
        "first": game.first,
        "current": game.current,
        "cards": [_card_body(card) for card in game.cards],
        "turn": None if (turn := game.turn) is None else _progress_body(turn),
    }


def _action_body(action: Roll | Fill) -> dict[str, Any]:
    if isinstance(action, Roll):
        return {"type": "roll", "keep": list(action.keep.faces), "outcome": list(action.outcome)}
    return {"type": "fill", "category": _box_name(action.category)}


def _record_body(record: GameRecord) -> dict[str, Any]:
    return {
        "start": _game_body(record.start),
        "actions": [_action_body(action) for action in record.actions],
    }


def _fill_body(value: Fill) -> dict[str, Any]:
    return {**_named(card_of(value.category)), "category": _box_name(value.category)}


_WRITERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "dice": lambda value: {"faces": list(value.faces)},
    "keep": lambda value: {"faces": list(value.faces)},
    "category": lambda value: {**_named(card_of(value)), "category": _box_name(value)},
    "rules": _rules_body,
    "scorecard": lambda value: {**_named(value.card), **_card_body(value)},
    "turn": lambda value: {
        "rules": _rules_body(value.rules),
        "card": _card_body(value.card),
        **_progress_body(value),
    },
    "game": _game_body,
    "roll": lambda value: {"keep": list(value.keep.faces), "outcome": list(value.outcome)},
    "fill": _fill_body,
    "game_record": _record_body,
    "match": lambda value: {
        "best_of": value.best_of,
        "records": [_record_body(record) for record in value.records],
    },
}
"""How each kind of :data:`~yahtzee_rules.formats.notation.KINDS` is written, by its document type."""


def _body(value: object) -> tuple[str, dict[str, Any]]:
    kind = _kind_of(Category if isinstance(value, Box) else type(value))
    if kind is None:
        kind = next((kind for kind in KINDS if isinstance(value, kind.type)), None)
    if kind is None:
        raise MalformedInputError(
            f"value {show(value)}: {a_type(value)} has no JSON form; give a {kind_list()}"
        )
    return kind.name, _WRITERS[kind.name](value)


def to_dict(value: object) -> dict[str, Any]:
    """The JSON-ready data of a value, with ``"version"`` and ``"type"`` first.

    Raises:
        MalformedInputError: For a value of a type without a JSON form.

    Examples:
        >>> from yahtzee_rules import Dice, Game, GameRecord, Rules
        >>> to_dict(Dice("13366"))
        {'version': 1, 'type': 'dice', 'faces': [1, 3, 3, 6, 6]}
        >>> to_dict(Rules())
        {'version': 1, 'type': 'rules', 'joker': 'forced', 'upper_bonus': 35, 'upper_bonus_threshold': 63, 'yahtzee_bonus': 100}
        >>> to_dict(GameRecord.new(["Ann"]).roll(outcome="12345"))["actions"]
        [{'type': 'roll', 'keep': [], 'outcome': [1, 2, 3, 4, 5]}]
    """
    kind, body = _body(value)
    return {"version": VERSION, "type": kind, **body}


def to_json(value: object, *, indent: int | None = None) -> str:
    """:func:`to_dict` as JSON text (ASCII only; compact unless ``indent`` is given).

    Args:
        value: Any value :func:`to_dict` writes.
        indent: ``None`` for compact text, else spaces per level, an int from 0 to
            :data:`MAX_JSON_INDENT` (2: the largest record and match then still read
            back within :func:`from_json`'s limits).

    Raises:
        MalformedInputError: For a value :func:`to_dict` refuses, or another ``indent``.

    Examples:
        >>> from yahtzee_rules import Keep
        >>> to_json(Keep("33"))
        '{"version":1,"type":"keep","faces":[3,3]}'
        >>> print(to_json(Keep("3"), indent=1))
        {
         "version": 1,
         "type": "keep",
         "faces": [
          3
         ]
        }
        >>> to_json(Keep("33"), indent=4)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: indent 4: not None or an int from 0 to 2 (MAX_JSON_INDENT), the indents whose largest values still read back
    """
    if indent is not None and (
        type(indent) is not int or not 0 <= indent <= MAX_JSON_INDENT  # bool is refused too
    ):
        raise MalformedInputError(
            f"indent {show(indent)}: not None or an int from 0 to {MAX_JSON_INDENT} "
            f"(MAX_JSON_INDENT), the indents whose largest values still read back"
        )
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(to_dict(value), indent=indent, separators=separators)


# --- reading -----------------------------------------------------------------------------


class _Reader:
    """Strict readers for JSON-like data; every error names the path within the document."""

    def __init__(self, what: str) -> None:
        self.what = what

    def fail(self, path: str, problem: str) -> MalformedInputError:
        return MalformedInputError(f"{self.what} JSON at {path}: {brief(problem)}")

    def shown(self, value: object) -> str:
        return show(value, 60)

    def obj(
        self, value: object, path: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.fail(path, f"{self.shown(value)} is {a_type(value)}, not an object")
        present = set(value)
        for key in value:
            if type(key) is not str:
                raise self.fail(path, f"key {self.shown(key)} is not a string")
        missing = [k for k in keys if k not in present]
        if missing:
            raise self.fail(
                path, f"missing {', '.join(map(repr, missing))}; expected keys {list(keys)}"
            )
        unknown = sorted(present - set(keys) - set(optional))
        if unknown:
            allowed = list(optional + keys)
            raise self.fail(
                path,
                f"unknown key {show(unknown[0])}; version {VERSION} documents have only {allowed}",
            )
        return value

    def design(self, data: dict[str, Any], path: str) -> Card:
        """The card a document names with its optional ``"card"`` key (Classic without it)."""
        if "card" not in data:
            return CLASSIC
        others = {name: Card.named(name) for name in Card.names(switched=True)}
        del others[CLASSIC.name]
        return self.text(data["card"], f"{path}.card", others)

    def integer(self, value: object, path: str, low: int = 0, high: int = _MAX_INT) -> int:
        if type(value) is not int:
            raise self.fail(path, f"{self.shown(value)} is {a_type(value)}, not an int")
        if not low <= value <= high:
            raise self.fail(path, f"{self.shown(value)} is outside {low} to {high}")
        return value

    def text(self, value: object, path: str, choices: dict[str, T]) -> T:
        if type(value) is not str:
            raise self.fail(path, f"{self.shown(value)} is {a_type(value)}, not a string")
        found = choices.get(value)
        if found is None:
            raise self.fail(
                path, f"{self.shown(value)} is not one of {', '.join(map(repr, choices))}"
            )
        return found

    def array(self, value: object, path: str, max_length: int) -> list[Any]:
        if type(value) is not list and type(value) is not tuple:
            raise self.fail(path, f"{self.shown(value)} is {a_type(value)}, not a list")
        if len(value) > max_length:
            raise self.fail(path, f"{len(value)} items; at most {max_length} are allowed")
        return list(value)

    def faces(self, value: object, path: str, lengths: range) -> tuple[int, ...]:
        items = self.array(value, path, lengths.stop - 1)
        if len(items) not in lengths:
            raise self.fail(
                path, f"{len(items)} faces; expected {lengths.start} to {lengths.stop - 1}"
            )
        for index, face in enumerate(items):
            self.integer(face, f"{path}[{index}]", 1, 6)
        faces = tuple(items)
        if list(faces) != sorted(faces):
            raise self.fail(path, f"faces {list(faces)} are not in ascending order")
        return faces_from(faces, what="faces", lengths=lengths)

    def rules(self, value: object, path: str) -> Rules:
        data = self.obj(
            value,
            path,
            ("joker", "upper_bonus", "upper_bonus_threshold", "yahtzee_bonus"),
            ("card", "tie", *_PLACEMENT),
        )
        design = self.design(data, path)
        placement = {}
        for field in _PLACEMENT:
            if field in data:
                if data[field] is not True:
                    raise self.fail(
                        f"{path}.{field}",
                        f"{self.shown(data[field])} is not true; leave the "
                        f"key out when the switch is off",
                    )
                placement[field] = True
        tie = TieRule.SHARE
        if "tie" in data:
            tie = self.text(data["tie"], f"{path}.tie", _TIES)
        joker = self.text(data["joker"], f"{path}.joker", _JOKERS)
        upper_bonus = self.integer(data["upper_bonus"], f"{path}.upper_bonus")
        threshold = self.integer(data["upper_bonus_threshold"], f"{path}.upper_bonus_threshold")
        yahtzee_bonus = self.integer(data["yahtzee_bonus"], f"{path}.yahtzee_bonus")
        try:
            return Rules(
                joker=joker,
                upper_bonus=upper_bonus,
                upper_bonus_threshold=threshold,
                yahtzee_bonus=yahtzee_bonus,
                card=design,
                tie=tie,
                **placement,
            )
        except MalformedInputError as error:
            raise self.fail(path, str(error)) from None

    def card(self, value: object, path: str, design: Card | None = None) -> Scorecard:
        """A scorecard; a document's own names its card, one inside a game takes the rules'."""
        if design is None:
            data = self.obj(value, path, ("boxes", "bonus_marks"), ("card",))
            design = self.design(data, path)
        else:
            data = self.obj(value, path, ("boxes", "bonus_marks"))
        boxes_data = data["boxes"]
        if type(boxes_data) is not dict:
            raise self.fail(f"{path}.boxes", f"{self.shown(boxes_data)} is not an object")
        boxes: list[int | None] = [None] * len(design)
        names = _boxes_by_name(design)
        for key, points in boxes_data.items():
            category = self.text(key, f"{path}.boxes", names)
            where = f"{path}.boxes.{key}"
            self.integer(points, where, 0, 50)
            if points not in design.possible[category]:
                allowed = sorted(design.possible[category])
                shown = (
                    ", ".join(map(str, allowed))
                    if len(allowed) <= 8
                    else (f"{', '.join(map(str, allowed[:4]))}, ..., {allowed[-1]}")
                )
                raise self.fail(
                    where,
                    f"{points} is not a value {category.label} can hold; possible values are {shown}",
                )
            boxes[category] = points
        marks = self.integer(data["bonus_marks"], f"{path}.bonus_marks", 0, len(design) - 1)
        try:
            return Scorecard(tuple(boxes), bonus_marks=marks, card=design)
        except MalformedInputError as error:
            raise self.fail(path, str(error)) from None

    def progress(self, value: object, path: str) -> tuple[Dice | None, int]:
        data = self.obj(value, path, ("dice", "rolls_used"))
        rolls = self.integer(data["rolls_used"], f"{path}.rolls_used", 0, MAX_ROLLS)
        if data["dice"] is None:
            if rolls:
                raise self.fail(path, f"no dice after {rolls} rolls; dice come with the first roll")
            return None, 0
        faces = self.faces(data["dice"], f"{path}.dice", range(5, 6))
        if not rolls:
            raise self.fail(path, "dice before the first roll; rolls_used is 0")
        return DICE_BY_FACES[faces], rolls

    def game(self, value: object, path: str) -> Game:
        data = self.obj(value, path, ("players", "rules", "first", "current", "cards", "turn"))
        players = self.array(data["players"], f"{path}.players", MAX_PLAYERS)
        if not players:
            raise self.fail(f"{path}.players", "no players; a game needs at least one")
        for index, name in enumerate(players):
            if type(name) is not str:
                raise self.fail(
                    f"{path}.players[{index}]",
                    f"{self.shown(name)} is {a_type(name)}, not a string",
                )
        rules = self.rules(data["rules"], f"{path}.rules")
        first = self.integer(data["first"], f"{path}.first", 0, len(players) - 1)
        current = self.integer(data["current"], f"{path}.current", 0, len(players) - 1)
        cards_data = self.array(data["cards"], f"{path}.cards", len(players))
        if len(cards_data) != len(players):
            raise self.fail(f"{path}.cards", f"{len(cards_data)} cards for {len(players)} players")
        cards = tuple(
            self.card(card, f"{path}.cards[{i}]", rules.card) for i, card in enumerate(cards_data)
        )
        turn = None if data["turn"] is None else self.progress(data["turn"], f"{path}.turn")
        try:
            return make_game(tuple(players), rules, first, cards, turn, current)
        except MalformedInputError as error:
            raise self.fail(path, str(error)) from None

    def action(self, value: object, path: str, design: Card) -> Roll | Fill:
        if type(value) is dict and value.get("type") == "fill":
            data = self.obj(value, path, ("type", "category"))
            names = _boxes_by_name(design)
            return fill_action(self.text(data["category"], f"{path}.category", names))
        if type(value) is dict and value.get("type") == "roll":
            data = self.obj(value, path, ("type", "keep", "outcome"))
            return self.roll(data, path)
        raise self.fail(path, f"{self.shown(value)} is not a roll or a fill action")

    def roll(self, data: dict[str, Any], path: str) -> Roll:
        keep = self.faces(data["keep"], f"{path}.keep", range(6))
        outcome = self.faces(data["outcome"], f"{path}.outcome", range(6))
        if len(keep) + len(outcome) != 5:
            raise self.fail(
                path,
                f"keep and outcome are {len(keep) + len(outcome)} dice; a roll holds some "
                f"dice and throws the rest, five in all",
            )
        return roll_action(KEEP_BY_FACES[keep], outcome)

    def record(self, data: dict[str, Any], path: str) -> GameRecord:
        start = self.game(data["start"], f"{path}.start")
        design = start.rules.card
        limit = 4 * len(design) * len(start.players)
        actions_data = self.array(data["actions"], f"{path}.actions", limit)
        actions = tuple(
            self.action(action, f"{path}.actions[{i}]", design)
            for i, action in enumerate(actions_data)
        )
        return replay_record(start, actions, f"{self.what} JSON at {path}.actions", None)

    def match(self, data: dict[str, Any], path: str) -> Match:
        best_of = self.integer(data["best_of"], f"{path}.best_of", 1, MAX_BEST_OF)
        # a match has two players or more; Match checks players times games
        records_data = self.array(data["records"], f"{path}.records", MAX_MATCH_PLAYER_GAMES // 2)
        records = []
        for index, record in enumerate(records_data):
            where = f"{path}.records[{index}]"
            records.append(self.record(self.obj(record, where, ("start", "actions")), where))
        try:
            return Match(best_of, records)
        except MalformedInputError as error:
            raise self.fail(path, str(error)) from None


def _read_turn(reader: _Reader, body: dict[str, Any]) -> Turn:
    rules = reader.rules(body["rules"], "$.rules")
    card = reader.card(body["card"], "$.card", rules.card)
    progress = reader.progress({"dice": body["dice"], "rolls_used": body["rolls_used"]}, "$")
    try:
        return make_turn(rules, card, progress)
    except MalformedInputError as error:
        raise reader.fail("$", str(error)) from None


def _read_box(reader: _Reader, body: dict[str, Any]) -> Box:
    names = _boxes_by_name(reader.design(body, "$"))
    return reader.text(body["category"], "$.category", names)


_READERS: dict[str, tuple[tuple[str, ...], Callable[[_Reader, dict[str, Any]], object]]] = {
    "dice": (
        ("faces",),
        lambda reader, body: DICE_BY_FACES[reader.faces(body["faces"], "$.faces", range(5, 6))],
    ),
    "keep": (
        ("faces",),
        lambda reader, body: KEEP_BY_FACES[reader.faces(body["faces"], "$.faces", range(6))],
    ),
    "category": (("category",), _read_box),
    "rules": (
        ("joker", "upper_bonus", "upper_bonus_threshold", "yahtzee_bonus"),
        lambda reader, body: reader.rules(body, "$"),
    ),
    "scorecard": (("boxes", "bonus_marks"), lambda reader, body: reader.card(body, "$")),
    "turn": (("rules", "card", "dice", "rolls_used"), _read_turn),
    "game": (
        ("players", "rules", "first", "current", "cards", "turn"),
        lambda reader, body: reader.game(body, "$"),
    ),
    "roll": (("keep", "outcome"), lambda reader, body: reader.roll(body, "$")),
    "fill": (("category",), lambda reader, body: fill_action(_read_box(reader, body))),
    "game_record": (("start", "actions"), lambda reader, body: reader.record(body, "$")),
    "match": (("best_of", "records"), lambda reader, body: reader.match(body, "$")),
}
"""How each kind of :data:`~yahtzee_rules.formats.notation.KINDS` is read, by its document type:
the keys its document must have, and the reader of its body."""

if set(_WRITERS) != set(_READERS) or set(_READERS) != {kind.name for kind in KINDS}:
    raise RuntimeError("every kind of value in notation.KINDS needs a JSON writer and reader")


def _read_body(reader: _Reader, kind: str, data: dict[str, Any]) -> object:
    body = {k: v for k, v in data.items() if k not in ("version", "type")}
    named: tuple[str, ...] = ("card",) if kind in ("category", "scorecard", "fill") else ()
    if kind == "rules":
        named = ("card", "tie", *_PLACEMENT)
    keys, read = _READERS[kind]
    reader.obj(body, "$", keys, named)
    return read(reader, body)


@overload
def from_dict(data: object, kind: type[T], *, rules: Rules | None = None) -> T: ...


@overload
def from_dict(data: object, kind: None = None, *, rules: Rules | None = None) -> object: ...


def from_dict(data: object, kind: type[T] | None = None, *, rules: Rules | None = None) -> object:
    """Read a value of type ``kind`` from :func:`to_dict` data, checking everything.

    Args:
        data: A dict as :func:`to_dict` writes it (or as :func:`json.loads` reads it).
        kind: The type expected: Dice, Keep, Category (or another card's boxes, such
            as YachtBox), Rules, Scorecard, Turn, Game, Roll, Fill, GameRecord or Match.
            Left out, the document's ``"type"`` says which (any of them is read); give
            it when only one will do, so that a document of another type is refused.
        rules: If given, the rules the value must belong to: a document written
            under other rules (or of another card) is refused, with both named.

    Raises:
        MalformedInputError: For an unknown version, a document of another type,
            missing or unknown keys, wrong JSON types (``true`` where an int is
            expected, say), values no game can reach, a record action the rules
            forbid (named by its index), or other rules than ``rules``. The message
            gives the path.

    Examples:
        >>> from yahtzee_rules import Dice, Rules
        >>> from_dict({"version": 1, "type": "dice", "faces": [1, 3, 3, 6, 6]}, Dice)
        Dice('13366')
        >>> from_dict({"version": 2, "type": "dice", "faces": [1, 3, 3, 6, 6]}, Dice)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: dice JSON at $.version: unknown version 2; this library reads version 1
        >>> from_dict({"version": 1, "type": "rules", "joker": "forced", "upper_bonus": True,
        ...            "upper_bonus_threshold": 63, "yahtzee_bonus": 100}, Rules)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: rules JSON at $.upper_bonus: True is a bool, not an int
        >>> from_dict({"version": 1, "type": "keep", "faces": [6, 6]})
        Keep('66')
    """
    name = None if kind is None else _type_name(kind)
    if name is None and kind is not None:
        raise MalformedInputError(
            f"kind {show(kind)}: no JSON form for this type; give {kind_list()}"
        )
    reader = _Reader(name or "document")
    if type(data) is not dict:
        raise reader.fail("$", f"{reader.shown(data)} is {a_type(data)}, not an object")
    if "version" not in data:
        raise reader.fail("$", "no 'version'; every document starts with \"version\": 1")
    version = data["version"]
    if type(version) is not int:
        raise reader.fail("$.version", f"{reader.shown(version)} is {a_type(version)}, not an int")
    if version != VERSION:
        raise reader.fail(
            "$.version",
            f"unknown version {reader.shown(version)}; this library reads version {VERSION}",
        )
    if name is None:  # the document says what it is
        name = data.get("type")
        if not isinstance(name, str) or name not in _READERS:
            raise reader.fail(
                "$.type",
                f"{reader.shown(name)} is not a type of document; the types are "
                f"{', '.join(kind.name for kind in KINDS)}",
            )
        reader = _Reader(name)
    elif data.get("type") != name:
        raise reader.fail(
            "$.type",
            f"{reader.shown(data.get('type'))} is not {show(name)}; this is not a {name} document",
        )
    value = _read_body(reader, name, data)
    if isinstance(kind, type) and issubclass(kind, Box) and not isinstance(value, kind):
        raise reader.fail(
            "$",
            f"a box of the {card_of(cast(Box, value)).title} card, not a {kind.__name__}; "
            f"read it as {type(value).__name__}",
        )
    shown = value.rules if isinstance(value, Match) else value
    check_ruleset(shown, rules, f"{name} JSON", "at $")
    return value


def _type_name(kind: object) -> str | None:
    """The document type of ``kind``: every card's boxes are a ``category``."""
    found = _kind_of(kind)
    return None if found is None else found.name


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _JSONProblemError(f"key {show(key)} appears twice in one object")
            seen.add(key)
    return result


class _JSONProblemError(Exception):
    pass


def _no_constant(name: str) -> Any:
    raise _JSONProblemError(f"{name} is not JSON")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 9:
        raise _JSONProblemError(f"the number {text[:20]} has more than 9 digits")
    return int(text)


@overload
def from_json(text: str | bytes, kind: type[T], *, rules: Rules | None = None) -> T: ...


@overload
def from_json(text: str | bytes, kind: None = None, *, rules: Rules | None = None) -> object: ...


def from_json(
    text: str | bytes, kind: type[T] | None = None, *, rules: Rules | None = None
) -> object:
    """Read a value of type ``kind`` from JSON text; see :func:`from_dict` (and its ``rules``).

    Without ``kind``, the document's ``"type"`` says what it is, as for :func:`from_dict`.

    Raises:
        MalformedInputError: For text that is not JSON (or is longer than
            :data:`MAX_JSON_LENGTH` characters, a match's than
            :data:`~yahtzee_rules.play.match.MAX_MATCH_LENGTH`, repeats a key, uses
            ``NaN``, or has numbers of more than 9 digits), and for anything
            :func:`from_dict` refuses.

    Examples:
        >>> from yahtzee_rules import Game
        >>> game = Game.new(["Ann", "Bob"]).roll(outcome="12345")
        >>> from_json(to_json(game), Game) == game
        True
        >>> from_json(to_json(game)) == game  # the document names its type
        True
        >>> from_json('{"version": 1, "type": "dice", "faces": [1, 3, 3, 6', Game)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: game JSON '{"version": 1, "type": "dice", "faces": [1, 3, 3, 6': not JSON: Expecting ',' delimiter at character 51
    """
    name = ("document" if kind is None else _type_name(kind)) or "value"
    # a match may be longer; without a kind, a longer document must turn out to be one
    limit = MAX_MATCH_LENGTH if kind in (Match, None) else MAX_JSON_LENGTH
    if isinstance(text, (bytes, bytearray)):
        if len(text) > 4 * limit:
            raise MalformedInputError(
                f"{name} JSON {bytes(text[:60])!r}...: longer than the limit of {limit} characters"
            )
        raw = bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MalformedInputError(
                f"{name} JSON {raw[:60]!r}: not UTF-8 ({error.reason} at byte {error.start})"
            ) from None
    if not isinstance(text, str):
        raise MalformedInputError(f"{name} JSON {show(text)}: {a_type(text)}, not text or bytes")
    if len(text) > limit:
        raise MalformedInputError(
            f"{name} JSON {quote(text)}: longer than the limit of {limit} characters"
        )
    data = read_json_text(text, f"{name} JSON")
    if kind is None and len(text) > MAX_JSON_LENGTH and not _is_match(data):
        raise MalformedInputError(
            f"{name} JSON {quote(text)}: longer than the limit of {MAX_JSON_LENGTH} characters "
            f"(only a match may be longer)"
        )
    return from_dict(data, kind, rules=rules)


def _is_match(data: object) -> bool:
    return isinstance(data, dict) and data.get("type") == "match"


def read_json_text(text: str, what: str) -> Any:
    """The data of the JSON ``text``, read as :func:`from_json` reads it: no key twice in
    one object, no ``NaN`` or ``Infinity``, no number of more than 9 digits.

    For other JSON documents of the library (the command line's save files); the
    caller bounds the length of ``text``.

    Raises:
        MalformedInputError: Naming ``what`` and quoting a bounded prefix of ``text``.

    Examples:
        >>> read_json_text('{"a": 1}', "save file")
        {'a': 1}
        >>> read_json_text('{"a": 1, "a": 2}', "save file")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: save file '{"a": 1, "a": 2}': key 'a' appears twice in one object
    """
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constant,
            parse_int=_bounded_int,
        )
    except _JSONProblemError as problem:
        raise MalformedInputError(f"{what} {quote(text)}: {problem}") from None
    except json.JSONDecodeError as error:
        raise MalformedInputError(
            f"{what} {quote(text)}: not JSON: {error.msg} at character {error.pos}"
        ) from None
    except (RecursionError, ValueError) as error:
        raise MalformedInputError(f"{what} {quote(text)}: not readable: {error}") from None


_SCHEMA: dict[str, Any] | None = None


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of version-1 documents, as a new dict.

    The same file ships in the package as ``yahtzee_rules/schema/v1.schema.json``.

    Examples:
        >>> schema = json_schema()
        >>> schema["$schema"]
        'https://json-schema.org/draft/2020-12/schema'
        >>> sorted(schema["$defs"]["boxes"]["properties"]["full_house"]["enum"])
        [0, 25]
    """
    global _SCHEMA
    if _SCHEMA is None:
        source = resources.files("yahtzee_rules").joinpath("schema", "v1.schema.json")
        _SCHEMA = json.loads(source.read_text(encoding="utf-8"))
    return copy.deepcopy(_SCHEMA)
