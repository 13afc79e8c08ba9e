"""Play for a target: the policy that maximises the chance of reaching a final total."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.bots.solver._build import Progress
from yahtzee_rules.bots.solver._entries import turn_model_of
from yahtzee_rules.bots.solver._geometry import dice_geometry
from yahtzee_rules.bots.solver._kernels import (
    Workspace,
    average_keeps,
    best_over_subkeeps,
)
from yahtzee_rules.bots.solver._model import (
    Level,
    Model,
    check_design,
    flat_index,
    mask_of,
    model_of,
    state_of,
)
from yahtzee_rules.bots.solver._storage import (
    read_arrays,
    target_key,
    target_path,
    write_npz,
)
from yahtzee_rules.bots.solver._target_build import (
    entry_reads,
    look_up,
    most_to_come,
    solve_levels,
)
from yahtzee_rules.bots.solver._workers import check_workers
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play._filling import check_card, rules_or_usual
from yahtzee_rules.play.scorecard import Scorecard, empty_card
from yahtzee_rules.support._notices import announce
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray


def fills_at(
    table: TargetTable, card: Scorecard, columns: NDArray[np.intp], refused: float
) -> NDArray[np.float64]:
    """``(252, boxes, len(columns))``: the chance of each need in ``columns`` after each
    fill of each roll, from ``card`` (a card ``table`` itself holds); ``refused`` where
    the box may not be filled.

    A fill's chance is the table's value of the state after it, ``points`` (with the
    upper bonus it completes, and after five equal dice any extra-Yahtzee bonus due)
    fewer points still needed.
    """
    model = table._model
    tm = turn_model_of(model)
    mask, upper, flag = state_of(card, model)
    u, y = np.array([upper], dtype=np.intp), np.array([flag], dtype=np.intp)
    rows, gained, _, local = entry_reads(model, table._row_of, mask, u, y)
    rows, gained = rows[:, 0], gained[:, 0]
    never = np.full((1, len(columns)), refused)  # the row of a box that may not be filled
    chances = np.concatenate((look_up(table._values, rows, gained, columns), never))
    fills: NDArray[np.float64] = chances[local[tm.codes]]
    for face in range(6):
        entries = local[tm.fives[face, :, mask]]  # five equal dice: the Joker rule decides
        due = int(np.rint(model.bonus_due[face, flag]))
        if due:  # an extra-Yahtzee bonus: the same points more in every box
            shifted = look_up(table._values, rows, gained + due, columns)
            fills[face] = np.concatenate((shifted, never))[entries]
        else:
            fills[face] = chances[entries]
    return fills


def most_final_total(rules: Rules, card: Scorecard) -> int:
    """At most the final grand total a game from ``card`` (at a turn start) can reach under
    ``rules``: its total so far, each open box's highest entry, the upper bonus while an
    upper box is open and an extra-Yahtzee bonus on every turn that could earn one
    (:func:`~._target_build.most_to_come`). No play reaches a target above it: its chance
    is 0, known without a table. From Hasbro's empty card 1,575, Yatzy's 374.

    Examples:
        >>> from yahtzee_rules import Rules, Scorecard
        >>> most_final_total(Rules(), Scorecard())
        1575
        >>> yatzy = Rules.from_name("yatzy")
        >>> most_final_total(yatzy, Scorecard(card=yatzy.card))
        374
    """
    from yahtzee_rules.play.totals import totals

    model = model_of(rules)
    mask, _, flag = state_of(card, model)
    return totals(card, rules=rules).grand_total + most_to_come(model, mask, bool(flag))


class Reach:
    """The turn-start states a game can reach from one state ``(mask, upper, flag)``.

    Its filled boxes stay filled with their points: the capped upper subtotal is the
    start's plus what the upper boxes it fills can hold, and the Yahtzee flag is the
    start's once its five-of-a-kind box is filled. From the empty card, every state.
    """

    def __init__(self, model: Model, start: tuple[int, int, int]) -> None:
        card, rules = model.card, model.rules
        mask, upper, flag = start
        top = model.levels - 1
        filled = int(card.upper_mask[mask])
        # by the upper boxes filled (a set of faces): the subtotals they reach
        self.uppers = np.zeros((64, model.levels), dtype=bool)
        for faces in range(64):
            if faces & filled != filled:
                continue
            sums = {upper}
            for face in range(6):
                if (faces & ~filled) >> face & 1:
                    more = rules.card.possible[card.upper[face]]
                    sums = {min(a + b, top) for a in sums for b in more}
            self.uppers[faces, sorted(sums)] = True
        self.model, self.mask, self.flag = model, mask, flag
        self.fixed_flag = model.flags == 2 and mask & card.yahtzee_bit != 0

    def __call__(self, m: Any, u: Any, y: Any) -> Any:
        """Whether states ``(m, u, y)`` (ints or arrays) can be reached."""
        card = self.model.card
        found = (np.bitwise_and(m, self.mask) == self.mask) & self.uppers[card.upper_mask[m], u]
        if self.fixed_flag:
            found &= np.equal(y, self.flag)
        return found

    def levels(self, first: int) -> list[Level]:
        """The states to solve and copy, level by level from the complete cards to ``first``.

        States whose futures are equal are solved once (the first in
        :meth:`Model.states`' order) and copied: those whose upper subtotals no
        future upper points tell apart (:func:`bonus_classes`), and the Yahtzee flag
        when no extra-Yahtzee bonus is ever due. Such a group is solved when a
        reached state is in it, and then copied to all its states: the states after
        a solved one are all set.
        """
        model = self.model
        classes = bonus_classes(model)
        flag_matters = bool(model.bonus_due.any())
        found = []
        for level in range(model.card.n, first - 1, -1):
            every = model.states(level, self.mask)
            solved = flat_index(model, every.masks, every.uppers, every.flags)
            flat = np.concatenate((solved, every.targets))
            m, rest = np.divmod(flat, model.levels * model.flags)
            u, y = np.divmod(rest, model.flags)
            bonus = classes[63 & ~model.card.upper_mask[m], u]
            group = (m * 2 + (y if flag_matters else 0)) * (classes.max() + 2) + bonus + 1
            kept = np.isin(group, group[self(m, u, y)])
            # each group's first state in that order, a solved one (every group has one)
            _, first_of, at = np.unique(group, return_index=True, return_inverse=True)
            source = flat[first_of][at.ravel()]
            solve = (kept & (source == flat))[: len(solved)]
            copies = kept & (source != flat)
            found.append(
                Level(
                    every.masks[solve],
                    every.uppers[solve],
                    every.flags[solve],
                    source[copies],
                    flat[copies],
                )
            )
        return found


_CLASSES: dict[Rules, NDArray[np.intp]] = {}


def bonus_classes(model: Model) -> NDArray[np.intp]:
    """By the open upper boxes (a set of faces) and capped subtotal: when the bonus comes.

    The fewest upper points still to score that earn the upper bonus, of the totals
    the open upper boxes can make (any of them 0 or one of its values); -1 when none
    does (the subtotal too low, or the bonus already earned). Two subtotals with the
    same class have the same future: every play earns the bonus from both or from
    neither, on the same turn, and the states after them share a class again.
    """
    found = _CLASSES.get(model.rules)
    if found is not None:
        return found
    card, rules = model.card, model.rules
    subtotals = np.arange(model.levels)
    found = np.full((64, model.levels), -1, dtype=np.intp)
    for faces in range(64):
        sums = {0}
        for face in range(6):
            if faces >> face & 1:
                more = {0, *rules.card.possible[card.upper[face]]}
                sums = {a + b for a in sums for b in more}
        totals = np.array(sorted(sums))
        at = np.searchsorted(totals, model.threshold - subtotals)
        earns = (at < len(totals)) & (subtotals < model.threshold) & (model.levels > 1)
        found[faces, earns] = totals[at[earns]]
    _CLASSES[model.rules] = found
    return found


def _target_values(
    model: Model,
    start: tuple[int, int, int],
    maximum: int,
    progress: Progress | None = None,
    lowest: int | None = None,
    workers: int = 1,
) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Rows for every state reached from ``start`` and the chance of each need, 0 to ``maximum``.

    ``start`` is a state ``(mask, upper, flag)`` (see :class:`Reach`). With
    ``lowest``, only the states with at least that many boxes filled; ``workers``
    processes solve the chunks of a level side by side (see :mod:`._target_build`).
    """
    first = start[0].bit_count() if lowest is None else max(lowest, start[0].bit_count())
    levels = Reach(model, start).levels(first)
    return solve_levels(model, levels, maximum, progress, workers)


class TargetTable:
    """The best chance of reaching every final total up to a maximum, from every card.

    For each turn-start state and each number of points still needed (0 up to
    :attr:`maximum`), the table holds the highest probability any play reaches it:
    one table over "points still needed", so one build serves every target. Get one
    with :func:`target_table` (cached).

    Memory grows linearly with the maximum: one float per state and points-needed
    pair; time at most linearly (a column per pair costs about what a state of the
    expected-value table costs, and only the distinct columns are worked out). For
    Hasbro's card that is about 310,000 states x ``(maximum + 1)`` x 8 bytes (about
    750 MB for a maximum of 300): upper subtotals no future upper points tell apart
    share one state. A table from a card with boxes filled holds
    only the states a game from it reaches (those boxes keep their points: the
    upper subtotals the open upper boxes add, the Yahtzee box's 50 or not); a card
    with other points in those boxes is worked out from that card the first time it
    is asked for, and kept.

    Attributes:
        rules: The rule set.
        start: The card the table starts from (the empty card for a full table).
        maximum: The highest target the table answers for (a final total, counted
            from 0, so from a card with points the table reaches ``maximum`` points
            still needed).

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
        >>> table = target_table(start=card, maximum=30)
        >>> round(table.probability(card, 25), 4)  # Chance of 25 or more
        0.4167
        >>> table.probability(card, 5)  # Chance takes at least 5
        1.0
    """

    __slots__ = (
        "_model",
        "_parts",
        "_reach",
        "_row_of",
        "_turns",
        "_values",
        "maximum",
        "rules",
        "start",
    )

    def __init__(
        self,
        row_of: NDArray[np.int32],
        values: NDArray[np.float64],
        *,
        rules: Rules,
        start: Scorecard,
        maximum: int,
    ) -> None:
        row_of = np.array(row_of, dtype=np.int32)
        values = np.array(values, dtype=np.float64)
        self._hold(row_of, values, rules, start, maximum)

    @classmethod
    def _adopt(
        cls,
        row_of: NDArray[np.int32],
        values: NDArray[np.float64],
        *,
        rules: Rules,
        start: Scorecard,
        maximum: int,
    ) -> TargetTable:
        """A table over arrays made for it (built or read here): no copy of ``values``."""
        table = cls.__new__(cls)
        table._hold(row_of, values, rules, start, maximum)
        return table

    def _hold(
        self,
        row_of: NDArray[np.int32],
        values: NDArray[np.float64],
        rules: Rules,
        start: Scorecard,
        maximum: int,
    ) -> None:
        self.rules, self.start, self.maximum = rules, start, maximum
        self._model = model_of(rules)
        row_of.setflags(write=False)
        values.setflags(write=False)
        self._row_of, self._values = row_of, values
        self._reach = Reach(self._model, state_of(start, self._model))
        self._parts: dict[tuple[int, int, int], TargetTable] = {}
        self._turns: dict[tuple[tuple[int | None, ...], int], Plan] = {}

    def __repr__(self) -> str:
        return f"<TargetTable rules={self.rules!r} start={self.start!r} maximum={self.maximum}>"

    def _locate(self, card: Scorecard) -> tuple[TargetTable, int]:
        """The table holding ``card``'s values, and its row there.

        A build solves only the states a game from :attr:`start` reaches (its boxes
        keep their points). Another card with at least those boxes filled (other
        points in them) is worked out from that card the first time it is asked for,
        and kept: the table answers for it as if it had been built with it.
        """
        card = check_design(card, self.rules)
        state = state_of(card, self._model)
        row = int(self._row_of[flat_index(self._model, *state)])
        start_mask = mask_of(self.start)
        if state[0] & start_mask == start_mask:
            if row >= 0:
                return self, row
            if not self._reach(*state):
                part = self._parts.get(state)
                if part is None:
                    if len(self._parts) >= 16:
                        self._parts.clear()
                    found = _target_values(
                        self._model, state, self.maximum, workers=check_workers()
                    )
                    part = TargetTable._adopt(
                        *found, rules=self.rules, start=card, maximum=self.maximum
                    )
                    self._parts[state] = part
                return part._locate(card)
        raise MalformedInputError(
            f"card {card!r}: this target table starts from {self.start!r} and covers "
            f"only cards with those boxes filled; build one from this card or an earlier one"
        )

    def _need(self, card: Scorecard, target: object) -> int:
        if isinstance(target, bool) or not isinstance(target, int):
            raise MalformedInputError(f"target {target!r}: not an int")
        from yahtzee_rules.play.totals import totals

        need = target - totals(card, rules=self.rules).grand_total
        if need > self.maximum:
            raise MalformedInputError(
                f"target {target!r}: {need} points still needed, beyond this table's "
                f"maximum of {self.maximum}; build a table with a higher maximum"
            )
        return max(need, 0)

    def probability(self, card: Scorecard, target: int) -> float:
        """The best chance of a final grand total of ``target`` or more, from a turn start.

        Raises:
            MalformedInputError: For a card the table does not cover, or a target
                needing more points than :attr:`maximum`.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
            >>> round(target_table(start=card, maximum=50).probability(card, 55), 4)
            0.046
        """
        need = self._need(check_card(card), target)
        table, row = self._locate(card)
        return float(table._values[row, need])

    def _turn(self, card: Scorecard, need: int) -> Plan:
        """The plan for ``need`` more points from ``card`` (kept: 4,096 at most)."""
        key = (card.boxes, need)
        found = self._turns.get(key)
        if found is None:
            if len(self._turns) >= 4096:
                self._turns.clear()
            table = self._locate(card)[0]
            fills = fills_at(table, card, np.array([need]), -np.inf)[:, :, 0]
            found = self._turns[key] = Plan(fills)
        return found


class Plan:
    """A turn's chances after each fill and keep, for one goal: a need, or a weighting.

    ``fills`` holds, for every roll and box, the chance after filling it (``-inf``
    where the box may not be filled); the keeps are worked out from the best fills,
    so within the turn the play is exact for the goal.
    """

    __slots__ = ("fills", "keeps", "start")

    def __init__(self, fills: NDArray[np.float64]) -> None:
        g = dice_geometry()
        space = Workspace(1)
        last = np.empty((462, 1))
        last[g.five :, 0] = fills.max(axis=1)
        average_keeps(last, space)
        first = np.empty((462, 1))
        first[g.five :] = best_over_subkeeps(last.copy(), space)
        average_keeps(first, space)
        self.fills = fills
        self.keeps: tuple[NDArray[np.float64], NDArray[np.float64]] = (last[:, 0], first[:, 0])
        before = np.empty((462, 1))
        before[g.five :] = best_over_subkeeps(first.copy(), space)
        average_keeps(before, space)
        self.start = float(before[g.offsets[0], 0])  # before the first roll: the empty keep


# --------------------------------------------------------------------------------------
# Building and caching.
# --------------------------------------------------------------------------------------


def _read(
    path: Path, key: str, model: Model, maximum: int
) -> tuple[NDArray[np.int32], NDArray[np.float64]] | None:
    """The rows and values in ``path`` if intact, saved under ``key`` and of the right
    shapes: a row per state of ``model`` (-1, or a row of ``values``), ``maximum + 1``
    finite values per row (anything else is rebuilt)."""
    states = model.states_count
    sizes = {"rows": 4 * states, "values": 8 * states * (maximum + 1)}
    found = read_arrays(path, key, sizes)
    if found is None:
        return None
    rows, values = found["rows"], found["values"]
    if (
        rows.dtype != np.int32
        or rows.shape != (states,)
        or values.dtype != np.float64
        or values.ndim != 2
        or values.shape[1] != maximum + 1
        or not np.isfinite(values).all()
        or (states and not -1 <= int(rows.min()) <= int(rows.max()) < values.shape[0])
    ):
        return None
    return rows, values


def _write(path: Path, key: str, rows: NDArray[np.int32], values: NDArray[np.float64]) -> None:
    write_npz(path, ".target-", key=np.array(key), rows=rows, values=values)


def target_table(
    *,
    rules: Rules | None = None,
    maximum: int = 300,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    cache: bool = True,
    open_boxes: int | None = None,
    workers: int | None = None,
) -> TargetTable:
    """The best chance of reaching every final total up to ``maximum``, from every card.

    Built by backward induction over turn-start states, like the expected-value
    table, with one column per number of points still needed: every target is
    solved in the same batched pass, not one at a time. Cached like
    :func:`load_table` (in :func:`cache_dir`, keyed by the rules, version, source,
    start card and maximum).

    Memory grows linearly in ``maximum``, 8 bytes per state and points-needed pair;
    time at most linearly: a need that no total the game can end with tells apart
    from the need before it, and a column whose reads all equal another's, are not
    worked out again (the values are the same, bit for bit).

    Args:
        rules: The rule set; left out, the usual rules of ``start``'s card (Hasbro's
            Classic game without a ``start``).
        maximum: The highest target to answer for.
        start: Solve only the cards a game from this card reaches (default: the
            empty card); the table still answers for any card with at least its
            boxes filled, working out one with other points in them when asked.
        progress: Called as ``progress(done, total)`` with the states solved.
        cache: ``False`` builds without reading or writing the cache.
        open_boxes: Solve only the cards with at most this many boxes open: the end
            of the game, a small fraction of the work (``None``: every card).
        workers: Processes that share a build that takes long (default: up to 2, one
            per CPU), as in :func:`build_table`: this one and ``workers - 1`` helper
            processes on a POSIX system, started once the build has run a tenth of a
            second (a very large one at once). The values are the same for any number
            of workers.

    Raises:
        MalformedInputError: For a negative or non-int maximum or ``open_boxes``, a
            card of another design than the rules', or a ``workers`` that is not a
            positive int.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.YAHTZEE, Category.SIXES)} | {Category.CHANCE: 5})
        >>> table = target_table(start=card, maximum=80)
        >>> round(table.probability(card, 55), 4), round(table.probability(card, 25), 4)
        (0.0899, 0.2104)
        >>> late = target_table(maximum=60, open_boxes=1, cache=False)  # last turns only
        >>> last = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
        >>> round(late.probability(last, 55), 4)  # as from a table built from that card
        0.046
    """
    rules = rules_or_usual(rules, start)
    if isinstance(maximum, bool) or not isinstance(maximum, int) or maximum < 0:
        raise MalformedInputError(f"maximum {maximum!r}: not a non-negative int")
    if open_boxes is not None and (
        isinstance(open_boxes, bool) or not isinstance(open_boxes, int) or open_boxes < 0
    ):
        raise MalformedInputError(f"open_boxes {open_boxes!r}: not a non-negative int or None")
    workers = check_workers(workers)
    start_card = empty_card(rules.card) if start is None else check_design(start, rules)
    model = model_of(rules)
    state = state_of(start_card, model)
    key = target_key(rules, state, maximum, open_boxes)
    path = target_path(key, rules, maximum)
    found = _read(path, key, model, maximum) if cache else None
    if found is None:
        lowest = None if open_boxes is None else len(rules.card) - open_boxes
        first = state[0].bit_count() if lowest is None else max(lowest, state[0].bit_count())
        levels = Reach(model, state).levels(first)
        if cache:
            rows = sum(len(level.masks) for level in levels)
            announce("target", path, 8 * rows * (maximum + 1) + 4 * model.states_count)
        found = solve_levels(model, levels, maximum, progress, workers)
        if cache:
            _write(path, key, *found)
    return TargetTable._adopt(*found, rules=rules, start=start_card, maximum=maximum)
