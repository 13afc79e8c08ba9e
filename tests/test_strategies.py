"""The public Hypothesis strategies and their registration through the entry point."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from _records import rebuilt_game
from yahtzee_rules import Category, Dice, Game, GameRecord, Keep, Rules, Scorecard, Turn
from yahtzee_rules.testing import strategies as yst


@given(st.from_type(Dice), st.from_type(Keep), st.from_type(Category), st.from_type(Rules))
def test_from_type_gives_valid_values(
    dice: Dice, keep: Keep, category: Category, rules: Rules
) -> None:
    assert Dice(str(dice)) == dice
    assert Keep(str(keep)) == keep
    assert category in Category
    rebuilt = Rules(
        rules.joker,
        rules.upper_bonus,
        rules.upper_bonus_threshold,
        rules.yahtzee_bonus,
        card=rules.card,
        tie=rules.tie,
    )
    assert rebuilt == rules


@given(st.from_type(Scorecard), st.from_type(Turn))
def test_from_type_gives_reachable_cards_and_turns(card: Scorecard, turn: Turn) -> None:
    assert Scorecard(card.boxes, bonus_marks=card.bonus_marks) == card
    assert Turn(turn.card, rules=turn.rules, dice=turn.dice, rolls_used=turn.rolls_used) == turn


@given(yst.games(min_players=2, max_players=3, finished=False))
def test_unfinished_games_revalidate(game: Game) -> None:
    assert not game.is_over
    assert 2 <= len(game.players) <= 3
    assert rebuilt_game(game, game.turn) == game


@given(yst.scorecards(min_filled=3, max_filled=5))
def test_scorecards_respect_bounds(card: Scorecard) -> None:
    assert 3 <= card.turns_played <= 5


@pytest.mark.parametrize(
    ("factory", "kwargs"),
    [
        (yst.scorecards, {"min_filled": 5, "max_filled": 4}),
        (yst.scorecards, {"max_filled": 40}),  # more than the largest card (Triple: 39)
        (yst.scorecards, {"min_filled": 1.5}),
        (yst.scorecards, {"rules": "forced"}),
        (yst.games, {"min_players": 0}),
        (yst.games, {"finished": "yes"}),
        (yst.dice, {"yahtzee_weight": 2}),
        (yst.keeps, {"of": "12345"}),
        (yst.rules, {"jokers": ()}),
    ],
)
def test_bad_arguments_raise_invalid_argument(factory: Any, kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        factory(**kwargs).example()


def test_importing_the_library_does_not_import_hypothesis() -> None:
    code = "import sys, yahtzee_rules; print('hypothesis' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@given(st.from_type(GameRecord))
def test_records_replay_to_their_game(record: GameRecord) -> None:
    replayed = GameRecord(record.start, record.actions)
    assert replayed.game == record.game
    assert GameRecord.from_share_code(record.share_code()) == record


def test_every_registered_cards_boxes_have_the_hooks_strategy() -> None:
    # The entry-point hook registers each card's boxes from the card registry, so no card
    # (Yatzy's was once left out) can be forgotten.
    from hypothesis.strategies._internal.types import _global_type_lookup

    from yahtzee_rules import Card

    for name in Card.names(switched=True):
        assert Card.named(name).boxes in _global_type_lookup, name
