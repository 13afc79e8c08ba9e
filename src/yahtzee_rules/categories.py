"""The thirteen boxes of the Classic scorecard.

Examples:
    >>> from yahtzee_rules import Category, Section
    >>> Category.FOURS.face, Category.FOURS.section, Category.FOURS.label
    (4, <Section.UPPER: 'upper'>, 'Fours')
    >>> [c.label for c in Category.lower()]  # doctest: +NORMALIZE_WHITESPACE
    ['Three of a Kind', 'Four of a Kind', 'Full House', 'Small Straight',
     'Large Straight', 'Yahtzee', 'Chance']
    >>> Category.parse("full house") is Category.FULL_HOUSE
    True
"""

from __future__ import annotations

import enum
import re

from yahtzee_rules.errors import MalformedInputError

__all__ = ["Category", "Section"]


class Section(enum.Enum):
    """The two halves of the scorecard.

    Examples:
        >>> Section.UPPER.value
        'upper'
    """

    UPPER = "upper"
    LOWER = "lower"


_LABELS = (
    "Aces",
    "Twos",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Three of a Kind",
    "Four of a Kind",
    "Full House",
    "Small Straight",
    "Large Straight",
    "Yahtzee",
    "Chance",
)

_SHORT = ("1", "2", "3", "4", "5", "6", "3k", "4k", "fh", "ss", "ls", "y", "c")


class Category(enum.IntEnum):
    """One of the 13 boxes, in card order (``ACES`` is 0, ``CHANCE`` is 12).

    A ``Category`` is an :class:`int` so it can index tuples in card order, but
    the library's functions accept only ``Category`` members, never bare ints.
    Unlike a plain int, every member is true, ``ACES`` included, so
    ``if turn.forced_category:`` works as it reads.

    Attributes:
        label: The printed name, such as ``"Full House"``.
        section: :attr:`Section.UPPER` for Aces to Sixes, else :attr:`Section.LOWER`.
        face: The face an upper box counts (1 to 6), or ``None`` for a lower box.
        code: The short code used by notation and command lines (``"4"``, ``"fh"``).

    Examples:
        >>> Category.SIXES.face, Category.CHANCE.face
        (6, None)
        >>> Category.for_face(3)
        <Category.THREES: 2>
        >>> Category.LARGE_STRAIGHT.code
        'ls'
        >>> str(Category.FULL_HOUSE)
        'Full House'
        >>> bool(Category.ACES)
        True
    """

    ACES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    THREE_OF_A_KIND = 6
    FOUR_OF_A_KIND = 7
    FULL_HOUSE = 8
    SMALL_STRAIGHT = 9
    LARGE_STRAIGHT = 10
    YAHTZEE = 11
    CHANCE = 12

    label: str
    section: Section
    face: int | None
    code: str

    def __str__(self) -> str:
        return self.label

    def __bool__(self) -> bool:
        # Every box is a real choice: ``if turn.forced_category:`` must hold for Aces (0) too.
        return True

    @property
    def is_upper(self) -> bool:
        """Whether this is one of the six upper boxes.

        Examples:
            >>> Category.ACES.is_upper, Category.CHANCE.is_upper
            (True, False)
        """
        return self.section is Section.UPPER

    @classmethod
    def upper(cls) -> tuple[Category, ...]:
        """The six upper boxes, Aces to Sixes.

        Examples:
            >>> len(Category.upper())
            6
        """
        return _UPPER

    @classmethod
    def lower(cls) -> tuple[Category, ...]:
        """The seven lower boxes, Three of a Kind to Chance.

        Examples:
            >>> Category.lower()[0]
            <Category.THREE_OF_A_KIND: 6>
        """
        return _LOWER

    @classmethod
    def for_face(cls, face: int) -> Category:
        """The upper box that counts ``face``.

        Raises:
            MalformedInputError: If ``face`` is not an int from 1 to 6.

        Examples:
            >>> Category.for_face(6)
            <Category.SIXES: 5>
        """
        if type(face) is not int or not 1 <= face <= 6:
            raise MalformedInputError(f"face {face!r}: not a die face; faces are the ints 1 to 6")
        return _UPPER[face - 1]

    @classmethod
    def parse(cls, text: str) -> Category:
        """Read a box from its member name, label or short code, ignoring case.

        Accepts ``"FULL_HOUSE"``, ``"full house"``, ``"Full-House"`` and ``"fh"``;
        upper boxes also accept their face (``"4"``) and ``"ones"`` for Aces.

        Raises:
            MalformedInputError: If the text names no box.

        Examples:
            >>> Category.parse("ones"), Category.parse("4"), Category.parse("3k")
            (<Category.ACES: 0>, <Category.FOURS: 3>, <Category.THREE_OF_A_KIND: 6>)
            >>> Category.parse("LARGE_STRAIGHT")
            <Category.LARGE_STRAIGHT: 10>
        """
        if not isinstance(text, str):
            raise MalformedInputError(
                f"category {text!r}: not text; name a box such as 'fours' or 'fh'"
            )
        key = re.sub(r"[\s_\-]+", " ", text.strip().lower())
        found = _BY_NAME.get(key)
        if found is None:
            choices = ", ".join(c.code for c in cls)
            raise MalformedInputError(
                f"category {text!r}: no such box; use a name such as 'full house' "
                f"or a code ({choices})"
            )
        return found


for _category in Category:
    _category.label = _LABELS[_category]
    _category.code = _SHORT[_category]
    if _category < 6:
        _category.section = Section.UPPER
        _category.face = int(_category) + 1
    else:
        _category.section = Section.LOWER
        _category.face = None

_UPPER: tuple[Category, ...] = tuple(Category)[:6]
_LOWER: tuple[Category, ...] = tuple(Category)[6:]

_BY_NAME: dict[str, Category] = {}
for _category in Category:
    _BY_NAME[_category.name.lower().replace("_", " ")] = _category
    _BY_NAME[_category.label.lower()] = _category
    _BY_NAME[_category.code] = _category
_BY_NAME["ones"] = Category.ACES
_BY_NAME["3 of a kind"] = Category.THREE_OF_A_KIND
_BY_NAME["4 of a kind"] = Category.FOUR_OF_A_KIND
_BY_NAME["sm straight"] = Category.SMALL_STRAIGHT
_BY_NAME["lg straight"] = Category.LARGE_STRAIGHT
del _category
