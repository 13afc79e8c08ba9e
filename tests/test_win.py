"""Playing to win: the last player's exact play, the chances in the advice, the arena hook."""

from __future__ import annotations

import functools
import random

import pytest

from yahtzee_rules import (
    Category,
    Game,
    OptimalStrategy,
    Rules,
    Scorecard,
    Strategy,
    TieRule,
    Turn,
)
from yahtzee_rules.play.probability import roll_distribution
from yahtzee_rules.play.scoring import fill
from yahtzee_rules.play.totals import totals

pytest.importorskip("numpy")

from yahtzee_rules.bots.solver import (
    WinStrategy,
    build_table,
    score_distribution,
    target_table,
)


def _card(open_boxes: tuple[Category, ...], **points: int) -> Scorecard:
    default = {"chance": 5}
    boxes = {
        c: points.get(c.name.lower(), default.get(c.name.lower(), 0))
        for c in Category
        if c not in open_boxes
    }
    return Scorecard(boxes)


def exact_results(
    strategy: Strategy, ann: Scorecard, bob: Scorecard, rules: Rules
) -> tuple[float, float]:
    """Bob's exact chances of finishing above and level with Ann (finished), playing
    ``strategy`` on his last turn: every roll enumerated with its probability."""
    beat = totals(ann, rules=rules).grand_total
    rng = random.Random(0)
    see = getattr(strategy, "see_game", None)

    def end(card: Scorecard) -> tuple[float, float]:
        total = totals(card, rules=rules).grand_total
        return (1.0 if total > beat else 0.0), (1.0 if total == beat else 0.0)

    @functools.cache
    def value(dice: object, rolls_left: int) -> tuple[float, float]:
        turn = Turn(bob, rules=rules, dice=dice, rolls_used=3 - rolls_left)
        if see is not None:
            see(Game(["Ann", "Bob"], rules=rules, cards=[ann, bob], first=0, current=1, turn=turn))
        keep = strategy.choose_keep(turn, rng) if rolls_left else None
        if keep is None:
            assert turn.dice is not None
            return end(fill(bob, turn.dice, strategy.choose_box(turn, rng), rules=rules))
        above = level = 0.0
        for dice_after, p in roll_distribution(keep).items():
            a, b = value(dice_after, rolls_left - 1)
            above, level = above + float(p) * a, level + float(p) * b
        return above, level

    above = level = 0.0
    for dice, p in roll_distribution().items():
        a, b = value(dice, 2)
        above, level = above + float(p) * a, level + float(p) * b
    return above, level


@pytest.mark.parametrize(
    ("open_box", "ann_points"),
    [
        (Category.CHANCE, 22),
        (Category.CHANCE, 28),
        (Category.SIXES, 17),
        (Category.YAHTZEE, 9),
        (Category.LARGE_STRAIGHT, 5),
        (Category.FULL_HOUSE, 24),
    ],
)
def test_the_last_player_wins_at_least_as_often_as_expectation_play_exactly(
    open_box: Category, ann_points: int
) -> None:
    rules = Rules()
    bob = _card((open_box,))
    ann = Scorecard(dict.fromkeys(Category, 0) | {Category.CHANCE: ann_points})
    table = build_table(start=bob)
    targets = target_table(start=bob, maximum=60, cache=False)
    win = WinStrategy(table, targets, open_boxes=1)
    won, tied = exact_results(win, ann, bob, rules)
    optimal_won, optimal_tied = exact_results(OptimalStrategy(table), ann, bob, rules)
    assert won >= optimal_won - 1e-12
    # exactly the best chance of beating Ann: the target table's, at one point more
    best = targets.probability(bob, totals(ann, rules=rules).grand_total + 1)
    assert won == pytest.approx(best, abs=1e-9)
    # and with the same chance of winning, at least as good a chance of a tie
    if won == pytest.approx(optimal_won, abs=1e-12):
        assert tied >= optimal_tied - 1e-9


def test_the_last_player_gambles_where_expectation_play_would_not() -> None:
    bob = _card((Category.CHANCE,))
    ann = Scorecard(dict.fromkeys(Category, 0) | {Category.CHANCE: 28})
    table = build_table(start=bob)
    win = WinStrategy(table, target_table(start=bob, maximum=40, cache=False), open_boxes=1)
    won, _ = exact_results(win, ann, bob, Rules())
    optimal_won, _ = exact_results(OptimalStrategy(table), ann, bob, Rules())
    assert won > optimal_won


def test_without_a_game_or_early_it_plays_optimal_expectation() -> None:
    bob = _card((Category.CHANCE, Category.SIXES))
    table = build_table(start=bob)
    win = WinStrategy(table, target_table(start=bob, maximum=80, cache=False), open_boxes=1)
    optimal = OptimalStrategy(table)
    rng = random.Random(0)
    for outcome in ("66612", "12345", "66666", "11223"):
        turn = Turn(bob).roll(outcome=outcome)
        assert win.choose_keep(turn, rng) == optimal.choose_keep(turn, rng)
        assert win.choose_box(turn, rng) == optimal.choose_box(turn, rng)
        ann = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
        game = Game(["Ann", "Bob"], rules=Rules(), cards=[ann, bob], first=0, current=1, turn=turn)
        win.see_game(game)  # two boxes open, more than open_boxes=1
        assert win.choose_keep(turn, rng) == optimal.choose_keep(turn, rng)


def test_a_shared_tie_weighs_half_a_win_when_the_score_to_beat_is_uncertain() -> None:
    import numpy as np

    from yahtzee_rules.bots.solver._internal import need_weights

    beat = np.array([0.0, 0.5, 0.5])
    shared = need_weights(beat, 0, 5, TieRule.SHARE)
    assert shared.tolist() == [0.0, 0.25, 0.5, 0.25, 0.0, 0.0]
    upper = need_weights(beat, 0, 5, TieRule.UPPER_TOTAL)
    assert upper.tolist() == [0.0, 0.0, 0.5, 0.5, 0.0, 0.0]
    known = need_weights(np.array([0.0, 0.0, 1.0]), 0, 5, TieRule.SHARE)
    assert known[3] == 1.0
    assert 0 < known[2] < 1e-6


def test_the_score_to_beat_combines_the_other_players_distributions() -> None:
    from yahtzee_rules.bots.solver._internal import beat_distribution

    ann = _card((Category.CHANCE,))
    cy = _card((Category.CHANCE,), aces=3)
    bob = _card((Category.CHANCE, Category.SIXES))
    table = build_table(start=bob)
    game = Game(
        ["Ann", "Bob", "Cy"],
        rules=Rules(),
        cards=[ann, bob, cy],
        first=2,
        current=1,
        turn=Turn(bob),
    )
    beat = beat_distribution(game, 1, table)
    a = score_distribution(ann, table=build_table(start=ann))
    c = score_distribution(cy, table=build_table(start=cy))
    for s in (10, 20, 25, 33):
        below = sum(a.probabilities[: s + 1]) * sum(c.probabilities[: s + 1])
        assert float(beat[: s + 1].sum()) == pytest.approx(below, abs=1e-12)
    assert float(beat.sum()) == pytest.approx(1.0)


def test_the_arena_shows_the_game_to_strategies_that_look() -> None:
    from yahtzee_rules.bots.arena import tournament

    seen: list[Game] = []

    class Looking(OptimalStrategy):
        __slots__ = ()

        def see_game(self, game: Game) -> None:
            seen.append(game)

    yacht = Rules.from_name("yacht")
    table = build_table(rules=yacht)
    tournament({"a": Looking(table), "b": OptimalStrategy(table)}, deals=1, rules=yacht)
    assert seen
    assert all(isinstance(g, Game) and g.turn is not None for g in seen)
    assert all(g.turn is not None and g.turn.dice is not None for g in seen)


def test_advice_gives_each_option_s_chance_of_a_target_exactly() -> None:
    from yahtzee_rules.bots.solver import advise

    card = _card((Category.CHANCE, Category.SIXES))
    table = build_table(start=card)
    targets = target_table(start=card, maximum=80, cache=False)
    turn = Turn(card)
    before = advise(turn, table, target=40, targets=targets)
    assert before.options[0].chance == pytest.approx(targets.probability(card, 40), abs=1e-12)
    rolled = advise(turn.roll(outcome="66612"), table, target=40, targets=targets)
    assert all(o.chance is not None and 0 <= o.chance <= 1 for o in rolled.options)
    plain = advise(turn.roll(outcome="66612"), table)
    assert [o.expected for o in rolled.options] == [o.expected for o in plain.options]
    assert all(o.chance is None for o in plain.options)
    # filling Sixes with 18 leaves Chance, which reaches 40 - 18 - 5 = 17 or more often
    sixes = fill(card, "66612", Category.SIXES)
    assert rolled.expected_of(Category.SIXES) == plain.expected_of(Category.SIXES)
    chance = next(o.chance for o in rolled.options if o.action is Category.SIXES)
    assert chance == pytest.approx(targets.probability(sixes, 40), abs=1e-12)


def test_advice_gives_the_chance_of_winning_the_game() -> None:
    from yahtzee_rules.bots.solver import advise

    bob = _card((Category.CHANCE,))
    ann = Scorecard(dict.fromkeys(Category, 0) | {Category.CHANCE: 24})
    table = build_table(start=bob)
    targets = target_table(start=bob, maximum=40, cache=False)
    turn = Turn(bob).roll(outcome="66653")
    game = Game(["Ann", "Bob"], rules=Rules(), cards=[ann, bob], first=0, current=1, turn=turn)
    advice = advise(turn, table, targets=targets, game=game)
    assert advice.most_likely.action is Category.CHANCE
    assert advice.most_likely.chance == 1.0
    keep = advice.options[0]
    assert keep.chance is not None
    assert keep.chance < 1.0
    from yahtzee_rules import MalformedInputError

    with pytest.raises(MalformedInputError, match="target and game given together"):
        advise(turn, table, target=30, targets=targets, game=game)
    with pytest.raises(MalformedInputError, match="not a TargetTable"):
        advise(turn, table, target=30)
    with pytest.raises(MalformedInputError, match="no chances"):
        _ = advise(turn, table).most_likely


def test_the_coach_shows_the_chance_of_winning_late_in_a_game_with_opponents() -> None:
    from yahtzee_rules.apps.cli import _extras
    from yahtzee_rules.apps.cli.play import coach_lines

    bob = _card((Category.CHANCE, Category.SIXES))
    ann = _card((Category.CHANCE,), fives=15)
    turn = Turn(bob).roll(outcome="66653")
    game = Game(["Ann", "Bob"], rules=Rules(), cards=[ann, bob], first=0, current=1, turn=turn)
    advice = _extras.advise(game)
    assert advice.win is not None
    chance, _ = advice.win
    assert 0 < chance < 1
    lines = coach_lines(turn.dice, advice)  # type: ignore[arg-type]
    assert lines[-1].startswith(f"Chance of winning: {chance:.1%} playing to win (")
    solo = _extras.advise(Game(["Bob"], rules=Rules(), cards=[bob], first=0, current=0, turn=turn))
    assert solo.win is None
    assert solo.win_note is None
    early = Game.new(["Ann", "Bob"]).roll(outcome="66653")
    note = _extras.advise(early).win_note
    assert note is not None
    assert "3 boxes or fewer" in note


def test_a_target_table_for_the_last_turns_only_agrees_with_the_full_one() -> None:
    from yahtzee_rules import MalformedInputError

    late = target_table(maximum=60, open_boxes=1, cache=False)
    for open_box, target in ((Category.YAHTZEE, 60), (Category.SIXES, 20), (Category.CHANCE, 25)):
        card = _card((open_box,))
        full = target_table(start=card, maximum=60, cache=False)
        assert late.probability(card, target) == full.probability(card, target)
    with pytest.raises(MalformedInputError, match="covers only cards"):
        late.probability(_card((Category.CHANCE, Category.SIXES)), 30)
    with pytest.raises(MalformedInputError, match="open_boxes -1"):
        target_table(maximum=10, open_boxes=-1, cache=False)


def test_the_strategy_pickles_for_worker_processes() -> None:
    import pickle

    bob = _card((Category.CHANCE,))
    ann = Scorecard(dict.fromkeys(Category, 0) | {Category.CHANCE: 25})
    table = build_table(start=bob)
    win = WinStrategy(table, target_table(start=bob, maximum=30, cache=False), open_boxes=1)
    copy = pickle.loads(pickle.dumps(win))
    assert copy.open_boxes == 1
    assert copy.targets.maximum == 30
    turn = Turn(bob).roll(outcome="66653")
    game = Game(["Ann", "Bob"], rules=Rules(), cards=[ann, bob], first=0, current=1, turn=turn)
    for strategy in (win, copy):
        strategy.see_game(game)
        assert strategy.choose_keep(turn, random.Random(0)) is None
