"""Whole games of optimal play, one after another, without a Game value per action.

:func:`yahtzee_rules.simulate` plays optimal strategies here: the same games, roll
for roll, as its loop through :class:`~yahtzee_rules.Game` (each roll draws one
``rng.random()`` and reads the roll table of the dice held, as a game does; the
strategy draws nothing), at a fraction of the cost. A test plays both and compares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from yahtzee_rules._dice import EMPTY_KEEP, Keep, roll_table
from yahtzee_rules.scorecard import empty_card
from yahtzee_rules.scoring import fill
from yahtzee_rules.totals import totals

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Sequence

    from yahtzee_rules.rules import Rules
    from yahtzee_rules.solver._table import Table

__all__ = ["optimal_scores"]


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
