"""Chances after each action: of reaching a target, or of beating the other players.

The score to beat is the best final total among the other players. Once they have all
finished it is known, and playing for it (a target of one more, ties counted for
what the tie rule gives them) is the exact best play for the last player. Before
that it is uncertain: each unfinished opponent's final total is taken from its
distribution under optimal-expectation play (:func:`score_distribution`), and the
chance of each action is the chance of beating that score when, afterwards, one
plays for whichever total the opponents end with. This is the near-optimal
multi-player play of Pawlewicz ("Nearly optimal computer play in multi-player
Yahtzee", 2011) in its simplest form: exact for the last player, and an upper bound
on the chance of winning otherwise.

Each is a :class:`~._target.Plan` (a turn's chance after each fill and keep), which
advice shows and :class:`~yahtzee_rules.bots.solver.WinStrategy` plays.

Private to the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.bots.solver._distribution import (
    LevelDistributions,
    level_distributions,
    score_distribution,
)
from yahtzee_rules.bots.solver._geometry import dice_geometry
from yahtzee_rules.bots.solver._model import flat_index, model_of, state_of
from yahtzee_rules.bots.solver._table import Table
from yahtzee_rules.bots.solver._target import Plan, TargetTable, fills_at
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Keep
from yahtzee_rules.core.rules import Rules, TieRule
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.totals import totals
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: The weight of a tie against a win when a tie is shared (or replayed): half a win.
_TIE = 0.5


class Chances:
    """One turn-start card: the chance of each need after each fill, every need.

    ``fills`` is ``(252, boxes, needs)`` (rolls in the internal order of
    :func:`dice_geometry`), ``-1`` where the box may not be filled.
    """

    __slots__ = ("fills",)

    def __init__(self, targets: TargetTable, card: Scorecard, top: int) -> None:
        holding = targets._locate(card)[0]  # the part of the table holding ``card``
        self.fills = fills_at(holding, card, np.arange(top + 1), -1.0)


class Late:
    """The points to come under optimal-expectation play from every card with at most
    ``open_boxes`` boxes open, worked out once."""

    __slots__ = ("levels", "model", "open_boxes")

    def __init__(self, table: Table, open_boxes: int) -> None:
        model = model_of(table.rules)
        n = model.card.n
        every: list[LevelDistributions] = []
        level_distributions(model, table._values, 0, max(n - open_boxes, 0), every=every)
        self.model = model
        self.open_boxes = open_boxes
        self.levels = {n - 1 - i: level for i, level in enumerate(every)}

    def distribution(self, card: Scorecard, rules: Rules) -> NDArray[np.float64] | None:
        """``P(final = t)`` for every total from ``card``; ``None`` if not worked out."""
        level = self.levels.get(card.turns_played)
        if level is None:
            return None
        row = int(level.row_of[flat_index(self.model, *state_of(card, self.model))])
        if row < 0:
            return None
        base = totals(card, rules=rules).grand_total
        to_come = level.dist[row]
        return np.concatenate((np.zeros(base), to_come))


def beat_distribution(
    game: Game,
    seat: int,
    table: Table,
    cache: dict[Scorecard, NDArray[np.float64]] | None = None,
    late: Late | None = None,
) -> NDArray[np.float64]:
    """``P(S = s)`` for every total ``s``: ``S`` the best final total of the other seats.

    Finished opponents count with their totals, the others with their distributions
    under optimal-expectation play from their cards (turn starts: only ``seat`` is
    in a turn), taken as independent.
    """
    rules = game.rules
    below: NDArray[np.float64] | None = None  # P(S <= s)
    for other, card in enumerate(game.cards):
        if other == seat:
            continue
        if card.is_complete:
            total = totals(card, rules=rules).grand_total
            probabilities = np.zeros(total + 1)
            probabilities[total] = 1.0
        else:
            found = None if late is None else late.distribution(card, rules)
            if found is None and cache is not None:
                found = cache.get(card)
            if found is None:
                found = np.array(score_distribution(card, rules=rules, table=table).probabilities)
                if cache is not None:
                    if len(cache) >= 4096:
                        cache.clear()
                    cache[card] = found
            probabilities = found
        cumulative = np.cumsum(probabilities)
        if below is None:
            below = cumulative
        else:
            size = max(len(below), len(cumulative))
            below = _pad(below, size) * _pad(cumulative, size)
    if below is None:
        raise MalformedInputError("game with one player: there is nobody to beat")
    return np.diff(below, prepend=0.0)


def _pad(cumulative: NDArray[np.float64], size: int) -> NDArray[np.float64]:
    return np.concatenate((cumulative, np.full(size - len(cumulative), cumulative[-1])))


def need_weights(
    beat: NDArray[np.float64], base: int, top: int, tie: TieRule, play: bool = True
) -> NDArray[np.float64]:
    """Weights over points still needed (0 to ``top``) whose sum with the chances of
    reaching each need is the chance of winning (ties as the tie rule values them).

    A need beyond ``top`` is taken as out of reach. To ``play`` with the score to
    beat known, the weight is all on beating it (a tie only breaks equal chances).
    """
    weights = np.zeros(top + 1)
    tie_value = 0.0 if tie is TieRule.UPPER_TOTAL else _TIE
    support = np.flatnonzero(beat)
    if play and len(support) == 1:  # the score to beat is known: play for one more, exactly
        s = int(support[0])
        win, level = max(s + 1 - base, 0), max(s - base, 0)
        if win <= top:
            weights[win] = 1.0
        if tie_value and level <= top:
            weights[level] += 1e-9  # between equal chances of winning, the better tie chance
        return weights
    for score in support.tolist():
        p = float(beat[score])
        win = max(score + 1 - base, 0)  # P(final >= score + 1)
        if win <= top:
            weights[win] += p * (1 - tie_value)
        level = max(score - base, 0)  # P(final >= score): a tie or better
        if tie_value and level <= top:
            weights[level] += p * tie_value
    return weights


def win_plan(
    game: Game,
    table: Table,
    targets: TargetTable,
    chances: dict[tuple[Scorecard, int], Chances],
    beats: dict[Scorecard, NDArray[np.float64]] | None = None,
    late: Late | None = None,
    play: bool = True,
) -> Plan:
    """The current player's chance of winning after each action, as a :class:`Plan`."""
    seat = game.current
    card = game.cards[seat]
    beat = beat_distribution(game, seat, table, beats, late)
    base = totals(card, rules=game.rules).grand_total
    top = min(max(len(beat) - base, 0), targets.maximum)
    key = (card, top)
    found = chances.get(key)
    if found is None:
        if len(chances) >= 1024:
            chances.clear()
        found = chances[key] = Chances(targets, card, top)
    # the needs weighted first, then the keeps worked out from the weighted fills: within
    # the turn the play is exact for the weighted goal; after it, each need is reached
    # as well as possible on its own
    weights = need_weights(beat, base, top, game.rules.tie, play)
    closed = found.fills[:, :, 0] < 0  # boxes that may not be filled
    # the weighted sum in NumPy's own loop, not BLAS: the same bits on every processor
    weighted = np.einsum("rbn,n->rb", found.fills, weights)
    return Plan(np.where(closed, -np.inf, weighted))  # (252, boxes)


def target_plan(targets: TargetTable, card: Scorecard, target: int) -> Plan:
    """The chance of a final total of ``target`` or more after each action."""
    return targets._turn(card, targets._need(card, target))


def chance_of(plan: Plan, turn: Turn, action: Keep | Box) -> float:
    g = dice_geometry()
    assert turn.dice is not None
    position = int(g.dice_pos[turn.dice._index])
    if isinstance(action, Keep):
        return float(plan.keeps[turn.rolls_left - 1][g.keep_pos[action._index]])
    return float(plan.fills[position, turn.rules.card.members.index(action)])
