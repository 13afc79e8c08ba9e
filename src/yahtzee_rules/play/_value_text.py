"""The notation of a card and of turn progress, read into values: shared by turns and games.

Internal: nothing here is public API. It sits above
:mod:`yahtzee_rules.play.scorecard` and below :mod:`yahtzee_rules.play.turn`, and applies the
plain-data grammars of :mod:`yahtzee_rules.support._text` to the Classic card.
"""

from __future__ import annotations

from yahtzee_rules.core.boxes import Card
from yahtzee_rules.core.dice import Dice
from yahtzee_rules.play.scorecard import Scorecard, format_card_of, parse_card_of
from yahtzee_rules.support import _text
from yahtzee_rules.support._limits import MAX_ROLLS


def parse_card(text: str, what: str, whole: str, design: Card) -> Scorecard:
    """Read a ``design`` card field of a larger text; ``what`` and ``whole`` name that text."""
    return parse_card_of(design, text, what, whole)


def format_card(card: Scorecard) -> str:
    """A card field of a larger text: the card's boxes, without its card's name."""
    return format_card_of(card)


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
