"""The thirteen boxes of Hasbro's Classic scorecard, and the Classic :class:`~yahtzee_rules.Card`.

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

from yahtzee_rules.boxes import Box, Card, Section, describe_boxes, register_card

__all__ = ["CLASSIC", "Category", "Section"]


class Category(Box):
    """One of the 13 boxes of the Classic card, in card order (``ACES`` is 0, ``CHANCE`` is 12).

    A ``Category`` is an :class:`int` so it can index tuples in card order, but
    the library's functions accept only ``Category`` members, never bare ints.
    Unlike a plain int, every member is true, ``ACES`` included, so
    ``if turn.forced_category:`` works as it reads. Other scorecards name their own
    boxes (:class:`~yahtzee_rules.YachtBox`); all are :class:`~yahtzee_rules.Box`.

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


describe_boxes(
    Category,
    (
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
    ),
    ("1", "2", "3", "4", "5", "6", "3k", "4k", "fh", "ss", "ls", "y", "c"),
    faces=(1, 2, 3, 4, 5, 6, None, None, None, None, None, None, None),
    aliases={
        "ones": "1",
        "3 of a kind": "3k",
        "4 of a kind": "4k",
        "sm straight": "ss",
        "lg straight": "ls",
    },
)


def classic_scores(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The plain Classic value of every box for five sorted faces, in card order.

    Upper boxes total the dice showing their face; Three and Four of a Kind and
    Chance total all five dice when they qualify; Full House 25 (three of one face
    and two of another: five equal dice are not a full house), Small Straight 30,
    Large Straight 40 and Yahtzee 50 when they qualify; otherwise 0.

    Examples:
        >>> classic_scores((2, 2, 3, 3, 3))
        (0, 4, 9, 0, 0, 0, 13, 0, 25, 0, 0, 0, 13)
    """
    counts = [0] * 7
    for face in faces:
        counts[face] += 1
    total = sum(faces)
    most = max(counts)
    present = set(faces)
    small = any({a, a + 1, a + 2, a + 3} <= present for a in (1, 2, 3))
    large = present in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
    full_house = sorted(c for c in counts if c) == [2, 3]
    return (
        *(face * counts[face] for face in range(1, 7)),
        total if most >= 3 else 0,
        total if most >= 4 else 0,
        25 if full_house else 0,
        30 if small else 0,
        40 if large else 0,
        50 if most == 5 else 0,
        total,
    )


CLASSIC = register_card(
    Card(
        name="classic",
        title="Classic",
        boxes=Category,
        scorer=classic_scores,
        yahtzee=Category.YAHTZEE,
        joker_values={
            Category.FULL_HOUSE: 25,
            Category.SMALL_STRAIGHT: 30,
            Category.LARGE_STRAIGHT: 40,
        },
    )
)
"""Hasbro's Classic scorecard: 13 boxes, Joker values Full House 25, Small Straight 30,
Large Straight 40.

Examples:
    >>> CLASSIC.title, len(CLASSIC)
    ('Classic', 13)
"""
