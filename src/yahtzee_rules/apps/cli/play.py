"""Pass-and-play at the terminal: the ``play`` command's game loop.

A :class:`Session` owns the game being played, as a
:class:`~yahtzee_rules.GameRecord` (which undo, save and share codes use), and the
dice generator, and talks to the players through a
:class:`~yahtzee_rules.apps.cli.console.Console`. Computer players take their turns
through :func:`~yahtzee_rules.play_turn`.
Every input is checked: a mistake prints why and asks again, and the game is
never lost (Ctrl-C and the end of input offer to save it).

Examples:
    >>> import random
    >>> from yahtzee_rules import Game
    >>> from yahtzee_rules.apps.cli.console import ScriptConsole
    >>> console = ScriptConsole(["f fh", "f fh", "r 1 2", "undo", "quit", ""])
    >>> session = Session(Game.new(["Ann"]), random.Random(3), console)
    >>> session.run()
    0
    >>> for line in console.transcript().splitlines():
    ...     if line.startswith(("Ann", "error", "Undone", "save", "Game")):
    ...         print(line)
    Ann rolls: 23334
    Ann> f fh
    Ann fills Full House with 23334 for 0.
    Ann rolls: 22444
    Ann> f fh
    error: fill Full House with 22444: Full House is already filled with 0; each box is filled once
    Ann> r 1 2
    Ann rolls, holding 22: 22223
    Ann> undo
    Undone: Ann's roll.
    Ann> quit
    save to file>
    Game not saved to a file. To resume it: yahtzee-rules play --code y1AAEAA0FubqIolxUs1z4
"""

from __future__ import annotations

import math
import random
import shlex
import textwrap
from collections.abc import Mapping, Sequence

import attrs

from yahtzee_rules.apps.cli import _extras
from yahtzee_rules.apps.cli.commands import (
    Code,
    Command,
    Fill,
    Help,
    Hint,
    Quit,
    Roll,
    Save,
    Show,
    Undo,
    help_text,
    parse_command,
)
from yahtzee_rules.apps.cli.console import AppError, Console
from yahtzee_rules.apps.cli.progress import Progress
from yahtzee_rules.bots.simulation import Strategy, play_turn
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.formats.render import render_scorecards
from yahtzee_rules.play import scoring
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.record import Fill as FillAction
from yahtzee_rules.play.record import GameRecord
from yahtzee_rules.play.record import Roll as RollAction
from yahtzee_rules.support._text import for_terminal
from yahtzee_rules.support.errors import RulesError
from yahtzee_rules.support.l10n import translations

__all__ = [
    "Session",
    "coach_lines",
    "coach_panel",
    "describe_rules",
    "dice_rows",
    "joker_note",
    "keep_from_positions",
    "positions_of",
    "win_lines",
]

#: Exit status after Ctrl-C, as shells report a process stopped by SIGINT.
EXIT_INTERRUPTED = 130

#: Expected values closer than this, relative to their size, are equal for the coach
#: (as for ``yahtzee_rules.bots.solver.best_action``): the fill is then advised.
TIE_TOLERANCE = 1e-9


def describe_rules(rules: Rules, locale: str | None = None) -> str:
    """One line naming the rule set, as :meth:`Rules.describe <yahtzee_rules.Rules.describe>`
    words it (in ``locale``'s language).

    Examples:
        >>> describe_rules(Rules())  # doctest: +NORMALIZE_WHITESPACE
        "Rules: Hasbro's Classic game (the default): 13 boxes, 35-point upper bonus at 63,
         100 per extra Yahtzee, forced Joker order"
        >>> describe_rules(Rules(joker="none", yahtzee_bonus=50))  # doctest: +NORMALIZE_WHITESPACE
        'Rules: Classic card (13 boxes), no Joker, 35-point upper bonus at 63,
         50-point Yahtzee bonus'
        >>> describe_rules(Rules.from_name("yatzy"), "sv")  # doctest: +ELLIPSIS
        'Regler: Skandinavisk Yatzy: 15 rutor, ...'
    """
    line = translations(locale).pgettext("play", "Rules: {rules}")
    return line.format(rules=Rules.describe(rules, locale=locale))


def dice_rows(dice: Dice, locale: str | None = None) -> list[str]:
    """The dice under their positions, as the prompt commands name them (the words in
    ``locale``'s language).

    Examples:
        >>> print("\\n".join(dice_rows(Dice("22356"))))
          position  1  2  3  4  5
          dice      2  2  3  5  6
        >>> print("\\n".join(dice_rows(Dice("22356"), "da")))
          position   1  2  3  4  5
          terninger  2  2  3  5  6
    """
    text = translations(locale)
    position = text.pgettext("play", "position")
    dice_word = text.pgettext("play", "dice")
    width = max(8, len(position), len(dice_word))
    return [
        f"  {position:<{width}}  " + "  ".join(str(p) for p in range(1, 6)),
        f"  {dice_word:<{width}}  " + "  ".join(str(f) for f in dice.faces),
    ]


def keep_from_positions(dice: Dice, positions: Sequence[int]) -> Keep:
    """The dice held at ``positions`` (1 to 5) of the dice as shown.

    Examples:
        >>> keep_from_positions(Dice("22356"), (1, 2, 5))
        Keep('226')
    """
    return Keep([dice.faces[p - 1] for p in positions])


def positions_of(dice: Dice, keep: Keep) -> tuple[int, ...]:
    """Positions (1 to 5) of the dice as shown that hold ``keep``, leftmost first.

    Examples:
        >>> positions_of(Dice("22356"), Keep("26"))
        (1, 5)
    """
    free = list(enumerate(dice.faces, start=1))
    chosen = []
    for face in keep.faces:
        index = next(i for i, (_, f) in enumerate(free) if f == face)
        chosen.append(free.pop(index)[0])
    return tuple(sorted(chosen))


def joker_note(game: Game) -> str | None:
    """What the Joker rule means for the dice showing, if it applies.

    The note is :func:`yahtzee_rules.play.scoring.joker_note`'s, for the card and rules
    in play.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> game = Game.new(["Ann"]).roll(outcome="44444").fill(Category.YAHTZEE)
        >>> print(joker_note(game.roll(outcome="44444")))
        Joker: five 4s with Yahtzee filled; the forced Joker requires Fours, which is open: five 4s must go in Fours. Filling any box adds the 100-point Yahtzee bonus.
    """
    dice = game.dice
    turn = game.turn
    if dice is None or turn is None:
        return None
    return scoring.joker_note(turn.card, dice, rules=game.rules)


def _command_for(dice: Dice, action: Keep | Box, locale: str | None = None) -> tuple[str, str]:
    """The command that makes ``action`` (language-neutral), and what it holds or fills."""
    if isinstance(action, Box):
        return f"f {action.code}", action.label_in(locale)
    positions = positions_of(dice, action)
    command = "r " + " ".join(map(str, positions)) if positions else "r"
    return command, str(action) if positions else translations(locale).pgettext("play", "none")


def _meaning(action: Keep | Box, what: str, locale: str | None) -> str:
    """``"fill Sixes"`` or ``"hold 666"``, in ``locale``'s language."""
    text = translations(locale)
    if isinstance(action, Box):
        return text.pgettext("play", "fill {box}").format(box=what)
    return text.pgettext("play", "hold {dice}").format(dice=what)


def _best(advice: _extras.Advice) -> tuple[Keep | Box, float] | None:
    """The advised choice and its value; None when there is no choice."""
    everything: list[tuple[Keep | Box, float]] = [*advice.keeps, *advice.boxes]
    if not everything:
        return None
    best = max(value for _, value in everything)
    # Equal values resolve to the simpler action: a fill worth as much as the best hold
    # (holding all five dice always is, when a fill is best) is the advice.
    fills = [item for item in advice.boxes if math.isclose(item[1], best, rel_tol=TIE_TOLERANCE)]
    best_action = fills[0][0] if fills else max(everything, key=lambda item: item[1])[0]
    return best_action, best


def coach_panel(
    dice: Dice, advice: _extras.Advice, *, rows: int = 14, locale: str | None = None
) -> list[str]:
    """The coach's advice in a narrow panel (42 columns): one list of choices, cheapest first.

    Holds and fills are listed together by what they cost against the advised choice
    (which comes first, chosen as by :func:`coach_lines`), at most ``rows`` of them, the
    best holds and the best fills in about equal numbers; a last line
    counts the rest. The play screen shows it beside the current player's column when
    the full table would not fit the terminal. Its words are in ``locale``'s language;
    the commands are the same in every language.

    Examples:
        >>> from yahtzee_rules import Category
        >>> from yahtzee_rules.apps.cli._extras import Advice
        >>> advice = Advice(
        ...     keeps=((Keep("666"), 212.5), (Keep("5666"), 211.0), (Keep(()), 200.0)),
        ...     boxes=((Category.SIXES, 209.25), (Category.CHANCE, 190.0)),
        ... )
        >>> print("\\n".join(coach_panel(Dice("25666"), advice, rows=3)))
        Coach: best is 'r 3 4 5' (hold 666)
        expected final score 212.50
        Cost of each choice in expected points:
          choice                type          cost
          hold 666              r 3 4 5       0.00
          hold 5666             r 2 3 4 5     1.50
          fill Sixes            f 6           3.25
          (2 more, costing 12.50 or more)
    """
    text = translations(locale)
    found = _best(advice)
    if found is None:
        return [text.pgettext("play", "Coach: no choice to make")]
    best_action, best = found
    command, what = _command_for(dice, best_action, locale)
    meaning = _meaning(best_action, what, locale)
    win = []  # the chance of winning, when known, in a short line of its own
    if advice.win is not None:
        win_line = text.pgettext("play", "chance of winning {chance} ({command})")
        win = [
            win_line.format(
                chance=f"{advice.win[0]:.1%}", command=_command_for(dice, advice.win[1])[0]
            )
        ]
        rows = max(1, rows - 1)
    holds = sorted(advice.keeps, key=lambda item: -item[1])
    fills = sorted(advice.boxes, key=lambda item: -item[1])
    # Half the rows (or more, when the other kind has fewer) for each kind of choice.
    room = rows if len(holds) + len(fills) > rows + 1 else rows + 1
    fill_rows = min(len(fills), max(room // 2, room - len(holds)))
    picked: list[tuple[Keep | Box, float]] = [*holds[: room - fill_rows], *fills[:fill_rows]]
    rest: list[tuple[Keep | Box, float]] = [*holds[room - fill_rows :], *fills[fill_rows:]]
    picked.sort(key=lambda item: (item[0] != best_action, -item[1]))
    choice, typed, cost = _heads(locale)[1:4]
    lines = [
        text.pgettext("play", "Coach: best is {command} ({meaning})").format(
            command=repr(command), meaning=meaning
        ),
        text.pgettext("play", "expected final score {points}").format(points=f"{best:.2f}"),
        text.pgettext("play", "Cost of each choice in expected points:"),
        f"  {choice:<21} {typed:<11} {cost:>6}",
    ]
    for action, value in picked:
        command, what = _command_for(dice, action, locale)
        lines.append(f"  {_meaning(action, what, locale):<21} {command:<11} {best - value:6.2f}")
    if rest:
        cheapest = min(best - value for _, value in rest)
        more = text.pgettext("play", "  ({count} more, costing {cost} or more)")
        lines.append(more.format(count=len(rest), cost=f"{cheapest:.2f}"))
    approximate = text.pgettext("play", "values approximate: no table reaches it")
    note = [] if advice.note is None else [approximate]
    return [*lines, *win, *note]


def _heads(locale: str | None) -> tuple[str, str, str, str, str]:
    """The coach's tables' headings: hold, choice, type (the command), cost, fill."""
    text = translations(locale)
    return (
        text.pgettext("play", "hold"),
        text.pgettext("play", "choice"),
        text.pgettext("play", "type"),
        text.pgettext("play", "cost"),
        text.pgettext("play", "fill"),
    )


def win_lines(dice: Dice, advice: _extras.Advice, locale: str | None = None) -> list[str]:
    """The coach's chance of winning (with opponents): a line, or none in a solitaire game.

    Examples:
        >>> from yahtzee_rules import Category
        >>> from yahtzee_rules.apps.cli._extras import Advice
        >>> advice = Advice(keeps=(), boxes=((Category.CHANCE, 26.0),), win=(0.4321, Category.CHANCE))
        >>> win_lines(Dice("35666"), advice)
        ['Chance of winning: 43.2% playing to win (f c: fill Chance)']
    """
    if advice.win is not None:
        chance, action = advice.win
        command, what = _command_for(dice, action, locale)
        line = translations(locale).pgettext(
            "play", "Chance of winning: {chance} playing to win ({command}: {meaning})"
        )
        return [
            line.format(
                chance=f"{chance:.1%}", command=command, meaning=_meaning(action, what, locale)
            )
        ]
    return [] if advice.win_note is None else [advice.win_note]


def _side_by_side(left: Sequence[str], right: Sequence[str], gap: int = 3) -> list[str]:
    """Two blocks of lines next to each other, the left one padded to its widest line."""
    width = max((len(line) for line in left), default=0) + gap
    return [
        (
            f"{left[i] if i < len(left) else '':<{width}}" + (right[i] if i < len(right) else "")
        ).rstrip()
        for i in range(max(len(left), len(right)))
    ]


def coach_lines(
    dice: Dice, advice: _extras.Advice, *, rows: int = 13, locale: str | None = None
) -> list[str]:
    """The coach's table: the best choice, then what each choice costs in expected points.

    The cost of a choice is how many points of expected final score it gives up
    against the best choice. Holds (with the command that makes them) are on the
    left, best first, at most ``rows`` of them; boxes are on the right. When a fill is
    worth as much as the best hold (within a relative ``TIE_TOLERANCE``), the fill
    is the advice: holding all five dice, say, would only waste a roll. Its words are in
    ``locale``'s language; the commands are the same in every language.

    Examples:
        >>> from yahtzee_rules import Category
        >>> from yahtzee_rules.apps.cli._extras import Advice
        >>> advice = Advice(
        ...     keeps=((Keep("666"), 212.5), (Keep("5666"), 211.0), (Keep(()), 200.0)),
        ...     boxes=((Category.SIXES, 209.25), (Category.CHANCE, 190.0)),
        ... )
        >>> print("\\n".join(coach_lines(Dice("25666"), advice, rows=2)))
        Coach: best is 'r 3 4 5' (hold 666), expected final score 212.50.
        Cost of each choice in expected points:
          hold     type          cost    fill             type    cost
          666      r 3 4 5       0.00    Sixes            f 6     3.25
          5666     r 2 3 4 5     1.50    Chance           f c    22.50
          (1 more hold, costing 12.50 or more)
    """
    text = translations(locale)
    found = _best(advice)
    if found is None:
        return [text.pgettext("play", "Coach: no choice to make")]
    best_action, best = found
    command, what = _command_for(dice, best_action, locale)
    meaning = _meaning(best_action, what, locale)
    lines = [
        text.pgettext(
            "play", "Coach: best is {command} ({meaning}), expected final score {points}."
        ).format(command=repr(command), meaning=meaning, points=f"{best:.2f}"),
        text.pgettext("play", "Cost of each choice in expected points:"),
    ]
    holds = [(_command_for(dice, keep, locale), best - value) for keep, value in advice.keeps]
    boxes = [(_command_for(dice, box, locale), best - value) for box, value in advice.boxes]
    left = [f"{what:<8} {command:<11} {cost:6.2f}" for (command, what), cost in holds[:rows]]
    right = [f"{what:<16} {command:<5} {cost:6.2f}" for (command, what), cost in boxes]
    hold, _, typed, cost_word, fill = _heads(locale)
    if left and right:
        lines.append(
            f"  {hold:<8} {typed:<11} {cost_word:>6}    {fill:<15} {typed:<5} {cost_word:>6}"
        )
    elif left:
        lines.append(f"  {hold:<8} {typed:<11} {cost_word:>6}")
    else:
        lines.append(f"  {fill:<16} {typed:<5} {cost_word:>6}")
    for index in range(max(len(left), len(right))):
        cells = [
            left[index] if index < len(left) else " " * 27 if left else "",
            right[index] if index < len(right) else "",
        ]
        lines.append(("  " + "    ".join(c for c in cells if c or left)).rstrip())
    hidden = holds[rows:]
    if hidden:
        cheapest = min(cost for _, cost in hidden)
        more = (
            text.pgettext("play", "  ({count} more holds, costing {cost} or more)")
            if len(hidden) > 1
            else text.pgettext("play", "  ({count} more hold, costing {cost} or more)")
        )
        lines.append(more.format(count=len(hidden), cost=f"{cheapest:.2f}"))
    note = [] if advice.note is None else [advice.note]
    return [*lines, *win_lines(dice, advice, locale), *note]


@attrs.frozen
class _Snapshot:
    actions: int
    rng_state: object
    action: str


class Session:
    """One ``play`` session: the game record, its players (human or computer) and undo.

    Args:
        record: The game as the session finds it: a new game, or a saved game's
            record (a :class:`~yahtzee_rules.Game` starts a record of its own).
        rng: The dice generator; undo restores its state too, so undoing a roll and
            rolling again the same way shows the same dice.
        console: Where to ask and tell.
        bots: Computer players by name: a label for their kind, and their
            :class:`~yahtzee_rules.Strategy` (such as ``yahtzee_rules.GreedyStrategy()``),
            which draws from ``rng``.
        coach: Show the coach's advice after every roll of a human player.
        locale: The language of everything the session writes but error messages (box
            names, the sheet, prompts, the coach); the commands typed are the same in
            every language. English by default.

    Raises:
        UnknownLocaleError: As :func:`~yahtzee_rules.support.l10n.resolve_locale`.

    Attributes:
        record: The game so far: every action since the session's start.

    Examples:
        >>> from yahtzee_rules.apps.cli.console import ScriptConsole
        >>> console = ScriptConsole(["r 9", "hold", "r 1 2", "undo", "help", "quit", ""])
        >>> session = Session(Game.new(["Ann"]), random.Random(3), console)
        >>> session.run()
        0
        >>> "error: positions '9'" in console.transcript()
        True
        >>> session.record  # the first roll; the roll holding 22 was undone
        GameRecord.parse('forced 0 Ann : 23334')
    """

    def __init__(
        self,
        record: GameRecord | Game,
        rng: random.Random,
        console: Console,
        *,
        bots: Mapping[str, tuple[str, Strategy]] | None = None,
        coach: bool = False,
        locale: str | None = None,
    ) -> None:
        self.text = translations(locale)  # refuses an unknown locale first
        self.locale = locale
        self.record = record if isinstance(record, GameRecord) else GameRecord.from_game(record)
        self.rng = rng
        self.console = console
        self.bots = dict(bots or {})
        self.coach = coach
        self.history: list[_Snapshot] = []
        #: The file last saved to, and how many actions it holds.
        self.saved: tuple[str, int] | None = None

    @property
    def game(self) -> Game:
        """The game being played: the record's game.

        Examples:
            >>> from yahtzee_rules.apps.cli.console import ScriptConsole
            >>> record = GameRecord.new(["Ann"]).roll(outcome="13366")
            >>> Session(record, random.Random(1), ScriptConsole([])).game.dice
            Dice('13366')
        """
        return self.record.game

    # --- output -------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Write a line to the console, with what a terminal would obey escaped.

        Control characters (ESC, BEL...) and the other characters no name may hold
        are written as their escapes (``\\x1b``), whatever text they came in with.

        Examples:
            >>> from yahtzee_rules.apps.cli.console import ScriptConsole
            >>> console = ScriptConsole([])
            >>> Session(Game.new(["Ann"]), random.Random(1), console).say("Hi")
            >>> console.transcript()
            'Hi'
        """
        self.console.say(for_terminal(text))

    def show(self, *, every_card: bool = False) -> None:
        """Show the score sheet, the dice, the rolls left and any Joker note.

        With the coach on a terminal, the screen after each roll is laid out to keep
        the sheet, the dice, the advice and the prompt in view (see
        ``_show_fitted``); with ``every_card`` (the ``show`` command) the whole sheet of
        every card is printed instead, with the coach's advice in one line.

        Examples:
            >>> from yahtzee_rules.apps.cli.console import ScriptConsole
            >>> console = ScriptConsole([])
            >>> record = GameRecord.new(["Ann"]).roll(outcome="13366")
            >>> session = Session(record, random.Random(1), console)
            >>> session.show()
            >>> print(console.transcript())  # doctest: +ELLIPSIS
            <BLANKLINE>
            Round 1 - Ann - roll 1 of 3, 2 rolls left
            Box                  Ann
            -----------------  -----
            Aces                  +1
            ...
              position  1  2  3  4  5
              dice      1  3  3  6  6
        """
        game = self.game
        size = self._terminal_size()
        width = None if size is None else size[0]
        locale = self.locale
        if game.is_over:
            self.say(
                render_scorecards(
                    game.cards, game.players, rules=game.rules, width=width, locale=locale
                )
            )
            return
        dice = game.dice
        rolled = 3 - game.rolls_left
        left = game.rolls_left
        heading = (
            self.text.pgettext("play", "Round {round} - {player} - roll {rolled} of 3, 1 roll left")
            if left == 1
            else self.text.pgettext(
                "play", "Round {round} - {player} - roll {rolled} of 3, {left} rolls left"
            )
        ).format(round=game.round, player=game.current_player, rolled=rolled, left=left)
        sheet = render_scorecards(
            game.cards,
            game.players,
            rules=game.rules,
            options=game.options,
            options_for=game.current,
            width=width,
            locale=locale,
        )
        note = joker_note(game)
        coached = self.coach and game.current_player not in self.bots
        advice = None
        if size is not None and coached and dice is not None:
            advice = self._advice()
            if advice is not None and not every_card:
                self._show_fitted(size, heading, note, dice, advice)
                return
            coached = advice is not None  # else the reason is printed; show the rest as usual
        self.say()
        self.say(heading)
        self.say(sheet)
        if note:
            for line in [note] if width is None else textwrap.wrap(note, width):
                self.say(line)
        if dice is not None:
            for line in dice_rows(dice, locale):
                self.say(line)
        if coached and advice is not None and dice is not None:
            self.say(coach_lines(dice, advice, locale=locale)[0])
            self.say(self.text.pgettext("play", "Type 'hint' for what each choice costs."))
        elif coached:
            self._advise()

    def _terminal_size(self) -> tuple[int, int] | None:
        """The terminal's ``(columns, lines)``; None when not on a terminal (piped
        sessions print the same text whatever the size)."""
        size = getattr(self.console, "terminal_size", None)
        found = size() if callable(size) else None
        if found is None:
            return None
        columns, lines = found
        return int(columns), int(lines)

    def _show_fitted(
        self,
        size: tuple[int, int],
        heading: str,
        note: str | None,
        dice: Dice,
        advice: _extras.Advice,
    ) -> None:
        """The turn with the coach, laid out to keep the sheet, the dice, the advice and
        the prompt on one screen.

        The first layout that fits the terminal is shown: the whole sheet with the
        coach's table under it; else the sheet of every card with the coach's panel
        beside it (the heading, the Joker note and then the dice moving into the
        panel when the screen is short); else the same with the current player's card
        alone, the panel saying that ``show`` prints every card. When even that does
        not fit, the whole sheet is printed as ``show`` prints it (the terminal
        scrolls), with the coach's advice in one line.
        """
        columns, height = size
        game = self.game
        rules = game.rules
        locale = self.locale
        # The line saying what was rolled comes before the screen, the prompt after it.
        room = height - 2
        whole = render_scorecards(
            game.cards,
            game.players,
            rules=rules,
            options=game.options,
            options_for=game.current,
            width=columns,
            locale=locale,
        )
        notes = textwrap.wrap(note, columns) if note else []
        full = [
            "",
            heading,
            *whole.splitlines(),
            *notes,
            *dice_rows(dice, locale),
            *coach_lines(dice, advice, locale=locale),
        ]
        if len(full) <= room and max(map(len, full)) <= columns:
            for line in full:
                self.say(line)
            return
        everyone = render_scorecards(
            game.cards,
            game.players,
            rules=rules,
            options=game.options,
            options_for=game.current,
            locale=locale,
        ).splitlines()
        alone = render_scorecards(
            [game.cards[game.current]],
            [game.current_player],
            rules=rules,
            options=game.options,
            locale=locale,
        ).splitlines()
        sheets = [everyone] if len(game.players) == 1 else [everyone, alone]
        for sheet in sheets:
            others = (
                []
                if sheet is everyone
                else [self.text.pgettext("play", "'show' prints every card.")]
            )
            for heading_beside, dice_beside in ((False, False), (True, False), (True, True)):
                panel_width = max(20, columns - max(map(len, sheet)) - 3)
                top = [heading] if heading_beside else []
                top += dice_rows(dice, locale) if dice_beside else []
                top += textwrap.wrap(note, panel_width) if note else []
                bottom = others
                spare = len(sheet) - len(top) - len(bottom) - 5  # the panel's own lines
                panel = coach_panel(dice, advice, rows=max(3, spare), locale=locale)
                beside = _side_by_side(sheet, [*top, *panel, *bottom])
                above = [] if heading_beside else [heading]
                below = [] if dice_beside else dice_rows(dice, locale)
                screen = [*above, *beside, *below]
                if len(screen) <= room and max(map(len, screen)) <= columns:
                    for line in screen:
                        self.say(line)
                    return
        self.say()
        self.say(heading)
        self.say(whole)
        for line in notes:
            self.say(line)
        for line in dice_rows(dice, locale):
            self.say(line)
        self.say(coach_lines(dice, advice, locale=locale)[0])
        self.say(self.text.pgettext("play", "Type 'hint' for what each choice costs."))

    def _advice(self) -> _extras.Advice | None:
        """The coach's advice (building the table first if need be); None, with the
        reason printed, when it cannot be given."""
        try:
            played = _extras.table_rules(self.game.rules)  # Triple Yahtzee: the Classic one
            if not _extras.table_is_ready(played):
                self.say(
                    self.text.pgettext(
                        "play", "The coach needs the optimal strategy table: building it, once."
                    )
                )
                bar = Progress("optimal table", 1)
                try:
                    _extras.optimal_table(played, bar.update)
                finally:
                    bar.close()
            return _extras.advise(self.game, self.locale)
        except AppError as error:
            self.say(f"error: {error}")
            return None

    def _advise(self) -> None:
        dice = self.game.dice
        if dice is None:
            self.say("error: hint: no dice yet; the coach advises once the dice are rolled")
            return
        advice = self._advice()
        if advice is None:
            return
        for line in coach_lines(dice, advice, locale=self.locale):
            self.say(line)

    # --- the loop ---------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the players stop; return the exit status.

        Returns:
            0 when the game ends or the players quit; 130 after Ctrl-C.

        Examples:
            >>> from yahtzee_rules.apps.cli.console import ScriptConsole
            >>> console = ScriptConsole(["^C", ""])
            >>> Session(Game.new(["Ann"]), random.Random(1), console).run()
            130
            >>> "Ann> ^C" in console.transcript(), "Interrupted." in console.transcript()
            (True, True)
        """
        try:
            self.say(describe_rules(self.game.rules, self.locale))
            self._start_turn()
            while not self.game.is_over:
                try:
                    line = self.console.ask(f"{self.game.current_player}> ")
                except EOFError:
                    self.say(self.text.pgettext("play", "Input ended."))
                    self._offer_save()
                    return 0
                try:
                    command = parse_command(line, card=self.game.rules.card)
                except RulesError as error:
                    self.say(f"error: {error}")
                    continue
                if isinstance(command, Quit):
                    self._offer_save()
                    return 0
                self.do(command)
        except KeyboardInterrupt:
            # Wherever Ctrl-C lands, the moves so far are kept and offered for saving.
            self.say()
            self.say(self.text.pgettext("play", "Interrupted."))
            self._offer_save()
            return EXIT_INTERRUPTED
        self._finish()
        return 0

    def do(self, command: Command) -> None:
        """Carry out one prompt command, printing the result or the reason it is refused.

        Examples:
            >>> from yahtzee_rules import Category
            >>> from yahtzee_rules.apps.cli.commands import Fill
            >>> from yahtzee_rules.apps.cli.console import ScriptConsole
            >>> console = ScriptConsole([])
            >>> session = Session(Game.new(["Ann"]), random.Random(1), console)
            >>> session.do(Fill(Category.CHANCE))
            >>> console.transcript()
            'error: fill Chance: no dice yet; roll at least once before filling a box'
        """
        try:
            if isinstance(command, Roll):
                self._roll(command)
            elif isinstance(command, Fill):
                self._fill(command.category)
            elif isinstance(command, Undo):
                self._undo()
            elif isinstance(command, Save):
                self._save(command.path)
            elif isinstance(command, Code):
                self._code(command)
            elif isinstance(command, Help):
                self.say(help_text(self.game.rules.card, self.locale))
            elif isinstance(command, Show):
                self.show(every_card=True)
            elif isinstance(command, Hint):
                self._advise()
        except (RulesError, AppError) as error:
            self.say(f"error: {error}")

    def _code(self, command: Code) -> None:
        code = self.record.share_code()
        if command.qr is not None:
            path = _extras.write_qr(code, command.qr)
        text = self.text
        self.say(text.pgettext("play", "Share code: {code}").format(code=code))
        resume = self.resume_command("--code", code)
        self.say(text.pgettext("play", "Resume with: {command}").format(command=resume))
        if command.qr is not None:
            written = text.pgettext(
                "play", "QR code written to {path}; scanning it gives the share code."
            )
            self.say(written.format(path=path))
        size = self._terminal_size()
        if size is not None:  # on a terminal, the code is drawn too, for a phone to scan
            self._draw_qr(code, command.background, size[1])

    def _draw_qr(self, code: str, background: str | None, lines: int) -> None:
        """Draw the share code as a QR code, with the prompt after it in ``lines``, for the
        terminal's background; or say why it is not drawn (nothing without segno)."""
        background = background or _extras.terminal_background()
        drawing = _extras.qr_lines(code, background=background)
        if drawing is None:
            return
        text = self.text
        if not drawing:
            self.say(
                text.pgettext(
                    "play", "The share code is too long for any QR code; copy its text above."
                )
            )
        elif len(drawing) >= lines:
            too_long = text.pgettext(
                "play",
                "The share code is too long for a QR code in this terminal's {lines} lines "
                "(it needs {needed}): copy its text above, write it as an image with "
                "'code --qr game.png', or make the terminal taller.",
            )
            self.say(too_long.format(lines=lines, needed=len(drawing) + 1))
        else:
            for_background = (
                text.pgettext(
                    "play", "QR code for a light background ('code --dark' for a dark one):"
                )
                if background == "light"
                else text.pgettext(
                    "play", "QR code for a dark background ('code --light' for a light one):"
                )
            )
            self.say(for_background)
            for line in drawing:
                self.say(line)

    def _snapshot(self, action: str) -> None:
        self.history.append(_Snapshot(len(self.record.actions), self.rng.getstate(), action))

    def _throw(self, keep: Keep | None = None) -> None:
        self.record = self.record.roll(self.rng, keep=keep or Keep(()))

    def _roll(self, command: Roll) -> None:
        dice = self.game.dice
        assert dice is not None
        keep = keep_from_positions(dice, command.hold)
        self.game.verify_roll(keep)
        text = self.text
        player = self.game.current_player
        self._snapshot(text.pgettext("play", "{player}'s roll").format(player=player))
        self._throw(keep)
        rolls = (
            text.pgettext("play", "{player} rolls, holding {keep}: {dice}")
            if len(keep)
            else text.pgettext("play", "{player} rolls, holding nothing: {dice}")
        )
        self.say(rolls.format(player=player, keep=keep, dice=self.game.dice))
        self.show()

    def _fill(self, category: Box) -> None:
        game = self.game
        game.verify_fill(category)
        option = game.box_options()[category]
        text = self.text
        label = category.label_in(self.locale)
        snapshot = text.pgettext("play", "{player}'s fill of {box}")
        self._snapshot(snapshot.format(player=game.current_player, box=label))
        self.record = self.record.fill(category)
        fills = (
            text.pgettext(
                "play",
                "{player} fills {box} with {dice} for {points} plus the {bonus}-point Yahtzee bonus.",
            )
            if option.bonus
            else text.pgettext("play", "{player} fills {box} with {dice} for {points}.")
        )
        self.say(
            fills.format(
                player=game.current_player,
                box=label,
                dice=game.dice,
                points=option.points,
                bonus=option.bonus,
            )
        )
        self._start_turn()

    def _undo(self) -> None:
        if not self.history:
            self.say(
                "error: undo: nothing to undo; undo takes back rolls and fills made in this session"
            )
            return
        snapshot = self.history.pop()
        self.record = self.record.undo(len(self.record.actions) - snapshot.actions)
        self.rng.setstate(snapshot.rng_state)  # type: ignore[arg-type]
        self.say(self.text.pgettext("play", "Undone: {action}.").format(action=snapshot.action))
        self.show()

    def _start_turn(self) -> None:
        """Play computer turns, then throw the next human player's first roll."""
        while not self.game.is_over and self.game.current_player in self.bots:
            self._bot_turn()
        if self.game.is_over:
            return
        if self.game.dice is None:
            self._throw()
            rolls = self.text.pgettext("play", "{player} rolls: {dice}")
            self.say(rolls.format(player=self.game.current_player, dice=self.game.dice))
        self.show()

    def _bot_turn(self) -> None:
        name = self.game.current_player
        kind, bot = self.bots[name]
        showing = self.game.dice
        before = len(self.record.actions)
        self.record = play_turn(self.record, bot, self.rng)
        actions = self.record.actions[before:]
        rolls = [action for action in actions if isinstance(action, RollAction)]
        fill = actions[-1]
        assert isinstance(fill, FillAction)
        if showing is None:
            showing, rolls = rolls[0].dice, rolls[1:]
        text = self.text
        step = text.pgettext("play", "hold {keep} -> {dice}")
        steps = [
            str(showing),
            *(step.format(keep=roll.keep or "-", dice=roll.dice) for roll in rolls),
        ]
        played = self.record.game_at(len(self.record.actions) - 1)  # before the fill
        option = played.box_options()[fill.category]
        line = (
            text.pgettext(
                "play",
                "{player} ({kind}): {steps}; fills {box} for {points} +{bonus} Yahtzee bonus",
            )
            if option.bonus
            else text.pgettext("play", "{player} ({kind}): {steps}; fills {box} for {points}")
        )
        self.say(
            line.format(
                player=name,
                kind=kind,
                steps=", ".join(steps),
                box=fill.category.label_in(self.locale),
                points=option.points,
                bonus=option.bonus,
            )
        )

    def _finish(self) -> None:
        game = self.game
        text = self.text
        self.say()
        self.say(text.pgettext("play", "Game over."))
        size = self._terminal_size()
        width = None if size is None else size[0]
        self.say(
            render_scorecards(
                game.cards, game.players, rules=game.rules, width=width, locale=self.locale
            )
        )
        result = game.result
        standings = ", ".join(f"{s.rank}. {s.player} {s.total}" for s in result.standings)
        self.say(text.pgettext("play", "Final standings: {standings}").format(standings=standings))
        both = text.pgettext("play", " and ")
        if result.play_off:
            tied = text.pgettext("play", "Tied: {players}; the tie rule says they play again")
            self.say(tied.format(players=both.join(result.play_off)))
        else:
            winners = (
                text.pgettext("play", "Winners: {players}")
                if result.is_tie
                else text.pgettext("play", "Winner: {players}")
            )
            self.say(winners.format(players=both.join(result.winners)))
        if _extras.can_review(game.rules):
            code = shlex.quote(self.record.share_code())
            review = text.pgettext(
                "play", "What each decision cost, and the luck: yahtzee-rules review --code {code}"
            )
            self.say(review.format(code=code))

    # --- saving ---------------------------------------------------------------------

    def _bot_kinds(self) -> dict[str, str]:
        return {name: kind for name, (kind, _) in self.bots.items()}

    def resume_command(self, option: str, value: str) -> str:
        """The command that resumes this game as it is: players' kinds and the coach too.

        A share code holds only the game, so ``--code`` gets a ``--bot KIND NAME`` for each
        computer player, in seat order (a save file lists them itself); either way
        ``--coach`` follows when the coach is on.

        Examples:
            >>> from yahtzee_rules import GreedyStrategy
            >>> from yahtzee_rules.apps.cli.console import ScriptConsole
            >>> bots = {"Cy Young": ("greedy", GreedyStrategy())}
            >>> game = Game.new(["Ann", "Cy Young"])
            >>> session = Session(game, random.Random(1), ScriptConsole([]), bots=bots, coach=True)
            >>> session.resume_command("--code", "y1XYZ")
            "yahtzee-rules play --code y1XYZ --bot greedy 'Cy Young' --coach"
            >>> session.resume_command("--load", "my game.json")
            "yahtzee-rules play --load 'my game.json' --coach"
        """
        words = ["yahtzee-rules", "play", option, shlex.quote(value)]
        if option == "--code":
            for name in self.game.players:
                if name in self.bots:
                    words += ["--bot", self.bots[name][0], shlex.quote(name)]
        if self.coach:
            words.append("--coach")
        return " ".join(words)

    def _may_write(self, path: str) -> bool:
        """Whether to write ``path``: yes unless it is another existing file the player
        chooses to keep when asked (the file this session saved to is rewritten)."""
        if (self.saved is not None and self.saved[0] == path) or not _extras.file_exists(path):
            return True
        text = self.text
        exists = text.pgettext(
            "play", "{path} exists already. Type y to overwrite it, or anything else to keep it."
        )
        self.say(exists.format(path=path))
        try:
            answer = self.console.ask(text.pgettext("play", "overwrite> ")).strip().lower()
        except (EOFError, KeyboardInterrupt):
            self.say()
            answer = ""
        if answer in ("y", "yes"):
            return True
        self.say(text.pgettext("play", "Not saved; {path} is unchanged.").format(path=path))
        return False

    def _save(self, path: str) -> bool:
        if not self._may_write(path):
            return False
        _extras.save_game(path, self.record, self._bot_kinds())
        self.saved = (path, len(self.record.actions))
        saved = self.text.pgettext("play", "Saved to {path}. Resume with: {command}")
        self.say(saved.format(path=path, command=self.resume_command("--load", path)))
        return True

    def _offer_save(self) -> None:
        """Ask for a file to save to (Enter or ``n``: none), then print a share code.

        An existing file other than the one this session saved to is overwritten only if
        the player says so.

        Nothing is asked when the game was saved and nothing has happened since.
        """
        text = self.text
        if self.saved is not None and self.saved[1] == len(self.record.actions):
            path = self.saved[0]
            saved = text.pgettext("play", "The game is saved in {path}. Resume with: {command}")
            self.say(saved.format(path=path, command=self.resume_command("--load", path)))
            return
        self.say(
            text.pgettext(
                "play",
                "Save the game first? Type a file name, or press Enter to leave without saving.",
            )
        )
        while True:
            try:
                answer = self.console.ask(text.pgettext("play", "save to file> ")).strip()
            except (EOFError, KeyboardInterrupt):
                self.say()
                answer = ""
            if not answer or answer.lower() in ("n", "no"):
                break
            if answer.lower() in ("y", "yes"):
                self.say(
                    text.pgettext(
                        "play", "Type the name of the file to save to, or press Enter to leave."
                    )
                )
                continue
            try:
                if not self._save(answer):
                    continue
            except AppError as error:
                self.say(f"error: {error}")
                break
            except (RulesError, OSError) as error:
                self.say(f"error: {error}; try another file name")
                continue
            return
        code = self.record.share_code()
        not_saved = text.pgettext("play", "Game not saved to a file. To resume it: {command}")
        self.say(not_saved.format(command=self.resume_command("--code", code)))
