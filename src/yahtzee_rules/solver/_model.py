"""What the rules allow, as arrays: per-rules constants, states and their flat indices.

Shared by the solver's modules, and private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from yahtzee_rules.categories import Category
from yahtzee_rules.rules import Rules
from yahtzee_rules.scorecard import Scorecard, possible_values
from yahtzee_rules.scoring import _bonus_due, _legal
from yahtzee_rules.solver._geometry import _MASKS_BY_YAHTZEE_BOX, _UPPER_MAX, _YAHTZEE, _geometry

if TYPE_CHECKING:
    from numpy.typing import NDArray

# --------------------------------------------------------------------------------------
# What the rules allow, taken from the library's own scoring functions.
# --------------------------------------------------------------------------------------


def _boxes(mask: int, yahtzee_50: bool) -> tuple[int | None, ...]:
    """A representative card: filled boxes hold 0, the Yahtzee box 50 when flagged."""
    return tuple(
        (50 if c == _YAHTZEE and yahtzee_50 else 0) if mask >> c & 1 else None for c in range(13)
    )


class _Model:
    """Per-rules constants: the upper cap, bonus values, and Joker fills by mask."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.threshold = rules.upper_bonus_threshold
        self.levels = min(self.threshold, _UPPER_MAX) + 1
        self.upper_bonus = float(rules.upper_bonus)
        geometry = _geometry()
        # points five equal dice may write in each box, by mask: -1 where not allowed
        joker = np.full((6, 13, 8192), -1, dtype=np.int16)
        due = np.zeros((6, 2), dtype=np.float64)
        fives = [geometry.dice[row] for row in geometry.yahtzee_rows]
        for mask in range(8191):
            boxes = _boxes(mask, False)
            for row, dice in enumerate(fives):
                for category, points in _legal(boxes, dice, rules).items():
                    joker[row, category, mask] = points
        for row, dice in enumerate(fives):
            for flag in (0, 1):
                if _bonus_due(_boxes(1 << _YAHTZEE, bool(flag)), dice, rules):
                    due[row, flag] = rules.yahtzee_bonus
        # With the Yahtzee box open, do five equal dice score plainly in the open boxes?
        # (True for every Joker rule; checked here, the fast path below relies on it.)
        open_masks = np.array([m for m in range(8191) if not m >> _YAHTZEE & 1])
        plain = np.where(
            (open_masks[None, :] >> np.arange(13)[:, None]) & 1 == 1,
            -1,
            geometry.scores[:6, :, None],
        )
        self.plain_fives_while_open = bool((joker[:, :, open_masks] == plain).all()) and not any(
            _bonus_due(_boxes(0, False), dice, rules) for dice in fives
        )
        self.joker = joker
        self.bonus_due = due
        # reachable capped upper subtotals for each set of filled upper boxes
        self.upper_values: list[NDArray[np.intp]] = []
        for upper_mask in range(64):
            sums = {0}
            for face in range(6):
                if upper_mask >> face & 1:
                    values = possible_values(Category(face))
                    sums = {min(a + b, self.levels - 1) for a in sums for b in values}
            self.upper_values.append(np.array(sorted(sums), dtype=np.intp))
        # the most points the open upper boxes can still add
        self.upper_left = [
            sum(max(possible_values(Category(f))) for f in range(6) if not upper_mask >> f & 1)
            for upper_mask in range(64)
        ]

    def upper_step(
        self, u: NDArray[np.intp], points: NDArray[np.intp] | int
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """The new capped subtotal and the upper bonus earned by adding ``points``."""
        raw = u + points
        bonus = np.where((u < self.threshold) & (raw >= self.threshold), self.upper_bonus, 0.0)
        return np.minimum(raw, self.levels - 1), bonus

    def states(self, level: int, start: int = 0) -> _Level:
        """Reachable states with ``level`` boxes filled (``start``'s among them).

        States whose futures are equal are solved once and copied: subtotals too low
        to reach the bonus with the open upper boxes, and the Yahtzee flag when no
        extra-Yahtzee bonus is ever due.
        """
        masks, uppers, flags, sources, targets = [], [], [], [], []
        flag_matters = bool(self.bonus_due.any())
        for mask in _MASKS_BY_YAHTZEE_BOX:  # open Yahtzee box first: see _final_values
            if mask.bit_count() != level or mask & start != start:
                continue
            values = self.upper_values[mask & 63]
            dead = values < self.threshold - self.upper_left[mask & 63]
            solved = values[~dead]
            if dead.any():
                solved = np.concatenate((values[dead][:1], solved))
            for flag in (0, 1) if mask >> _YAHTZEE & 1 else (0,):
                flat = _flat(self, mask, values, flag)
                solved_flag = flag if flag_matters else 0
                origin = _flat(self, mask, values, solved_flag)  # where each value is solved
                if dead.any():
                    origin[dead] = origin[dead][0]
                copies = origin != flat
                targets.append(flat[copies])
                sources.append(origin[copies])
                if solved_flag != flag:
                    continue
                masks.append(np.full(len(solved), mask, dtype=np.intp))
                uppers.append(solved)
                flags.append(np.full(len(solved), flag, dtype=np.intp))
        empty = np.zeros(0, dtype=np.intp)
        return _Level(
            np.concatenate(masks) if masks else empty,
            np.concatenate(uppers) if uppers else empty,
            np.concatenate(flags) if flags else empty,
            np.concatenate(sources) if sources else empty,
            np.concatenate(targets) if targets else empty,
        )


@attrs.frozen
class _Level:
    """The states of one level to solve, and the copies that complete it."""

    masks: NDArray[np.intp]
    uppers: NDArray[np.intp]
    flags: NDArray[np.intp]
    sources: NDArray[np.intp]  # flat indices to copy from, after solving
    targets: NDArray[np.intp]

    @property
    def size(self) -> int:
        return len(self.masks) + len(self.targets)


def _flat(model: _Model, mask: Any, u: Any, flag: Any) -> Any:
    """The index of states in a table's values: ``(mask * levels + upper) * 2 + flag``."""
    return (mask * model.levels + u) * 2 + flag


def _mask_of(card: Scorecard) -> int:
    mask = 0
    for c, points in enumerate(card.boxes):
        if points is not None:
            mask |= 1 << c
    return mask


def _state_of(card: Scorecard, levels: int) -> tuple[int, int, int]:
    boxes = card.boxes
    mask = 0
    upper = 0
    for c in range(13):
        points = boxes[c]
        if points is not None:
            mask |= 1 << c
            if c < 6:
                upper += points
    return mask, min(upper, levels - 1), 1 if boxes[_YAHTZEE] == 50 else 0


_MODELS: dict[Rules, _Model] = {}
_MODELS_LOCK = threading.Lock()


def _model(rules: Rules) -> _Model:
    with _MODELS_LOCK:
        found = _MODELS.get(rules)
        if found is None:
            found = _MODELS[rules] = _Model(rules)
        return found
