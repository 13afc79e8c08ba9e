"""The one interval of a share: Wilson's score interval, never a single point."""

from __future__ import annotations

import math
import re

from hypothesis import given
from hypothesis import strategies as st

from _cli import run
from yahtzee_rules.support._intervals import effective_trials, wilson_interval

Z = 1.959963984540054  # 95 %


@given(st.integers(1, 10_000), st.data())
def test_the_interval_holds_the_share_inside_0_to_1_and_has_a_width(
    trials: int, data: st.DataObject
) -> None:
    successes = data.draw(st.integers(0, trials))
    share = successes / trials
    low, high = wilson_interval(share, trials, Z)
    assert 0.0 <= low <= share <= high <= 1.0
    assert high - low > 0


@given(st.integers(1, 10_000))
def test_no_successes_and_all_successes(trials: int) -> None:
    z2 = Z * Z
    low, high = wilson_interval(0.0, trials, Z)
    assert low == 0.0
    assert math.isclose(high, z2 / (trials + z2), rel_tol=1e-9)
    low, high = wilson_interval(1.0, trials, Z)
    assert high == 1.0
    assert math.isclose(low, trials / (trials + z2), rel_tol=1e-9)


def test_a_spread_of_zero_counts_the_games() -> None:
    assert effective_trials(1.0, 0.0, 40) == 40
    assert effective_trials(0.5, 0.0, 40) == 40
    assert effective_trials(0.5, 0.25 / 400, 40) == 400


def test_a_one_sided_tournament_reports_an_interval_that_is_not_a_point() -> None:
    shown = run("tournament", "greedy", "random", "--deals", "10")
    assert shown.returncode == 0, shown.stderr
    rows = {line.split()[0]: line for line in shown.stdout.splitlines()[2:4]}
    assert re.search(r"100\.0%\s+83\.9% - 100\.0%", rows["greedy"]), shown.stdout
    assert re.search(r" 0\.0%\s+0\.0% -  16\.1%", rows["random"]), shown.stdout
    assert "(100.0%, 83.9% - 100.0%)" in shown.stdout.splitlines()[-1]
