"""Game records: a starting game and every action since, for replay, undo, saving and sharing.

A :class:`GameRecord` holds where the game started (usually a new game: the
players, the rules and the starting seat) and the actions played since, in
order: each :class:`Roll` with the dice held and the faces the thrown dice
showed, and each :class:`Fill`. Replaying the actions reproduces the game
exactly, so the record is all a program needs to save a game, undo moves,
attach a game to a bug report, or continue it on another device with a
:meth:`~GameRecord.share_code`.

Examples:
    >>> from yahtzee_rules import Category, GameRecord
    >>> record = GameRecord.new(["Ann", "Bob"]).roll(outcome="22345")
    >>> record = record.roll(keep="2345", outcome="6").fill(Category.LARGE_STRAIGHT)
    >>> str(record)
    'forced 0 Ann,Bob : 22345 2345/6 ls'
    >>> record.game.totals("Ann").grand_total, record.game.current_player
    (40, 'Bob')
    >>> record.undo().game.dice
    Dice('23456')
    >>> GameRecord.parse(str(record)) == record
    True
"""

from __future__ import annotations

from yahtzee_rules._record import (
    Action,
    Fill,
    GameRecord,
    Roll,
)
from yahtzee_rules._record import (
    check_ruleset as check_ruleset,
)

__all__ = ["Action", "Fill", "GameRecord", "Roll"]
