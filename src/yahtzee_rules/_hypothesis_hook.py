"""Registers a Hypothesis strategy for each public type (loaded by Hypothesis' entry point).

Each card's boxes are registered from the card registry (:meth:`Card.names
<yahtzee_rules.Card.names>`), so a card the library ships gets its strategy without
a line here. The strategies module is imported lazily, inside the registered
functions: importing it here would import Hypothesis' strategies while Hypothesis
itself is still starting up.
"""

from __future__ import annotations

from typing import Any


def _register_strategies() -> None:
    from hypothesis import strategies as st

    from yahtzee_rules import Card, Dice, Game, GameRecord, Keep, Match, Rules, Scorecard, Turn

    def lazily(name: str, **arguments: Any) -> Any:
        def build(_type: type) -> Any:
            from yahtzee_rules import strategies

            return getattr(strategies, name)(**arguments)

        return build

    st.register_type_strategy(Dice, lazily("dice"))
    st.register_type_strategy(Keep, lazily("keeps"))
    seen: set[type] = set()
    for name in Card.names(switched=True):
        card = Card.named(name)
        if card.boxes not in seen:  # the first card of a box enumeration draws its boxes
            seen.add(card.boxes)
            st.register_type_strategy(card.boxes, lazily("categories", card=card))
    st.register_type_strategy(Rules, lazily("rules"))
    st.register_type_strategy(Scorecard, lazily("scorecards"))
    st.register_type_strategy(Turn, lazily("turns"))
    st.register_type_strategy(Game, lazily("games"))
    st.register_type_strategy(GameRecord, lazily("records"))
    st.register_type_strategy(Match, lazily("matches"))
