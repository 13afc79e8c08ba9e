"""The values' builder: the compiled one and the Python one give the same values, the
compiled one refuses what the library never gives it, and a library without it plays
the same games.

The builder makes the dice, cards, turns and games the rules engine produced itself
(``yahtzee_rules.support._frozen.raw_builder``), so every other test of play runs on
the compiled builder where it is built; here the Python builder, the library's path
where no C compiler was found, is checked against it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from typing import Any

import attrs
import pytest
from hypothesis import given

from yahtzee_rules import Game, Rules, Scorecard, Turn
from yahtzee_rules.support import _compiled, _frozen
from yahtzee_rules.testing import strategies as yst

compiled_only = pytest.mark.skipif(
    _frozen._BUILDER is None, reason="the compiled builder is not built here"
)


def _fields(value: Any) -> list[Any]:
    return [getattr(value, field.name) for field in attrs.fields(type(value))]


def test_ci_runs_the_compiled_builder() -> None:
    """Where CI asks for it, the builder is built and used (a build that silently fell
    back to Python would leave the compiled builder untested)."""
    if os.environ.get(_compiled.KERNEL_VARIABLE) != "require":
        pytest.skip(f"{_compiled.KERNEL_VARIABLE} is not 'require' here")
    assert _frozen.BUILDER_STATUS.startswith("the compiled builder")


@given(yst.games(max_players=3, rules=yst.rules()))
def test_both_builders_build_the_value_of_its_fields(game: Game) -> None:
    # every class the engine builds raw, from the fields of a value legal play produced
    values: list[Any] = [game, *game.cards]
    values += [game.player_totals(seat) for seat in range(len(game.players))]
    values += [column for totals in values[-1:] for column in totals.columns]
    if game.turn is not None:
        values.append(game.turn)
    for value in values:
        cls = type(value)
        fields = _fields(value)
        for build in (_frozen.raw_builder(cls), _frozen.python_builder(cls)):
            built = build(*fields)
            assert type(built) is cls
            assert built == value
            assert hash(built) == hash(value)
            assert all(a is b for a, b in zip(_fields(built), fields, strict=True))
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                built.rules = Rules()  # frozen like any other value


def test_the_library_builds_its_values_with_the_builder_it_names() -> None:
    from yahtzee_rules.play import game, scorecard, totals, turn

    compiled = _frozen._BUILDER is not None
    for build in (game._raw_game, scorecard.raw_card, turn.raw_turn, totals._raw_totals):
        assert (type(build).__name__ == "builtin_function_or_method") is compiled


@compiled_only
def test_the_compiled_builder_refuses_what_the_library_never_gives_it() -> None:
    module = _frozen._BUILDER
    build = _frozen.raw_builder(Scorecard)
    empty = Scorecard()
    with pytest.raises(TypeError, match="takes 3 values, not 2"):
        build(empty.boxes, 0)
    with pytest.raises(TypeError, match="takes 3 values, not 4"):
        build(empty.boxes, 0, empty.card, 1)
    with pytest.raises(TypeError, match="is not a slot of"):  # a card's slots on a Turn
        module.builder((Turn, *_frozen._slots(Scorecard)))
    with pytest.raises(TypeError, match="give a tuple"):
        module.builder([Scorecard, *_frozen._slots(Scorecard)])
    with pytest.raises(TypeError, match="give a tuple"):
        module.builder((Scorecard,))
    with pytest.raises(TypeError, match="is not a class"):
        module.builder((empty, *_frozen._slots(Scorecard)))
    with pytest.raises(TypeError, match="is not a slot's descriptor"):
        module.builder((Scorecard, Scorecard.is_complete))
    assert Scorecard() == empty  # nothing above changed a value


@compiled_only
def test_a_value_the_compiled_builder_drops_is_freed() -> None:
    import gc
    import weakref

    build = _frozen.raw_builder(Game)
    game = Game.new(2).roll(random.Random(3))
    built = build(*_fields(game))
    gone = weakref.ref(built)
    del built
    gc.collect()
    assert gone() is None
    with pytest.raises(TypeError, match="takes 6 values, not 5"):  # and builds nothing
        build(*_fields(game)[:5])


def test_a_module_of_another_version_or_source_is_not_used() -> None:
    name = "yahtzee_rules.support._cvalues"
    if _frozen._BUILDER is None:
        module, why = _compiled.compiled_module(name, 1, "", "the compiled builder")
        assert module is None
        assert why.startswith("the compiled builder")
        return
    digest = _frozen._BUILDER.SOURCE
    assert _compiled.compiled_module(name, 1, digest, "it")[0] is _frozen._BUILDER
    module, why = _compiled.compiled_module(name, 2, digest, "it")
    assert (module, why.split(" at ")[0], why.endswith("is version 1, not 2")) == (None, "it", True)
    module, why = _compiled.compiled_module(name, 1, "00000000", "it")
    assert module is None
    assert why.endswith("was built from another C file")
    module, why = _compiled.compiled_module("yahtzee_rules.support._absent", 1, digest, "it")
    assert module is None
    assert why.startswith("it is not built: No module named")


def test_require_makes_a_missing_builder_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(*args: object) -> tuple[None, str]:
        return None, "the compiled builder is not built"

    monkeypatch.setattr(_frozen, "compiled_module", missing)
    monkeypatch.setenv(_compiled.KERNEL_VARIABLE, "require")
    with pytest.raises(RuntimeError, match="=require, but the compiled builder is not built"):
        _frozen._load_builder()
    monkeypatch.setenv(_compiled.KERNEL_VARIABLE, "auto")
    assert _frozen._load_builder() == (
        None,
        "the Python builder (the compiled builder is not built)",
    )


def test_the_digest_is_the_one_the_build_puts_in_the_module() -> None:
    from pathlib import Path

    source = Path(_frozen.__file__).with_name("_cvalues.c").read_bytes()
    digest = _compiled.values_digest(source)
    assert len(digest) == 8
    assert int(digest, 16) >= 0
    if _frozen._BUILDER is not None:
        assert digest == _frozen._BUILDER.SOURCE
    assert _compiled.values_digest(source + b"\n") != digest


_GAMES = textwrap.dedent(
    """
    import random, sys
    {block}
    from yahtzee_rules import Game, Rules, simulate, GreedyStrategy
    from yahtzee_rules.support import _frozen
    print(_frozen.BUILDER_STATUS.split(" (")[0])
    rng = random.Random(5)
    for name in ("classic", "yatzy", "triple"):
        game = Game.new(2, rules=Rules.from_name(name))
        while not game.is_over:
            game = game.roll(rng)
            game = game.roll(rng, keep=rng.choice(game.dice.keeps()))
            game = game.fill(rng.choice(tuple(game.options)))
        print(game)
    print(simulate(GreedyStrategy(), games=20, seed=3).scores)
    """
)

_BLOCK = """
class _NoBuilder:
    def find_spec(self, name, path=None, target=None):
        if name == "yahtzee_rules.support._cvalues":
            raise ImportError("hidden for the test")
sys.meta_path.insert(0, _NoBuilder())
"""


@compiled_only
def test_the_library_without_the_compiled_builder_plays_the_same_games() -> None:
    """A process where the compiled module cannot be imported, as where no compiler was
    found: the Python builder serves, and every game is the same."""
    runs = []
    for block in ("", _BLOCK):
        env = {**os.environ, _compiled.KERNEL_VARIABLE: "auto"}
        done = subprocess.run(
            [sys.executable, "-c", _GAMES.format(block=block)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        runs.append(done.stdout.splitlines())
    assert runs[0][0] == "the compiled builder"
    assert runs[1][0] == "the Python builder"
    assert runs[0][1:] == runs[1][1:]
    assert len(runs[0]) == 5
