"""Registers a Hypothesis strategy for each public type (loaded by Hypothesis' entry point).

The strategies module is imported lazily, inside the registered functions:
importing it here would import Hypothesis' strategies while Hypothesis itself
is still starting up.
"""

from __future__ import annotations

from typing import Any


def _register_strategies() -> None:
    from hypothesis import strategies as st

    from yahtzee_rules import (
        TRIPLE,
        YACHT,
        Category,
        Dice,
        Game,
        GameRecord,
        Keep,
        Match,
        Rules,
        Scorecard,
        TripleBox,
        Turn,
        YachtBox,
    )

    def lazily(name: str) -> Any:
        def build(_type: type) -> Any:
            from yahtzee_rules import strategies

            return getattr(strategies, name)()

        return build

    st.register_type_strategy(Dice, lazily("dice"))
    st.register_type_strategy(Keep, lazily("keeps"))
    st.register_type_strategy(Category, lazily("categories"))

    def yacht_boxes(_type: type) -> Any:
        from yahtzee_rules import strategies

        return strategies.categories(card=YACHT)

    st.register_type_strategy(YachtBox, yacht_boxes)

    def triple_boxes(_type: type) -> Any:
        from yahtzee_rules import strategies

        return strategies.categories(card=TRIPLE)

    st.register_type_strategy(TripleBox, triple_boxes)
    st.register_type_strategy(Rules, lazily("rules"))
    st.register_type_strategy(Scorecard, lazily("scorecards"))
    st.register_type_strategy(Turn, lazily("turns"))
    st.register_type_strategy(Game, lazily("games"))
    st.register_type_strategy(GameRecord, lazily("records"))
    st.register_type_strategy(Match, lazily("matches"))
