"""The layers: imports point down only, and each value's notation lives with the value."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yahtzee_rules import Category, Dice, Game, GameRecord, Rules, Scorecard, Turn
from yahtzee_rules import turn as turn_module
from yahtzee_rules.notation import parse_game, parse_record, parse_scorecard, parse_turn

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "yahtzee_rules"

# Underscore names the solver still imports from outside its package, each kept in the
# module named as an alias of the shared name; empty this as the solver moves to the
# private modules (_dice, _filling).
SOLVER_ALLOWED = {
    ("solver/_advice.py", "yahtzee_rules.dice", "_ALL_KEEPS"),
    ("solver/_advice.py", "yahtzee_rules.scoring", "_legal"),
    ("solver/_cache.py", "yahtzee_rules.scoring", "_check_card"),
    ("solver/_cache.py", "yahtzee_rules.scoring", "_check_rules"),
    ("solver/_geometry.py", "yahtzee_rules.dice", "_ALL_KEEPS"),
    ("solver/_geometry.py", "yahtzee_rules.dice", "_DICE_BY_FACES"),
    ("solver/_geometry.py", "yahtzee_rules.dice", "_KEEPS_OF"),
    ("solver/_model.py", "yahtzee_rules.scoring", "_bonus_due"),
    ("solver/_model.py", "yahtzee_rules.scoring", "_legal"),
    ("solver/_simulate.py", "yahtzee_rules.scoring", "_check_card"),
    ("solver/_table.py", "yahtzee_rules.scoring", "_check_card"),
    ("solver/_table.py", "yahtzee_rules.scoring", "_check_rules"),
}


def test_the_layers_contract_holds() -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint_imports is None:
        pytest.skip("import-linter is not installed (it is in the lint dependency group)")
    done = subprocess.run(
        [lint_imports, "--no-logo", "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _private_name_imports() -> list[tuple[str, str, str]]:
    """Every ``from yahtzee_rules... import _name`` in the package, except whole modules."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            assert not node.level, f"{path}: a relative import; import yahtzee_rules.<module>"
            if node.module is None or not node.module.startswith("yahtzee_rules"):
                continue
            for alias in node.names:
                name = alias.name
                if not name.startswith("_") or name.startswith("__"):
                    continue
                module = PACKAGE.joinpath(*node.module.split(".")[1:], name)
                if module.with_suffix(".py").is_file() or module.is_dir():
                    continue  # a whole private module: the deliberate way to share
                found.append((path.relative_to(PACKAGE).as_posix(), node.module, name))
    return found


def _own_subpackage(path: str, module: str) -> bool:
    """Whether ``module`` is in the same subpackage as the file ``path`` (not the top level)."""
    parts = path.split("/")
    return len(parts) > 1 and module.split(".")[1:2] == parts[:1]


def test_private_names_are_imported_only_within_their_subpackage() -> None:
    outside = {
        found
        for found in _private_name_imports()
        if not _own_subpackage(found[0], found[1]) and found not in SOLVER_ALLOWED
    }
    assert not outside, (
        "underscore names imported across modules; share them through a private module "
        f"(such as yahtzee_rules._dice) under a plain name: {sorted(outside)}"
    )


def test_the_solver_allow_list_is_no_longer_than_needed() -> None:
    assert not SOLVER_ALLOWED - set(_private_name_imports())


def test_a_game_reads_and_writes_its_own_notation() -> None:
    code = (
        "from yahtzee_rules.game import Game\n"
        "game = Game.parse('forced 0 Ann,Bob 1=3/- 13366@1')\n"
        "assert str(game) == 'forced 0 Ann,Bob 1=3/- 13366@1'\n"
        "assert str(game.turn) == 'forced - 13366@1'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_notation_functions_and_value_methods_agree() -> None:
    text = "forced 0 Ann,Bob : 22345 2345/6 ls 11566 66/166"
    assert parse_record(text) == GameRecord.parse(text)
    assert parse_game("forced 0 Ann,Bob ls=40/- 16666@2") == Game.parse(
        "forced 0 Ann,Bob ls=40/- 16666@2"
    )
    assert parse_turn("free-choice,yb=0 4=12 22456@2") == Turn.parse(
        "free-choice,yb=0 4=12 22456@2"
    )
    assert parse_scorecard("4=20,y=50,+1") == Scorecard.parse("4=20,y=50,+1")
    assert str(Rules.parse("none,ub=50,ut=60,yb=0")) == "none,ub=50,ut=60,yb=0"


def test_max_rolls_is_still_a_turn_constant() -> None:
    assert turn_module.MAX_ROLLS == 3


def test_dice_keep_no_score_table_and_still_score() -> None:
    dice = Dice("22256")
    assert not hasattr(dice, "_scores")
    assert dice.score(Category.TWOS) == 6
    assert dice.total == 17
