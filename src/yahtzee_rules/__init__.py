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

from yahtzee_rules._shipped import CARD_MODULES as _CARD_MODULES
from yahtzee_rules._shipped import install as _install_card_loader
from yahtzee_rules._version import __version__ as __version__

if TYPE_CHECKING:  # what type checkers see: the names of _PUBLIC (a test compares them)
    from yahtzee_rules.boxes import Box as Box
    from yahtzee_rules.boxes import Card as Card
    from yahtzee_rules.boxes import Section as Section
    from yahtzee_rules.boxes import Switch as Switch
    from yahtzee_rules.categories import CLASSIC as CLASSIC
    from yahtzee_rules.categories import Category as Category
    from yahtzee_rules.dice import Dice as Dice
    from yahtzee_rules.dice import DiceLike as DiceLike
    from yahtzee_rules.dice import Keep as Keep
    from yahtzee_rules.dice import KeepLike as KeepLike
    from yahtzee_rules.errors import IllegalActionError as IllegalActionError
    from yahtzee_rules.errors import MalformedInputError as MalformedInputError
    from yahtzee_rules.errors import RulesError as RulesError
    from yahtzee_rules.game import Game as Game
    from yahtzee_rules.game import Result as Result
    from yahtzee_rules.game import RollOff as RollOff
    from yahtzee_rules.game import Standing as Standing
    from yahtzee_rules.game import roll_off as roll_off
    from yahtzee_rules.match import Match as Match
    from yahtzee_rules.match import MatchStanding as MatchStanding
    from yahtzee_rules.notation import from_notation as from_notation
    from yahtzee_rules.notation import to_notation as to_notation
    from yahtzee_rules.probability import Pattern as Pattern
    from yahtzee_rules.probability import best_keep as best_keep
    from yahtzee_rules.probability import chance_of as chance_of
    from yahtzee_rules.probability import roll_distribution as roll_distribution
    from yahtzee_rules.record import Action as Action
    from yahtzee_rules.record import Fill as Fill
    from yahtzee_rules.record import GameRecord as GameRecord
    from yahtzee_rules.record import Roll as Roll
    from yahtzee_rules.results import SimulationResult as SimulationResult
    from yahtzee_rules.rules import JokerRule as JokerRule
    from yahtzee_rules.rules import Rules as Rules
    from yahtzee_rules.rules import TieRule as TieRule
    from yahtzee_rules.scorecard import Scorecard as Scorecard
    from yahtzee_rules.scorecard import possible_values as possible_values
    from yahtzee_rules.scoring import BoxOption as BoxOption
    from yahtzee_rules.scoring import box_options as box_options
    from yahtzee_rules.scoring import can_fill as can_fill
    from yahtzee_rules.scoring import fill as fill
    from yahtzee_rules.scoring import forced_category as forced_category
    from yahtzee_rules.scoring import is_joker as is_joker
    from yahtzee_rules.scoring import legal_fills as legal_fills
    from yahtzee_rules.scoring import score as score
    from yahtzee_rules.scoring import verify_fill as verify_fill
    from yahtzee_rules.serialization import from_dict as from_dict
    from yahtzee_rules.serialization import from_json as from_json
    from yahtzee_rules.serialization import json_schema as json_schema
    from yahtzee_rules.serialization import to_dict as to_dict
    from yahtzee_rules.serialization import to_json as to_json
    from yahtzee_rules.simulation import GreedyStrategy as GreedyStrategy
    from yahtzee_rules.simulation import OptimalStrategy as OptimalStrategy
    from yahtzee_rules.simulation import RandomStrategy as RandomStrategy
    from yahtzee_rules.simulation import Strategy as Strategy
    from yahtzee_rules.simulation import play_turn as play_turn
    from yahtzee_rules.simulation import simulate as simulate
    from yahtzee_rules.totals import Totals as Totals
    from yahtzee_rules.totals import totals as totals
    from yahtzee_rules.triple import TRIPLE as TRIPLE
    from yahtzee_rules.triple import TRIPLE_IN_ORDER as TRIPLE_IN_ORDER
    from yahtzee_rules.triple import TripleBox as TripleBox
    from yahtzee_rules.turn import MAX_ROLLS as MAX_ROLLS
    from yahtzee_rules.turn import Turn as Turn
    from yahtzee_rules.yacht import YACHT as YACHT
    from yahtzee_rules.yacht import YachtBox as YachtBox
    from yahtzee_rules.yatzy import YATZY as YATZY
    from yahtzee_rules.yatzy import YatzyBox as YatzyBox

_PUBLIC: dict[str, str | None] = {
    "Box": "boxes",
    "Card": "boxes",
    "Section": "boxes",
    "Switch": "boxes",
    "CLASSIC": "categories",
    "Category": "categories",
    "Dice": "dice",
    "DiceLike": "dice",
    "Keep": "dice",
    "KeepLike": "dice",
    "IllegalActionError": "errors",
    "MalformedInputError": "errors",
    "RulesError": "errors",
    "Game": "game",
    "Result": "game",
    "RollOff": "game",
    "Standing": "game",
    "roll_off": "game",
    "Match": "match",
    "MatchStanding": "match",
    "from_notation": "notation",
    "to_notation": "notation",
    "Pattern": "probability",
    "best_keep": "probability",
    "chance_of": "probability",
    "roll_distribution": "probability",
    "Action": "record",
    "Fill": "record",
    "GameRecord": "record",
    "Roll": "record",
    "SimulationResult": "results",
    "JokerRule": "rules",
    "Rules": "rules",
    "TieRule": "rules",
    "Scorecard": "scorecard",
    "possible_values": "scorecard",
    "BoxOption": "scoring",
    "box_options": "scoring",
    "can_fill": "scoring",
    "fill": "scoring",
    "forced_category": "scoring",
    "is_joker": "scoring",
    "legal_fills": "scoring",
    "score": "scoring",
    "verify_fill": "scoring",
    "from_dict": "serialization",
    "from_json": "serialization",
    "json_schema": "serialization",
    "to_dict": "serialization",
    "to_json": "serialization",
    "GreedyStrategy": "simulation",
    "OptimalStrategy": "simulation",
    "RandomStrategy": "simulation",
    "Strategy": "simulation",
    "play_turn": "simulation",
    "simulate": "simulation",
    "Totals": "totals",
    "totals": "totals",
    "TRIPLE": "triple",
    "TRIPLE_IN_ORDER": "triple",
    "TripleBox": "triple",
    "MAX_ROLLS": "turn",
    "Turn": "turn",
    "YACHT": "yacht",
    "YachtBox": "yacht",
    "YATZY": "yatzy",
    "YatzyBox": "yatzy",
    "boxes": None,
    "categories": None,
    "cli": None,
    "demo": None,
    "dice": None,
    "errors": None,
    "game": None,
    "match": None,
    "notation": None,
    "probability": None,
    "record": None,
    "render": None,
    "results": None,
    "rules": None,
    "scorecard": None,
    "scoring": None,
    "serialization": None,
    "sharecode": None,
    "simulation": None,
    "solver": None,
    "strategies": None,
    "triple": None,
    "turn": None,
    "yacht": None,
    "yatzy": None,
}
"""The one table of the package's public names: each name and the module (under the
package) it is imported from the first time it is used, or ``None`` for a public
submodule, imported when first used as an attribute. ``__all__``, ``__dir__`` and the
lazy lookup all read it."""

__all__ = sorted([*(name for name, module in _PUBLIC.items() if module), "__version__"])


def _load(name: str) -> Any:
    """A public name (imported from its module, then kept here) or a public submodule."""
    if name in _PUBLIC:
        module = _PUBLIC[name]
        if module is None:
            return import_module(f"{__name__}.{name}")
        value = getattr(import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(ModuleType):
    """The package's module: a submodule named like a public name does not replace it.

    Importing ``yahtzee_rules.totals`` (the module) would otherwise set the package's
    ``totals`` to the module, hiding the function :func:`totals`.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _PUBLIC.get(name):
            return
        super().__setattr__(name, value)


def _load_cards() -> None:
    """Import the modules of the cards the library ships, so each is known by name."""
    for module in _CARD_MODULES:
        import_module(f"{__name__}.{module}")


_install_card_loader(_load_cards)

if not TYPE_CHECKING:  # type checkers see every name in the imports above
    __getattr__ = _load

sys.modules[__name__].__class__ = _Package
