"""Only states some sequence of legal turns produces are accepted, by every reader.

A box holds what some roll scores there or what a Joker writes there; a bonus mark
needs a filled box holding a value an extra Yahtzee can write there under the rules'
own Joker. Checked for every card design, so new rulesets get the checks too.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings

from yahtzee_rules import (
    CLASSIC,
    YACHT,
    Card,
    Category,
    Game,
    GameRecord,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    from_dict,
    from_json,
    from_notation,
    to_dict,
    to_json,
    to_notation,
)
from yahtzee_rules.core.yatzy import YATZY
from yahtzee_rules.testing import strategies as yst

CARDS = (CLASSIC, YACHT, YATZY)
ANY_RULES = yst.rules(cards=CARDS)


@settings(max_examples=150)
@given(yst.scorecards(rules=ANY_RULES))
def test_every_card_legal_play_makes_is_accepted(card: Scorecard) -> None:
    assert Scorecard(card.boxes, bonus_marks=card.bonus_marks, card=card.card) == card
    assert Scorecard.parse(str(card)) == card
    assert from_json(to_json(card), Scorecard) == card


@settings(max_examples=60, deadline=None)
@given(yst.games(rules=ANY_RULES, max_players=2))
def test_every_game_legal_play_makes_is_accepted_by_every_reader(game: Game) -> None:
    assert Game.parse(str(game)) == game
    assert from_notation(to_notation(game), Game) == game
    assert from_json(to_json(game), Game) == game
    for card in game.cards:
        if not card.is_complete:
            assert Turn(card, rules=game.rules).card == card
    record = GameRecord.from_game(game)
    assert GameRecord.from_share_code(record.share_code()).game == game


def _never_zero(card: Card) -> list[Any]:
    """The boxes of ``card`` that no roll scores 0 in (Chance, Choice)."""
    return [box for box in card.lower if all(row[box] for row in card.table)]


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_a_box_no_roll_or_joker_scores_0_in_refuses_0(card: Card) -> None:
    boxes = _never_zero(card)
    assert boxes  # every shipped card has a Chance
    for box in boxes:
        assert 0 not in card.possible[box]
        assert 0 not in card.five_of_a_kind[box]
        with pytest.raises(MalformedInputError, match=f"no roll scores 0 in {box.label}"):
            Scorecard({box: 0}, card=card)
        prefix = "" if card is CLASSIC else f"{card.name}:"
        with pytest.raises(MalformedInputError, match=f"no roll scores 0 in {box.label}"):
            Scorecard.parse(f"{prefix}{box.code}=0")


def test_chance_0_is_refused_by_every_reader() -> None:
    # the JSON reader words it "0 is not a value Chance can hold"
    message = r"\b0\b.* Chance.*; possible values are 5, 6, 7, 8, \.\.\., 30"
    good = Scorecard({Category.CHANCE: 5})
    data = to_dict(good)
    data["boxes"]["chance"] = 0
    game_data = to_dict(Game.parse("forced 0 Ann c=5 -"))
    game_data["cards"][0]["boxes"]["chance"] = 0
    readers: list[Callable[[], object]] = [
        lambda: Scorecard({Category.CHANCE: 0}),
        lambda: Scorecard.parse("c=0"),
        lambda: from_notation("c=0", Scorecard),
        lambda: from_dict(data, Scorecard),
        lambda: from_json(to_json(good).replace('"chance":5', '"chance":0'), Scorecard),
        lambda: Turn.parse("forced c=0 -"),
        lambda: Game.parse("forced 0 Ann c=0 -"),
        lambda: from_dict(game_data, Game),
    ]
    for read in readers:
        with pytest.raises(MalformedInputError, match=message):
            read()


def _forged_share_code(boxes: dict[Any, int], marks: int, joker: str) -> str:
    """A share code whose starting card holds ``boxes``, bypassing validation."""
    game = Game.parse(f"{joker} 0 Ann c=5 -")
    card = copy.copy(game.cards[0])
    values: list[int | None] = [None] * 13
    for box, points in boxes.items():
        values[box] = points
    object.__setattr__(card, "boxes", tuple(values))
    object.__setattr__(card, "bonus_marks", marks)
    turn = copy.copy(game.turn)
    object.__setattr__(turn, "card", card)
    object.__setattr__(game, "cards", (card,))
    object.__setattr__(game, "_turn", turn)
    return GameRecord.from_game(game).share_code()


@pytest.mark.parametrize(
    ("boxes", "marks", "joker", "message"),
    [
        ({Category.CHANCE: 0}, 0, "forced", "no roll scores 0 in Chance"),
        ({Category.FOUR_OF_A_KIND: 0, Category.YAHTZEE: 50}, 1, "free-choice", "only 0 filled"),
        ({Category.FULL_HOUSE: 0, Category.YAHTZEE: 50}, 1, "forced", "under the forced Joker"),
        ({Category.FULL_HOUSE: 25, Category.YAHTZEE: 50}, 1, "none", "under no Joker"),
    ],
)
def test_a_forged_share_code_with_an_unreachable_card_is_refused(
    boxes: dict[Any, int], marks: int, joker: str, message: str
) -> None:
    code = _forged_share_code(boxes, marks, joker)
    with pytest.raises(MalformedInputError, match=message):
        GameRecord.from_share_code(code)


@pytest.mark.parametrize("box", ["3k", "4k"])
def test_a_kind_box_holding_0_is_no_room_for_a_bonus_mark(box: str) -> None:
    # five equal dice always score their total in Three and Four of a Kind
    with pytest.raises(MalformedInputError, match="only 0 filled boxes could hold"):
        Scorecard.parse(f"{box}=0,y=50,+1")
    with pytest.raises(MalformedInputError, match="only 0 filled boxes could hold"):
        from_json(to_json(Scorecard.parse(f"{box}=5,y=50,+1")).replace("5,", "0,", 1), Scorecard)
    assert Scorecard.parse(f"{box}=30,y=50,+1").bonus_marks == 1


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # the forced Joker writes 25 in Full House or sends five equal dice to their face box
        ("forced 0 Ann fh=0,y=50,+1 -", "the forced Joker"),
        # with no Joker, five equal dice score 0 in Full House
        ("none 0 Ann fh=25,y=50,+1 -", "no Joker"),
        ("none 0 Ann ss=30,y=50,+1 -", "no Joker"),
        # the forced Joker writes 0 only in an upper box
        ("forced 0 Ann ls=0,y=50,+1 -", "the forced Joker"),
    ],
)
def test_games_and_turns_check_bonus_marks_against_their_own_joker(text: str, rule: str) -> None:
    message = f"1 bonus marks, but under {rule} only 0 filled boxes"
    with pytest.raises(MalformedInputError, match=message):
        Game.parse(text)
    joker, _, _, card, progress = text.split()
    with pytest.raises(MalformedInputError, match=message):
        Turn.parse(f"{joker} {card} {progress}")
    with pytest.raises(MalformedInputError, match=message):
        Turn(Scorecard.parse(card), rules=Rules.parse(joker))
    good = {"forced": "free-choice", "none": "forced"}[joker]
    data = to_dict(Game.parse(text.replace(joker, good, 1)))
    data["rules"]["joker"] = joker
    with pytest.raises(MalformedInputError, match=message):
        from_dict(data, Game)


@pytest.mark.parametrize(
    "text",
    [
        "free-choice 0 Ann fh=0,y=50,+1 -",  # free choice: 0 in Full House before the face box
        "forced 0 Ann fh=25,y=50,+1 -",
        "forced 0 Ann 2=0,y=50,+1 -",  # the forced Joker's last resort
        "none 0 Ann fh=0,y=50,+1 -",
        "none 0 Ann 4k=20,y=50,+1 -",
    ],
)
def test_bonus_marks_an_extra_yahtzee_can_earn_under_the_joker_are_accepted(text: str) -> None:
    assert str(Game.parse(text)) == text
