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

MAX_JSON_INDENT = 2
"""The largest ``indent`` :func:`~yahtzee_rules.to_json` writes with: the largest record and
match indented by 2 still read back (by 3, the largest match would be over
:data:`MAX_MATCH_LENGTH`)."""

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

MAX_WEB_SEATS = 8
"""The most players the web table (``yahtzee-rules serve``) seats: the seats of its setup
form. A link to a game of more players is refused before anything is worked out."""

MAX_WEB_CODE_LENGTH = 8_192
"""The longest share code a web-table link holds, in characters, checked before the code is
read. The longest game the setup form can start (:data:`MAX_WEB_SEATS` players with names of
:data:`MAX_NAME_LENGTH` characters that each take 4 bytes, every box of Triple Yahtzee's 39
filled after three rolls) writes 6,820."""

MAX_WEB_FORM_BYTES = 16_384
"""The largest form body the web table reads, in bytes: a longer ``Content-Length`` is
refused (413) before the body is read, and a body sent without one once it grows past."""

WEB_WORKERS = 1
"""The web table's worker threads by default: the requests that work out a page or a move at
once (every page, move, computer player and coach answer is worked out in one, never on the
server's event loop). The work is Python code that holds the interpreter's lock, so more
threads would not work faster; one leaves the event loop the most time to answer."""

WEB_QUEUE = 32
"""The requests the web table lets wait for a worker by default; one more is answered at once
with 503 (Service Unavailable) and a ``Retry-After`` header."""

MIN_SECRET_BYTES = 16
"""The shortest key a web table signs its links with, in bytes (128 bits)."""

MAX_SECRET_BYTES = 1024
"""The longest key a web table signs its links with, in bytes: a secret file is read no further."""

MAX_ANSWER_LENGTH = 100_000
"""The longest answer line ``yahtzee-rules check`` reads from the program it checks, in
characters; a longer line is reported as the program's failure."""

MAX_CACHE_BYTES = 2_000_000_000
"""The most bytes the solver's cache directory holds by default (2 GB), set otherwise by
``YAHTZEE_RULES_CACHE_LIMIT``: after each write the least recently used files are removed
until the rest fit, and a file larger than the whole limit is not kept. It holds Hasbro's
table (8 MB), its decision table (272 MB) and a target table up to 300 (752 MB) at once."""
MAX_ACCEPT_LANGUAGE_LENGTH = 1_000
"""The longest prefix of a browser's ``Accept-Language`` header the web table reads, in
characters (:func:`yahtzee_rules.support.l10n.best_locale`); the rest is ignored."""
REVIEW_WIN_OPEN_BOXES = 1
"""A review asked for the chance of winning (``review(..., wins=True)``) gives it for the
decisions of a player's turns with at most this many boxes open, when every other player
has finished or has at most as many open: the play-to-win tables of so late a game take
under a second to build once, and each turn's chances a few milliseconds."""

REVIEW_WIN_MOST_NEEDED = 200
"""The most points still needed that a review's chance of winning looks at: more than a
turn of Hasbro's rules can score (165, five sixes into Sixes for the upper bonus with an
extra-Yahtzee bonus). A decision whose score to beat needs more gets no figure."""
