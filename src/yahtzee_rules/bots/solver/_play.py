"""Whole games of optimal play, one after another, without a Game value per action.

:func:`yahtzee_rules.simulate` plays optimal strategies here: the same games, roll
for roll, as its loop through :class:`~yahtzee_rules.Game` (each roll draws one
``rng.random()`` and reads the roll table of the dice held, as a game does; the
strategy draws nothing), at a fraction of the cost. A test plays both and compares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from yahtzee_rules.bots.solver import _turns
from yahtzee_rules.bots.solver._codes import (
    BOX,
    STAGES,
    DamagedDecisionsError,
    Decided,
    action_decoding,
)
from yahtzee_rules.bots.solver._compiled import rolling_kernel
from yahtzee_rules.bots.solver._decisions import cached, discard, load_decisions
from yahtzee_rules.bots.solver._entries import turn_model_of
from yahtzee_rules.bots.solver._geometry import dice_geometry
from yahtzee_rules.bots.solver._model import layout_of, model_of, state_of
from yahtzee_rules.bots.solver._table import Table
from yahtzee_rules.bots.solver._turns import compiled_state
from yahtzee_rules.core.dice import EMPTY_KEEP, Keep, roll_table
from yahtzee_rules.play._filling import fill_unchecked
from yahtzee_rules.play.scorecard import empty_card
from yahtzee_rules.play.scoring import fill
from yahtzee_rules.play.totals import totals

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Sequence

    import numpy as np
    from numpy.typing import NDArray

    from yahtzee_rules.core.dice import Dice
    from yahtzee_rules.core.rules import Rules
    from yahtzee_rules.play.scorecard import Scorecard

__all__ = ["optimal_scores", "prepare_decisions"]

#: Games in one call from which the decision table is loaded or built (and cached) when
#: none is, where the compiled kernel is not built: simulate's chunks of 1,000 games.
#: With the kernel, each new state's turn is worked out as it comes (thousands of games a
#: second), and a decision table is read only when one is loaded or cached: nothing
#: large is built unless asked for (:func:`load_decisions`).
DECIDE_AT = 1000


def _builds_decisions(games: int) -> bool:
    """Whether a run of ``games`` games loads or builds the decision table itself."""
    return games >= DECIDE_AT and _turns._KERNEL is None


def prepare_decisions(tables: Sequence[Table], chunk: int) -> None:
    """Load or build (and cache) the decision tables chunks of ``chunk`` games will want.

    Run before chunks go to an executor: its workers then read each table's decisions
    from the cache instead of every one of them building its own.
    """
    if _builds_decisions(chunk):
        for table in {id(table): table for table in tables}.values():
            if cached(table) is None:
                load_decisions(table)


def optimal_scores(
    tables: Sequence[Table],
    *,
    games: int,
    rules: Rules,
    rng: random.Random,
    progress: Callable[[int, int], None] | None = None,
) -> list[int]:
    """Each seat's final grand total in each game, game after game, seat after seat.

    ``tables`` holds one table per seat, each for ``rules`` and covering the empty card.
    """
    decided = [cached(table) for table in tables]
    if _builds_decisions(games):
        decided = [
            found or load_decisions(table)._decided
            for found, table in zip(decided, tables, strict=True)
        ]
    if all(decided):
        state = rng.getstate()
        try:
            return decided_scores(
                [d for d in decided if d], games=games, rules=rules, rng=rng, progress=progress
            )
        except DamagedDecisionsError:  # a damaged file: the same games from the per-turn tables
            rng.setstate(state)
            for table in tables:
                discard(table)
    return turn_scores(tables, games=games, rules=rules, rng=rng, progress=progress)


#: States whose per-turn tables one run of :func:`turn_scores` keeps, the least recently
#: used dropped first (about 8 kB each): the early turns' states recur from game to game,
#: the late turns' rarely.
RUN_STATES: Final = 2048


class _Steps:
    """The state after a box is filled, from plain ints: ``step(state, box, points)``.

    One rule for both ways of playing (per-turn tables and decision tables): the
    filled box's bit is set, an upper box adds its points to the capped subtotal,
    and 50 in the five-of-a-kind box sets the flag where the rules keep one.
    """

    __slots__ = ("flags", "levels", "top", "upper", "yahtzee")

    def __init__(self, rules: Rules) -> None:
        layout = layout_of(rules)
        self.levels, self.flags, self.top = layout.levels, layout.flags, layout.levels - 1
        self.upper = [int(position) >= 0 for position in layout.card.upper_pos]
        self.yahtzee = layout.card.yahtzee if layout.flags == 2 else -1

    def step(self, state: tuple[int, int, int], box: int, points: int) -> tuple[int, int, int]:
        mask, u, y = state
        if self.upper[box]:
            u = min(u + points, self.top)
        if box == self.yahtzee and points == 50:
            y = 1
        return mask | 1 << box, u, y

    def index(self, state: tuple[int, int, int]) -> int:
        mask, u, y = state
        return (mask * self.levels + u) * self.flags + y


def turn_scores(
    tables: Sequence[Table],
    *,
    games: int,
    rules: Rules,
    rng: random.Random,
    progress: Callable[[int, int], None] | None = None,
) -> list[int]:
    """:func:`optimal_scores` from each seat's per-turn tables: the same games.

    Each seat's state is followed as the boxes are filled (as :func:`decided_scores`
    does), and the per-turn tables of the states met are kept for the run (at most
    :data:`RUN_STATES` per seat, the least recently used dropped first) besides the
    table's own cache.
    """
    steps = _Steps(rules)
    empty = empty_card(rules.card)
    rounds = len(rules.card)
    first_state = state_of(empty, layout_of(rules))
    scores: list[int] = []
    random = rng.random
    seats = range(len(tables))
    kept: list[dict[int, Any]] = [{} for _ in tables]  # by state index
    step, index_of = steps.step, steps.index
    # the compiled kernel plays a whole turn (rolls drawn from the same generator, in the
    # same order); else each action comes from the per-turn tables' NumPy path
    values = [table._values for table in tables]
    compiled = None
    if _turns._KERNEL is not None and all(v.flags.c_contiguous for v in values):
        compiled = rolling_kernel().turn
    turn_model = turn_model_of(model_of(rules))
    due = turn_model.due
    kernel_model = turn_model.kernel_model if compiled is not None else None
    # each seat's per-turn tables of a state: the kernel's arrays, or the TurnTables

    def arrays_of(v: NDArray[np.float64]) -> Callable[[tuple[int, int, int], int], Any]:
        return lambda state, _index: compiled_state(turn_model, v, *state)

    make = [
        table._tables_at if compiled is None else arrays_of(v)
        for table, v in zip(tables, values, strict=True)
    ]
    by_position = dice_geometry().dice
    members = rules.card.members
    first_roll = roll_table(EMPTY_KEEP) if compiled is None else ()
    for number in range(games):
        cards = [empty] * len(tables)
        states = [first_state] * len(tables)
        for _ in range(rounds):
            for seat in seats:
                state = states[seat]
                index = index_of(state)
                mine = kept[seat]
                found = mine.pop(index, None)  # put back last: the least recently used go
                if found is None:
                    if len(mine) >= RUN_STATES:
                        del mine[next(iter(mine))]
                    found = make[seat](state, index)
                mine[index] = found
                if compiled is not None:  # the same rolls and choices, in one call a turn
                    position, at = compiled(found, kernel_model, due[state[2]], random)
                    dice, box = by_position[position], members[at]
                else:
                    actions = found.actions
                    dice = first_roll[int(random() * 7776)]
                    for rerolls in (2, 1):
                        action = actions[rerolls][dice._index] or found.action(rerolls, dice._index)
                        if action.__class__ is not Keep:
                            break
                        assert isinstance(action, Keep)
                        rolls = roll_table(action)
                        dice = rolls[int(random() * len(rolls))]
                    box = actions[0][dice._index] or found.action(0, dice._index)
                    assert not isinstance(box, Keep)
                card = cards[seat] = fill_unchecked(cards[seat], dice, box, rules)
                points = card.boxes[box]
                assert points is not None
                states[seat] = step(state, box, points)  # a box's int is its position
        scores.extend(totals(card, rules=rules).grand_total for card in cards)
        if progress is not None:
            progress(number + 1, games)
    return scores


class _Damaged:
    """The roll table of a keep code naming no keep: rolling it reports the damage."""

    def __getitem__(self, outcome: int) -> Dice:
        raise DamagedDecisionsError("a keep code naming no keep of its roll")


_BAD: Final = (_Damaged(), 1)


def decided_scores(
    seats: Sequence[Decided],
    *,
    games: int,
    rules: Rules,
    rng: random.Random,
    progress: Callable[[int, int], None] | None = None,
    start: Scorecard | None = None,
) -> list[int]:
    """:func:`optimal_scores` with each seat's decision table: the same games.

    Each seat's state (filled boxes, capped upper subtotal, flag) is followed as the
    boxes are filled, so an action is a few list and memoryview lookups. Every seat
    starts from ``start`` (default: the empty card), which the tables must cover.
    """
    steps = _Steps(rules)
    members = rules.card.members
    levels, flags = steps.levels, steps.flags
    decoding = action_decoding()
    # each roll's keep codes: its roll table and the outcomes (None from BOX on: stop;
    # _BAD for codes naming no action, which raises DamagedDecisionsError when rolled)
    moves = tuple(
        tuple(
            _BAD if keep is None else (roll_table(keep), 6 ** (5 - len(keep.faces))) for keep in row
        )
        + (None,) * len(members)
        + (_BAD,) * (256 - BOX - len(members))
        for row in decoding.keeps
    )
    n = len(members)
    codes = [seat.codes for seat in seats]
    rows = [seat.rows for seat in seats]
    empty = empty_card(rules.card) if start is None else start
    rounds = len(rules.card) - empty.turns_played
    first_state = state_of(empty, layout_of(rules))
    first_roll = roll_table(EMPTY_KEEP)
    scores: list[int] = []
    random = rng.random
    players = range(len(seats))
    step = steps.step
    for number in range(games):
        cards = [empty] * len(seats)
        states = [first_state] * len(seats)
        for _ in range(rounds):
            for seat in players:
                mask, u, y = states[seat]
                code = codes[seat]
                base = rows[seat][(mask * levels + u) * flags + y] * STAGES
                if base < 0:
                    raise DamagedDecisionsError(f"no decisions for the state {states[seat]}")
                dice = first_roll[int(random() * 7776)]
                for stage in (504, 252):
                    index = dice._index
                    move = moves[index][code[base + stage + index]]
                    if move is None:
                        break
                    dice = move[0][int(random() * move[1])]
                box = code[base + dice._index] - BOX
                if not 0 <= box < n or mask >> box & 1:
                    raise DamagedDecisionsError(f"box code {box + BOX} in the state {states[seat]}")
                card = cards[seat] = fill(cards[seat], dice, members[box], rules=rules)
                points = card.boxes[box]
                assert points is not None
                states[seat] = step(states[seat], box, points)
        scores.extend(totals(card, rules=rules).grand_total for card in cards)
        if progress is not None:
            progress(number + 1, games)
    return scores
