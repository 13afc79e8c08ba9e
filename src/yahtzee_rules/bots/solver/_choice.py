"""The choice kernel: the best keep and the best box, with the solver's one tie rule.

Every player the solver has chooses here, whatever its values are (expected points,
or chances of a target or of winning): the per-turn tables behind advice and
:func:`~yahtzee_rules.bots.solver.best_action`, the decision table, the batched
simulator, the score distributions' turns, :class:`~yahtzee_rules.bots.solver.TargetStrategy`
and :class:`~yahtzee_rules.bots.solver.WinStrategy`. The rule:

- **Box**: the box of the highest value, the first in card order on a tie
  (:func:`first_box`).
- **Keep**: the keep of the highest value among the roll's sub-keeps, the first in
  the order of ``Geometry.subkeeps`` on a tie: fewest dice first, then by faces
  (:func:`keep_of_roll`, :func:`keeps_of_games`, :func:`keeps_of_rolls`: one rule,
  shaped for one roll, for one roll per game, or for every roll of many states).
- **Keep or stop**: holding all five dice is stopping (filling now is worth what
  holding them is), and it is the last of a roll's sub-keeps in that order: a player
  stops when no other keep is worth as much as the best fill. On an exact tie the
  keep with fewer dice is held and rerolled; the expected value is the same either
  way, and every path (advice's best action, the decision table, the batched
  simulator, the score distributions, the players) makes the same choice, so the
  distributions describe the games the players play.

Private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.bots.solver._geometry import dice_geometry

if TYPE_CHECKING:
    from numpy.typing import NDArray


def first_box(fills: NDArray[np.float64], axis: int = -1) -> Any:
    """The box of the best fill along ``axis`` (card order), the first on a tie."""
    return fills.argmax(axis=axis)


def first_box_update(
    best: NDArray[np.float64], choice: NDArray[Any], value: NDArray[np.float64], box: int
) -> None:
    """One step of :func:`first_box` box by box, in card order: in place, ``choice``
    becomes ``box`` where ``value`` beats ``best`` (strictly), and ``best`` the larger."""
    np.copyto(choice, box, where=value > best)
    np.maximum(best, value, out=best)


def keep_of_roll(keep_values: NDArray[np.float64], position: int) -> int:
    """The best sub-keep of the roll at internal ``position`` (a keep index), the first
    in the order of ``Geometry.subkeeps`` on a tie; ``Geometry.five`` and above (holding
    all five dice) means stop."""
    options = dice_geometry().subkeeps[position]
    return int(options[int(keep_values[options].argmax())])


def keeps_of_games(
    keep_values: NDArray[np.float64], rolls: NDArray[np.intp], columns: NDArray[np.intp]
) -> NDArray[np.intp]:
    """For game ``i``, the best sub-keep of roll ``rolls[i]`` by the keep values of state
    column ``columns[i]`` (``keep_values`` is ``(462, states)``): as :func:`keep_of_roll`."""
    options = dice_geometry().subkeeps[rolls]  # (games, 32)
    choice = keep_values[options, columns[:, None]].argmax(axis=1)
    held: NDArray[np.intp] = options[np.arange(len(rolls)), choice]
    return held


class _Lattice:
    """Per process: each keep's rank in the order ties are broken in (fewest dice, then
    by faces: the order of ``Geometry.subkeeps``), the keeps by rank, and the lattice."""

    def __init__(self) -> None:
        g = dice_geometry()
        order = sorted(range(462), key=lambda k: (len(g.keeps[k].faces), g.keeps[k].faces))
        self.rank = np.empty(462, dtype=np.uint16)
        self.rank[order] = np.arange(462)
        self.by_rank = np.array(order, dtype=np.intp)
        self.parents = g.parents
        self.five = g.five


_LATTICE: _Lattice | None = None
_LOCK = threading.Lock()


def _lattice() -> _Lattice:
    global _LATTICE
    with _LOCK:
        if _LATTICE is None:
            _LATTICE = _Lattice()
        return _LATTICE


def keeps_of_rolls(keep_values: NDArray[np.float64], best: NDArray[np.float64]) -> NDArray[np.intp]:
    """``(252, states)``: every roll's best sub-keep (a keep index) by the keep values of
    each state, as :func:`keep_of_roll` chooses it.

    ``keep_values`` is ``(462, states)``, and ``best`` each keep's best sub-keep value
    (``best_over_subkeeps`` of a copy). The first best sub-keep (the smallest rank
    among those worth ``best``) is found along the lattice, keep by keep from the
    empty one: it is the keep itself or the first best of one of its parents (one die
    fewer) worth as much.
    """
    lattice = _LATTICE or _lattice()
    size = keep_values.shape[1]
    none = np.uint16(65535)
    first = np.empty((462, size), dtype=np.uint16)
    first[0] = lattice.rank[0]
    for lo, hi, parents in lattice.parents:
        block = best[lo:hi]
        chosen = np.where(keep_values[lo:hi] == block, lattice.rank[lo:hi, None], none)
        for column in parents.T:
            found = np.where(best[column] == block, first[column], none)
            np.minimum(chosen, found, out=chosen)
        first[lo:hi] = chosen
    held: NDArray[np.intp] = lattice.by_rank[first[lattice.five :]]
    return held
