"""The solver's compiled kernel: the NumPy path's floats and choices, the same games, and
no crash on bad arguments.

The per-turn tables' own references (tests/test_solver.py, tests/test_fast_start.py)
run on both paths through the ``kernel_path`` fixture; here the two paths are compared
with each other on whole games, and the kernel's functions are given what the library
never gives them.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from yahtzee_rules import JokerRule, OptimalStrategy, Rules, simulate

solver = pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.solver import _compiled, _entries, _turns  # noqa: E402
from yahtzee_rules.bots.solver._model import model_of  # noqa: E402

compiled_only = pytest.mark.skipif(_turns._KERNEL is None, reason="the kernel is not built here")


def test_ci_runs_the_compiled_kernel() -> None:
    """Where CI asks for it, the kernel is built and used (a build that silently fell
    back to the NumPy path would test only one path)."""
    if os.environ.get(_compiled.KERNEL_VARIABLE) != "require":
        pytest.skip(f"{_compiled.KERNEL_VARIABLE} is not 'require' here")
    assert _turns._KERNEL is not None
    assert _compiled.kernel_status().startswith("the compiled kernel")


@compiled_only
@pytest.mark.parametrize("name", ["classic", "yacht"])
def test_both_paths_play_the_same_optimal_games(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules() if name == "classic" else Rules.from_name(name)
    strategy = OptimalStrategy(rules=rules)
    fast = simulate(strategy, games=60, seed=11, players=2, rules=rules)
    monkeypatch.setattr(_turns, "_KERNEL", None)
    plain = simulate(OptimalStrategy(strategy.table), games=60, seed=11, players=2, rules=rules)
    assert fast.scores == plain.scores


@compiled_only
def test_every_outcome_of_every_keep_rolls_as_the_roll_tables_do() -> None:
    from yahtzee_rules.bots.solver._geometry import dice_geometry
    from yahtzee_rules.core.dice import roll_table

    g = dice_geometry()
    kernel = _compiled.rolling_kernel()
    for index, keep in enumerate(g.keeps):
        table = roll_table(keep)
        assert [g.dice[kernel.outcome(index, r)] for r in range(len(table))] == list(table)
        with pytest.raises(IndexError):
            kernel.outcome(index, len(table))


@compiled_only
def test_a_turn_draws_and_chooses_as_the_per_turn_tables_do() -> None:
    """The kernel's whole turn against the tables' actions, roll by roll, on states of
    games (five equal dice and the Joker among them)."""
    from yahtzee_rules.bots.solver._geometry import dice_geometry
    from yahtzee_rules.core.dice import EMPTY_KEEP, Keep, roll_table

    table = solver.load_table()
    model = model_of(Rules())
    tm = _entries.turn_model_of(model)
    g = dice_geometry()
    turn = _compiled.rolling_kernel().turn
    rng = random.Random(3)
    values = table._values
    checked = 0
    while checked < 400:
        index = rng.randrange(len(values))
        mask, rest = divmod(index, model.levels * model.flags)
        u, y = divmod(rest, model.flags)
        if mask == (1 << len(model.card.members)) - 1 or not np.isfinite(values[index]):
            continue
        tables = _turns.TurnTables(model, values, mask, u, y, index)
        seed = rng.random()
        drawn = random.Random(seed)
        found = _turns.compiled_state(tm, values, mask, u, y)
        position, box = turn(found, tm.kernel_model, tm.due[y], drawn.random)
        replay = random.Random(seed)
        dice = roll_table(EMPTY_KEEP)[int(replay.random() * 7776)]
        for rerolls in (2, 1):
            action = tables.action(rerolls, dice._index)
            if not isinstance(action, Keep):
                break
            outcomes = roll_table(action)
            dice = outcomes[int(replay.random() * len(outcomes))]
        assert g.dice[position] == dice
        assert model.card.members[box] == tables.action(0, dice._index)
        assert drawn.getstate() == replay.getstate()  # as many draws
        checked += 1


@compiled_only
def test_bad_arguments_raise_instead_of_reading_out_of_bounds() -> None:
    kernel = _turns._KERNEL
    table = solver.load_table()
    model = model_of(Rules())
    tm = _entries.turn_model_of(model)
    one = tm.one_state()
    values = table._values
    found = np.empty(tm.state_words)
    args = [values, one.index[0, 0], 0, one.bonus[0], tm.kernel_model, 0, one.open_of[0]]
    args += [tm.due[0], found]
    kernel.state(*args)  # as the library calls it
    last, _, worth, fives = _turns.state_parts(tm, found)
    assert np.isfinite(last).all()
    for at, bad, error in [
        (0, values.astype(np.float32), TypeError),  # the wrong type
        (4, tm.fill_plan, ValueError),  # not a model
        (5, 1 << 20, IndexError),  # no such mask
        (8, np.empty(tm.state_words - 1), ValueError),
        (8, np.empty(tm.state_words).view(np.int64), TypeError),
        (1, values, TypeError),
    ]:
        wrong = list(args)
        wrong[at] = bad
        with pytest.raises(error):
            kernel.state(*wrong)
    with pytest.raises(TypeError):
        kernel.state(*args[:-1])
    frozen = np.empty(tm.state_words)
    frozen.setflags(write=False)
    with pytest.raises((BufferError, ValueError)):
        kernel.state(*args[:-1], frozen)  # an output it may not write
    # a model is checked once: a plan that reads outside the entries, or a parent not
    # before its row, codes naming no entry, arrays of the wrong sizes
    codes = np.ascontiguousarray(tm.codes, dtype=np.int64)
    parts: list[object] = [tm.float_points, tm.bits, tm.fill_plan, tm.joker, tm.flat_lookup]
    parts += [codes, tm.boxes]
    kernel.model(*parts)
    shared = int(tm.fill_plan[0])
    for at, bad in [(3, tm.entries), (3, -1), (1, shared), (0, 300)]:
        wrong_plan = tm.fill_plan.copy()
        wrong_plan[at] = bad
        with pytest.raises(ValueError, match="wrong sizes"):
            kernel.model(*parts[:2], wrong_plan, *parts[3:])
    with pytest.raises(IndexError, match="outside"):
        kernel.model(*parts[:5], codes + tm.entries, tm.boxes)
    for at, bad in [(1, tm.bits[:-1].copy()), (6, tm.boxes + 1), (4, tm.flat_lookup[:-1].copy())]:
        wrong = list(parts)
        wrong[at] = bad
        with pytest.raises(ValueError, match="wrong sizes"):
            kernel.model(*wrong)
    with pytest.raises(IndexError):
        kernel.keep(last, 252)
    with pytest.raises(IndexError):
        kernel.box(worth, tm.codes, tm.boxes, 252, 0.0)
    assert 0 <= kernel.box(worth, tm.codes, tm.boxes, 251, 0.0) < tm.boxes
    turn = _compiled.rolling_kernel().turn
    with pytest.raises(ValueError, match="outside"):
        turn(found, tm.kernel_model, None, lambda: 1.0)
    with pytest.raises(ZeroDivisionError):
        turn(found, tm.kernel_model, None, lambda: 1 / 0)
    with pytest.raises(ValueError, match="wrong sizes"):
        turn(found[:-1].copy(), tm.kernel_model, None, lambda: 0.5)
    # entries five equal dice write, overwritten with nonsense, are read as the refused
    # entry (every roll of 0.0 is five Aces: position 0)
    assert turn(found, tm.kernel_model, None, lambda: 0.0)[0] == 0
    fives[:] = 32000
    assert turn(found, tm.kernel_model, None, lambda: 0.0) == (0, 0)  # all -inf: the first


def test_the_numpy_path_can_be_chosen_and_a_missing_kernel_can_be_required() -> None:
    code = (
        "from yahtzee_rules.bots.solver import _compiled, _turns;"
        "print(_turns._KERNEL is None, _compiled.kernel_status())"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, _compiled.KERNEL_VARIABLE: "numpy"},
    )
    assert run.stdout.strip() == f"True the NumPy path ({_compiled.KERNEL_VARIABLE}=numpy)"
    hidden = (
        "import sys; sys.modules['yahtzee_rules.bots.solver._ckernel'] = None;"  # not importable
        "from yahtzee_rules.bots.solver import _turns"
    )
    run = subprocess.run(
        [sys.executable, "-c", hidden],
        capture_output=True,
        text=True,
        env={**os.environ, _compiled.KERNEL_VARIABLE: "require"},
    )
    assert run.returncode != 0
    assert (
        f"{_compiled.KERNEL_VARIABLE}=require, but the compiled kernel is not built" in run.stderr
    )


def _late_card(rules: Rules, open_boxes: int) -> object:
    """A card of ``rules`` with ``open_boxes`` boxes open: 50 in the five-of-a-kind box
    where the card has one (so Joker turns and bonuses are met), and 0 in the others
    filled, in card order."""
    from yahtzee_rules import Scorecard

    members = list(rules.card.members)
    five = [box for box in members if box.name.upper() in {"YAHTZEE", "YATZY"}]
    others = [box for box in members if box not in five]
    points = dict.fromkeys(others[: len(members) - open_boxes - len(five)], 0)
    points.update(dict.fromkeys(five, 50))
    return Scorecard(points, card=rules.card)


@compiled_only
@pytest.mark.parametrize(
    ("name", "open_boxes"),
    [
        ("yacht", 12),
        ("classic", 7),
        ("free-choice", 6),
        ("none", 6),
        ("yatzy", 6),
        ("kinds-first", 6),
        ("forced-yahtzee", 6),
    ],
)
def test_the_build_from_the_kernel_is_the_numpy_builds_bit_for_bit(
    name: str, open_boxes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yahtzee_rules.bots.solver import _build

    rules = {"classic": Rules(), "free-choice": Rules(joker=JokerRule.FREE_CHOICE)}.get(name)
    if name == "none":
        rules = Rules(joker=JokerRule.NONE, yahtzee_bonus=0)
    rules = rules or Rules.from_name(name)
    start = _late_card(rules, open_boxes)
    fast = solver.build_table(rules=rules, start=start, workers=1)
    monkeypatch.setattr(_build, "kernel", lambda: None)
    plain = solver.build_table(rules=rules, start=start, workers=1)
    assert np.array_equal(fast._values, plain._values)
    assert fast.value(start) > 0


def _plan_candidates(plan: list[int]) -> list[set[int]]:
    """Each roll's entries by a fill plan: its row's, and its parent rows' (recursively)."""
    shared: list[set[int]] = []
    rolls: list[set[int]] = []
    at = 1
    while at < len(plan):
        parent, n = plan[at], plan[at + 1]
        row = set(plan[at + 2 : at + 2 + n]) | (shared[parent] if parent >= 0 else set())
        (shared if len(shared) < plan[0] else rolls).append(row)
        at += 2 + n
    return rolls


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules.from_name("yatzy"), Rules.from_name("yacht"), Rules(joker=JokerRule.NONE)],
    ids=["classic", "yatzy", "yacht", "no-joker"],
)
def test_the_fill_plan_looks_at_every_box_of_every_roll(rules: Rules) -> None:
    """The compiled kernel's shortcut to each roll's best fill (zero entries shared by
    the rolls that score 0 in the same boxes) takes its best over the roll's entry in
    every box, no more, and in at most two thirds of the steps of one per box."""
    tm = _entries.turn_model_of(model_of(rules))
    plan = tm.fill_plan.tolist()
    candidates = _plan_candidates(plan)
    assert candidates == [set(tm.rest[:, roll].tolist()) for roll in range(tm.rest.shape[1])]
    steps = len(plan) - 1 - 2 * (plan[0] + len(candidates))  # entries read, over all rows
    assert steps < 2 / 3 * tm.rest.size


@compiled_only
def test_keep_levels_from_best_fills_are_the_numpy_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """``best_fills_to_keeps`` and ``reroll_level`` (TripleStrategy's columns use them):
    the same floats on both paths, for best fills with refused rolls (-inf) among them."""
    rng = np.random.default_rng(7)
    cases = []
    for _ in range(40):
        best = rng.uniform(0, 300, 252).round(rng.integers(0, 4))  # ties among them
        best[rng.random(252) < 0.1] = -np.inf
        cases.append(best)
    fast = [_turns.best_fills_to_keeps(best) for best in cases]
    again = [_turns.reroll_level(one_two[1]) for one_two in fast]
    monkeypatch.setattr(_turns, "_KERNEL", None)
    for best, (one, two), three in zip(cases, fast, again, strict=True):
        plain_one, plain_two = _turns.best_fills_to_keeps(best)
        assert np.array_equal(one, plain_one)
        assert np.array_equal(two, plain_two)
        assert np.array_equal(three, _turns.reroll_level(plain_two))
    kernel = _compiled.kernel()
    with pytest.raises(ValueError, match="distinct"):
        kernel.keeps(one, one)
    with pytest.raises(ValueError, match="462"):
        kernel.reroll(one[:400].copy(), np.empty(462))
