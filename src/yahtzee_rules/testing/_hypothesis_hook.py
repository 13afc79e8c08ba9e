"""Registers a Hypothesis strategy for each public type (loaded by Hypothesis' entry point).

The types come from the value kinds' registry (:data:`yahtzee_rules.formats.notation.KINDS`,
which names each kind's strategy) and each card's boxes from the card registry
(:meth:`Card.names <yahtzee_rules.Card.names>`), so a card the library ships, or a
kind added, gets its strategy without a line here. The strategies module is imported lazily, inside the registered
functions: importing it here would import Hypothesis' strategies while Hypothesis
itself is still starting up.
"""

from __future__ import annotations

from typing import Any


def _register_strategies() -> None:
    from hypothesis import strategies as st

    from yahtzee_rules.core.boxes import Card
    from yahtzee_rules.formats.notation import KINDS

    def lazily(name: str, **arguments: Any) -> Any:
        def build(_type: type) -> Any:
            from yahtzee_rules.testing import strategies

            return getattr(strategies, name)(**arguments)

        return build

    for kind in KINDS:  # the value kinds' one registry names each kind's strategy
        if kind.strategy is not None:
            st.register_type_strategy(kind.type, lazily(kind.strategy))
    seen: set[type] = set()
    for name in Card.names(switched=True):
        card = Card.named(name)
        if card.boxes not in seen:  # the first card of a box enumeration draws its boxes
            seen.add(card.boxes)
            st.register_type_strategy(card.boxes, lazily("categories", card=card))
