"""Internal: a web-table position (a record and who sits at each seat) and the moves on it.

Everything the page shows is worked out here from the link alone: the share code
(the whole game record) and the seats text (one letter per seat: ``h`` human,
``r`` random, ``g`` greedy or ``o`` optimal computer player). Nothing is kept
between requests; the optimal tables are the ones the app was started with.

The work a link can ask for is bounded: a link holds a game of at most
:data:`MAX_SEATS` players in a share code of at most :data:`MAX_CODE_LENGTH`
characters, both checked before anything else is worked out, and everything here
takes time linear in the record (the record is replayed once, never once per
action).
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
from yahtzee_rules.play.game import Game, Replay
from yahtzee_rules.play.record import Fill, GameRecord, Roll
from yahtzee_rules.support._limits import MAX_WEB_CODE_LENGTH, MAX_WEB_SEATS
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = [
    "FALLBACK",
    "HEURISTIC_NOTE",
    "KINDS",
    "MAX_CODE_LENGTH",
    "MAX_SEATS",
    "SOLVER_NOTE",
    "Coach",
    "Position",
    "TableFor",
    "TurnSummary",
    "coach",
    "column_table",
    "strong_play",
]

#: Seat letters and what sits there.
KINDS = {"h": "human", "r": "random bot", "g": "greedy bot", "o": "optimal bot"}
#: The most players a table seats.
MAX_SEATS = MAX_WEB_SEATS
#: The longest share code a link may hold.
MAX_CODE_LENGTH = MAX_WEB_CODE_LENGTH
#: What the page says when an optimal bot or the coach has no optimal table for the rules.
FALLBACK = "greedy: no optimal table for these rules"

#: How the app finds an optimal table for some rules (``None`` when it has none).
TableFor = Callable[[Rules], object | None]


def _solver_module() -> object | None:
    try:
        import yahtzee_rules.bots.solver as solver
    except ImportError:
        return None
    return solver


def _no_table(rules: Rules) -> None:
    return None


def column_table(rules: Rules, table_for: TableFor) -> object | None:
    """On a card of several columns (Triple Yahtzee), the Classic table the app has for
    its columns (:func:`~yahtzee_rules.bots.solver.column_rules`): its optimal bots and
    its coach then play :class:`~yahtzee_rules.bots.solver.TripleStrategy`. Else ``None``."""
    if len(rules.card.columns) < 2 or _solver_module() is None:
        return None
    from yahtzee_rules.bots.solver import column_rules
    from yahtzee_rules.support.errors import RulesError

    try:
        wanted = column_rules(rules)
    except RulesError:
        return None
    return table_for(wanted)


def strong_play(rules: Rules, table_for: TableFor) -> bool:
    """Whether the app's optimal bots and coach play better than greedily under ``rules``:
    an optimal table, or for Triple Yahtzee the Classic table of its columns."""
    return table_for(rules) is not None or column_table(rules, table_for) is not None


def _bot(kind: str, rules: Rules, table_for: TableFor) -> Strategy:
    """The computer player of seat letter ``kind``; an optimal one plays greedily when
    the app has no optimal table for ``rules`` (the page says so), and on Triple Yahtzee
    as :class:`~yahtzee_rules.bots.solver.TripleStrategy` when it has the Classic one."""
    if kind == "r":
        return RandomStrategy()
    if kind == "o":
        table = table_for(rules)
        if table is not None:
            from yahtzee_rules.bots.solver import Table

            assert isinstance(table, Table)
            return OptimalStrategy(table)
        classic = column_table(rules, table_for)
        if classic is not None:
            from yahtzee_rules.bots.solver import Table, TripleStrategy

            assert isinstance(classic, Table)
            return TripleStrategy(classic, rules=rules)
    return GreedyStrategy()


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

    source: str  # "solver", "approximation" (Triple Yahtzee's strategy) or "heuristic"
    keep: Keep | None  # hold these and roll, or None to fill ``box``
    box: Box | None
    expected: float | None
    note: str


@attrs.frozen
class Position:
    """A position of the web table: the game record and the seats text.

    ``sign``, when the table has a key, signs every link the position writes (see
    ``_signing``).
    """

    record: GameRecord
    seats: str
    sign: Callable[[str, str], str] | None = attrs.field(
        default=None, kw_only=True, eq=False, repr=False
    )

    @classmethod
    def read(
        cls, code: str, seats: str | None, *, sign: Callable[[str, str], str] | None = None
    ) -> Position:
        """The position a link names; MalformedInputError for a bad code or seats text,
        a code longer than :data:`MAX_CODE_LENGTH` (checked before it is read) or a game
        of more than :data:`MAX_SEATS` players."""
        if len(code) > MAX_CODE_LENGTH:
            raise MalformedInputError(
                f"share code {code[:20]!r}... of {len(code)} characters: more than the web "
                f"table's limit of {MAX_CODE_LENGTH}; a game of its {MAX_SEATS} seats "
                f"writes less"
            )
        record = GameRecord.from_share_code(code)
        players = len(record.start.players)
        if players > MAX_SEATS:
            raise MalformedInputError(
                f"share code {code[:20]!r}...: a game of {players} players; the web table "
                f"seats at most {MAX_SEATS}"
            )
        return cls(record, parse_seats(seats, players), sign=sign)

    @property
    def game(self) -> Game:
        return self.record.game

    def link(self, record: GameRecord | None = None, **query: str) -> str:
        """The page's path for ``record`` (this position's by default), with the seats."""
        code = (self.record if record is None else record).share_code()
        signed = "" if self.sign is None else f"&sig={self.sign(code, self.seats)}"
        extra = "".join(f"&{key}={quote(value)}" for key, value in sorted(query.items()))
        return f"/play/{code}?seats={self.seats}{signed}{extra}"

    def kind(self, seat: int) -> str:
        return KINDS[self.seats[seat]]

    @property
    def bot_to_play(self) -> bool:
        game = self.game
        return not game.is_over and self.seats[game.current] != "h"

    def _seats_of_actions(self) -> list[int]:
        """The seat that played each action of the record, in order: one replay in place,
        in time linear in the record (playing a record action by action copies its
        actions each time)."""
        state = Replay(self.record.start)
        seats = []
        for action in self.record.actions:
            seats.append(state.current)
            if isinstance(action, Fill):
                state.fill(action.category)
            else:
                state.roll(action.keep, action.outcome)
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

    def play_bots(
        self, record: GameRecord, rng: random.Random, table_for: TableFor = _no_table
    ) -> GameRecord:
        """Let computer players play from ``record`` until a human is to move or the game
        ends; optimal ones with the table ``table_for`` finds, else greedily."""
        bots: dict[str, Strategy] = {}
        while not record.game.is_over:
            letter = self.seats[record.game.current]
            if letter == "h":
                break
            bot = bots.get(letter)
            if bot is None:
                bot = bots[letter] = _bot(letter, record.game.rules, table_for)
            record = play_turn(record, bot, rng)
        return record

    def recent_turns(self) -> tuple[TurnSummary, ...]:
        """The turns finished since the player to move last played (one turn at least).

        A box keeps the points it was filled with, so each turn's points are read from
        the final cards; the seats come from one replay (linear in the record).
        """
        actions = self.record.actions
        seats = self._seats_of_actions()
        players = self.record.start.players
        cards = self.game.cards
        turns: list[TurnSummary] = []
        rolls: list[str] = []
        for action, seat in zip(actions, seats, strict=True):
            if isinstance(action, Roll):
                rolls.append(str(action.dice))
                continue
            points = cards[seat][action.category] or 0
            turns.append(
                TurnSummary(players[seat], self.kind(seat), tuple(rolls), action.category, points)
            )
            rolls = []
        shown = max(1, len(players) - 1)
        return tuple(turns[-shown:])


def coach(game: Game, table_for: TableFor = _no_table) -> Coach:
    """The coach's advice for the current turn: the solver's if ``table_for`` finds a
    table for the rules, otherwise the greedy heuristic's, saying which."""
    turn = game.turn
    if turn is None or turn.dice is None:
        raise IllegalActionError("coach: no dice to advise on yet; roll first")
    table = table_for(game.rules)
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
            SOLVER_NOTE,
        )
    classic = column_table(game.rules, table_for)
    if classic is not None:
        from yahtzee_rules.bots.solver import Table, TripleStrategy

        assert isinstance(classic, Table)
        strategy = TripleStrategy(classic, rules=game.rules)
        best = strategy.advise(turn).best
        action = best.action
        return Coach(
            "approximation",
            action if isinstance(action, Keep) else None,
            action if isinstance(action, Box) else None,
            best.expected,
            strategy.explain(turn),
        )
    greedy = GreedyStrategy()
    rng = random.Random(0)
    keep = greedy.choose_keep(turn, rng) if turn.rolls_left else None
    if keep is not None:
        return Coach("heuristic", keep, None, None, HEURISTIC_NOTE)
    return Coach("heuristic", None, greedy.choose_box(turn, rng), None, HEURISTIC_NOTE)


#: The coach's note on the solver's advice.
SOLVER_NOTE = "optimal solitaire play: the most points expected on your own card"
#: The coach's note on the heuristic's advice (no optimal table for the rules).
HEURISTIC_NOTE = (
    f"{FALLBACK}; a quick rule of thumb (the greedy player's choice), not the optimal "
    f"move. A server started with 'yahtzee-rules serve --table RULES' gives optimal advice "
    f"for those rules"
)
