"""A strategy that fails mid-run is named: the strategy, its seat, the game and the seed.

Played through the real ``simulate`` and ``tournament``, here and on a real process
pool (whose workers pickle the error back: its message keeps the strategy's own error).
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from yahtzee_rules import (
    Box,
    GreedyStrategy,
    IllegalActionError,
    Keep,
    RulesError,
    Strategy,
    StrategyError,
    Turn,
    simulate,
)
from yahtzee_rules.bots.arena import tournament


class AcesEveryTurn:
    """Plays greedily but fills Aces every turn: its second turn fills a closed box."""

    def __repr__(self) -> str:
        return "AcesEveryTurn()"

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        return GreedyStrategy().choose_keep(turn, rng)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        return turn.rules.card.members[0]


class Crashes(AcesEveryTurn):
    """Raises an error of its own on its first decision."""

    def __repr__(self) -> str:
        return "Crashes()"

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        raise ZeroDivisionError("the strategy's own bug")


class LateCrash(AcesEveryTurn):
    """Plays greedily, and raises on its first decision after ``turns`` turns."""

    def __init__(self, turns: int) -> None:
        self.left = turns

    def __repr__(self) -> str:
        return "LateCrash()"

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        self.left -= 1
        if self.left < 0:
            raise RuntimeError("late")
        return GreedyStrategy().choose_box(turn, rng)


def test_simulate_names_the_strategy_seat_game_and_seed() -> None:
    with pytest.raises(IllegalActionError) as caught:  # a closed box keeps its class
        simulate([GreedyStrategy(), AcesEveryTurn()], games=5, seed=11)
    message = str(caught.value)
    assert message.startswith("strategy AcesEveryTurn() in seat 1, game 1 of simulate(seed=11)")
    assert "(chunk 0, game 0 of its 5): fill Aces" in message
    assert isinstance(caught.value.__cause__, IllegalActionError)


def test_simulate_names_a_game_in_a_later_chunk() -> None:
    # 1,000 games a chunk: the error names the game's number in the whole run
    with pytest.raises(StrategyError, match=r"game 1002 of simulate\(seed=2\) \(chunk 1, game 1 "):
        simulate(LateCrash(13 * 1001), games=1003, seed=2)


def test_a_strategys_own_exception_is_chained_not_lost() -> None:
    with pytest.raises(StrategyError) as caught:
        simulate(Crashes(), games=2, seed=0)
    assert str(caught.value).endswith("ZeroDivisionError: the strategy's own bug")
    assert isinstance(caught.value.__cause__, ZeroDivisionError)
    assert isinstance(caught.value, RulesError)


def test_tournament_names_the_strategy_seat_deal_and_seed() -> None:
    bots: dict[str, Strategy] = {"greedy": GreedyStrategy(), "aces": AcesEveryTurn()}
    with pytest.raises(IllegalActionError) as caught:
        tournament(bots, deals=3, seed=5)
    message = str(caught.value)
    assert message.startswith("strategy 'aces' in seat 1, tournament deal 0 (seed 5), game 1")
    assert "of the deal: fill Aces" in message
    assert isinstance(caught.value.__cause__, IllegalActionError)
    with pytest.raises(StrategyError, match=r"^strategy 'boom' in seat 0, tournament deal 0"):
        tournament({"boom": Crashes(), "greedy": GreedyStrategy()}, deals=1, seed=5)


def test_the_errors_come_back_from_a_process_pool_naming_who() -> None:
    with ProcessPoolExecutor(2) as pool:
        with pytest.raises(StrategyError) as caught:
            tournament({"greedy": GreedyStrategy(), "boom": Crashes()}, deals=150, executor=pool)
        message = str(caught.value)
        assert "strategy 'boom' in seat 1, tournament deal 0 (seed 0), game 1" in message
        assert message.endswith("ZeroDivisionError: the strategy's own bug")
        with pytest.raises(IllegalActionError) as closed:
            simulate(AcesEveryTurn(), games=1500, seed=4, executor=pool)
        assert str(closed.value).startswith(
            "strategy AcesEveryTurn() in seat 0, game 1 of simulate(seed=4)"
        )
