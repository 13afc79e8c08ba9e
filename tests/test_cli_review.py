"""``yahtzee-rules review``: a game's review through the real program, as text and as JSON."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from _cli import ROOT, matches, run, transcripts
from yahtzee_rules import GameRecord, GreedyStrategy, RandomStrategy, Rules
from yahtzee_rules.apps.cli import _extras
from yahtzee_rules.bots.simulation import Strategy
from yahtzee_rules.bots.solver import load_table, review, review_schema


def _played(rules: Rules, strategies: list[Strategy], seed: int) -> GameRecord:
    rng = random.Random(seed)
    record = GameRecord.new([f"P{i + 1}" for i in range(len(strategies))], rules=rules)
    while not record.game.is_over:
        turn = record.game.turn
        assert turn is not None
        if turn.dice is None:
            record = record.roll(rng)
            continue
        strategy = strategies[record.game.current]
        keep = strategy.choose_keep(turn, rng) if turn.rolls_left else None
        record = (
            record.roll(rng, keep=keep)
            if keep is not None
            else record.fill(strategy.choose_box(turn, rng))
        )
    return record


def test_review_prints_luck_cost_a_table_and_the_costliest_decisions() -> None:
    record = _played(Rules(), [GreedyStrategy(), RandomStrategy()], 4)
    result = run("review", "--code", record.share_code())
    assert result.returncode == 0, result.stderr
    expected = review(record, load_table(rules=Rules()))
    for player in expected.players:
        assert (
            f"{player.player}: {player.end:g} points; expected {player.start:.2f}" in result.stdout
        )
        assert f"luck of the dice       {player.luck:+.2f}" in result.stdout
        assert f"cost of the decisions  {-player.cost:+.2f}" in result.stdout
        for mistake in player.mistakes(3):
            assert mistake.describe() in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.strip().startswith("13 ")]
    assert len(rows) == 2  # each player's last turn has a row


def test_review_json_follows_the_shipped_schema_and_adds_up(tmp_path: Path) -> None:
    yacht = Rules.from_name("yacht")
    record = _played(yacht, [RandomStrategy(), GreedyStrategy(), GreedyStrategy()], 8)
    path = tmp_path / "saved.json"
    _extras.save_game(str(path), record, {"P1": "random"})
    result = run("review", str(path), "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    jsonschema.Draft202012Validator(review_schema()).validate(document)
    assert [p["player"] for p in document["players"]] == ["P1", "P2", "P3"]
    for player in document["players"]:
        luck = sum(roll["luck"] for roll in player["rolls"])
        cost = sum(decision["cost"] for decision in player["decisions"])
        assert player["end"] - player["start"] == pytest.approx(luck - cost, abs=1e-9)
        assert player["luck"] == pytest.approx(luck, abs=1e-9)
    expected = review(record, load_table(rules=yacht)).to_dict()
    assert document == json.loads(json.dumps(expected))


def test_the_schema_refuses_what_a_review_never_writes() -> None:
    validator = jsonschema.Draft202012Validator(review_schema())
    yacht = Rules.from_name("yacht")
    record = _played(yacht, [GreedyStrategy()], 2)
    document = json.loads(json.dumps(review(record, load_table(rules=yacht)).to_dict()))
    validator.validate(document)
    document["players"][0]["decisions"][0]["roll"] = 4  # a fourth roll
    assert not validator.is_valid(document)


def test_review_of_a_game_with_no_moves_is_refused() -> None:
    result = run("review", "--code", GameRecord.new(["Ann"]).share_code())
    assert result.returncode == 2
    assert "no moves yet" in result.stderr


def test_review_needs_a_game() -> None:
    result = run("review")
    assert result.returncode == 2
    assert "FILE" in result.stderr or "--code" in result.stderr


def test_the_review_how_to_shows_real_output() -> None:
    page = (ROOT / "docs" / "how-to" / "review-a-game.md").read_text(encoding="utf-8")
    blocks = transcripts(page)
    assert blocks
    for command, expected in blocks:
        assert command[:2] == ["yahtzee-rules", "review"]
        result = run(*command[1:])  # a table build's notice, if any, goes to stderr
        assert result.returncode == 0, result.stderr
        assert matches(expected, result.stdout.splitlines()), result.stdout


def test_review_wins_adds_the_chance_of_winning_given_up_in_the_late_turns() -> None:
    yacht = Rules.from_name("yacht")
    record = _played(yacht, [GreedyStrategy(), RandomStrategy()], 6)
    expected = review(record, load_table(rules=yacht), wins=True)
    result = run("review", "--code", record.share_code(), "--wins")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert sum(line.rstrip().endswith("win lost") for line in lines) == 2  # a column each
    first, last = expected.players
    assert all(d.win_exact is False for d in first.decisions if d.win_chance is not None)
    assert last.exact_win_decisions  # the last player's last turn: exact
    assert f"chance of winning      {-100 * last.win_cost:+.1f}%  (exact" in result.stdout
    rows = [line for line in lines if line.strip().startswith("12 ")]
    assert rows[0].endswith(" bound")
    assert rows[1].endswith(" exact")
    from yahtzee_rules.apps.cli.review import report

    assert "win lost" not in report(review(record, load_table(rules=yacht)), "yacht")
    document = json.loads(run("review", "--code", record.share_code(), "--wins", "--json").stdout)
    jsonschema.Draft202012Validator(review_schema()).validate(document)
    assert document == json.loads(json.dumps(expected.to_dict()))
