"""The PettingZoo environment: PettingZoo's own tests, masks, both rewards and seeding."""

from __future__ import annotations

import subprocess
import sys

import pytest

from yahtzee_rules import Game, Rules, TieRule
from yahtzee_rules.support.errors import MalformedInputError

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (the rl extra)")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from yahtzee_rules.integrations.zoo import GameEnv, InvalidActionError, env  # noqa: E402

RULESETS = [Rules(), Rules(joker="free-choice"), Rules.from_name("yacht"), Rules.from_name("yatzy")]

# PettingZoo's test warns (advice, not failures) about what this environment does by
# design: a dict observation carrying the mask, not a bare array, and an all-zero mask
# once the game is over. Its assertions all run.
ADVICE = "ignore::UserWarning:pettingzoo.test.api_test"


@pytest.mark.filterwarnings(ADVICE)
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("reward", ["points", "win"])
def test_pettingzoos_api_test_passes(rules: Rules, reward: str) -> None:
    api_test(GameEnv(players=2, rules=rules, reward=reward), num_cycles=200)


@pytest.mark.filterwarnings(ADVICE)
@pytest.mark.parametrize("players", [1, 3, 4])
def test_api_test_passes_for_other_numbers_of_players(players: int) -> None:
    api_test(GameEnv(players=players, render_mode="ansi"), num_cycles=100)


@pytest.mark.parametrize("reward", ["points", "win"])
def test_pettingzoos_seed_test_passes(reward: str) -> None:
    seed_test(lambda: GameEnv(players=3, reward=reward), num_cycles=100)


def _play(environment: GameEnv, seed: int) -> dict[str, float]:
    """A random legal policy to the end: each agent's rewards added up."""
    chooser = np.random.default_rng(seed)
    environment.reset(seed=seed)
    total = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        total[agent] += reward
        action = None
        if not (terminated or truncated):
            action = int(chooser.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    assert not environment.agents
    return total


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_points_add_up_to_each_final_total(rules: Rules) -> None:
    environment = GameEnv(players=3, rules=rules)
    for seed in range(3):
        total = _play(environment, seed)
        game = environment._play.game
        assert game.is_over
        assert total == {
            f"player_{seat}": float(game.player_totals(seat).grand_total) for seat in range(3)
        }


def test_win_rewards_follow_the_result() -> None:
    environment = GameEnv(players=3, reward="win")
    for seed in range(3):
        total = _play(environment, seed)
        winners = environment._play.game.result.winners
        assert total == {
            agent: 1.0 if agent in winners else -1.0 for agent in environment.possible_agents
        }


@pytest.mark.parametrize(
    ("tie", "expected"),
    [(TieRule.SHARE, [1.0, 1.0]), (TieRule.PLAY_OFF, [0.0, 0.0])],
)
def test_a_tie_is_shared_or_left_to_a_play_off(tie: TieRule, expected: list[float]) -> None:
    environment = GameEnv(players=2, rules=Rules(tie=tie), reward="win")
    environment.reset(seed=0)
    full = "1=0,2=0,3=0,4=0,5=0,6=0,3k=0,4k=0,fh=0,ss=0,ls=0,y=0"
    header = str(Game.new(["player_0", "player_1"], rules=Rules(tie=tie)))
    environment._play.load(Game.parse(f"{header} {full},c=5/{full} 11111@1"))
    environment.step(32 + 12)  # player_1 writes 5 in Chance: 5 each
    assert [environment.rewards[a] for a in environment.possible_agents] == expected
    assert all(environment.terminations.values())


def test_the_mask_is_the_movers_only() -> None:
    environment = GameEnv(players=2)
    environment.reset(seed=2)
    assert environment.observe("player_0")["action_mask"].sum() == 45
    assert environment.observe("player_1")["action_mask"].sum() == 0
    environment.step(32)  # Aces
    assert environment.agent_selection == "player_1"
    assert environment.observe("player_0")["action_mask"].sum() == 0
    mine = environment.observe("player_1")["observation"]
    theirs = environment.observe("player_0")["observation"]
    assert mine[6] == 0  # player_1 to move
    assert theirs[6] == 1  # one seat after player_0
    assert mine[7 + 14] == theirs[7] >= 0  # player_0's Aces, seen from both seats
    with pytest.raises(InvalidActionError, match="action 99: outside the action space"):
        environment.step(99)
    with pytest.raises(InvalidActionError, match="action None: player_1 is still playing"):
        environment.step(None)


def test_a_seed_repeats_the_game_and_the_env_function_makes_one() -> None:
    assert _play(env(players=2), 5) == _play(env(players=2), 5)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="players 0: not an int from 1 to 50"):
        GameEnv(players=0)
    with pytest.raises(MalformedInputError, match="rules 'yacht': not a Rules"):
        GameEnv(rules="yacht")  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="reward 'score': not 'points' or 'win'"):
        GameEnv(reward="score")
    with pytest.raises(MalformedInputError, match="render_mode 'human': not None or 'ansi'"):
        GameEnv(render_mode="human")
    assert GameEnv().render() is None


def test_importing_the_library_does_not_import_pettingzoo() -> None:
    code = "import sys, yahtzee_rules; print('pettingzoo' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "False"
