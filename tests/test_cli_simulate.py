"""The ``simulate`` command: statistics and a histogram of many games."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from _cli import run
from yahtzee_rules.apps.cli import main
from yahtzee_rules.apps.cli.stats import histogram, summary_lines


@given(st.lists(st.integers(0, 375), min_size=1, max_size=200))
def test_histogram_counts_every_score_once(scores: list[int]) -> None:
    from yahtzee_rules import SimulationResult

    result = SimulationResult.from_scores(scores)
    rows = histogram(result).splitlines()
    counts = [int(row.split()[1]) for row in rows]
    assert sum(counts) == len(scores)
    assert len(rows) == len(result.histogram_bins())
    lines = summary_lines(result)
    assert lines[1] == f"mean       {result.mean:>8.2f}"
    assert lines[4:] == [f"min        {min(scores):>8}", f"max        {max(scores):>8}"]


def test_simulate_with_several_players_counts_scores_not_games() -> None:
    result = run("simulate", "--strategy", "random", "--games", "20", "--players", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "scores           80  (20 games of 4)"
    assert not any(line.startswith("games") for line in lines)


def test_simulate_plays_the_same_games_as_the_library() -> None:
    from yahtzee_rules import GreedyStrategy, simulate

    result = run(
        "simulate", "--strategy", "greedy", "--games", "40", "--seed", "3", "--players", "2"
    )
    assert result.returncode == 0, result.stderr
    library = simulate(GreedyStrategy(), games=40, seed=3, players=2)
    out = result.stdout
    assert out.startswith("40 games of greedy play, 2 players each, seed 3, forced Joker")
    assert f"mean       {library.mean:>8.2f}" in out
    assert f"sd         {library.std:>8.2f}" in out
    assert f"std. error {library.stderr:>8.2f}" in out
    assert f"min        {library.minimum:>8}" in out
    assert f"max        {library.maximum:>8}" in out
    shares = "  ".join(f"{seat + 1}: {wins / 40:.1%}" for seat, wins in enumerate(library.wins))
    assert f"wins by seat {shares}" in out
    counts = [int(line.split()[1]) for line in out.split("Final scores:\n")[1].splitlines()]
    assert sum(counts) == 80
    assert result.stderr.splitlines()[-1] == "simulate greedy: 100% of 40"


def test_simulate_and_demo_play_the_named_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--strategy", "greedy", "--games", "3", "--rules", "yatzy"]) == 0
    assert "3 games of greedy play, seed 0, yatzy rules" in capsys.readouterr().out
    assert main(["demo", "--rules", "yacht", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Little Straight" in out
    assert "Large Straight" not in out
