"""Score distributions on every kind of card the solver takes, against brute force."""

from __future__ import annotations

import math

import pytest

from test_distribution import BruteForce, as_dict, close, open_card
from yahtzee_rules import Box, Rules, Scorecard

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")


def boxes(rules: Rules, *labels: str) -> list[Box]:
    return [b for b in rules.card.members if b.label in labels]


SLOW = pytest.mark.slow  # brute force through the public API: seconds per open box
CASES = [
    # boxes filled in card order: only the next box may take a roll
    pytest.param("forced-yatzy", ("Full House", "Chance", "Yatzy"), marks=SLOW),
    pytest.param("classic+5fh", ("Full House", "Yahtzee"), marks=SLOW),
    pytest.param("yatzy+4k2p", ("Two Pairs", "Four of a Kind"), marks=SLOW),
    pytest.param("yatzy+5fh", ("Full House", "Yatzy"), marks=SLOW),
    pytest.param("kinds-first", ("Three of a Kind", "Yahtzee"), marks=SLOW),
    pytest.param("forced-yahtzee", ("Sixes", "Yahtzee"), marks=SLOW),
]


@pytest.mark.parametrize(("name", "labels"), CASES)
def test_distributions_match_brute_force_on_every_card(name: str, labels: tuple[str, ...]) -> None:
    rules = Rules.from_name(name)
    card = open_card(rules, boxes(rules, *labels), points=20)
    table = solver.build_table(rules=rules, start=card)
    found = solver.score_distribution(card, rules=rules, table=table)
    assert math.fsum(found.probabilities) == pytest.approx(1, abs=1e-12)
    assert close(as_dict(found), BruteForce(table).card(card))
    assert found.mean == pytest.approx(table.expected_final(card), abs=1e-9)


@SLOW
def test_bonuses_with_the_yahtzee_box_holding_50_under_the_kinds_first_joker() -> None:
    rules = Rules.from_name("kinds-first")
    open_boxes = boxes(rules, "Three of a Kind", "Four of a Kind")
    filled: dict[Box, int] = {b: 0 for b in rules.card.members if b not in open_boxes}
    filled[boxes(rules, "Chance")[0]] = 5
    filled[boxes(rules, "Yahtzee")[0]] = 50
    card = Scorecard(filled, card=rules.card)
    table = solver.build_table(rules=rules, start=card)
    found = solver.score_distribution(card, rules=rules, table=table)
    assert close(as_dict(found), BruteForce(table).card(card))
    assert found.maximum == 50 + 5 + 2 * (100 + 30)


def test_many_states_at_once_agree_with_one_at_a_time() -> None:
    # the backward pass works on batches of states on a pool of threads; a level
    # of more states than a batch must give what the states give one by one
    from yahtzee_rules.bots.solver import _distribution

    rules = Rules()
    card = open_card(rules, boxes(rules, "Chance", "Yahtzee", "Sixes"))
    table = solver.build_table(start=card)
    batch = _distribution.BATCH
    try:
        _distribution.BATCH = 3
        small = solver.score_distribution(card, table=table)
    finally:
        _distribution.BATCH = batch
    found = solver.score_distribution(card, table=table)
    assert np.allclose(found.probabilities, small.probabilities, rtol=1e-12, atol=0)
    assert found.mean == pytest.approx(table.expected_final(card), abs=1e-9)


def test_boxes_filled_in_card_order_take_only_the_next_box() -> None:
    # with three or more boxes open, a roll may suit a later box best; the play
    # must still write the next one (the next state must be in the table)
    rules = Rules.from_name("forced-yatzy")
    card = open_card(rules, list(rules.card.members[-5:]), points=20)
    table = solver.build_table(rules=rules, start=card)
    found = solver.score_distribution(card, rules=rules, table=table)
    assert math.fsum(found.probabilities) == pytest.approx(1, abs=1e-12)
    assert found.mean == pytest.approx(table.expected_final(card), abs=1e-9)
