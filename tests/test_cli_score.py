"""The ``score`` command: every box's points for some dice, the reasons closed boxes
are closed, the Joker rule and the ruleset chosen.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from _cli import run
from yahtzee_rules import Category, Dice, JokerRule, Rules, Scorecard
from yahtzee_rules.apps.cli import main, score_table


def test_score_table_names_the_reason_for_each_closed_box() -> None:
    from yahtzee_rules import Rules

    card = Scorecard({Category.YAHTZEE: 50, Category.FOURS: 20})
    lines = score_table(Dice("44444"), card, rules=Rules()).splitlines()[2:]
    assert len(lines) == 13
    by_box = {line[:17].strip(): line[17:].split(None, 1) for line in lines}
    assert by_box["Fours"] == ["-", "Fours is already filled with 20; each box is filled once"]
    assert by_box["Full House"] == ["25", "+100 Yahtzee bonus"]
    assert by_box["Aces"][0] == "-"
    assert "open lower boxes" in by_box["Aces"][1]


def test_score_prints_the_table_of_every_box() -> None:
    result = run("score", "66655", "--joker", "free")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "Dice 55666 on an empty card, free-choice Joker"
    assert "Full House             25" in result.stdout
    assert len(result.stdout.splitlines()) == 1 + 2 + 13


def test_joker_free_and_free_choice_are_one_rule_spelled_free_choice() -> None:
    short, long = (
        run("score", "12345", "--joker", "free"),
        run("score", "12345", "--joker", "free-choice"),
    )
    assert short.returncode == long.returncode == 0
    assert short.stdout == long.stdout
    assert short.stdout.startswith("Dice 12345 on an empty card, free-choice Joker\n")
    helped = run("score", "--help").stdout
    assert "--joker {forced,free-choice,none,kinds-first}" in helped
    bad = run("score", "12345", "--joker", "maybe")
    assert bad.returncode == 2
    assert "'maybe' is no Joker rule; use forced, free-choice, none, kinds-first" in bad.stderr


def test_joker_takes_every_joker_rule() -> None:
    for rule in JokerRule:
        result = run("score", "12345", "--card", "1=1,2=2", "--joker", rule.value)
        assert result.returncode == 0, result.stderr
        assert f"on the card 1=1,2=2, {_JOKER_TITLES[rule]}" in result.stdout.splitlines()[0]


_JOKER_TITLES = {
    JokerRule.FORCED: "forced Joker",
    JokerRule.FREE_CHOICE: "free-choice Joker",
    JokerRule.NONE: "no Joker",
    JokerRule.KINDS_FIRST: "kinds-first Joker",
}


def test_score_gives_a_reason_shared_by_several_boxes_once() -> None:
    result = run("score", "66666", "--card", "y=50")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    reason = "the forced Joker requires Sixes, which is open: five 6s must go in Sixes"
    assert result.stdout.count(reason) == 1
    assert f"Aces                    -  {reason}" in lines
    assert "Chance                  -  as for Aces" in lines
    assert sum(line.endswith("-  as for Aces") for line in lines) == 10


def test_score_on_a_card_in_the_notation() -> None:
    result = run("score", "44444", "--card", "4=12,y=50")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Dice 44444 on the card 4=12,y=50, forced Joker (Hasbro Classic)"
    assert "Full House             25  +100 Yahtzee bonus" in lines
    bad = run("score", "44444", "--card", "4=13")
    assert bad.returncode == 2
    assert "no roll scores 13 in Fours" in bad.stderr


@pytest.mark.parametrize("name", Rules.names())
def test_every_named_ruleset_scores_by_its_own_card(name: str) -> None:
    rules = Rules.from_name(name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", "66666", "--rules", name]) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 + 2 + len(rules.card)
    assert [line.split("  ")[0].strip() for line in lines[3:]] == [
        box.label for box in rules.card.members
    ]
