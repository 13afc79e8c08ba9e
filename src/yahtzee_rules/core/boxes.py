"""The scorecard as data: boxes, and the :class:`Card` that lists a scorecard's boxes.

Every scorecard the library knows is a :class:`Card` value: which boxes it has (an
enumeration of :class:`Box` members, such as :class:`~yahtzee_rules.Category` for
Hasbro's Classic card), how each box scores each of the 252 rolls, which box is the
five-of-a-kind box that the extra-Yahtzee bonus and the Joker rule look at, and the
fixed values a Joker takes. Scoring, scorecards, totals, turns, games, records, the
formats and the solver read the card instead of assuming Classic, so adding a
scorecard is one module that defines its boxes and its card.

Examples:
    >>> from yahtzee_rules import CLASSIC, YACHT, Category, Dice
    >>> CLASSIC.name, len(CLASSIC), CLASSIC.yahtzee
    ('classic', 13, <Category.YAHTZEE: 11>)
    >>> CLASSIC.score(Dice("22333"), Category.FULL_HOUSE)
    25
    >>> YACHT.name, len(YACHT), [box.code for box in YACHT.upper]
    ('yacht', 12, ['1', '2', '3', '4', '5', '6'])
"""

from __future__ import annotations

import contextlib
import enum
import functools
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from gc import get_referents
from typing import Any, ClassVar, SupportsIndex, TypeVar

import attrs

from yahtzee_rules.core._shipped import CARD_MODULES as SHIPPED_MODULES
from yahtzee_rules.core._shipped import load as load_shipped_cards
from yahtzee_rules.core.dice import Dice, dice_index
from yahtzee_rules.support._frozen import reinit_error
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError
from yahtzee_rules.support.l10n import translations

__all__ = ["Box", "Card", "Section", "Switch", "register_card", "registered", "unregister_card"]


class Section(enum.Enum):
    """The two halves of a scorecard.

    Examples:
        >>> Section.UPPER.value
        'upper'
    """

    UPPER = "upper"
    LOWER = "lower"


class Switch(enum.Enum):
    """A house switch that changes how a card scores: each makes a card of its own.

    * ``FIVE_OF_A_KIND_FULL_HOUSE`` (``"5fh"``): five equal dice also count as a Full
      House, scoring what the card's Full House scores (Classic 25, Yatzy the total).
    * ``FOUR_OF_A_KIND_TWO_PAIRS`` (``"4k2p"``): four (or five) equal dice also count
      as Two Pairs on the Yatzy card, scoring the four matching dice.

    A card with switches is a card of its own (:meth:`Card.switched`), named after its
    base card and the switches' values (``"yatzy+5fh"``), so every format carries it.

    Examples:
        >>> Switch("5fh") is Switch.FIVE_OF_A_KIND_FULL_HOUSE
        True
    """

    FIVE_OF_A_KIND_FULL_HOUSE = "5fh"
    FOUR_OF_A_KIND_TWO_PAIRS = "4k2p"

    def __repr__(self) -> str:
        return f"Switch.{self.name}"


_B = TypeVar("_B", bound="Box")


class Box(enum.IntEnum):
    """The base of every scorecard's boxes: each card names its own as an enumeration.

    A box is an :class:`int` (its position in card order), so it can index tuples, but
    the library accepts only members of the card's own enumeration, never bare ints.
    Every member is true, the first included, so ``if turn.forced_category:`` works as
    it reads. Boxes of different cards are never equal, even at the same position, so a
    mapping keyed by one card's boxes never answers for another card's. :class:`~yahtzee_rules.Category` (Classic) and
    :class:`~yahtzee_rules.YachtBox` are the enumerations the library ships.

    Attributes:
        label: The printed name, such as ``"Full House"``, in English; :meth:`label_in`
            gives it in another language.
        section: :attr:`Section.UPPER` for the boxes that count one face, else
            :attr:`Section.LOWER`.
        face: The face an upper box counts (1 to 6), or ``None`` for a lower box.
        code: The short code used by notation and command lines (``"4"``, ``"fh"``).
        column: The score column the box is in, counted from 0: always 0 on a card with
            one column (every card but :data:`~yahtzee_rules.TRIPLE`).
        row: The box's place within its column, counted from 0.
        multiplier: What its column's total is multiplied by (1 on a one-column card).

    Examples:
        >>> from yahtzee_rules import Category
        >>> isinstance(Category.FOURS, Box), Category.FOURS.code, Category.FOURS.face
        (True, '4', 4)
        >>> from yahtzee_rules import YachtBox
        >>> Category.THREE_OF_A_KIND == 6, Category.THREE_OF_A_KIND == YachtBox.FULL_HOUSE
        (True, False)
    """

    label: str
    section: Section
    face: int | None
    code: str
    column: int
    row: int
    multiplier: int

    _names: ClassVar[dict[str, Any]]
    _upper_boxes: ClassVar[tuple[Any, ...]]
    _lower_boxes: ClassVar[tuple[Any, ...]]

    def __str__(self) -> str:
        return self.label

    def __eq__(self, other: object) -> bool:
        # A box equals an int of its position, but never a box of another card: Classic's
        # Three of a Kind and Yacht's Full House are both 6, yet different boxes.
        if isinstance(other, Box) and other.__class__ is not self.__class__:
            return False
        return int(self) == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    # The int's own hash, as a C slot: boxes are dict keys on every hot path.
    __hash__ = int.__hash__

    def __bool__(self) -> bool:
        # Every box is a real choice: ``if turn.forced_category:`` must hold for the first.
        return True

    def label_in(self, locale: str | None) -> str:
        """The printed name in ``locale``'s language: the name that language's players use.

        The catalogues look a label up in the context of its enumeration's class name
        (``Category``, ``YatzyBox``...), since a card may name a box its own way; a
        label a catalogue lacks (a card of your own) stays English. ``None`` and
        ``"en"`` give :attr:`label`. Codes are never translated.

        Raises:
            UnknownLocaleError: For a locale the library has no catalogue for (see
                :func:`~yahtzee_rules.support.l10n.resolve_locale`).

        Examples:
            >>> from yahtzee_rules import Category, YatzyBox
            >>> Category.YAHTZEE.label_in("de"), Category.FULL_HOUSE.label_in("sv")
            ('Kniffel', 'Kåk')
            >>> YatzyBox.TWO_PAIRS.label_in("da"), Category.FOURS.label_in(None)
            ('To par', 'Fours')
        """
        return translations(locale).pgettext(type(self).__name__, self.label)

    def score(self, dice: Dice) -> int:
        """The plain value of this box for ``dice``, as its card scores it.

        Examples:
            >>> from yahtzee_rules import Category, Dice
            >>> Category.FULL_HOUSE.score(Dice("22333"))
            25
        """
        return card_of(self).table[dice_index(dice)][self]

    @property
    def is_upper(self) -> bool:
        """Whether this box counts one face (Aces to Sixes).

        Examples:
            >>> from yahtzee_rules import Category
            >>> Category.ACES.is_upper, Category.CHANCE.is_upper
            (True, False)
        """
        return self.section is Section.UPPER

    @classmethod
    def upper(cls: type[_B]) -> tuple[_B, ...]:
        """The boxes that count one face, in card order.

        Examples:
            >>> from yahtzee_rules import Category
            >>> len(Category.upper())
            6
        """
        return cls._upper_boxes

    @classmethod
    def lower(cls: type[_B]) -> tuple[_B, ...]:
        """The other boxes, in card order.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Category.lower()[0]
            <Category.THREE_OF_A_KIND: 6>
        """
        return cls._lower_boxes

    @classmethod
    def for_face(cls: type[_B], face: int) -> _B:
        """The upper box that counts ``face``.

        Raises:
            MalformedInputError: If ``face`` is not an int from 1 to 6.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Category.for_face(6)
            <Category.SIXES: 5>
        """
        if type(face) is not int or not 1 <= face <= 6:
            raise MalformedInputError(
                f"face {show(face)}: not a die face; faces are the ints 1 to 6"
            )
        box: _B
        for box in cls._upper_boxes:
            if box.face == face:
                return box
        raise MalformedInputError(  # pragma: no cover - every shipped card has six upper boxes
            f"face {face}: the {cls.__name__} boxes have no upper box for it"
        )

    @classmethod
    def parse(cls: type[_B], text: str) -> _B:
        """Read a box from its member name, label or short code, ignoring case.

        Accepts ``"FULL_HOUSE"``, ``"full house"``, ``"Full-House"`` and ``"fh"``;
        upper boxes also accept their face (``"4"``) and ``"ones"`` for Aces.

        Raises:
            MalformedInputError: If the text names no box.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Category.parse("ones"), Category.parse("4"), Category.parse("3k")
            (<Category.ACES: 0>, <Category.FOURS: 3>, <Category.THREE_OF_A_KIND: 6>)
            >>> Category.parse("LARGE_STRAIGHT")
            <Category.LARGE_STRAIGHT: 10>
        """
        if not isinstance(text, str):
            raise MalformedInputError(
                f"category {show(text)}: not text; name a box such as 'fours' or 'fh'"
            )
        key = re.sub(r"[\s_\-]+", " ", text.strip().lower())
        found: _B | None = cls._names.get(key)
        if found is None:
            choices = ", ".join(box.code for box in cls)
            raise MalformedInputError(
                f"category {show(text)}: no such box; use a name such as 'full house' "
                f"or a code ({choices})"
            )
        return found


def describe_boxes(
    boxes: type[Box],
    labels: tuple[str, ...],
    codes: tuple[str, ...],
    *,
    faces: tuple[int | None, ...],
    aliases: dict[str, str] | None = None,
    columns: tuple[int, ...] | None = None,
    multipliers: tuple[int, ...] = (1,),
) -> None:
    """Give each member of a new box enumeration its label, code, section and face.

    Called once by the module that defines a card's boxes; ``faces`` holds the face an
    upper box counts, ``None`` for a lower box; ``aliases`` maps extra names to codes.
    ``columns`` gives each box's score column (all 0 when left out) and
    ``multipliers`` what each column's total is multiplied by.
    """
    members = tuple(boxes)
    if columns is None:
        columns = (0,) * len(members)
    if not len(members) == len(labels) == len(codes) == len(faces) == len(columns):
        raise ValueError(f"{boxes.__name__}: one label, code, face and column per box")
    if sorted(set(columns)) != list(range(len(multipliers))):
        raise ValueError(f"{boxes.__name__}: columns must be 0 to {len(multipliers) - 1}")
    rows = [0] * len(multipliers)
    for box, label, code, face, column in zip(members, labels, codes, faces, columns, strict=True):
        box.label = label
        box.code = code
        box.face = face
        box.section = Section.UPPER if face is not None else Section.LOWER
        box.column = column
        box.row = rows[column]
        box.multiplier = multipliers[column]
        rows[column] += 1
    boxes._upper_boxes = tuple(box for box in members if box.face is not None)
    boxes._lower_boxes = tuple(box for box in members if box.face is None)
    names: dict[str, Box] = {}
    for box in members:
        names[box.name.lower().replace("_", " ")] = box
        names[box.label.lower()] = box
        names[box.code] = box
    for alias, code in (aliases or {}).items():
        names[alias] = names[code]
    boxes._names = names


_DEFAULT_CARDS: dict[type[Box], Card] = {}
_NAMED_CARDS: dict[str, Card] = {}
_RULESETS: dict[str, tuple[NamedRuleset, ...]] = {}
"""The named rulesets of each registered card, by the card's name, in registration order."""
_ORDER: dict[str, tuple[int, int]] = {}
"""Where each registered card is listed: the place of the shipped module that registered
it in ``_shipped.CARD_MODULES`` (past the end for any other module),
then when it was registered (a count)."""
_STATE = [0]
"""The number of registrations made so far."""
_WATCHERS: list[Callable[[], object]] = []
"""Called after every registration and unregistration (see :func:`watch_registry`)."""


@attrs.frozen
class NamedRuleset:
    """A named ruleset of a card as plain data: its name, one line about it, and its fields.

    ``fields`` are the :class:`~yahtzee_rules.Rules` arguments other than the card (such
    as ``{"joker": "none", "upper_bonus": 50}``); the rules layer builds the ruleset from
    them, so a card's module, below the rules, describes its rulesets without importing
    them. :func:`register_card` makes these from the ``rulesets`` it is given.

    Examples:
        >>> NamedRuleset("yatzy", "Scandinavian Yatzy", (("upper_bonus", 50),)).fields
        (('upper_bonus', 50),)
    """

    name: str
    description: str | None
    fields: tuple[tuple[str, object], ...]


_CHECKS: list[Callable[[Card, tuple[NamedRuleset, ...]], object]] = []


def check_rulesets_with(check: Callable[[Card, tuple[NamedRuleset, ...]], object]) -> None:
    """Have :func:`register_card` run ``check`` on a card's rulesets before registering it.

    The rules layer, above the cards, installs the check that makes each ruleset (so a
    ruleset that is no :class:`~yahtzee_rules.Rules` is refused as it is registered);
    the cards registered before it was installed are checked now. The shipped cards
    not loaded yet are not loaded for it: each is checked as it registers, when first
    asked for by name (so a first game of Classic never builds the Yatzy cards).
    """
    for name in tuple(_NAMED_CARDS):
        check(_NAMED_CARDS[name], _RULESETS[name])
    _CHECKS.append(check)


def _check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not name or name != name.strip().lower() or "," in name:
        raise ValueError(
            f"{what} {show(name)}: not a lower-case name without spaces at its ends or commas"
        )
    return name


def _rulesets_of(
    rulesets: Mapping[str, tuple[str | None, Mapping[str, object]]] | None,
) -> tuple[NamedRuleset, ...]:
    entries = []
    for name, entry in (rulesets or {}).items():
        _check_name(name, "ruleset name")
        try:
            description, fields = entry
            pairs = tuple((str(key), value) for key, value in dict(fields).items())
        except (TypeError, ValueError):
            raise ValueError(
                f"ruleset {name!r}: not a pair of a description and a mapping of Rules fields"
            ) from None
        if description is not None and not isinstance(description, str):
            raise ValueError(f"ruleset {name!r}: the description {show(description)} is not text")
        if any(key == "card" for key, _ in pairs):
            raise ValueError(f"ruleset {name!r}: the card is the one registered; leave 'card' out")
        entries.append(NamedRuleset(name, description, pairs))
    return tuple(entries)


def register_card(
    card: Card,
    *,
    rulesets: Mapping[str, tuple[str | None, Mapping[str, object]]] | None = None,
) -> Card:
    """Make ``card`` and its named rulesets known by name; return the card.

    This is the one call a card's module ends with (for a card the library ships, its
    module is also one line of ``yahtzee_rules.core._shipped.CARD_MODULES``). It makes
    the card known to :meth:`Card.named` and the formats, and its rulesets to
    :meth:`Rules.from_name <yahtzee_rules.Rules.from_name>`, :meth:`Rules.names
    <yahtzee_rules.Rules.names>` and :meth:`Rules.describe <yahtzee_rules.Rules.describe>`.

    Args:
        card: The card.
        rulesets: Each named ruleset of the card, in order: its name, then a pair of a
            one-line description (``None`` to have one composed) and the
            :class:`~yahtzee_rules.Rules` arguments other than ``card`` (a plain
            mapping, such as ``{"joker": "none", "upper_bonus": 50}``). The first is the
            card's usual ruleset (:meth:`Rules.for_card
            <yahtzee_rules.Rules.for_card>`), which the card's name also names. Left
            out, the card's usual ruleset is the rules' default for it (the Classic
            bonuses and the forced Joker, or with no five-of-a-kind box no bonuses and
            no Joker), named by the card's name. A ruleset named after a Joker rule
            (``"forced"``, ``"free-choice"``...) is the Classic card's, named so.

    Registering the same card again changes nothing. The rules layer checks each
    ruleset as it is registered (:func:`check_rulesets_with`).

    Raises:
        ValueError: If another card already has that name, a ruleset's name is taken,
            or a ruleset is no :class:`~yahtzee_rules.Rules` of the card.

    Examples:
        >>> from yahtzee_rules import Rules
        >>> from yahtzee_rules.core.yacht import YachtBox, yacht_scores
        >>> plain = Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores)
        >>> usual = {"joker": "none", "yahtzee_bonus": 0}  # no five-of-a-kind box: no Joker
        >>> with registered(plain, rulesets={"plain": ("Yacht boxes, no bonus", usual)}):
        ...     Rules.from_name("plain").card is plain, Rules.describe("plain")
        (True, 'Yacht boxes, no bonus')
        >>> Card.names()[-1]
        'triple-in-order'
    """
    rank = _module_rank(sys._getframe(1).f_globals.get("__name__"))
    if rank == len(SHIPPED_MODULES):
        load_shipped_cards()  # so that a name a shipped card has is refused now, not then
    entries = _rulesets_of(rulesets)
    if not isinstance(card, Card):
        raise ValueError(f"card {show(card)}: not a Card")
    if _NAMED_CARDS.get(card.name, card) is not card:
        raise ValueError(f"card {card.name!r}: a card of that name is registered already")
    if card.name in _NAMED_CARDS:
        return card  # registered already
    taken = {entry.name for entries in _RULESETS.values() for entry in entries}
    for entry in entries:
        if entry.name in taken or (entry.name != card.name and entry.name in _NAMED_CARDS):
            raise ValueError(
                f"ruleset {entry.name!r}: a ruleset or card of that name is registered"
            )
    if card.name in taken:
        raise ValueError(f"card {card.name!r}: a ruleset of that name is registered already")
    for check in _CHECKS:
        check(card, entries)
    _NAMED_CARDS[card.name] = card
    _RULESETS[card.name] = entries
    _ORDER[card.name] = (rank, _STATE[0])
    _STATE[0] += 1
    for watcher in _WATCHERS:
        watcher()
    return card


def unregister_card(card: Card) -> None:
    """Forget ``card`` and its named rulesets, as :func:`register_card` made them known.

    For tests and tools that register a card for a while (:func:`registered` does both).
    A card the library ships cannot be unregistered.

    Raises:
        ValueError: If ``card`` is not registered, or is a card the library ships.

    Examples:
        >>> from yahtzee_rules.core.yacht import YachtBox, yacht_scores
        >>> plain = Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores)
        >>> _ = register_card(plain)
        >>> unregister_card(plain)
        >>> plain.is_registered
        False
    """
    if not isinstance(card, Card) or _NAMED_CARDS.get(card.name) is not card:
        raise ValueError(f"card {show(card)}: not registered")
    if _ORDER[card.name][0] < len(SHIPPED_MODULES):
        raise ValueError(f"card {card.name!r}: a card the library ships stays registered")
    del _NAMED_CARDS[card.name], _RULESETS[card.name], _ORDER[card.name]
    if _DEFAULT_CARDS.get(card.boxes) is card:
        del _DEFAULT_CARDS[card.boxes]
    for watcher in _WATCHERS:
        watcher()


@contextlib.contextmanager
def registered(
    card: Card,
    *,
    rulesets: Mapping[str, tuple[str | None, Mapping[str, object]]] | None = None,
) -> Iterator[Card]:
    """Register ``card`` (as :func:`register_card` does) for the ``with`` block, then forget it.

    Examples:
        >>> from yahtzee_rules.core.yacht import YachtBox, yacht_scores
        >>> plain = Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores)
        >>> with registered(plain):
        ...     Card.named("plain") is plain
        True
        >>> "plain" in Card.names()
        False
    """
    register_card(card, rulesets=rulesets)
    try:
        yield card
    finally:
        unregister_card(card)


def check_registered(card: Card, what: str) -> Card:
    """``card`` if it :attr:`~Card.is_registered`; else refuse to write ``what`` with it.

    The formats (notation, JSON, share codes) call this before writing a card's name.

    Raises:
        MalformedInputError: For a card that reading its name back would not give.

    Examples:
        >>> from yahtzee_rules.core.yacht import YachtBox, yacht_scores
        >>> plain = Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores)
        >>> check_registered(plain, "JSON")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: card 'plain' (Plain): not registered, so JSON cannot name it; a format writes a card by its name, and Card.named('plain') gives no card; register it under a name of its own with register_card before writing it
    """
    if card.is_registered:
        return card
    found = _NAMED_CARDS.get(card.name)
    other = "no card" if found is None else f"another card ({found.title})"
    raise MalformedInputError(
        f"card {card.name!r} ({card.title}): not registered, so {what} cannot name it; a "
        f"format writes a card by its name, and Card.named({card.name!r}) gives {other}; "
        f"register it under a name of its own with register_card before writing it"
    )


def _module_rank(module: object) -> int:
    """The place of a shipped card module in the one list of them; past the end for others."""
    name = str(module)
    return SHIPPED_MODULES.index(name) if name in SHIPPED_MODULES else len(SHIPPED_MODULES)


def watch_registry(watcher: Callable[[], object]) -> None:
    """Have ``watcher`` called after every registration and unregistration of a card.

    Readers that derive tables from the registry (the rules' table of named rulesets)
    drop them then, and build them again when next asked.
    """
    _WATCHERS.append(watcher)


def registered_rulesets() -> tuple[tuple[Card, tuple[NamedRuleset, ...]], ...]:
    """Every registered card, in :meth:`Card.names` order, with its named rulesets."""
    return tuple((_NAMED_CARDS[name], _RULESETS[name]) for name in Card.names(switched=True))


def card_of(box: Box) -> Card:
    """The card a box belongs to: the first card made with its enumeration.

    Raises:
        MalformedInputError: If ``box`` is not a box of any card.

    Examples:
        >>> from yahtzee_rules import Category
        >>> card_of(Category.FOURS).name
        'classic'
    """
    card = _DEFAULT_CARDS.get(type(box))
    if card is None:
        raise MalformedInputError(
            f"box {show(box)}: not a box of any card; use a member such as Category.FOURS"
        )
    return card


def _joker_pairs(value: Any) -> tuple[tuple[Box, int], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    try:
        pairs = [(box, points) for box, points in items]
        return tuple(sorted(pairs))
    except (TypeError, ValueError):
        raise MalformedInputError(
            f"card joker_values {show(value)}: not pairs of a box and its points; give "
            f"a mapping such as {{Category.FULL_HOUSE: 25}}"
        ) from None


def _box_tuple(value: Iterable[Box]) -> tuple[Box, ...]:
    return tuple(value)


def _kinds_boxes(card: Card) -> tuple[Box, ...]:
    """The lower boxes that score five equal dice at their total, but not every roll so.

    These are the "of a kind" boxes the kinds-first Joker fills first (Classic's Three
    and Four of a Kind; Chance totals every roll). Nothing on a card with no
    five-of-a-kind box, or whose fields do not describe a card (the checks say why).
    """
    boxes = card.boxes
    if card.yahtzee is None or not (isinstance(boxes, type) and issubclass(boxes, Box)):
        return ()
    try:
        fives = [tuple(card.scorer((face,) * 5)) for face in range(1, 7)]
        rows = [
            (sum(d.faces), row) for d, row in zip(Dice.all(), scored_rows(card.scorer), strict=True)
        ]
        return tuple(
            box
            for box in boxes
            if box.face is None
            and box is not card.yahtzee
            and all(row[box] == 5 * face for face, row in enumerate(fives, 1))
            and any(row[box] != total for total, row in rows)
        )
    except Exception:  # a scorer that fails is reported by the card's own checks
        return ()


def _rows(scorer: Callable[[tuple[int, ...]], Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(scorer(dice.faces)) for dice in Dice.all())


_cached_rows = functools.lru_cache(maxsize=64)(_rows)


def scored_rows(
    scorer: Callable[[tuple[int, ...]], Iterable[int]],
) -> tuple[tuple[int, ...], ...]:
    """What ``scorer`` gives each of the 252 rolls, in :meth:`Dice.all` order.

    A card's scorer is a pure function of the faces (the card keeps these rows and
    never calls it again), so the rows of one scorer are worked out once for every
    card that shares it, and for the Joker's default boxes (``_kinds_boxes``) too: the
    cards the library ships are built on import. An unhashable scorer is called anew.
    """
    try:
        return _cached_rows(scorer)
    except TypeError:  # unhashable, or the scorer's own error: raised again if it is
        return _rows(scorer)


def _switch_tuple(value: Iterable[Switch]) -> tuple[Switch, ...]:
    return tuple(value)


def _check_design(card: Card) -> None:
    """Raise the reason ``card``'s fields describe no card, if they do not."""
    if not isinstance(card.name, str) or not card.name.strip():
        raise MalformedInputError(
            f"card name {show(card.name)}: not a non-blank string; a card needs a short name "
            f"such as 'classic'"
        )
    if not isinstance(card.title, str) or not card.title.strip():
        raise MalformedInputError(
            f"card title {show(card.title)}: not a non-blank string; a card needs a printed "
            f"name such as 'Classic'"
        )
    boxes = card.boxes
    if not (isinstance(boxes, type) and issubclass(boxes, Box) and len(boxes)):
        raise MalformedInputError(
            f"card boxes {show(boxes)}: not an enumeration of boxes; use a Box subclass "
            f"such as Category"
        )
    if not callable(card.scorer):
        raise MalformedInputError(
            f"card scorer {show(card.scorer)}: not callable; the scorer takes five sorted "
            f"faces and gives every box's points"
        )
    if type(card.left_to_right) is not bool:
        raise MalformedInputError(
            f"card left_to_right {show(card.left_to_right)}: not a bool; True makes each "
            f"row fill left to right"
        )
    if card.yahtzee is not None and not isinstance(card.yahtzee, boxes):
        raise MalformedInputError(
            f"card yahtzee {show(card.yahtzee)}: not one of the card's {boxes.__name__} boxes; "
            f"give the card's five-of-a-kind box, or None"
        )
    for box in card.joker_first:
        if not isinstance(box, boxes) or box.face is not None:
            raise MalformedInputError(
                f"card joker_first {show(box)}: not a lower box of the card's "
                f"{boxes.__name__} boxes; give the boxes an extra Yahtzee fills first under "
                f"the kinds-first Joker, such as Category.THREE_OF_A_KIND"
            )
    if card.base is not None and not (
        isinstance(card.base, Card) and card.base.boxes is boxes and card.base.base is None
    ):
        raise MalformedInputError(
            f"card base {show(card.base)}: not a card without switches of the same boxes; "
            f"a switched card names the card it changes"
        )
    if any(not isinstance(switch, Switch) for switch in card.switches) or (
        bool(card.switches) != (card.base is not None)
    ):
        raise MalformedInputError(
            f"card switches {show(card.switches)}: not Switch values on a card with a base; "
            f"a switched card has a base card and at least one Switch"
        )
    for box, points in card.joker_values:
        if not isinstance(box, boxes) or type(points) is not int or points < 0:
            raise MalformedInputError(
                f"card joker value {show((box, points))}: not one of the card's "
                f"{boxes.__name__} boxes with a non-negative int; Joker values are "
                f"fixed points such as (Category.FULL_HOUSE, 25)"
            )


@attrs.frozen(repr=False, eq=False)
class Card:
    """A scorecard's design: its boxes, how they score, and its five-of-a-kind box.

    A card holds no points; a :class:`~yahtzee_rules.Scorecard` is one player's
    filling of a card, and :class:`~yahtzee_rules.Rules` adds the bonuses and the
    Joker rule. Derived tables (every box's score for each of the 252 rolls, every
    value a box can hold) are computed once, when the card is made. A card is a
    design, compared by identity like an enumeration member: each card the library
    ships exists once, and pickles as its name.

    Args:
        name: A short lower-case name, such as ``"classic"``.
        title: The printed name, such as ``"Classic"``.
        boxes: The enumeration of the card's boxes, in card order.
        scorer: Given the five faces (sorted), the points of every box, in card order.
        yahtzee: The box that five equal dice score 50 in, which the extra-Yahtzee
            bonus and the Joker rule look at; ``None`` when the card has none.
        joker_values: Boxes whose Joker value is fixed (Classic: Full House 25, Small
            Straight 30, Large Straight 40); other boxes take their usual score.
        joker_first: The lower boxes an extra Yahtzee must fill first under
            :attr:`~yahtzee_rules.JokerRule.KINDS_FIRST` once its upper box is filled
            (Classic: Three and Four of a Kind); empty, that Joker rule is the forced
            one. By default, the lower boxes that score five equal dice at their total
            but not every roll so (Chance does).
        base: For a card with house switches, the card it changes; else ``None``.
        switches: The :class:`Switch` values that make this card differ from ``base``.
        left_to_right: On a card of several columns, whether each row fills left to
            right (keyword only): a box opens once the box to its left is filled.
            ``False``, every open box may be filled in any order.

    Raises:
        MalformedInputError: For a blank name or title, boxes that are not a
            :class:`Box` enumeration, a scorer that is not callable or does not give one
            value per box, or a five-of-a-kind box or Joker value that is not one of
            the card's boxes.

    Attributes:
        members: The boxes in card order, as a tuple.
        table: For each roll (in :meth:`Dice.all` order), the points of every box.
        possible: For each box, every value it can hold: some roll's score there, or
            (on a card with a five-of-a-kind box) a fixed Joker value, or the 0 a Joker
            can write in an upper box or a fixed-value box.
        five_of_a_kind: For each box, every value five equal dice can write there under
            some Joker rule: their plain score, a fixed Joker value, or such a 0.
        columns: The boxes of each score column, in card order: one column on every
            card but :data:`~yahtzee_rules.TRIPLE`, which has three.
        multipliers: What each column's total is multiplied by (``(1,)`` on a
            one-column card).
        yahtzees: The five-of-a-kind box of every column (the boxes in the row of
            ``yahtzee``), or ``()`` when the card has none. An extra Yahtzee is five
            equal dice once all of them are filled.

    Examples:
        >>> from yahtzee_rules import CLASSIC, Category
        >>> sorted(CLASSIC.possible[Category.FULL_HOUSE])
        [0, 25]
        >>> CLASSIC.upper[-1], CLASSIC.boxes is Category
        (<Category.SIXES: 5>, True)
        >>> import attrs
        >>> attrs.evolve(CLASSIC, yahtzee=Category.CHANCE).yahtzee
        <Category.CHANCE: 12>
        >>> attrs.evolve(CLASSIC, yahtzee=3)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: card yahtzee 3: not one of the card's Category boxes; give the card's five-of-a-kind box, or None
    """

    name: str
    title: str
    boxes: type[Box]
    scorer: Callable[[tuple[int, ...]], tuple[int, ...]] = attrs.field(eq=False)
    yahtzee: Box | None = None
    joker_values: tuple[tuple[Box, int], ...] = attrs.field(default=(), converter=_joker_pairs)
    joker_first: tuple[Box, ...] = attrs.field(
        default=attrs.Factory(_kinds_boxes, takes_self=True),
        converter=_box_tuple,
    )
    base: Card | None = attrs.field(default=None, kw_only=True)
    switches: tuple[Switch, ...] = attrs.field(default=(), kw_only=True, converter=_switch_tuple)
    left_to_right: bool = attrs.field(default=False, kw_only=True)
    members: tuple[Box, ...] = attrs.field(init=False, eq=False)
    table: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False)
    possible: tuple[frozenset[int], ...] = attrs.field(init=False, eq=False)
    five_of_a_kind: tuple[frozenset[int], ...] = attrs.field(init=False, eq=False)
    columns: tuple[tuple[Box, ...], ...] = attrs.field(init=False, eq=False)
    multipliers: tuple[int, ...] = attrs.field(init=False, eq=False)
    yahtzees: tuple[Box, ...] = attrs.field(init=False, eq=False)
    _by_face: tuple[tuple[Box, ...], ...] = attrs.field(init=False, eq=False)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __attrs_post_init__(self) -> None:
        _check_design(self)
        members = tuple(self.boxes)
        table = scored_rows(self.scorer)
        if any(len(row) != len(members) for row in table):
            raise MalformedInputError(f"card {self.name}: the scorer must give one value per box")
        # A box holds what some roll scores there; with a five-of-a-kind box, also what
        # a Joker writes: a fixed Joker value, or 0 (an upper box under the forced
        # Joker's last resort, a fixed-value box before the face box is filled under
        # the free-choice Joker). No Joker writes 0 anywhere else: Chance never holds 0.
        possible = [{row[box] for row in table} for box in members]
        fives = [
            {table[dice_index(Dice([face] * 5))][box] for face in range(1, 7)} for box in members
        ]
        if self.yahtzee is not None:
            fixed = dict(self.joker_values)
            for box in members:
                if box in fixed:
                    possible[box].update((fixed[box], 0))
                    fives[box].update((fixed[box], 0))
                elif box.face is not None:
                    possible[box].add(0)
                    fives[box].add(0)
        columns = tuple(
            tuple(box for box in members if box.column == column)
            for column in range(1 + max(box.column for box in members))
        )
        yahtzee = self.yahtzee
        yahtzees = () if yahtzee is None else tuple(b for b in members if b.row == yahtzee.row)
        by_face = tuple(tuple(box for box in members if box.face == face) for face in range(7))
        setter = object.__setattr__
        _DEFAULT_CARDS.setdefault(self.boxes, self)
        setter(self, "columns", columns)
        setter(self, "multipliers", tuple(column[0].multiplier for column in columns))
        setter(self, "yahtzees", yahtzees)
        setter(self, "_by_face", by_face)
        setter(self, "members", members)
        setter(self, "table", table)
        setter(self, "possible", tuple(frozenset(v) for v in possible))
        setter(self, "five_of_a_kind", tuple(frozenset(v) for v in fives))

    def __repr__(self) -> str:
        if self.base is not None:
            return f"Card.named({self.name!r})"
        return self.name.upper().replace("-", "_")

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # A registered card pickles as its name and unpickles as the same object, so a
        # ruleset sent to another process still plays the card its name says.
        if _NAMED_CARDS.get(self.name) is self:
            return (Card.named, (self.name,))
        return super().__reduce_ex__(protocol)

    @staticmethod
    def named(name: str) -> Card:
        """The card called ``name`` (``"classic"``, ``"yacht"``).

        Raises:
            MalformedInputError: If no card has that name.

        Examples:
            >>> Card.named("yacht")
            YACHT
        """
        found = _NAMED_CARDS.get(name) if isinstance(name, str) else None
        if found is None:
            load_shipped_cards()
            found = _NAMED_CARDS.get(name) if isinstance(name, str) else None
        if found is None:
            shown = repr(name)[:60]
            raise MalformedInputError(
                f"card {shown}: no such card; cards are {', '.join(sorted(_NAMED_CARDS))}"
            )
        return found

    @property
    def is_registered(self) -> bool:
        """Whether :meth:`named` gives this card back from its name, as the formats need.

        Every card the library ships is registered. A card built by hand plays, but it
        cannot be written to notation, JSON or a share code: those write the card's
        name, and reading the name back would give another card, or none.

        Examples:
            >>> Card.named("yatzy").is_registered
            True
            >>> from yahtzee_rules.core.yacht import YachtBox, yacht_scores
            >>> Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores).is_registered
            False
        """
        load_shipped_cards()
        found = _NAMED_CARDS.get(self.name)
        return found is self or (found is not None and found == self)

    @staticmethod
    def names(*, switched: bool = False) -> tuple[str, ...]:
        """The names of every card: the shipped cards in their order, then others as made.

        Args:
            switched: Also name the cards with house switches (:meth:`switched`).

        Examples:
            >>> Card.names()
            ('classic', 'yacht', 'yatzy', 'triple', 'triple-in-order')
            >>> Card.names(switched=True)[:2]
            ('classic', 'classic+5fh')
        """
        load_shipped_cards()
        made = [name for name, card in _NAMED_CARDS.items() if switched or card.base is None]
        return tuple(sorted(made, key=_ORDER.__getitem__))

    def switched(self, *switches: Switch | str) -> Card:
        """This card with house ``switches`` on: the registered card that scores so.

        Switches are :class:`Switch` values or their text (``"5fh"``); the order does
        not matter, and no switches give the base card back.

        Raises:
            MalformedInputError: For a switch the library does not offer on this card.

        Examples:
            >>> from yahtzee_rules import YATZY
            >>> YATZY.switched("4k2p", Switch.FIVE_OF_A_KIND_FULL_HOUSE)
            Card.named('yatzy+5fh+4k2p')
            >>> YATZY.switched("5fh").switched() is YATZY
            True
        """
        base = self.base or self
        wanted: set[Switch] = set()
        for switch in switches:
            try:
                wanted.add(Switch(switch))
            except ValueError:
                raise MalformedInputError(
                    f"switch {show(switch)}: no such house switch; switches are "
                    f"{', '.join(repr(s.value) for s in Switch)}"
                ) from None
        if not wanted:
            return base
        for card in _NAMED_CARDS.values():
            if card.base is base and set(card.switches) == wanted:
                return card
        offered = sorted(
            {s.value for c in _NAMED_CARDS.values() if c.base is base for s in c.switches}
        )
        raise MalformedInputError(
            f"switches {', '.join(sorted(s.value for s in wanted))!r}: not offered on the "
            f"{base.title} card; it offers {', '.join(offered) or 'none'}"
        )

    def __len__(self) -> int:
        return len(self.boxes)

    def __iter__(self) -> Iterator[Box]:
        return iter(self.members)

    @property
    def upper(self) -> tuple[Box, ...]:
        """The boxes that count one face and make up the upper subtotal.

        Examples:
            >>> from yahtzee_rules import CLASSIC
            >>> len(CLASSIC.upper)
            6
        """
        return self.boxes.upper()

    @property
    def lower(self) -> tuple[Box, ...]:
        """The other boxes.

        Examples:
            >>> from yahtzee_rules import CLASSIC
            >>> CLASSIC.lower[-1]
            <Category.CHANCE: 12>
        """
        return self.boxes.lower()

    def left_of(self, box: Box) -> Box | None:
        """The box to the left of ``box`` in its row, or ``None`` in the first column.

        Examples:
            >>> from yahtzee_rules import CLASSIC, TRIPLE, Category, TripleBox
            >>> TRIPLE.left_of(TripleBox.FOURS_X3), CLASSIC.left_of(Category.FOURS)
            (<TripleBox.FOURS_X2: 16>, None)
        """
        if not box.column:
            return None
        return self.columns[box.column - 1][box.row]

    def face_boxes(self, face: int) -> tuple[Box, ...]:
        """The upper boxes that count ``face``: one per column, in card order.

        Raises:
            MalformedInputError: If ``face`` is not an int from 1 to 6.

        Examples:
            >>> from yahtzee_rules import CLASSIC, TRIPLE
            >>> CLASSIC.face_boxes(4)
            (<Category.FOURS: 3>,)
            >>> [box.code for box in TRIPLE.face_boxes(4)]
            ['4.1', '4.2', '4.3']
        """
        if type(face) is int and 1 <= face <= 6:
            return self._by_face[face]
        raise MalformedInputError(f"face {show(face)}: not a die face; faces are the ints 1 to 6")

    def score(self, dice: Dice, box: Box) -> int:
        """The plain value of ``box`` for ``dice`` on this card: no Joker, no bonus.

        Examples:
            >>> from yahtzee_rules import YACHT, YachtBox, Dice
            >>> YACHT.score(Dice("22333"), YachtBox.FULL_HOUSE)
            13
        """
        return self.table[dice_index(dice)][box]
