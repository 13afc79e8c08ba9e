"""Per-turn tables: the fills, keeps and best actions of one turn-start state.

A new card's tables take a few dozen NumPy operations on arrays of a few hundred
values, with every index array prepared once per process (:class:`TurnGeometry`)
or once per rule set (:class:`TurnModel`): no Python loop runs over the rolls or
the keeps. The arithmetic is the build's, operation for operation (a fill is the
next state's value plus the upper bonus, plus the points, plus any extra-Yahtzee
bonus; a keep's value is the sum of its six one-die-larger keeps, left to right,
times 1/6), so advice agrees with the table bit for bit; a test checks it against
the build's kernels.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.bots.solver._choice import first_box, keep_of_roll
from yahtzee_rules.bots.solver._compiled import kernel
from yahtzee_rules.bots.solver._entries import (
    TURN_MODELS,
    TurnModel,
    entry_steps,
    turn_model_of,
)
from yahtzee_rules.bots.solver._geometry import NEG, dice_geometry
from yahtzee_rules.bots.solver._model import Model

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.core.boxes import Box
    from yahtzee_rules.core.dice import Keep


class TurnGeometry:
    """Index arrays over keeps and rolls for one state at a time, built once per process."""

    def __init__(self) -> None:
        g = dice_geometry()
        self.five = g.five
        self.levels = g.turn_levels  # by keep size, largest first: keeps, children
        # each roll's distinct sub-keeps (fewest dice first), all rolls end to end
        self.flat_subkeeps = g.flat_subkeeps
        self.starts = g.subkeep_starts
        self.subkeeps = tuple(np.split(g.flat_subkeeps, g.subkeep_starts[1:]))  # by roll
        self.dice_pos: list[int] = g.dice_pos.tolist()  # Dice._index -> internal roll
        self.keeps = g.keeps


_TURN_GEOMETRY: TurnGeometry | None = None
#: The compiled kernel where this process uses it (:mod:`._compiled`), else ``None``.
_KERNEL = kernel()
_LOCK = threading.Lock()


def turn_geometry() -> TurnGeometry:
    global _TURN_GEOMETRY
    with _LOCK:
        if _TURN_GEOMETRY is None:
            _TURN_GEOMETRY = TurnGeometry()
        return _TURN_GEOMETRY


def _entry_values(
    model: Model, turn_model: TurnModel, values: NDArray[np.float64], mask: int, u: int, y: int
) -> NDArray[np.float64]:
    """What writing each entry is worth from a state: ``-inf`` for a box it may not fill
    (filled, or with the boxes filled in card order, any but the first open one).

    The next state's value, plus the upper bonus the points complete, plus the
    points, in that order (the build's); extra-Yahtzee bonuses are not included.
    """
    tm = turn_model
    index, bonus = entry_steps(model, tm, mask, u, y)
    worth: NDArray[np.float64] = values[index]
    worth += bonus
    worth += tm.points
    worth[(model.open_bits(mask) & tm.bits) == 0] = NEG  # filled, or not the box's turn
    worth[-1] = NEG
    return worth


class TurnTables:
    """One turn-start state: keep values for the whole turn, best actions on demand.

    The keep values (for every keep, with one and with two rerolls left; holding all
    five dice is worth the roll's best fill) are computed at once; the best action for a roll is
    worked out the first time it is asked for, and remembered.

    Attributes:
        start: The state's value (the table's).
        worth: What writing each entry is worth (see :class:`TurnModel`).
        keeps: The value of every keep (internal order) with one and with two rerolls left.
        actions: The best action (a Keep or a Box) for every roll, in ``Dice._index``
            order, with no, one and two rerolls left; ``None`` until asked for.
    """

    __slots__ = (
        "__weakref__",
        "actions",
        "fives",
        "keeps",
        "mask",
        "model",
        "start",
        "worth",
        "y",
    )

    def __init__(
        self, model: Model, values: NDArray[np.float64], mask: int, u: int, y: int, index: int
    ) -> None:
        t = _TURN_GEOMETRY or turn_geometry()
        turn_model = TURN_MODELS.get(id(model))
        if turn_model is None or turn_model.model is not model:
            turn_model = turn_model_of(model)
        self.model = turn_model
        self.start = float(values[index])
        self.mask = mask
        self.y = y
        if _KERNEL is not None and values.flags.c_contiguous and values.dtype == np.float64:
            found = compiled_state(turn_model, values, mask, u, y)
            last, second, self.worth, self.fives = state_parts(turn_model, found)
            self.keeps = (last, second)
        else:
            self._numpy_tables(turn_model, t, values, mask, u, y)
        self.actions: tuple[list[Keep | Box | None], ...] = (
            [None] * 252,
            [None] * 252,
            [None] * 252,
        )

    def _numpy_tables(
        self,
        turn_model: TurnModel,
        t: TurnGeometry,
        values: NDArray[np.float64],
        mask: int,
        u: int,
        y: int,
    ) -> None:
        """:attr:`worth` and :attr:`keeps` from NumPy calls (where the compiled kernel is not
        used: the same floats)."""
        worth = self.worth = _state_worth(turn_model, values, mask, u, y)
        self.fives = turn_model.fives_at(mask)
        # each roll's best fill: keep values with one reroll left start from it
        last = np.empty(462)
        best_fill = last[t.five :]
        rest = worth.take(turn_model.rest)  # (boxes, 246 rolls): the maximum over boxes is fast
        rest.max(axis=0, out=best_fill[6:])
        fives = worth.take(self.fives)  # (6 faces, boxes)
        fives.max(axis=1, out=best_fill[:6])
        if turn_model.any_bonus_due:  # the same in every box: added after the maximum
            best_fill[:6] += turn_model.model.bonus_due[:, y]
        _keep_values(last, t)
        self.keeps = (last, reroll_level(last))

    def _fives(self) -> NDArray[np.float64]:
        """The fill values of the six rolls of five equal dice (the Joker rule decides)."""
        tm = self.model
        fives = self.worth[self.fives]  # (6 faces, boxes)
        if tm.any_bonus_due:
            fives += tm.model.bonus_due[:, self.y, None]  # the same in every box
        return fives

    def fills(self) -> NDArray[np.float64]:
        """The fill value of each internal roll in each box (``-inf`` where not allowed)."""
        fills = self.worth[self.model.codes]
        fills[:6] = self._fives()
        return fills

    def action(self, rerolls: int, index: int) -> Keep | Box:
        """The best action with ``rerolls`` rerolls left for the roll of ``Dice._index``.

        The choice kernel's (:mod:`._choice`): the first best of the roll's sub-keeps
        (fewest dice first, then by faces), where holding all five dice means filling
        now; the box is the first best in card order.
        """
        found = self.actions[rerolls][index]
        if found is not None:
            return found
        t = _TURN_GEOMETRY or turn_geometry()
        position = t.dice_pos[index]
        tm = self.model
        compiled = _KERNEL
        if compiled is not None:
            if position < 6:
                due = tm.due[self.y]
                at = compiled.box(
                    self.worth,
                    self.fives,
                    tm.boxes,
                    position,
                    0.0 if due is None else due[position],
                )
            else:
                at = compiled.box(self.worth, tm.codes, tm.boxes, position, 0.0)
        else:
            row = self._fives()[position] if position < 6 else self.worth[tm.codes[position]]
            at = int(first_box(row))
        decided: Keep | Box = tm.model.card.members[at]
        if rerolls:
            keeps = self.keeps[rerolls - 1]
            if compiled is not None:
                chosen = compiled.keep(keeps, position)
            else:
                chosen = keep_of_roll(keeps, position)
            if chosen < t.five:
                decided = t.keeps[chosen]
        self.actions[rerolls][index] = decided
        return decided


def compiled_state(
    tm: TurnModel, values: NDArray[np.float64], mask: int, u: int, y: int
) -> NDArray[np.float64]:
    """One state's per-turn tables from the compiled kernel in one call, in one buffer
    (:func:`state_parts` reads it; the compiled ``turn`` plays from it): the floats of
    :class:`TurnTables`' NumPy path (``values`` C-contiguous float64)."""
    one = tm._one_state or tm.one_state()
    found = np.empty(tm.state_words)
    assert _KERNEL is not None
    _KERNEL.state(
        values,
        one.index[u, y],
        mask * one.stride,
        one.bonus[u],
        tm.kernel_model,
        mask,
        one.open_of[mask],
        tm.due[y],
        found,
    )
    return found


def state_parts(
    tm: TurnModel, found: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.int16]]:
    """:func:`compiled_state`'s buffer read as the keep values with one and with two
    rerolls left, the fill worth and the entries five equal dice write (views)."""
    fives = found[924 + tm.entries :].view(np.int16)[: 6 * tm.boxes].reshape(6, tm.boxes)
    return found[:462], found[462:924], found[924 : 924 + tm.entries], fives


def _state_worth(
    tm: TurnModel, values: NDArray[np.float64], mask: int, u: int, y: int
) -> NDArray[np.float64]:
    """:func:`_entry_values`, the same floats, from the one-state arrays: one gather, the
    bonus (where the subtotal completes one: adding 0 changes no value), the points."""
    one = tm._one_state or tm.one_state()
    index = one.index[u, y] + mask * one.stride
    worth: NDArray[np.float64] = values.take(index, 0, None, "clip")
    bonus = one.bonus[u]
    if bonus is not None:
        worth += bonus
    worth += tm.float_points
    np.copyto(worth, NEG, where=one.closed[mask])
    return worth


def state_fills(
    model: Model, values: NDArray[np.float64], mask: int, u: int, y: int
) -> NDArray[np.float64]:
    """What writing each internal roll in each box is worth from one state, ``(252, boxes)``:
    the next state's value, the upper bonus and the points, as :class:`TurnTables` has them
    (``-inf`` for a filled box), with five equal dice scored plainly (no Joker, no
    extra-Yahtzee bonus): a caller with other rules for them sets those six rows itself,
    reading :func:`entry_worth`."""
    return entry_worth(model, values, mask, u, y)[turn_model_of(model).codes]


def entry_worth(
    model: Model, values: NDArray[np.float64], mask: int, u: int, y: int
) -> NDArray[np.float64]:
    """What writing each entry (a box and its points: ``TurnModel.lookup``) is worth from
    one state; ``-inf`` for a filled box."""
    return _entry_values(model, turn_model_of(model), values, mask, u, y)


def best_fills_to_keeps(best_fill: NDArray[np.float64]) -> tuple[NDArray[np.float64], ...]:
    """From each internal roll's best fill (252 values): the keep values with one and with
    two rerolls left, as :attr:`TurnTables.keeps` holds them (the same arithmetic)."""
    t = _TURN_GEOMETRY or turn_geometry()
    last = np.empty(462)
    last[t.five :] = best_fill
    if _KERNEL is not None:  # the same floats, in one call
        second = np.empty(462)
        _KERNEL.keeps(last, second)
        return last, second
    _keep_values(last, t)
    return last, reroll_level(last)


def reroll_level(keep: NDArray[np.float64]) -> NDArray[np.float64]:
    """The keep values with one more reroll left, from ``keep`` (462 keep values): each
    roll is worth its best sub-keep, then each keep the average of its rolls."""
    t = _TURN_GEOMETRY or turn_geometry()
    out = np.empty(462)
    if _KERNEL is not None and keep.flags.c_contiguous and keep.dtype == np.float64:
        _KERNEL.reroll(keep, out)  # the same floats, in one call
        return out
    subkeeps = np.take(keep, t.flat_subkeeps, mode="clip")
    np.maximum.reduceat(subkeeps, t.starts, out=out[t.five :])
    _keep_values(out, t)
    return out


def _keep_values(keep: NDArray[np.float64], t: TurnGeometry) -> None:
    """In place: from each roll's value (the last 252), each keep's expected value."""
    add, multiply, sixth = np.add.reduce, np.multiply, 1 / 6
    for lo, hi, children in t.levels:
        block = keep.take(children, 0, None, "clip")  # (6 faces, keeps): in range, unbuffered
        out = keep[lo:hi]
        add(block, axis=0, out=out)  # left to right, face by face
        multiply(out, sixth, out=out)
