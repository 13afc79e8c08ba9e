"""The exact score distribution under optimal-expectation play, and target play."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from yahtzee_rules import (
    Box,
    Category,
    Dice,
    JokerRule,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    YatzyBox,
    fill,
    legal_fills,
    roll_distribution,
    totals,
)

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")

FORCED = Rules()
FREE = Rules(joker=JokerRule.FREE_CHOICE)
NO_JOKER = Rules(joker=JokerRule.NONE)
YACHT_RULES = Rules.from_name("yacht")

_ROLLS = {keep: list(roll_distribution(keep).items()) for keep in Keep.all()}
#: The same, by position in ``Dice.all()`` and ``Keep.all()``, with float chances (in the
#: same order, so sums come out the same): what the plain recursion loops over.
_DICE_AT = {dice: i for i, dice in enumerate(Dice.all())}
_KEEP_AT = {keep: i for i, keep in enumerate(Keep.all())}
_KEEP_ROLLS = [[(_DICE_AT[d], float(p)) for d, p in _ROLLS[k]] for k in Keep.all()]
_KEEPS_OF = [[_KEEP_AT[k] for k in dice.keeps()] for dice in Dice.all()]


def thrown(dice: Dice, keep: Keep) -> str:
    """The faces thrown to turn ``keep`` into ``dice``."""
    rest = Counter(dice.faces) - Counter(keep.faces)
    return "".join(str(face) for face in sorted(rest.elements()))


#: Each keep's outcomes: the dice, their chance as a float and the faces thrown for them.
_THROWN = {k: [(d, float(p), thrown(d, k)) for d, p in _ROLLS[k]] for k in Keep.all()}


def mix(parts: list[tuple[float, dict[int, float]]]) -> dict[int, float]:
    out: dict[int, float] = {}
    for weight, dist in parts:
        for total, p in dist.items():
            out[total] = out.get(total, 0.0) + weight * p
    return out


class BruteForce:
    """Every roll of every turn, through the public API, following best_action.

    Distributions are of the points still to come, memoised by what the future
    depends on (open boxes, capped upper subtotal, Yahtzee box holding 50).
    """

    def __init__(self, table: Any) -> None:
        self.table = table
        self.rules = table.rules
        self.states: dict[tuple[object, ...], dict[int, float]] = {}
        self.turns: dict[tuple[object, ...], dict[int, float]] = {}

    def key(self, card: Scorecard) -> tuple[object, ...]:
        design = self.rules.card
        upper = sum(card[box] or 0 for box in design.upper)
        yahtzee = design.yahtzee
        return (
            tuple(p is None for p in card.boxes),
            min(upper, self.rules.upper_bonus_threshold) if self.rules.upper_bonus else 0,
            yahtzee is not None and card[yahtzee] == 50,
        )

    def card(self, card: Scorecard) -> dict[int, float]:
        """The distribution of the final total."""
        base = totals(card, rules=self.rules).grand_total
        return {base + t: p for t, p in self.to_come(card).items()}

    def to_come(self, card: Scorecard) -> dict[int, float]:
        if card.is_complete:
            return {0: 1.0}
        key = self.key(card)
        if key not in self.states:
            start = Turn(card, rules=self.rules)
            ahead = self.key(card)  # what the future depends on, alike on every roll
            self.states[key] = mix(
                [
                    (p, self.rolled(start, Keep(), d, faces, ahead))
                    for d, p, faces in _THROWN[Keep()]
                ]
            )
        return self.states[key]

    def rolled(
        self, turn: Turn, keep: Keep, dice: Dice, faces: str, ahead: tuple[object, ...]
    ) -> dict[int, float]:
        """Points to come after rolling ``faces`` to ``keep``, making ``dice``; a position
        already worked out (the same dice, rolls left and future) is not rolled again."""
        key = (ahead, dice, turn.rolls_left - 1)
        if key in self.turns:
            return self.turns[key]
        after = turn.roll(keep=keep, outcome=faces)
        assert (after.dice, after.rolls_left) == key[1:]
        return self.turn(after, ahead)

    def turn(self, turn: Turn, ahead: tuple[object, ...] | None = None) -> dict[int, float]:
        """Points to come from the start of this turn's card (``ahead``: its key, if known)."""
        ahead = self.key(turn.card) if ahead is None else ahead
        key = (ahead, turn.dice, turn.rolls_left)
        if key not in self.turns:
            action = solver.best_action(turn, self.table)
            if isinstance(action, Box):
                after = turn.fill(action)
                gained = (
                    totals(after, rules=self.rules).grand_total
                    - totals(turn.card, rules=self.rules).grand_total
                )
                found = {gained + t: p for t, p in self.to_come(after).items()}
            else:
                found = mix(
                    [
                        (p, self.rolled(turn, action, d, faces, ahead))
                        for d, p, faces in _THROWN[action]
                    ]
                )
            self.turns[key] = found
        return self.turns[key]

    def position(self, turn: Turn) -> dict[int, float]:
        """The distribution of the final total from a turn in progress."""
        base = totals(turn.card, rules=self.rules).grand_total
        return {base + t: p for t, p in self.turn(turn).items()}


def as_dict(d: Any) -> dict[int, float]:
    return {t: p for t, p in enumerate(d.probabilities) if p > 0}


def close(a: dict[int, float], b: dict[int, float]) -> bool:
    return all(abs(a.get(t, 0.0) - b.get(t, 0.0)) < 1e-12 for t in set(a) | set(b))


def open_card(rules: Rules, open_boxes: list[Box], points: int = 5) -> Scorecard:
    """A card with the given boxes open, the others filled with 0 (Chance with ``points``)."""
    card = rules.card
    boxes = {b: 0 for b in card.members if b not in open_boxes}
    chance = next((b for b in card.members if b.label in ("Chance", "Choice")), None)
    if chance is not None and chance in boxes:
        boxes[chance] = points
    return Scorecard(boxes, card=card)


REDUCED = [
    (FORCED, [Category.CHANCE]),
    (FORCED, [Category.YAHTZEE, Category.SIXES]),
    (FREE, [Category.YAHTZEE, Category.FULL_HOUSE]),
    (NO_JOKER, [Category.LARGE_STRAIGHT, Category.THREE_OF_A_KIND, Category.CHANCE]),
]


@pytest.mark.parametrize(("rules", "boxes"), REDUCED, ids=lambda x: getattr(x, "name", None))
def test_distributions_match_brute_force_on_reduced_games(rules: Rules, boxes: list[Box]) -> None:
    card = open_card(rules, boxes, points=20)
    table = solver.build_table(rules=rules, start=card)
    found = solver.score_distribution(card, table=table)
    assert math.fsum(found.probabilities) == pytest.approx(1, abs=1e-12)
    assert close(as_dict(found), BruteForce(table).card(card))
    assert found.mean == pytest.approx(table.expected_final(card), abs=1e-9)


def test_distribution_with_the_yahtzee_box_holding_50_counts_bonuses() -> None:
    card = open_card(FORCED, [Category.SIXES, Category.CHANCE])
    card = Scorecard({**card.to_mapping(), Category.YAHTZEE: 50})
    table = solver.build_table(start=card)
    found = solver.score_distribution(card, table=table)
    assert close(as_dict(found), BruteForce(table).card(card))
    assert found.maximum == 50 + 2 * 100 + 30 + 30


def test_mid_turn_distributions_match_brute_force() -> None:
    card = open_card(FORCED, [Category.SIXES, Category.CHANCE])
    table = solver.build_table(start=card)
    brute = BruteForce(table)
    turn = Turn(card).roll(outcome="66612")
    for position in (turn, turn.roll(keep="666", outcome="62")):
        found = solver.score_distribution(position, table=table)
        assert close(as_dict(found), brute.position(position))


def test_yacht_distribution_matches_brute_force() -> None:
    design = YACHT_RULES.card
    open_boxes = [b for b in design.members if b.label in ("Yacht", "Full House")]
    card = open_card(YACHT_RULES, open_boxes)
    table = solver.build_table(rules=YACHT_RULES, start=card)
    found = solver.score_distribution(card, table=table)
    assert close(as_dict(found), BruteForce(table).card(card))


def test_a_complete_card_has_its_total_for_certain() -> None:
    card = Scorecard(dict.fromkeys(Category, 0) | {Category.CHANCE: 17})
    table = solver.build_table(start=card)
    found = solver.score_distribution(card, table=table)
    assert found.probability(17) == 1.0
    assert found.median == found.minimum == found.maximum == 17


def test_distribution_refuses_mismatched_inputs() -> None:
    card = open_card(FORCED, [Category.CHANCE])
    table = solver.build_table(start=card)
    with pytest.raises(MalformedInputError, match="table for"):
        solver.score_distribution(card, rules=FREE, table=table)
    with pytest.raises(MalformedInputError, match="covers only"):
        solver.score_distribution(Scorecard(), table=table)
    with pytest.raises(MalformedInputError, match="not a Table"):
        solver.score_distribution(card, table="table")  # type: ignore[arg-type, unused-ignore]


def test_score_distribution_values_are_checked() -> None:
    with pytest.raises(MalformedInputError, match="sums to 1"):
        solver.ScoreDistribution([0.5, 0.25])
    with pytest.raises(MalformedInputError, match="at least 0"):
        solver.ScoreDistribution([1.5, -0.5])
    with pytest.raises(MalformedInputError, match="from 0 to 100"):
        solver.ScoreDistribution([1.0]).percentile(101)
    with pytest.raises(MalformedInputError, match="not an int"):
        solver.ScoreDistribution([1.0]).p_at_least(1.5)  # type: ignore[arg-type, unused-ignore]
    d = solver.ScoreDistribution([0.2, 0.3, 0.5])
    assert d == solver.ScoreDistribution((0.2, 0.3, 0.5))
    assert hash(d) == hash(solver.ScoreDistribution((0.2, 0.3, 0.5)))
    assert (d.p_at_least(3), d.p_at_least(-4)) == (0.0, 1.0)
    assert (d.percentile(0), d.percentile(20), d.percentile(20.5)) == (0, 0, 1)


@pytest.mark.slow
def test_free_choice_distribution_from_the_empty_card() -> None:
    table = solver.load_table(rules=FREE)
    found = solver.score_distribution(rules=FREE, table=table)
    assert found.mean == pytest.approx(table.value(Scorecard()), abs=1e-9)
    assert found.median == 248
    # Verhoeff publishes 59.6117; ties of equal expected value broken as best_action
    # breaks them give a slightly smaller spread.
    assert found.std == pytest.approx(59.6114360, abs=1e-6)
    assert found.std == pytest.approx(59.6117, abs=1e-3)


# --------------------------------------------------------------------------------------
# Play for a target.
# --------------------------------------------------------------------------------------


def play(strategy: Any, card: Scorecard, rng: random.Random) -> int:
    """Play the rest of a solitaire game from ``card``; the final grand total."""
    while not card.is_complete:
        turn = Turn(card).roll(rng)
        while turn.rolls_left:
            keep = strategy.choose_keep(turn, rng)
            if keep is None:
                break
            turn = turn.roll(rng, keep=keep)
        card = turn.fill(strategy.choose_box(turn, rng))
    return totals(card).grand_total


class PlainTarget:
    """The best chance of scoring ``need`` more points, by plain recursion (public API)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[tuple[object, ...], float] = {}
        self.brute = BruteForce.__new__(BruteForce)
        self.brute.rules = rules
        #: For each card, each roll's legal fills (by position in ``Dice.all()``): the card
        #: each leaves and the points it gains, alike for every ``need``.
        self.moves: dict[Scorecard, list[list[tuple[Scorecard, int]]]] = {}

    def fills(self, card: Scorecard) -> list[list[tuple[Scorecard, int]]]:
        if card not in self.moves:
            base = totals(card, rules=self.rules).grand_total
            found = []
            for dice in Dice.all():
                afters = []
                for box in legal_fills(card, dice, rules=self.rules):
                    after = fill(card, dice, box, rules=self.rules)
                    afters.append((after, totals(after, rules=self.rules).grand_total - base))
                found.append(afters)
            self.moves[card] = found
        return self.moves[card]

    def value(self, card: Scorecard, need: int) -> float:
        if need <= 0:
            return 1.0
        if card.is_complete:
            return 0.0
        key = (self.brute.key(card), need)
        if key not in self.memo:
            rolls = [
                max([0.0, *(self.value(after, need - gained) for after, gained in afters)])
                for afters in self.fills(card)
            ]
            for _ in range(2):
                keeps = [sum(p * rolls[d] for d, p in outcomes) for outcomes in _KEEP_ROLLS]
                rolls = [max(keeps[k] for k in held) for held in _KEEPS_OF]
            self.memo[key] = sum(p * rolls[d] for d, p in _KEEP_ROLLS[_KEEP_AT[Keep()]])
        return self.memo[key]


FORCED_YATZY = Rules.from_name("forced-yatzy")
YATZY = Rules.from_name("yatzy")
TARGET_CASES = [
    (FORCED, [Category.CHANCE], False),
    (FORCED, [Category.YAHTZEE, Category.SIXES], False),
    (FREE, [Category.FULL_HOUSE, Category.THREE_OF_A_KIND], False),
    # extra-Yahtzee bonuses on the turns to come
    (FREE, [Category.SIXES, Category.CHANCE], True),
    # boxes filled in card order: only the first open box may be filled
    (FORCED_YATZY, list(FORCED_YATZY.card.members[-3:]), False),
]


@pytest.mark.parametrize(
    ("rules", "boxes", "fifty"), TARGET_CASES, ids=lambda x: getattr(x, "name", None)
)
def test_target_table_matches_plain_recursion(rules: Rules, boxes: list[Box], fifty: bool) -> None:
    card = open_card(rules, boxes, points=10)
    if fifty:
        card = Scorecard({**{b: card[b] for b in card.filled_categories}, Category.YAHTZEE: 50})
    table = solver.target_table(rules=rules, start=card, maximum=140, cache=False)
    plain = PlainTarget(rules)
    base = totals(card, rules=rules).grand_total
    for target in (0, 10, 15, 25, 30, 40, 60, 75, 90, 110, 140):
        assert table.probability(card, target) == pytest.approx(
            plain.value(card, target - base), abs=1e-12
        )


REACHED_CASES = [
    # points in the upper boxes: only the subtotals the open ones add to them
    (
        FORCED,
        {Category.TWOS: 6, Category.FOURS: 8, Category.FIVES: 25},
        [Category.SIXES, Category.YAHTZEE],
        2,
    ),
    # 50 in the Yahtzee box: only states with it (extra-Yahtzee bonuses to come)
    (FREE, {Category.YAHTZEE: 50, Category.SIXES: 24}, [Category.FIVES, Category.CHANCE], 0),
    # the upper bonus already reached (and, elsewhere, 2 points away)
    (FORCED, {Category.SIXES: 30, Category.FIVES: 25, Category.FOURS: 12}, [Category.ACES], 24),
    # Yatzy (no extra bonus, a bonus of 50)
    (YATZY, {YatzyBox.SIXES: 24, YatzyBox.FIVES: 20}, [YatzyBox.FOURS, YatzyBox.CHANCE], 18),
]


@pytest.mark.parametrize(("rules", "points", "boxes", "other"), REACHED_CASES, ids=str)
def test_target_tables_solve_the_states_their_start_reaches_and_others_on_demand(
    rules: Rules, points: dict[Box, int], boxes: list[Box], other: int
) -> None:
    members = rules.card.members
    filled = {b: points.get(b, 5 if b.label == "Chance" else 0) for b in members if b not in boxes}
    card = Scorecard(filled, card=rules.card)
    table = solver.target_table(rules=rules, start=card, maximum=140, cache=False)
    # fewer states than every card with those boxes filled (other points in them)
    model, mask = table._model, sum(1 << members.index(b) for b in filled)
    every = sum(len(model.states(level, mask).masks) for level in range(len(filled), 16))
    assert len(table._values) < every
    # the start, a card the game reaches from it, and one it does not (the first box
    # of ``points`` holds ``other``: another subtotal or Yahtzee flag): all exact
    reached = Turn(card, rules=rules).roll(outcome="66661").fill(boxes[0])
    elsewhere = Scorecard({**filled, next(iter(points)): other}, card=rules.card)
    plain = PlainTarget(rules)
    assert not table._parts
    for start in (card, reached, elsewhere):
        base = totals(start, rules=rules).grand_total
        for need in (0, 10, 25, 40, 60, 90, 120, 140):
            assert table.probability(start, base + need) == pytest.approx(
                plain.value(start, need), abs=1e-12
            )
    assert len(table._parts) == 1
    built = solver.target_table(rules=rules, start=elsewhere, maximum=140, cache=False)
    assert built.probability(elsewhere, 100) == table.probability(elsewhere, 100)
    # play from it reads the same part
    turn = Turn(elsewhere, rules=rules).roll(outcome="66553")
    assert solver.TargetStrategy(table, 60).choose_box(turn, random.Random(0)) in boxes
    with pytest.raises(MalformedInputError, match="covers only"):
        table.probability(Scorecard(card=rules.card), 10)


def test_target_tables_share_the_rows_of_subtotals_no_future_tells_apart() -> None:
    # Sixes and Chance open: 22, 23 or 24 more upper points earn the bonus alike (four
    # sixes), 25 does not (five)
    uppers: dict[int, dict[Box, int]] = {
        39: {Category.TWOS: 6, Category.FOURS: 8, Category.FIVES: 25},
        40: {Category.THREES: 3, Category.FOURS: 12, Category.FIVES: 25},
        41: {Category.ACES: 4, Category.FOURS: 12, Category.FIVES: 25},
        38: {Category.ACES: 1, Category.FOURS: 12, Category.FIVES: 25},
    }
    zeros = open_card(FORCED, [Category.SIXES, Category.CHANCE])
    cards = {u: Scorecard({**zeros.to_mapping(), **points}) for u, points in uppers.items()}
    table = solver.target_table(start=cards[39], maximum=100, cache=False)
    rows = {u: table._locate(card) for u, card in cards.items()}
    assert rows[39] == rows[40] == rows[41]
    assert rows[38][0] is not table  # worked out on demand: another future
    plain = PlainTarget(FORCED)
    for card in cards.values():
        base = totals(card).grand_total
        for need in (20, 40, 60, 80, 100):
            assert table.probability(card, base + need) == pytest.approx(
                plain.value(card, need), abs=1e-12
            )


@pytest.mark.parametrize(
    ("rules", "boxes"),
    [*REDUCED, (FORCED, [Category.FOURS, Category.FIVES, Category.SIXES])],
    ids=lambda x: getattr(x, "name", None),
)
def test_target_play_never_does_worse_than_expectation_play(rules: Rules, boxes: list[Box]) -> None:
    card = open_card(rules, boxes, points=20)
    table = solver.build_table(rules=rules, start=card)
    expectation = solver.score_distribution(card, table=table)
    target = solver.target_table(rules=rules, start=card, maximum=expectation.maximum + 5)
    gains = [
        target.probability(card, t) - expectation.p_at_least(t)
        for t in range(expectation.maximum + 6)
    ]
    assert min(gains) >= -1e-12
    assert max(gains) > 0.001  # it pays to play for the target


def test_target_strategy_reaches_its_target_as_often_as_the_table_says() -> None:
    card = open_card(FORCED, [Category.YAHTZEE, Category.SIXES, Category.CHANCE])
    table = solver.target_table(start=card, maximum=120)
    strategy = solver.TargetStrategy(table, 70)
    games = 3000
    rng = random.Random(3)
    reached = sum(play(strategy, card, rng) >= 70 for _ in range(games)) / games
    p = table.probability(card, 70)
    assert abs(reached - p) < 4 * math.sqrt(p * (1 - p) / games)


def test_target_tables_do_not_depend_on_workers(
    monkeypatch: pytest.MonkeyPatch, claimed: list[int], waiting_for_helpers: None
) -> None:
    from yahtzee_rules.bots.solver import _target_build

    card = open_card(FREE, [Category.YAHTZEE, Category.FIVES, Category.SIXES, Category.CHANCE])
    one = solver.target_table(rules=FREE, start=card, maximum=260, cache=False, workers=1)
    alone, claimed[:] = sum(claimed), []
    monkeypatch.setattr(_target_build, "PROCESS_COLUMNS", 0)
    monkeypatch.setattr(_target_build, "SHARED_COLUMNS", 0)
    two = solver.target_table(rules=FREE, start=card, maximum=260, cache=False, workers=2)
    assert one._values.tobytes() == two._values.tobytes()
    assert np.array_equal(one._row_of, two._row_of)
    assert 0 < sum(claimed) < alone  # the helper solved the others
    with pytest.raises(MalformedInputError, match="workers 0: not a positive int"):
        solver.target_table(start=card, maximum=10, workers=0)


def test_a_target_table_helper_imports_no_rules_module(unpickled_in_a_helper: Any) -> None:
    """A helper unpickles the target plan's arrays without the dice, boxes or rules modules."""
    from yahtzee_rules.bots.solver import _internal

    card = open_card(FORCED, [Category.SIXES, Category.YAHTZEE, Category.CHANCE])
    model = _internal.model_of(FORCED)
    levels = _internal.Reach(model, _internal.state_of(card, model)).levels(10)
    found = unpickled_in_a_helper(_internal.TargetPlan(model, levels, 81), "chunks")
    assert found[0] == "4"  # levels: 3 open boxes, and the complete cards
    assert "yahtzee_rules.bots.solver._target_build" in found
    assert not {
        "yahtzee_rules.core.rules",
        "yahtzee_rules.core.boxes",
        "yahtzee_rules.core.dice",
    } & set(found)


def test_target_tables_are_cached_and_checked(session_cache_dir: Any) -> None:
    card = open_card(FORCED, [Category.CHANCE, Category.ACES])
    first = solver.target_table(start=card, maximum=40)
    files = list(session_cache_dir.glob("target-forced-40-*.npz"))
    assert files
    again = solver.target_table(start=card, maximum=40)
    assert again.probability(card, 30) == first.probability(card, 30)
    files[0].write_bytes(b"garbage")
    assert solver.target_table(start=card, maximum=40).probability(card, 30) == (
        first.probability(card, 30)
    )
    with pytest.raises(MalformedInputError, match="beyond this table's maximum"):
        first.probability(card, 41)
    with pytest.raises(MalformedInputError, match="covers only"):
        first.probability(Scorecard(), 10)
    with pytest.raises(MalformedInputError, match="non-negative int"):
        solver.target_table(maximum=-1)
    with pytest.raises(MalformedInputError, match="up to the table's maximum"):
        solver.TargetStrategy(first, 41)


@pytest.mark.slow
def test_the_score_distribution_page_matches_its_script() -> None:
    script = Path(__file__).resolve().parents[1] / "scripts" / "score_distributions.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check", "--jobs", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
