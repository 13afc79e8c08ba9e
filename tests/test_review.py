"""Game review: luck and skill split every player's score exactly, against optimal play.

The checks of the review's definition: the identity ``end - start = luck - cost`` for
every player of random games on every ruleset the solver covers (Joker turns and
several players included), optimal play costing exactly nothing, luck averaging zero
(so a strategy's mean cost is the optimum minus its mean score), and the costs
against values worked out by plain recursion, independently of the solver.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import statistics
from collections.abc import Callable

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    Box,
    Dice,
    Fill,
    Game,
    GameRecord,
    GreedyStrategy,
    Keep,
    MalformedInputError,
    RandomStrategy,
    Rules,
    Scorecard,
    Turn,
    legal_fills,
    roll_distribution,
    totals,
)
from yahtzee_rules.bots.simulation import OptimalStrategy, Strategy
from yahtzee_rules.bots.solver import Table, advise, build_table
from yahtzee_rules.bots.solver._review import (
    GRADES,
    Decision,
    PlayerReview,
    Review,
    RollLuck,
    review,
)

SOLVABLE = tuple(name for name in Rules.names() if len(Rules.from_name(name).card.columns) == 1)


def _reduced_start(rules: Rules, open_boxes: int, rng: random.Random) -> Scorecard:
    """A card of ``rules`` reached by random legal play, with ``open_boxes`` boxes open."""
    game = Game.new(["x"], rules=rules)
    strategy = RandomStrategy()
    while sum(v is None for v in game.player_card(game.current).boxes) > open_boxes:
        game = game.roll(rng)
        game = game.fill(strategy.choose_box(game.turn, rng))  # type: ignore[arg-type]
    return game.player_card(game.current)


def _play(
    start: Game,
    strategies: list[Strategy],
    rng: random.Random,
    *,
    yahtzees: float = 0.0,
) -> GameRecord:
    """A record played from ``start`` by one strategy a seat; with ``yahtzees``, that share
    of rolls throws five of a kind (to reach Joker turns often)."""
    record = GameRecord.from_game(start)
    while not record.game.is_over:
        game = record.game
        turn = game.turn
        assert turn is not None
        strategy = strategies[game.current]
        if turn.dice is not None:
            keep = strategy.choose_keep(turn, rng) if turn.rolls_left else None
            if keep is None:
                record = record.fill(strategy.choose_box(turn, rng))
                continue
        else:
            keep = Keep()
        if rng.random() < yahtzees:
            face = keep.faces[0] if keep.faces and len(set(keep.faces)) == 1 else rng.randint(1, 6)
            if set(keep.faces) <= {face}:
                record = record.roll(keep=keep, outcome=[face] * (5 - len(keep.faces)))
                continue
        record = record.roll(rng, keep=keep)
    return record


@functools.cache
def _reduced_table(name: str, open_boxes: int, seed: int) -> tuple[Scorecard, Table]:
    rules = Rules.from_name(name)
    start = _reduced_start(rules, open_boxes, random.Random(seed))
    return start, build_table(rules=rules, start=start)


def _game(rules: Rules, card: Scorecard, players: int) -> Game:
    names = [f"P{i}" for i in range(players)]
    return Game(
        names,
        rules=rules,
        cards=[card] * players,
        first=0,
        current=0,
        turn=Turn(card, rules=rules),
    )


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(SOLVABLE),
    seed=st.integers(0, 3),
    players=st.integers(1, 3),
    yahtzees=st.sampled_from([0.0, 0.3]),
    play_seed=st.integers(0, 2**32),
)
def test_luck_and_cost_add_up_to_the_score_for_every_player(
    name: str, seed: int, players: int, yahtzees: float, play_seed: int
) -> None:
    card, table = _reduced_table(name, 5, seed)
    rules = table.rules
    rng = random.Random(play_seed)
    kinds: list[Strategy] = [RandomStrategy(), GreedyStrategy(), OptimalStrategy(table)]
    strategies = [rng.choice(kinds) for _ in range(players)]
    record = _play(_game(rules, card, players), strategies, rng, yahtzees=yahtzees)
    reviewed = review(record, table)
    assert [p.player for p in reviewed.players] == list(record.game.players)
    for seat, player in enumerate(reviewed.players):
        assert player.start == pytest.approx(table.expected_final(card), abs=1e-9)
        assert player.end == totals(record.game.cards[seat], rules=rules).grand_total
        assert abs(player.unexplained) <= 1e-9
        assert all(d.cost >= 0 for d in player.decisions)
        for decision in player.decisions:
            assert decision.expected <= decision.best_expected + 1e-9
            assert decision.grade in {g for g, _ in GRADES} | {"forced"}


def test_a_record_that_ends_mid_turn_or_starts_after_a_roll_still_adds_up() -> None:
    card, table = _reduced_table("forced", 4, 1)
    rng = random.Random(5)
    record = _play(_game(table.rules, card, 2), [GreedyStrategy(), RandomStrategy()], rng)
    for cut in range(len(record.actions) + 1):
        partial = GameRecord(record.start, record.actions[:cut])
        for player in review(partial, table).players:
            assert abs(player.unexplained) <= 1e-9
        later = GameRecord.from_game(partial.game)  # starts wherever the cut left it
        rest = GameRecord(later.start, record.actions[cut:])
        for player in review(rest, table).players:
            assert abs(player.unexplained) <= 1e-9


@pytest.mark.parametrize("name", SOLVABLE)
def test_optimal_play_costs_exactly_nothing(name: str) -> None:
    card, table = _reduced_table(name, 5, 2)
    for play_seed in range(6):
        rng = random.Random(play_seed)
        optimal = OptimalStrategy(table)
        record = _play(_game(table.rules, card, 2), [optimal, optimal], rng, yahtzees=0.2)
        for player in review(record, table).players:
            assert [d.cost for d in player.decisions] == [0.0] * len(player.decisions)
            assert {d.grade for d in player.decisions} <= {"best", "forced"}


@pytest.mark.parametrize("strategy", [RandomStrategy(), GreedyStrategy()], ids=["random", "greedy"])
def test_luck_averages_zero_so_cost_is_the_optimum_minus_the_score(strategy: Strategy) -> None:
    card, table = _reduced_table("forced", 4, 3)
    rng = random.Random(11)
    optimum = table.expected_final(card)
    gaps, lucks = [], []
    for _ in range(400):
        record = _play(_game(table.rules, card, 1), [strategy], rng)
        player = review(record, table).players[0]
        gaps.append(optimum - player.end - player.cost)  # -luck
        lucks.append(player.luck)
    mean, sd = statistics.fmean(lucks), statistics.stdev(lucks)
    assert abs(mean) <= 3.3 * sd / math.sqrt(len(lucks))  # 99.9 % interval around 0
    assert statistics.fmean(gaps) == pytest.approx(-mean, abs=1e-9)


# ----------------------------------------------------------------------------------
# An independent computation: plain recursion over the positions of a reduced card.
# ----------------------------------------------------------------------------------


def _recursive_values(rules: Rules) -> Callable[..., float]:
    """V(card, dice, rolls_left): the expected final score under optimal play, from the
    library's rules alone (legal fills and their points; the totals), by recursion."""

    @functools.cache
    def turn_start(card: Scorecard) -> float:
        if card.is_complete:
            return float(totals(card, rules=rules).grand_total)
        return _mean_over(Keep(), lambda dice: after_roll(card, dice, 2))

    @functools.cache
    def after_roll(card: Scorecard, dice: Dice, rolls_left: int) -> float:
        return max(value for _, value in options(card, dice, rolls_left))

    @functools.cache
    def keep_value(card: Scorecard, keep: Keep, rolls_left: int) -> float:
        return _mean_over(keep, lambda dice: after_roll(card, dice, rolls_left))

    def options(card: Scorecard, dice: Dice, rolls_left: int) -> list[tuple[Keep | Box, float]]:
        found: list[tuple[Keep | Box, float]] = []
        for box in legal_fills(card, dice, rules=rules):
            found.append((box, turn_start(Turn(card, rules=rules).roll(outcome=dice).fill(box))))
        if rolls_left:
            found += [(keep, keep_value(card, keep, rolls_left - 1)) for keep in dice.keeps()]
        return found

    def _mean_over(keep: Keep, value: Callable[[Dice], float]) -> float:
        return math.fsum(float(p) * value(dice) for dice, p in roll_distribution(keep).items())

    def value_of(card: Scorecard, dice: Dice, rolls_left: int, action: Keep | Box) -> float:
        return dict(options(card, dice, rolls_left))[action]

    value_of.turn_start = turn_start  # type: ignore[attr-defined]
    value_of.after_roll = after_roll  # type: ignore[attr-defined]
    return value_of


@pytest.mark.parametrize("name", ["forced", "free-choice", "yatzy"])
def test_costs_agree_with_plain_recursion(name: str) -> None:
    card, table = _reduced_table(name, 2, 7)
    rules = table.rules
    value_of = _recursive_values(rules)
    rng = random.Random(3)
    for _ in range(8):
        record = _play(_game(rules, card, 1), [RandomStrategy()], rng, yahtzees=0.2)
        player = review(record, table).players[0]
        assert player.start == pytest.approx(value_of.turn_start(card), abs=1e-9)  # type: ignore[attr-defined]
        replay = record.start
        decisions = iter(player.decisions)
        for action in record.actions:
            turn = replay.turn
            assert turn is not None
            if turn.dice is not None:
                decision = next(decisions)
                best = value_of.after_roll(turn.card, turn.dice, turn.rolls_left)  # type: ignore[attr-defined]
                taken = value_of(turn.card, turn.dice, turn.rolls_left, decision.action)
                assert decision.best_expected == pytest.approx(best, abs=1e-9)
                assert decision.cost == pytest.approx(best - taken, abs=1e-9)
            replay = GameRecord(replay, (action,)).game


def test_a_review_is_refused_for_what_is_not_a_record() -> None:
    with pytest.raises(MalformedInputError, match="not a GameRecord"):
        review("forced 0 Ann -")  # type: ignore[arg-type]


def test_the_biggest_mistakes_come_first_in_plain_words() -> None:
    card, table = _reduced_table("forced", 5, 4)
    rng = random.Random(9)
    record = _play(_game(table.rules, card, 1), [RandomStrategy()], rng)
    player = review(record, table).players[0]
    mistakes = player.mistakes()
    assert mistakes, "random play makes mistakes"
    assert [m.cost for m in mistakes] == sorted((m.cost for m in mistakes), reverse=True)
    worst = max(d.cost for d in player.decisions)
    assert mistakes[0].cost == worst
    text = mistakes[0].describe()
    assert f"{worst:.2f} points more" in text
    assert str(mistakes[0].dice) in text
    counted = player.grades()
    assert sum(counted.values()) == len(player.decisions)
    assert player.mean_cost == pytest.approx(
        math.fsum(d.cost for d in player.choices) / len(player.choices)
    )


# ----------------------------------------------------------------------------------
# The review kernel against the review built from advice (the path it replaced).
# ----------------------------------------------------------------------------------


@attrs.define
class _Seat:
    name: str
    start: float
    before: float
    decisions: list[Decision] = attrs.Factory(list)
    rolls: list[RollLuck] = attrs.Factory(list)


def _review_by_advice(record: GameRecord, table: Table) -> Review:
    """The review as it was built before the kernel: advise() on every position of the
    record, replayed through Game, every option built and sorted."""
    start = record.start
    rules = start.rules
    seats: list[_Seat] = []
    for index, (name, card) in enumerate(zip(start.players, start.cards, strict=True)):
        turn = start.turn if index == start.current else None
        if card.is_complete:
            value = float(totals(card, rules=rules).grand_total)
        else:
            if turn is None or turn.dice is None:
                turn = Turn(card, rules=rules)
            value = advise(turn, table).expected
        seats.append(_Seat(name, value, value))
    game = start
    for action in (*record.actions, None):
        turn = game.turn
        if turn is None or (turn.dice is None and action is None):
            break
        if turn.dice is not None:
            seat = seats[game.current]
            advice = advise(turn, table)
            number = sum(v is not None for v in turn.card.boxes) + 1
            if game is not start:
                seat.rolls.append(
                    RollLuck(
                        seat.name, number, turn.rolls_used, turn.dice, seat.before, advice.expected
                    )
                )
                seat.before = advice.expected
            if action is None:
                break
            taken = action.category if isinstance(action, Fill) else action.keep
            options = advice.options
            shown = tuple(o for o in options[:4] if o.action != taken)[:3]
            expected = advice.expected_of(taken)
            decision = Decision(
                seat.name, number, turn.rolls_used, turn.dice, taken, expected,
                options[0].action, options[0].expected, shown, len(options),
            )  # fmt: skip
            seat.decisions.append(decision)
            seat.before = expected
        assert action is not None
        if isinstance(action, Fill):
            game = game.fill(action.category)
        else:
            game = game.roll(keep=action.keep, outcome=action.outcome)
    return Review(
        rules,
        tuple(
            PlayerReview(s.name, s.start, s.before, tuple(s.decisions), tuple(s.rolls))
            for s in seats
        ),
    )


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(SOLVABLE),
    seed=st.integers(0, 3),
    players=st.integers(1, 3),
    yahtzees=st.sampled_from([0.0, 0.3]),
    play_seed=st.integers(0, 2**32),
    cut=st.floats(0, 1),
)
def test_the_kernel_reviews_exactly_as_advice_did(
    name: str, seed: int, players: int, yahtzees: float, play_seed: int, cut: float
) -> None:
    card, table = _reduced_table(name, 5, seed)
    rng = random.Random(play_seed)
    kinds: list[Strategy] = [RandomStrategy(), GreedyStrategy(), OptimalStrategy(table)]
    strategies = [rng.choice(kinds) for _ in range(players)]
    record = _play(_game(table.rules, card, players), strategies, rng, yahtzees=yahtzees)
    at = int(cut * len(record.actions))  # a record cut anywhere, and one starting there
    for part in (
        record,
        GameRecord(record.start, record.actions[:at]),
        GameRecord(GameRecord(record.start, record.actions[:at]).game, record.actions[at:]),
    ):
        assert review(part, table) == _review_by_advice(part, table)


class _Loaded(random.Random):
    """Dice that often show the lowest outcome (five 1s, or the held dice and 1s): many
    Yahtzees, so extra-Yahtzee bonuses and Joker turns come up."""

    def random(self) -> float:
        return super().random() ** 3


@pytest.mark.parametrize("name", SOLVABLE)
def test_evaluations_kernel_rates_games_exactly_as_their_reviews_do(name: str) -> None:
    """play_and_rate (what evaluate runs) against playing each game as a GameRecord and
    reviewing it: the same dice, the same floats, for random, greedy and optimal play,
    with fair dice and with loaded ones (Joker turns)."""
    from yahtzee_rules.bots.solver._internal import play_and_rate

    card, table = _reduced_table(name, 5, 0)  # Yahtzee open, on the Classic cards
    rules = table.rules
    kinds: list[Strategy] = [RandomStrategy(), GreedyStrategy(), OptimalStrategy(table)]
    for number, (strategy, dice) in enumerate(itertools.product(kinds, [random.Random, _Loaded])):
        rated = play_and_rate(strategy, table, 6, dice(number), card)
        rng = dice(number)
        expected = []
        for _ in range(6):
            record = GameRecord.from_game(_game(rules, card, 1))
            while (turn := record.game.turn) is not None:
                if turn.dice is None:
                    record = record.roll(rng, keep=Keep())
                    continue
                keep = strategy.choose_keep(turn, rng) if turn.rolls_left else None
                if keep is None:
                    record = record.fill(strategy.choose_box(turn, rng))
                else:
                    record = record.roll(rng, keep=keep)
            player = review(record, table).players[0]
            expected.append((player.end, player.cost, len(player.choices), player.luck))
        assert rated == expected
