"""Internal: whether some order of legal turns fills a card as it is, bonus marks included.

A card on its own (:class:`~yahtzee_rules.Scorecard`) is checked box by box; under a
ruleset more is known, as the order of the fills matters:

- Forced Yahtzee sends five equal dice to their open upper box, even the first, so a
  value only five equal dice score (Yahtzee 50, Three of a Kind 30, Sixes 30 ...) is
  written elsewhere only once that upper box is filled;
- a bonus mark is an extra Yahtzee, written after every Yahtzee box is filled, where
  the Joker rule sends it at that moment: under the forced Joker its upper box first,
  then (kinds-first) Three and Four of a Kind, then the lower boxes, and 0 in an upper
  box only once every lower box is filled; under the free-choice Joker a fixed Joker
  value once the upper box is filled and 0 before.

The check finds such an order if there is one, in time linear in the card's size for a
bounded number of cases (at most three per face, for which faces have a mark in their
upper boxes). Fills that need no five equal dice go first; then the other fills before
the last Yahtzee box (those that write their face box first); then the Yahtzee boxes;
then the extra Yahtzees, upper boxes first, then Three and Four of a Kind, the other
lower boxes, and last the zeros the Joker writes in upper boxes. Every rule it applies
is the rules engine's own (:mod:`yahtzee_rules.play._filling`), and
``tests/test_reachable_states.py`` compares it, on every ruleset, with a search that
replays every order of fills through the engine.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable

import attrs

from yahtzee_rules.core.boxes import Card
from yahtzee_rules.core.dice import Dice
from yahtzee_rules.core.rules import JokerRule, Rules, plain_label
from yahtzee_rules.play._filling import extra_yahtzee_values, legal, reason
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["check_reachable"]

_FACES = range(1, 7)

# The status of a face: whether its upper boxes take extra Yahtzees, and which kind.
_PRE = 0  # every box filled, none with an extra Yahtzee: filled before the last Yahtzee box
_MARKED = 1  # every box filled, some with an extra Yahtzee, none with the Joker's 0
_ZEROED = 2  # every box filled, some with the Joker's 0 (the last resort)
_OPEN = 3  # a box open, none with the Joker's 0
_OPEN_ZEROED = 4  # a box open, some with the Joker's 0

# What an extra Yahtzee in a lower box needs of the face it shows.
_ANY = 1  # nothing
_COMPLETE = 2  # its upper boxes filled before the Joker's zeros
_FILLED = 3  # its upper boxes filled by the end (the fill goes last)
_EARLY = 4  # an upper box still open (the free-choice Joker's 0 in a fixed box)
_ALL = 0b111111  # every face, as bits 0 to 5


def _bits(faces: Iterable[int]) -> int:
    """Faces 1 to 6 given as 0 to 5, as the bits of an int."""
    result = 0
    for face in faces:
        result |= 1 << face
    return result


@attrs.frozen
class _Design:
    """What the check reads of a card design."""

    plain: tuple[frozenset[int], ...]  # per box: what dice other than five equal score
    fives: tuple[tuple[int, ...], ...]  # per box: five equal dice's plain score, per face - 1
    rows: tuple[tuple[int, ...], ...]  # the lower boxes (not Yahtzee), a row's in column order
    face_rows: tuple[tuple[int, ...], ...]  # per face - 1: its upper boxes, in column order
    upper: frozenset[int]  # every upper box
    five_faces: tuple[
        dict[int, int], ...
    ]  # per box: points -> the faces (bits) whose five score them
    fixed: dict[int, int]  # the fixed Joker values
    first: frozenset[int]  # the boxes the kinds-first Joker fills first
    lower: tuple[int, ...]
    yahtzees: tuple[int, ...]


@functools.cache
def _design(card: Card) -> _Design:
    """What the check reads of a card design (the Joker rule and placements are read
    from the rules where they matter), worked out once per design."""
    table = card.table
    five_rows = [table[Dice([face] * 5).position] for face in _FACES]
    members = card.members
    plain = _design_plain(card)
    fives = tuple(tuple(row[box] for row in five_rows) for box in members)
    yahtzees = tuple(int(box) for box in card.yahtzees)
    lower_rows: dict[int, list[int]] = {}
    for box in card.lower:
        if box not in card.yahtzees:
            lower_rows.setdefault(box.row, []).append(int(box))
    rows = tuple(tuple(sorted(row, key=lambda b: members[b].column)) for row in lower_rows.values())
    if not card.left_to_right:  # each box a row of its own: no order between them
        rows = tuple((box,) for row in rows for box in row)
    face_rows = tuple(
        tuple(int(box) for box in sorted(card.face_boxes(face), key=lambda b: b.column))
        for face in _FACES
    )
    return _Design(
        plain=plain,
        fives=fives,
        rows=rows,
        face_rows=face_rows,
        upper=frozenset(box for row in face_rows for box in row),
        five_faces=tuple(
            {points: _bits(f for f in range(6) if five[f] == points) for points in five}
            for five in fives
        ),
        fixed={int(box): value for box, value in card.joker_values},
        first=frozenset(int(box) for box in card.joker_first),
        lower=tuple(int(box) for box in card.lower),
        yahtzees=yahtzees,
    )


_PLAIN: dict[Card, bool] = {}


def _plain_card(card: Card) -> bool:
    """Whether every value each box of ``card`` can hold is what some roll scores there
    (the Joker writes nothing else), so with no bonus marks and no Forced Yahtzee, any
    card of possible values is filled by a legal order: the five equal dice first."""
    found = _PLAIN.get(card)
    if found is None:
        values = (frozenset(row[box] for row in card.table) for box in card.members)
        found = all(possible <= v for possible, v in zip(card.possible, values, strict=True))
        _PLAIN[card] = found
    return found


def _first_yahtzees_placed(boxes: tuple[int | None, ...], rules: Rules) -> bool:
    """Under Forced Yahtzee with no bonus marks: whether each value only five equal dice
    score (Yahtzee 50, Three of a Kind 30 ...) has a face whose upper boxes are all filled
    to be written after. They are, first; then those values, then the Yahtzee boxes."""
    design = _design(rules.card)
    plain, fives, upper = design.plain, design.fives, design.upper
    complete: list[bool] | None = None
    for box, points in enumerate(boxes):
        if points is None or box in upper or points in plain[box]:
            continue  # an upper box takes five of its own face whatever else is open
        if complete is None:
            complete = [all(boxes[b] is not None for b in row) for row in design.face_rows]
        if not any(
            five == points and done for five, done in zip(fives[box], complete, strict=True)
        ):
            return False
    return True


def _counts(mask: int) -> str:
    """The numbers of a bit mask in words: ``0``, ``0 or 1``, ``1 to 3``."""
    values = [n for n in range(mask.bit_length()) if mask >> n & 1]
    if not values:
        return "none"
    if len(values) == 1:
        return str(values[0])
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} or {values[1]}" if len(values) == 2 else f"{values[0]} to {values[-1]}"
    return ", ".join(map(str, values))


def _add(total: int, options: int) -> int:
    """The sums of a number in ``total`` and one in ``options`` (both bit masks)."""
    result = 0
    shift = 0
    while options:
        if options & 1:
            result |= total << shift
        options >>= 1
        shift += 1
    return result


def _row_counts(row: tuple[int, ...], option: list[int], needs_five: list[bool]) -> int:
    """How many extra Yahtzees a row of boxes can take, as a bit mask.

    ``option`` gives each filled box's choices (bit 0: no extra Yahtzee, bit 1: one; 0
    for an open box); on a
    card filled left to right, once a box of the row takes one, the boxes to its right
    are filled after it, so those only five equal dice can fill take one too.
    """
    if len(row) == 1:
        return option[row[0]]
    clear, marked = 1, 0  # counts with no mark yet in the row, and with one
    for box in row:
        choice = option[box]
        if not choice:  # open, and so are the boxes to its right
            break
        new_clear = clear if choice & 1 else 0
        new_marked = (clear | marked) << 1 if choice & 2 else 0
        if choice & 1 and not needs_five[box]:
            new_marked |= marked
        clear, marked = new_clear, new_marked
    return clear | marked


@functools.lru_cache(maxsize=4096)
def _face_masks(
    card: Card,
    joker: JokerRule,
    fy: bool,
    face: int,
    values: tuple[int | None, ...],
    extras: bool,
    left_to_right: bool,
) -> tuple[dict[int, int], bool]:
    """For the upper boxes of ``face`` holding ``values`` (in column order): for each
    status the face can have, the numbers of extra Yahtzees they take (a bit mask), and
    whether one holds what a roll of not five equal dice scores there."""
    plain = _design_plain(card)
    row = sorted(card.face_boxes(face), key=lambda b: b.column)
    is_open = None in values
    quick = any(v is not None and v in plain[b] for b, v in zip(row, values, strict=True))
    zero_late = joker is JokerRule.FORCED or joker is JokerRule.KINDS_FIRST or fy
    # per box: 0 no mark, 1 an extra Yahtzee of its face, 2 the Joker's 0
    choices: list[tuple[int, ...]] = []
    filled = [(b, v) for b, v in zip(row, values, strict=True) if v is not None]
    for box, points in filled:
        own = card.table[_FIVE_POSITIONS[face - 1]][box]
        options: list[int] = []
        if points in plain[box] or points == own:
            options.append(0)
        if extras and points == own:
            options.append(1)
        if extras and points == 0 and points != own:
            options.append(2 if zero_late else 1)
        choices.append(tuple(options))
    masks: dict[int, int] = {}
    for pick in itertools.product(*choices):
        if left_to_right:
            # five of a face box's own face take a mark only after a marked box to its left
            seen = False
            bad = False
            for box_choice, (box, points) in zip(pick, filled, strict=True):
                if seen and box_choice == 0 and points not in plain[box]:
                    bad = True
                seen = seen or box_choice != 0
            if bad:
                continue
        zeroed = 2 in pick
        count = sum(1 for c in pick if c)
        if is_open:
            status = _OPEN_ZEROED if zeroed else _OPEN
        elif zeroed:
            status = _ZEROED
        elif count and (fy or joker is JokerRule.FREE_CHOICE):
            status = _MARKED
        else:
            status = _PRE
        masks[status] = masks.get(status, 0) | 1 << count
    return masks, quick


@functools.cache
def _design_plain(card: Card) -> tuple[frozenset[int], ...]:
    """Per box of ``card``: what dice other than five equal score there."""
    others = [row for position, row in enumerate(card.table) if position not in _FIVE_POSITIONS]
    return tuple(frozenset(row[box] for row in others) for box in card.members)


_FIVE_POSITIONS = tuple(Dice([face] * 5).position for face in _FACES)


def _reachable(boxes: tuple[int | None, ...], marks: int, rules: Rules) -> tuple[bool, int]:
    """Whether some order of legal turns fills ``boxes`` with ``marks`` bonus marks, and
    the bit mask of the numbers of extra Yahtzees that fill could have taken instead."""
    design = _design(rules.card)
    card = rules.card
    fy = rules.forced_yahtzee
    joker = rules.joker
    yahtzees = design.yahtzees
    after = bool(yahtzees) and all(boxes[y] is not None for y in yahtzees)
    counted = after and rules.yahtzee_bonus > 0 and all(boxes[y] == 50 for y in yahtzees)
    # no marks to account for: a fill with five equal dice after the last Yahtzee box
    # would earn one, so there is none
    extras = after and not (counted and not marks)
    plain, fives = design.plain, design.fives
    if rules.in_order:  # one order: the card's; no Joker, no Forced Yahtzee
        total = 1
        last = max(yahtzees, default=len(boxes))
        for box, points in enumerate(boxes):
            if points is None:
                break
            choice = (1 if points in plain[box] else 0) | (
                (2 if counted and box > last else 1) if points in fives[box] else 0
            )
            total = _add(total, choice)
        return (bool(total >> marks & 1) if counted else total != 0), total
    # Each face's upper boxes: the counts each status allows, and what a status means.
    joker_zero = joker is JokerRule.FORCED or joker is JokerRule.KINDS_FIRST
    face_options: list[dict[int, int]] = []
    quick_faces: list[bool] = []  # filled with a box of fewer than five of its face
    left_to_right = card.left_to_right
    for face, row in enumerate(design.face_rows, 1):
        values = tuple(boxes[b] for b in row)
        masks, quick = _face_masks(card, joker, fy, face, values, extras, left_to_right)
        if not masks:
            return False, 0
        face_options.append(masks)
        quick_faces.append(quick)
    lower_filled = all(boxes[b] is not None for b in design.lower)
    first_filled = all(boxes[b] is not None for b in design.first)
    needs_five = [points is not None and points not in plain[b] for b, points in enumerate(boxes)]
    forced = joker is JokerRule.FORCED or joker is JokerRule.KINDS_FIRST
    # Per filled lower box, worked out once: whether a roll of not five equal dice writes
    # it; the faces (bit f - 1) whose five write it before the last Yahtzee box; and for
    # an extra Yahtzee the faces that write it, and what they need (see _marks).
    entries: list[tuple[int, bool, int, int, int]] = []
    five_faces = design.five_faces
    for row in design.rows:
        for box in row:
            points = boxes[box]
            if points is None:
                break
            pre_faces = five_faces[box].get(points, 0)
            need, mark_faces = 0, 0
            if extras:
                fixed = design.fixed.get(box)
                if forced:
                    if joker is JokerRule.FORCED or box in design.first or first_filled:
                        need = _COMPLETE
                        if fixed is None:
                            mark_faces = pre_faces
                        elif fixed == points:
                            mark_faces = _ALL
                elif joker is JokerRule.FREE_CHOICE and fixed is not None:
                    if points == fixed:
                        need, mark_faces = _FILLED, _ALL
                    elif points == 0 and not fy:
                        need, mark_faces = _EARLY, _ALL
                else:
                    mark_faces = pre_faces
                    need = _FILLED if fy else _ANY
            entries.append((box, points in plain[box], pre_faces, need, mark_faces))
    y_faces = [
        five_faces[y].get(points, 0)
        for y in yahtzees
        if (points := boxes[y]) is not None and points not in plain[y]
    ]
    option = [0] * len(boxes)
    single = not card.left_to_right
    found = 0
    for statuses in itertools.product(*(sorted(masks) for masks in face_options)):
        complete = _bits(f for f, s in enumerate(statuses) if s in (_PRE, _MARKED))
        pre = _bits(f for f, s in enumerate(statuses) if s == _PRE) if fy else _ALL
        zeros = any(s in (_ZEROED, _OPEN_ZEROED) for s in statuses)
        # the Joker's zeros in upper boxes: with some face's boxes filled before (and under
        # the forced and kinds-first Joker, every lower box)
        if zeros and (not complete or (joker_zero and not lower_filled)):
            continue
        if any(not faces & pre for faces in y_faces):
            continue  # Forced Yahtzee: a Yahtzee box of 50 with no face filled before it
        allowed = {
            _ANY: _ALL,
            _COMPLETE: complete,
            _FILLED: _bits(f for f, s in enumerate(statuses) if s != _OPEN and s != _OPEN_ZEROED),
            # the free-choice Joker's 0 in a fixed box: some upper box still open then
            _EARLY: _ALL
            if any(s != _PRE or q for s, q in zip(statuses, quick_faces, strict=True))
            else 0,
        }
        must = optional = 0
        ok = True
        for box, any_roll, pre_faces, need, mark_faces in entries:
            clear = any_roll or bool(pre_faces & pre)
            mark = bool(mark_faces & allowed[need]) if need else False
            if not (clear or mark):
                ok = False
                break
            if single:
                if clear and mark:
                    optional += 1
                elif mark:
                    must += 1
            else:
                option[box] = (1 if clear else 0) | (2 if mark else 0)
        if not ok:
            continue
        total = ((1 << (optional + 1)) - 1) << must
        for masks, status in zip(face_options, statuses, strict=True):
            total = _add(total, masks[status])
        if not single:
            for row in design.rows:
                if boxes[row[0]] is not None:
                    total = _add(total, _row_counts(row, option, needs_five))
        found |= total
        if (total >> marks & 1) if counted else total:
            return True, found
    return False, found


def _rule(rules: Rules) -> str:
    joker = "no Joker" if rules.joker is JokerRule.NONE else f"the {rules.joker.value} Joker"
    return f"{joker} and Forced Yahtzee" if rules.forced_yahtzee else joker


def _hint(card: Scorecard, rules: Rules, extra: bool) -> str:
    """The rules engine's reason why a filled box could not have been filled as it is:
    with an extra Yahtzee (``extra``), or else before the last Yahtzee box."""
    boxes = card.boxes
    design = _design(rules.card)
    yahtzees = design.yahtzees
    members = rules.card.members
    extras = extra_yahtzee_values(rules.card, rules.joker)
    for box, points in enumerate(boxes):
        if points is None:
            continue
        if extra:
            if box in yahtzees or points not in extras[box]:
                continue
            state = tuple(None if b == box else p for b, p in enumerate(boxes))
        else:
            if points in design.plain[box]:
                continue
            state = tuple(None if b == box or b in yahtzees else p for b, p in enumerate(boxes))
        category = members[box]
        faces = [Dice([face] * 5) for face in _FACES]
        offered = [legal(state, dice, rules).get(category) for dice in faces]
        if points in offered:
            continue
        # the faces whose five score these points there, or (a fixed Joker value) every face
        scoring = design.fives[box].count(points) > 0
        for dice, offer in zip(faces, offered, strict=True):
            if offer is None and (
                (extra and not scoring) or design.fives[box][dice.faces[0] - 1] == points
            ):
                why = reason(state, dice, category, rules)
                return f"; {category.label} {points} from {dice}: {why}"
        if extra and any(offer is not None for offer in offered):
            dice, offer = next((d, o) for d, o in zip(faces, offered, strict=True) if o is not None)
            return (
                f"; {category.label} {points} from {dice}: {_rule(rules)} writes {offer} there "
                f"with the other boxes as they are"
            )
    return ""


def check_reachable(card: Scorecard, rules: Rules) -> None:
    """Refuse ``card`` unless some order of legal turns under ``rules`` fills it so.

    ``card`` is of ``rules``' design, its values are ones its boxes can hold and its
    bonus marks are allowed box by box (checked before).
    """
    boxes = card.boxes
    marks = card.bonus_marks
    if (
        not marks
        and _plain_card(rules.card)
        and (not rules.forced_yahtzee or _first_yahtzees_placed(boxes, rules))
    ):
        return  # every value is some roll's; fills of five equal dice go first
    ok, counts = _reachable(boxes, marks, rules)
    if ok:
        return
    yahtzee = rules.card.yahtzee
    name = "Yahtzee" if yahtzee is None else plain_label(yahtzee)
    shown = show(str(card), 80)
    if marks:
        mark = "mark" if marks == 1 else "marks"
        kind = name if marks == 1 else f"{name}s"
        hint = _hint(card, rules, True) or (
            f"; an extra {name} goes where the Joker sends it at that moment"
        )
        raise MalformedInputError(
            f"card {shown}: {marks} bonus {mark}, but under {_rule(rules)} no order of legal "
            f"turns gives these boxes {marks} extra {kind} (they take {_counts(counts)}){hint}"
        )
    raise MalformedInputError(
        f"card {shown}: under {_rule(rules)} no order of legal turns fills these "
        f"boxes{_hint(card, rules, False)}"
    )
