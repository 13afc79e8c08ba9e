"""The Triple Yahtzee figures on their page are the script's rendering of its results.

``scripts/triple_strength.py --write`` plays the strategies, keeps the raw figures in
``docs/explanation/triple-strength.json`` and writes the page's marked block from them;
``--check`` (run here; it plays no games) fails when the block is not that rendering.
"""

from __future__ import annotations

import json

from _scripts import check_runs_light, load_script
from yahtzee_rules import Rules


def test_the_check_passes_and_plays_no_games() -> None:
    check_runs_light("triple_strength", "numpy", "yahtzee_rules.bots.solver")


def test_a_stale_block_is_found() -> None:
    script = load_script("triple_strength")
    data = script._check_format(json.loads(script.DATA.read_text(encoding="utf-8")))
    assert script.render(data) == script._block()
    data["strategies"][0]["mean"] += 1
    assert script.render(data) != script._block()


def test_the_published_figures_say_the_strategy_beats_both_baselines_at_99_percent() -> None:
    script = load_script("triple_strength")
    data = script._check_format(json.loads(script.DATA.read_text(encoding="utf-8")))
    rows = {row["name"]: row for row in data["strategies"]}
    assert data["rules"] == Rules.from_name("triple").name
    assert data["games"] >= 10_000
    for other in ("rotation", "greedy"):
        gap = rows["triple"]["mean"] - rows[other]["mean"]
        spread = (rows["triple"]["stderr"] ** 2 + rows[other]["stderr"] ** 2) ** 0.5
        assert gap > script.Z99 * spread


def test_the_line_up_is_the_library_s_strategies() -> None:
    script = load_script("triple_strength")
    made = script.strategies(Rules.from_name("triple"))
    assert [type(s).__name__ for s in made.values()] == [
        "TripleStrategy",
        "RotationStrategy",
        "GreedyStrategy",
    ]
