"""The layers: imports point down only, and each value's notation lives with the value."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from yahtzee_rules import Category, Dice, Game, GameRecord, Rules, Scorecard, Turn
from yahtzee_rules import turn as turn_module
from yahtzee_rules.notation import parse_game, parse_record, parse_scorecard, parse_turn

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "yahtzee_rules"


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
        found for found in _private_name_imports() if not _own_subpackage(found[0], found[1])
    }
    assert not outside, (
        "underscore names imported across modules; share them through a private module "
        f"(such as yahtzee_rules._dice) under a plain name: {sorted(outside)}"
    )


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


# Every upward import the layers were designed to remove, as (importer, imported).
BACK_EDGES = [
    ("dice", "scoring"),
    ("scorecard", "scoring"),
    ("rules", "notation"),
    ("scorecard", "notation"),
    ("turn", "notation"),
    ("game", "notation"),
    ("record", "notation"),
    ("record", "sharecode"),
    ("solver", "simulation"),
    ("boxes", "rules"),
    ("categories", "scorecard"),
    # The web table sits above the records, formats and strategies, beside the demo.
    ("record", "web"),
    ("sharecode", "web"),
    ("simulation", "web"),
    ("demo", "web"),
    # Probes of a contract that was only a sort of the imports of the day: a statistics
    # value reading the records, dice chances reading a format, a cycle inside the command line.
    ("results", "record"),
    ("probability", "sharecode"),
    ("cli.console", "cli.play"),
    ("cli.commands", "cli.tournament"),
    # A third-party library outside the modules that may use it.
    ("arena", "starlette"),
    ("simulation", "uvicorn"),
    ("policy", "gymnasium"),
    ("cli.play", "pettingzoo"),
]

#: The probes above that import a third-party library rather than a module of the package.
EXTERNAL = {"starlette", "uvicorn", "gymnasium", "pettingzoo"}


def _qualified(name: str) -> str:
    return name if name in EXTERNAL else f"yahtzee_rules.{name}"


def test_the_contract_fails_on_every_back_edge_it_was_made_to_stop(tmp_path: Path) -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint_imports is None:
        pytest.skip("import-linter is not installed (it is in the lint dependency group)")
    package = tmp_path / "src" / "yahtzee_rules"
    shutil.copytree(ROOT / "src" / "yahtzee_rules", package)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for importer, imported in BACK_EDGES:
        path = package.joinpath(*importer.split(".")).with_suffix(".py")
        if not path.exists():
            path = package.joinpath(*importer.split("."), "__init__.py")
        # A lazy import inside a function: the kind that hid the old cycles.
        path.write_text(
            path.read_text(encoding="utf-8")
            + f"\n\ndef _back_edge_{len(imported)}() -> None:\n    import {_qualified(imported)}  # noqa\n",
            encoding="utf-8",
        )
    done = subprocess.run(
        [lint_imports, "--no-logo", "--no-cache"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path / "src"), "PATH": str(Path(sys.executable).parent)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    for importer, imported in BACK_EDGES:
        assert f"yahtzee_rules.{importer} -> {_qualified(imported)}" in done.stdout, (
            importer,
            imported,
        )


def test_the_layers_page_draws_the_contract() -> None:
    page = (ROOT / "docs" / "explanation" / "layers.md").read_text(encoding="utf-8")
    block = page.split("```text\n", 1)[1].split("```", 1)[0]
    drawn = [re.split(r"\s{2,}", line.strip(), maxsplit=1)[0] for line in block.splitlines()]
    with (ROOT / "pyproject.toml").open("rb") as file:
        contracts = tomllib.load(file)["tool"]["importlinter"]["contracts"]
    (layers,) = (contract["layers"] for contract in contracts if contract["id"] == "layers")
    assert drawn == layers


def test_the_integrations_stay_behind_their_extras() -> None:
    # Statically the "integrations-only" contract checks this; here the modules run.
    code = (
        "import sys, yahtzee_rules, yahtzee_rules.arena, yahtzee_rules.simulation\n"
        "import yahtzee_rules.cli, yahtzee_rules.policy\n"
        "print(sorted({'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel'} & set(sys.modules)))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"
