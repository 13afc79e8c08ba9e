"""Play many games with a strategy and report the scores.

A :class:`Strategy` decides two things in a turn: which dice to hold before a
reroll (or to stop), and which box to fill. :func:`simulate` plays whole games
through :class:`~yahtzee_rules.Game` with one strategy per seat, seeded so that
every run can be repeated, and returns a :class:`SimulationResult`.

Three strategies come with the library: :class:`RandomStrategy`,
:class:`GreedyStrategy` and :class:`OptimalStrategy` (which needs a table from
:mod:`yahtzee_rules.bots.solver`). A strategy that can play many whole games at once says
so by being a :class:`BatchStrategy` (:class:`OptimalStrategy` is one): :func:`simulate`
then asks it to play them, the same games, roll for roll. For millions of optimal
solitaire games use :func:`yahtzee_rules.bots.solver.simulate_optimal`, which plays them
in batches with NumPy's generators.

Examples:
    >>> from yahtzee_rules import GreedyStrategy, simulate
    >>> result = simulate(GreedyStrategy(), games=20, seed=1)
    >>> result.games, result.minimum <= result.mean <= result.maximum
    (20, True)
    >>> simulate(GreedyStrategy(), games=20, seed=1).scores == result.scores  # seeded
    True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import attrs

from yahtzee_rules.core.boxes import Box, Card
from yahtzee_rules.core.classic import CLASSIC, Category
from yahtzee_rules.core.dice import ALL_KEEPS, KEEP_BY_FACES, Dice, Keep, KeepLike
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play._filling import rules_or_usual
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.record import Fill, GameRecord, Roll
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._chunks import Executor, check_executor, chunk_random, in_order, spans
from yahtzee_rules.support._limits import MAX_PLAYERS
from yahtzee_rules.support._text import brief, show
from yahtzee_rules.support.errors import MalformedInputError, RulesError, StrategyError
from yahtzee_rules.support.results import SimulationResult

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import Table

__all__ = [
    "BatchStrategy",
    "GreedyStrategy",
    "OptimalStrategy",
    "RandomStrategy",
    "SimulationResult",
    "Strategy",
    "play_turn",
    "simulate",
]

_EMPTY_KEEP = ALL_KEEPS[0]
#: Games per chunk of a :func:`simulate` run: fixed, so results never depend on the executor.
_GAMES_PER_CHUNK = 1000


@runtime_checkable
class Strategy(Protocol):
    """What a player decides in a turn. Implement both methods to plug in a bot.

    Both methods get the current :class:`~yahtzee_rules.Turn` (card, rules, dice,
    rolls left) and a :class:`random.Random` to draw from, so that seeded runs repeat.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Category, Keep, Turn, simulate
        >>> class ChanceFirst:
        ...     def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        ...         return None  # never reroll
        ...     def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        ...         return max(turn.options, key=turn.options.__getitem__)
        >>> isinstance(ChanceFirst(), Strategy)
        True
        >>> simulate(ChanceFirst(), games=3, seed=0).games
        3
    """

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """The dice to hold before the next roll, or ``None`` to stop and fill a box.

        Called only while the turn has rolls left.

        Examples:
            >>> import random
            >>> from yahtzee_rules import GreedyStrategy, Turn
            >>> GreedyStrategy().choose_keep(Turn().roll(outcome="13366"), random.Random(0))
            Keep('66')
        """
        ...  # pragma: no cover

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The box to fill with the dice showing; it must be one of ``turn.options``.

        Examples:
            >>> import random
            >>> from yahtzee_rules import GreedyStrategy, Turn
            >>> GreedyStrategy().choose_box(Turn().roll(outcome="12345"), random.Random(0))
            <Category.LARGE_STRAIGHT: 10>
        """
        ...  # pragma: no cover


@runtime_checkable
class BatchStrategy(Protocol):
    """A :class:`Strategy` that can also play many whole games at once, and says so.

    :func:`simulate` asks the first seat's strategy, when it is one, to play a chunk of
    games with every seat's strategy (:meth:`play_games`): it may decline (``None``),
    for instance for a line-up it does not know, and the games are then played
    through :class:`~yahtzee_rules.Game` as usual. Games it plays must be exactly
    those: each roll drawing one ``rng.random()`` and reading the roll table of the
    dice held, as a game does, the strategies drawing nothing, so that a run's scores
    never depend on which way its games were played.
    :class:`~yahtzee_rules.OptimalStrategy` is one.

    Examples:
        >>> from yahtzee_rules import GreedyStrategy, OptimalStrategy
        >>> isinstance(GreedyStrategy(), BatchStrategy)
        False
        >>> hasattr(OptimalStrategy, "play_games")
        True
    """

    def play_games(
        self,
        seats: Sequence[Strategy],
        *,
        rules: Rules,
        games: int,
        rng: random.Random,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[int] | None:
        """Play ``games`` games of ``rules`` with one strategy per seat (this one among
        them); each seat's final grand total, game after game, seat after seat, or
        ``None`` to decline. ``progress(done, games)`` is called after each game."""

    def prepare_games(self, seats: Sequence[Strategy], *, rules: Rules, games: int) -> None:
        """Get ready here for chunks of ``games`` games that will be played elsewhere (on an
        executor's workers), for instance by loading or building and caching tables."""


@attrs.frozen
class RandomStrategy:
    """Holds a random sub-multiset of the dice (or stops), and fills a random legal box.

    Each choice is uniform over the distinct keeps and stopping, then over the
    legal boxes. A baseline: it averages about 46 points.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Turn
        >>> turn = Turn().roll(outcome="12345")
        >>> RandomStrategy().choose_box(turn, random.Random(0)) in turn.options
        True
    """

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """A uniformly random choice among the distinct keeps and stopping.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> keep = RandomStrategy().choose_keep(Turn().roll(outcome="11223"), random.Random(2))
            >>> keep is None or len(keep) <= 5
            True
        """
        dice = turn.dice
        if dice is None:
            return None
        keeps = dice.keeps()
        choice = rng.randrange(len(keeps) + 1)
        return None if choice == len(keeps) else keeps[choice]

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """A uniformly random legal box.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> RandomStrategy().choose_box(Turn().roll(outcome="12345"), random.Random(0))
            <Category.THREE_OF_A_KIND: 6>
        """
        return rng.choice(tuple(turn.options))


_STRAIGHT_RUNS = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))


def _plain_keep(card: Card, dice: Dice, options: Mapping[Box, int]) -> Keep | None:
    """Greedy keeps on any card: stop on a made pattern whose box is open, else hold a set.

    A pattern box scores one fixed value or nothing (Yacht's straights and Yacht).
    """
    for box in options:
        if box.face is None and options[box] and len(card.possible[box]) == 2:
            return None
    counts = dice.counts
    best = max(range(6), key=lambda f: (counts[f], f))
    if counts[best] == 5:
        return None
    return KEEP_BY_FACES[(best + 1,) * counts[best]]


@attrs.frozen
class GreedyStrategy:
    """Takes the most points now, and keeps dice the way a casual player does.

    Boxes: the legal box with the most points; on a tie, the box that could hold the
    least (so a zero goes in Aces before Yahtzee). Keeps: stop on a Yahtzee, a large
    straight, a full house or a small straight whose box is open (going on from a
    small straight when the large one is open); otherwise hold the most common face
    (the higher one on a tie). It averages about 205 points. On a card other than
    Classic it stops on any made pattern whose box is open (a box that scores one
    fixed value or nothing, such as Yacht's straights), else holds the most common face.
    On a card of several columns (Triple Yahtzee) the points of a box are counted
    times its column's multiplier.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Turn
        >>> greedy, rng = GreedyStrategy(), random.Random(0)
        >>> greedy.choose_keep(Turn().roll(outcome="25552"), rng)  # a full house: stop
        >>> greedy.choose_keep(Turn().roll(outcome="12346"), rng)  # go for the large straight
        Keep('1234')
        >>> greedy.choose_keep(Turn().roll(outcome="13356"), rng)
        Keep('33')
        >>> greedy.choose_box(Turn().roll(outcome="13356"), rng)
        <Category.CHANCE: 12>
    """

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """Stop on a made pattern with an open box, else hold the best run or set.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> GreedyStrategy().choose_keep(Turn().roll(outcome="66666"), random.Random(0))
        """
        dice = turn.dice
        if dice is None:
            return None
        options = turn.options
        if turn.rules.card is not CLASSIC:
            return _plain_keep(turn.rules.card, dice, options)
        scores = {c: dice.score(c) for c in (Category.FULL_HOUSE, Category.LARGE_STRAIGHT)}
        if dice.is_yahtzee and (Category.YAHTZEE in options or turn.card[Category.YAHTZEE] == 50):
            return None
        if scores[Category.LARGE_STRAIGHT] and Category.LARGE_STRAIGHT in options:
            return None
        if scores[Category.FULL_HOUSE] and Category.FULL_HOUSE in options:
            return None
        faces = set(dice.faces)
        straights = Category.SMALL_STRAIGHT in options or Category.LARGE_STRAIGHT in options
        if straights:
            for run in _STRAIGHT_RUNS:
                if faces.issuperset(run):
                    if Category.LARGE_STRAIGHT in options:
                        return KEEP_BY_FACES[run]
                    return None
        counts = dice.counts
        best = max(range(6), key=lambda f: (counts[f], f))
        if counts[best] == 5:
            return None  # five equal dice and no use for them: rerolling none would waste a roll
        return KEEP_BY_FACES[(best + 1,) * counts[best]]

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The legal box with the most points; on a tie the one that could hold the least.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> GreedyStrategy().choose_box(Turn().roll(outcome="22233"), random.Random(0))
            <Category.FULL_HOUSE: 8>
        """
        options = turn.options
        card = turn.rules.card
        possible = card.possible
        if len(card.columns) > 1:
            # points now are the points times the column's multiplier (Triple Yahtzee)
            return max(
                options, key=lambda c: (options[c] * c.multiplier, -max(possible[c]), -int(c))
            )
        return max(options, key=lambda c: (options[c], -max(possible[c]), -int(c)))


class OptimalStrategy:
    """Plays the optimal solitaire strategy of a :class:`~yahtzee_rules.bots.solver.Table`.

    It maximises the expected final score of its own card; in a multi-player game it
    does not react to the other players' scores. Needs NumPy (the ``solver`` extra).

    Args:
        table: A table for the rules of the games to be played.
        rules: Instead of ``table`` (keyword only): the rules to play, whose full
            table :func:`~yahtzee_rules.bots.solver.load_table` gives (built and cached the
            first time). Any card the library has: ``Rules.from_name("yacht")`` too.

    Raises:
        MalformedInputError: For a ``table`` that is not a Table, ``rules`` that are
            not a Rules, or both given for different rules.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Category, Rules, Scorecard, Turn, simulate
        >>> from yahtzee_rules.bots.solver import build_table
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
        >>> optimal = OptimalStrategy(build_table(start=card))
        >>> optimal.choose_keep(Turn(card).roll(outcome="44412"), random.Random(0))
        Keep('444')
        >>> yacht = Rules.from_name("yacht")
        >>> simulate(OptimalStrategy(rules=yacht), games=2, rules=yacht).games
        2
    """

    __slots__ = ("table",)

    def __init__(self, table: Table | None = None, *, rules: Rules | None = None) -> None:
        from yahtzee_rules.bots.solver import Table, load_table

        if table is None:
            table = load_table(rules=Rules() if rules is None else rules)
        elif not isinstance(table, Table):
            raise MalformedInputError(
                f"table {show(table)}: not a Table; get one with yahtzee_rules.bots.solver.load_table()"
            )
        elif rules is not None and not table.serves(rules):
            name = rules.name if isinstance(rules, Rules) else repr(rules)
            raise MalformedInputError(
                f"rules {show(name)}: the table is for the rules {show(table.rules.name)}; "
                f"give the table or the rules, or a table built for those rules"
            )
        self.table = table

    def __repr__(self) -> str:
        return f"OptimalStrategy({self.table!r})"

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """The optimal keep, or ``None`` when filling a box now is best.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import build_table
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
            >>> optimal = OptimalStrategy(build_table(start=card))
            >>> optimal.choose_keep(Turn(card).roll(outcome="44444"), random.Random(0))
        """
        from yahtzee_rules.bots.solver import best_action

        action = best_action(turn, self.table)
        return action if isinstance(action, Keep) else None

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The box that maximises the expected final score, filling now.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import build_table
            >>> card = Scorecard({c: 0 for c in Category if c not in (Category.ACES, Category.CHANCE)})
            >>> optimal = OptimalStrategy(build_table(start=card))
            >>> optimal.choose_box(Turn(card).roll(outcome="66655"), random.Random(0))
            <Category.CHANCE: 12>
        """
        from yahtzee_rules.bots.solver import best_box

        return best_box(turn, self.table)

    def _tables(self, seats: Sequence[Strategy], rules: Rules) -> list[Table] | None:
        """Each seat's table, when every seat plays an OptimalStrategy with a table for
        ``rules`` from the start; else ``None``."""
        tables = []
        for seat in seats:
            if seat.__class__ is not OptimalStrategy:
                return None
            table = seat.table
            if not table.serves(rules) or table.start.filled_categories:
                return None
            tables.append(table)
        return tables

    def play_games(
        self,
        seats: Sequence[Strategy],
        *,
        rules: Rules,
        games: int,
        rng: random.Random,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[int] | None:
        """Play the games at once when every seat is an OptimalStrategy (see :class:`BatchStrategy`).

        Without a :class:`~yahtzee_rules.Game` value per action: a seat's actions
        are looked up in its table's decision table where one is loaded or cached, or
        worked out from the per-turn tables (a whole turn at a time by the compiled
        kernel; where it is not built, a decision table is loaded or built, and cached,
        for 1,000 games or more). Other line-ups are declined.

        Examples:
            >>> import random
            >>> from yahtzee_rules import GreedyStrategy, Rules
            >>> yacht = Rules.from_name("yacht")
            >>> optimal = OptimalStrategy(rules=yacht)
            >>> len(optimal.play_games([optimal], rules=yacht, games=3, rng=random.Random(1)))
            3
            >>> print(optimal.play_games([optimal, GreedyStrategy()], rules=yacht, games=3, rng=random.Random(1)))
            None
        """
        tables = self._tables(seats, rules)
        if tables is None:
            return None
        from yahtzee_rules.bots.solver._internal import optimal_scores

        return optimal_scores(tables, games=games, rules=rules, rng=rng, progress=progress)

    def prepare_games(self, seats: Sequence[Strategy], *, rules: Rules, games: int) -> None:
        """Load or build (and cache) the decision tables chunks of ``games`` games will read.

        Examples:
            >>> optimal = OptimalStrategy(rules=Rules.from_name("yacht"))
            >>> optimal.prepare_games([optimal], rules=optimal.table.rules, games=10)  # few: nothing to do
        """
        tables = self._tables(seats, rules)
        if tables is not None:
            from yahtzee_rules.bots.solver._internal import prepare_decisions

            prepare_decisions(tables, games)


def _rolled(keep: KeepLike, game: Game) -> Roll:
    """The record's action for a roll that held ``keep`` and left ``game``'s dice showing."""
    held = keep if isinstance(keep, Keep) else Keep(keep)
    assert game.dice is not None
    thrown = list(game.dice.faces)
    for face in held.faces:
        thrown.remove(face)
    return Roll(thrown, keep=held)


def _play_turn(
    game: Game, strategy: Strategy, rng: random.Random, log: list[Roll | Fill] | None = None
) -> Game:
    """The strategy loop: roll if no dice show, hold and reroll while asked, then fill.

    The actions played are appended to ``log`` when one is given.
    """
    if game.dice is None:
        game = game.roll(rng, keep=_EMPTY_KEEP)
        if log is not None:
            log.append(_rolled(_EMPTY_KEEP, game))
    while True:
        turn = game.turn
        assert turn is not None
        if turn.rolls_left:
            keep = strategy.choose_keep(turn, rng)
            if keep is not None:
                game = game.roll(rng, keep=keep)
                if log is not None:
                    log.append(_rolled(keep, game))
                continue
        category = strategy.choose_box(turn, rng)
        game = game.fill(category)
        if log is not None:
            log.append(Fill(category))
        return game


def play_turn(game: Game | GameRecord, strategy: Strategy, rng: random.Random) -> GameRecord:
    """Play the current player's turn with ``strategy``; return the record with its actions.

    This is the library's one strategy loop: :func:`simulate`, the computer players
    of the ``yahtzee-rules`` command and the demonstration game all play through it.
    With no dice showing it rolls all five; then, while the turn has rolls left, it
    asks ``strategy.choose_keep`` and rolls the other dice, until the strategy says
    ``None``; then it fills the box ``strategy.choose_box`` names. A turn already
    under way (dice showing) is continued from where it stands. ``rng`` rolls the
    dice and is passed to the strategy, so the same seed plays the same turn.

    Args:
        game: The game so far: a :class:`~yahtzee_rules.GameRecord`, whose actions the
            turn's are added to, or a :class:`~yahtzee_rules.Game`, where the record
            returned starts.
        strategy: Who decides the holds and the box.
        rng: The dice generator, also handed to the strategy.

    Returns:
        The record after the turn: its last actions are the turn's rolls (each with
        the dice held and the dice showing after it) and its fill, and its
        :attr:`~yahtzee_rules.GameRecord.game` is the game with the next player to move.

    Raises:
        MalformedInputError: If ``game`` is not a Game or GameRecord, ``strategy`` is
            not a :class:`Strategy`, or ``rng`` is not a :class:`random.Random`.
        IllegalActionError: If the game is over, or the strategy picks a keep or a box
            the rules do not allow.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Game, GreedyStrategy
        >>> record = play_turn(Game.new(["Ann", "Bob"]), GreedyStrategy(), random.Random(2))
        >>> [str(action) for action in record.actions]  # rolled, held 3456 twice, filled
        ['13456', '3456/6', '3456/1', 'ss']
        >>> record.game.current_player, record.game.player_totals("Ann").grand_total
        ('Bob', 30)
        >>> record = play_turn(record, GreedyStrategy(), random.Random(4))  # Bob's turn
        >>> record
        GameRecord.parse('forced 0 Ann,Bob : 13456 3456/6 3456/1 ss 23366 66/145 66/233 c')
    """
    if isinstance(game, GameRecord):
        record = game
    elif isinstance(game, Game):
        record = GameRecord.from_game(game)
    else:
        raise MalformedInputError(
            f"game {show(game)}: not a Game or a GameRecord; start one with GameRecord.new(players)"
        )
    (seat,) = _strategies(strategy, 1)
    if not isinstance(rng, random.Random):
        raise MalformedInputError(f"rng {show(rng)}: not a random.Random; pass random.Random(seed)")
    actions: list[Roll | Fill] = []
    _play_turn(record.game, seat, rng, actions)
    for action in actions:
        record = record.play(action)
    return record


def _strategies(strategy: Strategy | Sequence[Strategy], players: int | None) -> list[Strategy]:
    if isinstance(strategy, Sequence):
        if not strategy or (players is not None and players != len(strategy)):
            raise MalformedInputError(
                f"strategies: {len(strategy)} given for {players} players; give one strategy "
                f"per seat, or a single strategy for every seat"
            )
        count = len(strategy)
    else:
        count = 1 if players is None else players
        if type(count) is not int or count < 1:
            raise MalformedInputError(f"players {show(players)}: not a positive int")
    if count > MAX_PLAYERS:  # before a list of that many seats is made
        raise MalformedInputError(
            f"players {count}: more than the limit of {MAX_PLAYERS} players a game seats"
        )
    seats = list(strategy) if isinstance(strategy, Sequence) else [strategy] * count
    for seat in seats:
        if not isinstance(seat, Strategy):
            raise MalformedInputError(
                f"strategy {show(seat)}: has no choose_keep and choose_box methods; "
                f"see yahtzee_rules.Strategy"
            )
    return seats


def strategy_failed(who: str, seat: int, where: str, error: Exception) -> RulesError:
    """The error for the strategy ``who`` in ``seat`` failing with ``error`` in the game ``where``.

    A :class:`~yahtzee_rules.RulesError` keeps its class (a closed box stays an
    :class:`~yahtzee_rules.IllegalActionError`), its message led by who failed where;
    any other exception becomes a :class:`~yahtzee_rules.StrategyError` ending with its
    type and words. The caller raises it ``from error``.
    """
    lead = f"strategy {who} in seat {seat}, {where}"
    if isinstance(error, RulesError):
        try:
            return type(error)(f"{lead}: {brief(str(error))}")
        except Exception:  # a subclass of the user's that takes other arguments
            pass
    return StrategyError(f"{lead}: {type(error).__name__}: {brief(str(error))}")


def _play_games(
    seats: Sequence[Strategy],
    rules: Rules,
    games: int,
    rng: random.Random,
    progress: Callable[[int, int], None] | None = None,
    total: int = 0,
    seed: object = 0,
    index: int = 0,
) -> list[int]:
    """Play ``games`` games with one generator; the final totals, game by game, seat by seat.

    This is chunk ``index`` of a run seeded with ``seed``, which an error names.
    """
    done = index * _GAMES_PER_CHUNK
    run = f"simulate(seed={show(seed, 60)})"
    lead = seats[0]
    if isinstance(lead, BatchStrategy):  # the same games, roll for roll, played at once
        report = None
        if progress is not None:
            shown = progress

            def report(number: int, _games: int) -> None:
                shown(done + number, total)

        try:
            found = lead.play_games(seats, rules=rules, games=games, rng=rng, progress=report)
        except Exception as error:
            where = f"games {done + 1} to {done + games} of {run} (chunk {index}), played together"
            raise strategy_failed(show(lead, 80), 0, where, error) from error
        if found is not None:
            return found
    scores: list[int] = []
    for number in range(games):
        game = Game.new(len(seats), rules=rules)
        try:
            while not game.is_over:
                game = _play_turn(game, seats[game.current], rng)
        except Exception as error:
            where = (
                f"game {done + number + 1} of {run} (chunk {index}, game {number} of its {games})"
            )
            raise strategy_failed(
                show(seats[game.current], 80), game.current, where, error
            ) from error
        scores.extend(game.player_totals(seat).grand_total for seat in range(len(seats)))
        if progress is not None:
            progress(done + number + 1, total)
    return scores


def _simulate_chunk(
    seats: Sequence[Strategy], rules: Rules, games: int, seed: int, index: int
) -> list[int]:
    """Chunk ``index`` of a :func:`simulate` run (at module level, so executors can pickle it)."""
    return _play_games(seats, rules, games, chunk_random(seed, index), seed=seed, index=index)


def simulate(
    strategy: Strategy | Sequence[Strategy],
    *,
    games: int = 1000,
    seed: int = 0,
    players: int | None = None,
    rules: Rules | None = None,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> SimulationResult:
    """Play ``games`` whole games through :class:`~yahtzee_rules.Game` and collect the scores.

    The games are played in chunks of 1,000; chunk ``i`` rolls with a generator
    seeded from ``(seed, i)`` (the first chunk with ``random.Random(seed)`` itself).
    The chunks run here one after another, or on ``executor``: the scores are the
    same, bit for bit, either way and for any number of workers.

    Args:
        strategy: One strategy for every seat, or a sequence with one per seat.
        games: How many games to play.
        seed: Seeds the generators that roll the dice and are passed to the
            strategies: the same seed plays the same games.
        players: Seats per game (default: 1, or the number of strategies given).
        rules: The rule set (Hasbro's Classic game when left out).
        progress: Called as ``progress(done, games)`` after each game (after each
            chunk on an executor), for a progress bar.
        executor: Where to run the chunks: ``None`` (here), or anything whose
            ``submit(fn, *args)`` returns a future, such as
            ``concurrent.futures.ProcessPoolExecutor()``, loky's executor or a Dask
            client's ``get_executor()``. The strategies and rules are pickled to it;
            optimal strategies' decision tables are loaded or built here first (and
            cached), so that local workers read them instead of each building its own.

    Raises:
        MalformedInputError: For a non-strategy, a mismatched number of players (or
            more than :data:`~yahtzee_rules.play.game.MAX_PLAYERS`), a negative number
            of games, or an executor without ``submit``.
        IllegalActionError: If a strategy picks a keep or box the rules do not allow
            (any :class:`~yahtzee_rules.RulesError` a strategy causes keeps its class).
        StrategyError: If a strategy raises an exception of another kind. Either names
            the strategy, its seat, the game and the seed, and chains the original.

    Examples:
        >>> from yahtzee_rules import GreedyStrategy, RandomStrategy, simulate
        >>> duel = simulate([GreedyStrategy(), RandomStrategy()], games=10, seed=3)
        >>> duel.players, len(duel.scores), duel.wins
        (2, 20, (10.0, 0.0))
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> with ThreadPoolExecutor(2) as pool:  # two chunks: 1,000 games, then 1
        ...     simulate(RandomStrategy(), games=1001, seed=3, executor=pool).scores == (
        ...         simulate(RandomStrategy(), games=1001, seed=3).scores)
        True
    """
    seats = _strategies(strategy, players)
    if type(games) is not int or games < 0:
        raise MalformedInputError(f"games {show(games)}: not a non-negative int")
    rules = rules_or_usual(rules)  # Hasbro's Classic game when left out
    pool = check_executor(executor)
    chunks = spans(games, _GAMES_PER_CHUNK)
    scores: list[int] = []
    same: dict[int, int] = {}  # one int object per distinct total keeps a long run small
    started = time.perf_counter()
    if pool is None:
        for index, count in chunks:
            rng = chunk_random(seed, index)
            part = _play_games(seats, rules, count, rng, progress, games, seed, index)
            scores.extend(same.setdefault(total, total) for total in part)
    else:
        lead = seats[0]
        if isinstance(lead, BatchStrategy):  # e.g. decided here once, read from the cache there
            lead.prepare_games(seats, rules=rules, games=min(games, _GAMES_PER_CHUNK))
        tasks = ((seats, rules, count, seed, index) for index, count in chunks)
        for part in in_order(_simulate_chunk, tasks, pool):
            scores.extend(same.setdefault(total, total) for total in part)
            if progress is not None:
                progress(len(scores) // len(seats), games)
    seconds = time.perf_counter() - started
    return SimulationResult.from_scores(scores, players=len(seats), seconds=seconds)
