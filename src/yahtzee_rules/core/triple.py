"""Triple Yahtzee: three columns of the Classic boxes, scored ×1, ×2 and ×3, over 39 turns.

Milton Bradley's Triple Yahtzee plays the Classic game on a card of three score
columns at once. Each turn fills one open box in any column; a column adds up like
a Classic card (its own upper subtotal, and its own 35-point bonus when that reaches
63), and then its total is multiplied by 1, 2 or 3. An extra Yahtzee is five equal
dice once all three Yahtzee boxes are filled: the forced Joker sends it to an open
matching upper box (any column), else to an open lower box at Joker values, else to
an open upper box for 0; it earns the 100-point bonus when all three Yahtzee boxes
hold 50, and the bonus is added once, not multiplied. The page
``docs/rulesets/triple.md`` gives the sources and the readings offered as options.

Boxes are written ``code.column``: ``4.2`` is Fours ×2, ``3k.3`` is Three of a Kind ×3.

Examples:
    >>> from yahtzee_rules import TRIPLE, Dice, Rules, TripleBox, score
    >>> TripleBox.FULL_HOUSE_X3.label, TripleBox.FULL_HOUSE_X3.code, TripleBox.FULL_HOUSE_X3.multiplier
    ('Full House ×3', 'fh.3', 3)
    >>> score(Dice("22333"), TripleBox.FULL_HOUSE_X2)  # the box holds 25; its column doubles it
    25
    >>> Rules.from_name("triple").card is TRIPLE, len(TRIPLE), TRIPLE.multipliers
    (True, 39, (1, 2, 3))
"""

from __future__ import annotations

import attrs

from yahtzee_rules.core._classic_scores import (
    CLASSIC_CODES,
    CLASSIC_CONTEXT,
    CLASSIC_FACES,
    CLASSIC_LABELS,
    classic_scores,
)
from yahtzee_rules.core.boxes import Box, Card, describe_boxes, register_card
from yahtzee_rules.support.l10n import translations

__all__ = ["TRIPLE", "TRIPLE_IN_ORDER", "TripleBox", "triple_scores"]


class TripleBox(Box):
    """One of the 39 boxes of the Triple Yahtzee card: the 13 Classic boxes in each of three columns.

    Members are named after the Classic box and the column's multiplier
    (``FOURS_X2``), labelled ``"Fours ×2"`` and coded ``"4.2"``; card order is the
    first column top to bottom, then the second, then the third.

    Examples:
        >>> TripleBox.parse("3k.2"), TripleBox.parse("fours x3")
        (<TripleBox.THREE_OF_A_KIND_X2: 19>, <TripleBox.FOURS_X3: 29>)
        >>> TripleBox.YAHTZEE_X3.column, TripleBox.YAHTZEE_X3.row, TripleBox.YAHTZEE_X3.face
        (2, 11, None)
    """

    ACES_X1 = 0
    TWOS_X1 = 1
    THREES_X1 = 2
    FOURS_X1 = 3
    FIVES_X1 = 4
    SIXES_X1 = 5
    THREE_OF_A_KIND_X1 = 6
    FOUR_OF_A_KIND_X1 = 7
    FULL_HOUSE_X1 = 8
    SMALL_STRAIGHT_X1 = 9
    LARGE_STRAIGHT_X1 = 10
    YAHTZEE_X1 = 11
    CHANCE_X1 = 12
    ACES_X2 = 13
    TWOS_X2 = 14
    THREES_X2 = 15
    FOURS_X2 = 16
    FIVES_X2 = 17
    SIXES_X2 = 18
    THREE_OF_A_KIND_X2 = 19
    FOUR_OF_A_KIND_X2 = 20
    FULL_HOUSE_X2 = 21
    SMALL_STRAIGHT_X2 = 22
    LARGE_STRAIGHT_X2 = 23
    YAHTZEE_X2 = 24
    CHANCE_X2 = 25
    ACES_X3 = 26
    TWOS_X3 = 27
    THREES_X3 = 28
    FOURS_X3 = 29
    FIVES_X3 = 30
    SIXES_X3 = 31
    THREE_OF_A_KIND_X3 = 32
    FOUR_OF_A_KIND_X3 = 33
    FULL_HOUSE_X3 = 34
    SMALL_STRAIGHT_X3 = 35
    LARGE_STRAIGHT_X3 = 36
    YAHTZEE_X3 = 37
    CHANCE_X3 = 38

    def label_in(self, locale: str | None) -> str:
        """The printed name in ``locale``'s language: its Classic box's name and ``×2``.

        Triple Yahtzee's columns are Classic's boxes, so their names come from the
        Classic card's catalogue entries (one home for each name).

        Examples:
            >>> TripleBox.THREE_OF_A_KIND_X2.label_in("de"), TripleBox.YAHTZEE_X3.label_in("fr")
            ('Dreierpasch ×2', 'Yams ×3')
        """
        base = translations(locale).pgettext(CLASSIC_CONTEXT, CLASSIC_LABELS[self.row])
        return _column_label(base, self.multiplier)


_MULTIPLIERS = (1, 2, 3)


def _column_label(label: str, multiplier: int) -> str:
    """A Triple Yahtzee box's label: its Classic box's label and its column's multiplier."""
    return f"{label} ×{multiplier}"


describe_boxes(
    TripleBox,
    tuple(_column_label(label, m) for m in _MULTIPLIERS for label in CLASSIC_LABELS),
    tuple(f"{code}.{m}" for m in _MULTIPLIERS for code in CLASSIC_CODES),
    faces=CLASSIC_FACES * len(_MULTIPLIERS),
    aliases={
        f"{alias} x{m}": f"{code}.{m}"
        for m in _MULTIPLIERS
        for alias, code in (
            *(
                (label.lower(), code)
                for label, code in zip(CLASSIC_LABELS, CLASSIC_CODES, strict=True)
            ),
            ("ones", "1"),
            ("3 of a kind", "3k"),
            ("4 of a kind", "4k"),
        )
    },
    columns=tuple(column for column in range(len(_MULTIPLIERS)) for _ in CLASSIC_CODES),
    multipliers=_MULTIPLIERS,
)


def triple_scores(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The plain value of every Triple Yahtzee box for five sorted faces, in card order.

    Each column scores as the Classic card does; the multiplier applies to the
    column's total, not to the box.

    Examples:
        >>> triple_scores((2, 2, 3, 3, 3))[8::13]  # Full House in each column
        (25, 25, 25)
    """
    return classic_scores(faces) * len(_MULTIPLIERS)


TRIPLE = register_card(
    Card(
        name="triple",
        title="Triple Yahtzee",
        boxes=TripleBox,
        scorer=triple_scores,
        yahtzee=TripleBox.YAHTZEE_X1,
        joker_values={
            box: points
            for m in _MULTIPLIERS
            for box, points in (
                (TripleBox[f"FULL_HOUSE_X{m}"], 25),
                (TripleBox[f"SMALL_STRAIGHT_X{m}"], 30),
                (TripleBox[f"LARGE_STRAIGHT_X{m}"], 40),
            )
        },
    ),
    rulesets={
        "triple": (
            "Triple Yahtzee: three columns of the Classic boxes scored x1, x2, x3, a 35-point "
            "bonus per column, 100 per extra Yahtzee, forced Joker",
            {},
        ),
    },
)
"""The Triple Yahtzee card: 39 boxes in three columns multiplied by 1, 2 and 3. Its
ruleset, ``Rules.from_name("triple")``, has the forced Joker, 35 points per column
for an upper subtotal of 63 in that column, and 100 per extra Yahtzee.

Examples:
    >>> TRIPLE.title, len(TRIPLE), TRIPLE.yahtzees
    ('Triple Yahtzee', 39, (<TripleBox.YAHTZEE_X1: 11>, <TripleBox.YAHTZEE_X2: 24>, <TripleBox.YAHTZEE_X3: 37>))
"""

TRIPLE_IN_ORDER = register_card(
    attrs.evolve(
        TRIPLE, name="triple-in-order", title="Triple Yahtzee in order", left_to_right=True
    ),
    rulesets={
        "triple-in-order": ("Triple Yahtzee with each row filled left to right", {}),
    },
)
"""Triple Yahtzee with each row filled left to right: a box opens once the box to its
left is filled (Fours ×2 once Fours ×1 is). Its ruleset is
``Rules.from_name("triple-in-order")``; its boxes are :class:`TripleBox`, as on
:data:`TRIPLE`, but a card of one is never a card of the other.

Examples:
    >>> from yahtzee_rules import Rules, Turn
    >>> turn = Turn(rules=Rules.from_name("triple-in-order")).roll(outcome="22333")
    >>> sorted(box.code for box in turn.options)[:4]
    ['1.1', '2.1', '3.1', '3k.1']
    >>> TripleBox.FULL_HOUSE_X2 in turn.options
    False
"""
