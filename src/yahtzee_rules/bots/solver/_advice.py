"""Advice: the value of every option in a turn."""

from __future__ import annotations

from gc import get_referents
from typing import TYPE_CHECKING

import attrs

from yahtzee_rules.bots.solver._chances import chance_of, target_plan, win_plan
from yahtzee_rules.bots.solver._decisions import check_pair
from yahtzee_rules.bots.solver._geometry import dice_geometry
from yahtzee_rules.bots.solver._model import same_values
from yahtzee_rules.bots.solver._table import Table
from yahtzee_rules.bots.solver._target import Plan, TargetTable
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.play._filling import legal
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._frozen import reinit_error
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from yahtzee_rules.play.scorecard import Scorecard


def action_text(action: Keep | Box, dice: Dice | None = None) -> str:
    """An action in plain words: ``"hold 66 and reroll 3"``, ``"fill Sixes"``.

    Args:
        action: A keep (the dice held before rerolling the others) or a box to fill.
        dice: The dice showing, to name the dice rerolled.

    Examples:
        >>> from yahtzee_rules import Category
        >>> action_text(Keep("66"), Dice("12366")), action_text(Category.SIXES)
        ('hold 66 and reroll 1 2 3', 'fill Sixes')
        >>> action_text(Keep(""), Dice("12366")), action_text(Keep("12366"), Dice("12366"))
        ('reroll all five', 'hold all five')
    """
    if isinstance(action, Box):
        return f"fill {action.label}"
    if not action.faces:
        return "reroll all five"
    if len(action.faces) == 5:
        return "hold all five"
    if dice is None:
        return f"hold {action} and reroll the rest"
    rest = list(dice.faces)
    for face in action.faces:
        rest.remove(face)
    return f"hold {action} and reroll {' '.join(map(str, rest))}"


@attrs.frozen(repr=False)
class Option:
    """One thing a player may do now, and the expected final score if they do it.

    Attributes:
        action: A :class:`~yahtzee_rules.Keep` to hold before rerolling (an empty keep
            rerolls all five), or a box of the card (a :class:`~yahtzee_rules.Box`,
            such as a :class:`~yahtzee_rules.Category`) to fill.
        expected: The expected final grand total (points on the card, bonuses
            included) after this action, with optimal play from then on.
        chance: When :func:`advise` is asked for a target or for the game: the chance
            of reaching the target, or of winning, after this action, playing for it
            from then on; else ``None``.

    Examples:
        >>> from yahtzee_rules import Category
        >>> option = Option(Category.CHANCE, 212.5)
        >>> option.is_fill, option.is_keep
        (True, False)
        >>> Option(Category.CHANCE, 212.5, 0.25)
        Option(action=<Category.CHANCE: 12>, expected=212.5, chance=0.25)
    """

    action: Keep | Box
    expected: float
    chance: float | None = None

    def __repr__(self) -> str:
        chance = "" if self.chance is None else f", chance={self.chance!r}"
        return f"Option(action={self.action!r}, expected={self.expected!r}{chance})"

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    @property
    def is_fill(self) -> bool:
        """Whether the option fills a box (ending the turn).

        Examples:
            >>> Option(Keep("66"), 20.0).is_fill
            False
        """
        return isinstance(self.action, Box)

    @property
    def is_keep(self) -> bool:
        """Whether the option holds dice and rolls again.

        Examples:
            >>> Option(Keep("66"), 20.0).is_keep
            True
        """
        return isinstance(self.action, Keep)


@attrs.frozen
class Advice:
    """Every option for a turn with its expected final score, best first.

    Attributes:
        turn: The turn advised on.
        options: Each distinct keep (while rolls remain) and each legal box, sorted by
            expected final grand total, best first. On a tie a fill comes before a keep
            and a smaller keep before a larger one. Before the first roll the only
            option is to roll all five dice (an empty keep).

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import build_table
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
        >>> advice = advise(Turn(card).roll(outcome="66666"), build_table(start=card))
        >>> advice.best
        Option(action=<Category.YAHTZEE: 11>, expected=55.0)
        >>> len(advice.options)  # 6 keeps of 66666, and the Yahtzee box
        7
    """

    turn: Turn
    options: tuple[Option, ...]

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    @property
    def best(self) -> Option:
        """The option with the highest expected final score.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import build_table
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> advise(Turn(card), build_table(start=card)).best.action
            Keep('')
        """
        return self.options[0]

    @property
    def expected(self) -> float:
        """The expected final grand total with optimal play from here.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import build_table
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> round(advise(Turn(card), build_table(start=card)).expected, 4)
            23.3333
        """
        return self.options[0].expected

    @property
    def most_likely(self) -> Option:
        """The option with the highest :attr:`~Option.chance`.

        Of equal chances (within 1e-12), a fill comes first (holding all five dice
        gains nothing), then the highest expected score.

        Raises:
            MalformedInputError: If the advice was not asked for chances.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import build_table, target_table
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> turn = Turn(card).roll(outcome="66653")
            >>> advice = advise(turn, build_table(start=card), target=26, targets=target_table(start=card, maximum=30))
            >>> advice.best.action, advice.most_likely.action  # the mean rolls on; 26 is in hand
            (Keep('5666'), <Category.CHANCE: 12>)
            >>> advice.most_likely.chance
            1.0
        """
        if self.options[0].chance is None:
            raise MalformedInputError(
                "most likely: this advice has no chances; ask advise() for a target or a game"
            )
        top = max(o.chance for o in self.options if o.chance is not None)
        level = [o for o in self.options if o.chance is not None and o.chance >= top - 1e-12]
        return next((o for o in level if o.is_fill), level[0])

    def expected_of(self, action: Keep | Box) -> float:
        """The expected final grand total after ``action``.

        Raises:
            IllegalActionError: If ``action`` is not one of the options now.

        Examples:
            >>> from yahtzee_rules import Category, Keep, Scorecard, Turn
            >>> from yahtzee_rules.bots.solver import build_table
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> advice = advise(Turn(card).roll(outcome="12366"), build_table(start=card))
            >>> round(advice.expected_of(Keep("66")), 4), advice.expected_of(Category.CHANCE)
            (24.75, 18.0)
        """
        for option in self.options:
            if option.action == action:
                return option.expected
        from yahtzee_rules.support.errors import IllegalActionError

        raise IllegalActionError(
            f"action {action!r}: not an option now; the options are "
            f"{', '.join(repr(o.action) for o in self.options)}"
        )


def advise(
    turn: Turn,
    table: Table,
    *,
    target: int | None = None,
    targets: TargetTable | None = None,
    game: Game | None = None,
) -> Advice:
    """The expected final score of every option in ``turn``, under optimal play afterwards.

    On request, each option's :attr:`~Option.chance` too: with ``target``, the chance
    of a final total of ``target`` or more after it, playing for that total from then
    on (exact); with ``game`` (whose turn is ``turn``), the chance of winning the game
    after it, playing to win as :class:`WinStrategy` does, a tie counted as the tie
    rule values it (half a win when shared or played off): exact once every other
    player has finished; before that the score to beat is weighted by the other
    players' distributions under optimal play, an upper bound on the chance. Either
    needs a target table (``targets``) covering the card up to the points needed;
    chances of needing more count as 0. Once the tables exist a target or a game
    whose other players have finished costs a fraction of a millisecond (the plan
    for a card and need is worked out on the first call and kept); before the others
    finish, a game also works out their score distributions (under a second each
    with six boxes or fewer open, minutes from an empty card).

    Args:
        turn: The turn: card, dice and rolls left.
        table: A table for the turn's rules that covers its card.
        target: The final total whose chance to give (keyword only).
        targets: The :class:`TargetTable` for ``target`` or ``game`` (keyword only).
        game: The game whose chance of winning to give (keyword only).

    Raises:
        MalformedInputError: For a table built for other rules or not covering the card,
            ``target`` and ``game`` together, either without ``targets``, or a game
            whose turn is not ``turn``.

    Examples:
        >>> from yahtzee_rules import Category, Keep, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import build_table
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
        >>> advice = advise(Turn(card).roll(outcome="66612"), build_table(start=card))
        >>> [(str(o.action), round(o.expected, 2)) for o in advice.options[:3]]
        [('666', 45.0), ('1666', 44.17), ('2666', 44.17)]
        >>> from yahtzee_rules.bots.solver import target_table
        >>> targets = target_table(start=card, maximum=60)
        >>> advice = advise(Turn(card).roll(outcome="66612"), build_table(start=card), target=50, targets=targets)
        >>> [(str(o.action), round(o.chance, 4)) for o in advice.options[:2]]
        [('666', 0.2271), ('1666', 0.1759)]
        >>> str(advice.most_likely.action)
        '666'
    """
    turn, table = check_pair(turn, table)
    plan = _plan(turn, table, target, targets, game)
    tables = table._turn_tables(turn.card)
    from yahtzee_rules.play.totals import totals

    base = totals(turn.card, rules=turn.rules).grand_total
    dice = turn.dice
    if dice is None:
        chance = None if plan is None else plan.start
        return Advice(turn, (Option(Keep(), base + tables.start, chance),))
    g = dice_geometry()
    position = int(g.dice_pos[dice._index])
    ranked: list[tuple[float, int, int, Option]] = []
    fills = tables.fills()
    for category in legal(turn.card.boxes, dice, turn.rules):
        expected = base + float(fills[position, category])
        chance = None if plan is None else chance_of(plan, turn, category)
        ranked.append((-expected, 0, int(category), Option(category, expected, chance)))
    rerolls = turn.rolls_left
    if rerolls:
        keep_values = tables.keeps[rerolls - 1]
        for keep in dice.keeps():
            expected = base + float(keep_values[g.keep_pos[keep._index]])
            chance = None if plan is None else chance_of(plan, turn, keep)
            ranked.append((-expected, 1, keep._index, Option(keep, expected, chance)))
    ranked.sort(key=lambda item: item[:3])
    return Advice(turn, tuple(item[3] for item in ranked))


_PLANS: dict[tuple[object, ...], Plan] = {}
# the other players' score distributions, by table (kept alive here, so its id stays its
# own) and card: a game's later turns, and a review's, ask for the same cards again
_BEATS: dict[int, tuple[Table, dict[Scorecard, NDArray[np.float64]]]] = {}


def _plan(
    turn: Turn,
    table: Table,
    target: object,
    targets: object,
    game: object,
) -> Plan | None:
    """What ``advise`` needs for the chances asked for; ``None`` when none are."""
    if target is None and game is None:
        return None
    if target is not None and game is not None:
        raise MalformedInputError(
            "advise: target and game given together; ask for one chance at a time"
        )
    if not isinstance(targets, TargetTable):
        raise MalformedInputError(
            f"targets {targets!r}: not a TargetTable; chances need one, from target_table()"
        )
    if not same_values(targets.rules, turn.rules):
        raise MalformedInputError(
            f"targets for {targets.rules!r}: the turn plays {turn.rules!r}; "
            f"use a target table built for the turn's rules"
        )
    if target is not None:
        if isinstance(target, bool) or not isinstance(target, int):
            raise MalformedInputError(f"target {target!r}: not an int")
        return target_plan(targets, turn.card, target)
    if not isinstance(game, Game) or game.is_over or game.cards[game.current] != turn.card:
        raise MalformedInputError(
            f"game {game!r}: not a Game whose turn is the turn advised on; pass the game "
            f"the turn is in"
        )
    if len(game.players) < 2:
        raise MalformedInputError("game: one player; the chance of winning needs opponents")
    key = (tuple(game.cards), game.current, id(table), id(targets))
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        held = _BEATS.get(id(table))
        if held is None or held[0] is not table:
            if len(_BEATS) >= 4:
                _BEATS.clear()
            held = _BEATS[id(table)] = (table, {})
        found = _PLANS[key] = win_plan(game, table, targets, {}, held[1], play=False)
    return found
