"""Importing the package is cheap: public names and submodules load when first used."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import yahtzee_rules
from yahtzee_rules import _moved

HEAVY = (
    "numpy",
    "hypothesis",
    "yahtzee_rules.apps.cli",
    "yahtzee_rules.bots.solver",
    "yahtzee_rules.bots.simulation",
    "yahtzee_rules.testing.strategies",
    "yahtzee_rules.formats.serialization",
    "yahtzee_rules.formats.notation",
    "yahtzee_rules.apps.demo",
)


def _modules_after(code: str) -> set[str]:
    """The modules loaded in a fresh interpreter after running ``code``."""
    script = textwrap.dedent(code) + "\nimport sys\nprint(sorted(sys.modules))\n"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    found: list[str] = ast.literal_eval(done.stdout.splitlines()[-1])
    return set(found)


def test_importing_the_package_imports_none_of_its_modules() -> None:
    loaded = _modules_after("import yahtzee_rules")
    ours = {name for name in loaded if name.split(".")[0] == "yahtzee_rules"}
    assert ours == {
        "yahtzee_rules",
        "yahtzee_rules._moved",
        "yahtzee_rules.core",
        "yahtzee_rules.core._shipped",
    }
    assert not {"numpy", "hypothesis", "attrs", "json"} & loaded


def test_a_public_name_imports_only_what_it_needs() -> None:
    loaded = _modules_after("from yahtzee_rules import Dice, Game, Scorecard, score, totals")
    assert "yahtzee_rules.play.game" in loaded
    assert not set(HEAVY) & loaded


def test_every_public_name_resolves_and_is_listed() -> None:
    for name in yahtzee_rules.__all__:
        assert getattr(yahtzee_rules, name) is not None, name
    assert set(yahtzee_rules.__all__) <= set(dir(yahtzee_rules))
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = yahtzee_rules.Nothing  # type: ignore[attr-defined]


def test_dir_and_the_namespace_show_only_the_public_names() -> None:
    # Tab completion and dir() list what a user may use: no Any, ModuleType, sys...
    subpackages = {"apps", "bots", "core", "formats", "integrations", "play", "support", "testing"}
    public = set(yahtzee_rules.__all__) | subpackages
    shown = set(dir(yahtzee_rules))
    dunders = {name for name in shown if name.startswith("__") and name.endswith("__")}
    assert shown - dunders == public - dunders
    # ... and the module's own namespace has nothing else without an underscore
    extra = {name for name in vars(yahtzee_rules) if not name.startswith("_")} - public
    assert not extra, extra


def test_submodules_load_as_attributes_and_never_hide_a_public_name() -> None:
    code = """
        import yahtzee_rules
        import yahtzee_rules.play.scoring
        assert yahtzee_rules.play.scoring.score("11111", yahtzee_rules.Category.ACES) == 5
        import yahtzee_rules.play.totals  # the module: the package's totals stays the function
        from yahtzee_rules import totals
        assert callable(totals) and yahtzee_rules.totals is totals
        assert totals.__module__ == "yahtzee_rules.play.totals"
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import yahtzee_rules.totals  # the old path of the module
        assert yahtzee_rules.totals is totals
        print("ok")
    """
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert done.stdout.strip() == "ok"


def test_a_classic_game_loads_no_other_card_until_one_is_asked_for_by_name() -> None:
    loaded = _modules_after(
        """
        from yahtzee_rules import Game, Rules
        game = Game.new(1).roll()
        game.fill(next(iter(game.options)))
        assert Rules.from_name("yatzy").card.name == "yatzy"  # loaded, and checked, now
        """
    )
    cards = {"yahtzee_rules.core.yatzy", "yahtzee_rules.core.triple"}
    assert cards <= loaded  # after the lookup by name
    early = _modules_after("from yahtzee_rules import Game\nGame.new(1).roll()")
    assert not cards & early


def test_every_shipped_card_is_known_by_name_whatever_was_imported_first() -> None:
    code = """
        from yahtzee_rules.core.yatzy import YATZY  # before the Classic card's module
        from yahtzee_rules.core.boxes import Card
        assert Card.names()[:3] == ("classic", "yacht", "yatzy"), Card.names()
        print("ok")
    """
    for first in (
        "from yahtzee_rules.core.boxes import Card",
        "from yahtzee_rules.core.yatzy import YATZY",
    ):
        script = textwrap.dedent(code).replace(
            "from yahtzee_rules.core.yatzy import YATZY", first, 1
        )
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        assert done.stdout.strip() == "ok"
    import pickle

    from yahtzee_rules import YACHT

    dumped = pickle.dumps(YACHT)
    script = f"import pickle; print(pickle.loads({dumped!r}).title)"
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=True,
    )
    assert done.stdout.strip() == "Yacht"


def test_the_type_checkers_imports_name_exactly_the_public_table() -> None:
    # The package's one table of public names (_PUBLIC) gives __all__, __dir__ and the lazy
    # lookup; type checkers read the imports under TYPE_CHECKING instead, so they must agree.
    source = Path(yahtzee_rules.__file__).read_text(encoding="utf-8")
    block = next(
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "_typing.TYPE_CHECKING"
    )
    imported = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom)
        assert node.module is not None
        for alias in node.names:
            assert alias.asname == alias.name  # an explicit re-export
            imported[alias.name] = node.module.removeprefix("yahtzee_rules.")
    table = {name: module for name, module in yahtzee_rules._PUBLIC.items() if module}
    assert imported == table
    assert yahtzee_rules.__all__ == sorted(table)
    submodules = {name for name, module in yahtzee_rules._PUBLIC.items() if module is None}
    assert submodules == {
        "apps",
        "bots",
        "core",
        "formats",
        "integrations",
        "play",
        "support",
        "testing",
    }
    for name in {*submodules, *table.values()}:
        assert importlib.util.find_spec(f"yahtzee_rules.{name}") is not None, name


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_module_path_gives_the_moved_module_with_a_warning(old: str) -> None:
    new = importlib.import_module(f"yahtzee_rules.{_moved.MOVED[old]}")
    sys.modules.pop(f"yahtzee_rules.{old}", None)
    with pytest.warns(DeprecationWarning, match=f"yahtzee_rules.{old} moved to {new.__name__}"):
        module = importlib.import_module(f"yahtzee_rules.{old}")
    assert module is new
    assert module.__spec__ is not None
    assert module.__spec__.name == new.__name__


def test_old_paths_reach_inside_moved_packages_and_attributes_warn_too() -> None:
    from yahtzee_rules.apps.cli import play
    from yahtzee_rules.bots.solver import load_table

    sys.modules.pop("yahtzee_rules.cli.play", None)
    with pytest.warns(DeprecationWarning, match="yahtzee_rules.cli.play moved"):
        old_play = importlib.import_module("yahtzee_rules.cli.play")
    assert old_play is play
    with pytest.warns(DeprecationWarning, match="yahtzee_rules.solver moved"):
        assert yahtzee_rules.solver.load_table is load_table  # type: ignore[attr-defined]
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("yahtzee_rules.no_such_module")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("yahtzee_rules.solver.no_such_module")
