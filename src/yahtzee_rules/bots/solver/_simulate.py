"""Batched simulation of optimal solitaire play."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs
import numpy as np

from yahtzee_rules.bots.solver._build import Progress
from yahtzee_rules.bots.solver._choice import first_box, keeps_of_games
from yahtzee_rules.bots.solver._geometry import CHUNK, dice_geometry
from yahtzee_rules.bots.solver._kernels import (
    average_keeps,
    best_over_subkeeps,
    fill_values,
    final_values,
    workspace_for,
)
from yahtzee_rules.bots.solver._model import Model, flat_index, model_of, state_of
from yahtzee_rules.bots.solver._table import Table
from yahtzee_rules.play._filling import check_card
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.totals import totals
from yahtzee_rules.support._chunks import Executor, check_executor, in_order, spans
from yahtzee_rules.support.errors import MalformedInputError
from yahtzee_rules.support.results import SimulationResult

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Games per chunk: fixed (never from the executor), and at least 20,000 so that runs of
#: up to that many games play exactly as before they were split into chunks.
_GAMES_PER_CHUNK = 50_000


def _roll_from(
    keep: NDArray[np.intp], faces: NDArray[np.intp], children: NDArray[np.intp]
) -> NDArray[np.intp]:
    """Throw the dice not held: add one face per missing die, keep indices to a roll index."""
    g = dice_geometry()
    for j in range(5):
        short = keep < g.five
        keep = np.where(short, children[np.minimum(keep, g.five - 1), faces[:, j]], keep)
    return keep - g.five


def _play_turn(
    model: Model,
    values: NDArray[np.float64],
    state: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]],
    columns: NDArray[np.intp],
    keeps: tuple[NDArray[np.float64], NDArray[np.float64]],
    faces: NDArray[np.intp],
    children: NDArray[np.intp],
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """One optimal turn for many games: returns the new states and the points scored."""
    m, u, y = state
    roll = _roll_from(np.zeros(len(m), dtype=np.intp), faces[:, 0], children)
    for step, keep_values in enumerate((keeps[1], keeps[0])):
        held = keeps_of_games(keep_values, roll, columns)
        roll = _roll_from(held, faces[:, step + 1], children)
    # the best box for the final roll
    card = model.card
    n = len(m)
    closed = (model.open_bits(m)[:, None] & card.bits) == 0
    points = np.where(closed, -1, card.scores[roll])
    five = roll < 6
    if five.any():
        points[five] = model.joker[roll[five], :, m[five]]
    fills, u2, bonus = fill_values(model, values, m, u, y, points)
    box = first_box(fills, axis=1)
    rows = np.arange(n)
    written = points[rows, box]
    position = card.upper_pos[box]  # among the upper boxes, or -1
    upper_box = position >= 0
    at = np.maximum(position, 0)
    u_new = np.where(upper_box, u2[rows, at], u)
    gained = written + np.where(upper_box, bonus[rows, at], 0.0)
    gained = gained + np.where(five, model.bonus_due[np.minimum(roll, 5), y], 0.0)
    y_new = np.where((box == card.yahtzee) & (written == 50), 1, y) if model.flags == 2 else y
    return m | (1 << box), u_new, y_new, gained


def _chunk_generator(seed: int, index: int) -> np.random.Generator:
    """Chunk 0 rolls with ``default_rng(seed)``; chunk ``i`` with the seed sequence spawned as ``i``."""
    if index == 0:
        return np.random.default_rng(seed)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def _play_games(
    table: Table,
    first_card: Scorecard,
    games: int,
    rng: np.random.Generator,
    progress: Callable[[int], None] | None = None,
) -> NDArray[np.int64]:
    """Play ``games`` optimal games from ``first_card`` together; their final totals."""
    model = model_of(table.rules)
    base = state_of(first_card, model)
    g = dice_geometry()
    values = table._values
    children = np.concatenate(g.children)  # (210, 6): keep index -> one die more
    m = np.full(games, base[0], dtype=np.intp)
    u = np.full(games, base[1], dtype=np.intp)
    y = np.full(games, base[2], dtype=np.intp)
    score = np.full(games, float(totals(first_card, rules=table.rules).grand_total))
    turns = model.card.n - base[0].bit_count()
    for turn in range(turns):
        key = flat_index(model, m, u, y)
        unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(len(unique) + 1))
        new_m, new_u, new_y = m.copy(), u.copy(), y.copy()
        faces = rng.integers(0, 6, size=(games, 3, 5))
        for lo in range(0, len(unique), CHUNK):
            hi = min(lo + CHUNK, len(unique))
            states = first[lo:hi]
            sm, su, sy = m[states], u[states], y[states]
            space = workspace_for(hi - lo)
            last, first_keeps = space.keeps(0, hi - lo), space.keeps(1, hi - lo)
            final_values(model, values, sm, su, sy, out=last[g.five :])
            average_keeps(last, space)
            last_copy = last.copy()
            first_keeps[g.five :] = best_over_subkeeps(last, space)
            average_keeps(first_keeps, space)
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
            progress(turn + 1)
    finals: NDArray[np.int64] = np.rint(score).astype(np.int64)
    return finals


@attrs.frozen
class _Ticks:
    """A chunk's turns done, reported to ``progress`` as steps of the whole run."""

    progress: Progress
    before: int
    steps: int

    def __call__(self, turn: int) -> None:
        self.progress(self.before + turn, self.steps)


def _optimal_chunk(
    table: Table, first_card: Scorecard, games: int, seed: int, index: int
) -> NDArray[np.int64]:
    """Chunk ``index`` of a run (at module level, so executors can pickle it)."""
    return _play_games(table, first_card, games, _chunk_generator(seed, index))


def simulate_optimal(
    table: Table,
    *,
    games: int = 100_000,
    seed: int = 0,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> SimulationResult:
    """Play ``games`` solitaire games with the optimal strategy, many at a time (NumPy).

    All games of a chunk (up to 50,000) take their turns together. In each turn the
    games are grouped by state, every distinct state's keep values are computed once,
    and each game then rolls, keeps and fills with array operations. The dice of chunk
    ``i`` come from a NumPy generator seeded from ``(seed, i)`` (the first chunk's
    from ``default_rng(seed)``), so a run repeats exactly (but differs from
    :func:`~yahtzee_rules.simulate`'s dice for the same seed), and the chunks may run
    on ``executor`` with the same scores, bit for bit, for any number of workers.
    Memory stays flat in the number of games beyond one chunk's work (the result
    keeps one 8-byte reference per score).

    Args:
        table: A table for the rules to play; it must cover ``start``.
        games: How many games to play.
        seed: Seeds the NumPy generators (a non-negative int).
        start: The card every game starts from (default: the table's start, the empty
            card for a full table). Its points count in the final scores.
        progress: Called as ``progress(done, total)`` after each round of turns of a
            chunk (after each chunk on an executor); ``total`` is the turns to play
            times the number of chunks.
        executor: Where to run the chunks: ``None`` (here), or anything whose
            ``submit(fn, *args)`` returns a future (``concurrent.futures``' process
            pool, loky, a Dask client's ``get_executor()``). The table goes with each
            chunk: a table from the cache as a reference to its file, which each
            worker maps once (see
            :class:`~yahtzee_rules.bots.solver.TableFileError`), any other by value.

    Raises:
        MalformedInputError: For a card the table does not cover, a negative number
            of games, or an executor without ``submit``.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> from yahtzee_rules.bots.solver import build_table
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
        >>> table = build_table(start=card)
        >>> result = simulate_optimal(table, games=20_000, seed=7)
        >>> round(table.value(card), 2), round(result.mean, 2), round(result.stderr, 2)
        (37.34, 37.34, 0.05)
        >>> result.histogram[:2]
        ((11, 1), (13, 2))
    """
    if not isinstance(table, Table):
        raise MalformedInputError(f"table {table!r}: not a Table; get one with load_table()")
    first_card = table.start if start is None else check_card(start)
    table._index(first_card)  # raises unless the table covers the card
    if type(games) is not int or games < 0:
        raise MalformedInputError(f"games {games!r}: not a non-negative int")
    pool = check_executor(executor)
    model = model_of(table.rules)
    turns = model.card.n - state_of(first_card, model)[0].bit_count()
    chunks = spans(games, _GAMES_PER_CHUNK)
    steps = turns * len(chunks)
    scores: list[int] = []
    same: dict[int, int] = {}  # one int object per distinct total: 8 bytes a game
    started = time.perf_counter()
    if pool is None:
        for index, count in chunks:
            tick = None if progress is None else _Ticks(progress, turns * index, steps)
            part = _play_games(table, first_card, count, _chunk_generator(seed, index), tick)
            scores.extend(same.setdefault(total, total) for total in part.tolist())
    else:
        tasks = ((table, first_card, count, seed, index) for index, count in chunks)
        for number, part in enumerate(in_order(_optimal_chunk, tasks, pool)):
            scores.extend(same.setdefault(total, total) for total in part.tolist())
            if progress is not None:
                progress(turns * (number + 1), steps)
    seconds = time.perf_counter() - started
    return SimulationResult.from_scores(scores, players=1, seconds=seconds)
