"""An OpenSpiel game: any number of players, explicit chance nodes with exact probabilities.

Needs OpenSpiel (``python -m pip install ".[openspiel]"``); ``import yahtzee_rules``
never imports it. Importing this module registers the game with
``pyspiel.register_game`` as ``"python_yahtzee_rules"``:

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_yahtzee_rules", {"players": 2})
    >>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
    (2, 45, 252)

Every roll is a chance node. Its outcomes are the dice showing after it, as their
index in :meth:`Dice.all() <yahtzee_rules.Dice.all>` (0 to 251: all 252 for a
first roll, fewer when dice are held), with the exact probabilities of
:func:`~yahtzee_rules.roll_distribution` (fractions turned into floats that add
up to 1). The players' actions are those of the Gymnasium and PettingZoo
environments: 0 to 31 hold dice (bit ``i`` holds die ``i`` of the sorted dice)
and roll the others, ``32 + b`` fills box ``b`` in card order. Of the hold
actions that hold the same dice (two ways to hold one 6 of 23666) only the lowest
is legal, so a search never explores one choice twice. Applying any other action
raises: :class:`InvalidActionError` (both the library's
:class:`~yahtzee_rules.MalformedInputError` and ``pyspiel.SpielError``, OpenSpiel's
error for an invalid action) for a number outside the game's actions (0 to 251 at a
chance node), :class:`~yahtzee_rules.IllegalActionError` for one that is not among
``legal_actions()`` (or ``chance_outcomes()``) now.

Parameters: ``players`` (1 or more, default 2), ``rules`` (a ruleset's name for
:meth:`Rules.from_name <yahtzee_rules.Rules.from_name>`, default ``"forced"``),
``reward`` (``"points"``: the returns are the final totals; ``"win"``: 1 to each
winner, -1 to each other player, 0 to players tied for a play-off) and ``start``
(a game to start from, its turn not yet rolled, as a share code from
:func:`~yahtzee_rules.formats.sharecode.encode_record` or in the library's notation; empty
for a new game). OpenSpiel writes a game's parameters with commas between them,
so only a game started from a share code (or from the start) can be serialized.
The returns are 0 until the game is over.

Examples:
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 252)
    >>> round(sum(p for _, p in state.chance_outcomes()), 12)
    1.0
    >>> state.apply_action(Dice.all().index(Dice("13366")))
    >>> state.current_player(), state.action_to_string(0b11000)
    (0, 'hold 66')
    >>> state.apply_action(0b11000)
    >>> len(state.chance_outcomes())  # the three other dice: 56 outcomes
    56
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from yahtzee_rules.bots._env import EMPTY, HOLDS, action_number, dice_array, hold
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.formats.sharecode import PREFIX, decode_record
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.probability import roll_distribution
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = [
    "GAME_NAME",
    "InvalidActionError",
    "YahtzeeGame",
    "YahtzeeObserver",
    "YahtzeeState",
    "outcomes",
]

#: The name the game is registered under.
GAME_NAME = "python_yahtzee_rules"
#: The most players a game is declared for (OpenSpiel asks for a bound).
_MOST_PLAYERS = 10
_DICE = Dice.all()
_POSITION = {dice: index for index, dice in enumerate(_DICE)}
_REWARDS = ("points", "win")
_OUTCOMES = "the index in Dice.all() of the dice showing after the roll"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Yahtzee by yahtzee_rules",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MOST_PLAYERS,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "rules": "forced", "reward": "points", "start": ""},
)


@functools.cache
def outcomes(keep: Keep) -> tuple[tuple[int, Fraction], ...]:
    """The chance outcomes of holding ``keep`` and rolling: (index in ``Dice.all()``, probability).

    Exact fractions, adding up to 1, by index; the game hands OpenSpiel them as floats.

    Examples:
        >>> from yahtzee_rules import Keep
        >>> outcomes(Keep("6666"))[:2]
        ((125, Fraction(1, 6)), (195, Fraction(1, 6)))
        >>> sum(p for _, p in outcomes(Keep(""))), len(outcomes(Keep("")))
        (Fraction(1, 1), 252)
    """
    return tuple(sorted((_POSITION[dice], p) for dice, p in roll_distribution(keep).items()))


class InvalidActionError(MalformedInputError, pyspiel.SpielError):  # type: ignore[misc]
    """An action that is not one of the game's: out of range for a player or a chance node.

    OpenSpiel's error (``pyspiel.SpielError``) and the library's
    (:class:`~yahtzee_rules.MalformedInputError`), so either ``except`` catches it.

    Examples:
        >>> state = pyspiel.load_game("python_yahtzee_rules").new_initial_state()
        >>> try:
        ...     state.apply_action(252)
        ... except pyspiel.SpielError as error:
        ...     print(error)
        chance outcome 252: outside the action space; chance outcomes are the ints 0 to 251 (the index in Dice.all() of the dice showing after the roll)
    """


@functools.cache
def _possible(keep: Keep) -> frozenset[int]:
    """The chance outcomes (indexes in ``Dice.all()``) of holding ``keep`` and rolling."""
    return frozenset(index for index, _ in outcomes(keep))


@functools.cache
def _floats(keep: Keep) -> tuple[tuple[int, float], ...]:
    return tuple((index, float(p)) for index, p in outcomes(keep))


@functools.cache
def _thrown(keep: Keep, index: int) -> tuple[int, ...]:
    """The faces thrown when ``keep`` was held and the dice ``Dice.all()[index]`` show."""
    faces = list(_DICE[index].faces)
    for face in keep.faces:
        faces.remove(face)
    return tuple(faces)


@functools.cache
def _distinct_holds(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The lowest hold action for each distinct keep of ``faces`` (sorted)."""
    seen: dict[Keep, int] = {}
    for action in range(HOLDS):
        seen.setdefault(hold(faces, action), action)
    return tuple(sorted(seen.values()))


def _chance_number(action: object) -> int:
    """``action`` as a chance outcome, an index in ``Dice.all()``; else an error."""
    return action_number(action, len(_DICE), InvalidActionError, "chance outcome", _OUTCOMES)


def _rules(name: object) -> Rules:
    if not isinstance(name, str):
        raise MalformedInputError(f"rules {show(name)}: not a ruleset's name such as 'forced'")
    return Rules.from_name(name)


class YahtzeeGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The game for OpenSpiel; ``pyspiel.load_game("python_yahtzee_rules", params)`` makes one.

    Args:
        params: The parameters (see the module's description); missing ones take
            their defaults.

    Raises:
        MalformedInputError: For a bad number of players, an unknown ruleset or reward,
            or a start that is not a game in the library's notation, or one already
            rolled or over.

    Examples:
        >>> game = YahtzeeGame({"players": 3, "rules": "yacht", "reward": "win"})
        >>> game.num_players(), game.num_distinct_actions(), game.min_utility()
        (3, 44, -1.0)
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        start = params["start"]
        if not isinstance(start, str):
            raise MalformedInputError(f"start {show(start)}: not a share code or a game's notation")
        if start:
            game = decode_record(start).game if start.startswith(PREFIX) else Game.parse(start)
            if game.is_over or game.dice is not None:
                raise MalformedInputError(
                    f"start {show(start)}: a game over or already rolled; start from a "
                    f"game whose turn has not rolled yet"
                )
            rules, players = game.rules, len(game.players)
        else:
            rules, players = _rules(params["rules"]), params["players"]
            if type(players) is not int or not 1 <= players <= _MOST_PLAYERS:
                raise MalformedInputError(
                    f"players {show(players)}: not an int from 1 to {_MOST_PLAYERS}"
                )
            game = Game.new([f"player_{seat}" for seat in range(players)], rules=rules)
        reward = params["reward"]
        if reward not in _REWARDS:
            raise MalformedInputError(f"reward {show(reward)}: not 'points' or 'win'")
        self.rules = rules
        self.reward = reward
        self.start = game
        self.boxes = rules.card.members
        card = rules.card
        most = sum(max(card.possible[box]) for box in self.boxes) * len(card.columns)
        most += rules.upper_bonus * len(card.columns) + rules.yahtzee_bonus * len(self.boxes)
        turns = sum(len(c.open_categories) for c in game.cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=HOLDS + len(self.boxes),
            max_chance_outcomes=len(_DICE),
            num_players=players,
            min_utility=-1.0 if reward == "win" else 0.0,
            max_utility=1.0 if reward == "win" else float(most),
            utility_sum=None,
            max_game_length=6 * turns,  # roll, hold, roll, hold, roll, fill
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> YahtzeeState:
        """The start: a chance node, the first player's first roll.

        Examples:
            >>> YahtzeeGame().new_initial_state().is_chance_node()
            True
        """
        return YahtzeeState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> YahtzeeObserver:
        """The observer OpenSpiel asks for (see :class:`YahtzeeObserver`).

        Examples:
            >>> YahtzeeGame().make_py_observer().tensor.shape
            (35,)
        """
        return YahtzeeObserver(self, params)


class YahtzeeState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A position: the game so far, and the dice held when a roll is due.

    Examples:
        >>> state = YahtzeeGame({"players": 1}).new_initial_state()
        >>> state.apply_action(Dice.all().index(Dice("12345")))
        >>> str(state)
        'forced 0 player_0 - 12345@1'
        >>> state.action_to_string(32 + 10), state.legal_actions()[-3:]
        ('fill ls', [42, 43, 44])
    """

    def __init__(self, game: YahtzeeGame) -> None:
        super().__init__(game)
        self.boxes = game.boxes
        self.reward = game.reward
        self.game: Game = game.start
        #: The dice held for the roll due (a chance node), or None when a player is to act.
        self.held: Keep | None = EMPTY

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id.

        Examples:
            >>> YahtzeeGame().new_initial_state().current_player() == pyspiel.PlayerId.CHANCE
            True
        """
        if self.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.held is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.game.current

    def _legal_actions(self, player: int) -> list[int]:
        turn = self.game.turn
        assert turn is not None
        options = turn.options
        holds = list(_distinct_holds(turn.dice.faces)) if turn.rolls_left else []  # type: ignore[union-attr]
        return holds + [HOLDS + b for b, box in enumerate(self.boxes) if box in options]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The dice the roll due may show (index in ``Dice.all()``) and their probabilities.

        Examples:
            >>> state = YahtzeeGame().new_initial_state()
            >>> state.chance_outcomes()[0]  # five 1s
            (0, 0.0001286008230452675)
        """
        assert self.held is not None
        return list(_floats(self.held))  # a new list: callers may shuffle it

    def _apply_action(self, action: int) -> None:
        game = self.game
        if game.is_over:
            raise IllegalActionError(f"action {show(action)}: the game is over")
        if self.held is not None:
            index = _chance_number(action)
            if index not in _possible(self.held):
                held = f"with {self.held} held" if self.held.faces else "of five dice"
                raise IllegalActionError(
                    f"chance outcome {index} ({_DICE[index]}): not a roll {held}; "
                    f"see chance_outcomes()"
                )
            self.game = game.roll(outcome=_thrown(self.held, index), keep=self.held)
            self.held = None
            return
        action = action_number(action, HOLDS + len(self.boxes), InvalidActionError)
        if action not in self._legal_actions(game.current):
            raise IllegalActionError(
                f"action {action} ({self._action_to_string(game.current, action)}): not "
                f"legal now; see legal_actions() (0 to 31 hold dice and roll, only the lowest "
                f"of the holds that keep the same dice; 32 on fill a box)"
            )
        if action < HOLDS:
            assert game.dice is not None
            self.held = hold(game.dice.faces, action)
            return
        self.game = game.fill(self.boxes[action - HOLDS])
        self.held = None if self.game.is_over else EMPTY

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {_DICE[_chance_number(action)]}"
        action = action_number(action, HOLDS + len(self.boxes), InvalidActionError)
        if action < HOLDS:
            dice = self.game.dice
            if dice is None:
                raise IllegalActionError(f"action {show(action)}: no dice showing to hold")
            held = hold(dice.faces, action)
            return f"hold {held}" if held.faces else "roll all"
        box = self.boxes[action - HOLDS]
        return f"fill {box.code}"

    def is_terminal(self) -> bool:
        """Whether every card is full.

        Examples:
            >>> YahtzeeGame().new_initial_state().is_terminal()
            False
        """
        return self.game.is_over

    def returns(self) -> list[float]:
        """Each player's final total (or 1, -1, 0 with ``reward="win"``); 0 before the end.

        Examples:
            >>> YahtzeeGame().new_initial_state().returns()
            [0.0, 0.0]
        """
        game = self.game
        seats = len(game.players)
        if not game.is_over:
            return [0.0] * seats
        if self.reward == "points":
            return [float(game.player_totals(seat).grand_total) for seat in range(seats)]
        result = game.result
        return [
            1.0 if name in result.winners else 0.0 if name in result.play_off else -1.0
            for name in game.players
        ]

    def __str__(self) -> str:
        text = str(self.game)
        if self.held is not None and self.held.faces:
            text += f" holding {self.held}"
        return text


class YahtzeeObserver:
    """OpenSpiel's observer: the Gymnasium and PettingZoo observation as a float tensor.

    The tensor (``dict["observation"]``) is the dice shown (five 1s before a roll),
    the rolls left, how many seats after ``player`` the player to move sits, then a
    card for each seat from ``player``'s on: the boxes in card order (-1 while open)
    and the bonus marks. The string is the game in the library's notation.

    Examples:
        >>> game = YahtzeeGame()
        >>> observer = game.make_py_observer()
        >>> state = game.new_initial_state()
        >>> state.apply_action(Dice.all().index(Dice("13366")))
        >>> observer.set_from(state, 1)
        >>> observer.tensor[:7].tolist()
        [1.0, 3.0, 3.0, 6.0, 6.0, 2.0, 1.0]
        >>> observer.string_from(state, 0)
        'forced 0 player_0,player_1 -/- 13366@1'
    """

    def __init__(self, game: YahtzeeGame, params: dict[str, Any] | None = None) -> None:
        if params:
            raise MalformedInputError(f"observer params {show(params)}: none are taken")
        seats = game.num_players()
        self.tensor = np.zeros(7 + seats * (len(game.boxes) + 1), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: YahtzeeState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` seen from ``player``'s seat.

        Examples:
            >>> game = YahtzeeGame({"players": 1})
            >>> observer = game.make_py_observer()
            >>> observer.set_from(game.new_initial_state(), 0)
            >>> observer.tensor[5:].tolist()[:3]
            [0.0, 0.0, -1.0]
        """
        game = state.game
        seats = len(game.players)
        turn = game.turn
        parts: list[Any] = [
            dice_array(game.dice),
            [0 if turn is None or turn.dice is None else turn.rolls_left],
            [0 if turn is None else (game.current - player) % seats],
        ]
        for other in range(player, player + seats):
            card = game.cards[other % seats]
            parts.append([-1 if v is None else v for v in card.boxes])
            parts.append([card.bonus_marks])
        self.tensor[:] = np.concatenate(parts)

    def string_from(self, state: YahtzeeState, player: int) -> str:
        """The state in the library's notation (with the dice held when a roll is due).

        Examples:
            >>> game = YahtzeeGame({"players": 1})
            >>> game.make_py_observer().string_from(game.new_initial_state(), 0)
            'forced 0 player_0'
        """
        return str(state)


pyspiel.register_game(_GAME_TYPE, YahtzeeGame)
