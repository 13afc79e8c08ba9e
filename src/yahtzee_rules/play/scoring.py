"""Pure scoring functions: plain box values, the Joker rule, and filling a box.

* :func:`score` gives the plain value of a box for a roll, with no Joker context.
* :func:`legal_fills` gives every box a roll may fill on a card, with the points
  that would be written, under the chosen :class:`~yahtzee_rules.Rules`.
* :func:`box_options` adds, for every box that may not be filled, the reason.
* :func:`fill` writes a box and adds a bonus mark when one is due; the triad
  :func:`verify_fill` (raises with the reason), :func:`can_fill` (answers) and
  :func:`fill` (does it) follows one rule.

Every function that takes ``rules`` reads them as the card's usual rules
(:meth:`Rules.for_card <yahtzee_rules.Rules.for_card>`) when they are left out or
``None``: ``Rules()`` for a Classic card, the Yatzy rules for a Yatzy card.

Examples:
    >>> from yahtzee_rules import Category, Dice, Scorecard, score, legal_fills, fill
    >>> score(Dice("22256"), Category.TWOS), score(Dice("22256"), Category.THREE_OF_A_KIND)
    (6, 17)
    >>> card = fill(Scorecard(), "44444", Category.YAHTZEE)
    >>> dict(legal_fills(card, "44444"))  # the forced Joker: Fours is open, so only Fours
    {<Category.FOURS: 3>: 20}
    >>> fill(card, "44444", Category.FOURS).bonus_marks
    1
"""

from __future__ import annotations

from collections.abc import Mapping
from gc import get_referents
from types import MappingProxyType

import attrs

from yahtzee_rules.core.boxes import Box, card_of
from yahtzee_rules.core.classic import Category
from yahtzee_rules.core.dice import Dice, DiceLike, as_dice, dice_index
from yahtzee_rules.core.rules import JokerRule, Rules
from yahtzee_rules.play._filling import (
    bonus_due,
    check_pair,
    fill_unchecked,
    is_extra,
    joker_note_unchecked,
    legal,
    legal_points,
    reason,
)
from yahtzee_rules.play.scorecard import Scorecard, category_arg
from yahtzee_rules.support._frozen import reinit_error
from yahtzee_rules.support.l10n import resolve_locale

__all__ = [
    "BoxOption",
    "box_options",
    "can_fill",
    "fill",
    "forced_category",
    "is_joker",
    "joker_note",
    "legal_fills",
    "score",
    "verify_fill",
]


def score(dice: DiceLike, category: Box | str) -> int:
    """The plain value of ``category`` for ``dice``: no Joker, no bonus.

    Upper boxes total the dice showing their face; Three and Four of a Kind and
    Chance total all five dice when they qualify; Full House 25, Small Straight
    30, Large Straight 40 and Yahtzee 50 when they qualify; otherwise 0. A box of
    another card scores as that card says (:class:`~yahtzee_rules.YachtBox`).

    Args:
        dice: A :class:`Dice`, or anything ``Dice`` accepts (``"13366"``).
        category: The box.

    Raises:
        MalformedInputError: If ``dice`` is not valid dice or ``category`` not a box.

    Examples:
        >>> from yahtzee_rules import Category, Dice
        >>> score(Dice("22256"), Category.SIXES)
        6
        >>> score("12346", Category.SMALL_STRAIGHT), score("12346", Category.LARGE_STRAIGHT)
        (30, 0)
        >>> score("33333", Category.FULL_HOUSE)  # five equal dice are not a full house
        0
        >>> score("44462", Category.THREE_OF_A_KIND)  # all five dice count
        20
    """
    if category.__class__ is Category:
        try:
            return dice.classic_row[category]  # type: ignore[union-attr]
        except AttributeError:
            pass
    box: Box = category if isinstance(category, Box) else category_arg(category)
    dice_value = as_dice(dice)
    return card_of(box).table[dice_index(dice_value)][box]


def legal_fills(
    card: Scorecard, dice: DiceLike, *, rules: Rules | None = None
) -> Mapping[Box, int]:
    """Every box ``dice`` may fill on ``card``, with the points that would be written.

    The result is a read-only mapping in card order. It never includes a filled
    box. For an extra Yahtzee (five equal dice with the Yahtzee box filled) the
    Joker rule in ``rules`` decides which boxes appear and what they score.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Rules, JokerRule
        >>> options = legal_fills(Scorecard(), "22233")
        >>> options[Category.FULL_HOUSE], options[Category.THREES], len(options)
        (25, 6, 13)
        >>> card = Scorecard({Category.YAHTZEE: 50, Category.FOURS: 20})
        >>> legal_fills(card, "44444")[Category.LARGE_STRAIGHT]  # Joker value
        40
        >>> free = Rules(joker=JokerRule.FREE_CHOICE)
        >>> legal_fills(Scorecard({Category.YAHTZEE: 50}), "44444", rules=free)[Category.FULL_HOUSE]
        0
    """
    card, rules = check_pair(card, rules)
    return MappingProxyType(legal(card.boxes, as_dice(dice), rules))


def is_joker(card: Scorecard, dice: DiceLike, *, rules: Rules | None = None) -> bool:
    """Whether the Joker rule governs this roll: five equal dice, Yahtzee box filled.

    Always ``False`` under :attr:`JokerRule.NONE`.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> is_joker(Scorecard(), "55555"), is_joker(Scorecard({Category.YAHTZEE: 0}), "55555")
        (False, True)
    """
    card, rules = check_pair(card, rules)
    dice_value = as_dice(dice)
    return (
        dice_value.is_yahtzee
        and rules.joker is not JokerRule.NONE
        and is_extra(card.boxes, rules.card)
    )


def joker_note(card: Scorecard, dice: DiceLike, *, rules: Rules | None = None) -> str | None:
    """What the Joker rule means for this roll, as a game tells its player; else ``None``.

    For an extra Yahtzee under a Joker rule (:func:`is_joker`): which step of the
    rule applies (the matching upper box, Three or Four of a Kind first, the lower
    boxes at Joker values, or the upper boxes for 0), in the rule's own words where
    it closes boxes (the :attr:`BoxOption.reason`), and the bonus that filling any
    box adds. It is written for the card in play, so it holds on every card.

    Examples:
        >>> from yahtzee_rules import Category, Rules, Scorecard
        >>> card = Scorecard({Category.YAHTZEE: 50})
        >>> print(joker_note(card, "44444"))
        Joker: five 4s with Yahtzee filled; the forced Joker requires Fours, which is open: five 4s must go in Fours. Filling any box adds the 100-point Yahtzee bonus.
        >>> print(joker_note(Scorecard({Category.YAHTZEE: 0, Category.FOURS: 8}), "44444"))
        Joker: five 4s with Yahtzee filled; Fours is filled, so the forced Joker allows any open lower box at Joker values (Full House 25, Small Straight 30, Large Straight 40; the dice total elsewhere).
        >>> joker_note(card, "44445"), joker_note(Scorecard(), "44444")
        (None, None)
    """
    card, rules = check_pair(card, rules)
    return joker_note_unchecked(card.boxes, as_dice(dice), rules)


def forced_category(card: Scorecard, dice: DiceLike, *, rules: Rules | None = None) -> Box | None:
    """The one box the rules require for this roll, or ``None`` if no box is forced.

    Under :attr:`JokerRule.FORCED` and :attr:`JokerRule.KINDS_FIRST` an extra Yahtzee
    must go in the matching upper box while it is open; under Forced Yahtzee
    (``rules.forced_yahtzee``) so must any five equal dice; with the boxes filled in
    card order (``rules.in_order``) every roll goes in the first open box.

    Examples:
        >>> from yahtzee_rules import Category, Rules, Scorecard
        >>> card = Scorecard({Category.YAHTZEE: 50})
        >>> forced_category(card, "44444"), forced_category(card, "44445")
        (<Category.FOURS: 3>, None)
        >>> forced_category(Scorecard(), "44444", rules=Rules.from_name("forced-yahtzee"))
        <Category.FOURS: 3>
    """
    card, rules = check_pair(card, rules)
    dice_value = as_dice(dice)
    if rules.in_order:
        return next((box for box, points in card if points is None), None)
    if not (
        (rules.forced_yahtzee and dice_value.is_yahtzee)
        or (
            rules.joker in (JokerRule.FORCED, JokerRule.KINDS_FIRST)
            and is_joker(card, dice_value, rules=rules)
        )
    ):
        return None
    # what legal() offers, so the Joker's order is stated once: on a card of several
    # columns a box is forced only when the Joker allows one matching box alone
    allowed = legal(card.boxes, dice_value, rules)
    if len(allowed) != 1:
        return None
    (only,) = allowed
    return only if only.face == dice_value.faces[0] else None


@attrs.frozen
class BoxOption:
    """What one box offers for the current roll: its points if it may be filled, else why not.

    Attributes:
        category: The box.
        points: The points that filling it now would write, or ``None`` if it may not
            be filled.
        reason: ``None`` when the box may be filled; otherwise a sentence saying which
            rule closes it and what is allowed instead.
        bonus: The Yahtzee bonus points that filling it now would add (0 or
            ``rules.yahtzee_bonus``).
        is_legal: Whether the box may be filled now (``reason`` is ``None``); a
            property, derived from ``reason``.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> option = box_options(Scorecard({Category.FOURS: 12}), "44456")[Category.FOURS]
        >>> option.is_legal, option.points, option.reason
        (False, None, 'Fours is already filled with 12; each box is filled once')
    """

    category: Box
    points: int | None
    reason: str | None
    bonus: int = 0

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    @property
    def is_legal(self) -> bool:
        """Whether the box may be filled now.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> box_options(Scorecard(), "12345")[Category.CHANCE].is_legal
            True
        """
        return self.reason is None


def _options(
    card: Scorecard, dice: Dice, rules: Rules, locale: str | None = None
) -> Mapping[Box, BoxOption]:
    boxes = card.boxes
    allowed = legal(boxes, dice, rules)
    bonus = rules.yahtzee_bonus if bonus_due(boxes, dice, rules) else 0
    result = {}
    for category in rules.card.members:
        if category in allowed:
            result[category] = BoxOption(category, allowed[category], None, bonus)
        else:
            why = reason(boxes, dice, category, rules, locale)
            result[category] = BoxOption(category, None, why, 0)
    return MappingProxyType(result)


def box_options(
    card: Scorecard, dice: DiceLike, *, rules: Rules | None = None, locale: str | None = None
) -> Mapping[Box, BoxOption]:
    """A :class:`BoxOption` for each box of the card: points if legal, else the reason.

    This is what a game shows its player: the value of every open box for the
    current dice, and for each closed box the rule that closes it, in ``locale``'s
    language (English by default; see :mod:`yahtzee_rules.support.l10n`).

    Raises:
        UnknownLocaleError: For a locale the library has no catalogue for.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({Category.YAHTZEE: 50})
        >>> options = box_options(card, "44444")
        >>> options[Category.FOURS].points, options[Category.FOURS].bonus
        (20, 100)
        >>> print(options[Category.CHANCE].reason)
        the forced Joker requires Fours, which is open: five 4s must go in Fours
        >>> print(box_options(card, "44444", locale="de")[Category.CHANCE].reason)
        der Pflicht-Joker verlangt Vierer, das noch offen ist: fünf 4er gehören in Vierer
    """
    card, rules = check_pair(card, rules)
    resolve_locale(locale)  # refused before any work, even when no box is closed
    return _options(card, as_dice(dice), rules, locale)


def verify_fill(
    card: Scorecard, dice: DiceLike, category: Box | str, *, rules: Rules | None = None
) -> None:
    """Raise :class:`IllegalActionError` with the reason if ``dice`` may not fill ``category``.

    Raises:
        IllegalActionError: If the box is filled or the Joker rule forbids it.
        MalformedInputError: If an argument is not a valid value.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({Category.YAHTZEE: 0})
        >>> verify_fill(card, "33333", Category.THREES)  # allowed: returns None
        >>> verify_fill(card, "33333", Category.CHANCE)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.IllegalActionError: fill Chance with 33333: the forced Joker requires Threes, which is open: five 3s must go in Threes
    """
    card, rules = check_pair(card, rules)
    dice_value = as_dice(dice)
    legal_points(card.boxes, dice_value, category_arg(category, rules.card), rules)


def can_fill(
    card: Scorecard, dice: DiceLike, category: Box | str, *, rules: Rules | None = None
) -> bool:
    """Whether ``dice`` may fill ``category`` on ``card`` now.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> can_fill(Scorecard(), "12345", Category.YAHTZEE)  # a zero is always allowed
        True
    """
    card, rules = check_pair(card, rules)
    dice_value = as_dice(dice)
    return category_arg(category, rules.card) in legal(card.boxes, dice_value, rules)


def fill(
    card: Scorecard, dice: DiceLike, category: Box | str, *, rules: Rules | None = None
) -> Scorecard:
    """A new card with ``category`` filled for ``dice``, plus a bonus mark when one is due.

    A bonus mark is added when the dice are five equal faces, the Yahtzee box
    already holds 50 and ``rules.yahtzee_bonus`` is not 0, whichever box is filled.
    The card passed in is not changed.

    Raises:
        IllegalActionError: If the box is filled or the Joker rule forbids it; the
            message says which boxes are allowed.
        MalformedInputError: If an argument is not a valid value.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, totals
        >>> card = fill(Scorecard(), "22333", Category.FULL_HOUSE)
        >>> card[Category.FULL_HOUSE], Scorecard()[Category.FULL_HOUSE]
        (25, None)
        >>> card = fill(Scorecard({Category.YAHTZEE: 50, Category.FOURS: 12}), "44444",
        ...             Category.LARGE_STRAIGHT)
        >>> card[Category.LARGE_STRAIGHT], card.bonus_marks, totals(card).grand_total
        (40, 1, 202)
        >>> from yahtzee_rules import YATZY, YatzyBox
        >>> fill(Scorecard(card=YATZY), "33552", YatzyBox.TWO_PAIRS)  # Yatzy's own rules
        Scorecard({YatzyBox.TWO_PAIRS: 16})
    """
    card, rules = check_pair(card, rules)
    return fill_unchecked(card, as_dice(dice), category_arg(category, rules.card), rules)
