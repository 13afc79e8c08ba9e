"""The commands typed at the ``play`` prompt, parsed into values.

Each line the player types becomes one immutable command, or a
:class:`~yahtzee_rules.MalformedInputError` whose message quotes the line and
says what to type instead. Dice are named by their position (1 to 5) in the
row the game shows.

Examples:
    >>> from yahtzee_rules.apps.cli.commands import parse_command
    >>> parse_command("r 1 3 4")
    Roll(hold=(1, 3, 4))
    >>> parse_command("fill full house")
    Fill(category=<Category.FULL_HOUSE: 8>)
    >>> parse_command("save my game.json")
    Save(path='my game.json')
"""

from __future__ import annotations

import re
import textwrap

import attrs

from yahtzee_rules.core.boxes import Box, Card
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.support._text import quote
from yahtzee_rules.support.errors import MalformedInputError
from yahtzee_rules.support.l10n import translations

__all__ = [
    "HELP",
    "Code",
    "Command",
    "Fill",
    "Help",
    "Hint",
    "Quit",
    "Roll",
    "Save",
    "Show",
    "Undo",
    "help_text",
    "parse_command",
    "parse_positions",
]


@attrs.frozen
class Roll:
    """Hold the dice at these positions (1 to 5, ascending) and roll the others.

    Examples:
        >>> Roll((2, 5)).hold
        (2, 5)
    """

    hold: tuple[int, ...] = ()


@attrs.frozen
class Fill:
    """Fill a box with the dice showing, ending the turn.

    Examples:
        >>> from yahtzee_rules import Category
        >>> Fill(Category.CHANCE).category.label
        'Chance'
    """

    category: Box


@attrs.frozen
class Undo:
    """Take back the last action (a roll or a fill) and any computer moves after it.

    Examples:
        >>> Undo()
        Undo()
    """


@attrs.frozen
class Save:
    """Save the game to a file, to resume with ``play --load FILE``.

    Examples:
        >>> Save("game.json").path
        'game.json'
    """

    path: str


@attrs.frozen
class Code:
    """Print a share code, to resume with ``play --code CODE``; ``code --qr FILE`` also
    writes it as a QR code image (``.svg`` or ``.png``; needs the ``qr`` extra), and
    ``code --light`` or ``code --dark`` draws the terminal's QR code for a light or a
    dark background (``background``; ``None`` for the terminal's own).

    Examples:
        >>> Code()
        Code(qr=None, background=None)
        >>> parse_command("code --qr game.svg")
        Code(qr='game.svg', background=None)
        >>> parse_command("code --light")
        Code(qr=None, background='light')
    """

    qr: str | None = None
    background: str | None = None


@attrs.frozen
class Help:
    """List the commands.

    Examples:
        >>> Help()
        Help()
    """


@attrs.frozen
class Show:
    """Show the dice and the score sheet again.

    Examples:
        >>> Show()
        Show()
    """


@attrs.frozen
class Hint:
    """Ask the coach for the best move and what each choice costs.

    Examples:
        >>> Hint()
        Hint()
    """


@attrs.frozen
class Quit:
    """Stop playing (the game offers to save first).

    Examples:
        >>> Quit()
        Quit()
    """


#: Any command the prompt understands.
Command = Roll | Fill | Undo | Save | Code | Help | Show | Hint | Quit


def help_text(card: Card = CLASSIC, locale: str | None = None) -> str:
    """The text ``help`` prints, with the box codes of ``card`` (Classic's by default),
    in ``locale``'s language: the commands themselves, and the box names they take, are
    the same in every language.

    Examples:
        >>> print("\\n".join(help_text().splitlines()[4:6]))
          f c                  fill a box by its code: 1 2 3 4 5 6 3k 4k fh ss ls y c
          fill chance          the same, by its name
        >>> from yahtzee_rules import TRIPLE
        >>> print("\\n".join(help_text(TRIPLE).splitlines()[4:7]))
          f c.1                fill a box by its code: 1.1 2.1 3.1 4.1 5.1 6.1 3k.1 4k.1
                               fh.1 ss.1 ls.1 y.1 c.1; in the next columns 1.2, 1.3...
          fill chance x1       the same, by its name
        >>> print("\\n".join(help_text(locale="fr").splitlines()[:2]))
        Commandes (les dés sont numérotés de 1 à 5, comme affiché au-dessus d'eux) :
          r                    lancer les cinq dés
    """
    text = translations(locale)
    first = card.columns[0]
    lower = [box for box in first if box.face is None] or list(first)
    example = min(lower, key=lambda box: len(box.label))
    codes = " ".join(box.code for box in first)
    if len(card.columns) > 1:
        others = ", ".join(column[0].code for column in card.columns[1:])
        codes += text.pgettext("play help", "; in the next columns {codes}...").format(codes=others)
    described = textwrap.wrap(
        text.pgettext("play help", "fill a box by its code: {codes}").format(codes=codes),
        width=80,
        initial_indent=f"  {'f ' + example.code:<20} ",
        subsequent_indent=" " * 23,
    )
    # The label as it can be typed: "x2" for the multiplier's "×2", if the card reads it.
    typed = example.label.lower().replace("\u00d7", "x")
    try:
        name = typed if card.boxes.parse(typed) is example else example.label.lower()
    except MalformedInputError:
        name = example.label.lower()
    rows = [
        ("r", text.pgettext("play help", "roll all five dice")),
        (
            "r 1 3 4",
            text.pgettext("play help", "hold the dice at positions 1, 3 and 4, roll the others"),
        ),
        (
            "hold 1 3 4",
            text.pgettext("play help", "the same; positions may also be written 134 or 1,3,4"),
        ),
    ]
    after = [
        ("fill " + name, text.pgettext("play help", "the same, by its name")),
        ("undo", text.pgettext("play help", "take back your last roll or fill")),
        ("show", text.pgettext("play help", "show the dice and every card again")),
        ("hint", text.pgettext("play help", "ask the coach for the best move (play --coach)")),
        (
            "save FILE",
            text.pgettext("play help", "save the game to FILE (resume: play --load FILE)"),
        ),
        ("code", text.pgettext("play help", "print a share code (resume: play --code CODE)")),
        (
            "code --qr FILE",
            text.pgettext(
                "play help", "also write it as a QR code, FILE.svg or FILE.png (the qr extra)"
            ),
        ),
        (
            "code --light",
            text.pgettext(
                "play help", "draw its QR code for a light terminal background (--dark: dark)"
            ),
        ),
        ("help", text.pgettext("play help", "this list")),
        ("quit", text.pgettext("play help", "stop playing (offers to save first)")),
    ]
    return "\n".join(
        [
            text.pgettext("play help", "Commands (dice are numbered 1 to 5 as shown above them):"),
            *(f"  {command:<20} {meaning}" for command, meaning in rows),
            *described,
            *(f"  {command:<20} {meaning}" for command, meaning in after),
        ]
    )


#: The text ``help`` prints for a Classic game (:func:`help_text` for another card).
HELP = help_text()

_WORDS: dict[str, str] = {
    "r": "roll",
    "roll": "roll",
    "h": "hold",
    "hold": "hold",
    "keep": "hold",
    "k": "hold",
    "f": "fill",
    "fill": "fill",
    "score": "fill",
    "u": "undo",
    "undo": "undo",
    "save": "save",
    "code": "code",
    "share": "code",
    "help": "help",
    "?": "help",
    "show": "show",
    "card": "show",
    "s": "show",
    "hint": "hint",
    "coach": "hint",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}

_SIMPLE: dict[str, Command] = {
    "undo": Undo(),
    "code": Code(),
    "help": Help(),
    "show": Show(),
    "hint": Hint(),
    "quit": Quit(),
}


def parse_positions(text: str) -> tuple[int, ...]:
    """Read dice positions: digits 1 to 5, separated by spaces or commas, or run together.

    Returns:
        The positions, ascending, each at most once.

    Raises:
        MalformedInputError: For anything but the digits 1 to 5, or a position given twice.

    Examples:
        >>> parse_positions("1 3 4"), parse_positions("134"), parse_positions("4,1")
        ((1, 3, 4), (1, 3, 4), (1, 4))
        >>> parse_positions("")
        ()
        >>> parse_positions("1 6")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: positions '1 6': '6' is not a die position; dice are at positions 1 to 5
    """
    digits = re.sub(r"[\s,]+", "", text)
    seen: list[int] = []
    for char in digits:
        if char not in "12345":
            raise MalformedInputError(
                f"positions {quote(text.strip())}: {char!r} is not a die position; "
                f"dice are at positions 1 to 5"
            )
        position = int(char)
        if position in seen:
            raise MalformedInputError(
                f"positions {quote(text.strip())}: position {position} is given twice; "
                f"name each die to hold once"
            )
        seen.append(position)
    return tuple(sorted(seen))


def parse_command(line: str, *, card: Card = CLASSIC) -> Command:
    """Read one line typed at the ``play`` prompt.

    The first word names the command (case does not matter); ``help`` lists them.
    A box to fill is one of ``card``'s boxes (the Classic card's by default).

    Raises:
        MalformedInputError: For an empty line, an unknown command, or bad arguments; the
            message quotes the input and says what to type instead.

    Examples:
        >>> parse_command("R"), parse_command("hold 25")
        (Roll(hold=()), Roll(hold=(2, 5)))
        >>> parse_command("f 3k"), parse_command("Fill Large Straight")
        (Fill(category=<Category.THREE_OF_A_KIND: 6>), Fill(category=<Category.LARGE_STRAIGHT: 10>))
        >>> parse_command("undo"), parse_command("q")
        (Undo(), Quit())
        >>> parse_command("jump")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: command 'jump': unknown command; type 'help' for the list, such as 'r 1 3' or 'f fh'
    """
    text = line.strip()
    if not text:
        raise MalformedInputError(
            "command '': nothing typed; roll with 'r', fill a box with 'f CODE', or type 'help'"
        )
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    kind = _WORDS.get(word.lower())
    if kind is None:
        raise MalformedInputError(
            f"command {quote(text)}: unknown command; type 'help' for the list, "
            f"such as 'r 1 3' or 'f fh'"
        )
    if kind == "roll":
        return Roll(parse_positions(rest))
    if kind == "hold":
        if not rest:
            raise MalformedInputError(
                f"command {quote(text)}: hold which dice? give their positions, such as "
                f"'hold 1 3 4'; 'r' alone rolls all five"
            )
        return Roll(parse_positions(rest))
    if kind == "fill":
        if not rest:
            raise MalformedInputError(
                f"command {quote(text)}: fill which box? give a code or name, such as 'f fh' "
                f"or 'fill chance'"
            )
        return Fill(card.boxes.parse(rest))
    if kind == "code" and rest:
        option, _, path = rest.partition(" ")
        if option.lower() in ("--light", "--dark") and not path.strip():
            return Code(background=option.lower()[2:])
        if option.lower() != "--qr" or not path.strip():
            raise MalformedInputError(
                f"command {quote(text)}: 'code' takes nothing after it, '--qr FILE' to write "
                f"the code as a QR code image, such as 'code --qr game.svg', or '--light' or "
                f"'--dark' to draw its QR code for a light or a dark terminal background"
            )
        return Code(path.strip())
    if kind == "save":
        if not rest:
            raise MalformedInputError(
                f"command {quote(text)}: save to which file? give a path, such as 'save game.json'"
            )
        return Save(rest)
    if rest:
        raise MalformedInputError(
            f"command {quote(text)}: {word.lower()!r} takes nothing after it; type {word.lower()!r} alone"
        )
    return _SIMPLE[kind]
