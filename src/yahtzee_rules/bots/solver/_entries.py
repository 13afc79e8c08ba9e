"""Per-rules fill entries: every (box, points) a fill may write, and the arrays one
state's fills are read with (by the per-turn tables, and by the compiled kernel's table
build).

Private to the package.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.bots.solver._model import Model

if TYPE_CHECKING:
    from numpy.typing import NDArray


class TurnModel:
    """Per-rules arrays: every (box, points) a fill may write, and which one each roll writes.

    A state's fill values take one value per *entry*, a box with the points written
    there (an upper box with 0 to 5 dice of its face, Full House with 0 or 25, ...),
    and one last entry for a box the Joker rule refuses (worth ``-inf``). ``codes``
    gives each roll's entry in each box; ``fives`` the entry five equal dice write,
    by face, box and filled-box mask (the Joker rule decides).
    """

    def __init__(self, model: Model) -> None:
        card = model.card
        self.model = model
        n = card.n
        scores = card.scores  # (252 internal rolls, boxes)
        joker = model.joker  # (face, box, mask), -1 where refused
        top = int(max(scores.max(), joker.max()))
        # each box's points shifted by one (column 0: refused), one row of the lookup per
        # box: the points five equal dice write anywhere, counted in one pass
        width = top + 2
        self._offsets = (np.arange(n) * width + 1).astype(np.int16)[:, None]  # (boxes, 1)
        shifted = joker + self._offsets[None]  # int16: n * width is small
        written = np.bincount(shifted.ravel(), minlength=n * width).reshape(n, width)[:, 1:] > 0
        written[np.arange(n), scores] = True  # and the points of every roll
        lookup = np.full((n, width), -1, dtype=np.int64)
        boxes: list[int] = []
        points: list[int] = []
        for box in range(n):
            for value in np.flatnonzero(written[box]).tolist():
                lookup[box, value + 1] = len(boxes)
                boxes.append(box)
                points.append(value)
        refused = len(boxes)  # the last entry: -inf
        lookup[:, 0] = refused
        self.entries = refused + 1
        self.lookup = lookup[:, 1:]  # (boxes, points): the entry, -1 for points the box never takes
        self.codes = lookup[np.arange(n), scores + 1]  # (252, boxes)
        self.rest = np.ascontiguousarray(self.codes[6:].T)  # (boxes, 246 rolls)
        self.fill_plan = fill_plan(self.rest, self.lookup[:, 0])
        self.boxes = n
        # the compiled kernel's one-state output: two keep levels, the worth, and the
        # (6, boxes) int16 entries five equal dice write, in float64 words
        self.state_words = 2 * 462 + self.entries + -(-6 * n // 4)
        self._lookup = lookup.astype(np.int16).ravel()
        # for the compiled kernel: the same lookup and Joker points, contiguous int16
        self.flat_lookup = self._lookup
        self.joker = np.ascontiguousarray(joker, dtype=np.int16)
        self._fives: NDArray[np.int16] | None = None
        box_of = np.array(boxes, dtype=np.int64)
        self.points = np.array([*points, 0], dtype=np.int64)
        self.bits = np.append(card.bits[box_of], 0)
        is_upper = np.zeros(n, dtype=np.int64)
        is_upper[card.upper] = 1
        self.upper = np.append(is_upper[box_of], 0)
        self.upper_points = self.points * self.upper
        self.bonus = self.upper * model.upper_bonus  # the upper bonus, on upper entries
        sets_flag = (box_of == card.yahtzee) & (self.points[:-1] == 50)
        self.sets_flag = np.append(sets_flag, False).astype(np.int64)
        self.any_bonus_due = bool(model.bonus_due.any())
        # the extra-Yahtzee bonus of five equal dice, by flag and face (0 where none is
        # due: the compiled kernel's build), and each flag's row, None where none ever is
        self.due_rows = np.ascontiguousarray(model.bonus_due.T[: model.flags], dtype=np.float64)
        self.due: tuple[NDArray[np.float64] | None, ...] = tuple(
            row if self.any_bonus_due else None for row in self.due_rows
        )
        self.float_points = self.points.astype(np.float64)
        self._one_state: _OneState | None = None

    @property
    def fives(self) -> NDArray[np.int16]:
        """The entry five equal dice write, by face, box and filled-box mask (made on
        first use: one state's are :meth:`fives_at`)."""
        found = self._fives
        if found is None:
            # by flat index into the lookup: one gather (a 2-D fancy index is much slower)
            found = self._fives = self._lookup.take(self.model.joker + self._offsets[None])
        return found

    def fives_at(self, mask: int) -> NDArray[np.int16]:
        """:attr:`fives` of one filled-box mask, ``(6 faces, boxes)``."""
        found = self._fives
        if found is not None:
            return found[:, :, mask]
        at: NDArray[np.int16] = self._lookup.take(self.model.joker[:, :, mask] + self._offsets.T)
        return at

    @functools.cached_property
    def kernel_model(self) -> object:
        """The arrays the compiled kernel's ``state`` and ``turn`` read, checked once and
        held by it (made on first use, where the kernel is in use)."""
        from yahtzee_rules.bots.solver._compiled import kernel

        compiled = kernel()
        assert compiled is not None
        return compiled.model(
            self.float_points,
            self.bits,
            self.fill_plan,
            self.joker,
            self.flat_lookup,
            np.ascontiguousarray(self.codes, dtype=np.int64),
            self.boxes,
        )

    def one_state(self) -> _OneState:
        """The arrays :class:`TurnTables` reads a state's fills with (made on first use)."""
        found = self._one_state
        if found is None:
            found = self._one_state = _OneState(self)
        return found


class _OneState:
    """:func:`entry_steps` laid out for one state at a time: by capped subtotal ``u`` and
    flag ``y``, the flat index of the state after each entry from mask 0 (a state of mask
    ``m`` adds ``m * levels * flags``: an open box's bit is not in ``m``, so ``m | bit``
    is ``m + bit``; a filled box's index is clipped and its value never used), and the
    upper bonus each entry completes, ``None`` where it completes none; by mask, the
    entries a roll may not fill (filled, refused or not the box's turn)."""

    def __init__(self, tm: TurnModel) -> None:
        model = tm.model
        shape = (model.levels, model.flags, 1)
        levels = np.broadcast_to(np.arange(model.levels)[:, None, None], shape)
        flags = np.broadcast_to(np.arange(model.flags)[None, :, None], shape)
        index, bonus = entry_steps(model, tm, 0, levels, flags)
        self.index = np.ascontiguousarray(
            np.broadcast_to(index, (model.levels, model.flags, tm.entries))
        )
        by_u = np.broadcast_to(bonus, index.shape)[:, 0]
        self.bonus: list[NDArray[np.float64] | None] = [
            np.ascontiguousarray(row) if row.any() else None for row in by_u
        ]
        # for the compiled kernel's build: every subtotal's row, 0 where none is completed
        self.bonus_rows = np.ascontiguousarray(by_u, dtype=np.float64)
        self.stride = model.levels * model.flags
        self._tm = tm
        # by mask, the boxes a roll may fill as bits: an entry whose box is not among
        # them may not be written (filled, refused or not the box's turn)
        self.open = np.ascontiguousarray(model.open_bits(np.arange(1 << model.card.n)))
        self.open_of: list[int] = self.open.tolist()

    @functools.cached_property
    def closed(self) -> NDArray[np.bool_]:
        """``(masks, entries)``: the entries a roll may not fill, by mask (the NumPy path's)."""
        closed: NDArray[np.bool_] = (self.open[:, None] & self._tm.bits) == 0
        return closed

    @functools.cached_property
    def _shared_bases(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        # entries with the same next states, bonuses and box (a lower box's, but for
        # their points) share one base: each base's first entry, and each entry's base
        tm = self._tm
        columns = np.concatenate(
            [self.index.reshape(-1, tm.entries), self.bonus_rows.view(np.int64), tm.bits[None]]
        ).T
        numbers: dict[bytes, int] = {}  # bases numbered in entry order
        base_of = [numbers.setdefault(column.tobytes(), len(numbers)) for column in columns]
        firsts: dict[int, int] = {}
        for entry, base in enumerate(base_of):
            firsts.setdefault(base, entry)
        return np.array([*firsts.values()], dtype=np.int64), np.array(base_of, dtype=np.int64)

    @property
    def bases(self) -> NDArray[np.int64]:
        """For the compiled kernel's build: each base's first entry (see ``base_of``)."""
        return self._shared_bases[0]

    @property
    def base_of(self) -> NDArray[np.int64]:
        """Each entry's base: the entries whose next states, bonuses and box are the same
        (a lower box's, but for their points) share one, worked out once per state."""
        return self._shared_bases[1]


def fill_plan(rest: NDArray[np.int64], zero: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each roll's best fill (but five equal dice's) as the compiled kernel works it out.

    ``rest`` is each roll's entry in each box, ``(boxes, rolls)``; ``zero`` each box's
    entry for 0 points (-1 for a box that never scores 0). The plan is rows of
    ``[parent, n, entry, ...]``, each the best of its parent row (-1: none) and its ``n``
    entries, after their count: first the shared rows, each the best of the zero entries
    of a set of boxes that some roll scores 0 in (a roll without a face scores 0 in its
    upper box, most rolls in most lower boxes), each from the largest shared row of a
    smaller set; then one row per roll, from the shared row of the boxes it scores 0 in,
    with its entries in the others. So each roll's best is over its entries in every box,
    as in ``rest``, with about half the steps.
    """
    boxes = rest.shape[0]
    bits = 1 << np.arange(boxes, dtype=np.int64)
    # each roll's boxes of 0 points, as a bit set
    zeros = (((rest == zero[:, None]) & (zero[:, None] >= 0)) * bits[:, None]).sum(axis=0)
    sets = [int(z) for z in zeros]
    shared: dict[int, int] = {}
    rows: list[int] = []
    for found in sorted(set(sets) - {0}, key=lambda z: (z.bit_count(), z)):
        parent = max((q for q in shared if q & ~found == 0), key=int.bit_count, default=0)
        own = [int(zero[b]) for b in range(boxes) if (found & ~parent) >> b & 1]
        rows += [shared[parent] if parent else -1, len(own), *own]
        shared[found] = len(shared)
    # then each roll's row: the entries it scores points in, in box order
    scores = (zeros[None, :] & bits[:, None]) == 0  # (boxes, rolls)
    counts = scores.sum(axis=0)
    starts = np.cumsum(2 + counts) - (2 + counts)
    tail = np.empty(int(starts[-1] + 2 + counts[-1]), dtype=np.int64)
    tail[starts] = [shared[found] if found else -1 for found in sets]
    tail[starts + 1] = counts
    heads = np.zeros(len(tail), dtype=bool)
    heads[starts] = heads[starts + 1] = True
    tail[~heads] = rest.T[scores.T]
    return np.concatenate([np.array([len(shared), *rows], dtype=np.int64), tail])


TURN_MODELS: dict[int, TurnModel] = {}


def turn_model_of(model: Model) -> TurnModel:
    found = TURN_MODELS.get(id(model))
    if found is None or found.model is not model:
        found = TURN_MODELS[id(model)] = TurnModel(model)
    return found


def entry_steps(
    model: Model, turn_model: TurnModel, m: Any, u: Any, y: Any
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """For each state and entry: the flat index of the state after writing the entry,
    and the upper bonus the entry completes (0 for most).

    ``m``, ``u`` and ``y`` (filled-box mask, capped upper subtotal, Yahtzee flag) are
    ints, or arrays broadcasting against the entries along the last axis.
    """
    tm = turn_model
    raw = tm.upper_points + u
    index = np.minimum(raw, model.levels - 1)
    index *= model.flags
    index += ((m | tm.bits) * model.levels) * model.flags
    if model.flags == 2:
        index += tm.sets_flag | y  # 50 in the five-of-a-kind box sets the flag
    bonus = (raw >= model.threshold) * (u < model.threshold) * tm.bonus
    return index, bonus
