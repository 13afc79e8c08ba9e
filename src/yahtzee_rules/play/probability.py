"""Exact dice probabilities: the next roll for a keep, and the chance of making a pattern.

Every figure is an exact :class:`fractions.Fraction`, computed in pure Python
over the 252 distinct rolls and 462 distinct keeps (no sampling, no NumPy).

* :func:`roll_distribution` gives the distribution of the dice after holding a
  keep and throwing the others.
* :func:`chance_of` gives the probability of ending a turn with a pattern (a
  :class:`~yahtzee_rules.Category` that scores, or any test on the dice) when
  every keep is chosen to make that pattern as likely as possible;
  :func:`best_keep` says which keep that is.

Examples:
    >>> from yahtzee_rules import Category, Dice, Keep, chance_of, roll_distribution
    >>> roll_distribution(Keep("6666"))[Dice("66666")]
    Fraction(1, 6)
    >>> p = chance_of(Category.YAHTZEE)  # a whole turn, playing for a Yahtzee
    >>> p, round(float(p), 5)
    (Fraction(347897, 7558272), 0.04603)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TypeAlias

from yahtzee_rules.core.boxes import Box, card_of
from yahtzee_rules.core.classic import Category
from yahtzee_rules.core.dice import (
    ALL_DICE,
    ALL_KEEPS,
    COUNTS,
    KEEP_BY_FACES,
    KEEPS_OF,
    Dice,
    DiceLike,
    Keep,
    KeepLike,
    as_dice,
    as_keep,
    dice_index,
    keep_index,
    ways,
)
from yahtzee_rules.support._limits import MAX_ROLLS
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["Pattern", "best_keep", "chance_of", "roll_distribution"]

#: What :func:`chance_of` aims for: a box that must score more than 0, or a test on the dice.
Pattern: TypeAlias = "Category | Callable[[Dice], bool]"

_SIZE_FIVE = 462 - 252  # index of the first five-dice keep; five-dice keeps follow Dice.all()
_ONE = Fraction(1)
_ZERO = Fraction(0)


def _children() -> tuple[tuple[int, ...], ...]:
    """For each keep of fewer than five dice, the six keeps with one more die (faces 1-6)."""
    rows = []
    for keep in ALL_KEEPS[:_SIZE_FIVE]:
        rows.append(
            tuple(
                keep_index(KEEP_BY_FACES[tuple(sorted((*keep.faces, face)))])
                for face in range(1, 7)
            )
        )
    return tuple(rows)


_CHILDREN = _children()


@functools.lru_cache(maxsize=len(ALL_KEEPS))
def _distribution(index: int) -> Mapping[Dice, Fraction]:
    held = ALL_KEEPS[index]
    thrown = 5 - len(held.faces)
    denominator = 6**thrown
    result: dict[Dice, Fraction] = {}
    for dice in ALL_DICE:
        counts = COUNTS[dice_index(dice)]
        rest = [c - k for c, k in zip(counts, held.counts, strict=True)]
        if min(rest) < 0:
            continue
        result[dice] = Fraction(ways(tuple(rest)), denominator)
    return MappingProxyType(result)


def roll_distribution(keep: KeepLike | None = None) -> Mapping[Dice, Fraction]:
    """The exact distribution of the dice after holding ``keep`` and throwing the rest.

    Args:
        keep: The dice held (a :class:`~yahtzee_rules.Keep` or anything it accepts);
            ``None`` or an empty keep throws all five dice.

    Returns:
        A read-only mapping from each reachable roll to its probability, in the order
        of :meth:`Dice.all() <yahtzee_rules.Dice.all>`. The probabilities add up to 1.

    Raises:
        MalformedInputError: If ``keep`` is not a valid keep.

    Examples:
        >>> from yahtzee_rules import Dice, roll_distribution
        >>> first = roll_distribution()
        >>> len(first), first[Dice("12345")], first[Dice("66666")]
        (252, Fraction(5, 324), Fraction(1, 7776))
        >>> dict(roll_distribution("1234"))[Dice("12345")]
        Fraction(1, 6)
        >>> sum(roll_distribution("33").values())
        Fraction(1, 1)
    """
    held = ALL_KEEPS[0] if keep is None else as_keep(keep)
    return _distribution(keep_index(held))


def _check_target(target: object) -> Callable[[Dice], bool]:
    if isinstance(target, Box):
        table = card_of(target).table
        category = target
        return lambda dice: table[dice_index(dice)][category] > 0
    if callable(target):
        return target
    raise MalformedInputError(
        f"target {show(target)}: not a Category or a test on the dice; give a box such as "
        f"Category.YAHTZEE or a function from Dice to bool"
    )


def _check_rolls(rolls_left: object, *, rolled: bool) -> int:
    low, high = (0, MAX_ROLLS - 1) if rolled else (1, MAX_ROLLS)
    if type(rolls_left) is not int or not low <= rolls_left <= high:
        state = "after a roll" if rolled else "before the first roll"
        raise MalformedInputError(
            f"rolls_left {show(rolls_left)}: {state} a turn has {low} to {high} rolls left; "
            f"give an int from {low} to {high}"
        )
    return rolls_left


@functools.lru_cache(maxsize=64)
def _tables(
    target: Callable[[Dice], bool] | Category,
) -> tuple[tuple[tuple[Fraction, ...], ...], tuple[tuple[Fraction, ...], ...]]:
    """Hit probabilities for each roll, and for each keep, by rerolls left (0 to 2).

    ``rolls[r][d]``: the chance to finish with the pattern holding roll ``d`` with ``r``
    rerolls left. ``keeps[r][k]``: the chance after holding keep ``k`` and throwing,
    with ``r`` rerolls left after that throw.
    """
    hit = _check_target(target)
    final: list[Fraction] = []
    for dice in ALL_DICE:
        outcome = hit(dice)
        if not isinstance(outcome, bool):
            raise MalformedInputError(
                f"target {show(target)}: returned {show(outcome)} for {dice}; a pattern test "
                f"returns True or False"
            )
        final.append(_ONE if outcome else _ZERO)
    rolls: list[tuple[Fraction, ...]] = [tuple(final)]
    keeps: list[tuple[Fraction, ...]] = []
    for _ in range(MAX_ROLLS):
        values: list[Fraction] = [_ZERO] * len(ALL_KEEPS)
        values[_SIZE_FIVE:] = rolls[-1]
        for index in range(_SIZE_FIVE - 1, -1, -1):
            values[index] = sum((values[child] for child in _CHILDREN[index]), _ZERO) / 6
        keeps.append(tuple(values))
        rolls.append(
            tuple(
                max(values[keep_index(keep)] for keep in KEEPS_OF[dice_index(dice)])
                for dice in ALL_DICE
            )
        )
    return tuple(rolls), tuple(keeps)


def chance_of(
    target: Pattern, dice: DiceLike | None = None, *, rolls_left: int | None = None
) -> Fraction:
    """The probability of ending the turn with ``target``, keeping the best dice for it.

    Each reroll holds whichever dice make the target most likely (see
    :func:`best_keep`); the turn may stop as soon as the target shows.

    Args:
        target: A :class:`~yahtzee_rules.Category`, which must score more than 0 under
            :func:`~yahtzee_rules.score` (no Joker), or a function from
            :class:`~yahtzee_rules.Dice` to ``bool``. Functions are cached, so pass the
            same function object again to reuse the work.
        dice: The dice showing now, or ``None`` before the turn's first roll.
        rolls_left: Rolls still allowed: 1 to 3 before the first roll (default 3), 0 to 2
            with dice showing (default 2).

    Raises:
        MalformedInputError: For a target that is neither, a test that does not return a
            bool, or ``rolls_left`` out of range.

    Examples:
        >>> from yahtzee_rules import Category, chance_of
        >>> chance_of(Category.YAHTZEE, rolls_left=1)  # one roll: 6 of 7,776 rolls
        Fraction(1, 1296)
        >>> chance_of(Category.LARGE_STRAIGHT, "12346", rolls_left=1)  # one 5 is needed
        Fraction(1, 6)
        >>> chance_of(Category.YAHTZEE, "66665", rolls_left=2)  # 1 - (5/6) ** 2
        Fraction(11, 36)
        >>> round(float(chance_of(lambda d: d.total >= 25)), 4)
        0.4167
    """
    _check_target(target)
    if dice is None:
        rolls = _check_rolls(3 if rolls_left is None else rolls_left, rolled=False)
        return _tables(target)[1][rolls - 1][0]
    rolled = as_dice(dice)
    rolls = _check_rolls(2 if rolls_left is None else rolls_left, rolled=True)
    return _tables(target)[0][rolls][dice_index(rolled)]


def best_keep(target: Pattern, dice: DiceLike, *, rolls_left: int = 2) -> tuple[Keep, Fraction]:
    """The keep that makes ``target`` most likely, and that probability.

    Among keeps that tie, the one holding the fewest dice comes first, then the
    lowest notation. With 0 rolls left nothing can be thrown, so the answer holds
    all five dice.

    Args:
        target: As for :func:`chance_of`.
        dice: The dice showing.
        rolls_left: Rolls still allowed this turn, 0 to 2.

    Raises:
        MalformedInputError: For a bad target, dice or ``rolls_left``.

    Examples:
        >>> from yahtzee_rules import Category, best_keep
        >>> best_keep(Category.YAHTZEE, "33456")
        (Keep('33'), Fraction(113, 3888))
        >>> best_keep(Category.YAHTZEE, "33356", rolls_left=1)
        (Keep('333'), Fraction(1, 36))
        >>> best_keep(Category.SMALL_STRAIGHT, "11346")
        (Keep('34'), Fraction(160, 243))
    """
    rolled = as_dice(dice)
    rolls = _check_rolls(rolls_left, rolled=True)
    _check_target(target)
    if rolls == 0:
        return ALL_KEEPS[_SIZE_FIVE + dice_index(rolled)], _tables(target)[0][0][dice_index(rolled)]
    values = _tables(target)[1][rolls - 1]
    top = max(values[keep_index(keep)] for keep in KEEPS_OF[dice_index(rolled)])
    return next(k for k in KEEPS_OF[dice_index(rolled)] if values[keep_index(k)] == top), top
