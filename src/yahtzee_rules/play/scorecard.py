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

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from gc import get_referents
from typing import Any

import attrs

from yahtzee_rules.core.boxes import Box, Card, card_of
from yahtzee_rules.core.classic import CLASSIC, Category
from yahtzee_rules.support import _text
from yahtzee_rules.support._frozen import raw_builder, reinit_error
from yahtzee_rules.support._text import a_type, counted, show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["Scorecard", "possible_values"]


def possible_values(category: Box | str) -> frozenset[int]:
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
    if category.__class__ is Category:
        return CLASSIC.possible[category]
    box: Box = category if isinstance(category, Box) else category_arg(category, CLASSIC)
    return card_of(box).possible[box]


def category_arg(category: object, card: Card = CLASSIC) -> Any:
    """``category`` if it is a box of ``card``; text names one (its name, label or code,
    read by the boxes' ``parse``, the one reader of box names); else raise naming both."""
    boxes = card.boxes
    if category.__class__ is boxes:
        return category
    if isinstance(category, str):
        return boxes.parse(category)
    kind = boxes.__name__
    if isinstance(category, Box):
        raise MalformedInputError(
            f"category {show(category)}: a box of the {card_of(category).title} card, not of the "
            f"{card.title} card; use a member of {kind} such as {kind}.FOURS"
        )
    raise MalformedInputError(
        f"category {show(category)}: not a {kind}; use a member such as {kind}.FOURS "
        f"or its name or code as text, such as 'fours'"
    )


def _card_for(value: object, card: object) -> Card:
    """The card a new Scorecard is on: ``card`` if given, else its boxes' card."""
    if card is not None:
        if not isinstance(card, Card):
            raise MalformedInputError(
                f"card {show(card)}: not a Card; use a card such as CLASSIC or YACHT"
            )
        return card
    if isinstance(value, Scorecard):
        return value.card
    if isinstance(value, Mapping):
        for key in value:
            if isinstance(key, Box):
                return card_of(key)
            break
    return CLASSIC


def _to_boxes(value: object, card: Card) -> tuple[int | None, ...]:
    size = len(card)
    if isinstance(value, Scorecard):
        if value.card != card:
            raise MalformedInputError(
                f"scorecard boxes {show(value)}: a {value.card.title} card, not a {card.title} card"
            )
        return value.boxes
    if isinstance(value, Mapping):
        boxes: list[int | None] = [None] * size
        for key, points in value.items():
            category = category_arg(key, card)
            boxes[category] = points
        return tuple(boxes)
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise MalformedInputError(
            f"scorecard boxes {show(value)}: give a mapping from {card.boxes.__name__} to points "
            f"or a sequence of {size} values (an int or None per box)"
        )
    # Read one value past the card's size, so an endless iterator is refused quickly.
    boxes_tuple = tuple(itertools.islice(value, size + 1))
    if len(boxes_tuple) != size:
        given = counted(value, len(boxes_tuple), size)
        raise MalformedInputError(
            f"scorecard boxes {show(value)}: {given} values given; "
            f"a {'' if card is CLASSIC else card.title + ' '}scorecard has {size} boxes, "
            f"each an int or None"
        )
    return boxes_tuple


def _check_boxes(
    instance: Scorecard, attribute: attrs.Attribute[Any], boxes: tuple[int | None, ...]
) -> None:
    card = instance.card
    if card.left_to_right:
        for category, points in zip(card.members, boxes, strict=True):
            left = card.left_of(category)
            if points is not None and left is not None and boxes[left] is None:
                raise MalformedInputError(
                    f"scorecard box {category.label} {show(points)}: filled while "
                    f"{left.label} is open; on the {card.title} card each row fills left "
                    f"to right"
                )
    for category, points in zip(card.members, boxes, strict=True):
        if points is None:
            continue
        if type(points) is not int:
            raise MalformedInputError(
                f"scorecard box {category.label} {show(points)}: {a_type(points)}, "
                f"not points; a box holds an int or None while open"
            )
        if points not in card.possible[category]:
            allowed = sorted(card.possible[category])
            raise MalformedInputError(
                f"scorecard box {category.label} {show(points)}: no roll scores {show(points)} "
                f"in {category.label}; possible values are {_brief(allowed)}"
            )


def _brief(values: list[int]) -> str:
    if len(values) <= 8:
        return ", ".join(map(str, values))
    return f"{', '.join(map(str, values[:4]))}, ..., {values[-1]}"


def _check_marks(instance: Scorecard, attribute: attrs.Attribute[Any], marks: object) -> None:
    if type(marks) is not int or marks < 0:
        raise MalformedInputError(
            f"bonus_marks {show(marks)}: not a non-negative int; bonus marks count extra Yahtzees"
        )
    if marks == 0:
        return
    card = instance.card
    boxes = instance.boxes
    yahtzees = card.yahtzees
    if not yahtzees or any(boxes[y] != 50 for y in yahtzees):
        label = "Yahtzee" if not yahtzees else yahtzees[0].label
        if len(yahtzees) > 1:
            each = ", ".join(f"{y.label} {show(boxes[y])}" for y in yahtzees)
            raise MalformedInputError(
                f"bonus_marks {show(marks)}: bonus marks need 50 in every Yahtzee box, which "
                f"hold {each}; a zero or open Yahtzee box earns no bonus"
            )
        held = None if not yahtzees else boxes[yahtzees[0]]
        raise MalformedInputError(
            f"bonus_marks {show(marks)}: bonus marks need 50 in the {label} box, which holds "
            f"{show(held)}; a zero or open {label} box earns no bonus"
        )
    room = sum(
        1
        for category, points in zip(card.members, boxes, strict=True)
        if points is not None
        and category not in yahtzees
        and points in card.five_of_a_kind[category]
    )
    if marks > room:
        raise MalformedInputError(
            f"bonus_marks {show(marks)}: only {room} filled boxes could hold an extra "
            f"{yahtzees[0].label}; each bonus mark comes with five equal dice written in another box"
        )


@attrs.frozen(repr=False, init=False)
class Scorecard:
    """One player's card: its boxes, each open or holding points, and the bonus marks.

    ``Scorecard()`` is the empty Classic card; ``Scorecard(card=YACHT)`` an empty
    Yacht card. A card can also be built directly from a mapping of filled boxes (or
    a sequence of values in card order, ``None`` for open), for tests and positions
    loaded from elsewhere; it is then validated. A mapping's boxes say which card it
    is on (``{YachtBox.YACHT: 50}`` is a Yacht card) unless ``card`` is given.

    Args:
        boxes: ``{Category: points}`` for the filled boxes, or one value per box in
            card order (13 on the Classic card).
        bonus_marks: How many 100-point Yahtzee bonuses have been earned.
        card: The card design (keyword only); see :class:`~yahtzee_rules.Card`.

    Raises:
        MalformedInputError: For a value no roll can put in its box, or bonus marks
            without 50 in the Yahtzee box, or more marks than filled boxes that could
            hold five equal dice.

    Attributes:
        boxes: One value per box in card order; ``None`` while a box is open.
        bonus_marks: The number of extra-Yahtzee bonus marks.
        card: The card design: :data:`~yahtzee_rules.CLASSIC` unless another is given.

    Examples:
        >>> card = Scorecard({Category.YAHTZEE: 50, Category.FOURS: 20}, bonus_marks=1)
        >>> card[Category.YAHTZEE], card.bonus_marks, len(card.open_categories)
        (50, 1, 11)
        >>> card == Scorecard(card.boxes, bonus_marks=1)
        True
        >>> Scorecard({Category.TWOS: 7})
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: scorecard box Twos 7: no roll scores 7 in Twos; possible values are 0, 2, 4, 6, 8, 10
    """

    boxes: tuple[int | None, ...] = attrs.field(validator=_check_boxes)
    bonus_marks: int = attrs.field(validator=_check_marks)
    card: Card

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __init__(
        self,
        boxes: Mapping[Any, int] | Iterable[int | None] | None = None,
        bonus_marks: int = 0,
        *,
        card: Card | None = None,
    ) -> None:
        self.__attrs_pre_init__()  # refuse a second __init__ before any work
        design = _card_for(boxes, card)
        converted = (None,) * len(design) if boxes is None else _to_boxes(boxes, design)
        self.__attrs_init__(converted, bonus_marks, design)

    def __getitem__(self, category: Box | str) -> int | None:
        index: int = category_arg(category, self.card)
        return self.boxes[index]

    def __iter__(self) -> Iterator[tuple[Box, int | None]]:
        return zip(self.card.members, self.boxes, strict=True)

    def __repr__(self) -> str:
        kind = self.card.boxes.__name__
        filled = ", ".join(
            f"{kind}.{c.name}: {p}"
            for c, p in zip(self.card.members, self.boxes, strict=True)
            if p is not None
        )
        marks = f", bonus_marks={self.bonus_marks}" if self.bonus_marks else ""
        if not filled:
            if self.card is CLASSIC and not marks:
                return "Scorecard()"
            design = "" if self.card is CLASSIC else f"card={self.card!r}"
            return f"Scorecard({design}{marks})"
        design = (
            "" if self.card is card_of(next(iter(self.card.boxes))) else f", card={self.card!r}"
        )
        return f"Scorecard({{{filled}}}{marks}{design})"

    def __str__(self) -> str:
        codes = tuple(box.code for box in self.card.members)
        text = _text.format_card(codes, self.boxes, self.bonus_marks)
        return text if self.card is CLASSIC else f"{self.card.name}:{text}"

    @classmethod
    def parse(cls, text: str) -> Scorecard:
        """Read a card from its notation, such as ``"4=12,fh=25"``; the inverse of ``str()``.

        A card other than Classic starts with its name and a colon: ``"yacht:ch=20"``.
        See :func:`yahtzee_rules.formats.notation.parse_scorecard`.

        Raises:
            MalformedInputError: For bad syntax or a card no game can reach.

        Examples:
            >>> card = Scorecard.parse("4=20,y=50,+1")
            >>> card.bonus_marks, str(card)
            (1, '4=20,y=50,+1')
            >>> Scorecard.parse("yacht:bs=30,ch=20")
            Scorecard({YachtBox.BIG_STRAIGHT: 30, YachtBox.CHOICE: 20})
        """
        text = _text.check_text("scorecard", text)
        name, colon, body = text.rpartition(":")
        design = CLASSIC
        if colon:
            try:
                design = Card.named(name)
            except MalformedInputError as error:
                raise _text.fail("scorecard", text, str(error)) from None
            if design is CLASSIC:
                raise _text.fail("scorecard", text, "a Classic card is written without a card name")
        return parse_card_of(design, body, "scorecard", text)

    def is_open(self, category: Box | str) -> bool:
        """Whether ``category`` is still open.

        Examples:
            >>> Scorecard().is_open(Category.CHANCE)
            True
        """
        return self.boxes[category_arg(category, self.card)] is None

    @property
    def open_categories(self) -> tuple[Box, ...]:
        """The open boxes in card order.

        Examples:
            >>> Scorecard({Category.ACES: 3}).open_categories[0]
            <Category.TWOS: 1>
        """
        return tuple(c for c, p in zip(self.card.members, self.boxes, strict=True) if p is None)

    @property
    def filled_categories(self) -> tuple[Box, ...]:
        """The filled boxes in card order.

        Examples:
            >>> Scorecard({Category.CHANCE: 20, Category.ACES: 3}).filled_categories
            (<Category.ACES: 0>, <Category.CHANCE: 12>)
        """
        return tuple(c for c, p in zip(self.card.members, self.boxes, strict=True) if p is not None)

    @property
    def turns_played(self) -> int:
        """How many boxes are filled, which is how many turns this card has taken.

        Examples:
            >>> Scorecard({Category.CHANCE: 20}).turns_played
            1
        """
        return len(self.boxes) - self.boxes.count(None)

    @property
    def is_complete(self) -> bool:
        """Whether every box is filled, so the card's game is over.

        Examples:
            >>> Scorecard().is_complete
            False
        """
        return None not in self.boxes

    def to_mapping(self) -> dict[Box, int]:
        """The filled boxes as a new dict from Category to points.

        Examples:
            >>> Scorecard({Category.FOURS: 12}).to_mapping()
            {<Category.FOURS: 3>: 12}
        """
        return {c: p for c, p in zip(self.card.members, self.boxes, strict=True) if p is not None}


#: A card built without validation, for values the rules engine produced itself (a fill
#: makes one): ``raw_card(boxes, bonus_marks, card)``.
raw_card: Callable[[tuple[int | None, ...], int, Card], Scorecard] = raw_builder(Scorecard)


EMPTY_CARD = raw_card((None,) * 13, 0, CLASSIC)
_EMPTY: dict[Card, Scorecard] = {CLASSIC: EMPTY_CARD}


def parse_card_of(design: Card, text: str, what: str, whole: str) -> Scorecard:
    """Read the boxes of a ``design`` card from notation without a card name."""
    codes = tuple(box.code for box in design.members)

    def build(boxes: tuple[int | None, ...], marks: int) -> Scorecard:
        return Scorecard(boxes, bonus_marks=marks, card=design)

    return _text.parse_card(text, what, whole, codes, build, empty_card(design))


def format_card_of(card: Scorecard) -> str:
    """The notation of ``card``'s boxes without a card name (as turns and games write it)."""
    codes = tuple(box.code for box in card.card.members)
    return _text.format_card(codes, card.boxes, card.bonus_marks)


def empty_card(card: Card) -> Scorecard:
    """The empty scorecard of ``card`` (one shared value per card design)."""
    found = _EMPTY.get(card)
    if found is None:
        found = _EMPTY.setdefault(card, raw_card((None,) * len(card), 0, card))
    return found
