"""Counts fixed by the rules of the game, and the bounds every reader and constructor keeps.

Internal: the public names are re-exported where they belong
(:data:`yahtzee_rules.play.turn.MAX_ROLLS`, :data:`yahtzee_rules.formats.notation.MAX_INPUT_LENGTH`,
:data:`yahtzee_rules.play.game.MAX_PLAYERS`...), so modules low in the layers, such as
:mod:`yahtzee_rules.play.probability`, can use them without importing a layer above.

The bounds are chosen together, so that every value the constructors accept writes
and reads back in every format: the largest record (:data:`MAX_PLAYERS` players with
names of :data:`MAX_NAME_LENGTH` characters that each need the longest escape, every
box of the longest card, Triple Yahtzee's 39, filled after three rolls) takes about
108,000 characters of notation, 43,000 of share code and 420,000 of JSON (1,003,000
indented by 2), within :data:`MAX_INPUT_LENGTH` and :data:`MAX_JSON_LENGTH`. The
largest match (:data:`MAX_MATCH_PLAYER_GAMES` player-games of Triple Yahtzee, two
players of the longest names playing 125 games) takes about 240,000 characters of
notation, 216,000 of share code and 6,600,000 of JSON indented by 2, within
:data:`MAX_MATCH_LENGTH`. ``tests/test_round_trip_bounds.py`` builds both and checks
them.
"""

from __future__ import annotations

MAX_ROLLS = 3
"""Rolls allowed in one turn, the first included."""

MAX_PLAYERS = 50
"""The most players a game seats."""

MAX_NAME_LENGTH = 100
"""The longest player name, in characters (code points)."""

MAX_BONUS = 999_999_999
"""The largest bonus value or threshold a ruleset holds: nine digits, as every format writes."""

MAX_INPUT_LENGTH = 200_000
"""The longest notation or share code any reader takes, in characters (a match's: see
:data:`MAX_MATCH_LENGTH`)."""

MAX_JSON_LENGTH = 2_000_000
"""The longest JSON text :func:`~yahtzee_rules.from_json` takes, in characters (bytes: 4 times
as many, as a character takes up to 4 bytes of UTF-8); a match's: see :data:`MAX_MATCH_LENGTH`."""

MAX_MATCH_PLAYER_GAMES = 250
"""The most player-games in a match: players times games started (play-offs included), and
players times its best-of number. Two players can play a best of 99 with 26 play-offs;
fifty, a best of 5."""

MAX_MATCH_LENGTH = 8_000_000
"""The longest notation, share code or JSON text of a match any reader takes, in characters."""

MAX_DEAL_GAMES = 100_000
"""The most games one deal of a tournament plays: every group of ``seats`` strategies
in each of its seat rotations (``seats`` games a group, ``2 * seats`` from three seats
on). Two seats allow 316 strategies; checked before any group is listed."""

MAX_ACTIONS_PER_BOX = MAX_ROLLS + 1
"""A record plays at most this many actions per box per player: three rolls and a fill."""
