"""One API style: keyword-only rules, evolve on every value, one answer per question."""

from __future__ import annotations

import inspect
import random
import re
from fractions import Fraction
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import yahtzee_rules
from yahtzee_rules import (
    CLASSIC,
    YACHT,
    BoxOption,
    Card,
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    GreedyStrategy,
    JokerRule,
    Keep,
    MalformedInputError,
    Match,
    MatchStanding,
    RandomStrategy,
    Result,
    Roll,
    RollOff,
    Rules,
    RulesError,
    Scorecard,
    SimulationResult,
    Standing,
    Totals,
    Turn,
    YachtBox,
    roll_off,
    totals,
)
from yahtzee_rules.apps.cli import score_table
from yahtzee_rules.bots import solver
from yahtzee_rules.testing import strategies as yst

C = Category
LATE = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})

# --- keyword-only rules -------------------------------------------------------------


def test_turn_takes_only_its_card_by_position() -> None:
    card = Scorecard({C.ACES: 3})
    assert Turn(card).card == card
    turn = Turn(card, rules=Rules(joker="none"), dice="12345", rolls_used=2)
    assert (turn.rules.joker, turn.dice, turn.rolls_used) == (JokerRule.NONE, Dice("12345"), 2)
    assert Turn(dice="12345", rolls_used=2).can_roll()
    with pytest.raises(TypeError):
        Turn(card, Rules())  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Turn(card, Rules(), Dice("12345"), 1)  # type: ignore[call-arg]


def test_game_takes_only_its_players_by_position() -> None:
    game = Game.new(["Ann", "Bob"])
    rebuilt = Game(
        ["Ann", "Bob"],
        rules=Rules(),
        cards=game.cards,
        first=0,
        current=0,
        turn=game.turn,
    )
    assert rebuilt == game
    assert eval(repr(rebuilt), vars(yahtzee_rules)) == game
    with pytest.raises(TypeError):
        Game(game.players, Rules(), game.cards, 0, 0, game.turn)  # type: ignore[call-arg]


def test_tables_and_score_tables_take_rules_by_keyword() -> None:
    values = solver.build_table(start=LATE).values
    table = solver.Table(values, rules=Rules(), start=LATE)
    assert table.rules == Rules()
    assert table.start == LATE
    with pytest.raises(TypeError):
        solver.Table(Rules(), values, LATE)  # type: ignore[arg-type, call-arg]
    assert score_table(Dice("12345"), Scorecard()) == score_table(
        Dice("12345"), Scorecard(), rules=Rules()
    )
    with pytest.raises(TypeError):
        score_table(Dice("12345"), Scorecard(), Rules())  # type: ignore[call-arg]


# --- verify_roll answers the same for a turn and a game -----------------------------


@given(yst.games(finished=False), st.randoms(use_true_random=False))
def test_game_and_turn_verify_roll_return_the_same_keep(game: Game, rng: random.Random) -> None:
    turn = game.turn
    assert turn is not None
    keeps: list[Any] = [None, ""]
    if turn.dice is not None:
        keeps += [rng.choice(turn.dice.keeps()), str(rng.choice(turn.dice.keeps()))]
    for keep in keeps:
        if turn.can_roll(keep):
            held = turn.verify_roll(keep)
            assert isinstance(held, Keep)
            assert game.verify_roll(keep) == held
        else:
            assert not game.can_roll(keep)


def test_verify_roll_returns_the_keep_it_would_hold() -> None:
    game = Game.new(1).roll(outcome="13366")
    assert game.verify_roll("636") == Keep("366")
    assert game.turn is not None
    assert game.turn.verify_roll("636") == Keep("366")
    assert Game.new(1).verify_roll() == Keep()


# --- Rules.from_name(rules.name) round-trips ----------------------------------------

_POINTS = st.integers(min_value=0, max_value=10**9 - 1)


@st.composite
def all_rules(draw: st.DrawFn) -> Rules:
    card = draw(st.sampled_from([CLASSIC, YACHT]))
    if card.yahtzee is None:
        joker, yahtzee_bonus = JokerRule.NONE, 0
    else:
        joker, yahtzee_bonus = draw(st.sampled_from(JokerRule)), draw(_POINTS)
    return Rules(
        joker=joker,
        upper_bonus=draw(_POINTS),
        upper_bonus_threshold=draw(_POINTS),
        yahtzee_bonus=yahtzee_bonus,
        card=card,
    )


@given(all_rules())
def test_every_ruleset_round_trips_through_its_name(rules: Rules) -> None:
    assert Rules.from_name(rules.name) == rules


@pytest.mark.parametrize("name", Rules.names())
def test_every_named_ruleset_keeps_its_name(name: str) -> None:
    rules = Rules.from_name(name)
    assert Rules.from_name(rules.name) == rules


# --- attrs.evolve on every public value ---------------------------------------------

_GAME = Game.new(["Ann", "Bob"])
_TURN = Turn(card=LATE, dice="12266", rolls_used=1)
_OPTION = solver.Option(Keep("66"), 24.75)
_TOTALS = totals(Scorecard({C.ACES: 3}))

# (value, a valid change, the value it must equal, an invalid change or None when
# the class holds plain results and validates nothing)
_DECISION = solver.Decision(
    "Ann", 1, 1, Dice("12345"), Keep(""), 200.0, Keep("1234"), 202.0, (), 31
)

EVOLVE_CASES: dict[type, tuple[Any, dict[str, Any], Any, dict[str, Any] | None]] = {
    Dice: (Dice("12345"), {"faces": "66666"}, Dice("66666"), {"faces": (7, 6, 6, 6, 6)}),
    Keep: (Keep("12"), {"faces": "6"}, Keep("6"), {"faces": "1234566"}),
    Scorecard: (
        Scorecard({C.YAHTZEE: 50, C.FOURS: 20}),
        {"bonus_marks": 1},
        Scorecard({C.YAHTZEE: 50, C.FOURS: 20}, bonus_marks=1),
        {"bonus_marks": 2},
    ),
    Rules: (Rules(), {"joker": "none"}, Rules(joker=JokerRule.NONE), {"upper_bonus": -1}),
    Turn: (
        Turn(),
        {"dice": "12345", "rolls_used": 1},
        Turn(dice=Dice("12345"), rolls_used=1),
        {"rolls_used": 1},
    ),
    Game: (
        _GAME,
        {"first": 1, "current": 1},
        Game.new(["Ann", "Bob"], first=1),
        {"first": 1},
    ),
    GameRecord: (
        GameRecord.new(1),
        {"actions": (Roll("12345"),)},
        GameRecord.new(1).roll(outcome="12345"),
        {"actions": (Fill(C.ACES),)},
    ),
    Match: (
        Match.new(["Ann", "Bob"]),
        {"best_of": 5},
        Match.new(["Ann", "Bob"], best_of=5),
        {"best_of": 4},
    ),
    MatchStanding: (
        MatchStanding(1, "Ann", 0, Fraction(1)),
        {"wins": Fraction(3, 2)},
        MatchStanding(1, "Ann", 0, Fraction(3, 2)),
        None,
    ),
    Roll: (
        Roll("2456", keep="2"),
        {"keep": "3"},
        Roll("2456", keep="3"),
        {"keep": "12"},
    ),
    Fill: (Fill(C.ACES), {"category": C.TWOS}, Fill(C.TWOS), {"category": "nope"}),
    Card: (
        CLASSIC,
        {"title": "Classic (house)"},
        Card(
            name="classic",
            title="Classic (house)",
            boxes=Category,
            scorer=CLASSIC.scorer,
            yahtzee=C.YAHTZEE,
            joker_values=CLASSIC.joker_values,
        ),
        {"yahtzee": YachtBox.YACHT},
    ),
    BoxOption: (
        BoxOption(C.ACES, 3, None),
        {"points": 4},
        BoxOption(C.ACES, 4, None),
        None,
    ),
    Totals: (_TOTALS, {"grand_total": 4}, attrs.evolve(_TOTALS, grand_total=4), None),
    Standing: (
        Standing(1, "Ann", 0, 200),
        {"total": 210},
        Standing(1, "Ann", 0, 210),
        None,
    ),
    Result: (
        Result((Standing(1, "Ann", 0, 200),), ("Ann",)),
        {"winners": ()},
        Result((Standing(1, "Ann", 0, 200),), ()),
        None,
    ),
    RollOff: (
        RollOff((((0, Dice("12345")),),), 0),
        {"starter": 1},
        RollOff((((0, Dice("12345")),),), 1),
        None,
    ),
    SimulationResult: (
        SimulationResult.from_scores([200, 250]),
        {"seconds": 1.5},
        SimulationResult.from_scores([200, 250], seconds=1.5),
        None,
    ),
    RandomStrategy: (RandomStrategy(), {}, RandomStrategy(), None),
    GreedyStrategy: (GreedyStrategy(), {}, GreedyStrategy(), None),
    solver.Option: (_OPTION, {"expected": 25.0}, solver.Option(Keep("66"), 25.0), None),
    solver.Advice: (
        solver.Advice(_TURN, (_OPTION,)),
        {"options": ()},
        solver.Advice(_TURN, ()),
        None,
    ),
    solver.RollLuck: (
        solver.RollLuck("Ann", 1, 1, Dice("12345"), 200.0, 201.5),
        {"after": 199.0},
        solver.RollLuck("Ann", 1, 1, Dice("12345"), 200.0, 199.0),
        None,
    ),
    solver.Decision: (
        _DECISION,
        {"expected": 201.0},
        solver.Decision("Ann", 1, 1, Dice("12345"), Keep(""), 201.0, Keep("1234"), 202.0, (), 31),
        None,
    ),
    solver.PlayerReview: (
        solver.PlayerReview("Ann", 254.5, 200.0, (_DECISION,), ()),
        {"end": 210.0},
        solver.PlayerReview("Ann", 254.5, 210.0, (_DECISION,), ()),
        None,
    ),
    solver.Review: (
        solver.Review(Rules(), ()),
        {"players": (solver.PlayerReview("Ann", 254.5, 200.0, (), ()),)},
        solver.Review(Rules(), (solver.PlayerReview("Ann", 254.5, 200.0, (), ()),)),
        None,
    ),
    solver.ScoreDistribution: (
        solver.ScoreDistribution([0.5, 0.5]),
        {"probabilities": (0.25, 0.75)},
        solver.ScoreDistribution([0.25, 0.75]),
        {"probabilities": (0.25, 0.5)},
    ),
}


def _public_attrs_classes() -> set[type]:
    found = set()
    for module in (yahtzee_rules, solver):
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, type) and attrs.has(value):
                found.add(value)
    return found


def test_every_public_attrs_class_has_an_evolve_case() -> None:
    assert _public_attrs_classes() == set(EVOLVE_CASES)


@pytest.mark.parametrize("cls", list(EVOLVE_CASES), ids=lambda cls: cls.__qualname__)
def test_evolve_builds_a_valid_value(cls: type) -> None:
    value, changes, expected, _ = EVOLVE_CASES[cls]
    evolved: Any = attrs.evolve(value, **changes)
    assert type(evolved) is cls
    assert _same(evolved, expected)
    assert _same(attrs.evolve(evolved), evolved)  # type: ignore[misc]


def _same(first: Any, second: Any) -> bool:
    """Equal values; a Card is a design compared by identity, so compare its fields."""
    if isinstance(first, Card):
        fields = [field.name for field in attrs.fields(Card) if field.init]
        return all(getattr(first, name) == getattr(second, name) for name in fields)
    return bool(first == second)


_VALIDATING = [cls for cls, case in EVOLVE_CASES.items() if case[3] is not None]


@pytest.mark.parametrize("cls", _VALIDATING, ids=lambda cls: cls.__qualname__)
def test_evolve_validates_like_the_constructor(cls: type) -> None:
    value, _, _, bad = EVOLVE_CASES[cls]
    assert bad is not None
    with pytest.raises(RulesError):
        attrs.evolve(value, **bad)


def test_evolving_a_game_checks_every_field_together() -> None:
    game = Game.new(["Ann", "Bob"]).roll(outcome="12345")
    with pytest.raises(MalformedInputError, match="card or rules differ"):
        attrs.evolve(game, turn=Turn(rules=Rules(joker="none")))
    with pytest.raises(MalformedInputError, match="turn order"):
        attrs.evolve(game, current=1)
    with pytest.raises(MalformedInputError, match="not a Turn"):
        attrs.evolve(game, turn=None)
    with pytest.raises(MalformedInputError, match="Yatzy"):  # a Classic card, Yatzy's rules
        attrs.evolve(game, rules=Rules.from_name("yatzy"))
    assert attrs.evolve(game, players=("Cy", "Di")).players == ("Cy", "Di")
    assert attrs.evolve(game, turn=Turn()).dice is None
    # the turn so far (its dice and rolls) carries over to the game's new rules and cards
    other = attrs.evolve(game, rules=Rules(joker="none"))
    assert other.turn == Turn(rules=Rules(joker="none"), dice=Dice("12345"), rolls_used=1)
    assert other.options == Game.new(2, rules=Rules(joker="none")).roll(outcome="12345").options


# --- rng or outcome, never both -----------------------------------------------------

_BOTH = "give rng or outcome, not both"


def test_rolling_with_both_rng_and_outcome_is_refused() -> None:
    rng = random.Random(1)
    with pytest.raises(MalformedInputError, match=_BOTH):
        Turn().roll(rng, outcome="12345")
    with pytest.raises(MalformedInputError, match=_BOTH):
        Turn().roll(rng, keep="", outcome=Dice("12345"))
    with pytest.raises(MalformedInputError, match=_BOTH):
        Game.new(1).roll(rng, outcome="12345")
    with pytest.raises(MalformedInputError, match=_BOTH):
        GameRecord.new(1).roll(rng, outcome="12345")
    with pytest.raises(MalformedInputError, match="give rng or outcomes, not both"):
        roll_off(2, rng, outcomes=["12345", "66666"])
    assert Turn().roll(None, outcome="12345").dice == Dice("12345")
    assert Game.new(1).roll(rng).dice is not None


def test_box_options_docstring_lists_every_attribute_a_caller_reads() -> None:
    # A game developer reads BoxOption's docstring to learn what an option has.
    doc = inspect.getdoc(BoxOption) or ""
    section = doc.split("Attributes:", 1)[1].split("Examples:", 1)[0]
    listed = set(re.findall(r"^    (\w+):", section, re.M))
    fields = {field.name for field in attrs.fields(BoxOption)}
    properties = {name for name, value in vars(BoxOption).items() if isinstance(value, property)}
    assert listed == fields | properties
