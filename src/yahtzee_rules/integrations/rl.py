"""A Gymnasium environment for solitaire play by the library's exact rules.

Needs Gymnasium (``python -m pip install ".[rl]"``); ``import yahtzee_rules`` never
imports it. Importing this module registers the id ``yahtzee_rules/Solitaire-v0``,
so ``gymnasium.make("yahtzee_rules.integrations.rl:yahtzee_rules/Solitaire-v0")`` works from
anywhere (Gymnasium imports the module named before the colon). ``gymnasium.make_vec``
of that id gives the batched
:class:`~yahtzee_rules.integrations.vector.SolitaireVectorEnv` (its
``vector_entry_point``), equal game for game to this one.

Each step is one decision after a roll: the environment throws the first roll of
every turn itself. The action space is fixed for a ruleset: ``Discrete(32 + boxes)``.

* Actions 0 to 31 hold dice and roll the others: bit ``i`` of the action holds die
  ``i`` of the dice shown (sorted, lowest first). Legal while the turn has rolls left.
* Action ``32 + b`` fills box ``b`` of the card (card order); legal when the rules
  allow that box for the dice (the Joker rule included).

An action is an int or a NumPy integer from the action space (not a bool, a float
or a string): anything else raises :class:`InvalidActionError`, which is both the
library's :class:`~yahtzee_rules.MalformedInputError` and Gymnasium's
``gymnasium.error.InvalidAction``; an action of the space that the rules do not
allow now raises :class:`~yahtzee_rules.IllegalActionError`.

``info["action_mask"]`` (an ``int8`` array) marks the legal actions. The
reward is the points a fill writes, bonuses included (the upper bonus when it is
reached, an extra-Yahtzee bonus), and 0 for a roll; the episode terminates when
the card is full, so the rewards add up to the final grand total.

The observation is a dict:

* ``"dice"``: the five faces shown, sorted (1 to 6);
* ``"rolls_left"``: 0, 1 or 2;
* ``"card"``: one value per box in card order, -1 while the box is open;
* ``"bonus_marks"``: the extra-Yahtzee bonus marks earned (at most 13).

Examples:
    >>> env = SolitaireEnv()
    >>> observation, info = env.reset(seed=1)
    >>> observation["dice"].tolist(), int(observation["rolls_left"])
    ([1, 5, 5, 5, 6], 2)
    >>> int(info["action_mask"].sum())  # 32 holds and the 13 open boxes
    45
    >>> observation, reward, terminated, truncated, info = env.step(32 + 12)  # Chance
    >>> reward, terminated, int(observation["card"][12])
    (22.0, False, 22)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from yahtzee_rules.bots._env import HOLDS, ActionGame, DiceStream, Int8Array, dice_array
from yahtzee_rules.core.rules import Rules, not_rules_error
from yahtzee_rules.play.game import Game
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["ENV_ID", "InvalidActionError", "SolitaireEnv"]

#: The registered id of :class:`SolitaireEnv`.
ENV_ID = "yahtzee_rules/Solitaire-v0"


class InvalidActionError(MalformedInputError, gymnasium.error.InvalidAction):
    """An action that is not in the action space: not an int, or out of range.

    Gymnasium's error for it (``gymnasium.error.InvalidAction``) and the library's
    (:class:`~yahtzee_rules.MalformedInputError`), so either ``except`` catches it.

    Examples:
        >>> env = SolitaireEnv()
        >>> _ = env.reset(seed=1)
        >>> try:
        ...     env.step(32.9)
        ... except gymnasium.error.InvalidAction as error:
        ...     print(error)
        action 32.9: a float, not an int; actions are the ints 0 to 44 (0 to 31 hold dice and roll, 32 on fill a box)
    """


class SolitaireEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One player fills a card, one decision a step; see the module's description.

    Args:
        rules: The rules to play: any ruleset the library has (Classic by default,
            ``Rules.from_name("yacht")``, ``Rules.from_name("yatzy")`` ...).
        render_mode: ``None`` or ``"ansi"`` (:meth:`render` returns the game in the
            library's notation).

    Raises:
        MalformedInputError: For rules that are not a Rules, or another render mode.

    Examples:
        >>> from yahtzee_rules import Rules
        >>> env = SolitaireEnv(Rules.from_name("yacht"))
        >>> env.action_space
        Discrete(44)
        >>> _ = env.reset(seed=3)
        >>> env.step(0)[1]  # roll all five again: no points
        0.0
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  # Gymnasium's API

    def __init__(self, rules: Rules | None = None, render_mode: str | None = None) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise not_rules_error(rules)
        if render_mode not in (None, "ansi"):
            raise MalformedInputError(f"render_mode {show(render_mode)}: not None or 'ansi'")
        self.rules = rules
        self.render_mode = render_mode
        self._boxes = rules.card.members
        most = max(max(rules.card.possible[box]) for box in self._boxes)
        self.action_space = spaces.Discrete(HOLDS + len(self._boxes))
        self.observation_space = spaces.Dict(
            {
                "dice": spaces.Box(1, 6, shape=(5,), dtype=np.int64),
                "rolls_left": spaces.Discrete(3),
                "card": spaces.Box(-1, most, shape=(len(self._boxes),), dtype=np.int64),
                "bonus_marks": spaces.Discrete(len(self._boxes) + 1),
            }
        )
        self._play = ActionGame(rules, ["player"])
        self._dice = DiceStream()

    @property
    def _game(self) -> Game:
        return self._play.game

    @_game.setter
    def _game(self, game: Game) -> None:
        self._play.load(game)

    def _observe(self) -> dict[str, Any]:
        play = self._play
        return {
            "dice": dice_array(play.game.dice),
            "rolls_left": play.rolls_left(),
            "card": play.cards[0].copy(),
            "bonus_marks": play.game.cards[0].bonus_marks,
        }

    def action_mask(self) -> Int8Array:
        """The legal actions now, 1 for legal (all 0 once the card is full): a copy.

        Examples:
            >>> env = SolitaireEnv()
            >>> _ = env.reset(seed=0)
            >>> env.action_mask()[:3].tolist()
            [1, 1, 1]
        """
        return self._play.mask.copy()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game with the first roll thrown; ``seed`` seeds the dice.

        The dice are the counter-based stream of
        :class:`~yahtzee_rules.integrations.vector.SolitaireVectorEnv` (one draw a roll,
        a pure function of the seed, the game's number since it and the roll's number
        in the game), so the batched environment replays these games exactly. Without
        a seed the stream goes on to its next game (the first time, it is seeded from
        :attr:`np_random`).

        Examples:
            >>> env = SolitaireEnv()
            >>> env.reset(seed=5)[0]["dice"].tolist() == env.reset(seed=5)[0]["dice"].tolist()
            True
        """
        super().reset(seed=seed)
        self._dice.new_game(seed, lambda: int(self.np_random.integers(2**63)))
        self._play.start(self._dice)
        return self._observe(), {"action_mask": self._play.mask.copy()}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Hold and roll (actions 0 to 31) or fill a box (32 on); see the module's description.

        Raises:
            InvalidActionError: For anything but an int or NumPy integer from 0 to
                ``action_space.n - 1``.
            IllegalActionError: For an action the mask does not allow, or a step after
                the card is full.

        Examples:
            >>> env = SolitaireEnv()
            >>> _ = env.reset(seed=1)
            >>> env.step(999)
            Traceback (most recent call last):
            ...
            yahtzee_rules.integrations.rl.InvalidActionError: action 999: outside the action space; actions are the ints 0 to 44 (0 to 31 hold dice and roll, 32 on fill a box)
            >>> env.step(32 + 10)  # Large Straight: 0 points for 15556, but allowed
            ...  # doctest: +ELLIPSIS
            ({...}, 0.0, False, False, {...})
        """
        play = self._play
        reward = float(play.act(action, invalid=InvalidActionError))
        return (
            self._observe(),
            reward,
            play.game.is_over,
            False,
            {"action_mask": play.mask.copy()},
        )

    def render(self) -> str | None:
        """The game in the library's notation (``render_mode="ansi"``), else ``None``.

        Examples:
            >>> env = SolitaireEnv(render_mode="ansi")
            >>> _ = env.reset(seed=1)
            >>> env.render()
            'forced 0 player - 15556@1'
        """
        if self.render_mode != "ansi":
            return None
        return str(self._game)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="yahtzee_rules.integrations.rl:SolitaireEnv",
        vector_entry_point="yahtzee_rules.integrations.vector:SolitaireVectorEnv",
    )
