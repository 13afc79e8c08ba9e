"""The bot ladder's figures on the game-review page are the script's rendering of its results.

``scripts/bot_ladder.py --write`` rates the strategies, keeps the raw figures in
``docs/explanation/bot-ladder.json`` and writes the page's marked block from them;
``--check`` (run here; it plays no games) fails when the block is not that rendering.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from _scripts import check_runs_light, load_script
from yahtzee_rules import Rules, Turn
from yahtzee_rules.bots.evaluation import evaluate
from yahtzee_rules.bots.solver import load_table

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "bot_ladder.py"


def test_the_ladder_block_matches_its_stored_results() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_the_check_plays_no_games() -> None:
    # The check must stay cheap: it never loads the solver (nor numpy).
    check_runs_light("bot_ladder", "numpy", "yahtzee_rules.bots.solver")


def test_a_stale_block_is_found(tmp_path: Path) -> None:
    script = load_script("bot_ladder")
    data = script._check_format(__import__("json").loads(script.DATA.read_text()))
    data["strategies"][0]["mean_score"] += 1
    assert script.render(data) != script._block()


def test_the_ladders_strategies_play_and_are_ordered_by_cost() -> None:
    script = load_script("bot_ladder")
    table = load_table(rules=Rules())
    made = script.strategies(table)
    assert list(made) == [name for name, _ in script.LADDER]
    rated = {name: evaluate(s, games=3, rules=Rules(), table=table) for name, s in made.items()}
    assert rated["optimal"].mean_cost == 0.0
    assert all(r.mean_cost > 0 for name, r in rated.items() if name != "optimal")
    turn = Turn().roll(outcome="12345")
    assert script.first_legal_box(None, [0] * 32 + [0, 1, 1]) == 33
    assert made["greedy keeps, optimal boxes"].choose_keep(turn, None) is None  # a straight
