"""Functions a lower layer calls but a higher layer provides, installed at import.

Internal: nothing here is public API. :meth:`Dice.score
<yahtzee_rules.Dice.score>` gives a box's plain value, but how boxes score is
known above the dice, in :mod:`yahtzee_rules.scoring`. Rather than import
upwards, the dice call :func:`plain_score`, and the scoring module installs its
function here when it loads, which importing the package always does. This
module imports nothing from the package, so it sits at the bottom of the layers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PLAIN_SCORE: list[Callable[[Any, Any], int]] = []


def install_plain_score(function: Callable[[Any, Any], int]) -> None:
    """Make ``function(dice, category)`` the plain value of a box (scoring calls this)."""
    _PLAIN_SCORE[:] = [function]


def plain_score(dice: Any, category: Any) -> int:
    """The plain value of ``category`` for ``dice``, by the installed function."""
    return _PLAIN_SCORE[0](dice, category)
