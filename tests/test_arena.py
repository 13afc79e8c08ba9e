"""Tournaments: seatings, common dice, the statistics and the sequential test."""

from __future__ import annotations

import math
import random

import pytest

from yahtzee_rules import (
    Box,
    Category,
    GreedyStrategy,
    JokerRule,
    Keep,
    RandomStrategy,
    Rules,
    Strategy,
    TieRule,
    Turn,
)
from yahtzee_rules.bots.arena import Sprt, Verdict, tournament
from yahtzee_rules.support.errors import MalformedInputError


class ChanceFirst(GreedyStrategy):
    """Greedy, except that it fills Chance with its first roll."""

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        if Category.CHANCE in turn.options:
            return None
        return super().choose_keep(turn, rng)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        if Category.CHANCE in turn.options:
            return Category.CHANCE
        return super().choose_box(turn, rng)


class Recorder:
    """Plays greedy, noting every first roll it is dealt (the common dice)."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.greedy = GreedyStrategy()

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        if turn.rolls_used == 1:
            self.seen.append(str(turn.dice))
        return self.greedy.choose_keep(turn, rng)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        return self.greedy.choose_box(turn, rng)


def test_a_seeded_tournament_repeats_its_tables() -> None:
    bots: dict[str, Strategy] = {
        "greedy": GreedyStrategy(),
        "random": RandomStrategy(),
        "chance": ChanceFirst(),
    }
    first = tournament(bots, deals=30, seed=11)
    again = tournament(bots, deals=30, seed=11)
    assert again == first
    assert again.report() == first.report()
    other = tournament(bots, deals=30, seed=12)
    assert other.standings != first.standings


def test_chance_first_loses_to_greedy_with_significance() -> None:
    result = tournament({"greedy": GreedyStrategy(), "chance first": ChanceFirst()}, deals=200)
    pair = result.pair("greedy", "chance first")
    assert pair.verdict is Verdict.FIRST
    assert pair.interval[0] > 0.5
    assert result.pair("chance first", "greedy").verdict is Verdict.SECOND
    greedy, chance = result.standings
    assert greedy.win_interval[0] > 0.5 > chance.win_interval[1]
    assert greedy.mean_score - chance.mean_score > 2 * math.hypot(
        greedy.score_stderr, chance.score_stderr
    )


def test_the_sequential_test_finds_the_edge_and_stops() -> None:
    result = tournament(
        {"greedy": GreedyStrategy(), "chance first": ChanceFirst()},
        deals=2000,
        sprt=Sprt(edge=0.02),
    )
    pair = result.pair("greedy", "chance first")
    assert pair.verdict is Verdict.FIRST
    assert result.deals < 2000
    assert pair.deals == result.deals
    assert pair.llr is not None
    assert pair.llr[0] >= Sprt(edge=0.02).upper


@pytest.mark.parametrize("bot", [GreedyStrategy(), RandomStrategy()])
def test_two_copies_of_one_bot_show_no_significant_difference(
    bot: GreedyStrategy | RandomStrategy,
) -> None:
    result = tournament({"a": bot, "b": bot}, deals=20)
    pair = result.pair("a", "b")
    assert pair.verdict is Verdict.NONE
    assert pair.share == 0.5
    # same dice, same seats: every deal is an exact tie, yet 40 games do not prove a tie
    low, high = pair.interval
    assert low < 0.5 < high
    a, b = result.standings
    assert (a.wins, a.mean_score) == (b.wins, b.mean_score)
    decided = tournament({"a": bot, "b": bot}, deals=500, sprt=Sprt())
    assert decided.deals == 100
    assert decided.pair("a", "b").verdict is Verdict.NONE


def test_copies_tie_exactly_with_three_seats_too() -> None:
    bots: dict[str, Strategy] = {
        "a": RandomStrategy(),
        "b": RandomStrategy(),
        "greedy": GreedyStrategy(),
    }
    result = tournament(bots, deals=5, seats=3)
    assert result.games == 5 * 6  # three rotations, and three of the reversed seating
    assert [record.games for record in result.standings] == [30, 30, 30]
    assert result.pair("a", "b").share == 0.5
    assert result.pair("greedy", "a").verdict is Verdict.FIRST


def test_every_seat_gets_the_same_dice_in_every_pairing() -> None:
    one, two, three = Recorder(), Recorder(), Recorder()
    tournament({"one": one, "two": two, "three": three}, deals=1)
    # games: one-two, two-one, one-three, three-one, two-three, three-two; 13 turns each
    seat_1, seat_2 = one.seen[:13], one.seen[13:26]
    assert seat_1 != seat_2
    assert one.seen == seat_1 + seat_2 + seat_1 + seat_2
    assert two.seen == seat_2 + seat_1 + seat_1 + seat_2
    assert three.seen == seat_2 + seat_1 + seat_2 + seat_1


def test_wins_follow_the_tie_rule() -> None:
    bots = [RandomStrategy(), RandomStrategy(), RandomStrategy()]
    for tie in TieRule:
        result = tournament(bots, deals=10, seats=3, rules=Rules(tie=tie), seed=3)
        assert math.isclose(sum(r.wins for r in result.standings), result.games)
        assert result.report().startswith("Tournament: 3 strategies, 3 seats, 10 deals (60 games)")


def test_counts_and_names() -> None:
    result = tournament([GreedyStrategy(), GreedyStrategy(), RandomStrategy()], deals=2)
    assert result.names == ("GreedyStrategy", "GreedyStrategy 2", "RandomStrategy")
    assert result.games == 2 * 3 * 2
    assert [pair.games for pair in result.head_to_head] == [4, 4, 4]
    assert [record.games for record in result.standings] == [8, 8, 8]


def test_progress_is_reported_per_chunk() -> None:
    done: list[tuple[int, int]] = []
    tournament([RandomStrategy(), RandomStrategy()], deals=150, progress=lambda *d: done.append(d))
    assert done == [(100, 150), (150, 150)]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategies": [GreedyStrategy()]}, "1 given; a tournament needs at least two"),
        ({"strategies": [GreedyStrategy(), "greedy"]}, "has no choose_keep"),
        ({"strategies": "greedy"}, "not a mapping of names"),
        ({"strategies": {"": GreedyStrategy(), "b": GreedyStrategy()}}, "not a non-blank str"),
        ({"seats": 3}, "seats 3: not an int from 2 to the number of strategies"),
        ({"deals": 0}, "deals 0: not a positive int"),
        ({"seed": "x"}, "seed 'x': not an int"),
        ({"rules": "forced"}, "not a Rules"),
        ({"sprt": 0.05}, "not a Sprt"),
        ({"confidence": 1.5}, "confidence 1.5: not a number between 0 and 1"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"strategies": [GreedyStrategy(), RandomStrategy()], "deals": 1}
    arguments.update(kwargs)
    strategies = arguments.pop("strategies")
    with pytest.raises(MalformedInputError, match=message):
        tournament(strategies, **arguments)  # type: ignore[arg-type]


def test_sprt_checks_its_values() -> None:
    with pytest.raises(
        MalformedInputError, match=r"sprt edge 0\.5: not a number between 0 and 0\.5"
    ):
        Sprt(edge=0.5)
    with pytest.raises(MalformedInputError, match="sprt beta True"):
        Sprt(beta=True)


def test_pair_names_must_be_in_the_tournament() -> None:
    result = tournament({"a": GreedyStrategy(), "b": RandomStrategy()}, deals=1)
    with pytest.raises(MalformedInputError, match="strategy 'c': not in the tournament"):
        result.pair("a", "c")
    with pytest.raises(MalformedInputError, match="does not play itself"):
        result.pair("a", "a")


@pytest.mark.parametrize("joker", list(JokerRule))
@pytest.mark.parametrize("tie", list(TieRule))
def test_the_report_names_every_joker_and_tie_rule(joker: JokerRule, tie: TieRule) -> None:
    rules = Rules(joker=joker, tie=tie)
    first = tournament([GreedyStrategy(), RandomStrategy()], deals=2, rules=rules).report()
    assert first.splitlines()[0].endswith(f", seed 0, {joker.label}, {tie.label}")


def test_the_report_names_a_ruleset_of_another_card() -> None:
    rules = Rules.from_name("triple")
    report = tournament([GreedyStrategy(), RandomStrategy()], deals=1, rules=rules).report()
    assert report.splitlines()[0].endswith(", seed 0, triple rules, ties share")
