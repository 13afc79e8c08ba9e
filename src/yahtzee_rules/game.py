"""A game for one or more players: seats, the starting-player roll-off, turns and the result.

Examples:
    >>> import random
    >>> from yahtzee_rules import Category, Game
    >>> game = Game.new(["Ann", "Bob"])
    >>> game.current_player, game.round
    ('Ann', 1)
    >>> game = game.roll(outcome="12345").fill(Category.LARGE_STRAIGHT)
    >>> game.current_player, game.cards[0][Category.LARGE_STRAIGHT]
    ('Bob', 40)
"""

from __future__ import annotations

from yahtzee_rules._game import (
    Game,
    Result,
    RollOff,
    Standing,
    roll_off,
)
from yahtzee_rules._limits import MAX_NAME_LENGTH, MAX_PLAYERS

__all__ = ["MAX_NAME_LENGTH", "MAX_PLAYERS", "Game", "Result", "RollOff", "Standing", "roll_off"]
