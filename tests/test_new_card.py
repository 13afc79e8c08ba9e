"""Adding a card is one module: the walkthrough of decision record 0017, as a test.

A small card is written as a module of its own in a temporary directory, registered
by the one call it ends with, and then played, saved and loaded (notation, JSON, a
share code), drawn by Hypothesis and solved, with no other file touched. The card is
unregistered afterwards, so the other tests see the shipped cards only.
"""

from __future__ import annotations

import importlib
import random
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    Card,
    Dice,
    Game,
    GameRecord,
    MalformedInputError,
    Match,
    Rules,
    Scorecard,
    Turn,
    from_json,
    from_notation,
    to_json,
    to_notation,
    totals,
)
from yahtzee_rules.core.boxes import register_card, registered, unregister_card
from yahtzee_rules.testing import strategies as yst

# The whole card: its boxes, its scorer, and its registration with its named rulesets.
MODULE = '''
"""Mini: the six upper boxes, One Pair and Chance; a 35-point bonus at 63, no Joker."""

from yahtzee_rules.core.boxes import Box, Card, describe_boxes, register_card


class MiniBox(Box):
    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    PAIR = 6
    CHANCE = 7


describe_boxes(
    MiniBox,
    ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "One Pair", "Chance"),
    ("1", "2", "3", "4", "5", "6", "p", "c"),
    faces=(1, 2, 3, 4, 5, 6, None, None),
)


def mini_scores(faces):
    pairs = [face for face in range(6, 0, -1) if faces.count(face) >= 2]
    return (
        *(face * faces.count(face) for face in range(1, 7)),
        2 * pairs[0] if pairs else 0,
        sum(faces),
    )


MINI = register_card(
    Card(name="mini", title="Mini", boxes=MiniBox, scorer=mini_scores),
    rulesets={
        "mini": (
            "Mini: six upper boxes, One Pair and Chance, 35-point upper bonus at 63",
            {"joker": "none", "yahtzee_bonus": 0},
        ),
        "mini-in-order": (
            "Mini with the boxes filled in card order",
            {"joker": "none", "yahtzee_bonus": 0, "in_order": True},
        ),
    },
)
'''


@pytest.fixture
def mini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The card module, imported from a temporary directory; unregistered afterwards."""
    (tmp_path / "mini_card.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = (Card.names(switched=True), Rules.names())
    module = importlib.import_module("mini_card")
    try:
        yield module
    finally:
        unregister_card(module.MINI)
        sys.modules.pop("mini_card", None)
        assert (Card.names(switched=True), Rules.names()) == before


def _play(rules: Rules, seed: int) -> GameRecord:
    """A whole two-player game: roll once, fill the first box the rules allow."""
    rng = random.Random(seed)
    record = GameRecord.new(["Ann", "Bob"], rules=rules)
    while not record.game.is_over:
        record = record.roll(rng)
        turn = record.game.turn
        assert turn is not None
        record = record.fill(next(iter(turn.options)))
    return record


def test_one_registration_makes_the_card_and_its_rulesets_known(mini: Any) -> None:
    card = mini.MINI
    assert Card.named("mini") is card
    assert card.is_registered
    assert Card.names()[-1] == "mini"
    assert Rules.names()[-2:] == ("mini", "mini-in-order")
    usual = Rules.from_name("mini")
    assert usual.card is card
    assert Rules.for_card(card) == usual
    assert Rules.describe("mini").startswith("Mini: six upper boxes")
    assert Rules.from_name("mini-in-order").in_order
    assert Rules.from_name("mini, upper_bonus=50").upper_bonus == 50
    assert repr(usual) == "Rules.from_name('mini')"
    assert str(usual) == "mini"
    assert Rules.parse("mini,ub=10").upper_bonus == 10


def test_the_card_plays_saves_and_loads(mini: Any) -> None:
    card = mini.MINI
    rules = Rules.for_card(card)
    # rules left out are the card's own
    assert Turn(Scorecard(card=card)).rules == rules
    record = _play(rules, seed=1)
    game = record.game
    assert game.is_over
    assert len(record.actions) == 2 * 2 * len(card)
    for player in game.players:
        assert game.player_totals(player) == totals(game.cards[game.players.index(player)])
    # notation
    assert from_notation(to_notation(record), GameRecord) == record
    assert from_notation(to_notation(game), Game) == game
    assert from_notation(to_notation(game.cards[0]), Scorecard) == game.cards[0]
    assert from_notation(to_notation(rules), Rules) == rules
    # JSON
    assert from_json(to_json(record), GameRecord) == record
    assert from_json(to_json(game.cards[1]), Scorecard) == game.cards[1]
    assert from_json(to_json(Rules.from_name("mini-in-order")), Rules).in_order
    # a share code, and a match
    assert GameRecord.from_share_code(record.share_code()) == record
    match = Match.new(2, best_of=1, rules=rules)
    assert from_json(to_json(match), Match) == match
    assert to_notation(match).startswith("bo1 mini 0 ")


def test_hypothesis_draws_its_values(mini: Any) -> None:
    card = mini.MINI
    rules = Rules.for_card(card)

    @settings(max_examples=25, deadline=None)
    @given(
        st.from_type(card.boxes),
        yst.categories(card=card),
        yst.scorecards(rules=rules),
        yst.games(rules=rules, max_players=2),
        yst.records(rules=rules, max_players=2),
    )
    def check(box: Any, other: Any, scorecard: Scorecard, game: Game, record: GameRecord) -> None:
        assert isinstance(box, card.boxes)
        assert isinstance(other, card.boxes)
        assert scorecard.card is card
        assert game.rules == rules
        assert from_notation(to_notation(record), GameRecord) == record
        assert from_json(to_json(game), Game) == game

    check()


def test_the_solver_solves_it(mini: Any) -> None:
    solver = pytest.importorskip("yahtzee_rules.bots.solver")
    card = mini.MINI
    rules = Rules.for_card(card)
    table = solver.build_table(rules=rules)
    empty = Scorecard(card=card)
    best = table.expected_final(empty)
    # at least what filling the first open box every turn scores on average
    played = [_play(rules, seed).game for seed in range(20)]
    greedy = sum(g.player_totals(p).grand_total for g in played for p in g.players) / 40
    assert greedy < best < 8 * 30 + 35
    # with only Chance open (and no bonus in reach), the value of one Chance turn
    only_chance = Scorecard({box: 0 for box in card if box is not card.boxes.CHANCE})
    assert round(table.expected_final(only_chance), 4) == 23.3333
    advice = solver.advise(Turn(only_chance).roll(outcome="12266"), table)
    assert str(advice.best.action) == "66"
    assert advice.best.expected == 24.75


def test_the_registry_refuses_a_taken_name_and_forgets_a_card_for_good(mini: Any) -> None:
    card = mini.MINI
    other = Card(name="mini", title="Other", boxes=card.boxes, scorer=card.scorer)
    with pytest.raises(ValueError, match="registered already"):
        register_card(other)
    plain = Card(name="plain", title="Plain", boxes=card.boxes, scorer=card.scorer)
    with pytest.raises(ValueError, match="'mini-in-order': a ruleset or card of that name"):
        register_card(plain, rulesets={"mini-in-order": (None, {})})
    with pytest.raises(ValueError, match="neither a Joker nor a Yahtzee bonus"):
        register_card(plain, rulesets={"plain": (None, {})})  # no five-of-a-kind box
    assert not plain.is_registered
    with registered(plain):
        assert Rules.from_name("plain") == Rules.for_card(plain)
        assert Rules.describe("plain").startswith("Plain card (8 boxes), no Joker")
    assert not plain.is_registered
    with pytest.raises(MalformedInputError, match="no such ruleset"):
        Rules.from_name("plain")
    with pytest.raises(ValueError, match="ships stays registered"):
        unregister_card(Card.named("yatzy"))


class _Unhashable:
    """A scorer object that cannot be hashed (it defines ``__eq__`` only)."""

    def __init__(self, scorer: Any) -> None:
        self.scorer = scorer

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unhashable) and other.scorer is self.scorer

    __hash__ = None  # type: ignore[assignment]

    def __call__(self, faces: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(self.scorer(faces))


def test_a_scorer_is_read_once_for_every_card_that_shares_it(mini: Any) -> None:
    card = mini.MINI
    twin = Card(name="twin", title="Twin", boxes=card.boxes, scorer=card.scorer)
    assert twin.table is card.table  # one scorer, one set of rows
    assert list(twin.table) == [tuple(card.scorer(d.faces)) for d in Dice.all()]
    unhashable = Card(name="odd", title="Odd", boxes=card.boxes, scorer=_Unhashable(card.scorer))
    assert unhashable.table == card.table
    assert unhashable.table is not card.table  # worked out again: no key to share it by


@pytest.mark.parametrize("wrap", [lambda f: f, _Unhashable])
def test_a_scorer_that_gives_too_few_points_is_refused(mini: Any, wrap: Any) -> None:
    def short(faces: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(mini.mini_scores(faces))[:-1]

    with pytest.raises(MalformedInputError, match="the scorer must give one value per box"):
        Card(name="short", title="Short", boxes=mini.MiniBox, scorer=wrap(short))
