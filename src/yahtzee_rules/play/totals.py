"""Totals of a scorecard, as Hasbro's card adds them up; valid for partial cards too.

Examples:
    >>> from yahtzee_rules import Category, Scorecard, totals
    >>> card = Scorecard({Category.ACES: 3, Category.TWOS: 6, Category.THREES: 9,
    ...                   Category.FOURS: 12, Category.FIVES: 15, Category.SIXES: 18})
    >>> t = totals(card)
    >>> t.upper_subtotal, t.upper_bonus, t.upper_total
    (63, 35, 98)
"""

from __future__ import annotations

from collections.abc import Callable
from gc import get_referents

import attrs

from yahtzee_rules.core.rules import Rules, not_rules_error
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.support._frozen import raw_builder, reinit_error
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["Totals", "totals"]


@attrs.frozen
class Totals:
    """The lines at the foot of a scorecard.

    Open boxes count as 0, so the figures are running totals during a game.

    Attributes:
        upper_subtotal: The upper boxes (Aces to Sixes) added up.
        upper_bonus: ``rules.upper_bonus`` once the subtotal reaches the threshold, else 0.
        upper_total: ``upper_subtotal + upper_bonus``.
        lower_subtotal: The lower boxes (seven on the Classic card) added up.
        yahtzee_bonus: ``bonus_marks * rules.yahtzee_bonus``.
        lower_total: ``lower_subtotal + yahtzee_bonus``, as Hasbro's "total of lower section".
        grand_total: ``upper_total + lower_total``.
        upper_bonus_needed: Points the upper boxes still need for the bonus (0 once earned).
        columns: On a card of several columns (:data:`~yahtzee_rules.TRIPLE`), each
            column's own totals before its multiplier (with no Yahtzee bonus, which
            is added once); the fields above are then the columns' figures multiplied
            and added up, and ``upper_bonus_needed`` adds up what each column still
            needs. Empty on a card of one column.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> t = totals(Scorecard({Category.YAHTZEE: 50, Category.FOURS: 20}, bonus_marks=1))
        >>> t.lower_subtotal, t.yahtzee_bonus, t.lower_total, t.grand_total
        (50, 100, 150, 170)
        >>> t.upper_bonus_needed
        43
    """

    upper_subtotal: int
    upper_bonus: int
    upper_total: int
    lower_subtotal: int
    yahtzee_bonus: int
    lower_total: int
    grand_total: int
    upper_bonus_needed: int
    columns: tuple[Totals, ...] = attrs.field(default=(), kw_only=True, repr=False)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)


def totals(card: Scorecard, *, rules: Rules | None = None) -> Totals:
    """Add up ``card`` under ``rules``.

    Only the upper boxes (Aces to Sixes) count towards the upper bonus. Each bonus
    mark adds ``rules.yahtzee_bonus``. On a card of several columns each column earns
    its own upper bonus and its total is multiplied by the column's multiplier. Without ``rules`` (or with ``None``), the card is
    added up under its usual rules (:meth:`Rules.for_card
    <yahtzee_rules.Rules.for_card>`): ``Rules()`` for a Classic card.

    Raises:
        MalformedInputError: If ``card`` is not a Scorecard, ``rules`` not a Rules, or
            the rules are for another card design.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({Category.SIXES: 24, Category.FIVES: 25, Category.FOURS: 16,
        ...                   Category.CHANCE: 30})
        >>> t = totals(card)
        >>> t.upper_subtotal, t.upper_bonus, t.grand_total
        (65, 35, 130)
        >>> totals(Scorecard({Category.CHANCE: 30, Category.SIXES: 30})).upper_bonus  # lower boxes never help
        0
        >>> from yahtzee_rules import YachtBox
        >>> totals(Scorecard({YachtBox.SIXES: 30, YachtBox.FIVES: 25, YachtBox.FOURS: 20})).grand_total
        75
        >>> from yahtzee_rules import TripleBox
        >>> t = totals(Scorecard({TripleBox.CHANCE_X1: 20, TripleBox.CHANCE_X3: 20}))
        >>> t.grand_total, [column.grand_total for column in t.columns]
        (80, [20, 0, 20])
    """
    if not isinstance(card, Scorecard):
        raise MalformedInputError(f"card {show(card)}: not a Scorecard; totals add up a Scorecard")
    if rules is None:
        rules = Rules.for_card(card.card)
    elif not isinstance(rules, Rules):
        raise not_rules_error(rules)
    elif rules.card != card.card:
        raise MalformedInputError(
            f"card {show(card)}: a {card.card.title} card, but the rules {show(rules.name)} play the "
            f"{rules.card.title} card; add up a card under its own rules"
        )
    if len(card.card.columns) > 1:
        return _column_totals(card, rules)
    boxes = card.boxes
    upper = lower = 0
    for box, points in zip(card.card.members, boxes, strict=True):
        if points is not None:
            if box.face is None:
                lower += points
            else:
                upper += points
    return _section_totals(upper, lower, card.bonus_marks * rules.yahtzee_bonus, rules)


def _section_totals(upper: int, lower: int, yahtzee_bonus: int, rules: Rules) -> Totals:
    """The totals of one column from its upper and lower subtotals and its Yahtzee bonus."""
    earned = upper >= rules.upper_bonus_threshold
    return _summed(
        upper,
        rules.upper_bonus if earned else 0,
        lower,
        yahtzee_bonus,
        upper_bonus_needed=0 if earned else rules.upper_bonus_threshold - upper,
    )


def _summed(
    upper: int,
    upper_bonus: int,
    lower: int,
    yahtzee_bonus: int,
    *,
    upper_bonus_needed: int,
    columns: tuple[Totals, ...] = (),
) -> Totals:
    """Totals whose section and grand totals are the sums of the given figures."""
    return _raw_totals(
        upper,
        upper_bonus,
        upper + upper_bonus,
        lower,
        yahtzee_bonus,
        lower + yahtzee_bonus,
        upper + upper_bonus + lower + yahtzee_bonus,
        upper_bonus_needed,
        columns,
    )


#: Totals built without ``__init__``, in field order, from the figures added up above.
_raw_totals: Callable[..., Totals] = raw_builder(Totals)


def _column_totals(card: Scorecard, rules: Rules) -> Totals:
    """Add up a card of several columns: each column as its own card, then multiplied."""
    columns = tuple(
        _section_totals(
            sum(card.boxes[box] or 0 for box in column if box.face is not None),
            sum(card.boxes[box] or 0 for box in column if box.face is None),
            0,
            rules,
        )
        for column in card.card.columns
    )
    multipliers = card.card.multipliers
    return _summed(
        sum(m * t.upper_subtotal for m, t in zip(multipliers, columns, strict=True)),
        sum(m * t.upper_bonus for m, t in zip(multipliers, columns, strict=True)),
        sum(m * t.lower_subtotal for m, t in zip(multipliers, columns, strict=True)),
        card.bonus_marks * rules.yahtzee_bonus,
        upper_bonus_needed=sum(t.upper_bonus_needed for t in columns),
        columns=columns,
    )
