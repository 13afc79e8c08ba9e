"""Environment policies as strategies: the same observation as the environment, in the arena."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

from yahtzee_rules import GreedyStrategy, Rules, Strategy, Turn, simulate
from yahtzee_rules.bots.arena import Verdict, tournament
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Keep
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

np = pytest.importorskip("numpy")

from yahtzee_rules.bots.policy import PolicyStrategy, observe_turn  # noqa: E402


def first_box(observation: dict[str, Any], mask: Any) -> int:
    """Never reroll; fill the first legal box in card order."""
    return 32 + int(np.flatnonzero(mask[32:])[0])


class FirstBox:
    """The same play written as a strategy."""

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        return None

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        return next(box for box in turn.rules.card.members if box in turn.options)


def random_legal(observation: dict[str, Any], mask: Any) -> int:
    """A random legal action, seeded by the observation (so it is picklable and repeatable)."""
    chooser = np.random.default_rng(
        int(observation["dice"].sum()) + int(observation["card"].sum()) + 100
    )
    return int(chooser.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("rules", [Rules(), Rules.from_name("yacht")], ids=lambda r: r.name)
def test_a_policy_plays_as_the_strategy_it_describes(rules: Rules) -> None:
    ours = simulate(PolicyStrategy(first_box), games=30, seed=4, rules=rules)
    theirs = simulate(FirstBox(), games=30, seed=4, rules=rules)
    assert ours.scores == theirs.scores


def test_the_observation_is_the_gymnasium_environments() -> None:
    pytest.importorskip("gymnasium")
    from yahtzee_rules.integrations.rl import SolitaireEnv

    env = SolitaireEnv()
    observation, info = env.reset(seed=3)
    done = False
    while not done:
        turn = env._game.turn
        assert turn is not None
        ours, mask = observe_turn(turn)
        assert ours.keys() == observation.keys()
        for key, value in observation.items():
            assert np.array_equal(ours[key], value)
        assert np.array_equal(mask, info["action_mask"])
        observation, _, done, _, info = env.step(random_legal(observation, mask))


def test_a_trained_policy_is_rated_in_the_arena() -> None:
    result = tournament(
        {"greedy": GreedyStrategy(), "policy": PolicyStrategy(random_legal)}, deals=30, seed=2
    )
    assert result.pair("greedy", "policy").verdict is Verdict.FIRST


def test_it_is_a_strategy() -> None:
    assert isinstance(PolicyStrategy(first_box), Strategy)


def test_it_pickles_for_executors_and_plays_the_same_after() -> None:
    strategy = pickle.loads(pickle.dumps(PolicyStrategy(random_legal)))
    assert simulate(strategy, games=3, seed=1).scores == (
        simulate(PolicyStrategy(random_legal), games=3, seed=1).scores
    )


def test_the_box_picked_while_rolling_is_filled() -> None:
    asked: list[int] = []

    def chance_at_once(observation: dict[str, Any], mask: Any) -> int:
        asked.append(int(observation["rolls_left"]))
        return 44

    strategy = PolicyStrategy(chance_at_once)
    turn = Turn().roll(outcome="12345")
    assert strategy.choose_keep(turn, random.Random(0)) is None
    assert strategy.choose_box(turn, random.Random(0)).label == "Chance"
    assert asked == [2]  # asked once
    other = Turn().roll(outcome="22345")
    strategy.choose_box(other, random.Random(0))  # another turn: asked again, boxes only
    assert asked == [2, 2]


def test_illegal_actions_and_bad_policies_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="policy 3: not callable"):
        PolicyStrategy(3)  # type: ignore[arg-type]
    turn = Turn().roll(outcome="12345").roll(outcome="12345").roll(outcome="12345")
    with pytest.raises(IllegalActionError, match="policy action 0: not legal now"):
        PolicyStrategy(lambda observation, mask: 0).choose_box(turn, random.Random(0))
    with pytest.raises(MalformedInputError, match="policy action 'x': a str, not an int"):
        PolicyStrategy(lambda observation, mask: "x").choose_keep(turn, random.Random(0))  # type: ignore[arg-type, return-value]
    with pytest.raises(MalformedInputError, match="no dice showing"):
        observe_turn(Turn())
    assert repr(PolicyStrategy(first_box)).startswith("PolicyStrategy(<function first_box")


def test_importing_the_library_does_not_import_the_adapter_or_gymnasium() -> None:
    code = (
        "import sys, yahtzee_rules.bots.policy; "
        "print('gymnasium' in sys.modules, 'pettingzoo' in sys.modules)"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "False False"
