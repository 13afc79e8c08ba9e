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

from yahtzee_rules.core._classic_scores import (
    CLASSIC_CODES,
    CLASSIC_FACES,
    CLASSIC_LABELS,
    classic_scores,
)
from yahtzee_rules.core.boxes import Box, Card, Section, Switch, describe_boxes, register_card

__all__ = ["CLASSIC", "Category", "Section", "classic_scores"]


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
    CLASSIC_LABELS,
    CLASSIC_CODES,
    faces=CLASSIC_FACES,
    aliases={
        "ones": "1",
        "3 of a kind": "3k",
        "4 of a kind": "4k",
        "sm straight": "ss",
        "lg straight": "ls",
    },
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
        joker_first=(Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND),
    ),
    rulesets={
        "forced": (
            "Hasbro's Classic game (the default): 13 boxes, 35-point upper bonus at 63, "
            "100 per extra Yahtzee, forced Joker order",
            {},
        ),
        "free-choice": (
            "Classic with the free-choice Joker: an extra Yahtzee may go in any open box "
            "(Verhoeff's reading)",
            {"joker": "free-choice"},
        ),
        "none": (
            "Classic with no Joker: an extra Yahtzee scores like any roll, still earning its 100",
            {"joker": "none"},
        ),
        "kinds-first": (
            "Classic with Hasbro's current Joker order: an extra Yahtzee fills Three or Four "
            "of a Kind first (rulebook 001)",
            {"joker": "kinds-first"},
        ),
        "forced-yahtzee": (
            "Classic with Forced Yahtzee: five of a kind goes in its open upper box, even the "
            "first (rulebook 002)",
            {"forced_yahtzee": True},
        ),
    },
)
"""Hasbro's Classic scorecard: 13 boxes, Joker values Full House 25, Small Straight 30,
Large Straight 40.

Examples:
    >>> CLASSIC.title, len(CLASSIC)
    ('Classic', 13)
"""


def _classic_five_full_house_scores(faces: tuple[int, ...]) -> tuple[int, ...]:
    """Classic scores, with five equal dice also a Full House (25)."""
    row = classic_scores(faces)
    if faces[0] == faces[4]:
        return (*row[: Category.FULL_HOUSE], 25, *row[Category.FULL_HOUSE + 1 :])
    return row


register_card(
    Card(
        name="classic+5fh",
        title="Classic with five of a kind as a Full House",
        boxes=Category,
        scorer=_classic_five_full_house_scores,
        yahtzee=Category.YAHTZEE,
        joker_values=CLASSIC.joker_values,
        joker_first=CLASSIC.joker_first,
        base=CLASSIC,
        switches=(Switch.FIVE_OF_A_KIND_FULL_HOUSE,),
    ),
    rulesets={
        "classic+5fh": ("Classic with five of a kind also a Full House (a house switch)", {}),
    },
)
