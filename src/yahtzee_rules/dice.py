"""Dice and keeps: five faces as a multiset, and the dice a player holds before a reroll.

Scoring never depends on the order of the dice, so :class:`Dice` stores its
faces sorted: there are 252 distinct rolls of five dice. A :class:`Keep` is a
sub-multiset of a roll (zero to five dice), of which there are 462 in all.

Examples:
    >>> from yahtzee_rules import Dice, Keep
    >>> Dice("63613") == Dice([1, 3, 3, 6, 6])
    True
    >>> str(Dice([6, 3, 6, 1, 3])), repr(Dice("13366"))
    ('13366', "Dice('13366')")
    >>> Keep("33").issubset(Dice("13366"))
    True
    >>> len(Dice.all()), len(Keep.all())
    (252, 462)
"""

from __future__ import annotations

from yahtzee_rules._dice import (
    Dice,
    DiceLike,
    Keep,
    KeepLike,
)
from yahtzee_rules._dice import (
    dice_index as dice_index,
)

__all__ = ["Dice", "DiceLike", "Keep", "KeepLike"]
