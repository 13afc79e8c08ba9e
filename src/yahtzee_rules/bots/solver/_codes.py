"""Decision codes: the optimal action of every roll of every state, as a table holds them.

For each turn-start state and each roll, one byte per roll stage (no reroll left,
one, two), the rolls in ``Dice._index`` order. A byte below :data:`BOX` (32) is a
keep: its position among the roll's distinct sub-keeps (``TurnGeometry.subkeeps``:
fewest dice first, then by faces); ``BOX + b`` is box ``b`` (card order), with no
rerolls left and wherever stopping is best. :mod:`._decisions` builds and caches
them; here they are read: an action in a few list and memoryview lookups.

Private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.bots.solver._turns import turn_geometry

if TYPE_CHECKING:
    from pathlib import Path

    from numpy.typing import NDArray

    from yahtzee_rules.core.boxes import Box
    from yahtzee_rules.core.dice import Keep
    from yahtzee_rules.core.rules import Rules

#: Bytes per state: no reroll left, one, two; each by ``Dice._index``.
STAGES = 3 * 252
#: The code of box ``b`` is ``BOX + b``; a code below is a keep's position among the
#: roll's distinct sub-keeps (at most 32: holding all five dice is stopping, a box).
BOX = 32
_LOCK = threading.Lock()


class DamagedDecisionsError(Exception):
    """A decision code that names no action of its roll, or a box already filled: the
    file it was read from is damaged (raised only inside the package, which then plays
    without the decisions and removes the file, to be rebuilt)."""


class _Decoding:
    """Per process: for each roll (``Dice._index``) the Keep of each keep code (``BOX``
    codes, ``None`` past the roll's sub-keeps and for holding all five), and which
    codes below ``BOX`` are keeps of the roll (``(252, 256)``; box codes are checked
    against the card)."""

    def __init__(self) -> None:
        t = turn_geometry()
        keeps: list[tuple[Keep | None, ...]] = []
        for index in range(252):
            row = [t.keeps[int(k)] for k in t.subkeeps[t.dice_pos[index]][:-1]]
            keeps.append((*row, *[None] * (BOX - len(row))))
        self.keeps = tuple(keeps)
        self.is_keep = np.zeros((252, 256), dtype=bool)
        for index, codes in enumerate(keeps):
            self.is_keep[index, [c for c, keep in enumerate(codes) if keep is not None]] = True
        self.rolls = np.arange(252)


def legal_codes(decoding: _Decoding, codes: bytes, boxes: tuple[int | None, ...]) -> bool:
    """Whether the ``STAGES`` decision ``codes`` of a card whose boxes are ``boxes`` all
    name an action: an open box with no reroll left; a keep of the roll or an open box
    with one or two."""
    table = np.frombuffer(codes, dtype=np.uint8).reshape(3, 252)
    fills = np.zeros(256, dtype=bool)
    fills[[BOX + b for b, points in enumerate(boxes) if points is None]] = True
    if not fills[table[0]].all():
        return False
    rerolls = table[1:]
    return bool((fills[rerolls] | decoding.is_keep[decoding.rolls, rerolls]).all())


_DECODING: _Decoding | None = None


def action_decoding() -> _Decoding:
    global _DECODING
    with _LOCK:
        if _DECODING is None:
            _DECODING = _Decoding()
        return _DECODING


#: Cards whose decision rows a table's decisions remember (by their boxes), the oldest
#: first out.
_SEEN = 4096


class Decided:
    """The decisions as a table holds them (no reference back to it: no cycle).

    ``codes`` is ``(rows, 3, 252)`` (mapped from a file, or in memory), ``rows`` the
    row of each flat state index; both are read through memoryviews, whose items
    are Python ints.
    """

    __slots__ = ("actions", "array", "codes", "path", "rows", "seen")

    def __init__(
        self,
        rules: Rules,
        rows: NDArray[np.int32],
        codes: NDArray[np.uint8],
        path: Path | None = None,
    ) -> None:
        self.path = path
        self.array = codes
        self.rows = _view(np.ascontiguousarray(rows, dtype=np.int32)).cast("B").cast("i")
        self.codes = _view(np.asarray(codes).reshape(-1))
        self.seen: dict[tuple[int | None, ...], bytes] = {}  # by card boxes
        decoding = _DECODING or action_decoding()
        members = rules.card.members
        # each roll's action of each code: its keeps, then the boxes from BOX on
        self.actions: tuple[tuple[Any, ...], ...] = tuple(
            (*keeps, *members) for keeps in decoding.keeps
        )

    def row(self, boxes: tuple[int | None, ...], index: int) -> bytes | None:
        """The decisions of the state of flat index ``index`` (a card's whose boxes are
        ``boxes``), remembered by the boxes (as bytes: faster to index than a memoryview);
        ``None`` when the state has no row or a code names no action there (a damaged
        file: see :func:`legal_codes`)."""
        seen = self.seen
        found = seen.get(boxes)
        if found is None:
            row = self.rows[index]
            if row < 0:
                return None
            base = row * STAGES
            found = self.codes[base : base + STAGES].tobytes()
            if not legal_codes(_DECODING or action_decoding(), found, boxes):
                return None
            if len(seen) >= _SEEN:
                del seen[next(iter(seen))]
            seen[boxes] = found
        return found

    def action(self, row: bytes, rerolls: int, index: int) -> Keep | Box:
        """The action with ``rerolls`` left for the roll of ``Dice._index`` ``index``."""
        action: Keep | Box = self.actions[index][row[rerolls * 252 + index]]
        return action


def _view(array: NDArray[Any]) -> memoryview:
    return memoryview(array)  # type: ignore[arg-type]  # NumPy's stubs: not a Buffer
