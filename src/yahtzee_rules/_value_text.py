"""The notation of a card and of turn progress, read into values: shared by turns and games.

Internal: nothing here is public API. It sits above
:mod:`yahtzee_rules.scorecard` and below :mod:`yahtzee_rules.turn`, and applies the
plain-data grammars of :mod:`yahtzee_rules._text` to the Classic card.
"""

from __future__ import annotations

from yahtzee_rules import _text
from yahtzee_rules._limits import MAX_ROLLS
from yahtzee_rules.categories import Category
from yahtzee_rules.dice import Dice
from yahtzee_rules.scorecard import EMPTY_CARD, Scorecard

CODES = tuple(category.code for category in Category)
"""The short codes of the boxes, in card order."""


def _build_card(boxes: tuple[int | None, ...], marks: int) -> Scorecard:
    return Scorecard(boxes, bonus_marks=marks)


def parse_card(text: str, what: str, whole: str) -> Scorecard:
    """Read a card field of a larger text; ``what`` and ``whole`` name that text in messages."""
    return _text.parse_card(text, what, whole, CODES, _build_card, EMPTY_CARD)


def format_progress(dice: Dice | None, rolls_used: int) -> str:
    """``-`` before the first roll, else the dice and rolls used, such as ``22456@2``."""
    return _text.format_progress(None if dice is None else str(dice), rolls_used)


def parse_progress(
    text: str, what: str, whole: str, *, allow_end: bool
) -> tuple[Dice | None, int] | None:
    """The dice showing (None before the first roll) and the rolls used; None for ``end``."""
    progress = _text.parse_progress(text, what, whole, allow_end=allow_end, max_rolls=MAX_ROLLS)
    if progress is None:
        return None
    faces, rolls = progress
    return (None if faces is None else Dice(faces)), rolls
