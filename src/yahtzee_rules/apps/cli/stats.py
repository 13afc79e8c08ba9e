"""The ``simulate`` report: a :class:`~yahtzee_rules.SimulationResult` as aligned text.

Every number comes from the result (:attr:`~yahtzee_rules.SimulationResult.mean`,
:attr:`~yahtzee_rules.SimulationResult.std`,
:meth:`~yahtzee_rules.SimulationResult.histogram_bins` and so on); this module
only lays them out.

Examples:
    >>> from yahtzee_rules import SimulationResult
    >>> result = SimulationResult.from_scores([200, 250, 300, 305])
    >>> print(histogram(result, bins=3, width=4))
    200-249  1  ##
    250-299  1  ##
    300-349  2  ####
"""

from __future__ import annotations

import math

from yahtzee_rules.bots.simulation import SimulationResult

__all__ = ["histogram", "summary_lines", "win_shares_line"]


def _number(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"


def summary_lines(result: SimulationResult) -> list[str]:
    """Games, mean, standard deviation, standard error, minimum and maximum, aligned.

    With more than one player a game, the first line counts the players' scores (and
    the games they come from), as every statistic is over those scores.

    A value the result cannot give (the spread of a single score) shows as ``-``.

    Examples:
        >>> print("\\n".join(summary_lines(SimulationResult.from_scores([10, 20]))))
        games             2
        mean          15.00
        sd             7.07
        std. error     5.00
        min              10
        max              20
        >>> summary_lines(SimulationResult.from_scores([7]))[2]
        'sd                -'
        >>> summary_lines(SimulationResult.from_scores([7, 8, 9, 6], players=2))[0]
        'scores            4  (2 games of 2)'
    """
    count = (
        f"games      {len(result.scores):>8}"
        if result.players == 1
        else f"scores     {len(result.scores):>8}  ({result.games} games of {result.players})"
    )
    return [
        count,
        f"mean       {_number(result.mean):>8}",
        f"sd         {_number(result.std):>8}",
        f"std. error {_number(result.stderr):>8}",
        f"min        {result.minimum:>8}",
        f"max        {result.maximum:>8}",
    ]


def win_shares_line(result: SimulationResult) -> str:
    """Each seat's share of the wins, as percentages.

    Examples:
        >>> win_shares_line(SimulationResult.from_scores([100, 90, 80, 80], players=2))
        'wins by seat 1: 75.0%  2: 25.0%'
    """
    shares = result.win_shares
    return "wins by seat " + "  ".join(f"{i + 1}: {s:.1%}" for i, s in enumerate(shares))


def histogram(result: SimulationResult, *, bins: int = 24, width: int = 50) -> str:
    """A text histogram of the final totals: one line per bin, the bar scaled to ``width``.

    The bins are :meth:`SimulationResult.histogram_bins
    <yahtzee_rules.SimulationResult.histogram_bins>`: of round width, empty ones included.

    Examples:
        >>> print(histogram(SimulationResult.from_scores([1, 1, 2]), width=10))
        1  2  ##########
        2  1  #####
    """
    rows = [
        (str(low) if low == high else f"{low}-{high}", count)
        for low, high, count in result.histogram_bins(bins)
    ]
    if not rows:
        return ""
    top = max(count for _, count in rows)
    label_width = max(len(label) for label, _ in rows)
    count_width = len(str(top))
    return "\n".join(
        f"{label:>{label_width}}  {count:>{count_width}}  "
        f"{'#' * round(width * count / top)}".rstrip()
        for label, count in rows
    )
