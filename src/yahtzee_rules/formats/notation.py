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
| Match      | `bo` N, the first game's start, then `:` and each game's actions | `bo3 forced 0 Ann,Bob : 22345 c` |

Input is untrusted: anything malformed or impossible raises
:class:`~yahtzee_rules.MalformedInputError` with a message that quotes the text
(shortened if long) and names what is wrong. Text longer than
:data:`MAX_INPUT_LENGTH` characters (a match's:
:data:`~yahtzee_rules.play.match.MAX_MATCH_LENGTH`) is refused before it is read. Writing a
value whose card is not registered (:attr:`Card.is_registered
<yahtzee_rules.Card.is_registered>`) is refused, as its name would not read back.

Examples:
    >>> from yahtzee_rules import Category, Game, Scorecard
    >>> from yahtzee_rules.formats.notation import parse_scorecard, to_notation
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
    yahtzee_rules.support.errors.MalformedInputError: scorecard '2=7': scorecard box Twos 7: no roll scores 7 in Twos; possible values are 0, 2, 4, 6, 8, 10
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

from yahtzee_rules.core.boxes import Box, Card, card_of, check_registered
from yahtzee_rules.core.classic import CLASSIC, Category
from yahtzee_rules.core.dice import DICE_BY_FACES, KEEP_BY_FACES, Dice, Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.match import Match
from yahtzee_rules.play.record import Fill, GameRecord, Roll, action_from_text, check_ruleset
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support import _text
from yahtzee_rules.support._limits import MAX_INPUT_LENGTH
from yahtzee_rules.support._text import a_type, show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = [
    "KINDS",
    "MAX_INPUT_LENGTH",
    "ValueKind",
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


T = TypeVar("T")


# Each value's grammar lives with the value or below it (yahtzee_rules.support._text); the
# functions here read and write through the values, so this module only adds the
# entry points. See docs/explanation/layers.md.


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
        yahtzee_rules.support.errors.MalformedInputError: dice '63613': not five faces from 1 to 6 in ascending order; write dice like '13366'
    """
    text = _text.check_text("dice", text)
    return DICE_BY_FACES[_text.read_faces("dice", text, lengths=range(5, 6))]


def parse_keep(text: str) -> Keep:
    """Read a keep: zero to five faces in ascending order (``""`` holds nothing).

    Raises:
        MalformedInputError: Unless the text is up to five digits 1-6 in ascending order.

    Examples:
        >>> parse_keep("33"), parse_keep("")
        (Keep('33'), Keep(''))
    """
    text = _text.check_text("keep", text)
    return KEEP_BY_FACES[_text.read_faces("keep", text, lengths=range(6))]


def parse_category(text: str, *, card: Card = CLASSIC) -> Box:
    """Read a box from its short code: ``1`` to ``6``, ``3k``, ``4k``, ``fh``, ``ss``, ``ls``, ``y``, ``c``.

    :meth:`Category.parse <yahtzee_rules.Category.parse>` is more forgiving (it
    also reads names such as ``"full house"``); the notation uses codes only.
    Another card's box is read with its ``card`` (Yacht: ``fh``, ``4k``, ``ls``,
    ``bs``, ``ch``, ``y``).

    Raises:
        MalformedInputError: For anything but one of the card's codes.

    Examples:
        >>> parse_category("fh"), parse_category("4")
        (<Category.FULL_HOUSE: 8>, <Category.FOURS: 3>)
        >>> from yahtzee_rules import YACHT
        >>> parse_category("bs", card=YACHT)
        <YachtBox.BIG_STRAIGHT: 9>
    """
    text = _text.check_text("category", text)
    if not isinstance(card, Card):
        raise MalformedInputError(f"card {show(card)}: not a Card; use a card such as CLASSIC")
    return _parse_code(text, card)


def _parse_code(text: str, card: Card) -> Box:
    for box in card.members:
        if box.code == text:
            return box
    raise _text.fail(
        "category",
        text,
        f"no box has this code; codes are {', '.join(c.code for c in card.members)}",
    )


# --- rules, scorecards, turns, games ----------------------------------------------------


def parse_rules(text: str) -> Rules:
    """Read a rule set: the Joker rule, then any bonus value that differs from Classic.

    The Joker rule is ``forced``, ``free-choice`` or ``none``. Changed values
    follow in this order, each only when it differs from Classic: ``ub=`` (upper
    bonus, 35), ``ut=`` (upper bonus threshold, 63), ``yb=`` (Yahtzee bonus, 100).
    A card other than Classic is named first (``yacht``), and then its Joker rule
    and values are written only where they differ from that card's usual ruleset.
    A tie rule other than sharing the win comes last: ``tie=upper-total`` or
    ``tie=play-off``.

    Raises:
        MalformedInputError: For an unknown Joker rule, fields out of order,
            a field equal to its Classic value, or a value that is not a plain int.

    Examples:
        >>> parse_rules("forced") == Rules()
        True
        >>> parse_rules("none,ub=50,yb=0")
        Rules(joker=JokerRule.NONE, upper_bonus=50, upper_bonus_threshold=63, yahtzee_bonus=0)
    """
    return Rules.parse(text)


def parse_scorecard(text: str) -> Scorecard:
    """Read a scorecard: ``code=points`` for each filled box, then ``+marks``.

    The boxes are written in card order and read in any order (each box once).

    The empty card is ``-``. Bonus marks (each a 100-point extra Yahtzee) come
    last as ``+N`` and are written only when there are any. The card is then
    checked like any :class:`~yahtzee_rules.Scorecard`: every value must be one a
    roll can give, and bonus marks need 50 in the Yahtzee box.

    Raises:
        MalformedInputError: For bad syntax, a box given twice,
            impossible values, or impossible bonus marks.

    Examples:
        >>> parse_scorecard("-") == Scorecard()
        True
        >>> parse_scorecard("4=20,y=50,+1")
        Scorecard({Category.FOURS: 20, Category.YAHTZEE: 50}, bonus_marks=1)
        >>> parse_scorecard("y=0,+1")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: scorecard 'y=0,+1': bonus_marks 1: bonus marks need 50 in the Yahtzee box, which holds 0; a zero or open Yahtzee box earns no bonus
    """
    return Scorecard.parse(text)


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
    return Turn.parse(text)


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
    return Game.parse(text)


# --- records ---------------------------------------------------------------------------


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
    text = _text.check_text("action", text)
    return action_from_text(text, "action", text)


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
        >>> record.game.player_totals("Ann").grand_total, record.game.player_totals("Bob").grand_total
        (19, 50)
        >>> parse_record("forced 0 Ann : 22345 c 12345 c")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: game record 'forced 0 Ann : 22345 c 12345 c': action 3 'c': fill Chance with 12345: Chance is already filled with 16; each box is filled once
    """
    return GameRecord.parse(text)


# --- the kinds of value, and one entry point ----------------------------------------------


@attrs.frozen
class ValueKind:
    """A kind of value that has a notation and a JSON document: one entry of :data:`KINDS`.

    Attributes:
        type: The value's class (for the boxes, :class:`~yahtzee_rules.Category`; every
            card's box enumeration is read the same way).
        name: Its JSON document's ``"type"`` (``"game_record"``).
        parse: Reads its notation (the function :func:`from_notation` calls).
        strategy: The name of the function in :mod:`yahtzee_rules.testing.strategies` that
            draws such values (registered for :func:`hypothesis.strategies.from_type`),
            or ``None`` when it is drawn as part of another (a recorded action).

    Examples:
        >>> kind = next(kind for kind in KINDS if kind.name == "game_record")
        >>> kind.type.__name__, kind.strategy
        ('GameRecord', 'records')
    """

    type: type
    name: str
    parse: Callable[[str], object] = attrs.field(repr=False)
    strategy: str | None


def _parse_match(text: str) -> Match:
    return Match.parse(text)


KINDS: tuple[ValueKind, ...] = (
    ValueKind(Dice, "dice", parse_dice, "dice"),
    ValueKind(Keep, "keep", parse_keep, "keeps"),
    ValueKind(Category, "category", parse_category, "categories"),
    ValueKind(Rules, "rules", parse_rules, "rules"),
    ValueKind(Scorecard, "scorecard", parse_scorecard, "scorecards"),
    ValueKind(Turn, "turn", parse_turn, "turns"),
    ValueKind(Game, "game", parse_game, "games"),
    ValueKind(Roll, "roll", parse_action, None),
    ValueKind(Fill, "fill", parse_action, None),
    ValueKind(GameRecord, "game_record", parse_record, "records"),
    ValueKind(Match, "match", _parse_match, "matches"),
)
"""The one registry of the kinds of value the formats read and write, in the order
messages list them: notation (:func:`to_notation`, :func:`from_notation`), JSON
(:func:`~yahtzee_rules.to_dict`, :func:`~yahtzee_rules.from_dict` and the schema's
documents), the Hypothesis strategies registered for :func:`hypothesis.strategies.from_type`,
and the tests that feed every reader read it.

Examples:
    >>> [kind.type.__name__ for kind in KINDS][-3:]
    ['Fill', 'GameRecord', 'Match']
"""

_TYPES = tuple(kind.type for kind in KINDS)
_PARSERS: dict[object, Callable[[str], object]] = {kind.type: kind.parse for kind in KINDS}


def kind_list(conjunction: str = "or") -> str:
    """The kinds' names as a message lists them: ``"Dice, Keep, ... or Match"``.

    Examples:
        >>> kind_list()
        'Dice, Keep, Category, Rules, Scorecard, Turn, Game, Roll, Fill, GameRecord or Match'
    """
    names = [kind.type.__name__ for kind in KINDS]
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def to_notation(value: object) -> str:
    """The notation of any value: dice, keep, category, rules, scorecard, turn, game, record or match.

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
    if isinstance(value, Box):
        return value.code
    if isinstance(value, _TYPES):
        card = _card_written(value)
        if card is not None:
            check_registered(card, "notation")
        return str(value)
    raise MalformedInputError(
        f"value {_text.quote(show(value, MAX_INPUT_LENGTH), 60)}: {a_type(value)} has "
        f"no notation; give a {kind_list()}"
    )


def _card_written(value: object) -> Card | None:
    """The card whose name the notation of ``value`` writes, if any."""
    if isinstance(value, Rules):
        return value.card
    if isinstance(value, Scorecard):
        return value.card
    if isinstance(value, (Turn, Game, Match)):
        return value.rules.card
    if isinstance(value, GameRecord):
        return value.start.rules.card
    if isinstance(value, Fill):
        return card_of(value.category)
    return None


def from_notation(text: str, kind: type[T], *, rules: Rules | None = None) -> T:
    """Read the notation of a value of type ``kind``; the inverse of :func:`to_notation`.

    With ``rules``, the value must belong to them (a record, game or turn of other
    rules, a scorecard of another card, is refused, with both named), and a box
    code or an action is read as a box of the rules' card.

    Raises:
        MalformedInputError: If the text is not the notation of a ``kind``, or
            ``kind`` is not a type with a notation, or belongs to other rules.

    Examples:
        >>> from yahtzee_rules import Dice, Scorecard
        >>> from_notation("13366", Dice)
        Dice('13366')
        >>> from_notation("c=20", Scorecard)
        Scorecard({Category.CHANCE: 20})
    """
    if kind is Match:  # a match checks its own rules, game by game
        return cast(T, Match.parse(text, rules=rules))
    parser: Any = _PARSERS.get(kind) if isinstance(kind, type) else None
    if parser is None and isinstance(kind, type) and issubclass(kind, Box) and kind is not Box:
        design = card_of(next(iter(kind)))

        def parser(text: str) -> Box:
            return parse_category(text, card=design)

    if parser is None:
        raise MalformedInputError(
            f"kind {show(kind)}: no notation for this type; give {kind_list()}"
        )
    value: object
    if rules is not None and kind in (Roll, Fill):
        check_ruleset(None, rules, "action", "")  # checks that rules is a Rules
        value = action_from_text(_text.check_text("action", text), "action", text, rules.card)
    elif rules is not None and isinstance(kind, type) and issubclass(kind, Box):
        check_ruleset(None, rules, "category", "")
        value = _parse_code(_text.check_text("category", text), rules.card)
    else:
        value = parser(text)
    check_ruleset(value, rules, kind.__name__.lower(), _text.quote(text))
    if not isinstance(value, cast(type, kind)):
        raise _text.fail(
            kind.__name__.lower(),
            text,
            f"this is {a_type(value)}, not a {kind.__name__}",
        )
    return cast(T, value)
