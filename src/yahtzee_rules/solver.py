"""The optimal solitaire strategy, by backward induction over turn-start states.

A turn starts in a *state*: which boxes are filled, the upper subtotal (capped at
the bonus threshold, since more does not matter) and whether the Yahtzee box holds
50 (which decides whether an extra Yahtzee earns a bonus). From the last turn back
to the first, :func:`build_table` works out the expected points still to come from
every reachable state when each keep and box is chosen to maximise that
expectation. The empty card's value is the published optimum: 254.5877 under
Hasbro's rules, 254.5896 with the free-choice Joker of Verhoeff's optimal solitaire
player (1999); compare Woodward, "Yahtzee: the solution", *Chance* 16(1), 2003.

The table holds one float per state (a few MB), is cached per user and reloads in
milliseconds (:func:`load_table`); :func:`advise` turns it into the expected final
score of every option in a turn; :func:`simulate_optimal` plays many games at once.

This module needs NumPy: ``pip install "yahtzee-rules[solver]"``.

Examples:
    >>> from yahtzee_rules import Category, Scorecard, Turn
    >>> from yahtzee_rules.solver import advise, build_table
    >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
    >>> table = build_table(start=card)  # quick: only Chance is open
    >>> round(table.expected_final(card), 4)  # 17.5 for one roll, more with rerolls
    23.3333
    >>> advice = advise(Turn(card).roll(outcome="12266"), table)
    >>> advice.best.action, advice.best.expected
    (Keep('66'), 24.75)
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from yahtzee_rules.boxes import Box
from yahtzee_rules.categories import CLASSIC, Category
from yahtzee_rules.dice import _ALL_KEEPS, _DICE_BY_FACES, _KEEPS_OF, Dice, Keep, dice_index
from yahtzee_rules.errors import MalformedInputError
from yahtzee_rules.rules import Rules
from yahtzee_rules.scorecard import Scorecard, possible_values
from yahtzee_rules.scoring import _bonus_due, _check_card, _check_rules, _legal
from yahtzee_rules.turn import Turn

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        'yahtzee_rules.solver needs NumPy; install it with pip install "yahtzee-rules[solver]"'
    ) from error

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.simulation import SimulationResult

__all__ = [
    "TABLE_FORMAT",
    "Advice",
    "Option",
    "Table",
    "advise",
    "best_action",
    "best_box",
    "build_table",
    "cache_dir",
    "cache_path",
    "load_table",
    "simulate_optimal",
]

#: Version of the saved table layout; part of every cache key.
TABLE_FORMAT: Final = 1

Progress = Callable[[int, int], None]
_CLASSIC = Rules()
_NEG = -np.inf
_CATEGORIES = tuple(Category)
_YAHTZEE = int(Category.YAHTZEE)
_CHANCE = int(Category.CHANCE)
_UPPER_MAX = 105  # 5 * (1 + 2 + ... + 6): no upper subtotal is higher
_CHUNK = 512  # states solved together; keeps the working set in cache
_BITS = 1 << np.arange(13, dtype=np.intp)
_UPPER_POINTS = np.arange(1, 7, dtype=np.intp)[:, None, None] * np.arange(6)[None, :, None]
_IS_YAHTZEE_BOX = (np.arange(6, 13) == _YAHTZEE)[None, :, None]
_MASKS_BY_YAHTZEE_BOX = sorted(range(8192), key=lambda mask: (mask >> _YAHTZEE & 1, mask))
_UPPER_FIVES = np.arange(6) * 6 + 5  # rows of the per-state table: box f with five f's


# --------------------------------------------------------------------------------------
# Geometry of dice and keeps, in an internal order that makes the vector work contiguous.
# --------------------------------------------------------------------------------------


class _Geometry:
    """Index arrays over the 462 keeps and 252 rolls, built once per process.

    Internally keeps are ordered by size, then by how many distinct faces they show,
    then by notation; the five-dice keeps (the rolls) come last, from index ``five``.
    """

    def __init__(self) -> None:
        keeps = sorted(_ALL_KEEPS, key=lambda k: (len(k.faces), len(set(k.faces)), k.faces))
        self.keeps: tuple[Keep, ...] = tuple(keeps)
        self.keep_pos = np.empty(len(keeps), dtype=np.intp)  # Keep._index -> internal
        for position, keep in enumerate(keeps):
            self.keep_pos[keep._index] = position
        pos = {k.faces: i for i, k in enumerate(keeps)}
        self.offsets = [0]
        for size in range(6):
            self.offsets.append(self.offsets[-1] + sum(1 for k in keeps if len(k.faces) == size))
        self.five = self.offsets[5]
        self.dice: tuple[Dice, ...] = tuple(_DICE_BY_FACES[k.faces] for k in keeps[self.five :])
        self.dice_pos = np.empty(252, dtype=np.intp)  # Dice._index -> internal roll
        for position, dice in enumerate(self.dice):
            self.dice_pos[dice._index] = position
        # one more die: children[size] is (keeps of that size, 6)
        self.children = []
        for size in range(5):
            lo, hi = self.offsets[size], self.offsets[size + 1]
            rows = [
                [pos[tuple(sorted((*keeps[i].faces, face)))] for face in range(1, 7)]
                for i in range(lo, hi)
            ]
            self.children.append(np.array(rows, dtype=np.intp))
        # one die fewer, grouped by the number of distinct faces (contiguous blocks)
        self.parents: list[tuple[int, int, NDArray[np.intp]]] = []
        for size in range(1, 6):
            lo, hi = self.offsets[size], self.offsets[size + 1]
            for distinct in range(1, 6):
                block = [i for i in range(lo, hi) if len(set(keeps[i].faces)) == distinct]
                if not block:
                    continue
                rows = []
                for i in block:
                    faces = keeps[i].faces
                    rows.append(
                        [
                            pos[faces[:j] + faces[j + 1 :]]
                            for j in range(len(faces))
                            if j == 0 or faces[j] != faces[j - 1]
                        ]
                    )
                self.parents.append((block[0], block[-1] + 1, np.array(rows, dtype=np.intp)))
        # each roll's distinct sub-keeps, fewest dice first, padded with the roll itself
        subs = np.empty((252, 32), dtype=np.intp)
        for position, dice in enumerate(self.dice):
            own = [pos[k.faces] for k in _KEEPS_OF[dice._index]]
            own.sort(key=lambda i: (len(keeps[i].faces), keeps[i].faces))
            subs[position] = own + [own[-1]] * (32 - len(own))
        self.subkeeps = subs
        self.probability = np.array([d.ways / 7776 for d in self.dice])
        self.scores = np.array(
            [CLASSIC.table[dice_index(d)] for d in self.dice], dtype=np.int64
        )  # (252, 13)
        self.total = self.scores[:, _CHANCE].astype(np.float64)
        self.yahtzee_rows = np.array([i for i, d in enumerate(self.dice) if d.is_yahtzee])
        # five equal dice come first (fewest distinct faces), ones to sixes
        assert [self.dice[i].faces[0] for i in self.yahtzee_rows] == [1, 2, 3, 4, 5, 6]
        # Rolls 6 to 251 are not five equal dice: the Joker never applies, so a roll's
        # best fill is the best of: an upper box for the dice of one face showing (rows
        # 0-35 of a per-state table: box f with k dice at f * 6 + k), any box for 0 (row
        # 36: a scoring fill is never worse), Chance or a qualifying Three/Four of a Kind
        # for the total, and a qualifying fixed-value box (rows 37 on).
        plain = self.dice[6:]
        face_lists = [[f * 6 + d.counts[f] for f in range(6) if d.counts[f]] for d in plain]
        self.face_columns: list[tuple[int, NDArray[np.intp]]] = []
        for j in range(5):
            start = next(i for i, row in enumerate(face_lists) if len(row) > j)
            self.face_columns.append(
                (start, np.array([row[j] for row in face_lists[start:]], dtype=np.intp))
            )
        fixed_boxes = (Category.FULL_HOUSE, Category.SMALL_STRAIGHT, Category.LARGE_STRAIGHT)
        total_boxes = (Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND)
        fixed_combos: dict[tuple[int, ...], int] = {}
        total_combos: dict[tuple[int, ...], int] = {}
        fixed_dice, fixed_rows, total_dice, total_rows = [], [], [], []
        for i, dice in enumerate(plain):
            fixed = tuple(int(c) for c in fixed_boxes if CLASSIC.table[dice_index(dice)][c] > 0)
            if fixed:
                fixed_dice.append(i)
                fixed_rows.append(37 + fixed_combos.setdefault(fixed, len(fixed_combos)))
            by_total = tuple(int(c) for c in total_boxes if CLASSIC.table[dice_index(dice)][c] > 0)
            if by_total:
                total_dice.append(i)
                total_rows.append(total_combos.setdefault(by_total, len(total_combos)))
        self.fixed_combos = tuple(fixed_combos)
        self.total_combos = tuple(total_combos)
        self.fixed_dice = np.array(fixed_dice, dtype=np.intp)
        self.fixed_rows = np.array(fixed_rows, dtype=np.intp)
        self.total_dice = np.array(total_dice, dtype=np.intp)
        self.total_rows = np.array(total_rows, dtype=np.intp)
        self.plain_total = self.total[6:, None]
        self.total_dice_total = self.total[6:][self.total_dice][:, None]
        # the points a fixed-value box gives whenever it scores (25, 30, 40)
        self.fixed_points = {c: int(self.scores[:, c].max()) for c in range(13)}


_GEOMETRY: _Geometry | None = None
_GEOMETRY_LOCK = threading.Lock()


def _geometry() -> _Geometry:
    global _GEOMETRY
    with _GEOMETRY_LOCK:
        if _GEOMETRY is None:
            _GEOMETRY = _Geometry()
        return _GEOMETRY


# --------------------------------------------------------------------------------------
# What the rules allow, taken from the library's own scoring functions.
# --------------------------------------------------------------------------------------


def _boxes(mask: int, yahtzee_50: bool) -> tuple[int | None, ...]:
    """A representative card: filled boxes hold 0, the Yahtzee box 50 when flagged."""
    return tuple(
        (50 if c == _YAHTZEE and yahtzee_50 else 0) if mask >> c & 1 else None for c in range(13)
    )


class _Model:
    """Per-rules constants: the upper cap, bonus values, and Joker fills by mask."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.threshold = rules.upper_bonus_threshold
        self.levels = min(self.threshold, _UPPER_MAX) + 1
        self.upper_bonus = float(rules.upper_bonus)
        geometry = _geometry()
        # points five equal dice may write in each box, by mask: -1 where not allowed
        joker = np.full((6, 13, 8192), -1, dtype=np.int16)
        due = np.zeros((6, 2), dtype=np.float64)
        fives = [geometry.dice[row] for row in geometry.yahtzee_rows]
        for mask in range(8191):
            boxes = _boxes(mask, False)
            for row, dice in enumerate(fives):
                for category, points in _legal(boxes, dice, rules).items():
                    joker[row, category, mask] = points
        for row, dice in enumerate(fives):
            for flag in (0, 1):
                if _bonus_due(_boxes(1 << _YAHTZEE, bool(flag)), dice, rules):
                    due[row, flag] = rules.yahtzee_bonus
        # With the Yahtzee box open, do five equal dice score plainly in the open boxes?
        # (True for every Joker rule; checked here, the fast path below relies on it.)
        open_masks = np.array([m for m in range(8191) if not m >> _YAHTZEE & 1])
        plain = np.where(
            (open_masks[None, :] >> np.arange(13)[:, None]) & 1 == 1,
            -1,
            geometry.scores[:6, :, None],
        )
        self.plain_fives_while_open = bool((joker[:, :, open_masks] == plain).all()) and not any(
            _bonus_due(_boxes(0, False), dice, rules) for dice in fives
        )
        self.joker = joker
        self.bonus_due = due
        # reachable capped upper subtotals for each set of filled upper boxes
        self.upper_values: list[NDArray[np.intp]] = []
        for upper_mask in range(64):
            sums = {0}
            for face in range(6):
                if upper_mask >> face & 1:
                    values = possible_values(Category(face))
                    sums = {min(a + b, self.levels - 1) for a in sums for b in values}
            self.upper_values.append(np.array(sorted(sums), dtype=np.intp))
        # the most points the open upper boxes can still add
        self.upper_left = [
            sum(max(possible_values(Category(f))) for f in range(6) if not upper_mask >> f & 1)
            for upper_mask in range(64)
        ]

    def upper_step(
        self, u: NDArray[np.intp], points: NDArray[np.intp] | int
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """The new capped subtotal and the upper bonus earned by adding ``points``."""
        raw = u + points
        bonus = np.where((u < self.threshold) & (raw >= self.threshold), self.upper_bonus, 0.0)
        return np.minimum(raw, self.levels - 1), bonus

    def states(self, level: int, start: int = 0) -> _Level:
        """Reachable states with ``level`` boxes filled (``start``'s among them).

        States whose futures are equal are solved once and copied: subtotals too low
        to reach the bonus with the open upper boxes, and the Yahtzee flag when no
        extra-Yahtzee bonus is ever due.
        """
        masks, uppers, flags, sources, targets = [], [], [], [], []
        flag_matters = bool(self.bonus_due.any())
        for mask in _MASKS_BY_YAHTZEE_BOX:  # open Yahtzee box first: see _final_values
            if mask.bit_count() != level or mask & start != start:
                continue
            values = self.upper_values[mask & 63]
            dead = values < self.threshold - self.upper_left[mask & 63]
            solved = values[~dead]
            if dead.any():
                solved = np.concatenate((values[dead][:1], solved))
            for flag in (0, 1) if mask >> _YAHTZEE & 1 else (0,):
                flat = _flat(self, mask, values, flag)
                solved_flag = flag if flag_matters else 0
                origin = _flat(self, mask, values, solved_flag)  # where each value is solved
                if dead.any():
                    origin[dead] = origin[dead][0]
                copies = origin != flat
                targets.append(flat[copies])
                sources.append(origin[copies])
                if solved_flag != flag:
                    continue
                masks.append(np.full(len(solved), mask, dtype=np.intp))
                uppers.append(solved)
                flags.append(np.full(len(solved), flag, dtype=np.intp))
        empty = np.zeros(0, dtype=np.intp)
        return _Level(
            np.concatenate(masks) if masks else empty,
            np.concatenate(uppers) if uppers else empty,
            np.concatenate(flags) if flags else empty,
            np.concatenate(sources) if sources else empty,
            np.concatenate(targets) if targets else empty,
        )


@attrs.frozen
class _Level:
    """The states of one level to solve, and the copies that complete it."""

    masks: NDArray[np.intp]
    uppers: NDArray[np.intp]
    flags: NDArray[np.intp]
    sources: NDArray[np.intp]  # flat indices to copy from, after solving
    targets: NDArray[np.intp]

    @property
    def size(self) -> int:
        return len(self.masks) + len(self.targets)


# --------------------------------------------------------------------------------------
# The vector work: a chunk of states at once, rows are rolls or keeps, columns states.
# --------------------------------------------------------------------------------------


def _flat(model: _Model, mask: Any, u: Any, flag: Any) -> Any:
    return (mask * model.levels + u) * 2 + flag


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
    size = len(m)
    table = np.empty((37 + len(g.fixed_combos), size))
    by_total = np.empty((len(g.total_combos), size))
    closed = (m & _BITS[:, None]) != 0  # (13, states)
    after = m | _BITS[:, None]
    # upper box f with k dice of face f: rows f * 6 + k
    u2, bonus = model.upper_step(u, _UPPER_POINTS)  # (6, 6, states)
    upper = values[_flat(model, after[:6, None, :], u2, y)]
    upper += bonus
    upper += _UPPER_POINTS
    upper[np.broadcast_to(closed[:6, None, :], upper.shape)] = _NEG
    table[:36] = upper.reshape(36, size)
    lower = values[_flat(model, after[6:], u, y)]  # lower boxes for 0 more points
    lower[closed[6:]] = _NEG
    zero = table[36]
    np.maximum(upper[:, 0].max(axis=0), lower.max(axis=0), out=zero)
    for j, combo in enumerate(g.fixed_combos):
        row = table[37 + j]
        row.fill(_NEG)
        for c in combo:
            np.maximum(row, lower[c - 6] + g.fixed_points[c], out=row)
    for j, combo in enumerate(g.total_combos):
        row = by_total[j]
        row.fill(_NEG)
        for c in combo:
            np.maximum(row, lower[c - 6], out=row)
    result = np.empty((252, size)) if out is None else out
    plain = result[6:]
    start, columns = g.face_columns[0]
    np.take(table, columns, axis=0, out=plain)
    for start, columns in g.face_columns[1:]:
        np.maximum(plain[start:], table[columns], out=plain[start:])
    np.maximum(plain, table[36], out=plain)
    np.maximum(plain, g.plain_total + lower[_CHANCE - 6], out=plain)
    rows = g.total_dice
    plain[rows] = np.maximum(plain[rows], by_total[g.total_rows] + g.total_dice_total)
    rows = g.fixed_dice
    plain[rows] = np.maximum(plain[rows], table[g.fixed_rows])
    # five equal dice (rows 0-5, faces 1-6)
    if model.plain_fives_while_open and not (m & (1 << _YAHTZEE)).any():
        # the Yahtzee box is open: they score plainly in the open boxes, like other rolls
        fives = result[:6]
        np.maximum(table[_UPPER_FIVES], table[36], out=fives)
        by_total_fives = np.maximum(np.maximum(lower[0], lower[1]), lower[_CHANCE - 6])
        np.maximum(fives, by_total_fives + g.total[:6, None], out=fives)
        yahtzee = values[_flat(model, after[_YAHTZEE], u, 1)]
        yahtzee[closed[_YAHTZEE]] = _NEG
        np.maximum(fives, yahtzee + g.scores[:6, _YAHTZEE, None], out=fives)
        return result
    # the Yahtzee box is filled: the Joker rule decides, so the fills come from the rules
    points = model.joker[:, :, m].astype(np.intp)  # (face, box, states); -1: not allowed
    u2, bonus = model.upper_step(u, points[:, :6])
    joker = np.empty((6, 13, size))
    joker[:, :6] = values[_flat(model, after[:6], u2, y)]
    joker[:, :6] += bonus
    flag = np.where(_IS_YAHTZEE_BOX, points[:, 6:] > 0, y)
    joker[:, 6:] = values[_flat(model, after[6:], u, flag)]
    joker += points
    joker[points < 0] = _NEG
    np.add(joker.max(axis=1), model.bonus_due[:, y], out=result[:6])
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
        children = g.children[length]
        block = keep[lo:hi]
        row = space.rows(hi - lo, size)
        np.take(keep, children[:, 0], axis=0, out=block)
        for face in range(1, 6):
            np.take(keep, children[:, face], axis=0, out=row)
            block += row
        block *= 1 / 6
    return keep


def _best_over_subkeeps(keep: NDArray[np.float64], space: _Workspace) -> NDArray[np.float64]:
    """In place: each keep's value becomes the best of its sub-keeps; returns the rolls'."""
    g = _geometry()
    size = keep.shape[1]
    for lo, hi, parents in g.parents:
        block = keep[lo:hi]
        row = space.rows(hi - lo, size)
        for j in range(parents.shape[1]):
            np.take(keep, parents[:, j], axis=0, out=row)
            np.maximum(block, row, out=block)
    return keep[g.five :]


def _solve_chunk(
    model: _Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> NDArray[np.float64]:
    """The value of each state: three rolls with the best keeps, then the best fill."""
    g = _geometry()
    size = len(m)
    space = _workspace(size)
    last, first = space.keeps(0, size), space.keeps(1, size)
    _final_values(model, values, m, u, y, out=last[g.five :])
    first[g.five :] = _best_over_subkeeps(_keep_values(last, space), space)
    rolls = _best_over_subkeeps(_keep_values(first, space), space)
    result: NDArray[np.float64] = g.probability @ rolls
    return result


def _build_values(
    rules: Rules, progress: Progress | None = None, *, threads: int = 2, start: int = 0
) -> NDArray[np.float64]:
    from concurrent.futures import ThreadPoolExecutor

    model = _model(rules)
    values = np.zeros(8192 * model.levels * 2)
    levels = [model.states(level, start) for level in range(13, start.bit_count() - 1, -1)]
    total = sum(level.size for level in levels)
    done = levels[0].size  # complete cards: nothing to come
    if progress is not None:
        progress(0, total)
        progress(done, total)

    def work(chunk: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]) -> int:
        m, u, y = chunk
        values[_flat(model, m, u, y)] = _solve_chunk(model, values, m, u, y)
        return len(m)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for level in levels[1:]:
            m, u, y = level.masks, level.uppers, level.flags
            chunks = [
                (m[i : i + _CHUNK], u[i : i + _CHUNK], y[i : i + _CHUNK])
                for i in range(0, len(m), _CHUNK)
            ]
            counts = pool.map(work, chunks) if threads > 1 else map(work, chunks)
            for count in counts:
                done += count
                if progress is not None:
                    progress(done, total)
            values[level.targets] = values[level.sources]
            done += len(level.targets)
            if progress is not None and len(level.targets):
                progress(done, total)
    return values


# --------------------------------------------------------------------------------------
# The table: one value per turn-start state.
# --------------------------------------------------------------------------------------


def _mask_of(card: Scorecard) -> int:
    mask = 0
    for c, points in enumerate(card.boxes):
        if points is not None:
            mask |= 1 << c
    return mask


def _state_of(card: Scorecard, levels: int) -> tuple[int, int, int]:
    boxes = card.boxes
    mask = 0
    upper = 0
    for c in range(13):
        points = boxes[c]
        if points is not None:
            mask |= 1 << c
            if c < 6:
                upper += points
    return mask, min(upper, levels - 1), 1 if boxes[_YAHTZEE] == 50 else 0


_MODELS: dict[Rules, _Model] = {}
_MODELS_LOCK = threading.Lock()


def _model(rules: Rules) -> _Model:
    with _MODELS_LOCK:
        found = _MODELS.get(rules)
        if found is None:
            found = _MODELS[rules] = _Model(rules)
        return found


class Table:
    """The optimal expected score still to come from the start of every turn, for one rule set.

    Get one with :func:`load_table` (cached) or :func:`build_table`. A table is
    read-only; it remembers the per-turn work that :func:`advise` and
    :func:`best_action` do, so repeated advice on a card is fast.

    A table built with ``start=card`` covers only the cards that extend ``card``
    (the same boxes filled, and more): quick to build for a nearly finished card.

    Args:
        rules: The rule set the values were computed for.
        values: One float per state, as :attr:`values` describes (copied).
        start: The card the values start from (default: the empty card).

    Raises:
        MalformedInputError: For values of the wrong shape or type.

    Attributes:
        rules: The rule set the table was built for.
        start: The card the table starts from (the empty card for a full table).

    Examples:
        >>> from yahtzee_rules import Category, Rules, Scorecard
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.ACES})
        >>> table = build_table(Rules(), start=card)  # only Aces open: instant
        >>> round(table.value(card), 4)  # 5 x (1 - (5/6) ** 3) 1s on average
        2.1065
        >>> table.covers(card), table.covers(Scorecard())
        (True, False)
    """

    __slots__ = ("_levels", "_start_mask", "_states", "_turns", "_values", "rules", "start")

    def __init__(
        self, rules: Rules, values: NDArray[np.float64], start: Scorecard | None = None
    ) -> None:
        self.rules = _check_rules(rules)
        self.start = Scorecard() if start is None else _check_card(start)
        self._start_mask = _mask_of(self.start)
        self._levels = min(rules.upper_bonus_threshold, _UPPER_MAX) + 1
        expected = 8192 * self._levels * 2
        if (
            not isinstance(values, np.ndarray)
            or values.shape != (expected,)
            or values.dtype != np.float64
        ):
            found = getattr(values, "shape", type(values).__name__)
            raise MalformedInputError(
                f"table values of shape {found}: a table for {rules!r} holds "
                f"{expected} float64 values, one per state"
            )
        values = np.array(values, dtype=np.float64)  # a private, read-only copy
        values.setflags(write=False)
        self._values = values
        self._turns: dict[tuple[int | None, ...], _TurnTables] = {}  # by card boxes
        self._states: dict[int, _TurnTables] = {}  # by state index

    def __repr__(self) -> str:
        if self._start_mask:
            return f"<Table rules={self.rules!r} start={self.start!r}>"
        return f"<Table rules={self.rules!r} expected={self.value(self.start):.7f}>"

    @property
    def values(self) -> NDArray[np.float64]:
        """The raw values, a read-only array indexed by ``(mask * levels + upper) * 2 + flag``.

        ``mask`` has bit ``c`` set for each filled box ``c`` (card order); ``upper``
        is the upper subtotal capped at ``levels - 1``, where ``levels`` is
        ``min(threshold, 105) + 1``; ``flag`` is 1 when the Yahtzee box holds 50.
        States the table does not cover hold 0.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> table = build_table(start=Scorecard({c: 0 for c in Category}))
            >>> table.values.shape, float(table.values.max())
            ((1048576,), 0.0)
        """
        return self._values

    def covers(self, card: Scorecard) -> bool:
        """Whether the table has values for ``card``: it extends the table's start card.

        Examples:
            >>> from yahtzee_rules import Scorecard
            >>> build_table(start=Scorecard({c: 0 for c in Category})).covers(Scorecard())
            False
        """
        return _mask_of(_check_card(card)) & self._start_mask == self._start_mask

    def _index(self, card: Scorecard) -> int:
        mask, upper, flag = _state_of(_check_card(card), self._levels)
        if mask & self._start_mask != self._start_mask:
            raise MalformedInputError(
                f"card {card!r}: this table starts from {self.start!r} and covers only "
                f"cards with those boxes filled; build a table from this card or an earlier one"
            )
        return (mask * self._levels + upper) * 2 + flag

    def value(self, card: Scorecard) -> float:
        """The expected points still to come, with optimal play, from the start of a turn.

        Bonuses still to be earned (upper bonus, extra-Yahtzee bonuses) are included;
        points already on ``card`` are not. A complete card has 0 to come.

        Raises:
            MalformedInputError: If ``card`` is not a Scorecard, or not covered.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE})
            >>> round(build_table(start=card).value(card), 4)  # 50 x P(Yahtzee in a turn)
            2.3014
        """
        return float(self._values[self._index(card)])

    def expected_final(self, card: Scorecard) -> float:
        """The expected final grand total: the card's total so far plus :meth:`value`.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> card = Scorecard({**card.to_mapping(), Category.SIXES: 30})
            >>> round(build_table(start=card).expected_final(card), 4)  # 30 + Chance
            53.3333
        """
        from yahtzee_rules.totals import totals

        return totals(_check_card(card), rules=self.rules).grand_total + self.value(card)

    def _turn_tables(self, card: Scorecard) -> _TurnTables:
        found = self._turns.get(card.boxes)
        if found is None:
            index = self._index(card)
            found = self._states.get(index)
            if found is None:
                if len(self._states) >= _TURN_CACHE:  # about 40 kB each
                    self._states.clear()
                found = _TurnTables(self, *_state_of(card, self._levels), index)
                self._states[index] = found
            if len(self._turns) >= 4 * _TURN_CACHE:
                self._turns.clear()
            self._turns[card.boxes] = found
        return found


#: Turn-start states whose per-turn tables a Table keeps (cleared when full).
_TURN_CACHE = 1024


def build_table(
    rules: Rules = _CLASSIC,
    *,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
) -> Table:
    """Compute the optimal strategy's table for ``rules`` (a few seconds; no cache).

    Prefer :func:`load_table`, which caches full tables.

    Args:
        rules: The rule set: any Joker rule, bonus values and threshold.
        start: Compute only the states that extend this card (default: every state).
        progress: Called as ``progress(done, total)`` with the number of states solved
            so far, from ``(0, total)`` to ``(total, total)``.
        threads: Worker threads (default: up to 2, one per CPU).

    Raises:
        MalformedInputError: For a ``rules`` that is not a Rules or ``start`` not a Scorecard.

    Examples:
        >>> from yahtzee_rules import Category, Rules, Scorecard
        >>> card = Scorecard({c: 0 for c in Category.lower()})
        >>> seen = []
        >>> table = build_table(Rules(), start=card, progress=lambda *p: seen.append(p))
        >>> seen[0], seen[-1]
        ((0, 5588), (5588, 5588))
        >>> round(table.value(card), 4)  # the upper boxes alone, bonus included
        71.9515
    """
    rules = _check_rules(rules)
    start_card = Scorecard() if start is None else _check_card(start)
    if threads is None:
        threads = max(1, min(2, os.cpu_count() or 1))
    if type(threads) is not int or threads < 1:
        raise MalformedInputError(f"threads {threads!r}: not a positive int")
    values = _build_values(rules, progress, threads=threads, start=_mask_of(start_card))
    return Table(rules, values, start_card)


# --------------------------------------------------------------------------------------
# The cache: one file per rule set, library version and table format.
# --------------------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where tables are cached: ``$YAHTZEE_RULES_CACHE_DIR``, else the user's cache directory.

    Without ``YAHTZEE_RULES_CACHE_DIR`` this is ``$XDG_CACHE_HOME/yahtzee_rules``, or
    ``~/.cache/yahtzee_rules`` when ``XDG_CACHE_HOME`` is not set.

    Examples:
        >>> import os
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = "/tmp/tables"
        >>> cache_dir()
        PosixPath('/tmp/tables')
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """
    explicit = os.environ.get("YAHTZEE_RULES_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "yahtzee_rules"


_SOURCE_DIGEST: list[str] = []


def _source_digest() -> str:
    """A digest of the code a table depends on, so an edited checkout never reads old tables."""
    if not _SOURCE_DIGEST:
        digest = hashlib.sha256()
        for name in ("solver.py", "scoring.py", "rules.py", "dice.py"):
            try:
                digest.update((Path(__file__).parent / name).read_bytes())
            except OSError:  # pragma: no cover - e.g. running from a zip file
                digest.update(name.encode())
        _SOURCE_DIGEST.append(digest.hexdigest()[:16])
    return _SOURCE_DIGEST[0]


def _cache_key(rules: Rules, start: int) -> str:
    from yahtzee_rules import __version__

    return (
        f"yahtzee_rules {__version__} ({_source_digest()}); table format {TABLE_FORMAT}; "
        f"joker={rules.joker.value}; "
        f"upper_bonus={rules.upper_bonus}; upper_bonus_threshold={rules.upper_bonus_threshold}; "
        f"yahtzee_bonus={rules.yahtzee_bonus}; start={start}"
    )


def cache_path(rules: Rules = _CLASSIC, *, start: Scorecard | None = None) -> Path:
    """The file :func:`load_table` uses for ``rules`` (it may not exist yet).

    The name holds a digest of the rules, the library version (and a digest of the
    solver's and the rules' source files), the table format and the start card's
    filled boxes, so tables for other versions never collide.

    Examples:
        >>> cache_path().name.startswith("optimal-forced-"), cache_path().suffix
        (True, '.npz')
    """
    rules = _check_rules(rules)
    mask = 0 if start is None else _mask_of(_check_card(start))
    digest = hashlib.sha256(_cache_key(rules, mask).encode()).hexdigest()[:20]
    return cache_dir() / f"optimal-{rules.joker.value}-{digest}.npz"


def _read_cached(path: Path, rules: Rules, start: Scorecard) -> Table | None:
    """The table in ``path`` if it is complete, intact and for these rules and version."""
    import zipfile

    try:
        with path.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
            if str(data["key"]) != _cache_key(rules, _mask_of(start)):
                return None
            values = np.array(data["values"])  # zip CRCs are checked on reading
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None  # truncated, damaged or not a table: rebuild
    if values.dtype != np.float64 or not np.isfinite(values).all():
        return None
    try:
        return Table(rules, values, start)
    except MalformedInputError:
        return None


def _write_cached(path: Path, table: Table, rules: Rules) -> None:
    """Write atomically: a temporary file in the same directory, then a rename."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".optimal-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                np.savez(
                    stream,
                    key=np.array(_cache_key(rules, _mask_of(table.start))),
                    values=table.values,
                )
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return  # an unwritable cache directory only costs a rebuild next time


def load_table(
    rules: Rules = _CLASSIC,
    *,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    cache: bool = True,
) -> Table:
    """The table for ``rules`` from the cache, building and caching it when needed.

    The cache file (see :func:`cache_path`) is keyed by the rules, the library
    version and the table format, and checked when read: a file for other rules or
    another version, or one that is truncated or damaged, is never used. The table
    is then rebuilt and the file replaced, written atomically so that a crash never
    leaves half a file behind.

    Args:
        rules: The rule set.
        start: As for :func:`build_table`.
        progress: Passed to :func:`build_table` when a build is needed.
        cache: ``False`` builds without reading or writing the cache.

    Examples:
        >>> import os, tempfile
        >>> from yahtzee_rules import Category, Scorecard
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = tempfile.mkdtemp()
        >>> card = Scorecard({c: 0 for c in Category.upper()})
        >>> table = load_table(start=card)  # built and saved
        >>> cache_path(start=card).exists()
        True
        >>> load_table(start=card).value(card) == table.value(card)  # read back
        True
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """
    rules = _check_rules(rules)
    start_card = Scorecard() if start is None else _check_card(start)
    if not cache:
        return build_table(rules, start=start_card, progress=progress)
    path = cache_path(rules, start=start_card)
    found = _read_cached(path, rules, start_card)
    if found is not None:
        return found
    table = build_table(rules, start=start_card, progress=progress)
    _write_cached(path, table, rules)
    return table


# --------------------------------------------------------------------------------------
# Advice: the value of every option in a turn.
# --------------------------------------------------------------------------------------


class _TurnTables:
    """Everything about one turn-start state: fills, keeps and best actions for every roll."""

    __slots__ = ("actions", "fills", "keeps", "start")

    def __init__(self, table: Table, mask: int, u: int, y: int, index: int) -> None:
        g = _geometry()
        model = _model(table.rules)
        values = table._values
        self.start = float(values[index])
        # points each roll may write in each box: -1 where the rules do not allow it
        points = np.where((mask & _BITS) != 0, -1, g.scores)
        points[:6] = model.joker[:, :, mask]
        after = mask | _BITS
        fills = np.empty((252, 13))
        u2, bonus = model.upper_step(np.array(u, dtype=np.intp), points[:, :6])
        fills[:, :6] = values[_flat(model, after[:6], u2, y)] + bonus
        flag = np.where(np.arange(6, 13) == _YAHTZEE, points[:, 6:] > 0, y)
        fills[:, 6:] = values[_flat(model, after[6:], u, flag)]
        fills += points
        fills[:6] += model.bonus_due[:, y, None]
        fills[points < 0] = _NEG
        self.fills = fills  # (internal roll, box)
        space = _Workspace(1)
        last = np.empty((462, 1))
        last[g.five :, 0] = fills.max(axis=1)
        _keep_values(last, space)
        first = np.empty((462, 1))
        first[g.five :] = _best_over_subkeeps(last.copy(), space)
        _keep_values(first, space)
        self.keeps = (last[:, 0], first[:, 0])  # by rerolls: one left, two left
        best_box = fills.argmax(axis=1)
        boxes = [_CATEGORIES[int(best_box[g.dice_pos[i]])] for i in range(252)]
        actions: list[tuple[Keep | Box, ...]] = [tuple(boxes)]
        for keep_values in self.keeps:
            chosen = g.subkeeps[np.arange(252), keep_values[g.subkeeps].argmax(axis=1)]
            row: list[Keep | Box] = []
            for i in range(252):
                position = int(chosen[g.dice_pos[i]])
                row.append(boxes[i] if position >= g.five else g.keeps[position])
            actions.append(tuple(row))
        self.actions = tuple(actions)


@attrs.frozen
class Option:
    """One thing a player may do now, and the expected final score if they do it.

    Attributes:
        action: A :class:`~yahtzee_rules.Keep` to hold before rerolling (an empty keep
            rerolls all five), or a :class:`~yahtzee_rules.Category` to fill.
        expected: The expected final grand total (points on the card, bonuses
            included) after this action, with optimal play from then on.

    Examples:
        >>> from yahtzee_rules import Category
        >>> option = Option(Category.CHANCE, 212.5)
        >>> option.is_fill, option.is_keep
        (True, False)
    """

    action: Keep | Box
    expected: float

    @property
    def is_fill(self) -> bool:
        """Whether the option fills a box (ending the turn).

        Examples:
            >>> Option(Keep("66"), 20.0).is_fill
            False
        """
        return isinstance(self.action, Category)

    @property
    def is_keep(self) -> bool:
        """Whether the option holds dice and rolls again.

        Examples:
            >>> Option(Keep("66"), 20.0).is_keep
            True
        """
        return isinstance(self.action, Keep)


@attrs.frozen
class Advice:
    """Every option for a turn with its expected final score, best first.

    Attributes:
        turn: The turn advised on.
        options: Each distinct keep (while rolls remain) and each legal box, sorted by
            expected final grand total, best first. On a tie a fill comes before a keep
            and a smaller keep before a larger one. Before the first roll the only
            option is to roll all five dice (an empty keep).

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE})
        >>> advice = advise(Turn(card).roll(outcome="66666"), build_table(start=card))
        >>> advice.best
        Option(action=<Category.YAHTZEE: 11>, expected=50.0)
        >>> len(advice.options)  # 6 keeps of 66666, and the Yahtzee box
        7
    """

    turn: Turn
    options: tuple[Option, ...]

    @property
    def best(self) -> Option:
        """The option with the highest expected final score.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> advise(Turn(card), build_table(start=card)).best.action
            Keep('')
        """
        return self.options[0]

    @property
    def expected(self) -> float:
        """The expected final grand total with optimal play from here.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> round(advise(Turn(card), build_table(start=card)).expected, 4)
            23.3333
        """
        return self.options[0].expected

    def expected_of(self, action: Keep | Box) -> float:
        """The expected final grand total after ``action``.

        Raises:
            IllegalActionError: If ``action`` is not one of the options now.

        Examples:
            >>> from yahtzee_rules import Category, Keep, Scorecard, Turn
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> advice = advise(Turn(card).roll(outcome="12366"), build_table(start=card))
            >>> round(advice.expected_of(Keep("66")), 4), advice.expected_of(Category.CHANCE)
            (24.75, 18.0)
        """
        for option in self.options:
            if option.action == action:
                return option.expected
        from yahtzee_rules.errors import IllegalActionError

        raise IllegalActionError(
            f"action {action!r}: not an option now; the options are "
            f"{', '.join(repr(o.action) for o in self.options)}"
        )


def _check_pair(turn: object, table: object) -> tuple[Turn, Table]:
    if not isinstance(turn, Turn):
        raise MalformedInputError(f"turn {turn!r}: not a Turn; advice is given on a Turn")
    if not isinstance(table, Table):
        raise MalformedInputError(f"table {table!r}: not a Table; get one with load_table(rules)")
    if turn.rules is not table.rules and turn.rules != table.rules:
        raise MalformedInputError(
            f"table for {table.rules!r}: the turn plays {turn.rules!r}; "
            f"use a table built for the turn's rules"
        )
    return turn, table


def advise(turn: Turn, table: Table) -> Advice:
    """The expected final score of every option in ``turn``, under optimal play afterwards.

    Args:
        turn: The turn: card, dice and rolls left.
        table: A table for the turn's rules that covers its card.

    Raises:
        MalformedInputError: For a table built for other rules or not covering the card.

    Examples:
        >>> from yahtzee_rules import Category, Keep, Scorecard, Turn
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
        >>> advice = advise(Turn(card).roll(outcome="66612"), build_table(start=card))
        >>> [(str(o.action), round(o.expected, 2)) for o in advice.options[:3]]
        [('666', 45.0), ('1666', 44.17), ('2666', 44.17)]
    """
    turn, table = _check_pair(turn, table)
    tables = table._turn_tables(turn.card)
    from yahtzee_rules.totals import totals

    base = totals(turn.card, rules=turn.rules).grand_total
    dice = turn.dice
    if dice is None:
        return Advice(turn, (Option(Keep(), base + tables.start),))
    g = _geometry()
    position = int(g.dice_pos[dice._index])
    ranked: list[tuple[float, int, int, Option]] = []
    for category in _legal(turn.card.boxes, dice, turn.rules):
        expected = base + float(tables.fills[position, category])
        ranked.append((-expected, 0, int(category), Option(category, expected)))
    rerolls = turn.rolls_left
    if rerolls:
        keep_values = tables.keeps[rerolls - 1]
        for keep in dice.keeps():
            expected = base + float(keep_values[g.keep_pos[keep._index]])
            ranked.append((-expected, 1, keep._index, Option(keep, expected)))
    ranked.sort(key=lambda item: item[:3])
    return Advice(turn, tuple(item[3] for item in ranked))


def best_action(turn: Turn, table: Table) -> Keep | Box:
    """The optimal action in ``turn``: a keep to hold before rerolling, or the box to fill.

    This is :func:`advise`'s best option without the others, answered from a per-turn
    lookup (a few microseconds once the card has been seen). When holding all five
    dice is best the answer is the box to fill now, which is worth the same.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE})
        >>> table = build_table(start=card)
        >>> best_action(Turn(card).roll(outcome="55523"), table)
        Keep('555')
        >>> best_action(Turn(card).roll(outcome="55555"), table)
        <Category.YAHTZEE: 11>
    """
    if turn.__class__ is not Turn or table.__class__ is not Table:
        turn, table = _check_pair(turn, table)
    elif turn.rules is not table.rules and turn.rules != table.rules:
        _check_pair(turn, table)
    dice = turn.dice
    tables = table._turns.get(turn.card.boxes) or table._turn_tables(turn.card)
    if dice is None:
        return _ALL_KEEPS[0]
    return tables.actions[3 - turn.rolls_used][dice._index]


def best_box(turn: Turn, table: Table) -> Box:
    """The box to fill now that maximises the expected final score (rolls left or not).

    Raises:
        IllegalActionError: Before the first roll.
        MalformedInputError: For a table built for other rules or not covering the card.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.ACES, Category.CHANCE)})
        >>> table = build_table(start=card)
        >>> best_box(Turn(card).roll(outcome="11166"), table)  # 3 now, Chance later
        <Category.ACES: 0>
        >>> best_box(Turn(card).roll(outcome="66655"), table)
        <Category.CHANCE: 12>
    """
    turn, table = _check_pair(turn, table)
    dice = turn.dice
    if dice is None:
        from yahtzee_rules.errors import IllegalActionError

        raise IllegalActionError("best box: no dice yet; roll at least once before filling a box")
    action = table._turn_tables(turn.card).actions[0][dice._index]
    assert isinstance(action, Category)
    return action


# --------------------------------------------------------------------------------------
# Batched simulation of optimal solitaire play.
# --------------------------------------------------------------------------------------


def _roll_from(
    keep: NDArray[np.intp], faces: NDArray[np.intp], children: NDArray[np.intp]
) -> NDArray[np.intp]:
    """Throw the dice not held: add one face per missing die, keep indices to a roll index."""
    g = _geometry()
    for j in range(5):
        short = keep < g.five
        keep = np.where(short, children[np.minimum(keep, g.five - 1), faces[:, j]], keep)
    return keep - g.five


def _play_turn(
    model: _Model,
    values: NDArray[np.float64],
    state: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]],
    columns: NDArray[np.intp],
    keeps: tuple[NDArray[np.float64], NDArray[np.float64]],
    faces: NDArray[np.intp],
    children: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """One optimal turn for many games: returns the new states and the points scored."""
    g = _geometry()
    m, u, y = state
    roll = _roll_from(np.zeros(len(m), dtype=np.intp), faces[:, 0], children)
    for step, keep_values in enumerate((keeps[1], keeps[0])):
        options = g.subkeeps[roll]  # (games, 32)
        choice = keep_values[options, columns[:, None]].argmax(axis=1)
        held = options[np.arange(len(m)), choice]
        roll = _roll_from(held, faces[:, step + 1], children)
    # the best box for the final roll
    n = len(m)
    closed = (m[:, None] & _BITS) != 0
    points = np.where(closed, -1, g.scores[roll])
    five = roll < 6
    if five.any():
        points[five] = model.joker[roll[five], :, m[five]]
    after = m[:, None] | _BITS
    fills = np.empty((n, 13))
    u2, bonus = model.upper_step(u[:, None], points[:, :6])
    fills[:, :6] = values[_flat(model, after[:, :6], u2, y[:, None])] + bonus
    flag = np.where(np.arange(6, 13) == _YAHTZEE, points[:, 6:] > 0, y[:, None])
    fills[:, 6:] = values[_flat(model, after[:, 6:], u[:, None], flag)]
    fills += points
    fills[points < 0] = _NEG
    box = fills.argmax(axis=1)
    rows = np.arange(n)
    written = points[rows, box]
    upper_box = box < 6
    u_new = np.where(upper_box, u2[rows, np.minimum(box, 5)], u)
    gained = written + np.where(upper_box, bonus[rows, np.minimum(box, 5)], 0.0)
    gained = gained + np.where(five, model.bonus_due[np.minimum(roll, 5), y], 0.0)
    y_new = np.where((box == _YAHTZEE) & (written > 0), 1, y)
    return m | (1 << box), u_new, y_new, gained


def simulate_optimal(
    table: Table,
    *,
    games: int = 100_000,
    seed: int = 0,
    start: Scorecard | None = None,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``games`` solitaire games with the optimal strategy, many at a time (NumPy).

    All games take their turns together. In each turn the games are grouped by
    state, every distinct state's keep values are computed once, and each game then
    rolls, keeps and fills with array operations. The dice come from a NumPy
    generator seeded with ``seed``, so a run repeats exactly (but differs from
    :func:`~yahtzee_rules.simulate`'s dice for the same seed).

    Args:
        table: A table for the rules to play; it must cover ``start``.
        games: How many games to play.
        seed: Seeds ``numpy.random.default_rng``.
        start: The card every game starts from (default: the table's start, the empty
            card for a full table). Its points count in the final scores.
        progress: Called as ``progress(turns_done, turns)`` after each round of turns.

    Raises:
        MalformedInputError: For a card the table does not cover, or a negative number
            of games.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
        >>> table = build_table(start=card)
        >>> result = simulate_optimal(table, games=20_000, seed=7)
        >>> round(table.value(card), 2), round(result.mean, 2), round(result.stderr, 2)
        (37.34, 37.34, 0.05)
        >>> result.histogram[:2]
        ((11, 1), (13, 2))
    """
    from yahtzee_rules.simulation import SimulationResult
    from yahtzee_rules.totals import totals

    if not isinstance(table, Table):
        raise MalformedInputError(f"table {table!r}: not a Table; get one with load_table()")
    first_card = table.start if start is None else _check_card(start)
    base = _state_of(first_card, table._levels)
    table._index(first_card)  # raises unless the table covers the card
    if type(games) is not int or games < 0:
        raise MalformedInputError(f"games {games!r}: not a non-negative int")
    g = _geometry()
    model = _model(table.rules)
    values = table._values
    children = np.concatenate(g.children)  # (210, 6): keep index -> one die more
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    m = np.full(games, base[0], dtype=np.intp)
    u = np.full(games, base[1], dtype=np.intp)
    y = np.full(games, base[2], dtype=np.intp)
    score = np.full(games, float(totals(first_card, rules=table.rules).grand_total))
    turns = 13 - base[0].bit_count()
    for turn in range(turns):
        key = _flat(model, m, u, y)
        unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(len(unique) + 1))
        new_m, new_u, new_y = m.copy(), u.copy(), y.copy()
        faces = rng.integers(0, 6, size=(games, 3, 5))
        for lo in range(0, len(unique), _CHUNK):
            hi = min(lo + _CHUNK, len(unique))
            states = first[lo:hi]
            sm, su, sy = m[states], u[states], y[states]
            space = _workspace(hi - lo)
            last, first_keeps = space.keeps(0, hi - lo), space.keeps(1, hi - lo)
            _final_values(model, values, sm, su, sy, out=last[g.five :])
            _keep_values(last, space)
            last_copy = last.copy()
            first_keeps[g.five :] = _best_over_subkeeps(last, space)
            _keep_values(first_keeps, space)
            members = order[bounds[lo] : bounds[hi]]
            played = _play_turn(
                model,
                values,
                (m[members], u[members], y[members]),
                inverse[members] - lo,
                (last_copy, first_keeps),
                faces[members],
                children,
            )
            new_m[members], new_u[members], new_y[members] = played[:3]
            score[members] += played[3]
        m, u, y = new_m, new_u, new_y
        if progress is not None:
            progress(turn + 1, turns)
    seconds = time.perf_counter() - started
    finals = np.rint(score).astype(np.int64)
    return SimulationResult.from_scores(finals.tolist(), players=1, seconds=seconds)
