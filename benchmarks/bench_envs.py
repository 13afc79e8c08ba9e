"""The environments' step, beside a bare ``Turn.roll`` and ``Turn.fill``: printed, never asserted.

Run: ``python benchmarks/bench_envs.py`` (``--quick`` for fewer games), or as part
of ``benchmarks/bench.py``. Target (2-core machine): a step of the Gymnasium
environment (:class:`yahtzee_rules.integrations.rl.SolitaireEnv`) under 20 us. Each game's
actions are chosen once by a random legal policy and then replayed from the same
seed, so only ``step`` is timed (not the policy, not ``reset``). Needs NumPy and
Gymnasium; PettingZoo's environment is timed when PettingZoo is installed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from _timing import best_of

from yahtzee_rules import Category, Game, Keep, Turn


def _games(make: Callable[[], Any], games: int, multi: bool) -> list[list[int]]:
    """The actions of ``games`` games (seeds 0, 1, ...) chosen by a random legal policy."""
    import numpy as np

    chooser = np.random.default_rng(0)
    played = []
    env = make()
    for seed in range(games):
        actions = []
        if multi:
            env.reset(seed=seed)
            while env.agents:
                observation, _, done, _, _ = env.last()
                action = None
                if not done:
                    action = int(chooser.choice(np.flatnonzero(observation["action_mask"])))
                    actions.append(action)
                env.step(action)
        else:
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                action = int(chooser.choice(np.flatnonzero(info["action_mask"])))
                actions.append(action)
                _, _, done, _, info = env.step(action)
        played.append(actions)
    return played


def _per_step(make: Callable[[], Any], played: list[list[int]], repeats: int) -> float:
    """The best, over ``repeats`` runs, of the mean time of one ``step`` replaying ``played``."""
    env = make()
    steps = sum(len(actions) for actions in played)
    best = float("inf")
    for _ in range(repeats):
        spent = 0.0
        for seed, actions in enumerate(played):
            env.reset(seed=seed)
            step = env.step
            start = time.perf_counter()
            for action in actions:
                step(action)
            spent += time.perf_counter() - start
        best = min(best, spent / steps)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args(argv)
    repeats, games = (3, 20) if args.quick else (5, 100)
    try:
        import gymnasium

        from yahtzee_rules.integrations.rl import ENV_ID, SolitaireEnv
    except ImportError:
        print("(the environments need NumPy and Gymnasium: skipped)")
        return

    rng = random.Random(0)
    sixes = Keep("66")
    rolled = Turn().roll(outcome="13366")
    print("environment step (random legal games replayed; the policy is not timed)")
    print(
        f"  Turn.roll (bare, one reroll)  {best_of(repeats, 20_000, lambda: rolled.roll(rng, keep=sixes)) * 1e6:6.2f} us"
    )
    print(
        f"  Turn.fill (bare, Chance)      {best_of(repeats, 20_000, lambda: rolled.fill(Category.CHANCE)) * 1e6:6.2f} us"
    )
    game = Game.new(1).roll(outcome="13366")
    print(
        f"  Game.roll (one reroll)        {best_of(repeats, 20_000, lambda: game.roll(rng, keep=sixes)) * 1e6:6.2f} us"
    )
    played = _games(SolitaireEnv, games, multi=False)
    solo = _per_step(SolitaireEnv, played, repeats)
    print(f"  SolitaireEnv.step             {solo * 1e6:6.2f} us (target < 20 us)")
    wrapped = _per_step(lambda: gymnasium.make(ENV_ID), played, repeats)
    print(f"  gymnasium.make(...).step      {wrapped * 1e6:6.2f} us (with Gymnasium's wrappers)")
    try:
        from yahtzee_rules.integrations.zoo import GameEnv
    except ImportError:
        print("  (PettingZoo is not installed: its environment is skipped)")
        return
    played = _games(lambda: GameEnv(players=2), max(games // 2, 1), multi=True)
    multi = _per_step(lambda: GameEnv(players=2), played, repeats)
    print(
        f"  zoo.GameEnv.step, 2 players   {multi * 1e6:6.2f} us (observations are built by last())"
    )


if __name__ == "__main__":
    main()
