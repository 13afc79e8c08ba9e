"""The exceptions raised by yahtzee_rules.

Everything the library raises for bad input or a forbidden action is a
:class:`RulesError`, which is a :class:`ValueError`. There are two kinds:

* :class:`MalformedInputError`: the input itself is wrong (dice of the wrong
  length, a face of 7, text that is not notation, a scorecard no game can
  reach). It would be wrong in any position.
* :class:`IllegalActionError`: the input is well formed, but the rules forbid it
  now (filling a box that is already filled, a fourth roll, a Joker placement
  the forced order does not allow).

Messages are lower-case, quote the offending input, name the rule, and say what
is allowed instead.

Examples:
    >>> from yahtzee_rules import Dice, RulesError, MalformedInputError
    >>> try:
    ...     Dice("12347")
    ... except MalformedInputError as error:
    ...     print(error)
    dice '12347': face 7 is outside 1-6; dice are five faces from 1 to 6
    >>> issubclass(MalformedInputError, RulesError) and issubclass(RulesError, ValueError)
    True
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "MalformedInputError",
    "RulesError",
    "StrategyError",
    "UnknownLocaleError",
]


class RulesError(ValueError):
    """Base class of every error yahtzee_rules raises for bad input or a forbidden action.

    Catch this to handle anything a user or a remote peer can get wrong.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, fill, RulesError
        >>> card = fill(Scorecard(), "11111", Category.ACES)
        >>> try:
        ...     fill(card, "22222", Category.ACES)
        ... except RulesError as error:
        ...     print(type(error).__name__)
        IllegalActionError
    """


class MalformedInputError(RulesError):
    """The input is not a valid value at all: wrong type, wrong length, out of range, bad text.

    Examples:
        >>> from yahtzee_rules import Dice, MalformedInputError
        >>> try:
        ...     Dice([1, 2, 3])
        ... except MalformedInputError as error:
        ...     print(error)
        dice [1, 2, 3]: 3 faces given; dice are exactly five faces from 1 to 6
    """


class IllegalActionError(RulesError):
    """A well-formed action that the rules forbid in the current position.

    Examples:
        >>> from yahtzee_rules import Turn, IllegalActionError
        >>> turn = Turn().roll(outcome="12345").roll(outcome="12345").roll(outcome="12345")
        >>> try:
        ...     turn.roll(outcome="66666")
        ... except IllegalActionError as error:
        ...     print(error)
        roll: this turn has used all 3 rolls; a turn has at most three rolls, so fill a box now
    """


class StrategyError(RulesError):
    """A strategy raised an exception of its own in the middle of a run.

    :func:`~yahtzee_rules.simulate` and tournaments raise it for a strategy's exception
    that is not a :class:`RulesError` (one that is, such as the
    :class:`IllegalActionError` of a closed box, keeps its class). Either way the
    message names the strategy, its seat and the game (a tournament's deal and seed, a
    simulation's game and seed), so the game can be played again; the original is
    the ``__cause__`` (``raise ... from``), and its type and words end the message, so
    they survive a process pool, which drops the cause.

    Examples:
        >>> from yahtzee_rules import GreedyStrategy, StrategyError, simulate
        >>> class Buggy(GreedyStrategy):
        ...     def choose_keep(self, turn, rng):
        ...         return 1 / 0
        >>> try:
        ...     simulate(Buggy(), games=3, seed=7)
        ... except StrategyError as error:
        ...     print(error)
        ...     print(type(error.__cause__).__name__)
        strategy Buggy() in seat 0, game 1 of simulate(seed=7) (chunk 0, game 0 of its 3): ZeroDivisionError: division by zero
        ZeroDivisionError
    """


class UnknownLocaleError(MalformedInputError):
    """A locale the library has no catalogue for, such as ``"xx"`` or ``"pt"``.

    Raised by every function that takes ``locale=`` (and the command line's ``--lang``);
    the message names the locale and the locales available.

    Examples:
        >>> from yahtzee_rules import Category
        >>> try:
        ...     Category.FULL_HOUSE.label_in("pt")
        ... except UnknownLocaleError as error:
        ...     print(error)
        locale 'pt': no catalogue for it; available: en, de, fr, sv, da, es (a region such as 'de-AT' falls back to its language)
    """
