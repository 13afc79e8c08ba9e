"""The text grammars of the values, on plain data: the bottom of every notation.

Internal: nothing here is public API. This module sits just above
:mod:`yahtzee_rules.support.errors` and imports nothing else from the package, so every
value can use it for its own ``__str__`` and ``parse`` without importing a layer
above it (see ``docs/explanation/layers.md``). The grammars take what they need
as arguments (the box codes of a card, the Joker rule names, a constructor to
call), so they keep working for any scorecard. Its bounds come from
:mod:`yahtzee_rules.support._limits`, the one layer below it.

Every reader raises :class:`~yahtzee_rules.support.errors.MalformedInputError` with a
message that quotes the input (shortened when long) and names what is wrong.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from yahtzee_rules.support._limits import MAX_INPUT_LENGTH, MAX_NAME_LENGTH
from yahtzee_rules.support.errors import MalformedInputError

T = TypeVar("T")


INT = r"(?:0|[1-9][0-9]{0,8})"
INT_RE = re.compile(INT)
FACES_RE = re.compile(r"1*2*3*4*5*6*")

# The rule-set fields written in notation: (code, field name), in the order written.
RULE_FIELDS = (
    ("ub", "upper_bonus"),
    ("ut", "upper_bonus_threshold"),
    ("yb", "yahtzee_bonus"),
    ("fy", "forced_yahtzee"),
    ("io", "in_order"),
)
_RULE_CODES = tuple(code for code, _ in RULE_FIELDS)
_RULE_OVERRIDE_RE = re.compile(r"(" + "|".join(_RULE_CODES) + r")=(" + INT + r")")
_MARKS_RE = re.compile(r"\+(" + INT + r")")
_ESCAPE_RE = re.compile(r"%(?:[0-9A-F]{2})")


# --- messages ----------------------------------------------------------------------------


def quote(text: str, limit: int = 60) -> str:
    """The input as a quoted Python literal, shortened when long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class _BoundedRepr(reprlib.Repr):
    """``repr`` with bounded depth and length that never fails on huge ints."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 640:  # more digits than a message should hold
            return f"<an int of {len(hex(x)) - 2} hex digits>"
        return repr(x)


_BOUNDED = _BoundedRepr()
_BOUNDED.maxlevel = 4
_BOUNDED.maxstring = 60
_BOUNDED.maxother = 60


def a_type(value: object) -> str:
    """The type of ``value`` with its article, as a message names it: ``"an int"``, ``"a str"``.

    Examples:
        >>> a_type(12345), a_type("12345"), a_type(None)
        ('an int', 'a str', 'a NoneType')
    """
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def show(value: object, limit: int = 200) -> str:
    """Any value a user passed, as text for a message: bounded, and never raising.

    Text is quoted with :func:`quote`; anything else is its ``repr`` (shortened to
    ``limit`` characters), or when ``repr`` fails (integers too long to print, nesting
    too deep, a ``__repr__`` that raises) a bounded stand-in.
    """
    if type(value) is str:
        return quote(value, limit)
    if type(value) is int and value.bit_length() > 640:
        return _BOUNDED.repr_int(value, 0)
    try:
        text = repr(value)
    except Exception:
        try:
            text = _BOUNDED.repr(value)
        except Exception:
            text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def brief(message: str, limit: int = 400) -> str:
    """A message shortened in the middle, keeping its start and its advice at the end."""
    if len(message) <= limit:
        return message
    return f"{message[: limit // 2]} ... {message[-(limit // 2) :]}"


def fail(what: str, text: str, problem: str) -> MalformedInputError:
    """The error for ``text`` (a ``what``): the quoted input, then the problem."""
    return MalformedInputError(f"{what} {quote(text)}: {brief(problem)}")


def one_of(words: Sequence[str]) -> str:
    """``'a', 'b' or 'c'``: quoted alternatives for a message."""
    quoted = [f"'{word}'" for word in words]
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}"


# --- reading ---------------------------------------------------------------------------------


def check_text(what: str, text: object, limit: int = MAX_INPUT_LENGTH) -> str:
    """``text`` if it is a str no longer than ``limit`` (:data:`MAX_INPUT_LENGTH`); else raise."""
    if not isinstance(text, str):
        shown = show(text, 60)
        raise MalformedInputError(
            f"{what} {shown}: {a_type(text)}, not text; notation is a str such as '13366'"
        )
    if len(text) > limit:
        raise fail(
            what,
            text,
            f"longer than the limit of {limit} characters; no game needs that much text",
        )
    return text


def split(what: str, text: str, separator: str = " ") -> list[str]:
    """The fields of ``text``; raise for an empty one."""
    parts = text.split(separator)
    if "" in parts:
        raise fail(
            what,
            text,
            f"empty field; fields are separated by exactly one {separator!r}, "
            f"with nothing before the first or after the last",
        )
    return parts


def read_faces(what: str, text: str, *, lengths: range) -> tuple[int, ...]:
    """The faces of ``text`` (digits 1-6, ascending, a length in ``lengths``); else raise."""
    if len(text) not in lengths or FACES_RE.fullmatch(text) is None:
        size = "five" if lengths == range(5, 6) else "zero to five"
        raise fail(
            what,
            text,
            f"not {size} faces from 1 to 6 in ascending order; write dice like '13366'",
        )
    return tuple(ord(char) - 48 for char in text)


# --- rules ---------------------------------------------------------------------------------


def format_rules(joker: str, values: Mapping[str, int], classic: Mapping[str, int]) -> str:
    """The Joker rule's name, then ``code=value`` for each field that differs from Classic."""
    parts = [joker]
    for code, field in RULE_FIELDS:
        value = values[field]
        if value != classic[field]:
            parts.append(f"{code}={int(value)}")
    return ",".join(parts)


def parse_rules(
    text: str,
    jokers: Sequence[str],
    classic: Mapping[str, int],
    *,
    skip: int = 0,
    default_joker: str | None = None,
    base: str = "Classic",
) -> tuple[str, dict[str, int]]:
    """The Joker rule's name and the changed fields (by field name) of rules notation.

    ``skip`` leading parts (a card's name) are passed over; with ``default_joker`` the
    Joker rule may be left out (and may not repeat it); ``classic`` holds the values
    that ``base`` (a ruleset's name in messages) has, which the text may not repeat.
    """
    parts = split("rules", text, ",")[skip:]
    if default_joker is not None and (not parts or parts[0] not in jokers):
        parts.insert(0, default_joker)
    elif parts and parts[0] == default_joker:
        raise fail(
            "rules",
            text,
            f"Joker rule {quote(parts[0], 40)} repeats the {base} ruleset's own; leave it out",
        )
    if parts[0] not in jokers:
        raise fail(
            "rules",
            text,
            f"unknown Joker rule {quote(parts[0], 40)}; write {one_of(jokers)} first",
        )
    values: dict[str, int] = {}
    position = 0
    for part in parts[1:]:
        match = _RULE_OVERRIDE_RE.fullmatch(part)
        if match is None:
            raise fail(
                "rules",
                text,
                f"field {quote(part, 40)} is not {one_of([f'{c}=N' for c in _RULE_CODES])} "
                f"with N a plain non-negative int (at most 9 digits)",
            )
        code, value = match.group(1), int(match.group(2))
        index = _RULE_CODES.index(code)
        if index < position:
            raise fail(
                "rules",
                text,
                f"field {quote(part, 40)} is out of order or repeated; write "
                f"{', '.join(_RULE_CODES)} in that order",
            )
        field = RULE_FIELDS[index][1]
        if value == classic[field]:
            raise fail(
                "rules",
                text,
                f"field {quote(part, 40)} repeats the {base} value; leave it out",
            )
        values[field] = value
        position = index + 1
    return parts[0], values


# --- scorecards ----------------------------------------------------------------------------


def format_card(codes: Sequence[str], boxes: Sequence[int | None], marks: int) -> str:
    """``code=points`` for each filled box in card order, then ``+marks``; ``-`` if empty."""
    parts = [
        f"{code}={points}" for code, points in zip(codes, boxes, strict=True) if points is not None
    ]
    if marks:
        parts.append(f"+{marks}")
    return ",".join(parts) or "-"


def parse_card(
    text: str,
    what: str,
    whole: str,
    codes: Sequence[str],
    build: Callable[[tuple[int | None, ...], int], T],
    empty: T,
) -> T:
    """Read a card of the boxes ``codes``, given in any order; ``build(boxes, marks)`` makes
    and checks it. (Cards are written in card order: the reading is lenient, the writing one.)

    ``what`` and ``whole`` name the input in messages; ``empty`` is the empty card.
    """
    if text == "-":
        return empty
    parts = text.split(",")
    if "" in parts:
        raise fail(
            what,
            whole,
            f"empty field in card {quote(text, 40)}; boxes are separated by exactly one ',', "
            f"and the empty card is '-'",
        )
    positions = {code: index for index, code in enumerate(codes)}
    boxes: list[int | None] = [None] * len(codes)
    marks = 0
    for index, part in enumerate(parts):
        code, equals, points = part.partition("=")
        position = positions.get(code) if equals else None
        if position is None or INT_RE.fullmatch(points) is None:
            marks_match = _MARKS_RE.fullmatch(part)
            if marks_match is not None and index == len(parts) - 1 and index > 0:
                marks = int(marks_match.group(1))
                if marks == 0:
                    raise fail(what, whole, "'+0' bonus marks; leave the marks out")
                continue
            raise fail(
                what,
                whole,
                f"{quote(part, 40)} is not a box written as code=points (such as 'fh=25') "
                f"nor, last, bonus marks written as '+N'; write '-' for an empty card",
            )
        if boxes[position] is not None:  # boxes may come in any order, each once
            raise fail(
                what,
                whole,
                f"box {quote(part, 40)} is repeated; write each box once (the card's boxes: "
                f"{' '.join(codes)})",
            )
        boxes[position] = int(points)
    try:
        return build(tuple(boxes), marks)
    except MalformedInputError as error:
        raise fail(what, whole, str(error)) from None


# --- turn progress ---------------------------------------------------------------------------


def format_progress(dice: str | None, rolls_used: int) -> str:
    """``-`` before the first roll, else the dice and the rolls used, such as ``22456@2``."""
    return "-" if dice is None else f"{dice}@{rolls_used}"


def parse_progress(
    text: str, what: str, whole: str, *, allow_end: bool, max_rolls: int
) -> tuple[tuple[int, ...] | None, int] | None:
    """The faces showing (None before the first roll) and rolls used; None for ``end``."""
    if text == "-":
        return None, 0
    if text == "end" and allow_end:
        return None
    faces, at, rolls = text.partition("@")
    if (
        not at
        or len(faces) != 5
        or FACES_RE.fullmatch(faces) is None
        or len(rolls) != 1
        or not "1" <= rolls <= str(max_rolls)
    ):
        end = ", or 'end' once the game is over" if allow_end else ""
        raise fail(
            what,
            whole,
            f"turn progress {quote(text, 40)} is not '-' (before the first roll) or the dice "
            f"and rolls used such as '22456@2' (dice ascending, 1 to {max_rolls} rolls){end}",
        )
    return tuple(ord(c) - 48 for c in faces), int(rolls)


# --- player names and text shown ----------------------------------------------------------

# The characters no name may hold and no terminal is shown raw: the control characters
# (Unicode category Cc: C0, DEL and C1, which terminals obey: ESC starts the sequences
# that clear the screen or set the window title, BEL rings), the surrogates (Cs: no
# UTF-8 encoder writes a lone one), the line and paragraph separators (Zl, Zp: a name is
# one line), and the bidirectional embedding, override and isolate controls (which
# reorder the text around them, so a name could be shown as another). These sets are
# fixed by Unicode's stability policy, so a name valid on one Python is valid on all.
_UNSHOWABLE_BUT_NEWLINE = "\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028-\u202e\u2066-\u2069"
_UNSHOWABLE_RE = re.compile(f"[\n{_UNSHOWABLE_BUT_NEWLINE}]")
_UNSHOWN_RE = re.compile(f"[{_UNSHOWABLE_BUT_NEWLINE}]")
NAME_RULE = (
    "a name is printable text: no control characters (Unicode category Cc), surrogates "
    "(Cs), line or paragraph separators (Zl, Zp), or bidirectional embedding, override "
    "or isolate controls (U+202A to U+202E, U+2066 to U+2069)"
)


def name_problem(name: str) -> str | None:
    r"""Why ``name`` (a str) cannot be a player's name, or ``None``: the one rule of names.

    A name is 1 to :data:`MAX_NAME_LENGTH` characters, not all white space, with none of
    the characters :data:`NAME_RULE` lists. Linear in the name's length.

    >>> name_problem("Zoë") is None, name_problem("a\x1b[2J")[:19]
    (True, 'holds U+001B at 1; ')
    """
    if not name.strip():
        return "not a non-blank string; each player needs a name"
    if len(name) > MAX_NAME_LENGTH:
        return f"{len(name)} characters, more than the limit of {MAX_NAME_LENGTH}"
    bad = _UNSHOWABLE_RE.search(name)
    if bad is not None:
        return f"holds U+{ord(bad.group()):04X} at {bad.start()}; {NAME_RULE}"
    return None


def for_terminal(text: str) -> str:
    r"""``text`` safe to write to a terminal: every character no name may hold, but the
    newline, written as its Python escape (``\x1b``, ``\u202e``, ``\ud800``).

    >>> print(for_terminal("a\x1b]0;title\x07b\nc\ud800"))
    a\x1b]0;title\x07b
    c\ud800
    """
    if _UNSHOWN_RE.search(text) is None:
        return text
    return _UNSHOWN_RE.sub(lambda found: repr(found.group())[1:-1], text)


def _needs_escape(char: str) -> bool:
    return char in "%,:" or char.isspace() or not char.isprintable()


def escape_name(name: str) -> str:
    """A player name with ``%``, ``,``, ``:``, spaces and unprintables as ``%XX`` UTF-8 bytes."""
    if all(not _needs_escape(c) for c in name):
        return name
    out: list[str] = []
    for char in name:
        if _needs_escape(char):
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
        else:
            out.append(char)
    return "".join(out)


def unescape_name(text: str, whole: str, what: str) -> str:
    """The player name written as ``text``, which must be written canonically."""
    if "%" not in text:
        name = text
    else:
        pieces: list[bytes] = []
        position = 0
        for match in re.finditer("%", text):
            start = match.start()
            if start < position:
                continue
            escape = _ESCAPE_RE.match(text, start)
            if escape is None:
                raise fail(
                    what,
                    whole,
                    f"player name {quote(text, 40)}: '%' must start an escape of two upper-case "
                    f"hex digits, such as '%20' for a space",
                )
            pieces.append(text[position:start].encode("utf-8", "surrogatepass"))
            pieces.append(bytes([int(text[start + 1 : start + 3], 16)]))
            position = start + 3
        pieces.append(text[position:].encode("utf-8", "surrogatepass"))
        try:
            name = b"".join(pieces).decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            raise fail(
                what, whole, f"player name {quote(text, 40)}: the escapes are not UTF-8"
            ) from None
    if escape_name(name) != text:
        raise fail(
            what,
            whole,
            f"player name {quote(text, 40)} is not written canonically; write it as "
            f"{quote(escape_name(name), 40)} (escape exactly '%', ',', ':', spaces and "
            f"unprintable characters, as %XX bytes of UTF-8)",
        )
    return name


def counted(value: object, read: int, most: int) -> int | str:
    """How many items ``value`` held, for a message: ``read`` of them were read, at most ``most`` + 1."""
    if read <= most:
        return read
    if isinstance(value, (list, tuple, range)):  # sized, and len() is honest
        return len(value)
    return f"more than {most}"
