"""What the rules allow, as arrays: per-rules constants, states and their flat indices.

Shared by the solver's modules, and private to the package.
"""

from __future__ import annotations

import array
import itertools
import threading
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from yahtzee_rules.bots.solver._geometry import (
    UPPER_POINTS,
    card_geometry,
    dice_geometry,
    for_kernels,
)
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.core.rules import Rules
    from yahtzee_rules.play.scorecard import Scorecard

# The rules' own functions are imported where the arrays are made, not here: a helper
# process of the table build receives the arrays (see ``Model.for_kernels``) and imports
# none of the rules modules.

# --------------------------------------------------------------------------------------
# What the rules allow, taken from the library's own scoring functions.
# --------------------------------------------------------------------------------------


def _boxes(n: int, mask: int, yahtzee: int, yahtzee_50: bool) -> tuple[int | None, ...]:
    """A representative card: filled boxes hold 0, the five-of-a-kind box 50 when flagged."""
    return tuple(
        (50 if c == yahtzee and yahtzee_50 else 0) if mask >> c & 1 else None for c in range(n)
    )


class Layout:
    """How a table for some rules lays out its states: cheap, for tables read from files.

    The states are ``(mask, upper, flag)``: ``mask`` has a bit per filled box,
    ``upper`` is the upper subtotal capped at ``levels - 1`` (one level when there is
    no upper bonus: the subtotal then never matters) and ``flag`` is 1 when the
    five-of-a-kind box holds 50 (``flags`` is 1, the flag always 0, when the rules
    have no extra-Yahtzee bonus or the card no five-of-a-kind box).
    """

    def __init__(self, rules: Rules) -> None:
        card = self.card = card_geometry(rules.card)
        self.threshold = rules.upper_bonus_threshold
        self.levels = min(self.threshold, card.upper_max) + 1 if rules.upper_bonus else 1
        self.flags = 2 if card.yahtzee >= 0 and rules.yahtzee_bonus > 0 else 1
        self.states_count = (1 << card.n) * self.levels * self.flags
        self.in_order = rules.in_order


def joker_points(rules: Rules) -> NDArray[np.int16]:
    """The points five equal dice may write in each box, by face, box and filled-box mask:
    ``(6, boxes, 2 ** boxes)``, -1 where the rules refuse the box (the complete card's
    column is all -1: nothing is open).

    Read off the library's own :func:`~yahtzee_rules.play._filling.legal`, once per
    mask and face, through the part of it for five equal dice
    (:func:`~yahtzee_rules.play._filling.five_legal`; about 49,000 calls for Hasbro's
    card, a tenth of a second). A table's cache file keeps the array, so a process that
    reads a table skips this (see :func:`check_joker`).
    """
    from yahtzee_rules.play._filling import five_legal

    n = len(rules.card)
    full = (1 << n) - 1
    geometry = dice_geometry()
    faces = [geometry.dice[row].faces[0] for row in geometry.yahtzee_rows]
    # by mask, then face, then box: C shorts written in place (the complete card's
    # stay -1: nothing open)
    points = array.array("h", [-1]) * ((1 << n) * 6 * n)
    offset = 0
    # every card but the complete one, as _boxes makes them, mask by mask: product()
    # counts in binary from its last item, so each tuple reversed is the next mask's
    for filled in itertools.islice(itertools.product((None, 0), repeat=n), full):
        boxes = filled[::-1]
        for face in faces:
            for category, value in five_legal(boxes, face, rules).items():
                points[offset + category] = value
            offset += n
    joker = np.frombuffer(points, dtype=np.int16).reshape(1 << n, 6, n).transpose(1, 2, 0)
    return np.ascontiguousarray(joker)


#: Filled-box masks whose Joker points :func:`check_joker` works out again from the rules.
_CHECKED_MASKS = 24


def check_joker(rules: Rules, joker: object) -> bool:
    """Whether ``joker`` (from a cache file) can be :func:`joker_points` ``(rules)``: its
    type and shape, every value -1 or points some box can take, and the points of
    ``_CHECKED_MASKS`` masks spread over the card (the first and last among them)
    worked out again from the rules, in a few milliseconds."""
    from yahtzee_rules.play._filling import legal

    n = len(rules.card)
    if (
        not isinstance(joker, np.ndarray)
        or joker.dtype != np.int16
        or joker.shape != (6, n, 1 << n)
    ):
        return False
    card = card_geometry(rules.card)
    top = max([int(card.scores.max()), *(points for _, points in rules.card.joker_values)])
    if int(joker.min()) < -1 or int(joker.max()) > top or (joker[:, :, -1] != -1).any():
        return False
    geometry = dice_geometry()
    fives = [geometry.dice[row] for row in geometry.yahtzee_rows]
    full = (1 << n) - 1
    for mask in np.linspace(0, full - 1, _CHECKED_MASKS, dtype=np.int64).tolist():
        boxes = tuple(0 if mask >> c & 1 else None for c in range(n))
        for face, dice in enumerate(fives):
            expected = np.full(n, -1, dtype=np.int16)
            for category, value in legal(boxes, dice, rules).items():
                expected[category] = value
            if not np.array_equal(joker[face, :, mask], expected):
                return False
    return True


class Model(Layout):
    """Per-rules constants: the layout, bonus values and Joker fills by mask.

    ``joker`` is :func:`joker_points` ``(rules)`` when known (read from a table's cache
    file and checked by :func:`check_joker`), else worked out here.
    """

    def __init__(self, rules: Rules, joker: NDArray[np.int16] | None = None) -> None:
        from yahtzee_rules.play._filling import bonus_due

        super().__init__(rules)
        self.rules = rules
        card = self.card
        n = card.n
        self.upper_bonus = float(rules.upper_bonus)
        geometry = dice_geometry()
        full = (1 << n) - 1
        # points five equal dice may write in each box, by mask: -1 where not allowed
        due = np.zeros((6, 2), dtype=np.float64)
        fives = [geometry.dice[row] for row in geometry.yahtzee_rows]
        joker = joker_points(rules) if joker is None else joker
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
        self._upper_tables()
        # Writing k dice of face f + 1 in its upper box, by subtotal u (axes f, k, u): the
        # new subtotal's part of a flat index (times ``flags``) and the bonus earned.
        subtotals = np.arange(self.levels, dtype=np.intp)
        after, bonus = self.upper_step(subtotals, UPPER_POINTS)
        self.upper_after = after * self.flags
        self.upper_bonus_by = bonus
        # Do five equal dice write in an upper box only their face's points or 0 (true
        # for every Joker rule)? _final_values takes a short route then.
        faces = np.arange(1, 7)[None, :, None]
        upper_points = joker[:, card.upper]
        self.joker_upper_plain = bool(((upper_points <= 0) | (upper_points == 5 * faces)).all())
        self.joker_by_box = np.ascontiguousarray(joker.transpose(1, 0, 2))  # (box, face, mask)

    def for_kernels(self) -> Model:
        """This model as the vector kernels use it: arrays and numbers, no rules objects.

        A helper process of the table build unpickles it without importing the rules
        modules (a fifth of a second of its start).
        """
        lean = for_kernels(self, "rules")
        assert isinstance(lean, Model)
        lean.card = for_kernels(self.card, "card", "members")  # type: ignore[assignment]
        return lean

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

    def states(self, level: int, start: int = 0) -> Level:
        """Reachable states with ``level`` boxes filled (``start``'s among them).

        States whose futures are equal are solved once and copied: subtotals too low
        to reach the bonus with the open upper boxes, and the Yahtzee flag when no
        extra-Yahtzee bonus is ever due. The states to solve come mask by mask (open
        Yahtzee box first: see _final_values), flag by flag, subtotal by subtotal.
        """
        card = self.card
        order = self._order
        masks = order[(self._filled == level) & (order & start == start)]
        if self.in_order:  # boxes in card order: prefixes only
            masks = masks[masks & (masks + 1) == 0]
        if self.flags == 2:  # both flags where the Yahtzee box is filled
            both = masks & card.yahtzee_bit != 0
            masks = np.repeat(masks, np.where(both, 2, 1))
            flags = np.zeros(len(masks), dtype=np.intp)
            flags[1:][(masks[1:] == masks[:-1])] = 1
        else:
            flags = np.zeros(len(masks), dtype=np.intp)
        flag_matters = bool(self.bonus_due.any())
        solved_flags = flags if flag_matters else np.zeros_like(flags)
        by_upper = card.upper_mask[masks]
        # every reachable subtotal, and the one each copies (itself when solved)
        valid = self._upper_valid[by_upper]  # (entries, most subtotals)
        uppers = self._upper_padded[by_upper]
        origins = self._upper_origin[by_upper]
        flat = flat_index(self, masks[:, None], uppers, flags[:, None])
        origin = flat_index(self, masks[:, None], origins, solved_flags[:, None])
        copies = valid & (origin != flat)
        solve = valid & (origin == flat)
        rows = np.broadcast_to(np.arange(len(masks))[:, None], valid.shape)
        return Level(
            masks[rows[solve]],
            uppers[solve],
            flags[rows[solve]],
            origin[copies],
            flat[copies],
        )

    def _upper_tables(self) -> None:
        """Per set of filled upper boxes: the reachable subtotals, padded, and what each copies.

        A subtotal too low to reach the bonus with the open upper boxes copies the
        lowest such subtotal (all those futures are equal).
        """
        card = self.card
        most = max(len(values) for values in self.upper_values)
        self._upper_padded = np.zeros((64, most), dtype=np.intp)
        self._upper_origin = np.zeros((64, most), dtype=np.intp)
        self._upper_valid = np.zeros((64, most), dtype=bool)
        for upper_mask, values in enumerate(self.upper_values):
            dead = values < self.threshold - self.upper_left[upper_mask]
            origin = values.copy()
            if dead.any():
                origin[dead] = values[dead][0]
            self._upper_padded[upper_mask, : len(values)] = values
            self._upper_origin[upper_mask, : len(values)] = origin
            self._upper_valid[upper_mask, : len(values)] = True
        self._order = np.array(card.masks_by_yahtzee_box, dtype=np.intp)
        self._filled = np.array([mask.bit_count() for mask in card.masks_by_yahtzee_box])


@attrs.frozen
class Level:
    """The states of one level to solve, and the copies that complete it."""

    masks: NDArray[np.intp]
    uppers: NDArray[np.intp]
    flags: NDArray[np.intp]
    sources: NDArray[np.intp]  # flat indices to copy from, after solving
    targets: NDArray[np.intp]

    @property
    def size(self) -> int:
        return len(self.masks) + len(self.targets)


def flat_index(model: Layout, mask: Any, u: Any, flag: Any) -> Any:
    """The index of states in a table's values: ``(mask * levels + upper) * flags + flag``."""
    return (mask * model.levels + u) * model.flags + flag


def mask_of(card: Scorecard) -> int:
    mask = 0
    for c, points in enumerate(card.boxes):
        if points is not None:
            mask |= 1 << c
    return mask


def state_of(card: Scorecard, model: Layout) -> tuple[int, int, int]:
    """The state of ``card`` (of the model's card design): mask, capped upper, flag."""
    boxes = card.boxes
    mask = mask_of(card)
    upper = sum(boxes[c] or 0 for c in model.card.upper)
    yahtzee = model.card.yahtzee
    flag = 1 if model.flags == 2 and boxes[yahtzee] == 50 else 0
    return mask, min(upper, model.levels - 1), flag


def check_design(card: object, rules: Rules) -> Scorecard:
    """``card``, checked to be a Scorecard of the rules' card design."""
    from yahtzee_rules.play._filling import check_card

    card = check_card(card)
    if card.card != rules.card:
        raise MalformedInputError(
            f"card {card!r}: a {card.card.title} card, but the table is for the rules "
            f"{rules.name!r}, which play the {rules.card.title} card; "
            f"use a table built for the card's rules"
        )
    return card


_MODELS: dict[Rules, Model] = {}
_LAYOUTS: dict[Rules, Layout] = {}
_MODELS_LOCK = threading.Lock()


def check_solvable(rules: Rules) -> Rules:
    """``rules``, if the solver's turn-start states can describe their card; else the reason.

    A state keeps one upper subtotal, so a card of several score columns (Triple
    Yahtzee) is refused, with the size that puts its exact solution out of reach.
    """
    card = rules.card
    if len(card.columns) > 1:
        raise MalformedInputError(
            f"rules {rules.name!r}: the exact solver is out of reach for the {card.title} "
            f"card; its {len(card)} boxes in {len(card.columns)} columns make "
            f"2^{len(card)} (about {2 ** len(card):.1e}) sets of filled boxes, over 10^13 "
            f"turn-start states once the Yahtzee boxes and the {len(card.columns)} upper "
            f"subtotals are counted; play it well with TripleStrategy (the Classic table "
            f"values each column), or with GreedyStrategy or RandomStrategy"
        )
    return rules


def value_rules(rules: Rules) -> Rules:
    """What of ``rules`` a table's values depend on: ``rules`` with the default tie rule.

    The tie rule only says who wins a finished game: no expected score, decision or
    chance of reaching a target depends on it. Every table is keyed (in memory and in
    its cache file's key and name) by these rules, so games that differ only in the
    tie rule share one table.
    """
    if rules.tie.value == "share":
        return rules
    return attrs.evolve(rules, tie="share")


def same_values(one: Rules, other: Rules) -> bool:
    """Whether a table for ``one`` holds the values for ``other`` (see :func:`value_rules`)."""
    return one is other or one == other or value_rules(one) == value_rules(other)


def layout_of(rules: Rules) -> Layout:
    check_solvable(rules)
    rules = value_rules(rules)
    found = _LAYOUTS.get(rules)
    if found is None:
        found = _LAYOUTS[rules] = Layout(rules)
    return found


def model_of(rules: Rules, joker: NDArray[np.int16] | None = None) -> Model:
    """The rules' model, made once per process; ``joker`` is its :func:`joker_points`
    when known (from a table's cache file, checked), which spares making it."""
    check_solvable(rules)
    rules = value_rules(rules)
    with _MODELS_LOCK:
        found = _MODELS.get(rules)
        if found is None:
            found = _MODELS[rules] = Model(rules, joker)
        return found


def known_model(rules: Rules) -> Model | None:
    """The rules' model if this process has made it already (never makes one)."""
    return _MODELS.get(value_rules(rules))
