"""The ``rules`` command and ``--rules NAME`` on every command that plays or scores."""

from __future__ import annotations

import pytest

from _cli import run
from yahtzee_rules import Rules
from yahtzee_rules.apps.cli import main


def test_rules_lists_every_named_ruleset_with_one_line_each() -> None:
    result = run("rules")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    names = Rules.names()
    for name, line in zip(names, lines, strict=False):
        assert line.split()[0] == name
        assert Rules.describe(name) in line
    assert lines[len(names)] == ""
    assert "--rules NAME" in lines[-1]


def test_rules_lines_follow_the_library_s_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee_rules.apps.cli import rules_lines

    extra = ("forced", "none, yahtzee_bonus=0")
    monkeypatch.setattr(Rules, "names", staticmethod(lambda: extra))
    lines = rules_lines()
    assert len(lines) == 2
    assert lines[1].startswith("none, yahtzee_bonus=0  Classic card (13 boxes), no Joker")


def test_rules_accepts_notation_and_refuses_a_bad_name_listing_the_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", "12345", "--rules", "free-choice,yb=0"]) == 0
    assert capsys.readouterr().out.startswith("Dice 12345 on an empty card, free-choice")
    assert main(["solve", "--rules", "hasbro-2099"]) == 2
    error = capsys.readouterr().err
    assert "argument --rules: 'hasbro-2099' is no ruleset; use one of " in error
    assert ", ".join(Rules.names()) in error
    assert main(["score", "12345", "--rules", "yacht", "--joker", "none"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["score", "12345", "--rules", "yacht", "--card", "c=20"]) == 2
    assert "the yacht rules play the Yacht card" in capsys.readouterr().err


def test_every_command_with_a_ruleset_takes_rules(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "demo", "score", "simulate", "solve", "distribution", "target"):
        assert main([command, "--help"]) == 0
        assert "--rules NAME" in capsys.readouterr().out


def test_yatzy_is_described_as_its_rules_score_it() -> None:
    """Yatzy has a bonus (50 at 63) and a Yatzy box worth 50; only a second Yatzy earns
    nothing, which "no Yatzy bonus" left unsaid."""
    from yahtzee_rules import YatzyBox, score

    yatzy = Rules.from_name("yatzy")
    assert (yatzy.yahtzee_bonus, yatzy.upper_bonus) == (0, 50)
    line = next(line for line in run("rules").stdout.splitlines() if line.startswith("yatzy "))
    assert f"Yatzy {score('44444', YatzyBox.YATZY)} and nothing more" in line
    assert "50-point upper bonus at 63" in line
    assert "no Yatzy bonus" not in line
