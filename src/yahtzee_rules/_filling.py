"""Internal: the Joker and legality engine that filling a box follows.

:mod:`yahtzee_rules.scoring` builds its public functions on these, and turns,
games and strategies call them directly on values they have already checked.
Nothing here validates its arguments except the ``check_*`` functions.
"""

from __future__ import annotations

import functools

from yahtzee_rules._dice import Dice
from yahtzee_rules._scorecard import Scorecard, raw_card
from yahtzee_rules._text import show
from yahtzee_rules.boxes import Box, Card
from yahtzee_rules.errors import IllegalActionError, MalformedInputError
from yahtzee_rules.rules import JokerRule, Rules

__all__ = [
    "bonus_due",
    "check_card",
    "check_pair",
    "check_rules",
    "extra_yahtzee_values",
    "fill_unchecked",
    "is_extra",
    "legal",
    "legal_points",
    "reason",
]


def legal(boxes: tuple[int | None, ...], dice: Dice, rules: Rules) -> dict[Box, int]:
    """Every open box ``dice`` may fill on a card with these boxes, and its points."""
    card = rules.card
    if dice.faces[0] != dice.faces[4] or rules.joker is JokerRule.NONE or not is_extra(boxes, card):
        found = {
            c: points
            for c, points, box in zip(card.members, card.table[dice.position], boxes, strict=True)
            if box is None
        }
    else:
        found = _joker_options(boxes, dice, rules)
    if card.left_to_right:
        # a box opens once the box to its left is filled; what the Joker offers is
        # never emptied by this, as the open boxes of a row are always on its right
        return {
            box: points
            for box, points in found.items()
            if (left := card.left_of(box)) is None or boxes[left] is not None
        }
    return found


def _joker_options(boxes: tuple[int | None, ...], dice: Dice, rules: Rules) -> dict[Box, int]:
    """What an extra Yahtzee may fill under the forced or free-choice Joker, in any order."""
    card = rules.card
    scores = card.table[dice.position]
    fixed = dict(card.joker_values)
    face_boxes = card.face_boxes(dice.faces[0])
    if rules.joker is JokerRule.FORCED:
        # the matching upper box (on a card of several columns, any open one of them)
        face = {c: scores[c] for c in face_boxes if boxes[c] is None}
        if face:
            return face
        lower = {c: fixed.get(c, scores[c]) for c in card.lower if boxes[c] is None}
        if lower:
            return lower
        return {c: 0 for c in card.upper if boxes[c] is None}
    # FREE_CHOICE: any open box; fixed Joker values only once the face boxes are filled.
    face_filled = all(boxes[c] is not None for c in face_boxes)
    result: dict[Box, int] = {}
    for c in card.members:
        if boxes[c] is None:
            if c in fixed:
                result[c] = fixed[c] if face_filled else 0
            else:
                result[c] = scores[c]
    return result


def is_extra(boxes: tuple[int | None, ...], card: Card) -> bool:
    """Whether five equal dice are an extra Yahtzee on these boxes: every Yahtzee box filled.

    The card's five-of-a-kind boxes are :attr:`Card.yahtzees`: one on a card of one
    column, one per column on Triple Yahtzee's.
    """
    yahtzees = card.yahtzees
    if len(yahtzees) == 1:  # every card of one column: the hot path
        return boxes[yahtzees[0]] is not None
    return bool(yahtzees) and all(boxes[box] is not None for box in yahtzees)


@functools.cache
def extra_yahtzee_values(card: Card, joker: JokerRule) -> tuple[frozenset[int], ...]:
    """For each box of ``card``, every value an extra Yahtzee can write there under ``joker``.

    Read off :func:`legal` itself, so the Joker rules are stated once: for five equal
    dice of every face, on cards whose five-of-a-kind boxes hold 50, with the face boxes
    open or filled and the other boxes all open or with every lower box filled (what
    :func:`legal` offers depends on nothing else; a left-to-right card's order changes
    when a box opens, never what it holds). The five-of-a-kind boxes themselves are
    never open then, so their sets are empty.
    """
    values: list[set[int]] = [set() for _ in card.members]
    if not card.yahtzees:
        return tuple(frozenset(v) for v in values)
    rules = Rules(joker=joker, card=card)
    for face in range(1, 7):
        dice = Dice([face] * 5)
        for face_filled in (False, True):
            for lower_filled in (False, True):
                boxes: list[int | None] = [None] * len(card)
                if lower_filled:
                    for box in card.lower:
                        boxes[box] = 0
                for box in card.yahtzees:
                    boxes[box] = 50
                if face_filled:
                    for box in card.face_boxes(face):
                        boxes[box] = 0
                options = (
                    _joker_options(tuple(boxes), dice, rules)
                    if joker is not JokerRule.NONE
                    else {c: card.table[dice.position][c] for c in card.members if boxes[c] is None}
                )
                for box, points in options.items():
                    values[box].add(points)
    return tuple(frozenset(v) for v in values)


def bonus_due(boxes: tuple[int | None, ...], dice: Dice, rules: Rules) -> bool:
    """Whether ``dice`` earn the Yahtzee bonus: five equal, every Yahtzee box holding 50."""
    yahtzees = rules.card.yahtzees
    return (
        dice.faces[0] == dice.faces[4]
        and rules.yahtzee_bonus > 0
        and bool(yahtzees)
        and all(boxes[y] == 50 for y in yahtzees)
    )


def check_card(card: object) -> Scorecard:
    if not isinstance(card, Scorecard):
        raise MalformedInputError(
            f"card {show(card)}: not a Scorecard; start from Scorecard() and fill boxes"
        )
    return card


def check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise MalformedInputError(
            f"rules {show(rules)}: not a Rules; use Rules() or Rules(joker=JokerRule.FREE_CHOICE)"
        )
    return rules


def check_pair(card: object, rules: object) -> tuple[Scorecard, Rules]:
    """``card`` and ``rules``, checked to be values and to be for the same card design."""
    card_value, rules_value = check_card(card), check_rules(rules)
    if card_value.card != rules_value.card:
        raise MalformedInputError(
            f"card {show(card_value)}: a {card_value.card.title} card, but the rules "
            f"{show(rules_value.name)} play the {rules_value.card.title} card; "
            f"use a card of the rules' own design"
        )
    return card_value, rules_value


def legal_points(boxes: tuple[int | None, ...], dice: Dice, category: Box, rules: Rules) -> int:
    """The points ``dice`` would write in ``category``; raises the reason if it may not."""
    points = legal(boxes, dice, rules).get(category)
    if points is None:
        why = reason(boxes, dice, category, rules)
        raise IllegalActionError(f"fill {category.label} with {dice}: {why}")
    return points


def reason(boxes: tuple[int | None, ...], dice: Dice, category: Box, rules: Rules) -> str:
    """Why ``dice`` may not fill ``category``: it is filled, or the forced Joker forbids it."""
    points = boxes[category]
    if points is not None:
        return f"{category.label} is already filled with {points}; each box is filled once"
    left = rules.card.left_of(category) if rules.card.left_to_right else None
    if left is not None and boxes[left] is None:
        return (
            f"{category.label} opens once {left.label} is filled; on this card each row "
            f"fills left to right"
        )
    face = dice.faces[0]
    face_boxes = rules.card.face_boxes(face)
    if len(face_boxes) == 1:
        face_box = face_boxes[0]
        if boxes[face_box] is None:
            return (
                f"the forced Joker requires {face_box.label}, which is open: "
                f"five {face}s must go in {face_box.label}"
            )
        named = face_box.label
    else:
        open_faces = [c.label for c in face_boxes if boxes[c] is None]
        if open_faces:
            return (
                f"the forced Joker requires a matching upper box while one is open: "
                f"five {face}s must go in {' or '.join(open_faces)}"
            )
        named = " or ".join(c.label for c in face_boxes)
    open_lower = ", ".join(c.label for c in rules.card.lower if boxes[c] is None)
    return (
        f"the forced Joker allows an upper box other than {named} only once "
        f"every lower box is filled; open lower boxes: {open_lower}"
    )


def fill_unchecked(card: Scorecard, dice: Dice, category: Box, rules: Rules) -> Scorecard:
    boxes = card.boxes
    design = rules.card
    if (
        boxes[category] is None
        and (dice.faces[0] != dice.faces[4] or not is_extra(boxes, design))
        and not design.left_to_right
    ):
        # not an extra Yahtzee: no Joker and no bonus; any open box takes its plain score
        new = list(boxes)
        new[category] = design.table[dice.position][category]
        return raw_card(tuple(new), card.bonus_marks, design)
    points = legal_points(boxes, dice, category, rules)
    marks = card.bonus_marks + (1 if bonus_due(boxes, dice, rules) else 0)
    new = list(boxes)
    new[category] = points
    return raw_card(tuple(new), marks, design)
