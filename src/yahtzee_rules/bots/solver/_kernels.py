"""The vector work: fill values, then keep values, for many states at once.

:func:`fill_values` is the one definition of what writing a roll in a box is worth from
a state: the points, the upper bonus they complete and the value of the state
after. The table build (for the five-equal-dice rolls under the Joker rule), the
per-turn tables behind advice and the batched simulator all use it;
:func:`final_values` computes its best box for the other rolls by a faster route
that a test checks against it, value for value.

Shared by the solver's modules, and private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.bots.solver._geometry import (
    CHUNK,
    NEG,
    UPPER_FIVES,
    UPPER_POINTS,
    dice_geometry,
)
from yahtzee_rules.bots.solver._model import Model, flat_index

if TYPE_CHECKING:
    from numpy.typing import NDArray

# A step whose rows, all slots gathered, would take more floats than this (256 KiB)
# gathers and reduces slot by slot instead: fewer bytes through the cache, at the price
# of more NumPy calls, each holding the GIL for a moment.
GATHER = 1 << 15


def fill_values(
    model: Model,
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
    fills[upper] = values[flat_index(model, after[upper], u2, y)]
    fills[upper] += bonus
    if model.flags == 2:  # 50 in the five-of-a-kind box sets the flag
        is_yahtzee = card.is_yahtzee_lower.reshape(len(card.lower), *trailing)
        flag = np.where(is_yahtzee, points[lower] == 50, y)
    else:
        flag = y
    fills[lower] = values[flat_index(model, after[lower], u, flag)]
    fills += points
    fills[points < 0] = NEG
    return fills, u2, bonus


def final_values(
    model: Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    out: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """For each roll (internal order) and state, the best fill's points plus what follows."""
    g = dice_geometry()
    card = model.card
    size = len(m)
    table = np.empty((card.table_rows, size))
    by_total = np.empty((len(card.total_sets), size))
    closed = (model.open_bits(m) & card.bits[:, None]) == 0  # (boxes, states): not allowed
    after = m | card.bits[:, None]
    # upper box of face f + 1 with k dice of that face: rows f * 6 + k; the flat index
    # (after * levels + u2) * flags + y, with u2 * flags and the bonus looked up by u
    base = after[card.upper_sel] * (model.levels * model.flags) + y  # (6, states)
    index = np.take(model.upper_after, u, axis=2)  # (6, 6, states)
    index += base[:, None, :]
    upper = values[index]
    upper += np.take(model.upper_bonus_by, u, axis=2)
    upper += UPPER_POINTS
    np.copyto(upper, NEG, where=closed[card.upper_sel][:, None, :])
    table[:36] = upper.reshape(36, size)
    lower = values[flat_index(model, after[card.lower_sel], u, y)]  # lower boxes for 0 more points
    np.copyto(lower, NEG, where=closed[card.lower_sel])
    zero = table[36]
    np.maximum(upper[:, 0].max(axis=0), lower.max(axis=0), out=zero)
    if card.fixed_combos:  # each combination's best box, its points added
        fixed = np.take(lower, card.fixed_slots, 0)
        fixed += card.fixed_gains
        combos = len(card.fixed_combos)
        np.maximum.reduce(fixed.reshape(-1, combos, size), axis=0, out=table[37 : 37 + combos])
    # a zero anywhere is an option for every roll: fold it into the upper rows
    scoring = table[:36].reshape(6, 6, size)[:, 1:]
    np.maximum(scoring, zero, out=scoring)
    # boxes scoring the same points (the total, or others): max(a + t, b + t) is
    # max(a, b) + t, exactly
    if card.total_sets:
        boxes = np.take(lower, card.total_slots, 0).reshape(-1, len(card.total_sets), size)
        np.maximum.reduce(boxes, axis=0, out=by_total)
    pairs = table[card.table_rows - len(card.pair_set) :]
    np.take(by_total, card.pair_set, axis=0, out=pairs, mode="clip")
    pairs += card.pair_total
    result = np.empty((252, size)) if out is None else out
    space = workspace_for(size)
    for lo, hi, slots in card.plain_slots:  # each roll's best of its candidate rows
        block = result[lo:hi]
        if slots.size * size <= GATHER:  # one gather of every slot, one reduction
            gathered = space.rows(slots.size, size)
            np.take(table, slots.ravel(), 0, gathered, "clip")
            np.maximum.reduce(gathered.reshape(-1, hi - lo, size), axis=0, out=block)
            continue
        # slot by slot into the block (a block-sized buffer stays in cache, where a
        # gather of every slot would not)
        np.take(table, slots[0], 0, block, "clip")
        candidate = space.rows(hi - lo, size)
        for rows in slots[1:]:
            np.take(table, rows, 0, candidate, "clip")
            np.maximum(block, candidate, out=block)
    # five equal dice (rows 0-5, faces 1-6)
    if model.plain_fives_always or (
        model.plain_fives_while_open and not (m & card.yahtzee_bit).any()
    ):
        # no Joker applies: they score plainly in the open boxes, like other rolls
        fives = result[:6]
        np.maximum(table[UPPER_FIVES], table[36], out=fives)
        if card.five_total:
            by_total_fives = lower[card.five_total[0]]
            for c in card.five_total[1:]:
                by_total_fives = np.maximum(by_total_fives, lower[c])
            np.maximum(fives, by_total_fives + g.total[:6, None], out=fives)
        for c, gains in card.five_other:
            np.maximum(fives, lower[c] + gains, out=fives)
        if card.yahtzee_lower >= 0:
            if model.flags == 2:  # 50 there sets the flag
                yahtzee = values[flat_index(model, after[card.yahtzee], u, 1)]
                yahtzee[closed[card.yahtzee]] = NEG
            else:
                yahtzee = lower[card.yahtzee_lower]
            np.maximum(fives, yahtzee + card.yahtzee_fives, out=fives)
        return result
    # the Yahtzee box is filled: the Joker rule decides, so the fills come from the rules
    if not model.joker_upper_plain:
        points = model.joker[:, :, m].astype(np.intp)  # (face, box, states)
        fills = fill_values(model, values, m, u, y, points, axis=1)[0]
        np.add(fills.max(axis=1), model.bonus_due[:, y], out=result[:6])
        return result
    # The same floats as fill_values, from the rows above: an upper box takes 0 or its face's
    # five dice, a lower box its points on top of the value after a 0 there. Boxes
    # first (the maximum runs along the outer axis).
    joker = np.take(model.joker_by_box, m, axis=2)  # (box, face, states)
    on_upper = joker[card.upper_sel]
    best = np.where(on_upper > 0, upper[:, 5, None], upper[:, 0, None])
    np.copyto(best, NEG, where=on_upper < 0)
    on_lower = joker[card.lower_sel]
    fills = lower[:, None] + on_lower  # (lower box, face, states)
    if model.flags == 2 and card.yahtzee_lower >= 0:  # 50 there sets the flag
        fifty = on_lower[card.yahtzee_lower] == 50
        if fifty.any():
            flagged = values[flat_index(model, after[card.yahtzee], u, 1)]
            fills[card.yahtzee_lower] = (
                np.where(fifty, flagged, lower[card.yahtzee_lower]) + on_lower[card.yahtzee_lower]
            )
    np.copyto(fills, NEG, where=on_lower < 0)
    np.maximum(best.max(axis=0), fills.max(axis=0), out=result[:6])
    result[:6] += np.take(model.bonus_due, y, axis=1)
    return result


class Workspace:
    """Reusable buffers for solving up to ``capacity`` states at once (no page churn)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._keeps = (np.empty(462 * capacity), np.empty(462 * capacity))
        self.buffers = self._keeps
        self._rows = np.empty(dice_geometry().most_edges * capacity)  # gathered rows
        self.plans: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}

    def keeps(self, which: int, size: int) -> NDArray[np.float64]:
        return self._keeps[which][: 462 * size].reshape(462, size)

    def rows(self, rows: int, size: int) -> NDArray[np.float64]:
        if rows * size > len(self._rows):
            self._rows = np.empty(rows * size)
            self.plans.clear()
        return self._rows[: rows * size].reshape(rows, size)


_LOCAL = threading.local()


def workspace_for(size: int) -> Workspace:
    space: Workspace | None = getattr(_LOCAL, "space", None)
    if space is None or space.capacity < size:
        space = Workspace(max(size, CHUNK))
        _LOCAL.space = space
    return space


def _plan(keep: NDArray[np.float64], space: Workspace, lattice: bool) -> list[tuple[Any, ...]]:
    """The views one pass over ``keep`` works on, made once per workspace buffer and width.

    Each step gathers rows of ``source`` into ``gathered`` and reduces its outer axis
    into ``block``: ``(source, rows, gathered, gathered by slot, block)``. Along the
    lattice, when the rows would take more than :data:`GATHER` floats, a step is
    ``(source, rows by slot, None, parent, block)`` instead: the first slot is the
    block itself, and each other slot is gathered into ``parent`` and reduced into the
    block in turn. Likewise for the children of a keep pass: ``(source, rows by face,
    None, child, block)``, the first face gathered into the block and each other face
    into ``child`` and added to it, in face order (the same sums as one reduction).
    """
    own = keep.base is not None and any(keep.base is buffer for buffer in space.buffers)
    key = (keep.__array_interface__["data"][0], keep.shape, keep.strides, lattice)
    found = space.plans.get(key) if own else None
    if found is not None:
        return found
    g = dice_geometry()
    size = keep.shape[1]
    steps: list[tuple[Any, ...]] = []
    if lattice:
        for lo, hi, base, rows in g.lattice:
            if len(rows) * size > GATHER:
                parent = space.rows(hi - lo, size)
                slots = list(rows.reshape(-1, hi - lo)[1:])
                steps.append((keep[base:hi], slots, None, parent, keep[lo:hi]))
                continue
            gathered = space.rows(len(rows), size)
            by_slot = gathered.reshape(-1, hi - lo, size)
            steps.append((keep[base:hi], rows, gathered, by_slot, keep[lo:hi]))
    else:
        for lo, hi, base, end, rows in reversed(g.children_flat):
            if len(rows) * size > GATHER:  # face by face, added into the block
                child = space.rows(hi - lo, size)
                faces = list(rows.reshape(6, hi - lo))
                steps.append((keep[base:end], faces, None, child, keep[lo:hi]))
                continue
            gathered = space.rows(len(rows), size)
            by_slot = gathered.reshape(6, hi - lo, size)
            steps.append((keep[base:end], rows, gathered, by_slot, keep[lo:hi]))
    if own:  # kept for the next pass over this buffer
        if len(space.plans) > 64:  # many widths (the batched simulator): start again
            space.plans.clear()
        space.plans[key] = steps
    return steps


def average_keeps(keep: NDArray[np.float64], space: Workspace) -> NDArray[np.float64]:
    """In place: from each roll's value (the last 252 rows), each keep's expected value.

    A keep's value is the average over the six faces of the keep with one more die
    (throwing the missing dice one at a time), from five dice down to none: the six
    are added in face order, then multiplied by 1/6.
    """
    for source, rows, gathered, slots, block in _plan(keep, space, False):
        if gathered is None:  # face by face (``slots`` is one face's buffer): the same sums
            source.take(rows[0], 0, block, "clip")
            for children in rows[1:]:
                source.take(children, 0, slots, "clip")
                np.add(block, slots, out=block)
        else:
            # mode="clip": the rows are in range by construction, and NumPy need not buffer
            source.take(rows, 0, gathered, "clip")
            # the sum runs along the face axis in order (the outer axis: no pairwise sums)
            np.add.reduce(slots, 0, None, block)
        np.multiply(block, 1 / 6, out=block)
    return keep


def best_over_subkeeps(keep: NDArray[np.float64], space: Workspace) -> NDArray[np.float64]:
    """In place: each keep's value becomes the best of its sub-keeps; returns the rolls'.

    Size by size, each keep's best is the largest of its own value and its parents'
    bests (the keeps one die smaller).
    """
    for source, rows, gathered, slots, block in _plan(keep, space, True):
        if gathered is None:  # parent by parent (``slots`` is one parent's buffer)
            for parents in rows:
                source.take(parents, 0, slots, "clip")
                np.maximum(block, slots, out=block)
            continue
        source.take(rows, 0, gathered, "clip")
        np.maximum.reduce(slots, 0, None, block)
    return keep[dice_geometry().five :]


def expected_over_rolls(
    probability: NDArray[np.float64], rolls: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``(states,)``: each state's expected value over the 252 rolls, ``probability @ rolls``
    summed in one fixed order.

    Not through BLAS: a BLAS library picks its kernel by processor, and kernels add in
    different orders, so the same build would differ in the last bits from one machine
    to the next, and an exact tie between two actions on one machine would be broken
    the other way on another (published distributions would depend on the processor).
    ``einsum`` without ``optimize`` runs NumPy's own loop, the same everywhere.
    """
    result: NDArray[np.float64] = np.einsum("i,ij->j", probability, rolls)
    return result
