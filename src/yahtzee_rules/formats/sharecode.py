"""Share codes: a game record as a short URL-safe string, to continue a game on another device.

A code is ``y1`` (the format version) followed by the base64url text (no
padding) of a compact binary encoding of the record, in this order (integers
are unsigned LEB128, "varints"):

1. One flag byte, every bit used:

   * bits 0-1: the Joker rule: 0 forced, 1 free choice, 2 none, 3 kinds first;
   * bit 2: the bonus values differ from the card's usual ones (they follow);
   * bit 3: the players have the default names ``Player 1``, ``Player 2``...
     (no names follow);
   * bit 4: the start is not a new game (the cards and the turn follow);
   * bit 5: the card is not Hasbro's Classic card (its name follows);
   * bits 6-7: the tie rule: 0 share, 1 upper total, 2 play-off; 3 means a
     second flag byte follows.

2. The second flag byte, only when bits 6-7 are 3: bits 0-1 the tie rule (as
   above, 0-2), bit 2 Forced Yahtzee, bit 3 boxes in order; bits 4-7 are 0 and
   at least one of bits 2 and 3 is set (without either, the tie rule fits in the
   first byte).
3. With bit 5, the card's registered name: its length (1-40) and ASCII bytes;
   never the Classic card's.
4. With bit 2, the upper bonus, its threshold and the Yahtzee bonus, three
   varints of at most nine digits (:class:`~yahtzee_rules.Rules` bounds them), not
   all three the card's usual ones.
5. The number of players (1 to :data:`~yahtzee_rules.play.game.MAX_PLAYERS`) and the
   starting seat, varints.
6. Without bit 3, each name as the varint length of its UTF-8 bytes (at most
   4 bytes per character of :data:`~yahtzee_rules.play.game.MAX_NAME_LENGTH`) and
   the bytes; never the default names.
7. With bit 4, each card as one byte per box of the card, in the card's order
   (0 for open, else points + 1), and its bonus marks (a varint); then the turn:
   0 before the first roll, 1-3 rolls used followed by the index of the dice
   showing among the 252 rolls (:meth:`Dice.all <yahtzee_rules.Dice.all>`), or
   255 once the game is over. A start so marked must not be a new game.
8. The actions, up to the end: the first roll of a turn is one byte, the index
   of the dice among the 252 rolls; a later roll is the index of the keep among
   :meth:`Dice.keeps <yahtzee_rules.Dice.keeps>` of the dice showing (0-31)
   followed by the index of the new dice; a fill is 32 plus the box's index in
   the card (32-44 on the Classic card, up to 70 on Triple Yahtzee's 39 boxes).
9. A CRC-32 of everything before it, four bytes, so a mistyped or truncated code
   is refused rather than read as a different game. It is a checksum, not a
   signature: anyone can write a valid code.

Every record has exactly one code, and a reader refuses whatever this version
does not write rather than guess: a version other than ``y1``, a bit or value it
does not know (second-flag bits 4-7, tie value 3 there, a byte that is no action),
a field written though its flag says it is the default, or bytes left over. A
later format that needs more takes a new version prefix, so an older reader
refuses its codes as an unknown version instead of misreading them.

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
