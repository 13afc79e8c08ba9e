"""Turns and games (clauses R1, R2, R8.2)."""

from __future__ import annotations

import random
import re
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from _records import rebuilt_game
from yahtzee_rules import (
    Category,
    Dice,
    Game,
    GameRecord,
    IllegalActionError,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    roll_off,
)
from yahtzee_rules.testing import strategies as yst

C = Category


def test_r2_3_filling_before_rolling_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="roll at least once before filling"):
        Turn().fill(C.CHANCE)
    with pytest.raises(IllegalActionError, match="roll at least once"):
        Game.new(1).fill(C.CHANCE)


def test_r2_2_keeping_dice_you_do_not_have_is_refused() -> None:
    turn = Turn().roll(outcome="13366")
    with pytest.raises(IllegalActionError, match="keep '333': the dice showing are 13366"):
        turn.roll(keep="333")
    with pytest.raises(IllegalActionError, match="nothing to hold before the first roll"):
        Turn().roll(keep="1")
    assert turn.dice == Dice("13366")
    assert turn.rolls_used == 1


@pytest.mark.parametrize(
    ("keep", "outcome", "message"),
    [
        ("33", "12", "2 faces for 3 thrown dice"),
        ("", "1234", "4 faces for 5 thrown dice"),
        ("33", "127", "face 7 is outside 1-6"),
        ("33", [1, 2, 2.0], "float"),
        ("3366", "", "0 faces for 1 thrown die"),
    ],
)
def test_bad_outcomes_are_refused(keep: str, outcome: Any, message: str) -> None:
    turn = Turn().roll(outcome="13366")
    with pytest.raises(MalformedInputError, match=message):
        turn.roll(keep=keep, outcome=outcome)


def test_holding_all_five_dice_still_uses_a_roll() -> None:
    turn = Turn().roll(outcome="13366").roll(keep="13366")
    assert (turn.dice, turn.rolls_left) == (Dice("13366"), 1)


def test_a_turn_on_a_complete_card_is_refused() -> None:
    card = Scorecard(dict.fromkeys(Category, 0) | {Category.CHANCE: 5})
    with pytest.raises(MalformedInputError, match="the card is complete"):
        Turn(card)


def test_bonus_marks_need_a_yahtzee_bonus_in_the_rules() -> None:
    card = Scorecard({C.YAHTZEE: 50, C.FOURS: 20}, bonus_marks=1)
    no_bonus = Rules(yahtzee_bonus=0)
    with pytest.raises(MalformedInputError, match="yahtzee_bonus=0"):
        Turn(card, rules=no_bonus)
    with pytest.raises(MalformedInputError, match="yahtzee_bonus=0"):
        Game(("Ann",), rules=no_bonus, cards=(card,), first=0, current=0, turn=Turn(card))
    assert Turn(card).card == card


def test_inconsistent_turns_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="rolls_used 4"):
        Turn(dice="12345", rolls_used=4)
    with pytest.raises(MalformedInputError, match="exactly when it has rolled"):
        Turn(dice="12345", rolls_used=0)
    with pytest.raises(MalformedInputError, match="exactly when it has rolled"):
        Turn(rolls_used=2)


@given(yst.turns(), st.randoms(use_true_random=False))
def test_rolling_never_changes_the_card_and_keeps_what_was_held(
    turn: Turn, rng: random.Random
) -> None:
    if turn.rolls_left == 0:
        assert not turn.can_roll()
        return
    keep = Keep() if turn.dice is None else rng.choice(turn.dice.keeps())
    after = turn.roll(rng, keep=keep)
    assert after.card is turn.card
    assert after.rolls_used == turn.rolls_used + 1
    assert after.dice is not None
    assert keep.issubset(after.dice)


@given(
    yst.games(finished=False, max_players=3, rules=yst.rules()), st.randoms(use_true_random=False)
)
def test_a_game_plays_its_turn_as_the_turn_plays_itself(game: Game, rng: random.Random) -> None:
    # a game keeps only its turn's dice and rolls used; the Turn it gives, and every
    # roll and fill after it, must be the ones the turn itself plays
    turn = game.turn
    assert turn is not None
    assert turn.card == game.cards[game.current]
    assert turn.rules == game.rules
    assert (game.dice, game.rolls_left) == (turn.dice, turn.rolls_left)
    rebuilt = rebuilt_game(game, turn)
    assert rebuilt == game
    assert hash(rebuilt) == hash(game)
    assert attrs.evolve(game) == game
    while turn.rolls_left:
        keep = Keep() if turn.dice is None else rng.choice(turn.dice.keeps())
        state = rng.getstate()
        rolled = game.roll(rng, keep=keep)
        rng.setstate(state)
        assert game.roll(rng, keep=keep) == rolled  # the same draws, an equal game
        rng.setstate(state)
        game, turn = rolled, turn.roll(rng, keep=keep)
        assert game.turn == turn
        assert dict(game.options) == dict(turn.options)
        if rng.random() < 0.3:
            break
    box = rng.choice(tuple(turn.options))
    card = turn.fill(box)
    after = game.fill(box)
    assert after.cards[game.current] == card
    assert after.turn is None or after.turn == Turn(after.cards[after.current], rules=game.rules)


@given(yst.games(finished=True, max_players=3))
def test_r1_2_finished_games_have_13_turns_each_and_a_result(game: Game) -> None:
    assert game.is_over
    assert game.turn is None
    assert game.rolls_left == 0
    assert all(card.is_complete for card in game.cards)
    result = game.result
    totals = [game.player_totals(seat).grand_total for seat in range(len(game.players))]
    assert {s.player for s in result.standings} == set(game.players)
    assert [s.total for s in result.standings] == sorted(totals, reverse=True)
    top = max(totals)
    assert set(result.winners) == {p for p, t in zip(game.players, totals, strict=True) if t == top}
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.roll()
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.fill(C.CHANCE)


def test_r8_2_ties_share_the_win_and_the_rank() -> None:
    game = Game.new(["Ann", "Bob", "Cy"])
    for _ in range(13):
        for outcome in ("12345", "12345", "12346"):  # Ann and Bob play alike; Cy worse
            game = game.roll(outcome=outcome)
            game = game.fill(max(game.options, key=game.options.__getitem__))
    result = game.result
    assert result.winners == ("Ann", "Bob")
    assert result.is_tie
    assert [(s.rank, s.player) for s in result.standings] == [(1, "Ann"), (1, "Bob"), (3, "Cy")]
    assert result.standings[0].total == result.standings[1].total > result.standings[2].total


@given(st.integers(1, 6), st.integers(0, 5), st.randoms(use_true_random=False))
def test_r1_4_play_passes_in_seat_order_from_the_starter(
    players: int, first: int, rng: random.Random
) -> None:
    first %= players
    game = Game.new(players, first=first)
    seen = []
    for _ in range(2 * players):
        seen.append(game.current)
        game = game.roll(rng)
        game = game.fill(rng.choice(tuple(game.options)))
    assert seen == [(first + i) % players for i in range(2 * players)]


def test_a_game_with_no_players_is_refused() -> None:
    with pytest.raises(MalformedInputError, match="at least one player"):
        Game.new([])
    with pytest.raises(MalformedInputError, match="at least one player"):
        Game.new(0)
    with pytest.raises(MalformedInputError, match="'Ann' appears twice"):
        Game.new(["Ann", "Ann"])
    with pytest.raises(MalformedInputError, match="first 2: not a seat"):
        Game.new(["Ann", "Bob"], first=2)


def test_many_players_have_no_built_in_limit() -> None:
    game = Game.new(40)
    assert len(game.players) == 40
    assert game.current_player == "Player 1"


def test_r1_3_roll_off_ties_roll_again_among_themselves() -> None:
    off = roll_off(["Ann", "Bob", "Cy"], outcomes=["66655", "11111", "66655", "12345", "22345"])
    assert [seat for seat, _ in off.rounds[0]] == [0, 1, 2]
    assert [seat for seat, _ in off.rounds[1]] == [0, 2]
    assert off.starter == 2
    with pytest.raises(MalformedInputError, match="ran out"):
        roll_off(2, outcomes=["12345", "12345"])


@given(st.integers(1, 8), st.randoms(use_true_random=False))
def test_roll_off_always_ends_with_a_single_highest_total(players: int, rng: random.Random) -> None:
    off = roll_off(players, rng)
    last = off.rounds[-1]
    best = max(d.total for _, d in last)
    assert [seat for seat, d in last if d.total == best] == [off.starter]


def test_forged_game_states_are_refused() -> None:
    game = Game.new(["Ann", "Bob"]).roll(outcome="12345").fill(C.CHANCE)
    with pytest.raises(MalformedInputError, match="turn order"):
        attrs.evolve(game, current=0)
    with pytest.raises(MalformedInputError, match="one card per player"):
        attrs.evolve(game, cards=game.cards[:1])
    with pytest.raises(MalformedInputError, match="card or rules differ"):
        attrs.evolve(game, turn=Turn(game.cards[0]))
    with pytest.raises(MalformedInputError, match="not a Turn"):  # a bad progress pair
        attrs.evolve(game, turn=(None,))  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="rolls_used"):
        attrs.evolve(game, turn=(None, 1))  # type: ignore[arg-type]
    assert rebuilt_game(game, game.turn) == game


def test_game_information_needs_no_arithmetic_in_the_caller() -> None:
    card = Scorecard({C.YAHTZEE: 50})
    game = Game(("Ann",), rules=Rules(), cards=(card,), first=0, current=0, turn=Turn(card))
    game = game.roll(outcome="44444")
    assert game.forced_category is C.FOURS
    assert dict(game.options) == {C.FOURS: 20}
    assert game.box_options()[C.FOURS].bonus == 100
    assert game.rolls_left == 2
    assert game.round == 2
    assert game.player_totals(game.current).upper_bonus_needed == 63


@pytest.mark.parametrize(
    ("rules", "suggestion"),
    [
        ("yatzy", "use Rules.from_name('yatzy')"),
        ("free-choice,yb=0", "use Rules.parse('free-choice,yb=0')"),
        (3, "Rules.from_name('yatzy') (Rules.names() lists them)"),
    ],
)
def test_rules_given_as_text_name_the_call_that_reads_them(rules: object, suggestion: str) -> None:
    # Game.new(["Ann"], rules="yatzy") is the first thing a Yatzy developer tries.
    for start in (Game.new, GameRecord.new):
        with pytest.raises(MalformedInputError, match=re.escape(suggestion)):
            start(["Ann"], rules=rules)  # type: ignore[arg-type]


class _Generator(random.Random):
    """A generator of another class: its rolls take the general path's checks."""


@given(st.integers(0, 2**32), st.sampled_from(Rules.names()))
def test_the_usual_roll_throws_what_every_other_spelling_of_it_throws(seed: int, name: str) -> None:
    # A Keep and a random.Random are checked on a shorter path; the same roll spelled as
    # text, or thrown by a subclass of random.Random, takes the full checks: same dice.
    usual, spelled, other = random.Random(seed), random.Random(seed), _Generator(seed)
    game = Game.new(2, rules=Rules.from_name(name))
    while not game.is_over:
        for throw in range(3):
            dice = game.dice
            keep = None if dice is None else usual.choice(dice.keeps())
            if dice is not None:
                spelled.choice(dice.keeps())
                other.choice(dice.keeps())
            via_text = game.roll(spelled, keep=None if keep is None else str(keep))
            via_other = game.roll(other, keep=keep)
            game = game.roll(usual, keep=keep)
            assert game == via_text == via_other, throw
        boxes = tuple(game.options)
        spelled.choice(boxes)
        other.choice(boxes)
        game = game.fill(usual.choice(boxes))
