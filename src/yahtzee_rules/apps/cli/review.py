"""The ``review`` command: a finished (or unfinished) game against optimal solitaire play.

For each player: the points scored against the expected score at the start, split
into the luck of the dice and the cost of the decisions; a table turn by turn; and
the three costliest decisions in words. ``--wins`` adds, for the late turns a review
covers, the chance of winning each turn's decisions gave up, marked exact (every other
player had finished) or bound (an upper bound on each chance). ``--json`` writes the whole review instead
(every decision's cost and every roll's luck), as described by the JSON Schema
``yahtzee_rules/schema/review-v1.schema.json``. A Triple Yahtzee game, which no table
reaches, is reviewed against TripleStrategy's values, an approximation: the output says
so, and how much of each player's luck is the values' own bias.

Examples:
    >>> from yahtzee_rules.apps.cli import build_parser
    >>> args = build_parser().parse_args(["review", "--code", "y1abc", "--json"])
    >>> args.code, args.json, args.file, args.wins
    ('y1abc', True, None, False)
"""

from __future__ import annotations

import argparse
import json
import math
from typing import TYPE_CHECKING

from yahtzee_rules.apps.cli import _extras
from yahtzee_rules.apps.cli.console import AppError
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.play.record import GameRecord

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import Decision, PlayerReview, Review

__all__ = ["add_arguments", "as_json", "check_reviewable", "read_record", "report"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``review`` command's arguments, added to ``parser``.

    Examples:
        >>> parser = argparse.ArgumentParser()
        >>> add_arguments(parser)
        >>> parser.parse_args(["saved.json"]).file
        'saved.json'
    """
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "file", nargs="?", metavar="FILE", help="a game saved with 'save FILE' in 'play'"
    )
    source.add_argument("--code", metavar="CODE", help="a game's share code")
    parser.add_argument(
        "--json",
        action="store_true",
        help="write the whole review as JSON (every decision's cost, every roll's luck)",
    )
    parser.add_argument(
        "--wins",
        action="store_true",
        help="in a game of two or more, add the chance of winning each player's last turn "
        "gave up: exact once every other player has finished, else an upper bound",
    )


def read_record(args: argparse.Namespace) -> GameRecord:
    """The record to review: from ``args.file`` (a saved game) or ``args.code``."""
    if args.code is not None:
        return _extras.game_from_code(args.code)
    record, _ = _extras.load_game(args.file)
    return record


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def _win_cell(decisions: list[Decision]) -> str:
    """A turn's chance of winning given up, in percentage points, and how sure it is."""
    if not decisions:
        return ""
    lost = math.fsum(d.win_cost or 0.0 for d in decisions)
    how = "exact" if all(d.win_exact for d in decisions) else "bound"
    return f"{100 * lost:5.1f}% {how}"


def _win_lines(player: PlayerReview) -> list[str]:
    exact = player.exact_win_decisions
    bounded = sum(d.win_exact is False for d in player.decisions)
    if not exact and not bounded:
        return ["  chance of winning      not worked out: no other player, or no late turn"]
    lines = []
    if exact:
        lines.append(
            f"  chance of winning      {-100 * player.win_cost:+.1f}%  (exact, over "
            f"{len(exact)} decisions: every other player had finished)"
        )
    if bounded:
        lines.append(
            f"  chance of winning      from upper bounds in {bounded} decisions "
            f"(other players still to play): see the table"
        )
    return lines


def _player_lines(player: PlayerReview, wins: bool = False, approximate: bool = False) -> list[str]:
    grades = player.grades()
    choices = len(player.choices)
    # the boxes' names fit (Triple Yahtzee's name their column, as "Three of a Kind x3")
    wide = max([16, *(len(d.action.label) for d in player.decisions if isinstance(d.action, Box))])
    by = "by the approximate values" if approximate else "with optimal play"
    lines = [
        f"{player.player}: {player.end:g} points; expected {player.start:.2f} at the start {by}",
        f"  luck of the dice       {_signed(player.luck)}",
        *(
            [
                f"  values' share of it    {_signed(player.luck_bias)}  (the approximation's "
                f"bias, not the dice's: luck less it has mean 0)"
            ]
            if approximate
            else []
        ),
        f"  cost of the decisions  {_signed(-player.cost)}  "
        f"(mean {player.mean_cost:.2f} a choice over {choices} choices)",
        f"  best {grades['best']}, inaccuracies {grades['inaccuracy']}, "
        f"mistakes {grades['mistake']}, blunders {grades['blunder']}; "
        f"{grades['forced']} forced",
        *(_win_lines(player) if wins else ()),
        "",
        f"  {'turn':>4}  {'rolls':<22} {'filled':<{wide}} {'luck':>7} {'cost':>6} "
        f"{'expected':>9}" + ("  win lost" if wins else ""),
    ]
    rolls_of: dict[int, list[str]] = {}
    luck_of: dict[int, float] = {}
    for roll in player.rolls:
        rolls_of.setdefault(roll.turn, []).append(str(roll.dice))
        luck_of[roll.turn] = luck_of.get(roll.turn, 0.0) + roll.luck
    cost_of: dict[int, float] = {}
    filled: dict[int, tuple[str, float]] = {}
    win_of: dict[int, list[Decision]] = {}
    for decision in player.decisions:
        cost_of[decision.turn] = cost_of.get(decision.turn, 0.0) + decision.cost
        if decision.win_chance is not None:
            win_of.setdefault(decision.turn, []).append(decision)
        if isinstance(decision.action, Box):
            filled[decision.turn] = (decision.action.label, decision.expected)
            rolls_of.setdefault(decision.turn, [])
    for turn in sorted(rolls_of):
        box, expected = filled.get(turn, ("", float("nan")))
        shown = f"{expected:9.2f}" if box else f"{'':9}"
        row = (
            f"  {turn:>4}  {' '.join(rolls_of[turn]):<22} {box:<{wide}} "
            f"{_signed(luck_of.get(turn, 0.0)):>7} {cost_of.get(turn, 0.0):6.2f} {shown}"
        )
        if wins:
            row = f"{row}  {_win_cell(win_of.get(turn, []))}".rstrip()
        lines.append(row)
    mistakes = player.mistakes(3)
    if mistakes:
        lines += ["", "  The costliest decisions:"]
        lines += [f"  - {decision.describe()}" for decision in mistakes]
    else:
        lines += ["", "  Every decision was the best one."]
    return lines


def report(reviewed: Review, label: str) -> str:
    """The review in words and tables, one block per player; ``label`` names the rules.

    Examples:
        >>> from yahtzee_rules import GameRecord
        >>> from yahtzee_rules.bots.solver import build_table, review
        >>> record = GameRecord.parse(
        ...     "forced 0 Ann 1=0,2=0,3=0,4=0,5=0,6=0,3k=0,4k=0,fh=0,ss=0,ls=0,y=0 - : 12366 c"
        ... )
        >>> table = build_table(start=record.start.player_card(0))
        >>> print(report(review(record, table), "forced Joker (Hasbro Classic)"))
        Review against optimal solitaire play, forced Joker (Hasbro Classic): luck is what the dice gave or took, cost what the decisions gave up, in expected final points.
        <BLANKLINE>
        Ann: 18 points; expected 23.33 at the start with optimal play
          luck of the dice       +1.42
          cost of the decisions  -6.75  (mean 6.75 a choice over 1 choices)
          best 0, inaccuracies 0, mistakes 0, blunders 1; 0 forced
        <BLANKLINE>
          turn  rolls                  filled              luck   cost  expected
            13  12366                  Chance             +1.42   6.75     18.00
        <BLANKLINE>
          The costliest decisions:
          - turn 13, roll 1, dice 12366: fill Chance (expected 18.00); best: hold 66 and reroll 1 2 3 (expected 24.75), 6.75 points more
    """
    against = "optimal solitaire play"
    if reviewed.approximation is not None:
        against = reviewed.approximation
    lines = [
        f"Review against {against}, {label}: luck is what the "
        f"dice gave or took, cost what the decisions gave up, in expected final points.",
    ]
    if reviewed.wins:
        lines.append(
            "Win lost: the chance of winning a turn's decisions gave up against playing to "
            "win, exact once every other player has finished, else from upper bounds."
        )
    for player in reviewed.players:
        lines += ["", *_player_lines(player, reviewed.wins, reviewed.approximation is not None)]
    return "\n".join(lines)


def as_json(reviewed: Review) -> str:
    """The review as the JSON document ``--json`` writes.

    Examples:
        >>> from yahtzee_rules import Rules
        >>> from yahtzee_rules.bots.solver import PlayerReview, Review
        >>> json.loads(as_json(Review(Rules(), (PlayerReview("Ann", 1.0, 1.0, (), ()),))))["version"]
        1
    """
    return json.dumps(reviewed.to_dict(), indent=2)


def check_reviewable(record: GameRecord) -> None:
    """Raise ``AppError`` for a record with no moves to review."""
    if not record.actions:
        raise AppError("review: the game has no moves yet; review a game that has been played")
