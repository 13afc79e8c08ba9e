"""The table build's vector steps give the same floats however many states go at once.

Wide batches (the build's 512 states) gather and reduce the large steps slot by slot;
narrow ones gather every slot at once. Both must give the same values, bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from yahtzee_rules import Rules

np = pytest.importorskip("numpy")
pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.solver import _internal  # noqa: E402

WIDE = 512
NARROW = 8
RULES = [Rules(), Rules.from_name("free-choice"), Rules.from_name("yatzy")]


def in_narrow_batches(solve: Callable[[int, int], Any], count: int) -> Any:
    """``solve(lo, hi)`` for consecutive batches of NARROW states, joined along the states."""
    parts = [solve(lo, min(lo + NARROW, count)) for lo in range(0, count, NARROW)]
    return np.concatenate(parts, axis=-1)


def test_the_wide_steps_are_those_the_narrow_ones_take_apart() -> None:
    """Each step's choice of route depends on the width (else this test is moot)."""
    card = _internal.model_of(Rules()).card
    big = max(slots.size for *_, slots in card.plain_slots)
    assert big * NARROW <= _internal.GATHER < big * WIDE


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("yahtzee_filled", [False, True])
def test_best_fills_agree_wide_and_narrow(rules: Rules, yahtzee_filled: bool) -> None:
    model = _internal.model_of(rules)
    rng = np.random.default_rng(12)
    values = rng.random(model.states_count) * 300
    states = model.states(6)
    filled = (states.masks & model.card.yahtzee_bit) != 0
    pick = np.flatnonzero(filled == yahtzee_filled)[:WIDE]
    assert len(pick) == WIDE
    m, u, y = states.masks[pick], states.uppers[pick], states.flags[pick]
    wide = _internal.final_values(model, values, m, u, y)
    narrow = in_narrow_batches(
        lambda lo, hi: _internal.final_values(model, values, m[lo:hi], u[lo:hi], y[lo:hi]),
        WIDE,
    )
    assert np.array_equal(wide, narrow)


def test_keep_and_sub_keep_passes_agree_wide_and_narrow() -> None:
    rng = np.random.default_rng(7)
    start = rng.random((462, WIDE)) * 300
    space = _internal.Workspace(WIDE)
    wide = space.keeps(0, WIDE)
    wide[:] = start
    _internal.best_over_subkeeps(_internal.average_keeps(wide, space), space)

    def narrow(lo: int, hi: int) -> Any:
        keep = start[:, lo:hi].copy()
        _internal.average_keeps(keep, space)
        _internal.best_over_subkeeps(keep, space)
        return keep

    assert np.array_equal(wide, in_narrow_batches(narrow, WIDE))
