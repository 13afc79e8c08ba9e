"""Counts fixed by the rules of the game, at the bottom of the layers.

Internal: the public names are re-exported where they belong
(:data:`yahtzee_rules.turn.MAX_ROLLS`), so modules low in the layers, such as
:mod:`yahtzee_rules.probability`, can use them without importing a layer above.
"""

from __future__ import annotations

MAX_ROLLS = 3
"""Rolls allowed in one turn, the first included."""

MAX_PLAYERS = 50_000
"""The most players a game seats: as many as the longest notation (100,000 characters) can name."""
