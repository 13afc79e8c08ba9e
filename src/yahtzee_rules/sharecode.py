"""Share codes: a game record as a short URL-safe string, to continue a game on another device.

A code is ``y1`` (the format version) followed by the base64url text (no
padding) of a compact binary encoding of the record:

* one flag byte: the Joker rule (bits 0-1), changed bonus values (bit 2),
  default player names (bit 3), a start that is not a new game (bit 4);
* the changed bonus values if any, then the number of players, the starting
  seat and, unless they are the defaults, the names (each as its UTF-8 length
  and bytes); integers are unsigned LEB128;
* for a start that is not a new game, each card as 13 bytes (0 for open, else
  points + 1) and its bonus marks, then the turn (0 before the first roll,
  1-3 rolls used followed by the dice, or 255 once the game is over);
* the actions: the first roll of a turn is one byte, the index of the dice
  among the 252 rolls (:meth:`Dice.all <yahtzee_rules.Dice.all>`); a later roll
  is the index of the keep among :meth:`Dice.keeps <yahtzee_rules.Dice.keeps>`
  of the dice showing (0-31) followed by the index of the new dice; a fill is
  32 plus the box's index (32-44);
* a CRC-32 of everything before it, four bytes, so a mistyped or truncated code
  is refused rather than read as a different game.

A finished four-player game takes about 300 bytes, 400 characters.

Examples:
    >>> from yahtzee_rules import GameRecord
    >>> from yahtzee_rules.sharecode import decode_record, encode_record
    >>> record = GameRecord.parse("forced 0 Ann : 22345 2345/6 ls")
    >>> code = encode_record(record)
    >>> code
    'y1AAEAA0FubpIWryoBjJvn'
    >>> decode_record(code) == record
    True
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import re
import zlib
from collections.abc import Iterator

from yahtzee_rules.categories import Category
from yahtzee_rules.dice import _ALL_DICE, _KEEP_BY_FACES, Dice
from yahtzee_rules.errors import IllegalActionError, MalformedInputError
from yahtzee_rules.game import Game
from yahtzee_rules.notation import (
    MAX_INPUT_LENGTH,
    _brief,
    _current_seat,
    _is_new,
    _make_game,
    _quote,
)
from yahtzee_rules.record import GameRecord, Roll, _apply, _fill_action, _raw_record, _roll_action
from yahtzee_rules.rules import JokerRule, Rules
from yahtzee_rules.scorecard import Scorecard

__all__ = ["PREFIX", "decode_record", "encode_record"]

PREFIX = "y1"
"""The version prefix of every share code this library writes."""

_JOKERS = (JokerRule.FORCED, JokerRule.FREE_CHOICE, JokerRule.NONE)
_CLASSIC = Rules()
_CATEGORIES = tuple(Category)
_CODE_RE = re.compile(r"[A-Za-z0-9_-]*")
_MAX_VARINT_BYTES = 5


def _varint(value: int, out: bytearray) -> None:
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def _default_names(count: int) -> tuple[str, ...]:
    return tuple(f"Player {i + 1}" for i in range(count))


def encode_record(record: GameRecord) -> str:
    """The share code of ``record``; :meth:`GameRecord.share_code` calls this.

    Raises:
        MalformedInputError: If ``record`` is not a GameRecord.

    Examples:
        >>> from yahtzee_rules import GameRecord
        >>> encode_record(GameRecord.new(2))
        'y1CAIAw2TqKA'
    """
    if not isinstance(record, GameRecord):
        raise MalformedInputError(f"record {record!r}: not a GameRecord")
    start = record.start
    rules = start.rules
    out = bytearray()
    custom = (rules.upper_bonus, rules.upper_bonus_threshold, rules.yahtzee_bonus) != (
        _CLASSIC.upper_bonus,
        _CLASSIC.upper_bonus_threshold,
        _CLASSIC.yahtzee_bonus,
    )
    default_names = start.players == _default_names(len(start.players))
    begun = not _is_new(start)
    out.append(_JOKERS.index(rules.joker) | custom << 2 | default_names << 3 | begun << 4)
    if custom:
        for value in (rules.upper_bonus, rules.upper_bonus_threshold, rules.yahtzee_bonus):
            _varint(value, out)
    _varint(len(start.players), out)
    _varint(start.first, out)
    if not default_names:
        for name in start.players:
            data = name.encode("utf-8", "surrogatepass")
            _varint(len(data), out)
            out += data
    if begun:
        for card in start.cards:
            out += bytes(0 if points is None else points + 1 for points in card.boxes)
            _varint(card.bonus_marks, out)
        turn = start.turn
        if turn is None:
            out.append(255)
        elif turn.dice is None:
            out.append(0)
        else:
            out.append(turn.rolls_used)
            out.append(turn.dice._index)
    game = start
    for action in record.actions:
        if isinstance(action, Roll):
            dice = game.dice
            new = action.dice
            if dice is not None:
                out.append(dice.keeps().index(action.keep))
            out.append(new._index)
        else:
            out.append(32 + action.category)
        game = _apply(game, action)
    out += zlib.crc32(out).to_bytes(4, "big")
    return PREFIX + base64.urlsafe_b64encode(bytes(out)).rstrip(b"=").decode("ascii")


class _Reader:
    def __init__(self, data: bytes, code: str) -> None:
        self.data = data
        self.position = 0
        self.code = code

    def fail(self, problem: str) -> MalformedInputError:
        return MalformedInputError(f"share code {_quote(self.code)}: {_brief(problem)}")

    @contextlib.contextmanager
    def checking(self, context: str = "") -> Iterator[None]:
        """Report a value the code describes but the rules refuse as a fault of the code.

        Only building values goes inside: the reader's own errors are raised outside,
        so none is wrapped twice.
        """
        try:
            yield
        except (IllegalActionError, MalformedInputError) as error:
            raise self.fail(f"{context}{error}") from None

    def byte(self, what: str) -> int:
        if self.position >= len(self.data):
            raise self.fail(f"ends before {what}; the code is cut off")
        value = self.data[self.position]
        self.position += 1
        return value

    def varint(self, what: str, limit: int) -> int:
        value = 0
        for shift in range(0, 7 * _MAX_VARINT_BYTES, 7):
            byte = self.byte(what)
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                if byte == 0 and shift:
                    raise self.fail(f"{what} is not written in its shortest form")
                if value > limit:
                    raise self.fail(f"{what} {value} is more than {limit}")
                return value
        raise self.fail(f"{what} is too long")

    def take(self, count: int, what: str) -> bytes:
        if self.position + count > len(self.data):
            raise self.fail(f"ends inside {what}; the code is cut off")
        chunk = self.data[self.position : self.position + count]
        self.position += count
        return chunk

    @property
    def done(self) -> bool:
        return self.position >= len(self.data)


def decode_record(code: str) -> GameRecord:
    """Read a share code back into a record, checking everything in it.

    Raises:
        MalformedInputError: For text that is not a share code, an unknown
            version, a damaged or truncated code, an impossible start, or an
            action the rules forbid (named by its index from 0).

    Examples:
        >>> decode_record("y1CAIAw2TqKA").game.players
        ('Player 1', 'Player 2')
        >>> decode_record("y2CAIAQOYmjQ")
        Traceback (most recent call last):
        ...
        yahtzee_rules.errors.MalformedInputError: share code 'y2CAIAQOYmjQ': unknown version 'y2'; this library reads share codes starting with 'y1'
        >>> decode_record("y1CAIAw2Tq")
        Traceback (most recent call last):
        ...
        yahtzee_rules.errors.MalformedInputError: share code 'y1CAIAw2Tq': the checksum does not match; the code is damaged or cut off
    """
    if not isinstance(code, str):
        shown = repr(code)[:60]
        raise MalformedInputError(f"share code {shown}: a {type(code).__name__}, not text")
    if len(code) > MAX_INPUT_LENGTH:
        raise MalformedInputError(
            f"share code {_quote(code)}: longer than the limit of {MAX_INPUT_LENGTH} characters"
        )
    if not code.startswith(PREFIX):
        version = code[:2]
        if re.fullmatch(r"y[0-9]", version):
            problem = f"unknown version {version!r}"
        else:
            problem = "not a share code"
        raise MalformedInputError(
            f"share code {_quote(code)}: {problem}; this library reads share codes "
            f"starting with {PREFIX!r}"
        )
    body = code[len(PREFIX) :]
    if _CODE_RE.fullmatch(body) is None or len(body) % 4 == 1:
        raise MalformedInputError(
            f"share code {_quote(code)}: not base64url text; a code has only letters, "
            f"digits, '-' and '_'"
        )
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInputError(f"share code {_quote(code)}: not base64url text") from None
    if base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii") != body:
        raise MalformedInputError(
            f"share code {_quote(code)}: not written canonically; the code is damaged or cut off"
        )
    if len(data) < 5 or zlib.crc32(data[:-4]).to_bytes(4, "big") != data[-4:]:
        raise MalformedInputError(
            f"share code {_quote(code)}: the checksum does not match; "
            f"the code is damaged or cut off"
        )
    reader = _Reader(data[:-4], code)
    start = _read_start(reader)
    return _read_actions(reader, start)


def _read_start(reader: _Reader) -> Game:
    flags = reader.byte("the flags")
    if flags & 0b11100000 or flags & 0b11 == 3:
        raise reader.fail(f"unknown flags {flags:#04x}")
    joker = _JOKERS[flags & 0b11]
    if flags & 0b100:
        upper_bonus = reader.varint("the upper bonus", 10**9 - 1)
        threshold = reader.varint("the upper bonus threshold", 10**9 - 1)
        yahtzee_bonus = reader.varint("the Yahtzee bonus", 10**9 - 1)
        if (upper_bonus, threshold, yahtzee_bonus) == (35, 63, 100):
            raise reader.fail("the bonus values are the Classic ones but marked as changed")
        rules = Rules(
            joker=joker,
            upper_bonus=upper_bonus,
            upper_bonus_threshold=threshold,
            yahtzee_bonus=yahtzee_bonus,
        )
    else:
        rules = Rules(joker=joker)
    count = reader.varint("the number of players", MAX_INPUT_LENGTH // 2)
    if count < 1:
        raise reader.fail("no players; a game needs at least one")
    first = reader.varint("the starting seat", count - 1)
    if flags & 0b1000:
        names = _default_names(count)
    else:
        decoded = []
        for seat in range(count):
            length = reader.varint(f"the length of name {seat}", MAX_INPUT_LENGTH)
            data = reader.take(length, f"name {seat}")
            try:
                decoded.append(data.decode("utf-8", "surrogatepass"))
            except UnicodeDecodeError:
                raise reader.fail(f"name {seat} is not UTF-8") from None
        names = tuple(decoded)
        if names == _default_names(count):
            raise reader.fail("default names written out; they are marked by a flag")
    if not flags & 0b10000:
        with reader.checking():
            return Game.new(names, rules=rules, first=first)
    cards = []
    for seat in range(count):
        raw = reader.take(13, f"card {seat}")
        marks = reader.varint(f"the bonus marks of card {seat}", 13)
        with reader.checking():
            cards.append(
                Scorecard(tuple(None if b == 0 else b - 1 for b in raw), bonus_marks=marks)
            )
    state = reader.byte("the turn")
    progress: tuple[Dice | None, int] | None
    if state == 255:
        progress = None
    elif state == 0:
        progress = (None, 0)
    elif state <= 3:
        index = reader.byte("the dice")
        if index >= len(_ALL_DICE):
            raise reader.fail(f"dice index {index} is not one of the 252 rolls")
        progress = (_ALL_DICE[index], state)
    else:
        raise reader.fail(f"turn byte {state} is not 0-3 or 255")
    with reader.checking():
        game = _make_game(names, rules, first, tuple(cards), progress)
    if _is_new(game):
        raise reader.fail("a new game is marked as begun")
    assert game.current == _current_seat(game.cards, first)
    return game


def _read_actions(reader: _Reader, start: Game) -> GameRecord:
    game = start
    actions: list[Roll | object] = []
    while not reader.done:
        index = len(actions)
        turn = game.turn
        if turn is None:
            raise reader.fail(f"action {index}: the game is over, yet more actions follow")
        if turn.dice is None:
            new = _dice_at(reader, reader.byte(f"action {index}"), index)
            action: object = _roll_action(_KEEP_BY_FACES[()], new.faces)
        else:
            byte = reader.byte(f"action {index}")
            if byte < 32:
                keeps = turn.dice.keeps()
                if byte >= len(keeps):
                    raise reader.fail(
                        f"action {index}: keep {byte} is not one of the {len(keeps)} "
                        f"keeps of {turn.dice}"
                    )
                keep = keeps[byte]
                new = _dice_at(reader, reader.byte(f"the dice of action {index}"), index)
                if not keep.issubset(new):
                    raise reader.fail(
                        f"action {index}: held {keep} but the new dice {new} do not include them"
                    )
                thrown = list(new.faces)
                for face in keep.faces:
                    thrown.remove(face)
                action = _roll_action(keep, tuple(thrown))
            elif byte < 45:
                action = _fill_action(_CATEGORIES[byte - 32])
            else:
                raise reader.fail(f"action {index}: byte {byte} is not an action")
        with reader.checking(f"action {index} {str(action)!r}: "):
            game = _apply(game, action)  # type: ignore[arg-type]
        actions.append(action)
    return _raw_record(start, tuple(actions), game)  # type: ignore[arg-type]


def _dice_at(reader: _Reader, index: int, action: int) -> Dice:
    if index >= len(_ALL_DICE):
        raise reader.fail(f"action {action}: dice index {index} is not one of the 252 rolls")
    return _ALL_DICE[index]
