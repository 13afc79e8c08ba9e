"""The review kernel: a decision's value, the best value and the few best options,
read off the per-turn tables without building every option.

:func:`~yahtzee_rules.bots.solver.advise` builds an :class:`Option` for every keep and
every legal box of a roll and sorts them; a review needs, at each decision, only the
value of the action taken, the best value, the number of options and (for the
listing) the few best. This module reads them from the same per-turn tables
(:class:`~yahtzee_rules.bots.solver._turns.TurnTables`) with the same arithmetic
(``base + value``, the card's points so far plus the table's value), so a review built
here equals, float for float, one built from advice: a test compares the two on
random games of every ruleset the solver covers.

- A roll's fill values are one row of the state's fills (five equal dice: the Joker
  rule's row); a box is an option when its value is finite (the tables write
  ``-inf`` for a filled box, a box the Joker rule refuses, or one whose turn it is not).
- A keep's value with ``r`` rerolls left is ``keeps[r - 1]`` at the keep; the best
  value after a roll with one reroll left (or none) is already in the tables (the
  value of holding all five dice), and with two it is the maximum over the roll's
  distinct sub-keeps.
- Ties rank as advice ranks them: the higher expected final score first, then a fill
  before a keep, then the smaller box or the smaller keep (``Keep._index``).

Private to the package.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from yahtzee_rules.bots.solver._geometry import CHUNK, dice_geometry
from yahtzee_rules.bots.solver._kernels import (
    average_keeps,
    best_over_subkeeps,
    fill_values,
    final_values,
    workspace_for,
)
from yahtzee_rules.bots.solver._model import model_of
from yahtzee_rules.bots.solver._turns import turn_geometry
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Dice, Keep, as_keep
from yahtzee_rules.play.game import Game, Replay
from yahtzee_rules.play.record import Fill, GameRecord
from yahtzee_rules.play.scorecard import Scorecard, category_arg
from yahtzee_rules.play.totals import totals
from yahtzee_rules.play.turn import Turn, raw_turn

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.bots.solver._table import Table
    from yahtzee_rules.bots.solver._turns import TurnTables

_EMPTY = Keep("")

#: One decision of a game, or the roll it ends on: the seat, its turn (dice showing)
#: and the action taken (a keep or a box; ``None`` where the game stops on the roll).
Step = tuple[int, Turn, "Keep | Box | None"]


class _Kernel:
    """Per process: for each internal roll, its distinct sub-keeps and their Keep values."""

    def __init__(self) -> None:
        g = dice_geometry()
        t = turn_geometry()
        self.five = g.five
        self.dice_pos: list[int] = t.dice_pos
        self.keep_pos: list[int] = g.keep_pos.tolist()
        self.subkeeps: tuple[NDArray[np.intp], ...] = t.subkeeps
        self.keeps: tuple[tuple[Keep, ...], ...] = tuple(
            tuple(g.keeps[k] for k in row.tolist()) for row in t.subkeeps
        )
        self.keep_index: tuple[list[int], ...] = tuple(
            [keep._index for keep in row] for row in self.keeps
        )


_KERNEL: _Kernel | None = None
_LOCK = threading.Lock()


def kernel() -> _Kernel:
    global _KERNEL
    with _LOCK:
        if _KERNEL is None:
            _KERNEL = _Kernel()
        return _KERNEL


def fill_row(tables: TurnTables, position: int) -> NDArray[np.float64]:
    """The fill value of each box for the internal roll ``position`` (``-inf``: not an option)."""
    if position < 6:
        row: NDArray[np.float64] = tables._fives()[position]
        return row
    found: NDArray[np.float64] = tables.worth[tables.model.codes[position]]
    return found


def values(
    tables: TurnTables, base: float, dice: Dice, rerolls: int, taken: Keep | Box
) -> tuple[float, float, bool]:
    """The expected final score after ``taken``, the best one (advice's
    ``expected_of(taken)`` and ``expected``), and whether there was a choice (more
    than one option)."""
    k = _KERNEL or kernel()
    position = k.dice_pos[dice._index]
    if rerolls:
        # with one reroll left, the best of keeps and fills is the roll's value with
        # one reroll left, which the tables keep as the value of holding all five
        # dice with two; with two left, the best of the roll's sub-keeps
        first = tables.keeps[1]
        if rerolls == 1:
            best = float(first[k.five + position])
        else:
            best = float(first[k.subkeeps[position]].max())
        if isinstance(taken, Box):
            chosen = float(fill_row(tables, position)[int(taken)])
        else:
            chosen = float(tables.keeps[rerolls - 1][k.keep_pos[taken._index]])
        return base + chosen, base + best, True  # a keep and a box at least
    row = fill_row(tables, position)
    chosen = float(row[int(taken)])  # type: ignore[arg-type]  # no reroll left: a box
    choice = int(np.count_nonzero(row > -np.inf)) > 1
    return base + chosen, base + float(row.max()), choice


def ranked(
    tables: TurnTables,
    base: float,
    dice: Dice,
    rerolls: int,
    count: int,
    members: tuple[Box, ...],
) -> tuple[list[tuple[Keep | Box, float]], int]:
    """The ``count`` best options (action and expected final score), best first as
    advice ranks them (ties included as it breaks them), and how many options there are."""
    k = _KERNEL or kernel()
    position = k.dice_pos[dice._index]
    row = fill_row(tables, position)
    boxes = np.flatnonzero(row > -np.inf)
    expected = base + row[boxes]
    if rerolls:
        keep_expected = base + tables.keeps[rerolls - 1][k.subkeeps[position]]
        expected = np.concatenate((expected, keep_expected))
    size = len(expected)
    fills = len(boxes)
    if size > count:
        threshold = np.partition(expected, size - count)[size - count]
        candidates = np.flatnonzero(expected >= threshold).tolist()
    else:
        candidates = list(range(size))
    worth: list[float] = expected.tolist()
    box_list: list[int] = boxes.tolist()
    keep_index = k.keep_index[position]
    keeps = k.keeps[position]

    def key(i: int) -> tuple[float, int, int]:
        if i < fills:
            return (-worth[i], 0, box_list[i])
        return (-worth[i], 1, keep_index[i - fills])

    candidates.sort(key=key)
    best: list[tuple[Keep | Box, float]] = [
        (members[box_list[i]] if i < fills else keeps[i - fills], worth[i])
        for i in candidates[:count]
    ]
    return best, size


def steps(record: GameRecord) -> Iterator[Step]:
    """Every decision of ``record`` (and the roll it may end on), replayed once, in place."""
    replay = Replay(record.start)
    for action in record.actions:
        turn = replay.turn
        if isinstance(action, Fill):
            if turn is not None and turn.dice is not None:
                yield replay.current, turn, action.category
            replay.fill(action.category)
        else:
            if turn is not None and turn.dice is not None:
                yield replay.current, turn, action.keep
            replay.roll(action.keep, action.outcome)
    turn = replay.turn
    if turn is not None and turn.dice is not None:
        yield replay.current, turn, None


def start_rolled(start: Game) -> bool:
    """Whether ``start`` shows dice already: its roll's luck is not known."""
    return start.turn is not None and start.turn.dice is not None


class _Log:
    """The decisions of many solitaire games, column by column, as they are played."""

    __slots__ = ("bases", "ends", "kinds", "positions", "rerolls", "states", "whats")

    def __init__(self) -> None:
        self.states: list[int] = []  # the turn's state (flat index into the table's values)
        self.bases: list[int] = []  # the card's grand total at the turn's start
        self.positions: list[int] = []  # the roll (internal order)
        self.rerolls: list[int] = []
        self.kinds: list[int] = []  # 0: a box filled, 1: a keep held
        self.whats: list[int] = []  # the box, or the keep (internal order)
        self.ends: list[int] = []  # per game: the index after its last decision


def play_and_rate(
    strategy: Any, table: Table, count: int, rng: random.Random, card: Scorecard
) -> list[tuple[float, float, int, float]]:
    """Play ``count`` solitaire games from ``card`` with ``strategy`` (rolling with
    ``rng``), each as :meth:`GameRecord.roll` and :meth:`GameRecord.fill` would play it,
    and rate each: its final score, total cost, choices and luck, as :func:`review`
    values them (the same floats, summed in the same order).

    The games are played first, each decision logged; then the values of every state
    the games reached are worked out at once with the build's kernels (as the per-turn
    tables work them out, operation for operation) and read off for every decision.
    """
    rules = table.rules
    design = rules.card
    k = _KERNEL or kernel()
    dice_pos, keep_pos = k.dice_pos, k.keep_pos
    log = _Log()
    found: dict[int, tuple[int, int, int]] = {}
    # before the first roll, advice's one option: roll all five (the turn's value)
    start = float(totals(card, rules=rules).grand_total)
    if not card.is_complete:
        start += table._turn_tables(card).start
    for _ in range(count):
        current = card
        while not current.is_complete:
            state, index = table._state(current)
            found[index] = state
            base = totals(current, rules=rules).grand_total
            turn = raw_turn(current, rules, None, 0).roll(rng, keep=_EMPTY)
            while True:
                left = turn.rolls_left
                keep = strategy.choose_keep(turn, rng) if left else None
                position = dice_pos[turn.dice._index]  # type: ignore[union-attr]
                log.states.append(index)
                log.bases.append(base)
                log.positions.append(position)
                log.rerolls.append(left)
                if keep is None:
                    box = category_arg(strategy.choose_box(turn, rng), design)
                    current = turn.fill(box)
                    log.kinds.append(0)
                    log.whats.append(int(box))
                    break
                turn = turn.roll(rng, keep=keep)
                log.kinds.append(1)
                log.whats.append(keep_pos[as_keep(keep)._index])
        log.ends.append(len(log.states))
    return _rate(table, log, found, start)


def _rate(
    table: Table, log: _Log, found: dict[int, tuple[int, int, int]], start: float
) -> list[tuple[float, float, int, float]]:
    """Each logged game's final score, total cost, choices and luck."""
    if not log.states:
        return [(start, 0.0, 0, 0.0)] * len(log.ends)
    model = model_of(table.rules)
    values = table._values
    g = dice_geometry()
    five = g.five
    states = np.array(log.states, dtype=np.intp)
    unique, inverse = np.unique(states, return_inverse=True)
    m, u, y = np.array([found[s] for s in unique.tolist()], dtype=np.intp).T
    position = np.array(log.positions, dtype=np.intp)
    rerolls = np.array(log.rerolls, dtype=np.intp)
    kind = np.array(log.kinds, dtype=np.intp)
    what = np.array(log.whats, dtype=np.intp)
    size = len(states)
    best = np.empty(size)
    chosen = np.empty(size)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(unique) + 1))
    for lo in range(0, len(unique), CHUNK):
        hi = min(lo + CHUNK, len(unique))
        space = workspace_for(hi - lo)
        last, first = space.keeps(0, hi - lo), space.keeps(1, hi - lo)
        final_values(model, values, m[lo:hi], u[lo:hi], y[lo:hi], out=last[five:])
        average_keeps(last, space)
        one = last.copy()  # keep values with one reroll left
        first[five:] = best_over_subkeeps(last, space)
        average_keeps(first, space)
        two = first.copy()  # with two left
        after_two = best_over_subkeeps(first, space)  # each roll's best with two left
        rows = order[bounds[lo] : bounds[hi]]
        column = inverse[rows] - lo
        at, left = position[rows], rerolls[rows]
        best[rows] = np.where(
            left == 0,
            one[five + at, column],
            np.where(left == 1, two[five + at, column], after_two[at, column]),
        )
        keeps = kind[rows] == 1
        held = rows[keeps]
        chosen[held] = np.where(
            left[keeps] == 1, one[what[held], column[keeps]], two[what[held], column[keeps]]
        )
    # the fills: each box's points for the roll (-1 where not allowed), then its value
    fills = np.flatnonzero(kind == 0)
    card = model.card
    fm, fu, fy = m[inverse[fills]], u[inverse[fills]], y[inverse[fills]]
    roll = position[fills]
    closed = (model.open_bits(fm)[:, None] & card.bits) == 0
    points = np.where(closed, -1, card.scores[roll])
    fives = roll < 6
    if fives.any():
        points[fives] = model.joker[roll[fives], :, fm[fives]]
    worth, _, _ = fill_values(model, values, fm, fu, fy, points)
    taken = worth[np.arange(len(fills)), what[fills]]
    if model.bonus_due.any():
        taken = np.where(fives, taken + model.bonus_due[np.minimum(roll, 5), fy], taken)
    chosen[fills] = taken
    choice = rerolls > 0
    choice[fills] |= (points >= 0).sum(axis=1) > 1
    base = np.array(log.bases, dtype=np.float64)
    expected = base + chosen
    top = base + best
    gap = top - expected
    cost = np.where(gap > 0.0, gap, 0.0).tolist()
    before = np.empty(size)
    before[1:] = expected[:-1]
    ends = log.ends  # every game has decisions: the card is not complete
    before[[0, *ends[:-1]]] = start
    luck = (top - before).tolist()
    finals = expected.tolist()
    counts = np.cumsum(choice).tolist()
    rated = []
    begin = 0
    for end in ends:
        choices = counts[end - 1] - (counts[begin - 1] if begin else 0)
        rated.append(
            (finals[end - 1], math.fsum(cost[begin:end]), choices, math.fsum(luck[begin:end]))
        )
        begin = end
    return rated
