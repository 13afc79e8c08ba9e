"""Playing to win: the chance of beating the other players, and a strategy that plays for it.

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

Private to the package.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.boxes import Box
from yahtzee_rules.dice import Keep
from yahtzee_rules.errors import IllegalActionError, MalformedInputError
from yahtzee_rules.game import Game
from yahtzee_rules.rules import Rules, TieRule
from yahtzee_rules.scorecard import Scorecard
from yahtzee_rules.solver._distribution import (
    LevelDistributions,
    level_distributions,
    score_distribution,
)
from yahtzee_rules.solver._geometry import dice_geometry
from yahtzee_rules.solver._model import flat_index, model_of, state_of
from yahtzee_rules.solver._table import Table
from yahtzee_rules.solver._target import Plan, TargetTable, best_keep, fills_at
from yahtzee_rules.totals import totals
from yahtzee_rules.turn import Turn

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: The weight of a tie against a win when a tie is shared (or replayed): half a win.
_TIE = 0.5


class _Chances:
    """One turn-start card: the chance of each need after each fill, every need.

    ``fills`` is ``(252, boxes, needs)`` (rolls in the internal order of
    :func:`dice_geometry`), ``-1`` where the box may not be filled.
    """

    __slots__ = ("fills",)

    def __init__(self, targets: TargetTable, card: Scorecard, top: int) -> None:
        holding = targets._locate(card)[0]  # the part of the table holding ``card``
        self.fills = fills_at(holding, card, np.arange(top + 1), -1.0)


class _Late:
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
    late: _Late | None = None,
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
    chances: dict[tuple[Scorecard, int], _Chances],
    beats: dict[Scorecard, NDArray[np.float64]] | None = None,
    late: _Late | None = None,
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
        found = chances[key] = _Chances(targets, card, top)
    # the needs weighted first, then the keeps worked out from the weighted fills: within
    # the turn the play is exact for the weighted goal; after it, each need is reached
    # as well as possible on its own
    weights = need_weights(beat, base, top, game.rules.tie, play)
    closed = found.fills[:, :, 0] < 0  # boxes that may not be filled
    return Plan(np.where(closed, -np.inf, found.fills @ weights))  # (252, boxes)


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


class WinStrategy:
    """Plays to win a game of two or more: for the score to beat, not the highest mean.

    Until the end of the game is near it plays as
    :class:`~yahtzee_rules.OptimalStrategy` does. With ``open_boxes`` boxes or fewer
    left on its card, it maximises its chance of finishing ahead of every other
    player: once the others have all finished (the last player's last turns), it
    plays for a final total one above the best of theirs, exactly (a tie counts as
    the tie rule values it: half a win when shared or played off); before that, it
    weights each score to beat by the chance the other players end with it under
    optimal-expectation play.

    The arena's :func:`~yahtzee_rules.arena.tournament` shows it the game before
    each choice (:meth:`see_game`); without a game, it plays optimal-expectation.

    Args:
        table: The expected-value table (the play before the end, and the other
            players' distributions).
        targets: A target table covering the cards with ``open_boxes`` open
            (``target_table(open_boxes=...)``), its maximum the most points to chase.
        open_boxes: How many open boxes on its card start the play to win.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Category, Game
        >>> from yahtzee_rules.solver import build_table, target_table
        >>> from yahtzee_rules import Rules, Scorecard, Turn
        >>> ann = Scorecard({c: 0 for c in Category} | {Category.CHANCE: 25})
        >>> bob = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
        >>> turn = Turn(bob).roll(outcome="66653")
        >>> game = Game(["Ann", "Bob"], rules=Rules(), cards=[ann, bob], first=0, current=1, turn=turn)
        >>> table = build_table(start=bob)
        >>> strategy = WinStrategy(table, target_table(start=bob, maximum=30), open_boxes=1)
        >>> strategy.see_game(game)
        >>> strategy.choose_keep(turn, random.Random(0)) is None  # 26 in Chance beats 25: stop
        True
        >>> strategy.choose_box(turn, random.Random(0))
        <Category.CHANCE: 12>
        >>> from yahtzee_rules import OptimalStrategy
        >>> OptimalStrategy(table).choose_keep(turn, random.Random(0))  # the mean says reroll
        Keep('5666')
    """

    __slots__ = (
        "_beats",
        "_chances",
        "_game",
        "_late",
        "_plans",
        "open_boxes",
        "table",
        "targets",
    )

    def __init__(self, table: Table, targets: TargetTable, *, open_boxes: int = 3) -> None:
        if not isinstance(table, Table):
            raise MalformedInputError(f"table {table!r}: not a Table; use load_table()")
        if not isinstance(targets, TargetTable):
            raise MalformedInputError(f"targets {targets!r}: not a TargetTable; use target_table()")
        if targets.rules != table.rules:
            raise MalformedInputError(
                f"targets for {targets.rules!r}: the table is for {table.rules!r}; "
                f"use tables for the same rules"
            )
        if isinstance(open_boxes, bool) or not isinstance(open_boxes, int) or open_boxes < 0:
            raise MalformedInputError(f"open_boxes {open_boxes!r}: not a non-negative int")
        self.table = table
        self.targets = targets
        self.open_boxes = open_boxes
        self._game: Game | None = None
        self._chances: dict[tuple[Scorecard, int], _Chances] = {}
        self._beats: dict[Scorecard, NDArray[np.float64]] = {}
        self._plans: dict[tuple[object, ...], Plan] = {}
        self._late: _Late | None = None

    def __repr__(self) -> str:
        return f"WinStrategy({self.table!r}, {self.targets!r}, open_boxes={self.open_boxes})"

    def __getstate__(self) -> tuple[Table, TargetTable, int]:
        return self.table, self.targets, self.open_boxes

    def __setstate__(self, state: tuple[Table, TargetTable, int]) -> None:
        self.__init__(state[0], state[1], open_boxes=state[2])  # type: ignore[misc]

    def see_game(self, game: Game) -> None:
        """Be shown the game before a choice (the next ``choose_*`` call is for its turn).

        Examples:
            >>> from yahtzee_rules import Game
            >>> from yahtzee_rules.solver import load_table, target_table
            >>> import yahtzee_rules
            >>> yacht = yahtzee_rules.Rules.from_name("yacht")
            >>> strategy = WinStrategy(load_table(rules=yacht), target_table(rules=yacht, maximum=40, open_boxes=1, cache=False), open_boxes=1)
            >>> strategy.see_game(Game.new(2, rules=yacht))
        """
        self._game = game

    def _plan(self, turn: Turn) -> Plan | None:
        game = self._game
        if (
            game is None
            or game.turn is None
            or game.turn.card != turn.card
            or len(game.cards) < 2
            or len(turn.card.open_categories) > self.open_boxes
        ):
            return None
        key = tuple(game.cards)
        found = self._plans.get(key)
        if found is None:
            if len(self._plans) >= 1024:
                self._plans.clear()
            if self._late is None:  # the other players' distributions, once
                self._late = _Late(self.table, self.open_boxes + 1)
            found = self._plans[key] = win_plan(
                game, self.table, self.targets, self._chances, self._beats, self._late
            )
        if not found.keeps[1][0] > 0:  # no chance of winning: play for the mean
            return None
        return found

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """The keep that maximises the chance of winning, or ``None`` to fill now.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> from yahtzee_rules.solver import load_table, target_table
            >>> import yahtzee_rules
            >>> yacht = yahtzee_rules.Rules.from_name("yacht")
            >>> strategy = WinStrategy(load_table(rules=yacht), target_table(rules=yacht, maximum=40, open_boxes=1, cache=False), open_boxes=1)
            >>> strategy.choose_keep(Turn(rules=yacht).roll(outcome="66612"), random.Random(0))  # no game: optimal play
            Keep('666')
        """
        plan = self._plan(turn)
        if plan is None:
            from yahtzee_rules.solver._advice import best_action

            action = best_action(turn, self.table)
            return action if isinstance(action, Keep) else None
        dice = turn.dice
        if dice is None or not turn.rolls_left:
            return None
        return best_keep(plan.keeps[turn.rolls_left - 1], plan.fills, dice)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The box that maximises the chance of winning.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> from yahtzee_rules.solver import load_table, target_table
            >>> import yahtzee_rules
            >>> yacht = yahtzee_rules.Rules.from_name("yacht")
            >>> strategy = WinStrategy(load_table(rules=yacht), target_table(rules=yacht, maximum=40, open_boxes=1, cache=False), open_boxes=1)
            >>> strategy.choose_box(Turn(rules=yacht).roll(outcome="66666"), random.Random(0))
            <YachtBox.YACHT: 11>
        """
        plan = self._plan(turn)
        if plan is None:
            from yahtzee_rules.solver._advice import best_box

            return best_box(turn, self.table)
        dice = turn.dice
        if dice is None:
            raise IllegalActionError("choose box: no dice yet; roll at least once")
        fills = plan.fills[int(dice_geometry().dice_pos[dice._index])]
        return turn.rules.card.members[int(fills.argmax())]


def _check_rules(rules: Rules, table: Table | TargetTable) -> None:
    if table.rules != rules:
        raise MalformedInputError(
            f"table for {table.rules!r}: the turn plays {rules!r}; use a table for the same rules"
        )
