"""The moves of a game played at the terminal, to undo, save and replay it.

Examples:
    >>> from yahtzee_rules import Category, Dice, Game, Keep
    >>> moves = [Rolled(Keep(()), Dice("22456")), Rolled(Keep("22"), Dice("22234")),
    ...          Filled(Category.TWOS)]
    >>> replay(Game.new(["Ann"]), moves).totals("Ann").grand_total
    6
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from yahtzee_rules.categories import Category
from yahtzee_rules.dice import Dice, Keep
from yahtzee_rules.game import Game

__all__ = ["Filled", "Move", "Rolled", "apply", "replay"]


@attrs.frozen
class Rolled:
    """A roll: the dice held, and all five dice showing afterwards.

    Examples:
        >>> Rolled(Keep("22"), Dice("22234")).thrown
        (2, 3, 4)
    """

    keep: Keep
    dice: Dice

    @property
    def thrown(self) -> tuple[int, ...]:
        """The faces of the dice thrown (the dice showing less those held), ascending.

        Examples:
            >>> Rolled(Keep(()), Dice("12345")).thrown
            (1, 2, 3, 4, 5)
        """
        rest = list(self.dice.faces)
        for face in self.keep.faces:
            rest.remove(face)
        return tuple(rest)


@attrs.frozen
class Filled:
    """A fill of one box, ending the turn.

    Examples:
        >>> Filled(Category.CHANCE).category.code
        'c'
    """

    category: Category


#: One move of the game.
Move = Rolled | Filled


def apply(game: Game, move: Move) -> Game:
    """The game after ``move``, checked by the rules.

    Raises:
        IllegalActionError: If the rules forbid the move.

    Examples:
        >>> apply(Game.new(["Ann"]), Rolled(Keep(()), Dice("12345"))).dice
        Dice('12345')
    """
    if isinstance(move, Rolled):
        return game.roll(keep=move.keep, outcome=move.thrown)
    return game.fill(move.category)


def replay(start: Game, moves: Iterable[Move]) -> Game:
    """The game after playing ``moves`` from ``start``.

    Examples:
        >>> replay(Game.new(["Ann"]), []) == Game.new(["Ann"])
        True
    """
    game = start
    for move in moves:
        game = apply(game, move)
    return game
