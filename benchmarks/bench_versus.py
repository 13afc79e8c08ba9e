"""Figures of issue 12, each beside the same figure for a baseline checkout, in one sitting.

Run: ``python benchmarks/bench_versus.py --baseline /path/to/old/src`` (``--quick`` for
fewer rounds). Every figure is measured in a fresh interpreter, this checkout's
``src`` and the baseline's taking turns round after round (so both meet the same
machine load), and the best round of each is printed with the ratio new / baseline.
Without ``--baseline`` only this checkout is measured.

Figures (each in a fresh interpreter). *Default path* means what a new user meets: a
cached value table and nothing else prepared (no decision table, even a cached one);
*prepared* means after :func:`~yahtzee_rules.bots.solver.load_decisions` (its 272 MB
decision table for Classic, built once into the cache and mapped).

* ``import yahtzee_rules``: our own import work, attrs already imported (the
  cumulative ``-X importtime`` figure of the package); target under 20 ms.
* a first turn through :class:`~yahtzee_rules.Game` in a fresh process: importing what
  it needs (attrs already imported), a roll and a fill; what a short-lived command or
  a bot's start pays first.
* the first :func:`~yahtzee_rules.bots.solver.best_action` of a fresh process, default
  path (target under 50 ms).
* best action on a card not seen before and seen before (under 2 us):
  :func:`~yahtzee_rules.bots.solver.best_action` on turns of greedy play, each on a
  distinct card of a fresh :class:`~yahtzee_rules.bots.solver.Table`, default path and
  prepared.
* optimal games through the public game API, ``simulate(OptimalStrategy(table))``
  (target at least 5,000 a second): default path (300 games, under the 1,000 from which
  ``simulate`` builds a decision table itself) and prepared; and the batched simulator.
* the per-turn cache: bytes a table holds per turn-start state, measured with
  :mod:`tracemalloc`, times the number of states the cache keeps.

``benchmarks/bench_peer.py`` sets these figures beside the compiled ``yatzy-solver``'s.

Tables come from ``load_table`` with ``YAHTZEE_RULES_CACHE_DIR`` set to a directory
kept between runs (``--cache``), so each checkout builds its table once.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _markdown import write_figures

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"

# The worker: one figure, measured in a fresh interpreter, printed as JSON. It uses
# the public API only, so that it runs on older checkouts too.
WORKER = r'''
import json, random, sys, time

figure, quick = sys.argv[1], sys.argv[2] == "1"

def sample_turns(count, seed):
    """First turns of distinct cards met in greedy play, with the first roll showing."""
    from yahtzee_rules import GreedyStrategy, Scorecard, Turn
    rng = random.Random(seed)
    greedy = GreedyStrategy()
    turns, seen = [], set()
    while len(turns) < count:
        card = Scorecard()
        while not card.is_complete and len(turns) < count:
            turn = Turn(card).roll(rng)
            if card.boxes not in seen:
                seen.add(card.boxes)
                turns.append(turn)
            card = turn.fill(greedy.choose_box(turn, rng))
    return turns

if figure == "import":
    import subprocess
    best = float("inf")
    for _ in range(5 if quick else 15):
        err = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import attrs; import yahtzee_rules"],
            capture_output=True, text=True, check=True,
        ).stderr
        line = [l for l in err.splitlines() if l.rstrip().endswith("| yahtzee_rules")][-1]
        best = min(best, int(line.split("|")[1]) / 1000)
    print(json.dumps({"ms": best}))
    sys.exit()

if figure == "first_game":
    import subprocess
    first_turn = (
        "import time, attrs; started = time.perf_counter()\n"
        "from yahtzee_rules import Game\n"
        "game = Game.new(1).roll()\n"
        "game.fill(next(iter(game.options)))\n"
        "print(time.perf_counter() - started)"
    )
    best = float("inf")
    for _ in range(5 if quick else 15):
        done = subprocess.run(
            [sys.executable, "-c", first_turn], capture_output=True, text=True, check=True
        )
        best = min(best, float(done.stdout) * 1000)
    print(json.dumps({"ms": best}))
    sys.exit()

import importlib
from yahtzee_rules import OptimalStrategy, simulate
try:  # the solver's home since the modules were grouped by layer, else its old one
    solver = importlib.import_module("yahtzee_rules.bots.solver")
except ImportError:
    solver = importlib.import_module("yahtzee_rules.solver")
Table, best_action, load_table = solver.Table, solver.best_action, solver.load_table
simulate_optimal = solver.simulate_optimal

table = load_table()
if figure == "cached":  # the table built into the cache before any round is measured
    print(json.dumps({}))
    sys.exit()
try:  # the decision table, where the checkout has one: built once into the cache
    load_decisions = solver.load_decisions
except AttributeError:
    load_decisions = None
def default_path(fresh):
    """The default path: a cached value table and nothing else prepared (no decision
    table, even one cached by a prepared figure)."""
    if hasattr(fresh, "_decisions"):
        fresh._decisions = False
    return fresh

if figure in ("advice", "advice_default"):
    turns = sample_turns(300 if quick else 1000, seed=1)
    fresh = Table(table.values, rules=table.rules)
    first = None
    if figure == "advice_default":
        default_path(fresh)
        started = time.perf_counter()  # the first call of this fresh process
        best_action(turns[0], fresh)
        first = (time.perf_counter() - started) * 1e3
        turns = turns[1:]
    elif load_decisions is not None:
        load_decisions(fresh)  # read from the cache and mapped (set-up, not per card)
    started = time.perf_counter()
    for turn in turns:
        best_action(turn, fresh)
    cold = (time.perf_counter() - started) / len(turns)
    warm = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(20):
            for turn in turns:
                best_action(turn, fresh)
        warm = min(warm, (time.perf_counter() - started) / (20 * len(turns)))
    print(json.dumps({"cold_us": cold * 1e6, "warm_us": warm * 1e6, "first_ms": first}))
elif figure == "games_default":
    # under 1,000 games: simulate then plays from the per-turn tables, building nothing
    fresh = default_path(Table(table.values, rules=table.rules))
    public = simulate(OptimalStrategy(fresh), games=100 if quick else 300, seed=1)
    print(json.dumps({"public": public.games_per_second}))
elif figure == "games":
    simulate(OptimalStrategy(Table(table.values, rules=table.rules)), games=20, seed=0)  # warm up
    fresh = Table(table.values, rules=table.rules)
    if load_decisions is not None:
        load_decisions(fresh)
    games = 100 if quick else 400
    public = simulate(OptimalStrategy(fresh), games=games, seed=1)
    batched = simulate_optimal(table, games=20_000 if quick else 100_000, seed=2026)
    print(json.dumps({"public": public.games_per_second, "batched": batched.games_per_second}))
elif figure == "memory":
    import tracemalloc
    turns = sample_turns(300, seed=2)
    fresh = Table(table.values, rules=table.rules)
    if hasattr(fresh, "_decisions"):
        fresh._decisions = False  # the per-turn tables, even with a decision table cached
    best_action(turns[0], fresh)  # per-process set-up, not per state
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for turn in turns[1:]:
        best_action(turn, fresh)
        best_action(turn.roll(random.Random(0), keep=()), fresh)  # a second action
    states = len(fresh._states) - 1  # distinct turn-start states met after the first
    per_state = (tracemalloc.get_traced_memory()[0] - before) / states
    tracemalloc.stop()
    _table = importlib.import_module(solver.__name__ + "._table")
    bound = getattr(_table, "TURN_CACHE", getattr(_table, "_TURN_CACHE", None))
    print(json.dumps({"per_state_kib": per_state / 1024, "states": bound}))
'''


def run(src: Path, figure: str, quick: bool, cache: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src), "YAHTZEE_RULES_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", WORKER, figure, "1" if quick else "0"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


# (figure, key, label, unit, higher is better)
ROWS = [
    ("import", "ms", "import yahtzee_rules (own work on top of attrs)", "ms", False),
    (
        "first_game",
        "ms",
        "a first turn through Game in a fresh process, imports included (on top of attrs)",
        "ms",
        False,
    ),
    (
        "advice_default",
        "first_ms",
        "first best_action in a fresh process, default path",
        "ms",
        False,
    ),
    ("advice_default", "cold_us", "best_action, card not seen before, default path", "us", False),
    ("advice_default", "warm_us", "best_action, card seen before, default path", "us", False),
    ("advice", "cold_us", "best_action, card not seen before, prepared", "us", False),
    ("advice", "warm_us", "best_action, card seen before, prepared", "us", False),
    ("games_default", "public", "simulate(OptimalStrategy()), default path", "games/s", True),
    ("games", "public", "simulate(OptimalStrategy()), prepared", "games/s", True),
    ("games", "batched", "simulate_optimal (batched)", "games/s", True),
    ("memory", "per_state_kib", "per-turn cache, per state (tracemalloc)", "KiB", False),
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="the src directory of a baseline checkout")
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per figure")
    parser.add_argument(
        "--markdown", type=Path, help="also write the figures into this page, between its markers"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "yahtzee_rules_bench_cache",
        help="table cache directory, kept between runs",
    )
    args = parser.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 3)
    args.cache.mkdir(parents=True, exist_ok=True)
    sources = {"new": SRC} | ({"baseline": args.baseline} if args.baseline else {})
    best: dict[tuple[str, str], dict[str, float]] = {}
    for src in sources.values():  # no round measures a table build
        run(src, "cached", args.quick, args.cache)
    for figure in dict.fromkeys(row[0] for row in ROWS):
        for _ in range(rounds):
            for name, src in sources.items():  # alternately, round after round
                result = run(src, figure, args.quick, args.cache)
                for key, value in result.items():
                    if value is None:
                        continue
                    kept = best.setdefault((name, figure), {})
                    higher = next((r[4] for r in ROWS if r[:2] == (figure, key)), False)
                    old = kept.get(key)
                    better = old is None or (value > old if higher else value < old)
                    kept[key] = value if better else old  # type: ignore[assignment]
    header = f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; best of {rounds} rounds"
    print(header)
    print(f"{'figure':62s} {'new':>12s} {'baseline':>12s} {'ratio':>8s}")
    table = ["| Figure | This version | Baseline | Ratio |", "| --- | ---: | ---: | ---: |"]
    for figure, key, label, unit, _higher in ROWS:
        new = best.get(("new", figure), {}).get(key)
        old = best.get(("baseline", figure), {}).get(key)
        shown = f"{new:,.1f}" if new is not None else "-"
        shown_old = f"{old:,.1f}" if old is not None else "-"
        ratio = f"{new / old:.3f}" if new is not None and old else ""
        print(f"{label + ' (' + unit + ')':62s} {shown:>12s} {shown_old:>12s} {ratio:>8s}")
        table.append(f"| {label} ({unit}) | {shown} | {shown_old} | {ratio} |")
    notes = [f"Measured with {header}."]
    for name in sources:
        memory = best.get((name, "memory"), {})
        if memory.get("states"):
            total = memory["per_state_kib"] * memory["states"] / 1024
            line = (
                f"per-turn cache bound, {name}: {int(memory['states'])} states x "
                f"{memory['per_state_kib']:.1f} KiB = {total:.1f} MiB"
            )
            print(line)
            notes.append(line[0].upper() + line[1:] + ".")
    if args.markdown:
        write_figures(args.markdown, [*table, "", *notes])


if __name__ == "__main__":
    main()
