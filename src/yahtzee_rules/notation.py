"""A compact one-line text notation for every value, with parsers that are exact inverses.

Each value has exactly one spelling. :func:`to_notation` writes it (``str()``
of the value gives the same text, except for a :class:`~yahtzee_rules.Category`,
whose ``str()`` is its label and whose notation is its short code), and the
``parse_*`` functions read it back. Parsers accept exactly what the formatter
writes, so ``to_notation(parse_x(text)) == text`` for every text they accept and
``parse_x(to_notation(value)) == value`` for every value.

| Value      | Notation                          | Example                              |
| ---------- | --------------------------------- | ------------------------------------ |
| Dice       | five faces, ascending             | `13366`                              |
| Keep       | zero to five faces, ascending     | `33` (nothing held: empty text)      |
| Category   | short code                        | `fh`                                 |
| Rules      | Joker rule, then changed bonuses  | `free-choice,yb=0`                   |
| Scorecard  | filled boxes in card order        | `4=12,y=50,+1` (empty card: `-`)     |
| Turn       | rules, card, progress             | `forced 4=12 22456@2`                |
| Game       | rules, first seat, players, ...   | `forced 0 Ann,Bob 3k=17/- 22456@1`   |
| GameRecord | the starting game, `:`, actions   | `forced 0 Ann : 22345 2/2456 c`      |

Input is untrusted: anything malformed or impossible raises
:class:`~yahtzee_rules.MalformedInputError` with a message that quotes the text
(shortened if long) and names what is wrong. Text longer than
:data:`MAX_INPUT_LENGTH` characters is refused before it is read.

Examples:
    >>> from yahtzee_rules import Category, Game, Scorecard
    >>> from yahtzee_rules.notation import parse_scorecard, to_notation
    >>> card = Scorecard({Category.FOURS: 12, Category.FULL_HOUSE: 25})
    >>> to_notation(card)
    '4=12,fh=25'
    >>> parse_scorecard("4=12,fh=25") == card
    True
    >>> game = Game.new(["Ann", "Bob"]).roll(outcome="22456")
    >>> str(game)
    'forced 0 Ann,Bob -/- 22456@1'
    >>> Game.parse(str(game)) == game
    True
    >>> parse_scorecard("2=7")
    Traceback (most recent call last):
    ...
    yahtzee_rules.errors.MalformedInputError: scorecard '2=7': scorecard box Twos 7: no roll scores 7 in Twos; possible values are 0, 2, 4, 6, 8, 10
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar, cast

from yahtzee_rules.categories import Category
from yahtzee_rules.dice import _DICE_BY_FACES, _KEEP_BY_FACES, Dice, Keep
from yahtzee_rules.errors import IllegalActionError, MalformedInputError
from yahtzee_rules.game import Game
from yahtzee_rules.rules import JokerRule, Rules
from yahtzee_rules.scorecard import EMPTY_CARD, Scorecard
from yahtzee_rules.turn import MAX_ROLLS, Turn, _raw_turn

if TYPE_CHECKING:
    from yahtzee_rules.record import Fill, GameRecord, Roll

__all__ = [
    "MAX_INPUT_LENGTH",
    "from_notation",
    "parse_action",
    "parse_category",
    "parse_dice",
    "parse_game",
    "parse_keep",
    "parse_record",
    "parse_rules",
    "parse_scorecard",
    "parse_turn",
    "to_notation",
]

MAX_INPUT_LENGTH = 100_000
"""The longest text (notation, JSON or share code) any parser reads, in characters.
A finished four-player game record takes about 1,000; the limit leaves room for
long games with many players while keeping hostile input cheap to refuse.
"""

T = TypeVar("T")

_CLASSIC = Rules()
_CATEGORIES = tuple(Category)
_BY_CODE = {c.code: c for c in Category}
_JOKER_NAMES = {rule.value: rule for rule in JokerRule}
_RULE_FIELDS = (
    ("ub", "upper_bonus"),
    ("ut", "upper_bonus_threshold"),
    ("yb", "yahtzee_bonus"),
)
_INT = r"(?:0|[1-9][0-9]{0,8})"
_INT_RE = re.compile(_INT)
_FACES_RE = re.compile(r"1*2*3*4*5*6*")
_BOX_RE = re.compile(r"(1|2|3|4|5|6|3k|4k|fh|ss|ls|y|c)=(" + _INT + r")")
_MARKS_RE = re.compile(r"\+(" + _INT + r")")
_PROGRESS_RE = re.compile(r"([1-6]{5})@([1-3])")
_RULE_OVERRIDE_RE = re.compile(r"(ub|ut|yb)=(" + _INT + r")")


# --- helpers -------------------------------------------------------------------------


def _quote(text: str, limit: int = 60) -> str:
    """The input as a quoted Python literal, shortened when long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def _fail(what: str, text: str, problem: str) -> MalformedInputError:
    return MalformedInputError(f"{what} {_quote(text)}: {_brief(problem)}")


def _brief(message: str, limit: int = 400) -> str:
    """A message shortened in the middle, keeping its start and its advice at the end."""
    if len(message) <= limit:
        return message
    return f"{message[: limit // 2]} ... {message[-(limit // 2) :]}"


def _check_text(what: str, text: object) -> str:
    if not isinstance(text, str):
        shown = repr(text)
        if len(shown) > 60:
            shown = shown[:60] + "..."
        raise MalformedInputError(
            f"{what} {shown}: a {type(text).__name__}, not text; notation is a str such as '13366'"
        )
    if len(text) > MAX_INPUT_LENGTH:
        raise _fail(
            what,
            text,
            f"longer than the limit of {MAX_INPUT_LENGTH} characters; no game needs that much text",
        )
    return text


def _faces(what: str, text: str, *, lengths: range) -> tuple[int, ...]:
    if len(text) not in lengths or _FACES_RE.fullmatch(text) is None:
        size = "five" if lengths == range(5, 6) else "zero to five"
        raise _fail(
            what,
            text,
            f"not {size} faces from 1 to 6 in ascending order; write dice like '13366'",
        )
    return tuple(ord(char) - 48 for char in text)


def _split(what: str, text: str, separator: str = " ") -> list[str]:
    parts = text.split(separator)
    if "" in parts:
        raise _fail(
            what,
            text,
            f"empty field; fields are separated by exactly one {separator!r}, "
            f"with nothing before the first or after the last",
        )
    return parts


# --- dice, keeps, categories -----------------------------------------------------------


def parse_dice(text: str) -> Dice:
    """Read five faces written in ascending order, such as ``"13366"``.

    The :class:`~yahtzee_rules.Dice` constructor also accepts faces in any order;
    the notation has one spelling per roll.

    Raises:
        MalformedInputError: Unless the text is five digits 1-6 in ascending order.

    Examples:
        >>> parse_dice("13366")
        Dice('13366')
        >>> parse_dice("63613")
        Traceback (most recent call last):
        ...
        yahtzee_rules.errors.MalformedInputError: dice '63613': not five faces from 1 to 6 in ascending order; write dice like '13366'
    """
    text = _check_text("dice", text)
    return _DICE_BY_FACES[_faces("dice", text, lengths=range(5, 6))]


def parse_keep(text: str) -> Keep:
    """Read a keep: zero to five faces in ascending order (``""`` holds nothing).

    Raises:
        MalformedInputError: Unless the text is up to five digits 1-6 in ascending order.

    Examples:
        >>> parse_keep("33"), parse_keep("")
        (Keep('33'), Keep(''))
    """
    text = _check_text("keep", text)
    return _KEEP_BY_FACES[_faces("keep", text, lengths=range(6))]


def parse_category(text: str) -> Category:
    """Read a box from its short code: ``1`` to ``6``, ``3k``, ``4k``, ``fh``, ``ss``, ``ls``, ``y``, ``c``.

    :meth:`Category.parse <yahtzee_rules.Category.parse>` is more forgiving (it
    also reads names such as ``"full house"``); the notation uses codes only.

    Raises:
        MalformedInputError: For anything but one of the 13 codes.

    Examples:
        >>> parse_category("fh"), parse_category("4")
        (<Category.FULL_HOUSE: 8>, <Category.FOURS: 3>)
    """
    text = _check_text("category", text)
    found = _BY_CODE.get(text)
    if found is None:
        raise _fail(
            "category",
            text,
            f"no box has this code; codes are {', '.join(c.code for c in Category)}",
        )
    return found


# --- rules -----------------------------------------------------------------------------


def _format_rules(rules: Rules) -> str:
    parts = [rules.joker.value]
    for code, field in _RULE_FIELDS:
        value = getattr(rules, field)
        if value != getattr(_CLASSIC, field):
            parts.append(f"{code}={value}")
    return ",".join(parts)


def parse_rules(text: str) -> Rules:
    """Read a rule set: the Joker rule, then any bonus value that differs from Classic.

    The Joker rule is ``forced``, ``free-choice`` or ``none``. Changed values
    follow in this order, each only when it differs from Classic: ``ub=`` (upper
    bonus, 35), ``ut=`` (upper bonus threshold, 63), ``yb=`` (Yahtzee bonus, 100).

    Raises:
        MalformedInputError: For an unknown Joker rule, fields out of order,
            a field equal to its Classic value, or a value that is not a plain int.

    Examples:
        >>> parse_rules("forced") == Rules()
        True
        >>> parse_rules("none,ub=50,yb=0")
        Rules(joker=JokerRule.NONE, upper_bonus=50, upper_bonus_threshold=63, yahtzee_bonus=0)
    """
    text = _check_text("rules", text)
    return _parse_rules(text)


def _parse_rules(text: str) -> Rules:
    parts = _split("rules", text, ",")
    joker = _JOKER_NAMES.get(parts[0])
    if joker is None:
        raise _fail(
            "rules",
            text,
            f"unknown Joker rule {_quote(parts[0], 40)}; write 'forced', 'free-choice' or 'none' first",
        )
    values: dict[str, int] = {}
    position = 0
    for part in parts[1:]:
        match = _RULE_OVERRIDE_RE.fullmatch(part)
        if match is None:
            raise _fail(
                "rules",
                text,
                f"field {_quote(part, 40)} is not 'ub=N', 'ut=N' or 'yb=N' with N a plain "
                f"non-negative int (at most 9 digits)",
            )
        code, value = match.group(1), int(match.group(2))
        codes = [c for c, _ in _RULE_FIELDS]
        index = codes.index(code)
        if index < position:
            raise _fail(
                "rules",
                text,
                f"field {_quote(part, 40)} is out of order or repeated; write ub, ut, yb in that order",
            )
        field = _RULE_FIELDS[index][1]
        if value == getattr(_CLASSIC, field):
            raise _fail(
                "rules",
                text,
                f"field {_quote(part, 40)} repeats the Classic value; leave it out",
            )
        values[field] = value
        position = index + 1
    return Rules(joker=joker, **values)


# --- scorecards --------------------------------------------------------------------------


def _format_card(card: Scorecard) -> str:
    parts = [
        f"{category.code}={points}"
        for category, points in zip(_CATEGORIES, card.boxes, strict=True)
        if points is not None
    ]
    if card.bonus_marks:
        parts.append(f"+{card.bonus_marks}")
    return ",".join(parts) or "-"


def parse_scorecard(text: str) -> Scorecard:
    """Read a scorecard: ``code=points`` for each filled box in card order, then ``+marks``.

    The empty card is ``-``. Bonus marks (each a 100-point extra Yahtzee) come
    last as ``+N`` and are written only when there are any. The card is then
    checked like any :class:`~yahtzee_rules.Scorecard`: every value must be one a
    roll can give, and bonus marks need 50 in the Yahtzee box.

    Raises:
        MalformedInputError: For bad syntax, boxes out of card order or repeated,
            impossible values, or impossible bonus marks.

    Examples:
        >>> parse_scorecard("-") == Scorecard()
        True
        >>> parse_scorecard("4=20,y=50,+1")
        Scorecard({Category.FOURS: 20, Category.YAHTZEE: 50}, bonus_marks=1)
        >>> parse_scorecard("y=0,+1")
        Traceback (most recent call last):
        ...
        yahtzee_rules.errors.MalformedInputError: scorecard 'y=0,+1': bonus_marks 1: bonus marks need 50 in the Yahtzee box, which holds 0; a zero or open Yahtzee box earns no bonus
    """
    text = _check_text("scorecard", text)
    return _parse_card(text, "scorecard", text)


def _parse_card(text: str, what: str, whole: str) -> Scorecard:
    if text == "-":
        return EMPTY_CARD
    parts = text.split(",")
    if "" in parts:
        raise _fail(
            what,
            whole,
            f"empty field in card {_quote(text, 40)}; boxes are separated by exactly one ',', "
            f"and the empty card is '-'",
        )
    boxes: list[int | None] = [None] * 13
    marks = 0
    last = -1
    for index, part in enumerate(parts):
        match = _BOX_RE.fullmatch(part)
        if match is None:
            marks_match = _MARKS_RE.fullmatch(part)
            if marks_match is not None and index == len(parts) - 1 and index > 0:
                marks = int(marks_match.group(1))
                if marks == 0:
                    raise _fail(what, whole, "'+0' bonus marks; leave the marks out")
                continue
            raise _fail(
                what,
                whole,
                f"{_quote(part, 40)} is not a box written as code=points (such as 'fh=25') "
                f"nor, last, bonus marks written as '+N'; write '-' for an empty card",
            )
        category = _BY_CODE[match.group(1)]
        if category <= last:
            raise _fail(
                what,
                whole,
                f"box {_quote(part, 40)} is out of card order or repeated; write boxes in card "
                f"order: {' '.join(c.code for c in Category)}",
            )
        last = category
        boxes[category] = int(match.group(2))
    try:
        return Scorecard(tuple(boxes), bonus_marks=marks)
    except MalformedInputError as error:
        raise _fail(what, whole, str(error)) from None


# --- turns and games -----------------------------------------------------------------------


def _format_progress(turn: Turn | None) -> str:
    if turn is None:
        return "end"
    if turn.dice is None:
        return "-"
    return f"{turn.dice}@{turn.rolls_used}"


def _parse_progress(
    text: str, what: str, whole: str, *, allow_end: bool
) -> tuple[Dice | None, int] | None:
    if text == "-":
        return None, 0
    if text == "end" and allow_end:
        return None
    match = _PROGRESS_RE.fullmatch(text)
    if match is None or _FACES_RE.fullmatch(match.group(1)) is None:
        end = ", or 'end' once the game is over" if allow_end else ""
        raise _fail(
            what,
            whole,
            f"turn progress {_quote(text, 40)} is not '-' (before the first roll) or the dice "
            f"and rolls used such as '22456@2' (dice ascending, 1 to {MAX_ROLLS} rolls){end}",
        )
    return _DICE_BY_FACES[tuple(ord(c) - 48 for c in match.group(1))], int(match.group(2))


def _format_turn(turn: Turn) -> str:
    return f"{_format_rules(turn.rules)} {_format_card(turn.card)} {_format_progress(turn)}"


def parse_turn(text: str) -> Turn:
    """Read a turn: rules, the card being played, and the progress, separated by spaces.

    Progress is ``-`` before the first roll, else the dice showing and the rolls
    used, such as ``22456@2``.

    Raises:
        MalformedInputError: For bad syntax, an impossible card, a complete card
            (no turn is left to play), or bonus marks under rules without the bonus.

    Examples:
        >>> turn = parse_turn("forced 4=12 22456@2")
        >>> turn.dice, turn.rolls_left, turn.card
        (Dice('22456'), 1, Scorecard({Category.FOURS: 12}))
        >>> str(turn)
        'forced 4=12 22456@2'
        >>> parse_turn("forced - -") == Turn()
        True
    """
    text = _check_text("turn", text)
    fields = _split("turn", text)
    if len(fields) != 3:
        raise _fail(
            "turn",
            text,
            f"{len(fields)} fields; a turn is rules, card and progress separated by "
            f"single spaces, such as 'forced 4=12 22456@2'",
        )
    try:
        rules = _parse_rules(fields[0])
    except MalformedInputError as error:
        raise _fail("turn", text, str(error)) from None
    card = _parse_card(fields[1], "turn", text)
    progress = _parse_progress(fields[2], "turn", text, allow_end=False)
    assert progress is not None
    try:
        return _make_turn(rules, card, progress)
    except MalformedInputError as error:
        raise _fail("turn", text, str(error)) from None


_ESCAPE_RE = re.compile(r"%(?:[0-9A-F]{2})")


def _needs_escape(char: str) -> bool:
    return char in "%,:" or char.isspace() or not char.isprintable()


def _escape_name(name: str) -> str:
    if all(not _needs_escape(c) for c in name):
        return name
    out: list[str] = []
    for char in name:
        if _needs_escape(char):
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
        else:
            out.append(char)
    return "".join(out)


def _unescape_name(text: str, whole: str, what: str) -> str:
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
                raise _fail(
                    what,
                    whole,
                    f"player name {_quote(text, 40)}: '%' must start an escape of two upper-case "
                    f"hex digits, such as '%20' for a space",
                )
            pieces.append(text[position:start].encode("utf-8", "surrogatepass"))
            pieces.append(bytes([int(text[start + 1 : start + 3], 16)]))
            position = start + 3
        pieces.append(text[position:].encode("utf-8", "surrogatepass"))
        try:
            name = b"".join(pieces).decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            raise _fail(
                what, whole, f"player name {_quote(text, 40)}: the escapes are not UTF-8"
            ) from None
    if _escape_name(name) != text:
        raise _fail(
            what,
            whole,
            f"player name {_quote(text, 40)} is not written canonically; write it as "
            f"{_quote(_escape_name(name), 40)} (escape exactly '%', ',', ':', spaces and "
            f"unprintable characters, as %XX bytes of UTF-8)",
        )
    return name


def _format_header(game: Game) -> str:
    names = ",".join(_escape_name(name) for name in game.players)
    return f"{_format_rules(game.rules)} {game.first} {names}"


def _is_new(game: Game) -> bool:
    turn = game.turn
    return (
        turn is not None
        and turn.dice is None
        and game.current == game.first
        and all(card is EMPTY_CARD or card == EMPTY_CARD for card in game.cards)
    )


def _format_game(game: Game) -> str:
    header = _format_header(game)
    if _is_new(game):
        return header
    cards = "/".join(_format_card(card) for card in game.cards)
    return f"{header} {cards} {_format_progress(game.turn)}"


def parse_game(text: str) -> Game:
    """Read a game: rules, starting seat, player names, then the cards and the turn progress.

    The fields are separated by single spaces:

    1. the rules, as :func:`parse_rules` reads them;
    2. the starting seat, counted from 0 in the order of the names;
    3. the player names in seat order, separated by ``,``; a ``%``, ``,``, ``:``,
       space or unprintable character in a name is written as ``%XX`` bytes of
       UTF-8 (``Player%201``);
    4. every player's card, in seat order, separated by ``/``;
    5. the turn progress: ``-`` before the first roll, the dice and rolls used
       (``22456@2``), or ``end`` once the game is over.

    A game that has not started (empty cards, no roll yet) is written with the
    first three fields only. Whose turn it is follows from the cards and the
    starting seat, so it is not written.

    Raises:
        MalformedInputError: For bad syntax or any position no game can reach.

    Examples:
        >>> parse_game("forced 1 Ann,Bob") == Game.new(["Ann", "Bob"], first=1)
        True
        >>> game = parse_game("forced 0 Ann,Bob 1=3/- 13366@1")
        >>> game.current_player, game.dice
        ('Bob', Dice('13366'))
    """
    text = _check_text("game", text)
    return _parse_game(text.split(" "), text, "game")


def _parse_game(fields: list[str], whole: str, what: str) -> Game:
    if "" in fields:
        raise _fail(
            what,
            whole,
            "empty field; fields are separated by exactly one ' ', with nothing "
            "before the first or after the last",
        )
    if len(fields) not in (3, 5):
        raise _fail(
            what,
            whole,
            f"{len(fields)} fields; a game is rules, starting seat and names "
            f"('forced 0 Ann,Bob'), then cards and turn progress once it has begun",
        )
    try:
        rules = _parse_rules(fields[0])
    except MalformedInputError as error:
        raise _fail(what, whole, str(error)) from None
    if _INT_RE.fullmatch(fields[1]) is None:
        raise _fail(
            what,
            whole,
            f"starting seat {_quote(fields[1], 40)} is not a plain non-negative int; seats count from 0",
        )
    first = int(fields[1])
    names = tuple(_unescape_name(name, whole, what) for name in fields[2].split(","))
    if first >= len(names):
        raise _fail(
            what,
            whole,
            f"starting seat {first} is not a seat; seats are 0 to {len(names) - 1}",
        )
    if len(fields) == 3:
        try:
            return Game.new(names, rules=rules, first=first)
        except MalformedInputError as error:
            raise _fail(what, whole, str(error)) from None
    card_texts = fields[3].split("/")
    if len(card_texts) != len(names):
        raise _fail(
            what,
            whole,
            f"{len(card_texts)} cards for {len(names)} players; write one card "
            f"per player, separated by '/'",
        )
    cards = tuple(_parse_card(card, what, whole) for card in card_texts)
    progress = _parse_progress(fields[4], what, whole, allow_end=True)
    try:
        game = _make_game(names, rules, first, cards, progress)
    except MalformedInputError as error:
        raise _fail(what, whole, str(error)) from None
    if _is_new(game):
        raise _fail(
            what,
            whole,
            f"a game that has not begun is written without cards and progress: "
            f"{_quote(_format_header(game))}",
        )
    return game


def _make_game(
    names: tuple[str, ...],
    rules: Rules,
    first: int,
    cards: tuple[Scorecard, ...],
    progress: tuple[Dice | None, int] | None,
    current: int | None = None,
) -> Game:
    """Assemble and check a game from decoded fields; ``progress`` None means over.

    Raises MalformedInputError with a plain message (the caller adds the input).
    """
    for card in cards:
        if card.bonus_marks and rules.yahtzee_bonus == 0:
            raise MalformedInputError(
                f"a card has {card.bonus_marks} bonus marks but the rules have no Yahtzee "
                f"bonus (yahtzee_bonus 0); no roll earns a mark under these rules"
            )
    if not 0 <= first < len(cards):
        raise MalformedInputError(
            f"starting seat {first} is not a seat; seats are 0 to {len(cards) - 1}"
        )
    derived = _current_seat(cards, first)
    if current is not None and current != derived:
        raise MalformedInputError(
            f"current seat {current}: the cards and starting seat {first} say seat "
            f"{derived} is to play; players take turns in seat order, one box per turn"
        )
    if progress is None:
        turn = None
    else:
        if cards[derived].is_complete:
            raise MalformedInputError(
                "every card is complete, so the game is over; it has no turn in progress"
            )
        turn = _raw_turn(cards[derived], rules, progress[0], progress[1])
    try:
        return Game(
            players=names, rules=rules, cards=cards, first=first, current=derived, turn=turn
        )
    except IllegalActionError as error:  # not raised today; kept so none can escape
        raise MalformedInputError(str(error)) from None


def _make_turn(rules: Rules, card: Scorecard, progress: tuple[Dice | None, int]) -> Turn:
    """Assemble and check a turn from decoded fields (plain messages, as _make_game)."""
    if card.bonus_marks and rules.yahtzee_bonus == 0:
        raise MalformedInputError(
            f"the card has {card.bonus_marks} bonus marks but the rules have no Yahtzee "
            f"bonus (yahtzee_bonus 0); no roll earns a mark under these rules"
        )
    if card.is_complete:
        raise MalformedInputError("the card is complete, so no turn is left; a card has 13 boxes")
    return _raw_turn(card, rules, progress[0], progress[1])


def _current_seat(cards: tuple[Scorecard, ...], first: int) -> int:
    """The seat to play: the first in playing order with fewer boxes than the starter."""
    seats = len(cards)
    leader = cards[first].turns_played
    for position in range(1, seats):
        seat = (first + position) % seats
        if cards[seat].turns_played < leader:
            return seat
    return first


# --- records ---------------------------------------------------------------------------


def _format_action(action: Roll | Fill) -> str:
    return str(action)


def parse_action(text: str) -> Roll | Fill:
    """Read one action of a record: a roll (``22345`` or ``2/2456``) or a fill (``fh``).

    A roll is written as the faces held, ``/``, and the faces the thrown dice
    showed, each ascending; a roll that holds nothing is the five faces alone.
    A fill is the box's short code.

    Raises:
        MalformedInputError: For anything else.

    Examples:
        >>> parse_action("2/2456"), parse_action("22345"), parse_action("c")
        (Roll(outcome='2456', keep='2'), Roll(outcome='22345', keep=''), Fill(Category.CHANCE))
    """
    text = _check_text("action", text)
    return _parse_action(text, "action", text)


_ACTIONS: dict[str, Roll | Fill] = {}  # every valid action text read so far (4,381 at most)


def _parse_action(text: str, what: str, whole: str) -> Roll | Fill:
    action = _ACTIONS.get(text)
    if action is None:
        action = _ACTIONS[text] = _read_action(text, what, whole)
    return action


def _read_action(text: str, what: str, whole: str) -> Roll | Fill:
    from yahtzee_rules.record import _fill_action, _roll_action

    category = _BY_CODE.get(text)
    if category is not None:
        return _fill_action(category)
    keep_text, slash, outcome_text = text.rpartition("/")
    if (
        (slash and not keep_text)
        or _FACES_RE.fullmatch(keep_text) is None
        or _FACES_RE.fullmatch(outcome_text) is None
        or len(keep_text) + len(outcome_text) != 5
        or "/" in keep_text
    ):
        raise _fail(
            what,
            whole,
            f"action {_quote(text, 40)} is neither a fill (a box code such as 'fh') nor a roll: "
            f"five faces ('22345'), or the faces held, '/', and the faces thrown "
            f"('2/2456'), five in all, each part ascending",
        )
    return _roll_action(
        _KEEP_BY_FACES[tuple(ord(c) - 48 for c in keep_text)],
        tuple(ord(c) - 48 for c in outcome_text),
    )


def _format_record(record: GameRecord) -> str:
    parts = [_format_game(record.start), ":"]
    parts.extend(str(action) for action in record.actions)
    return " ".join(parts)


def parse_record(text: str) -> GameRecord:
    """Read a game record: the starting game, `` :``, then the actions separated by spaces.

    The start is written as :func:`parse_game` reads it (three fields for a new
    game). Replaying the actions must be legal; the first illegal action is named
    by its index (counting from 0) in the error.

    Raises:
        MalformedInputError: For bad syntax, an impossible start, or an action the
            rules forbid at its point in the game.

    Examples:
        >>> record = parse_record("forced 0 Ann,Bob : 22345 2/2456 c 66666 y")
        >>> record.game.totals("Ann").grand_total, record.game.totals("Bob").grand_total
        (19, 50)
        >>> parse_record("forced 0 Ann : 22345 c 12345 c")
        Traceback (most recent call last):
        ...
        yahtzee_rules.errors.MalformedInputError: game record 'forced 0 Ann : 22345 c 12345 c': action 3 'c': fill Chance with 12345: Chance is already filled with 16; each box is filled once
    """
    from yahtzee_rules.record import _replay_record

    text = _check_text("game record", text)
    fields = text.split(" ")
    try:
        split = fields.index(":")
    except ValueError:
        raise _fail(
            "game record",
            text,
            "no ':' field; a record is the starting game, ' :', then the actions, "
            "such as 'forced 0 Ann : 22345 c'",
        ) from None
    start = _parse_game(fields[:split], text, "game record")
    actions = fields[split + 1 :]
    if "" in actions:
        raise _fail(
            "game record",
            text,
            "empty field; actions are separated by exactly one ' ', with nothing after the last",
        )
    limit = 4 * 13 * len(start.players)
    if len(actions) > limit:
        raise _fail(
            "game record",
            text,
            f"{len(actions)} actions; a game of {len(start.players)} players has at most {limit}",
        )
    parsed = tuple(_parse_action(action, "game record", text) for action in actions)
    return _replay_record(start, parsed, "game record", text)


# --- one entry point -----------------------------------------------------------------------


def to_notation(value: object) -> str:
    """The notation of any value: dice, keep, category, rules, scorecard, turn, game or record.

    This is ``str(value)`` for every value except a :class:`~yahtzee_rules.Category`,
    whose ``str()`` is its label; its notation is its short code.

    Raises:
        MalformedInputError: For a value of any other type.

    Examples:
        >>> from yahtzee_rules import Dice, Keep, Rules, Turn
        >>> to_notation(Dice("63613")), to_notation(Keep()), to_notation(Category.CHANCE)
        ('13366', '', 'c')
        >>> to_notation(Rules(joker="free-choice", yahtzee_bonus=0)), to_notation(Turn())
        ('free-choice,yb=0', 'forced - -')
    """
    from yahtzee_rules.record import Fill, GameRecord, Roll

    if isinstance(value, Category):
        return value.code
    if isinstance(value, (Dice, Keep, Roll, Fill)):
        return str(value)
    if isinstance(value, Rules):
        return _format_rules(value)
    if isinstance(value, Scorecard):
        return _format_card(value)
    if isinstance(value, Turn):
        return _format_turn(value)
    if isinstance(value, Game):
        return _format_game(value)
    if isinstance(value, GameRecord):
        return _format_record(value)
    raise MalformedInputError(
        f"value {_quote(repr(value), 60)}: a {type(value).__name__} has no notation; give a Dice, Keep, "
        f"Category, Rules, Scorecard, Turn, Game, Roll, Fill or GameRecord"
    )


def from_notation(text: str, kind: type[T]) -> T:
    """Read the notation of a value of type ``kind``; the inverse of :func:`to_notation`.

    Raises:
        MalformedInputError: If the text is not the notation of a ``kind``, or
            ``kind`` is not a type with a notation.

    Examples:
        >>> from yahtzee_rules import Dice, Scorecard
        >>> from_notation("13366", Dice)
        Dice('13366')
        >>> from_notation("c=20", Scorecard)
        Scorecard({Category.CHANCE: 20})
    """
    from yahtzee_rules.record import Fill, GameRecord, Roll

    parsers: dict[object, Any] = {
        Dice: parse_dice,
        Keep: parse_keep,
        Category: parse_category,
        Rules: parse_rules,
        Scorecard: parse_scorecard,
        Turn: parse_turn,
        Game: parse_game,
        GameRecord: parse_record,
        Roll: parse_action,
        Fill: parse_action,
    }
    parser = parsers.get(kind)
    if parser is None:
        raise MalformedInputError(
            f"kind {kind!r}: no notation for this type; give Dice, Keep, Category, Rules, "
            f"Scorecard, Turn, Game, Roll, Fill or GameRecord"
        )
    value = parser(text)
    if not isinstance(value, cast(type, kind)):
        raise _fail(
            kind.__name__.lower(),
            text,
            f"this is a {type(value).__name__}, not a {kind.__name__}",
        )
    return cast(T, value)
