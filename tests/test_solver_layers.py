"""The solver points one way: its modules form layers, share plain names, and choose once."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

pytest.importorskip("numpy")
grimp = pytest.importorskip("grimp")

from yahtzee_rules import GreedyStrategy, OptimalStrategy, Rules, simulate  # noqa: E402
from yahtzee_rules.bots.simulation import BatchStrategy  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "src" / "yahtzee_rules" / "bots" / "solver"


def _solver_modules() -> set[str]:
    graph = grimp.build_graph("yahtzee_rules")
    return {m for m in graph.modules if m.startswith("yahtzee_rules.bots.solver.")}


def test_no_module_of_the_solver_imports_itself_back() -> None:
    """No cycle, counted module by module (lazy and type-only imports included)."""
    graph = grimp.build_graph("yahtzee_rules")
    for module in sorted(_solver_modules()):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith("yahtzee_rules.bots.solver."):
                assert not graph.chain_exists(imported, module), (module, imported)


def test_the_solver_modules_share_only_plain_names() -> None:
    """No module of the solver imports another's underscore name (whole modules aside)."""
    found = []
    for path in sorted(SOLVER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "yahtzee_rules.bots.solver."
            ):
                found += [(path.name, a.name) for a in node.names if a.name.startswith("_")]
    assert found == []


def test_the_rest_of_the_library_uses_the_named_internal_api() -> None:
    """Outside the solver, only its public face and ``_internal`` are imported."""
    found = []
    for path in sorted((ROOT / "src" / "yahtzee_rules").rglob("*.py")):
        if SOLVER in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.startswith("yahtzee_rules.bots.solver._") and name != (
                    "yahtzee_rules.bots.solver._internal"
                ):
                    found.append((path.name, name))
    assert found == []


# The upward imports the solver's layers stop are injected with the package's others, in
# tests/test_layers.py (BACK_EDGES).


def test_simulate_asks_a_strategy_for_its_batch_play() -> None:
    """A strategy that says it plays games at once is asked; declining falls back."""
    yacht = Rules.from_name("yacht")
    optimal = OptimalStrategy(rules=yacht)
    assert isinstance(optimal, BatchStrategy)
    assert not isinstance(GreedyStrategy(), BatchStrategy)
    asked: list[int] = []

    class Scripted(GreedyStrategy):
        """Greedy play, with a batch play that gives made-up totals for its own line-ups."""

        def play_games(self, seats, *, rules, games, rng, progress=None):  # type: ignore[no-untyped-def]
            asked.append(games)
            return [7] * (games * len(seats)) if all(s is self for s in seats) else None

        def prepare_games(self, seats, *, rules, games):  # type: ignore[no-untyped-def]
            asked.append(-games)

    scripted = Scripted()
    assert simulate(scripted, games=3, seed=1).scores == (7, 7, 7)
    mixed = simulate([scripted, GreedyStrategy()], games=2, seed=1)
    assert mixed.scores == simulate([GreedyStrategy(), GreedyStrategy()], games=2, seed=1).scores
    assert asked == [3, 2]

    # the optimal batch play is the same games as the loop through Game, roll for roll
    class Plain(OptimalStrategy):
        """OptimalStrategy's choices, without the batch play (its own class: declined)."""

    plain = Plain(optimal.table)
    assert simulate(plain, games=4, seed=9, rules=yacht).scores == (
        simulate(optimal, games=4, seed=9, rules=yacht).scores
    )
    assert optimal.play_games([optimal], rules=yacht, games=2, rng=random.Random(0)) is not None


def test_the_internal_apis_names_are_found_where_the_type_checkers_see_them() -> None:
    """``_internal`` imports each name when first used (``_HOMES``); its imports under
    ``TYPE_CHECKING`` say the same names and homes, and every name is found there."""
    from yahtzee_rules.bots.solver import _internal

    tree = ast.parse(Path(_internal.__file__).read_text(encoding="utf-8"))
    (guard,) = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    seen = {
        alias.asname or alias.name: (str(node.module).rsplit(".", 1)[1], alias.name)
        for node in guard.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == _internal._HOMES
    assert sorted(seen) == sorted(_internal.__all__)
    for name in _internal.__all__:
        assert getattr(_internal, name) is not None
