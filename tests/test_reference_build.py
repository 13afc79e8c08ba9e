"""The plain C reference of the table build (``benchmarks/c/reference_build.c``) agrees
with the library value for value, bit for bit, on builds from late cards.

``benchmarks/bench_build.py`` sets the reference's CPU time beside the library's and
compares the full Classic tables; these builds are small (a few thousand states) and
cover what the full one does: the upper bonus, subtotals too low for it (copied), the
Yahtzee box taking 50, the forced Joker on every route with the extra-Yahtzee bonus,
and a level of one state (which NumPy sums in another order).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from yahtzee_rules import Category, Scorecard
from yahtzee_rules.bots.solver import build_table

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_reference", BENCHMARKS / "_reference.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("_reference", module)
    spec.loader.exec_module(module)
    return module


reference = _load()


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if reference.find_compiler() is None:
        pytest.skip("no C compiler on the PATH to compile the C reference with")
    found, why = reference.compile_reference(tmp_path_factory.mktemp("reference"))
    assert isinstance(found, Path), why  # a compiler that fails on it is a failure
    return found


UPPER = (Category.ACES, Category.TWOS, Category.THREES, Category.FOURS)
ZEROS = (
    Category.THREE_OF_A_KIND,
    Category.FOUR_OF_A_KIND,
    Category.SMALL_STRAIGHT,
    Category.LARGE_STRAIGHT,
)

CARDS = {
    # Yahtzee box and upper boxes open, upper subtotal 0: the start level is one state
    "one-state level": Scorecard(
        {c: 0 for c in Category.lower() if c is not Category.YAHTZEE} | {Category.CHANCE: 5}
    ),
    # 50 in the Yahtzee box, 30 in the upper boxes: the Joker's routes, bonus in reach
    "joker and bonus": Scorecard(
        {c: 3 * (c + 1) for c in UPPER} | {Category.YAHTZEE: 50} | dict.fromkeys(ZEROS, 0)
    ),
}


@pytest.mark.parametrize("name", list(CARDS))
def test_reference_values_equal_the_library(program: Path, tmp_path: Path, name: str) -> None:
    card = CARDS[name]
    table = build_table(start=card, workers=1)
    state, _ = table._state(card)
    out = tmp_path / "values.bin"
    found = reference.run_reference(program, state, out)
    theirs = np.fromfile(out, dtype=np.float64)
    ours = np.asarray(table.values)
    assert theirs.shape == ours.shape == (reference.STATES,)
    differ = np.flatnonzero(theirs.view(np.int64) != ours.view(np.int64))
    assert differ.size == 0, (
        f"{differ.size} states differ, the first at flat index {differ[0]}: "
        f"{theirs[differ[0]]!r} (C) vs {ours[differ[0]]!r}"
    )
    assert found["value"] == table.value(card)
    assert found["solved"] > 0
    assert found["copied"] > 0
