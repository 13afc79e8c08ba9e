"""yahtzee_rules: the rules of Yahtzee, exactly.

Immutable values for dice, scorecards, turns and games; pure functions for
scoring, the Joker rule and totals. Hasbro's Classic rules are the default:
the 35-point upper bonus at 63, 100-point extra-Yahtzee bonuses and the forced
Joker order, with the free-choice Joker and no Joker as variants.

Examples:
    >>> from yahtzee_rules import Category, Dice, Scorecard, fill, score, totals
    >>> score(Dice("22256"), Category.TWOS)
    6
    >>> card = fill(Scorecard(), "22256", Category.CHANCE)
    >>> totals(card).grand_total
    17

Importing the package is cheap: each public name is imported from its module the
first time it is used (``from yahtzee_rules import Dice`` imports the dice and no
more), and the submodules (``yahtzee_rules.solver``, ``yahtzee_rules.cli``) likewise.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from yahtzee_rules._shipped import install as _install_card_loader
from yahtzee_rules._version import __version__

if TYPE_CHECKING:
    from yahtzee_rules.boxes import Box, Card, Section, Switch
    from yahtzee_rules.categories import CLASSIC, Category
    from yahtzee_rules.dice import Dice, DiceLike, Keep, KeepLike
    from yahtzee_rules.errors import IllegalActionError, MalformedInputError, RulesError
    from yahtzee_rules.game import Game, Result, RollOff, Standing, roll_off
    from yahtzee_rules.match import Match, MatchStanding
    from yahtzee_rules.notation import from_notation, to_notation
    from yahtzee_rules.probability import Pattern, best_keep, chance_of, roll_distribution
    from yahtzee_rules.record import Action, Fill, GameRecord, Roll
    from yahtzee_rules.results import SimulationResult
    from yahtzee_rules.rules import JokerRule, Rules, TieRule
    from yahtzee_rules.scorecard import Scorecard, possible_values
    from yahtzee_rules.scoring import (
        BoxOption,
        box_options,
        can_fill,
        fill,
        forced_category,
        is_joker,
        legal_fills,
        score,
        verify_fill,
    )
    from yahtzee_rules.serialization import from_dict, from_json, json_schema, to_dict, to_json
    from yahtzee_rules.simulation import (
        GreedyStrategy,
        OptimalStrategy,
        RandomStrategy,
        Strategy,
        play_turn,
        simulate,
    )
    from yahtzee_rules.totals import Totals, totals
    from yahtzee_rules.triple import TRIPLE, TRIPLE_IN_ORDER, TripleBox
    from yahtzee_rules.turn import MAX_ROLLS, Turn
    from yahtzee_rules.yacht import YACHT, YachtBox
    from yahtzee_rules.yatzy import YATZY, YatzyBox

__all__ = [
    "CLASSIC",
    "MAX_ROLLS",
    "TRIPLE",
    "TRIPLE_IN_ORDER",
    "YACHT",
    "YATZY",
    "Action",
    "Box",
    "BoxOption",
    "Card",
    "Category",
    "Dice",
    "DiceLike",
    "Fill",
    "Game",
    "GameRecord",
    "GreedyStrategy",
    "IllegalActionError",
    "JokerRule",
    "Keep",
    "KeepLike",
    "MalformedInputError",
    "Match",
    "MatchStanding",
    "OptimalStrategy",
    "Pattern",
    "RandomStrategy",
    "Result",
    "Roll",
    "RollOff",
    "Rules",
    "RulesError",
    "Scorecard",
    "Section",
    "SimulationResult",
    "Standing",
    "Strategy",
    "Switch",
    "TieRule",
    "Totals",
    "TripleBox",
    "Turn",
    "YachtBox",
    "YatzyBox",
    "__version__",
    "best_keep",
    "box_options",
    "can_fill",
    "chance_of",
    "fill",
    "forced_category",
    "from_dict",
    "from_json",
    "from_notation",
    "is_joker",
    "json_schema",
    "legal_fills",
    "play_turn",
    "possible_values",
    "roll_distribution",
    "roll_off",
    "score",
    "simulate",
    "to_dict",
    "to_json",
    "to_notation",
    "totals",
    "verify_fill",
]

# Each public name, and the module it is imported from when first used.
_MODULE_OF: dict[str, str] = {
    "Action": "yahtzee_rules.record",
    "Box": "yahtzee_rules.boxes",
    "BoxOption": "yahtzee_rules.scoring",
    "CLASSIC": "yahtzee_rules.categories",
    "Card": "yahtzee_rules.boxes",
    "Category": "yahtzee_rules.categories",
    "Dice": "yahtzee_rules.dice",
    "DiceLike": "yahtzee_rules.dice",
    "Fill": "yahtzee_rules.record",
    "Game": "yahtzee_rules.game",
    "GameRecord": "yahtzee_rules.record",
    "GreedyStrategy": "yahtzee_rules.simulation",
    "IllegalActionError": "yahtzee_rules.errors",
    "JokerRule": "yahtzee_rules.rules",
    "Keep": "yahtzee_rules.dice",
    "KeepLike": "yahtzee_rules.dice",
    "MAX_ROLLS": "yahtzee_rules.turn",
    "MalformedInputError": "yahtzee_rules.errors",
    "OptimalStrategy": "yahtzee_rules.simulation",
    "Pattern": "yahtzee_rules.probability",
    "RandomStrategy": "yahtzee_rules.simulation",
    "Result": "yahtzee_rules.game",
    "Roll": "yahtzee_rules.record",
    "RollOff": "yahtzee_rules.game",
    "Rules": "yahtzee_rules.rules",
    "RulesError": "yahtzee_rules.errors",
    "Scorecard": "yahtzee_rules.scorecard",
    "Section": "yahtzee_rules.boxes",
    "SimulationResult": "yahtzee_rules.results",
    "Standing": "yahtzee_rules.game",
    "Strategy": "yahtzee_rules.simulation",
    "Switch": "yahtzee_rules.boxes",
    "TieRule": "yahtzee_rules.rules",
    "Totals": "yahtzee_rules.totals",
    "Turn": "yahtzee_rules.turn",
    "YACHT": "yahtzee_rules.yacht",
    "YATZY": "yahtzee_rules.yatzy",
    "YachtBox": "yahtzee_rules.yacht",
    "YatzyBox": "yahtzee_rules.yatzy",
    "Match": "yahtzee_rules.match",
    "MatchStanding": "yahtzee_rules.match",
    "TRIPLE": "yahtzee_rules.triple",
    "TRIPLE_IN_ORDER": "yahtzee_rules.triple",
    "TripleBox": "yahtzee_rules.triple",
    "best_keep": "yahtzee_rules.probability",
    "box_options": "yahtzee_rules.scoring",
    "can_fill": "yahtzee_rules.scoring",
    "chance_of": "yahtzee_rules.probability",
    "fill": "yahtzee_rules.scoring",
    "forced_category": "yahtzee_rules.scoring",
    "from_dict": "yahtzee_rules.serialization",
    "from_json": "yahtzee_rules.serialization",
    "from_notation": "yahtzee_rules.notation",
    "is_joker": "yahtzee_rules.scoring",
    "json_schema": "yahtzee_rules.serialization",
    "legal_fills": "yahtzee_rules.scoring",
    "play_turn": "yahtzee_rules.simulation",
    "possible_values": "yahtzee_rules.scorecard",
    "roll_distribution": "yahtzee_rules.probability",
    "roll_off": "yahtzee_rules.game",
    "score": "yahtzee_rules.scoring",
    "simulate": "yahtzee_rules.simulation",
    "to_dict": "yahtzee_rules.serialization",
    "to_json": "yahtzee_rules.serialization",
    "to_notation": "yahtzee_rules.notation",
    "totals": "yahtzee_rules.totals",
    "verify_fill": "yahtzee_rules.scoring",
}

#: The public submodules, imported when first used as attributes of the package.
_SUBMODULES = frozenset(
    {
        "boxes",
        "categories",
        "cli",
        "demo",
        "dice",
        "errors",
        "game",
        "match",
        "notation",
        "probability",
        "record",
        "render",
        "results",
        "rules",
        "scorecard",
        "scoring",
        "serialization",
        "sharecode",
        "simulation",
        "solver",
        "strategies",
        "totals",
        "triple",
        "turn",
        "yacht",
        "yatzy",
    }
)


def _load(name: str) -> Any:
    """A public name (imported from its module, then kept here) or a public submodule."""
    module = _MODULE_OF.get(name)
    if module is not None:
        value = getattr(import_module(module), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(ModuleType):
    """The package's module: a submodule named like a public name does not replace it.

    Importing ``yahtzee_rules.totals`` (the module) would otherwise set the package's
    ``totals`` to the module, hiding the function :func:`totals`.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and name in _MODULE_OF:
            return
        super().__setattr__(name, value)


def _load_cards() -> None:
    """Import the modules of the cards the library ships, so each is known by name."""
    for module in ("categories", "yacht", "yatzy", "triple"):
        import_module(f"{__name__}.{module}")


_install_card_loader(_load_cards)

if not TYPE_CHECKING:  # type checkers see every name in the imports above
    __getattr__ = _load

sys.modules[__name__].__class__ = _Package
