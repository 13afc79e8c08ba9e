"""Yacht, the ancestor of Yahtzee as Hoyle's rules give it: 12 boxes, no bonuses, no Joker.

A turn is the same as in Yahtzee (up to three rolls, holding any dice between them),
but the card differs:

* Ones to Sixes total the dice showing their face, and there is no upper bonus;
* Full House (three of one face and two of another) scores the total of the dice;
* Four of a Kind scores the four matching dice only (``44445`` scores 16);
* Little Straight (1-2-3-4-5) and Big Straight (2-3-4-5-6) score 30 each;
* Choice scores the total of the dice; Yacht (five equal dice) scores 50;
* an extra Yacht earns no bonus and there is no Joker: five equal dice score like
  any other roll (not a Full House, not a straight).

Examples:
    >>> from yahtzee_rules import YACHT, Dice, Rules, YachtBox, score
    >>> score(Dice("44445"), YachtBox.FOUR_OF_A_KIND), score("22333", YachtBox.FULL_HOUSE)
    (16, 13)
    >>> Rules.from_name("yacht").card is YACHT
    True
"""

from __future__ import annotations

from yahtzee_rules.core.boxes import Box, Card, describe_boxes, register_card

__all__ = ["YACHT", "YachtBox", "yacht_scores"]


class YachtBox(Box):
    """One of the 12 boxes of the Yacht card, in card order (``ONES`` is 0, ``YACHT`` is 11).

    Examples:
        >>> YachtBox.BIG_STRAIGHT.code, YachtBox.parse("choice")
        ('bs', <YachtBox.CHOICE: 10>)
        >>> YachtBox.for_face(2)
        <YachtBox.TWOS: 1>
    """

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    LITTLE_STRAIGHT = 8
    BIG_STRAIGHT = 9
    CHOICE = 10
    YACHT = 11


describe_boxes(
    YachtBox,
    (
        "Ones",
        "Twos",
        "Threes",
        "Fours",
        "Fives",
        "Sixes",
        "Full House",
        "Four of a Kind",
        "Little Straight",
        "Big Straight",
        "Choice",
        "Yacht",
    ),
    ("1", "2", "3", "4", "5", "6", "fh", "4k", "ls", "bs", "ch", "y"),
    faces=(1, 2, 3, 4, 5, 6, None, None, None, None, None, None),
    aliases={"aces": "1", "4 of a kind": "4k", "chance": "ch"},
)


def yacht_scores(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The Yacht value of every box for five sorted faces, in card order.

    Examples:
        >>> yacht_scores((2, 2, 3, 3, 3))
        (0, 4, 9, 0, 0, 0, 13, 0, 0, 0, 13, 0)
        >>> yacht_scores((5, 5, 5, 5, 5))
        (0, 0, 0, 0, 25, 0, 0, 20, 0, 0, 25, 50)
    """
    counts = [0] * 7
    for face in faces:
        counts[face] += 1
    total = sum(faces)
    shape = sorted(c for c in counts if c)
    four = next((face for face in range(1, 7) if counts[face] >= 4), 0)
    return (
        *(face * counts[face] for face in range(1, 7)),
        total if shape == [2, 3] else 0,
        4 * four,
        30 if faces == (1, 2, 3, 4, 5) else 0,
        30 if faces == (2, 3, 4, 5, 6) else 0,
        total,
        50 if shape == [5] else 0,
    )


YACHT = register_card(
    Card(
        name="yacht",
        title="Yacht",
        boxes=YachtBox,
        scorer=yacht_scores,
        yahtzee=YachtBox.YACHT,
    ),
    rulesets={
        "yacht": (
            "Yacht, as Hoyle gives it: 12 boxes, no upper bonus, no Yacht bonus, no Joker",
            {"joker": "none", "upper_bonus": 0, "yahtzee_bonus": 0},
        ),
    },
)
"""The Yacht card: 12 boxes. Its ruleset, ``Rules.from_name("yacht")``, has no bonuses and
no Joker.

Examples:
    >>> YACHT.title, len(YACHT), YACHT.yahtzee
    ('Yacht', 12, <YachtBox.YACHT: 11>)
"""
