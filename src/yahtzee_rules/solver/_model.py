"""What the rules allow, as arrays: per-rules constants, states and their flat indices.

Shared by the solver's modules, and private to the package.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from yahtzee_rules._filling import bonus_due, legal
from yahtzee_rules.rules import Rules
from yahtzee_rules.scorecard import Scorecard
from yahtzee_rules.solver._geometry import _card_geometry, _geometry

if TYPE_CHECKING:
    from numpy.typing import NDArray

# --------------------------------------------------------------------------------------
# What the rules allow, taken from the library's own scoring functions.
# --------------------------------------------------------------------------------------


def _boxes(n: int, mask: int, yahtzee: int, yahtzee_50: bool) -> tuple[int | None, ...]:
    """A representative card: filled boxes hold 0, the five-of-a-kind box 50 when flagged."""
    return tuple(
        (50 if c == yahtzee and yahtzee_50 else 0) if mask >> c & 1 else None for c in range(n)
    )


class _Layout:
    """How a table for some rules lays out its states: cheap, for tables read from files.

    The states are ``(mask, upper, flag)``: ``mask`` has a bit per filled box,
    ``upper`` is the upper subtotal capped at ``levels - 1`` (one level when there is
    no upper bonus: the subtotal then never matters) and ``flag`` is 1 when the
    five-of-a-kind box holds 50 (``flags`` is 1, the flag always 0, when the rules
    have no extra-Yahtzee bonus or the card no five-of-a-kind box).
    """

    def __init__(self, rules: Rules) -> None:
        card = self.card = _card_geometry(rules.card)
        self.threshold = rules.upper_bonus_threshold
        self.levels = min(self.threshold, card.upper_max) + 1 if rules.upper_bonus else 1
        self.flags = 2 if card.yahtzee >= 0 and rules.yahtzee_bonus > 0 else 1
        self.states_count = (1 << card.n) * self.levels * self.flags
        self.in_order = rules.in_order


class _Model(_Layout):
    """Per-rules constants: the layout, bonus values and Joker fills by mask."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.rules = rules
        card = self.card
        n = card.n
        self.upper_bonus = float(rules.upper_bonus)
        geometry = _geometry()
        full = (1 << n) - 1
        # points five equal dice may write in each box, by mask: -1 where not allowed
        joker = np.full((6, n, 1 << n), -1, dtype=np.int16)
        due = np.zeros((6, 2), dtype=np.float64)
        fives = [geometry.dice[row] for row in geometry.yahtzee_rows]
        for mask in range(full):
            boxes = _boxes(n, mask, card.yahtzee, False)
            for row, dice in enumerate(fives):
                for category, points in legal(boxes, dice, rules).items():
                    joker[row, category, mask] = points
        if card.yahtzee >= 0:
            for row, dice in enumerate(fives):
                for flag in (0, 1):
                    if bonus_due(
                        _boxes(n, 1 << card.yahtzee, card.yahtzee, bool(flag)), dice, rules
                    ):
                        due[row, flag] = rules.yahtzee_bonus
        # Do five equal dice score plainly in the open boxes, with the five-of-a-kind
        # box open (true for every Joker rule), or always (no Joker, no bonus)? The
        # fast path of _final_values relies on it; checked here from the rules.
        masks = np.arange(full)
        plain = np.where(
            (masks[None, :] >> np.arange(n)[:, None]) & 1 == 1, -1, card.scores[:6, :, None]
        )
        same = (joker[:, :, :full] == plain).all(axis=(0, 1))
        no_bonus_open = not any(
            bonus_due(_boxes(n, 0, card.yahtzee, False), dice, rules) for dice in fives
        )
        self.plain_fives_while_open = bool(same[masks & card.yahtzee_bit == 0].all()) and (
            no_bonus_open
        )
        self.plain_fives_always = bool(same.all()) and not due.any()
        self.joker = joker
        self.bonus_due = due
        # reachable capped upper subtotals for each set of filled upper boxes (by face)
        self.upper_values: list[NDArray[np.intp]] = []
        for upper_mask in range(64):
            sums = {0}
            for face in range(6):
                if upper_mask >> face & 1:
                    values = rules.card.possible[card.upper[face]]
                    sums = {min(a + b, self.levels - 1) for a in sums for b in values}
            self.upper_values.append(np.array(sorted(sums), dtype=np.intp))
        # the most points the open upper boxes can still add
        self.upper_left = [
            sum(
                max(rules.card.possible[card.upper[f]]) for f in range(6) if not upper_mask >> f & 1
            )
            for upper_mask in range(64)
        ]

    def open_bits(self, m: Any) -> Any:
        """The boxes a roll may fill from filled-box masks ``m``, as bits: the open ones,
        or with the boxes filled in card order only the first open one (five equal dice
        follow :attr:`joker` instead)."""
        return ~m & (m + 1) if self.in_order else ~m

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
        card = self.card
        both = (0, 1) if self.flags == 2 else (0,)
        for mask in card.masks_by_yahtzee_box:  # open Yahtzee box first: see _final_values
            if mask.bit_count() != level or mask & start != start:
                continue
            if self.in_order and mask & (mask + 1):  # boxes in card order: prefixes only
                continue
            upper_mask = int(card.upper_mask[mask])
            values = self.upper_values[upper_mask]
            dead = values < self.threshold - self.upper_left[upper_mask]
            solved = values[~dead]
            if dead.any():
                solved = np.concatenate((values[dead][:1], solved))
            for flag in both if mask & card.yahtzee_bit else (0,):
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


def _flat(model: _Layout, mask: Any, u: Any, flag: Any) -> Any:
    """The index of states in a table's values: ``(mask * levels + upper) * flags + flag``."""
    return (mask * model.levels + u) * model.flags + flag


def _mask_of(card: Scorecard) -> int:
    mask = 0
    for c, points in enumerate(card.boxes):
        if points is not None:
            mask |= 1 << c
    return mask


def _state_of(card: Scorecard, model: _Layout) -> tuple[int, int, int]:
    """The state of ``card`` (of the model's card design): mask, capped upper, flag."""
    boxes = card.boxes
    mask = _mask_of(card)
    upper = sum(boxes[c] or 0 for c in model.card.upper)
    yahtzee = model.card.yahtzee
    flag = 1 if model.flags == 2 and boxes[yahtzee] == 50 else 0
    return mask, min(upper, model.levels - 1), flag


_MODELS: dict[Rules, _Model] = {}
_LAYOUTS: dict[Rules, _Layout] = {}
_MODELS_LOCK = threading.Lock()


def _layout(rules: Rules) -> _Layout:
    found = _LAYOUTS.get(rules)
    if found is None:
        found = _LAYOUTS[rules] = _Layout(rules)
    return found


def _model(rules: Rules) -> _Model:
    with _MODELS_LOCK:
        found = _MODELS.get(rules)
        if found is None:
            found = _MODELS[rules] = _Model(rules)
        return found
