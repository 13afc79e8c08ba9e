"""Target tables' backward induction: the chance of every need, level by level.

A target table holds, for each turn-start state and each number of points still
needed, the best chance of scoring them. Each level's states are solved in chunks of
one filled-box mask: a column per (state, need) pair goes through the expected-value
build's keep kernels. Three things keep the columns few, none changing a float
(decision 0015):

- needs above the most points the rest of a game can score are never worked out
  (their chance is 0, exactly: :func:`most_to_come`);
- a need's chance differs from the need before it only when the game can end with
  exactly that many points fewer, so the others are copied (:func:`run_starts`);
- columns whose reads (the chance after each fill) are all equal end equal, so each
  distinct one is solved once (:func:`distinct`).

A table that takes long shares its levels with a helper process, as the
expected-value build does (see :mod:`._workers`): the plan (:class:`TargetPlan`)
holds every chunk and row, and a helper unpickles it without importing the rules
modules.

Private to the solver package.
"""

from __future__ import annotations

import functools
import itertools
import operator
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.bots.solver._build import Progress, run_levels
from yahtzee_rules.bots.solver._entries import entry_steps, turn_model_of
from yahtzee_rules.bots.solver._geometry import (
    Geometry,
    dice_geometry,
    geometry_for_kernels,
    install_geometry,
)
from yahtzee_rules.bots.solver._kernels import (
    average_keeps,
    best_over_subkeeps,
    expected_over_rolls,
    workspace_for,
)
from yahtzee_rules.bots.solver._model import Level, Model, flat_index
from yahtzee_rules.bots.solver._workers import Crew, helpers_for

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: (state, points needed) columns solved together (the build's cache-sized chunks).
_COLUMNS = 1024

#: (state, points needed) columns read together, before the distinct ones are solved.
_READS = 4 * _COLUMNS

#: Odd multipliers, one per read, for hashing a column's bits (:func:`distinct`).
_MIX = np.random.default_rng(20261130).integers(1, 1 << 63, 1024, dtype=np.uint64) | np.uint64(1)

#: The work (columns before the distinct ones are picked, all levels) from which a
#: table starts its helper processes at once.
PROCESS_COLUMNS = 1 << 20

#: Seconds of work after which a smaller table starts its helpers (a helper takes
#: about a fifth of a second to start).
HIRE_AFTER = 0.1

#: The work under which a table runs in this process alone, helpers or not.
SHARED_COLUMNS = 1 << 14


def look_up(
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


def entry_reads(
    model: Model,
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
    tm = turn_model_of(model)
    entries = np.flatnonzero((model.open_bits(mask) & tm.bits) != 0)  # the refused: never
    index, bonus = entry_steps(model, tm, mask, u[:, None], y[:, None])  # (states, entries)
    index, bonus = index[:, entries].T, bonus[:, entries].T  # (entries, states)
    gained = tm.points[entries, None] + np.rint(bonus).astype(np.intp)
    local = np.full(tm.entries, len(entries), dtype=np.intp)
    local[entries] = np.arange(len(entries))
    return row_of[index].astype(np.intp), gained, entries, local


_FillPlan = tuple["NDArray[np.intp]", "NDArray[np.intp]", list["NDArray[np.intp]"]]


def _fill_plan(model: Model, mask: int, local: NDArray[np.intp]) -> _FillPlan:
    """Which entries each roll may write from states with ``mask``, grouped.

    ``codes`` holds each distinct set of entries (rolls writing the same entries take
    the same best), ``inverse`` each of the 246 rolls of unequal dice's set, and the
    last item the entries five equal dice may write, face by face (the Joker rule
    decides). ``local`` is :func:`entry_reads`' row of each entry.
    """
    tm = turn_model_of(model)
    boxes = np.flatnonzero((model.open_bits(mask) & model.card.bits) != 0)
    codes, inverse = np.unique(local[tm.rest[boxes]].T, axis=0, return_inverse=True)
    fives = [local[tm.fives[face, boxes, mask]] for face in range(6)]
    return codes, inverse.ravel(), fives


#: Which reads each roll of unequal dice takes the best of: ``codes`` and ``inverse``.
_RollPlan = tuple["NDArray[np.intp]", "NDArray[np.intp]"]


def mask_reads(
    model: Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    mask: int,
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    columns: NDArray[np.intp],
    plans: dict[int, _FillPlan] | None = None,
) -> tuple[NDArray[np.float64], _RollPlan, list[NDArray[np.intp]]]:
    """Every value a fill reads, from states with ``mask`` for the needs in ``columns``.

    Returns ``reads`` of ``(reads, states, len(columns))``: the chance of each need
    after each (box, points) entry the rules allow, then ``-1`` (a box that may not be
    filled), then for five equal dice due an extra-Yahtzee bonus each entry the
    Joker rule allows with the bonus added; the rows each roll of unequal dice takes
    the best of (``codes``, and ``inverse`` by roll, as in :func:`_fill_plan`); and the
    rows each face's five equal dice take the best of.
    """
    size, width = len(u), len(columns)
    rows, gained, entries, local = entry_reads(model, row_of, mask, u, y)
    found = plans.get(mask) if plans is not None else None
    if found is None:
        found = _fill_plan(model, mask, local)
        if plans is not None:
            plans[mask] = found
    codes, inverse, five_entries = found
    due = np.rint(model.bonus_due[:, y]).astype(np.intp)  # (faces, states)
    # five equal dice: the Joker rule decides the entries; an extra-Yahtzee bonus adds
    # the same points to every one of them
    bonus_reads = [
        (face, int(entry))
        for face, fives in enumerate(five_entries)
        if due[face].any()
        for entry in fives[fives < len(entries)]
    ]
    reads = np.empty((len(entries) + 1 + len(bonus_reads), size, width))
    look_up(values, rows, gained, columns, out=reads[: len(entries)])
    reads[len(entries)] = -1.0
    fives_rows = list(five_entries)
    for at, (face, entry) in enumerate(bonus_reads, len(entries) + 1):
        look_up(values, rows[entry], gained[entry] + due[face], columns, out=reads[at])
    for face in range(6):
        if due[face].any():
            own = [at for at, (f, _) in enumerate(bonus_reads, len(entries) + 1) if f == face]
            fives_rows[face] = np.array(own or [len(entries)], dtype=np.intp)
    return reads, (codes, inverse), fives_rows


def distinct(reads: NDArray[np.float64]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The columns of ``reads`` (``(reads, columns)``) unlike every column before them,
    and for each column the one of those it equals.

    Columns with the same reads give the same fills, and the keep kernels work column
    by column, so equal floats in give equal floats out: each distinct column is worked
    out once and copied, with the values of working out each. Columns are told apart
    by a hash of their bits, and the grouping is then checked value for value (a
    column not equal to its group's first is grouped by its whole bits instead).
    """
    bits = reads.view(np.uint64)
    if len(reads) <= len(_MIX):
        mixed = np.multiply(bits, _MIX[: len(reads), None])  # wraps around: a hash
        _, first, group = np.unique(mixed.sum(axis=0), return_index=True, return_inverse=True)
        group = group.ravel()
        if np.array_equal(np.take(reads, first[group], axis=1), reads):
            return first, group
    whole = np.ascontiguousarray(bits.T).view(np.dtype((np.void, 8 * len(reads)))).ravel()
    _, first, group = np.unique(whole, return_index=True, return_inverse=True)
    return first, group.ravel()


def need_fills(
    reads: NDArray[np.float64],
    plan: _RollPlan,
    fives_rows: list[NDArray[np.intp]],
    out: NDArray[np.float64],
) -> None:
    """Into ``out`` of ``(252, columns)``: each roll's best fill, from ``reads`` of
    ``(reads, columns)`` (see :func:`mask_reads`).

    A shift commutes with the maximum over boxes, so each entry is read once per state
    and each roll takes the best of its entries: exactly the values of
    :func:`._target._fills_at` maximised over the boxes.
    """
    codes, inverse = plan
    # the other rolls: rolls writing the same entries take the same best
    best = reads[codes[:, 0]]
    for column in codes.T[1:]:
        np.maximum(best, reads[column], out=best)
    np.take(best, inverse, axis=0, out=out[6:], mode="clip")
    for face, rows in enumerate(fives_rows):
        np.copyto(out[face], reads[rows[0]])
        for row in rows[1:]:
            np.maximum(out[face], reads[row], out=out[face])


def run_starts(
    model: Model, mask: int, y: NDArray[np.intp], u: NDArray[np.intp], solve: int
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
    tm = turn_model_of(model)
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


def most_to_come(model: Model, mask: int, flagged: bool) -> int:
    """At most how many points the rest of a game can score from states with ``mask``.

    Each open box's highest entry, the upper bonus and an extra-Yahtzee bonus on
    every turn that could earn one (``flagged``: some state's Yahtzee box holds 50).
    Every need above it has chance 0, exactly, so it is never worked out.
    """
    tm = turn_model_of(model)
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
    model: Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    mask: int,
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    columns: NDArray[np.intp],
    plans: dict[int, _FillPlan] | None = None,
) -> NDArray[np.float64]:
    """``(states, len(columns))``: the best chance of scoring each need in ``columns``.

    Every state has the filled-box mask ``mask``. Each distinct column (see
    :func:`distinct`) goes through the expected-value build's keep kernels, up to
    :data:`_COLUMNS` at a time in place in one buffer. The last step, the average
    over the first roll, is NumPy's own loop rather than a BLAS product: the same
    sums for any number of columns, and no BLAS threads on top of the build's.
    """
    g = dice_geometry()
    size, width = len(u), len(columns)
    reads, plan, fives_rows = mask_reads(model, row_of, values, mask, u, y, columns, plans)
    picked, source = distinct(reads.reshape(len(reads), size * width))
    reads = reads.reshape(len(reads), size * width)[:, picked]
    found = np.empty(len(picked))
    for lo in range(0, len(picked), _COLUMNS):
        hi = min(lo + _COLUMNS, len(picked))
        # a single column goes twice: NumPy sums one contiguous column pairwise, in
        # another order than the columns of a wider batch
        batch = reads[:, lo:hi] if hi - lo > 1 else reads[:, [lo, lo]]
        space = workspace_for(batch.shape[1])
        keep = space.keeps(0, batch.shape[1])  # in place: rolls left 0, then 1, then 2
        need_fills(batch, plan, fives_rows, keep[g.five :])
        best_over_subkeeps(average_keeps(keep, space), space)
        rolls = best_over_subkeeps(average_keeps(keep, space), space)
        found[lo:hi] = expected_over_rolls(g.probability, rolls)[: hi - lo]
    np.minimum(found, 1.0, out=found)  # sums of chances can round just above 1
    return found[source].reshape(size, width)


#: One chunk: its mask, its first row and one past its last, the states' capped upper
#: subtotals and flags, the needs worked out and how many needs it sets.
_Chunk = tuple[int, int, int, "NDArray[np.intp]", "NDArray[np.intp]", "NDArray[np.intp]", int]


class TargetPlan:
    """Every chunk of one target table, level by level, and every state's row.

    Rows are given level by level from the complete cards (level 0, whose chance of
    needing nothing is 1) back to the start; states a level copies take their
    source's row. Pickled for helper processes, without the rules.
    """

    def __init__(self, model: Model, levels: list[Level], needs: int) -> None:
        self.model, self.needs = model, needs
        row_of = np.full(model.states_count, -1, dtype=np.int32)
        self.chunks: list[list[_Chunk]] = []
        self.sizes = [level.size for level in levels]
        self.work = 0
        first = 0
        for index, level in enumerate(levels):
            flats = flat_index(model, level.masks, level.uppers, level.flags)
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

    def _cut(self, level: Level, first: int) -> list[_Chunk]:
        """A level's chunks: each of one mask, about :data:`_COLUMNS` columns."""
        model, found = self.model, []
        m, u, y = (np.asarray(a, dtype=np.intp) for a in (level.masks, level.uppers, level.flags))
        cuts = [0, *(np.flatnonzero(np.diff(m)) + 1).tolist(), len(m)]
        for lo, hi in itertools.pairwise(cuts):
            mask, uppers, flags = int(m[lo]), u[lo:hi], y[lo:hi]
            # needs beyond what can still be scored keep their chance of 0
            solve = min(self.needs, most_to_come(model, mask, bool(flags.any())) + 1)
            columns = run_starts(model, mask, flags, uppers, solve)
            per = max(1, _READS // len(columns))
            for at in range(lo, hi, per):
                end = min(at + per, hi)
                chunk = (mask, first + at, first + end, u[at:end], y[at:end], columns, solve)
                found.append(chunk)
                self.work += (end - at) * len(columns)
        return found

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        lean = (self.model.for_kernels(), geometry_for_kernels(), self.needs, self.solved)
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
    model: Model,
    geometry: Geometry,
    needs: int,
    solved: int,
    row_of: NDArray[np.int32],
    chunks: list[list[_Chunk]],
) -> TargetPlan:
    """A helper's plan, from what :meth:`TargetPlan.__reduce__` pickled."""
    install_geometry(geometry)
    plan = TargetPlan.__new__(TargetPlan)
    plan.model, plan.needs, plan.solved = model, needs, solved
    plan.row_of, plan.chunks = row_of, chunks
    plan._plans = {}
    return plan


def solve_levels(
    model: Model,
    levels: list[Level],
    maximum: int,
    progress: Progress | None = None,
    workers: int = 1,
) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Each state's row and the chance of every need from 0 to ``maximum``, level by level.

    With ``workers`` above 1, helper processes share the levels: from the start for a
    table of :data:`PROCESS_COLUMNS` columns or more, otherwise once the work here has
    taken :data:`HIRE_AFTER` seconds (how many columns are distinct, and so the time
    a table takes, is known only as it goes).
    """
    plan = TargetPlan(model, levels, maximum + 1)
    helpers = helpers_for(workers, plan.work, SHARED_COLUMNS)
    at_once = plan.work >= PROCESS_COLUMNS
    with Crew(helpers, plan.solved * plan.needs, hire=at_once) as crew:
        crew.prepare(plan)
        values = crew.values.reshape(plan.solved, plan.needs)
        values[plan.complete, 0] = 1.0  # complete cards: nothing more to score
        when = time.perf_counter() + HIRE_AFTER

        def solver(index: int) -> Callable[[int], int]:
            solve = plan.solver(crew.values, index)
            return solve if at_once or not helpers else _hiring(solve, crew, when)

        run_levels(crew, plan.sizes, lambda index: len(plan.chunks[index]), solver, progress)
    return plan.row_of, values


def _hiring(solve: Callable[[int], int], crew: Crew, when: float) -> Callable[[int], int]:
    """``solve``, then the crew's helpers started if it is ``when`` (a ``perf_counter``;
    :meth:`Crew.hire` starts them once)."""

    def solve_and_hire(chunk: int) -> int:
        found = solve(chunk)
        if time.perf_counter() >= when:
            crew.hire()
        return found

    return solve_and_hire
