"""Summary statistics and a text histogram of final scores.

Examples:
    >>> summary = Summary.of([200, 250, 300])
    >>> summary.mean, summary.minimum, summary.maximum
    (250.0, 200, 300)
    >>> print(histogram([200, 250, 300, 305], bins=3, width=4))
    200-249  1  ##
    250-299  1  ##
    300-349  2  ####
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from yahtzee_rules.simulation import SimulationResult

__all__ = ["Summary", "histogram", "win_shares"]


@attrs.frozen
class Summary:
    """Mean, standard deviation, standard error of the mean, minimum and maximum.

    Attributes:
        games: How many scores.
        mean: Their mean.
        sd: The sample standard deviation (0 for a single score).
        standard_error: ``sd / sqrt(games)``.
        minimum: The lowest score.
        maximum: The highest score.

    Examples:
        >>> s = Summary.of([10, 20])
        >>> round(s.sd, 4), round(s.standard_error, 4)
        (7.0711, 5.0)
    """

    games: int
    mean: float
    sd: float
    standard_error: float
    minimum: int
    maximum: int

    @classmethod
    def of(cls, scores: Sequence[int]) -> Summary:
        """Summarise ``scores`` (at least one).

        Raises:
            ValueError: For no scores.

        Examples:
            >>> Summary.of([7]).sd
            0.0
        """
        n = len(scores)
        if n == 0:
            raise ValueError("scores []: nothing to summarise; give at least one score")
        mean = math.fsum(scores) / n
        variance = math.fsum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
        sd = math.sqrt(variance)
        return cls(n, mean, sd, sd / math.sqrt(n), min(scores), max(scores))

    def lines(self) -> list[str]:
        """The summary as aligned text lines.

        Examples:
            >>> print("\\n".join(Summary.of([10, 20]).lines()))
            games             2
            mean          15.00
            sd             7.07
            std. error     5.00
            min              10
            max              20
        """
        return [
            f"games      {self.games:>8}",
            f"mean       {self.mean:>8.2f}",
            f"sd         {self.sd:>8.2f}",
            f"std. error {self.standard_error:>8.2f}",
            f"min        {self.minimum:>8}",
            f"max        {self.maximum:>8}",
        ]


def _bin_width(low: int, high: int, bins: int) -> int:
    span = max(1, high - low + 1)
    for width in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if span / width <= bins:
            return width
    return math.ceil(span / bins)


def histogram(scores: Sequence[int], *, bins: int = 24, width: int = 50) -> str:
    """A text histogram: one line per bin of round width, the bar scaled to ``width``.

    Bins start at multiples of their width; empty bins between others are shown.

    Raises:
        ValueError: For no scores.

    Examples:
        >>> print(histogram([1, 1, 2], width=10))
        1  2  ##########
        2  1  #####
    """
    if not scores:
        raise ValueError("scores []: nothing to draw; give at least one score")
    low, high = min(scores), max(scores)
    size = _bin_width(low, high, bins)
    start = low // size * size
    counts: dict[int, int] = {}
    for score in scores:
        key = (score - start) // size
        counts[key] = counts.get(key, 0) + 1
    top = max(counts.values())
    rows = []
    for key in range(max(counts) + 1):
        lo = start + key * size
        label = str(lo) if size == 1 else f"{lo}-{lo + size - 1}"
        rows.append((label, counts.get(key, 0)))
    label_width = max(len(label) for label, _ in rows)
    count_width = len(str(top))
    return "\n".join(
        f"{label:>{label_width}}  {count:>{count_width}}  "
        f"{'#' * round(width * count / top)}".rstrip()
        for label, count in rows
    )


def win_shares(scores: Sequence[int], players: int) -> list[float]:
    """Each seat's share of the wins, from final scores listed game by game, seat by seat.

    A tie splits the win equally among the tied seats, so the shares add up to 1.

    Raises:
        ValueError: Unless the scores split into whole games of ``players``.

    Examples:
        >>> win_shares([100, 90, 80, 80], players=2)
        [0.75, 0.25]
    """
    if players < 1 or not scores or len(scores) % players:
        raise ValueError(
            f"scores: {len(scores)} totals do not split into games of {players} players"
        )
    result = SimulationResult.from_scores(scores, players=players)
    return [wins / result.games for wins in result.wins]
