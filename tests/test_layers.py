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
from yahtzee_rules.formats.notation import parse_game, parse_record, parse_scorecard, parse_turn
from yahtzee_rules.play import turn as turn_module

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
        f"(such as yahtzee_rules.core.dice) under a plain name: {sorted(outside)}"
    )


def test_a_game_reads_and_writes_its_own_notation() -> None:
    code = (
        "from yahtzee_rules.play.game import Game\n"
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
    ("core.dice", "play.scoring"),
    ("play.scorecard", "play.scoring"),
    ("core.rules", "formats.notation"),
    ("play.scorecard", "formats.notation"),
    ("play.turn", "formats.notation"),
    ("play.game", "formats.notation"),
    ("play.record", "formats.notation"),
    ("play.record", "formats.sharecode"),
    ("bots.solver", "bots.simulation"),
    ("core.boxes", "core.rules"),
    ("core.classic", "play.scorecard"),
    # The web table sits above the records, formats and strategies, beside the demo.
    ("play.record", "apps.web"),
    ("formats.sharecode", "apps.web"),
    ("bots.simulation", "apps.web"),
    ("apps.demo", "apps.web"),
    # Probes of a contract that was only a sort of the imports of the day: a statistics
    # value reading the records, dice chances reading a format, a bot reading a format,
    # a cycle inside the command line.
    ("support.results", "play.record"),
    ("play.probability", "formats.sharecode"),
    ("bots.arena", "formats.notation"),
    ("formats.notation", "formats.serialization"),
    ("apps.cli.console", "apps.cli.play"),
    ("apps.cli.commands", "apps.cli.tournament"),
    # Inside the solver: the three that closed its old circle (the table's type-only import
    # of the decisions, the decision table calling up to the advice, the win strategy
    # falling back up to it), and kernels or storage reaching for players or tables.
    ("bots.solver._table", "bots.solver._decisions"),
    ("bots.solver._decisions", "bots.solver._advice"),
    ("bots.solver._chances", "bots.solver._players"),
    ("bots.solver._choice", "bots.solver._players"),
    ("bots.solver._storage", "bots.solver._table"),
    # A third-party library outside the modules that may use it.
    ("bots.arena", "starlette"),
    ("bots.simulation", "uvicorn"),
    ("bots.policy", "gymnasium"),
    ("apps.cli.play", "pettingzoo"),
    ("play.probability", "numpy"),
]

#: The probes above that import a third-party library rather than a module of the package.
EXTERNAL = {"starlette", "uvicorn", "gymnasium", "pettingzoo", "numpy"}


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


def _drawn_layers() -> dict[str, list[str]]:
    """The layers page's drawings: each text block's container and its first column."""
    page = (ROOT / "docs" / "explanation" / "layers.md").read_text(encoding="utf-8")
    drawn = {}
    for block in page.split("```text\n")[1:]:
        heading, *lines = block.split("```", 1)[0].splitlines()
        assert heading.startswith("# "), heading
        drawn[heading[2:]] = [re.split(r"\s{2,}", line.strip(), maxsplit=1)[0] for line in lines]
    return drawn


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The import cycles of ``graph``: its strongly connected parts of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    part = set()
                    while True:
                        member = stack.pop()
                        part.add(member)
                        if member == module:
                            break
                    if len(part) > 1:
                        found.append(part)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in stack:
                low[module] = min(low[module], index[child])
    return found


def test_cycles_are_found_when_there_are_some() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_package_is_in_an_import_cycle() -> None:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("yahtzee_rules")
    modules = set(graph.modules)
    imports = {m: set(graph.find_modules_directly_imported_by(m)) & modules for m in modules}
    assert _cycles(imports) == []


def test_the_layers_page_draws_every_layers_contract() -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        contracts = tomllib.load(file)["tool"]["importlinter"]["contracts"]
    layers = {
        container: contract["layers"]
        for contract in contracts
        if contract["type"] == "layers"
        for container in contract["containers"]
    }
    assert _drawn_layers() == layers


def test_every_subpackage_has_its_layers_contract() -> None:
    packages = {
        ".".join(("yahtzee_rules", *path.parent.relative_to(PACKAGE).parts))
        for path in PACKAGE.rglob("__init__.py")
        if len(path.parent.relative_to(PACKAGE).parts) <= 1
    }
    assert packages <= set(_drawn_layers())


def test_the_integrations_stay_behind_their_extras() -> None:
    # Statically the "integrations-only" contract checks this; here the modules run.
    code = (
        "import sys, yahtzee_rules, yahtzee_rules.bots.arena, yahtzee_rules.bots.simulation\n"
        "import yahtzee_rules.apps.cli, yahtzee_rules.bots.policy\n"
        "print(sorted({'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel'} & set(sys.modules)))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"
