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
    "legal",
    "legal_points",
    "reason",
]


def legal(boxes: tuple[int | None, ...], dice: Dice, rules: Rules) -> dict[Box, int]:
    """Every open box ``dice`` may fill on a card with these boxes, and its points."""
    card = rules.card
    scores = card.table[dice.position]
    yahtzee = card.yahtzee
    five = dice.faces[0] == dice.faces[4]
    if five and rules.forced_yahtzee:
        # Forced Yahtzee: five equal dice go in their open upper box, even the first.
        face_box = card.boxes.for_face(dice.faces[0])
        if boxes[face_box] is None:
            return {face_box: scores[face_box]}
    if yahtzee is None or boxes[yahtzee] is None or not five or rules.joker is JokerRule.NONE:
        if rules.in_order:  # Forced Yatzy: only the first open box
            for c, box in zip(card.members, boxes, strict=True):
                if box is None:
                    return {c: scores[c]}
            return {}
        return {
            c: points
            for c, points, box in zip(card.members, scores, boxes, strict=True)
            if box is None
        }
    fixed = dict(card.joker_values)
    face_box = card.boxes.for_face(dice.faces[0])
    if rules.joker is JokerRule.FORCED or rules.joker is JokerRule.KINDS_FIRST:
        if boxes[face_box] is None:
            return {face_box: scores[face_box]}
        if rules.joker is JokerRule.KINDS_FIRST:
            first = {c: fixed.get(c, scores[c]) for c in card.joker_first if boxes[c] is None}
            if first:
                return first
        lower = {c: fixed.get(c, scores[c]) for c in card.lower if boxes[c] is None}
        if lower:
            return lower
        return {c: 0 for c in card.upper if boxes[c] is None}
    # FREE_CHOICE: any open box; fixed Joker values only once the face box is filled.
    face_filled = boxes[face_box] is not None
    result: dict[Box, int] = {}
    for c in card.members:
        if boxes[c] is None:
            if c in fixed:
                result[c] = fixed[c] if face_filled else 0
            else:
                result[c] = scores[c]
    return result


@functools.cache
def extra_yahtzee_values(card: Card, joker: JokerRule) -> tuple[frozenset[int], ...]:
    """For each box of ``card``, every value an extra Yahtzee can write there under ``joker``.

    Read off :func:`legal` itself, so the Joker rules are stated once: for five equal
    dice of every face, on cards whose five-of-a-kind box holds 50, with the face box
    open or filled and the other boxes all open, with the card's
    :attr:`~yahtzee_rules.Card.joker_first` boxes filled, or with every lower box
    filled (what :func:`legal` offers depends on nothing else). The five-of-a-kind box
    itself is never open then, so its set is empty.
    """
    values: list[set[int]] = [set() for _ in card.members]
    yahtzee = card.yahtzee
    if yahtzee is None:
        return tuple(frozenset(v) for v in values)
    rules = Rules(joker=joker, card=card)
    for face in range(1, 7):
        dice = Dice([face] * 5)
        face_box = card.boxes.for_face(face)
        for face_filled in (False, True):
            for filled in ((), card.joker_first, card.lower):
                boxes: list[int | None] = [None] * len(card)
                boxes[yahtzee] = 50
                for box in filled:
                    boxes[box] = 0
                if face_filled:
                    boxes[face_box] = 0
                for box, points in legal(tuple(boxes), dice, rules).items():
                    values[box].add(points)
    return tuple(frozenset(v) for v in values)


def bonus_due(boxes: tuple[int | None, ...], dice: Dice, rules: Rules) -> bool:
    yahtzee = rules.card.yahtzee
    return (
        yahtzee is not None
        and boxes[yahtzee] == 50
        and dice.faces[0] == dice.faces[4]
        and rules.yahtzee_bonus > 0
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
    """Why ``dice`` may not fill ``category``: it is filled, or a placement rule forbids it.

    The placement rules are boxes in card order (Forced Yatzy), Forced Yahtzee, and the
    forced and kinds-first Joker orders.
    """
    points = boxes[category]
    if points is not None:
        return f"{category.label} is already filled with {points}; each box is filled once"
    card = rules.card
    if rules.in_order:
        first = next(c for c in card.members if boxes[c] is None)
        return (
            f"the boxes are filled in card order (Forced Yatzy): the first open box is "
            f"{first.label}, so the dice must go there"
        )
    face = dice.faces[0]
    face_box = card.boxes.for_face(face)
    if rules.forced_yahtzee and boxes[face_box] is None:
        return (
            f"Forced Yahtzee requires {face_box.label}, which is open: five {face}s "
            f"must go in {face_box.label}, even as the first Yahtzee"
        )
    joker = f"the {rules.joker.value} Joker"
    if boxes[face_box] is None:
        return (
            f"{joker} requires {face_box.label}, which is open: "
            f"five {face}s must go in {face_box.label}"
        )
    kinds = [c for c in card.joker_first if boxes[c] is None]
    if rules.joker is JokerRule.KINDS_FIRST and kinds:
        names = " or ".join(c.label for c in card.joker_first)
        return (
            f"{joker} (Hasbro's current order) requires {names} while either is open; "
            f"open: {', '.join(c.label for c in kinds)}"
        )
    open_lower = ", ".join(c.label for c in card.lower if boxes[c] is None)
    return (
        f"{joker} allows an upper box other than {face_box.label} only once "
        f"every lower box is filled; open lower boxes: {open_lower}"
    )


def fill_unchecked(card: Scorecard, dice: Dice, category: Box, rules: Rules) -> Scorecard:
    boxes = card.boxes
    design = rules.card
    yahtzee = design.yahtzee
    if (
        boxes[category] is None
        and (yahtzee is None or boxes[yahtzee] is None or dice.faces[0] != dice.faces[4])
        and not rules.in_order
        and not (rules.forced_yahtzee and dice.faces[0] == dice.faces[4])
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
