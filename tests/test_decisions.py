"""The decision table: the per-turn tables' actions, precomputed, read back and played."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    Game,
    GreedyStrategy,
    JokerRule,
    MalformedInputError,
    OptimalStrategy,
    Rules,
    Scorecard,
    Turn,
    simulate,
)
from yahtzee_rules.testing import strategies as yst

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.solver import _decisions, _internal, _play, _turns  # noqa: E402

RULESETS = [
    Rules(),
    *(Rules.from_name(n) for n in ("free-choice", "none", "kinds-first", "forced-yahtzee")),
    Rules(joker=JokerRule.NONE, yahtzee_bonus=0),
    *(Rules.from_name(n) for n in ("yacht", "yatzy", "forced-yatzy")),
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    return tmp_path


def _start_cards(rules: Rules) -> list[Scorecard]:
    """Cards with a few boxes open: the five-of-a-kind box open, and filled (50, or 0)."""
    card = rules.card
    members = card.members
    yahtzee = card.yahtzee
    cards = []
    for points in (None, 50, 0):
        if yahtzee is None and points is not None:
            continue
        filled: dict[Any, int] = {}
        # boxes in card order (a prefix, for the card-order rules); upper boxes score
        for box in members[: len(members) - 8]:
            filled[box] = max(card.possible[box]) if box.face in (5, 6) else 0
        if points is not None and yahtzee is not None:
            if rules.in_order:
                continue
            filled[yahtzee] = points
        cards.append(Scorecard(filled, card=card))
    return cards


def _per_turn_actions(table: Any, flat: int) -> list[list[Any]]:
    """The per-turn tables' best action for every roll and rerolls left, by ``Dice._index``."""
    model = _internal.model_of(table.rules)
    y, rest = (flat % 2, flat // 2) if model.flags == 2 else (0, flat)
    mask, u = divmod(rest, model.levels)
    tables = _internal.TurnTables(model, table.values, mask, u, y, flat)
    return [[tables.action(r, i) for i in range(252)] for r in range(3)]


def _decoded(decisions: Any, base: int) -> list[list[Any]]:
    """Every action of the state whose decisions start at ``base``."""
    decided = decisions._decided
    row = decided.codes[base : base + 3 * 252].tobytes()
    return [[decided.action(row, r, i) for i in range(252)] for r in range(3)]


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_the_decisions_are_the_per_turn_tables_actions(rules: Rules) -> None:
    """Every roll and roll stage of sampled states (Joker states among them), bit for bit."""
    rng = np.random.default_rng(7)
    for start in _start_cards(rules):
        table = solver.build_table(rules=rules, start=start)
        decisions = solver.load_decisions(table, cache=False)
        rows = np.frombuffer(decisions._decided.rows, dtype=np.int32)
        covered = np.flatnonzero(rows >= 0)
        assert len(covered) >= decisions.states  # states whose futures are equal share a row
        for flat in rng.choice(covered, size=min(60, len(covered)), replace=False):
            expected = _per_turn_actions(table, int(flat))
            base = int(rows[flat]) * 3 * 252
            found = _decoded(decisions, base)
            assert found == expected, (rules.name, start, int(flat))


def test_the_decisions_of_a_full_table_match_on_sampled_states() -> None:
    rules = Rules.from_name("yacht")
    table = solver.build_table(rules=rules)
    decisions = solver.load_decisions(table, cache=False)
    rows = np.frombuffer(decisions._decided.rows, dtype=np.int32)
    for flat in np.random.default_rng(3).choice(np.flatnonzero(rows >= 0), 150, replace=False):
        base = int(rows[flat]) * 3 * 252
        found = _decoded(decisions, base)
        assert found == _per_turn_actions(table, int(flat))


def _turns_of_greedy_games(rules: Rules, start: Scorecard, count: int) -> list[Turn]:
    rng, greedy = random.Random(11), GreedyStrategy()
    turns: list[Turn] = []
    while len(turns) < count:
        card = start
        while not card.is_complete:
            turn = Turn(card, rules=rules)
            turns.append(turn)
            turn = turn.roll(rng)
            while True:
                turns.append(turn)
                keep = greedy.choose_keep(turn, rng) if turn.rolls_left else None
                if keep is None:
                    break
                turn = turn.roll(rng, keep=keep)
            card = turn.fill(greedy.choose_box(turn, rng))
    return turns


def test_best_action_and_best_box_look_up_a_loaded_decision_table() -> None:
    rules = Rules.from_name("kinds-first")
    start = _start_cards(rules)[1]
    table = solver.build_table(rules=rules, start=start)
    plain = solver.Table(table.values, rules=rules, start=start)
    plain._decisions = False  # never looks for one: the per-turn tables
    decisions = solver.load_decisions(table, cache=False)
    assert solver.load_decisions(table, cache=False)._decided is decisions._decided  # kept
    for turn in _turns_of_greedy_games(rules, start, 400):
        action = solver.best_action(turn, table)
        assert action == solver.best_action(turn, plain) == decisions.best_action(turn)
        if turn.dice is not None:
            assert solver.best_box(turn, table) == solver.best_box(turn, plain)
    assert not table._states  # no per-turn table was computed
    assert plain._states


def test_a_decision_table_checks_cards_as_the_table_does() -> None:
    rules = Rules()
    start = _start_cards(rules)[0]
    table = solver.build_table(rules=rules, start=start)
    solver.load_decisions(table, cache=False)
    with pytest.raises(MalformedInputError, match="covers only"):
        solver.best_action(Turn(Scorecard()).roll(outcome="12345"), table)
    with pytest.raises(MalformedInputError, match="not a Table"):
        solver.load_decisions("table")
    for bad in (0, 1.5, True):
        with pytest.raises(MalformedInputError, match="threads"):
            solver.load_decisions(table, threads=bad)


def test_decisions_are_cached_mapped_and_keyed_by_the_values(cache: Path) -> None:
    rules = Rules()
    start = _start_cards(rules)[1]
    table = solver.build_table(rules=rules, start=start)
    built = solver.load_decisions(table)
    assert built.path is not None
    assert built.path.parent == cache
    assert isinstance(built._decided.array, np.memmap)  # mapped, not read
    again = solver.Table(table.values, rules=rules, start=start)
    assert _internal.cached_decisions(again) is not None  # best_action finds it on disk
    read = solver.load_decisions(again)
    assert isinstance(read._decided.array, np.memmap)
    assert np.array_equal(read._decided.array, built._decided.array)
    # other values (another table for the same rules) never use that file
    other_values = table.values.copy()
    other_values[other_values > 0] += 1.0
    other = solver.Table(other_values, rules=rules, start=start)
    assert _internal.cached_decisions(other) is None
    # a damaged file is rebuilt (replaced, not truncated: the maps above stay valid)
    expected = np.array(built._decided.array)
    damaged = built.path.with_suffix(".damaged")
    damaged.write_bytes(built.path.read_bytes()[:1000])
    damaged.replace(built.path)
    fresh = solver.Table(table.values, rules=rules, start=start)
    assert _internal.cached_decisions(fresh) is None
    rebuilt = solver.load_decisions(fresh)
    assert np.array_equal(rebuilt._decided.array, expected)
    assert np.array_equal(read._decided.array, expected)


def test_a_table_pickles_without_its_decisions_and_holds_them_without_a_cycle() -> None:
    import gc
    import pickle

    table = solver.build_table(rules=Rules.from_name("yacht"))
    decisions = solver.load_decisions(table, cache=False)
    assert pickle.loads(pickle.dumps(table))._decisions is None
    # what the table holds does not refer back to it: dropping the table frees them at once
    held = table._decisions
    assert held is decisions._decided
    assert not any(r is table for r in gc.get_referents(held))


@pytest.mark.parametrize("rules", [Rules(), Rules.from_name("yacht")], ids=lambda r: r.name)
def test_simulate_with_decisions_plays_the_same_games_as_through_game(rules: Rules) -> None:
    from yahtzee_rules.bots.simulation import _play_turn

    start = _start_cards(rules)[0] if rules.card.yahtzee is not None else None
    if start is not None:  # a full Classic table takes seconds: a late card's games
        table = solver.build_table(rules=rules, start=start)
        plain = solver.Table(table.values, rules=rules, start=start)
    else:
        table = solver.build_table(rules=rules)
        plain = solver.Table(table.values, rules=rules)
    plain._decisions = False
    decisions = solver.load_decisions(table, cache=False)
    seats = [OptimalStrategy(table), OptimalStrategy(table)]
    rng = random.Random(4)
    played = _internal.decided_scores(
        [decisions._decided] * 2, games=12, rules=rules, rng=rng, start=start
    )
    rng = random.Random(4)
    expected: list[int] = []
    plain_seats = [OptimalStrategy(plain)] * 2
    for _ in range(12):
        game = Game.new(2, rules=rules) if start is None else _game_from(start, rules)
        while game.turn is not None:
            game = _play_turn(game, plain_seats[game.current], rng)
        expected.extend(game.player_totals(seat).grand_total for seat in range(2))
    assert played == expected
    if start is None:
        assert list(simulate(seats, games=12, seed=4, rules=rules).scores) == (
            list(simulate(plain_seats, games=12, seed=4, rules=rules).scores)
        )


def _game_from(start: Scorecard, rules: Rules) -> Game:
    players = Game.new(2, rules=rules).players
    turn = Turn(start, rules=rules)
    return Game(players, rules=rules, cards=[start, start], first=0, current=0, turn=turn)


def test_simulate_builds_the_decision_table_for_long_runs_only_without_the_kernel(
    cache: Path, monkeypatch: pytest.MonkeyPatch, kernel_path: str
) -> None:
    """Where the compiled kernel plays, nothing large is built unless asked for; on the
    NumPy path a long run builds (and caches) the decision table, and plays the same games."""
    rules = Rules.from_name("yacht")
    table = solver.build_table(rules=rules)
    simulate(OptimalStrategy(table), games=3, rules=rules)
    assert table._decisions is False  # short: the per-turn tables, nothing built
    monkeypatch.setattr(_play, "DECIDE_AT", 5)
    result = simulate(OptimalStrategy(table), games=5, rules=rules)
    decided = table._decisions
    if kernel_path == "compiled":
        assert decided is False
        assert not list(cache.glob("*.npy"))
    else:
        assert decided
        assert decided.path is not None
        assert decided.path.exists()
    plain = solver.Table(table.values, rules=rules)
    plain._decisions = False
    monkeypatch.setattr(_play, "DECIDE_AT", 10**9)
    assert simulate(OptimalStrategy(plain), games=5, rules=rules).scores == result.scores


def test_an_executor_run_decides_here_once_for_every_worker(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the NumPy path, the chunks' workers find the decisions made (and cached) before
    the run, not each building its own."""
    from concurrent.futures import ThreadPoolExecutor

    rules = Rules.from_name("yacht")
    table = solver.build_table(rules=rules)
    builds: list[int] = []
    build = _internal.build_decisions

    def counted(*args: Any) -> Any:
        builds.append(len(builds))
        return build(*args)

    monkeypatch.setattr(_decisions, "build_decisions", counted)
    monkeypatch.setattr(_turns, "_KERNEL", None)  # with the kernel, nothing is decided
    with ThreadPoolExecutor(2) as pool:  # chunks under 1,000 games: nothing to decide
        simulate(OptimalStrategy(table), games=999, rules=rules, executor=pool)
    assert builds == []
    assert not list(cache.glob("*.npy"))
    with ThreadPoolExecutor(2) as pool:
        spread = simulate(OptimalStrategy(table), games=3001, seed=4, rules=rules, executor=pool)
    assert builds == [0]
    assert table._decisions
    assert len(list(cache.glob("*.npy"))) == 1
    assert spread.scores == simulate(OptimalStrategy(table), games=3001, seed=4, rules=rules).scores


_STATE_RULES = [Rules(), Rules(joker=JokerRule.NONE, yahtzee_bonus=0), Rules.from_name("yacht")]


@settings(max_examples=200)
@given(
    st.sampled_from(_STATE_RULES).flatmap(lambda r: st.tuples(st.just(r), yst.scorecards(rules=r)))
)
def test_a_tables_state_of_a_card_is_the_models(case: tuple[Rules, Scorecard]) -> None:
    """Table._state reads a card from plain ints; it agrees with _internal.state_of."""
    rules, card = case
    table = solver.Table(np.zeros(_internal.layout_of(rules).states_count), rules=rules)
    state, index = table._state(card)
    assert state == _internal.state_of(card, table._layout)
    assert index == _internal.flat_index(table._layout, *state)


def test_only_the_newest_decision_files_stay_in_the_cache(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_decisions, "KEEP_FILES", 2)
    paths = []
    for age, name in zip((300, 200, 100), ("forced", "free-choice", "none"), strict=True):
        rules = Rules.from_name(name)
        start = _start_cards(rules)[0]
        found = solver.load_decisions(solver.build_table(rules=rules, start=start))
        assert found.path is not None
        paths.append(found.path)
        written = time.time() - age  # oldest first, whatever the clock's resolution
        os.utime(found.path, (written, written))
    assert sorted(cache.glob("decisions-*.npy")) == sorted(paths[1:])
    assert sorted(cache.glob("decisions-*.npz")) == sorted(p.with_suffix(".npz") for p in paths[1:])
