"""Internal: the web table's form fields, read as the page writes them.

A form field is text a browser (or anyone) sends; each reader here takes only what
the page's own forms send and refuses the rest with a
:class:`~yahtzee_rules.support.errors.MalformedInputError` naming the field. Digits are
ASCII digits only: ``str.isdigit`` also accepts ``"²"``, ``"①"`` and the Arabic-Indic
digits (``"\\u0661"``), which are no dice positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from yahtzee_rules.support._text import quote
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["held_positions", "held_text"]

_POSITIONS = "01234"


def held_positions(values: Sequence[str]) -> tuple[int, ...]:
    """The dice positions a roll form holds: each ``hold`` value one ASCII digit 0-4.

    Examples:
        >>> held_positions(["0", "3"])
        (0, 3)
        >>> held_positions(["²"])
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: hold '²': dice are held by position, one digit 0 to 4
    """
    for value in values:
        if len(value) != 1 or value not in _POSITIONS:
            raise MalformedInputError(
                f"hold {quote(value, 20)}: dice are held by position, one digit 0 to 4"
            )
    return tuple(_POSITIONS.index(value) for value in values)


def held_text(text: str) -> tuple[int, ...]:
    """The dice positions a page's link holds (``hold=03``): ASCII digits 0-4, each once.

    Examples:
        >>> held_text("03"), held_text("")
        ((0, 3), ())
        >>> held_text("0 0")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: hold '0 0': dice are held by position, each digit 0 to 4 at most once
    """
    if (
        len(text) > len(_POSITIONS)
        or len(set(text)) != len(text)
        or not set(text) <= set(_POSITIONS)
    ):
        raise MalformedInputError(
            f"hold {quote(text, 20)}: dice are held by position, each digit 0 to 4 at most once"
        )
    return tuple(sorted(_POSITIONS.index(value) for value in text))
