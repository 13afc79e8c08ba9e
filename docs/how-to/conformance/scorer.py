"""A tiny Yahtzee scorer (Hasbro's Classic rules, forced Joker) that speaks the
``yahtzee-rules check`` protocol: one JSON question a line in, one answer a line out.
``python scorer.py MISTAKE`` plants one classic mistake, to see the checker catch it.
It is the same program as scorer.js, for machines without Node.
"""

import json
import sys

MISTAKE = sys.argv[1] if len(sys.argv) > 1 else ""
UPPER = ["aces", "twos", "threes", "fours", "fives", "sixes"]
LOWER = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
         "large_straight", "yahtzee", "chance"]
JOKER = {"full_house": 25, "small_straight": 30, "large_straight": 40}


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


def options(card, dice):
    open_boxes = [box for box in UPPER + LOWER if box not in card["boxes"]]
    plain = {box: score(dice, box) for box in open_boxes}
    joker = len(set(dice)) == 1 and "yahtzee" in card["boxes"]
    if not joker or MISTAKE == "joker-order":
        return plain
    upper, lower = UPPER[dice[0] - 1], [box for box in open_boxes if box in LOWER]
    if upper in open_boxes:
        return {upper: plain[upper]}
    if lower:
        return {box: JOKER.get(box, plain[box]) for box in lower}
    return {box: 0 for box in open_boxes}


def bonus(card, dice):
    held = card["boxes"].get("yahtzee")
    earns = held is not None if MISTAKE == "bonus-without-50" else held == 50
    return 100 if len(set(dice)) == 1 and earns else 0


def fill(card, dice, box):
    allowed = options(card, dice)
    if box not in allowed:
        return {"legal": False}
    boxes = {**card["boxes"], box: allowed[box]}
    marks = card["bonus_marks"] + (1 if bonus(card, dice) else 0)
    upper = sum(boxes.get(b, 0) for b in UPPER)
    lower = sum(boxes.get(b, 0) for b in LOWER)
    counted = upper + lower if MISTAKE == "bonus-on-grand-total" else upper
    totals = {"upper_subtotal": upper, "upper_bonus": 35 if counted >= 63 else 0,
              "lower_subtotal": lower, "yahtzee_bonus": 100 * marks}
    totals["grand_total"] = upper + totals["upper_bonus"] + lower + totals["yahtzee_bonus"]
    return {"legal": True, "card": {"boxes": boxes, "bonus_marks": marks}, "totals": totals}


def can_roll(q):
    shown, held = q["dice"] or "", q["keep"]
    showing = all(held.count(f) <= shown.count(f) for f in held)
    return (q["rolls_used"] < 3 or MISTAKE == "fourth-roll") and showing


if __name__ == "__main__":
    for line in sys.stdin:
        q = json.loads(line)
        dice = [int(f) for f in q["dice"] or ""]
        if q["ask"] == "score":
            reply = {"points": score(dice, q["box"])}
        elif q["ask"] == "roll":
            reply = {"legal": can_roll(q)}
        elif q["ask"] == "options":
            reply = {"options": options(q["card"], dice), "bonus": bonus(q["card"], dice)}
        else:
            reply = fill(q["card"], dice, q["box"])
        print(json.dumps(reply), flush=True)
