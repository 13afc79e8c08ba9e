"""The ``tournament`` command: the tables it prints, worker processes, bad arguments."""

from __future__ import annotations

import pytest

from yahtzee_rules import GreedyStrategy, RandomStrategy
from yahtzee_rules.bots.arena import tournament


def test_the_command_prints_the_tables_and_draws_progress(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.apps.cli import main

    assert main(["tournament", "greedy", "random", "greedy", "--deals", "120", "--seed", "2"]) == 0
    out, err = capsys.readouterr()
    expected = tournament(
        {"greedy": GreedyStrategy(), "random": RandomStrategy(), "greedy 2": GreedyStrategy()},
        deals=120,
        seed=2,
    ).report()
    assert out == expected + "\n"
    assert err.splitlines()[-1] == "tournament: 100% of 120"


def test_the_command_gives_the_same_tables_on_worker_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.apps.cli import main

    arguments = ["tournament", "greedy", "random", "--deals", "101", "--sprt", "--edge", "0.2"]
    assert main(arguments) == 0
    here = capsys.readouterr().out
    assert main([*arguments, "--workers", "2"]) == 0
    assert capsys.readouterr().out == here
    assert "greedy vs random: first is stronger" in here
    assert "Sequential test: edge 20.0%" in here


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["greedy"], "give two or more computer players"),
        (["greedy", "smart"], "'smart': no such computer player"),
        (["greedy", "random", "--seats", "3"], "--seats 3: deals and workers must be"),
        (["greedy", "random", "--deals", "0"], "--deals 0"),
        (["greedy", "random", "--sprt", "--edge", "0.7"], "--edge 0.7: not a number"),
    ],
)
def test_the_command_refuses_bad_arguments(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from yahtzee_rules.apps.cli import main

    assert main(["tournament", *arguments]) == 2
    assert message in capsys.readouterr().err
