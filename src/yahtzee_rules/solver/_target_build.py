"""Target tables' backward induction: the chance of every need, level by level.

A target table holds, for each turn-start state and each number of points still
needed, the best chance of scoring them. Each level's states are solved in chunks of
one filled-box mask: a column per (state, need) pair goes through the expected-value
build's keep kernels. Two things keep the columns few:

- needs above the most points the rest of a game can score are never worked out
  (their chance is 0, exactly: :func:`_most_to_come`);
- a need's chance differs from the need before it only when the game can end with
  exactly that many points fewer, so the others are copied (:func:`_run_starts`).

A large table shares its levels with a helper process, as the expected-value build
does (see :mod:`._workers`): the plan (:class:`_TargetPlan`) holds every chunk and
row, and a helper unpickles it without importing the rules modules.

Private to the solver package.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.solver._build import Progress, _reporting
from yahtzee_rules.solver._geometry import (
    _Geometry,
    _geometry,
    _geometry_for_kernels,
    _install_geometry,
)
from yahtzee_rules.solver._kernels import _best_over_subkeeps, _keep_values, _workspace
from yahtzee_rules.solver._model import _flat, _Level, _Model
from yahtzee_rules.solver._turns import _entry_steps, _turn_model
from yahtzee_rules.solver._workers import Crew, helpers_for

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: (state, points needed) columns solved together (the build's cache-sized chunks).
_COLUMNS = 1024

#: The work (columns, all levels) from which a helper process pays for its start.
PROCESS_COLUMNS = 1 << 17


def _look_up(
    values: NDArray[np.float64],
    rows: NDArray[np.intp],
    by: NDArray[np.intp],
    columns: NDArray[np.intp],
    out: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """The chance of each need in ``columns`` after scoring ``by`` points, from ``rows``.

    ``values[rows, max(columns - by, 0)]``, of shape ``rows.shape + columns.shape``;
    ``values`` must be C-contiguous (a whole table, read by flat index).
    """
    at = columns - by[..., None]
    np.maximum(at, 0, out=at)
    at += (rows * values.shape[1])[..., None]
    found: NDArray[np.float64] = np.take(values.reshape(-1), at, out=out, mode="clip")
    return found


def _entry_reads(
    model: _Model,
    row_of: NDArray[np.int32],
    mask: int,
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """Where each (box, points) entry the rules allow leads, and the points it scores.

    Every state has the filled-box mask ``mask``. Returns ``rows`` and ``gained`` of
    ``(allowed entries, states)`` (the table row of the state after the entry, and its
    points with any upper bonus it completes), ``entries`` (their numbers in
    :class:`_TurnModel`) and ``local``, the row of each entry of :class:`_TurnModel`
    among them (one past the last for a box that may not be filled).
    """
    tm = _turn_model(model)
    entries = np.flatnonzero((model.open_bits(mask) & tm.bits) != 0)  # the refused: never
    index, bonus = _entry_steps(model, tm, mask, u[:, None], y[:, None])  # (states, entries)
    index, bonus = index[:, entries].T, bonus[:, entries].T  # (entries, states)
    gained = tm.points[entries, None] + np.rint(bonus).astype(np.intp)
    local = np.full(tm.entries, len(entries), dtype=np.intp)
    local[entries] = np.arange(len(entries))
    return row_of[index].astype(np.intp), gained, entries, local


_FillPlan = tuple["NDArray[np.intp]", "NDArray[np.intp]", list["NDArray[np.intp]"]]


def _fill_plan(model: _Model, mask: int, local: NDArray[np.intp]) -> _FillPlan:
    """Which entries each roll may write from states with ``mask``, grouped.

    ``codes`` holds each distinct set of entries (rolls writing the same entries take
    the same best), ``inverse`` each of the 246 rolls of unequal dice's set, and the
    last item the entries five equal dice may write, face by face (the Joker rule
    decides). ``local`` is :func:`_entry_reads`' row of each entry.
    """
    tm = _turn_model(model)
    boxes = np.flatnonzero((model.open_bits(mask) & model.card.bits) != 0)
    codes, inverse = np.unique(local[tm.rest[boxes]].T, axis=0, return_inverse=True)
    fives = [local[tm.fives[face, boxes, mask]] for face in range(6)]
    return codes, inverse.ravel(), fives


def _mask_fills(
    model: _Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    mask: int,
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    columns: NDArray[np.intp],
    out: NDArray[np.float64],
    plans: dict[int, _FillPlan] | None = None,
) -> None:
    """Into ``out`` of ``(252, states * len(columns))``: the chance of each need after the best fill.

    Every state has the filled-box mask ``mask``; ``columns`` are the needs worked
    out. A shift commutes with the maximum over boxes, so each entry is read once per
    state and each roll takes the best of its entries: exactly the values of
    :func:`_fill_values` maximised over the boxes. ``plans`` keeps each mask's
    :func:`_fill_plan` for the next states with it.
    """
    size, width = len(u), len(columns)
    rows, gained, entries, local = _entry_reads(model, row_of, mask, u, y)
    chances = np.empty((len(entries) + 1, size, width))
    _look_up(values, rows, gained, columns, out=chances[:-1])
    chances[-1] = -1.0
    flat = chances.reshape(len(chances), size * width)
    found = plans.get(mask) if plans is not None else None
    if found is None:
        found = _fill_plan(model, mask, local)
        if plans is not None:
            plans[mask] = found
    codes, inverse, five_entries = found
    # the other rolls: rolls writing the same entries take the same best
    best = flat[codes[:, 0]]
    for column in codes.T[1:]:
        np.maximum(best, flat[column], out=best)
    np.take(best, inverse, axis=0, out=out[6:], mode="clip")
    # five equal dice: the Joker rule decides the entries; an extra-Yahtzee bonus
    # adds the same points to every one of them
    for face, fives in enumerate(five_entries):
        row = out[face].reshape(size, width)
        due = np.rint(model.bonus_due[face, y]).astype(np.intp)
        if not due.any():
            np.copyto(row, chances[fives[0]])
            for entry in fives[1:]:
                np.maximum(row, chances[entry], out=row)
            continue
        row.fill(-1.0)  # the boxes refused (none allowed: never, with a box open)
        for entry in fives[fives < len(entries)]:
            np.maximum(row, _look_up(values, rows[entry], gained[entry] + due, columns), out=row)


def _run_starts(
    model: _Model, mask: int, y: NDArray[np.intp], u: NDArray[np.intp], solve: int
) -> NDArray[np.intp]:
    """The needs below ``solve`` worth working out from states with ``mask``: 0 and every
    total the rest of the game can score, plus 1.

    The chance of scoring ``t`` or more changes from ``t - 1`` to ``t`` only when the
    game can end with exactly ``t - 1`` points more (under any play, any dice), so
    every other need has its predecessor's chance, exactly: worked out alike, from the
    same values. The totals counted are a superset of those possible: every sum of one
    entry per open box, with the upper bonus while some state can still earn it, and
    an extra-Yahtzee bonus on any turn when one may come.
    """
    tm = _turn_model(model)
    card = model.card
    limit = (1 << solve) - 1
    sums = 1  # bit t: the rest of the game can score t points
    open_boxes = [box for box in range(card.n) if not mask & (1 << box)]
    for box in open_boxes:
        points = tm.points[:-1][tm.bits[:-1] == 1 << box].tolist()
        sums = functools.reduce(operator.or_, (sums << p for p in points)) & limit
    bonus = int(np.rint(model.upper_bonus))
    if bonus and any(box in card.upper for box in open_boxes) and (u < model.threshold).any():
        sums = (sums | sums << bonus) & limit
    dues = {int(d) for d in np.rint(model.bonus_due).ravel().tolist() if d > 0}
    may_come = card.yahtzee >= 0 and (not mask & card.yahtzee_bit or bool(y.any()))
    if dues and may_come:
        for _ in open_boxes:
            sums = functools.reduce(operator.or_, (sums << d for d in dues), sums) & limit
    starts = [0, *(t + 1 for t in range(solve - 1) if sums >> t & 1)]
    return np.array(starts, dtype=np.intp)


def _most_to_come(model: _Model, mask: int, flagged: bool) -> int:
    """At most how many points the rest of a game can score from states with ``mask``.

    Each open box's highest entry, the upper bonus and an extra-Yahtzee bonus on
    every turn that could earn one (``flagged``: some state's Yahtzee box holds 50).
    Every need above it has chance 0, exactly, so it is never worked out.
    """
    tm = _turn_model(model)
    card = model.card
    open_boxes = [box for box in range(card.n) if not mask & (1 << box)]
    most = sum(int(tm.points[:-1][tm.bits[:-1] == 1 << box].max()) for box in open_boxes)
    if any(box in card.upper for box in open_boxes):
        most += int(np.ceil(model.upper_bonus))
    due = int(np.ceil(model.bonus_due.max())) if model.bonus_due.size else 0
    if due:
        yahtzee_open = card.yahtzee >= 0 and not mask & card.yahtzee_bit
        most += due * (len(open_boxes) - 1 if yahtzee_open else len(open_boxes) * flagged)
    return most


def _turn_start_values(
    model: _Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    mask: int,
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    columns: NDArray[np.intp],
    plans: dict[int, _FillPlan] | None = None,
) -> NDArray[np.float64]:
    """``(states, len(columns))``: the best chance of scoring each need in ``columns``.

    Every state has the filled-box mask ``mask``; a column per (state, need) pair
    goes through the expected-value build's keep kernels, in place in one buffer.
    The last step, the average over the first roll, is NumPy's own loop rather than a
    BLAS product: the same sums for any number of columns, and no BLAS threads on
    top of the build's.
    """
    g = _geometry()
    size, width = len(u), len(columns)
    space = _workspace(size * width)
    keep = space.keeps(0, size * width)  # one table, in place: rolls left 0, then 1, then 2
    _mask_fills(model, row_of, values, mask, u, y, columns, keep[g.five :], plans)
    _best_over_subkeeps(_keep_values(keep, space), space)
    rolls = _best_over_subkeeps(_keep_values(keep, space), space)
    result: NDArray[np.float64] = np.einsum("i,ij->j", g.probability, rolls).reshape(size, width)
    np.minimum(result, 1.0, out=result)  # sums of chances can round just above 1
    return result


#: One chunk: its mask, its first row and one past its last, the states' capped upper
#: subtotals and flags, the needs worked out and how many needs it sets.
_Chunk = tuple[int, int, int, "NDArray[np.intp]", "NDArray[np.intp]", "NDArray[np.intp]", int]


class _TargetPlan:
    """Every chunk of one target table, level by level, and every state's row.

    Rows are given level by level from the complete cards (level 0, whose chance of
    needing nothing is 1) back to the start; states a level copies take their
    source's row. Pickled for helper processes, without the rules.
    """

    def __init__(self, model: _Model, levels: list[_Level], needs: int) -> None:
        self.model, self.needs = model, needs
        row_of = np.full(model.states_count, -1, dtype=np.int32)
        self.chunks: list[list[_Chunk]] = []
        self.sizes = [level.size for level in levels]
        self.work = 0
        first = 0
        for index, level in enumerate(levels):
            flats = _flat(model, level.masks, level.uppers, level.flags)
            row_of[flats] = np.arange(first, first + len(flats), dtype=np.int32)
            row_of[level.targets] = row_of[level.sources]
            if index == 0:
                self.complete = slice(first, first + len(flats))
                self.chunks.append([])
            else:
                self.chunks.append(self._cut(level, first))
            first += len(flats)
        self.row_of, self.solved = row_of, first
        self._plans: dict[int, _FillPlan] = {}

    def _cut(self, level: _Level, first: int) -> list[_Chunk]:
        """A level's chunks: each of one mask, about :data:`_COLUMNS` columns."""
        model, found = self.model, []
        m, u, y = (np.asarray(a, dtype=np.intp) for a in (level.masks, level.uppers, level.flags))
        cuts = [0, *(np.flatnonzero(np.diff(m)) + 1).tolist(), len(m)]
        for lo, hi in itertools.pairwise(cuts):
            mask, uppers, flags = int(m[lo]), u[lo:hi], y[lo:hi]
            # needs beyond what can still be scored keep their chance of 0
            solve = min(self.needs, _most_to_come(model, mask, bool(flags.any())) + 1)
            columns = _run_starts(model, mask, flags, uppers, solve)
            per = max(1, _COLUMNS // len(columns))
            for at in range(lo, hi, per):
                end = min(at + per, hi)
                chunk = (mask, first + at, first + end, u[at:end], y[at:end], columns, solve)
                found.append(chunk)
                self.work += (end - at) * len(columns)
        return found

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        lean = (self.model.for_kernels(), _geometry_for_kernels(), self.needs, self.solved)
        return (_helper_plan, (*lean, self.row_of, self.chunks))

    def solver(self, values: NDArray[np.float64], level: int) -> Callable[[int], int]:
        """The function that solves a chunk of level ``level`` into ``values`` (flat)."""
        model, row_of, plans = self.model, self.row_of, self._plans
        table = values.reshape(self.solved, self.needs)
        chunks = self.chunks[level]

        def solve(index: int) -> int:
            mask, lo, hi, u, y, columns, needs = chunks[index]
            found = _turn_start_values(model, row_of, table, mask, u, y, columns, plans)
            # the other needs have the chance of the need before them
            spread = np.searchsorted(columns, np.arange(needs), side="right") - 1
            table[lo:hi, :needs] = found[:, spread]
            return hi - lo

        return solve


def _helper_plan(
    model: _Model,
    geometry: _Geometry,
    needs: int,
    solved: int,
    row_of: NDArray[np.int32],
    chunks: list[list[_Chunk]],
) -> _TargetPlan:
    """A helper's plan, from what :meth:`_TargetPlan.__reduce__` pickled."""
    _install_geometry(geometry)
    plan = _TargetPlan.__new__(_TargetPlan)
    plan.model, plan.needs, plan.solved = model, needs, solved
    plan.row_of, plan.chunks = row_of, chunks
    plan._plans = {}
    return plan


def _solve_levels(
    model: _Model,
    levels: list[_Level],
    maximum: int,
    progress: Progress | None = None,
    workers: int = 1,
) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Each state's row and the chance of every need from 0 to ``maximum``, level by level.

    With ``workers`` above 1, a table of :data:`PROCESS_COLUMNS` columns or more shares
    its levels with helper processes.
    """
    plan = _TargetPlan(model, levels, maximum + 1)
    helpers = helpers_for(workers, plan.work, PROCESS_COLUMNS)
    with Crew(helpers, plan.solved * plan.needs) as crew:
        crew.prepare(plan)
        values = crew.values.reshape(plan.solved, plan.needs)
        values[plan.complete, 0] = 1.0  # complete cards: nothing more to score
        total = sum(plan.sizes)
        done = plan.sizes[0]
        if progress is not None:
            progress(0, total)
            progress(done, total)
        for index in range(1, len(levels)):
            solve = plan.solver(crew.values, index)
            before, done = done, done + plan.sizes[index]
            count = len(plan.chunks[index])
            if progress is None:
                crew.level(index, count, solve)
            else:
                crew.level(index, count, _reporting(solve, progress, before, done, total))
                progress(done, total)
    return plan.row_of, values
