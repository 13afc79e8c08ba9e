"""A match: best of N games between the same players, alternating who rolls first.

A :class:`Match` is a sequence of :class:`~yahtzee_rules.GameRecord` values under
one :class:`~yahtzee_rules.Rules`. The players keep their seats; the seat that
starts moves one place on each game (``first``, then ``first + 1``, ...), so with
two players they take turns at rolling first, as rulebook 002 advises ("Play best
of three or five. Alternate who rolls first each game."). The rules' tie rule
decides each game:

* ``TieRule.SHARE`` (the default): players tied for the highest total share that
  game's win equally, so two tied players get half a game each.
* ``TieRule.UPPER_TOTAL``: the highest upper total among the tied players wins
  the game; players still tied share it equally.
* ``TieRule.PLAY_OFF``: a tied game wins no one anything and does not count
  towards the N games; the next game plays it off (with every player, so for
  two players exactly the tied ones), still rotating who starts.

Wins are exact :class:`~fractions.Fraction` values, and they add up to the games
that counted. The match is decided as soon as no other player can catch the
leader in the games left; once all N games are counted it is decided too, and
players level on wins share the match, except under ``PLAY_OFF``, where games go
on until one player leads.

Examples:
    >>> from yahtzee_rules import Category, Match
    >>> match = Match.new(["Ann", "Bob"], best_of=3)
    >>> match.current.game.current_player
    'Ann'
    >>> match = match.roll(outcome="66666").fill(Category.YAHTZEE)
    >>> str(match)
    'bo3 forced 0 Ann,Bob : 66666 y'
    >>> Match.parse(str(match)) == match
    True
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from fractions import Fraction
from gc import get_referents

import attrs

from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import DiceLike, KeepLike
from yahtzee_rules.core.rules import Rules, TieRule
from yahtzee_rules.play.game import Game, Result, is_new
from yahtzee_rules.play.record import Fill, GameRecord, Roll, check_ruleset
from yahtzee_rules.support import _text
from yahtzee_rules.support._frozen import reinit_error, tuple_of
from yahtzee_rules.support._limits import MAX_MATCH_LENGTH, MAX_MATCH_PLAYER_GAMES
from yahtzee_rules.support._text import a_type, show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = ["MAX_BEST_OF", "MAX_MATCH_LENGTH", "MAX_MATCH_PLAYER_GAMES", "Match", "MatchStanding"]

MAX_BEST_OF = 99
"""The longest match: best of 99 games (for two players; see :data:`MAX_MATCH_PLAYER_GAMES`)."""

SHARE_CODE_PREFIX = "m1"
"""The version prefix of a match's share code."""

_BEST_OF_RE = re.compile(r"bo([1-9][0-9]?)")
_SHARE_RE = re.compile(r"[A-Za-z0-9_.-]*")


@attrs.frozen
class MatchStanding:
    """One player's place in a match.

    Attributes:
        rank: 1 for the most games won; players level on wins share a rank.
        player: The player's name.
        seat: The player's seat (0-based).
        wins: Games won, a :class:`~fractions.Fraction`: a shared game counts
            ``1/k`` for each of the ``k`` players sharing it.

    Examples:
        >>> from fractions import Fraction
        >>> MatchStanding(1, "Ann", 0, Fraction(3, 2))
        MatchStanding(rank=1, player='Ann', seat=0, wins=Fraction(3, 2))
    """

    rank: int
    player: str
    seat: int
    wins: Fraction

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)


def _to_best_of(value: object) -> int:
    if type(value) is not int or not 1 <= value <= MAX_BEST_OF or value % 2 == 0:
        raise MalformedInputError(
            f"best_of {show(value)}: not an odd int from 1 to {MAX_BEST_OF}; a match is the best "
            f"of an odd number of games, such as 3 or 5"
        )
    return value


def _to_records(value: object) -> tuple[GameRecord, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise MalformedInputError(
            f"records {show(value)}: give the match's game records, in the order played"
        )
    records = tuple_of(value)
    if not records:
        raise MalformedInputError(
            "records (): a match has at least its first game; start one with Match.new(players)"
        )
    for index, record in enumerate(records):
        if not isinstance(record, GameRecord):
            raise MalformedInputError(
                f"records: game {index + 1} {show(record)} is not a GameRecord"
            )
    return records


def _check_size(players: int, best_of: int, games: int) -> None:
    """Refuse a match beyond :data:`MAX_MATCH_PLAYER_GAMES`, which every format can save."""
    for count, what in ((best_of, f"best of {best_of}"), (games, f"{games} games started")):
        if players * count > MAX_MATCH_PLAYER_GAMES:
            raise MalformedInputError(
                f"match of {players} players, {what}: {players * count} player-games, more "
                f"than the limit of {MAX_MATCH_PLAYER_GAMES} (players times games), so that "
                f"every format can save the match; play fewer games or with fewer players"
            )


def _credit(result: Result, players: tuple[str, ...]) -> tuple[Fraction, ...] | None:
    """Each seat's share of one finished game's win; ``None`` for a game to play off."""
    if result.play_off:
        return None
    share = Fraction(1, len(result.winners))
    return tuple(share if name in result.winners else Fraction(0) for name in players)


def _decided(wins: Sequence[Fraction], counted: int, best_of: int, tie: TieRule) -> bool:
    top = max(wins)
    leaders = sum(1 for w in wins if w == top)
    left = best_of - counted
    if left <= 0:
        return leaders == 1 or tie is not TieRule.PLAY_OFF
    return leaders == 1 and all(top - w > left for w in wins if w != top)


@attrs.frozen(repr=False)
class Match:
    """Best of ``best_of`` games between the same players, rotating who rolls first.

    Start one with :meth:`new`, which also starts the first game. Play the current
    game with :meth:`roll`, :meth:`fill` and :meth:`play` (or hand it a record
    played elsewhere with :meth:`with_record`); when it is over, :meth:`next_game`
    starts the next one, until the match :attr:`is_decided`. Every step returns a
    new match. Game ``i`` (from 0) starts with seat ``(first + i) % players``.

    Constructing a match directly checks that the records are its games: new games
    of the same players and rules, each but the last finished, starting seats
    rotating, and no game started once the match was decided.

    Args:
        best_of: The number of games, odd, from 1 to 99.
        records: Every game started, in order; the last may be in progress.

    Raises:
        MalformedInputError: For records that are not the games of one match, and for
            more than :data:`MAX_MATCH_PLAYER_GAMES` player-games: players times
            ``best_of``, or players times the games started.

    Examples:
        >>> match = Match.new(["Ann", "Bob"], best_of=5, first=1)
        >>> match.players, match.best_of, match.current.game.current_player
        (('Ann', 'Bob'), 5, 'Bob')
        >>> Match(3, [GameRecord.new(["Ann", "Bob"], first=1)]).first
        1
        >>> Match(3, [GameRecord.new(["Ann"])])
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: match players ('Ann',): a match needs at least two players
    """

    best_of: int = attrs.field(converter=_to_best_of)
    records: tuple[GameRecord, ...] = attrs.field(converter=_to_records)
    _wins: tuple[Fraction, ...] = attrs.field(init=False, eq=False, hash=False, repr=False)
    _counted: int = attrs.field(init=False, eq=False, hash=False, repr=False)
    _decided: bool = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __attrs_post_init__(self) -> None:
        start = self.records[0].start
        if len(start.players) < 2:
            raise MalformedInputError(
                f"match players {show(start.players)}: a match needs at least two players"
            )
        self._tally(0, (Fraction(0),) * len(start.players), 0, False)

    def _tally(self, begin: int, wins: tuple[Fraction, ...], counted: int, decided: bool) -> None:
        """Check the records from ``begin`` on and set the wins, games counted and whether
        the match is decided, from those of the records before ``begin`` (all finished).

        A match grown by a step (:meth:`with_record`, :meth:`next_game`) checks only its
        new last record: the games before it were checked, and their results counted,
        by the match it grew from, so playing a match step by step is linear work.
        """
        start = self.records[0].start
        players, rules, first = start.players, start.rules, start.first
        _check_size(len(players), self.best_of, len(self.records))
        last = len(self.records) - 1
        for index in range(begin, last + 1):
            record = self.records[index]
            game = record.start
            if decided:
                raise MalformedInputError(
                    f"match: game {index + 1} was started after the match was decided; "
                    f"a decided match plays no more games"
                )
            if game.players != players or game.rules != rules:
                raise MalformedInputError(
                    f"match: game {index + 1} is between {show(game.players)} under the "
                    f"{show(game.rules.name)} rules, not {show(players)} under "
                    f"{show(rules.name)}; every game of a match has the same players and rules"
                )
            expected = (first + index) % len(players)
            if not is_new(game) or game.first != expected:
                raise MalformedInputError(
                    f"match: game {index + 1} must start as a new game with seat {expected} "
                    f"to roll first; the starting seat moves one place each game"
                )
            if not record.game.is_over:
                if index != last:
                    raise MalformedInputError(
                        f"match: game {index + 1} is not over but a later game was started; "
                        f"finish each game before the next"
                    )
                continue
            credit = _credit(record.game.result, players)
            if credit is not None:
                wins = tuple(w + c for w, c in zip(wins, credit, strict=True))
                counted += 1
            decided = _decided(wins, counted, self.best_of, rules.tie)
        setter = object.__setattr__
        setter(self, "_wins", wins)
        setter(self, "_counted", counted)
        setter(self, "_decided", decided)

    def _grown(self, record: GameRecord) -> Match:
        """This match with ``record`` as its last game: in place of the game in progress,
        or after the last game once it is over. Only ``record`` is checked; the finished
        games' wins are carried over."""
        kept = self.records if self.current is None else self.records[:-1]
        grown = Match.__new__(Match)
        setter = object.__setattr__
        setter(grown, "best_of", self.best_of)
        setter(grown, "records", (*kept, record))
        grown._tally(len(kept), self._wins, self._counted, self._decided)
        return grown

    def __str__(self) -> str:
        parts = [f"bo{self.best_of}", str(self.records[0].start)]
        for record in self.records:
            parts.append(":")
            parts.extend(map(str, record.actions))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Match.parse({str(self)!r})"

    # --- building ------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str] | int,
        *,
        best_of: int = 3,
        rules: Rules | None = None,
        first: int = 0,
    ) -> Match:
        """A new match, its first game started with seat ``first`` to roll first.

        Args:
            players: Two or more player names in seat order, or a count.
            best_of: The number of games, odd (3 or 5, say).
            rules: The rules of every game, its tie rule included; omitted or ``None``,
                ``Rules()``.
            first: The seat that starts the first game.

        Raises:
            MalformedInputError: For fewer than two players, an even or out-of-range
                ``best_of``, or anything :meth:`Game.new <yahtzee_rules.Game.new>` refuses.

        Examples:
            >>> Match.new(2).players
            ('Player 1', 'Player 2')
            >>> Match.new(2, best_of=4)
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.MalformedInputError: best_of 4: not an odd int from 1 to 99; a match is the best of an odd number of games, such as 3 or 5
        """
        best_of = _to_best_of(best_of)
        return cls(best_of, (GameRecord.new(players, rules=rules, first=first),))

    @classmethod
    def parse(cls, text: str, *, rules: Rules | None = None) -> Match:
        """Read a match from its notation, the inverse of ``str()``.

        The notation is ``bo`` and the number of games, the first game's start in
        game notation (rules, starting seat, names), then for each game started a
        ``:`` field followed by that game's actions in record notation.

        Args:
            text: The notation.
            rules: The rules the match must be played under, if given.

        Raises:
            MalformedInputError: For bad syntax, an illegal action (named by game and
                index), games that are not one match's, or other rules than ``rules``.

        Examples:
            >>> match = Match.parse("bo3 forced 1 Ann,Bob : 12345 ls")
            >>> match.current.game.current_player
            'Ann'
            >>> Match.parse("bo3 forced 0 Ann,Bob")
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.MalformedInputError: match 'bo3 forced 0 Ann,Bob': no ':' field; a match is 'bo' and its number of games, the first game's start, then ' :' and the actions of each game, such as 'bo3 forced 0 Ann,Bob : 22345 c'
        """
        text = _text.check_text("match", text, MAX_MATCH_LENGTH)
        fields = text.split(" ")
        found = _BEST_OF_RE.fullmatch(fields[0])
        if found is None or int(found.group(1)) % 2 == 0:
            raise _text.fail(
                "match",
                text,
                f"{_text.quote(fields[0], 20)} is not 'bo' and an odd number of games from 1 "
                f"to {MAX_BEST_OF}, such as 'bo3'",
            )
        if ":" not in fields:
            raise _text.fail(
                "match",
                text,
                "no ':' field; a match is 'bo' and its number of games, the first game's "
                "start, then ' :' and the actions of each game, such as "
                "'bo3 forced 0 Ann,Bob : 22345 c'",
            )
        split = fields.index(":")
        header = " ".join(fields[1:split])
        try:
            start = Game.parse(header)
        except MalformedInputError as error:
            raise _text.fail("match", text, str(error)) from None
        if not is_new(start):
            raise _text.fail(
                "match", text, "the first game's start is written as a new game: rules, seat, names"
            )
        names = header.split(" ")[2]
        rules_text = str(start.rules)
        games: list[list[str]] = []
        for field in fields[split:]:
            if field == ":":
                games.append([])
            else:
                games[-1].append(field)
        records = []
        seats = len(start.players)
        if seats * len(games) > MAX_MATCH_PLAYER_GAMES:
            raise _text.fail(
                "match",
                text,
                f"{len(games)} games of {seats} players; a match holds at most "
                f"{MAX_MATCH_PLAYER_GAMES} player-games (players times games)",
            )
        for index, actions in enumerate(games):
            seat = (start.first + index) % seats
            game_text = " ".join([rules_text, str(seat), names, ":", *actions])
            try:
                records.append(GameRecord.parse(game_text))
            except MalformedInputError as error:
                raise _text.fail("match", text, f"game {index + 1}: {error}") from None
        try:
            match = cls(int(found.group(1)), records)
        except MalformedInputError as error:
            raise _text.fail("match", text, str(error)) from None
        check_ruleset(match.rules, rules, "match", _text.quote(text))
        return match

    def share_code(self) -> str:
        """A URL-safe code for the whole match: ``m1``, the games, then each game's code.

        The parts are separated by ``.``; each game's part is its record's
        :meth:`~yahtzee_rules.GameRecord.share_code`, with its own checksum.

        Examples:
            >>> match = Match.new(["Ann", "Bob"]).roll(outcome="12345")
            >>> code = match.share_code()
            >>> code.startswith("m1.3.y1"), Match.from_share_code(code) == match
            (True, True)
        """
        return ".".join(
            [SHARE_CODE_PREFIX, str(self.best_of), *(r.share_code() for r in self.records)]
        )

    @classmethod
    def from_share_code(cls, code: str, *, rules: Rules | None = None) -> Match:
        """Read a match from its :meth:`share_code`, checking every game.

        Raises:
            MalformedInputError: For a code that is damaged, of another version, whose
                games are not one match's, or (with ``rules``) of other rules.

        Examples:
            >>> Match.from_share_code("m1.4.y1AAIAA0FubgNCb2I")
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.MalformedInputError: match share code 'm1.4.y1AAIAA0FubgNCb2I': 4 is not an odd number of games from 1 to 99
        """
        what = "match share code"
        if not isinstance(code, str):
            raise MalformedInputError(f"{what} {show(code)}: {a_type(code)}, not text")
        if len(code) > MAX_MATCH_LENGTH:
            raise _text.fail(what, code, f"longer than the limit of {MAX_MATCH_LENGTH} characters")
        if _SHARE_RE.fullmatch(code) is None:
            raise _text.fail(
                what, code, "has characters other than letters, digits, '-', '_' and '.'"
            )
        parts = code.split(".")
        if parts[0] != SHARE_CODE_PREFIX or len(parts) < 3:
            raise _text.fail(
                what,
                code,
                f"not a match code; a match code is {SHARE_CODE_PREFIX!r}, the number of "
                f"games and each game's code, separated by '.'",
            )
        found = _BEST_OF_RE.fullmatch("bo" + parts[1])
        if found is None or int(parts[1]) % 2 == 0:
            raise _text.fail(
                what,
                code,
                f"{_text.quote(parts[1], 20)[1:-1]} is not an odd number of games from 1 to "
                f"{MAX_BEST_OF}",
            )
        games = len(parts) - 2
        if 2 * games > MAX_MATCH_PLAYER_GAMES:  # a match has two players or more
            raise _text.fail(
                what,
                code,
                f"{games} games; a match holds at most {MAX_MATCH_PLAYER_GAMES} player-games "
                f"(players times games)",
            )
        records: list[GameRecord] = []
        for index, part in enumerate(parts[2:]):
            try:
                records.append(GameRecord.from_share_code(part))
            except MalformedInputError as error:
                raise _text.fail(what, code, f"game {index + 1}: {error}") from None
            seats = len(records[0].start.players)
            if seats * games > MAX_MATCH_PLAYER_GAMES:
                raise _text.fail(
                    what,
                    code,
                    f"{games} games of {seats} players; a match holds at most "
                    f"{MAX_MATCH_PLAYER_GAMES} player-games (players times games)",
                )
        try:
            match = cls(int(parts[1]), records)
        except MalformedInputError as error:
            raise _text.fail(what, code, str(error)) from None
        check_ruleset(match.rules, rules, what, _text.quote(code))
        return match

    # --- where the match stands ----------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The player names, in seat order.

        Examples:
            >>> Match.new(["Ann", "Bob"]).players
            ('Ann', 'Bob')
        """
        return self.records[0].start.players

    @property
    def rules(self) -> Rules:
        """The rules of every game, whose tie rule decides each game.

        Examples:
            >>> Match.new(2, rules=Rules(tie="upper-total")).rules.tie
            TieRule.UPPER_TOTAL
        """
        return self.records[0].start.rules

    @property
    def first(self) -> int:
        """The seat that rolled first in the first game.

        Examples:
            >>> Match.new(2, first=1).first
            1
        """
        return self.records[0].start.first

    @property
    def current(self) -> GameRecord | None:
        """The game in progress, or ``None`` between games and once the match is decided.

        Examples:
            >>> Match.new(2).current.game.round
            1
        """
        last = self.records[-1]
        return None if last.game.is_over else last

    @property
    def finished(self) -> tuple[GameRecord, ...]:
        """The records of the finished games, in order.

        Examples:
            >>> Match.new(2).finished
            ()
        """
        return self.records if self.current is None else self.records[:-1]

    @property
    def results(self) -> tuple[Result, ...]:
        """The result of each finished game, in order.

        Examples:
            >>> Match.new(2).results
            ()
        """
        return tuple(record.game.result for record in self.finished)

    @property
    def games_counted(self) -> int:
        """Finished games that count towards :attr:`best_of`: all but play-off ties.

        The :attr:`wins` add up to this number.

        Examples:
            >>> Match.new(2).games_counted
            0
        """
        return self._counted

    @property
    def wins(self) -> tuple[Fraction, ...]:
        """Games won by each seat, in seat order; a shared game counts ``1/k`` each.

        Under ``TieRule.SHARE`` the players tied for the highest total share the
        game; under ``UPPER_TOTAL`` those with the highest upper total among them do;
        under ``PLAY_OFF`` a tied game wins no one anything and does not count.

        Examples:
            >>> Match.new(2).wins
            (Fraction(0, 1), Fraction(0, 1))
        """
        return self._wins

    def standings(self) -> tuple[MatchStanding, ...]:
        """Players by games won, most first (then by seat); players level share a rank.

        Examples:
            >>> [(s.rank, s.player, s.wins) for s in Match.new(["Ann", "Bob"]).standings()]
            [(1, 'Ann', Fraction(0, 1)), (1, 'Bob', Fraction(0, 1))]
        """
        order = sorted(range(len(self.players)), key=lambda seat: (-self._wins[seat], seat))
        standings: list[MatchStanding] = []
        for position, seat in enumerate(order):
            wins = self._wins[seat]
            level = standings and standings[-1].wins == wins
            rank = standings[-1].rank if level else position + 1
            standings.append(MatchStanding(rank, self.players[seat], seat, wins))
        return tuple(standings)

    @property
    def is_decided(self) -> bool:
        """Whether the match is over: no one can catch the leader any more.

        True once the leader is ahead of every other player by more than the games
        left, or once all :attr:`best_of` games are counted (under ``PLAY_OFF``, only
        when one player leads).

        Examples:
            >>> Match.new(2).is_decided
            False
        """
        return self._decided

    @property
    def winners(self) -> tuple[str, ...]:
        """The players who won the match (several share it), or ``()`` until it is decided.

        Examples:
            >>> Match.new(2).winners
            ()
        """
        if not self._decided:
            return ()
        top = max(self._wins)
        return tuple(p for p, w in zip(self.players, self._wins, strict=True) if w == top)

    @property
    def next_first(self) -> int:
        """The seat that rolls first in the next game to start.

        Examples:
            >>> Match.new(3, first=2).next_first
            0
        """
        return (self.first + len(self.records)) % len(self.players)

    # --- playing -------------------------------------------------------------------

    def can_start_next(self) -> bool:
        """Whether :meth:`next_game` may start a game now.

        Not while a game is in progress, once the match is decided, or when one more
        game would pass :data:`MAX_MATCH_PLAYER_GAMES`.

        Examples:
            >>> Match.new(2).can_start_next()
            False
        """
        return (
            self.current is None
            and not self._decided
            and len(self.players) * (len(self.records) + 1) <= MAX_MATCH_PLAYER_GAMES
        )

    def next_game(self) -> Match:
        """The match with its next game started, the next seat rolling first.

        Raises:
            IllegalActionError: While a game is in progress, once the match is decided, or
                when one more game would pass :data:`MAX_MATCH_PLAYER_GAMES` (a match
                whose games keep being played off ends there, undecided).

        Examples:
            >>> Match.new(2).next_game()
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.IllegalActionError: next game: game 1 is still being played; finish it first
        """
        if self._decided:
            raise IllegalActionError(
                f"next game: the match is decided, won by {', '.join(self.winners)}; "
                f"a decided match plays no more games"
            )
        if self.current is not None:
            raise IllegalActionError(
                f"next game: game {len(self.records)} is still being played; finish it first"
            )
        if len(self.players) * (len(self.records) + 1) > MAX_MATCH_PLAYER_GAMES:
            raise IllegalActionError(
                f"next game: game {len(self.records) + 1} of {len(self.players)} players would "
                f"be more than the limit of {MAX_MATCH_PLAYER_GAMES} player-games (players "
                f"times games) a match holds; the match ends undecided"
            )
        record = GameRecord.new(self.players, rules=self.rules, first=self.next_first)
        return self._grown(record)

    def _current(self, action: str) -> GameRecord:
        current = self.current
        if current is None:
            state = "the match is decided" if self._decided else "the last game is over"
            advice = "" if self._decided else "; start the next game with next_game()"
            raise IllegalActionError(f"{action}: no game is in progress; {state}{advice}")
        return current

    def with_record(self, record: GameRecord) -> Match:
        """The match with the current game replaced by ``record``, played from the same start.

        Raises:
            IllegalActionError: If no game is in progress.
            MalformedInputError: If ``record`` does not start as the current game did.

        Examples:
            >>> match = Match.new(["Ann", "Bob"])
            >>> played = match.current.roll(outcome="12345")
            >>> match.with_record(played).current.game.dice
            Dice('12345')
        """
        current = self._current("with record")
        if not isinstance(record, GameRecord) or record.start != current.start:
            raise MalformedInputError(
                f"record {show(record)}: not a record of the current game; it must start "
                f"where game {len(self.records)} started"
            )
        return self._grown(record)

    def play(self, action: Roll | Fill) -> Match:
        """Play ``action`` in the current game.

        Raises:
            IllegalActionError: If no game is in progress or the rules forbid it.

        Examples:
            >>> from yahtzee_rules import Category, Roll
            >>> Match.new(2).play(Roll("12345")).current.game.dice
            Dice('12345')
        """
        return self.with_record(self._current("play").play(action))

    def roll(
        self,
        rng: random.Random | None = None,
        *,
        keep: KeepLike | None = None,
        outcome: DiceLike | str | None = None,
    ) -> Match:
        """Roll in the current game, as :meth:`GameRecord.roll <yahtzee_rules.GameRecord.roll>`.

        Args:
            rng: The random source, as for :meth:`Turn.roll <yahtzee_rules.Turn.roll>`: a
                seeded :class:`random.Random` replays the dice; omitted (with no
                ``outcome``), the library's private generator throws them, unseeded.
                The record keeps the faces either way, so it always replays.
            keep: The dice to hold; ``None`` holds nothing.
            outcome: Instead of ``rng``, the faces the thrown dice showed.

        Raises:
            IllegalActionError: If no game is in progress or the roll is not allowed.

        Examples:
            >>> Match.new(2).roll(random.Random(1)).current.game.rolls_left
            2
        """
        return self.with_record(self._current("roll").roll(rng, keep=keep, outcome=outcome))

    def fill(self, category: Box | str) -> Match:
        """Fill a box in the current game, as :meth:`GameRecord.fill <yahtzee_rules.GameRecord.fill>`.

        Raises:
            IllegalActionError: If no game is in progress or the fill is not allowed.

        Examples:
            >>> from yahtzee_rules import Category
            >>> match = Match.new(2).roll(outcome="12345").fill(Category.CHANCE)
            >>> match.current.game.current_player
            'Player 2'
        """
        return self.with_record(self._current("fill").fill(category))
