"""Whole games of optimal play, one after another, without a Game value per action.

:func:`yahtzee_rules.simulate` plays optimal strategies here: the same games, roll
for roll, as its loop through :class:`~yahtzee_rules.Game` (each roll draws one
``rng.random()`` and reads the roll table of the dice held, as a game does; the
strategy draws nothing), at a fraction of the cost. A test plays both and compares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from yahtzee_rules.bots.solver._codes import (
    BOX,
    STAGES,
    DamagedDecisionsError,
    Decided,
    action_decoding,
)
from yahtzee_rules.bots.solver._decisions import cached, discard, load_decisions
from yahtzee_rules.bots.solver._model import layout_of, state_of
from yahtzee_rules.bots.solver._table import Table
from yahtzee_rules.core.dice import EMPTY_KEEP, Keep, roll_table
from yahtzee_rules.play.scorecard import empty_card
from yahtzee_rules.play.scoring import fill
from yahtzee_rules.play.totals import totals

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Sequence

    from yahtzee_rules.core.dice import Dice
    from yahtzee_rules.core.rules import Rules
    from yahtzee_rules.play.scorecard import Scorecard

__all__ = ["optimal_scores", "prepare_decisions"]

#: Games in one call from which the decision table is loaded or built (and cached) when
#: none is: simulate's chunks of 1,000 games. Fewer games work out each new card's turn.
DECIDE_AT = 1000


def prepare_decisions(tables: Sequence[Table], chunk: int) -> None:
    """Load or build (and cache) the decision tables chunks of ``chunk`` games will want.

    Run before chunks go to an executor: its workers then read each table's decisions
    from the cache instead of every one of them building its own.
    """
    if chunk >= DECIDE_AT:
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
    if games >= DECIDE_AT:
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
    empty = empty_card(rules.card)
    rounds = len(rules.card)
    first_roll = roll_table(EMPTY_KEEP)
    scores: list[int] = []
    random = rng.random
    for number in range(games):
        cards = [empty] * len(tables)
        for _ in range(rounds):
            for seat, table in enumerate(tables):
                card = cards[seat]
                tables_now = table._turns.get(card.boxes) or table._turn_tables(card)
                actions = tables_now.actions
                dice = first_roll[int(random() * 7776)]
                for rerolls in (2, 1):
                    action = actions[rerolls][dice._index]
                    if action is None:
                        action = tables_now.action(rerolls, dice._index)
                    if action.__class__ is not Keep:
                        break
                    assert isinstance(action, Keep)
                    dice = roll_table(action)[int(random() * 6 ** (5 - len(action.faces)))]
                box = actions[0][dice._index] or tables_now.action(0, dice._index)
                assert not isinstance(box, Keep)
                cards[seat] = fill(card, dice, box, rules=rules)
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
    layout = layout_of(rules)
    card_geometry = layout.card
    members = rules.card.members
    levels, flags, top = layout.levels, layout.flags, layout.levels - 1
    upper = [int(position) >= 0 for position in card_geometry.upper_pos]
    yahtzee = card_geometry.yahtzee if flags == 2 else -1
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
    first_state = state_of(empty, layout)
    first_roll = roll_table(EMPTY_KEEP)
    scores: list[int] = []
    random = rng.random
    players = range(len(seats))
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
                if upper[box]:
                    u = min(u + points, top)
                if box == yahtzee and points == 50:
                    y = 1
                states[seat] = (mask | 1 << box, u, y)
        scores.extend(totals(card, rules=rules).grand_total for card in cards)
        if progress is not None:
            progress(number + 1, games)
    return scores
