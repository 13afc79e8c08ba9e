"""Where a turn ends under optimal-expectation play: final rolls, boxes and next states.

The expected-value table fixes a policy (the keeps and boxes :func:`best_action` and
:func:`simulate_optimal` choose). This module follows it through a turn for many
turn-start states at once and says, for each state, with what probability the turn
ends in which next state with how many points. The score distribution is built on
it. The keeps and boxes are the choice kernel's (:mod:`._choice`), as for every
other player: ties between keeps or boxes of equal expected value are broken as
:func:`best_action` and :func:`simulate_optimal` break them.

Private to the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.bots.solver._choice import first_box, keeps_of_rolls
from yahtzee_rules.bots.solver._geometry import NEG, UPPER_POINTS, dice_geometry
from yahtzee_rules.bots.solver._kernels import (
    Workspace,
    average_keeps,
    best_over_subkeeps,
    fill_values,
    final_values,
)
from yahtzee_rules.bots.solver._model import Model, flat_index

if TYPE_CHECKING:
    from numpy.typing import NDArray


def _throw(on_keeps: NDArray[np.float64]) -> NDArray[np.float64]:
    """``(252, states)`` from ``(462, states)``: the chance of each roll after the throw.

    ``on_keeps`` is the chance of holding each keep (internal order); it is used as
    scratch. Keep by keep size, each keep's chance is shared equally among its six
    children (one more die, of each face): for a given face the children are
    distinct, so each face's share is one gather and one scatter.
    """
    g = dice_geometry()
    for size in range(5):
        share = on_keeps[g.offsets[size] : g.offsets[size + 1]] * (1 / 6)
        children = g.children[size]
        for face in range(6):
            on_keeps[children[:, face]] += share
    return on_keeps[g.five :]


def _keep_tables(
    model: Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """``(252, states)``: the keep each roll holds with one reroll left, then with two
    (keep indices; the keep values as in the build, the choice the kernel's)."""
    g = dice_geometry()
    size = len(m)
    space = Workspace(size)
    last = np.empty((462, size))
    final_values(model, values, m, u, y, out=last[g.five :])
    average_keeps(last, space)
    one = last.copy()
    first = np.empty((462, size))
    first[g.five :] = best_over_subkeeps(last, space)  # ``last``: each keep's best sub-keep
    held_one = keeps_of_rolls(one, last)
    average_keeps(first, space)
    best = first.copy()
    best_over_subkeeps(best, space)
    return held_one, keeps_of_rolls(first, best)


def _hold(held: NDArray[np.intp], mass: NDArray[np.float64]) -> NDArray[np.float64]:
    """Hold keep ``held`` of each roll and reroll: the new chance of each roll, per state.

    ``held`` and ``mass`` are ``(252, states)``, in the internal orders.
    """
    size = mass.shape[1]
    flat = (held * size + np.arange(size)).ravel()  # roll-major, like ``mass``
    on_keeps = np.bincount(flat, weights=mass.ravel(), minlength=462 * size)
    return _throw(np.asarray(on_keeps, dtype=np.float64).reshape(462, size))


def _final_rolls(
    model: Model,
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
    g = dice_geometry()
    if mass is None:
        mass = np.repeat(g.probability[:, None], len(m), axis=1)
    if rerolls:
        one, two = _keep_tables(model, values, m, u, y)
        if rerolls == 2:
            mass = _hold(two, mass)
        mass = _hold(one, mass)
    return mass


def _plain_boxes(
    model: Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> NDArray[np.intp]:
    """``(states, 246)``: the best box for each roll that is not five equal dice.

    The box is the best fill by expected value, the first in card order on a tie: the
    floats are those of :func:`fill_values` (the next state's value, plus the upper bonus,
    plus the points), worked out once per state and box (and, for an upper box, per
    count of its face) rather than once per roll.
    """
    card = model.card
    size = len(m)
    shut = (model.open_bits(m)[:, None] & card.bits) == 0  # (states, boxes)
    after = m[:, None] | card.bits  # (states, boxes)
    # the box of face f + 1 with k dice of that face, at f * 6 + k (as in final_values)
    base = after[:, card.upper] * (model.levels * model.flags) + y[:, None]  # (states, 6)
    index = np.take(model.upper_after, u, axis=2).transpose(2, 0, 1) + base[:, :, None]
    upper = values[index]
    upper += np.take(model.upper_bonus_by, u, axis=2).transpose(2, 0, 1)
    upper += UPPER_POINTS[:, :, 0]
    np.copyto(upper, NEG, where=shut[:, card.upper, None])
    lower = values[flat_index(model, after[:, card.lower], u[:, None], y[:, None])]
    np.copyto(lower, NEG, where=shut[:, card.lower])  # -inf plus points stays -inf
    fills = np.empty((size, 246, card.n))
    fills[:, :, card.upper_sel] = upper.reshape(size, 36).take(_plain_upper_rows(), axis=1)
    np.add(lower[:, None, :], card.scores[None, 6:, card.lower], out=fills[:, :, card.lower_sel])
    box: NDArray[np.intp] = first_box(fills, axis=2)
    return box


_PLAIN_UPPER: NDArray[np.intp] | None = None


def _plain_upper_rows() -> NDArray[np.intp]:
    """``(246, 6)``: for each roll that is not five equal dice, ``f * 6 + count of f + 1``."""
    global _PLAIN_UPPER
    if _PLAIN_UPPER is None:
        counts = np.array([d.counts for d in dice_geometry().dice[6:]], dtype=np.intp)
        _PLAIN_UPPER = np.arange(6) * 6 + counts
    return _PLAIN_UPPER


def _after_fill(
    model: Model,
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    box: NDArray[np.intp],
    written: NDArray[np.intp],
    extra: NDArray[np.float64] | float = 0.0,
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The next state's flat index and the points gained by writing ``written`` in ``box``.

    The points include the upper bonus the fill completes and ``extra`` (an
    extra-Yahtzee bonus).
    """
    card = model.card
    upper_box = card.upper_pos[box] >= 0
    u2, bonus = model.upper_step(u, written)
    u_new = np.where(upper_box, u2, u)
    gained = written + np.where(upper_box, bonus, 0.0) + extra
    y_new = np.where((box == card.yahtzee) & (written == 50), 1, y) if model.flags == 2 else y
    following = flat_index(model, m | (1 << box), u_new, y_new)
    return np.asarray(following, dtype=np.intp), np.rint(gained).astype(np.intp)


def turn_outcomes(
    model: Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    mass: NDArray[np.float64] | None = None,
    rerolls: int = 2,
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """Each state's turn outcomes: (state position, next state, points, probability).

    Sorted by state. Outcomes with the same state, next state and points are merged,
    their chances added roll by roll in the internal roll order; those of
    probability 0 are left out. A state's outcome is fixed by the box filled, the
    points written there and any extra-Yahtzee bonus, so they are merged on those.
    """
    card = model.card
    size = len(m)
    final = _final_rolls(model, values, m, u, y, mass, rerolls)  # (252, states)
    bonuses = np.unique(model.bonus_due)  # the extra-Yahtzee bonuses, 0 first
    most = max(int(card.scores.max()), int(model.joker.max())) + 1
    key = np.empty((252, size), dtype=np.intp)  # (bonus, box, points written)
    # rolls that are not five equal dice: no bonus
    box = _plain_boxes(model, values, m, u, y).T  # (246, states)
    key[6:] = box * most + card.scores[np.arange(6, 252)[:, None], box]
    # five equal dice: the rules' Joker fills, box by box
    points = model.joker[:, :, m].transpose(0, 2, 1).astype(np.intp)  # (face, states, boxes)
    fills = fill_values(model, values, m, u, y, points)[0]
    five_box = first_box(fills, axis=2)  # (face, states)
    written = np.take_along_axis(points, five_box[:, :, None], axis=2)[:, :, 0]
    bonus = np.searchsorted(bonuses, model.bonus_due[:, y])
    key[:6] = (bonus * card.n + five_box) * most + written
    width = len(bonuses) * card.n * most
    merged = np.bincount(
        (key + np.arange(size) * width).ravel(), weights=final.ravel(), minlength=size * width
    )
    found = np.flatnonzero(merged)
    state, slot = np.divmod(found, width)
    bonus, slot = np.divmod(slot, card.n * most)
    box, written = np.divmod(slot, most)
    following, gained = _after_fill(
        model, m[state], u[state], y[state], box, written, bonuses[bonus]
    )
    chance = np.asarray(merged[found], dtype=np.float64)
    return state, following, gained, chance
