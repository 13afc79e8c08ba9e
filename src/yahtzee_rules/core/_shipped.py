"""The cards the library ships: one list of their modules, loaded before a card is looked up.

``import yahtzee_rules`` imports none of its modules, so a card's module (which
registers the card and its named rulesets) may not have run when a card or a
ruleset is first looked up by name, or may run after another card's. The package
installs a loader here that imports every module of :data:`CARD_MODULES`;
:mod:`yahtzee_rules.core.boxes` runs it before a lookup and lists the shipped cards in
the order of this list, whatever order their modules ran in. Nothing here imports
a module above it: the package, at the top, hands the loader down.

Adding a card to the library is one module that ends with its
:func:`~yahtzee_rules.core.boxes.register_card` call, and one line here.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["CARD_MODULES", "install", "load"]

#: The modules of the shipped cards, by their full names, in the order
#: :meth:`Card.names <yahtzee_rules.Card.names>` and :meth:`Rules.names
#: <yahtzee_rules.Rules.names>` list their cards and rulesets; within a module, its
#: cards come in the order it registers them.
CARD_MODULES = (
    "yahtzee_rules.core.classic",
    "yahtzee_rules.core.yacht",
    "yahtzee_rules.core.yatzy",
    "yahtzee_rules.core.triple",
)

_LOADERS: list[Callable[[], object]] = []


def install(loader: Callable[[], object]) -> None:
    """Have ``loader`` run (once) before the next lookup of a card by name."""
    _LOADERS.append(loader)


def load() -> None:
    """Run the loaders installed and not yet run."""
    while _LOADERS:
        _LOADERS.pop(0)()
