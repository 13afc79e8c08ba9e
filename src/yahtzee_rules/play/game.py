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

import random
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from gc import get_referents
from itertools import islice
from types import MappingProxyType
from typing import Any, cast

import attrs

from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import RNG, Dice, DiceLike, Keep, KeepLike
from yahtzee_rules.core.rules import Rules, TieRule, not_rules_error
from yahtzee_rules.play._filling import check_pair, fill_unchecked, legal
from yahtzee_rules.play._value_text import format_card, format_progress, parse_card, parse_progress
from yahtzee_rules.play.scorecard import Scorecard, category_arg, empty_card
from yahtzee_rules.play.scoring import BoxOption
from yahtzee_rules.play.totals import Totals, totals
from yahtzee_rules.play.turn import (
    MAX_ROLLS,
    Turn,
    check_marks_allowed,
    next_dice,
    raw_turn,
    rolled_dice,
)
from yahtzee_rules.support import _text
from yahtzee_rules.support._frozen import raw_builder, reinit_error, tuple_of
from yahtzee_rules.support._limits import MAX_NAME_LENGTH, MAX_PLAYERS
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = ["MAX_NAME_LENGTH", "MAX_PLAYERS", "Game", "Result", "RollOff", "Standing", "roll_off"]

_NO_OPTIONS: Mapping[Box, int] = MappingProxyType({})
# What a game keeps of the turn being played: the dice showing and the rolls used.
Progress = tuple[Dice | None, int]
# What Game.new gives for a count of players: their names, and the rules when none are given.
_NUMBERED = tuple(f"Player {seat + 1}" for seat in range(MAX_PLAYERS))
_USUAL_RULES = Rules()


def _to_players(value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise MalformedInputError(
            f"players {show(value)}: give a sequence of player names, such as ['Ann', 'Bob']"
        )
    players = tuple(islice(value, MAX_PLAYERS + 1))  # an endless iterator is refused too
    if not players:
        raise MalformedInputError(
            "players (): a game needs at least one player; give one name or more"
        )
    if len(players) > MAX_PLAYERS:
        raise MalformedInputError(
            f"players {show(players)}: more than the limit of {MAX_PLAYERS} players"
        )
    seen: set[str] = set()
    for name in players:
        if not isinstance(name, str):
            raise MalformedInputError(
                f"player name {show(name)}: not a non-blank string; each player needs a name"
            )
        problem = _text.name_problem(name)  # the one rule of names, for every reader too
        if problem is not None:
            raise MalformedInputError(f"player name {show(name)}: {problem}")
        if name in seen:
            raise MalformedInputError(
                f"players {show(players)}: {show(name)} appears twice; player names must be distinct"
            )
        seen.add(name)
    return players


def _to_cards(value: Iterable[Scorecard]) -> tuple[Scorecard, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise MalformedInputError(f"game cards {show(value)}: give one Scorecard per player")
    return tuple(value)


def _seat_arg(value: object, seats: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < seats:
        raise MalformedInputError(
            f"{what} {show(value)}: not a seat; seats are the ints 0 to {seats - 1}"
        )
    return value


@attrs.frozen
class Standing:
    """One player's place in a result.

    Attributes:
        rank: 1 for the highest total; tied players share a rank.
        player: The player's name.
        seat: The player's seat (0-based, in the order given to :meth:`Game.new`).
        total: The grand total.

    Examples:
        >>> Standing(rank=1, player="Ann", seat=0, total=254)
        Standing(rank=1, player='Ann', seat=0, total=254)
    """

    rank: int
    player: str
    seat: int
    total: int

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)


@attrs.frozen
class Result:
    """Standings, highest total first, and the winners (several when they share the win).

    Attributes:
        standings: One :class:`Standing` per player, by total then seat.
        winners: The names of the players who win under the rules' tie rule: those
            with the highest total, or among them those with the highest upper total
            (:attr:`TieRule.UPPER_TOTAL <yahtzee_rules.TieRule.UPPER_TOTAL>`); none
            while a play-off is due.
        play_off: Under :attr:`TieRule.PLAY_OFF <yahtzee_rules.TieRule.PLAY_OFF>`, the
            tied players who must play again; otherwise empty.

    Examples:
        >>> r = Result((Standing(1, "Ann", 0, 200), Standing(1, "Bob", 1, 200)), ("Ann", "Bob"))
        >>> r.is_tie, r.play_off
        (True, ())
    """

    standings: tuple[Standing, ...] = attrs.field(converter=tuple_of)
    winners: tuple[str, ...] = attrs.field(converter=tuple_of)
    play_off: tuple[str, ...] = attrs.field(default=(), converter=tuple_of)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    @property
    def is_tie(self) -> bool:
        """Whether more than one player shares the win, or a play-off is due.

        Examples:
            >>> Result((Standing(1, "Ann", 0, 200),), ("Ann",)).is_tie
            False
        """
        return len(self.winners) > 1 or bool(self.play_off)


def _check_game(instance: Game, turn: object) -> Turn | None:
    """The game's turn, once the fields are checked together: ``turn`` itself, or the
    turn of a progress pair (as attrs.evolve passes the stored field on)."""
    seats = len(instance.players)
    if len(instance.cards) != seats:
        raise MalformedInputError(
            f"game cards: {len(instance.cards)} cards for {seats} players; one card per player"
        )
    for card in instance.cards:
        if not isinstance(card, Scorecard):
            raise MalformedInputError(f"game card {show(card)}: not a Scorecard")
        check_pair(card, instance.rules)
        check_marks_allowed(card, instance.rules)
    first, current = instance.first, instance.current
    played = instance.cards[current].turns_played
    over = all(card.is_complete for card in instance.cards)
    for position in range(seats):
        seat = (first + position) % seats
        expected = played + (1 if position < (current - first) % seats else 0)
        if instance.cards[seat].turns_played != expected and not over:
            raise MalformedInputError(
                f"game: {show(instance.players[seat])} has {instance.cards[seat].turns_played} "
                f"boxes filled but the turn order from seat {first} needs {expected}; "
                f"players take turns in seat order, one box per turn"
            )
    if over:
        if turn is not None or current != first:
            raise MalformedInputError(
                "game: every card is complete, so there is no turn; the game is over"
            )
        return None
    if isinstance(turn, tuple):
        turn = _progress_turn(instance, turn)
    if not isinstance(turn, Turn):
        raise MalformedInputError(f"game turn {show(turn)}: not a Turn, but the game is not over")
    if turn.card != instance.cards[current] or turn.rules != instance.rules:
        raise MalformedInputError(
            "game turn: its card or rules differ from the current player's; "
            "the turn plays the current player's card"
        )
    return turn


@attrs.frozen(init=False, repr=False)
class Game:
    """A whole game: players in seat order, their cards, whose turn it is and that turn.

    Start one with :meth:`Game.new`. Play moves in seat order from the starting
    seat ``first``; each player takes one turn per box (13 on the Classic card).
    Every action returns a new game. Only ``players`` may be given by position; the
    other constructor arguments are keyword-only, and :func:`attrs.evolve` changes any
    of them through the same checks. A game keeps of its turn only the dice showing
    and the rolls used, so evolving the rules or the cards keeps the turn's dice on
    the current player's new card.

    Attributes:
        players: The player names, in seat order.
        rules: The rule set.
        cards: One card per player, in seat order.
        first: The seat that started (it also starts every round).
        current: The seat whose turn it is (equal to ``first`` once the game is over).
        turn: The current turn, or ``None`` once the game is over.

    Args:
        players: The player names (distinct, non-blank), in seat order.
        rules: The rule set (keyword only, as are the arguments below).
        cards: One card per player.
        first: The starting seat.
        current: The seat to play.
        turn: The current player's turn (its card must be theirs), or ``None`` when
            every card is complete.

    Raises:
        MalformedInputError: For fields that no game can reach.

    Examples:
        >>> game = Game.new(["Ann", "Bob", "Cy"], first=1)
        >>> game.current_player, game.order
        ('Bob', ('Bob', 'Cy', 'Ann'))
        >>> from yahtzee_rules import Category, Dice, JokerRule, Rules, Scorecard, Turn
        >>> game == eval(repr(game))
        True
        >>> import attrs
        >>> attrs.evolve(game, first=0)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: game: 'Ann' has 0 boxes filled but the turn order from seat 0 needs 1; players take turns in seat order, one box per turn
        >>> attrs.evolve(game, first=0, current=0).current_player
        'Ann'
    """

    # Every field's init name is its constructor argument (``_progress`` is ``turn=``),
    # so attrs.evolve rebuilds a game through the validating constructor. The turn is
    # kept as its progress, the dice showing and the rolls used, (None once the game is
    # over): a roll makes one new value, and ``turn`` builds the Turn when asked.
    players: tuple[str, ...]
    rules: Rules
    cards: tuple[Scorecard, ...]
    first: int
    current: int
    _progress: Progress | None = attrs.field(alias="turn")

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __init__(
        self,
        players: Iterable[str],
        *,
        rules: Rules,
        cards: Iterable[Scorecard],
        first: int,
        current: int,
        turn: Turn | None,
    ) -> None:
        self.__attrs_pre_init__()  # a second __init__ would overwrite a shared game
        setter = object.__setattr__
        setter(self, "players", _to_players(players))
        if not isinstance(rules, Rules):
            raise not_rules_error(rules)
        setter(self, "rules", rules)
        setter(self, "cards", _to_cards(cards))
        setter(self, "first", _seat_arg(first, len(self.players), "first"))
        setter(self, "current", _seat_arg(current, len(self.players), "current"))
        turn = _check_game(self, turn)
        setter(self, "_progress", None if turn is None else (turn.dice, turn.rolls_used))

    def __repr__(self) -> str:
        return (
            f"Game(players={self.players!r}, rules={self.rules!r}, cards={self.cards!r}, "
            f"first={self.first}, current={self.current}, turn={self.turn!r})"
        )

    @property
    def turn(self) -> Turn | None:
        """The current player's turn, or ``None`` once the game is over.

        Each call builds the value afresh (equal each time) from the current player's
        card and the dice and rolls of the turn so far.

        Examples:
            >>> Game.new(["Ann"]).roll(outcome="12345").turn.rolls_left
            2
        """
        progress = self._progress
        if progress is None:
            return None
        return raw_turn(self.cards[self.current], self.rules, progress[0], progress[1])

    @classmethod
    def new(
        cls,
        players: Sequence[str] | int,
        *,
        rules: Rules | None = None,
        first: int = 0,
    ) -> Game:
        """A new game: empty cards, seat ``first`` to play first.

        Args:
            players: Player names in seat order, or a count (names ``"Player 1"``...):
                at most :data:`~yahtzee_rules.play.game.MAX_PLAYERS` (50) players, with
                names of at most :data:`~yahtzee_rules.play.game.MAX_NAME_LENGTH` (100)
                characters, so that every game can be saved in every format.
            rules: The rule set; omitted or ``None``, ``Rules()`` (Hasbro's Classic game).
            first: The starting seat, for example :func:`roll_off`'s ``starter``.

        Raises:
            MalformedInputError: For no players or too many, blank, repeated or too long
                names, or a bad seat.

        Examples:
            >>> Game.new(2).players
            ('Player 1', 'Player 2')
            >>> Game.new([])
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.MalformedInputError: players (): a game needs at least one player; give one name or more
        """
        if type(players) is int:
            if players < 1:
                raise MalformedInputError(
                    f"players {show(players)}: a game needs at least one player"
                )
            if players > MAX_PLAYERS:
                raise MalformedInputError(
                    f"players {show(players)}: more than the limit of {MAX_PLAYERS} players"
                )
            names = _NUMBERED[:players]
        else:
            names = _to_players(players)
        if rules is None:
            rules = _USUAL_RULES
        if not isinstance(rules, Rules):
            raise not_rules_error(rules)
        empty = empty_card(rules.card)
        cards = (empty,) * len(names)
        if cls is not Game or empty.is_complete:
            turn = raw_turn(empty, rules, None, 0)
            return cls(names, rules=rules, cards=cards, first=first, current=first, turn=turn)
        # checked above, but for the seat: the constructor's checks of the cards and the
        # turn hold for every new game (empty cards of the rules' design, no turn played)
        first = _seat_arg(first, len(names), "first")
        return _raw_game(names, rules, cards, first, first, _NOT_ROLLED)

    def __str__(self) -> str:
        return _format_game(self)

    @classmethod
    def parse(cls, text: str) -> Game:
        """Read a game from its notation; the inverse of ``str()``.

        See :func:`yahtzee_rules.formats.notation.parse_game` for the fields.

        Raises:
            MalformedInputError: For bad syntax or a position no game can reach.

        Examples:
            >>> game = Game.parse("forced 0 Ann,Bob 1=3/- 13366@1")
            >>> game.current_player, str(game)
            ('Bob', 'forced 0 Ann,Bob 1=3/- 13366@1')
            >>> str(Game.new(["Ann", "Bob"], first=1))
            'forced 1 Ann,Bob'
        """
        text = _text.check_text("game", text)
        return parse_game(text.split(" "), text, "game")

    # --- where the game stands --------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether every player has filled every box.

        Examples:
            >>> Game.new(1).is_over
            False
        """
        return self._progress is None

    @property
    def current_player(self) -> str:
        """The name of the player whose turn it is (the starter once the game is over).

        Examples:
            >>> Game.new(["Ann", "Bob"], first=1).current_player
            'Bob'
        """
        return self.players[self.current]

    @property
    def order(self) -> tuple[str, ...]:
        """The player names in playing order, starting with the starter.

        Examples:
            >>> Game.new(["Ann", "Bob"], first=1).order
            ('Bob', 'Ann')
        """
        n = len(self.players)
        return tuple(self.players[(self.first + i) % n] for i in range(n))

    @property
    def round(self) -> int:
        """The round being played, 1 to the number of boxes (13 on the Classic card).

        Examples:
            >>> Game.new(1).round
            1
        """
        return min(len(self.rules.card), self.cards[self.current].turns_played + 1)

    @property
    def rolls_left(self) -> int:
        """Rolls left in the current turn (0 once the game is over).

        Examples:
            >>> Game.new(1).rolls_left
            3
        """
        progress = self._progress
        return 0 if progress is None else MAX_ROLLS - progress[1]

    @property
    def dice(self) -> Dice | None:
        """The current dice, or ``None`` before the turn's first roll.

        Examples:
            >>> Game.new(1).roll(outcome="12345").dice
            Dice('12345')
        """
        progress = self._progress
        return None if progress is None else progress[0]

    @property
    def options(self) -> Mapping[Box, int]:
        """Every box the current dice may fill and the points (empty before a roll).

        Examples:
            >>> from yahtzee_rules import Category
            >>> Game.new(1).roll(outcome="66655").options[Category.FULL_HOUSE]
            25
        """
        progress = self._progress
        if progress is None:
            self._playing("see options")  # raises with the reason
        dice = progress[0]  # type: ignore[index]
        if dice is None:
            return _NO_OPTIONS
        return MappingProxyType(legal(self.cards[self.current].boxes, dice, self.rules))

    def box_options(self, *, locale: str | None = None) -> Mapping[Box, BoxOption]:
        """Every box with its points now, or why it is closed; see :func:`yahtzee_rules.box_options`.

        The reasons are in ``locale``'s language (English by default).

        Examples:
            >>> from yahtzee_rules import Category
            >>> Game.new(1).roll(outcome="66655").box_options()[Category.SIXES].points
            18
        """
        return self._playing("see box options").box_options(locale=locale)

    @property
    def forced_category(self) -> Box | None:
        """The box the forced Joker requires for the current dice, if any.

        Examples:
            >>> Game.new(1).roll(outcome="66655").forced_category is None
            True
        """
        turn = self.turn
        return None if turn is None else turn.forced_category

    def player_card(self, player: int | str) -> Scorecard:
        """One player's card, by seat number or name (``game.cards[seat]`` by seat).

        Args:
            player: A seat number or a name; the current player is ``game.current``.

        Raises:
            MalformedInputError: For a name that is no player's or a seat out of range.

        Examples:
            >>> Game.new(["Ann"]).player_card("Ann").turns_played
            0
        """
        return self.cards[self._seat(player)]

    def player_totals(self, player: int | str) -> Totals:
        """Running totals of one player's card, by seat number or name.

        Args:
            player: A seat number or a name; the current player is ``game.current``.

        Raises:
            MalformedInputError: For a name that is no player's or a seat out of range.

        Examples:
            >>> from yahtzee_rules import Category
            >>> game = Game.new(["Ann", "Bob"]).roll(outcome="12345").fill(Category.CHANCE)
            >>> game.player_totals("Ann").grand_total, game.player_totals(game.current).grand_total
            (15, 0)
        """
        return totals(self.cards[self._seat(player)], rules=self.rules)

    def totals(self, player: int | str | None = None) -> Totals:
        """Deprecated: use :meth:`player_totals` (``game.player_totals(game.current)`` for
        the current player's); this spelling warns, and goes in 2.0."""
        _deprecated("totals", "player_totals")
        return self.player_totals(self.current if player is None else player)

    def card(self, player: int | str | None = None) -> Scorecard:
        """Deprecated: use :meth:`player_card` or ``game.cards[seat]``; this spelling warns,
        and goes in 2.0."""
        _deprecated("card", "player_card")
        return self.player_card(self.current if player is None else player)

    def _seat(self, player: int | str | None) -> int:
        if player is None:
            return self.current
        if isinstance(player, str):
            if player not in self.players:
                raise MalformedInputError(
                    f"player {show(player)}: no such player; players are {list(self.players)}"
                )
            return self.players.index(player)
        return _seat_arg(player, len(self.players), "player")

    def standings(self) -> tuple[Standing, ...]:
        """Players by grand total so far, highest first; ties share a rank.

        Examples:
            >>> from yahtzee_rules import Category
            >>> game = Game.new(["Ann", "Bob"]).roll(outcome="12345").fill(Category.CHANCE)
            >>> [(s.rank, s.player, s.total) for s in game.standings()]
            [(1, 'Ann', 15), (2, 'Bob', 0)]
        """
        scored = sorted(
            (
                (totals(card, rules=self.rules).grand_total, seat)
                for seat, card in enumerate(self.cards)
            ),
            key=lambda pair: (-pair[0], pair[1]),
        )
        standings: list[Standing] = []
        for position, (total, seat) in enumerate(scored):
            rank = (
                standings[-1].rank if standings and standings[-1].total == total else position + 1
            )
            standings.append(Standing(rank, self.players[seat], seat, total))
        return tuple(standings)

    @property
    def result(self) -> Result:
        """The final standings and winners, with a tie settled by the rules' tie rule.

        A tie for the highest total shares the win (:class:`~yahtzee_rules.TieRule`
        ``SHARE``, the default), goes to the highest upper total (``UPPER_TOTAL``), or
        calls for the tied players to play again (``PLAY_OFF``).

        Raises:
            IllegalActionError: While the game is still being played.

        Examples:
            >>> Game.new(1).result
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.IllegalActionError: result: the game is not over; 13 turns each remain to be played from round 1
        """
        if self._progress is not None:
            raise IllegalActionError(
                f"result: the game is not over; {len(self.rules.card)} turns each remain to be played "
                f"from round {self.round}"
            )
        standings = self.standings()
        top = standings[0].total
        leaders = tuple(s for s in standings if s.total == top)
        tie = self.rules.tie
        if len(leaders) == 1 or tie is TieRule.SHARE:
            return Result(standings, tuple(s.player for s in leaders))
        if tie is TieRule.PLAY_OFF:
            return Result(standings, (), tuple(s.player for s in leaders))
        upper = {s.seat: totals(self.cards[s.seat], rules=self.rules).upper_total for s in leaders}
        best = max(upper.values())
        return Result(standings, tuple(s.player for s in leaders if upper[s.seat] == best))

    # --- actions ------------------------------------------------------------------

    def _playing(self, action: str) -> Turn:
        turn = self.turn
        if turn is None:
            raise IllegalActionError(
                f"{action}: the game is over; every player has filled all "
                f"{len(self.rules.card)} boxes"
            )
        return turn

    def can_roll(self, keep: KeepLike | None = None) -> bool:
        """Whether the current player may roll holding ``keep``.

        Examples:
            >>> Game.new(1).can_roll()
            True
        """
        turn = self.turn
        return turn is not None and turn.can_roll(keep)

    def verify_roll(self, keep: KeepLike | None = None) -> Keep:
        """Raise the reason the current player may not roll holding ``keep``; else return the keep.

        The same check and answer as :meth:`Turn.verify_roll`, once the game is over too.

        Raises:
            IllegalActionError: Once the game is over, after three rolls, or when ``keep``
                holds dice that are not showing (or any dice before the first roll).
            MalformedInputError: If ``keep`` is not a valid keep.

        Examples:
            >>> Game.new(1).roll(outcome="13366").verify_roll("366")
            Keep('366')
            >>> Game.new(1).verify_roll()
            Keep('')
            >>> Game.new(1).verify_roll("6")
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.IllegalActionError: keep '6': nothing to hold before the first roll; the first roll throws all five dice
        """
        return self._playing("roll").verify_roll(keep)

    def roll(
        self,
        rng: random.Random | None = None,
        *,
        keep: KeepLike | None = None,
        outcome: DiceLike | str | None = None,
    ) -> Game:
        """The current player holds ``keep`` and rolls; see :meth:`Turn.roll`.

        Args:
            rng: The random source, as for :meth:`Turn.roll <yahtzee_rules.Turn.roll>`: a
                seeded :class:`random.Random` replays the dice; omitted (with no
                ``outcome``), the library's private generator throws them, unseeded.
            keep: The dice to hold; ``None`` holds nothing.
            outcome: Instead of ``rng``, the faces the thrown dice showed.

        Raises:
            IllegalActionError: Once the game is over, for a fourth roll, or holding
                dice that are not showing.
            MalformedInputError: For a malformed keep or outcome, or both ``rng`` and
                ``outcome``.

        Examples:
            >>> import random
            >>> game = Game.new(1).roll(random.Random(1))
            >>> game.rolls_left
            2
        """
        progress = self._progress
        if progress is None:
            self._playing("roll")  # raises with the reason
        used = progress[1]  # type: ignore[index]
        dice = rolled_dice(progress[0], used, rng, keep, outcome)  # type: ignore[index]
        return _raw_game(
            self.players, self.rules, self.cards, self.first, self.current, (dice, used + 1)
        )

    def can_fill(self, category: Box | str) -> bool:
        """Whether the current player may fill ``category`` now.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Game.new(1).can_fill(Category.CHANCE)
            False
        """
        turn = self.turn
        return turn is not None and turn.can_fill(category)

    def verify_fill(self, category: Box | str) -> None:
        """Raise the reason the current player may not fill ``category`` now.

        Examples:
            >>> from yahtzee_rules import Category
            >>> Game.new(1).roll(outcome="12345").verify_fill(Category.CHANCE)
        """
        label = category_arg(category, self.rules.card).label
        self._playing(f"fill {label}").verify_fill(category)

    def fill(self, category: Box | str) -> Game:
        """The current player fills ``category``; play passes to the next seat.

        Args:
            category: A box of the rules' card, or its name, label or code as text
                (``"fh"``, ``"full house"``).

        Raises:
            IllegalActionError: Once the game is over, before a roll, for a filled box
                or a box the Joker rule forbids.

        Examples:
            >>> from yahtzee_rules import Category
            >>> game = Game.new(["Ann", "Bob"]).roll(outcome="55555").fill(Category.YAHTZEE)
            >>> game.current_player, game.player_totals("Ann").grand_total
            ('Bob', 50)
        """
        box: Box = category_arg(category, self.rules.card)
        progress = self._progress
        dice = None if progress is None else progress[0]
        if dice is None:  # over, or not rolled yet: raise with the reason
            self._playing(f"fill {box.label}").fill(box)
        current = self.current
        rules = self.rules
        cards = self.cards
        card = fill_unchecked(cards[current], dice, box, rules)  # type: ignore[arg-type]
        seats = len(cards)
        cards = (card,) if seats == 1 else (*cards[:current], card, *cards[current + 1 :])
        nxt = current + 1 if current + 1 < seats else 0
        first = self.first
        if nxt == first and card.is_complete:
            return _raw_game(self.players, rules, cards, first, first, None)
        return _raw_game(self.players, rules, cards, first, nxt, _NOT_ROLLED)


def _deprecated(old: str, new: str) -> None:
    """Warn that ``Game.<old>()`` is deprecated for ``Game.<new>``, at the caller's line."""
    warnings.warn(
        f"Game.{old}() is deprecated: use game.{new}(player), a seat number or a name "
        f"(game.current for the current player); Game.{old}() goes in 2.0",
        DeprecationWarning,
        stacklevel=3,
    )


def rolled_game(game: Game, dice: Dice) -> Game:
    """``game`` after its current turn's next roll showed ``dice``; the roll is not checked."""
    used = game._progress[1]  # type: ignore[index]
    return _raw_game(
        game.players, game.rules, game.cards, game.first, game.current, (dice, used + 1)
    )


class Replay:
    """A game played forward in place, for readers that replay many actions.

    Playing a :class:`Game` copies its tuple of cards on every fill, so replaying a
    record of many players that way takes time proportional to players times actions.
    A replay keeps one list of cards, changes the current player's card in place, and
    builds a :class:`Game` only when asked (:meth:`game`), so a whole record replays in
    time linear in its length. Illegal actions are refused by the game's own methods,
    with the same messages.
    """

    __slots__ = ("_cards", "_first", "_players", "_rules", "current", "turn")

    def __init__(self, game: Game) -> None:
        self._players = game.players
        self._rules = game.rules
        self._cards = list(game.cards)
        self._first = game.first
        self.current = game.current
        self.turn: Turn | None = game.turn

    def game(self) -> Game:
        """The game as it stands: a new value, the replay keeps going."""
        turn = self.turn
        progress = None if turn is None else (turn.dice, turn.rolls_used)
        return _raw_game(
            self._players, self._rules, tuple(self._cards), self._first, self.current, progress
        )

    def rolled(self, dice: Dice) -> None:
        """The current turn's next roll showed ``dice``; the roll is not checked."""
        turn: Turn = self.turn  # type: ignore[assignment]
        self.turn = raw_turn(turn.card, turn.rules, dice, turn.rolls_used + 1)

    def roll(self, keep: Keep, outcome: tuple[int, ...]) -> None:
        """Hold ``keep`` and throw ``outcome``, checked as :meth:`Game.roll` checks it."""
        turn = self.turn
        if turn is None:
            self.game().roll(keep=keep, outcome=outcome)  # raises with the reason
            return
        self.rolled(next_dice(turn.dice, turn.rolls_used, None, keep, outcome))

    def fill(self, category: Box) -> None:
        """Fill ``category``, checked as :meth:`Game.fill` checks it."""
        rules = self._rules
        category = category_arg(category, rules.card)
        turn = self.turn
        dice = None if turn is None else turn.dice
        if dice is None:  # over, or not rolled yet: the game raises with the reason
            self.game().fill(category)
            return
        current = self.current
        cards = self._cards
        card = fill_unchecked(cards[current], dice, category, rules)
        cards[current] = card
        nxt = (current + 1) % len(cards)
        if nxt == self._first and card.is_complete:
            self.current, self.turn = self._first, None
        else:
            self.current, self.turn = nxt, raw_turn(cards[nxt], rules, None, 0)


#: A game built without validation, for values the rules engine produced itself:
#: ``_raw_game(players, rules, cards, first, current, progress)``.
_raw_game: Callable[
    [tuple[str, ...], Rules, tuple[Scorecard, ...], int, int, Progress | None], Game
] = raw_builder(Game)


def _progress_turn(game: Game, progress: tuple[object, ...]) -> Turn:
    """The turn a stored progress stands for on ``game``'s current card, checked as any
    turn is; for the constructor, when attrs.evolve passes the stored field on."""
    if len(progress) != 2:
        raise MalformedInputError(
            f"game turn {show(progress)}: not a Turn; give the current player's Turn"
        )
    dice, rolls_used = progress
    return Turn(game.cards[game.current], rules=game.rules, dice=dice, rolls_used=rolls_used)  # type: ignore[arg-type]


# The progress of a turn not rolled yet: one value for every such turn.
_NOT_ROLLED: Progress = (None, 0)


def _to_rounds(
    rounds: Sequence[Sequence[tuple[int, Dice]]],
) -> tuple[tuple[tuple[int, Dice], ...], ...]:
    """The rounds as tuples all the way down, copying any list the caller gave."""
    return cast("tuple[tuple[tuple[int, Dice], ...], ...]", _tuples(rounds, 3))


def _tuples(value: Any, depth: int) -> Any:
    """``value`` with each list or tuple, to ``depth`` levels down, copied into a tuple."""
    if depth and isinstance(value, (list, tuple)):
        return tuple(_tuples(item, depth - 1) for item in value)
    return value


@attrs.frozen
class RollOff:
    """The starting-player roll-off: every round's throws and the seat that starts.

    Attributes:
        rounds: One tuple per round of ``(seat, dice)`` throws; after the first round
            only the players tied for the highest total throw again.
        starter: The seat with the highest total in the last round.

    Examples:
        >>> off = roll_off(3, outcomes=["66655", "66655", "11111", "12345", "12346"])
        >>> off.starter, len(off.rounds)
        (1, 2)
    """

    rounds: tuple[tuple[tuple[int, Dice], ...], ...] = attrs.field(converter=_to_rounds)
    starter: int

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)


def roll_off(
    players: Sequence[str] | int,
    rng: random.Random | None = None,
    *,
    outcomes: Iterable[DiceLike] | None = None,
) -> RollOff:
    """Decide who starts: everyone rolls five dice, highest total starts, ties roll again.

    Args:
        players: Player names, or how many players.
        rng: The random source (a private generator when omitted).
        outcomes: Instead of ``rng``, the dice thrown, in throwing order, to replay a
            roll-off.

    Raises:
        MalformedInputError: For no players, both ``rng`` and ``outcomes``, or if
            ``outcomes`` runs out before there is a single highest total.

    Examples:
        >>> import random
        >>> roll_off(["Ann", "Bob"], outcomes=["12345", "66666"]).starter
        1
        >>> roll_off(4, random.Random(5)).starter in range(4)
        True
    """
    seats = players if type(players) is int else len(_to_players(players))
    if seats < 1:
        raise MalformedInputError(f"players {show(players)}: a roll-off needs at least one player")
    if rng is not None and outcomes is not None:
        raise MalformedInputError(
            f"roll-off: give rng or outcomes, not both; outcomes {show(outcomes)} say what the "
            f"dice showed, so there is nothing left for rng to throw"
        )
    if seats > MAX_PLAYERS:
        raise MalformedInputError(
            f"players {show(players)}: more than the limit of {MAX_PLAYERS} players"
        )
    if outcomes is not None and (isinstance(outcomes, str) or not isinstance(outcomes, Iterable)):
        raise MalformedInputError(
            f"outcomes {show(outcomes)}: give a sequence of throws, such as ['12345', '66666']"
        )
    source = None if outcomes is None else iter(outcomes)
    generator = rng or RNG
    contenders = list(range(seats))
    rounds: list[tuple[tuple[int, Dice], ...]] = []
    while True:
        throws: list[tuple[int, Dice]] = []
        for seat in contenders:
            if source is None:
                dice = Dice.roll(generator)
            else:
                try:
                    dice = Dice(next(source))
                except StopIteration:
                    raise MalformedInputError(
                        f"outcomes: ran out after {sum(map(len, rounds)) + len(throws)} throws "
                        f"with seats {contenders} still tied; give a throw for each contender"
                    ) from None
            throws.append((seat, dice))
        rounds.append(tuple(throws))
        best = max(dice.total for _, dice in throws)
        contenders = [seat for seat, dice in throws if dice.total == best]
        if len(contenders) == 1:
            return RollOff(tuple(rounds), contenders[0])


# --- notation ------------------------------------------------------------------------


def _format_header(game: Game) -> str:
    names = ",".join(_text.escape_name(name) for name in game.players)
    return f"{game.rules} {game.first} {names}"


def is_new(game: Game) -> bool:
    """Whether ``game`` has not begun: empty cards, the starter to play, no roll yet."""
    turn = game.turn
    return (
        turn is not None
        and turn.dice is None
        and game.current == game.first
        and all(card.turns_played == 0 and not card.bonus_marks for card in game.cards)
    )


def _format_game(game: Game) -> str:
    header = _format_header(game)
    if is_new(game):
        return header
    cards = "/".join(format_card(card) for card in game.cards)
    turn = game.turn
    progress = "end" if turn is None else format_progress(turn.dice, turn.rolls_used)
    return f"{header} {cards} {progress}"


def parse_game(fields: list[str], whole: str, what: str) -> Game:
    """Read a game from its space-separated fields; ``what`` and ``whole`` name the text."""
    if "" in fields:
        raise _text.fail(
            what,
            whole,
            "empty field; fields are separated by exactly one ' ', with nothing "
            "before the first or after the last",
        )
    if len(fields) not in (3, 5):
        raise _text.fail(
            what,
            whole,
            f"{len(fields)} fields; a game is rules, starting seat and names "
            f"('forced 0 Ann,Bob'), then cards and turn progress once it has begun",
        )
    try:
        rules = Rules.parse(fields[0])
    except MalformedInputError as error:
        raise _text.fail(what, whole, str(error)) from None
    if _text.INT_RE.fullmatch(fields[1]) is None:
        raise _text.fail(
            what,
            whole,
            f"starting seat {_text.quote(fields[1], 40)} is not a plain non-negative int; "
            f"seats count from 0",
        )
    first = int(fields[1])
    written = fields[2].split(",")
    if len(written) > MAX_PLAYERS:
        raise _text.fail(
            what, whole, f"{len(written)} players; more than the limit of {MAX_PLAYERS} players"
        )
    names = tuple(_text.unescape_name(name, whole, what) for name in written)
    if first >= len(names):
        raise _text.fail(
            what,
            whole,
            f"starting seat {first} is not a seat; seats are 0 to {len(names) - 1}",
        )
    if len(fields) == 3:
        try:
            return Game.new(names, rules=rules, first=first)
        except MalformedInputError as error:
            raise _text.fail(what, whole, str(error)) from None
    card_texts = fields[3].split("/")
    if len(card_texts) != len(names):
        raise _text.fail(
            what,
            whole,
            f"{len(card_texts)} cards for {len(names)} players; write one card "
            f"per player, separated by '/'",
        )
    cards = tuple(parse_card(card, what, whole, rules.card) for card in card_texts)
    progress = parse_progress(fields[4], what, whole, allow_end=True)
    try:
        game = make_game(names, rules, first, cards, progress)
    except MalformedInputError as error:
        raise _text.fail(what, whole, str(error)) from None
    if is_new(game):
        raise _text.fail(
            what,
            whole,
            f"a game that has not begun is written without cards and progress: "
            f"{_text.quote(_format_header(game))}",
        )
    return game


def make_game(
    names: tuple[str, ...],
    rules: Rules,
    first: int,
    cards: tuple[Scorecard, ...],
    progress: tuple[Dice | None, int] | None,
    current: int | None = None,
) -> Game:
    """Assemble and check a game from decoded fields; ``progress`` None means over.

    Raises MalformedInputError with a plain message (the caller adds the input).
    """
    for card in cards:
        if card.bonus_marks and rules.yahtzee_bonus == 0:
            raise MalformedInputError(
                f"a card has {card.bonus_marks} bonus marks but the rules have no Yahtzee "
                f"bonus (yahtzee_bonus 0); no roll earns a mark under these rules"
            )
    if not 0 <= first < len(cards):
        raise MalformedInputError(
            f"starting seat {first} is not a seat; seats are 0 to {len(cards) - 1}"
        )
    derived = current_seat(cards, first)
    if current is not None and current != derived:
        raise MalformedInputError(
            f"current seat {current}: the cards and starting seat {first} say seat "
            f"{derived} is to play; players take turns in seat order, one box per turn"
        )
    if progress is None:
        turn = None
    else:
        if cards[derived].is_complete:
            raise MalformedInputError(
                "every card is complete, so the game is over; it has no turn in progress"
            )
        turn = raw_turn(cards[derived], rules, progress[0], progress[1])
    try:
        return Game(
            players=names, rules=rules, cards=cards, first=first, current=derived, turn=turn
        )
    except IllegalActionError as error:  # not raised today; kept so none can escape
        raise MalformedInputError(str(error)) from None


def current_seat(cards: tuple[Scorecard, ...], first: int) -> int:
    """The seat to play: the first in playing order with fewer boxes than the starter."""
    seats = len(cards)
    leader = cards[first].turns_played
    for position in range(1, seats):
        seat = (first + position) % seats
        if cards[seat].turns_played < leader:
            return seat
    return first
