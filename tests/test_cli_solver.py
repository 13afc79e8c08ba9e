"""The solver's commands: ``solve``, ``distribution`` and ``target``."""

from __future__ import annotations

import re
import sys

import pytest

from yahtzee_rules import Rules, Scorecard
from yahtzee_rules.apps.cli import main


def test_without_numpy_the_solver_commands_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from yahtzee_rules.apps.cli import _extras

    monkeypatch.setitem(sys.modules, "yahtzee_rules.bots.solver", None)  # import fails
    monkeypatch.setattr(_extras, "_TABLES", {})
    for argv in (["solve"], ["simulate", "--strategy", "optimal"], ["play", "A", "--coach"]):
        assert main(argv) == 2
        error = capsys.readouterr().err
        assert 'pip install "yahtzee-rules[solver]"' in error
    assert main(["simulate", "--strategy", "random", "--games", "3"]) == 0  # no NumPy needed
    assert "3 games of random play" in capsys.readouterr().out


def test_solve_with_rules_prints_the_optimal_value_to_7_decimals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.bots.solver import load_table

    rules = Rules.from_name("yacht")
    assert main(["solve", "--rules", "yacht"]) == 0
    out = capsys.readouterr().out
    expected = load_table(rules=rules).expected_final(Scorecard(card=rules.card))
    assert f"under optimal play: {expected:.7f}\n" in out
    assert re.search(r"under optimal play: \d+\.\d{7}$", out.strip())
    assert "for the yacht rules: " in out


#: A Classic card with Sixes, Yahtzee and Chance open: cheap to solve from.
_LATE = "1=3,2=6,3=9,4=12,5=15,3k=22,4k=0,fh=25,ss=30,ls=40"


def test_distribution_prints_mean_spread_median_and_percentiles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.bots.solver import load_table, score_distribution
    from yahtzee_rules.formats.notation import parse_scorecard

    assert main(["distribution", "--card", _LATE]) == 0
    out = capsys.readouterr().out
    found = score_distribution(parse_scorecard(_LATE), table=load_table())
    assert f"Mean                {found.mean:.7f}\n" in out
    assert f"Standard deviation  {found.std:.7f}\n" in out
    assert f"Median              {found.median}\n" in out
    rows = re.findall(r"^ +(\d+)  +(\d+)$", out, re.MULTILINE)
    assert [(int(q), int(t)) for q, t in rows] == [
        (q, found.percentile(q)) for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)
    ]


def test_distribution_takes_rules_and_starts_from_the_empty_card(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["distribution", "--rules", "yacht"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Final score under optimal play from the empty card, yacht rules\n")
    assert "Mean                166.9550677\n" in out  # the table's expected value


def test_target_prints_the_best_chance_to_7_decimals_and_optimal_play_s(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.bots.solver import load_table, score_distribution, target_table
    from yahtzee_rules.formats.notation import parse_scorecard

    card = parse_scorecard(_LATE)
    assert main(["target", "230", "--card", _LATE]) == 0
    out = capsys.readouterr().out
    best = target_table(start=card, maximum=100).probability(card, 230)
    expectation = score_distribution(card, table=load_table()).p_at_least(230)
    assert best > expectation
    assert f"Best chance (playing for the target):  {best:.7f}\n" in out
    assert f"Optimal play (the highest mean):       {expectation:.7f}\n" in out
    assert re.search(r"target\):  0\.\d{7}$", out, re.MULTILINE)


def test_target_and_distribution_refuse_bad_targets_and_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["target", "-5", "--card", _LATE]) == 2
    assert "target: -5: not a final score of 0 or more" in capsys.readouterr().err
    assert main(["target", "200", "--card", _LATE, "--rules", "yacht"]) == 2
    assert "the yacht rules play the Yacht card" in capsys.readouterr().err
    full = "1=3,2=6,3=9,4=12,5=15,6=18,3k=22,4k=0,fh=25,ss=30,ls=40,y=0,c=20"
    assert main(["distribution", "--card", full]) == 2
    assert "the card is full" in capsys.readouterr().err
    assert main(["target", "many"]) == 2
    assert "invalid int value" in capsys.readouterr().err


@pytest.mark.slow
def test_distribution_from_the_empty_classic_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["distribution"]) == 0
    out = capsys.readouterr().out
    assert "Mean                254.5877287\n" in out
