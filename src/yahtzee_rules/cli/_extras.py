"""The one place where the app meets notation (save, resume, share codes, cards) and the
solver (computer players, coach, simulation, the optimal table).

Every function here either does its job or raises :class:`AppError` with a message
saying what is missing; the rest of the app never imports those modules itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import attrs

from yahtzee_rules.categories import Category
from yahtzee_rules.cli.console import AppError
from yahtzee_rules.cli.moves import Move
from yahtzee_rules.dice import Keep
from yahtzee_rules.game import Game
from yahtzee_rules.rules import Rules
from yahtzee_rules.scorecard import Scorecard

#: ``callback(done, total)``, as :meth:`Progress.update` takes it.
ProgressCallback = Callable[[int, int], None]

BOT_KINDS = ("random", "greedy", "optimal")


class Bot(Protocol):
    """A computer player: what to hold while rolls are left, then which box to fill."""

    def keep(self, game: Game) -> Keep | None:
        """The dice to hold for the next roll, or ``None`` to stop rolling."""
        ...

    def box(self, game: Game) -> Category:
        """The box to fill with the dice showing."""
        ...


@attrs.frozen
class Advice:
    """The coach's view of the current turn: expected final score of each choice.

    Attributes:
        keeps: ``(keep, expected)`` for each distinct hold, best first; empty with no
            rolls left.
        boxes: ``(box, expected)`` for each legal box, best first.
    """

    keeps: tuple[tuple[Keep, float], ...]
    boxes: tuple[tuple[Category, float], ...]


def _missing_notation(action: str) -> AppError:
    return AppError(
        f"{action}: this version of yahtzee_rules has no game notation "
        f"(yahtzee_rules.notation), which saving, resuming and share codes need"
    )


def _missing_solver(action: str) -> AppError:
    return AppError(
        f"{action}: this version of yahtzee_rules has no strategies or solver "
        f"(yahtzee_rules.solver), which computer players, the coach, simulate and solve need"
    )


def save_game(path: str, start: Game, moves: Sequence[Move], bots: Mapping[str, str]) -> None:
    """Write the game (its start and moves, and which players are computer players) to ``path``."""
    raise _missing_notation("save")


def load_game(path: str) -> tuple[Game, list[Move], dict[str, str]]:
    """Read a game saved by :func:`save_game`."""
    raise _missing_notation("load")


def share_code(start: Game, moves: Sequence[Move]) -> str:
    """A short URL-safe code for the game."""
    raise _missing_notation("code")


def game_from_code(code: str) -> tuple[Game, list[Move]]:
    """The game a share code stands for."""
    raise _missing_notation("resume from code")


def parse_card(text: str) -> Scorecard:
    """A scorecard written in the text notation."""
    raise _missing_notation("--card")


def make_bot(kind: str, rules: Rules, seed: int | None) -> Bot:
    """A computer player of ``kind`` (random, greedy or optimal)."""
    raise _missing_solver(f"--bot {kind}")


def advise(game: Game) -> Advice:
    """The coach's advice for the current turn."""
    raise _missing_solver("coach")


def simulate_scores(
    strategy: str,
    *,
    games: int,
    seed: int,
    players: int,
    rules: Rules,
    progress: ProgressCallback,
) -> list[int]:
    """Play ``games`` seeded games; return every player's final score."""
    raise _missing_solver("simulate")


def solve_table(rules: Rules, progress: ProgressCallback) -> tuple[str, float]:
    """Build (or load) the optimal table; return where it is cached and the expected score."""
    raise _missing_solver("solve")
