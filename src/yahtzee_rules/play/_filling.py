"""Internal: the Joker and legality engine that filling a box follows.

:mod:`yahtzee_rules.play.scoring` builds its public functions on these, and turns,
games and strategies call them directly on values they have already checked.
Nothing here validates its arguments except the ``check_*`` functions.
"""

from __future__ import annotations

import functools

from yahtzee_rules.core.boxes import Box, Card
from yahtzee_rules.core.dice import Dice
from yahtzee_rules.core.rules import JokerRule, Rules, not_rules_error, plain_label
from yahtzee_rules.play.scorecard import Scorecard, raw_card
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError
from yahtzee_rules.support.l10n import translations

__all__ = [
    "bonus_due",
    "check_card",
    "check_pair",
    "check_rules",
    "extra_yahtzee_values",
    "fill_unchecked",
    "five_legal",
    "is_extra",
    "joker_note_unchecked",
    "legal",
    "legal_points",
    "reason",
]


class _Plan:
    """What :func:`legal` reads of a card design, worked out once per design."""

    __slots__ = ("by_face", "fives", "fixed", "joker_first", "lower", "members", "upper")

    def __init__(self, card: Card) -> None:
        self.members = card.members
        faces = range(1, 7)
        # by face (index 0 unused): the face boxes, as Card.face_boxes gives them, and
        # each box's plain score for five dice showing the face
        self.by_face = ((), *(card.face_boxes(face) for face in faces))
        self.fives = ((), *(card.table[Dice([face] * 5).position] for face in faces))
        self.fixed: dict[Box, int] = dict(card.joker_values)
        self.joker_first = card.joker_first
        self.lower = card.lower
        self.upper = card.upper


# One plan per card design, like the designs' empty cards (scorecard.empty_card).
_PLANS: dict[Card, _Plan] = {}
# The Joker rules as globals: reading an enumeration member off its class is slower.
_NO_JOKER = JokerRule.NONE
_FORCED = JokerRule.FORCED
_KINDS_FIRST = JokerRule.KINDS_FIRST


def _plan(card: Card) -> _Plan:
    plan = _PLANS.get(card)
    if plan is None:
        plan = _PLANS.setdefault(card, _Plan(card))
    return plan


def legal(boxes: tuple[int | None, ...], dice: Dice, rules: Rules) -> dict[Box, int]:
    """Every open box ``dice`` may fill on a card with these boxes, and its points."""
    faces = dice.faces
    if faces[0] == faces[4]:
        return five_legal(boxes, faces[0], rules)
    card = rules.card
    found = _open_boxes(card.members, card.table[dice.position], boxes, rules.in_order)
    if card.left_to_right:
        return _left_to_right(found, boxes, card)
    return found


def five_legal(boxes: tuple[int | None, ...], face: int, rules: Rules) -> dict[Box, int]:
    """What five dice showing ``face`` may fill on a card with these boxes, and the points.

    :func:`legal`'s answer for five equal dice, the dice Forced Yahtzee and the Joker
    rules look at, for callers that know the face (the solver reads the Joker rules off
    it for every filled-box mask).
    """
    card = rules.card
    plan = _plan(card)
    scores = plan.fives[face]
    found: dict[Box, int] = {}
    if rules.forced_yahtzee:
        # Forced Yahtzee: five equal dice go in their open upper box, even the first (on
        # a card of several columns, any open one of them).
        found = {c: scores[c] for c in plan.by_face[face] if boxes[c] is None}
    if not found:
        if rules.in_order or rules.joker is _NO_JOKER or not is_extra(boxes, card):
            found = _open_boxes(plan.members, scores, boxes, rules.in_order)
        else:
            found = _joker_options(boxes, face, rules, plan)
    if card.left_to_right:
        return _left_to_right(found, boxes, card)
    return found


def _open_boxes(
    members: tuple[Box, ...],
    scores: tuple[int, ...],
    boxes: tuple[int | None, ...],
    in_order: bool,
) -> dict[Box, int]:
    """The open boxes with their plain scores; with the boxes filled in card order
    (Forced Yatzy), only the first open box."""
    if not in_order:
        return {c: p for c, p, box in zip(members, scores, boxes, strict=True) if box is None}
    for c, points, box in zip(members, scores, boxes, strict=True):
        if box is None:
            return {c: points}
    return {}


def _left_to_right(
    found: dict[Box, int], boxes: tuple[int | None, ...], card: Card
) -> dict[Box, int]:
    """What of ``found`` a card whose rows fill left to right allows now."""
    # a box opens once the box to its left is filled; what the Joker (or Forced Yahtzee,
    # or the card order) offers is never emptied by this, as the open boxes of a row are
    # always on its right
    return {
        box: points
        for box, points in found.items()
        if (left := card.left_of(box)) is None or boxes[left] is not None
    }


def _joker_options(
    boxes: tuple[int | None, ...], face: int, rules: Rules, plan: _Plan
) -> dict[Box, int]:
    """What an extra Yahtzee of ``face`` may fill under the forced or free-choice Joker, in
    any order."""
    scores = plan.fives[face]
    fixed = plan.fixed
    face_boxes = plan.by_face[face]
    joker = rules.joker
    if joker is _FORCED or joker is _KINDS_FIRST:
        # the matching upper box (on a card of several columns, any open one of them)
        found = {c: scores[c] for c in face_boxes if boxes[c] is None}
        if found:
            return found
        if joker is _KINDS_FIRST:
            found = {c: fixed.get(c, scores[c]) for c in plan.joker_first if boxes[c] is None}
            if found:
                return found
        found = {c: fixed.get(c, scores[c]) for c in plan.lower if boxes[c] is None}
        if found:
            return found
        return {c: 0 for c in plan.upper if boxes[c] is None}
    # FREE_CHOICE: any open box; fixed Joker values only once the face boxes are filled.
    face_filled = all(boxes[c] is not None for c in face_boxes)
    result: dict[Box, int] = {}
    for c in plan.members:
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
    open or filled and the other boxes all open, with the card's
    :attr:`~yahtzee_rules.Card.joker_first` boxes filled, or with every lower box
    filled (what :func:`legal` offers depends on nothing else; a left-to-right card's
    order changes when a box opens, never what it holds). The five-of-a-kind boxes
    themselves are never open then, so their sets are empty.
    """
    values: list[set[int]] = [set() for _ in card.members]
    if not card.yahtzees:
        return tuple(frozenset(v) for v in values)
    rules = Rules(joker=joker, card=card)
    for face in range(1, 7):
        dice = Dice([face] * 5)
        for face_filled in (False, True):
            for filled in ((), card.joker_first, card.lower):
                boxes: list[int | None] = [None] * len(card)
                for box in filled:
                    boxes[box] = 0
                for box in card.yahtzees:
                    boxes[box] = 50
                if face_filled:
                    for box in card.face_boxes(face):
                        boxes[box] = 0
                options = (
                    _joker_options(tuple(boxes), face, rules, _plan(card))
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
        raise not_rules_error(rules)
    return rules


def rules_or_usual(rules: object, card: object = None) -> Rules:
    """``rules`` checked, or for ``None`` the usual rules of ``card``'s design
    (:meth:`Rules.for_card`; Hasbro's Classic game when there is no card either)."""
    if rules is None:
        return Rules() if card is None else Rules.for_card(check_card(card).card)
    return check_rules(rules)


def check_pair(card: object, rules: object) -> tuple[Scorecard, Rules]:
    """``card`` and ``rules``, checked to be values and to be for the same card design.

    ``rules`` of ``None`` are the card's usual rules (:meth:`Rules.for_card`).
    """
    card_value = check_card(card)
    rules_value = rules_or_usual(rules, card_value)
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


def reason(
    boxes: tuple[int | None, ...],
    dice: Dice,
    category: Box,
    rules: Rules,
    locale: str | None = None,
) -> str:
    """Why ``dice`` may not fill ``category``: it is filled, or a placement rule forbids it.

    The placement rules are boxes in card order (Forced Yatzy), Forced Yahtzee, and the
    forced and kinds-first Joker orders. The sentence is in ``locale``'s language (English
    for ``None``), with the boxes' names in it.
    """
    text = translations(locale)
    _ = text.gettext  # the name gettext's extractors look for

    def name(box: Box) -> str:
        return box.label_in(locale)

    def either(names: list[str]) -> str:
        found = names[0]
        for other in names[1:]:
            found = _("{first} or {second}").format(first=found, second=other)
        return found

    points = boxes[category]
    if points is not None:
        return _("{box} is already filled with {points}; each box is filled once").format(
            box=name(category), points=points
        )
    card = rules.card
    left = card.left_of(category) if card.left_to_right else None
    if left is not None and boxes[left] is None:
        return _(
            "{box} opens once {left} is filled; on this card each row fills left to right"
        ).format(box=name(category), left=name(left))
    if rules.in_order:
        first = next(c for c in card.members if boxes[c] is None)
        return _(
            "the boxes are filled in card order (Forced Yatzy): the first open box is "
            "{first}, so the dice must go there"
        ).format(first=name(first))
    face = dice.faces[0]
    face_boxes = card.face_boxes(face)
    open_faces = [name(c) for c in face_boxes if boxes[c] is None]
    if rules.forced_yahtzee and open_faces:
        if len(face_boxes) == 1:
            return _(
                "Forced Yahtzee requires {box}, which is open: five {face}s must go in "
                "{box}, even as the first Yahtzee"
            ).format(box=open_faces[0], face=face)
        return _(
            "Forced Yahtzee requires a matching upper box while one is open: five {face}s "
            "must go in {boxes}, even as the first Yahtzee"
        ).format(face=face, boxes=either(open_faces))
    joker = text.pgettext("JokerRule", rules.joker.label)
    if len(face_boxes) == 1:
        face_box = face_boxes[0]
        if boxes[face_box] is None:
            return _(
                "the {joker} requires {box}, which is open: five {face}s must go in {box}"
            ).format(joker=joker, box=name(face_box), face=face)
        named = name(face_box)
    else:
        if open_faces:
            return _(
                "the {joker} requires a matching upper box while one is open: "
                "five {face}s must go in {boxes}"
            ).format(joker=joker, face=face, boxes=either(open_faces))
        named = either([name(c) for c in face_boxes])
    kinds = [c for c in card.joker_first if boxes[c] is None]
    if rules.joker is JokerRule.KINDS_FIRST and kinds:
        title = text.pgettext("JokerRule", rules.joker.title)
        names = either([name(c) for c in card.joker_first])
        opened = ", ".join(name(c) for c in kinds)
        if len(card.joker_first) == 2:
            return _("the {joker} requires {boxes} while either is open; open: {open}").format(
                joker=title, boxes=names, open=opened
            )
        return _(  # pragma: no cover - the shipped cards' Joker fills two kinds first
            "the {joker} requires {boxes} while one is open; open: {open}"
        ).format(joker=title, boxes=names, open=opened)
    open_lower = ", ".join(name(c) for c in card.lower if boxes[c] is None)
    return _(
        "the {joker} allows an upper box other than {box} only once every lower box is "
        "filled; open lower boxes: {open}"
    ).format(joker=joker, box=named, open=open_lower)


def _and(words: list[str], conjunction: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``: a list in a sentence."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def _plain_values(card: Card, boxes: tuple[int | None, ...]) -> list[tuple[str, int]]:
    """The open boxes with a fixed Joker value, by plain label and in card order, once each."""
    found: dict[str, int] = {}
    for box, value in card.joker_values:
        if boxes[box] is None:
            found.setdefault(plain_label(box), value)
    return list(found.items())


def joker_note_unchecked(boxes: tuple[int | None, ...], dice: Dice, rules: Rules) -> str | None:
    """What the Joker rule means for ``dice`` on these boxes, or ``None`` when it does not apply.

    The note a game shows its player with an extra Yahtzee (five equal dice, every
    Yahtzee box filled, a Joker rule in force): which step of the rule applies, the
    rule's own reason where it closes boxes (:func:`reason`), and the bonus when one
    is due. It reads what :func:`legal` allows, so it holds for every card and Joker rule.
    """
    card = rules.card
    five = dice.faces[0] == dice.faces[4]
    if not five or rules.joker is JokerRule.NONE or not is_extra(boxes, card):
        return None
    assert card.yahtzee is not None  # is_extra: the card has five-of-a-kind boxes
    face = dice.faces[0]
    name = plain_label(card.yahtzee)
    filled = name if len(card.yahtzees) == 1 else f"every {name} box"
    allowed = legal(boxes, dice, rules)
    joker = f"the {rules.joker.label}"
    face_boxes = card.face_boxes(face)
    faces = _and([c.label for c in face_boxes])
    are = "is" if len(face_boxes) == 1 else "are"
    face_open = any(boxes[c] is None for c in face_boxes)
    # the open boxes the rule closes (not those a row's order keeps closed for now)
    closed = [
        c
        for c in card.members
        if boxes[c] is None
        and c not in allowed
        and not (
            card.left_to_right and (left := card.left_of(c)) is not None and boxes[left] is None
        )
    ]
    only = _and([c.label for c in allowed], "or")
    rows = "; each row fills left to right" if card.left_to_right else ""
    if face_open and (rules.forced_yahtzee or rules.joker is not JokerRule.FREE_CHOICE):
        if closed:
            body = reason(boxes, dice, closed[0], rules)
        else:
            rule = "Forced Yahtzee" if rules.forced_yahtzee else joker
            body = f"{rule} requires {only}, the only open box{'' if len(allowed) == 1 else 'es'}"
    elif rules.joker is JokerRule.FREE_CHOICE:
        fixed = _plain_values(card, boxes)
        body = f"{joker} allows any open box{rows}"
        if fixed and face_open:
            body += (
                f"; {_and([label for label, _ in fixed])} take their Joker values only once "
                f"{faces} {are} filled, so they score 0 now"
            )
        elif fixed:
            worth = _and([f"{label} {value}" for label, value in fixed])
            body += f"; {faces} {are} filled, so {worth} take their Joker values"
    elif any(boxes[c] is None for c in card.joker_first) and rules.joker is JokerRule.KINDS_FIRST:
        body = (
            f"{faces} {are} filled, so the {rules.joker.title} requires {only}, "
            f"at the dice total ({dice.total}){rows}"
        )
    elif any(boxes[c] is None for c in card.lower):
        values = [f"{label} {value}" for label, value in _plain_values(card, boxes)]
        at = f"{', '.join(values)}; the dice total elsewhere" if values else "the dice total"
        body = (
            f"{faces} {are} filled, so {joker} allows any open lower box at Joker values "
            f"({at}){rows}"
        )
    else:
        body = (
            f"{_and([*(c.label for c in face_boxes), 'every lower box'])} are filled, "
            f"so any open upper box scores 0{rows}"
        )
    bonus = (
        f" Filling any box adds the {rules.yahtzee_bonus}-point {name} bonus."
        if bonus_due(boxes, dice, rules)
        else ""
    )
    return f"Joker: five {face}s with {filled} filled; {body}.{bonus}"


def fill_unchecked(card: Scorecard, dice: Dice, category: Box, rules: Rules) -> Scorecard:
    boxes = card.boxes
    design = rules.card
    five = dice.faces[0] == dice.faces[4]
    if (
        boxes[category] is None
        and (not five or not is_extra(boxes, design))
        and not design.left_to_right
        and not rules.in_order
        and not (rules.forced_yahtzee and five)
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
