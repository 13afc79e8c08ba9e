"""Index arrays over the 462 keeps and 252 rolls, a card's boxes as arrays, and constants.

Shared by the solver's modules, and private to the package.
"""

from __future__ import annotations

import copy
import threading
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.core.boxes import Box, Card
    from yahtzee_rules.core.dice import Dice, Keep

# The dice and cards are imported where the arrays are made, not here: a helper process
# of the table build receives the arrays (see ``geometry_for_kernels``) and imports
# neither.

NEG = -np.inf
# States solved together. Part of the values: the build's last step is a BLAS product
# whose last (count mod 4) columns round differently, so another partition of a level
# changes the last bit of a few values (decision 0007).
CHUNK = 512
UPPER_POINTS = np.arange(1, 7, dtype=np.intp)[:, None, None] * np.arange(6)[None, :, None]
UPPER_FIVES = np.arange(6) * 6 + 5  # rows of the per-state table: box f with five f's


# --------------------------------------------------------------------------------------
# Geometry of dice and keeps, in an internal order that makes the vector work contiguous.
# --------------------------------------------------------------------------------------


class Geometry:
    """Index arrays over the 462 keeps and 252 rolls, built once per process.

    Internally keeps are ordered by size, then by how many distinct faces they show,
    then by notation; the five-dice keeps (the rolls) come last, from index ``five``.
    """

    def __init__(self) -> None:
        from yahtzee_rules.core.dice import ALL_KEEPS, DICE_BY_FACES, KEEPS_OF

        keeps = sorted(ALL_KEEPS, key=lambda k: (len(k.faces), len(set(k.faces)), k.faces))
        self.keeps: tuple[Keep, ...] = tuple(keeps)
        self.keep_pos = np.empty(len(keeps), dtype=np.intp)  # Keep._index -> internal
        for position, keep in enumerate(keeps):
            self.keep_pos[keep._index] = position
        pos = {k.faces: i for i, k in enumerate(keeps)}
        self.offsets = [0]
        for size in range(6):
            self.offsets.append(self.offsets[-1] + sum(1 for k in keeps if len(k.faces) == size))
        self.five = self.offsets[5]
        self.dice: tuple[Dice, ...] = tuple(DICE_BY_FACES[k.faces] for k in keeps[self.five :])
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
        # For one gather and one reduction per block: the children of each size's keeps,
        # face-major (``(lo, hi, base, end, rows)``, ``rows`` of ``6 * (hi - lo)`` from the
        # first keep one die larger), and each block's keeps then their parents, one
        # after the other (``(lo, hi, base, rows)``, rows counted from the first keep one
        # die smaller: the keeps themselves first, then their first parents, ...).
        self.children_flat = [
            (self.offsets[size], self.offsets[size + 1], base, end, block_rows.T.ravel())
            for size, (base, end, block_rows) in enumerate(self.children_block)
        ]
        self.lattice: list[tuple[int, int, int, NDArray[np.intp]]] = []
        for lo, hi, base, _, block_rows in self.parents_block:
            itself = np.arange(lo, hi, dtype=np.intp) - base
            self.lattice.append((lo, hi, base, np.concatenate((itself, block_rows.T.ravel()))))
        self.most_edges = max(max(len(lattice[3]) for lattice in self.lattice), 6 * 126)
        # each roll's distinct sub-keeps, fewest dice first, padded with the roll itself
        subs = np.empty((252, 32), dtype=np.intp)
        unpadded: list[list[int]] = []
        for position, dice in enumerate(self.dice):
            own = [pos[k.faces] for k in KEEPS_OF[dice._index]]
            own.sort(key=lambda i: (len(keeps[i].faces), keeps[i].faces))
            subs[position] = own + [own[-1]] * (32 - len(own))
            unpadded.append(list(dict.fromkeys(own)))
        self.subkeeps = subs
        # for one state at a time (the per-turn tables and the compiled kernel): the same
        # lists unpadded, end to end, where each roll's begins, and by keep size, largest
        # first, each block of keeps with its six children face by face along the first
        # axis (a sum over that axis adds them left to right)
        self.flat_subkeeps = np.array([k for row in unpadded for k in row], dtype=np.intp)
        self.subkeep_starts = np.cumsum([0, *(len(row) for row in unpadded[:-1])], dtype=np.intp)
        self.turn_levels = tuple(
            (self.offsets[size], self.offsets[size + 1], np.ascontiguousarray(child.T))
            for size, child in reversed(list(enumerate(self.children)))
        )
        self.probability = np.array([d.ways / 7776 for d in self.dice])
        self.total = np.array([sum(d.faces) for d in self.dice], dtype=np.float64)
        self.yahtzee_rows = np.array([i for i, d in enumerate(self.dice) if d.is_yahtzee])
        # five equal dice come first (fewest distinct faces), ones to sixes
        assert [self.dice[i].faces[0] for i in self.yahtzee_rows] == [1, 2, 3, 4, 5, 6]
        # Rolls 6 to 251 are not five equal dice: the Joker never applies, so a roll's
        # best fill is the best of: an upper box for the dice of one face showing (rows
        # 0-35 of a per-state table: the box of face f + 1 with k dice at f * 6 + k),
        # any box for 0 (row 36: a scoring fill is never worse), and the lower boxes
        # that score for the roll (see CardGeometry).
        plain = self.dice[6:]
        face_lists = [[f * 6 + d.counts[f] for f in range(6) if d.counts[f]] for d in plain]
        self.face_columns: list[tuple[int, NDArray[np.intp]]] = []
        for j in range(5):
            start = next(i for i, row in enumerate(face_lists) if len(row) > j)
            self.face_columns.append(
                (start, np.array([row[j] for row in face_lists[start:]], dtype=np.intp))
            )
        self.plain_total = self.total[6:, None]


class CardGeometry:
    """A card's boxes as arrays: scores in the internal roll order, and how boxes score.

    The build's fast route to each roll's best box (:func:`._kernels._final_values`)
    takes the upper boxes by face and groups the lower boxes by how they score the
    rolls that are not five equal dice: a fixed value when they qualify (Classic's
    Full House and straights), the dice total when they qualify (Three and Four of a
    Kind, Yacht's Full House), the total always (Chance, Choice), or anything else
    (Yacht's Four of a Kind, four times the face), which is taken box by box. The six
    rolls of five equal dice are grouped the same way. Everything is read from the
    card's score table, so a card needs no code here.

    Raises:
        MalformedInputError: For a card the solver cannot take: not one upper box per
            face, an upper box that does not count its face, or a five-of-a-kind box
            that scores for other rolls.
    """

    def __init__(self, card: Card) -> None:
        from yahtzee_rules.core.dice import dice_index

        g = dice_geometry()
        self.card = card
        self.members: tuple[Box, ...] = card.members
        n = self.n = len(card)
        self.bits = 1 << np.arange(n, dtype=np.intp)
        self.scores = np.array(
            [card.table[dice_index(d)] for d in g.dice], dtype=np.int64
        )  # (252 internal rolls, n)
        by_face = {box.face: int(box) for box in card.members if box.face is not None}
        upper = [int(box) for box in card.members if box.face is not None]
        if sorted(by_face) != [1, 2, 3, 4, 5, 6] or len(upper) != 6:
            raise MalformedInputError(
                f"card {card!r}: the solver needs one upper box per face, 1 to 6"
            )
        counts = np.array([d.counts for d in g.dice], dtype=np.int64)  # (252, 6)
        for face, box in by_face.items():
            if not (self.scores[:, box] == face * counts[:, face - 1]).all():
                raise MalformedInputError(
                    f"card {card!r}: upper box {card.members[box].label} does not count "
                    f"its face; the solver needs upper boxes that total one face"
                )
        self.upper = np.array([by_face[face] for face in range(1, 7)], dtype=np.intp)
        self.lower = np.array([int(b) for b in card.members if b.face is None], dtype=np.intp)
        self.upper_sel: slice | NDArray[np.intp] = _selector(self.upper)
        self.lower_sel: slice | NDArray[np.intp] = _selector(self.lower)
        self.upper_pos = np.full(n, -1, dtype=np.intp)  # box -> position among the upper
        self.upper_pos[self.upper] = np.arange(6)
        self.upper_mask = np.zeros(1 << n, dtype=np.intp)  # mask -> its upper boxes, by face
        for position, box in enumerate(self.upper):
            self.upper_mask |= (np.arange(1 << n) >> box & 1) << position
        self.upper_max = sum(max(card.possible[box]) for box in self.upper)
        yahtzee = card.yahtzee
        self.yahtzee = -1 if yahtzee is None else int(yahtzee)
        self.yahtzee_bit = 0 if yahtzee is None else 1 << int(yahtzee)
        self.is_yahtzee_lower = self.lower == self.yahtzee
        # open five-of-a-kind box first: see _final_values
        self.masks_by_yahtzee_box = sorted(
            range(1 << n), key=lambda mask: (mask & self.yahtzee_bit != 0, mask)
        )
        if yahtzee is not None and (self.scores[6:, self.yahtzee] != 0).any():
            raise MalformedInputError(
                f"card {card!r}: its five-of-a-kind box {yahtzee.label} scores for other "
                f"rolls; the solver needs it to score only five equal dice"
            )
        # The lower boxes on rolls that are not five equal dice, by lower position j.
        plain_scores = self.scores[6:]
        plain_total = g.total[6:]
        fixed_points: dict[int, int] = {}
        totals: list[int] = []
        self.always_total: tuple[int, ...] = ()
        others: list[tuple[int, NDArray[np.intp], NDArray[np.float64]]] = []
        for j, box in enumerate(self.lower):
            column = plain_scores[:, box]
            scoring = column > 0
            if not scoring.any():
                continue  # only ever 0 here: the zero row covers it
            values = set(column[scoring].tolist())
            if len(values) == 1:
                fixed_points[j] = values.pop()
            elif (column[scoring] == plain_total[scoring]).all():
                if scoring.all():
                    self.always_total += (j,)
                else:
                    totals.append(j)
            else:
                rows = np.flatnonzero(scoring)
                others.append((j, rows, column[rows].astype(np.float64)[:, None]))
        self.fixed_points = fixed_points
        self.plain_other = tuple(others)
        fixed_combos: dict[tuple[int, ...], int] = {}
        total_combos: dict[tuple[int, ...], int] = {}
        fixed_dice, fixed_rows, total_dice, total_rows = [], [], [], []
        for i in range(len(plain_scores)):
            fixed = tuple(j for j in fixed_points if plain_scores[i, self.lower[j]] > 0)
            if fixed:
                fixed_dice.append(i)
                fixed_rows.append(37 + fixed_combos.setdefault(fixed, len(fixed_combos)))
            by_total = tuple(j for j in totals if plain_scores[i, self.lower[j]] > 0)
            if by_total:
                total_dice.append(i)
                total_rows.append(total_combos.setdefault(by_total, len(total_combos)))
        self.fixed_combos = tuple(fixed_combos)
        # the same combinations slot-major, padded by repeating a box (a maximum is
        # unchanged): lower positions, and the points each takes
        self.fixed_slots = _slot_major(self.fixed_combos)
        self.fixed_gains = np.array(
            [[fixed_points[j]] for j in self.fixed_slots.tolist()], dtype=np.float64
        ).reshape(-1, 1)
        self.total_combos = tuple(total_combos)
        self.fixed_dice = np.array(fixed_dice, dtype=np.intp)
        self.fixed_rows = np.array(fixed_rows, dtype=np.intp)
        self.total_dice = np.array(total_dice, dtype=np.intp)
        self.total_rows = np.array(total_rows, dtype=np.intp)
        self.total_dice_total = plain_total[self.total_dice][:, None]
        self._plain_candidates(fixed_rows, fixed_dice, totals)
        # The lower boxes on five equal dice (rows 0-5), the five-of-a-kind box apart.
        five_total: list[int] = []
        five_other: list[tuple[int, NDArray[np.float64]]] = []
        self.yahtzee_lower = -1  # lower position of the five-of-a-kind box
        self.yahtzee_fives = np.zeros((6, 1))  # the points it takes from five equal dice
        for j, box in enumerate(self.lower):
            column = self.scores[:6, box]
            if box == self.yahtzee:
                self.yahtzee_lower = j
                self.yahtzee_fives = column.astype(np.float64)[:, None]
            elif (column == g.total[:6]).all():
                five_total.append(j)
            elif (column != 0).any():
                five_other.append((j, column.astype(np.float64)[:, None]))
        self.five_total = tuple(five_total)
        self.five_other = tuple(five_other)

    def _plain_candidates(
        self, fixed_rows: list[int], fixed_dice: list[int], totals: list[int]
    ) -> None:
        """Each plain roll's best fill as the largest of a few rows of a per-state table.

        The rows (see :func:`._kernels._final_values`): the upper box of each face
        showing with that many dice, with a zero in any box folded in (rows 0-35); a
        fixed-points combination (rows 37 on); and, after those, the best of the lower
        boxes that score the same points for the roll (the dice total, or other
        points: Yatzy's pairs) plus those points, one row per set of boxes and points
        (exact: ``max(a + t, b + t)`` is ``max(a, b) + t``). Rolls come in blocks of one number of distinct faces; each block's
        candidate rows are padded to one width by repeating a row (a maximum is
        unchanged), slot-major for one gather and one reduction.
        """
        g = dice_geometry()
        plain_scores = self.scores[6:]
        fixed_of = dict(zip(fixed_dice, fixed_rows, strict=True))
        other_of = [  # the other scoring boxes' points, roll by roll
            dict(zip(rows.tolist(), gains[:, 0].tolist(), strict=True))
            for _, rows, gains in self.plain_other
        ]
        sets: dict[tuple[int, ...], int] = {}
        pairs: dict[tuple[int, float], int] = {}
        candidates: list[list[int]] = []
        for i, dice in enumerate(g.dice[6:]):
            rows = [f * 6 + count for f, count in enumerate(dice.counts) if count]
            total = float(sum(dice.faces))
            by_points: dict[float, list[int]] = {}
            for j in (*self.always_total, *totals):
                if plain_scores[i, self.lower[j]] > 0:
                    by_points.setdefault(total, []).append(j)
            for (j, _, _), points in zip(self.plain_other, other_of, strict=True):
                if i in points:
                    by_points.setdefault(points[i], []).append(j)
            for gain, boxes in sorted(by_points.items()):
                combo = sets.setdefault(tuple(sorted(boxes)), len(sets))
                rows.append(-1 - pairs.setdefault((combo, gain), len(pairs)))
            if i in fixed_of:
                rows.append(fixed_of[i])
            candidates.append(rows)
        first = 37 + len(self.fixed_combos)  # the rows of the (boxes, points) pairs
        self.total_sets = tuple(sets)
        self.total_slots = _slot_major(self.total_sets)  # padded like fixed_slots
        self.pair_set = np.array([combo for combo, _ in pairs], dtype=np.intp)
        self.pair_total = np.array([[gain] for _, gain in pairs], dtype=np.float64)
        self.table_rows = first + len(pairs)
        self.plain_blocks: list[tuple[int, int, NDArray[np.intp]]] = []
        distinct = [len(set(dice.faces)) for dice in g.dice[6:]]
        lo = 0
        while lo < len(candidates):
            hi = lo
            while hi < len(candidates) and distinct[hi] == distinct[lo]:
                hi += 1
            width = max(len(rows) for rows in candidates[lo:hi])
            padded = np.array(
                [rows + rows[:1] * (width - len(rows)) for rows in candidates[lo:hi]],
                dtype=np.intp,
            )
            padded[padded < 0] = first - 1 - padded[padded < 0]
            self.plain_blocks.append((6 + lo, 6 + hi, padded.T.ravel()))
            lo = hi
        # the same rows by slot: (lo, hi, rows of shape (width, hi - lo))
        self.plain_slots = [
            (lo, hi, rows.reshape(-1, hi - lo)) for lo, hi, rows in self.plain_blocks
        ]
        self.most_plain = max(len(rows) for *_, rows in self.plain_blocks)


def _slot_major(sets: tuple[tuple[int, ...], ...]) -> NDArray[np.intp]:
    """The members of ``sets``, slot by slot, each set padded by repeating its first."""
    width = max((len(members) for members in sets), default=0)
    padded = [list(members) + [members[0]] * (width - len(members)) for members in sets]
    return np.array(padded, dtype=np.intp).reshape(len(sets), width).T.ravel()


def _selector(boxes: NDArray[np.intp]) -> slice | NDArray[np.intp]:
    """A slice when ``boxes`` are consecutive (a view, as fast as before), else the indices."""
    first = int(boxes[0])
    if (boxes == np.arange(first, first + len(boxes))).all():
        return slice(first, first + len(boxes))
    return boxes


_GEOMETRY: Geometry | None = None
_GEOMETRY_LOCK = threading.Lock()
_CARDS: dict[Card, CardGeometry] = {}


def dice_geometry() -> Geometry:
    global _GEOMETRY
    with _GEOMETRY_LOCK:
        if _GEOMETRY is None:
            _GEOMETRY = Geometry()
        return _GEOMETRY


def for_kernels(found: object, *names: str) -> object:
    """A shallow copy of ``found`` without the attributes ``names`` (Python objects of the
    rules: dice, keeps, boxes), so that unpickling it needs NumPy and this package's
    solver modules only."""
    lean = copy.copy(found)
    for name in names:
        delattr(lean, name)
    return lean


def geometry_for_kernels() -> Geometry:
    """The geometry as the vector kernels use it: its arrays, without the dice and keeps."""
    lean = for_kernels(dice_geometry(), "keeps", "dice")
    assert isinstance(lean, Geometry)
    return lean


def install_geometry(geometry: Geometry) -> None:
    """Use ``geometry`` (from :func:`geometry_for_kernels`, in another process) as this
    process's, unless it has its own already."""
    global _GEOMETRY
    with _GEOMETRY_LOCK:
        if _GEOMETRY is None:
            _GEOMETRY = geometry


def card_geometry(card: Card) -> CardGeometry:
    found = _CARDS.get(card)
    if found is None:
        made = CardGeometry(card)  # outside the lock: it calls dice_geometry()
        with _GEOMETRY_LOCK:
            found = _CARDS.setdefault(card, made)
    return found
