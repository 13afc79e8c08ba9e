"""Tournaments with a table: each strategy's mean cost a choice, beside its wins and scores."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from _cli import run
from yahtzee_rules import Game, GreedyStrategy, MalformedInputError, RandomStrategy, Rules
from yahtzee_rules.bots.arena import tournament
from yahtzee_rules.bots.simulation import OptimalStrategy, Strategy
from yahtzee_rules.bots.solver import build_table, load_table

YACHT = Rules.from_name("yacht")


def test_each_strategy_gets_its_mean_cost_and_the_optimum_costs_nothing() -> None:
    table = load_table(rules=YACHT)
    bots: dict[str, Strategy] = {
        "optimal": OptimalStrategy(table),
        "greedy": GreedyStrategy(),
        "random": RandomStrategy(),
    }
    result = tournament(bots, deals=30, rules=YACHT, table=table)
    optimal, greedy, chance = result.standings
    assert optimal.mean_cost == 0.0
    assert optimal.cost_interval == (0.0, 0.0)
    assert greedy.mean_cost is not None
    assert chance.mean_cost is not None
    assert 0 < greedy.mean_cost < chance.mean_cost
    low, high = greedy.cost_interval  # type: ignore[misc]
    assert low < greedy.mean_cost < high
    assert "Cost a choice" in result.report()
    assert f"{greedy.mean_cost:>13.3f}" in result.report()
    # the costs do not change what was played: the same tables as without a table
    plain = tournament(bots, deals=30, rules=YACHT)
    assert [r.wins for r in plain.standings] == [r.wins for r in result.standings]
    assert all(r.mean_cost is None for r in plain.standings)
    assert "Cost a choice" not in plain.report()


def test_the_costs_are_the_same_on_a_process_pool() -> None:
    table = load_table(rules=YACHT)
    bots: dict[str, Strategy] = {"greedy": GreedyStrategy(), "random": RandomStrategy()}
    here = tournament(bots, deals=150, rules=YACHT, table=table, seed=2)
    with ProcessPoolExecutor(2) as pool:
        there = tournament(bots, deals=150, rules=YACHT, table=table, seed=2, executor=pool)
    assert [r.mean_cost for r in there.standings] == [r.mean_cost for r in here.standings]
    assert [r.cost_interval for r in there.standings] == [r.cost_interval for r in here.standings]


def test_a_table_for_other_rules_or_a_part_card_is_refused() -> None:
    bots: list[Strategy] = [GreedyStrategy(), RandomStrategy()]
    with pytest.raises(MalformedInputError, match="not a Table for the rules played"):
        tournament(bots, deals=1, rules=YACHT, table=load_table(rules=Rules.from_name("yatzy")))
    with pytest.raises(MalformedInputError, match="not a Table"):
        tournament(bots, deals=1, rules=YACHT, table="table")  # type: ignore[arg-type]
    game = Game.new(["x"], rules=YACHT).roll(outcome="12345")
    card = game.fill(next(iter(game.options))).player_card("x")  # one box filled
    with pytest.raises(MalformedInputError, match="empty card"):
        tournament(bots, deals=1, rules=YACHT, table=build_table(rules=YACHT, start=card))


def test_the_command_line_reports_costs_on_request() -> None:
    result = run("tournament", "greedy", "random", "--deals", "5", "--rules", "yacht", "--costs")
    assert result.returncode == 0, result.stderr
    assert "Cost a choice" in result.stdout
