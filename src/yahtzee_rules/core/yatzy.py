"""Scandinavian Yatzy: 15 boxes, a 50-point bonus at 63, nothing more for a second Yatzy, no Joker.

The turn is Yahtzee's (up to three rolls, holding any dice between them), but the
card differs, and its pattern boxes score the dice that make the pattern:

* Ones to Sixes total the dice showing their face; 63 or more earns 50 points;
* One Pair scores the highest pair (``66542`` scores 12), Two Pairs two pairs of
  different faces (``33552`` scores 16; four of a kind is not two pairs);
* Three and Four of a Kind score the three or four matching dice only;
* Small Straight is 1-2-3-4-5 (15 points), Large Straight 2-3-4-5-6 (20 points);
* Full House (three of one face and two of another) scores the total of the dice,
  and five of a kind is not a full house;
* Chance scores the total; Yatzy (five equal dice) scores 50;
* a second Yatzy earns no bonus, and there is no Joker.

Examples:
    >>> from yahtzee_rules import YATZY, Rules, YatzyBox, score
    >>> score("66542", YatzyBox.ONE_PAIR), score("33552", YatzyBox.TWO_PAIRS)
    (12, 16)
    >>> score("12345", YatzyBox.SMALL_STRAIGHT), score("23456", YatzyBox.LARGE_STRAIGHT)
    (15, 20)
    >>> Rules.from_name("yatzy").card is YATZY
    True
"""

from __future__ import annotations

from collections.abc import Callable

from yahtzee_rules.core.boxes import Box, Card, Switch, describe_boxes, register_card

__all__ = ["YATZY", "YatzyBox"]


class YatzyBox(Box):
    """One of the 15 boxes of the Yatzy card, in card order (``ONES`` is 0, ``YATZY`` is 14).

    Examples:
        >>> YatzyBox.TWO_PAIRS.code, YatzyBox.parse("one pair")
        ('2p', <YatzyBox.ONE_PAIR: 6>)
    """

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    ONE_PAIR = 6
    TWO_PAIRS = 7
    THREE_OF_A_KIND = 8
    FOUR_OF_A_KIND = 9
    SMALL_STRAIGHT = 10
    LARGE_STRAIGHT = 11
    FULL_HOUSE = 12
    CHANCE = 13
    YATZY = 14


describe_boxes(
    YatzyBox,
    (
        "Ones",
        "Twos",
        "Threes",
        "Fours",
        "Fives",
        "Sixes",
        "One Pair",
        "Two Pairs",
        "Three of a Kind",
        "Four of a Kind",
        "Small Straight",
        "Large Straight",
        "Full House",
        "Chance",
        "Yatzy",
    ),
    ("1", "2", "3", "4", "5", "6", "1p", "2p", "3k", "4k", "ss", "ls", "fh", "c", "y"),
    faces=(1, 2, 3, 4, 5, 6, None, None, None, None, None, None, None, None, None),
    aliases={
        "aces": "1",
        "pair": "1p",
        "3 of a kind": "3k",
        "4 of a kind": "4k",
        "yahtzee": "y",
    },
)


_YATZY_RULES: dict[str, object] = {"joker": "none", "upper_bonus": 50, "yahtzee_bonus": 0}
"""The usual Yatzy ruleset's fields (the rules layer makes the :class:`~yahtzee_rules.Rules`):
no Joker, the 50-point upper bonus at 63, nothing more for a second Yatzy; the switched cards
play it too."""


def yatzy_scores(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The Yatzy value of every box for five sorted faces, in card order.

    Examples:
        >>> yatzy_scores((2, 2, 3, 3, 3))
        (0, 4, 9, 0, 0, 0, 6, 10, 9, 0, 0, 0, 13, 13, 0)
        >>> yatzy_scores((5, 5, 5, 5, 5))
        (0, 0, 0, 0, 25, 0, 10, 0, 15, 20, 0, 0, 0, 25, 50)
    """
    counts = [0] * 7
    for face in faces:
        counts[face] += 1
    total = sum(faces)
    pairs = [face for face in range(6, 0, -1) if counts[face] >= 2]
    shape = sorted(count for count in counts if count)
    return (
        *(face * counts[face] for face in range(1, 7)),
        2 * pairs[0] if pairs else 0,
        2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0,
        next((3 * face for face in range(6, 0, -1) if counts[face] >= 3), 0),
        next((4 * face for face in range(6, 0, -1) if counts[face] >= 4), 0),
        15 if faces == (1, 2, 3, 4, 5) else 0,
        20 if faces == (2, 3, 4, 5, 6) else 0,
        total if shape == [2, 3] else 0,
        total,
        50 if shape == [5] else 0,
    )


YATZY = register_card(
    Card(
        name="yatzy",
        title="Yatzy",
        boxes=YatzyBox,
        scorer=yatzy_scores,
        yahtzee=YatzyBox.YATZY,
    ),
    rulesets={
        "yatzy": (
            "Scandinavian Yatzy: 15 boxes, 50-point upper bonus at 63, Yatzy 50 and nothing more "
            "for a second, no Joker",
            _YATZY_RULES,
        ),
        "forced-yatzy": (
            "Forced Yatzy: Yatzy with the boxes filled in card order, top to bottom",
            {**_YATZY_RULES, "in_order": True},
        ),
    },
)
"""The Scandinavian Yatzy card: 15 boxes. Its ruleset, ``Rules.from_name("yatzy")``, has
the 50-point upper bonus at 63, nothing more for a second Yatzy, and no Joker.

Examples:
    >>> YATZY.title, len(YATZY), YATZY.yahtzee
    ('Yatzy', 15, <YatzyBox.YATZY: 14>)
"""


def _switched_scores(
    five_full_house: bool, four_two_pairs: bool
) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """A Yatzy scorer with house switches: five of a kind as a Full House (their total),
    four of a kind as Two Pairs (the four matching dice)."""

    def scores(faces: tuple[int, ...]) -> tuple[int, ...]:
        row = list(yatzy_scores(faces))
        if five_full_house and faces[0] == faces[4]:
            row[YatzyBox.FULL_HOUSE] = sum(faces)
        if four_two_pairs and row[YatzyBox.FOUR_OF_A_KIND] and not row[YatzyBox.TWO_PAIRS]:
            row[YatzyBox.TWO_PAIRS] = row[YatzyBox.FOUR_OF_A_KIND]
        return tuple(row)

    return scores


for _switches, _description in (
    (
        (Switch.FIVE_OF_A_KIND_FULL_HOUSE,),
        "Yatzy with five of a kind also a Full House (a house switch)",
    ),
    (
        (Switch.FOUR_OF_A_KIND_TWO_PAIRS,),
        "Yatzy with four of a kind also Two Pairs (a house switch)",
    ),
    (
        (Switch.FIVE_OF_A_KIND_FULL_HOUSE, Switch.FOUR_OF_A_KIND_TWO_PAIRS),
        "Yatzy with five of a kind also a Full House and four of a kind also Two Pairs",
    ),
):
    _five = Switch.FIVE_OF_A_KIND_FULL_HOUSE in _switches
    _four = Switch.FOUR_OF_A_KIND_TWO_PAIRS in _switches
    _title = " and ".join(
        text
        for on, text in (
            (_five, "five of a kind as a Full House"),
            (_four, "four of a kind as Two Pairs"),
        )
        if on
    )
    _name = "+".join(("yatzy", *(switch.value for switch in _switches)))
    register_card(
        Card(
            name=_name,
            title=f"Yatzy with {_title}",
            boxes=YatzyBox,
            scorer=_switched_scores(_five, _four),
            yahtzee=YatzyBox.YATZY,
            base=YATZY,
            switches=_switches,
        ),
        rulesets={_name: (_description, _YATZY_RULES)},
    )
del _switches, _description, _five, _four, _title, _name
