"""The cards the library ships, found by name even before their modules are imported.

``import yahtzee_rules`` imports none of its modules, so a card's module (which
registers the card) may not have run when a card is first looked up by name, or
may run after another card's. The package installs a loader here that imports
every shipped card's module; :mod:`yahtzee_rules.boxes` runs it before a lookup
and lists the shipped cards in their own order (``ORDER``), whatever order their
modules ran in. Nothing here imports a module above it: the package, at the top,
hands the loader down.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ORDER", "install", "load"]

#: The shipped cards' names, in the order :meth:`Card.names` lists them (a card with
#: house switches right after the card it changes).
ORDER = (
    "classic",
    "classic+5fh",
    "yacht",
    "yatzy",
    "yatzy+5fh",
    "yatzy+4k2p",
    "yatzy+5fh+4k2p",
    "triple",
    "triple-in-order",
)

_LOADERS: list[Callable[[], object]] = []


def install(loader: Callable[[], object]) -> None:
    """Have ``loader`` run (once) before the next lookup of a card by name."""
    _LOADERS.append(loader)


def load() -> None:
    """Run the loaders installed and not yet run."""
    while _LOADERS:
        _LOADERS.pop(0)()
