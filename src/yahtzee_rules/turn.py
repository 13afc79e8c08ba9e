"""A turn: up to three rolls, holding any dice between them, then exactly one box filled.

Randomness is injected: pass a :class:`random.Random` to :meth:`Turn.roll`, or the
``outcome`` the thrown dice showed, to replay a real or recorded game.

Examples:
    >>> import random
    >>> from yahtzee_rules import Category, Scorecard, Turn
    >>> turn = Turn(Scorecard()).roll(outcome="22335")
    >>> turn = turn.roll(keep="2233", outcome="3")  # hold two 2s and two 3s, reroll the 5
    >>> turn.dice, turn.rolls_left
    (Dice('22333'), 1)
    >>> turn.options[Category.FULL_HOUSE], turn.options[Category.THREES]
    (25, 9)
    >>> card = turn.fill(Category.FULL_HOUSE)
    >>> card[Category.FULL_HOUSE]
    25
"""

from __future__ import annotations

from yahtzee_rules._turn import (
    MAX_ROLLS,
    Turn,
)

__all__ = ["MAX_ROLLS", "Turn"]
