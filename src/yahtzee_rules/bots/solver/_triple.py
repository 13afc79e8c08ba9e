"""Triple Yahtzee played well: each column valued by the Classic table, one choice over all.

No table reaches a card of several columns (see ``check_solvable``), so
:class:`~yahtzee_rules.bots.solver.TripleStrategy` values a position by its columns:
each column is a Classic card (its filled boxes, its capped upper subtotal, whether
its Yahtzee box holds 50), worth the Classic table's expected points to come from
that state, times the column's multiplier. Filling a box of column ``c`` with some
dice gains ``m_c * (points + upper bonus completed + V(after) - V(before))`` (plus an
extra-Yahtzee bonus, not multiplied, when the card's rules pay one); every other
column keeps its value. Each turn is then solved exactly against that sum, over the
boxes of every column at once: the best box for every roll, and the best keep with
one and with two rerolls left, by the solver's own kernels (:mod:`._turns`) and its
one choice rule (:mod:`._choice`).

The sum is exactly the expected score of *rotation* play from the position (each
column played by the optimal Classic policy on turns of its own), up to the Joker and
extra-Yahtzee rules that tie the columns together, so each choice is a policy
improvement step over rotation: choosing the column after seeing the dice can only
gain. :class:`~yahtzee_rules.bots.solver.RotationStrategy` plays that baseline (turn
``t`` in column ``t mod 3``). ``docs/explanation/decisions/0021-triple-strategy.md``
records the method and its measurements.

Private to the package; the strategies are public.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import attrs
import numpy as np

from yahtzee_rules.bots.solver._advice import Advice, Option, action_text
from yahtzee_rules.bots.solver._choice import first_box, keep_of_roll
from yahtzee_rules.bots.solver._entries import turn_model_of
from yahtzee_rules.bots.solver._geometry import NEG, dice_geometry
from yahtzee_rules.bots.solver._model import flat_index, model_of, same_values
from yahtzee_rules.bots.solver._table import Table, load_table
from yahtzee_rules.bots.solver._turns import (
    best_fills_to_keeps,
    entry_worth,
    reroll_level,
)
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.core.dice import EMPTY_KEEP, Dice, Keep, roll_table
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play._filling import bonus_due, fill_unchecked, is_extra, legal
from yahtzee_rules.play.scorecard import Scorecard, empty_card
from yahtzee_rules.play.totals import totals
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["RotationStrategy", "TripleStrategy", "column_rules"]

#: What the values of these strategies are, wherever they are shown.
APPROXIMATION = (
    "an approximation: each column valued by the Classic table, not the optimum (no table "
    "reaches this card)"
)

#: Column states whose fills are kept, per rules and table; plans (whole cards) kept.
_COLUMN_CACHE = 2048
_PLAN_CACHE = 64
# Five dice of one face, and a roll of five that are not (what its boxes take does not
# depend on which: the Joker and the forced Yahtzee concern five equal dice only).
_FIVES = tuple(Dice([face] * 5) for face in range(1, 7))
_PROBE = Dice("12346")


def column_rules(rules: Rules) -> Rules:
    """The Classic rules one column of ``rules`` is valued under: the same Joker rule and
    bonuses on the Classic card (for Triple Yahtzee's usual ruleset, Hasbro's Classic game).

    Raises:
        MalformedInputError: For rules whose card is not several columns of the Classic
            boxes.

    Examples:
        >>> from yahtzee_rules import Rules
        >>> column_rules(Rules.from_name("triple")) == Rules()
        True
        >>> column_rules(Rules())
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: rules 'forced': the Classic card has one column; TripleStrategy plays a card of several columns of the Classic boxes, such as Rules.from_name("triple"); play this card with OptimalStrategy
    """
    if not isinstance(rules, Rules):
        raise MalformedInputError(
            f"rules {show(rules)}: not a Rules; use Rules.from_name('triple')"
        )
    card = rules.card
    columns = card.columns
    if len(columns) < 2 or any(
        [box.face for box in column] != [box.face for box in CLASSIC.members]
        or [card.possible[box] for box in column] != [CLASSIC.possible[b] for b in CLASSIC.members]
        for column in columns
    ):
        one = "has one column" if len(columns) < 2 else "is not columns of the Classic boxes"
        raise MalformedInputError(
            f"rules {rules.name!r}: the {card.title} card {one}; TripleStrategy plays a card of "
            f'several columns of the Classic boxes, such as Rules.from_name("triple"); play '
            f"this card with OptimalStrategy"
        )
    return attrs.evolve(rules, card=CLASSIC, tie="share")


class _Columns:
    """What valuing the columns of one ruleset by one Classic table needs, shared by every
    strategy playing them (the fills of the column states met are kept, up to a bound)."""

    def __init__(self, rules: Rules, table: Table) -> None:
        self.rules = rules
        self.table = table
        self.model = model_of(table.rules)
        self.turn_model = turn_model_of(self.model)
        self.values = table.values
        card = rules.card
        self.card = card
        self.members = card.members
        self.multipliers = tuple(float(m) for m in card.multipliers)
        self.boxes = tuple(tuple(int(box) for box in column) for column in card.columns)
        # each box of the card: its column and its row (the Classic box)
        self.where = {
            card.members[box]: (c, i)
            for c, column in enumerate(self.boxes)
            for i, box in enumerate(column)
        }
        # each column's boxes, a run of the card's, the columns in card order (as on
        # Triple Yahtzee's card)
        self.places = tuple(slice(column[0], column[-1] + 1) for column in self.boxes)
        if [box for column in self.boxes for box in column] != list(range(len(card))):
            raise MalformedInputError(
                f"rules {rules.name!r}: the columns of the {card.title} card are not runs of "
                f"its boxes; TripleStrategy plays cards whose columns are"
            )
        # whether a roll may fill fewer than the open boxes (a row filled left to right,
        # boxes in card order), and whether five equal dice can be forced (Forced Yahtzee)
        self.ordered = card.left_to_right or rules.in_order
        self.forced = rules.forced_yahtzee
        self.upper = tuple(int(box) for box in CLASSIC.upper)
        self.yahtzee = int(CLASSIC.members.index(CLASSIC.yahtzees[0]))
        self.top = self.model.levels - 1
        self.flagged = self.model.flags == 2
        g = dice_geometry()
        self.fives_pos = tuple(int(g.dice_pos[dice._index]) for dice in _FIVES)
        self.cache: dict[tuple[int, int, int, int], Column] = {}
        self.lock = threading.Lock()

    def state(self, boxes: tuple[int | None, ...], c: int) -> tuple[int, int, int]:
        """Column ``c`` of a card as a Classic state: filled boxes, capped upper, flag."""
        column = boxes[self.places[c]]
        mask = 0
        bit = 1
        for points in column:
            if points is not None:
                mask |= bit
            bit <<= 1
        upper = min(sum(column[i] or 0 for i in self.upper), self.top)
        flag = 1 if self.flagged and column[self.yahtzee] == 50 else 0
        return mask, upper, flag

    def column(self, c: int, state: tuple[int, int, int]) -> Column:
        """Column ``c`` in ``state``: its value times the multiplier, what each entry
        gains (times the multiplier), each roll in each of its boxes, and each roll in
        its best box."""
        key = (c, *state)
        found = self.cache.get(key)
        if found is None:
            m = self.multipliers[c]
            value = float(self.values[flat_index(self.model, *state)])
            worth = entry_worth(self.model, self.values, *state)
            worth -= value
            worth *= m
            rolls = worth[self.turn_model.codes]
            found = (value * m, worth, rolls, rolls.max(axis=1))
            with self.lock:  # the web table's worker threads share it
                if len(self.cache) >= _COLUMN_CACHE:
                    del self.cache[next(iter(self.cache))]
                self.cache[key] = found
        return found


#: One column in one state (:meth:`_Columns.column`).
Column = tuple[float, "NDArray[np.float64]", "NDArray[np.float64]", "NDArray[np.float64]"]

_SHARED: dict[tuple[Rules, int], _Columns] = {}
_SHARED_LOCK = threading.Lock()


def _columns(rules: Rules, table: Table) -> _Columns:
    key = (rules, id(table))
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is None or found.table is not table:
            if len(_SHARED) >= 8:
                _SHARED.clear()
            found = _SHARED[key] = _Columns(rules, table)
        return found


class _Plan:
    """One card's turn: what each roll gains in each box (``-inf`` where it may not go),
    the keep values with one and with two rerolls left, and the columns' value now.

    ``fills`` is ``None`` when every open box may take every roll as the columns score
    it, but for the rolls in ``patched`` (five dice of a kind, as the Joker rule has
    them): the columns' rows then stand for it, put end to end on demand.
    """

    __slots__ = ("base", "fills", "keeps", "parts", "patched", "start")

    def __init__(
        self,
        fills: NDArray[np.float64] | None,
        parts: Sequence[NDArray[np.float64]],
        best: NDArray[np.float64],
        base: float,
        patched: dict[int, NDArray[np.float64]] | None = None,
    ) -> None:
        self.fills = fills
        self.parts = parts
        self.base = base
        self.patched = patched
        self.keeps = best_fills_to_keeps(best)
        self.start: float | None = None

    def row(self, position: int) -> NDArray[np.float64]:
        """What the roll at internal ``position`` gains in each box of the card."""
        row: NDArray[np.float64] | None
        if self.fills is not None:
            row = self.fills[position]
        else:
            row = self.patched.get(position) if self.patched else None
            if row is None:
                row = np.concatenate([part[position] for part in self.parts])
        return row

    def turn_start(self) -> float:
        """What the turn gains before its first roll (the empty keep, three rolls to come)."""
        if self.start is None:
            self.start = float(reroll_level(self.keeps[1])[0])
        return self.start


class TripleStrategy:
    """Plays Triple Yahtzee (any card of several columns of the Classic boxes) well.

    Each column is valued by the Classic solitaire table, as the expected points still
    to come from its state times its multiplier; each turn is solved exactly against
    the sum of the columns' values, the keeps for every roll and the box over every
    column at once (decision record 21, ``0021-triple-strategy.md``, says why this
    beats playing the columns in rotation). Its values are an approximation, not the
    optimum: :meth:`advise` gives them for every option, :meth:`explain` in words.

    It is a :class:`~yahtzee_rules.Strategy` and a :class:`~yahtzee_rules.BatchStrategy`:
    :func:`~yahtzee_rules.simulate` plays its games without a Game per action.

    Args:
        table: The Classic table of :func:`column_rules` of ``rules``; left out,
            :func:`~yahtzee_rules.bots.solver.load_table` for them (cached; Hasbro's
            Classic table for Triple Yahtzee's rules).
        rules: The rules played (keyword only): Triple Yahtzee's by default.

    Raises:
        MalformedInputError: For rules whose card is not several Classic columns, or a
            table of other rules than the columns'.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Rules, Turn, simulate
        >>> triple = Rules.from_name("triple")
        >>> strategy = TripleStrategy(rules=triple)
        >>> turn = Turn(rules=triple).roll(outcome="44441")
        >>> strategy.choose_keep(turn, random.Random(0))
        Keep('4444')
        >>> print(strategy.explain(turn.roll(keep="4444", outcome="4").roll(keep="44444", outcome="")))
        fill Yahtzee ×3: worth 66.24 points more than the next best, fill Yahtzee ×2 (an approximation: each column valued by the Classic table, not the optimum (no table reaches this card))
        >>> simulate(strategy, games=2, rules=triple, seed=1).games
        2
    """

    __slots__ = ("_columns", "_plans", "rules", "table")

    def __init__(self, table: Table | None = None, *, rules: Rules | None = None) -> None:
        rules = Rules.from_name("triple") if rules is None else rules
        wanted = column_rules(rules)
        if table is None:
            table = load_table(rules=wanted)
        elif not isinstance(table, Table):
            raise MalformedInputError(
                f"table {show(table)}: not a Table; get one with load_table(rules=column_rules(rules))"
            )
        elif not same_values(table.rules, wanted) or table.start.filled_categories:
            raise MalformedInputError(
                f"table {table!r}: its columns are valued under the rules {wanted.name!r} "
                f"from the empty card; use load_table(rules=column_rules(rules))"
            )
        self.rules = rules
        self.table = table
        self._columns = _columns(rules, table)
        self._plans: dict[tuple[tuple[int | None, ...], int], _Plan] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rules=Rules.from_name({self.rules.name!r}))"

    def __getstate__(self) -> tuple[Table, Rules]:
        return self.table, self.rules

    def __setstate__(self, state: tuple[Table, Rules]) -> None:
        TripleStrategy.__init__(self, state[0], rules=state[1])

    # --- the plans ---------------------------------------------------------------------

    def _active(self, card: Scorecard) -> int:
        """The column this turn is for (-1: every column)."""
        return -1

    def _plan(self, card: Scorecard) -> _Plan:
        boxes = card.boxes
        active = self._active(card)
        key = (boxes, active)
        found = self._plans.get(key)
        if found is None:
            found = self._new_plan(boxes, active)
            if len(self._plans) >= _PLAN_CACHE:
                del self._plans[next(iter(self._plans))]
            self._plans[key] = found
        return found

    def _new_plan(
        self, boxes: tuple[int | None, ...], active: int, found: Sequence[Column] | None = None
    ) -> _Plan:
        """The plan of a turn on ``boxes``; ``found``, each column as
        :meth:`_Columns.column` gives it for them, if the caller has it already."""
        columns = self._columns
        rules = self.rules
        if found is None:
            found = self._found(boxes)
        base = sum(value for value, _, _, _ in found)
        parts = [rolls for _, _, rolls, _ in found]
        ordered = columns.ordered or active >= 0
        fives = columns.forced or is_extra(boxes, columns.card)
        if not ordered:
            best = found[0][3].copy()
            for _, _, _, column_best in found[1:]:
                np.maximum(best, column_best, out=best)
            if not fives:
                return _Plan(None, parts, best, base)
            # only the rolls of five dice of a kind differ from the columns' rows
            rows = np.full((len(_FIVES), len(boxes)), NEG)
            for dice, row in zip(_FIVES, rows, strict=True):
                self._five_row(row, boxes, dice, found, active)
            positions = columns.fives_pos
            best[list(positions)] = rows.max(axis=1)
            return _Plan(None, parts, best, base, dict(zip(positions, rows, strict=True)))
        fills = np.concatenate(parts, axis=1)  # filled boxes are -inf already
        if ordered:
            # which boxes a roll may fill besides the filled ones (for five dice of a
            # kind, the rules decide below when they are not scored plainly)
            allowed = legal(boxes, _PROBE, rules)
            closed = np.ones(len(boxes), dtype=bool)
            closed[[int(box) for box in allowed]] = False
            if active >= 0 and not closed[columns.places[active]].all():
                # rotation: the turn's column only, unless none of its boxes may be filled
                closed[: columns.places[active].start] = True
                closed[columns.places[active].stop :] = True
            fills[:, closed] = NEG
        if fives:
            for dice, position in zip(_FIVES, columns.fives_pos, strict=True):
                row = fills[position]
                row[:] = NEG
                self._five_row(row, boxes, dice, found, active)
        return _Plan(fills, parts, fills.max(axis=1), base)

    def _five_row(
        self,
        row: NDArray[np.float64],
        boxes: tuple[int | None, ...],
        dice: Dice,
        found: Sequence[Column],
        active: int,
    ) -> None:
        """In place, in ``row`` (``-inf`` everywhere): what five dice of a kind gain in
        each box the rules let them fill (with ``active``, in its column if any)."""
        columns = self._columns
        rules = self.rules
        lookup = columns.turn_model.lookup
        options = legal(boxes, dice, rules)
        picked = [box for box in options if active < 0 or columns.where[box][0] == active]
        extra = float(rules.yahtzee_bonus) if bonus_due(boxes, dice, rules) else 0.0
        for box in picked or options:
            c, i = columns.where[box]
            row[int(box)] = found[c][1][lookup[i, options[box]]] + extra

    def _found(self, boxes: tuple[int | None, ...]) -> list[Column]:
        """Every column of ``boxes``, as :meth:`_Columns.column` gives it."""
        columns = self._columns
        return [columns.column(c, columns.state(boxes, c)) for c in range(len(columns.boxes))]

    # --- the strategy ------------------------------------------------------------------

    def _check(self, turn: Turn) -> Turn:
        if not isinstance(turn, Turn):
            raise MalformedInputError(f"turn {show(turn)}: not a Turn")
        if not same_values(turn.rules, self.rules):
            raise MalformedInputError(
                f"turn of the rules {turn.rules.name!r}: this strategy plays "
                f"{self.rules.name!r}; make one for the turn's rules"
            )
        return turn

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """The keep of the highest value, or ``None`` to fill now.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Rules, Turn
            >>> triple = Rules.from_name("triple")
            >>> TripleStrategy(rules=triple).choose_keep(Turn(rules=triple).roll(outcome="12345"), random.Random(0))
        """
        dice = self._check(turn).dice
        if dice is None or not turn.rolls_left:
            return None
        plan = self._plan(turn.card)
        g = dice_geometry()
        chosen = keep_of_roll(plan.keeps[turn.rolls_left - 1], int(g.dice_pos[dice._index]))
        return g.keeps[chosen] if chosen < g.five else None

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The box of the highest value (the first in card order on a tie).

        Examples:
            >>> import random
            >>> from yahtzee_rules import Rules, Turn
            >>> triple = Rules.from_name("triple")
            >>> TripleStrategy(rules=triple).choose_box(Turn(rules=triple).roll(outcome="12345"), random.Random(0))
            <TripleBox.LARGE_STRAIGHT_X3: 36>
        """
        dice = self._check(turn).dice
        if dice is None:
            raise IllegalActionError("choose box: no dice yet; roll at least once")
        row = self._plan(turn.card).row(int(dice_geometry().dice_pos[dice._index]))
        return self.rules.card.members[int(first_box(row))]

    def advise(self, turn: Turn) -> Advice:
        """Every option of ``turn`` with its expected final score by these values, best
        first (ranked as :func:`~yahtzee_rules.bots.solver.advise` ranks them): an
        approximation of the optimum, and labelled so where it is shown.

        Examples:
            >>> from yahtzee_rules import Rules, Turn
            >>> triple = Rules.from_name("triple")
            >>> advice = TripleStrategy(rules=triple).advise(Turn(rules=triple).roll(outcome="66665"))
            >>> advice.best.action, round(advice.expected, 2)
            (Keep('6666'), 1616.67)
        """
        self._check(turn)
        plan = self._plan(turn.card)
        base = totals(turn.card, rules=turn.rules).grand_total + plan.base
        dice = turn.dice
        if dice is None:
            return Advice(turn, (Option(Keep(), base + plan.turn_start()),))
        g = dice_geometry()
        position = int(g.dice_pos[dice._index])
        row = plan.row(position)
        ranked: list[tuple[float, int, int, Option]] = []
        for box in turn.options:
            expected = base + float(row[int(box)])
            ranked.append((-expected, 0, int(box), Option(box, expected)))
        if turn.rolls_left:
            keep_values = plan.keeps[turn.rolls_left - 1]
            for keep in dice.keeps():
                expected = base + float(keep_values[g.keep_pos[keep._index]])
                ranked.append((-expected, 1, keep._index, Option(keep, expected)))
        ranked.sort(key=lambda item: item[:3])
        return Advice(turn, tuple(item[3] for item in ranked))

    def explain(self, turn: Turn) -> str:
        """The choice this strategy makes now, in words: what it is worth beyond the next
        best option (by :meth:`advise`'s values, an approximation).

        Examples:
            >>> from yahtzee_rules import Rules, Turn
            >>> triple = Rules.from_name("triple")
            >>> strategy = TripleStrategy(rules=triple)
            >>> turn = Turn(rules=triple).roll(outcome="66612")
            >>> print(strategy.explain(turn))
            hold 666 and reroll 1 2: worth 10.93 points more than the next best, hold 1666 and reroll 2 (an approximation: each column valued by the Classic table, not the optimum (no table reaches this card))
            >>> print(strategy.explain(Turn(rules=triple).roll(outcome="12345")))  # stop: the best fill
            fill Large Straight ×3: worth 6.94 points more than the next best, fill Large Straight ×2 (an approximation: each column valued by the Classic table, not the optimum (no table reaches this card))
        """
        advice = self.advise(turn)
        options = advice.options
        dice = turn.dice
        chosen: Keep | Box
        if dice is None:
            return f"roll all five: expected final score {advice.expected:.2f} ({APPROXIMATION})"
        rng = random.Random(0)
        keep = self.choose_keep(turn, rng)
        chosen = self.choose_box(turn, rng) if keep is None else keep
        value = next(o.expected for o in options if o.action == chosen)
        # holding all five dice is filling now: the best fill stands for it
        rest = [
            o
            for o in options
            if o.action != chosen and not (isinstance(o.action, Keep) and len(o.action) == 5)
        ]
        if not rest:
            return f"{action_text(chosen, dice)}: the only choice ({APPROXIMATION})"
        other = rest[0]
        return (
            f"{action_text(chosen, dice)}: worth {value - other.expected:.2f} points more than "
            f"the next best, {action_text(other.action, dice)} ({APPROXIMATION})"
        )

    # --- reviews -----------------------------------------------------------------------

    def review_values(
        self, played: Sequence[tuple[int, Turn, object]]
    ) -> list[tuple[float, NDArray[np.float64], NDArray[np.float64] | None, int, float]]:
        """For each decision of a game (seat, turn with dice, action), by these values as
        :meth:`advise` gives them: the card's grand total plus the columns' value, the
        roll's fill values, the values of its distinct sub-keeps in the review kernel's
        order (``None`` with no reroll left), the internal roll, and the expected final
        score before the turn's first roll by the turn's own solution (what :meth:`advise`
        gives before any dice). The review (:func:`~yahtzee_rules.bots.solver.review`)
        reads Triple Yahtzee's decisions off them."""
        from yahtzee_rules.bots.solver._review_kernel import kernel

        k = kernel()
        found = []
        last_card: Scorecard | None = None
        plan: _Plan | None = None
        base = 0.0
        for _, turn, _ in played:
            dice = turn.dice
            assert dice is not None
            if turn.card is not last_card or plan is None:
                last_card = turn.card
                plan = self._plan(last_card)
                base = totals(last_card, rules=turn.rules).grand_total + plan.base
            position = k.dice_pos[dice._index]
            left = turn.rolls_left
            keeps = plan.keeps[left - 1][k.subkeeps[position]] if left else None
            found.append((base, plan.row(position), keeps, position, base + plan.turn_start()))
        return found

    # --- whole games -------------------------------------------------------------------

    def play_games(
        self,
        seats: Sequence[object],
        *,
        rules: Rules,
        games: int,
        rng: random.Random,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[int] | None:
        """Play the games without a :class:`~yahtzee_rules.Game` per action, when every
        seat is one of these strategies for ``rules`` (see :class:`~yahtzee_rules.BatchStrategy`):
        the same games, roll for roll. Other line-ups are declined (``None``).

        Examples:
            >>> import random
            >>> from yahtzee_rules import GreedyStrategy, Rules
            >>> triple = Rules.from_name("triple")
            >>> strategy = TripleStrategy(rules=triple)
            >>> len(strategy.play_games([strategy], rules=triple, games=2, rng=random.Random(1)))
            2
            >>> print(strategy.play_games([strategy, GreedyStrategy()], rules=triple, games=2, rng=random.Random(1)))
            None
        """
        players: list[TripleStrategy] = []
        for seat in seats:
            if not isinstance(seat, TripleStrategy) or not same_values(seat.rules, rules):
                return None
            players.append(seat)
        members = rules.card.members
        g = dice_geometry()
        dice_pos: list[int] = g.dice_pos.tolist()
        keeps, five = g.keeps, g.five
        first_roll = roll_table(EMPTY_KEEP)
        empty = empty_card(rules.card)
        rounds = len(rules.card)
        draw = rng.random
        scores: list[int] = []
        count = len(players)
        start = [player._found(empty.boxes) for player in players]
        for number in range(games):
            cards = [empty] * count
            # each seat's columns: a fill changes one, the others are kept
            found = [list(columns) for columns in start]
            for _ in range(rounds):
                for seat, player in enumerate(players):
                    card = cards[seat]
                    # each card is played once: its plan is not kept
                    plan = player._new_plan(card.boxes, player._active(card), found[seat])
                    dice = first_roll[int(draw() * 7776)]
                    for rerolls in (2, 1):
                        chosen = keep_of_roll(plan.keeps[rerolls - 1], dice_pos[dice._index])
                        if chosen >= five:
                            break
                        keep = keeps[chosen]
                        dice = roll_table(keep)[int(draw() * 6 ** (5 - len(keep.faces)))]
                    box = members[int(first_box(plan.row(dice_pos[dice._index])))]
                    card = cards[seat] = fill_unchecked(card, dice, box, rules)
                    columns = player._columns
                    c = columns.where[box][0]
                    found[seat][c] = columns.column(c, columns.state(card.boxes, c))
            scores.extend(totals(card, rules=rules).grand_total for card in cards)
            if progress is not None:
                progress(number + 1, games)
        return scores

    def prepare_games(self, seats: Sequence[object], *, rules: Rules, games: int) -> None:
        """Nothing to prepare: the Classic table is loaded already.

        Examples:
            >>> TripleStrategy().prepare_games([], rules=Rules.from_name("triple"), games=10)
        """


class RotationStrategy(TripleStrategy):
    """The baseline: the columns in rotation, each played by the optimal Classic policy.

    Turn ``t`` (from 0) is played in column ``t mod k`` of the ``k`` columns, as the
    Classic table plays that column alone (its keeps and its box), the other columns
    waiting; only when the rules allow no box of that column (a Joker sending five
    equal dice elsewhere, or a row to be filled left to right) does it choose among the
    others, as :class:`TripleStrategy` would. Its expected score is about the sum of
    the columns' Classic values times their multipliers.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Rules, Turn
        >>> triple = Rules.from_name("triple")
        >>> RotationStrategy(rules=triple).choose_box(Turn(rules=triple).roll(outcome="12345"), random.Random(0))
        <TripleBox.LARGE_STRAIGHT_X1: 10>
    """

    __slots__ = ()

    def _active(self, card: Scorecard) -> int:
        return card.turns_played % len(self._columns.boxes)
