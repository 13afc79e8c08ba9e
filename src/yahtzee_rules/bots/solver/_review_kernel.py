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

import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.bots.solver._geometry import dice_geometry
from yahtzee_rules.bots.solver._turns import turn_geometry
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.play.game import Game, Replay
from yahtzee_rules.play.record import Fill, GameRecord
from yahtzee_rules.play.turn import Turn

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.bots.solver._turns import TurnTables

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
