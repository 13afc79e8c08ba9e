"""The solver's values are the same bits on every processor.

A BLAS library picks its kernel by processor (OpenBLAS reads ``OPENBLAS_CORETYPE``),
and kernels add in different orders; through BLAS, the same table differed in its
last bits from one machine to the next, and an exact tie between two actions was
broken one way on one machine and the other way on another, so the published
distributions depended on the processor. The build sums in NumPy's own loops.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

CODE = """
from yahtzee_rules import Category, Rules, Scorecard
from yahtzee_rules.bots.solver import build_table
card = Scorecard({box: 0 for box in list(Category)[:7]})
table = build_table(rules=Rules(), start=card, workers=1)
print(table.value(card).hex())
"""


@pytest.mark.skipif(
    platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS kernels named for x86"
)
def test_a_table_has_the_same_bits_whichever_blas_kernel_runs(tmp_path: Path) -> None:
    values = set()
    for kernel in ("Haswell", "Sandybridge", "Prescott"):
        env = {
            **os.environ,
            "OPENBLAS_CORETYPE": kernel,
            "YAHTZEE_RULES_CACHE_DIR": str(tmp_path / kernel),
        }
        done = subprocess.run(
            [sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=True
        )
        values.add(done.stdout.strip())
    assert len(values) == 1, values
