"""Every command, the web table's pages and the arena report under every named ruleset,
each through an extra Yahtzee.

The rulesets come from :meth:`Rules.names`, so a ruleset added to the library is
covered here with no change. Each test drives an extra Yahtzee (five equal dice with
every five-of-a-kind box filled) and checks that it happened: the Joker note, the
bonus, or the fill of the roll. Computer players are a cheap test bot that chases
five of a kind, standing in for the command line's kinds; it notes every extra
Yahtzee it is asked to place, so a test can tell that one was played.
"""

from __future__ import annotations

import io
import random
import re
from html import escape
from typing import Any

import pytest

from yahtzee_rules import (
    Box,
    GameRecord,
    GreedyStrategy,
    JokerRule,
    Keep,
    Rules,
    Scorecard,
    Turn,
)
from yahtzee_rules.apps import demo as demo_module
from yahtzee_rules.apps.cli import _extras, main
from yahtzee_rules.apps.cli.play import describe_rules, joker_note
from yahtzee_rules.bots.arena import tournament
from yahtzee_rules.play.scoring import joker_note as scoring_joker_note

NAMES = Rules.names()


# --- an extra Yahtzee, made to order --------------------------------------------------


def extra_possible(rules: Rules) -> bool:
    """Whether an extra Yahtzee can happen: a box is left to fill after the Yahtzee boxes
    (not so with the boxes in card order, Forced Yatzy's, when Yatzy comes last)."""
    card = rules.card
    if not card.yahtzees:
        return False
    return (
        not rules.in_order or max(card.members.index(box) for box in card.yahtzees) < len(card) - 1
    )


def extra_yahtzee_record(rules: Rules, players: tuple[str, ...] = ("Ann",)) -> GameRecord:
    """A game whose first player has every five-of-a-kind box filled and five 4s showing.

    Every roll is five 4s, filling a five-of-a-kind box whenever the rules allow
    (Forced Yahtzee sends the first to Fours, card order fills the boxes before it).
    Where no extra Yahtzee can happen (:func:`extra_possible`), the first player
    has five 4s for the last box, the Yahtzee box, instead.
    """
    card = rules.card
    possible = extra_possible(rules)
    record = GameRecord.new(list(players), rules=rules)
    while True:
        game = record.game
        mine = game.player_card(0)
        if game.current == 0 and (
            all(mine[box] is not None for box in card.yahtzees)
            or (not possible and set(mine.open_categories) <= set(card.yahtzees))
        ):
            return record.roll(outcome="44444")
        record = record.roll(outcome="44444")
        legal = list(record.game.options)
        record = record.fill(next((box for box in card.yahtzees if box in legal), legal[0]))


def is_extra(turn: Turn) -> bool:
    """Whether the dice showing are an extra Yahtzee: five equal, every Yahtzee box filled."""
    dice, yahtzees = turn.dice, turn.rules.card.yahtzees
    return (
        dice is not None
        and dice.is_yahtzee
        and bool(yahtzees)
        and all(turn.card[box] is not None for box in yahtzees)
    )


def first_legal(record: GameRecord) -> tuple[Box, Any]:
    """The first box the dice showing may fill, and its option."""
    options = record.game.box_options()
    return next((box, option) for box, option in options.items() if option.is_legal)


class Chaser:
    """A test bot: holds its most common face until five of a kind, then fills a
    five-of-a-kind box if it may, else the box worth the most. It counts the extra
    Yahtzees it places in ``extras`` (shared, so a test reads it after a command)."""

    extras: list[str] = []  # noqa: RUF012  (shared on purpose: the tests reset it)

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        dice = turn.dice
        assert dice is not None
        if dice.is_yahtzee:
            return None
        counts = dice.counts
        face = max(range(6), key=lambda i: (counts[i], i)) + 1
        return Keep([face] * counts[face - 1])

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        options = turn.options
        if is_extra(turn):
            Chaser.extras.append(turn.rules.name)
        five = [box for box in turn.rules.card.yahtzees if box in options]
        return (
            five[0]
            if five and turn.dice is not None and turn.dice.is_yahtzee
            else max(options, key=lambda box: options[box])
        )


@pytest.fixture
def chasers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every computer player of the command line and the demonstration game is a Chaser."""
    Chaser.extras = []
    monkeypatch.setattr(_extras, "make_bot", lambda kind, rules: Chaser())
    monkeypatch.setattr(demo_module, "DemoStrategy", Chaser)
    return Chaser.extras


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(list(args))
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def _bonus_due(record: GameRecord) -> bool:
    return any(option.bonus for option in record.game.box_options().values())


# --- the library's own text -----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_made_game_shows_an_extra_yahtzee(name: str) -> None:
    rules = Rules.from_name(name)
    record = extra_yahtzee_record(rules, ("Ann", "Cy"))
    game = record.game
    assert game.turn is not None
    assert is_extra(game.turn) == extra_possible(rules)
    assert _bonus_due(record) == (rules.yahtzee_bonus > 0 and extra_possible(rules))
    if not extra_possible(rules):  # only Forced Yatzy's card order, Yatzy coming last
        assert rules.in_order
        assert rules.card.members[-1] in rules.card.yahtzees
        assert rules.joker is JokerRule.NONE
        assert rules.yahtzee_bonus == 0


@pytest.mark.parametrize("name", NAMES)
def test_the_joker_note_follows_the_rules_on_every_card(name: str) -> None:
    rules = Rules.from_name(name)
    card = rules.card
    record = extra_yahtzee_record(rules)
    game = record.game
    note = joker_note(game)
    assert note == scoring_joker_note(game.player_card(0), "44444", rules=rules)
    if rules.joker is JokerRule.NONE:
        assert note is None
        return
    assert note is not None
    assert note.startswith("Joker: five 4s with ")
    assert ("-point Yahtzee bonus" in note) == (rules.yahtzee_bonus > 0)
    # every step of the rule: with the face boxes, then Three/Four of a Kind, then
    # every lower box filled, a note is written for this card, in the rules' words
    filled = dict.fromkeys(card.yahtzees, 50)
    for boxes in (card.face_boxes(4), card.joker_first, card.lower):
        for box in boxes:
            filled.setdefault(box, min(card.possible[box]))
        scorecard = Scorecard(filled, card=card)
        text = scoring_joker_note(scorecard, "44444", rules=rules)
        assert text is not None
        assert text.endswith(".")
        assert rules.joker.label in text or "Forced Yahtzee" in text or "upper box" in text


def test_the_kinds_first_note_names_its_own_step() -> None:
    rules = Rules.from_name("kinds-first")
    card = rules.card
    filled = {**dict.fromkeys(card.yahtzees, 50), **dict.fromkeys(card.face_boxes(4), 8)}
    note = scoring_joker_note(Scorecard(filled, card=card), "44444", rules=rules)
    assert note is not None
    assert "free-choice" not in note
    assert "the kinds-first Joker (Hasbro's current order) requires" in note


def test_the_rules_line_of_a_game_is_the_library_s_description() -> None:
    for name in NAMES:
        rules = Rules.from_name(name)
        assert describe_rules(rules) == f"Rules: {Rules.describe(name)}"


# --- the command line -----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_play_through_an_extra_yahtzee(
    name: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    chasers: list[str],
) -> None:
    rules = Rules.from_name(name)
    record = extra_yahtzee_record(rules, ("Ann", "Cy"))
    box, option = first_legal(record)
    code = record.share_code()
    monkeypatch.setattr("sys.stdin", io.StringIO(f"f {box.code}\nq\n\n"))
    out = _main(capsys, "play", "--code", code, "--bot", "greedy", "Cy", "--seed", "1")
    assert describe_rules(rules) in out
    filled = f"Ann fills {box.label} with 44444 for {option.points}"
    assert filled in out
    bonus = f"{filled} plus the {rules.yahtzee_bonus}-point Yahtzee bonus."
    assert (bonus in out) == (rules.yahtzee_bonus > 0)
    assert ("Joker: five 4s with" in out) == (rules.joker is not JokerRule.NONE)
    assert "Cy (greedy): " in out  # the computer player took its turn after Ann's


@pytest.mark.parametrize("name", NAMES)
def test_score_shows_an_extra_yahtzee(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules.from_name(name)
    record = extra_yahtzee_record(rules)
    card = record.game.player_card(0)
    out = _main(capsys, "score", "44444", "--card", str(card), "--rules", name)
    assert out.startswith(f"Dice 44444 on the card {card}, ")
    options = record.game.box_options()
    lines = out.splitlines()
    for box, option in options.items():
        row = next(line for line in lines if line.startswith(f"{box.label}  "))
        if option.is_legal:
            assert f"  {option.points}" in row
            assert ("Yahtzee bonus" in row) == (option.bonus > 0)
        else:
            assert row.split()[len(box.label.split())] == "-"
    for box in rules.card.yahtzees if extra_possible(rules) else ():
        assert f"{box.label} is already filled with 50" in out
    if rules.joker is not JokerRule.NONE:
        assert rules.joker.label in out or "Forced Yahtzee" in out


@pytest.mark.parametrize("name", NAMES)
def test_demo_through_an_extra_yahtzee(
    name: str, capsys: pytest.CaptureFixture[str], chasers: list[str]
) -> None:
    rules = Rules.from_name(name)
    possible = extra_possible(rules)
    seeds = range(200) if possible else range(1)
    seed = next(seed for seed in seeds if _demo_extras(seed, rules, chasers) or not possible)
    chasers.clear()
    out = _main(capsys, "demo", "--rules", name, "--seed", str(seed))
    assert bool(chasers) == possible, "the command played another game than the library's"
    _, log = demo_module.play_demo(seed, rules=rules)
    assert out == "\n\n".join(log) + "\n"
    if rules.yahtzee_bonus:
        assert f"+{rules.yahtzee_bonus} Yahtzee bonus" in out


def _demo_extras(seed: int, rules: Rules, seen: list[str]) -> bool:
    """Whether the demonstration game of ``seed`` places an extra Yahtzee (``seen`` is
    emptied first, and holds them after)."""
    seen.clear()
    demo_module.play_demo(seed, rules=rules)
    return bool(seen)


@pytest.mark.parametrize("name", NAMES)
def test_simulate_and_a_match_under_every_ruleset(
    name: str, capsys: pytest.CaptureFixture[str], chasers: list[str]
) -> None:
    out = _main(capsys, "simulate", "--strategy", "greedy", "--games", "200", "--rules", name)
    assert out.startswith("200 games of greedy play, seed 0, ")
    rules = Rules.from_name(name)
    assert bool(chasers) == extra_possible(rules), "no extra Yahtzee in 200 games"
    out = _main(
        capsys, "play", "--bot", "greedy", "Ann", "--bot", "random", "Bob",
        "--match", "1", "--rules", name, "--seed", "2",
    )  # fmt: skip
    assert f"Match: best of 1; {rules.tie.description}." in out
    assert re.search(r"(wins|share) the match \(", out.splitlines()[-1])


@pytest.mark.parametrize("name", NAMES)
def test_tournament_under_every_ruleset(
    name: str, capsys: pytest.CaptureFixture[str], chasers: list[str]
) -> None:
    rules = Rules.from_name(name)
    out = _main(capsys, "tournament", "greedy", "random", "--rules", name, "--deals", "60")
    first = out.splitlines()[0]
    assert first.startswith("Tournament: 2 strategies, 2 seats, 60 deals (120 games), seed 0, ")
    played = rules.joker.label if rules == Rules(joker=rules.joker) else f"{rules.name} rules"
    assert first.endswith(f", {played}, {rules.tie.label}")
    assert bool(chasers) == extra_possible(rules), "no extra Yahtzee in the tournament"


@pytest.mark.parametrize("name", NAMES)
def test_the_arena_report_under_every_ruleset(name: str) -> None:
    rules = Rules.from_name(name)
    Chaser.extras = []
    result = tournament({"chaser": Chaser(), "greedy": GreedyStrategy()}, deals=40, rules=rules)
    assert bool(Chaser.extras) == extra_possible(rules), "no extra Yahtzee in the tournament"
    report = result.report()
    assert report.startswith("Tournament: 2 strategies, 2 seats, 40 deals (80 games)")
    assert rules.tie.label in report.splitlines()[0]
    assert "chaser vs greedy: " in report


def test_rules_lists_every_named_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _main(capsys, "rules").splitlines()
    for name in NAMES:
        assert any(
            line.startswith(f"{name} ") and line.endswith(Rules.describe(name)) for line in lines
        )


def test_serve_starts_the_web_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    web = pytest.importorskip("yahtzee_rules.apps.web")
    served: list[tuple[str, int]] = []
    monkeypatch.setattr(web, "serve", lambda host, port, **options: served.append((host, port)))
    assert main(["serve", "--port", "8123"]) == 0
    assert served == [("127.0.0.1", 8123)]
    assert "http://127.0.0.1:8123/" in capsys.readouterr().err


_NO_TABLE = ("triple", "triple-in-order")  # no exact table: the solver commands refuse


@pytest.mark.parametrize("name", _NO_TABLE)
def test_the_solver_commands_refuse_a_card_out_of_reach(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numpy")
    for args in (["solve"], ["distribution"], ["target", "200"]):
        assert main([*args, "--rules", name]) == 2
        err = capsys.readouterr().err
        assert err.startswith("yahtzee-rules: error: ")
        assert "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name in NAMES if name not in _NO_TABLE])
def test_the_solver_commands_from_a_late_card(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numpy")
    rules = Rules.from_name(name)
    record = extra_yahtzee_record(rules)
    while len(record.game.player_card(0).open_categories) > 3:  # a late card: a second's work
        record = record.fill(next(iter(record.game.options))).roll(outcome="44444")
    card = str(record.game.player_card(0))
    assert "optimal play: " in _main(capsys, "solve", "--rules", name)
    out = _main(capsys, "distribution", "--rules", name, "--card", card)
    assert out.startswith(f"Final score under optimal play from the card {card}, ")
    out = _main(capsys, "target", "150", "--rules", name, "--card", card)
    assert out.startswith(f"A final score of 150 or more from the card {card}, ")


# --- the web table --------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_web_table_through_an_extra_yahtzee(name: str) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from yahtzee_rules.apps.web import create_app

    rules = Rules.from_name(name)
    client = TestClient(create_app(rng=random.Random(1)))
    started = client.post("/new", data={"rules": name, "tie": rules.tie.value, "kind-0": "h"})
    assert started.status_code == 200
    assert escape(Rules.describe(rules)) in started.text
    record = extra_yahtzee_record(rules, ("Ann", "Cy"))
    link = f"/play/{record.share_code()}?seats=hg"
    page = client.get(link)
    assert page.status_code == 200
    note = joker_note(record.game)
    assert ('id="joker-note"' in page.text) == (note is not None)
    if note is not None:
        assert escape(note) in page.text
    assert (f"+{rules.yahtzee_bonus} bonus" in page.text) == (rules.yahtzee_bonus > 0)
    box, option = first_legal(record)
    filled = client.post(link.replace("?", "/fill?", 1), data={"box": box.code})
    assert filled.status_code == 200
    url = filled.url
    code = url.path.split("/play/")[1]
    after = GameRecord.from_share_code(code).game
    assert after.player_card(0)[box] == option.points
    assert after.player_card(0).bonus_marks == record.game.player_card(0).bonus_marks + (
        option.bonus > 0
    )
