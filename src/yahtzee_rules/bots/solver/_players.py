"""The players: strategies that play for a target or to win, above the advice they fall back on.

:class:`~yahtzee_rules.bots.solver.TargetStrategy` maximises the chance of reaching a
final total, :class:`~yahtzee_rules.bots.solver.WinStrategy` the chance of winning a
game; before the end of a game, or with no chance left, the latter plays as
:class:`~yahtzee_rules.OptimalStrategy` does (:func:`~._decisions.best_action`).
Their keeps and boxes are the choice kernel's (:mod:`._choice`).

Private to the package; the strategies are public.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.bots.solver._chances import Chances, Late, win_plan
from yahtzee_rules.bots.solver._choice import first_box, keep_of_roll
from yahtzee_rules.bots.solver._decisions import best_action, best_box
from yahtzee_rules.bots.solver._geometry import dice_geometry
from yahtzee_rules.bots.solver._model import same_values
from yahtzee_rules.bots.solver._table import Table
from yahtzee_rules.bots.solver._target import Plan, TargetTable
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray


def best_keep(
    keep_values: NDArray[np.float64], fills: NDArray[np.float64], dice: Dice
) -> Keep | None:
    """The keep of ``dice`` the choice kernel picks by ``keep_values`` (a value per keep for
    the rolls left), or ``None`` to fill now (``fills``: each roll's fill values).

    Holding all five dice is worth the best fill (the plans are built so), so stopping
    is holding them: see :mod:`._choice`.
    """
    g = dice_geometry()
    chosen = keep_of_roll(keep_values, int(g.dice_pos[dice._index]))
    return g.keeps[chosen] if chosen < g.five else None


class TargetStrategy:
    """A strategy that maximises the chance of a final total of at least ``target``.

    It is a :class:`~yahtzee_rules.Strategy`, so :func:`~yahtzee_rules.simulate`
    can play it, in any game its table covers: each keep
    and box maximises the chance of reaching ``target`` given the points on the card.
    Equal chances resolve as for every player of the solver (:mod:`._choice`): the
    keep with the fewest dice (then the lowest faces), holding all five dice (filling
    now) last among them, and the box first in card order.

    Args:
        table: A :class:`TargetTable` for the rules played, with a maximum of at
            least ``target``.
        target: The final total to reach.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import target_table
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
        >>> strategy = TargetStrategy(target_table(start=card, maximum=60), 40)
        >>> turn = Turn(card).roll(outcome="66653")
        >>> strategy.choose_keep(turn, random.Random(0))
        Keep('666')
    """

    __slots__ = ("table", "target")

    def __init__(self, table: TargetTable, target: int) -> None:
        if not isinstance(table, TargetTable):
            raise MalformedInputError(f"table {table!r}: not a TargetTable; use target_table()")
        if isinstance(target, bool) or not isinstance(target, int) or target > table.maximum:
            raise MalformedInputError(
                f"target {target!r}: not an int up to the table's maximum of {table.maximum}"
            )
        self.table = table
        self.target = target

    def __repr__(self) -> str:
        return f"TargetStrategy({self.table!r}, {self.target!r})"

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """The keep that maximises the chance of the target, or ``None`` to fill now.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import target_table
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> strategy = TargetStrategy(target_table(start=card, maximum=30), 28)
            >>> strategy.choose_keep(Turn(card).roll(outcome="66541"), random.Random(0))
            Keep('566')
        """
        dice = turn.dice
        if dice is None or not turn.rolls_left:
            return None
        need = self.table._need(turn.card, self.target)
        tables = self.table._turn(turn.card, need)
        return best_keep(tables.keeps[turn.rolls_left - 1], tables.fills, dice)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The box that maximises the chance of the target.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import target_table
            >>> card = Scorecard({c: 0 for c in Category if c not in (Category.ACES, Category.CHANCE)})
            >>> strategy = TargetStrategy(target_table(start=card, maximum=40), 25)
            >>> strategy.choose_box(Turn(card).roll(outcome="66655"), random.Random(0))
            <Category.CHANCE: 12>
        """
        g = dice_geometry()
        dice = turn.dice
        if dice is None:
            raise IllegalActionError("choose box: no dice yet; roll at least once")
        need = self.table._need(turn.card, self.target)
        fills = self.table._turn(turn.card, need).fills[int(g.dice_pos[dice._index])]
        return turn.rules.card.members[int(first_box(fills))]


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

    The arena's :func:`~yahtzee_rules.bots.arena.tournament` shows it the game before
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
        >>> from yahtzee_rules.bots.solver import build_table, target_table
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
        if not same_values(targets.rules, table.rules):
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
        self._chances: dict[tuple[Scorecard, int], Chances] = {}
        self._beats: dict[Scorecard, NDArray[np.float64]] = {}
        self._plans: dict[tuple[object, ...], Plan] = {}
        self._late: Late | None = None

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
            >>> from yahtzee_rules.bots.solver import load_table, target_table
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
            or game.is_over
            or game.cards[game.current] != turn.card
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
                self._late = Late(self.table, self.open_boxes + 1)
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
            >>> from yahtzee_rules.bots.solver import load_table, target_table
            >>> import yahtzee_rules
            >>> yacht = yahtzee_rules.Rules.from_name("yacht")
            >>> strategy = WinStrategy(load_table(rules=yacht), target_table(rules=yacht, maximum=40, open_boxes=1, cache=False), open_boxes=1)
            >>> strategy.choose_keep(Turn(rules=yacht).roll(outcome="66612"), random.Random(0))  # no game: optimal play
            Keep('666')
        """
        plan = self._plan(turn)
        if plan is None:
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
            >>> from yahtzee_rules.bots.solver import load_table, target_table
            >>> import yahtzee_rules
            >>> yacht = yahtzee_rules.Rules.from_name("yacht")
            >>> strategy = WinStrategy(load_table(rules=yacht), target_table(rules=yacht, maximum=40, open_boxes=1, cache=False), open_boxes=1)
            >>> strategy.choose_box(Turn(rules=yacht).roll(outcome="66666"), random.Random(0))
            <YachtBox.YACHT: 11>
        """
        plan = self._plan(turn)
        if plan is None:
            return best_box(turn, self.table)
        dice = turn.dice
        if dice is None:
            raise IllegalActionError("choose box: no dice yet; roll at least once")
        fills = plan.fills[int(dice_geometry().dice_pos[dice._index])]
        return turn.rules.card.members[int(first_box(fills))]
