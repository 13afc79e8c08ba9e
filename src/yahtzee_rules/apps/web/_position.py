"""Internal: a web-table position (a record and who sits at each seat) and the moves on it.

Everything the page shows is worked out here from the link alone: the share code
(the whole game record) and the seats text (one letter per seat: ``h`` human,
``r`` random, ``g`` greedy or ``o`` optimal computer player). Nothing is kept
between requests except the solver tables, which are a cache.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from urllib.parse import quote

import attrs

from yahtzee_rules.bots.simulation import (
    GreedyStrategy,
    OptimalStrategy,
    RandomStrategy,
    Strategy,
    play_turn,
)
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.record import Fill, GameRecord, Roll
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = [
    "KINDS",
    "MAX_SEATS",
    "Coach",
    "Position",
    "TurnSummary",
    "coach",
    "solver_table",
]

#: Seat letters and what sits there.
KINDS = {"h": "human", "r": "random bot", "g": "greedy bot", "o": "optimal bot"}
#: The most players a table seats.
MAX_SEATS = 8

_TABLES: dict[Rules, object] = {}  # solver tables by rules: a cache, not game state


def _solver_module() -> object | None:
    try:
        import yahtzee_rules.bots.solver as solver
    except ImportError:
        return None
    return solver


def solver_table(rules: Rules, *, build: bool) -> object | None:
    """The optimal table for ``rules``: from memory or the cache; built only if ``build``.

    ``None`` without NumPy, or when the table is not cached and ``build`` is false.
    """
    table = _TABLES.get(rules)
    if table is not None:
        return table
    solver = _solver_module()
    if solver is None:
        return None
    from yahtzee_rules.bots.solver import cached_table, load_table

    table = load_table(rules=rules) if build else cached_table(rules=rules)
    if table is not None:
        _TABLES[rules] = table
    return table


def _bot(kind: str, rules: Rules) -> Strategy:
    if kind == "r":
        return RandomStrategy()
    if kind == "g":
        return GreedyStrategy()
    from yahtzee_rules.bots.solver import Table

    table = solver_table(rules, build=True)
    if not isinstance(table, Table):
        raise IllegalActionError(
            "optimal bot: the optimal player needs NumPy, which is not installed; install "
            'it with pip install "yahtzee-rules[solver]" or seat a greedy bot'
        )
    return OptimalStrategy(table)


def parse_seats(text: str | None, players: int) -> str:
    """The seats text of a link, checked against the number of players (all human if absent)."""
    if text is None:
        return "h" * players
    if len(text) != players or any(letter not in KINDS for letter in text):
        raise MalformedInputError(
            f"seats {text[:40]!r}: not one letter per player ({players} players); each "
            f"seat is h (human), r (random bot), g (greedy bot) or o (optimal bot)"
        )
    if "o" in text and _solver_module() is None:
        raise MalformedInputError(
            f"seats {text!r}: an optimal bot needs NumPy, which is not installed here; "
            f'install "yahtzee-rules[solver]" or use g (greedy bot)'
        )
    return text


@attrs.frozen
class TurnSummary:
    """One finished turn, for the page's list of what just happened."""

    player: str
    kind: str
    rolls: tuple[str, ...]
    box: Box
    points: int


@attrs.frozen
class Coach:
    """The coach's advice: what to do, how it was worked out, and the expected score."""

    source: str  # "solver" or "heuristic"
    keep: Keep | None  # hold these and roll, or None to fill ``box``
    box: Box | None
    expected: float | None
    note: str


@attrs.frozen
class Position:
    """A position of the web table: the game record and the seats text."""

    record: GameRecord
    seats: str

    @classmethod
    def read(cls, code: str, seats: str | None) -> Position:
        """The position a link names; MalformedInputError for a bad code or seats text."""
        record = GameRecord.from_share_code(code)
        return cls(record, parse_seats(seats, len(record.start.players)))

    @property
    def game(self) -> Game:
        return self.record.game

    def link(self, record: GameRecord | None = None, **query: str) -> str:
        """The page's path for ``record`` (this position's by default), with the seats."""
        code = (self.record if record is None else record).share_code()
        extra = "".join(f"&{key}={quote(value)}" for key, value in sorted(query.items()))
        return f"/play/{code}?seats={self.seats}{extra}"

    def kind(self, seat: int) -> str:
        return KINDS[self.seats[seat]]

    @property
    def bot_to_play(self) -> bool:
        game = self.game
        return not game.is_over and self.seats[game.current] != "h"

    def _seats_of_actions(self) -> list[int]:
        """The seat that played each action of the record, in order."""
        record = GameRecord.from_game(self.record.start)
        seats = []
        for action in self.record.actions:
            seats.append(record.game.current)
            record = record.play(action)
        return seats

    def undo_target(self) -> GameRecord | None:
        """The record before the last human action (and any bot turns after it).

        With no human action recorded, one action back; ``None`` at the start.
        """
        actions = self.record.actions
        if not actions:
            return None
        seats = self._seats_of_actions()
        count = len(actions)
        while count and self.seats[seats[count - 1]] != "h":
            count -= 1
        if count == 0:  # only bots have played: step back one action
            return self.record.undo()
        return self.record.undo(len(actions) - count + 1)

    def roll(self, held: tuple[int, ...], rng: random.Random) -> GameRecord:
        """Hold the dice at ``held`` (positions 0-4 in the order shown) and roll the rest."""
        game = self.game
        if game.is_over:
            raise IllegalActionError("roll: the game is over; start a new game")
        if self.bot_to_play:
            raise IllegalActionError(
                f"roll: it is {game.current_player}'s turn, a {self.kind(game.current)}; "
                f"let it play"
            )
        dice = game.dice
        if dice is None:
            if held:
                raise IllegalActionError(
                    "hold: nothing to hold before the first roll; the first roll throws all five dice"
                )
            return self.record.roll(rng)
        if len(set(held)) != len(held) or any(not 0 <= i < 5 for i in held):
            raise MalformedInputError(
                f"hold {list(held)!r}: dice are held by position, 0 to 4, each at most once"
            )
        keep = Keep(tuple(dice.faces[i] for i in sorted(held)))
        return self.record.roll(rng, keep=keep)

    def fill(self, code: str) -> GameRecord:
        """Fill the box whose code is ``code`` for the human player to move."""
        game = self.game
        if self.bot_to_play:
            raise IllegalActionError(
                f"fill: it is {game.current_player}'s turn, a {self.kind(game.current)}; "
                f"let it play"
            )
        for box in game.rules.card.members:
            if box.code == code:
                return self.record.fill(box)
        codes = ", ".join(box.code for box in game.rules.card.members)
        raise MalformedInputError(f"box {code[:20]!r}: no box of this card has that code; {codes}")

    def play_bots(self, record: GameRecord, rng: random.Random) -> GameRecord:
        """Let computer players play from ``record`` until a human is to move or the game ends."""
        bots: dict[str, Strategy] = {}
        while not record.game.is_over:
            letter = self.seats[record.game.current]
            if letter == "h":
                break
            bot = bots.get(letter)
            if bot is None:
                bot = bots[letter] = _bot(letter, record.game.rules)
            record = play_turn(record, bot, rng)
        return record

    def recent_turns(self) -> tuple[TurnSummary, ...]:
        """The turns finished since the player to move last played (one turn at least)."""
        record = GameRecord.from_game(self.record.start)
        turns: list[TurnSummary] = []
        rolls: list[str] = []
        for action in self.record.actions:
            game = record.game
            if isinstance(action, Roll):
                rolls.append(str(action.dice))
            elif isinstance(action, Fill):
                before = game.card()[action.category]
                after_record = record.play(action)
                card = after_record.game.cards[game.current]
                points = (card[action.category] or 0) - (before or 0)
                turns.append(
                    TurnSummary(
                        game.current_player,
                        self.kind(game.current),
                        tuple(rolls),
                        action.category,
                        points,
                    )
                )
                rolls = []
                record = after_record
                continue
            record = record.play(action)
        shown = max(1, len(self.record.start.players) - 1)
        return tuple(turns[-shown:])


def coach(game: Game, table_for: Callable[[Rules], object | None] | None = None) -> Coach:
    """The coach's advice for the current turn: the solver's if its table is at hand,
    otherwise the greedy heuristic's, saying which."""
    turn = game.turn
    if turn is None or turn.dice is None:
        raise IllegalActionError("coach: no dice to advise on yet; roll first")
    find = table_for or (lambda rules: solver_table(rules, build=False))
    table = find(game.rules)
    if table is not None:
        from yahtzee_rules.bots.solver import Table, advise

        assert isinstance(table, Table)
        best = advise(turn, table).best
        action = best.action
        keep = action if isinstance(action, Keep) else None
        box = action if isinstance(action, Box) else None
        return Coach(
            "solver",
            keep,
            box,
            best.expected,
            "optimal solitaire play: the most points expected on your own card",
        )
    greedy = GreedyStrategy()
    rng = random.Random(0)
    keep = greedy.choose_keep(turn, rng) if turn.rolls_left else None
    if keep is not None:
        return Coach("heuristic", keep, None, None, _HEURISTIC_NOTE)
    return Coach("heuristic", None, greedy.choose_box(turn, rng), None, _HEURISTIC_NOTE)


_HEURISTIC_NOTE = (
    "a quick rule of thumb (the greedy player's choice), not the optimal move; with the "
    "solver extra installed, run 'yahtzee-rules solve' once for optimal advice"
)
