"""Game review: what every decision cost and what every roll brought, against optimal play.

With V the expected final score under optimal solitaire play from each point of a
player's game, the player's final score splits exactly into the value of the start,
the luck of the dice and the cost of the decisions::

    final - V(start) = Σ over rolls (V(after the roll) - V(before it))   (luck, mean 0)
                     - Σ over decisions (V(best) - V(chosen))            (cost, never negative)

V before a roll is the value of the keep held for it (before a turn's first roll, the
value of the choice that ended the player's previous turn), which is exactly the
expected V after the roll. Every player of a game is reviewed against their own
optimal solitaire play, as :func:`advise` values it.

No table reaches Triple Yahtzee: its games are reviewed against
:class:`~yahtzee_rules.bots.solver.TripleStrategy`'s values instead, an approximation
(:attr:`Review.approximation` says so). The identity still holds exactly, since each
luck is the change the roll made in those values; but luck is no longer of mean 0:
at the start of each turn after the first, the turn solved over every column expects
other than the columns' values said after the previous fill (mostly more: choosing
the column after the roll gains; less where the columns' Classic values count what
Triple Yahtzee does not pay, such as each column's extra-Yahtzee bonuses), and the
first roll's luck carries that difference (:attr:`PlayerReview.luck_bias`); the luck
less it has mean 0 exactly.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from importlib import resources
from typing import Any, Literal

import attrs

from yahtzee_rules.bots.solver._advice import Option, action_text, advise
from yahtzee_rules.bots.solver._model import same_values
from yahtzee_rules.bots.solver._review_kernel import (
    Step,
    kernel,
    ranked,
    start_rolled,
    step_values,
    steps,
)
from yahtzee_rules.bots.solver._table import Table, load_table
from yahtzee_rules.bots.solver._target import TargetTable, target_table
from yahtzee_rules.bots.solver._triple import APPROXIMATION, TripleStrategy, column_rules
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play._filling import fill_unchecked
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.record import GameRecord
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.totals import totals
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._frozen import refuse_reinit
from yahtzee_rules.support._limits import REVIEW_WIN_MOST_NEEDED, REVIEW_WIN_OPEN_BOXES
from yahtzee_rules.support.errors import MalformedInputError

__all__ = [
    "GRADES",
    "REVIEW_FORMAT",
    "Decision",
    "Grade",
    "PlayerReview",
    "Review",
    "RollLuck",
    "action_text",
    "review",
    "review_schema",
]

Grade = Literal["forced", "best", "inaccuracy", "mistake", "blunder"]

#: The grades of a decision by its cost in expected final points: each grade's name
#: and the largest cost it takes (a cost within 1e-9 of zero is ``"best"``: equal
#: values are ties, and either choice is best). A decision with one option only is
#: ``"forced"`` and is left out of the counts and the mean cost.
GRADES: tuple[tuple[Grade, float], ...] = (
    ("best", 1e-9),
    ("inaccuracy", 1.0),
    ("mistake", 5.0),
    ("blunder", math.inf),
)

#: The version of the JSON document :meth:`Review.to_dict` writes.
REVIEW_FORMAT = 1

#: How many of the best options each decision lists besides the one taken.
_ALTERNATIVES = 3


@attrs.frozen
class Decision:
    """One choice a player made after a roll, with what it cost against the best one.

    Attributes:
        player: The player's name.
        turn: The player's turn, from 1.
        roll: The rolls of the turn so far (1 to 3).
        dice: The dice showing.
        action: The keep held (before a reroll) or the box filled.
        expected: The expected final score after ``action``, with optimal play after it.
        best: The best action, as :func:`advise` ranks them (on a tie, a fill first).
        best_expected: The expected final score after ``best``.
        alternatives: The best options, best first, at most three besides ``action``.
        options: How many distinct options there were (1: the choice was forced).
        win_chance: With ``review(..., wins=True)``, in the late turns it covers: the
            chance of winning the game after ``action``, playing to win from then on,
            as :func:`advise` gives it for the game; else ``None``.
        best_for_winning: The action with the best chance of winning
            (:attr:`Advice.most_likely`), or ``None`` with no ``win_chance``.
        best_win_chance: Its chance of winning, or ``None``.
        win_exact: ``True`` when every other player had finished, so the chances are
            exact; ``False`` when some had not, so each chance is the documented upper
            bound (the score to beat weighted by their distributions under optimal
            play, as if known before the turn); ``None`` with no chances.

    Examples:
        >>> from yahtzee_rules import Category
        >>> d = Decision("Ann", 4, 1, Dice("12366"), Keep("66"), 212.5, Keep("6"), 213.0, (), 2)
        >>> d.cost, d.grade
        (0.5, 'inaccuracy')
    """

    player: str
    turn: int
    roll: int
    dice: Dice
    action: Keep | Box
    expected: float
    best: Keep | Box
    best_expected: float
    alternatives: tuple[Option, ...]
    options: int
    win_chance: float | None = None
    best_for_winning: Keep | Box | None = None
    best_win_chance: float | None = None
    win_exact: bool | None = None

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self)

    @property
    def win_cost(self) -> float | None:
        """The chance of winning given up against :attr:`best_for_winning` (0 to 1), or
        ``None`` without chances: exact when :attr:`win_exact`, else a difference of
        two upper bounds (an estimate, neither bound nor exact).

        Examples:
            >>> from yahtzee_rules import Category
            >>> d = Decision("Bob", 13, 1, Dice("66653"), Keep("5666"), 30.8, Keep("5666"), 30.8, (), 8,
            ...              0.625, Category.CHANCE, 1.0, True)
            >>> d.win_cost, d.cost
            (0.375, 0.0)
            >>> Decision("Ann", 1, 1, Dice("66666"), Keep(""), 240.0, Keep(""), 240.0, (), 31).win_cost is None
            True
        """
        if self.win_chance is None or self.best_win_chance is None:
            return None
        return max(0.0, self.best_win_chance - self.win_chance)

    @property
    def cost(self) -> float:
        """The expected final points given up against the best action (0 or more).

        Examples:
            >>> d = Decision("Ann", 1, 1, Dice("66666"), Keep(""), 240.0, Keep(""), 240.0, (), 31)
            >>> d.cost
            0.0
        """
        return max(0.0, self.best_expected - self.expected)

    @property
    def grade(self) -> Grade:
        """``"forced"`` with one option, else the first of ``GRADES`` the cost fits.

        Examples:
            >>> d = Decision("Ann", 1, 1, Dice("66666"), Keep(""), 230.0, Keep("66666"), 240.0, (), 31)
            >>> d.grade
            'blunder'
        """
        if self.options < 2:
            return "forced"
        cost = self.cost
        return next(name for name, most in GRADES if cost <= most)

    def describe(self) -> str:
        """The decision in plain words: what was done, what was best, what it cost.

        Examples:
            >>> from yahtzee_rules import Category
            >>> d = Decision("Ann", 4, 2, Dice("12366"), Category.CHANCE, 201.25, Keep("66"), 203.0, (), 20)
            >>> print(d.describe())
            turn 4, roll 2, dice 12366: fill Chance (expected 201.25); best: hold 66 and reroll 1 2 3 (expected 203.00), 1.75 points more
        """
        what = action_text(self.action, self.dice)
        head = f"turn {self.turn}, roll {self.roll}, dice {self.dice}: {what}"
        if self.cost <= GRADES[0][1]:
            return f"{head} (expected {self.expected:.2f}): the best choice"
        return (
            f"{head} (expected {self.expected:.2f}); best: "
            f"{action_text(self.best, self.dice)} (expected {self.best_expected:.2f}), "
            f"{self.cost:.2f} points more"
        )


@attrs.frozen
class RollLuck:
    """One roll and the luck it brought: the change in expected final score it made.

    Attributes:
        player: The player's name.
        turn: The player's turn, from 1.
        roll: The roll's number in the turn (1 to 3).
        dice: The dice showing after it.
        before: The expected final score before the roll (of the keep held for it).
        after: The expected final score after it (of the best option then).

    Examples:
        >>> RollLuck("Ann", 1, 1, Dice("66666"), 254.59, 289.12).luck > 0
        True
    """

    player: str
    turn: int
    roll: int
    dice: Dice
    before: float
    after: float

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self)

    @property
    def luck(self) -> float:
        """``after - before``: positive for a good roll; its mean over the rolls is 0.

        Examples:
            >>> RollLuck("Ann", 1, 1, Dice("12345"), 200.0, 198.5).luck
            -1.5
        """
        return self.after - self.before


@attrs.frozen
class PlayerReview:
    """One player's game against optimal solitaire play: decisions, rolls and the split.

    Attributes:
        player: The player's name.
        start: The expected final score at the start of the record.
        end: The expected final score at its end: the final grand total once the
            card is full.
        decisions: Every decision, in order.
        rolls: Every roll, in order.
        luck_bias: With approximate values (:attr:`Review.approximation`), the part of
            :attr:`luck` that is the values' and not the dice's: added up over the
            player's turns after the first reviewed, what the turn solved over every
            column expects at its start beyond the value of the previous fill (of
            either sign, mostly positive). ``luck - luck_bias`` has mean 0 exactly;
            ``luck`` has the mean of ``luck_bias``, not 0. 0 with exact values.

    Examples:
        >>> p = PlayerReview("Ann", 254.5, 260.0, (), ())
        >>> p.luck, p.cost, p.mean_cost, p.luck_bias
        (0.0, 0.0, 0.0, 0.0)
    """

    player: str
    start: float
    end: float
    decisions: tuple[Decision, ...]
    rolls: tuple[RollLuck, ...]
    luck_bias: float = 0.0

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self)

    @property
    def luck(self) -> float:
        """The luck of every roll added up (the dice's share of ``end - start``).

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), (RollLuck("Ann", 1, 1, Dice("12345"), 1.0, 3.0),)).luck
            2.0
        """
        return math.fsum(roll.luck for roll in self.rolls)

    @property
    def cost(self) -> float:
        """The cost of every decision added up (the player's share, given up).

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), ()).cost
            0.0
        """
        return math.fsum(decision.cost for decision in self.decisions)

    @property
    def unexplained(self) -> float:
        """``end - start - luck + cost``: zero but for rounding (the identity, checked).

        Examples:
            >>> PlayerReview("Ann", 250.0, 250.0, (), ()).unexplained
            0.0
        """
        return self.end - self.start - self.luck + self.cost

    @property
    def choices(self) -> tuple[Decision, ...]:
        """The decisions that were not forced (more than one option).

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), ()).choices
            ()
        """
        return tuple(d for d in self.decisions if d.options > 1)

    @property
    def mean_cost(self) -> float:
        """The mean cost of a choice (a decision not forced); 0 with none.

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), ()).mean_cost
            0.0
        """
        choices = self.choices
        return math.fsum(d.cost for d in choices) / len(choices) if choices else 0.0

    @property
    def exact_win_decisions(self) -> tuple[Decision, ...]:
        """The decisions with an exact chance of winning (:attr:`Decision.win_exact`).

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), ()).exact_win_decisions
            ()
        """
        return tuple(d for d in self.decisions if d.win_exact)

    @property
    def win_cost(self) -> float:
        """The chance of winning given up over the exact decisions, added up.

        Only :attr:`exact_win_decisions` count: the bounded ones are each decision's own.

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), ()).win_cost
            0.0
        """
        return math.fsum(d.win_cost or 0.0 for d in self.exact_win_decisions)

    def grades(self) -> dict[Grade, int]:
        """How many decisions had each grade (forced ones included), in ``GRADES`` order.

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), ()).grades()
            {'best': 0, 'inaccuracy': 0, 'mistake': 0, 'blunder': 0, 'forced': 0}
        """
        counts: dict[Grade, int] = {name: 0 for name, _ in GRADES}
        counts["forced"] = 0
        for decision in self.decisions:
            counts[decision.grade] += 1
        return counts

    def mistakes(self, n: int = 3) -> tuple[Decision, ...]:
        """The ``n`` costliest decisions that were not best, costliest first.

        Examples:
            >>> PlayerReview("Ann", 0.0, 0.0, (), ()).mistakes()
            ()
        """
        worst = sorted(
            (d for d in self.decisions if d.cost > GRADES[0][1]),
            key=lambda d: -d.cost,
        )
        return tuple(worst[:n])


@attrs.frozen
class Review:
    """A game reviewed: each player's decisions and rolls against optimal solitaire play.

    Attributes:
        rules: The rules played.
        players: One :class:`PlayerReview` per seat, in seat order.
        wins: Whether the review was asked for the chance of winning
            (``review(..., wins=True)``): then the late decisions it covers carry it.
        approximation: ``None`` when the values are the optimum's (exact); for Triple
            Yahtzee, which no table reaches, what the values are instead: those of
            :class:`~yahtzee_rules.bots.solver.TripleStrategy`, an approximation, not
            the optimum.

    Examples:
        >>> from yahtzee_rules import GameRecord
        >>> from yahtzee_rules.bots.solver import build_table
        >>> record = GameRecord.parse(
        ...     "forced 0 Ann 1=0,2=0,3=0,4=0,5=0,6=0,3k=0,4k=0,fh=0,ss=0,ls=0,y=0 - : 12366 c"
        ... )  # only Chance open: 18 taken at once
        >>> ann = review(record, build_table(start=record.start.player_card(0))).player("Ann")
        >>> round(ann.start, 4), ann.end, round(ann.luck, 4), round(ann.cost, 4)
        (23.3333, 18.0, 1.4167, 6.75)
    """

    rules: Rules
    players: tuple[PlayerReview, ...]
    wins: bool = False
    approximation: str | None = None

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON data, as ``yahtzee-rules review --json`` writes it.

        :func:`review_schema` describes the document: its JSON Schema ships in the
        package as ``yahtzee_rules/schema/review-v1.schema.json``.

        Actions are written as in the notation: a keep by its faces (``"66"``, ``""``
        to reroll all five), a box by its code (``"c"``, ``"6"``).

        Examples:
            >>> Review(Rules(), (PlayerReview("Ann", 254.5, 260.0, (), ()),)).to_dict()["players"][0]["luck"]
            0.0
        """
        found: dict[str, Any] = {
            "format": "yahtzee-rules review",
            "version": REVIEW_FORMAT,
            "rules": self.rules.name,
            "grades": {name: (None if math.isinf(most) else most) for name, most in GRADES},
            "players": [
                _player_dict(player, self.wins, self.approximation is not None)
                for player in self.players
            ],
        }
        if self.approximation is not None:
            found["approximation"] = self.approximation
        return found

    def player(self, player: int | str) -> PlayerReview:
        """One player's review, by seat or name.

        Raises:
            MalformedInputError: For a seat or name not in the game.

        Examples:
            >>> Review(Rules(), (PlayerReview("Ann", 0.0, 0.0, (), ()),)).player(0).player
            'Ann'
        """
        if isinstance(player, int) and not isinstance(player, bool):
            if 0 <= player < len(self.players):
                return self.players[player]
        else:
            for found in self.players:
                if found.player == player:
                    return found
        names = ", ".join(repr(p.player) for p in self.players)
        raise MalformedInputError(f"player {player!r}: not in the game; the players are {names}")


def review_schema() -> dict[str, Any]:
    """The JSON Schema of the documents :meth:`Review.to_dict` writes, as a new dict.

    Examples:
        >>> review_schema()["properties"]["version"]
        {'const': 1}
    """
    source = resources.files("yahtzee_rules").joinpath("schema", "review-v1.schema.json")
    schema: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return schema


def _action_code(action: Keep | Box) -> str:
    return action.code if isinstance(action, Box) else str(action)


def _decision_dict(d: Decision) -> dict[str, Any]:
    found: dict[str, Any] = {
        "turn": d.turn,
        "roll": d.roll,
        "dice": str(d.dice),
        "action": _action_code(d.action),
        "fill": isinstance(d.action, Box),
        "expected": d.expected,
        "best": _action_code(d.best),
        "best_expected": d.best_expected,
        "cost": d.cost,
        "grade": d.grade,
        "options": d.options,
        "alternatives": [
            {"action": _action_code(o.action), "fill": o.is_fill, "expected": o.expected}
            for o in d.alternatives
        ],
    }
    if d.win_chance is not None and d.best_for_winning is not None:
        found |= {
            "win_chance": d.win_chance,
            "best_for_winning": _action_code(d.best_for_winning),
            "best_win_chance": d.best_win_chance,
            "win_cost": d.win_cost,
            "win_exact": d.win_exact,
        }
    return found


def _player_dict(
    player: PlayerReview, wins: bool = False, approximate: bool = False
) -> dict[str, Any]:
    found = {
        "player": player.player,
        "start": player.start,
        "end": player.end,
        "luck": player.luck,
        "cost": player.cost,
        "mean_cost": player.mean_cost,
        "grades": player.grades(),
        "decisions": [_decision_dict(d) for d in player.decisions],
        "rolls": [
            {
                "turn": r.turn,
                "roll": r.roll,
                "dice": str(r.dice),
                "before": r.before,
                "after": r.after,
                "luck": r.luck,
            }
            for r in player.rolls
        ],
    }
    if wins:
        found["win_cost"] = player.win_cost
        found["exact_win_decisions"] = len(player.exact_win_decisions)
    if approximate:
        found["luck_bias"] = player.luck_bias
    return found


@attrs.define
class _Seat:
    """What the review keeps of one seat while replaying: built up, then frozen."""

    name: str
    start: float
    before: float  # the expected final score now: of the last choice, or after a roll
    decisions: list[Decision] = attrs.Factory(list)
    rolls: list[RollLuck] = attrs.Factory(list)
    bias: list[float] = attrs.Factory(list)  # approximate values: each turn's start gap

    def freeze(self) -> PlayerReview:
        return PlayerReview(
            self.name,
            self.start,
            self.before,
            tuple(self.decisions),
            tuple(self.rolls),
            math.fsum(self.bias),
        )


def review(
    record: GameRecord,
    table: Table | None = None,
    *,
    wins: bool = False,
    targets: TargetTable | None = None,
) -> Review:
    """Every decision and roll of ``record``, valued by optimal solitaire play.

    Each player is reviewed against their own optimal solitaire play (the most points
    expected on their own card): a decision's cost is the expected final score the
    best option (as :func:`advise` ranks them) gives beyond the option taken, a
    roll's luck the change in expected final score it made. For each player,
    ``end - start == luck - cost`` up to rounding (:attr:`PlayerReview.unexplained`).

    With ``wins``, in a game of two or more, the late decisions also get the chance
    of winning after the action taken and after the best action for winning, as
    :func:`advise` gives them for the game (:attr:`Decision.win_chance`): the
    decisions of a player's turns with at most ``REVIEW_WIN_OPEN_BOXES`` (1) box
    open, once every other player has finished (exact: :attr:`Decision.win_exact`)
    or has that few boxes open too (the documented upper bound). Earlier decisions,
    and those whose score to beat needs more than ``REVIEW_WIN_MOST_NEEDED`` (200)
    points, get none. The points figures are the same with or without ``wins``.

    Triple Yahtzee (a card of several columns of the Classic boxes), which no table
    reaches, is reviewed against :class:`~yahtzee_rules.bots.solver.TripleStrategy`'s
    values, as its :meth:`~yahtzee_rules.bots.solver.TripleStrategy.advise` gives them:
    an approximation, not the optimum, and the review says so
    (:attr:`Review.approximation`). The identity holds as above; the luck's mean is
    :attr:`PlayerReview.luck_bias`'s, not 0. Its games played by ``TripleStrategy``
    cost 0.

    Args:
        record: The game to review, finished or not.
        table: A table for the record's rules covering its cards; left out,
            :func:`load_table` for them (from the cache, built the first time). For
            Triple Yahtzee, the Classic table of its columns
            (``load_table(rules=column_rules(rules))``, the default).
        wins: Give the chance of winning in the late decisions (keyword only).
        targets: With ``wins``, a target table covering those cards with a maximum
            of at least ``REVIEW_WIN_MOST_NEEDED``; left out, ``target_table()`` for
            the rules with ``open_boxes=REVIEW_WIN_OPEN_BOXES`` (cached, under a
            second to build the first time).

    Raises:
        MalformedInputError: For a record that is not a GameRecord, rules the solver
            cannot solve (but Triple Yahtzee: the reason says why), a table of other
            rules or not covering the cards, ``targets`` without ``wins``, not a
            TargetTable or for other rules, or ``wins`` on Triple Yahtzee (no
            play-to-win table reaches it).

    Examples:
        >>> from yahtzee_rules import GameRecord
        >>> from yahtzee_rules.bots.solver import build_table
        >>> record = GameRecord.parse(
        ...     "forced 0 Ann 1=0,2=0,3=0,4=0,5=0,3k=0,4k=0,fh=0,ss=0,ls=0,y=0 - : 12366 66/145 6"
        ... )  # Sixes and Chance open; 66 held, then Sixes filled with two rolls used
        >>> table = build_table(start=record.start.player_card(0))
        >>> ann = review(record, table).player("Ann")
        >>> [d.grade for d in ann.decisions]
        ['best', 'mistake']
        >>> print(ann.mistakes()[0].describe())
        turn 12, roll 2, dice 14566: fill Sixes (expected 35.33); best: hold 66 and reroll 1 4 5 (expected 38.54), 3.21 points more
        >>> abs(ann.unexplained) < 1e-9
        True
    """
    if not isinstance(record, GameRecord):
        raise MalformedInputError(f"record {record!r}: not a GameRecord; review a GameRecord")
    if not isinstance(wins, bool):
        raise MalformedInputError(f"wins {wins!r}: not a bool")
    if targets is not None and not wins:
        raise MalformedInputError(
            "targets: given without wins; pass wins=True for the chance of winning"
        )
    if targets is not None and not isinstance(targets, TargetTable):
        raise MalformedInputError(f"targets {targets!r}: not a TargetTable; use target_table()")
    start = record.start
    if targets is not None and not same_values(targets.rules, start.rules):
        raise MalformedInputError(
            f"targets for {targets.rules!r}: the record plays {start.rules!r}; "
            f"use a target table built for the record's rules"
        )
    if len(start.rules.card.columns) > 1:
        return _review_columns(record, table, wins)
    if table is None:
        table = load_table(rules=start.rules)
    late = None
    if wins:
        late = late_targets(start.rules) if targets is None else targets
    return review_steps(start, steps(record), table, late, wins=wins)


def _review_columns(record: GameRecord, table: Table | None, wins: bool) -> Review:
    """A game of several columns (Triple Yahtzee) against TripleStrategy's values."""
    rules = record.start.rules
    wanted = column_rules(rules)  # the reason, for a card not of Classic columns
    if wins:
        raise MalformedInputError(
            f"wins: no play-to-win table reaches the {rules.card.title} card of the rules "
            f"{rules.name!r}; review the game without wins"
        )
    strategy = TripleStrategy(load_table(rules=wanted) if table is None else table, rules=rules)
    return review_steps(record.start, steps(record), strategy.table, triple=strategy)


#: The late turns' target tables, by rules, kept for the process (a few at most).
TARGETS: dict[Rules, TargetTable] = {}


def late_targets(rules: Rules) -> TargetTable:
    """The target table of the late turns a review's chance of winning covers, kept
    (built and cached first if need be: under a second for Hasbro's rules)."""
    found = TARGETS.get(rules)
    if found is None:
        if len(TARGETS) >= 8:
            TARGETS.clear()
        found = TARGETS[rules] = target_table(
            rules=rules, maximum=REVIEW_WIN_MOST_NEEDED, open_boxes=REVIEW_WIN_OPEN_BOXES
        )
    return found


def _win_figures(
    start: Game,
    cards: list[Scorecard],
    seat: int,
    turn: Turn,
    taken: Keep | Box,
    table: Table,
    targets: TargetTable,
) -> tuple[float, Keep | Box, float, bool] | None:
    """The chance of winning after ``taken`` and after the best action for winning, and
    whether they are exact; ``None`` for a decision the review gives none for."""
    limit = REVIEW_WIN_OPEN_BOXES
    if len(turn.card.open_categories) > limit:
        return None
    others = [card for index, card in enumerate(cards) if index != seat]
    exact = all(card.is_complete for card in others)
    if not exact and any(len(card.open_categories) > limit for card in others):
        return None
    rules = start.rules
    base = totals(turn.card, rules=rules).grand_total
    ahead = max(totals(card, rules=rules).grand_total for card in others)
    if ahead - base >= REVIEW_WIN_MOST_NEEDED:
        return None
    game = Game(start.players, rules=rules, cards=cards, first=start.first, current=seat, turn=turn)
    advice = advise(turn, table, game=game, targets=targets)
    chance = next(o.chance for o in advice.options if o.action == taken)
    best = advice.most_likely
    assert chance is not None
    assert best.chance is not None
    return chance, best.action, best.chance, exact


def review_steps(
    start: Game,
    played: Iterable[Step],
    table: Table,
    targets: TargetTable | None = None,
    *,
    wins: bool = False,
    triple: TripleStrategy | None = None,
) -> Review:
    """The review of the game played from ``start`` through ``played``: each decision
    (seat, turn, action taken) and the roll it may end on, as :func:`steps` lists a
    record's. The steps are trusted to be legal (a record's, or a game's as played).
    With ``targets``, the chance of winning in the late decisions (:func:`review`).
    With ``triple``, the values are that strategy's (Triple Yahtzee, an approximation)."""
    rules = start.rules
    cards = list(start.cards) if targets is not None and len(start.players) > 1 else None
    seats = []
    for index, (name, card) in enumerate(zip(start.players, start.cards, strict=True)):
        turn = start.turn if index == start.current else None
        if card.is_complete:
            value = float(totals(card, rules=rules).grand_total)
        else:
            if turn is None or turn.dice is None:
                turn = Turn(card, rules=rules)
            value = (advise(turn, table) if triple is None else triple.advise(turn)).expected
        seats.append(_Seat(name, value, value))
    members = rules.card.members
    skip = start_rolled(start)  # the start's roll: its luck is not known
    played = list(played)
    if triple is None:
        values = step_values(table, played)
        starts: list[float] | None = None
    else:
        found = triple.review_values(played)
        values = [item[:4] for item in found]
        starts = [item[4] for item in found]
    for step, ((seat_index, turn, taken), (base, row, keeps, position)) in enumerate(
        zip(played, values, strict=True)
    ):
        dice = turn.dice
        assert dice is not None
        seat = seats[seat_index]
        number = sum(value is not None for value in turn.card.boxes) + 1
        best, size = ranked(row, keeps, position, base, _ALTERNATIVES + 1, members)
        top = best[0][1]
        if skip:
            skip = False
        else:
            if starts is not None and turn.rolls_used == 1:
                # the turn's own solution against what the last fill was valued at
                seat.bias.append(starts[step] - seat.before)
            seat.rolls.append(RollLuck(seat.name, number, turn.rolls_used, dice, seat.before, top))
        if taken is None:  # the game stops on this roll
            seat.before = top
            break
        if isinstance(taken, Box):
            expected = base + float(row[int(taken)])
        else:
            assert keeps is not None
            expected = base + float(keeps[kernel().subkeep_at[position][taken._index]])
        shown = tuple(Option(a, e) for a, e in best if a != taken)
        figures = None
        if cards is not None:
            assert targets is not None
            cards[seat_index] = turn.card
            figures = _win_figures(start, cards, seat_index, turn, taken, table, targets)
            if isinstance(taken, Box):
                cards[seat_index] = fill_unchecked(turn.card, dice, taken, rules)
        seat.decisions.append(
            Decision(
                seat.name,
                number,
                turn.rolls_used,
                dice,
                taken,
                expected,
                best[0][0],
                top,
                shown[:_ALTERNATIVES],
                size,
                *(figures or ()),
            )
        )
        seat.before = expected
    approximation = None if triple is None else f"TripleStrategy's values, {APPROXIMATION}"
    return Review(rules, tuple(seat.freeze() for seat in seats), wins, approximation)
