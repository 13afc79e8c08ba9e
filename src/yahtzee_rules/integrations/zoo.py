"""A PettingZoo environment (AEC: agents take turns) for games of two or more players.

Needs PettingZoo (``python -m pip install ".[rl]"``); ``import yahtzee_rules`` never
imports it. The agents are ``"player_0"``, ``"player_1"`` ... in seat order, and the
agent to move is the player whose turn it is. The actions are those of the
Gymnasium environment (:mod:`yahtzee_rules.integrations.rl`): ``Discrete(32 + boxes)``, where
0 to 31 hold dice (bit ``i`` holds die ``i`` of the sorted dice) and roll the
others, and ``32 + b`` fills box ``b`` in card order. The environment throws the
first roll of every turn itself.

An action is an int or a NumPy integer from the action space (not a bool, a float
or a string): anything else raises :class:`InvalidActionError` (the library's
:class:`~yahtzee_rules.MalformedInputError` and Gymnasium's
``gymnasium.error.InvalidAction``, PettingZoo's spaces being Gymnasium's); an action
of the space that the rules do not allow now raises
:class:`~yahtzee_rules.IllegalActionError`.

Each observation is a dict:

* ``"action_mask"``: an ``int8`` array, 1 for each action legal for that agent now
  (all 0 when it is not the agent's turn, or the game is over);
* ``"observation"``: an ``int64`` array, the dice shown (five faces, sorted), the
  turn's rolls left, how many seats after the agent the player to move sits (0 on
  the agent's own turn), then a card for each seat, the agent's own first and the
  others in seat order after it: one value per box in card order (-1 while open)
  and the extra-Yahtzee bonus marks.

Rewards (``reward=``): ``"points"`` (the default) gives the agent that moved the
points its action wrote, bonuses included, so each agent's rewards add up to its
final total; ``"win"`` gives nothing until the end, then 1 to each winner (several
when the rules' tie rule shares the win), -1 to each other player, and 0 to
players tied for a play-off (:attr:`TieRule.PLAY_OFF <yahtzee_rules.TieRule.PLAY_OFF>`).
Every agent terminates when the last card is full.

Examples:
    >>> env = GameEnv(players=2)
    >>> env.reset(seed=1)
    >>> env.agent_selection
    'player_0'
    >>> observation, reward, terminated, truncated, info = env.last()
    >>> observation["observation"][:7].tolist()  # dice, rolls left, seat to move
    [2, 3, 3, 4, 6, 2, 0]
    >>> int(observation["action_mask"].sum())
    45
    >>> env.step(32 + 12)  # Chance
    >>> env.rewards, env.agent_selection
    ({'player_0': 18.0, 'player_1': 0.0}, 'player_1')
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from yahtzee_rules.bots._env import HOLDS, ActionGame, Int8Array, dice_array
from yahtzee_rules.core.rules import Rules, not_rules_error
from yahtzee_rules.support._limits import MAX_PLAYERS
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["GameEnv", "InvalidActionError", "env"]

_REWARDS = ("points", "win")


class InvalidActionError(MalformedInputError, gymnasium.error.InvalidAction):
    """An action that is not in the action space: not an int, or out of range.

    Gymnasium's error for it (``gymnasium.error.InvalidAction``) and the library's
    (:class:`~yahtzee_rules.MalformedInputError`), so either ``except`` catches it.

    Examples:
        >>> game = GameEnv()
        >>> game.reset(seed=1)
        >>> try:
        ...     game.step("33")
        ... except gymnasium.error.InvalidAction as error:
        ...     print(error)
        action '33': a str, not an int; actions are the ints 0 to 44 (0 to 31 hold dice and roll, 32 on fill a box)
    """


class GameEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no types
    """Two or more players, one decision a step; see the module's description.

    Args:
        players: The number of players (2 or more; 1 works too, as solitaire), at most
            :data:`~yahtzee_rules.play.game.MAX_PLAYERS` (50).
        rules: Any ruleset the library has (Classic by default).
        reward: ``"points"`` or ``"win"``.
        render_mode: ``None`` or ``"ansi"`` (:meth:`render` returns the game in the
            library's notation).

    Raises:
        MalformedInputError: For a bad number of players, rules that are not a Rules,
            another reward or render mode.

    Examples:
        >>> env = GameEnv(players=3, reward="win")
        >>> env.possible_agents
        ['player_0', 'player_1', 'player_2']
        >>> env.action_space("player_0")
        Discrete(45)
    """

    metadata = {  # noqa: RUF012  # PettingZoo's API
        "render_modes": ["ansi"],
        "name": "yahtzee_rules_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        rules: Rules | None = None,
        reward: str = "points",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        rules = Rules() if rules is None else rules
        if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
            raise MalformedInputError(  # before the spaces, which grow with its square
                f"players {show(players)}: not an int from 1 to {MAX_PLAYERS}, the most "
                f"players a game seats"
            )
        if not isinstance(rules, Rules):
            raise not_rules_error(rules)
        if reward not in _REWARDS:
            raise MalformedInputError(f"reward {show(reward)}: not 'points' or 'win'")
        if render_mode not in (None, "ansi"):
            raise MalformedInputError(f"render_mode {show(render_mode)}: not None or 'ansi'")
        self.rules = rules
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        boxes = len(rules.card.members)
        most = max(max(rules.card.possible[box]) for box in rules.card.members)
        low = [1] * 5 + [0, 0] + ([-1] * boxes + [0]) * players
        high = [6] * 5 + [2, players - 1] + ([most] * boxes + [boxes]) * players
        actions = HOLDS + boxes
        # one space object per agent, so that seeding one agent's leaves the others'
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        np.array(low, dtype=np.int64),
                        np.array(high, dtype=np.int64),
                        dtype=np.int64,
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._play = ActionGame(rules, self.possible_agents)
        self._idle: Int8Array = np.zeros(actions, dtype=np.int8)
        self._np_random: np.random.Generator | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        """The observation space of ``agent`` (the same shape for every agent).

        Examples:
            >>> sorted(GameEnv().observation_space("player_1").spaces)
            ['action_mask', 'observation']
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        """The action space of ``agent``: ``Discrete(32 + boxes)`` for every agent.

        Examples:
            >>> from yahtzee_rules import Rules
            >>> GameEnv(rules=Rules.from_name("yacht")).action_space("player_0")
            Discrete(44)
        """
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, the first player's first roll thrown; ``seed`` seeds the dice.

        Examples:
            >>> env = GameEnv()
            >>> env.reset(seed=3)
            >>> first = env.observe("player_0")["observation"].tolist()
            >>> env.reset(seed=3)
            >>> env.observe("player_0")["observation"].tolist() == first
            True
        """
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self._play.start(int(self._np_random.integers(2**63)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._play.game.current]

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees now; see the module's description.

        Examples:
            >>> env = GameEnv()
            >>> env.reset(seed=1)
            >>> env.observe("player_1")["observation"][5:7].tolist()  # player_0 to move
            [2, 1]
            >>> int(env.observe("player_1")["action_mask"].sum())
            0
        """
        play = self._play
        game = play.game
        seat = self._seat[agent]
        seats = len(self.possible_agents)
        over = game.is_over
        parts = [
            dice_array(game.dice),
            np.array([play.rolls_left(), 0 if over else (game.current - seat) % seats]),
        ]
        for other in range(seat, seat + seats):
            other %= seats
            parts.append(play.cards[other])
            parts.append(np.array([game.cards[other].bonus_marks]))
        mine = not over and game.current == seat
        return {
            "observation": np.concatenate(parts, dtype=np.int64),
            "action_mask": (play.mask if mine else self._idle).copy(),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The agent to move plays ``action``; see the module's description.

        After the game is over each agent steps once more with ``None``, and leaves.

        Raises:
            InvalidActionError: For anything but an int or NumPy integer from 0 to
                ``action_space(agent).n - 1`` (``None`` included) from an agent still
                playing.
            IllegalActionError: For an action the mask does not allow.

        Examples:
            >>> env = GameEnv()
            >>> env.reset(seed=1)
            >>> env.step(0)  # roll all five again
            >>> env.agent_selection, env.observe("player_0")["observation"][5]
            ('player_0', np.int64(1))
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        play = self._play
        if action is None:
            raise InvalidActionError(
                f"action None: {agent} is still playing; pick an action its "
                'observation["action_mask"] allows (None only steps a finished agent out)'
            )
        points = play.act(action, 'observation["action_mask"]', InvalidActionError)  # or no change
        self._cumulative_rewards[agent] = 0.0
        rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward == "points":
            rewards[agent] = float(points)
        game = play.game
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            if self.reward == "win":
                result = game.result
                for name in self.agents:
                    if name in result.winners:
                        rewards[name] = 1.0
                    elif name not in result.play_off:
                        rewards[name] = -1.0
        self.rewards = rewards
        self.agent_selection = self.possible_agents[game.current]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game in the library's notation (``render_mode="ansi"``), else ``None``.

        Examples:
            >>> env = GameEnv(render_mode="ansi")
            >>> env.reset(seed=1)
            >>> env.render()
            'forced 0 player_0,player_1 -/- 23346@1'
        """
        if self.render_mode != "ansi":
            return None
        return str(self._play.game)

    def close(self) -> None:
        """Nothing to release.

        Examples:
            >>> GameEnv().close()
        """


def env(**kwargs: Any) -> GameEnv:
    """A :class:`GameEnv`, PettingZoo's usual way to make an environment.

    Examples:
        >>> env(players=4).num_agents
        4
    """
    return GameEnv(**kwargs)
