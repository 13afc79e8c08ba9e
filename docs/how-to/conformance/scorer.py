"""A tiny Yahtzee scorer (Hasbro's Classic rules, forced Joker, and Triple Yahtzee's three
columns) that speaks the ``yahtzee-rules check`` protocol: one JSON question a line in,
one answer a line out. ``python scorer.py MISTAKE`` plants one classic mistake, to see
the checker catch it. It is the same program as scorer.js, for machines without Node.
"""

import json
import sys

MISTAKE = sys.argv[1] if len(sys.argv) > 1 else ""
UPPER = ["aces", "twos", "threes", "fours", "fives", "sixes"]
LOWER = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
         "large_straight", "yahtzee", "chance"]
JOKER = {"full_house": 25, "small_straight": 30, "large_straight": 40}


def columns_of(rules):  # the boxes of each column: one column, or Triple's three
    if rules.startswith("triple"):
        return [[f"{box}_x{m}" for box in UPPER + LOWER] for m in (1, 2, 3)]
    return [UPPER + LOWER]


def row(box):  # the Classic box of a box in any column
    return box.rsplit("_x", 1)[0]


def score(dice, box):
    counts = [dice.count(face) for face in range(1, 7)]
    most = max(counts)
    face = counts.index(most) + 1
    def has(run): return all(f in dice for f in run)
    if box in UPPER:
        return (UPPER.index(box) + 1) * counts[UPPER.index(box)]
    if box == "three_of_a_kind":
        return 0 if most < 3 else 3 * face if MISTAKE == "kind-sum" else sum(dice)
    if box == "four_of_a_kind":
        return sum(dice) if most >= 4 else 0
    if box == "full_house":
        five = MISTAKE == "five-full-house" and most == 5
        return 25 if (3 in counts and 2 in counts) or five else 0
    if box == "small_straight":
        return 30 if any(map(has, [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]])) else 0
    if box == "large_straight":
        return 40 if any(map(has, [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]])) else 0
    if box == "yahtzee":
        return 50 if most == 5 else 0
    return sum(dice)  # chance


def options(card, dice, columns):
    open_boxes = [box for column in columns for box in column if box not in card["boxes"]]
    plain = {box: score(dice, row(box)) for box in open_boxes}
    joker = len(set(dice)) == 1 and all(column[11] in card["boxes"] for column in columns)
    if not joker or MISTAKE == "joker-order":
        return plain
    upper = [column[dice[0] - 1] for column in columns if column[dice[0] - 1] in open_boxes]
    lower = [box for box in open_boxes if row(box) in LOWER]
    if upper:
        return {box: plain[box] for box in upper}
    if lower:
        return {box: JOKER.get(row(box), plain[box]) for box in lower}
    return {box: 0 for box in open_boxes}


def bonus(card, dice, columns):
    held = [card["boxes"].get(column[11]) for column in columns]
    earns = None not in held if MISTAKE == "bonus-without-50" else held.count(50) == len(held)
    return 100 if len(set(dice)) == 1 and earns else 0


def fill(card, dice, box, columns):
    allowed = options(card, dice, columns)
    if box not in allowed:
        return {"legal": False}
    boxes = {**card["boxes"], box: allowed[box]}
    earned = bonus(card, dice, columns)
    marks = card["bonus_marks"] + (1 if earned else 0)
    each = []
    for column in columns:
        upper = sum(boxes.get(b, 0) for b in column[:6])
        lower = sum(boxes.get(b, 0) for b in column[6:])
        counted = upper + lower if MISTAKE == "bonus-on-grand-total" else upper
        each.append({"upper_subtotal": upper, "upper_bonus": 35 if counted >= 63 else 0,
                     "lower_subtotal": lower})
        each[-1]["grand_total"] = sum(each[-1].values())
    totals = {name: sum(m * c[name] for m, c in enumerate(each, 1)) for name in each[0]}
    times = int(box[-1]) if MISTAKE == "bonus-times-column" else 1  # Triple: x1, x2, x3
    totals["yahtzee_bonus"] = 100 * card["bonus_marks"] + earned * times
    totals["grand_total"] += totals["yahtzee_bonus"]
    reply = {"legal": True, "card": {"boxes": boxes, "bonus_marks": marks}, "totals": totals}
    return {**reply, "columns": each} if len(columns) > 1 else reply


def can_roll(q):
    shown, held = q["dice"] or "", q["keep"]
    showing = all(held.count(f) <= shown.count(f) for f in held)
    return (q["rolls_used"] < 3 or MISTAKE == "fourth-roll") and showing


if __name__ == "__main__":
    for line in sys.stdin:
        q = json.loads(line)
        dice, columns = [int(f) for f in q["dice"] or ""], columns_of(q["rules"])
        if q["ask"] == "score":
            reply = {"points": score(dice, row(q["box"]))}
        elif q["ask"] == "roll":
            reply = {"legal": can_roll(q)}
        elif q["ask"] == "options":
            reply = {"options": options(q["card"], dice, columns),
                     "bonus": bonus(q["card"], dice, columns)}
        else:
            reply = fill(q["card"], dice, q["box"], columns)
        print(json.dumps(reply), flush=True)
