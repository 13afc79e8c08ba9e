"""Backward induction: the value of every turn-start state, from the last turn back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.bots.solver._compiled import kernel
from yahtzee_rules.bots.solver._entries import turn_model_of
from yahtzee_rules.bots.solver._geometry import (
    CHUNK,
    Geometry,
    dice_geometry,
    geometry_for_kernels,
    install_geometry,
)
from yahtzee_rules.bots.solver._kernels import (
    average_keeps,
    best_over_subkeeps,
    expected_over_rolls,
    final_values,
    workspace_for,
)
from yahtzee_rules.bots.solver._model import Model, flat_index, layout_of, model_of
from yahtzee_rules.bots.solver._workers import Crew, helpers_for

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.core.rules import Rules

#: A level's states: masks, capped upper subtotals and flags, in any integer type.
States = tuple["NDArray[Any]", "NDArray[Any]", "NDArray[Any]"]

#: Called as ``progress(done, total)`` while work proceeds.
Progress = Callable[[int, int], None]


def _solve_chunk(
    model: Model,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> NDArray[np.float64]:
    """The value of each state: three rolls with the best keeps, then the best fill.

    With the compiled kernel, the same floats as the vector kernels below (a test
    compares whole tables): for several states it also takes the expectation over the
    first roll, adding roll by roll as :func:`expected_over_rolls` does for them; for
    one state it gives each roll's best value, and the expectation is that call's.
    """
    g = dice_geometry()
    compiled = kernel()
    if compiled is not None and values.flags.c_contiguous and values.dtype == np.float64:
        tm = turn_model_of(model)
        one = tm.one_state()
        several = len(m) > 1
        out = np.empty(len(m) if several else (252, 1))
        compiled.solve(
            values,
            np.ascontiguousarray(m, dtype=np.int64),
            np.ascontiguousarray(u, dtype=np.int64),
            np.ascontiguousarray(y, dtype=np.int64),
            one.index,
            one.stride,
            one.bonus_rows,
            tm.float_points,
            tm.bits,
            one.open,
            one.bases,
            one.base_of,
            tm.fill_plan,
            tm.joker,
            tm.flat_lookup,
            tm.due_rows,
            g.probability if several else None,
            out,
        )
        return out if several else expected_over_rolls(g.probability, out)
    size = len(m)
    space = workspace_for(size)
    keep = space.keeps(0, size)  # one table, in place: rolls left 0, then 1, then 2
    final_values(model, values, m, u, y, out=keep[g.five :])
    best_over_subkeeps(average_keeps(keep, space), space)
    rolls = best_over_subkeeps(average_keeps(keep, space), space)
    return expected_over_rolls(g.probability, rolls)


class BuildPlan:
    """The states each level of one build solves, in chunks (pickled for helpers).

    ``levels`` runs from complete cards (0) back to the start card's level. A helper
    gets the model and each level's states to solve; the copies that complete a
    level (``levels``) are this process's work.
    """

    def __init__(self, model: Model, start: int) -> None:
        self.model = model
        boxes = model.card.n
        self.levels = [
            model.states(level, start) for level in range(boxes, start.bit_count() - 1, -1)
        ]
        # each level's masks, capped upper subtotals and flags (any integer type)
        self.solving: list[States] = [
            (level.masks, level.uppers, level.flags) for level in self.levels
        ]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # the states in the narrowest integers that hold them: an eighth of the bytes
        solving = [(_narrow(m), _narrow(u), _narrow(y)) for m, u, y in self.solving]
        return (_helper_plan, (self.model.for_kernels(), geometry_for_kernels(), solving))

    def chunks(self, level: int) -> int:
        """How many chunks level ``level`` solves."""
        return -(-len(self.solving[level][0]) // CHUNK)

    def solver(self, values: NDArray[np.float64], level: int) -> Callable[[int], int]:
        """The function that solves a chunk of level ``level`` into ``values``."""
        model = self.model
        masks, uppers, flags = (a.astype(np.intp, copy=False) for a in self.solving[level])
        flat = flat_index(model, masks, uppers, flags)

        def solve(chunk: int) -> int:
            part = slice(chunk * CHUNK, (chunk + 1) * CHUNK)
            m, u, y = masks[part], uppers[part], flags[part]
            values[flat[part]] = _solve_chunk(model, values, m, u, y)
            return len(m)

        return solve


def _narrow(states: NDArray[np.intp]) -> NDArray[np.unsignedinteger[Any]]:
    """``states`` (non-negative) in the narrowest unsigned integer type that holds them."""
    return states.astype(np.min_scalar_type(int(states.max(initial=0))))


def _helper_plan(model: Model, geometry: Geometry, solving: list[States]) -> BuildPlan:
    """A helper's plan, from what :meth:`BuildPlan.__reduce__` pickled (no ``levels``)."""
    install_geometry(geometry)
    plan = BuildPlan.__new__(BuildPlan)
    plan.model = model
    plan.solving = solving
    return plan


def _reporting(
    solve: Callable[[int], int], progress: Progress, done: int, most: int, total: int
) -> Callable[[int], None]:
    """``solve``, then ``progress`` with the states solved so far (here; at most ``most``)."""

    def report(chunk: int) -> None:
        nonlocal done
        done = min(done + solve(chunk), most)
        progress(done, total)

    return report


def build_values(
    rules: Rules, progress: Progress | None = None, *, workers: int = 2, start: int = 0
) -> NDArray[np.float64]:
    """One value per state (0 for states not covered), solved from complete cards back.

    With ``workers`` above 1, a large build shares its levels with helper processes
    (see _workers).
    """
    layout = layout_of(rules)
    size = (1 << (layout.card.n - start.bit_count())) * layout.levels * layout.flags
    with Crew(helpers_for(workers, size), layout.states_count) as crew:
        plan = BuildPlan(model_of(rules), start)
        crew.prepare(plan)
        values = crew.values

        def copy_equal_states(index: int) -> None:
            level = plan.levels[index]
            values[level.targets] = values[level.sources]

        run_levels(
            crew,
            [level.size for level in plan.levels],
            plan.chunks,
            lambda index: plan.solver(values, index),
            progress,
            after=copy_equal_states,
        )
    return values


def run_levels(
    crew: Crew,
    sizes: list[int],
    chunks: Callable[[int], int],
    solver: Callable[[int], Callable[[int], int]],
    progress: Progress | None,
    after: Callable[[int], None] | None = None,
) -> None:
    """Solve levels 1 on through ``crew`` (level 0, the complete cards, needs no work).

    ``sizes`` are the levels' states (copies included), ``chunks(index)`` a level's
    chunks and ``solver(index)`` the function that solves one; ``after(index)`` runs
    once a level is solved. ``progress`` hears the states done, from ``(0, total)``.
    """
    total = sum(sizes)
    done = sizes[0]
    if progress is not None:
        progress(0, total)
        progress(done, total)
    for index in range(1, len(sizes)):
        solve = solver(index)
        before, done = done, done + sizes[index]
        if progress is not None:
            crew.level(index, chunks(index), _reporting(solve, progress, before, done, total))
        else:
            crew.level(index, chunks(index), solve)
        if after is not None:
            after(index)
        if progress is not None:
            progress(done, total)
