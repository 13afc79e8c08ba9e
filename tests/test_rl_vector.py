"""The batched Gymnasium environment: equal to SyncVectorEnv over SolitaireEnv, and its optimal actions."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee_rules import Keep, Rules, Scorecard, Turn
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.passive_env_checker import check_obs, data_shares_objects  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from yahtzee_rules.bots._env import (  # noqa: E402
    HOLDS,
    DiceStream,
    game_key,
    keep_action,
    stream_key,
    uniform_array,
)
from yahtzee_rules.bots.solver import best_action, build_table  # noqa: E402
from yahtzee_rules.bots.solver._internal import model_of  # noqa: E402
from yahtzee_rules.integrations.rl import ENV_ID, SolitaireEnv  # noqa: E402
from yahtzee_rules.integrations.vector import (  # noqa: E402
    SolitaireVectorEnv,
    compact_observations,
    optimal_actions,
)


def _solvable() -> list[Rules]:
    found = []
    for name in Rules.names():
        rules = Rules.from_name(name)
        try:
            model_of(rules)
        except MalformedInputError:
            continue
        found.append(rules)
    return found


SOLVABLE = _solvable()
MODES = list(AutoresetMode)


def test_every_solvable_ruleset_is_covered() -> None:
    names = {rules.name for rules in SOLVABLE}
    assert {"forced", "free-choice", "none", "kinds-first", "forced-yahtzee", "yacht"} <= names
    assert {"yatzy", "forced-yatzy", "yatzy+5fh+4k2p"} <= names


def _same(a: Any, b: Any, where: str = "") -> None:
    """Equal values, arrays of equal dtype and shape, dicts with the same keys, recursively."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple), where
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert isinstance(b, dict), where
        assert set(a) == set(b), (where, sorted(a), sorted(b))
        for key in a:
            _same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert b.dtype == object, where
        assert a.shape == b.shape, where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x is None:
                assert y is None, f"{where}[{i}]"
            else:
                _same(x, y, f"{where}[{i}]")
    else:
        x, y = np.asarray(a), np.asarray(b)
        assert x.dtype == y.dtype, (where, x.dtype, y.dtype)
        assert x.shape == y.shape, (where, x.shape, y.shape)
        assert np.array_equal(x, y), (where, x, y)


def _legal_choice(chooser: Any, mask: Any, fill_often: bool) -> Any:
    """A random legal action for every game (0 where none is legal), filling early when asked."""
    actions = np.zeros(len(mask), dtype=np.int64)
    for i, row in enumerate(mask):
        legal = np.flatnonzero(row)
        if not len(legal):
            continue
        boxes = legal[legal >= HOLDS]
        if fill_often and chooser.random() < 0.6:
            legal = boxes
        actions[i] = chooser.choice(legal)
    return actions


def _compare(
    rules: Rules, mode: AutoresetMode, seed: int, steps: int, games: int = 5
) -> tuple[int, float]:
    """Play both environments side by side; the episodes finished and the reward paid."""
    sync = SyncVectorEnv([lambda: SolitaireEnv(rules)] * games, autoreset_mode=mode)
    native = SolitaireVectorEnv(num_envs=games, rules=rules, autoreset_mode=mode)
    chooser = np.random.default_rng(seed)
    first = sync.reset(seed=seed)
    _same(first, native.reset(seed=seed), "reset")
    mask = first[1]["action_mask"]
    finished, paid = 0, 0.0
    for step in range(steps):
        over = ~mask.any(axis=1)
        if mode is AutoresetMode.DISABLED and over.any():
            # reset the finished games only, the first of them with a new seed
            seeds: list[int | None] = [None] * games
            seeds[int(np.flatnonzero(over)[0])] = seed + 1000 + step
            options = {"reset_mask": over}
            started = sync.reset(seed=seeds, options=dict(options))
            _same(started, native.reset(seed=seeds, options=options), f"reset at {step}")
            assert "reset_mask" in options  # the caller's options are left alone
            mask = np.where(over[:, None], started[1]["action_mask"], mask)
        actions = _legal_choice(chooser, mask, fill_often=step % 3 != 0)
        expected = sync.step(actions)
        got = native.step(actions)
        _same(expected, got, f"{rules.name} {mode.value} seed {seed} step {step}")
        check_obs(got[0], native.observation_space, "step")
        finished += int(expected[2].sum())
        paid += float(expected[1].sum())
        mask = expected[4]["action_mask"]
        if mode is AutoresetMode.NEXT_STEP and step % 97 == 96:
            # a reset without a seed: every stream goes on to its next game
            started = sync.reset()
            _same(started, native.reset(), f"unseeded reset at {step}")
            mask = started[1]["action_mask"]
    return finished, paid


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("rules", SOLVABLE, ids=lambda r: r.name)
def test_equal_to_sync_vector_env_over_solitaire_env(rules: Rules, mode: AutoresetMode) -> None:
    finished = 0
    for seed in (0, 7):
        done, _ = _compare(rules, mode, seed, steps=160)
        finished += done
    assert finished >= 10  # whole games, so the end of a game and the resets were compared


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_equal_for_many_seeds_and_yahtzee_bonuses(mode: AutoresetMode) -> None:
    # many seeds on the rulesets with the extra-Yahtzee bonus and the Joker readings
    for seed in range(3, 9):
        for rules in (Rules(), Rules(joker="free-choice"), Rules.from_name("kinds-first")):
            _compare(rules, mode, seed, steps=80, games=3)


def _chase_yahtzees(observations: dict[str, Any], mask: Any) -> Any:
    """Hold the most common face; with five equal dice or no roll left, fill the Yahtzee
    box if it may be, else the first legal box."""
    dice = observations["dice"]
    counts = np.stack([(dice == face).sum(axis=1) for face in range(1, 7)], axis=1)
    face = counts.argmax(axis=1) + 1
    holds = ((dice == face[:, None]) << np.arange(5)).sum(axis=1)
    yahtzee = HOLDS + 11
    first = HOLDS + np.argmax(mask[:, HOLDS:], axis=1)
    fill = np.where(mask[:, yahtzee] == 1, yahtzee, first)
    stop = (counts.max(axis=1) == 5) | (mask[:, 0] == 0)
    return np.where(stop, fill, holds)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("joker", ["forced", "free-choice", "kinds-first", "none"])
def test_equal_through_extra_yahtzees_and_their_bonus(mode: AutoresetMode, joker: str) -> None:
    rules = Rules(joker=joker)
    games = 48
    sync = SyncVectorEnv([lambda: SolitaireEnv(rules)] * games, autoreset_mode=mode)
    native = SolitaireVectorEnv(num_envs=games, rules=rules, autoreset_mode=mode)
    started = sync.reset(seed=21)
    _same(started, native.reset(seed=21))
    observations, info = started
    marks = 0
    for step in range(14 * 3):  # every game to its end (a Joker turn may stop early)
        actions = _chase_yahtzees(observations, info["action_mask"])
        if mode is AutoresetMode.DISABLED and not info["action_mask"].any(axis=1).all():
            break
        expected = sync.step(actions)
        _same(expected, native.step(actions), f"{joker} {mode.value} step {step}")
        observations, _, _, _, info = expected
        marks = max(marks, int(observations["bonus_marks"].max()))
    assert marks >= 1  # the extra-Yahtzee bonus (and a Joker fill) were compared


def test_huge_seeds_and_seed_lists_are_equal_too() -> None:
    rules = Rules()
    sync = SyncVectorEnv([lambda: SolitaireEnv(rules)] * 3)
    native = SolitaireVectorEnv(num_envs=3)
    seeds: list[int | list[int | None]] = [2**64 - 2, 2**70 + 5, [None, 5, 2**65]]
    for seed in seeds:
        _same(sync.reset(seed=seed), native.reset(seed=seed), repr(seed))
        actions = np.array([32 + 12, 0, 31])
        _same(sync.step(actions), native.step(actions), repr(seed))


def test_make_vec_returns_the_native_environment() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=8, vectorization_mode="vector_entry_point")
    assert isinstance(envs, SolitaireVectorEnv)
    assert envs.num_envs == 8
    assert envs.autoreset_mode is AutoresetMode.NEXT_STEP
    envs = gymnasium.make_vec(
        ENV_ID,
        num_envs=2,
        vectorization_mode="vector_entry_point",
        rules=Rules.from_name("yatzy"),
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert isinstance(envs, SolitaireVectorEnv)
    assert envs.rules == Rules.from_name("yatzy")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(47)
    assert isinstance(gymnasium.make_vec(ENV_ID, num_envs=2), SolitaireVectorEnv)
    assert isinstance(
        gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync"), SyncVectorEnv
    )


def test_spaces_are_solitaire_envs_batched() -> None:
    for rules in (Rules(), Rules.from_name("yacht"), Rules.from_name("yatzy")):
        sync = SyncVectorEnv([functools.partial(SolitaireEnv, rules)] * 4)
        native = SolitaireVectorEnv(num_envs=4, rules=rules)
        assert native.single_observation_space == sync.single_observation_space
        assert native.observation_space == sync.observation_space
        assert native.single_action_space == sync.single_action_space
        assert native.action_space == sync.action_space


def test_observations_are_new_arrays_every_step() -> None:
    envs = SolitaireVectorEnv(num_envs=4)
    first, info = envs.reset(seed=0)
    check_obs(first, envs.observation_space, "reset")
    second, *_, info2 = envs.step(np.zeros(4, dtype=np.int64))
    assert not data_shares_objects(first, second)
    assert not data_shares_objects(info["action_mask"], info2["action_mask"])
    second["card"][:] = 99  # a caller's changes do not reach the games
    info2["action_mask"][:] = 0
    third, *_ = envs.step(np.full(4, 32 + 12))
    assert (third["card"][:, :12] == -1).all()


def test_episode_statistics_wrapper_sees_the_final_totals() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(SolitaireVectorEnv(num_envs=16))
    _, info = envs.reset(seed=3)
    chooser = np.random.default_rng(3)
    returns = []
    for _ in range(200):
        actions = _legal_choice(chooser, info["action_mask"], fill_often=True)
        _, _, terminated, _, info = envs.step(actions)
        if terminated.any():
            returns.extend(info["episode"]["r"][terminated].tolist())
    assert returns
    assert all(r >= 0 for r in returns)


# ---------------------------------------------------------------------------------------
# The dice: one stream, computed one game at a time or for a whole batch
# ---------------------------------------------------------------------------------------


@given(st.integers(0, 2**70), st.integers(0, 4), st.integers(0, 2**40), st.integers(0, 60))
def test_the_scalar_and_the_array_dice_agree(seed: int, games: int, far: int, rolls: int) -> None:
    stream = DiceStream()
    stream.new_game(seed, lambda: 0)
    for _ in range(games):  # a reset without a seed: the stream's next game
        stream.new_game(None, lambda: 0)
    assert stream.game == game_key(stream_key(seed), games)
    for key in (stream.game, game_key(stream_key(seed), far)):
        words = np.array([key], dtype=np.uint64)
        stream.game, stream.rolls = key, 0
        for roll in range(rolls + 1):
            expected = stream.random()
            assert float(uniform_array(words, np.array([roll], dtype=np.uint64))[0]) == expected
            assert 0.0 <= expected < 1.0


def test_the_dice_are_fair_enough() -> None:
    # 60,000 first rolls of 60,000 seeds: each face about a sixth of the dice thrown
    envs = SolitaireVectorEnv(num_envs=60_000)
    observations, _ = envs.reset(seed=0)
    counts = np.bincount(observations["dice"].ravel(), minlength=7)[1:]
    expected = 60_000 * 5 / 6
    assert (np.abs(counts - expected) < 5 * np.sqrt(expected)).all()


def test_solitaire_env_draws_from_the_counter_based_stream() -> None:
    # the dice of SolitaireEnv's first roll: the stream's first draw, read as Game.roll reads it
    from yahtzee_rules.core.dice import roll_table

    env = SolitaireEnv()
    observation, _ = env.reset(seed=12)
    stream = DiceStream()
    stream.new_game(12, lambda: 0)
    table = roll_table(Keep())
    assert list(table[int(stream.random() * 7776)].faces) == observation["dice"].tolist()


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


def _state(envs: SolitaireVectorEnv) -> tuple[Any, ...]:
    return tuple(
        getattr(envs, name).copy()
        for name in ("_roll", "_rolls_left", "_card", "_filled", "_draws", "_mask")
    )


@pytest.mark.parametrize(
    ("actions", "error", "message"),
    [
        (np.array([32.0, 32.0]), MalformedInputError, "not an array of 2 integers (dtype float64"),
        (np.array([32.9, 32.0]), MalformedInputError, "dtype float64"),
        (np.array([np.nan, 1.0]), MalformedInputError, "dtype float64"),
        ([None, 1], MalformedInputError, "dtype object"),
        (["٣٣", "1"], MalformedInputError, "dtype <U2"),
        (np.array([True, False]), MalformedInputError, "dtype bool"),
        (np.array([1, 2, 3]), MalformedInputError, "shape (3,)"),
        (7, MalformedInputError, "shape ()"),
        (np.array([0, 999]), IllegalActionError, "actions[1] 999: not legal now"),
        (np.array([-1, 0]), IllegalActionError, "actions[0] -1: not legal now"),
        (
            np.array([2**64 - 1, 0], dtype=np.uint64),
            IllegalActionError,
            "actions[0] 18446744073709551615",
        ),
        (np.array([32 + 6, 32 + 6]), IllegalActionError, 'see info["action_mask"][0]'),
    ],
)
def test_bad_actions_are_refused_and_nothing_is_played(
    actions: Any, error: type[Exception], message: str
) -> None:
    envs = SolitaireVectorEnv(num_envs=2, rules=Rules.from_name("forced-yatzy"))
    envs.reset(seed=1)
    before = _state(envs)
    with pytest.raises(error) as raised:
        envs.step(actions)
    assert message in str(raised.value)
    assert "(0 to 31 hold dice and roll, 32 on fill a box)" in str(raised.value)
    for old, new in zip(before, _state(envs), strict=True):
        assert np.array_equal(old, new)


def test_every_illegal_game_is_counted_and_a_finished_game_is_named() -> None:
    envs = SolitaireVectorEnv(num_envs=3, autoreset_mode="Disabled")
    envs.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"actions\[0\] 99: .*; 2 of the 3 actions"):
        envs.step(np.array([99, 0, 99]))
    envs.reset(seed=1, options={"reset_mask": np.array([True, False, False])})
    for box in range(13):  # every game fills every box
        envs.step(np.full(3, 32 + box))
    with pytest.raises(IllegalActionError, match=r"actions\[0\] 32: game 0 is over; reset it"):
        envs.step(np.array([32, 0, 0]))


def test_next_step_ignores_the_actions_of_games_being_reset() -> None:
    sync = SyncVectorEnv([SolitaireEnv] * 2)
    native = SolitaireVectorEnv(num_envs=2)
    _same(sync.reset(seed=4), native.reset(seed=4))
    for box in range(13):
        actions = np.array([32 + box, 44 - box])
        _same(sync.step(actions), native.step(actions))
    actions = np.array([-5, 99])  # both games are reset: their actions are never read
    _same(sync.step(actions), native.step(actions))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "num_envs 0: not a positive int"),
        ({"num_envs": "4"}, "num_envs '4': not a positive int"),
        ({"num_envs": True}, "num_envs True: not a positive int"),
        ({"rules": "forced"}, "rules 'forced': not a Rules"),
        ({"rules": Rules.from_name("triple")}, "with gymnasium.vector.SyncVectorEnv"),
        ({"autoreset_mode": "Sometimes"}, "autoreset_mode 'Sometimes': not an AutoresetMode"),
        ({"render_mode": "ansi"}, "render_mode 'ansi': not None"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedInputError, match=message.replace("(", r"\(")):
        SolitaireVectorEnv(**kwargs)


@pytest.mark.parametrize(
    ("seed", "options", "message"),
    [
        (-1, None, "seed -1: negative"),
        ([1, 2], None, "not None, an int or a list of 3"),
        ([1, -2, None], None, "seed[1] -2: not None or an int >= 0"),
        ([1, 2.5, None], None, "seed[1] 2.5"),
        (1.5, None, "seed 1.5: not None, an int"),
        (None, {"reset_mask": [True, True, True]}, "not a bool array of shape (3,)"),
        (None, {"reset_mask": np.ones(2, dtype=bool)}, "not a bool array of shape (3,)"),
        (None, {"reset_mask": np.zeros(3, dtype=bool)}, "no game marked"),
    ],
)
def test_bad_seeds_and_reset_masks_are_refused(
    seed: Any, options: dict[str, Any] | None, message: str
) -> None:
    envs = SolitaireVectorEnv(num_envs=3)
    with pytest.raises(MalformedInputError) as raised:
        envs.reset(seed=seed, options=options)
    assert message in str(raised.value)


# ---------------------------------------------------------------------------------------
# Optimal actions of a batch
# ---------------------------------------------------------------------------------------


def _best(turn: Any, table: Any) -> int:
    best = best_action(turn, table)
    if isinstance(best, Keep):
        return keep_action(turn.dice.faces, best)
    return HOLDS + int(turn.rules.card.members.index(best))


def _check_optimal(rules: Rules, table: Any, seed: int, steps: int, games: int = 24) -> int:
    """Optimal actions of a batch equal best_action game by game, over mixed play."""
    sync = SyncVectorEnv([lambda: SolitaireEnv(rules)] * games)
    observations, info = sync.reset(seed=seed)
    chooser = np.random.default_rng(seed)
    checked = 0
    for _ in range(steps):
        actions = optimal_actions(table, observations)
        for i, env in enumerate(sync.envs):
            turn = env.unwrapped._game.turn  # type: ignore[attr-defined]
            if turn is None:  # finished: reset on the next step
                assert actions[i] == -1
                continue
            assert actions[i] == _best(turn, table), (turn, actions[i])
            checked += 1
        # half the games play the optimal action, half a random legal one: varied states
        random = _legal_choice(chooser, info["action_mask"], fill_often=False)
        actions = np.where(chooser.random(games) < 0.5, actions, random)
        observations, _, _, _, info = sync.step(actions)
    return checked


def test_optimal_actions_equal_best_action_on_a_whole_table() -> None:
    rules = Rules.from_name("yacht")
    assert _check_optimal(rules, build_table(rules=rules), seed=5, steps=200) > 3000


@pytest.mark.parametrize(
    "name", ["forced", "free-choice", "kinds-first", "forced-yahtzee", "yatzy", "forced-yatzy"]
)
def test_optimal_actions_equal_best_action_from_a_start_card(name: str) -> None:
    # a card with five boxes open (the table is quick to build): games start from it
    rules = Rules.from_name(name)
    members = rules.card.members
    kept_open = {members[0], members[4], members[5], members[-2], members[-1]}
    if rules.in_order:  # the boxes are filled in card order: the last ones are open
        kept_open = set(members[-5:])
    values = {box: min(rules.card.possible[box]) for box in members if box not in kept_open}
    start = Scorecard(values, card=rules.card)
    table = build_table(rules=rules, start=start)
    observations = {
        "dice": np.array([[1, 1, 1, 1, 1], [1, 2, 3, 4, 6], [6, 6, 6, 6, 6], [2, 2, 5, 5, 5]] * 3),
        "rolls_left": np.array([2] * 4 + [1] * 4 + [0] * 4),
        "card": np.array([[-1 if v is None else v for v in start.boxes]] * 12),
    }
    actions = optimal_actions(table, observations)
    for i in range(12):
        turn = Turn(start, rules=rules).roll(outcome="".join(map(str, observations["dice"][i])))
        for _ in range(2 - int(observations["rolls_left"][i])):
            turn = turn.roll(keep=str(turn.dice), outcome="")
        assert int(actions[i]) == _best(turn, table), (name, turn)


def test_optimal_actions_refuse_what_they_cannot_read() -> None:
    rules = Rules.from_name("yacht")
    table = build_table(rules=rules)
    envs = SolitaireVectorEnv(num_envs=2, rules=rules)
    observations, _ = envs.reset(seed=0)
    with pytest.raises(MalformedInputError, match="not a Table"):
        optimal_actions("table", observations)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="not a dict with 'dice'"):
        optimal_actions(table, {"dice": observations["dice"]})
    with pytest.raises(MalformedInputError, match=r"card \(games, 12\)"):
        optimal_actions(table, {**observations, "card": observations["card"][:, :5]})
    bad = {**observations, "dice": observations["dice"].copy()}
    bad["dice"][1] = [6, 5, 4, 3, 2]  # not sorted
    with pytest.raises(MalformedInputError, match=r"game 1 .* is not a turn in play"):
        optimal_actions(table, bad)
    bad["dice"][1] = [1, 2, 3, 4, 7]
    with pytest.raises(MalformedInputError, match=r"game 1 .* is not a turn in play"):
        optimal_actions(table, bad)
    for box, value in ((0, 37), (0, -2), (3, 5), (11, 2**40)):  # no Ones of 37, no Fours of 5
        bad = {**observations, "card": observations["card"].copy()}
        bad["card"][1, box] = value
        name = rules.card.members[box]
        with pytest.raises(
            MalformedInputError, match=rf"game 1 .*box {box} \({name}\) cannot hold"
        ):
            optimal_actions(table, bad)
    partial = build_table(rules=rules, start=envs_card(rules))
    with pytest.raises(MalformedInputError, match=r"game 0 .* the table covers"):
        optimal_actions(partial, observations)


def envs_card(rules: Rules) -> Any:
    box = rules.card.members[-1]
    return Scorecard({box: min(rules.card.possible[box])}, card=rules.card)


def test_optimal_actions_play_the_batch_to_the_tables_expected_score() -> None:
    rules = Rules.from_name("yacht")
    table = build_table(rules=rules)
    games = 2000
    envs = SolitaireVectorEnv(num_envs=games, rules=rules)
    observations, _ = envs.reset(seed=9)
    totals = np.zeros(games)
    finished = np.zeros(games, dtype=bool)
    while not finished.all():  # each game's first episode (a finished game idles, then restarts)
        actions = optimal_actions(table, observations)
        observations, rewards, terminated, _, _ = envs.step(actions)
        totals += np.where(finished, 0.0, rewards)
        finished |= terminated
    stderr = totals.std() / np.sqrt(games)
    assert abs(totals.mean() - table.value(table.start)) < 4 * stderr


@pytest.mark.parametrize("rules", SOLVABLE, ids=lambda r: r.name)
def test_compacted_observations_are_the_same_values_in_int8(rules: Rules) -> None:
    envs = SolitaireVectorEnv(num_envs=64, rules=rules)
    observations, info = envs.reset(seed=2)
    chooser = np.random.default_rng(2)
    for _ in range(400):  # several whole games each, extra Yahtzees among them
        before = {name: array.copy() for name, array in observations.items()}
        small = compact_observations(observations)
        assert small.keys() == observations.keys()
        for name, array in observations.items():
            assert small[name].dtype == np.int8, name
            assert (small[name] == array).all(), name
            # the batch given is left as it was
            assert array.dtype == np.int64, name
            assert (array == before[name]).all(), name
            assert not np.shares_memory(small[name], array), name
        actions = _legal_choice(chooser, info["action_mask"], fill_often=False)
        observations, _, _, _, info = envs.step(actions)


def test_optimal_actions_of_compacted_observations_are_the_same() -> None:
    rules = Rules.from_name("yacht")
    table = build_table(rules=rules)
    envs = SolitaireVectorEnv(num_envs=256, rules=rules)
    observations, info = envs.reset(seed=4)
    chooser = np.random.default_rng(4)
    for _ in range(30):
        small = compact_observations(observations)
        assert len(pickle.dumps(small)) * 6 < len(pickle.dumps(observations))
        assert (
            optimal_actions(table, small).tolist() == optimal_actions(table, observations).tolist()
        )
        actions = _legal_choice(chooser, info["action_mask"], fill_often=True)
        observations, _, _, _, info = envs.step(actions)


_SIGNED = [np.int8, np.int16, np.int32, np.int64]


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=20), st.sampled_from(_SIGNED))
def test_each_array_gets_the_smallest_signed_type_that_holds_it(
    values: list[int], kind: Any
) -> None:
    values = [int(np.clip(v, np.iinfo(kind).min, np.iinfo(kind).max)) for v in values]
    given_array = np.array(values, dtype=kind)
    small = compact_observations({"card": given_array})["card"]
    assert small.tolist() == values
    holds = [t for t in _SIGNED if all(np.iinfo(t).min <= v <= np.iinfo(t).max for v in values)]
    assert small.dtype == holds[0]


def test_unsigned_arrays_beyond_int64_keep_their_type() -> None:
    small = compact_observations({"card": np.array([2**64 - 1, 0], dtype=np.uint64)})
    assert small["card"].dtype == np.uint64
    assert small["card"].tolist() == [2**64 - 1, 0]


def test_compacting_refuses_what_is_not_a_batch_of_integers() -> None:
    with pytest.raises(MalformedInputError, match="observations 'card': not a dict"):
        compact_observations("card")  # type: ignore[arg-type]
    with pytest.raises(
        MalformedInputError, match=r"observations\['dice'\] .*not an array of integers"
    ):
        compact_observations({"card": np.zeros(3, dtype=np.int64), "dice": np.zeros(3)})
