"""The Yahtzee family's rulesets under the solver: each optimum agrees with a plain second
implementation, and the published optima are reproduced (the rules themselves are tested,
without NumPy, in test_rulesets_family.py)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_rulesets_family import FORCED_YAHTZEE, FORCED_YATZY, KINDS_FIRST, Y
from yahtzee_rules import YATZY, Rules, Scorecard, Turn, fill
from yahtzee_rules.testing import strategies as yst

solver = pytest.importorskip("yahtzee_rules.bots.solver")

from test_solver import PlainSolver  # noqa: E402  (a plain second implementation, needs NumPy)


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_the_solver_agrees_with_the_plain_implementation(data: st.DataObject) -> None:
    rules = data.draw(
        st.sampled_from(
            [
                KINDS_FIRST,
                FORCED_YAHTZEE,
                attrs.evolve(FORCED_YAHTZEE, joker="free-choice"),
                Rules.from_name("classic+5fh, none, yahtzee_bonus=0"),
                Rules.from_name("yatzy+5fh+4k2p"),
            ]
        )
    )
    size = len(rules.card)
    card = data.draw(yst.scorecards(rules=rules, min_filled=size - 3, max_filled=size - 2))
    table = solver.build_table(rules=rules, start=card)
    assert table.value(card) == pytest.approx(PlainSolver(rules).value(card), abs=1e-9)


def test_forced_yatzy_optimum_agrees_with_the_plain_implementation() -> None:
    table = solver.load_table(rules=FORCED_YATZY)
    card = Turn(rules=FORCED_YATZY).roll(outcome="11123").fill(Y.ONES)
    for _ in range(8):
        (box,) = Turn(card, rules=FORCED_YATZY).roll(outcome="66543").options
        card = fill(card, "66543", box, rules=FORCED_YATZY)
    assert table.value(card) == pytest.approx(PlainSolver(FORCED_YATZY).value(card), abs=1e-9)
    assert table.value(Scorecard(card=YATZY)) == pytest.approx(122.5585274, abs=5e-8)


REPRODUCED = {
    "classic+5fh, none, yahtzee_bonus=0": 245.904728,
    "yatzy+5fh": 248.4680909,
    "yatzy+4k2p": 248.6440589,
    "yatzy+5fh+4k2p": 248.6748827,
    # ours, published in the docs
    "kinds-first": 254.2142330,
    "forced-yahtzee": 243.7591601,
}


@pytest.mark.slow  # builds full tables: a minute or more each
@pytest.mark.parametrize("name", REPRODUCED)
def test_reproduces_the_published_optimum(name: str) -> None:
    rules = Rules.from_name(name)
    table = solver.load_table(rules=rules)
    assert table.value(Scorecard(card=rules.card)) == pytest.approx(REPRODUCED[name], abs=1e-6)
