"""The Classic card's scores as a pure function of five faces, below the dice.

Internal: nothing here is public API (:func:`yahtzee_rules.core.classic.classic_scores`
is the public name). It sits at the bottom of the layers so that :class:`Dice` can
keep each roll's Classic scores beside its other precomputed facts (its counts, its
total), and :func:`yahtzee_rules.score` reads them in one step: the Classic card is
the one nearly every game plays, and scoring is the library's hottest path.
"""

from __future__ import annotations

__all__ = [
    "CLASSIC_CODES",
    "CLASSIC_CONTEXT",
    "CLASSIC_FACES",
    "CLASSIC_LABELS",
    "classic_scores",
]

# The Classic boxes' labels, codes and upper faces, in card order: the Classic card
# describes its boxes with them, and Triple Yahtzee each of its three columns.
CLASSIC_LABELS = (
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
CLASSIC_CODES = ("1", "2", "3", "4", "5", "6", "3k", "4k", "fh", "ss", "ls", "y", "c")
CLASSIC_FACES = (1, 2, 3, 4, 5, 6, None, None, None, None, None, None, None)
# The catalogues' context for these labels: the Classic enumeration's class name, which
# ``Box.label_in`` looks them up under (Triple Yahtzee's columns look theirs up there too).
CLASSIC_CONTEXT = "Category"


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
