"""Tournaments between strategies: rotated seats, common dice, confidence intervals, SPRT.

:func:`tournament` plays every group of ``seats`` strategies against each other, in
every rotation of the seats, so each strategy plays each seat equally often. The
games come in *deals*: in one deal every seat gets its own dice, the same for the
same seat in every pairing and rotation (common random numbers), so a strategy
that gets lucky dice in seat 1 passes them on to its opponent in the next
rotation and luck largely cancels. A deal's dice for a seat are drawn turn by
turn: each turn has its own fifteen faces, the first roll takes five and each
reroll of ``n`` dice the next ``n`` of its row, so two strategies facing the same
deal see the same first roll in every turn.

The result (:class:`TournamentResult`) gives each strategy's win share with a
confidence interval and mean score with its standard error, and for each pair a
head-to-head share (the games where one finished ahead of the other, ties per the
rules' :class:`~yahtzee_rules.TieRule`) with an interval and a verdict. Intervals
come from the spread of the deal totals (the games of one deal are correlated by
design). With ``sprt=`` a sequential probability ratio test decides each pair and
the tournament stops as soon as every pair is decided.

Deals are played in chunks of 100, seeded from ``(seed, deal)``, so a tournament
runs here or on any executor (``executor=``) with the same tables, bit for bit.

Examples:
    >>> from yahtzee_rules import GreedyStrategy, RandomStrategy
    >>> result = tournament({"greedy": GreedyStrategy(), "random": RandomStrategy()}, deals=20)
    >>> result.games, [s.name for s in result.standings]
    (40, ['greedy', 'random'])
    >>> result.pair("greedy", "random").verdict
    <Verdict.FIRST: 'first is stronger'>
"""

from __future__ import annotations

import enum
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from yahtzee_rules.bots.simulation import Strategy, strategy_failed
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Keep, as_keep
from yahtzee_rules.core.rules import Rules, TieRule
from yahtzee_rules.play._filling import rules_or_usual
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.scorecard import category_arg
from yahtzee_rules.play.totals import totals
from yahtzee_rules.support._chunks import Executor, check_executor, in_order
from yahtzee_rules.support._intervals import effective_trials, wilson_interval
from yahtzee_rules.support._limits import MAX_DEAL_GAMES, MAX_PLAYERS
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import Table
    from yahtzee_rules.play.turn import Turn

__all__ = [
    "MAX_DEAL_GAMES",
    "HeadToHead",
    "Sprt",
    "StrategyRecord",
    "TournamentResult",
    "Verdict",
    "tournament",
]

_EMPTY = Keep("")
_FACES = (1, 2, 3, 4, 5, 6)
#: Deals per chunk: fixed, so results never depend on the executor; the test checks here.
_DEALS_PER_CHUNK = 100
#: Play-offs before tied players share the win after all (never reached in practice).
_MOST_PLAY_OFFS = 20
#: A variance floor for the sequential test: identical play gives a variance of 0.
_TINY_VARIANCE = 1e-9


def _check_probability(name: str, value: object, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < high:
        raise MalformedInputError(f"sprt {name} {show(value)}: not a number between 0 and {high}")
    return float(value)


@attrs.frozen
class Sprt:
    """A sequential probability ratio test for every pair of strategies.

    For each pair two one-sided tests run on the deal-by-deal head-to-head share
    ``x`` of the first strategy: "no edge" (mean 0.5) against "the first is ahead by
    ``edge``" (0.5 + ``edge``), and against "the second is ahead by ``edge``". Each
    uses the log-likelihood ratio of the normal approximation,
    ``n * d * (2 * mean - 1 - d) / (2 * variance)`` with ``d = ±edge``, and stops at
    Wald's bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``. A pair
    is decided when either test finds an edge, or both find none.

    Attributes:
        edge: The head-to-head share above one half worth detecting (0 to 0.5).
        alpha: The chance of reporting an edge where there is none (0 to 0.5).
        beta: The chance of missing an edge of ``edge`` (0 to 0.5).

    Raises:
        MalformedInputError: For a value outside its range.

    Examples:
        >>> test = Sprt(edge=0.05)
        >>> round(test.lower, 3), round(test.upper, 3)
        (-2.944, 2.944)
        >>> Sprt(alpha=0.7)
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: sprt alpha 0.7: not a number between 0 and 0.5
    """

    edge: float = attrs.field(default=0.05)
    alpha: float = attrs.field(default=0.05)
    beta: float = attrs.field(default=0.05)

    def __attrs_post_init__(self) -> None:
        for name in ("edge", "alpha", "beta"):
            object.__setattr__(self, name, _check_probability(name, getattr(self, name), 0.5))

    @property
    def lower(self) -> float:
        """The log-likelihood ratio at or below which a test accepts "no edge".

        Examples:
            >>> round(Sprt(alpha=0.01, beta=0.1).lower, 3)
            -2.293
        """
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The log-likelihood ratio at or above which a test accepts the edge.

        Examples:
            >>> round(Sprt(alpha=0.01, beta=0.1).upper, 3)
            4.5
        """
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, deals: int, total: float, squares: float, edge: float) -> float:
        """The log-likelihood ratio for ``edge`` (signed) after ``deals`` deal shares.

        ``total`` and ``squares`` add up the deal shares and their squares.

        Examples:
            >>> round(Sprt().llr(100, 60.0, 40.0, 0.05), 2)  # mean 0.6, variance 4 / 99
            9.28
        """
        if deals < 2:
            return 0.0
        mean = total / deals
        variance = max((squares - deals * mean * mean) / (deals - 1), _TINY_VARIANCE)
        return deals * edge * (2 * mean - 1 - edge) / (2 * variance)


class Verdict(enum.Enum):
    """How a pair of strategies compares.

    * ``FIRST`` / ``SECOND``: that strategy finishes ahead significantly more often
      (the interval excludes one half, or the sequential test found the edge).
    * ``NONE``: no significant difference (the interval includes one half, or the
      sequential test found no edge as large as its ``edge``).
    * ``UNDECIDED``: the sequential test ran out of deals before deciding.

    Examples:
        >>> Verdict.NONE.value
        'no significant difference'
    """

    FIRST = "first is stronger"
    SECOND = "second is stronger"
    NONE = "no significant difference"
    UNDECIDED = "undecided"

    def __repr__(self) -> str:
        return f"<Verdict.{self.name}: {self.value!r}>"


@attrs.frozen
class StrategyRecord:
    """One strategy's games, wins and scores in a tournament.

    Attributes:
        name: The strategy's name.
        games: Games played.
        wins: Games won; a shared win counts its share.
        win_share: ``wins / games``.
        win_interval: The confidence interval of the win share (Wilson's score interval:
            never a single point, even at a share of 0 or 1).
        mean_score: The mean final total.
        score_stderr: The standard error of the mean final total.
        mean_cost: With a ``table`` given to :func:`tournament`: the mean cost of the
            strategy's choices against optimal solitaire play, in expected final points
            (see :func:`yahtzee_rules.bots.solver.review`); else ``None``.
        cost_interval: The confidence interval of ``mean_cost`` (from the deal
            totals), or ``None``.

    Examples:
        >>> from yahtzee_rules import GreedyStrategy, RandomStrategy
        >>> record = tournament([GreedyStrategy(), RandomStrategy()], deals=10).standings[0]
        >>> record.name, record.games, record.win_share, record.mean_cost
        ('GreedyStrategy', 20, 1.0, None)
    """

    name: str
    games: int
    wins: float
    win_share: float
    win_interval: tuple[float, float]
    mean_score: float
    score_stderr: float
    mean_cost: float | None = None
    cost_interval: tuple[float, float] | None = None


@attrs.frozen
class HeadToHead:
    """How one strategy did against another in the games they played together.

    Attributes:
        first: The first strategy's name.
        second: The second strategy's name.
        games: The games both played.
        share: The first's share of those games: 1 for each game it finished ahead
            of the second, 1/2 for each tie that the tie rule leaves unbroken.
        interval: The confidence interval of ``share``: Wilson's score interval, so
            never a single point, even when one strategy won every game.
        verdict: The comparison (see :class:`Verdict`).
        llr: With a sequential test, the log-likelihood ratios of its two tests ("the
            first is ahead", "the second is ahead") when it stopped; else ``None``.
        deals: The deals after which the verdict was reached (all deals played
            without a sequential test or while it is undecided).

    Examples:
        >>> from yahtzee_rules import GreedyStrategy
        >>> twins = tournament({"a": GreedyStrategy(), "b": GreedyStrategy()}, deals=10)
        >>> pair = twins.pair("a", "b")
        >>> pair.share, [round(x, 3) for x in pair.interval], pair.verdict
        (0.5, [0.299, 0.701], <Verdict.NONE: 'no significant difference'>)
    """

    first: str
    second: str
    games: int
    share: float
    interval: tuple[float, float]
    verdict: Verdict
    llr: tuple[float, float] | None
    deals: int


@attrs.frozen
class TournamentResult:
    """The tables of a tournament.

    Attributes:
        names: The strategies' names, in the order given.
        seats: Seats per game.
        deals: Deals played (a sequential test may stop before all are played).
        games: Games played.
        seed: The seed.
        rules: The rules played.
        standings: A :class:`StrategyRecord` per strategy, in the order given.
        head_to_head: A :class:`HeadToHead` per pair of strategies, in the order given.
        sprt: The sequential test, or ``None``.
        confidence: The confidence level of the intervals.
        seconds: Wall-clock time the games took.

    Examples:
        >>> from yahtzee_rules import GreedyStrategy, RandomStrategy
        >>> result = tournament([GreedyStrategy(), RandomStrategy()], deals=10, seed=4)
        >>> print(result.report())  # doctest: +ELLIPSIS
        Tournament: 2 strategies, 2 seats, 10 deals (20 games), seed 4, forced Joker, ties share
        Strategy        Games  Win share  95% interval      Mean score  Std. error
        GreedyStrategy     20    100.0%    83.9% - 100.0%       ...
        RandomStrategy     20      0.0%     0.0% -  16.1%        ...
        <BLANKLINE>
        Head to head: the row's share of the games against the column
                        GreedyStrategy  RandomStrategy
        GreedyStrategy               -          100.0%
        RandomStrategy            0.0%               -
        <BLANKLINE>
        GreedyStrategy vs RandomStrategy: first is stronger (100.0%, 83.9% - 100.0%)
    """

    names: tuple[str, ...]
    seats: int
    deals: int
    games: int
    seed: int
    rules: Rules
    standings: tuple[StrategyRecord, ...]
    head_to_head: tuple[HeadToHead, ...]
    sprt: Sprt | None
    confidence: float
    seconds: float = attrs.field(eq=False)

    def pair(self, first: str, second: str) -> HeadToHead:
        """The head-to-head record of ``first`` against ``second`` (either order).

        Raises:
            MalformedInputError: For a name that is not a strategy of the tournament.

        Examples:
            >>> from yahtzee_rules import GreedyStrategy, RandomStrategy
            >>> result = tournament({"g": GreedyStrategy(), "r": RandomStrategy()}, deals=5)
            >>> result.pair("r", "g").share
            0.0
        """
        for name in (first, second):
            if name not in self.names:
                raise MalformedInputError(
                    f"strategy {show(name)}: not in the tournament; its strategies are "
                    f"{list(self.names)}"
                )
        for record in self.head_to_head:
            if (record.first, record.second) == (first, second):
                return record
            if (record.second, record.first) == (first, second):
                low, high = record.interval
                verdict = {Verdict.FIRST: Verdict.SECOND, Verdict.SECOND: Verdict.FIRST}
                llr = None if record.llr is None else (record.llr[1], record.llr[0])
                return HeadToHead(
                    second,
                    first,
                    record.games,
                    1 - record.share,
                    (1 - high, 1 - low),
                    verdict.get(record.verdict, record.verdict),
                    llr,
                    record.deals,
                )
        raise MalformedInputError(f"strategies {show(first)}: a strategy does not play itself")

    def _rules_label(self) -> str:
        """The rules in the report's first line: the Joker rule on the Classic card, else
        the ruleset's name; then the tie rule."""
        rules = attrs.evolve(self.rules, tie=TieRule.SHARE)
        played = rules.joker.label if rules == Rules(joker=rules.joker) else f"{rules.name} rules"
        return f"{played}, {self.rules.tie.label}"

    def report(self) -> str:
        """The tables as text: standings, head to head, and each pair's verdict.

        Examples:
            >>> from yahtzee_rules import GreedyStrategy
            >>> result = tournament([GreedyStrategy(), GreedyStrategy()], deals=4)
            >>> print(result.report().splitlines()[-1])
            GreedyStrategy vs GreedyStrategy 2: no significant difference (50.0%, 21.5% - 78.5%)
        """
        width = max(len("Strategy"), *(len(name) for name in self.names))
        lines = [
            f"Tournament: {len(self.names)} strategies, {self.seats} seats, {self.deals} deals "
            f"({self.games} games), seed {self.seed}, {self._rules_label()}",
            f"{'Strategy':<{width}}  Games  Win share  {round(100 * self.confidence)}% interval"
            f"      Mean score  Std. error"
            + ("  Cost a choice  interval" if self.standings[0].mean_cost is not None else ""),
        ]
        for record in self.standings:
            low, high = record.win_interval
            cost = ""
            if record.mean_cost is not None and record.cost_interval is not None:
                cost_low, cost_high = record.cost_interval
                cost = f"  {record.mean_cost:>13.3f}  {cost_low:.3f} - {cost_high:.3f}"
            lines.append(
                f"{record.name:<{width}}  {record.games:>5}  {record.win_share:>8.1%}   "
                f"{low:>6.1%} - {high:>6.1%}  {record.mean_score:>10.2f}  "
                f"{record.score_stderr:>10.2f}{cost}"
            )
        lines += ["", "Head to head: the row's share of the games against the column"]
        column = max(width, 7)
        lines.append(" " * width + "".join(f"  {name:>{column}}" for name in self.names))
        for row in self.names:
            cells = [
                "-" if row == other else f"{self.pair(row, other).share:.1%}"
                for other in self.names
            ]
            lines.append(f"{row:<{width}}" + "".join(f"  {cell:>{column}}" for cell in cells))
        lines.append("")
        if self.sprt is not None:
            test = self.sprt
            lines.append(
                f"Sequential test: edge {test.edge:.1%}, alpha {test.alpha}, beta {test.beta}"
            )
        for match in self.head_to_head:
            low, high = match.interval
            after = "" if match.llr is None else f", after {match.deals} deals"
            lines.append(
                f"{match.first} vs {match.second}: {match.verdict.value} "
                f"({match.share:.1%}, {low:.1%} - {high:.1%}{after})"
            )
        return "\n".join(lines)


# --- playing the deals -------------------------------------------------------------


def _faces(seed: int, deal: int, seat: object, turns: int) -> list[int]:
    """The faces of one seat's dice in one deal: fifteen a turn (three rows of five)."""
    return random.Random(f"{seed!r}/{deal}/{seat}/dice").choices(_FACES, k=15 * turns)


def _play(
    order: Sequence[int],
    strategies: Sequence[Strategy],
    rules: Rules,
    faces: Sequence[Sequence[int]],
    rngs: Sequence[random.Random],
    states: Sequence[tuple[object, ...]],
    steps_out: list[tuple[int, Turn, Keep | Box | None]] | None = None,
) -> Game:
    """One game: seat ``s`` plays ``strategies[order[s]]`` with the dice ``faces[s]``.

    With ``steps_out``, every decision is appended to it as it is played (the seat, the
    turn and the keep or box chosen), for the game's review: the game is replayed once.

    The strategies draw from their own generators ``rngs[s]``, not the dice's, each
    set to ``states[s]`` first, so every game of a deal hands a seat the same draws.
    A strategy with a ``see_game(game)`` method is shown the game before each choice.
    """
    game = Game.new(len(order), rules=rules)
    for rng, state in zip(rngs, states, strict=True):
        rng.setstate(state)
    turns = [0] * len(order)
    while not game.is_over:
        seat = game.current
        strategy, rng, row = strategies[order[seat]], rngs[seat], faces[seat]
        base = 15 * turns[seat]
        turns[seat] += 1
        game = game.roll(keep=_EMPTY, outcome=row[base : base + 5])
        try:
            see = getattr(strategy, "see_game", None)  # strategies that play the other cards
            while True:
                turn = game.turn
                assert turn is not None
                if see is not None:
                    see(game)
                if turn.rolls_left:
                    keep = strategy.choose_keep(turn, rng)
                    if keep is not None:
                        start_at = base + 5 * turn.rolls_used
                        thrown = row[start_at : start_at + 5 - len(keep)]
                        game = game.roll(keep=keep, outcome=thrown)
                        if steps_out is not None:
                            steps_out.append((seat, turn, as_keep(keep)))
                        continue
                box = strategy.choose_box(turn, rng)
                game = game.fill(box)
                if steps_out is not None:
                    steps_out.append((seat, turn, category_arg(box, rules.card)))
                break
        except Exception as error:
            raise _SeatError(order[seat], seat, error) from error
    return game


class _SeatError(Exception):
    """Strategy number ``strategy``, in ``seat``, failed with ``error``: the deal names it."""

    def __init__(self, strategy: int, seat: int, error: Exception) -> None:
        super().__init__(strategy, seat, error)
        self.strategy, self.seat, self.error = strategy, seat, error


def _ranking(
    game: Game, order: Sequence[int], strategies: Sequence[Strategy], tag: str, seed: int
) -> tuple[list[float], list[tuple[int, int]]]:
    """Each seat's share of the win, and a key per seat: a higher key finished ahead.

    Ties for the win go by the rules' tie rule; under ``PLAY_OFF`` the tied players
    play again (with dice of their own) until one wins.
    """
    rules = game.rules
    scores = [game.player_totals(seat).grand_total for seat in range(len(order))]
    top = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == top]
    wins = [0.0] * len(order)
    keys = [(score, 0) for score in scores]
    if rules.tie is TieRule.UPPER_TOTAL:
        keys = [
            (score, totals(card, rules=rules).upper_total)
            for score, card in zip(scores, game.cards, strict=True)
        ]
        best = max(keys[seat] for seat in leaders)
        leaders = [seat for seat in leaders if keys[seat] == best]
    elif rules.tie is TieRule.PLAY_OFF and len(leaders) > 1:
        shares = _play_off([order[seat] for seat in leaders], strategies, rules, tag, seed)
        for seat, share in zip(leaders, shares, strict=True):
            wins[seat] = share
            keys[seat] = (top, round(share * 1_000_000))
        return wins, keys
    for seat in leaders:
        wins[seat] = 1 / len(leaders)
    return wins, keys


def _play_off(
    players: list[int], strategies: Sequence[Strategy], rules: Rules, tag: str, seed: int
) -> list[float]:
    """Play-off games between tied strategies until one wins: each one's share of the win."""
    turns = len(rules.card)
    for attempt in range(_MOST_PLAY_OFFS):
        faces = [
            _faces(seed, 0, f"{tag}/play-off {attempt}/{seat}", turns)
            for seat in range(len(players))
        ]
        rngs = [
            random.Random(f"{seed!r}/{tag}/play-off {attempt}/{seat}/bot")
            for seat in range(len(players))
        ]
        game = _play(players, strategies, rules, faces, rngs, [r.getstate() for r in rngs])
        scores = [game.player_totals(seat).grand_total for seat in range(len(players))]
        top = max(scores)
        leaders = [seat for seat, score in enumerate(scores) if score == top]
        if len(leaders) == 1:
            return [1.0 if seat in leaders else 0.0 for seat in range(len(players))]
    return [1 / len(leaders) if seat in leaders else 0.0 for seat in range(len(players))]


def _seatings(group: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The seatings of a group: its rotations and, for three or more seats, its reversal's.

    Each strategy sits in each seat equally often, and for any two strategies each
    sits in the other's seat as often, so identical strategies tie exactly on a deal.
    """
    orders = [group[turn:] + group[:turn] for turn in range(len(group))]
    if len(group) > 2:
        back = group[::-1]
        orders += [back[turn:] + back[:turn] for turn in range(len(group))]
    return orders


@attrs.frozen
class _Tally:
    """Sums over deals (per-deal means and their squares): all a result needs, flat in size."""

    deals: int
    wins: tuple[float, ...]  # per strategy: total wins
    win_sums: tuple[float, ...]  # per strategy: sum over deals of the deal's win share
    win_squares: tuple[float, ...]
    score_sums: tuple[float, ...]  # per strategy: sum over deals of the deal's mean score
    score_squares: tuple[float, ...]
    pair_sums: tuple[float, ...]  # per pair: sum over deals of the first's head-to-head share
    pair_squares: tuple[float, ...]
    # per strategy, over deals, of the deal's total cost c and choices k (reviewed only):
    cost_sums: tuple[float, ...]  # Σc
    cost_squares: tuple[float, ...]  # Σc²
    choice_sums: tuple[float, ...]  # Σk
    choice_squares: tuple[float, ...]  # Σk²
    cost_choices: tuple[float, ...]  # Σck

    def __add__(self, other: _Tally) -> _Tally:
        return _Tally(
            self.deals + other.deals,
            *(
                tuple(a + b for a, b in zip(mine, theirs, strict=True))
                for mine, theirs in zip(
                    attrs.astuple(self, recurse=False)[1:],
                    attrs.astuple(other, recurse=False)[1:],
                    strict=True,
                )
            ),
        )


def _games_per_group(seats: int) -> int:
    return seats if seats == 2 else 2 * seats


def _empty_tally(strategies: int) -> _Tally:
    pairs = strategies * (strategies - 1) // 2
    zeros, pair_zeros = (0.0,) * strategies, (0.0,) * pairs
    return _Tally(0, zeros, zeros, zeros, zeros, zeros, pair_zeros, pair_zeros, *(zeros,) * 5)


def _play_deals(
    strategies: Sequence[Strategy],
    seats: int,
    rules: Rules,
    seed: int,
    first: int,
    count: int,
    names: Sequence[str] = (),
    table: Table | None = None,
) -> _Tally:
    """Deals ``first`` to ``first + count - 1`` (at module level, so executors can pickle it).

    With ``table``, each game is reviewed too: every strategy's cost and choices.

    A strategy that fails raises an error naming it (by ``names``), its seat, the deal
    and the seed (see :func:`~yahtzee_rules.bots.simulation.strategy_failed`).
    """
    n = len(strategies)
    groups = list(itertools.combinations(range(n), seats))
    pairs = {pair: index for index, pair in enumerate(itertools.combinations(range(n), 2))}
    together = [math.comb(n - 2, seats - 2) * _games_per_group(seats)] * len(pairs)
    played = math.comb(n - 1, seats - 1) * _games_per_group(seats)  # a strategy's, a deal
    turns = len(rules.card)
    total = _empty_tally(n)
    for deal in range(first, first + count):
        faces = [_faces(seed, deal, seat, turns) for seat in range(seats)]
        rngs = [random.Random(f"{seed!r}/{deal}/{seat}/bot") for seat in range(seats)]
        states = [rng.getstate() for rng in rngs]
        wins, points = [0.0] * n, [0.0] * n
        costs, choices = [0.0] * n, [0.0] * n
        ahead = [0.0] * len(pairs)
        played_in_deal = 0
        steps: list[tuple[int, Turn, Keep | Box | None]] | None = None if table is None else []
        for number, group in enumerate(groups):
            for turn, order in enumerate(_seatings(group)):
                played_in_deal += 1
                tag = f"{deal}/{number}/{turn}"
                try:
                    game = _play(order, strategies, rules, faces, rngs, states, steps)
                    shares, keys = _ranking(game, order, strategies, tag, seed)
                except _SeatError as failed:
                    name = names[failed.strategy] if names else f"number {failed.strategy}"
                    where = (
                        f"tournament deal {deal} (seed {seed}), game {played_in_deal} of the deal"
                    )
                    error = strategy_failed(show(name, 80), failed.seat, where, failed.error)
                    raise error from failed.error
                for seat, strategy in enumerate(order):
                    wins[strategy] += shares[seat]
                    points[strategy] += game.player_totals(seat).grand_total
                if steps is not None and table is not None:
                    from yahtzee_rules.bots.solver._internal import review_steps

                    reviewed = review_steps(Game.new(len(order), rules=rules), steps, table)
                    steps.clear()
                    for seat, strategy in enumerate(order):
                        player = reviewed.players[seat]
                        costs[strategy] += player.cost
                        choices[strategy] += len(player.choices)
                for one, two in itertools.combinations(range(seats), 2):
                    a, b = order[one], order[two]
                    key_a, key_b = keys[one], keys[two]
                    if a > b:
                        a, b, key_a, key_b = b, a, key_b, key_a
                    ahead[pairs[a, b]] += 1.0 if key_a > key_b else 0.5 if key_a == key_b else 0.0
        win_share = [w / played for w in wins]
        mean = [p / played for p in points]
        pair_share = [a / g for a, g in zip(ahead, together, strict=True)]
        total = total + _Tally(
            1,
            tuple(wins),
            tuple(win_share),
            tuple(w * w for w in win_share),
            tuple(mean),
            tuple(m * m for m in mean),
            tuple(pair_share),
            tuple(s * s for s in pair_share),
            tuple(costs),
            tuple(c * c for c in costs),
            tuple(choices),
            tuple(k * k for k in choices),
            tuple(c * k for c, k in zip(costs, choices, strict=True)),
        )
    return total


# --- the tournament ----------------------------------------------------------------


def _interval(deals: int, total: float, squares: float, z: float) -> tuple[float, float, float]:
    """The mean of ``deals`` deal values and its interval: ``(mean, low, high)``."""
    if deals == 0:
        return math.nan, math.nan, math.nan
    mean = total / deals
    if deals < 2:
        return mean, math.nan, math.nan
    variance = max((squares - deals * mean * mean) / (deals - 1), 0.0)
    half = z * math.sqrt(variance / deals)
    return mean, mean - half, mean + half


def _share_interval(
    deals: int, total: float, squares: float, z: float, trials: int
) -> tuple[float, float, float]:
    """A share's mean over ``deals`` deal shares and its interval: ``(mean, low, high)``.

    Wilson's score interval (:func:`~yahtzee_rules.support._intervals.wilson_interval`)
    over the trials the deals' spread is worth (the games of a deal are correlated),
    or over the ``trials`` games counted when that spread is 0: never a single point.
    """
    if deals == 0:
        return math.nan, math.nan, math.nan
    mean = total / deals
    variance = max((squares - deals * mean * mean) / (deals - 1), 0.0) if deals > 1 else 0.0
    low, high = wilson_interval(mean, effective_trials(mean, variance / deals, trials), z)
    return mean, low, high


def _named(strategies: Mapping[str, Strategy] | Sequence[Strategy]) -> dict[str, Strategy]:
    if isinstance(strategies, Mapping):
        named = dict(strategies)
        for name in named:
            if not isinstance(name, str) or not name.strip():
                raise MalformedInputError(f"strategy name {show(name)}: not a non-blank str")
    elif isinstance(strategies, Sequence) and not isinstance(strategies, str):
        named = {}
        last: dict[str, int] = {}  # the last number given to each class's name: linear time
        for strategy in strategies:
            base = type(strategy).__name__
            name, number = base, last.get(base, 0) + 1
            if number > 1:
                name = f"{base} {number}"
                while name in named:  # a class named like "GreedyStrategy 2" itself
                    number += 1
                    name = f"{base} {number}"
            last[base] = number
            named[name] = strategy
    else:
        raise MalformedInputError(
            f"strategies {show(strategies)}: not a mapping of names to strategies or a sequence "
            f"of strategies"
        )
    for name, strategy in named.items():
        if not isinstance(strategy, Strategy):
            raise MalformedInputError(
                f"strategy {show(name)}: {show(strategy)} has no choose_keep and choose_box "
                f"methods; see yahtzee_rules.Strategy"
            )
    return named


def tournament(
    strategies: Mapping[str, Strategy] | Sequence[Strategy],
    *,
    deals: int = 1000,
    seats: int = 2,
    seed: int = 0,
    rules: Rules | None = None,
    sprt: Sprt | None = None,
    confidence: float = 0.95,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    table: Table | None = None,
) -> TournamentResult:
    """Play every group of ``seats`` strategies in every seat rotation, deal after deal.

    In each deal, every group of ``seats`` of the strategies plays one game in each
    rotation of the seats, all with the deal's dice: seat ``s`` gets the same dice in
    every game of the deal. So each strategy plays ``seats * C(n - 1, seats - 1)``
    games a deal, equally often in each seat. See the module's description for the
    dice and the statistics.

    Args:
        strategies: The strategies, by name (a mapping), or a sequence (named after
            their classes, numbered from the second of a class on).
        deals: How many deals to play (at most, with ``sprt``).
        seats: Players per game: 2 or more, and no more than the strategies (nor than
            :data:`~yahtzee_rules.play.game.MAX_PLAYERS`). A deal plays at most
            :data:`MAX_DEAL_GAMES` (100,000) games: 316 strategies at two seats.
        seed: Seeds the dice and the generators handed to the strategies.
        rules: The rules played (Hasbro's Classic game when left out); its tie rule
            settles ties for the win.
        sprt: A sequential test: stop once every pair is decided (checked after each
            chunk of 100 deals). Without one, every deal is played and each pair's
            verdict comes from its confidence interval.
        confidence: The confidence level of the intervals (0 to 1).
        executor: Where to play the chunks of deals: ``None`` (here), or anything
            whose ``submit(fn, *args)`` returns a future. The tables are the same for
            any executor and number of workers.
        progress: Called as ``progress(deals_done, deals)`` after each chunk.
        table: An optimal table for the rules (from
            :func:`~yahtzee_rules.bots.solver.load_table`, covering the empty card):
            every game is then reviewed (:func:`~yahtzee_rules.bots.solver.review`) and
            each strategy's record gets the mean cost of its choices, with an
            interval. Reviewing takes a few milliseconds a game.

    Raises:
        MalformedInputError: For fewer than two strategies, a non-strategy, a bad
            number of seats or deals, more games a deal than :data:`MAX_DEAL_GAMES`,
            rules that are not a Rules, or an executor without ``submit``.
        IllegalActionError: If a strategy picks a keep or box the rules do not allow
            (any :class:`~yahtzee_rules.RulesError` a strategy causes keeps its class).
        StrategyError: If a strategy raises an exception of another kind. Either names
            the strategy, its seat, the deal and the seed, and chains the original.

    Examples:
        >>> from yahtzee_rules import GreedyStrategy, RandomStrategy
        >>> bots = {"greedy": GreedyStrategy(), "random": RandomStrategy()}
        >>> result = tournament(bots, deals=300, sprt=Sprt(edge=0.1))
        >>> result.deals, result.pair("greedy", "random").verdict  # decided after one chunk
        (100, <Verdict.FIRST: 'first is stronger'>)
        >>> tournament(bots, deals=300, sprt=Sprt(edge=0.1)) == result  # seeded: same tables
        True
    """
    named = _named(strategies)
    names = tuple(named)
    bots = tuple(named.values())
    if len(bots) < 2:
        raise MalformedInputError(f"strategies: {len(bots)} given; a tournament needs at least two")
    if type(seats) is not int or not 2 <= seats <= min(len(bots), MAX_PLAYERS):
        raise MalformedInputError(
            f"seats {show(seats)}: not an int from 2 to the number of strategies "
            f"({len(bots)}) and at most {MAX_PLAYERS}, the most players a game seats"
        )
    per_deal = math.comb(len(bots), seats) * _games_per_group(seats)
    if per_deal > MAX_DEAL_GAMES:  # before the groups are listed
        raise MalformedInputError(
            f"strategies: {len(bots)} at {seats} seats play {per_deal} games a deal, more than "
            f"the limit of {MAX_DEAL_GAMES}; compare fewer strategies, or at fewer seats"
        )
    if type(deals) is not int or deals < 1:
        raise MalformedInputError(f"deals {show(deals)}: not a positive int")
    if type(seed) is not int:
        raise MalformedInputError(f"seed {show(seed)}: not an int")
    rules = rules_or_usual(rules)  # Hasbro's Classic game when left out
    if sprt is not None and not isinstance(sprt, Sprt):
        raise MalformedInputError(f"sprt {show(sprt)}: not a Sprt or None")
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not 0 < confidence < 1
    ):
        raise MalformedInputError(f"confidence {show(confidence)}: not a number between 0 and 1")
    pool = check_executor(executor)
    if table is not None:
        _check_table(table, rules)
    z = statistics.NormalDist().inv_cdf((1 + confidence) / 2)
    pairs = list(itertools.combinations(range(len(bots)), 2))
    decided: dict[int, tuple[Verdict, tuple[float, float], int]] = {}
    tasks = (  # made as they are played: any number of deals costs nothing up front
        (bots, seats, rules, seed, first, min(_DEALS_PER_CHUNK, deals - first), names, table)
        for first in range(0, deals, _DEALS_PER_CHUNK)
    )
    tally = _empty_tally(len(bots))
    started = time.perf_counter()
    chunks = in_order(_play_deals, tasks, pool)
    try:
        for part in chunks:
            tally = tally + part
            if progress is not None:
                progress(tally.deals, deals)
            if sprt is not None:
                _sequential(sprt, tally, pairs, decided)
                if len(decided) == len(pairs):
                    break
    finally:
        chunks.close()
    seconds = time.perf_counter() - started
    return _result(
        names, seats, seed, rules, sprt, confidence, z, tally, pairs, decided, seconds, table
    )


def _check_table(table: object, rules: Rules) -> None:
    from yahtzee_rules.bots.solver import Table
    from yahtzee_rules.play.scorecard import Scorecard

    if not isinstance(table, Table) or not table.serves(rules):
        raise MalformedInputError(
            f"table {show(table)}: not a Table for the rules played; get one with load_table(rules)"
        )
    if not table.covers(Scorecard(card=rules.card)):
        raise MalformedInputError(
            f"table {show(table)}: starts from a card already filled in part; games start "
            f"from the empty card, so give the table of the whole game (load_table(rules))"
        )


def _cost(i: int, tally: _Tally, z: float) -> tuple[float, tuple[float, float]]:
    """Strategy ``i``'s mean cost a choice and its interval, from the deal totals."""
    from yahtzee_rules.bots.evaluation import ratio_stderr

    ratio, stderr = ratio_stderr(
        tally.deals,
        tally.cost_sums[i],
        tally.cost_squares[i],
        tally.choice_sums[i],
        tally.choice_squares[i],
        tally.cost_choices[i],
    )
    return ratio, (max(0.0, ratio - z * stderr), ratio + z * stderr)


def _sequential(
    sprt: Sprt,
    tally: _Tally,
    pairs: list[tuple[int, int]],
    decided: dict[int, tuple[Verdict, tuple[float, float], int]],
) -> None:
    """Decide the pairs whose tests have crossed a bound (a decision stands once made)."""
    for index in range(len(pairs)):
        if index in decided:
            continue
        total, squares = tally.pair_sums[index], tally.pair_squares[index]
        up = sprt.llr(tally.deals, total, squares, sprt.edge)
        down = sprt.llr(tally.deals, total, squares, -sprt.edge)
        if up >= sprt.upper:
            decided[index] = (Verdict.FIRST, (up, down), tally.deals)
        elif down >= sprt.upper:
            decided[index] = (Verdict.SECOND, (up, down), tally.deals)
        elif up <= sprt.lower and down <= sprt.lower:
            decided[index] = (Verdict.NONE, (up, down), tally.deals)


def _result(
    names: tuple[str, ...],
    seats: int,
    seed: int,
    rules: Rules,
    sprt: Sprt | None,
    confidence: float,
    z: float,
    tally: _Tally,
    pairs: list[tuple[int, int]],
    decided: dict[int, tuple[Verdict, tuple[float, float], int]],
    seconds: float,
    table: object = None,
) -> TournamentResult:
    n = len(names)
    played = math.comb(n - 1, seats - 1) * _games_per_group(seats)  # a strategy's, a deal
    together = math.comb(n - 2, seats - 2) * _games_per_group(seats)  # a pair's, a deal
    records = []
    for i, name in enumerate(names):
        share, low, high = _share_interval(
            tally.deals, tally.win_sums[i], tally.win_squares[i], z, played * tally.deals
        )
        mean, score_low, _ = _interval(tally.deals, tally.score_sums[i], tally.score_squares[i], z)
        cost, cost_interval = (None, None) if table is None else _cost(i, tally, z)
        records.append(
            StrategyRecord(
                name,
                played * tally.deals,
                tally.wins[i],
                share,
                (low, high),
                mean,
                (mean - score_low) / z,
                cost,
                cost_interval,
            )
        )
    matches = []
    for index, (i, j) in enumerate(pairs):
        share, low, high = _share_interval(
            tally.deals,
            tally.pair_sums[index],
            tally.pair_squares[index],
            z,
            together * tally.deals,
        )
        interval = (low, high)
        if sprt is None:
            verdict = Verdict.FIRST if low > 0.5 else Verdict.SECOND if high < 0.5 else Verdict.NONE
            llr, at = None, tally.deals
        elif index in decided:
            verdict, llr, at = decided[index]
        else:
            total, squares = tally.pair_sums[index], tally.pair_squares[index]
            llr = (
                sprt.llr(tally.deals, total, squares, sprt.edge),
                sprt.llr(tally.deals, total, squares, -sprt.edge),
            )
            verdict, at = Verdict.UNDECIDED, tally.deals
        matches.append(
            HeadToHead(
                names[i], names[j], together * tally.deals, share, interval, verdict, llr, at
            )
        )
    return TournamentResult(
        names,
        seats,
        tally.deals,
        math.comb(n, seats) * _games_per_group(seats) * tally.deals,
        seed,
        rules,
        tuple(records),
        tuple(matches),
        sprt,
        confidence,
        seconds,
    )
