"""The kinds of value that have a notation and a document: what the readers are fed and
what ``scripts/fuzz.py`` and the hostile-input tests build, read and write back."""

from __future__ import annotations

from yahtzee_rules import (
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    Keep,
    Roll,
    Rules,
    Scorecard,
    Turn,
)

KINDS: tuple[type, ...] = (
    Dice,
    Keep,
    Category,
    Rules,
    Scorecard,
    Turn,
    Game,
    Roll,
    Fill,
    GameRecord,
)
