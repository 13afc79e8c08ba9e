"""The share-code format as :mod:`yahtzee_rules.formats.sharecode` describes it: every bit
of both flag bytes described, and every bit or value a reader does not know refused,
never read as another game."""

from __future__ import annotations

import base64
import re
import zlib

import pytest

import yahtzee_rules.formats.sharecode as sharecode
from yahtzee_rules import GameRecord, MalformedInputError, Rules

RECORDS = [
    GameRecord.new(["Ann", "Bob"]),
    GameRecord.new(2, rules=Rules.from_name("forced-yahtzee")),  # a second flag byte
    GameRecord.new(["Ann"], rules=Rules.from_name("yatzy")).roll(outcome="12345"),
]


def _forged(code: str, position: int, value: int) -> str:
    """``code`` with its byte at ``position`` set to ``value`` and its checksum made good."""
    body = code[2:]
    data = bytearray(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))[:-4])
    data[position] = value
    data += zlib.crc32(data).to_bytes(4, "big")
    return "y1" + base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")


@pytest.mark.parametrize("record", RECORDS, ids=["classic", "second flags", "yatzy"])
@pytest.mark.parametrize("position", [0, 1], ids=["flags", "second flags"])
def test_a_flag_byte_of_any_value_is_read_exactly_or_refused(
    record: GameRecord, position: int
) -> None:
    code = record.share_code()
    read = refused = 0
    for value in range(256):
        forged = _forged(code, position, value)
        try:
            found = GameRecord.from_share_code(forged)
        except MalformedInputError:
            refused += 1
            continue
        read += 1
        assert found.share_code() == forged, f"flag byte {value:#04x} read as another code"
    assert read
    assert refused


def test_unknown_second_flag_bits_are_refused_with_the_reason() -> None:
    code = RECORDS[1].share_code()
    for bit in range(4, 8):
        forged = _forged(code, 1, 0b0100 | 1 << bit)
        with pytest.raises(MalformedInputError, match=r"unknown second flags .* uses bits 0-3"):
            GameRecord.from_share_code(forged)


def test_the_format_description_covers_every_flag_bit() -> None:
    text = sharecode.__doc__ or ""
    first = text[text.index("One flag byte") : text.index("The second flag byte")]
    described: set[int] = set()
    for low, high in re.findall(r"bits? (\d)(?:-(\d))?:", first):
        described.update(range(int(low), int(high or low) + 1))
    assert described == set(range(8))
    assert "kinds first" in first  # Joker value 3
    second = text[text.index("The second flag byte") :]
    assert "bits 4-7 are 0" in second
    assert "refuses whatever this version" in text  # what a reader does with unknown bits
