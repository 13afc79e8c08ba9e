"""Index arrays over the 462 keeps and 252 rolls, and the constants of the vector work.

Shared by the solver's modules, and private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.categories import CLASSIC, Category
from yahtzee_rules.dice import _ALL_KEEPS, _DICE_BY_FACES, _KEEPS_OF, Dice, Keep, dice_index

if TYPE_CHECKING:
    from numpy.typing import NDArray

_NEG = -np.inf
_CATEGORIES = tuple(Category)
_YAHTZEE = int(Category.YAHTZEE)
_CHANCE = int(Category.CHANCE)
_UPPER_MAX = 105  # 5 * (1 + 2 + ... + 6): no upper subtotal is higher
_CHUNK = 512  # states solved together; keeps the working set in cache
_BITS = 1 << np.arange(13, dtype=np.intp)
_UPPER_POINTS = np.arange(1, 7, dtype=np.intp)[:, None, None] * np.arange(6)[None, :, None]
_IS_YAHTZEE_LOWER = np.arange(6, 13) == _YAHTZEE  # among the lower boxes, the Yahtzee box
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
        # the same, counted from the first keep one die larger: row numbers into that block
        self.children_block = [
            (self.offsets[size + 1], self.offsets[size + 2], children - self.offsets[size + 1])
            for size, children in enumerate(self.children)
        ]
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
        # the same, counted from the first keep one die smaller: row numbers into that block
        self.parents_block: list[tuple[int, int, int, int, NDArray[np.intp]]] = []
        for lo, hi, parents in self.parents:
            size = next(s for s in range(1, 6) if self.offsets[s] <= lo < self.offsets[s + 1])
            base, end = self.offsets[size - 1], self.offsets[size]
            self.parents_block.append((lo, hi, base, end, parents - base))
        # every row number is in its block, so gathers may skip the bounds check (mode="clip")
        for base, end, block_rows in self.children_block:
            assert 0 <= block_rows.min() <= block_rows.max() < end - base
        for _, _, base, end, block_rows in self.parents_block:
            assert 0 <= block_rows.min() <= block_rows.max() < end - base
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
