"""The Gymnasium environment: Gymnasium's checker, masks, rewards and seeding."""

from __future__ import annotations

import subprocess
import sys

import pytest

from yahtzee_rules import Game, Rules, totals
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from yahtzee_rules.integrations.rl import ENV_ID, InvalidActionError, SolitaireEnv  # noqa: E402

RULESETS = [
    Rules(),
    Rules(joker="free-choice"),
    Rules(joker="none", yahtzee_bonus=0),
    Rules.from_name("yacht"),
    Rules.from_name("yatzy"),
]


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_gymnasiums_checker_passes(rules: Rules) -> None:
    check_env(gymnasium.make(ENV_ID, rules=rules).unwrapped)
    check_env(gymnasium.make(ENV_ID, rules=rules, render_mode="ansi").unwrapped)


def _play(env: SolitaireEnv, seed: int) -> tuple[float, int, list[int]]:
    """A random legal policy: the rewards' sum, the steps, and the actions taken."""
    chooser = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, steps, actions = 0.0, 0, []
    terminated = False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        action = int(chooser.choice(legal))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        assert observation in env.observation_space
        total += reward
        steps += 1
    assert not info["action_mask"].any()
    return total, steps, actions


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name)
def test_the_rewards_add_up_to_the_final_total(rules: Rules) -> None:
    env = SolitaireEnv(rules)
    for seed in range(5):
        total, _, actions = _play(env, seed)
        card = env._game.cards[0]
        assert card.is_complete
        assert total == totals(card, rules=rules).grand_total
        assert sum(a >= 32 for a in actions) == len(rules.card)


def test_bonuses_are_paid_in_the_reward() -> None:
    env = SolitaireEnv()
    env.reset(seed=0)
    # only Aces open, 60 in the upper boxes and 50 in Yahtzee; five 1s showing
    env._game = Game.parse(
        "forced 0 player 2=6,3=9,4=12,5=15,6=18,3k=0,4k=0,fh=0,ss=0,ls=0,y=50,c=20 11111@1"
    )
    _, reward, terminated, _, info = env.step(32)
    assert reward == 5 + 35 + 100  # Aces, the upper bonus, the Yahtzee bonus
    assert terminated
    assert not info["action_mask"].any()


def test_a_seed_repeats_the_game() -> None:
    env = SolitaireEnv()
    assert _play(env, 7) == _play(env, 7)
    assert _play(env, 7)[2] != _play(env, 8)[2]


def test_the_mask_follows_the_turn() -> None:
    env = SolitaireEnv()
    _, info = env.reset(seed=2)
    assert info["action_mask"][:32].all()
    for _ in range(2):
        _, reward, _, _, info = env.step(0)  # roll all five again
        assert reward == 0.0
    assert not info["action_mask"][:32].any()  # no rolls left: only boxes
    assert info["action_mask"][32:].all()  # an empty card: every box open
    with pytest.raises(IllegalActionError, match="action 5: not legal now"):
        env.step(5)
    with pytest.raises(InvalidActionError, match="action -1: outside the action space"):
        env.step(-1)


def test_holding_keeps_the_dice_held() -> None:
    env = SolitaireEnv()
    observation, _ = env.reset(seed=4)
    held = observation["dice"][[0, 2]].tolist()
    observation, *_ = env.step(0b00101)
    after = observation["dice"].tolist()
    for face in held:
        after.remove(face)
    assert int(observation["rolls_left"]) == 1


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="rules 'yacht': not a Rules"):
        SolitaireEnv("yacht")  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="render_mode 'human': not None or 'ansi'"):
        SolitaireEnv(render_mode="human")


def test_importing_the_library_does_not_import_gymnasium() -> None:
    code = "import sys, yahtzee_rules; print('gymnasium' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "False"


@pytest.mark.parametrize(
    "rules",
    [*RULESETS, Rules.from_name("forced-yatzy"), Rules.from_name("triple")],
    ids=lambda r: r.name,
)
def test_the_cached_masks_are_the_rules_own(rules: Rules) -> None:
    # Holding the most common face makes five of a kind (the Joker's masks) often.
    env = SolitaireEnv(rules)
    boxes = rules.card.members
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            turn = env._game.turn
            assert turn is not None
            expected = [int(bool(turn.rolls_left))] * 32 + [box in turn.options for box in boxes]
            assert info["action_mask"].tolist() == expected
            dice = observation["dice"].tolist()
            face = max(set(dice), key=dice.count)
            if turn.rolls_left and dice.count(face) < 5:
                action = sum(1 << i for i, d in enumerate(dice) if d == face)
            else:
                legal = np.flatnonzero(info["action_mask"][32:])
                action = 32 + int(legal[0])
            observation, _, terminated, _, info = env.step(action)


@pytest.mark.parametrize("rules", RULESETS[:3], ids=lambda r: r.name)
@pytest.mark.parametrize("card", ["y=50", "y=0", "4=12,y=50", "4=12,3k=20,4k=0,fh=0,y=50"])
@pytest.mark.parametrize("progress", ["44444@1", "44444@3", "44445@3"])
def test_the_cached_masks_follow_the_joker(rules: Rules, card: str, progress: str) -> None:
    env = SolitaireEnv(rules)
    env.reset(seed=0)
    header = str(Game.new(["player"], rules=rules))
    env._game = Game.parse(f"{header} {card} {progress}")
    turn = env._game.turn
    assert turn is not None
    expected = [int(bool(turn.rolls_left))] * 32 + [box in turn.options for box in rules.card]
    assert env.action_mask().tolist() == expected
