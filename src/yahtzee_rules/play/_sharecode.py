"""The share-code format: a game record as compact bytes in URL-safe text.

Internal: nothing here is public API. The format, every bit of it, and what a reader
does with bits it does not know (refuses them) are described in
:mod:`yahtzee_rules.formats.sharecode`, the one description; this module sits below
:mod:`yahtzee_rules.play.record`, so :meth:`GameRecord.share_code
<yahtzee_rules.GameRecord.share_code>` and :meth:`GameRecord.from_share_code
<yahtzee_rules.GameRecord.from_share_code>` need nothing above the record. It
works on the start of a record and its actions as plain steps; the record
supplies the functions that build and play the actions.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Callable, Iterable
from typing import Any, TypeAlias, TypeVar

import attrs

from yahtzee_rules.core.boxes import Box, Card, check_registered
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import JokerRule, Rules, TieRule
from yahtzee_rules.play.game import Game, Replay, current_seat, is_new, make_game
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.support._limits import MAX_BONUS, MAX_INPUT_LENGTH, MAX_NAME_LENGTH, MAX_PLAYERS
from yahtzee_rules.support._text import a_type, brief, quote, show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

A = TypeVar("A")

Step: TypeAlias = tuple[Dice | None, Keep, Dice] | Box
"""One action to encode: a roll as (the dice before, the dice held, the dice after), or a fill."""

PREFIX = "y1"
"""The version prefix of every share code this library writes."""

_JOKERS = (JokerRule.FORCED, JokerRule.FREE_CHOICE, JokerRule.NONE, JokerRule.KINDS_FIRST)
_TIES = (TieRule.SHARE, TieRule.UPPER_TOTAL, TieRule.PLAY_OFF)
_CODE_RE = re.compile(r"[A-Za-z0-9_-]*")
_MAX_VARINT_BYTES = 5
_ALL_DICE_ = Dice.all()
_DICE_INDEX = {dice: index for index, dice in enumerate(_ALL_DICE_)}
_EMPTY_KEEP = Keep()


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


def encode(start: Game, steps: Iterable[Step]) -> str:
    """The share code of a record that starts at ``start`` and plays ``steps``."""
    rules = start.rules
    check_registered(rules.card, "a share code")
    base = Rules.for_card(rules.card)
    out = bytearray()
    custom = (rules.upper_bonus, rules.upper_bonus_threshold, rules.yahtzee_bonus) != (
        base.upper_bonus,
        base.upper_bonus_threshold,
        base.yahtzee_bonus,
    )
    default_names = start.players == _default_names(len(start.players))
    begun = not is_new(start)
    other = rules.card is not CLASSIC
    tie = _TIES.index(rules.tie)
    # Placement switches ride in a second flags byte, marked by tie bits 3 (which no
    # earlier code has): bits 0-1 the tie rule, bit 2 Forced Yahtzee, bit 3 in order.
    placement = rules.forced_yahtzee << 2 | rules.in_order << 3
    out.append(
        _JOKERS.index(rules.joker)
        | custom << 2
        | default_names << 3
        | begun << 4
        | other << 5
        | (3 if placement else tie) << 6
    )
    if placement:
        out.append(tie | placement)
    if other:
        card_name = rules.card.name.encode("ascii")
        _varint(len(card_name), out)
        out += card_name
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
            out.append(_DICE_INDEX[turn.dice])
    for step in steps:
        if isinstance(step, Box):
            out.append(32 + step)
        else:
            dice, keep, new = step
            if dice is not None:
                out.append(dice.keeps().index(keep))
            out.append(_DICE_INDEX[new])
    out += zlib.crc32(out).to_bytes(4, "big")
    return PREFIX + base64.urlsafe_b64encode(bytes(out)).rstrip(b"=").decode("ascii")


class _Reader:
    def __init__(self, data: bytes, code: str) -> None:
        self.data = data
        self.position = 0
        self.code = code
        self.failures: set[int] = set()

    def fail(self, problem: str) -> MalformedInputError:
        """The reader's own error: raised as it is, never wrapped again."""
        error = MalformedInputError(f"share code {quote(self.code)}: {brief(problem)}")
        self.failures.add(id(error))
        return error

    def own(self, error: Exception) -> bool:
        """Whether ``error`` is one this reader made (so it already names the code)."""
        return id(error) in self.failures

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


def decode(
    code: str,
    roll: Callable[[Keep, tuple[int, ...]], A],
    fill: Callable[[Box], A],
    apply: Callable[[Replay, A], None],
) -> tuple[Game, tuple[A, ...], Game]:
    """Read a share code: the start, the actions (built by ``roll`` and ``fill``) and the end.

    ``apply`` plays an action in place on a :class:`~yahtzee_rules.play.game.Replay`, raising as
    the core does when it is not legal; the actions replay in time linear in their number.
    """
    if not isinstance(code, str):
        shown = show(code, 60)
        raise MalformedInputError(f"share code {shown}: {a_type(code)}, not text")
    if len(code) > MAX_INPUT_LENGTH:
        raise MalformedInputError(
            f"share code {quote(code)}: longer than the limit of {MAX_INPUT_LENGTH} characters"
        )
    if not code.startswith(PREFIX):
        version = code[:2]
        if re.fullmatch(r"y[0-9]", version):
            problem = f"unknown version {show(version)}"
        else:
            problem = "not a share code"
        raise MalformedInputError(
            f"share code {quote(code)}: {problem}; this library reads share codes "
            f"starting with {show(PREFIX)}"
        )
    body = code[len(PREFIX) :]
    if _CODE_RE.fullmatch(body) is not None and len(body) % 4 == 1:
        # Every character is fine, but no whole code has this length: it was cut short.
        raise MalformedInputError(
            f"share code {quote(code)}: incomplete; {len(code)} characters is no whole "
            f"code's length, so the code is cut off"
        )
    if _CODE_RE.fullmatch(body) is None:
        raise MalformedInputError(
            f"share code {quote(code)}: not base64url text; a code has only letters, "
            f"digits, '-' and '_'"
        )
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInputError(f"share code {quote(code)}: not base64url text") from None
    if base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii") != body:
        raise MalformedInputError(
            f"share code {quote(code)}: not written canonically; the code is damaged or cut off"
        )
    if len(data) < 5 or zlib.crc32(data[:-4]).to_bytes(4, "big") != data[-4:]:
        raise MalformedInputError(
            f"share code {quote(code)}: the checksum does not match; the code is damaged or cut off"
        )
    reader = _Reader(data[:-4], code)
    start = _read_start(reader)
    return _read_actions(reader, start, roll, fill, apply)


def _read_start(reader: _Reader) -> Game:
    flags = reader.byte("the flags")
    joker = _JOKERS[flags & 0b11]
    placement: dict[str, Any] = {}
    if flags >> 6 == 3:
        more = reader.byte("the second flags")
        if more >> 4 or more & 0b11 == 3 or not more & 0b1100:
            raise reader.fail(
                f"unknown second flags {more:#04x}; version {PREFIX} uses bits 0-3 (a tie "
                f"rule of 0-2 and at least one of bits 2 and 3), so the code is damaged or "
                f"from another version"
            )
        tie = _TIES[more & 0b11]
        placement = {"forced_yahtzee": bool(more & 0b100), "in_order": bool(more & 0b1000)}
    else:
        tie = _TIES[flags >> 6]
    base = Rules()
    if flags & 0b100000:
        length = reader.varint("the length of the card's name", 40)
        name = reader.take(length, "the card's name")
        try:
            design = Card.named(name.decode("ascii"))
        except (UnicodeDecodeError, MalformedInputError):
            raise reader.fail(f"card name {show(name)} is no card this library knows") from None
        if design is CLASSIC:
            raise reader.fail("the Classic card is named, but it is marked by no flag")
        base = Rules.for_card(design)
    if flags & 0b100:
        upper_bonus = reader.varint("the upper bonus", MAX_BONUS)
        threshold = reader.varint("the upper bonus threshold", MAX_BONUS)
        yahtzee_bonus = reader.varint("the Yahtzee bonus", MAX_BONUS)
        if (upper_bonus, threshold, yahtzee_bonus) == (
            base.upper_bonus,
            base.upper_bonus_threshold,
            base.yahtzee_bonus,
        ):
            raise reader.fail(
                f"the bonus values are the {base.card.title} ones but marked as changed"
            )
        values: dict[str, Any] = {
            "upper_bonus": upper_bonus,
            "upper_bonus_threshold": threshold,
            "yahtzee_bonus": yahtzee_bonus,
        }
    else:
        values = {}
    try:
        rules = attrs.evolve(base, joker=joker, tie=tie, **values, **placement)
    except MalformedInputError as error:
        raise reader.fail(str(error)) from None
    count = reader.varint("the number of players", (1 << 7 * _MAX_VARINT_BYTES) - 1)
    if count < 1:
        raise reader.fail("no players; a game needs at least one")
    if count > MAX_PLAYERS:
        raise reader.fail(f"{count} players; more than the limit of {MAX_PLAYERS} players")
    first = reader.varint("the starting seat", count - 1)
    if flags & 0b1000:
        names = _default_names(count)
    else:
        decoded = []
        for seat in range(count):
            # A name of MAX_NAME_LENGTH characters takes at most 4 bytes each; the game checks
            # its length in characters.
            length = reader.varint(f"the length of name {seat}", 4 * MAX_NAME_LENGTH)
            data = reader.take(length, f"name {seat}")
            try:
                decoded.append(data.decode("utf-8", "surrogatepass"))
            except UnicodeDecodeError:
                raise reader.fail(f"name {seat} is not UTF-8") from None
        names = tuple(decoded)
        if names == _default_names(count):
            raise reader.fail("default names written out; they are marked by a flag")
    try:
        if not flags & 0b10000:
            return Game.new(names, rules=rules, first=first)
        cards = []
        for seat in range(count):
            raw = reader.take(len(rules.card), f"card {seat}")
            marks = reader.varint(f"the bonus marks of card {seat}", len(rules.card))
            cards.append(
                Scorecard(
                    tuple(None if b == 0 else b - 1 for b in raw),
                    bonus_marks=marks,
                    card=rules.card,
                )
            )
        state = reader.byte("the turn")
        progress: tuple[Dice | None, int] | None
        if state == 255:
            progress = None
        elif state == 0:
            progress = (None, 0)
        elif state <= 3:
            index = reader.byte("the dice")
            if index >= len(_ALL_DICE_):
                raise reader.fail(f"dice index {index} is not one of the 252 rolls")
            progress = (_ALL_DICE_[index], state)
        else:
            raise reader.fail(f"turn byte {state} is not 0-3 or 255")
        game = make_game(names, rules, first, tuple(cards), progress)
    except MalformedInputError as error:
        if reader.own(error):
            raise
        raise reader.fail(str(error)) from None
    if is_new(game):
        raise reader.fail("a new game is marked as begun")
    assert game.current == current_seat(game.cards, first)
    return game


def _read_actions(
    reader: _Reader,
    start: Game,
    roll: Callable[[Keep, tuple[int, ...]], A],
    fill: Callable[[Box], A],
    apply: Callable[[Replay, A], None],
) -> tuple[Game, tuple[A, ...], Game]:
    state = Replay(start)
    boxes = start.rules.card.members
    actions: list[A] = []
    while not reader.done:
        index = len(actions)
        turn = state.turn
        if turn is None:
            raise reader.fail(f"action {index}: the game is over, yet more actions follow")
        try:
            if turn.dice is None:
                new = _dice_at(reader, reader.byte(f"action {index}"), index)
                action = roll(_EMPTY_KEEP, new.faces)
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
                            f"action {index}: held {keep} but the new dice {new} do not "
                            f"include them"
                        )
                    thrown = list(new.faces)
                    for face in keep.faces:
                        thrown.remove(face)
                    action = roll(keep, tuple(thrown))
                elif byte < 32 + len(boxes):
                    action = fill(boxes[byte - 32])
                else:
                    raise reader.fail(f"action {index}: byte {byte} is not an action")
            apply(state, action)
        except (IllegalActionError, MalformedInputError) as error:
            if reader.own(error):
                raise
            raise reader.fail(f"action {index} {str(action)!r}: {error}") from None
        actions.append(action)
    return start, tuple(actions), state.game() if actions else start


def _dice_at(reader: _Reader, index: int, action: int) -> Dice:
    if index >= len(_ALL_DICE_):
        raise reader.fail(f"action {action}: dice index {index} is not one of the 252 rolls")
    return _ALL_DICE_[index]
