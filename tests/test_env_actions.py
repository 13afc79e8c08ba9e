"""What the environments take as an action: ints and NumPy integers of the space, nothing else.

Every other value (a float, even a whole one, NaN, infinity, a string of digits in any
script, ``None``, a bool, an out-of-range number) is refused with the environment's
own error, a :class:`~yahtzee_rules.MalformedInputError` that is also the framework's
(Gymnasium's ``InvalidAction``, OpenSpiel's ``SpielError``), and nothing is played.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import Dice, IllegalActionError, MalformedInputError

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is not installed (the rl extra)")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (the rl extra)")
pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (the openspiel extra)")

from yahtzee_rules.integrations import rl, spiel, zoo  # noqa: E402

# Values int() or float() would read, or fail on with an error of their own.
NOT_ACTIONS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([np.True_, np.False_, np.float64(3.0), np.float32(33.0), np.array([3])]),
    st.floats(),  # NaN, infinities, 32.9, 3.0
    st.text(max_size=8),  # "33", "٣٣", "3_3", " 3 "
    st.sampled_from(["33", "٣٣", "3_3", " 3", "0x21", "1e1", b"3", 3 + 0j, [3], (3,), {3: 3}]),
    st.integers().filter(lambda n: not 0 <= n < 45),
    st.integers(min_value=45, max_value=2**64 - 1).map(np.uint64),
)


@settings(max_examples=150)
@given(NOT_ACTIONS)
def test_gymnasium_refuses_every_non_action_and_plays_nothing(action: Any) -> None:
    env = rl.SolitaireEnv()
    env.reset(seed=1)
    before = str(env._game)
    with pytest.raises(
        rl.InvalidActionError, match=r"^action .*: .*; actions are the ints 0 to 44"
    ):
        env.step(action)
    assert str(env._game) == before
    with pytest.raises(gymnasium.error.InvalidAction):  # the framework's error, too
        env.step(action)


@settings(max_examples=150)
@given(NOT_ACTIONS)
def test_pettingzoo_refuses_every_non_action_and_plays_nothing(action: Any) -> None:
    env = zoo.GameEnv(players=2)
    env.reset(seed=1)
    before = str(env._play.game)
    with pytest.raises(zoo.InvalidActionError, match=r"^action .*: .*"):
        env.step(action)
    assert str(env._play.game) == before
    assert env.agent_selection == "player_0"
    assert isinstance(zoo.InvalidActionError("x"), gymnasium.error.InvalidAction)


def _refused(state: Any, action: int, words: str) -> None:
    """``action`` is refused by OpenSpiel's binding (beyond 64 bits) or by the game."""
    if not -(2**63) <= action < 2**63:
        with pytest.raises(TypeError):  # pybind11 refuses it before the game sees it
            state.apply_action(action)
        return
    before = str(state)
    with pytest.raises(spiel.InvalidActionError, match=words) as caught:
        state.apply_action(action)
    assert isinstance(caught.value, pyspiel.SpielError)  # the framework's error, too
    assert str(state) == before
    with pytest.raises(spiel.InvalidActionError, match=words):
        state.action_to_string(state.current_player(), action)


OUT_OF_RANGE = st.integers().filter(lambda n: n != -1)  # -1: kInvalidAction, OpenSpiel's own


@settings(max_examples=100)
@given(
    OUT_OF_RANGE.filter(lambda n: not 0 <= n < 252), OUT_OF_RANGE.filter(lambda n: not 0 <= n < 45)
)
def test_openspiel_refuses_out_of_range_numbers_with_its_own_error(
    outcome: int, action: int
) -> None:
    state = pyspiel.load_game("python_yahtzee_rules").new_initial_state()
    _refused(state, outcome, "^chance outcome .*: outside the action space; chance outcomes are")
    state.apply_action(Dice.all().index(Dice("13366")))
    _refused(state, action, "^action .*: outside the action space; actions are the ints 0 to 44")


def test_openspiel_refuses_actions_of_the_space_that_are_not_legal_now() -> None:
    state = pyspiel.load_game("python_yahtzee_rules").new_initial_state()
    state.apply_action(Dice.all().index(Dice("13366")))
    assert 0b00100 not in state.legal_actions()  # the second 3: the same keep as 0b00010
    with pytest.raises(IllegalActionError, match=r"action 4 \(hold 3\): not legal now"):
        state.apply_action(0b00100)
    state.apply_action(0b11000)  # hold 66
    assert state.is_chance_node()
    with pytest.raises(IllegalActionError, match=r"chance outcome 0 \(11111\): not a roll"):
        state.apply_action(0)  # five 1s cannot show with 66 held
    state.apply_action(Dice.all().index(Dice("12666")))
    assert str(state).endswith("12666@2")


@pytest.mark.parametrize(
    "make", [np.int8, np.int64, np.uint8, np.intp, lambda n: np.array(n, dtype=np.int16)]
)
def test_numpy_integers_are_actions(make: Any) -> None:
    env = rl.SolitaireEnv()
    observation, _ = env.reset(seed=1)
    _, reward, *_ = env.step(make(44))  # Chance: the dice's total
    assert reward == float(observation["dice"].sum())
    game = zoo.GameEnv()
    game.reset(seed=1)
    game.step(make(44))
    assert game.rewards["player_0"] == 18.0


def test_an_action_the_mask_forbids_is_illegal_not_malformed() -> None:
    game = zoo.GameEnv()
    game.reset(seed=1)
    game.step(0)
    game.step(0)  # no rolls left
    with pytest.raises(IllegalActionError, match=r'action 3: not legal now; see observation\["'):
        game.step(3)
    with pytest.raises(IllegalActionError) as caught:
        game.step(3)
    assert not isinstance(caught.value, MalformedInputError)
