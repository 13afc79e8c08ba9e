"""The review kernel: each decision's value, the best value and the few best options,
for every state of a game (or of many games) at once, without building every option.

:func:`~yahtzee_rules.bots.solver.advise` builds an :class:`Option` for every keep and
every legal box of a roll and sorts them, from one state's per-turn tables
(:class:`~yahtzee_rules.bots.solver._turns.TurnTables`). A review needs, at each
decision, only the value of the action taken, the best value, the number of options
and (for the listing) the few best. This module first lists the decisions (a record
replayed once, or games as they are played), then works out the keep values of every
state they reach in one pass of the build's kernels (the per-turn tables' values,
operation for operation) and the fill values of every decision's roll, and reads the
decisions off them with advice's arithmetic (``base + value``: the card's points so far
plus the value). So a review built here equals, float for float, one built from
advice: tests compare the two on random games of every ruleset the solver covers.

- A roll's fill values: ``-inf`` for a box that is not an option (filled, refused by
  the Joker rule, or not its turn in a card filled in order).
- A keep's value with ``r`` rerolls left is ``keeps[r - 1]`` at the keep; the best value
  after a roll with no reroll left is the value of holding all five dice with one, with
  one left it is that with two, and with two left it is the best over the roll's
  sub-keeps.
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
from yahtzee_rules.core.dice import Keep, as_keep
from yahtzee_rules.play.game import Game, Replay
from yahtzee_rules.play.record import Fill, GameRecord
from yahtzee_rules.play.scorecard import Scorecard, category_arg
from yahtzee_rules.play.totals import totals
from yahtzee_rules.play.turn import Turn, raw_turn

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.bots.solver._table import Table

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
        # for each roll, a sub-keep's place in its row, by Keep._index
        self.subkeep_at: tuple[dict[int, int], ...] = tuple(
            {index: place for place, index in enumerate(row)} for row in self.keep_index
        )


_KERNEL: _Kernel | None = None
_LOCK = threading.Lock()


def kernel() -> _Kernel:
    global _KERNEL
    with _LOCK:
        if _KERNEL is None:
            _KERNEL = _Kernel()
        return _KERNEL


def keep_tables(
    table: Table, m: NDArray[np.intp], u: NDArray[np.intp], y: NDArray[np.intp]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """For at most ``CHUNK`` turn-start states: every keep's value with one reroll left
    and with two (``(462, states)``, the per-turn tables' ``keeps``, by the build's
    kernels), and every roll's best value with two rerolls left (``(252, states)``)."""
    model = model_of(table.rules)
    five = dice_geometry().five
    space = workspace_for(len(m))
    last, first = space.keeps(0, len(m)), space.keeps(1, len(m))
    final_values(model, table._values, m, u, y, out=last[five:])
    average_keeps(last, space)
    one = last.copy()
    first[five:] = best_over_subkeeps(last, space)
    average_keeps(first, space)
    two = first.copy()
    return one, two, best_over_subkeeps(first, space).copy()


def fill_rows(
    table: Table,
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    roll: NDArray[np.intp],
) -> NDArray[np.float64]:
    """``(decisions, boxes)``: what filling each box with roll ``roll[i]`` (internal
    order) from state ``i`` is worth, extra-Yahtzee bonus included (``-inf``: not
    allowed), as the per-turn tables' fill values."""
    model = model_of(table.rules)
    card = model.card
    closed = (model.open_bits(m)[:, None] & card.bits) == 0
    points = np.where(closed, -1, card.scores[roll])
    fives = roll < 6
    if fives.any():
        points[fives] = model.joker[roll[fives], :, m[fives]]
    worth: NDArray[np.float64]
    worth, _, _ = fill_values(model, table._values, m, u, y, points)
    if model.bonus_due.any() and fives.any():
        worth[fives] += model.bonus_due[roll[fives], y[fives], None]
    return worth


def ranked(
    row: NDArray[np.float64],
    keep_values: NDArray[np.float64] | None,
    position: int,
    base: float,
    count: int,
    members: tuple[Box, ...],
) -> tuple[list[tuple[Keep | Box, float]], int]:
    """The ``count`` best options (action and expected final score), best first as
    advice ranks them (ties included as it breaks them), and how many options there
    are, from a roll's fill values ``row`` and (with a reroll left) the values of its
    distinct sub-keeps, in the order of the kernel's ``keeps[position]``."""
    k = _KERNEL or kernel()
    boxes = np.flatnonzero(row > -np.inf)
    expected = base + row[boxes]
    if keep_values is not None:
        expected = np.concatenate((expected, base + keep_values))
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


def step_values(
    table: Table, played: list[Step]
) -> list[tuple[float, NDArray[np.float64], NDArray[np.float64] | None, int]]:
    """For each step: the card's grand total so far, the roll's fill values, the values
    of its distinct sub-keeps (``None`` with no reroll left) and the internal roll,
    every state's values worked out at once."""
    rules = table.rules
    k = _KERNEL or kernel()
    states: list[int] = []
    found: dict[int, tuple[int, int, int]] = {}
    bases: list[float] = []
    last_card: Scorecard | None = None
    index, base = 0, 0.0
    for _, turn, _ in played:
        if turn.card is not last_card:
            last_card = turn.card
            state, index = table._state(last_card)
            found[index] = state
            base = totals(last_card, rules=rules).grand_total
        states.append(index)
        bases.append(base)
    if not played:
        return []
    positions = [k.dice_pos[turn.dice._index] for _, turn, _ in played]  # type: ignore[union-attr]
    unique, inverse = np.unique(np.array(states, dtype=np.intp), return_inverse=True)
    smuy = np.array([found[s] for s in unique.tolist()], dtype=np.intp)
    m, u, y = smuy[inverse].T
    rows = fill_rows(table, m, u, y, np.array(positions, dtype=np.intp))
    keeps: list[NDArray[np.float64] | None] = [None] * len(played)
    columns = inverse.tolist()
    for lo in range(0, len(unique), CHUNK):
        hi = min(lo + CHUNK, len(unique))
        one, two, _ = keep_tables(table, *smuy[lo:hi].T)
        for i, (_, turn, _) in enumerate(played):
            column = columns[i]
            left = turn.rolls_left
            if left and lo <= column < hi:
                source = one if left == 1 else two
                keeps[i] = source[k.subkeeps[positions[i]], column - lo]
    return [(bases[i], rows[i], keeps[i], positions[i]) for i in range(len(played))]


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
    return start.dice is not None


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
    five = dice_geometry().five
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
        one, two, after_two = keep_tables(table, m[lo:hi], u[lo:hi], y[lo:hi])
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
    fills = np.flatnonzero(kind == 0)  # the boxes filled: their value, and the others'
    at = inverse[fills]
    worth = fill_rows(table, m[at], u[at], y[at], position[fills])
    chosen[fills] = worth[np.arange(len(fills)), what[fills]]
    choice = rerolls > 0
    choice[fills] |= (worth > -np.inf).sum(axis=1) > 1
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
