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

import random
from collections.abc import Callable, Mapping
from gc import get_referents
from types import MappingProxyType
from typing import Any

import attrs

from yahtzee_rules.core.boxes import Box, Card
from yahtzee_rules.core.dice import (
    EMPTY_KEEP,
    KEEP_INDEXES_OF,
    RNG,
    Dice,
    DiceLike,
    Keep,
    KeepLike,
    as_keep,
    faces_from,
    outcome_index,
    roll_table,
)
from yahtzee_rules.core.rules import JokerRule, Rules
from yahtzee_rules.play._filling import (
    check_card,
    check_pair,
    check_rules,
    extra_yahtzee_values,
    fill_unchecked,
    legal,
)
from yahtzee_rules.play._reachable import check_reachable
from yahtzee_rules.play._value_text import format_card, format_progress, parse_card, parse_progress
from yahtzee_rules.play.scorecard import EMPTY_CARD, Scorecard, category_arg, empty_card
from yahtzee_rules.play.scoring import BoxOption, box_options, forced_category, verify_fill
from yahtzee_rules.support import _text
from yahtzee_rules.support._frozen import raw_builder, reinit_error
from yahtzee_rules.support._limits import MAX_ROLLS
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = ["MAX_ROLLS", "Turn"]

_OUTCOMES = tuple(6**n for n in range(6))
_RANDOM = random.Random
_NO_OPTIONS: Mapping[Box, int] = MappingProxyType({})


def _check_turn(instance: Turn, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not int or not 0 <= value <= MAX_ROLLS:
        raise MalformedInputError(
            f"rolls_used {show(value)}: not an int from 0 to 3; a turn has at most three rolls"
        )
    if (value == 0) != (instance.dice is None):
        raise MalformedInputError(
            f"turn with dice {show(instance.dice)} and rolls_used {value}: a turn has dice "
            f"exactly when it has rolled at least once"
        )


def _check_turn_card(instance: Turn, attribute: attrs.Attribute[Any], card: object) -> None:
    check_card(card)
    if card.is_complete:  # type: ignore[attr-defined]
        raise MalformedInputError(
            f"turn: the card is complete; a game has {len(card.boxes)} turns "  # type: ignore[attr-defined]
            f"per player, one box each"
        )


def _usual_rules(rules: Rules | None, instance: Any) -> Rules:
    """The rules given, or for ``None`` the card's usual rules (``Rules.for_card``)."""
    if rules is not None:
        return rules
    design = getattr(instance.card, "card", None)  # the card's own check refuses a non-card
    return Rules.for_card(design) if isinstance(design, Card) else Rules()


def _check_turn_rules(instance: Turn, attribute: attrs.Attribute[Any], rules: object) -> None:
    rules = check_rules(rules)
    card = instance.card
    if card.card != rules.card:
        if card is EMPTY_CARD:
            # Turn(rules=...) on another card: start from that card's empty scorecard.
            object.__setattr__(instance, "card", empty_card(rules.card))
        else:
            check_pair(card, rules)
    check_marks_allowed(instance.card, rules)


def check_marks_allowed(card: Scorecard, rules: Rules) -> None:
    """Refuse a card no order of legal turns under ``rules`` fills as it is: bonus marks
    the rules could never have written, a card filled out of card order under boxes
    filled in card order, and (``play._reachable.check_reachable``) boxes the Joker or
    Forced Yahtzee could not have filled in any order."""
    if card.bonus_marks and rules.yahtzee_bonus == 0:
        raise MalformedInputError(
            f"card {show(card)}: {card.bonus_marks} bonus marks, but these rules have "
            f"yahtzee_bonus=0, so no extra Yahtzee earns a mark"
        )
    if rules.in_order:
        filled = [points is not None for points in card.boxes]
        if filled != sorted(filled, reverse=True):
            first = next(box for box, points in card if points is None)
            raise MalformedInputError(
                f"card {show(card)}: a box after {first.label} is filled, but these rules "
                f"fill the boxes in card order, so no box after the first open one is filled"
            )
    yahtzees = rules.card.yahtzees
    if card.bonus_marks and yahtzees:
        _check_room(card, rules)
    check_reachable(card, rules)


def _check_room(card: Scorecard, rules: Rules) -> None:
    """Refuse more bonus marks than filled boxes an extra Yahtzee could write in."""
    yahtzees = rules.card.yahtzees
    yahtzee = yahtzees[0]
    values = extra_yahtzee_values(rules.card, rules.joker)
    room = sum(
        1
        for box, points in card
        if points is not None and box not in yahtzees and points in values[box]
    )
    if card.bonus_marks > room:
        joker = "no Joker" if rules.joker is JokerRule.NONE else f"the {rules.joker.value} Joker"
        raise MalformedInputError(
            f"card {show(card)}: {card.bonus_marks} bonus marks, but under {joker} only "
            f"{room} filled boxes hold a value an extra {yahtzee.label} can write there; "
            f"each bonus mark comes with five equal dice written in another box"
        )


def _optional_dice(value: object) -> Dice | None:
    return None if value is None else Dice(value)


@attrs.frozen
class Turn:
    """One player's turn on a card: the dice so far and how many rolls are used.

    ``Turn(card)`` is a turn that has not rolled yet. Every action returns a new
    value; the turn it was called on is unchanged, so undo is keeping the old one.
    Only the card may be given by position; ``rules``, ``dice`` and ``rolls_used``
    are keyword-only.

    Args:
        card: The card this turn will fill a box of; it must have an open box and be
            of the rules' card design. Omitted, the empty card of ``rules``.
        rules: The ruleset (keyword only). Omitted or ``None``, the card's usual rules
            (:meth:`Rules.for_card <yahtzee_rules.Rules.for_card>`): Classic with the
            forced Joker for a Classic card, or with no card given.
        dice: The dice showing, or ``None`` before the first roll (keyword only).
        rolls_used: 0 to 3 (keyword only).

    Raises:
        MalformedInputError: For inconsistent fields (dice without a roll), a complete
            card, bonus marks under rules without a Yahtzee bonus, or a card no order of
            legal turns under the rules fills as it is (``fh=25,y=50,+1`` under the forced
            Joker: an extra Yahtzee goes in its open upper box first).

    Attributes:
        card: The card being played.
        rules: The rule set.
        dice: The current dice, ``None`` before the first roll.
        rolls_used: Rolls taken so far.

    Examples:
        >>> import random
        >>> turn = Turn().roll(random.Random(3))
        >>> turn.rolls_used, turn.rolls_left, len(turn.dice)
        (1, 2, 5)
        >>> Turn(dice="12345", rolls_used=2).can_roll()
        True
        >>> from yahtzee_rules import Rules, Scorecard
        >>> Turn(Scorecard(), rules=Rules.from_name("free-choice")).rules.name
        'free-choice'
        >>> from yahtzee_rules import YATZY
        >>> Turn(Scorecard(card=YATZY)).rules.name  # the card's usual rules
        'yatzy'
    """

    card: Scorecard = attrs.field(default=EMPTY_CARD, validator=_check_turn_card)
    rules: Rules = attrs.field(
        default=None,
        converter=attrs.Converter(_usual_rules, takes_self=True),  # type: ignore[misc]
        validator=_check_turn_rules,
        kw_only=True,
    )
    dice: Dice | None = attrs.field(default=None, converter=_optional_dice, kw_only=True)
    rolls_used: int = attrs.field(default=0, validator=_check_turn, kw_only=True)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn (3 before the first roll).

        Examples:
            >>> Turn().rolls_left
            3
        """
        return MAX_ROLLS - self.rolls_used

    @property
    def has_rolled(self) -> bool:
        """Whether the turn has dice, so a box may be filled.

        Examples:
            >>> Turn().has_rolled, Turn().roll(outcome="12345").has_rolled
            (False, True)
        """
        return self.dice is not None

    def __str__(self) -> str:
        card = format_card(self.card)
        return f"{self.rules} {card} {format_progress(self.dice, self.rolls_used)}"

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read a turn from its notation, such as ``"forced 4=12 22456@2"``; the inverse of ``str()``.

        See :func:`yahtzee_rules.formats.notation.parse_turn`.

        Raises:
            MalformedInputError: For bad syntax or a turn no game can reach.

        Examples:
            >>> turn = Turn.parse("forced - 13366@1")
            >>> turn.dice, str(turn)
            (Dice('13366'), 'forced - 13366@1')
        """
        text = _text.check_text("turn", text)
        fields = _text.split("turn", text)
        if len(fields) != 3:
            raise _text.fail(
                "turn",
                text,
                f"{len(fields)} fields; a turn is rules, card and progress separated by "
                f"single spaces, such as 'forced 4=12 22456@2'",
            )
        try:
            rules = Rules.parse(fields[0])
        except MalformedInputError as error:
            raise _text.fail("turn", text, str(error)) from None
        card = parse_card(fields[1], "turn", text, rules.card)
        progress = parse_progress(fields[2], "turn", text, allow_end=False)
        assert progress is not None
        try:
            return make_turn(rules, card, progress)
        except MalformedInputError as error:
            raise _text.fail("turn", text, str(error)) from None

    # --- rolling -----------------------------------------------------------------

    def verify_roll(self, keep: KeepLike | None = None) -> Keep:
        """Raise the reason a roll holding ``keep`` is not allowed now; else return the keep.

        Raises:
            IllegalActionError: After three rolls, or when ``keep`` holds dice that are
                not showing (or any dice before the first roll).
            MalformedInputError: If ``keep`` is not a valid keep.

        Examples:
            >>> Turn().roll(outcome="13366").verify_roll("336")
            Keep('336')
            >>> Turn().verify_roll()
            Keep('')
            >>> Turn().roll(outcome="13366").verify_roll("333")
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.IllegalActionError: keep '333': the dice showing are 13366; you can hold only dice that are showing
        """
        held = EMPTY_KEEP if keep is None else as_keep(keep)
        _check_roll(self.dice, self.rolls_used, held)
        return held

    def can_roll(self, keep: KeepLike | None = None) -> bool:
        """Whether a roll holding ``keep`` is allowed now.

        Examples:
            >>> turn = Turn().roll(outcome="13366")
            >>> turn.can_roll("366"), turn.can_roll("666")
            (True, False)
        """
        try:
            self.verify_roll(keep)
        except IllegalActionError:
            return False
        return True

    def roll(
        self,
        rng: random.Random | None = None,
        *,
        keep: KeepLike | None = None,
        outcome: DiceLike | str | None = None,
    ) -> Turn:
        """Hold ``keep`` and throw the other dice; the first roll throws all five.

        Args:
            rng: The random source: pass a seeded :class:`random.Random` to replay the
                dice. Omitted (with no ``outcome``), the library's own private generator,
                seeded by the operating system, throws them: fine for play, but nothing
                replays it. The global :mod:`random` state is never touched.
            keep: The dice to hold, a sub-multiset of the dice showing (any earlier
                holds may be released). ``None`` holds nothing.
            outcome: Instead of ``rng``, the faces the thrown dice showed, one per die
                thrown, in any order: to replay a game or play with physical dice.

        Returns:
            A new turn with one more roll used.

        Raises:
            IllegalActionError: For a fourth roll, or holding dice that are not showing.
            MalformedInputError: For a malformed keep or outcome, an outcome with the
                wrong number of faces, or both ``rng`` and ``outcome``.

        Examples:
            >>> turn = Turn().roll(outcome="22335")
            >>> turn.roll(keep="2233", outcome="3").dice
            Dice('22333')
            >>> turn.roll(keep="2233", outcome="36")
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.MalformedInputError: outcome '36': 2 faces for 1 thrown die; give one face per die thrown
        """
        used = self.rolls_used
        dice = rolled_dice(self.dice, used, rng, keep, outcome)
        return raw_turn(self.card, self.rules, dice, used + 1)

    # --- filling -----------------------------------------------------------------

    @property
    def options(self) -> Mapping[Box, int]:
        """Every box the current dice may fill and its points (empty before the first roll).

        Examples:
            >>> from yahtzee_rules import Category
            >>> Turn().roll(outcome="33356").options[Category.THREE_OF_A_KIND]
            20
            >>> len(Turn().options)
            0
        """
        if self.dice is None:
            return _NO_OPTIONS
        return MappingProxyType(legal(self.card.boxes, self.dice, self.rules))

    def box_options(self, *, locale: str | None = None) -> Mapping[Box, BoxOption]:
        """A :class:`~yahtzee_rules.BoxOption` for every box: points, or why the box is closed.

        The reasons are in ``locale``'s language (English by default).

        Raises:
            IllegalActionError: Before the first roll.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> turn = Turn(Scorecard({Category.YAHTZEE: 50})).roll(outcome="44444")
            >>> turn.box_options()[Category.CHANCE].reason
            'the forced Joker requires Fours, which is open: five 4s must go in Fours'
        """
        if self.dice is None:
            raise IllegalActionError(
                "box options: no dice yet; roll at least once to see what each box would score"
            )
        return box_options(self.card, self.dice, rules=self.rules, locale=locale)

    @property
    def forced_category(self) -> Box | None:
        """The box the forced Joker requires for the current dice, if any.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> Turn(Scorecard({Category.YAHTZEE: 0})).roll(outcome="22222").forced_category
            <Category.TWOS: 1>
        """
        if self.dice is None:
            return None
        return forced_category(self.card, self.dice, rules=self.rules)

    def _rolled(self, action: str) -> Dice:
        if self.dice is None:
            raise IllegalActionError(
                f"{action}: no dice yet; roll at least once before filling a box"
            )
        return self.dice

    def verify_fill(self, category: Box | str) -> None:
        """Raise the reason ``category`` may not be filled now; return ``None`` if it may.

        Raises:
            IllegalActionError: Before the first roll, for a filled box, or a box the
                Joker rule forbids.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Turn().verify_fill(Category.CHANCE)
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.IllegalActionError: fill Chance: no dice yet; roll at least once before filling a box
        """
        box: Box = category_arg(category, self.rules.card)
        dice = self._rolled(f"fill {box.label}")
        verify_fill(self.card, dice, box, rules=self.rules)

    def can_fill(self, category: Box | str) -> bool:
        """Whether ``category`` may be filled now.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Turn().can_fill(Category.CHANCE), Turn().roll(outcome="12345").can_fill(Category.CHANCE)
            (False, True)
        """
        return self.dice is not None and category_arg(category, self.rules.card) in legal(
            self.card.boxes, self.dice, self.rules
        )

    def fill(self, category: Box | str) -> Scorecard:
        """End the turn by filling ``category``; returns the new card.

        Args:
            category: A box of the rules' card, or its name, label or code as text
                (``"ls"``, ``"large straight"``), as the boxes' ``parse`` reads it.

        Raises:
            IllegalActionError: Before the first roll, for a filled box, or a box the
                Joker rule forbids.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Turn().roll(outcome="12345").fill(Category.LARGE_STRAIGHT)[Category.LARGE_STRAIGHT]
            40
        """
        box: Box = category_arg(category, self.rules.card)
        dice = self.dice
        if dice is None:
            self._rolled(f"fill {box.label}")  # raises with the reason
        return fill_unchecked(self.card, dice, box, self.rules)  # type: ignore[arg-type]


def _check_roll(dice: Dice | None, rolls_used: int, held: Keep) -> None:
    """Raise the reason holding ``held`` and rolling is not allowed now, if it is not."""
    if rolls_used >= MAX_ROLLS:
        raise IllegalActionError(
            "roll: this turn has used all 3 rolls; a turn has at most three rolls, "
            "so fill a box now"
        )
    if dice is None:
        if held.faces:
            raise IllegalActionError(
                f"keep {str(held)!r}: nothing to hold before the first roll; "
                f"the first roll throws all five dice"
            )
    elif held.position not in KEEP_INDEXES_OF[dice.position]:
        raise IllegalActionError(
            f"keep {str(held)!r}: the dice showing are {dice}; "
            f"you can hold only dice that are showing"
        )


def next_dice(
    dice: Dice | None,
    rolls_used: int,
    rng: random.Random | None,
    keep: KeepLike | None,
    outcome: DiceLike | str | None,
) -> Dice:
    """The dice after holding ``keep`` and throwing the rest; raises if the roll is illegal."""
    if rng is not None and outcome is not None:
        raise MalformedInputError(
            f"roll: give rng or outcome, not both; outcome {show(outcome)} says what the "
            f"dice showed, so there is nothing left for rng to throw"
        )
    held = EMPTY_KEEP if keep is None else as_keep(keep)
    _check_roll(dice, rolls_used, held)
    thrown = 5 - len(held.faces)
    if outcome is None:
        generator = rng or RNG
        if not callable(getattr(generator, "random", None)):
            raise MalformedInputError(
                f"rng {show(rng)}: not a random.Random; pass random.Random(seed)"
            )
        index = int(generator.random() * _OUTCOMES[thrown])
    else:
        if isinstance(outcome, Dice):
            faces = outcome.faces
        else:
            faces = faces_from(outcome, what="outcome", lengths=range(6))
        if len(faces) != thrown:
            raise MalformedInputError(
                f"outcome {show(outcome)}: {len(faces)} faces for {thrown} thrown "
                f"{'die' if thrown == 1 else 'dice'}; give one face per die thrown"
            )
        index = outcome_index(faces)
    return roll_table(held)[index]


def rolled_dice(
    dice: Dice | None,
    rolls_used: int,
    rng: random.Random | None,
    keep: KeepLike | None,
    outcome: DiceLike | str | None,
) -> Dice:
    """The dice after holding ``keep`` and throwing the rest; raises if the roll is illegal.

    :meth:`Turn.roll` and :meth:`Game.roll <yahtzee_rules.Game.roll>` in one place: the
    usual roll (a :class:`random.Random` throws, holding nothing or a :class:`Keep` of
    the dice showing) is checked here at less cost, and every other one by
    :func:`next_dice`, which gives the same dice from the same generator.
    """
    generator = RNG if rng is None else rng
    held = EMPTY_KEEP if keep is None else keep
    if (
        outcome is None
        and type(generator) is _RANDOM
        and type(held) is Keep
        and rolls_used < MAX_ROLLS
        and (not held.faces if dice is None else held.position in KEEP_INDEXES_OF[dice.position])
    ):
        table = roll_table(held)
        return table[int(generator.random() * len(table))]
    return next_dice(dice, rolls_used, rng, keep, outcome)


#: A turn built without validation, for values the rules engine produced itself:
#: ``raw_turn(card, rules, dice, rolls_used)``.
raw_turn: Callable[[Scorecard, Rules, Dice | None, int], Turn] = raw_builder(Turn)


def make_turn(rules: Rules, card: Scorecard, progress: tuple[Dice | None, int]) -> Turn:
    """Assemble and check a turn from decoded fields.

    Raises MalformedInputError with a plain message (the caller adds the input).
    """
    if card.bonus_marks and rules.yahtzee_bonus == 0:
        raise MalformedInputError(
            f"the card has {card.bonus_marks} bonus marks but the rules have no Yahtzee "
            f"bonus (yahtzee_bonus 0); no roll earns a mark under these rules"
        )
    check_marks_allowed(card, rules)
    if card.is_complete:
        raise MalformedInputError("the card is complete, so no turn is left; a card has 13 boxes")
    return raw_turn(card, rules, progress[0], progress[1])
