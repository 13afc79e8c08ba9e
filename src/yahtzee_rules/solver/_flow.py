"""Where a turn ends under optimal-expectation play: final rolls, boxes and next states.

The expected-value table fixes a policy (the keeps and boxes :func:`best_action` and
:func:`simulate_optimal` choose). This module follows it through a turn for many
turn-start states at once and says, for each state, with what probability the turn
ends in which next state with how many points. The score distribution is built on
it. Ties between keeps or boxes of equal expected value are broken as
:func:`simulate_optimal` breaks them: the first keep in the order of
``_Geometry.subkeeps`` (fewest dice first, then by faces) and the first box in card
order.

Private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.solver._geometry import _geometry
from yahtzee_rules.solver._kernels import (
    _best_over_subkeeps,
    _fills,
    _final_values,
    _keep_values,
    _Workspace,
)
from yahtzee_rules.solver._model import _flat, _Model

if TYPE_CHECKING:
    from numpy.typing import NDArray

_REROLL: NDArray[np.float64] | None = None
_REROLL_LOCK = threading.Lock()


def _reroll() -> NDArray[np.float64]:
    """``(252, 462)``: the chance of each roll (internal order) after holding each keep."""
    global _REROLL
    with _REROLL_LOCK:
        if _REROLL is None:
            g = _geometry()
            table = np.zeros((252, 462))
            table[np.arange(252), g.five + np.arange(252)] = 1.0
            for size in range(4, -1, -1):
                lo = g.offsets[size]
                children = g.children[size]
                for i in range(len(children)):
                    table[:, lo + i] = table[:, children[i]].mean(axis=1)
            _REROLL = table
        return _REROLL


def _keep_tables(
    model: _Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(462, states)`` keep values with one reroll left, then with two (as in the build)."""
    g = _geometry()
    size = len(m)
    space = _Workspace(size)
    last = np.empty((462, size))
    _final_values(model, values, m, u, y, out=last[g.five :])
    _keep_values(last, space)
    one = last.copy()
    first = np.empty((462, size))
    first[g.five :] = _best_over_subkeeps(last, space)
    _keep_values(first, space)
    return one, first


def _hold(keep_values: NDArray[np.float64], mass: NDArray[np.float64]) -> NDArray[np.float64]:
    """Hold the best keep of each roll and reroll: the new chance of each roll, per state.

    ``keep_values`` is ``(462, states)`` and ``mass`` ``(252, states)``, in the
    internal orders. The keep held is the first best of the roll's sub-keeps
    (``argmax`` order), found column by column: faster than ``argmax`` over a short
    last axis.
    """
    g = _geometry()
    size = mass.shape[1]
    sub = g.subkeeps
    best = keep_values[sub[:, 0]]
    held = np.repeat(sub[:, :1], size, axis=1)
    for j in range(1, sub.shape[1]):
        column = sub[:, j]
        value = keep_values[column]
        np.copyto(held, column[:, None], where=value > best)
        np.maximum(best, value, out=best)
    flat = (held * size + np.arange(size)).ravel()
    on_keeps = np.bincount(flat, weights=mass.ravel(), minlength=462 * size).reshape(462, size)
    result: NDArray[np.float64] = _reroll() @ on_keeps
    return result


def _final_rolls(
    model: _Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    mass: NDArray[np.float64] | None = None,
    rerolls: int = 2,
) -> NDArray[np.float64]:
    """``(252, states)``: the chance that each state's turn ends with each roll.

    ``mass`` is the chance of each roll now, ``(252, states)`` (default: the first
    roll of a turn), and ``rerolls`` the rolls left after it.
    """
    g = _geometry()
    if mass is None:
        mass = np.repeat(g.probability[:, None], len(m), axis=1)
    if rerolls:
        one, two = _keep_tables(model, values, m, u, y)
        if rerolls == 2:
            mass = _hold(two, mass)
        mass = _hold(one, mass)
    return mass


def _fill_outcomes(
    model: _Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    roll: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """For each (state, final roll) pair: the next state's flat index and the points gained.

    The box is the best fill by expected value (the first in card order on a tie);
    the points include the upper bonus it completes and any extra-Yahtzee bonus.
    """
    card = model.card
    n = len(m)
    closed = (m[:, None] & card.bits) != 0
    points = np.where(closed, -1, card.scores[roll])
    five = roll < 6
    if five.any():
        points[five] = model.joker[roll[five], :, m[five]]
    fills, u2, bonus = _fills(model, values, m, u, y, points)
    box = fills.argmax(axis=1)
    rows = np.arange(n)
    written = points[rows, box]
    position = card.upper_pos[box]
    upper_box = position >= 0
    at = np.maximum(position, 0)
    u_new = np.where(upper_box, u2[rows, at], u)
    gained = written + np.where(upper_box, bonus[rows, at], 0.0)
    gained = gained + np.where(five, model.bonus_due[np.minimum(roll, 5), y], 0.0)
    y_new = np.where((box == card.yahtzee) & (written == 50), 1, y) if model.flags == 2 else y
    following = _flat(model, m | (1 << box), u_new, y_new)
    return np.asarray(following, dtype=np.intp), np.rint(gained).astype(np.intp)


def _turn_outcomes(
    model: _Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    mass: NDArray[np.float64] | None = None,
    rerolls: int = 2,
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """Each state's turn outcomes: (state position, next state, points, probability).

    Outcomes with the same state, next state and points are merged; those of
    probability 0 are left out.
    """
    final = _final_rolls(model, values, m, u, y, mass, rerolls)  # (252, states)
    roll, state = np.nonzero(final)
    chance = final[roll, state]
    following, gained = _fill_outcomes(model, values, m[state], u[state], y[state], roll)
    span = int(gained.max()) + 1
    key = (state.astype(np.int64) * model.states_count + following) * span + gained
    unique, inverse = np.unique(key, return_inverse=True)
    merged = np.bincount(inverse.ravel(), weights=chance, minlength=len(unique))
    rest, points = np.divmod(unique, span)
    first, second = np.divmod(rest, model.states_count)
    result: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]] = (
        first.astype(np.intp),
        second.astype(np.intp),
        points.astype(np.intp),
        np.asarray(merged, dtype=np.float64),
    )
    return result
