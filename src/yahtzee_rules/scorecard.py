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

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from yahtzee_rules import _text
from yahtzee_rules.categories import Category
from yahtzee_rules.errors import MalformedInputError

__all__ = ["Scorecard", "possible_values"]

_CATEGORIES = tuple(Category)
_CODES = tuple(category.code for category in _CATEGORIES)


def _compute_possible() -> tuple[frozenset[int], ...]:
    from yahtzee_rules.dice import Dice
    from yahtzee_rules.scoring import _JOKER_FIXED, score

    values: list[set[int]] = [{0} for _ in _CATEGORIES]
    for dice in Dice.all():
        for category in _CATEGORIES:
            values[category].add(score(dice, category))
        if dice.is_yahtzee:
            for category, fixed in _JOKER_FIXED.items():
                values[category].add(fixed)
    return tuple(frozenset(v) for v in values)


_POSSIBLE: tuple[frozenset[int], ...] = ()


def possible_values(category: Category) -> frozenset[int]:
    """Every value a box can hold: what some roll scores there, Joker values, or 0.

    Examples:
        >>> sorted(possible_values(Category.TWOS))
        [0, 2, 4, 6, 8, 10]
        >>> sorted(possible_values(Category.FULL_HOUSE))
        [0, 25]
        >>> min(possible_values(Category.CHANCE) - {0}), max(possible_values(Category.CHANCE))
        (5, 30)
        >>> 31 in possible_values(Category.CHANCE), 24 in possible_values(Category.FOURS)
        (False, False)
    """
    global _POSSIBLE
    if not _POSSIBLE:
        _POSSIBLE = _compute_possible()
    return _POSSIBLE[_category_arg(category)]


def _category_arg(category: object) -> Category:
    if category.__class__ is Category:
        return category
    raise MalformedInputError(
        f"category {category!r}: not a Category; use a member such as Category.FOURS "
        f"(Category.parse reads names such as 'fours')"
    )


def _to_boxes(value: object) -> tuple[int | None, ...]:
    if isinstance(value, Scorecard):
        return value.boxes
    if isinstance(value, Mapping):
        boxes: list[int | None] = [None] * 13
        for key, points in value.items():
            category = _category_arg(key)
            boxes[category] = points
        return tuple(boxes)
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise MalformedInputError(
            f"scorecard boxes {value!r}: give a mapping from Category to points "
            f"or a sequence of 13 values (an int or None per box)"
        )
    boxes_tuple = tuple(value)
    if len(boxes_tuple) != 13:
        raise MalformedInputError(
            f"scorecard boxes {value!r}: {len(boxes_tuple)} values given; "
            f"a scorecard has 13 boxes, each an int or None"
        )
    return boxes_tuple


def _check_boxes(
    instance: Scorecard, attribute: attrs.Attribute[Any], boxes: tuple[int | None, ...]
) -> None:
    for category, points in zip(_CATEGORIES, boxes, strict=True):
        if points is None:
            continue
        if type(points) is not int:
            raise MalformedInputError(
                f"scorecard box {category.label} {points!r}: a {type(points).__name__}, "
                f"not points; a box holds an int or None while open"
            )
        if points not in possible_values(category):
            allowed = sorted(possible_values(category))
            raise MalformedInputError(
                f"scorecard box {category.label} {points!r}: no roll scores {points} "
                f"in {category.label}; possible values are {_brief(allowed)}"
            )


def _brief(values: list[int]) -> str:
    if len(values) <= 8:
        return ", ".join(map(str, values))
    return f"{', '.join(map(str, values[:4]))}, ..., {values[-1]}"


def _joker_compatible(category: Category, points: int) -> bool:
    """Whether a box value could have been written for five equal dice."""
    if category.is_upper:
        return points in (0, 5 * int(category.face or 0))
    if category in (Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND, Category.CHANCE):
        return points in (0, 5, 10, 15, 20, 25, 30)
    return category is not Category.YAHTZEE


def _check_marks(instance: Scorecard, attribute: attrs.Attribute[Any], marks: object) -> None:
    if type(marks) is not int or marks < 0:
        raise MalformedInputError(
            f"bonus_marks {marks!r}: not a non-negative int; bonus marks count extra Yahtzees"
        )
    if marks == 0:
        return
    boxes = instance.boxes
    if boxes[Category.YAHTZEE] != 50:
        raise MalformedInputError(
            f"bonus_marks {marks!r}: bonus marks need 50 in the Yahtzee box, which holds "
            f"{boxes[Category.YAHTZEE]!r}; a zero or open Yahtzee box earns no bonus"
        )
    room = sum(
        1
        for category, points in zip(_CATEGORIES, boxes, strict=True)
        if points is not None
        and category is not Category.YAHTZEE
        and _joker_compatible(category, points)
    )
    if marks > room:
        raise MalformedInputError(
            f"bonus_marks {marks!r}: only {room} filled boxes could hold an extra Yahtzee; "
            f"each bonus mark comes with five equal dice written in another box"
        )


@attrs.frozen(repr=False)
class Scorecard:
    """One player's card: the 13 boxes and the extra-Yahtzee bonus marks.

    ``Scorecard()`` is the empty card. A card can also be built directly from a
    mapping of filled boxes (or a sequence of 13 values, ``None`` for open), for
    tests and positions loaded from elsewhere; it is then validated.

    Args:
        boxes: ``{Category: points}`` for the filled boxes, or 13 values in card order.
        bonus_marks: How many 100-point Yahtzee bonuses have been earned.

    Raises:
        MalformedInputError: For a value no roll can put in its box, or bonus marks
            without 50 in the Yahtzee box, or more marks than filled boxes that could
            hold five equal dice.

    Attributes:
        boxes: 13 values in card order; ``None`` while a box is open.
        bonus_marks: The number of extra-Yahtzee bonus marks.

    Examples:
        >>> card = Scorecard({Category.YAHTZEE: 50, Category.FOURS: 20}, bonus_marks=1)
        >>> card[Category.YAHTZEE], card.bonus_marks, len(card.open_categories)
        (50, 1, 11)
        >>> card == Scorecard(card.boxes, bonus_marks=1)
        True
        >>> Scorecard({Category.TWOS: 7})
        Traceback (most recent call last):
        ...
        yahtzee_rules.errors.MalformedInputError: scorecard box Twos 7: no roll scores 7 in Twos; possible values are 0, 2, 4, 6, 8, 10
    """

    boxes: tuple[int | None, ...] = attrs.field(
        default=(None,) * 13, converter=_to_boxes, validator=_check_boxes
    )
    bonus_marks: int = attrs.field(default=0, validator=_check_marks)

    def __getitem__(self, category: Category) -> int | None:
        return self.boxes[_category_arg(category)]

    def __iter__(self) -> Iterator[tuple[Category, int | None]]:
        return zip(_CATEGORIES, self.boxes, strict=True)

    def __repr__(self) -> str:
        filled = ", ".join(
            f"Category.{c.name}: {p}"
            for c, p in zip(_CATEGORIES, self.boxes, strict=True)
            if p is not None
        )
        if not filled and not self.bonus_marks:
            return "Scorecard()"
        marks = f", bonus_marks={self.bonus_marks}" if self.bonus_marks else ""
        return f"Scorecard({{{filled}}}{marks})"

    def __str__(self) -> str:
        return _text.format_card(_CODES, self.boxes, self.bonus_marks)

    @classmethod
    def parse(cls, text: str) -> Scorecard:
        """Read a card from its notation, such as ``"4=12,fh=25"``; the inverse of ``str()``.

        See :func:`yahtzee_rules.notation.parse_scorecard`.

        Raises:
            MalformedInputError: For bad syntax or a card no game can reach.

        Examples:
            >>> card = Scorecard.parse("4=20,y=50,+1")
            >>> card.bonus_marks, str(card)
            (1, '4=20,y=50,+1')
        """
        text = _text.check_text("scorecard", text)
        return _text.parse_card(text, "scorecard", text, _CODES, _build_card, EMPTY_CARD)

    def is_open(self, category: Category) -> bool:
        """Whether ``category`` is still open.

        Examples:
            >>> Scorecard().is_open(Category.CHANCE)
            True
        """
        return self.boxes[_category_arg(category)] is None

    @property
    def open_categories(self) -> tuple[Category, ...]:
        """The open boxes in card order.

        Examples:
            >>> Scorecard({Category.ACES: 3}).open_categories[0]
            <Category.TWOS: 1>
        """
        return tuple(c for c, p in zip(_CATEGORIES, self.boxes, strict=True) if p is None)

    @property
    def filled_categories(self) -> tuple[Category, ...]:
        """The filled boxes in card order.

        Examples:
            >>> Scorecard({Category.CHANCE: 20, Category.ACES: 3}).filled_categories
            (<Category.ACES: 0>, <Category.CHANCE: 12>)
        """
        return tuple(c for c, p in zip(_CATEGORIES, self.boxes, strict=True) if p is not None)

    @property
    def turns_played(self) -> int:
        """How many boxes are filled, which is how many turns this card has taken.

        Examples:
            >>> Scorecard({Category.CHANCE: 20}).turns_played
            1
        """
        return 13 - self.boxes.count(None)

    @property
    def is_complete(self) -> bool:
        """Whether all 13 boxes are filled, so the card's game is over.

        Examples:
            >>> Scorecard().is_complete
            False
        """
        return None not in self.boxes

    def to_mapping(self) -> dict[Category, int]:
        """The filled boxes as a new dict from Category to points.

        Examples:
            >>> Scorecard({Category.FOURS: 12}).to_mapping()
            {<Category.FOURS: 3>: 12}
        """
        return {c: p for c, p in zip(_CATEGORIES, self.boxes, strict=True) if p is not None}


def _raw_card(boxes: tuple[int | None, ...], bonus_marks: int) -> Scorecard:
    """A card built without validation, for values the rules engine produced itself."""
    card = object.__new__(Scorecard)
    object.__setattr__(card, "boxes", boxes)
    object.__setattr__(card, "bonus_marks", bonus_marks)
    return card


EMPTY_CARD = _raw_card((None,) * 13, 0)


def _build_card(boxes: tuple[int | None, ...], marks: int) -> Scorecard:
    return Scorecard(boxes, bonus_marks=marks)
