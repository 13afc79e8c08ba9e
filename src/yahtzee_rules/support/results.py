"""The outcome of many games: the scores and their summary statistics.

:class:`SimulationResult` is what :func:`~yahtzee_rules.simulate` and
:func:`yahtzee_rules.bots.solver.simulate_optimal` return. It sits below both, so the
solver need not import the simulation module (which imports the solver for
:class:`~yahtzee_rules.OptimalStrategy`); import it from :mod:`yahtzee_rules` or
:mod:`yahtzee_rules.bots.simulation`.

Examples:
    >>> from yahtzee_rules import SimulationResult
    >>> SimulationResult.from_scores([180, 260]).mean
    220.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from gc import get_referents

import attrs

from yahtzee_rules.support._frozen import reinit_error, tuple_of
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["SimulationResult"]


@attrs.frozen
class SimulationResult:
    """Scores from a simulation, with their summary statistics.

    Attributes:
        games: How many games were played.
        players: Players per game (1 for solitaire).
        scores: Every player's final grand total, game by game, seat by seat.
        wins: For each seat, the games it won; a tie shares the win equally.
        seconds: Wall-clock time the games took.

    Examples:
        >>> result = SimulationResult.from_scores([200, 250, 300], players=1, seconds=0.5)
        >>> result  # the scores are left out of the repr
        SimulationResult(games=3, players=1, wins=(3.0,), seconds=0.5)
        >>> result.mean, result.std, round(result.stderr, 3)
        (250.0, 50.0, 28.868)
        >>> result.minimum, result.maximum, result.games_per_second
        (200, 300, 6.0)
        >>> result.histogram
        ((200, 1), (250, 1), (300, 1))
    """

    games: int
    players: int
    scores: tuple[int, ...] = attrs.field(repr=False, converter=tuple_of)
    wins: tuple[float, ...] = attrs.field(converter=tuple_of)
    seconds: float

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    @classmethod
    def from_scores(
        cls, scores: Sequence[int], *, players: int = 1, seconds: float = 0.0
    ) -> SimulationResult:
        """A result from final totals listed game by game, seat by seat.

        Raises:
            MalformedInputError: If the scores do not split into whole games.

        Examples:
            >>> SimulationResult.from_scores([100, 90, 80, 80], players=2).wins
            (1.5, 0.5)
        """
        values = tuple(int(s) for s in scores)
        if players < 1 or len(values) % players:
            raise MalformedInputError(
                f"scores: {len(values)} totals do not split into games of {players} players"
            )
        wins = [0.0] * players
        for start in range(0, len(values), players):
            game = values[start : start + players]
            top = max(game)
            winners = [seat for seat, total in enumerate(game) if total == top]
            for seat in winners:
                wins[seat] += 1 / len(winners)
        return cls(len(values) // players, players, values, tuple(wins), seconds)

    @property
    def mean(self) -> float:
        """The mean final total over all players and games.

        Examples:
            >>> SimulationResult.from_scores([1, 2]).mean
            1.5
        """
        return math.fsum(self.scores) / len(self.scores) if self.scores else math.nan

    @property
    def std(self) -> float:
        """The sample standard deviation of the final totals.

        Examples:
            >>> SimulationResult.from_scores([1, 3]).std
            1.4142135623730951
        """
        n = len(self.scores)
        if n < 2:
            return math.nan
        mean = self.mean
        return math.sqrt(math.fsum((s - mean) ** 2 for s in self.scores) / (n - 1))

    @property
    def stderr(self) -> float:
        """The standard error of :attr:`mean`: ``std / sqrt(n)``.

        Examples:
            >>> SimulationResult.from_scores([1, 3]).stderr
            1.0
        """
        return self.std / math.sqrt(len(self.scores)) if self.scores else math.nan

    @property
    def minimum(self) -> int:
        """The lowest final total.

        Examples:
            >>> SimulationResult.from_scores([5, 9]).minimum
            5
        """
        return min(self.scores)

    @property
    def maximum(self) -> int:
        """The highest final total.

        Examples:
            >>> SimulationResult.from_scores([5, 9]).maximum
            9
        """
        return max(self.scores)

    @property
    def histogram(self) -> tuple[tuple[int, int], ...]:
        """``(score, count)`` for every final total that occurred, lowest first.

        Examples:
            >>> SimulationResult.from_scores([7, 5, 7]).histogram
            ((5, 1), (7, 2))
        """
        return tuple(sorted(Counter(self.scores).items()))

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (``inf`` if not timed).

        Examples:
            >>> SimulationResult.from_scores([5, 9], seconds=0.5).games_per_second
            4.0
        """
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def quantile(self, q: float) -> float:
        """The ``q`` quantile of the final totals (linear interpolation), 0 <= q <= 1.

        Raises:
            MalformedInputError: If ``q`` is outside 0 to 1.

        Examples:
            >>> SimulationResult.from_scores([10, 20, 30, 40]).quantile(0.5)
            25.0
        """
        if not 0 <= q <= 1:
            raise MalformedInputError(f"quantile {show(q)}: not between 0 and 1")
        ordered = sorted(self.scores)
        position = q * (len(ordered) - 1)
        low = math.floor(position)
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

    @property
    def win_shares(self) -> tuple[float, ...]:
        """Each seat's share of the games won: :attr:`wins` divided by :attr:`games`.

        A tie shares the win equally, so the shares add up to 1 (``nan`` each for no games).

        Examples:
            >>> SimulationResult.from_scores([100, 90, 80, 80], players=2).win_shares
            (0.75, 0.25)
        """
        if not self.games:
            return tuple(math.nan for _ in self.wins)
        return tuple(wins / self.games for wins in self.wins)

    def histogram_bins(self, bins: int = 24) -> tuple[tuple[int, int, int], ...]:
        """The final totals counted in about ``bins`` bins of a round width, for a histogram.

        Every bin has the same width: the smallest of 1, 2, 5, 10, 20, 25, 50, 100,
        200, 250 and 500 that spans the lowest to the highest total in at most
        ``bins`` bins (wider still if none does). Bins start at multiples of their
        width, which can take one bin more; empty bins between the lowest and the
        highest total are included, so the bins can be drawn as they are.

        Args:
            bins: How many bins to aim for, at least 1.

        Returns:
            ``(low, high, count)`` for each bin, lowest first: ``count`` totals lie
            from ``low`` to ``high`` inclusive. Empty for no games.

        Raises:
            MalformedInputError: Unless ``bins`` is a positive int.

        Examples:
            >>> result = SimulationResult.from_scores([200, 250, 300, 305])
            >>> result.histogram_bins(3)
            ((200, 249, 1), (250, 299, 1), (300, 349, 2))
            >>> SimulationResult.from_scores([7, 5, 7]).histogram_bins()
            ((5, 5, 1), (6, 6, 0), (7, 7, 2))
        """
        if type(bins) is not int or bins < 1:
            raise MalformedInputError(f"bins {show(bins)}: not a positive int")
        if not self.scores:
            return ()
        low, high = min(self.scores), max(self.scores)
        span = high - low + 1
        size = next(
            (w for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500) if span <= w * bins),
            math.ceil(span / bins),
        )
        start = low // size * size
        counts = Counter((score - start) // size for score in self.scores)
        return tuple(
            (start + key * size, start + key * size + size - 1, counts[key])
            for key in range(max(counts) + 1)
        )
