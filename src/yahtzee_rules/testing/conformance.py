"""Known-answer cases for any Yahtzee implementation, and the comparison of its answers.

Another implementation (in any language) replays the cases, or answers the same
questions through ``yahtzee-rules check``; a Python one can call
:func:`replay_cases` from its tests. A question is a small JSON object, and so is its
answer; the protocol page (docs/how-to/check-an-implementation.md) lists the four
questions:

- ``score``: the points of a roll in a box, whatever the card
  (``{"points": 20}``);
- ``roll``: whether a roll is allowed, holding some dice (``{"legal": false}``);
- ``options``: every box the dice may fill on a card, with its points, and the
  Yahtzee bonus the roll earns (``{"options": {"fours": 20}, "bonus": 100}``);
- ``fill``: the card and its totals after filling a box, or ``{"legal": false}``; on
  Triple Yahtzee's card also the totals of each column (``columns``).

Every answer here comes from the library's own scoring, filling and turn functions;
nothing in this module scores a roll itself. Every case names the numbered rule
clause of the documentation it exercises (:data:`CLAUSES`), and a disagreement is
explained in one line that names the clause.

Examples:
    >>> from yahtzee_rules.testing.conformance import answer, cases, disagreement
    >>> question = {"ask": "score", "rules": "forced", "dice": "33356", "box": "three_of_a_kind"}
    >>> answer(question)
    {'points': 20}
    >>> print(disagreement(question, {"points": 9}))
    R4.1 Three of a Kind scores the total of all five dice: score of 33356 in three_of_a_kind: the program answered 9, the rules give 20
    >>> first = next(cases())
    >>> first["id"], first["clause"], first["answer"]
    ('forced/score/1', 'R3.1', {'points': 5})
    >>> card = {"boxes": {"yahtzee_x1": 50, "yahtzee_x2": 50, "yahtzee_x3": 50}, "bonus_marks": 0}
    >>> q = {"ask": "fill", "rules": "triple", "card": card, "dice": "44444", "box": "fours_x3"}
    >>> answer(q)["totals"]["yahtzee_bonus"], answer(q)["columns"][2]
    (100, {'upper_subtotal': 20, 'upper_bonus': 0, 'lower_subtotal': 50, 'grand_total': 70})
    >>> print(disagreement(q, {**answer(q), "totals": {**answer(q)["totals"], "yahtzee_bonus": 300}}))
    T5 Triple Yahtzee: an extra Yahtzee earns the bonus while all three Yahtzee boxes hold 50, added once, not multiplied: fill fours_x3 with 44444 on card triple:y.1=50,y.2=50,y.3=50: the program's yahtzee_bonus is 300, the rules 100
"""

from __future__ import annotations

import collections
import itertools
import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from yahtzee_rules.bots.simulation import RandomStrategy
from yahtzee_rules.core.boxes import Box, Switch
from yahtzee_rules.core.classic import CLASSIC, Category
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import JokerRule, Rules
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.scoring import fill, legal_fills, score
from yahtzee_rules.play.totals import totals
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError, RulesError

__all__ = [
    "ASKS",
    "CASES_VERSION",
    "CLAUSES",
    "COLUMN_TOTALS",
    "KINDS",
    "TOTALS",
    "answer",
    "cases",
    "cases_schema",
    "clause_of",
    "disagreement",
    "random_questions",
    "replay_cases",
    "shrink",
]

#: The version of the case files and of the protocol; ``schema/cases-v1.schema.json``
#: describes its lines.
CASES_VERSION = 1

_RULES_PAGE = "explanation/rules.md"
_CLASSIC_PAGE = "rulesets/classic.md"
_YATZY_PAGE = "rulesets/yatzy.md"
_YACHT_PAGE = "rulesets/yacht.md"
_TRIPLE_PAGE = "rulesets/triple.md"

#: Every rule clause a case can name: its id, the documentation page (under ``docs/``)
#: that holds it as an anchor, and the clause in a few words. A test checks that every
#: id is an anchor of its page.
CLAUSES: Mapping[str, tuple[str, str]] = {
    "R1.1": (_RULES_PAGE, "each box is filled exactly once"),
    "R2.1": (_RULES_PAGE, "a turn has at most three rolls"),
    "R2.2": (
        _RULES_PAGE,
        "the first roll throws all five dice; later rolls hold only dice that are showing",
    ),
    "R2.3": (_RULES_PAGE, "the player fills exactly one open box, 0 allowed in any open box"),
    "R3.1": (_RULES_PAGE, "an upper box scores the total of the dice showing its face"),
    "R3.2": (_RULES_PAGE, "63 or more in the six upper boxes earns the upper bonus"),
    "R3.3": (_RULES_PAGE, "only the six upper boxes count towards the 63"),
    "R4.1": (_RULES_PAGE, "Three of a Kind scores the total of all five dice"),
    "R4.2": (_RULES_PAGE, "Four of a Kind scores the total of all five dice"),
    "R4.3": (
        _RULES_PAGE,
        "Full House is three of one face and two of another; five equal dice are not "
        "a Full House, except as a Joker",
    ),
    "R4.4": (_RULES_PAGE, "Small Straight is four consecutive faces"),
    "R4.5": (_RULES_PAGE, "Large Straight is five consecutive faces"),
    "R4.6": (_RULES_PAGE, "Yahtzee is five equal dice; the first scores 50 and no bonus"),
    "R4.7": (_RULES_PAGE, "Chance scores the total of all five dice"),
    "R5.1": (_RULES_PAGE, "a further Yahtzee while the Yahtzee box holds 50 earns the bonus"),
    "R5.2": (_RULES_PAGE, "while the Yahtzee box holds 0, further Yahtzees earn no bonus"),
    "R6.2": (_RULES_PAGE, "the forced Joker: an extra Yahtzee must fill its open upper box"),
    "R6.3": (
        _RULES_PAGE,
        "the forced Joker: with its upper box filled, an extra Yahtzee fills any open "
        "lower box at its Joker value",
    ),
    "R6.4": (
        _RULES_PAGE,
        "the forced Joker: with every lower box filled, an extra Yahtzee fills an open "
        "upper box for 0",
    ),
    "R7.1": (
        _RULES_PAGE,
        "the free-choice Joker: any open box; Full House and the straights take Joker "
        "values only once the upper box is filled",
    ),
    "R7.2": (_RULES_PAGE, "no Joker: an extra Yahtzee scores like any other roll"),
    "R7.3": (_RULES_PAGE, "the bonus values are the ruleset's; a Yahtzee bonus of 0 is none"),
    "R8.1": (
        _RULES_PAGE,
        "the grand total is the upper subtotal, the upper bonus, the lower boxes and "
        "the Yahtzee bonuses",
    ),
    "V1": (
        _CLASSIC_PAGE,
        "the kinds-first Joker: the upper box, then Three or Four of a Kind, then "
        "another lower box",
    ),
    "V2": (
        _CLASSIC_PAGE,
        "Forced Yahtzee: five equal dice fill their open upper box, even the first",
    ),
    "V3": (_CLASSIC_PAGE, "classic+5fh: five equal dice also score as a Full House"),
    "Y1": (_YATZY_PAGE, "Yatzy: Ones to Sixes score the total of the dice showing their face"),
    "Y2": (_YATZY_PAGE, "Yatzy: 63 or more in Ones to Sixes earns the 50-point bonus"),
    "Y3": (_YATZY_PAGE, "Yatzy: the pairs and kinds score the dice that make the pattern"),
    "Y4": (_YATZY_PAGE, "Yatzy: Small Straight is 1-2-3-4-5, Large Straight 2-3-4-5-6"),
    "Y5": (_YATZY_PAGE, "Yatzy: Full House and Chance score the total of the dice"),
    "Y6": (_YATZY_PAGE, "Yatzy: five of a kind scores 50 in Yatzy; no bonus, no Joker"),
    "Y7": (_YATZY_PAGE, "Yatzy's house switches: 5fh and 4k2p"),
    "Y8": (_YATZY_PAGE, "Forced Yatzy: the boxes are filled in card order"),
    "H1": (_YACHT_PAGE, "Yacht: Ones to Sixes score the total of the dice showing their face"),
    "H2": (_YACHT_PAGE, "Yacht: Full House and Choice score the total of the five dice"),
    "H3": (_YACHT_PAGE, "Yacht: Four of a Kind scores the four matching dice"),
    "H4": (_YACHT_PAGE, "Yacht: the straights are 1-2-3-4-5 and 2-3-4-5-6, each 30"),
    "H5": (_YACHT_PAGE, "Yacht: five of a kind scores 50 in Yacht"),
    "H6": (_YACHT_PAGE, "Yacht: no upper bonus, no bonus for a second Yacht, no Joker"),
    "T1": (_TRIPLE_PAGE, "Triple Yahtzee: a turn fills one open box, in any column"),
    "T2": (
        _TRIPLE_PAGE,
        "Triple Yahtzee: each column earns its own upper bonus, when its own six upper "
        "boxes reach 63",
    ),
    "T3": (
        _TRIPLE_PAGE,
        "Triple Yahtzee: each column's total is multiplied by 1, 2 or 3, then the columns "
        "are added up",
    ),
    "T4": (
        _TRIPLE_PAGE,
        "Triple Yahtzee: five equal dice are an extra Yahtzee only once all three Yahtzee "
        "boxes are filled",
    ),
    "T5": (
        _TRIPLE_PAGE,
        "Triple Yahtzee: an extra Yahtzee earns the bonus while all three Yahtzee boxes "
        "hold 50, added once, not multiplied",
    ),
    "T6": (
        _TRIPLE_PAGE,
        "Triple Yahtzee: while a Yahtzee box holds 0, extra Yahtzees earn no bonus",
    ),
    "T7": (
        _TRIPLE_PAGE,
        "Triple Yahtzee, the forced Joker: an extra Yahtzee must fill an open upper box of "
        "its face, in any column",
    ),
    "T8": (
        _TRIPLE_PAGE,
        "Triple Yahtzee, the forced Joker: with every upper box of its face filled, an "
        "extra Yahtzee fills any open lower box at its Joker value",
    ),
    "T9": (
        _TRIPLE_PAGE,
        "Triple Yahtzee, the forced Joker: with every lower box filled, an extra Yahtzee "
        "fills an open upper box for 0",
    ),
    "T10": (
        _TRIPLE_PAGE,
        "Triple Yahtzee, the free-choice Joker: any open box; Full House and the straights "
        "take Joker values only once every upper box of the face is filled",
    ),
    "T11": (_TRIPLE_PAGE, "Triple Yahtzee, no Joker: an extra Yahtzee scores like any roll"),
    "T12": (
        _TRIPLE_PAGE,
        "Triple Yahtzee in order: a box opens only once the box to its left is filled",
    ),
}

#: The questions of the protocol, in the order the cases ask them.
ASKS = ("score", "roll", "options", "fill")

#: The kinds of case: ``score`` (every roll in every box), ``refusal`` (rolls refused
#: and allowed), ``options`` (legal boxes and points on a stratified set of cards),
#: ``fill`` (filling a box, the card and totals after it) and ``game`` (whole games,
#: move by move: each move a ``fill`` question from the card before it).
KINDS = ("score", "refusal", "options", "fill", "game")

#: The totals a ``fill`` answer gives, named as :class:`~yahtzee_rules.Totals` names them.
TOTALS = ("upper_subtotal", "upper_bonus", "lower_subtotal", "yahtzee_bonus", "grand_total")

#: The totals of each column a ``fill`` answer gives on a card of several columns (its
#: ``columns``), before the column's multiplier: the Yahtzee bonus is the whole card's.
COLUMN_TOTALS = tuple(name for name in TOTALS if name != "yahtzee_bonus")

# The clauses of each card the cases cover (by the name of the card a switched card is
# based on): of its lower boxes (by code), its upper boxes, its upper bonus (at and below
# the threshold), an extra five of a kind without a Joker, no Yahtzee bonus, its switches.
_BOX_CLAUSES = {
    "classic": {"3k": "R4.1", "4k": "R4.2", "fh": "R4.3", "ss": "R4.4", "ls": "R4.5"}
    | {"y": "R4.6", "c": "R4.7"},
    "yatzy": {"1p": "Y3", "2p": "Y3", "3k": "Y3", "4k": "Y3", "ss": "Y4", "ls": "Y4"}
    | {"fh": "Y5", "c": "Y5", "y": "Y6"},
    "yacht": {"fh": "H2", "ch": "H2", "4k": "H3", "ls": "H4", "bs": "H4", "y": "H5"},
}
_BOX_CLAUSES["triple"] = _BOX_CLAUSES["classic"]  # each box scores as on the Classic card
_UPPER_CLAUSES = {"classic": "R3.1", "yatzy": "Y1", "yacht": "H1", "triple": "R3.1"}
_UPPER_BONUS_CLAUSES = {
    "classic": ("R3.2", "R3.3"),
    "yatzy": ("Y2", "Y2"),
    "yacht": ("H6", "H6"),
    "triple": ("T2", "T2"),
}
_NO_JOKER_CLAUSES = {"classic": "R7.2", "yatzy": "Y6", "yacht": "H6", "triple": "T11"}
_NO_BONUS_CLAUSES = {"classic": "R7.3", "yatzy": "Y6", "yacht": "H6", "triple": "R7.3"}
# Any open box (no Joker involved), then the totals: the grand total of the card
_PLAIN_CLAUSES = {"triple": "T1"}
_GRAND_TOTAL_CLAUSES = {"triple": "T3"}
# The Yahtzee bonus: earned, not earned with a 0 in a Yahtzee box, not yet an extra Yahtzee
_BONUS_CLAUSES = {"classic": ("R5.1", "R5.2", "R4.6"), "triple": ("T5", "T6", "T4")}
# The Joker's steps: the upper box of the face, then the lower boxes, then the upper for 0;
# and the free-choice Joker
_JOKER_CLAUSES = {
    "classic": ("R6.2", "R6.3", "R6.4", "R7.1"),
    "triple": ("T7", "T8", "T9", "T10"),
}
# The Joker steps that give boxes Joker values
_JOKER_VALUE_CLAUSES = {"V1"} | {steps[i] for steps in _JOKER_CLAUSES.values() for i in (1, 3)}
# Five equal dice while a Yahtzee box is open
_NOT_EXTRA_CLAUSES = {"triple": "T4"}
_SWITCHED = {
    ("classic", "fh", Switch.FIVE_OF_A_KIND_FULL_HOUSE): "V3",
    ("yatzy", "fh", Switch.FIVE_OF_A_KIND_FULL_HOUSE): "Y7",
    ("yatzy", "2p", Switch.FOUR_OF_A_KIND_TWO_PAIRS): "Y7",
}


def _design(rules: Rules) -> str:
    """The name of the card the rules play, or of the card it is a switched copy of;
    ``"triple"`` for a card of several columns (Triple Yahtzee, in order or not)."""
    if len(rules.card.multipliers) > 1:
        return "triple"
    return (rules.card.base or rules.card).name


def _plain(rules: Rules) -> str:
    """The clause of a roll that may fill any open box."""
    return _PLAIN_CLAUSES.get(_design(rules), "R2.3")


# --- reading questions --------------------------------------------------------------


def _rules_of(question: Mapping[str, Any]) -> Rules:
    text = question.get("rules", "forced")
    if not isinstance(text, str):
        raise MalformedInputError(f"question rules {show(text)}: not a ruleset name")
    try:
        rules = Rules.from_name(text)  # a name, with any parts from_name reads
    except RulesError:
        rules = Rules.parse(text)
    return _covered(rules, text)


def _covered(rules: Rules, text: object) -> Rules:
    """``rules``, if the cases cover their card; else refuse them, naming ``text``."""
    if _design(rules) not in _UPPER_CLAUSES:
        raise MalformedInputError(
            f"question rules {show(text)}: the conformance cases cover the rulesets of the "
            f"Classic, Yatzy, Yacht and Triple Yahtzee cards ({', '.join(_covered_names())}); "
            f"the {rules.card.title} card has no numbered clauses"
        )
    return rules


def _covered_names() -> list[str]:
    return [name for name in Rules.names() if _design(Rules.from_name(name)) in _UPPER_CLAUSES]


def _box_of(rules: Rules, name: object) -> Box:
    for box in rules.card.members:
        if box.name.lower() == name:
            return box
    names = ", ".join(box.name.lower() for box in rules.card.members)
    raise MalformedInputError(f"question box {show(name)}: no such box; use one of {names}")


def _dice_of(text: object) -> Dice:
    if not isinstance(text, str):
        raise MalformedInputError(f"question dice {show(text)}: not five faces such as '13366'")
    return Dice(text)


def _card_of(rules: Rules, value: object) -> Scorecard:
    if value is None:
        return Scorecard(card=rules.card)
    if not isinstance(value, Mapping) or not isinstance(value.get("boxes", {}), Mapping):
        raise MalformedInputError(
            f"question card {show(value)}: not an object with 'boxes' and 'bonus_marks'"
        )
    boxes = {_box_of(rules, name): points for name, points in value.get("boxes", {}).items()}
    marks = value.get("bonus_marks", 0)
    if not isinstance(marks, int):
        raise MalformedInputError(f"question bonus_marks {show(marks)}: not a whole number")
    return Scorecard(boxes, bonus_marks=marks, card=rules.card)


def _card_json(card: Scorecard) -> dict[str, Any]:
    boxes = {box.name.lower(): points for box, points in card if points is not None}
    return {"boxes": boxes, "bonus_marks": card.bonus_marks}


# --- the library's answers ----------------------------------------------------------


def answer(question: Mapping[str, Any]) -> dict[str, Any]:
    """The library's answer to one protocol question.

    Raises:
        MalformedInputError: For a question that is not one of :data:`ASKS` or whose
            fields are not valid values.

    Examples:
        >>> answer({"ask": "roll", "rules": "forced", "rolls_used": 3, "dice": "12345", "keep": ""})
        {'legal': False}
        >>> card = {"boxes": {"yahtzee": 50}, "bonus_marks": 0}
        >>> answer({"ask": "options", "rules": "forced", "card": card, "dice": "44444"})
        {'options': {'fours': 20}, 'bonus': 100}
        >>> answer({"ask": "fill", "rules": "forced", "card": card, "dice": "44444", "box": "chance"})
        {'legal': False}
    """
    if not isinstance(question, Mapping):
        raise MalformedInputError(f"question {show(question)}: not a JSON object")
    ask = question.get("ask")
    if ask not in ASKS:
        raise MalformedInputError(
            f"question ask {show(ask)}: no such question; ask one of {', '.join(ASKS)}"
        )
    rules = _rules_of(question)
    if ask == "score":
        return {
            "points": score(_dice_of(question.get("dice")), _box_of(rules, question.get("box")))
        }
    if ask == "roll":
        return {"legal": _roll_legal(question)}
    card = _card_of(rules, question.get("card"))
    dice = _dice_of(question.get("dice"))
    if ask == "options":
        options = legal_fills(card, dice, rules=rules)
        return {
            "options": {box.name.lower(): points for box, points in options.items()},
            "bonus": _bonus(card, dice, rules),
        }
    box = _box_of(rules, question.get("box"))
    try:
        after = fill(card, dice, box, rules=rules)
    except IllegalActionError:
        return {"legal": False}
    result = totals(after, rules=rules)
    found = {
        "legal": True,
        "card": _card_json(after),
        "totals": {name: getattr(result, name) for name in TOTALS},
    }
    if result.columns:
        found["columns"] = [
            {name: getattr(column, name) for name in COLUMN_TOTALS} for column in result.columns
        ]
    return found


def _roll_legal(question: Mapping[str, Any]) -> bool:
    used = question.get("rolls_used")
    if not isinstance(used, int) or not 0 <= used <= 3:
        raise MalformedInputError(f"question rolls_used {show(used)}: not a number from 0 to 3")
    dice = question.get("dice")
    keep = question.get("keep", "")
    if not isinstance(keep, str):
        raise MalformedInputError(f"question keep {show(keep)}: not faces such as '66'")
    turn = Turn(dice=None if dice is None else _dice_of(dice), rolls_used=used)
    return turn.can_roll(Keep(keep))


def _bonus(card: Scorecard, dice: Dice, rules: Rules) -> int:
    """The Yahtzee bonus ``dice`` earn on ``card``, wherever they are written."""
    options = legal_fills(card, dice, rules=rules)
    box = next(iter(options))
    return (fill(card, dice, box, rules=rules).bonus_marks - card.bonus_marks) * rules.yahtzee_bonus


# --- clauses ------------------------------------------------------------------------


def _box_clause(rules: Rules, box: Box) -> str:
    design = _design(rules)
    if box.is_upper:
        return _UPPER_CLAUSES[design]
    for switch in rules.card.switches:
        if (design, box.code, switch) in _SWITCHED:
            return _SWITCHED[design, box.code, switch]
    code = CLASSIC.members[box.row].code if design == "triple" else box.code
    return _BOX_CLAUSES[design].get(code, _plain(rules))


def _extra(card: Scorecard, rules: Rules) -> bool:
    """Whether five equal dice are an extra Yahtzee on ``card``: every Yahtzee box filled."""
    yahtzees = rules.card.yahtzees
    return bool(yahtzees) and not any(card.is_open(box) for box in yahtzees)


def _placement_clause(card: Scorecard, dice: Dice, rules: Rules) -> str:
    """The clause that decides where ``dice`` may go on ``card``."""
    if rules.in_order:
        return "Y8"
    design = _design(rules)
    plain = "T12" if rules.card.left_to_right else _plain(rules)
    if dice.faces[0] != dice.faces[4]:
        return plain
    faces = rules.card.face_boxes(dice.faces[0])
    extra = _extra(card, rules)
    if rules.forced_yahtzee and any(card.is_open(box) for box in faces) and not extra:
        return "V2"
    if rules.joker is JokerRule.NONE and extra:
        return _NO_JOKER_CLAUSES[design]  # an extra Yahtzee, without a Joker
    if not extra:
        return _NOT_EXTRA_CLAUSES.get(design, plain)
    steps = _JOKER_CLAUSES.get(design, _JOKER_CLAUSES["classic"])
    if rules.joker is JokerRule.FREE_CHOICE:
        return steps[3]
    if any(card.is_open(box) for box in faces):
        return steps[0]
    if rules.joker is JokerRule.KINDS_FIRST:
        return "V1"
    if any(card.is_open(box) for box in rules.card.boxes.lower()):
        return steps[1]
    return steps[2]


def _refused_clause(card: Scorecard, dice: Dice, rules: Rules, box: Box) -> str:
    """The clause that keeps ``dice`` out of ``box`` on ``card``."""
    if not card.is_open(box):
        return "R1.1"
    left = rules.card.left_of(box) if rules.card.left_to_right else None
    if left is not None and card.is_open(left):
        return "T12"
    return _placement_clause(card, dice, rules)


def _bonus_clause(card: Scorecard, rules: Rules) -> str:
    yahtzees = rules.card.yahtzees
    if rules.yahtzee_bonus == 0 or not yahtzees:
        return _NO_BONUS_CLAUSES[_design(rules)]
    earned, zero, first = _BONUS_CLAUSES.get(_design(rules), _BONUS_CLAUSES["classic"])
    held = [card[box] for box in yahtzees]
    if None in held:
        return first
    return zero if 0 in held else earned


def clause_of(question: Mapping[str, Any]) -> str:
    """The rule clause a question exercises (an id of :data:`CLAUSES`).

    Examples:
        >>> clause_of({"ask": "score", "rules": "forced", "dice": "33333", "box": "full_house"})
        'R4.3'
        >>> card = {"boxes": {"yahtzee": 0}, "bonus_marks": 0}
        >>> clause_of({"ask": "options", "rules": "forced", "card": card, "dice": "22222"})
        'R6.2'
        >>> card = {"boxes": {"yahtzee_x1": 50, "yahtzee_x2": 50}, "bonus_marks": 0}
        >>> clause_of({"ask": "options", "rules": "triple", "card": card, "dice": "22222"})
        'T4'
    """
    rules = _rules_of(question)
    ask = question.get("ask")
    if ask == "score":
        return _box_clause(rules, _box_of(rules, question.get("box")))
    if ask == "roll":
        used = question.get("rolls_used")
        return "R2.1" if isinstance(used, int) and used >= 3 else "R2.2"
    card = _card_of(rules, question.get("card"))
    dice = _dice_of(question.get("dice"))
    placement = _placement_clause(card, dice, rules)
    plain = (_plain(rules), "T12")
    if ask == "options":
        if placement in plain and _bonus(card, dice, rules):
            return _bonus_clause(card, rules)
        return placement
    box = _box_of(rules, question.get("box"))
    ours = answer(question)
    if not ours["legal"]:
        return _refused_clause(card, dice, rules, box)
    before = totals(card, rules=rules)
    if ours["totals"]["yahtzee_bonus"] > before.yahtzee_bonus:
        return _bonus_clause(card, rules)
    held = [card[yahtzee] for yahtzee in rules.card.yahtzees]
    if dice.faces[0] == dice.faces[4] and 0 in held and rules.yahtzee_bonus:
        return _bonus_clause(card, rules)
    if ours["totals"]["upper_bonus"] > before.upper_bonus:
        return _UPPER_BONUS_CLAUSES[_design(rules)][0]
    if placement not in plain:
        return placement
    return _GRAND_TOTAL_CLAUSES.get(_design(rules), "R8.1")


# --- comparing answers --------------------------------------------------------------


def _shown(value: object, limit: int = 200) -> str:
    """A value of the program's answer as JSON text, bounded."""
    try:
        text = json.dumps(value, separators=(", ", ": "))
    except (TypeError, ValueError, RecursionError):
        return show(value, limit)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(question: Mapping[str, Any]) -> str:
    ask = question.get("ask")
    if ask == "score":
        return f"score of {question.get('dice')} in {question.get('box')}"
    if ask == "roll":
        used = question.get("rolls_used")
        shown = question.get("dice")
        held = f"holding {question.get('keep', '')!r}" if question.get("keep") else "holding none"
        before = "no dice yet" if shown is None else f"dice {shown}"
        return f"roll {used + 1 if isinstance(used, int) else used} {held} ({before})"
    rules = _rules_of(question)
    card = _card_of(rules, question.get("card"))
    text = str(card) or "the empty card"
    where = f"on {text}" if text == "the empty card" else f"on card {text}"
    if ask == "options":
        return f"options for {question.get('dice')} {where}"
    return f"fill {question.get('box')} with {question.get('dice')} {where}"


def _detail(
    question: Mapping[str, Any], ours: Mapping[str, Any], theirs: object
) -> tuple[str, str] | None:
    """The clause and the difference, or ``None`` if the answers agree."""
    if not isinstance(theirs, Mapping):
        return clause_of(question), f"the program answered {_shown(theirs)}, not a JSON object"
    ask = question.get("ask")
    rules = _rules_of(question)
    for key, value in ours.items():
        if key not in theirs:
            return clause_of(question), f"the program's answer has no {key!r}"
        if isinstance(value, bool) != isinstance(theirs[key], bool) or (
            isinstance(value, dict) != isinstance(theirs[key], Mapping)
        ):
            return clause_of(question), f"the program's {key!r} is {_shown(theirs[key])}"
    if ask in ("score", "roll"):
        key = "points" if ask == "score" else "legal"
        if theirs[key] == ours[key] and type(theirs[key]) is type(ours[key]):
            return None
        said = "allowed" if ours[key] is True else "refused"
        given = f"the rules give {ours[key]}" if ask == "score" else f"the rules have it {said}"
        return clause_of(question), f"the program answered {_shown(theirs[key])}, {given}"
    card = _card_of(rules, question.get("card"))
    dice = _dice_of(question.get("dice"))
    if ask == "options":
        found = _options_detail(card, dice, rules, ours["options"], theirs["options"])
        if found is not None:
            return found
        if theirs["bonus"] != ours["bonus"]:
            return (
                _bonus_clause(card, rules),
                f"the program gives a bonus of {_shown(theirs['bonus'])}, the rules {ours['bonus']}",
            )
        return None
    if theirs["legal"] is not ours["legal"]:
        clause = _refused_clause(card, dice, rules, _box_of(rules, question.get("box")))
        said = "allows" if theirs["legal"] else "refuses"
        return (
            clause,
            f"the program {said} it, the rules {'do not' if said == 'allows' else 'allow it'}",
        )
    if not ours["legal"]:
        return None
    return _fill_detail(question, card, dice, rules, ours, theirs)


def _options_detail(
    card: Scorecard,
    dice: Dice,
    rules: Rules,
    ours: Mapping[str, int],
    theirs: Mapping[str, Any],
) -> tuple[str, str] | None:
    placement = _placement_clause(card, dice, rules)
    for box in rules.card.members:
        name = box.name.lower()
        if name in ours and name not in theirs:
            return placement, f"the program leaves out {name}, the rules allow it for {ours[name]}"
        if name in theirs and name not in ours:
            clause = _refused_clause(card, dice, rules, box)
            return clause, f"the program allows {name} for {_shown(theirs[name])}, the rules do not"
        if name in ours and theirs[name] != ours[name]:
            clause = placement if placement in _JOKER_VALUE_CLAUSES else _box_clause(rules, box)
            return (
                clause,
                f"the program gives {name} {_shown(theirs[name])}, the rules {ours[name]}",
            )
    extra = [name for name in theirs if name not in ours]
    if extra:
        return _plain(rules), f"the program names {_shown(extra[0])}, no box of the card"
    return None


def _fill_detail(
    question: Mapping[str, Any],
    card: Scorecard,
    dice: Dice,
    rules: Rules,
    ours: Mapping[str, Any],
    theirs: Mapping[str, Any],
) -> tuple[str, str] | None:
    box = _box_of(rules, question.get("box"))
    got_card, got_totals = theirs["card"], theirs["totals"]
    if not isinstance(got_card.get("boxes"), Mapping) or not isinstance(got_totals, Mapping):
        return clause_of(question), f"the program's card or totals is {_shown(theirs)}"
    mine = ours["card"]["boxes"]
    design = _design(rules)
    for name in sorted(set(mine) | set(got_card["boxes"])):
        if got_card["boxes"].get(name) != mine.get(name):
            placement = _placement_clause(card, dice, rules)
            plain = placement in (_plain(rules), "T12")
            clause = _box_clause(rules, box) if plain else placement
            return clause, (
                f"the program's card has {name} {_shown(got_card['boxes'].get(name))}, "
                f"the rules {_shown(mine.get(name))}"
            )
    if got_card.get("bonus_marks") != ours["card"]["bonus_marks"]:
        return _bonus_clause(card, rules), (
            f"the program's card has {_shown(got_card.get('bonus_marks'))} bonus marks, "
            f"the rules {ours['card']['bonus_marks']}"
        )
    for name in TOTALS:
        value = ours["totals"][name]
        if got_totals.get(name) == value:
            continue
        if name == "upper_bonus":
            below = ours["totals"]["upper_subtotal"] < rules.upper_bonus_threshold
            clause = _UPPER_BONUS_CLAUSES[design][below]
            return clause, (
                f"the program's upper_bonus is {_shown(got_totals.get(name))}, the rules "
                f"{value}{_threshold_note(rules)}"
            )
        if name == "yahtzee_bonus":
            clause = _bonus_clause(card, rules)
        elif name == "upper_subtotal":
            clause = _GRAND_TOTAL_CLAUSES.get(design, _UPPER_CLAUSES[design])
        else:
            clause = _GRAND_TOTAL_CLAUSES.get(design, "R8.1")
        return clause, f"the program's {name} is {_shown(got_totals.get(name))}, the rules {value}"
    if "columns" in ours:
        return _columns_detail(rules, ours["columns"], theirs.get("columns"))
    return None


def _threshold_note(rules: Rules) -> str:
    """The upper bonus threshold of ``rules``, where it is not the card's usual one."""
    threshold = rules.upper_bonus_threshold
    usual = Rules.for_card(rules.card).upper_bonus_threshold
    return "" if threshold == usual else f" (the threshold of these rules is {threshold})"


def _columns_detail(
    rules: Rules, ours: list[dict[str, int]], theirs: object
) -> tuple[str, str] | None:
    """How the program's totals of each column differ from the rules', if they do."""
    design = _design(rules)
    whole = _GRAND_TOTAL_CLAUSES.get(design, "R8.1")
    if (
        not isinstance(theirs, list)
        or len(theirs) != len(ours)
        or not all(isinstance(column, Mapping) for column in theirs)
    ):
        return whole, f"the program's columns are {_shown(theirs)}, the rules {_shown(ours)}"
    for number, (mine, given) in enumerate(zip(ours, theirs, strict=True), start=1):
        for name in COLUMN_TOTALS:
            if given.get(name) != mine[name]:
                bonus = name == "upper_bonus"
                return _UPPER_BONUS_CLAUSES[design][0] if bonus else whole, (
                    f"the program's column {number} {name} is {_shown(given.get(name))}, "
                    f"the rules {mine[name]}{_threshold_note(rules) if bonus else ''}"
                )
    return None


def disagreement(question: Mapping[str, Any], theirs: object) -> str | None:
    """One line explaining how ``theirs`` differs from the rules' answer, or ``None``.

    The line starts with the clause that decides the question and its words, then the
    question, then the two answers.

    Examples:
        >>> q = {"ask": "roll", "rules": "forced", "rolls_used": 3, "dice": "12345", "keep": ""}
        >>> print(disagreement(q, {"legal": True}))
        R2.1 a turn has at most three rolls: roll 4 holding none (dice 12345): the program answered true, the rules have it refused
        >>> disagreement(q, {"legal": False}) is None
        True
    """
    ours = answer(question)
    found = _detail(question, ours, theirs)
    if found is None:
        return None
    clause, difference = found
    return f"{clause} {CLAUSES[clause][1]}: {_describe(question)}: {difference}"


# --- the cases ----------------------------------------------------------------------


def _case(
    rules: Rules, kind: str, number: int, question: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    return {
        "version": CASES_VERSION,
        "id": f"{rules}/{kind}/{number}",
        "kind": kind,
        "clause": clause_of(question),
        **extra,
        "question": question,
        "answer": answer(question),
    }


def _questions_score(rules: Rules, exhaustive: bool) -> Iterator[dict[str, Any]]:
    """Every roll in every box; on a card of several columns, whose boxes of a row score
    alike, the default set asks every roll in every row, in each column in turn."""
    columns = rules.card.columns
    if exhaustive or len(columns) < 2:
        boxes = [[box] * len(Dice.all()) for box in rules.card.members]
    else:
        boxes = [
            [columns[number % len(columns)][row] for number in range(len(Dice.all()))]
            for row in range(len(columns[0]))
        ]
    for row in boxes:
        for dice, box in zip(Dice.all(), row, strict=True):
            yield {"ask": "score", "rules": str(rules), "dice": str(dice), "box": box.name.lower()}


def _questions_refusal(rules: Rules, exhaustive: bool) -> Iterator[dict[str, Any]]:
    def ask(used: int, dice: Dice | None, keep: str) -> dict[str, Any]:
        shown = None if dice is None else str(dice)
        return {"ask": "roll", "rules": str(rules), "rolls_used": used, "dice": shown, "keep": keep}

    yield ask(0, None, "")
    yield ask(0, None, "6")
    chosen = Dice.all() if exhaustive else [Dice(text) for text in ("13366", "12345", "44444")]
    for dice in chosen:
        yield ask(3, dice, "")
        yield ask(3, dice, str(dice)[:2])
        for used in (1, 2):
            yield ask(used, dice, "")
        keeps = Keep.all() if exhaustive else [Keep(text) for text in ("3", "66", "333", "6666")]
        for keep in keeps:
            yield ask(1, dice, str(keep))


def _marked(rules: Rules, boxes: Mapping[Any, int], marks: int) -> Scorecard:
    """The card of ``boxes`` with ``marks`` bonus marks, or fewer if it cannot hold them."""
    while True:
        try:
            return Scorecard(boxes, bonus_marks=marks, card=rules.card)
        except MalformedInputError:
            if not marks:
                raise
            marks -= 1


def _filled(
    rules: Rules, boxes: Mapping[Any, int], marks: int = 0, *, opening: Box | None = None
) -> dict[str, Any]:
    return _card_json(_marked(rules, _with_left(rules, boxes, opening), marks))


def _with_left(
    rules: Rules, boxes: Mapping[Any, int], opening: Box | None = None
) -> dict[Any, int]:
    """``boxes``, and on a card that fills each row left to right every box to the left of
    one of them (or of ``opening``, the box to fill) too, with its lowest value."""
    found = dict(boxes)
    if not rules.card.left_to_right:
        return found
    pending = [*boxes, *([] if opening is None else [opening])]
    while pending:
        left = rules.card.left_of(pending.pop())
        if left is not None and left not in found:
            found[left] = min(rules.card.possible[left])
            pending.append(left)
    return found


def _five_cards(rules: Rules) -> Iterator[dict[str, Any]]:
    """Five of a kind of each face, on cards of other designs than Classic: the box of
    five of a kind open or holding each of its values, the face's upper box open or not."""
    yahtzee = rules.card.yahtzee
    low = {box: min(rules.card.possible[box]) for box in rules.card.members}
    held_values: list[int | None] = [None]
    if yahtzee is not None:
        held_values += sorted(rules.card.possible[yahtzee], reverse=True)
    for face in range(1, 7):
        upper = rules.card.boxes.for_face(face)
        for held in held_values:
            for upper_filled in (False, True):
                boxes: dict[Box, int] = {} if held is None or yahtzee is None else {yahtzee: held}
                if upper_filled:
                    boxes[upper] = low[upper]
                yield {"card": _filled(rules, boxes), "dice": str(face) * 5}


def _joker_cards(rules: Rules) -> Iterator[dict[str, Any]]:
    """Cards covering every branch of the Joker and the bonus, for each face."""
    if _design(rules) == "triple":
        yield from _triple_joker_cards(rules)
        return
    if _design(rules) != "classic":
        yield from _five_cards(rules)
        return
    lower_sets: list[tuple[Box, ...]] = [
        (),
        (Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND),
        tuple(box for box in Category.lower() if box is not Category.CHANCE),
        tuple(Category.lower()),
    ]
    low = {box: min(rules.card.possible[box]) for box in rules.card.members}
    for face in range(1, 7):
        upper = Category.for_face(face)
        for held in (None, 50, 0):
            for upper_filled in (False, True):
                for lower in lower_sets:
                    boxes: dict[Box, int] = {box: low[box] for box in lower}
                    if held is None:
                        boxes.pop(Category.YAHTZEE, None)
                    else:
                        boxes[Category.YAHTZEE] = held
                    if upper_filled:
                        boxes[upper] = low[upper]
                    others = [box for box in Category.upper() if box is not upper]
                    if lower == tuple(Category.lower()) and held is not None:
                        boxes.update({box: low[box] for box in others[:3]})  # two upper boxes open
                    if len(boxes) == len(Category):
                        continue
                    marks = 1 if held == 50 and rules.yahtzee_bonus and len(boxes) > 1 else 0
                    yield {"card": _filled(rules, boxes, marks), "dice": str(face) * 5}


def _rows(rules: Rules, rows: Iterable[Category]) -> list[Box]:
    """The boxes of these Classic rows in every column of a card of several columns."""
    return [column[row.row] for row in rows for column in rules.card.columns]


def _triple_joker_cards(rules: Rules) -> Iterator[dict[str, Any]]:
    """Cards covering every branch of the Joker and the bonus on a card of several
    columns, for each face: the Yahtzee boxes open, some filled, all 50 or one 0; the
    face's upper boxes open, one filled or all; the lower boxes open, partly or all filled."""
    card = rules.card
    yahtzees = card.yahtzees
    some = dict.fromkeys(yahtzees[:-1], 50)
    helds: list[dict[Box, int]] = [{}, some, {**some, yahtzees[-1]: 50}, {**some, yahtzees[-1]: 0}]
    kinds = (Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND)
    lower_rows = [box for box in Category.lower() if box is not Category.YAHTZEE]
    lower_sets = [
        [],
        _rows(rules, kinds),
        _rows(rules, [box for box in lower_rows if box is not Category.CHANCE]),
        _rows(rules, lower_rows),
    ]
    low = {box: min(card.possible[box]) for box in card.members}
    for face in range(1, 7):
        faces = card.face_boxes(face)
        others = _rows(rules, [box for box in Category.upper() if box.face != face][:3])
        for held in helds:
            for upper_filled in (0, 1, len(faces)):
                for lower in lower_sets:
                    boxes: dict[Box, int] = {box: low[box] for box in lower} | held
                    boxes.update({box: low[box] for box in faces[:upper_filled]})
                    if len(lower) == len(lower_sets[-1]) and len(held) == len(yahtzees):
                        boxes.update({box: low[box] for box in others})  # two upper rows open
                    if len(boxes) == len(card):
                        continue
                    marks = 1 if 0 not in held.values() and len(held) == len(yahtzees) else 0
                    marks = marks if rules.yahtzee_bonus and len(boxes) > len(yahtzees) else 0
                    yield {"card": _filled(rules, boxes, marks), "dice": str(face) * 5}


def _random_card(rules: Rules, rng: random.Random, filled: int) -> Scorecard:
    """A card of ``filled`` boxes holding values some roll scores, with consistent marks."""
    chosen = rng.sample(rules.card.members, filled)
    yahtzees = rules.card.yahtzees
    several = len(yahtzees) > 1 and filled >= len(yahtzees) and rng.random() < 0.5
    if several:  # every Yahtzee box filled, so that extra Yahtzees and their bonus are likely
        others = [box for box in chosen if box not in yahtzees]
        chosen = [*yahtzees, *others[: filled - len(yahtzees)]]
    if rules.card.left_to_right:  # as many boxes of each row, filled from the left
        rows = collections.Counter(box.row for box in chosen)
        chosen = [
            column[row] for row, count in rows.items() for column in rules.card.columns[:count]
        ]
    boxes = {box: rng.choice(sorted(rules.card.possible[box])) for box in chosen}
    if several:
        boxes.update({box: 50 if rng.random() < 0.8 else 0 for box in yahtzees if box in boxes})
    marks = 0
    bonus = bool(yahtzees) and all(boxes.get(box) == 50 for box in yahtzees)
    if bonus and rules.yahtzee_bonus and filled > len(yahtzees):
        marks = rng.randrange(min(filled - len(yahtzees), 3) + 1)
    return _marked(rules, boxes, marks)


def _random_dice(rng: random.Random) -> Dice:
    if rng.random() < 0.25:
        return Dice(str(rng.randint(1, 6)) * 5)
    return rng.choice(Dice.all())


def _questions_options(rules: Rules, exhaustive: bool) -> Iterator[dict[str, Any]]:
    for position in _joker_cards(rules):
        yield {"ask": "options", "rules": str(rules), **position}
    rng = random.Random(f"options {rules}")
    for _ in range(2000 if exhaustive else 60):
        card = _random_card(rules, rng, rng.randrange(len(rules.card)))
        dice = _random_dice(rng)
        yield {"ask": "options", "rules": str(rules), "card": _card_json(card), "dice": str(dice)}


#: Dice for Aces scoring 2, 3 and 5: with the other upper boxes 3 short of the upper bonus
#: threshold, one short, at the threshold and past it.
_THRESHOLD_DICE = ("11234", "11123", "11111")


def _threshold_rest(rules: Rules, boxes: Sequence[Box]) -> dict[Box, int]:
    """Values some roll scores in ``boxes`` (the upper boxes of a column but Aces) that
    add up to 3 below the ruleset's upper bonus threshold, or as near under it as any
    do, each as near as can be to three dice of its face."""
    target = rules.upper_bonus_threshold - 3
    choices = [sorted(rules.card.possible[box]) for box in boxes]

    def distance(values: tuple[int, ...]) -> tuple[int, int]:
        off = sum(
            abs(value - 3 * (box.face or 0)) for value, box in zip(values, boxes, strict=True)
        )
        return target - sum(values), off

    fitting = [values for values in itertools.product(*choices) if sum(values) <= target]
    best = min(fitting, key=distance) if fitting else tuple(choice[0] for choice in choices)
    return dict(zip(boxes, best, strict=True))


def _bonus_edges(rules: Rules) -> Iterator[tuple[dict[Box, int], str, Box]]:
    """Fills on each side of the upper bonus threshold, and of the Yahtzee bonus."""
    rest = _threshold_rest(rules, list(Category.upper())[1:])
    extras: tuple[dict[Box, int], ...] = ({}, {Category.CHANCE: 20})
    for extra in extras:
        for dice in _THRESHOLD_DICE:
            yield {**rest, **extra}, dice, Category.ACES
    yield {Category.SIXES: 30, Category.FIVES: 25, Category.CHANCE: 30}, "44445", Category.FOURS
    for held in (50, 0):
        for box in (Category.FOURS, Category.CHANCE, Category.LARGE_STRAIGHT):
            yield {Category.YAHTZEE: held}, "44444", box
            yield {Category.YAHTZEE: held, Category.FOURS: 12}, "44444", box
    yield {}, "44444", Category.YAHTZEE
    yield {Category.FOURS: 12}, "44444", Category.FOURS  # a closed box


def _upper_edges(rules: Rules) -> Iterator[tuple[dict[Box, int], str, Box]]:
    """Fills on each side of the upper bonus threshold, on cards of other designs."""
    upper = rules.card.boxes.upper()
    rest: dict[Box, int] = _threshold_rest(rules, upper[1:])
    lower = [box for box in rules.card.members if not box.is_upper]
    twenty = [box for box in lower if 20 in rules.card.possible[box]][:1]
    for extra in ({}, dict.fromkeys(twenty, 20)):
        for dice in _THRESHOLD_DICE:
            yield {**rest, **extra}, dice, upper[0]
    yield {upper[0]: 3}, "11111", upper[0]  # a closed box


def _triple_edges(rules: Rules) -> Iterator[tuple[dict[Box, int], str, Box]]:
    """Fills on each side of each column's upper bonus threshold, and of the Yahtzee
    bonus, on a card of several columns."""
    columns = rules.card.columns
    for column in columns:
        upper = [box for box in column if box.is_upper]
        rest: dict[Box, int] = _threshold_rest(rules, upper[1:])
        for extra in ({}, {column[Category.CHANCE.row]: 20}):
            for dice in _THRESHOLD_DICE:
                yield {**rest, **extra}, dice, upper[0]
    # the first column 3 short, Aces of the second: past the threshold only added up
    first = [box for box in columns[0] if box.is_upper]
    yield _threshold_rest(rules, first[1:]), "11111", columns[1][Category.ACES.row]
    yahtzees = rules.card.yahtzees
    fours = rules.card.face_boxes(4)
    targets = [columns[0][Category.FOURS.row], columns[1][Category.CHANCE.row]]
    targets.append(columns[-1][Category.LARGE_STRAIGHT.row])
    for last in (50, 0):
        held = {**dict.fromkeys(yahtzees[:-1], 50), yahtzees[-1]: last}
        for box in targets:
            yield held, "44444", box
            yield {**held, **dict.fromkeys(fours, 12)}, "44444", box
    some = dict.fromkeys(yahtzees[:-1], 50)
    yield some, "44444", yahtzees[-1]  # the last Yahtzee box: 50, no bonus
    yield some, "44444", columns[0][Category.CHANCE.row]  # not yet an extra Yahtzee
    yield {fours[0]: 12}, "44444", fours[0]  # a closed box


def _questions_fill(rules: Rules, exhaustive: bool) -> Iterator[dict[str, Any]]:
    design = _design(rules)
    edges: Iterable[tuple[Mapping[Any, int], str, Box]] = (
        _bonus_edges(rules)
        if design == "classic"
        else _triple_edges(rules)
        if design == "triple"
        else _upper_edges(rules)
    )
    for boxes, dice, box in edges:
        yield {
            "ask": "fill",
            "rules": str(rules),
            "card": _filled(rules, boxes, opening=box),
            "dice": dice,
            "box": box.name.lower(),
        }
    rng = random.Random(f"fill {rules}")
    for _ in range(2000 if exhaustive else 60):
        position = _random_card(rules, rng, rng.randrange(len(rules.card)))
        yield {
            "ask": "fill",
            "rules": str(rules),
            "card": _card_json(position),
            "dice": str(_random_dice(rng)),
            "box": rng.choice(rules.card.members).name.lower(),
        }


def _games(rules: Rules, exhaustive: bool) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Whole solitaire games of seeded random play: per move, its rolls and its fill."""
    strategy = RandomStrategy()
    for number in range(100 if exhaustive else 3):
        rng = random.Random(f"game {rules} {number}")
        card = Scorecard(card=rules.card)
        while not card.is_complete:
            turn = Turn(card, rules=rules).roll(rng)
            rolls = [{"keep": "", "dice": str(turn.dice)}]
            while turn.rolls_left and (keep := strategy.choose_keep(turn, rng)) is not None:
                turn = turn.roll(rng, keep=keep)
                rolls.append({"keep": str(keep), "dice": str(turn.dice)})
            box = strategy.choose_box(turn, rng)
            yield (
                f"{rules}/game/{number + 1}",
                [
                    {
                        "ask": "fill",
                        "rules": str(rules),
                        "card": _card_json(card),
                        "dice": str(turn.dice),
                        "box": box.name.lower(),
                    },
                    {"rolls": rolls},
                ],
            )
            card = turn.fill(box)


_MAKERS: dict[str, Callable[[Rules, bool], Iterator[dict[str, Any]]]] = {
    "score": _questions_score,
    "refusal": _questions_refusal,
    "options": _questions_options,
    "fill": _questions_fill,
}


def cases(
    rules: Rules | str = "forced",
    *,
    kinds: Iterable[str] = KINDS,
    exhaustive: bool = False,
) -> Iterator[dict[str, Any]]:
    """The known-answer cases for ``rules``, in a fixed order: the same every run.

    Each case is a JSON-ready dict: ``version``, ``id`` (ruleset, kind and number),
    ``kind``, ``clause`` (an id of :data:`CLAUSES`), the ``question`` as the protocol
    asks it and the library's ``answer``; a ``game`` case also names its ``game`` and
    ``move`` and lists the move's ``rolls``.

    Args:
        rules: A ruleset of the Classic, Yatzy, Yacht or Triple Yahtzee card, or its name
            (or notation).
        kinds: Which of :data:`KINDS`, in the order of :data:`KINDS`.
        exhaustive: The exhaustive set (every keep of every roll, 2,000 random cards
            per kind, 100 games; on Triple Yahtzee's card every roll in every box of
            every column) instead of the small default one.

    Raises:
        MalformedInputError: For an unknown kind, or rules of another card.

    Examples:
        >>> from collections import Counter
        >>> Counter(case["kind"] for case in cases(kinds=["refusal", "game"]))
        Counter({'game': 39, 'refusal': 26})
    """
    rules = _rules_of({"rules": rules}) if isinstance(rules, str) else _covered(rules, rules)
    wanted = list(kinds)
    for kind in wanted:
        if kind not in KINDS:
            raise MalformedInputError(
                f"case kind {show(kind)}: no such kind; use {', '.join(KINDS)}"
            )
    for kind in KINDS:
        if kind not in wanted:
            continue
        if kind == "game":
            for count, (game, (question, rolls)) in enumerate(_games(rules, exhaustive), 1):
                move = len(question["card"]["boxes"]) + 1
                yield _case(rules, kind, count, question, game=game, move=move, **rolls)
            continue
        for number, question in enumerate(_MAKERS[kind](rules, exhaustive), start=1):
            yield _case(rules, kind, number, question)


# --- the schema of the case files ---------------------------------------------------


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _object(required: Iterable[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(required),
        "properties": properties,
    }


def cases_schema() -> dict[str, Any]:
    """The JSON Schema of a case (a line of ``yahtzee-rules cases``) and of the JSON document.

    Written from the library's own lists (the kinds, the clause ids, the boxes, the
    totals), and shipped as ``yahtzee_rules/schema/cases-v1.schema.json`` by
    ``scripts/make_cases_schema.py``.

    Examples:
        >>> schema = cases_schema()
        >>> schema["$id"], schema["$defs"]["case"]["properties"]["kind"]["enum"][0]
        ('urn:yahtzee-rules:schema:cases-v1', 'score')
    """
    covered = list(dict.fromkeys(Rules.from_name(name).card for name in _covered_names()))
    most_marks = max(len(card) - len(card.yahtzees) for card in covered)
    boxes = list(dict.fromkeys(box.name.lower() for card in covered for box in card.members))
    dice = {"type": "string", "pattern": "^[1-6]{5}$", "description": "five faces, ascending"}
    keep = {"type": "string", "pattern": "^[1-6]{0,5}$", "description": "the faces held"}
    points = {"type": "integer", "minimum": 0}
    rules = {"type": "string", "minLength": 1, "description": "the ruleset's name"}
    card = _object(
        ["boxes", "bonus_marks"],
        {
            "boxes": {
                "type": "object",
                "description": "the filled boxes and their points; open boxes are left out",
                "propertyNames": {"enum": boxes},
                "additionalProperties": points,
            },
            "bonus_marks": {"type": "integer", "minimum": 0, "maximum": most_marks},
        },
    )
    box = {"enum": boxes}
    questions = {
        "score_question": _object(
            ["ask", "rules", "dice", "box"],
            {"ask": {"const": "score"}, "rules": rules, "dice": dice, "box": box},
        ),
        "roll_question": _object(
            ["ask", "rules", "rolls_used", "dice", "keep"],
            {
                "ask": {"const": "roll"},
                "rules": rules,
                "rolls_used": {"type": "integer", "minimum": 0, "maximum": 3},
                "dice": {"oneOf": [dice, {"type": "null"}]},
                "keep": keep,
            },
        ),
        "options_question": _object(
            ["ask", "rules", "card", "dice"],
            {"ask": {"const": "options"}, "rules": rules, "card": _ref("card"), "dice": dice},
        ),
        "fill_question": _object(
            ["ask", "rules", "card", "dice", "box"],
            {
                "ask": {"const": "fill"},
                "rules": rules,
                "card": _ref("card"),
                "dice": dice,
                "box": box,
            },
        ),
    }
    answers = {
        "score_answer": _object(["points"], {"points": points}),
        "legal_answer": _object(["legal"], {"legal": {"type": "boolean"}}),
        "options_answer": _object(
            ["options", "bonus"],
            {
                "options": {
                    "type": "object",
                    "propertyNames": {"enum": boxes},
                    "additionalProperties": points,
                },
                "bonus": points,
            },
        ),
        "fill_answer": _object(
            ["legal", "card", "totals"],
            {
                "legal": {"const": True},
                "card": _ref("card"),
                "totals": _object(TOTALS, dict.fromkeys(TOTALS, points)),
                "columns": {
                    "type": "array",
                    "description": "on a card of several columns only: each column's totals, "
                    "before its multiplier, in the order of the multipliers",
                    "minItems": 2,
                    "items": _object(COLUMN_TOTALS, dict.fromkeys(COLUMN_TOTALS, points)),
                },
            },
        ),
    }
    case = _object(
        ["version", "id", "kind", "clause", "question", "answer"],
        {
            "version": {"const": CASES_VERSION},
            "id": {"type": "string", "description": "ruleset/kind/number, unique in a set"},
            "kind": {"enum": list(KINDS)},
            "clause": {"enum": list(CLAUSES), "description": "the rule clause it exercises"},
            "game": {"type": "string", "description": "game cases: the game's id"},
            "move": {"type": "integer", "minimum": 1, "description": "game cases: the move"},
            "rolls": {
                "type": "array",
                "description": "game cases: the move's rolls, each with the faces held",
                "minItems": 1,
                "maxItems": 3,
                "items": _object(["keep", "dice"], {"keep": keep, "dice": dice}),
            },
            "question": {"oneOf": [_ref(name) for name in questions]},
            "answer": {"oneOf": [_ref(name) for name in answers]},
        },
    )
    document = _object(
        ["version", "rules", "cases"],
        {
            "version": {"const": CASES_VERSION},
            "rules": rules,
            "cases": {"type": "array", "items": _ref("case")},
        },
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:yahtzee-rules:schema:cases-v{CASES_VERSION}",
        "title": f"yahtzee_rules conformance cases, version {CASES_VERSION}",
        "description": (
            "A line of 'yahtzee-rules cases' (a case: a question of the check protocol, the "
            "rules' answer and the rule clause it exercises), or the document "
            "'--format json' writes."
        ),
        "oneOf": [_ref("case"), _ref("document")],
        "$defs": {
            "case": case,
            "document": document,
            "card": card,
            **questions,
            **answers,
        },
    }


# --- random positions and shrinking -------------------------------------------------


def random_questions(rules: Rules | str, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Endless random questions for ``rules``, drawn from ``rng``: all four asks, on
    random cards, with Yahtzees made likely.

    Examples:
        >>> import random
        >>> questions = random_questions("forced", random.Random(1))
        >>> sorted({next(questions)["ask"] for _ in range(40)})
        ['fill', 'options', 'roll', 'score']
    """
    rules = _rules_of({"rules": rules}) if isinstance(rules, str) else _covered(rules, rules)
    while True:
        ask = rng.choice(ASKS)
        dice = _random_dice(rng)
        if ask == "score":
            box = rng.choice(rules.card.members)
            yield {"ask": ask, "rules": str(rules), "dice": str(dice), "box": box.name.lower()}
        elif ask == "roll":
            used = rng.randrange(4)
            shown = None if used == 0 else str(dice)
            keep = (
                rng.choice(Keep.all())
                if rng.random() < 0.5 or used == 0
                else rng.choice(dice.keeps())
            )
            yield {
                "ask": ask,
                "rules": str(rules),
                "rolls_used": used,
                "dice": shown,
                "keep": str(keep) if used or rng.random() < 0.3 else "",
            }
        else:
            card = _card_json(_random_card(rules, rng, rng.randrange(len(rules.card))))
            question = {"ask": ask, "rules": str(rules), "card": card, "dice": str(dice)}
            if ask == "fill":
                question["box"] = rng.choice(rules.card.members).name.lower()
            yield question


def _simpler(question: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Questions one step simpler than ``question``: a box emptied, a bonus mark fewer."""
    card = question.get("card")
    if not isinstance(card, Mapping):
        return
    yahtzees = [box.name.lower() for box in _rules_of(question).card.yahtzees]
    boxes = card["boxes"]
    if card.get("bonus_marks"):
        yield {**question, "card": {**card, "bonus_marks": card["bonus_marks"] - 1}}
    for name in boxes:
        rest = {key: value for key, value in boxes.items() if key != name}
        held = yahtzees and all(rest.get(yahtzee) == 50 for yahtzee in yahtzees)
        marks = card.get("bonus_marks", 0) if held else 0
        yield {**question, "card": {"boxes": rest, "bonus_marks": marks}}
    for name, value in boxes.items():
        if value:
            yield {**question, "card": {**card, "boxes": {**boxes, name: 0}}}


def shrink(
    question: Mapping[str, Any], fails: Callable[[dict[str, Any]], bool], *, limit: int = 200
) -> dict[str, Any]:
    """The simplest question reached from ``question`` on which ``fails`` still holds.

    Each step empties one box of the card (or writes 0 in it, or drops a bonus
    mark), keeping the change if the question is still valid and still fails;
    ``limit`` bounds the number of questions tried.

    Examples:
        >>> card = {"boxes": {"aces": 3, "chance": 20, "yahtzee": 0}, "bonus_marks": 0}
        >>> q = {"ask": "options", "rules": "forced", "card": card, "dice": "11111"}
        >>> shrink(q, lambda q: "yahtzee" in q["card"]["boxes"])["card"]
        {'boxes': {'yahtzee': 0}, 'bonus_marks': 0}
    """
    current = dict(question)
    tried = 0
    progress = True
    while progress and tried < limit:
        progress = False
        for candidate in _simpler(current):
            tried += 1
            if tried > limit:
                break
            try:
                answer(candidate)
            except RulesError:
                continue
            if fails(candidate):
                current, progress = candidate, True
                break
    return current


# --- replaying in Python ------------------------------------------------------------


def replay_cases(
    answer_fn: Callable[[dict[str, Any]], object],
    rules: Rules | str = "forced",
    *,
    kinds: Iterable[str] = KINDS,
    exhaustive: bool = False,
) -> int:
    """Ask ``answer_fn`` every case's question; raise at the first wrong answer.

    ``answer_fn`` takes a question (a dict as the protocol sends it) and returns the
    answer dict. Call it from a test: the assertion's message is the case's id and the
    one-line explanation, naming the rule.

    Returns:
        The number of cases replayed.

    Raises:
        AssertionError: At the first case ``answer_fn`` answers differently.

    Examples:
        >>> def mine(question):  # the library's answers, with one classic mistake
        ...     if question["ask"] == "score" and question["box"] == "full_house":
        ...         if len(set(question["dice"])) == 1:
        ...             return {"points": 25}
        ...     return answer(question)
        >>> replay_cases(mine, kinds=["score"])
        Traceback (most recent call last):
        ...
        AssertionError: case forced/score/2017: R4.3 Full House is three of one face and two of another; five equal dice are not a Full House, except as a Joker: score of 11111 in full_house: the program answered 25, the rules give 0
        >>> replay_cases(answer, kinds=["score", "refusal"])
        3302
    """
    count = 0
    for case in cases(rules, kinds=kinds, exhaustive=exhaustive):
        line = disagreement(case["question"], answer_fn(dict(case["question"])))
        if line is not None:
            raise AssertionError(f"case {case['id']}: {line}")
        count += 1
    return count
