"""Rulesets as data: the scorecard, which Joker rule applies and what the bonuses are worth.

Examples:
    >>> from yahtzee_rules import Rules, JokerRule
    >>> Rules()
    Rules(joker=JokerRule.FORCED, upper_bonus=35, upper_bonus_threshold=63, yahtzee_bonus=100)
    >>> Rules(joker=JokerRule.FREE_CHOICE).joker is JokerRule.FREE_CHOICE
    True
    >>> Rules.from_name("free")
    Rules(joker=JokerRule.FREE_CHOICE, upper_bonus=35, upper_bonus_threshold=63, yahtzee_bonus=100)
    >>> Rules.from_name("yacht")
    Rules.from_name('yacht')
"""

from __future__ import annotations

import enum
import re
from gc import get_referents
from typing import Any, cast

import attrs

from yahtzee_rules.core.boxes import (
    Box,
    Card,
    NamedRuleset,
    check_rulesets_with,
    registered_rulesets,
    watch_registry,
)
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.support import _text
from yahtzee_rules.support._frozen import reinit_error
from yahtzee_rules.support._limits import MAX_BONUS
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError
from yahtzee_rules.support.l10n import translations

__all__ = ["JokerRule", "Rules", "TieRule"]


class JokerRule(enum.Enum):
    """How an extra Yahtzee (five equal dice with the Yahtzee box filled) may be placed.

    * ``FORCED``: Hasbro's Classic order, the default. The matching upper box if
      open; else any open lower box at Joker values (Full House 25, Small
      Straight 30, Large Straight 40, the dice total elsewhere); else any open
      upper box for zero.
    * ``FREE_CHOICE``: any open box. Upper boxes score as usual; Full House and
      the straights take their Joker values only once the matching upper box is
      filled (otherwise they score 0); Three/Four of a Kind and Chance score the
      dice total. This is the rule behind the published optimum of 254.5896.
    * ``NONE``: no Joker at all; an extra Yahtzee scores like any other roll.
    * ``KINDS_FIRST``: Hasbro's current instructions, as rulebook 001 reports them
      ("Hasbro's current instructions have you fill Three of a kind or Four of a kind
      first, and only then Chance or another combination"). The matching upper box if
      open; else Three or Four of a Kind (the dice total) while either is open; else
      any other open lower box at Joker values (Full House 25, Small Straight 30,
      Large Straight 40, Chance the dice total); else any open upper box for zero.
      The boxes taken first are the card's :attr:`~yahtzee_rules.Card.joker_first`.

    The 100-point bonus mark does not depend on the Joker rule.

    Examples:
        >>> JokerRule("free-choice") is JokerRule.FREE_CHOICE
        True
        >>> JokerRule("kinds-first") is JokerRule.KINDS_FIRST
        True
    """

    FORCED = "forced"
    FREE_CHOICE = "free-choice"
    NONE = "none"
    KINDS_FIRST = "kinds-first"

    def __repr__(self) -> str:
        return f"JokerRule.{self.name}"

    @property
    def label(self) -> str:
        """The rule in a line of text: ``"forced Joker"``, ``"no Joker"``.

        Every description of a ruleset, every reason a Joker closes a box and every
        report names the rule this way.

        Examples:
            >>> JokerRule.FORCED.label, JokerRule.NONE.label
            ('forced Joker', 'no Joker')
            >>> f"the {JokerRule.KINDS_FIRST.label}"
            'the kinds-first Joker'
        """
        return "no Joker" if self is JokerRule.NONE else f"{self.value} Joker"

    @property
    def title(self) -> str:
        """The rule with where it comes from, for headings: ``"forced Joker (Hasbro Classic)"``.

        Examples:
            >>> [rule.title for rule in JokerRule]  # doctest: +NORMALIZE_WHITESPACE
            ['forced Joker (Hasbro Classic)', 'free-choice Joker', 'no Joker',
             "kinds-first Joker (Hasbro's current order)"]
        """
        source = _JOKER_SOURCES.get(self)
        return self.label if source is None else f"{self.label} ({source})"


class TieRule(enum.Enum):
    """What a tie for the highest grand total means at the end of a game.

    * ``SHARE``: the tied players share the win. Hasbro's Classic instructions give
      no tiebreaker, so this is the default.
    * ``UPPER_TOTAL``: agreed beforehand, the tied player with the highest upper
      total (the upper boxes plus the upper bonus) wins; players still tied share.
    * ``PLAY_OFF``: agreed beforehand, the tied players play again; the result names
      them and no winner until that game is played.

    Examples:
        >>> TieRule("upper-total") is TieRule.UPPER_TOTAL
        True
    """

    SHARE = "share"
    UPPER_TOTAL = "upper-total"
    PLAY_OFF = "play-off"

    def __repr__(self) -> str:
        return f"TieRule.{self.name}"

    @property
    def label(self) -> str:
        """The rule in a list of a ruleset's parts: ``"ties share"``.

        Examples:
            >>> [rule.label for rule in TieRule]
            ['ties share', 'ties go to the higher upper total', 'ties are played off']
        """
        return _TIE_TEXTS[self][0]

    @property
    def description(self) -> str:
        """What the rule means, as a clause: ``"a tie for the highest total is shared"``.

        Examples:
            >>> print(f"Tie rule: {TieRule.UPPER_TOTAL.description}.")
            Tie rule: a tie goes to the higher upper total (still tied: shared).
        """
        return _TIE_TEXTS[self][1]


_JOKER_SOURCES = {
    JokerRule.FORCED: "Hasbro Classic",
    JokerRule.KINDS_FIRST: "Hasbro's current order",
}
"""Where a Joker rule comes from, for :attr:`JokerRule.title`."""

_TIE_TEXTS = {
    TieRule.SHARE: ("ties share", "a tie for the highest total is shared"),
    TieRule.UPPER_TOTAL: (
        "ties go to the higher upper total",
        "a tie goes to the higher upper total (still tied: shared)",
    ),
    TieRule.PLAY_OFF: ("ties are played off", "tied leaders play another game to decide"),
}
"""Each tie rule's :attr:`TieRule.label` and :attr:`TieRule.description`."""


def plain_label(box: Box, locale: str | None = None) -> str:
    """A box's label without a column's multiplier (``"Yahtzee"`` for Triple Yahtzee's
    Yahtzee x2), to name a box of every column at once, as in "the Yahtzee bonus"; in
    ``locale``'s language if given (see :meth:`Box.label_in`).

    Examples:
        >>> from yahtzee_rules import TRIPLE, Category
        >>> plain_label(TRIPLE.yahtzees[1]), plain_label(Category.FULL_HOUSE)
        ('Yahtzee', 'Full House')
        >>> plain_label(TRIPLE.yahtzees[1], "de")
        'Kniffel'
    """
    return re.sub(r" \u00d7[0-9]+$", "", box.label if locale is None else box.label_in(locale))


def column_label(box: Box) -> str:
    """The part of a box's label that names its column (``"×2"`` for Triple Yahtzee's
    Fours ×2), or ``""`` on a card of one column: a score sheet's column heading.

    Examples:
        >>> from yahtzee_rules import TRIPLE, Category
        >>> [column_label(column[0]) for column in TRIPLE.columns], column_label(Category.ACES)
        (['×1', '×2', '×3'], '')
    """
    return box.label[len(plain_label(box)) :].strip()


def _to_tie(value: Any) -> TieRule:
    if isinstance(value, TieRule):
        return value
    if isinstance(value, str):
        try:
            return TieRule(value.strip().lower().replace("_", "-"))
        except ValueError:
            pass
    raise MalformedInputError(
        f"tie {show(value)}: no such tie rule; use TieRule.SHARE, TieRule.UPPER_TOTAL or "
        f"TieRule.PLAY_OFF ('share', 'upper-total', 'play-off')"
    )


def _to_joker(value: Any) -> JokerRule:
    if isinstance(value, JokerRule):
        return value
    if isinstance(value, str):
        key = value.strip().lower().replace("_", "-")
        key = {"free": "free-choice", "hasbro": "forced", "no": "none", "off": "none"}.get(key, key)
        try:
            return JokerRule(key)
        except ValueError:
            pass
    raise MalformedInputError(
        f"joker {show(value)}: no such Joker rule; use JokerRule.FORCED, "
        f"JokerRule.FREE_CHOICE, JokerRule.NONE or JokerRule.KINDS_FIRST "
        f"('forced', 'free-choice', 'none', 'kinds-first')"
    )


def _flag(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        raise MalformedInputError(
            f"{attribute.name} {show(value)}: not a bool; the switch is True or False"
        )


def _check_placement(instance: Rules, attribute: attrs.Attribute[bool], in_order: bool) -> None:
    _flag(instance, attribute, in_order)
    if in_order and instance.forced_yahtzee:
        raise MalformedInputError(
            "rules with in_order=True and forced_yahtzee=True: filling the boxes in card "
            "order leaves no choice for five of a kind; use one of them"
        )
    if in_order and instance.joker is not JokerRule.NONE:
        raise MalformedInputError(
            f"rules with in_order=True and the {instance.joker.value} Joker: filling the "
            f"boxes in card order leaves no choice for a Joker; use joker='none'"
        )


def _non_negative(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or value < 0:
        raise MalformedInputError(
            f"{attribute.name} {show(value)}: not a non-negative int; "
            f"bonus values and thresholds are whole points, 0 or more"
        )
    if value > MAX_BONUS:
        raise MalformedInputError(
            f"{attribute.name} {show(value)}: more than the limit of {MAX_BONUS}; "
            f"every format writes bonus values and thresholds of at most nine digits"
        )


def _to_card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    raise MalformedInputError(
        f"card {show(value)}: not a Card; use a card such as CLASSIC or YACHT "
        f"(cards: {', '.join(Card.names())})"
    )


def _check_card_rules(instance: Rules, attribute: attrs.Attribute[Card], card: Card) -> None:
    if card.yahtzee is None and (
        instance.joker is not JokerRule.NONE or instance.yahtzee_bonus != 0
    ):
        raise MalformedInputError(
            f"rules for the {card.title} card: it has no five-of-a-kind box, so it can have "
            f"neither a Joker nor a Yahtzee bonus; use joker='none' and yahtzee_bonus=0"
        )


@attrs.frozen(repr=False)
class Rules:
    """A ruleset: the card, the Joker rule and the bonuses.

    ``Rules()`` is Hasbro's Classic game with the forced Joker. Every other ruleset
    the library names comes from :meth:`Rules.from_name` (``Rules.names()`` lists
    them); any field can be changed with :func:`attrs.evolve`, which validates.

    Args:
        joker: The Joker rule (a :class:`JokerRule` or its value, such as ``"free-choice"``).
        upper_bonus: Points added when the upper boxes reach the threshold (35).
        upper_bonus_threshold: The upper subtotal that earns the bonus (63).
        yahtzee_bonus: Points per extra Yahtzee while the Yahtzee box holds 50
            (100); 0 turns the bonus off, and then no marks are made.
        card: The scorecard (keyword only): :data:`~yahtzee_rules.CLASSIC` by default.
        tie: What a tie for the highest total means (keyword only): the tied players
            share the win by default; see :class:`TieRule`.
        forced_yahtzee: Forced Yahtzee (keyword only; rulebook 002): five equal dice
            whose upper box is open must be scored there, even the first; with that
            box filled a first Yahtzee scores anywhere and an extra one follows the
            Joker rule.
        in_order: Forced Yatzy (keyword only): the boxes are filled in card order, top
            to bottom, so the only box a roll may fill is the first open one. It needs
            ``joker="none"``.

    Raises:
        MalformedInputError: For an unknown Joker rule, a negative or non-int value,
            a Joker or Yahtzee bonus on a card with no five-of-a-kind box, a switch that
            is not a bool, or ``in_order`` with a Joker or with ``forced_yahtzee``.

    Examples:
        >>> Rules(yahtzee_bonus=0, joker="none").yahtzee_bonus
        0
        >>> Rules().name
        'forced'
        >>> Rules(joker="none", yahtzee_bonus=0).name
        'none, yahtzee_bonus=0'
    """

    joker: JokerRule = attrs.field(default=JokerRule.FORCED, converter=_to_joker)
    upper_bonus: int = attrs.field(default=35, validator=_non_negative)
    upper_bonus_threshold: int = attrs.field(default=63, validator=_non_negative)
    yahtzee_bonus: int = attrs.field(default=100, validator=_non_negative)
    card: Card = attrs.field(
        default=CLASSIC, kw_only=True, converter=_to_card, validator=_check_card_rules
    )
    tie: TieRule = attrs.field(default=TieRule.SHARE, kw_only=True, converter=_to_tie)
    forced_yahtzee: bool = attrs.field(default=False, kw_only=True, validator=_flag)
    in_order: bool = attrs.field(default=False, kw_only=True, validator=_check_placement)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __repr__(self) -> str:
        name = self.name
        if _base_of(self)[0] != "classic" and _named(name) == self and "," not in name:
            return f"Rules.from_name({name!r})"
        card = "" if self.card is CLASSIC else f", card={self.card!r}"
        tie = "" if self.tie is TieRule.SHARE else f", tie={self.tie!r}"
        flags = "".join(f", {field}=True" for field in _FLAGS if getattr(self, field))
        return (
            f"Rules(joker={self.joker!r}, upper_bonus={self.upper_bonus}, "
            f"upper_bonus_threshold={self.upper_bonus_threshold}, "
            f"yahtzee_bonus={self.yahtzee_bonus}{card}{tie}{flags})"
        )

    def __str__(self) -> str:
        text = self._str_without_tie()
        return text if self.tie is TieRule.SHARE else f"{text},tie={self.tie.value}"

    def _str_without_tie(self) -> str:
        base_name, base = _base_of(self)
        text = _text.format_rules(
            self.joker.value,
            attrs.asdict(self, recurse=False),
            attrs.asdict(base, recurse=False),
        )
        if base_name == "classic":
            return text
        joker, _, changes = text.partition(",")
        parts = [base_name]
        if self.joker is not base.joker:
            parts.append(joker)
        if changes:
            parts.append(changes)
        return ",".join(parts)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read rules from their notation, such as ``"free-choice,yb=0"``; the inverse of ``str()``.

        Classic rules start with the Joker rule; another card's rules start with the
        card's name (``"yacht"``), then its Joker rule and bonus values where they
        differ from that card's usual ruleset. A tie rule other than sharing the win
        comes last (``"forced,tie=upper-total"``). A named ruleset such as
        ``"forced-yahtzee"`` or ``"forced-yatzy"`` may stand for the card; otherwise
        Forced Yahtzee and boxes in card order are the fields ``fy=1`` and ``io=1``.
        See :func:`yahtzee_rules.formats.notation.parse_rules`.

        Raises:
            MalformedInputError: For text that is not rules notation.

        Examples:
            >>> str(Rules()), Rules.parse("none,yb=0").yahtzee_bonus
            ('forced', 0)
            >>> Rules.parse("yacht") == Rules.from_name("yacht"), str(Rules.parse("yacht,ub=35"))
            (True, 'yacht,ub=35')
            >>> Rules.parse("forced,tie=play-off").tie
            TieRule.PLAY_OFF
        """
        whole = _text.check_text("rules", text)
        text, comma, tie_part = whole.rpartition(",")
        if not comma or not tie_part.startswith("tie="):
            return cls._parse_without_tie(whole)
        if tie_part == "tie=share":
            raise _text.fail("rules", whole, "'tie=share' is the default; leave it out")
        try:
            tie = _to_tie(tie_part[4:])
        except MalformedInputError as error:
            raise _text.fail("rules", whole, str(error)) from None
        if tie_part[4:] != tie.value:  # notation is canonical: one spelling of each rule
            raise _text.fail("rules", whole, f"the tie rule is written tie={tie.value}")
        return attrs.evolve(cls._parse_without_tie(text), tie=tie)

    @classmethod
    def _parse_without_tie(cls, text: str) -> Rules:
        rules = cls._parse_parts(text)
        if rules.forced_yahtzee or rules.in_order:
            canonical = rules._str_without_tie()
            if canonical != text:
                raise _text.fail("rules", text, f"not written canonically; write {canonical!r}")
        return rules

    @classmethod
    def _parse_parts(cls, text: str) -> Rules:
        jokers = [rule.value for rule in JokerRule]
        head = text.partition(",")[0]
        base = _tables().base.get(head) if head != CLASSIC.name else None
        if base is None:
            joker, values = _text.parse_rules(text, jokers, attrs.asdict(_CLASSIC, recurse=False))
            try:
                return cls(joker=JokerRule(joker), **_flags_from_ints(text, values))
            except MalformedInputError as error:
                raise _text.fail("rules", text, str(error)) from None
        joker, values = _text.parse_rules(
            text,
            jokers,
            attrs.asdict(base, recurse=False),
            skip=1,
            default_joker=base.joker.value,
            base=head,
        )
        try:
            return attrs.evolve(base, joker=JokerRule(joker), **_flags_from_ints(text, values))
        except MalformedInputError as error:
            raise _text.fail("rules", text, str(error)) from None

    @property
    def name(self) -> str:
        """A short label that :meth:`from_name` reads back.

        The name of the ruleset it varies (the card's name, or a named ruleset such
        as ``"forced-yatzy"``) unless it is Classic, then the Joker rule unless it is
        that ruleset's own, then any value that differs from that ruleset's.

        Examples:
            >>> Rules().name, Rules(joker="free-choice", upper_bonus=50).name
            ('forced', 'free-choice, upper_bonus=50')
            >>> Rules.from_name("yacht").name
            'yacht'
            >>> rules = Rules(joker="none", yahtzee_bonus=0)
            >>> Rules.from_name(rules.name) == rules
            True
        """
        base_name, base = _base_of(self)
        parts = []
        if base_name != "classic":
            parts.append(base_name)
        if base_name == "classic" or self.joker is not base.joker:
            parts.append(self.joker.value)
        for field in _FIELDS:
            value = getattr(self, field)
            if value != getattr(base, field):
                parts.append(f"{field}={int(value)}")
        if self.tie is not TieRule.SHARE:
            parts.append(f"tie={self.tie.value}")
        return ", ".join(parts)

    @classmethod
    def from_name(cls, name: str) -> Rules:
        """The ruleset named ``name``: a card, a Joker rule, or what :attr:`name` gives.

        ``"forced"``, ``"free"`` (or ``"free-choice"``), ``"none"`` and
        ``"kinds-first"`` are Classic with that Joker rule; ``"forced-yahtzee"`` is
        Classic with Forced Yahtzee; ``"yacht"`` and ``"yatzy"`` are those cards with
        their own rules, ``"forced-yatzy"`` Yatzy filled in card order; a card name
        with house switches (``"yatzy+5fh"``, ``"classic+5fh"``) plays that card. A
        name can add ``field=value`` parts, as :attr:`name` writes them (the switches
        ``forced_yahtzee`` and ``in_order`` take 0 or 1).

        Raises:
            MalformedInputError: For a name that is no ruleset.

        Examples:
            >>> Rules.from_name("none").joker
            JokerRule.NONE
            >>> Rules.from_name("yacht").card
            YACHT
            >>> Rules.from_name("free-choice, upper_bonus=50").upper_bonus
            50
        """
        found = _named(name)
        if found is None:
            raise MalformedInputError(
                f"rules {show(name)}: no such ruleset; use one of {', '.join(cls.names())}, "
                f"optionally followed by ', field=value' parts"
            )
        return found

    @staticmethod
    def for_card(card: Card) -> Rules:
        """The usual ruleset of ``card``: ``Rules()`` for Classic, no bonuses for Yacht.

        Raises:
            MalformedInputError: If ``card`` is not a Card.

        Examples:
            >>> from yahtzee_rules import YACHT
            >>> Rules.for_card(YACHT) == Rules.from_name("yacht")
            True
        """
        try:
            found = (_TABLES[0] if _TABLES else _tables()).usual.get(card)
        except TypeError:  # unhashable, so no card: _to_card says so
            found = None
        return _default_for(_to_card(card)) if found is None else found

    @staticmethod
    def names() -> tuple[str, ...]:
        """The names of the rulesets :meth:`from_name` knows without parts.

        Examples:
            >>> Rules.names()  # doctest: +NORMALIZE_WHITESPACE
            ('forced', 'free-choice', 'none', 'kinds-first', 'forced-yahtzee', 'classic+5fh',
             'yacht', 'yatzy', 'forced-yatzy', 'yatzy+5fh', 'yatzy+4k2p', 'yatzy+5fh+4k2p',
             'triple', 'triple-in-order')
        """
        return _tables().names

    @staticmethod
    def describe(name: str | Rules, *, locale: str | None = None) -> str:
        """One line saying what the named ruleset is, for lists such as ``yahtzee-rules rules``.

        A ruleset in :meth:`names` has a line of its own; any other name that
        :meth:`from_name` reads gets one composed from its card, Joker rule, bonuses
        and tie rule. A :class:`Rules` value is described as its :attr:`name` is, so
        apps describe the rules in play without a table of their own (and a card
        that has no named ruleset is described from its value).

        A named ruleset's own line comes in ``locale``'s language (English by default;
        see :mod:`yahtzee_rules.support.l10n`); a composed line is English.

        Raises:
            MalformedInputError: For a name that is no ruleset.
            UnknownLocaleError: For a locale the library has no catalogue for.

        Examples:
            >>> Rules.describe("yacht")
            'Yacht, as Hoyle gives it: 12 boxes, no upper bonus, no Yacht bonus, no Joker'
            >>> Rules.describe("yatzy", locale="sv")
            'Skandinavisk Yatzy: 15 rutor, 50 poängs bonus i övre delen vid 63, Yatzy 50 och inget mer för en andra, ingen joker'
            >>> Rules.describe("none, yahtzee_bonus=0")
            'Classic card (13 boxes), no Joker, 35-point upper bonus at 63, no Yahtzee bonus'
            >>> Rules.describe("triple, upper_bonus=10")
            'Triple Yahtzee card (39 boxes), forced Joker, 10-point upper bonus at 63, 100-point Yahtzee bonus'
            >>> Rules.describe(Rules(tie="play-off"))
            'Classic card (13 boxes), forced Joker, 35-point upper bonus at 63, 100-point Yahtzee bonus, ties are played off'
        """
        catalogue = translations(locale)
        key = name.name if isinstance(name, Rules) else name
        text = _tables().descriptions.get(key) if isinstance(key, str) else None
        if text is not None:
            return catalogue.pgettext("ruleset", text)
        rules = name if isinstance(name, Rules) else Rules.from_name(name)
        card = rules.card
        joker = rules.joker.label
        if rules.forced_yahtzee:
            joker += ", Forced Yahtzee"
        if rules.in_order:
            joker += ", boxes filled in card order"
        upper = (
            f"{rules.upper_bonus}-point upper bonus at {rules.upper_bonus_threshold}"
            if rules.upper_bonus
            else "no upper bonus"
        )
        # the five-of-a-kind box's label, without a column's multiplier (Yahtzee x1 on Triple Yahtzee)
        five = plain_label(card.yahtzee) if card.yahtzee is not None else "Yahtzee"
        extra = (
            f"{rules.yahtzee_bonus}-point {five} bonus"
            if rules.yahtzee_bonus
            else f"no {five} bonus"
        )
        tie = "" if rules.tie is TieRule.SHARE else f", {rules.tie.label}"
        return f"{card.title} card ({len(card)} boxes), {joker}, {upper}, {extra}{tie}"


_CLASSIC = Rules()
_JOKER_NAMES = frozenset(rule.value for rule in JokerRule)


@attrs.frozen
class _Named:
    """The named rulesets, as the registered cards give them (see ``register_card``)."""

    base: dict[str, Rules]
    """Each card's usual ruleset (by the card's name), and the named rulesets that vary one
    (by their names), in card order: a name that starts a ruleset's name."""
    usual: dict[Card, Rules]
    """Each registered card's usual ruleset."""
    names: tuple[str, ...]
    """The names :meth:`Rules.names` lists."""
    descriptions: dict[str, str]
    """One line per named ruleset that has one, for :meth:`Rules.describe`; a name missing
    here gets a line composed from its ruleset."""


_TABLES: list[_Named] = []


def _default_for(card: Card) -> Rules:
    """The rules of a card with no ruleset registered: Classic's bonuses and the forced
    Joker, or with no five-of-a-kind box, no bonuses and no Joker."""
    if card.yahtzee is not None:
        return Rules(card=card)
    return Rules(joker=JokerRule.NONE, upper_bonus=0, yahtzee_bonus=0, card=card)


def _rulesets_of(card: Card, entries: tuple[NamedRuleset, ...]) -> list[tuple[str, Rules]]:
    """The rulesets a card registers, made from their fields; raises if one is no ruleset."""
    made = []
    for entry in entries:
        try:
            rules = Rules(card=card, **cast(dict[str, Any], dict(entry.fields)))
        except (MalformedInputError, TypeError) as error:
            raise ValueError(f"ruleset {entry.name!r} of the {card.title} card: {error}") from None
        if entry.name in _JOKER_NAMES and (card is not CLASSIC or rules.joker.value != entry.name):
            raise ValueError(
                f"ruleset {entry.name!r}: the name of a Joker rule names the Classic card "
                f"with that Joker rule"
            )
        made.append((entry.name, rules))
    return made


def _build() -> _Named:
    base: dict[str, Rules] = {}
    usual: dict[Card, Rules] = {}
    names: list[str] = []
    descriptions: dict[str, str] = {}
    for card, entries in registered_rulesets():
        made = _rulesets_of(card, entries)
        names.extend(entry.name for entry in entries)
        descriptions.update(
            (entry.name, entry.description) for entry in entries if entry.description is not None
        )
        usual[card] = made[0][1] if made else _default_for(card)
        base[card.name] = usual[card]
        if not made:
            names.append(card.name)
        for name, rules in made:
            if name not in _JOKER_NAMES and name != card.name:
                base[name] = rules
    return _Named(base, usual, tuple(names), descriptions)


# A card registered from now on has its rulesets checked as it is registered, and the
# tables are built again after every change to the registry.
check_rulesets_with(_rulesets_of)
watch_registry(_TABLES.clear)


def _tables() -> _Named:
    """The named-ruleset tables, rebuilt when a card is registered or unregistered."""
    if not _TABLES:
        _TABLES.append(_build())
    return _TABLES[0]


_FLAGS = ("forced_yahtzee", "in_order")
_FIELDS = ("upper_bonus", "upper_bonus_threshold", "yahtzee_bonus", *_FLAGS)


def _base_of(rules: Rules) -> tuple[str, Rules]:
    """The named ruleset ``rules`` varies, and its name: the first of the card's with the
    same switches, else the card's usual one (Classic's values for an unnamed card)."""
    usual: tuple[str, Rules] | None = None
    for name, base in _tables().base.items():
        if base.card is rules.card:
            if base.forced_yahtzee == rules.forced_yahtzee and base.in_order == rules.in_order:
                return name, base
            usual = usual or (name, base)
    return usual or (rules.card.name, _CLASSIC)


def _flags_from_ints(text: str, values: dict[str, int]) -> dict[str, Any]:
    """The values of rules notation with the switches (written 0 or 1) as bools."""
    result: dict[str, Any] = dict(values)
    for field in _FLAGS:
        if field in result:
            if result[field] not in (0, 1):
                raise _text.fail(
                    "rules", text, f"{field} {result[field]}: a switch is written 0 or 1"
                )
            result[field] = bool(result[field])
    return result


def _named(name: object) -> Rules | None:
    """The ruleset ``name`` describes, or ``None``."""
    if not isinstance(name, str) or len(name) > 200:
        return None
    parts = [part.strip() for part in name.split(",")]
    base = _tables().base.get(parts[0].lower())
    if base is not None:
        parts.pop(0)
    else:
        base = _CLASSIC
    changes: dict[str, Any] = {}
    if parts and "=" not in parts[0]:
        try:
            changes["joker"] = _to_joker(parts.pop(0))
        except MalformedInputError:
            return None
    for part in parts:
        field, _, value = part.partition("=")
        field = field.strip()
        if field == "tie" and "tie" not in changes:
            try:
                changes["tie"] = _to_tie(value)
            except MalformedInputError:
                return None
            continue
        if field not in _FIELDS or field in changes or not value.strip().isdigit():
            return None
        if not value.strip().isascii() or len(value.strip()) > 9:
            return None
        changes[field] = int(value.strip())
        if field in _FLAGS:
            if changes[field] not in (0, 1):
                return None
            changes[field] = bool(changes[field])
    try:
        return attrs.evolve(base, **changes)
    except MalformedInputError:
        return None


def not_rules_error(value: object) -> MalformedInputError:
    """The error for ``value`` given where a :class:`Rules` is needed, naming the call that
    makes one from it: a ruleset's name or rules notation given as text is one call away.

    Examples:
        >>> print(not_rules_error("yatzy"))
        rules 'yatzy': not a Rules; text is not read here: use Rules.from_name('yatzy')
        >>> print(not_rules_error("free-choice,yb=0"))
        rules 'free-choice,yb=0': not a Rules; text is not read here: use Rules.parse('free-choice,yb=0')
        >>> print(not_rules_error(3))
        rules 3: not a Rules; use Rules() (Hasbro's Classic game) or a named ruleset such as Rules.from_name('yatzy') (Rules.names() lists them)
    """
    usual = (
        "use Rules() (Hasbro's Classic game) or a named ruleset such as "
        "Rules.from_name('yatzy') (Rules.names() lists them)"
    )
    if isinstance(value, str):
        for reader in (Rules.from_name, Rules.parse):
            try:
                reader(value)
            except MalformedInputError:
                continue
            return MalformedInputError(
                f"rules {show(value)}: not a Rules; text is not read here: "
                f"use Rules.{reader.__name__}({value!r})"
            )
    return MalformedInputError(f"rules {show(value)}: not a Rules; {usual}")
