"""Play an environment's policy as a :class:`~yahtzee_rules.Strategy`, to rate it in the arena.

An agent trained on :mod:`yahtzee_rules.integrations.rl` (Gymnasium) or :mod:`yahtzee_rules.integrations.zoo`
(PettingZoo) picks action numbers from observations. :class:`PolicyStrategy` turns
it into a strategy, so :func:`~yahtzee_rules.simulate` and
:func:`~yahtzee_rules.bots.arena.tournament` can play it against the library's
strategies. Needs NumPy (the ``solver`` extra), not Gymnasium.

The policy is any callable ``policy(observation, action_mask) -> action``: the
observation is the Gymnasium environment's (a dict of ``"dice"``, ``"rolls_left"``,
``"card"`` and ``"bonus_marks"``), the mask its ``info["action_mask"]``, and the
action an int in the same encoding (0 to 31 hold dice and roll, ``32 + b`` fills
box ``b``). A strategy sees only its own card, so a PettingZoo policy that reads the
other players' cards needs a small wrapper that builds its observation from this one.

Examples:
    >>> import numpy as np
    >>> from yahtzee_rules import GreedyStrategy, simulate
    >>> def first_box(observation, mask):  # never rerolls, fills the first legal box
    ...     return 32 + int(np.flatnonzero(mask[32:])[0])
    >>> simulate(PolicyStrategy(first_box), games=5, seed=1).games
    5
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from yahtzee_rules.bots._env import HOLDS, Int8Array, action_number, dice_array, hold
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Keep
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = ["Policy", "PolicyStrategy", "observe_turn"]

#: What :class:`PolicyStrategy` plays: ``policy(observation, action_mask) -> action``.
Policy = Callable[[dict[str, Any], Int8Array], "int | np.integer[Any]"]


def observe_turn(turn: Turn, *, rolling: bool = True) -> tuple[dict[str, Any], Int8Array]:
    """The Gymnasium environment's observation and action mask for ``turn`` (dice showing).

    Args:
        turn: A turn with dice showing.
        rolling: Whether the hold actions may be legal (when the turn has rolls
            left); ``False`` asks for a box only.

    Raises:
        MalformedInputError: For a turn with no dice showing.

    Examples:
        >>> from yahtzee_rules import Turn
        >>> observation, mask = observe_turn(Turn().roll(outcome="13366"))
        >>> observation["dice"].tolist(), observation["rolls_left"], int(mask.sum())
        ([1, 3, 3, 6, 6], 2, 45)
    """
    dice = turn.dice if isinstance(turn, Turn) else None
    if dice is None:
        raise MalformedInputError(f"turn {show(turn)}: no dice showing; roll first")
    boxes = turn.rules.card.members
    card = turn.card
    options = turn.options
    mask = np.zeros(HOLDS + len(boxes), dtype=np.int8)
    if rolling and turn.rolls_left:
        mask[:HOLDS] = 1
    for b, box in enumerate(boxes):
        mask[HOLDS + b] = box in options
    observation = {
        "dice": dice_array(dice),
        "rolls_left": turn.rolls_left,
        "card": np.array([-1 if v is None else v for v in card.boxes], dtype=np.int64),
        "bonus_marks": card.bonus_marks,
    }
    return observation, mask


class PolicyStrategy:
    """A :class:`~yahtzee_rules.Strategy` that asks ``policy`` for every decision.

    In a turn with rolls left :meth:`choose_keep` asks the policy: a hold action
    becomes the dice to hold, a box action stops the rolling and is remembered, so
    that :meth:`choose_box` fills that box without asking again. To run on an
    executor, the policy must be picklable (a function at module level, or an
    object holding its weights).

    Args:
        policy: ``policy(observation, action_mask) -> action``; see the module's
            description.

    Raises:
        MalformedInputError: For a policy that is not callable.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Turn
        >>> hold_sixes = PolicyStrategy(lambda observation, mask: 0b11000 if mask[0] else 44)
        >>> turn = Turn().roll(outcome="13366")
        >>> hold_sixes.choose_keep(turn, random.Random(0))
        Keep('66')
        >>> hold_sixes.choose_box(turn, random.Random(0))
        <Category.CHANCE: 12>
    """

    __slots__ = ("_asked", "policy")

    def __init__(self, policy: Policy) -> None:
        if not callable(policy):
            raise MalformedInputError(
                f"policy {show(policy)}: not callable; give policy(observation, mask) -> action"
            )
        self.policy = policy
        self._asked: tuple[Turn, Box] | None = None

    def __repr__(self) -> str:
        return f"PolicyStrategy({self.policy!r})"

    def __getstate__(self) -> Any:
        return self.policy

    def __setstate__(self, policy: Policy) -> None:
        self.policy = policy
        self._asked = None

    def _ask(self, turn: Turn, rolling: bool) -> int:
        observation, mask = observe_turn(turn, rolling=rolling)
        index = action_number(self.policy(observation, mask), len(mask), what="policy action")
        if not mask[index]:
            raise IllegalActionError(
                f"policy action {index}: not legal now; the policy must pick an "
                f"action its action mask allows"
            )
        return index

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """The dice the policy holds, or ``None`` when it picks a box.

        Raises:
            MalformedInputError: For a policy action that is not an int or NumPy
                integer of the action space.
            IllegalActionError: For an action the mask does not allow.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> reroll = PolicyStrategy(lambda observation, mask: 0)
            >>> reroll.choose_keep(Turn().roll(outcome="12345"), random.Random(0))
            Keep('')
        """
        index = self._ask(turn, rolling=True)
        if index < HOLDS:
            self._asked = None
            return hold(turn.dice.faces, index)  # type: ignore[union-attr]
        self._asked = (turn, turn.rules.card.members[index - HOLDS])
        return None

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The box the policy picked for this turn's dice (asking it if it was not asked).

        Raises:
            MalformedInputError: For a policy action that is not an int or NumPy
                integer of the action space.
            IllegalActionError: For an action the mask does not allow.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> chance = PolicyStrategy(lambda observation, mask: 44)
            >>> chance.choose_box(Turn().roll(outcome="12345"), random.Random(0))
            <Category.CHANCE: 12>
        """
        asked = self._asked
        self._asked = None
        if asked is not None and asked[0] == turn:
            return asked[1]
        return turn.rules.card.members[self._ask(turn, rolling=False) - HOLDS]
