"""Game review speed on the default path: a cached value table and nothing else prepared.

Run: ``python benchmarks/bench_review.py`` (``--quick`` for fewer rounds). Each round
starts a fresh interpreter that loads the cached Classic table (``load_table()``, built
once beforehand into ``--cache``, a directory kept between runs), then reviews records
of greedy play, each a different game (so every card is new to the process): the first
review in the process (whatever it sets up included) and the median of the others, for
solitaire records (13 turns) and 4-player ones (the solitaire ones reviewed first). Beside
each, the time to replay the same record through the public API, in the same process.
Targets: a solitaire record in at most 50 ms, a 4-player record in at most 200 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"

WORKER = r"""
import json, random, sys, time
from yahtzee_rules import GameRecord, GreedyStrategy
from yahtzee_rules.bots.solver import load_table, review

def played(players, seed):
    rng = random.Random(seed)
    greedy = GreedyStrategy()
    record = GameRecord.new([f"P{i}" for i in range(players)])
    while not record.game.is_over:
        turn = record.game.turn
        if turn.dice is None:
            record = record.roll(rng)
            continue
        keep = greedy.choose_keep(turn, rng) if turn.rolls_left else None
        record = record.roll(rng, keep=keep) if keep is not None else record.fill(greedy.choose_box(turn, rng))
    return record

repeats = int(sys.argv[1])
records = {
    "solitaire": [played(1, seed) for seed in range(repeats + 1)],
    "4 players": [played(4, 1000 + seed) for seed in range(repeats + 1)],
}
start = time.perf_counter()
table = load_table()
figures = {"load_table": time.perf_counter() - start}
for name, games in records.items():
    times, replays = [], []
    for record in games:  # each a game not seen before: new cards every time
        start = time.perf_counter()
        review(record, table)
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        GameRecord(record.start, record.actions)
        replays.append(time.perf_counter() - start)
    figures[name + " first"] = times[0]
    figures[name] = sorted(times[1:])[len(times[1:]) // 2]
    figures[name + " replay"] = sorted(replays)[len(replays) // 2]
print(json.dumps(figures))
"""

TARGETS = {"solitaire": 0.050, "4 players": 0.200}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "bench-review"))
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(SRC), "YAHTZEE_RULES_CACHE_DIR": args.cache}
    build = "from yahtzee_rules.bots.solver import load_table; load_table()"
    subprocess.run([sys.executable, "-c", build], env=env, check=True)
    rounds, repeats = (2, 3) if args.quick else (5, 10)
    best: dict[str, float] = {}
    for _ in range(rounds):
        out = subprocess.run(
            [sys.executable, "-c", WORKER, str(repeats)],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for name, value in json.loads(out).items():
            best[name] = min(best.get(name, float("inf")), value)
    print(f"Best of {rounds} fresh processes (default path: cached table, nothing prepared)")
    print(f"  load_table()                     {best['load_table'] * 1e3:8.1f} ms")
    for name, target in TARGETS.items():
        replay = best[name + " replay"]
        for label, key in (("first review", name + " first"), ("median review", name)):
            value = best[key]
            print(
                f"  {name:<10} {label:<14} {value * 1e3:8.1f} ms  "
                f"(target {target * 1e3:.0f} ms: {value / target:.2f}x; "
                f"{value / replay:.1f}x the record's replay, {replay * 1e3:.1f} ms)"
            )


if __name__ == "__main__":
    main()
