"""The modules' old paths: each public module of the flat layout before 0.2, and where it lives now.

The modules moved into subpackages named after the layers (decision 0018). Their old
paths keep working through every 1.x release and go in 2.0 (the API policy: a deprecated
name warns for at least one minor release and goes only in a major one).
``import yahtzee_rules.dice``, ``from yahtzee_rules.solver import load_table`` and
``yahtzee_rules.notation`` give the moved module itself (the same object, so classes and
functions are identical) with a :class:`DeprecationWarning` that names the new path. Every public name is still importable from ``yahtzee_rules`` itself,
which is the path to prefer.
"""

from __future__ import annotations

import sys
import warnings
from importlib import import_module
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.abc import Loader

__all__ = ["MOVED", "install", "moved_module"]

#: Each old public module (under ``yahtzee_rules``) and its path now.
MOVED: dict[str, str] = {
    "arena": "bots.arena",
    "boxes": "core.boxes",
    "categories": "core.classic",
    "cli": "apps.cli",
    "demo": "apps.demo",
    "dice": "core.dice",
    "errors": "support.errors",
    "game": "play.game",
    "match": "play.match",
    "notation": "formats.notation",
    "policy": "bots.policy",
    "probability": "play.probability",
    "record": "play.record",
    "render": "formats.render",
    "results": "support.results",
    "rl": "integrations.rl",
    "rules": "core.rules",
    "scorecard": "play.scorecard",
    "scoring": "play.scoring",
    "serialization": "formats.serialization",
    "sharecode": "formats.sharecode",
    "simulation": "bots.simulation",
    "solver": "bots.solver",
    "spiel": "integrations.spiel",
    "strategies": "testing.strategies",
    "totals": "play.totals",
    "triple": "core.triple",
    "turn": "play.turn",
    "web": "apps.web",
    "yacht": "core.yacht",
    "yatzy": "core.yatzy",
    "zoo": "integrations.zoo",
}

_PACKAGE = __name__.rpartition(".")[0]


def _new_name(fullname: str) -> str | None:
    """The module an old dotted name stands for now, or ``None`` if it did not move."""
    package, _, rest = fullname.partition(".")
    if package != _PACKAGE or not rest:
        return None
    head, dot, tail = rest.partition(".")
    new = MOVED.get(head)
    if new is None:
        return None
    return f"{_PACKAGE}.{new}{dot}{tail}"


def moved_module(fullname: str) -> ModuleType:
    """The module now at the old path ``fullname``, after a DeprecationWarning naming it."""
    from importlib.util import find_spec  # only for an old path: importing the package stays cheap

    new = _new_name(fullname)
    if new is None or find_spec(new) is None:
        raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
    warnings.warn(
        f"{fullname} moved to {new}; import it from there, or its names from {_PACKAGE} "
        f"(the old path goes in 2.0)",
        DeprecationWarning,
        stacklevel=3,
    )
    return import_module(new)


class _Alias:
    """Loads an old path as the module now at the new one (the same object): a loader,
    without the ``importlib.abc`` base class, whose import costs more than the package."""

    def __init__(self) -> None:
        self._spec: ModuleSpec | None = None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module = moved_module(spec.name)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module ran at its new path): give it back its own spec."""
        module.__spec__ = self._spec


class _Finder:
    """Finds the old paths of moved modules (and of the modules inside moved packages)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if _new_name(fullname) is None:
            return None
        return ModuleSpec(fullname, cast("Loader", _Alias()))


def install() -> None:
    """Make the old paths importable (once), ahead of the ordinary finders."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
