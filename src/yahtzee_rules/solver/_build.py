"""Backward induction: the value of every turn-start state, from the last turn back."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.rules import Rules
from yahtzee_rules.solver._geometry import _CHUNK, _geometry
from yahtzee_rules.solver._kernels import (
    _best_over_subkeeps,
    _final_values,
    _keep_values,
    _workspace,
)
from yahtzee_rules.solver._model import _flat, _Model, _model

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Called as ``progress(done, total)`` while work proceeds.
Progress = Callable[[int, int], None]


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
    keep = space.keeps(0, size)  # one table, in place: rolls left 0, then 1, then 2
    _final_values(model, values, m, u, y, out=keep[g.five :])
    _best_over_subkeeps(_keep_values(keep, space), space)
    rolls = _best_over_subkeeps(_keep_values(keep, space), space)
    result: NDArray[np.float64] = g.probability @ rolls
    return result


def _build_values(
    rules: Rules, progress: Progress | None = None, *, threads: int = 2, start: int = 0
) -> NDArray[np.float64]:
    """One value per state (0 for states not covered), solved from complete cards back."""
    model = _model(rules)
    values = np.zeros(model.states_count)
    boxes = model.card.n
    levels = [model.states(level, start) for level in range(boxes, start.bit_count() - 1, -1)]
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
