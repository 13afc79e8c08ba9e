"""Only states some sequence of legal turns produces are accepted, by every reader.

A box holds what some roll scores there or what a Joker writes there; a bonus mark
needs a filled box holding a value an extra Yahtzee can write there under the rules'
own Joker. Checked for every card design, so new rulesets get the checks too.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _cli import run
from yahtzee_rules import (
    CLASSIC,
    YACHT,
    Card,
    Category,
    Dice,
    Game,
    GameRecord,
    IllegalActionError,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    fill,
    from_dict,
    from_json,
    from_notation,
    to_dict,
    to_json,
    to_notation,
)
from yahtzee_rules.core.yatzy import YATZY
from yahtzee_rules.play.turn import check_marks_allowed
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
    object.__setattr__(game, "cards", (card,))  # the turn plays the game's card
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
    data = to_dict(Game.parse(f"{joker} 0 Ann"))
    written = to_dict(Scorecard.parse(card))
    data["cards"][0] = {"boxes": written["boxes"], "bonus_marks": written["bonus_marks"]}
    with pytest.raises(MalformedInputError, match=message):
        from_dict(data, Game)


@pytest.mark.parametrize(
    "text",
    [
        "free-choice 0 Ann fh=0,y=50,+1 -",  # free choice: 0 in Full House before the face box
        "free-choice 0 Ann 6=0,fh=25,y=50,+1 -",  # and 25 after it
        "forced 0 Ann 6=30,fh=25,y=50,+1 -",  # five 6s in Sixes first, then the Joker
        "forced 0 Ann 2=10,y=50,+1 -",
        "kinds-first 0 Ann 1=5,3k=5,4k=5,fh=25,y=50,+3 -",
        "forced-yahtzee 0 Ann 1=0,y=50 -",  # Aces filled, five 1s may go in Yahtzee
        "forced-yahtzee 0 Ann 6=0,3k=30 -",
        "none 0 Ann fh=0,y=50,+1 -",
        "none 0 Ann 4k=20,y=50,+1 -",
    ],
)
def test_bonus_marks_an_extra_yahtzee_can_earn_under_the_joker_are_accepted(text: str) -> None:
    assert str(Game.parse(text)) == text


# --- Reachability under a ruleset, compared with replaying every order of fills ---

# Every named ruleset, and the placements and Joker rules on the cards they do not name.
_EXTRA_RULES = (
    Rules(joker="kinds-first", forced_yahtzee=True),
    Rules(joker="free-choice", forced_yahtzee=True),
    Rules(joker="none", forced_yahtzee=True),
    Rules(joker="none", in_order=True),
    attrs.evolve(Rules.from_name("triple"), forced_yahtzee=True),
    attrs.evolve(Rules.from_name("triple"), joker="kinds-first"),
    attrs.evolve(Rules.from_name("triple"), joker="free-choice"),
    attrs.evolve(Rules.from_name("triple-in-order"), forced_yahtzee=True),
    attrs.evolve(Rules.from_name("triple-in-order"), joker="free-choice"),
    attrs.evolve(Rules.from_name("triple-in-order"), joker="kinds-first"),
    attrs.evolve(Rules.from_name("yacht"), joker="forced", yahtzee_bonus=100),
    attrs.evolve(Rules.from_name("yatzy"), joker="free-choice", yahtzee_bonus=50),
)
EVERY_RULES = (*(Rules.from_name(name) for name in Rules.names()), *_EXTRA_RULES)
_FIVES = tuple(Dice([face] * 5) for face in range(1, 7))


def _plain_rolls(card: Card) -> dict[tuple[int, int], Dice]:
    """A roll of not five equal dice for each (box, value) such a roll scores."""
    found: dict[tuple[int, int], Dice] = {}
    for dice in Dice.all():
        if dice.faces[0] != dice.faces[4]:
            for box in card.members:
                found.setdefault((box, card.score(dice, box)), dice)
    return found


def replay_reachable(
    wanted: dict[Any, int], marks: int, rules: Rules, plain: dict[tuple[int, int], Dice]
) -> bool:
    """Whether some order of fills, each legal through the engine's ``fill`` for some
    roll, gives the boxes ``wanted`` and exactly ``marks`` bonus marks.

    Every roll of not five equal dice is alike to the engine but for its scores, so one
    per (box, value) stands for them all; five equal dice of every face are tried.
    """
    seen: set[tuple[tuple[int | None, ...], int]] = set()

    def search(card: Scorecard) -> bool:
        key = (card.boxes, card.bonus_marks)
        if key in seen or card.bonus_marks > marks:
            return False
        seen.add(key)
        if card.turns_played == len(wanted):
            return card.bonus_marks == marks
        for box, points in wanted.items():
            if card.boxes[box] is not None:
                continue
            other = plain.get((box, points))
            for dice in (*_FIVES, *(() if other is None else (other,))):
                try:
                    new = fill(card, dice, box, rules=rules)
                except IllegalActionError:
                    continue
                if new.boxes[box] == points and search(new):
                    return True
        return False

    return search(Scorecard(card=rules.card))


def _accepted(wanted: dict[Any, int], marks: int, rules: Rules) -> bool:
    try:
        Turn(Scorecard(wanted, bonus_marks=marks, card=rules.card), rules=rules)
    except MalformedInputError:
        return False
    return True


def _small_cards(rules: Rules, count: int, seed: int) -> list[tuple[dict[Any, int], int]]:
    """``count`` small cards of the boxes the Joker and Forced Yahtzee look at, with
    values five equal dice or a Joker write there most of the time."""
    rng = random.Random(seed)
    card = rules.card
    members = card.members
    pool = [*card.yahtzees, *card.joker_first, *(box for box, _ in card.joker_values)]
    pool += [box for box in members if box.column == 0]
    fives = [{card.score(dice, box) for dice in _FIVES} for box in members]
    found = []
    for _ in range(count):
        if rules.in_order:
            chosen = list(members[: rng.randint(1, len(members) - 1)])
        else:
            chosen = list(dict.fromkeys(rng.sample(pool, rng.randint(1, 5))))
            if rng.random() < 0.6:
                chosen.extend(y for y in card.yahtzees if y not in chosen)
            if card.left_to_right:
                for box in list(chosen):
                    left = card.left_of(box)
                    while left is not None and left not in chosen:
                        chosen.append(left)
                        left = card.left_of(left)
            chosen = chosen[:7]
        wanted: dict[Any, int] = {}
        for box in chosen:
            fixed = dict(card.joker_values).get(box, 0)
            special = sorted(v for v in fives[box] | {0, fixed} if v in card.possible[box])
            values = special if rng.random() < 0.75 else sorted(card.possible[box])
            wanted[box] = rng.choice(values)
        if card.left_to_right and any(  # a row with a gap is refused box by box; skip it
            (left := card.left_of(b)) is not None and left not in wanted for b in wanted
        ):
            continue
        all_50 = bool(card.yahtzees) and all(wanted.get(y) == 50 for y in card.yahtzees)
        marks = rng.choice((0, 1, 1, 2, 3)) if all_50 and rules.yahtzee_bonus else 0
        found.append((wanted, marks))
    return found


def _check_against_replay(rules: Rules, count: int, seed: int) -> tuple[int, int]:
    plain = _plain_rolls(rules.card)
    seen = {True: 0, False: 0}
    for wanted, marks in _small_cards(rules, count, seed):
        expected = replay_reachable(wanted, marks, rules, plain)
        card_text = ",".join(f"{box.code}={points}" for box, points in wanted.items())
        assert _accepted(wanted, marks, rules) == expected, (str(rules), card_text, marks)
        seen[expected] += 1
    return seen[True], seen[False]


@pytest.mark.parametrize("rules", EVERY_RULES, ids=str)
def test_a_card_is_accepted_exactly_when_some_order_of_legal_fills_makes_it(rules: Rules) -> None:
    reachable, refused = _check_against_replay(rules, 80, 24)
    assert reachable > 0  # the comparison saw reachable cards
    # and refused ones, where a Joker or Forced Yahtzee makes some order matter
    assert refused > 0 or (rules.yahtzee_bonus == 0 and not rules.forced_yahtzee)


@pytest.mark.slow
@pytest.mark.parametrize("rules", EVERY_RULES, ids=str)
def test_many_cards_are_accepted_exactly_when_legal_fills_make_them(rules: Rules) -> None:
    _check_against_replay(rules, 1500, 2024)


_EVERY_CARD = tuple(Card.named(name) for name in Card.names(switched=True))
_STRATEGY_RULES = st.one_of(
    st.sampled_from(EVERY_RULES), yst.rules(cards=_EVERY_CARD, placements=True)
)


@settings(max_examples=300, deadline=None)
@given(_STRATEGY_RULES.flatmap(lambda r: st.tuples(st.just(r), yst.scorecards(rules=r))))
def test_every_card_the_strategies_play_is_accepted_under_its_rules(
    pair: tuple[Rules, Scorecard],
) -> None:
    rules, card = pair
    check_marks_allowed(card, rules)  # what every reader of a turn or game checks
    if not card.is_complete:
        turn = Turn(card, rules=rules)
        assert Turn.parse(str(turn)) == turn


# --- The cards of states legal play cannot reach, through every reader ---

UNREACHABLE = [
    # the forced Joker sends an extra Yahtzee to its open upper box first
    ("forced", "fh=25,y=50,+1", "Full House 25 from 11111: the forced Joker requires Aces"),
    ("forced", "ls=40,y=50,+1", "Large Straight 40 from 11111: the forced Joker requires Aces"),
    ("forced", "3k=15,y=50,+1", "Three of a Kind 15 from 33333: the forced Joker requires Threes"),
    # 0 in an upper box only once every lower box is filled
    ("forced", "2=0,y=50,+1", "Twos 0 from 11111: the forced Joker requires Aces"),
    ("kinds-first", "fh=25,y=50,+1", "the kinds-first Joker requires Aces"),
    # the free-choice Joker writes 25 in Full House only once the upper box is filled
    ("free-choice", "fh=25,y=50,+1", "the free-choice Joker writes 0 there"),
    ("triple", "fh.1=25,y.1=50,y.2=50,y.3=50,+1", "Full House \u00d71 25 from 11111"),
    # Forced Yahtzee: the first Yahtzee goes in its open upper box too
    ("forced-yahtzee", "y=50", "Yahtzee 50 from 11111: Forced Yahtzee requires Aces"),
    ("forced-yahtzee", "3k=30", "Three of a Kind 30 from 66666: Forced Yahtzee requires Sixes"),
]


def _unchecked_game(rules_text: str, card_text: str) -> Game:
    """A game of one player at ``card_text`` under ``rules_text``, built without the
    check of the rules (the card alone is valid), so that writers can write it."""
    rules = Rules.parse(rules_text)
    design = "" if rules.card is CLASSIC else f"{rules.card.name}:"
    card = Scorecard.parse(design + card_text)
    game = Game.parse(f"{rules_text} 0 Ann")
    object.__setattr__(game, "cards", (card,))  # the turn plays the game's card
    return game


@pytest.mark.parametrize(("rules_text", "card_text", "why"), UNREACHABLE)
def test_an_unreachable_card_is_refused_by_every_reader(
    rules_text: str, card_text: str, why: str, tmp_path: Path
) -> None:
    rules = Rules.parse(rules_text)
    game = _unchecked_game(rules_text, card_text)
    card = game.cards[0]
    rule = "no order of legal turns"
    readers: list[Callable[[], object]] = [
        lambda: Game.parse(f"{rules_text} 0 Ann {card_text} -"),
        lambda: Turn.parse(f"{rules_text} {card_text} -"),
        lambda: Turn(card, rules=rules),
        lambda: Game(["Ann"], rules=rules, cards=[card], first=0, current=0, turn=game.turn),
        lambda: from_notation(to_notation(game), Game),
        lambda: from_json(to_json(game), Game),
        lambda: GameRecord.parse(str(GameRecord.from_game(game))),
        lambda: GameRecord.from_share_code(GameRecord.from_game(game).share_code()),
    ]
    for read in readers:
        with pytest.raises(MalformedInputError, match=rule) as error:
            read()
        assert why in str(error.value)
    save = tmp_path / "game.json"
    record = str(GameRecord.from_game(game))
    save.write_text(
        json.dumps(
            {
                "format": "yahtzee-rules saved game",
                "version": 1,
                "computer_players": {},
                "record": record,
            }
        )
    )
    result = run("play", "--load", str(save), cwd=tmp_path)
    assert result.returncode == 2
    assert rule in result.stderr
    assert why in result.stderr
    assert "Traceback" not in result.stderr


def test_the_score_command_checks_its_card_against_the_rules() -> None:
    refused = run("score", "66666", "--card=fh=0,y=50,+1")
    assert refused.returncode == 2
    assert "score: --card fh=0,y=50,+1: " in refused.stderr
    assert "under the forced Joker only 0 filled boxes" in refused.stderr
    forced = run("score", "66666", "--rules", "forced-yahtzee", "--card=y=50")
    assert forced.returncode == 2
    assert "Forced Yahtzee requires Aces" in forced.stderr
    free = run("score", "66666", "--rules", "free-choice", "--card=fh=0,y=50,+1")
    assert free.returncode == 0, free.stderr  # 0 in Full House before Sixes: free choice


@settings(max_examples=60, deadline=None)
@given(yst.games(rules=_STRATEGY_RULES, max_players=2))
def test_every_game_the_strategies_play_is_read_back_on_every_ruleset(game: Game) -> None:
    assert Game.parse(str(game)) == game
    assert from_json(to_json(game), Game) == game
    assert GameRecord.from_share_code(GameRecord.from_game(game).share_code()).game == game
