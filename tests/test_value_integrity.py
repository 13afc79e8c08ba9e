"""Values stay values: constructors read bounded input, keep no caller's list, and cannot be re-initialised."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

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
