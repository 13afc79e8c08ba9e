"""The optional compiled kernel of the per-turn tables, and whether this process uses it.

``_ckernel`` (C, built into the wheel where a C compiler exists: ``hatch_build.py``)
computes one turn-start state's fill worth and keep values, and one roll's best keep
and box, with the NumPy path's arithmetic, operation for operation: the same floats
and the same choices, ties included. Where it is missing, stale (an editable
install's module from an older C file) or turned off with
``YAHTZEE_RULES_KERNEL=numpy``, the NumPy path serves. :func:`kernel_status` says
which one runs and why.

Private to the package.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any, Final

import numpy as np

from yahtzee_rules.support._compiled import KERNEL_VARIABLE, choice, compiled_module, required

__all__ = ["KERNEL_VARIABLE", "kernel", "kernel_status", "rolling_kernel", "source_digest"]

#: The kernel's interface version: a compiled module of another version is not used.
VERSION: Final = 1

_LOCK = threading.Lock()
_LOADED: tuple[Any, str] | None = None


def source_digest() -> str | None:
    """The first 16 hex digits of the SHA-256 of ``_ckernel.c`` beside this module (the
    build puts the same in the compiled module), or ``None`` where it cannot be read."""
    try:
        source = Path(__file__).with_name("_ckernel.c").read_bytes()
    except OSError:
        return None
    return hashlib.sha256(source).hexdigest()[:16]


def _load() -> tuple[Any, str]:
    if choice() == "numpy":
        return None, f"the NumPy path ({KERNEL_VARIABLE}=numpy)"
    name = "yahtzee_rules.bots.solver._ckernel"
    module, why = compiled_module(name, VERSION, source_digest(), "the compiled kernel")
    if module is None:
        if choice() == "require":
            raise required(why)
        return None, f"the NumPy path ({why})"
    from yahtzee_rules.bots.solver._geometry import dice_geometry

    g = dice_geometry()
    module.setup(
        np.array([bound for lo, hi, _ in g.turn_levels for bound in (lo, hi)], dtype=np.int64),
        np.concatenate([child.ravel() for _, _, child in g.turn_levels]).astype(np.int64),
        g.flat_subkeeps.astype(np.int64),
        g.subkeep_starts.astype(np.int64),
    )
    blocks = [(lo, hi, int(parents.shape[1])) for lo, hi, parents in g.parents]
    module.setup_lattice(
        np.array(blocks, dtype=np.int64).ravel(),
        np.concatenate([parents.ravel() for _, _, parents in g.parents]).astype(np.int64),
    )
    return module, why


def kernel() -> Any:
    """The compiled kernel module, set up, or ``None`` where the NumPy path serves."""
    global _LOADED
    found = _LOADED
    if found is None:
        with _LOCK:
            found = _LOADED
            if found is None:
                found = _LOADED = _load()
    return found[0]


_ROLLS_READY = False


def rolling_kernel() -> Any:
    """:func:`kernel`, told the faces of every keep and roll (for its ``turn``, which plays
    a whole turn, rolling as :func:`~yahtzee_rules.core.dice.roll_table` does: a test
    compares every outcome of every keep), or ``None`` where the NumPy path serves."""
    global _ROLLS_READY
    module = kernel()
    if module is None or _ROLLS_READY:
        return module
    with _LOCK:
        if not _ROLLS_READY:
            from yahtzee_rules.bots.solver._geometry import dice_geometry

            g = dice_geometry()

            def counts(faces: tuple[int, ...]) -> list[int]:
                return [faces.count(face) for face in range(1, 7)]

            module.setup_rolls(
                np.array([counts(keep.faces) for keep in g.keeps], dtype=np.int64),
                np.array([counts(keep.faces) for keep in g.keeps[g.five :]], dtype=np.int64),
            )
            _ROLLS_READY = True
    return module


def kernel_status() -> str:
    """Which path computes the per-turn tables in this process, and why.

    Examples:
        >>> from yahtzee_rules.bots.solver._compiled import kernel_status
        >>> kernel_status().startswith(("the compiled kernel", "the NumPy path"))
        True
    """
    kernel()
    assert _LOADED is not None
    return _LOADED[1]
