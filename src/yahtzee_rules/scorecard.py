"""The scorecard: thirteen boxes, each open or holding the points written, and the bonus marks.

A :class:`Scorecard` is an immutable value. It only ever holds values some roll
can write (no 7 in Twos, no 24 in Full House, no 31 in Chance), and bonus marks
only while the Yahtzee box holds 50. New cards come from
:func:`yahtzee_rules.fill`, which leaves the old card unchanged.

Examples:
    >>> from yahtzee_rules import Category, Scorecard, fill
    >>> card = fill(Scorecard(), "44456", Category.FOURS)
    >>> card[Category.FOURS], card[Category.FIVES]
    (12, None)
    >>> card
    Scorecard({Category.FOURS: 12})
    >>> Scorecard()[Category.CHANCE] is None
    True
"""

from __future__ import annotations

from yahtzee_rules._scorecard import (
    Scorecard,
    possible_values,
)
from yahtzee_rules._scorecard import (
    empty_card as empty_card,
)

__all__ = ["Scorecard", "possible_values"]
