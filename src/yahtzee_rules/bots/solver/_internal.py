"""The solver's named internal API: what the rest of the library, the tests, the benchmarks
and the scripts use of its insides, by plain names.

Nothing here is public: it may change in any release. A module outside the solver
that needs more than the public names of :mod:`yahtzee_rules.bots.solver` imports it from
here, never from the module that defines it, so the solver's own modules can move
their code between them freely. (A test that replaces a module's constant or
function, ``monkeypatch.setattr(module, name, ...)``, needs that module itself; it
uses the module's plain name.)

- The state model: :func:`check_solvable` (the reason a ruleset cannot be solved),
  :func:`model_of`, :func:`layout_of`, :func:`state_of`,
  :func:`flat_index`, :func:`mask_of`; the Joker points a model is made from and a
  table's cache file keeps: :func:`joker_points`, :func:`check_joker`,
  :func:`known_model`; the dice geometry: :func:`dice_geometry`,
  :func:`card_geometry`.
- The vector kernels of the builds: :func:`fill_values`, :func:`final_values`,
  :func:`average_keeps`, :func:`best_over_subkeeps`, :class:`Workspace` (and the
  thread's own, reused: :func:`workspace_for`), :data:`GATHER`;
  the plans helper processes receive: :class:`BuildPlan`, :class:`TargetPlan`.
- The choice kernel, one tie rule for every player (see :mod:`._choice`):
  :func:`first_box`, :func:`keep_of_roll`, :func:`keeps_of_games`,
  :func:`keeps_of_rolls`.
- One turn's tables behind advice: :class:`TurnTables`.
- Reviews: :func:`review_steps` (a game's review from its decisions as played, for the
  tournament) and :func:`play_and_rate` (solitaire games played and rated at once, for
  ``evaluate``).
- The decisions: :func:`build_decisions`, :func:`cached_decisions`; optimal games
  played from them: :func:`optimal_scores`, :func:`prepare_decisions`,
  :func:`decided_scores`.
- Target tables: :func:`fills_at`, :class:`Reach`, :func:`bonus_classes`,
  :func:`most_to_come`, :func:`most_final_total` (the most a game can still end with);
  playing to win: :func:`need_weights`, :func:`beat_distribution`.
- The cache key's source files: :func:`source_files`, :func:`digest_files`; what the
  cache holds: :data:`KINDS`, :class:`CacheEntry`, :func:`cache_entries`,
  :func:`remove_entry`, :func:`cache_limit`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver._build import BuildPlan
    from yahtzee_rules.bots.solver._chances import beat_distribution, need_weights
    from yahtzee_rules.bots.solver._choice import (
        first_box,
        keep_of_roll,
        keeps_of_games,
        keeps_of_rolls,
    )
    from yahtzee_rules.bots.solver._decisions import build_decisions
    from yahtzee_rules.bots.solver._decisions import cached as cached_decisions
    from yahtzee_rules.bots.solver._geometry import card_geometry, dice_geometry
    from yahtzee_rules.bots.solver._kernels import (
        GATHER,
        Workspace,
        average_keeps,
        best_over_subkeeps,
        fill_values,
        final_values,
        workspace_for,
    )
    from yahtzee_rules.bots.solver._model import (
        check_joker,
        check_solvable,
        flat_index,
        joker_points,
        known_model,
        layout_of,
        mask_of,
        model_of,
        state_of,
    )
    from yahtzee_rules.bots.solver._play import decided_scores, optimal_scores, prepare_decisions
    from yahtzee_rules.bots.solver._review import late_targets, review_steps
    from yahtzee_rules.bots.solver._review_kernel import play_and_rate
    from yahtzee_rules.bots.solver._storage import (
        KINDS,
        CacheEntry,
        cache_entries,
        cache_limit,
        digest_files,
        remove_entry,
        source_files,
    )
    from yahtzee_rules.bots.solver._target import Reach, bonus_classes, fills_at, most_final_total
    from yahtzee_rules.bots.solver._target_build import TargetPlan, most_to_come
    from yahtzee_rules.bots.solver._turns import TurnTables

# Each name and where it is defined, imported when first used: a caller pays only for
# the modules it needs (``simulate`` with optimal seats imports the games' module, not
# the reviews' or the target tables'). A test checks this against the imports above.
_HOMES: dict[str, tuple[str, str]] = {
    "BuildPlan": ("_build", "BuildPlan"),
    "CacheEntry": ("_storage", "CacheEntry"),
    "GATHER": ("_kernels", "GATHER"),
    "KINDS": ("_storage", "KINDS"),
    "Reach": ("_target", "Reach"),
    "TargetPlan": ("_target_build", "TargetPlan"),
    "TurnTables": ("_turns", "TurnTables"),
    "Workspace": ("_kernels", "Workspace"),
    "workspace_for": ("_kernels", "workspace_for"),
    "average_keeps": ("_kernels", "average_keeps"),
    "beat_distribution": ("_chances", "beat_distribution"),
    "best_over_subkeeps": ("_kernels", "best_over_subkeeps"),
    "bonus_classes": ("_target", "bonus_classes"),
    "build_decisions": ("_decisions", "build_decisions"),
    "cache_entries": ("_storage", "cache_entries"),
    "cache_limit": ("_storage", "cache_limit"),
    "cached_decisions": ("_decisions", "cached"),
    "card_geometry": ("_geometry", "card_geometry"),
    "check_joker": ("_model", "check_joker"),
    "check_solvable": ("_model", "check_solvable"),
    "decided_scores": ("_play", "decided_scores"),
    "dice_geometry": ("_geometry", "dice_geometry"),
    "digest_files": ("_storage", "digest_files"),
    "fill_values": ("_kernels", "fill_values"),
    "fills_at": ("_target", "fills_at"),
    "final_values": ("_kernels", "final_values"),
    "first_box": ("_choice", "first_box"),
    "flat_index": ("_model", "flat_index"),
    "joker_points": ("_model", "joker_points"),
    "keep_of_roll": ("_choice", "keep_of_roll"),
    "keeps_of_games": ("_choice", "keeps_of_games"),
    "keeps_of_rolls": ("_choice", "keeps_of_rolls"),
    "known_model": ("_model", "known_model"),
    "late_targets": ("_review", "late_targets"),
    "layout_of": ("_model", "layout_of"),
    "mask_of": ("_model", "mask_of"),
    "model_of": ("_model", "model_of"),
    "most_final_total": ("_target", "most_final_total"),
    "most_to_come": ("_target_build", "most_to_come"),
    "need_weights": ("_chances", "need_weights"),
    "optimal_scores": ("_play", "optimal_scores"),
    "play_and_rate": ("_review_kernel", "play_and_rate"),
    "prepare_decisions": ("_play", "prepare_decisions"),
    "remove_entry": ("_storage", "remove_entry"),
    "review_steps": ("_review", "review_steps"),
    "source_files": ("_storage", "source_files"),
    "state_of": ("_model", "state_of"),
}


__all__ = [
    "GATHER",
    "KINDS",
    "BuildPlan",
    "CacheEntry",
    "Reach",
    "TargetPlan",
    "TurnTables",
    "Workspace",
    "average_keeps",
    "beat_distribution",
    "best_over_subkeeps",
    "bonus_classes",
    "build_decisions",
    "cache_entries",
    "cache_limit",
    "cached_decisions",
    "card_geometry",
    "check_joker",
    "check_solvable",
    "decided_scores",
    "dice_geometry",
    "digest_files",
    "fill_values",
    "fills_at",
    "final_values",
    "first_box",
    "flat_index",
    "joker_points",
    "keep_of_roll",
    "keeps_of_games",
    "keeps_of_rolls",
    "known_model",
    "late_targets",
    "layout_of",
    "mask_of",
    "model_of",
    "most_final_total",
    "most_to_come",
    "need_weights",
    "optimal_scores",
    "play_and_rate",
    "prepare_decisions",
    "remove_entry",
    "review_steps",
    "source_files",
    "state_of",
    "workspace_for",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"yahtzee_rules.bots.solver.{home[0]}"), home[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
