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
more), and the submodules (``yahtzee_rules.bots.solver``, ``yahtzee_rules.apps.cli``) likewise.
"""

import sys as _sys
import typing as _typing
from importlib import import_module as _import_module
from types import ModuleType as _ModuleType

from yahtzee_rules import _moved
from yahtzee_rules.core._shipped import CARD_MODULES as _CARD_MODULES
from yahtzee_rules.core._shipped import install as _install_card_loader

if _typing.TYPE_CHECKING:  # what type checkers see: the names of _PUBLIC (a test compares them)
    from yahtzee_rules.bots.simulation import BatchStrategy as BatchStrategy
    from yahtzee_rules.bots.simulation import GreedyStrategy as GreedyStrategy
    from yahtzee_rules.bots.simulation import OptimalStrategy as OptimalStrategy
    from yahtzee_rules.bots.simulation import RandomStrategy as RandomStrategy
    from yahtzee_rules.bots.simulation import Strategy as Strategy
    from yahtzee_rules.bots.simulation import play_turn as play_turn
    from yahtzee_rules.bots.simulation import simulate as simulate
    from yahtzee_rules.core.boxes import Box as Box
    from yahtzee_rules.core.boxes import Card as Card
    from yahtzee_rules.core.boxes import Section as Section
    from yahtzee_rules.core.boxes import Switch as Switch
    from yahtzee_rules.core.classic import CLASSIC as CLASSIC
    from yahtzee_rules.core.classic import Category as Category
    from yahtzee_rules.core.dice import Dice as Dice
    from yahtzee_rules.core.dice import DiceLike as DiceLike
    from yahtzee_rules.core.dice import Keep as Keep
    from yahtzee_rules.core.dice import KeepLike as KeepLike
    from yahtzee_rules.core.rules import JokerRule as JokerRule
    from yahtzee_rules.core.rules import Rules as Rules
    from yahtzee_rules.core.rules import TieRule as TieRule
    from yahtzee_rules.core.triple import TRIPLE as TRIPLE
    from yahtzee_rules.core.triple import TRIPLE_IN_ORDER as TRIPLE_IN_ORDER
    from yahtzee_rules.core.triple import TripleBox as TripleBox
    from yahtzee_rules.core.yacht import YACHT as YACHT
    from yahtzee_rules.core.yacht import YachtBox as YachtBox
    from yahtzee_rules.core.yatzy import YATZY as YATZY
    from yahtzee_rules.core.yatzy import YatzyBox as YatzyBox
    from yahtzee_rules.formats.notation import from_notation as from_notation
    from yahtzee_rules.formats.notation import to_notation as to_notation
    from yahtzee_rules.formats.serialization import from_dict as from_dict
    from yahtzee_rules.formats.serialization import from_json as from_json
    from yahtzee_rules.formats.serialization import json_schema as json_schema
    from yahtzee_rules.formats.serialization import to_dict as to_dict
    from yahtzee_rules.formats.serialization import to_json as to_json
    from yahtzee_rules.play.game import Game as Game
    from yahtzee_rules.play.game import Result as Result
    from yahtzee_rules.play.game import RollOff as RollOff
    from yahtzee_rules.play.game import Standing as Standing
    from yahtzee_rules.play.game import roll_off as roll_off
    from yahtzee_rules.play.match import Match as Match
    from yahtzee_rules.play.match import MatchStanding as MatchStanding
    from yahtzee_rules.play.probability import Pattern as Pattern
    from yahtzee_rules.play.probability import best_keep as best_keep
    from yahtzee_rules.play.probability import chance_of as chance_of
    from yahtzee_rules.play.probability import roll_distribution as roll_distribution
    from yahtzee_rules.play.record import Action as Action
    from yahtzee_rules.play.record import Fill as Fill
    from yahtzee_rules.play.record import GameRecord as GameRecord
    from yahtzee_rules.play.record import Roll as Roll
    from yahtzee_rules.play.scorecard import Scorecard as Scorecard
    from yahtzee_rules.play.scorecard import possible_values as possible_values
    from yahtzee_rules.play.scoring import BoxOption as BoxOption
    from yahtzee_rules.play.scoring import box_options as box_options
    from yahtzee_rules.play.scoring import can_fill as can_fill
    from yahtzee_rules.play.scoring import fill as fill
    from yahtzee_rules.play.scoring import forced_category as forced_category
    from yahtzee_rules.play.scoring import is_joker as is_joker
    from yahtzee_rules.play.scoring import joker_note as joker_note
    from yahtzee_rules.play.scoring import legal_fills as legal_fills
    from yahtzee_rules.play.scoring import score as score
    from yahtzee_rules.play.scoring import verify_fill as verify_fill
    from yahtzee_rules.play.totals import Totals as Totals
    from yahtzee_rules.play.totals import totals as totals
    from yahtzee_rules.play.turn import MAX_ROLLS as MAX_ROLLS
    from yahtzee_rules.play.turn import Turn as Turn
    from yahtzee_rules.support._version import __version__ as __version__
    from yahtzee_rules.support.errors import IllegalActionError as IllegalActionError
    from yahtzee_rules.support.errors import MalformedInputError as MalformedInputError
    from yahtzee_rules.support.errors import RulesError as RulesError
    from yahtzee_rules.support.errors import StrategyError as StrategyError
    from yahtzee_rules.support.results import SimulationResult as SimulationResult

_PUBLIC: dict[str, str | None] = {
    "__version__": "support._version",
    "Box": "core.boxes",
    "Card": "core.boxes",
    "Section": "core.boxes",
    "Switch": "core.boxes",
    "CLASSIC": "core.classic",
    "Category": "core.classic",
    "Dice": "core.dice",
    "DiceLike": "core.dice",
    "Keep": "core.dice",
    "KeepLike": "core.dice",
    "IllegalActionError": "support.errors",
    "MalformedInputError": "support.errors",
    "RulesError": "support.errors",
    "StrategyError": "support.errors",
    "Game": "play.game",
    "Result": "play.game",
    "RollOff": "play.game",
    "Standing": "play.game",
    "roll_off": "play.game",
    "Match": "play.match",
    "MatchStanding": "play.match",
    "from_notation": "formats.notation",
    "to_notation": "formats.notation",
    "Pattern": "play.probability",
    "best_keep": "play.probability",
    "chance_of": "play.probability",
    "roll_distribution": "play.probability",
    "Action": "play.record",
    "Fill": "play.record",
    "GameRecord": "play.record",
    "Roll": "play.record",
    "SimulationResult": "support.results",
    "JokerRule": "core.rules",
    "Rules": "core.rules",
    "TieRule": "core.rules",
    "Scorecard": "play.scorecard",
    "possible_values": "play.scorecard",
    "BoxOption": "play.scoring",
    "box_options": "play.scoring",
    "can_fill": "play.scoring",
    "fill": "play.scoring",
    "forced_category": "play.scoring",
    "is_joker": "play.scoring",
    "joker_note": "play.scoring",
    "legal_fills": "play.scoring",
    "score": "play.scoring",
    "verify_fill": "play.scoring",
    "from_dict": "formats.serialization",
    "from_json": "formats.serialization",
    "json_schema": "formats.serialization",
    "to_dict": "formats.serialization",
    "to_json": "formats.serialization",
    "BatchStrategy": "bots.simulation",
    "GreedyStrategy": "bots.simulation",
    "OptimalStrategy": "bots.simulation",
    "RandomStrategy": "bots.simulation",
    "Strategy": "bots.simulation",
    "play_turn": "bots.simulation",
    "simulate": "bots.simulation",
    "Totals": "play.totals",
    "totals": "play.totals",
    "TRIPLE": "core.triple",
    "TRIPLE_IN_ORDER": "core.triple",
    "TripleBox": "core.triple",
    "MAX_ROLLS": "play.turn",
    "Turn": "play.turn",
    "YACHT": "core.yacht",
    "YachtBox": "core.yacht",
    "YATZY": "core.yatzy",
    "YatzyBox": "core.yatzy",
    "apps": None,
    "bots": None,
    "core": None,
    "formats": None,
    "integrations": None,
    "play": None,
    "support": None,
    "testing": None,
}
"""The one table of the package's public names: each name and the module (under the
package) it is imported from the first time it is used, or ``None`` for a public
subpackage (one per layer), imported when first used as an attribute. The modules'
paths before 0.2 are :mod:`yahtzee_rules._moved`'s. ``__all__``, ``__dir__`` and the
lazy lookup all read it."""

__all__ = sorted(name for name, module in _PUBLIC.items() if module)


def _load(name: str) -> object:
    """A public name (imported from its module, then kept here) or a public submodule."""
    if name in _PUBLIC:
        module = _PUBLIC[name]
        if module is None:
            return _import_module(f"{__name__}.{name}")
        value = getattr(_import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value
    if name in _moved.MOVED:
        return _moved.moved_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, the public subpackages and the module's dunders; nothing private."""
    dunders = {name for name in globals() if name.startswith("__") and name.endswith("__")}
    return sorted(dunders | set(_PUBLIC))


class _Package(_ModuleType):
    """The package's module: a submodule named like a public name does not replace it,
    nor does a module at its old path (so that reading that as an attribute always warns).

    Importing ``yahtzee_rules.play.totals`` (the module) would otherwise set the package's
    ``totals`` to the module, hiding the function :func:`totals`.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, _ModuleType) and (_PUBLIC.get(name) or name in _moved.MOVED):
            return
        super().__setattr__(name, value)


def _load_cards() -> None:
    """Import the modules of the cards the library ships, so each is known by name."""
    for module in _CARD_MODULES:
        _import_module(module)


_install_card_loader(_load_cards)

if not _typing.TYPE_CHECKING:  # type checkers see every name in the imports above
    __getattr__ = _load

_sys.modules[__name__].__class__ = _Package
_moved.install()
