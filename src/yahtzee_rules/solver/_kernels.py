"""The vector work: fill values, then keep values, for many states at once.

:func:`_fills` is the one definition of what writing a roll in a box is worth from
a state: the points, the upper bonus they complete and the value of the state
after. The table build (for the five-equal-dice rolls under the Joker rule), the
per-turn tables behind advice and the batched simulator all use it;
:func:`_final_values` computes its best box for the other rolls by a faster route
that a test checks against it, value for value.

Shared by the solver's modules, and private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.solver._geometry import (
    _CHUNK,
    _NEG,
    _UPPER_FIVES,
    _UPPER_POINTS,
    _geometry,
)
from yahtzee_rules.solver._model import _flat, _Model

if TYPE_CHECKING:
    from numpy.typing import NDArray


def _fills(
    model: _Model,
    values: NDArray[np.float64],
    m: Any,
    u: Any,
    y: Any,
    points: NDArray[np.intp],
    axis: int = -1,
) -> tuple[NDArray[np.float64], NDArray[np.intp], NDArray[np.float64]]:
    """What writing each box is worth: its points, the upper bonus and the next state's value.

    Args:
        model: The rules' constants.
        values: The table's values (those of the states after this turn must be set).
        m: Filled-box masks of the states, broadcasting against ``points`` without
            its box axis.
        u: Capped upper subtotals, likewise.
        y: Yahtzee-box flags (1 when it holds 50), likewise.
        points: The points each box takes, the card's boxes along ``axis``; -1 where the
            rules do not allow the box (filled, or refused by the Joker rule).
        axis: The box axis of ``points`` (the last by default): the build keeps the
            states last, for contiguous work.

    Returns:
        The fill values (``-inf`` where not allowed), in the shape of ``points``, and
        for the upper boxes the capped subtotal after writing and the upper bonus
        earned. Extra-Yahtzee bonuses are not included: the callers add them, the
        same for every box.
    """
    card = model.card
    axis = axis - points.ndim if axis >= 0 else axis
    m, u, y = (np.expand_dims(np.asarray(a), axis) for a in (m, u, y))
    trailing = (1,) * (-axis - 1)  # the axes after the box axis
    after = m | card.bits.reshape(card.n, *trailing)
    rest = (slice(None),) * len(trailing)
    upper: Any = (Ellipsis, card.upper_sel, *rest)  # the upper boxes, by face
    lower: Any = (Ellipsis, card.lower_sel, *rest)
    u2, bonus = model.upper_step(u, points[upper])
    fills = np.empty(points.shape)
    fills[upper] = values[_flat(model, after[upper], u2, y)]
    fills[upper] += bonus
    if model.flags == 2:  # 50 in the five-of-a-kind box sets the flag
        is_yahtzee = card.is_yahtzee_lower.reshape(len(card.lower), *trailing)
        flag = np.where(is_yahtzee, points[lower] == 50, y)
    else:
        flag = y
    fills[lower] = values[_flat(model, after[lower], u, flag)]
    fills += points
    fills[points < 0] = _NEG
    return fills, u2, bonus


def _final_values(
    model: _Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    out: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """For each roll (internal order) and state, the best fill's points plus what follows."""
    g = _geometry()
    card = model.card
    size = len(m)
    table = np.empty((37 + len(card.fixed_combos), size))
    by_total = np.empty((len(card.total_combos), size))
    closed = (model.open_bits(m) & card.bits[:, None]) == 0  # (boxes, states): not allowed
    after = m | card.bits[:, None]
    # upper box of face f + 1 with k dice of that face: rows f * 6 + k
    u2, bonus = model.upper_step(u, _UPPER_POINTS)  # (6, 6, states)
    upper = values[_flat(model, after[card.upper_sel][:, None, :], u2, y)]
    upper += bonus
    upper += _UPPER_POINTS
    upper[np.broadcast_to(closed[card.upper_sel][:, None, :], upper.shape)] = _NEG
    table[:36] = upper.reshape(36, size)
    lower = values[_flat(model, after[card.lower_sel], u, y)]  # lower boxes for 0 more points
    lower[closed[card.lower_sel]] = _NEG
    zero = table[36]
    np.maximum(upper[:, 0].max(axis=0), lower.max(axis=0), out=zero)
    for j, combo in enumerate(card.fixed_combos):
        row = table[37 + j]
        row.fill(_NEG)
        for c in combo:
            np.maximum(row, lower[c] + card.fixed_points[c], out=row)
    for j, combo in enumerate(card.total_combos):
        row = by_total[j]
        row.fill(_NEG)
        for c in combo:
            np.maximum(row, lower[c], out=row)
    result = np.empty((252, size)) if out is None else out
    plain = result[6:]
    start, columns = g.face_columns[0]
    np.take(table, columns, axis=0, out=plain, mode="clip")  # rows of table by construction
    for start, columns in g.face_columns[1:]:
        np.maximum(plain[start:], table[columns], out=plain[start:])
    np.maximum(plain, table[36], out=plain)
    for c in card.always_total:
        np.maximum(plain, g.plain_total + lower[c], out=plain)
    rows = card.total_dice
    if len(rows):
        plain[rows] = np.maximum(plain[rows], by_total[card.total_rows] + card.total_dice_total)
    rows = card.fixed_dice
    if len(rows):
        plain[rows] = np.maximum(plain[rows], table[card.fixed_rows])
    for c, rows, gains in card.plain_other:  # boxes scored neither by value nor by total
        plain[rows] = np.maximum(plain[rows], lower[c] + gains)
    # five equal dice (rows 0-5, faces 1-6)
    if model.plain_fives_always or (
        model.plain_fives_while_open and not (m & card.yahtzee_bit).any()
    ):
        # no Joker applies: they score plainly in the open boxes, like other rolls
        fives = result[:6]
        np.maximum(table[_UPPER_FIVES], table[36], out=fives)
        if card.five_total:
            by_total_fives = lower[card.five_total[0]]
            for c in card.five_total[1:]:
                by_total_fives = np.maximum(by_total_fives, lower[c])
            np.maximum(fives, by_total_fives + g.total[:6, None], out=fives)
        for c, gains in card.five_other:
            np.maximum(fives, lower[c] + gains, out=fives)
        if card.yahtzee_lower >= 0:
            if model.flags == 2:  # 50 there sets the flag
                yahtzee = values[_flat(model, after[card.yahtzee], u, 1)]
                yahtzee[closed[card.yahtzee]] = _NEG
            else:
                yahtzee = lower[card.yahtzee_lower]
            np.maximum(fives, yahtzee + card.yahtzee_fives, out=fives)
        return result
    # the Yahtzee box is filled: the Joker rule decides, so the fills come from the rules
    points = model.joker[:, :, m].astype(np.intp)  # (face, box, states)
    fills = _fills(model, values, m, u, y, points, axis=1)[0]
    np.add(fills.max(axis=1), model.bonus_due[:, y], out=result[:6])
    return result


class _Workspace:
    """Reusable buffers for solving up to ``capacity`` states at once (no page churn)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._keeps = (np.empty(462 * capacity), np.empty(462 * capacity))
        self._rows = np.empty(126 * capacity)  # the largest block of keeps: 126 of four dice

    def keeps(self, which: int, size: int) -> NDArray[np.float64]:
        return self._keeps[which][: 462 * size].reshape(462, size)

    def rows(self, rows: int, size: int) -> NDArray[np.float64]:
        return self._rows[: rows * size].reshape(rows, size)


_LOCAL = threading.local()


def _workspace(size: int) -> _Workspace:
    space: _Workspace | None = getattr(_LOCAL, "space", None)
    if space is None or space.capacity < size:
        space = _Workspace(max(size, _CHUNK))
        _LOCAL.space = space
    return space


def _keep_values(keep: NDArray[np.float64], space: _Workspace) -> NDArray[np.float64]:
    """In place: from each roll's value (the last 252 rows), each keep's expected value.

    A keep's value is the average over the six faces of the keep with one more die
    (throwing the missing dice one at a time), from five dice down to none.
    """
    g = _geometry()
    size = keep.shape[1]
    for length in range(4, -1, -1):
        lo, hi = g.offsets[length], g.offsets[length + 1]
        base, end, children = g.children_block[length]
        larger = keep[base:end]  # the keeps one die larger: apart from the block written
        block = keep[lo:hi]
        row = space.rows(hi - lo, size)
        # mode="clip": the rows are in range by construction, and NumPy need not buffer
        np.take(larger, children[:, 0], axis=0, out=block, mode="clip")
        for face in range(1, 6):
            np.take(larger, children[:, face], axis=0, out=row, mode="clip")
            block += row
        block *= 1 / 6
    return keep


def _best_over_subkeeps(keep: NDArray[np.float64], space: _Workspace) -> NDArray[np.float64]:
    """In place: each keep's value becomes the best of its sub-keeps; returns the rolls'."""
    g = _geometry()
    size = keep.shape[1]
    for lo, hi, base, end, parents in g.parents_block:
        smaller = keep[base:end]  # the keeps one die smaller: apart from the block written
        block = keep[lo:hi]
        row = space.rows(hi - lo, size)
        for j in range(parents.shape[1]):
            np.take(smaller, parents[:, j], axis=0, out=row, mode="clip")
            np.maximum(block, row, out=block)
    return keep[g.five :]
