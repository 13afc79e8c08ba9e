"""Speed and memory of the solver toolkit: table build, cache reload, advice, simulation.

Run with ``python benchmarks/bench_solver.py`` (add ``--quick`` for a shorter run).
Every figure is printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
if SRC.is_dir():
    sys.path.insert(0, str(SRC))

from yahtzee_rules import (  # noqa: E402
    GreedyStrategy,
    JokerRule,
    OptimalStrategy,
    Rules,
    Scorecard,
    Turn,
    simulate,
)
from yahtzee_rules.bots.solver import (  # noqa: E402
    Table,
    advise,
    best_action,
    load_decisions,
    load_table,
    simulate_optimal,
)

BUILD_SCRIPT = """
import inspect, json, resource, sys, time
sys.path.insert(0, {src!r})
from yahtzee_rules import Rules
from yahtzee_rules.bots.solver import build_table
rules = Rules.from_name({name!r})
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
key = "workers" if "workers" in inspect.signature(build_table).parameters else "threads"
table = build_table(rules=rules, **{{key: {threads}}})
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"seconds": seconds, "peak_kib": peak, "baseline_kib": baseline,
                  "value": table.value(table.start)}}))
"""


def build_in_subprocess(rules: Rules, threads: int) -> dict[str, float]:
    """Build a table in a fresh interpreter: wall time and the process's peak RSS."""
    script = BUILD_SCRIPT.format(src=str(SRC), name=rules.name, threads=threads)
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, float] = json.loads(output)
    return result


def sample_turns(count: int, seed: int) -> list[Turn]:
    """Turns met in greedy play: varied cards, dice and rolls left."""
    rng = random.Random(seed)
    greedy = GreedyStrategy()
    turns: list[Turn] = []
    while len(turns) < count:
        card = Scorecard()
        while not card.is_complete and len(turns) < count:
            turn = Turn(card).roll(rng)
            while True:
                turns.append(turn)
                keep = greedy.choose_keep(turn, rng) if turn.rolls_left else None
                if keep is None:
                    break
                turn = turn.roll(rng, keep=keep)
            card = turn.fill(greedy.choose_box(turn, rng))
    return turns


def per_query(turns: list[Turn], table: Table, repeats: int) -> float:
    """Microseconds per best_action over ``turns`` (all seen once before)."""
    for turn in turns:
        best_action(turn, table)
    started = time.perf_counter()
    for _ in range(repeats):
        for turn in turns:
            best_action(turn, table)
    return (time.perf_counter() - started) / (repeats * len(turns)) * 1e6


def resident_mib() -> str:
    """The process's resident memory now: private (anonymous) and mapped from files, in MiB."""
    try:
        with open("/proc/self/status") as stream:
            fields = dict(line.split(":", 1) for line in stream if line.startswith("Rss"))
    except OSError:
        return "RSS not available"
    anon, mapped = (int(fields[k].split()[0]) / 1024 for k in ("RssAnon", "RssFile"))
    return f"RSS {anon:.0f} MiB private + {mapped:.0f} MiB mapped files"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and games")
    parser.add_argument(
        "--only-play", action="store_true", help="skip the table builds: advice and simulation"
    )
    args = parser.parse_args()
    games = 20_000 if args.quick else 100_000
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")

    print("\n== table build (fresh process each) ==")
    if args.only_play:
        print("(skipped: --only-play)")
    rulesets = (
        [Rules(), Rules.from_name("yacht")]
        if args.quick
        else [
            Rules(),
            Rules(joker=JokerRule.FREE_CHOICE),
            Rules(joker=JokerRule.NONE),
            Rules(joker=JokerRule.NONE, yahtzee_bonus=0),
            Rules.from_name("yacht"),
        ]
    )
    for rules in [] if args.only_play else rulesets:
        for threads in (1, 2):
            figures = build_in_subprocess(rules, threads)
            print(
                f"{rules.name:28s} workers={threads}: {figures['seconds']:6.2f} s, "
                f"peak RSS {figures['peak_kib'] / 1024:6.1f} MiB "
                f"(interpreter and imports {figures['baseline_kib'] / 1024:5.1f} MiB), "
                f"empty card {figures['value']:.7f}"
            )

    print("\n== cache ==")
    with tempfile.TemporaryDirectory() as directory:
        os.environ["YAHTZEE_RULES_CACHE_DIR"] = directory
        started = time.perf_counter()
        table = load_table()
        print(f"first load (build and save): {time.perf_counter() - started:.2f} s")
        size = sum(p.stat().st_size for p in Path(directory).iterdir())
        print(f"file size: {size / 2**20:.1f} MiB")
        reloads = []
        for _ in range(5 if args.quick else 20):
            started = time.perf_counter()
            load_table()
            reloads.append(time.perf_counter() - started)
        print(
            f"reload: median {statistics.median(reloads) * 1000:.1f} ms, "
            f"max {max(reloads) * 1000:.1f} ms"
        )
        del os.environ["YAHTZEE_RULES_CACHE_DIR"]

    print("\n== advice: per-turn tables (baseline) and the decision table ==")
    turns = sample_turns(2000 if args.quick else 5000, seed=1)
    cards = {t.card.boxes for t in turns}
    plain = Table(table.values, rules=table.rules)
    plain._decisions = False  # never looks for a decision table: the per-turn tables
    started = time.perf_counter()
    for turn in turns:
        best_action(turn, plain)  # first sight of each card computes its turn tables
    cold = time.perf_counter() - started
    print(
        f"{len(turns)} turns on {len(cards)} distinct cards; first pass {cold:.2f} s "
        f"({cold / len(cards) * 1e6:.1f} us per new card)"
    )
    repeats = 20 if args.quick else 100
    # turns on the first 1,000 cards: all within the per-turn cache (1,024 cards)
    kept = set(list(dict.fromkeys(t.card.boxes for t in turns))[:1000])
    warm = [t for t in turns if t.card.boxes in kept]
    seen = per_query(warm, plain, repeats)
    print(f"best_action, card seen before: {seen:.2f} us per query (per-turn tables)")
    started = time.perf_counter()
    for turn in turns:
        advise(turn, plain)
    per_advice = (time.perf_counter() - started) / len(turns)
    print(f"advise (every option, sorted): {per_advice * 1e6:.1f} us per turn")
    baseline_games = 30 if args.quick else 100
    baseline = simulate(OptimalStrategy(plain), games=baseline_games, seed=1)
    print(
        f"simulate(OptimalStrategy()) through the per-turn tables, {baseline_games} games: "
        f"{baseline.games_per_second:,.1f} games/s"
    )

    with tempfile.TemporaryDirectory() as directory:
        os.environ["YAHTZEE_RULES_CACHE_DIR"] = directory
        decided = Table(table.values, rules=table.rules)
        rss = resident_mib()
        started = time.perf_counter()
        decisions = load_decisions(decided)
        built = time.perf_counter() - started
        assert decisions.path is not None
        size = decisions.path.stat().st_size + decisions.path.with_suffix(".npz").stat().st_size
        print(
            f"decision table: built and saved in {built:.1f} s ({decisions.states:,} states, "
            f"{decisions.nbytes / 2**20:.0f} MiB of decisions, files {size / 2**20:.0f} MiB); "
            f"{rss} before, {resident_mib()} after (mapped)"
        )
        reloads = []
        for _ in range(3 if args.quick else 10):
            fresh = Table(table.values, rules=table.rules)
            started = time.perf_counter()
            load_decisions(fresh)
            reloads.append(time.perf_counter() - started)
        print(
            f"decision table reload (key with a digest of the values, then mapped): "
            f"median {statistics.median(reloads) * 1000:.1f} ms"
        )
        firsts = list({t.card.boxes: t for t in turns if t.dice is not None}.values())
        passes = []
        for _ in range(5 if args.quick else 20):
            decisions._decided.seen.clear()  # every card new to it
            started = time.perf_counter()
            for turn in firsts:
                best_action(turn, decided)
            passes.append((time.perf_counter() - started) / len(firsts))
        new_card = statistics.median(passes) * 1e6
        seen_decided = per_query(warm, decided, repeats)
        print(
            f"best_action, card not seen before: {new_card:.2f} us per query "
            f"(baseline {cold / len(cards) * 1e6:.1f} us: {cold / len(cards) * 1e6 / new_card:.0f}x)"
        )
        print(
            f"best_action, card seen before: {seen_decided:.2f} us per query "
            f"(baseline {seen:.2f} us)"
        )
        public_games = 5_000 if args.quick else 20_000
        rss = resident_mib()
        public = simulate(OptimalStrategy(decided), games=public_games, seed=1)
        print(
            f"simulate(OptimalStrategy()) with the decision table, {public_games} games: "
            f"{public.games_per_second:,.0f} games/s (baseline {baseline.games_per_second:,.1f}: "
            f"{public.games_per_second / baseline.games_per_second:.0f}x), mean {public.mean:.2f}; "
            f"{rss} before, {resident_mib()} after"
        )
        del os.environ["YAHTZEE_RULES_CACHE_DIR"]

    print("\n== simulation ==")
    result = simulate_optimal(table, games=games, seed=2026)
    print(
        f"batched optimal solitaire, {games} games: {result.games_per_second:,.0f} games/s, "
        f"mean {result.mean:.3f} +- {result.stderr:.3f} (SE), sd {result.std:.2f}, "
        f"min {result.minimum}, max {result.maximum}; "
        f"(mean - 254.5877287) / SE = {(result.mean - 254.5877287) / result.stderr:+.2f}"
    )
    yacht = load_table(rules=Rules.from_name("yacht"), cache=False)
    result = simulate_optimal(yacht, games=games, seed=2026)
    print(
        f"batched optimal Yacht, {games} games: {result.games_per_second:,.0f} games/s, "
        f"mean {result.mean:.3f} +- {result.stderr:.3f} (SE); "
        f"(mean - {yacht.value(yacht.start):.7f}) / SE = "
        f"{(result.mean - yacht.value(yacht.start)) / result.stderr:+.2f}"
    )
    greedy = simulate(GreedyStrategy(), games=500 if args.quick else 2000, seed=1)
    print(f"greedy through Game: {greedy.games_per_second:,.0f} games/s, mean {greedy.mean:.1f}")


if __name__ == "__main__":
    main()
