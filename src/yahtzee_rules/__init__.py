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
"""

from yahtzee_rules._version import __version__
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
from yahtzee_rules.turn import MAX_ROLLS, Turn
from yahtzee_rules.yacht import YACHT, YachtBox
from yahtzee_rules.yatzy import YATZY, YatzyBox

__all__ = [
    "CLASSIC",
    "MAX_ROLLS",
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
