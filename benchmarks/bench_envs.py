"""The environments' step, beside a bare ``Turn.roll`` and ``Turn.fill``: printed, never asserted.

Run: ``python benchmarks/bench_envs.py`` (``--quick`` for fewer games), or as part
of ``benchmarks/bench.py``. Target (2-core machine): a step of the Gymnasium
environment (:class:`yahtzee_rules.integrations.rl.SolitaireEnv`) under 20 us. Each game's
actions are chosen once by a random legal policy and then replayed from the same
seed, so only ``step`` is timed (not the policy, not ``reset``). Needs NumPy and
Gymnasium; PettingZoo's environment is timed when PettingZoo is installed.

The batched environment (:class:`yahtzee_rules.integrations.vector.SolitaireVectorEnv`)
plays 4,096 games under a random masked policy (each game's action uniform among its
legal ones); the figures are game steps a second, of ``step`` alone and with the
policy's time included, beside ``SyncVectorEnv`` over ``SolitaireEnv`` on the same
number of games in the same run. Target: at least 1,000,000 steps a second (NumPy runs
it on one core). :func:`~yahtzee_rules.integrations.vector.optimal_actions` is timed on
the batch's observations with Yacht's table (built here: no cache is read or written).
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


def _masked_random(chooser: Any, mask: Any) -> Any:
    """A random legal action for every game: uniform among the legal ones (from the mask)."""
    import numpy as np

    counts = np.cumsum(mask, axis=1, dtype=np.int16)
    pick = (chooser.random(len(mask)) * counts[:, -1]).astype(np.int16)
    return (counts <= pick[:, None]).sum(axis=1)


def _batched(make: Callable[[], Any], steps: int, games: int) -> tuple[float, float, float, float]:
    """Game steps a second of ``make()``'s vector env: ``step`` alone, with the policy,
    and the same two per second of this process's CPU time (what a loaded machine
    leaves to it)."""
    import numpy as np

    envs = make()
    chooser = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    stepping = cpu = 0.0
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        actions = _masked_random(chooser, info["action_mask"])
        before, before_cpu = time.perf_counter(), time.process_time()
        _, _, _, _, info = envs.step(actions)
        stepping += time.perf_counter() - before
        cpu += time.process_time() - before_cpu
    total, total_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    done = steps * games
    return done / stepping, done / total, done / max(cpu, 1e-9), done / max(total_cpu, 1e-9)


def _vector(quick: bool) -> None:
    import numpy as np
    from gymnasium.vector import SyncVectorEnv

    from yahtzee_rules import Rules
    from yahtzee_rules.bots.solver import build_table
    from yahtzee_rules.integrations.rl import SolitaireEnv
    from yahtzee_rules.integrations.vector import SolitaireVectorEnv, optimal_actions

    games = 4096
    steps = 100 if quick else 400
    print(f"batched environment, {games:,} games, random masked policy (game steps a second)")
    native = max(
        (_batched(lambda: SolitaireVectorEnv(num_envs=games), steps, games) for _ in range(3)),
        key=lambda pair: pair[0],
    )
    sync = _batched(lambda: SyncVectorEnv([SolitaireEnv] * games), 3 if quick else 10, games)
    for name, (alone, with_policy, alone_cpu, with_policy_cpu) in (
        ("SolitaireVectorEnv.step    ", native),
        ("SyncVectorEnv(SolitaireEnv)", sync),
    ):
        print(
            f"  {name}   {alone:12,.0f} /s  ({with_policy:,.0f} /s with the policy; per "
            f"CPU-second {alone_cpu:,.0f} and {with_policy_cpu:,.0f})"
        )
    print(f"  ratio                         {native[0] / sync[0]:12.1f} x  (step alone)")
    print("  (target: SolitaireVectorEnv at least 1,000,000 game steps a second)")
    yacht = Rules.from_name("yacht")
    table = build_table(rules=yacht)
    envs = SolitaireVectorEnv(num_envs=games, rules=yacht)
    observations, _ = envs.reset(seed=1)
    chooser = np.random.default_rng(1)
    _, info = envs.reset(seed=1)
    for _ in range(5):  # into the game: the batch's states spread out
        observations, _, _, _, info = envs.step(_masked_random(chooser, info["action_mask"]))
    seconds = best_of(3, 5, lambda: optimal_actions(table, observations))
    print(f"  optimal_actions (Yacht)       {games / seconds:12,.0f} games a second")


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
    _vector(args.quick)
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
