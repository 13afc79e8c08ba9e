"""The optimal solitaire strategy, by backward induction over turn-start states.

A turn starts in a *state*: which boxes are filled, the upper subtotal (capped at
the bonus threshold, since more does not matter; not kept without an upper bonus)
and whether the Yahtzee box holds 50 (which decides whether an extra Yahtzee earns
a bonus; not kept without one). From the last turn back
to the first, :func:`build_table` works out the expected points still to come from
every reachable state when each keep and box is chosen to maximise that
expectation. The empty card's value is the published optimum: 254.5877 under
Hasbro's rules, 254.5896 with the free-choice Joker of Verhoeff's optimal solitaire
player (1999); compare Woodward, "Yahtzee: the solution", *Chance* 16(1), 2003.

Any card the library has can be solved: the solver reads the card's boxes and
score table from ``rules.card``. Optimal Yacht (``Rules.from_name("yacht")``: 12
boxes, no bonuses, no Joker) averages 166.9551 from the empty card.

The table holds one float per state (a few MB), is cached per user and reloads in
milliseconds (:func:`load_table`); :func:`advise` turns it into the expected final
score of every option in a turn; :func:`simulate_optimal` plays many games at once.
:func:`load_decisions` precomputes the best action for every roll of every state
(a :class:`DecisionTable`, cached and mapped into memory), so that
:func:`best_action` and optimal games through :func:`~yahtzee_rules.simulate` are
lookups on any card.

Beyond the mean, :func:`score_distribution` gives the exact chance of every final
total under that play, and :func:`target_table` the play that maximises the chance
of reaching a total (:class:`TargetStrategy` plays it). :class:`WinStrategy` plays
to win a game against others: for the score to beat, exactly so for the last player.
:func:`review` values every decision and roll of a game: what each choice cost
against optimal play, and how much of the score was the dice's luck.

This package needs NumPy: ``pip install "yahtzee-rules[solver]"``. Its public
names are all here; the modules inside it are private and may change without
notice. They form layers, each importing only from those below it (an import
contract checks it): storage (``_storage``), the choice kernel (``_choice``), the
builds, the tables (``_table``, ``_target``), the decision lookup (``_decisions``),
the distributions, simulators and chances, the advice (``_advice``), and the
players and the game review (``_players``, ``_review``). ``_internal`` names what
the rest of the library, the tests, the benchmarks and the scripts use of them.

Examples:
    >>> from yahtzee_rules import Category, Scorecard, Turn
    >>> from yahtzee_rules.bots.solver import advise, build_table
    >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
    >>> table = build_table(start=card)  # quick: only Chance is open
    >>> round(table.expected_final(card), 4)  # 17.5 for one roll, more with rerolls
    23.3333
    >>> advice = advise(Turn(card).roll(outcome="12266"), table)
    >>> advice.best.action, advice.best.expected
    (Keep('66'), 24.75)
    >>> from yahtzee_rules import Rules, YachtBox
    >>> yacht = Rules.from_name("yacht")
    >>> table = build_table(rules=yacht)
    >>> advise(Turn(table.start, rules=yacht).roll(outcome="55553"), table).best.action
    Keep('5555')
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401  # before the modules below, for a message saying what to install
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        'yahtzee_rules.bots.solver needs NumPy; install it with pip install "yahtzee-rules[solver]"'
    ) from error

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver._advice import Advice, Option, advise
    from yahtzee_rules.bots.solver._build import Progress as Progress
    from yahtzee_rules.bots.solver._decisions import (
        DecisionTable,
        best_action,
        best_box,
        load_decisions,
    )
    from yahtzee_rules.bots.solver._distribution import ScoreDistribution, score_distribution
    from yahtzee_rules.bots.solver._players import TargetStrategy, WinStrategy
    from yahtzee_rules.bots.solver._review import (
        GRADES,
        Decision,
        PlayerReview,
        Review,
        RollLuck,
        review,
        review_schema,
    )
    from yahtzee_rules.bots.solver._simulate import simulate_optimal
    from yahtzee_rules.bots.solver._storage import TABLE_FORMAT, cache_dir
    from yahtzee_rules.bots.solver._table import (
        Table,
        TableFileError,
        build_table,
        cache_path,
        cached_table,
        load_table,
    )
    from yahtzee_rules.bots.solver._target import TargetTable, target_table
    from yahtzee_rules.bots.solver._triple import RotationStrategy, TripleStrategy, column_rules

__all__ = [
    "GRADES",
    "TABLE_FORMAT",
    "Advice",
    "Decision",
    "DecisionTable",
    "Option",
    "PlayerReview",
    "Review",
    "RollLuck",
    "RotationStrategy",
    "ScoreDistribution",
    "Table",
    "TableFileError",
    "TargetStrategy",
    "TargetTable",
    "TripleStrategy",
    "WinStrategy",
    "advise",
    "best_action",
    "best_box",
    "build_table",
    "cache_dir",
    "cache_path",
    "cached_table",
    "column_rules",
    "load_decisions",
    "load_table",
    "review",
    "review_schema",
    "score_distribution",
    "simulate_optimal",
    "target_table",
]

# Each public name, and the private module it is imported from when first used: a
# module of the package (the table build's helper processes among them) imports only
# what it needs.
_MODULE_OF: dict[str, str] = {
    "GRADES": "_review",
    "TABLE_FORMAT": "_storage",
    "Advice": "_advice",
    "Decision": "_review",
    "DecisionTable": "_decisions",
    "Option": "_advice",
    "PlayerReview": "_review",
    "Progress": "_build",
    "Review": "_review",
    "RollLuck": "_review",
    "RotationStrategy": "_triple",
    "ScoreDistribution": "_distribution",
    "Table": "_table",
    "TableFileError": "_table",
    "TargetStrategy": "_players",
    "TargetTable": "_target",
    "TripleStrategy": "_triple",
    "WinStrategy": "_players",
    "advise": "_advice",
    "best_action": "_decisions",
    "best_box": "_decisions",
    "build_table": "_table",
    "cache_dir": "_storage",
    "column_rules": "_triple",
    "cache_path": "_table",
    "cached_table": "_table",
    "load_decisions": "_decisions",
    "load_table": "_table",
    "review": "_review",
    "review_schema": "_review",
    "score_distribution": "_distribution",
    "simulate_optimal": "_simulate",
    "target_table": "_target",
}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
