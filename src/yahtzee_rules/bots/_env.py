"""Internal: a game played by action numbers, shared by the reinforcement-learning environments.

:mod:`yahtzee_rules.integrations.rl` (Gymnasium), :mod:`yahtzee_rules.integrations.zoo` (PettingZoo) and
:class:`yahtzee_rules.bots.policy.PolicyStrategy` encode the game the same way: actions 0 to
31 hold dice (bit ``i`` holds die ``i`` of the sorted dice) and roll the others,
action ``32 + b`` fills box ``b`` in card order. :class:`ActionGame` drives a
:class:`~yahtzee_rules.Game` by those numbers with the fast paths a step needs:
the masks are cached by what they depend on (whether the turn can roll, the open
boxes, and the dice only when they are five of a kind or the card's order
matters), the dice arrays are built once for each of the 252 rolls, and each seat's
card array and grand total are updated in place on a fill. The game itself is
still played through :class:`~yahtzee_rules.Game`, so the rules and the scores are
the library's own.

The dice come from a source with a ``random()`` method: a :class:`random.Random`
(PettingZoo's environment), or a :class:`DiceStream`, the counter-based generator the
Gymnasium environments share. Each roll makes one draw ``u`` and throws the outcome
``int(u * 6**n)`` of the ``n`` dice not held, read as :func:`~yahtzee_rules.core.dice.roll_table`
reads it, exactly as :meth:`Game.roll <yahtzee_rules.Game.roll>` does.

:class:`DiceStream` draws roll ``r`` (counted from 0 over the whole game, first
rolls included) of episode ``e`` of a stream seeded with ``s`` as SplitMix64 does::

    mix(z)   = SplitMix64's finaliser of the 64-bit word z
    stream   = mix(s mod 2**64 + GAMMA)
    game     = mix(stream + (e + 1) * GAMMA)
    u        = (mix(game + (r + 1) * GAMMA) >> 11) / 2**53

(all sums and products modulo 2**64, ``GAMMA = 0x9E3779B97F4A7C15``). Every draw is
a pure function of ``(s, e, r)``, so :func:`mix_array` computes the same dice for a
whole batch of games with NumPy's ``uint64`` arithmetic, and the batched environment
equals the one-game environment seed for seed. ``u`` is a multiple of ``2**-53`` in
``[0, 1)``; ``int(u * 6**n)`` favours some outcomes over others by at most one part in
``2**53 / 6**5`` (about ``1e-12``), the reduction every roll of the library makes.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from yahtzee_rules.core.dice import Dice, Keep, roll_table
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play.game import Game, rolled_game
from yahtzee_rules.play.totals import totals
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._text import a_type, show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = [
    "EMPTY",
    "GAMMA",
    "HOLDS",
    "ActionGame",
    "DiceStream",
    "Int8Array",
    "Int64Array",
    "UInt64Array",
    "action_number",
    "dice_array",
    "game_key",
    "hold",
    "keep_action",
    "mix",
    "mix_array",
    "stream_key",
    "uniform_array",
]

#: The hold actions, 0 to 31: one bit a die of the sorted dice.
HOLDS = 32
EMPTY = Keep("")
_ACTIONS = "0 to 31 hold dice and roll, 32 on fill a box"
#: Masks kept per ruleset before the cache starts again (a cache, not a store).
_MOST_MASKS = 65_536

Int64Array = np.ndarray[Any, np.dtype[np.int64]]
Int8Array = np.ndarray[Any, np.dtype[np.int8]]
UInt64Array = np.ndarray[Any, np.dtype[np.uint64]]

#: SplitMix64's increment, the golden ratio in 64 bits.
GAMMA = 0x9E3779B97F4A7C15
_WORD = (1 << 64) - 1
_MIX_1 = 0xBF58476D1CE4E5B9
_MIX_2 = 0x94D049BB133111EB
_UNIT = 2.0**-53


def mix(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit words that mixes every bit."""
    z &= _WORD
    z = ((z ^ (z >> 30)) * _MIX_1) & _WORD
    z = ((z ^ (z >> 27)) * _MIX_2) & _WORD
    return z ^ (z >> 31)


def mix_array(z: UInt64Array) -> UInt64Array:
    """:func:`mix` of every word of ``z`` (``uint64``, wrapping): a new array."""
    z = z ^ (z >> np.uint64(30))
    z *= np.uint64(_MIX_1)
    z ^= z >> np.uint64(27)
    z *= np.uint64(_MIX_2)
    z ^= z >> np.uint64(31)
    return z


def stream_key(seed: int) -> int:
    """The key of the dice stream seeded with ``seed`` (read modulo ``2**64``)."""
    return mix(seed + GAMMA)


def game_key(stream: int, episode: int) -> int:
    """The key of game ``episode`` (0 on) of the dice stream ``stream``."""
    return mix(stream + (episode + 1) * GAMMA)


def uniform_array(game: UInt64Array, roll: UInt64Array) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The draws of roll ``roll`` of the games keyed ``game``: what :meth:`DiceStream.random` gives."""
    with np.errstate(over="ignore"):
        words = mix_array(game + (roll + np.uint64(1)) * np.uint64(GAMMA))
    return (words >> np.uint64(11)).astype(np.float64) * _UNIT


class DiceStream:
    """The counter-based dice of a Gymnasium environment; see the module's description.

    :meth:`new_game` starts the next game (of the stream seeded with ``seed``, when a
    seed is given); :meth:`random` is the game's next draw.
    """

    __slots__ = ("episode", "game", "key", "rolls")

    def __init__(self) -> None:
        self.key: int | None = None
        self.episode = 0
        self.game = 0
        self.rolls = 0

    def new_game(self, seed: int | None, unseeded: Callable[[], int]) -> None:
        """Game 0 of the stream seeded with ``seed``, or the stream's next game.

        A stream never seeded takes its seed from ``unseeded()`` first.
        """
        if seed is None and self.key is not None:
            self.episode += 1
        else:
            self.key = stream_key(unseeded() if seed is None else seed)
            self.episode = 0
        self.game = game_key(self.key, self.episode)
        self.rolls = 0

    def random(self) -> float:
        """The next draw of the game: a multiple of ``2**-53`` in ``[0, 1)``."""
        self.rolls += 1
        return (mix(self.game + self.rolls * GAMMA) >> 11) * _UNIT


@functools.cache
def hold(faces: tuple[int, ...], holds: int) -> Keep:
    """The dice of ``faces`` (sorted) that the bits of ``holds`` pick."""
    return Keep([faces[i] for i in range(5) if holds >> i & 1])


def action_number(
    action: object,
    actions: int,
    invalid: type[MalformedInputError] = MalformedInputError,
    what: str = "action",
    meaning: str = _ACTIONS,
) -> int:
    """``action`` as an action number from 0 to ``actions - 1``, or ``invalid`` raised.

    ``what`` names the action in the message, and ``meaning`` says what the numbers mean.

    An action is an int or a NumPy integer (a 0-d integer array too, as Gymnasium's
    ``Discrete.contains`` takes): never a bool, a float (``32.9``, NaN, infinity), a
    string (``"33"``, ``"٣٣"``, ``"3_3"``) or ``None``, which ``int()`` would read or
    fail on with an error of its own. The check takes constant time whatever the value.
    """
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        index = int(action)
        if 0 <= index < actions:
            return index
        problem = "outside the action space"
    else:
        problem = f"{a_type(action)}, not an int"
    raise invalid(
        f"{what} {show(action, 60)}: {problem}; {what}s are the ints 0 to {actions - 1} ({meaning})"
    )


def keep_action(faces: tuple[int, ...], keep: Keep) -> int:
    """The hold action that holds ``keep`` from ``faces`` (sorted): the lowest dice that match."""
    action = 0
    wanted = list(keep.faces)
    for i, face in enumerate(faces):
        if face in wanted:
            wanted.remove(face)
            action |= 1 << i
    return action


@functools.cache
def _dice_array(faces: tuple[int, ...]) -> Int64Array:
    array = np.array(faces, dtype=np.int64)
    array.setflags(write=False)
    return array


_NO_DICE = _dice_array((1, 1, 1, 1, 1))


def dice_array(dice: Dice | None) -> Int64Array:
    """The faces shown as a new array (five 1s when no dice show)."""
    return (_NO_DICE if dice is None else _dice_array(dice.faces)).copy()


class ActionGame:
    """A game of ``players`` seats played by action numbers; see the module's description.

    The attributes are read by the environments; :meth:`load` sets a game from outside.
    """

    __slots__ = (
        "_masks",
        "_simple",
        "actions",
        "boxes",
        "cards",
        "draw",
        "game",
        "grand",
        "mask",
        "open",
        "rules",
    )

    def __init__(self, rules: Rules, players: list[str]) -> None:
        self.rules = rules
        self.boxes = rules.card.members
        self.actions = HOLDS + len(self.boxes)
        # The legal boxes depend on the dice only for five of a kind, unless the card's
        # order (Forced Yatzy, a left-to-right card) decides which box opens next.
        self._simple = not rules.in_order and not rules.card.left_to_right
        self._masks: dict[tuple[bool, int, int], Int8Array] = {}
        self.draw: Callable[[], float] = random.Random(0).random
        self.load(Game.new(players, rules=rules))

    def load(self, game: Game) -> None:
        """Play on from ``game``: every cached figure is worked out again."""
        self.game = game
        self.open = [
            sum(1 << b for b, value in enumerate(card.boxes) if value is None)
            for card in game.cards
        ]
        self.cards = [
            np.array([-1 if v is None else v for v in card.boxes], dtype=np.int64)
            for card in game.cards
        ]
        self.grand = [totals(card, rules=self.rules).grand_total for card in game.cards]
        self.mask = self._legal()

    def start(self, dice: int | DiceStream) -> None:
        """A new game with the same seats and the first roll.

        The dice come from ``random.Random(dice)`` for an int, else from the stream.
        """
        self.draw = random.Random(dice).random if isinstance(dice, int) else dice.random
        self.load(Game.new(list(self.game.players), rules=self.rules))
        self.roll(EMPTY)

    def roll(self, keep: Keep) -> None:
        """The current seat holds ``keep`` and rolls (not checked): one draw, as Game.roll."""
        table = roll_table(keep)
        self.game = rolled_game(self.game, table[int(self.draw() * len(table))])
        self.mask = self._legal()

    def _legal(self) -> Int8Array:
        game = self.game
        dice = game.dice
        if dice is None:
            key = (False, 0, -1)
        else:
            faces = dice.faces
            position = -1 if self._simple and faces[0] != faces[4] else dice.position
            key = (game.rolls_left > 0, self.open[game.current], position)
        mask = self._masks.get(key)
        if mask is None:
            mask = self._build(game.turn, key)
        return mask

    def _build(self, turn: Turn | None, key: tuple[bool, int, int]) -> Int8Array:
        mask = np.zeros(self.actions, dtype=np.int8)
        if turn is not None and turn.dice is not None:
            rolling, open_boxes, position = key
            if rolling:
                mask[:HOLDS] = 1
            if position < 0:
                for b in range(len(self.boxes)):
                    mask[HOLDS + b] = open_boxes >> b & 1
            else:
                options = turn.options
                for b, box in enumerate(self.boxes):
                    mask[HOLDS + b] = box in options
        mask.setflags(write=False)
        if len(self._masks) >= _MOST_MASKS:
            self._masks.clear()
        self._masks[key] = mask
        return mask

    def act(
        self,
        action: object,
        mask: str = 'info["action_mask"]',
        invalid: type[MalformedInputError] = MalformedInputError,
    ) -> int:
        """Play ``action`` for the current seat; the points it wrote (bonuses included).

        A fill passes the turn on and throws the next seat's first roll.

        Raises:
            MalformedInputError: ``invalid``, for anything :func:`action_number` refuses.
            IllegalActionError: For an action the mask does not allow (``mask`` says
                where the caller finds the mask).
        """
        index = action_number(action, self.actions, invalid)
        if not self.mask[index]:
            raise IllegalActionError(f"action {index}: not legal now; see {mask} ({_ACTIONS})")
        game = self.game
        if index < HOLDS:
            self.roll(hold(game.dice.faces, index))  # type: ignore[union-attr]
            return 0
        seat = game.current
        b = index - HOLDS
        game = self.game = game.fill(self.boxes[b])
        card = game.cards[seat]
        self.open[seat] &= ~(1 << b)
        self.cards[seat][b] = card.boxes[b] or 0  # filled: never None
        grand = totals(card, rules=self.rules).grand_total
        points = grand - self.grand[seat]
        self.grand[seat] = grand
        if not game.is_over:
            self.roll(EMPTY)
        else:
            self.mask = self._legal()
        return points

    def card_array(self, seat: int) -> Int64Array:
        """Seat ``seat``'s card, one value per box in card order, -1 while open: a copy."""
        return self.cards[seat].copy()

    def rolls_left(self) -> int:
        """The current turn's rolls left (0 once the game is over)."""
        return self.game.rolls_left
