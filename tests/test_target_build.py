"""Target tables work out each distinct column once: the same floats as working out every need.

Three things cut the work, each checked here against the build without it, bit for
bit: needs no total the game can end with tells apart share a column
(``_run_starts``), columns whose reads are all equal are solved once
(``_distinct``), and helper processes share the levels (``workers``), hired at once
or after a tenth of a second. A lone column is summed like one in a wider batch. The
chances advice and the strategies read after each fill agree with the build's.
"""

from __future__ import annotations

from typing import Any

import pytest

from yahtzee_rules import JokerRule, Rules, Scorecard

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.solver import _target_build  # noqa: E402

FORCED = Rules()
FREE = Rules(joker=JokerRule.FREE_CHOICE)
YATZY = Rules.from_name("yatzy")


def card_with(rules: Rules, filled: dict[int, int]) -> Scorecard:
    """A card of ``rules`` with boxes (by number) holding points."""
    return Scorecard({rules.card.members[box]: p for box, p in filled.items()}, card=rules.card)


# Upper boxes open with 50 in the Yahtzee box (bonuses on every turn), a free-choice
# card with the Yahtzee box open, and Yatzy (no extra bonus, 50 for the upper bonus).
CARDS = [
    (FORCED, {0: 3, 1: 0, 6: 0, 7: 0, 8: 25, 9: 0, 10: 0, 11: 50, 12: 5}, 300),
    (FREE, {0: 2, 1: 4, 2: 0, 6: 18, 7: 0, 8: 0, 9: 30, 12: 22}, 250),
    (YATZY, {0: 1, 1: 4, 2: 6, 3: 0, 6: 8, 7: 0, 8: 0, 13: 5, 14: 0}, 200),
]


def table_values(rules: Rules, card: Scorecard, maximum: int, workers: int = 1) -> Any:
    """Each state's row and the rows' chances (the same rows whatever the build's shortcuts)."""
    table = solver.target_table(
        rules=rules, start=card, maximum=maximum, cache=False, workers=workers
    )
    return table._row_of, table._values


def same(one: Any, other: Any) -> bool:
    """Whether two tables' rows and chances are equal, bit for bit."""
    return all(np.array_equal(a, b) for a, b in zip(one, other, strict=True))


@pytest.fixture(scope="module", params=CARDS, ids=["forced-upper", "free-choice", "yatzy"])
def built(request: pytest.FixtureRequest) -> tuple[Rules, Scorecard, int, Any]:
    rules, filled, maximum = request.param
    card = card_with(rules, filled)
    return rules, card, maximum, table_values(rules, card, maximum)


def test_shared_needs_change_no_value(built: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, card, maximum, values = built
    monkeypatch.setattr(
        _target_build, "run_starts", lambda model, mask, y, u, solve: np.arange(solve)
    )
    assert same(table_values(rules, card, maximum), values)


def test_distinct_columns_change_no_value(built: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, card, maximum, values = built
    every = np.arange(1 << 20)
    monkeypatch.setattr(
        _target_build, "distinct", lambda reads: (every[: reads.shape[1]], every[: reads.shape[1]])
    )
    assert same(table_values(rules, card, maximum), values)


@pytest.mark.parametrize("columns", [1, 2, 7])
def test_values_do_not_depend_on_the_batches(
    built: Any, monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    """Any number of columns solved together, a single one included, gives the same floats."""
    rules, card, maximum, values = built
    if columns == 1 and rules is not FORCED:
        pytest.skip("one table is enough for the slowest batch size")
    monkeypatch.setattr(_target_build, "_COLUMNS", columns)
    monkeypatch.setattr(_target_build, "_READS", 3 * columns)
    assert same(table_values(rules, card, maximum), values)


def test_distinct_groups_equal_columns_even_when_hashes_collide(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(3)
    kinds = rng.random((9, 40))
    kinds[:, 5] = kinds[:, 6]  # two equal kinds
    reads = kinds[:, rng.integers(0, 40, 500)]
    expected = np.unique(reads.T, axis=0, return_inverse=True)[1].ravel()

    def check() -> None:
        first, group = _target_build.distinct(reads)
        assert np.array_equal(reads[:, first[group]], reads)  # each column as its group's
        assert len(first) == len(np.unique(expected)) == 39
        assert (first[group] <= np.arange(reads.shape[1])).all()  # each group's first column
        # the same grouping as NumPy's exact one
        pairs = set(zip(group.tolist(), expected.tolist(), strict=True))
        assert len(pairs) == len(first)

    check()
    monkeypatch.setattr(_target_build, "_MIX", np.zeros(1024, dtype=np.uint64))
    check()  # every hash equal: grouped by the whole bits instead
    monkeypatch.setattr(_target_build, "_MIX", np.ones(4, dtype=np.uint64))
    check()  # more reads than multipliers: likewise


def test_run_starts_mark_every_total_the_game_can_end_with() -> None:
    from yahtzee_rules.bots.solver._internal import model_of

    model = model_of(FORCED)
    # Sixes open, the Yahtzee box filled with 0: 0, 6, ..., 30 points, and the upper
    # bonus from a subtotal of 40 (30 more reach 63)
    mask = ((1 << 13) - 1) & ~(1 << 5)
    y, u = np.zeros(1, dtype=np.intp), np.array([40])
    starts = _target_build.run_starts(model, mask, y, u, 200).tolist()
    assert starts == [0, 1, 7, 13, 19, 25, 31, 36, 42, 48, 54, 60, 66]
    # a subtotal of 63: the bonus is earned already
    starts = _target_build.run_starts(model, mask, y, np.array([63]), 200).tolist()
    assert starts == [0, 1, 7, 13, 19, 25, 31]


def test_a_helper_hired_late_or_never_changes_no_value(
    built: Any, monkeypatch: pytest.MonkeyPatch, started_helpers: list[Any]
) -> None:
    rules, card, maximum, values = built
    monkeypatch.setattr(_target_build, "SHARED_COLUMNS", 0)
    monkeypatch.setattr(_target_build, "HIRE_AFTER", 0.0)  # after the first chunk
    assert same(table_values(rules, card, maximum, workers=2), values)
    assert len(started_helpers) == 1
    monkeypatch.setattr(_target_build, "HIRE_AFTER", 3600.0)  # never
    assert same(table_values(rules, card, maximum, workers=2), values)
    assert len(started_helpers) == 1


@pytest.mark.parametrize(
    ("rules", "filled"),
    [
        (FORCED, {0: 3, 1: 0, 6: 0, 7: 0, 8: 25, 9: 0, 10: 0, 11: 50, 12: 5}),
        (FREE, {0: 2, 1: 4, 2: 0, 6: 18, 7: 0, 8: 0, 9: 30, 12: 22}),
        (FREE, {0: 2, 1: 4, 2: 0, 3: 0, 6: 18, 7: 0, 9: 30, 11: 50, 12: 22}),
        (YATZY, {0: 1, 1: 4, 2: 6, 3: 0, 6: 8, 7: 0, 8: 0, 13: 5, 14: 0}),
    ],
    ids=["forced-50", "free-choice", "free-choice-50", "yatzy"],
)
def test_advice_fills_are_the_builds(rules: Rules, filled: dict[int, int]) -> None:
    """Advice, TargetStrategy and WinStrategy read each box's chance after each roll: for
    one need or all, its best over the boxes is the build's best fill, bit for bit."""
    from yahtzee_rules.bots.solver._internal import fills_at, state_of

    card = card_with(rules, filled)
    table = solver.target_table(rules=rules, start=card, maximum=150, cache=False, workers=1)
    model = table._model
    mask, u, y = (np.array([v], dtype=np.intp) for v in state_of(card, model))
    needs = np.arange(151)
    every = fills_at(table, card, needs, -1.0)  # (252, boxes, needs)
    reads, plan, fives = _target_build.mask_reads(
        model, table._row_of, table._values, int(mask[0]), u, y, needs
    )
    best = np.empty((252, len(needs)))
    _target_build.need_fills(reads.reshape(len(reads), -1), plan, fives, best)
    assert np.array_equal(every.max(axis=1), best)
    for need in (0, 1, 17, 60, 101, 150):
        one = fills_at(table, card, np.array([need]), -np.inf)[:, :, 0]
        assert np.array_equal(one, np.where(every[:, :, need] < 0, -np.inf, every[:, :, need]))


def test_play_to_win_rerolls_five_of_a_kind_that_cannot_win() -> None:
    """The last turn, 50 in the Yahtzee box, 112 to win with only Sixes open: 33333 scores
    the 100-point bonus and loses, so the only play that can still win is a reroll of all
    five dice (each box's own chance after five equal dice, not the first box's)."""
    import random

    from yahtzee_rules import Category, Game, Keep, Turn

    bob = Scorecard(
        {c: 0 for c in Category if c is not Category.SIXES}
        | {Category.YAHTZEE: 50, Category.CHANCE: 20, Category.ACES: 3}
    )
    ann = Scorecard(
        dict.fromkeys(Category, 0)
        | {Category.CHANCE: 30, Category.YAHTZEE: 50, Category.SIXES: 30}
        | {Category.FULL_HOUSE: 25, Category.LARGE_STRAIGHT: 40, Category.THREES: 9}
    )
    turn = Turn(bob).roll(outcome="33333")
    game = Game(["Ann", "Bob"], rules=FORCED, cards=[ann, bob], first=0, current=1, turn=turn)
    targets = solver.target_table(start=bob, maximum=200, cache=False)
    strategy = solver.WinStrategy(solver.build_table(start=bob), targets, open_boxes=1)
    strategy.see_game(game)
    assert strategy.choose_keep(turn, random.Random(0)) == Keep()
    advice = solver.advise(turn, strategy.table, targets=targets, game=game)
    assert advice.most_likely.action == Keep()  # reroll all five
    assert advice.most_likely.chance is not None
    assert advice.most_likely.chance > 0
    stops = [o.chance for o in advice.options if not isinstance(o.action, Keep)]
    assert stops == [0.0]  # Sixes, the one box: 0 + 100 points, a sure loss
