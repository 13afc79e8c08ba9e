"""Values stay values: constructors read bounded input, keep no caller's list, and cannot be re-initialised."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from yahtzee_rules import (
    Dice,
    Keep,
    MalformedInputError,
    Result,
    Roll,
    RollOff,
    Scorecard,
    SimulationResult,
    Standing,
)


def _guarded(limit: int) -> Iterator[int]:
    """Faces 1, 2, ... 6, 1, ...; reading more than ``limit`` of them fails the test."""
    for count, face in enumerate(itertools.cycle(range(1, 7))):
        if count >= limit:
            pytest.fail(f"the constructor read more than {limit} items")
        yield face


@pytest.mark.parametrize(
    ("build", "limit"),
    [
        (Dice, 6),
        (Keep, 6),
        (Roll, 6),
        (lambda faces: Roll("1", keep=faces), 6),
        (Scorecard, 14),
    ],
    ids=["dice", "keep", "roll outcome", "roll keep", "scorecard"],
)
def test_an_endless_iterator_is_refused_after_one_item_too_many(
    build: Callable[[object], object], limit: int
) -> None:
    with pytest.raises(MalformedInputError, match=f"more than {limit - 1}"):
        build(itertools.count(1))
    with pytest.raises(MalformedInputError, match=f"more than {limit - 1}"):
        build(_guarded(limit))


def test_a_long_list_still_reports_its_length() -> None:
    with pytest.raises(MalformedInputError, match="7 faces given"):
        Dice([1] * 7)
    with pytest.raises(MalformedInputError, match="15 values given"):
        Scorecard([None] * 15)
    assert Dice(iter([1, 2, 3, 4, 5])) == Dice("12345")
    assert Scorecard(iter([None] * 13)) == Scorecard()


def test_results_keep_no_list_of_the_caller() -> None:
    ann, bob = Standing(1, "Ann", 0, 200), Standing(2, "Bob", 1, 150)
    standings, winners, play_off = [ann, bob], ["Ann"], ["Ann", "Bob"]
    result = Result(standings, winners, play_off)
    standings.clear()
    winners.append("Bob")
    play_off.pop()
    assert result == Result((ann, bob), ("Ann",), ("Ann", "Bob"))
    assert isinstance(hash(result), int)

    throw = [0, Dice("12345")]
    first_round = [throw, (1, Dice("66666"))]
    rounds = [first_round]
    off = RollOff(rounds, starter=1)  # type: ignore[arg-type]
    throw.append(9)
    first_round.append((2, Dice("11111")))
    rounds.append([])
    assert off == RollOff((((0, Dice("12345")), (1, Dice("66666"))),), starter=1)
    assert isinstance(hash(off), int)

    scores, wins = [200, 300], [1.0, 1.0]
    simulated = SimulationResult(games=2, players=1, scores=scores, wins=wins, seconds=0.5)
    scores.append(1)
    wins.append(2.0)
    assert simulated.scores == (200, 300)
    assert simulated.wins == (1.0, 1.0)
    assert isinstance(hash(simulated), int)


def _values() -> list[tuple[object, tuple[object, ...], dict[str, object]]]:
    """One value of every public value class, with arguments a second ``__init__`` might get."""
    from yahtzee_rules import (
        CLASSIC,
        YACHT,
        Category,
        Fill,
        Game,
        GameRecord,
        Match,
        MatchStanding,
        Rules,
        Turn,
        box_options,
        totals,
    )
    from yahtzee_rules.play.scorecard import empty_card

    game, other = Game.new(["Ann", "Bob"]), Game.new(["Cy"])
    other_fields = {"rules": other.rules, "cards": other.cards, "first": 0, "current": 0}
    turn = Turn().roll(outcome="66666")
    values: list[tuple[object, tuple[object, ...], dict[str, object]]] = [
        (Dice("12345"), ("66666",), {}),
        (Dice.all()[0], ("66666",), {}),
        (Keep("33"), ("66",), {}),
        (Rules(), (), {"card": YACHT}),
        (CLASSIC, ("x", "X", YACHT.boxes, YACHT.scorer), {}),
        (empty_card(CLASSIC), ({Category.CHANCE: 20},), {}),
        (Scorecard({Category.CHANCE: 20}), (), {}),
        (Turn(), (), {"card": Scorecard({Category.CHANCE: 20})}),
        (turn, (), {}),
        (game, (other.players,), {**other_fields, "turn": other.turn}),
        (GameRecord.new(2), (Game.new(["Cy"]),), {}),
        (Match.new(2), (5, (GameRecord.new(3),)), {}),
        (MatchStanding(1, "Ann", 0, Fraction(1)), (2, "Bob", 1, Fraction(0)), {}),
        (Roll("12345"), ("66666",), {}),
        (Fill(Category.CHANCE), (Category.ACES,), {}),
        (box_options(turn.card, "66666")[Category.YAHTZEE], (Category.ACES, 0, None), {}),
        (totals(Scorecard()), (1, 2, 3, 4, 5, 6, 7, 8), {}),
        (Standing(1, "Ann", 0, 200), (2, "Bob", 1, 100), {}),
        (Result((), ()), ((), ("Bob",)), {}),
        (RollOff((), 0), ((), 1), {}),
        (SimulationResult.from_scores([200]), (2, 1, (1, 2), (1.0, 1.0), 0.0), {}),
    ]
    try:
        from yahtzee_rules.bots.solver import Advice, Option
    except ImportError:  # pragma: no cover - the solver extra is not installed
        return values
    option = Option(Category.CHANCE, 212.5)
    values.append((option, (Keep("6"), 1.0), {}))
    values.append((Advice(turn, (option,)), (Turn(), ()), {}))
    from yahtzee_rules.bots.evaluation import Evaluation
    from yahtzee_rules.bots.solver import Decision, PlayerReview, Review, RollLuck

    rated = (10, 360, 254.59, 200.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.1, 5.8, 1.0)
    values.append((Evaluation(*rated), (20, *rated[1:]), {}))
    dice = Dice("12366")
    decision = Decision("Ann", 1, 1, dice, Keep("66"), 1.0, Keep("6"), 2.0, (), 2)
    values.append((decision, ("Bob", 1, 1, dice, Keep("6"), 2.0, Keep("6"), 2.0, (), 2), {}))
    luck = RollLuck("Ann", 1, 1, dice, 1.0, 2.0)
    values.append((luck, ("Bob", 1, 1, dice, 2.0, 1.0), {}))
    player = PlayerReview("Ann", 1.0, 2.0, (decision,), (luck,))
    values.append((player, ("Bob", 0.0, 0.0, (), ()), {}))
    values.append((Review(Rules(), (player,)), (Rules(), ()), {}))
    return values


@pytest.mark.parametrize(
    ("value", "args", "kwargs"),
    _values(),
    ids=[f"{type(value).__name__}-{n}" for n, (value, _, _) in enumerate(_values())],
)
def test_a_second_init_is_refused_and_changes_nothing(
    value: object, args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    before = repr(value), value.__getstate__() if hasattr(value, "__getstate__") else None
    with pytest.raises(MalformedInputError, match="values are immutable; build a new one"):
        type(value).__init__(value, *args, **kwargs)
    assert (repr(value), value.__getstate__() if hasattr(value, "__getstate__") else None) == before


def test_the_shared_empty_card_survives_a_second_init() -> None:
    from yahtzee_rules import Category

    empty = Scorecard()
    with pytest.raises(MalformedInputError, match="immutable"):
        Scorecard.__init__(empty, {Category.CHANCE: 20})
    with pytest.raises(MalformedInputError, match="immutable"):
        Scorecard.__attrs_init__(empty, (None,) * 12 + (20,), 0, empty.card)
    assert Scorecard() == empty
    assert Scorecard().is_open(Category.CHANCE)
    with pytest.raises(MalformedInputError, match="immutable"):
        Dice.__init__(Dice("12345"), "66666")
    assert Dice.all()[0] == Dice("11111")
    with pytest.raises(MalformedInputError, match="immutable"):
        Dice.__init__(Dice.all()[0], "66666")
    assert Dice.all()[0] == Dice("11111")
    assert Dice.all()[0].counts == (5, 0, 0, 0, 0, 0)
