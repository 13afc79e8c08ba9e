"""This library beside the compiled ``yatzy-solver`` (Rust), figure by figure, in one run.

Run: ``python benchmarks/bench_peer.py`` (``--quick`` for fewer rounds; ``--markdown
docs/explanation/performance.md`` rewrites the page's peer table). It needs the
``bench`` dependency group (``pip install --group bench``), and builds the peer's
Classic table (forced Joker: ``american+forced-joker``) in memory first, which takes
15 to 50 seconds.

Our figures are measured in fresh interpreters on the *default path*: a cached value
table (built once into ``--cache``) and nothing else prepared, no decision table; the
peer's in this process, between our rounds, so both meet the same machine load. What
is printed is the best round of each and the ratio between them:

* advice on a card not seen before: :func:`~yahtzee_rules.bots.solver.best_action`
  on the first turns of distinct cards met in greedy play, against the peer's
  ``Solver.best_action`` on the same situations (it answers every one from its value
  table); the ratio is our time over the peer's (target at most 3);
* the first ``best_action`` of a fresh process (target under 50 ms);
* optimal games through the public game API, ``simulate(OptimalStrategy())``, 300
  games (under the 1,000 from which ``simulate`` builds a decision table), against the
  peer's optimal ``Solver.simulate`` (target at least 5,000 games a second);
* random games through ``Game`` (``benchmarks/bench.py``'s: three rolls, a random keep
  of the dice showing, a random legal box) against random games through the peer's
  rules engine (``Variant.legal_actions``, ``apply_keep``, ``apply_score``: a random
  legal keep twice, a random legal box) and, lighter, through its ``Game`` score card
  (dice thrown in Python, half of them held at random, the first open box the peer
  takes); the ratio is our rate over the peer's (target at least 1.5);
* the scoring pass, every box for every roll, through ``score`` and the peer's
  ``Variant.score``; the ratio is our time over the peer's (target at most 0.5).

Where ``valgrind`` is installed, the random games are also counted in machine
instructions (callgrind: 200 games after 30 to warm up, less a run of the warm-up
alone), a figure that the load of a shared machine cannot move; timings there move by
up to 2x between runs minutes apart.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _markdown import write_figures
from _timing import best_of

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
if SRC.is_dir():
    sys.path.insert(0, str(SRC))

import bench  # noqa: E402

from yahtzee_rules import Dice, GreedyStrategy, Scorecard, Turn  # noqa: E402

#: The peer's name of each Classic box, in card order.
PEER_BOXES = [
    *("ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind"),
    *("four_of_a_kind", "full_house", "small_straight", "large_straight"),
    *("five_of_a_kind", "chance"),
]

# Our figures, in a fresh interpreter on the default path, printed as JSON.
WORKER = r"""
import json, random, sys, time
started = time.perf_counter()
from yahtzee_rules import OptimalStrategy, simulate
from yahtzee_rules.bots.solver import Table, best_action, load_table
sys.path.insert(0, sys.argv[2])
from bench_peer import sample_turns
table = load_table()
loaded = time.perf_counter() - started
if sys.argv[1] == "0":  # the table built into the cache before any round is measured
    print(json.dumps({}))
    sys.exit()
turns = sample_turns(int(sys.argv[1]))
fresh = Table(table.values, rules=table.rules)
fresh._decisions = False  # the default path: no decision table, even a cached one
started = time.perf_counter()
best_action(turns[0], fresh)
first = time.perf_counter() - started
started = time.perf_counter()
for turn in turns[1:]:
    best_action(turn, fresh)
unseen = (time.perf_counter() - started) / (len(turns) - 1)
games = Table(table.values, rules=table.rules)
games._decisions = False
played = simulate(OptimalStrategy(games), games=300, seed=1)
print(json.dumps({"load_s": loaded, "first_ms": first * 1e3, "unseen_us": unseen * 1e6,
                  "games_per_s": played.games_per_second}))
"""


def sample_turns(count: int, seed: int = 1) -> list[Turn]:
    """First turns of distinct cards met in greedy play, with the first roll showing."""
    rng = random.Random(seed)
    greedy = GreedyStrategy()
    turns: list[Turn] = []
    seen: set[tuple[int | None, ...]] = set()
    while len(turns) < count:
        card = Scorecard()
        while not card.is_complete and len(turns) < count:
            turn = Turn(card).roll(rng)
            if card.boxes not in seen:
                seen.add(card.boxes)
                turns.append(turn)
            card = turn.fill(greedy.choose_box(turn, rng))
    return turns


def peer_situation(turn: Turn) -> str:
    """The peer's notation of a Classic turn: dice, rerolls left, capped upper, filled."""
    card = turn.card
    upper = min(sum(points or 0 for points in card.boxes[:6]), 63)
    filled = ",".join(PEER_BOXES[c] for c, points in enumerate(card.boxes) if points is not None)
    dice = " ".join(str(face) for face in turn.dice.faces) if turn.dice else ""
    text = f"dice {dice} | rolls {turn.rolls_left} | upper {upper} | filled {filled or '-'}"
    return text + (" | five_of_a_kind 50" if card.boxes[11] == 50 else "")


def ours(count: int, cache: Path) -> dict[str, float]:
    """Our default-path figures from a fresh process, on ``count`` sample turns; with
    ``count`` 0, only the table loaded (built into ``cache`` if it is not there)."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "YAHTZEE_RULES_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(count), str(HERE)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def peer_engine_game(variant: Any, rng: random.Random) -> int:
    """A random game through the peer's rules engine: legal keeps twice, a legal box."""
    state, total = "upper 0 | filled -", 0
    for _ in range(13):
        situation = variant.start_turn(state, [rng.randint(1, 6) for _ in range(5)])
        for _ in range(2):
            keeps = [a for a in variant.legal_actions(situation) if a.startswith("keep")]
            held = [int(f) for f in rng.choice(keeps).split()[1:] if f != "-"]
            thrown = [rng.randint(1, 6) for _ in range(5 - len(held))]
            situation = variant.apply_keep(situation, held, thrown)
        boxes = [a for a in variant.legal_actions(situation) if a.startswith("score")]
        dice = [int(f) for f in situation.split("|")[0].split()[1:]]
        state, points = variant.apply_score(state, dice, rng.choice(boxes).split()[1])
        total += points
    return total


def peer_card_game(ys: Any, variant: Any, rng: random.Random) -> int:
    """A random game on the peer's ``Game`` score card: dice thrown here, half held at
    random, the first open box in a random order that the peer takes."""
    game = ys.Game(variant)
    while not game.is_over:
        dice = [rng.randint(1, 6) for _ in range(5)]
        for _ in range(2):
            held = [d for d in dice if rng.random() < 0.5]
            dice = held + [rng.randint(1, 6) for _ in range(5 - len(held))]
        boxes = [c for c in PEER_BOXES if game.points(c) is None]
        rng.shuffle(boxes)
        for box in boxes:
            try:
                game.score(dice, box)
                break
            except Exception:  # a box the peer refuses now: the next
                continue
    return int(game.total)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and cards")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per figure")
    parser.add_argument("--markdown", type=Path, help="also write the figures into this page")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "yahtzee_rules_bench_cache",
        help="table cache directory, kept between runs",
    )
    args = parser.parse_args(argv)
    if importlib.util.find_spec("yatzy_solver") is None:
        print("(yatzy-solver not installed: pip install --group bench to compare)")
        return
    import yatzy_solver as ys

    rounds = args.rounds or (2 if args.quick else 3)
    count = 300 if args.quick else 1000
    args.cache.mkdir(parents=True, exist_ok=True)
    variant = ys.Variant("american+forced-joker")
    started = time.perf_counter()
    solver = ys.Solver.build(variant)
    print(f"the peer's table: built in {time.perf_counter() - started:.1f} s")
    situations = [peer_situation(turn) for turn in sample_turns(count)]
    rolls = [list(d.faces) for d in Dice.all()]

    def peer_pass() -> None:
        for dice in rolls:
            for box in PEER_BOXES:
                variant.score(box, dice)

    rng = random.Random(2026)
    games = 100 if args.quick else 300
    figures: dict[str, list[float]] = {}

    def keep(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    measures: list[tuple[str, Callable[[], float]]] = [
        ("peer_unseen_us", lambda: 1e6 * best_of(1, 1, lambda: _all(solver, situations))),
        ("peer_games_per_s", lambda: _peer_optimal(solver, 2000 if args.quick else 5000)),
        ("random_us", lambda: 1e6 * best_of(3, games, lambda: bench.random_game(rng))),
        ("peer_engine_us", lambda: 1e6 * best_of(3, games // 3, lambda: _engine(variant, rng))),
        ("peer_card_us", lambda: 1e6 * best_of(3, games, lambda: peer_card_game(ys, variant, rng))),
        ("score_pass_us", lambda: 1e6 * best_of(3, 20, bench.score_pass)),
        ("peer_pass_us", lambda: 1e6 * best_of(3, 20, peer_pass)),
    ]
    # No round measures a table build: a process that built the table has everything
    # the first advice needs warm, and its first call is not the default path's.
    ours(0, args.cache)
    for _ in range(rounds):
        for key, value in ours(count, args.cache).items():
            keep(key, value)
        for key, measure in measures:
            keep(key, measure())
    best = {k: (max(v) if k.endswith("per_s") else min(v)) for k, v in figures.items()}
    best["peer_unseen_us"] /= len(situations)
    header = f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; best of {rounds} rounds"
    rows = [
        (
            "Advice on a card not seen before, default path (us)",
            "unseen_us",
            "peer_unseen_us",
            "ours / peer <= 3",
            False,
        ),
        (
            "simulate(OptimalStrategy()), default path (games/s)",
            "games_per_s",
            "peer_games_per_s",
            ">= 5,000 games/s",
            True,
        ),
        (
            "Random games through Game vs the peer's rules engine (us a game)",
            "random_us",
            "peer_engine_us",
            "peer / ours >= 1.5",
            False,
        ),
        (
            "Random games through Game vs the peer's score card (us a game)",
            "random_us",
            "peer_card_us",
            "peer / ours >= 1.5",
            False,
        ),
        (
            "Scoring pass, 13 boxes x 252 rolls (us)",
            "score_pass_us",
            "peer_pass_us",
            "ours / peer <= 0.5",
            False,
        ),
    ]
    table = [
        "| Figure | This library | yatzy-solver | Ratio | Target |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    print(header)
    for label, mine, theirs, target, rate in rows:
        ratio = best[mine] / best[theirs]
        if rate:
            ratio_text = f"{best[mine]:,.0f} games/s ({ratio:.2f}x the peer's)"
        elif "peer / ours" in target:
            ratio_text = f"{1 / ratio:.2f}x the peer's rate"
        else:
            ratio_text = f"{ratio:.2f}x the peer's time"
        print(f"{label}: {best[mine]:,.1f} beside {best[theirs]:,.1f}; {ratio_text} ({target})")
        table.append(
            f"| {label} | {best[mine]:,.1f} | {best[theirs]:,.1f} | {ratio_text} | {target} |"
        )
    notes = [
        f"Measured with {header}; yatzy-solver {getattr(ys, 'SOLVER_VERSION', '?')}.",
        f"First best_action of a fresh process, default path: {best['first_ms']:.1f} ms "
        f"(target under 50 ms); load_table() before it: {best['load_s']:.2f} s.",
        "The peer's optimal games run on every core (its own parallel simulator).",
    ]
    ours_count, peer_count = instructions_per_game("ours"), instructions_per_game("peer")
    if ours_count is not None and peer_count is not None:
        notes.append(
            f"Random games in machine instructions (callgrind, 200 games): "
            f"{ours_count / 1e6:.3f}M a game through Game, {peer_count / 1e6:.3f}M on the "
            f"peer's score card: {peer_count / ours_count:.2f}x its rate by this measure."
        )
    else:
        notes.append("(valgrind not installed: no instruction counts)")
    for line in notes:
        print(line)
    if args.markdown:
        write_figures(args.markdown, [*table, "", *(f"* {n}" for n in notes)], "peer figures")


#: One process's random games, for callgrind: ``argv`` names the library (ours or the
#: peer's) and the number of games counted after 30 that warm up.
COUNTED = r"""
import random, sys
sys.path[:0] = [sys.argv[3], sys.argv[4]]
import bench, bench_peer
which, games = sys.argv[1], int(sys.argv[2])
if which == "ours":
    play = bench.random_game
else:
    import yatzy_solver as ys
    variant = ys.Variant("american+forced-joker")
    def play(rng):
        return bench_peer.peer_card_game(ys, variant, rng)
rng = random.Random(7)
for _ in range(30):
    play(rng)
rng = random.Random(2026)
for _ in range(games):
    play(rng)
"""


def instructions_per_game(which: str, games: int = 200) -> float | None:
    """Machine instructions a random game takes (``ours`` or ``peer``), by callgrind:
    a run of ``games`` after the warm-up, less a run of the warm-up alone. None without
    valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    counts = []
    for count in (games, 0):
        command = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable]
        done = subprocess.run(
            [*command, "-c", COUNTED, which, str(count), str(HERE), str(SRC)],
            capture_output=True,
            text=True,
            check=True,
        )
        found = re.search(r"Collected : ([0-9,]+)", done.stderr)
        if found is None:
            return None
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[0] - counts[1]) / games


def _all(solver: Any, situations: list[str]) -> None:
    for situation in situations:
        solver.best_action(situation)


def _peer_optimal(solver: Any, games: int) -> float:
    started = time.perf_counter()
    solver.simulate(games, seed=1)
    return games / (time.perf_counter() - started)


def _engine(variant: Any, rng: random.Random) -> int:
    return peer_engine_game(variant, rng)


if __name__ == "__main__":
    main()
