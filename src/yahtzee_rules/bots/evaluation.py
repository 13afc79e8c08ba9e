"""Rate a strategy by its decisions alone: its mean cost a choice against optimal play.

:func:`evaluate` plays solitaire games with a strategy and reviews each one
(:func:`yahtzee_rules.bots.solver.review`): every choice's cost is the expected final
score it gave up against the optimal choice. The dice's luck cancels out of the cost,
so the mean cost a choice tells two strategies apart in far fewer games than their mean
scores do, and over many games the mean cost a game equals the optimum's expected score
minus the strategy's mean score. Needs the solver (NumPy).

Games are played in chunks of 100, chunk ``i`` rolling with a generator seeded from
``(seed, i)``, so the figures are the same, bit for bit, here or on any executor.

Examples:
    >>> from yahtzee_rules import GreedyStrategy, Rules
    >>> rated = evaluate(GreedyStrategy(), games=20, rules=Rules.from_name("yacht"))
    >>> rated.games, rated.mean_cost > 0
    (20, True)
"""

from __future__ import annotations

import math
import statistics
import time
from typing import TYPE_CHECKING

import attrs

from yahtzee_rules.bots.simulation import Strategy
from yahtzee_rules.core.dice import Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play._filling import rules_or_usual
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.support._chunks import check_executor, chunk_random, in_order, spans
from yahtzee_rules.support._frozen import refuse_reinit
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import Table
    from yahtzee_rules.support._chunks import Executor

__all__ = ["Evaluation", "evaluate", "ratio_stderr"]

#: Games per chunk: fixed, so results never depend on the executor.
_GAMES_PER_CHUNK = 100
#: At most this many tasks a run: each carries the table to the executor once (a cached
#: table as a reference to its file, which the workers map; any other by value).
_TASKS = 16
_EMPTY = Keep("")

# A chunk's tally: games, then for score s, cost c, choices k, luck l (per game):
# Σs, Σs², Σc, Σc², Σk, Σk², Σck, Σl, Σl².
_Tally = tuple[int, float, float, float, float, float, float, float, float, float]


@attrs.frozen
class Evaluation:
    """A strategy's play rated against optimal solitaire play, over many games.

    Attributes:
        games: The games played.
        choices: The decisions that were not forced, over every game.
        optimum: The expected final score of optimal play from the start.
        mean_score: The strategy's mean final score.
        score_stderr: The standard error of ``mean_score``.
        mean_cost: The mean cost of a choice, in expected final points (total cost
            over total choices).
        cost_stderr: The standard error of ``mean_cost`` (games are independent; the
            choices of one game are not, so it comes from the game totals).
        cost_per_game: The mean total cost of a game.
        cost_per_game_stderr: The standard error of ``cost_per_game``.
        luck_per_game: The mean luck of a game's rolls (0 on average).
        luck_stderr: The standard error of ``luck_per_game``.
        seconds: The wall-clock time taken.

    Examples:
        >>> rated = Evaluation(100, 3600, 254.59, 200.0, 4.0, 1.5, 0.05, 54.0, 1.7, -0.59, 5.8, 1.0)
        >>> [round(x, 3) for x in rated.interval(0.95)]
        [1.402, 1.598]
    """

    games: int
    choices: int
    optimum: float
    mean_score: float
    score_stderr: float
    mean_cost: float
    cost_stderr: float
    cost_per_game: float
    cost_per_game_stderr: float
    luck_per_game: float
    luck_stderr: float
    seconds: float

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self)

    def interval(self, confidence: float = 0.99) -> tuple[float, float]:
        """The confidence interval of :attr:`mean_cost` (normal approximation).

        Raises:
            MalformedInputError: For a confidence not strictly between 0 and 1.

        Examples:
            >>> rated = Evaluation(10, 360, 254.59, 200.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.1, 5.8, 1.0)
            >>> rated.interval()
            (0.0, 0.0)
        """
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
            raise MalformedInputError(f"confidence {show(confidence)}: not a number")
        if not 0 < confidence < 1:
            raise MalformedInputError(f"confidence {show(confidence)}: not between 0 and 1")
        z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
        half = z * self.cost_stderr
        return (max(0.0, self.mean_cost - half), self.mean_cost + half)


def _evaluate_chunks(
    strategy: Strategy,
    rules: Rules,
    table: Table,
    chunks: tuple[tuple[int, int], ...],
    seed: object,
) -> list[_Tally]:
    """Play and rate the games of each chunk ``(index, count)``: their tallies, in order.

    A task takes several chunks, so an executor is sent the table once a task, not once
    a chunk; each chunk still rolls with its own generator and is tallied alone.
    """
    from yahtzee_rules.bots.solver._internal import play_and_rate

    empty = Scorecard(card=rules.card)
    tallies: list[_Tally] = []
    for index, count in chunks:
        rng = chunk_random(seed, index, "evaluate")
        sums = [0.0] * 9
        for score, cost, choices, luck in play_and_rate(strategy, table, count, rng, empty):
            for i, value in enumerate(
                (score, score * score, cost, cost * cost, choices, choices * choices)
            ):
                sums[i] += value
            sums[6] += cost * choices
            sums[7] += luck
            sums[8] += luck * luck
        tallies.append((count, *sums))  # type: ignore[arg-type]
    return tallies


def ratio_stderr(
    n: int, c: float, c2: float, k: float, k2: float, ck: float
) -> tuple[float, float]:
    """The mean cost a choice, total over total, and its standard error, from ``n``
    independent units (games, or a tournament's deals) with costs ``c_i`` and choices
    ``k_i``: ``Σc``, ``Σc²``, ``Σk``, ``Σk²`` and ``Σck`` (the ratio estimator, its error
    by the delta method). The choices of one unit are not independent; the units are.

    Examples:
        >>> ratio_stderr(2, 3.0, 5.0, 4.0, 8.0, 6.0)  # costs 1 and 2 over 2 choices each
        (0.75, 0.25)
    """
    ratio = c / k if k else 0.0
    if n < 2 or not k:
        return ratio, 0.0
    spread = max(0.0, c2 - 2 * ratio * ck + ratio * ratio * k2)
    return ratio, math.sqrt(spread / (n * (n - 1))) / (k / n)


def _stderr(n: int, total: float, squares: float) -> float:
    if n < 2:
        return 0.0
    variance = max(0.0, (squares - total * total / n) / (n - 1))
    return math.sqrt(variance / n)


def evaluate(
    strategy: Strategy,
    *,
    games: int = 1000,
    seed: int = 0,
    rules: Rules | None = None,
    table: Table | None = None,
    executor: Executor | None = None,
) -> Evaluation:
    """Rate ``strategy`` by what its choices cost against optimal solitaire play.

    Args:
        strategy: The strategy to rate (anything with ``choose_keep`` and ``choose_box``).
        games: How many solitaire games to play (1 or more).
        seed: Seeds the generators that roll the dice and are passed to the strategy.
        rules: The rules (Hasbro's Classic game when left out); any the solver covers.
        table: The optimal table for ``rules``; left out,
            :func:`~yahtzee_rules.bots.solver.load_table` (cached, built the first time).
        executor: Where to play the chunks: ``None`` (here) or anything whose
            ``submit(fn, *args)`` returns a future. The same figures either way.

    Raises:
        MalformedInputError: For a non-strategy, a number of games below 1, rules the
            solver cannot solve, or an executor without ``submit``.

    Examples:
        >>> from yahtzee_rules import RandomStrategy, Rules
        >>> from yahtzee_rules.bots.simulation import OptimalStrategy
        >>> from yahtzee_rules.bots.solver import load_table
        >>> yacht = Rules.from_name("yacht")
        >>> evaluate(OptimalStrategy(rules=yacht), games=5, rules=yacht).mean_cost
        0.0
        >>> rated = evaluate(RandomStrategy(), games=50, rules=yacht)
        >>> low, high = rated.interval(0.99)
        >>> low < rated.mean_cost < high
        True
    """
    if not isinstance(strategy, Strategy):
        raise MalformedInputError(
            f"strategy {show(strategy)}: has no choose_keep and choose_box methods; "
            f"see yahtzee_rules.Strategy"
        )
    if type(games) is not int or games < 1:
        raise MalformedInputError(f"games {show(games)}: not a positive int")
    rules = rules_or_usual(rules)
    pool = check_executor(executor)
    from yahtzee_rules.bots.solver import Table, load_table

    empty = Scorecard(card=rules.card)
    if table is None:
        table = load_table(rules=rules)
    elif not isinstance(table, Table) or table.rules != rules or not table.covers(empty):
        raise MalformedInputError(
            f"table {show(table)}: not a Table for the rules played from the empty card; "
            f"get one with load_table(rules)"
        )
    started = time.perf_counter()
    chunks = spans(games, _GAMES_PER_CHUNK)
    per_task = -(-len(chunks) // _TASKS)
    tasks = [
        (strategy, rules, table, tuple(chunks[lo : lo + per_task]), seed)
        for lo in range(0, len(chunks), per_task)
    ]
    total = [0.0] * 10
    for tallies in in_order(_evaluate_chunks, tasks, pool):
        for tally in tallies:  # chunk by chunk, in order: the same sums on any executor
            total = [a + b for a, b in zip(total, tally, strict=True)]
    n = int(total[0])
    s, s2, c, c2, k, k2, ck, lk, lk2 = total[1:]
    ratio, cost_stderr = ratio_stderr(n, c, c2, k, k2, ck)
    return Evaluation(
        games=n,
        choices=int(k),
        optimum=table.expected_final(empty),
        mean_score=s / n,
        score_stderr=_stderr(n, s, s2),
        mean_cost=ratio,
        cost_stderr=cost_stderr,
        cost_per_game=c / n,
        cost_per_game_stderr=_stderr(n, c, c2),
        luck_per_game=lk / n,
        luck_stderr=_stderr(n, lk, lk2),
        seconds=time.perf_counter() - started,
    )
