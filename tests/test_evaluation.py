"""``evaluate``: a strategy rated by the cost of its choices, the same on any executor."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from yahtzee_rules import GreedyStrategy, MalformedInputError, RandomStrategy, Rules
from yahtzee_rules.bots.evaluation import evaluate
from yahtzee_rules.bots.simulation import OptimalStrategy
from yahtzee_rules.bots.solver import load_table

YACHT = Rules.from_name("yacht")


def test_optimal_play_costs_nothing_and_scores_the_optimum_on_average() -> None:
    table = load_table(rules=YACHT)
    rated = evaluate(OptimalStrategy(table), games=150, rules=YACHT, table=table)
    assert rated.mean_cost == 0.0
    assert rated.cost_per_game == 0.0
    assert rated.interval() == (0.0, 0.0)
    assert abs(rated.mean_score - rated.optimum) <= 3.3 * rated.score_stderr


@pytest.mark.parametrize("strategy", [RandomStrategy(), GreedyStrategy()], ids=["random", "greedy"])
def test_mean_cost_a_game_is_the_optimum_minus_the_mean_score_up_to_luck(strategy: object) -> None:
    rated = evaluate(strategy, games=200, rules=YACHT, seed=3)  # type: ignore[arg-type]
    assert rated.mean_cost > 0
    assert rated.choices > rated.games  # several choices a game
    # end - start = luck - cost, game by game, so on average too
    assert rated.mean_score - rated.optimum == pytest.approx(
        rated.luck_per_game - rated.cost_per_game, abs=1e-9
    )
    assert abs(rated.luck_per_game) <= 3.3 * rated.luck_stderr  # luck averages zero
    low, high = rated.interval(0.99)
    assert low < rated.mean_cost < high


def test_greedy_play_costs_less_a_choice_than_random_play() -> None:
    greedy = evaluate(GreedyStrategy(), games=100, rules=YACHT)
    chance = evaluate(RandomStrategy(), games=100, rules=YACHT)
    assert greedy.interval(0.99)[1] < chance.interval(0.99)[0]


def test_the_figures_are_the_same_on_any_executor() -> None:
    here = evaluate(GreedyStrategy(), games=250, rules=YACHT, seed=5)
    with ThreadPoolExecutor(2) as threads:
        threaded = evaluate(GreedyStrategy(), games=250, rules=YACHT, seed=5, executor=threads)
    with ProcessPoolExecutor(2) as processes:
        pooled = evaluate(GreedyStrategy(), games=250, rules=YACHT, seed=5, executor=processes)
    for other in (threaded, pooled):
        assert (other.games, other.choices, other.mean_cost, other.mean_score) == (
            here.games,
            here.choices,
            here.mean_cost,
            here.mean_score,
        )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategy": "greedy"}, "no choose_keep and choose_box"),
        ({"games": 0}, "games 0: not a positive int"),
        ({"games": True}, "not a positive int"),
        ({"rules": Rules.from_name("triple")}, "exact solver is out of reach"),
        ({"table": "table"}, "not a Table"),
        ({"executor": object()}, "submit"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"strategy": GreedyStrategy(), "games": 2, "rules": YACHT}
    arguments.update(kwargs)
    with pytest.raises(MalformedInputError, match=message):
        evaluate(**arguments)  # type: ignore[arg-type]


def test_a_table_for_other_rules_is_refused() -> None:
    with pytest.raises(MalformedInputError, match="not a Table for the rules played"):
        evaluate(
            GreedyStrategy(), games=2, rules=YACHT, table=load_table(rules=Rules.from_name("yatzy"))
        )
