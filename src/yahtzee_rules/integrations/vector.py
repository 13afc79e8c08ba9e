"""A batched Gymnasium environment: many solitaire games in one NumPy step, and their optimal actions.

Needs Gymnasium and NumPy (``python -m pip install ".[rl,solver]"``). :class:`SolitaireVectorEnv`
is a native :class:`gymnasium.vector.VectorEnv`: ``num_envs`` games of
:class:`~yahtzee_rules.integrations.rl.SolitaireEnv` stepped together by array
operations, with no Python loop over the games. The id ``yahtzee_rules/Solitaire-v0``
names it as its ``vector_entry_point``, so ::

    gymnasium.make_vec("yahtzee_rules/Solitaire-v0", num_envs=4096,
                       vectorization_mode="vector_entry_point")

returns it (``rules=`` and ``autoreset_mode=`` pass through). It plays every ruleset
the solver takes (every card of one score column: Classic with each Joker reading,
the Yatzy variants, Yacht ...).

Game ``i`` is, step for step and seed for seed, game ``i`` of
``gymnasium.vector.SyncVectorEnv`` over :class:`~yahtzee_rules.integrations.rl.SolitaireEnv`:
the same observations, rewards, terminations and ``info["action_mask"]``, in every
autoreset mode Gymnasium defines (``NEXT_STEP``, ``SAME_STEP``, ``DISABLED``, with
``options={"reset_mask": ...}``). Both draw the dice from one counter-based stream: roll
``r`` of game ``e`` since the seed ``s`` is a SplitMix64 hash of ``(s, e, r)``, which
NumPy computes for every game at once (``yahtzee_rules.bots._env`` holds it and
documents the reduction to faces, uniform to within about one part in ``10**12``). ``reset(seed=s)``
seeds game ``i`` with ``s + i``, as ``SyncVectorEnv`` does.

The legal fills come from the rules engine: the solver's model of the rules
(``bots.solver``) calls the library's legality function for five equal dice on every
set of filled boxes, and the rolls that are not five equal dice may fill the open boxes
(the first open one when the card is filled in order). The points, the upper bonus
and the extra-Yahtzee bonus are read from the same tables, built once per ruleset.

:func:`optimal_actions` gives the optimal action of every game of a batch from the
solver's table, as :func:`~yahtzee_rules.bots.solver.best_action` chooses it, for
imitation learning and evaluation.

Examples:
    >>> import numpy as np
    >>> envs = SolitaireVectorEnv(num_envs=3)
    >>> observations, info = envs.reset(seed=1)
    >>> observations["dice"][0].tolist(), observations["rolls_left"].tolist()
    ([1, 5, 5, 5, 6], [2, 2, 2])
    >>> observations, rewards, terminated, truncated, info = envs.step(np.array([44, 44, 0]))
    >>> rewards.tolist(), observations["card"][:, 12].tolist()
    ([22.0, 14.0, 0.0], [22, 14, -1])
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from yahtzee_rules.bots._env import (
    EMPTY,
    GAMMA,
    HOLDS,
    Int8Array,
    Int64Array,
    UInt64Array,
    hold,
    keep_action,
    mix_array,
    uniform_array,
)
from yahtzee_rules.bots.solver import Table
from yahtzee_rules.bots.solver._internal import (
    average_keeps,
    best_over_subkeeps,
    dice_geometry,
    fill_values,
    final_values,
    first_box,
    flat_index,
    keeps_of_games,
    model_of,
    workspace_for,
)
from yahtzee_rules.core.dice import ALL_DICE, ALL_KEEPS, roll_table
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.integrations.rl import SolitaireEnv
from yahtzee_rules.support._chunks import Executor, check_executor, in_order
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

__all__ = ["ACTIONS_CHUNK", "SolitaireVectorEnv", "compact_observations", "optimal_actions"]

_ACTIONS_NOTE = "0 to 31 hold dice and roll, 32 on fill a box"
_WORD = 1 << 64
#: Distinct states whose keep values :func:`optimal_actions` works out together (a few
#: MB of work space; the values do not depend on it: the kernels work state by state).
_STATES = 512
#: The row of the dice tables for "no dice showing" (a finished game shows five 1s).
_NO_DICE = len(ALL_DICE)


class _Tables:
    """What a step reads, per ruleset: the rolls, the holds, the legal fills and the points."""

    def __init__(self, rules: Rules) -> None:
        model = model_of(rules)  # raises for rules the solver cannot take
        card = rules.card
        n = self.n = len(card)
        self.rules = rules
        self.full = (1 << n) - 1
        # the dice by Dice index, and one more row for no dice (five 1s, as SolitaireEnv shows)
        self.faces = np.array([d.faces for d in ALL_DICE] + [(1,) * 5], dtype=np.int64)
        self.faces.setflags(write=False)
        self.five = np.array(
            [d.faces[0] - 1 if d.faces[0] == d.faces[4] else -1 for d in ALL_DICE] + [-1],
            dtype=np.intp,
        )
        # holds: (roll, action) -> the keep held; each keep's ordered outcomes -> the roll
        self.held = np.array(
            [[hold(d.faces, a)._index for a in range(HOLDS)] for d in ALL_DICE]
            + [[EMPTY._index] * HOLDS],
            dtype=np.intp,
        )
        outcomes = [np.array([d._index for d in roll_table(k)], dtype=np.intp) for k in ALL_KEEPS]
        self.outcomes = np.array([len(o) for o in outcomes], dtype=np.float64)
        self.start = np.cumsum([0] + [len(o) for o in outcomes[:-1]]).astype(np.intp)
        self.rolled = np.concatenate(outcomes)
        self.first_outcomes = float(len(roll_table(EMPTY)))
        self.first_start = int(self.start[EMPTY._index])
        # points: plain scores by roll, and five equal dice by face, box and filled mask
        self.scores = np.zeros((_NO_DICE + 1, n), dtype=np.int64)
        self.scores[:_NO_DICE] = [card.table[d._index] for d in ALL_DICE]
        self.joker = model.joker.astype(np.int64)  # (face, box, mask), -1 where refused
        masks = np.arange(1 << n, dtype=np.int64)
        bits = np.int64(1) << np.arange(n, dtype=np.int64)
        # the boxes a roll may fill, as bits, by roll class (0: not five equal dice, 1 to
        # 6: five of that face) and filled mask, flat; then a mask row by (rolling, bits)
        legal = np.empty((7, 1 << n), dtype=np.int64)
        legal[0] = model.open_bits(masks) & self.full & ~masks
        legal[1:] = ((self.joker >= 0) * bits[None, :, None]).sum(axis=1)
        self.legal_bits = legal.ravel()
        self.roll_class = (self.five + 1) << n  # add the filled mask: an index into it
        rows = np.zeros((2, 1 << n, HOLDS + n), dtype=np.int8)
        rows[1, :, :HOLDS] = 1
        rows[:, :, HOLDS:] = (masks[:, None] >> np.arange(n)) & 1
        self.mask_rows = rows.reshape(2 << n, HOLDS + n)
        self.bonus_due = model.bonus_due  # (face, flag): the extra-Yahtzee bonus due
        self.upper = np.array([box.face is not None for box in card.members])
        self.threshold = rules.upper_bonus_threshold
        self.upper_bonus = float(rules.upper_bonus)
        self.yahtzee = -1 if card.yahtzee is None else int(card.yahtzee)
        self.flags = model.flags
        self.model = model


@functools.cache
def _tables(rules: Rules) -> _Tables:
    return _Tables(rules)


def _keys(seeds: UInt64Array) -> UInt64Array:
    """:func:`~yahtzee_rules.bots._env.stream_key` of every seed (already modulo 2**64)."""
    with np.errstate(over="ignore"):
        return mix_array(seeds + np.uint64(GAMMA))


class SolitaireVectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], Int64Array, Any]):
    """``num_envs`` solitaire games stepped together; see the module's description.

    Args:
        num_envs: How many games (a positive int).
        rules: The rules every game plays (Classic by default); any ruleset the solver
            takes.
        autoreset_mode: A :class:`gymnasium.vector.AutoresetMode` or its value
            (``"NextStep"``, the default, ``"SameStep"`` or ``"Disabled"``).
        render_mode: ``None`` only (there is nothing to draw for a batch).

    Raises:
        MalformedInputError: For a ``num_envs`` that is not a positive int, rules that
            are not a Rules or that the solver cannot take, another autoreset or
            render mode.

    Examples:
        >>> from yahtzee_rules import Rules
        >>> envs = SolitaireVectorEnv(num_envs=2, rules=Rules.from_name("yatzy"))
        >>> envs.single_action_space, envs.action_space
        (Discrete(47), MultiDiscrete([47 47]))
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        rules: Rules | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        render_mode: str | None = None,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise MalformedInputError(f"num_envs {show(num_envs)}: not a positive int")
        if render_mode is not None:
            raise MalformedInputError(
                f"render_mode {show(render_mode)}: not None; render one game with SolitaireEnv"
            )
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = ", ".join(repr(m.value) for m in AutoresetMode)
            raise MalformedInputError(
                f"autoreset_mode {show(autoreset_mode)}: not an AutoresetMode; use one of {modes}"
            ) from None
        single = SolitaireEnv(rules)  # checks the rules; its spaces are the games'
        self.rules = single.rules
        try:
            self._t = _tables(self.rules)
        except MalformedInputError as error:
            raise MalformedInputError(
                f"{error}; the batched environment plays the rulesets the solver takes, so "
                f"for these rules step SolitaireEnv games with gymnasium.vector.SyncVectorEnv"
            ) from None
        self.num_envs = num_envs
        self.autoreset_mode = mode
        self.render_mode = None
        self.metadata = {"render_modes": [], "autoreset_mode": mode}
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = self._t.n
        self._actions = HOLDS + n
        # the games: dice (a Dice index), rolls left, the card, filled boxes, upper
        # subtotal, bonus marks, the Yahtzee box holding 50, over; the dice streams
        self._roll = np.full(num_envs, _NO_DICE, dtype=np.intp)
        self._rolls_left = np.zeros(num_envs, dtype=np.int64)
        self._card = np.full((num_envs, n), -1, dtype=np.int64)
        self._filled = np.full(num_envs, self._t.full, dtype=np.int64)
        self._upper = np.zeros(num_envs, dtype=np.int64)
        self._marks = np.zeros(num_envs, dtype=np.int64)
        self._fifty = np.zeros(num_envs, dtype=np.intp)
        self._over = np.ones(num_envs, dtype=bool)
        self._stream = np.zeros(num_envs, dtype=np.uint64)
        self._seeded = np.zeros(num_envs, dtype=bool)
        self._episode = np.zeros(num_envs, dtype=np.uint64)
        self._game = np.zeros(num_envs, dtype=np.uint64)
        self._draws = np.zeros(num_envs, dtype=np.uint64)
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._mask = np.zeros((num_envs, self._actions), dtype=np.int8)

    # ----------------------------------------------------------------------------------
    # The dice
    # ----------------------------------------------------------------------------------

    def _throw(self, keeps: Int64Array, games: Int64Array | None = None) -> None:
        """The games (all when ``None``) hold ``keeps`` and throw: one draw each, as
        ``DiceStream.random`` makes it, read as ``Game.roll`` reads it."""
        t = self._t
        if games is None:
            u = uniform_array(self._game, self._draws)
            self._draws += np.uint64(1)
            thrown = (u * t.outcomes.take(keeps)).astype(np.intp)
            self._roll = t.rolled.take(t.start.take(keeps) + thrown)
        else:
            u = uniform_array(self._game[games], self._draws[games])
            self._draws[games] += np.uint64(1)
            thrown = (u * t.outcomes.take(keeps)).astype(np.intp)
            self._roll[games] = t.rolled.take(t.start.take(keeps) + thrown)

    def _restart(self, games: Int64Array, seeds: list[int | None] | None) -> None:
        """A new card for each of ``games``, the next game of its dice stream (the first of
        a new stream where seeded); the first roll is not thrown yet."""
        seeded = np.zeros(len(games), dtype=bool)
        if seeds is not None:
            seeded = np.array([s is not None for s in seeds], dtype=bool)
            if seeded.any():
                words = np.array([s % _WORD for s in seeds if s is not None], dtype=np.uint64)
                self._stream[games[seeded]] = _keys(words)
        fresh = ~seeded & ~self._seeded[games]
        if fresh.any():  # never seeded: a seed from this environment's generator
            drawn = self.np_random.integers(2**63, size=int(fresh.sum()), dtype=np.int64)
            self._stream[games[fresh]] = _keys(drawn.astype(np.uint64))
        renew = seeded | fresh
        self._episode[games[renew]] = 0
        self._episode[games[~renew]] += np.uint64(1)
        self._seeded[games] = True
        with np.errstate(over="ignore"):
            self._game[games] = mix_array(
                self._stream[games] + (self._episode[games] + np.uint64(1)) * np.uint64(GAMMA)
            )
        self._draws[games] = 0
        self._card[games] = -1
        self._filled[games] = 0
        self._upper[games] = 0
        self._marks[games] = 0
        self._fifty[games] = 0
        self._over[games] = False
        self._rolls_left[games] = 2

    # ----------------------------------------------------------------------------------
    # Observations and masks
    # ----------------------------------------------------------------------------------

    def _legal(self) -> Int8Array:
        """Every game's action mask, worked out from its state (a finished game's: none)."""
        t = self._t
        bits = t.legal_bits.take(t.roll_class.take(self._roll) + self._filled)
        bits += (self._rolls_left > 0) << t.n  # a finished game has no rolls left
        self._mask = t.mask_rows.take(bits, axis=0)
        return self._mask

    def _observe(self) -> dict[str, Any]:
        return {
            "dice": self._t.faces[self._roll],
            "rolls_left": self._rolls_left.copy(),
            "card": self._card.copy(),
            "bonus_marks": self._marks.copy(),
        }

    def _one(self, i: int) -> dict[str, Any]:
        """Game ``i``'s observation as SolitaireEnv gives it, at the end of the game."""
        return {
            "dice": self._t.faces[_NO_DICE].copy(),
            "rolls_left": 0,
            "card": self._card[i].copy(),
            "bonus_marks": int(self._marks[i]),
        }

    # ----------------------------------------------------------------------------------
    # Gymnasium's API
    # ----------------------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games with their first roll thrown; ``seed`` seeds the dice.

        ``seed`` is ``None`` (each game's stream goes on to its next game), an int
        ``s`` (game ``i`` is seeded with ``s + i``) or a list of ``num_envs`` ints or
        ``None``. ``options={"reset_mask": mask}`` (a bool array, one per game) resets
        only the games it marks; the info then has their masks only, as
        ``SyncVectorEnv`` gives it. ``options`` is never changed.

        Raises:
            MalformedInputError: For a seed that is not a non-negative int, a list of
                another length, or a malformed ``reset_mask``.

        Examples:
            >>> envs = SolitaireVectorEnv(num_envs=2)
            >>> first = envs.reset(seed=7)[0]["dice"]
            >>> (envs.reset(seed=7)[0]["dice"] == first).all()
            np.True_
        """
        n = self.num_envs
        seeds = self._seeds(seed)
        if type(seed) is int:
            super().reset(seed=seed)
        reset_mask = None if options is None else options.get("reset_mask")
        if reset_mask is not None or (options is not None and "reset_mask" in options):
            if (
                not isinstance(reset_mask, np.ndarray)
                or reset_mask.dtype != np.bool_
                or reset_mask.shape != (n,)
            ):
                raise MalformedInputError(
                    f"options['reset_mask'] {show(reset_mask)}: not a bool array of shape "
                    f"({n},); mark the games to reset with True"
                )
            if not reset_mask.any():
                raise MalformedInputError(
                    "options['reset_mask']: no game marked; mark at least one game to reset"
                )
            games = np.flatnonzero(reset_mask)
        else:
            reset_mask = np.ones(n, dtype=bool)
            games = np.arange(n)
        self._autoreset[games] = False
        self._restart(games, None if seeds is None else [seeds[i] for i in games.tolist()])
        self._throw(np.full(len(games), EMPTY._index, dtype=np.intp), games)
        mask = self._legal()
        shown = mask.copy()
        shown[~reset_mask] = 0
        return self._observe(), {"action_mask": shown, "_action_mask": reset_mask.copy()}

    def _seeds(self, seed: object) -> list[int | None] | None:
        n = self.num_envs
        if seed is None:
            return None
        if type(seed) is int:
            if seed < 0:
                raise MalformedInputError(f"seed {show(seed)}: negative; seeds are ints >= 0")
            return list(range(seed, seed + n))
        if not isinstance(seed, (list, tuple)) or len(seed) != n:
            raise MalformedInputError(
                f"seed {show(seed)}: not None, an int or a list of {n} ints or None (one a game)"
            )
        for i, s in enumerate(seed):
            if s is not None and (type(s) is not int or s < 0):
                raise MalformedInputError(
                    f"seed[{i}] {show(s)}: not None or an int >= 0; seeds are ints >= 0"
                )
        return list(seed)

    def _check(self, actions: object, resetting: Any) -> Int64Array:
        """The actions as an int64 array, refused unless every playing game's is legal
        (the games being reset, when ``resetting`` marks any, may send anything)."""
        n = self.num_envs
        array = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if array.dtype.kind not in "iu" or array.shape != (n,):
            raise MalformedInputError(
                f"actions {show(actions)}: not an array of {n} integers (dtype "
                f"{array.dtype}, shape {array.shape}); give one action a game ({_ACTIONS_NOTE})"
            )
        index = array if array.dtype == np.int64 else array.astype(np.int64)
        if array.dtype == np.uint64:  # above int64's range: out of range, not wrapped
            index = np.where(array > np.iinfo(np.int64).max, self._actions, index)
        inside = (index >= 0) & (index < self._actions)
        at = np.arange(n) * self._actions + np.where(inside, index, 0)
        legal = (self._mask.reshape(-1).take(at) != 0) & inside
        if resetting is not None:
            legal |= resetting
        if not legal.all():
            bad = np.flatnonzero(~legal)
            i = int(bad[0])
            more = f"; {len(bad)} of the {n} actions are not legal" if len(bad) > 1 else ""
            if self._over[i]:
                why = (
                    f"game {i} is over; reset it first "
                    f"(reset(options={{'reset_mask': ...}}) with autoreset disabled)"
                )
            else:
                why = f'not legal now; see info["action_mask"][{i}] ({_ACTIONS_NOTE})'
            raise IllegalActionError(f"actions[{i}] {show(array[i].item())}: {why}{more}")
        return index

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, Any],
        np.ndarray[Any, np.dtype[np.float64]],
        np.ndarray[Any, np.dtype[np.bool_]],
        np.ndarray[Any, np.dtype[np.bool_]],
        dict[str, Any],
    ]:
        """One action for every game: hold and roll (0 to 31) or fill a box (32 on).

        Under ``NEXT_STEP`` a game that ended on the previous step is reset instead
        (its action is ignored, its reward 0); under ``SAME_STEP`` a game that ends is
        reset at once, its last observation and info in ``info["final_obs"]`` and
        ``info["final_info"]``; under ``DISABLED`` a finished game must be reset with
        ``reset(options={"reset_mask": ...})`` before it steps again.

        Raises:
            MalformedInputError: For actions that are not an integer array of one
                action a game.
            IllegalActionError: For an action its game's mask does not allow (the
                first such game is named); nothing is played then.

        Examples:
            >>> envs = SolitaireVectorEnv(num_envs=2)
            >>> _ = envs.reset(seed=1)
            >>> envs.step([44, 999])
            Traceback (most recent call last):
            ...
            yahtzee_rules.support.errors.IllegalActionError: actions[1] 999: not legal now; see info["action_mask"][1] (0 to 31 hold dice and roll, 32 on fill a box)
        """
        t = self._t
        n = self.num_envs
        mode = self.autoreset_mode
        resetting = None
        if mode is AutoresetMode.NEXT_STEP and self._autoreset.any():
            resetting = self._autoreset
        index = self._check(actions, resetting)
        # fills: the points, the bonuses; every other game holds (or is reset)
        filling = index >= HOLDS
        if resetting is not None:
            filling &= ~resetting
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        f = np.flatnonzero(filling)
        ended = f[:0]
        if len(f):
            box = index.take(f) - HOLDS
            roll = self._roll.take(f)
            face = t.five.take(roll)
            five = face >= 0
            at = np.maximum(face, 0)
            filled = self._filled.take(f)
            points = np.where(five, t.joker[at, box, filled], t.scores[roll, box])
            fifty = self._fifty.take(f)
            due = np.where(five, t.bonus_due[at, fifty], 0.0)
            upper = self._upper.take(f)
            raised = upper + np.where(t.upper.take(box), points, 0)
            bonus = np.where((upper < t.threshold) & (raised >= t.threshold), t.upper_bonus, 0.0)
            rewards[f] = points + bonus + due
            self._card.reshape(-1)[f * t.n + box] = points
            filled |= np.int64(1) << box
            self._filled[f] = filled
            self._upper[f] = raised
            self._marks[f] += due > 0
            if t.flags == 2:
                self._fifty[f] = fifty | ((box == t.yahtzee) & (points == 50))
            ended = f[filled == t.full]
            terminated[ended] = True
        infos: dict[str, Any] = {}
        renew = resetting
        if len(ended):
            self._over[ended] = True
            self._rolls_left[ended] = 0
            if mode is AutoresetMode.SAME_STEP:  # Gymnasium's format: an observation dict a game
                final = np.full(n, None, dtype=object)
                for i in ended.tolist():
                    final[i] = self._one(i)
                infos["final_obs"], infos["_final_obs"] = final, terminated.copy()
                infos["final_info"] = {
                    "action_mask": np.zeros((n, self._actions), dtype=np.int8),
                    "_action_mask": terminated.copy(),
                }
                infos["_final_info"] = terminated.copy()
                renew = terminated
        if renew is not None:
            self._restart(np.flatnonzero(renew), None)
        # every game but those that just ended throws: a hold's dice, or a first roll
        holding = ~filling
        if renew is not None:
            holding &= ~renew
        keeps = np.where(
            holding, t.held.reshape(-1).take(self._roll * HOLDS + (index & 31)), EMPTY._index
        )
        self._rolls_left = np.where(holding, self._rolls_left - 1, self._rolls_left)
        self._rolls_left[f] = 2
        if renew is not None:
            self._rolls_left[renew] = 2
        if len(ended) and mode is not AutoresetMode.SAME_STEP:
            self._rolls_left[ended] = 0
            self._throw(keeps)
            self._roll[ended] = _NO_DICE
            self._draws[ended] -= np.uint64(1)  # no roll was thrown
        else:
            self._throw(keeps)
        infos["action_mask"] = self._legal().copy()
        infos["_action_mask"] = np.ones(n, dtype=bool)
        self._autoreset = terminated
        return self._observe(), rewards, terminated, np.zeros(n, dtype=bool), infos

    def render(self) -> None:
        """Nothing to draw: a batch has no render mode (render one game with SolitaireEnv).

        Examples:
            >>> SolitaireVectorEnv(num_envs=2).render() is None
            True
        """
        return


def _cards_state(table: Table, card: Int64Array) -> tuple[Any, Any, Any]:
    """Each card's solver state: filled mask, capped upper subtotal, Yahtzee box holding 50."""
    model = model_of(table.rules)
    n = model.card.n
    filled = ((card >= 0).astype(np.intp) << np.arange(n, dtype=np.intp)).sum(axis=1)
    upper = np.where(card[:, model.card.upper] > 0, card[:, model.card.upper], 0).sum(axis=1)
    upper = np.minimum(upper, model.levels - 1)
    if model.flags == 2:
        flag = (card[:, model.card.yahtzee] == 50).astype(np.intp)
    else:
        flag = np.zeros(len(card), dtype=np.intp)
    return filled, upper, flag


@functools.cache
def _box_values(rules: Rules) -> Any:
    """For box ``b`` and value ``v`` (-1 to the most points), whether the box may hold
    ``v`` (-1: open): ``(boxes, most + 2)``, read at ``[b, v + 1]``."""
    possible = rules.card.possible
    most = max(max(values) for values in possible)
    allowed = np.zeros((len(possible), most + 2), dtype=bool)
    allowed[:, 0] = True
    for box, values in enumerate(possible):
        allowed[box, [v + 1 for v in values]] = True
    return allowed


@functools.cache
def _roll_codes() -> np.ndarray[Any, np.dtype[np.intp]]:
    """Sorted faces read as a base-7 number -> the internal roll (-1 for no roll)."""
    codes = np.full(7**5, -1, dtype=np.intp)
    for position, dice in enumerate(dice_geometry().dice):
        code = 0
        for face in dice.faces:
            code = code * 7 + face
        codes[code] = position
    return codes


@functools.cache
def _keep_actions() -> Int64Array:
    """(internal roll, internal keep) -> the hold action that holds the keep (-1 if none)."""
    g = dice_geometry()
    actions = np.full((252, len(g.keeps)), -1, dtype=np.int64)
    for position, dice in enumerate(g.dice):
        for a in range(HOLDS):
            keep = hold(dice.faces, a)
            actions[position, g.keep_pos[keep._index]] = keep_action(dice.faces, keep)
    return actions


#: Games of a batch :func:`optimal_actions` works out together, here or on a worker
#: (0.6 MB compacted on the Classic card). Much larger batches are slower in one piece
#: (their working arrays outgrow the caches); a fixed size, whatever the executor.
ACTIONS_CHUNK = 32_768


def optimal_actions(
    table: Table, observations: Mapping[str, Any], *, executor: Executor | None = None
) -> Int64Array:
    """The optimal action of every game of a batch, from the solver's table.

    ``observations`` are a batch of :class:`SolitaireVectorEnv`'s (or
    ``SyncVectorEnv``'s over :class:`~yahtzee_rules.integrations.rl.SolitaireEnv`):
    ``"dice"`` ``(games, 5)`` sorted, ``"rolls_left"`` and ``"card"`` (-1 for an open
    box). The action of game ``i`` is what
    :func:`~yahtzee_rules.bots.solver.best_action` chooses for its turn, in the
    environments' encoding: a hold action (the lowest dice that match the keep) or
    ``32 + box`` to fill, ties broken by the solver's one choice kernel. The games are
    taken in chunks of :data:`ACTIONS_CHUNK` (the last two chunks' worth in quarters,
    so that an executor's workers finish close together); in each, the games' states
    are grouped and each distinct state's keep values are worked out once, as the
    batched simulator does. So many batches are labelled faster stacked into one
    (``np.concatenate`` of each array) than one by one: the states they share are
    worked out once.

    With ``executor``, each chunk is shipped compacted (:func:`compact_observations`)
    with the table (a table from the cache pickles as a reference to its file), and
    the chunks' actions are joined in order: the same actions as here, for any
    executor and number of workers. Each chunk is checked where it is worked out, and
    an error names the game by its number in the whole batch.

    Args:
        table: The solver's table for the environment's rules (``load_table(rules)``);
            it must cover every card of the batch.
        observations: The batch's observations. A finished game (a full card, as
            ``NEXT_STEP`` shows it before resetting it) gets -1: its action is ignored.
        executor: Where to work out the chunks' actions: ``None`` (here, one after
            another), or anything whose ``submit(fn, *args)`` returns a future
            (``concurrent.futures``' process pool, loky, a Dask client's
            ``get_executor()``).

    Raises:
        MalformedInputError: For a table that is not a Table, observations of another
            shape or card, a game in play the table does not cover, or an executor
            without ``submit``.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> from yahtzee_rules.bots.solver import build_table
        >>> open_boxes = (Category.SIXES, Category.YAHTZEE, Category.CHANCE)
        >>> card = Scorecard({c: 0 for c in Category if c not in open_boxes} | {Category.CHANCE: 20})
        >>> table = build_table(start=card)
        >>> batch = {
        ...     "dice": np.array([[1, 2, 6, 6, 6], [6, 6, 6, 6, 6]]),
        ...     "rolls_left": np.array([2, 2]),
        ...     "card": np.array([[-1 if v is None else v for v in card.boxes]] * 2),
        ... }
        >>> optimal_actions(table, batch).tolist()  # hold the three 6s; fill Yahtzee
        [28, 43]
    """
    if not isinstance(table, Table):
        raise MalformedInputError(f"table {show(table)}: not a Table; get one with load_table()")
    pool = check_executor(executor)
    dice, rolls_left, card = _observed(table, observations)
    spans = _spans(len(card))
    if pool is None:
        parts = [_actions(table, *_span(dice, rolls_left, card, span), span[0]) for span in spans]
    else:
        tasks = (
            (table, compact_observations(_batch(dice, rolls_left, card, span)), span[0])
            for span in spans
        )
        parts = list(in_order(_chunk_actions, tasks, pool))
    return parts[0] if len(parts) == 1 else np.concatenate(parts)  # one span at least


def _spans(games: int) -> list[tuple[int, int]]:
    """The chunks of a batch of ``games``, ``(first, end)``: :data:`ACTIONS_CHUNK` games
    each, but for the last two chunks' worth (when there are more), in quarters, so
    that the workers of an executor finish close together (a chunk's time depends on
    its games' states; the actions do not depend on the chunks)."""
    size = ACTIONS_CHUNK
    if games <= size:
        return [(0, games)]
    tail = max(0, games - 2 * size)
    found = [(lo, lo + size) for lo in range(0, tail - tail % size, size)]
    quarter = max(1, size // 4)
    lo = found[-1][1] if found else 0
    found += [(first, min(first + quarter, games)) for first in range(lo, games, quarter)]
    return found


def _span(dice: Any, rolls_left: Any, card: Any, span: tuple[int, int]) -> tuple[Any, Any, Any]:
    """The chunk ``span`` of the games: its dice, rolls left and cards."""
    lo, hi = span
    return dice[lo:hi], rolls_left[lo:hi], card[lo:hi]


def _batch(dice: Any, rolls_left: Any, card: Any, span: tuple[int, int]) -> dict[str, Any]:
    """The chunk ``span`` of the games as observations, to ship."""
    chunk = _span(dice, rolls_left, card, span)
    return dict(zip(("dice", "rolls_left", "card"), chunk, strict=True))


def _chunk_actions(table: Table, observations: dict[str, Any], offset: int) -> Int64Array:
    """A worker's part of ``optimal_actions(..., executor=)``: the games from ``offset``."""
    return _actions(table, *_observed(table, observations), offset)


def _observed(table: Table, observations: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """The batch's dice, rolls left and cards, checked for their shapes and types."""
    layout = model_of(table.rules).card
    n = layout.n
    try:
        dice = np.asarray(observations["dice"])
        rolls_left = np.asarray(observations["rolls_left"])
        card = np.asarray(observations["card"])
    except (KeyError, TypeError):
        raise MalformedInputError(
            f"observations {show(observations)}: not a dict with 'dice', 'rolls_left' and "
            f"'card'; pass the environment's observations"
        ) from None
    games = len(card) if card.ndim == 2 else -1
    if (
        dice.shape != (games, 5)
        or rolls_left.shape != (games,)
        or card.shape != (games, n)
        or dice.dtype.kind not in "iu"
        or card.dtype.kind not in "iu"
        or rolls_left.dtype.kind not in "iu"
    ):
        raise MalformedInputError(
            f"observations {show(observations)}: not a batch of integer arrays, dice "
            f"(games, 5), rolls_left (games,) and card (games, {n}) for the "
            f"{layout.card.title} card"
        )
    return dice, rolls_left, card


def _actions(table: Table, dice: Any, rolls_left: Any, card: Any, offset: int) -> Int64Array:
    """The optimal actions of checked observations; errors number games from ``offset``."""
    model = model_of(table.rules)
    n = model.card.n
    games = len(card)
    code = np.zeros(games, dtype=np.int64)
    for j in range(5):
        code = code * 7 + np.clip(dice[:, j], 0, 6)
    roll = _roll_codes()[code]
    card = card.astype(np.int64)
    allowed = _box_values(table.rules)
    inside = (card >= -1) & (card <= allowed.shape[1] - 2)
    fits = inside & allowed[np.arange(n), np.where(inside, card + 1, 0)]
    if not fits.all():
        i = int(np.flatnonzero(~fits.all(axis=1))[0])
        box = int(np.flatnonzero(~fits[i])[0])
        raise MalformedInputError(
            f"observations: game {offset + i} (card {card[i].tolist()}): box {box} "
            f"({table.rules.card.members[box]}) cannot hold {int(card[i, box])} on the "
            f"{table.rules.card.title} card; pass the environment's observations"
        )
    filled, upper, flag = _cards_state(table, card)
    start = int(sum(1 << b for b, v in enumerate(table.start.boxes) if v is not None))
    over = filled == (1 << n) - 1
    bad = (roll < 0) | ((filled & start) != start)
    bad |= (rolls_left < 0) | (rolls_left > 2) | ((dice < 1) | (dice > 6)).any(axis=1)
    bad &= ~over
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise MalformedInputError(
            f"observations: game {offset + i} (dice {dice[i].tolist()}, card {card[i].tolist()}, "
            f"rolls left {int(rolls_left[i])}) is not a turn in play that the table covers; "
            f"pass games in play, with a table that starts from their cards"
        )
    actions = np.full(games, -1, dtype=np.int64)
    playing = np.flatnonzero(~over)
    if len(playing) < games:
        roll, rolls_left = roll[playing], rolls_left[playing]
        filled, upper, flag = filled[playing], upper[playing], flag[playing]
    actions[playing] = _decide(table, model, roll, rolls_left, (filled, upper, flag))
    return actions


def _decide(
    table: Table,
    model: Any,
    roll: Any,
    rolls_left: Any,
    state: tuple[Any, Any, Any],
) -> Int64Array:
    """The optimal actions of games in play: internal rolls, rolls left, solver states."""
    g = dice_geometry()
    games = len(roll)
    if not games:
        return np.zeros(0, dtype=np.int64)
    filled, upper, flag = state
    values = table.values
    key = flat_index(model, filled, upper, flag)
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    held = np.full(games, g.five + 1, dtype=np.intp)  # stop unless a keep is chosen
    two, one = rolls_left == 2, rolls_left == 1
    # the games grouped by state, so that each block of states finds its games by two
    # searches, not by a pass over every game of the batch
    grouped = np.argsort(inverse, kind="stable")
    edges = np.searchsorted(inverse[grouped], np.arange(0, len(unique) + _STATES, _STATES))
    space = workspace_for(min(len(unique), _STATES))
    for lo in range(0, len(unique), _STATES):
        hi = min(lo + _STATES, len(unique))
        count = hi - lo
        states = first[lo:hi]
        # the keep values with one roll left, then with two (the build's kernels)
        last, first_keeps = space.keeps(0, count), space.keeps(1, count)
        final_values(model, values, filled[states], upper[states], flag[states], out=last[g.five :])
        average_keeps(last, space)
        last_copy = last.copy()
        first_keeps[g.five :] = best_over_subkeeps(last, space)
        average_keeps(first_keeps, space)
        members = grouped[edges[lo // _STATES] : edges[lo // _STATES + 1]]
        for rolling, keep_values in ((two, first_keeps), (one, last_copy)):
            rows = members[rolling[members]]
            if len(rows):
                held[rows] = keeps_of_games(keep_values, roll[rows], inverse[rows] - lo)
    actions = np.zeros(games, dtype=np.int64)
    keeping = held < g.five
    actions[keeping] = _keep_actions()[roll[keeping], held[keeping]]
    stop = np.flatnonzero(~keeping)
    if len(stop):
        m = filled[stop]
        r = roll[stop]
        closed = (model.open_bits(m)[:, None] & model.card.bits) == 0
        points = np.where(closed, -1, model.card.scores[r])
        five = r < 6
        if five.any():
            points[five] = model.joker[r[five], :, m[five]]
        fills, _, _ = fill_values(model, values, m, upper[stop], flag[stop], points)
        actions[stop] = HOLDS + first_box(fills, axis=1)
    return actions


#: The integer types :func:`compact_observations` chooses from, smallest first.
_COMPACT = (np.int8, np.int16, np.int32, np.int64)


def compact_observations(observations: Mapping[str, Any]) -> dict[str, Any]:
    """A batch of observations in the smallest integer types that hold its values, to
    ship to an executor's workers or to store.

    The environments' observations are ``int64`` (their ``observation_space`` says
    so): 160 bytes a game on the Classic card. Every value of a solitaire observation
    fits in ``int8`` (dice 1 to 6, rolls left 0 to 2, boxes -1 for open and at most 50
    points on the shipped cards, a dozen bonus marks at most), so the batch this
    returns is an eighth of the size, and pickles in an eighth of the bytes: sending
    batches to ``pool.submit(optimal_actions, table, batch)`` this way leaves the
    workers less time waiting for their input (``benchmarks/bench_executors.py``
    measures both; ``optimal_actions(..., executor=)`` ships its chunks this way).
    :func:`optimal_actions` takes either; the compacted batch is not an element of the
    observation space (its types differ), so convert it back (``astype(np.int64)``)
    before handing it to code that checks. Each array is a new copy, chosen by its own
    values (``int16`` for a card whose points reach 128, and so on); ``observations``
    is not changed.

    Args:
        observations: A batch of observations: a dict of integer arrays, as
            :class:`SolitaireVectorEnv` or ``SyncVectorEnv`` gives them.

    Raises:
        MalformedInputError: For something that is not a dict of integer arrays.

    Examples:
        >>> envs = SolitaireVectorEnv(num_envs=4096)
        >>> observations, info = envs.reset(seed=1)
        >>> small = compact_observations(observations)
        >>> sorted((name, str(array.dtype)) for name, array in small.items())
        [('bonus_marks', 'int8'), ('card', 'int8'), ('dice', 'int8'), ('rolls_left', 'int8')]
        >>> all((small[name] == observations[name]).all() for name in observations)
        True
        >>> sum(a.nbytes for a in observations.values()) // sum(a.nbytes for a in small.values())
        8
    """
    if not isinstance(observations, Mapping):
        raise MalformedInputError(
            f"observations {show(observations)}: not a dict of integer arrays; pass the "
            f"environment's observations"
        )
    found: dict[str, Any] = {}
    for name, given in observations.items():
        array = np.asarray(given)
        if array.dtype.kind not in "iu":
            raise MalformedInputError(
                f"observations[{show(name)}] {show(given)}: not an array of integers; pass "
                f"the environment's observations"
            )
        low, high = (int(array.min()), int(array.max())) if array.size else (0, 0)
        kind = next(
            (t for t in _COMPACT if np.iinfo(t).min <= low and high <= np.iinfo(t).max),
            array.dtype,
        )
        found[name] = array.astype(kind)
    return found
