"""Simulation: the Strategy protocol, the bundled strategies and the seeded harness."""

from __future__ import annotations

import itertools
import math
import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    Box,
    Category,
    GreedyStrategy,
    IllegalActionError,
    Keep,
    MalformedInputError,
    RandomStrategy,
    Rules,
    Scorecard,
    SimulationResult,
    Strategy,
    Turn,
    simulate,
)
from yahtzee_rules.testing import strategies as yst


class Recorder:
    """A strategy that plays greedily and records every turn it is shown."""

    def __init__(self) -> None:
        self.greedy = GreedyStrategy()
        self.keep_turns: list[Turn] = []
        self.box_turns: list[Turn] = []

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        self.keep_turns.append(turn)
        return self.greedy.choose_keep(turn, rng)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        self.box_turns.append(turn)
        return self.greedy.choose_box(turn, rng)


def test_a_game_asks_for_thirteen_boxes_per_player() -> None:
    recorder = Recorder()
    result = simulate(recorder, games=3, seed=5, players=2)
    assert len(recorder.box_turns) == 3 * 2 * 13
    assert all(turn.rolls_left > 0 for turn in recorder.keep_turns)
    assert all(turn.dice is not None for turn in recorder.box_turns)
    assert result.games == 3
    assert result.players == 2
    assert len(result.scores) == 6


def test_the_same_seed_plays_the_same_games() -> None:
    first = simulate(RandomStrategy(), games=15, seed=11)
    assert simulate(RandomStrategy(), games=15, seed=11).scores == first.scores
    assert simulate(RandomStrategy(), games=15, seed=12).scores != first.scores


def test_the_harness_never_touches_global_random_state() -> None:
    random.seed(99)
    before = random.getstate()
    simulate(RandomStrategy(), games=2, seed=1)
    assert random.getstate() == before


def test_greedy_beats_random() -> None:
    greedy = simulate(GreedyStrategy(), games=60, seed=2)
    chance = simulate(RandomStrategy(), games=60, seed=2)
    assert greedy.mean > chance.mean + 100
    duel = simulate([GreedyStrategy(), RandomStrategy()], games=20, seed=4)
    assert duel.wins[0] > duel.wins[1]
    assert sum(duel.wins) == pytest.approx(20)


def test_scores_match_the_cards_the_strategies_filled() -> None:
    recorder = Recorder()
    result = simulate(recorder, games=1, seed=8)
    last = recorder.box_turns[-1]
    card = last.fill(recorder.greedy.choose_box(last, random.Random(0)))
    from yahtzee_rules import totals

    assert card.is_complete
    assert result.scores == (totals(card).grand_total,)


@settings(max_examples=40)
@given(yst.turns())
def test_bundled_strategies_only_choose_legal_actions(turn: Turn) -> None:
    rng = random.Random(0)
    if turn.dice is None:
        return
    for strategy in (RandomStrategy(), GreedyStrategy()):
        assert strategy.choose_box(turn, rng) in turn.options
        if turn.rolls_left:
            keep = strategy.choose_keep(turn, rng)
            assert keep is None or turn.can_roll(keep)


@given(st.lists(st.integers(0, 1575), min_size=2, max_size=60))
def test_result_statistics(scores: list[int]) -> None:
    result = SimulationResult.from_scores(scores, seconds=2.0)
    assert result.mean == pytest.approx(statistics.fmean(scores))
    assert result.std == pytest.approx(statistics.stdev(scores), abs=1e-9)
    assert result.stderr == pytest.approx(result.std / math.sqrt(len(scores)), abs=1e-12)
    assert (result.minimum, result.maximum) == (min(scores), max(scores))
    assert sum(count for _, count in result.histogram) == len(scores)
    assert [s for s, _ in result.histogram] == sorted(set(scores))
    assert result.games_per_second == len(scores) / 2.0
    assert result.quantile(0) == min(scores)
    assert result.quantile(1) == max(scores)
    assert result.quantile(0.5) == pytest.approx(statistics.median(scores))


@given(st.lists(st.integers(0, 300), min_size=3, max_size=30).filter(lambda s: len(s) % 3 == 0))
def test_wins_add_up_to_the_games(scores: list[int]) -> None:
    result = SimulationResult.from_scores(scores, players=3)
    assert sum(result.wins) == pytest.approx(result.games)
    assert all(w >= 0 for w in result.wins)


def test_user_strategies_plug_in() -> None:
    class ChanceThenZeros:
        def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
            return None

        def choose_box(self, turn: Turn, rng: random.Random) -> Box:
            return next(iter(turn.options))

    assert isinstance(ChanceThenZeros(), Strategy)
    result = simulate(ChanceThenZeros(), games=2, seed=0)
    assert result.games == 2


def test_a_strategy_breaking_the_rules_is_stopped() -> None:
    class Cheater:
        def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
            return Keep("66666")

        def choose_box(self, turn: Turn, rng: random.Random) -> Box:
            return Category.YAHTZEE

    with pytest.raises(IllegalActionError, match="in seat 0, game 1 of simulate") as caught:
        simulate(Cheater(), games=1, seed=3)
    assert isinstance(caught.value.__cause__, IllegalActionError)


def test_rejects_bad_arguments() -> None:
    with pytest.raises(MalformedInputError, match="choose_keep and choose_box"):
        simulate("greedy", games=1)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="one strategy per seat"):
        simulate([GreedyStrategy()], players=2)
    with pytest.raises(MalformedInputError, match="games -1"):
        simulate(GreedyStrategy(), games=-1)
    with pytest.raises(MalformedInputError, match="rules"):
        simulate(GreedyStrategy(), rules="forced")  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="do not split into games"):
        SimulationResult.from_scores([1, 2, 3], players=2)
    with pytest.raises(MalformedInputError, match="quantile"):
        SimulationResult.from_scores([1]).quantile(2)


def test_rules_are_passed_to_the_games() -> None:
    recorder = Recorder()
    free = Rules(joker="free-choice")
    simulate(recorder, games=1, seed=1, rules=free)
    assert {turn.rules for turn in recorder.box_turns} == {free}


# --------------------------------------------------------------------------------------
# The optimal strategy through the public API (a small table for a late card).
# --------------------------------------------------------------------------------------


def test_optimal_strategy_follows_the_advice() -> None:
    solver = pytest.importorskip("yahtzee_rules.bots.solver")
    from yahtzee_rules import OptimalStrategy

    card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
    table = solver.build_table(start=card)
    optimal = OptimalStrategy(table)
    rng = random.Random(0)
    for dice in ("66612", "12345", "66666", "11223"):
        for rolls_used in (1, 2, 3):
            turn = Turn(card, dice=dice, rolls_used=rolls_used)
            advice = solver.advise(turn, table)
            box = optimal.choose_box(turn, rng)
            assert advice.expected_of(box) == max(o.expected for o in advice.options if o.is_fill)
            if turn.rolls_left:
                keep = optimal.choose_keep(turn, rng)
                action = Category.CHANCE if keep is None else keep
                chosen = advice.expected_of(box if keep is None else action)
                assert chosen == pytest.approx(advice.expected, abs=1e-9)


def test_optimal_strategy_needs_a_table() -> None:
    pytest.importorskip("numpy")
    from yahtzee_rules import OptimalStrategy

    with pytest.raises(MalformedInputError, match="not a Table"):
        OptimalStrategy("table")  # type: ignore[arg-type]


def test_optimal_strategy_plays_yacht_from_its_rules() -> None:
    solver = pytest.importorskip("yahtzee_rules.bots.solver")
    from yahtzee_rules import YACHT, OptimalStrategy, YachtBox, simulate

    yacht = Rules.from_name("yacht")
    optimal = OptimalStrategy(rules=yacht)
    assert optimal.table.rules == yacht
    assert optimal.table.start == Scorecard(card=YACHT)
    result = simulate(optimal, games=40, seed=4, rules=yacht)
    assert result.games == 40
    assert all(5 <= s <= 297 for s in result.scores)
    # the same decisions as the batched player's table
    turn = Turn(Scorecard(card=YACHT), rules=yacht, dice="44445", rolls_used=3)
    assert optimal.choose_box(turn, random.Random(0)) is YachtBox.FOUR_OF_A_KIND
    assert solver.best_box(turn, optimal.table) is YachtBox.FOUR_OF_A_KIND
    # a Classic game is refused, naming both rulesets
    with pytest.raises(MalformedInputError, match=r"table for Rules\.from_name\('yacht'\)"):
        simulate(optimal, games=1)
    with pytest.raises(
        MalformedInputError, match="rules 'forced': the table is for the rules 'yacht'"
    ):
        OptimalStrategy(optimal.table, rules=Rules())


def test_simulate_reports_progress_after_every_game() -> None:
    from yahtzee_rules import RandomStrategy, simulate

    calls: list[tuple[int, int]] = []
    simulate(
        RandomStrategy(), games=5, seed=1, progress=lambda done, total: calls.append((done, total))
    )
    assert calls == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


# --- play_turn: the one strategy loop -------------------------------------------------------


@given(st.integers(0, 2**32 - 1), st.sampled_from([RandomStrategy(), GreedyStrategy()]))
def test_play_turn_records_one_whole_turn_and_simulate_plays_the_same_turns(
    seed: int, strategy: Strategy
) -> None:
    from yahtzee_rules import Fill, Game, GameRecord, Roll, play_turn

    game = Game.new(2)
    record = play_turn(game, strategy, random.Random(seed))
    *rolls, fill = record.actions
    assert record.start == game
    assert 1 <= len(rolls) <= 3
    assert all(isinstance(roll, Roll) for roll in rolls)
    assert isinstance(fill, Fill)
    assert GameRecord(game, record.actions).game == record.game  # the actions replay
    assert record.game.current == 1
    # Playing on from a record adds the next turn to it; turn after turn, the game is the
    # one simulate plays with the same seed.
    rng = random.Random(seed)
    whole = GameRecord.new(2)
    while not whole.game.is_over:
        whole = play_turn(whole, strategy, rng)
    scores = tuple(whole.game.player_totals(seat).grand_total for seat in range(2))
    assert simulate(strategy, games=1, seed=seed, players=2).scores == scores


def test_play_turn_continues_a_turn_under_way_and_refuses_bad_arguments() -> None:
    from yahtzee_rules import Fill, Game, GameRecord, play_turn

    record = GameRecord.new(1).roll(outcome="22345")
    after = play_turn(record, GreedyStrategy(), random.Random(0))
    assert after.actions[0] == record.actions[0]  # the roll already made is kept
    assert after.start == record.start
    assert isinstance(after.actions[-1], Fill)
    with pytest.raises(MalformedInputError, match="not a Game or a GameRecord"):
        play_turn("forced 0 Ann :", GreedyStrategy(), random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="has no choose_keep"):
        play_turn(Game.new(1), object(), random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match=r"not a random\.Random"):
        play_turn(Game.new(1), GreedyStrategy(), 3)  # type: ignore[arg-type]
    finished = GameRecord.new(1)
    while not finished.game.is_over:
        finished = play_turn(finished, GreedyStrategy(), random.Random(1))
    with pytest.raises(IllegalActionError, match="game is over"):
        play_turn(finished, GreedyStrategy(), random.Random(1))


def test_the_demo_game_is_played_by_play_turn_with_the_demo_strategy() -> None:
    from yahtzee_rules import GameRecord, play_turn, roll_off
    from yahtzee_rules.apps.demo import DemoStrategy, play_demo

    game, _ = play_demo(seed=9, players=["Ann", "Bob"])
    rng = random.Random(9)
    record = GameRecord.new(["Ann", "Bob"], first=roll_off(["Ann", "Bob"], rng).starter)
    while not record.game.is_over:
        record = play_turn(record, DemoStrategy(), rng)
    assert record.game == game


@given(st.integers(1, 4), st.lists(st.integers(0, 400), min_size=1, max_size=40))
def test_win_shares_add_up_to_one_and_favour_no_seat_on_symmetric_ties(
    players: int, totals: list[int]
) -> None:
    scores = [total for total in totals for _ in range(players)]  # every game a full tie
    shares = SimulationResult.from_scores(scores, players=players).win_shares
    assert sum(shares) == pytest.approx(1.0)
    assert shares == pytest.approx([1 / players] * players)
    assert all(math.isnan(s) for s in SimulationResult.from_scores([], players=2).win_shares)


@given(st.lists(st.integers(0, 1575), min_size=1, max_size=200), st.integers(1, 40))
def test_histogram_bins_cover_every_score_once_in_at_most_the_bins_asked(
    scores: list[int], bins: int
) -> None:
    result = SimulationResult.from_scores(scores)
    rows = result.histogram_bins(bins)
    width = rows[0][1] - rows[0][0] + 1
    assert len(rows) <= bins + 1 or width > 500  # +1: the first bin starts at a multiple
    assert all(high - low + 1 == width and low % width == 0 for low, high, _ in rows)
    assert all(b[0] == a[1] + 1 for a, b in itertools.pairwise(rows))
    assert rows[0][0] <= min(scores)
    assert max(scores) <= rows[-1][1]
    for low, high, count in rows:
        assert count == sum(low <= s <= high for s in scores)
    exact = result.histogram_bins(max(scores) - min(scores) + 1)
    assert [(low, count) for low, _, count in exact if count] == list(result.histogram)


def test_histogram_bins_refuses_a_bad_count_and_is_empty_without_games() -> None:
    assert SimulationResult.from_scores([]).histogram_bins() == ()
    for bad in (0, -1, 2.5, True):
        with pytest.raises(MalformedInputError, match="not a positive int"):
            SimulationResult.from_scores([1]).histogram_bins(bad)  # type: ignore[arg-type]


def test_optimal_seats_play_the_same_games_as_through_game() -> None:
    """simulate plays optimal strategies without a Game per action: the same games."""
    pytest.importorskip("numpy")
    import random

    from yahtzee_rules import Category, Game, OptimalStrategy, Rules, Scorecard
    from yahtzee_rules.bots.simulation import _play_turn
    from yahtzee_rules.bots.solver import build_table, load_table

    rules = Rules()
    card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
    late = build_table(rules=rules, start=card)
    full = OptimalStrategy(build_table(rules=Rules.from_name("yacht")))
    classic = OptimalStrategy(load_table(rules=rules))
    cases = [
        ([full], None),
        ([full, full], None),
        ([classic], None),
        ([OptimalStrategy(late)], card),
    ]
    for seats, start in cases:
        if start is None:
            played = seats[0].table.rules
            result = simulate(seats, games=6, seed=4, rules=played)
            rng = random.Random(4)
            expected: list[int] = []
            for _ in range(6):
                game = Game.new(len(seats), rules=played)
                while game.turn is not None:
                    game = _play_turn(game, seats[game.current], rng)
                expected.extend(game.player_totals(seat).grand_total for seat in range(len(seats)))
            assert list(result.scores) == expected
        else:  # a table that does not cover the empty card: the game path says so
            with pytest.raises(MalformedInputError, match="covers only"):
                simulate(seats, games=1, seed=4)
