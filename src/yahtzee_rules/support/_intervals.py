"""Internal: the one confidence interval of a share (a proportion of games).

Every interval the library gives for a share, a win share or a head-to-head share
in :func:`~yahtzee_rules.bots.arena.tournament`, is Wilson's score interval
(:func:`wilson_interval`): unlike the normal ("Wald") interval it stays inside 0 to
1 and is never a single point, not even when every game went one way.
"""

from __future__ import annotations

import math

__all__ = ["effective_trials", "wilson_interval"]


def wilson_interval(share: float, trials: float, z: float) -> tuple[float, float]:
    """Wilson's score interval of a ``share`` observed over ``trials`` independent trials.

    The interval of the proportions ``p`` that a test at ``z`` standard errors would not
    reject: ``|share - p| <= z * sqrt(p * (1 - p) / trials)``. Its centre is pulled
    towards one half, by ``z**2 / 2`` trials each way, so at a share of 0 or 1 it still
    has a width: ``[0, z**2 / (trials + z**2)]`` at 0. ``trials`` need not be whole
    (see :func:`effective_trials`); ``(nan, nan)`` with none.

    Examples:
        >>> [round(x, 4) for x in wilson_interval(0.0, 40, 1.96)]
        [0.0, 0.0876]
        >>> [round(x, 4) for x in wilson_interval(1.0, 40, 1.96)]
        [0.9124, 1.0]
        >>> [round(x, 4) for x in wilson_interval(0.5, 100, 1.96)]
        [0.4038, 0.5962]
    """
    if not trials > 0 or math.isnan(share):
        return math.nan, math.nan
    z2 = z * z / trials
    centre = (share + z2 / 2) / (1 + z2)
    half = z / (1 + z2) * math.sqrt(max(share * (1 - share), 0.0) / trials + z2 / (4 * trials))
    # the share is inside, exactly, whatever the rounding (0 is the low end at a share of 0)
    return min(max(centre - half, 0.0), share), max(min(centre + half, 1.0), share)


def effective_trials(share: float, variance: float, trials: int) -> float:
    """How many independent trials a share's spread is worth: ``share * (1 - share) /
    variance``, where ``variance`` is the share's own (that of a mean of correlated
    games, from the spread of the groups they come in); ``trials``, the games counted,
    when either is 0 (every game went one way, or every group alike).

    Examples:
        >>> effective_trials(0.5, 0.0025, 60)
        100.0
        >>> effective_trials(1.0, 0.0, 60)
        60
    """
    spread = share * (1 - share)
    if variance > 0 and spread > 0:
        return spread / variance
    return trials
