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
    >>> from yahtzee_rules.formats.sharecode import decode_record, encode_record
    >>> record = GameRecord.parse("forced 0 Ann : 22345 2345/6 ls")
    >>> code = encode_record(record)
    >>> code
    'y1AAEAA0FubpIWryoBjJvn'
    >>> decode_record(code) == record
    True
"""

from __future__ import annotations

from yahtzee_rules.play._sharecode import PREFIX
from yahtzee_rules.play.record import GameRecord
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["PREFIX", "decode_record", "encode_record"]


def encode_record(record: GameRecord) -> str:
    """The share code of ``record``, as :meth:`GameRecord.share_code` gives it.

    Raises:
        MalformedInputError: If ``record`` is not a GameRecord.

    Examples:
        >>> from yahtzee_rules import GameRecord
        >>> encode_record(GameRecord.new(2))
        'y1CAIAw2TqKA'
    """
    if not isinstance(record, GameRecord):
        raise MalformedInputError(f"record {record!r}: not a GameRecord")
    return record.share_code()


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
        yahtzee_rules.support.errors.MalformedInputError: share code 'y2CAIAQOYmjQ': unknown version 'y2'; this library reads share codes starting with 'y1'
        >>> decode_record("y1CAIAw2Tq")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: share code 'y1CAIAw2Tq': the checksum does not match; the code is damaged or cut off
    """
    return GameRecord.from_share_code(code)
