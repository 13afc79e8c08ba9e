"""Speed and memory of score distributions and target tables (printed, never asserted).

Run with ``python benchmarks/bench_distribution.py`` (``--quick`` leaves out the
empty-card runs; ``--rules NAME ...`` picks the rulesets of the empty-card
distributions, Hasbro's free-choice card and Yatzy's by default; ``--full`` adds the
target table for every target up to 300 from the empty card, which takes a long
time; ``--worst N`` ranks every card with 6 open boxes, Classic (forced Joker) and
Yatzy, every subtotal and Yahtzee box they may hold, by the (state, points needed)
pairs its target table reads before it picks the distinct ones, and times the N worst
of each; ``--sample N`` times N of those cards of each, drawn at random; ``--sweep
[N]`` builds every one of them, or N drawn at random, in one process and prints the
slowest by CPU time; ``--advice`` times :func:`advise` with a target and with a
game once the tables exist). Each figure is
measured in a fresh interpreter: wall time, CPU time (this process's threads; a
helper process's time is not counted) and the process's peak RSS, each against its
target. The expected-value tables are built (or read from the cache) before the
clock starts. ``--rounds N`` shows each figure's best of N rounds; ``--baseline
OTHER/src`` measures another checkout in turn, round for round, and prints the ratio;
``--markdown PAGE`` writes the table into the page between its ``target figures``
markers (the performance page).

The late cards timed by ``--quick``: the benchmark card (the first 7 boxes filled
with 0), Classic's Fours, Fives, Sixes, Full House, Yahtzee and Chance open (the
others 0), the card ``--worst`` ranks worst by the columns its table reads (the six
upper boxes open with 50 in the Yahtzee box: extra-Yahtzee bonuses on every turn to
come), and the slowest a ``--sweep`` of every set of 6 open boxes found (Twos to
Fives, Three and Four of a Kind open; 5 in Aces, 24 in Sixes, 50 in the Yahtzee box).

Targets (issue 13, 2 cores): the distribution from the empty card in under 2 minutes
and 2 GiB; the target table up to 300 from the empty card in under 10 minutes and
2 GiB; either for a card with 6 or fewer open boxes in under 1 s; advice for a target
or a win, once the tables exist, in under 1 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from _markdown import write_figures

SRC = Path(__file__).resolve().parents[1] / "src"

SCRIPT = """
import json, resource, sys, time
sys.path.insert(0, {src!r})
from yahtzee_rules import Category, Rules, Scorecard
from yahtzee_rules.bots.solver import load_table, score_distribution, target_table
rules = Rules.from_name({name!r})
open_boxes = {open_boxes!r}
card = Scorecard({{c: 0 for c in list(Category)[: 13 - open_boxes]}}) if open_boxes < 13 else None
points = {points!r}
if points is not None:
    card = Scorecard({{rules.card.members[box]: p for box, p in points}}, card=rules.card)
table = load_table(rules=rules) if card is None else load_table(rules=rules, start=card)
started = time.perf_counter()
cpu = time.process_time()
if {what!r} == "distribution":
    found = score_distribution(card, rules=rules, table=table)
    figure = f"mean {{found.mean:.7f}}, std {{found.std:.4f}}, median {{found.median}}"
else:
    targets = target_table(rules=rules, start=card, maximum={maximum}, cache=False)
    figure = f"P(>= {{targets.maximum}}) {{targets.probability(targets.start, targets.maximum):.7f}}"
seconds = time.perf_counter() - started
cpu = time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"seconds": seconds, "cpu": cpu, "peak_kib": peak, "figure": figure}}))
"""


MIB = 1024


class Figure:
    """One figure: what is built, from which card, and its targets."""

    def __init__(
        self,
        what: str,
        name: str,
        open_boxes: int,
        seconds: float,
        mib: float,
        maximum: int = 300,
        points: list[tuple[int, int]] | None = None,
        label: str | None = None,
    ) -> None:
        self.what, self.name, self.open_boxes = what, name, open_boxes
        self.seconds, self.mib, self.maximum, self.points = seconds, mib, maximum, points
        self.label = label or ("empty card" if open_boxes >= 13 else f"{open_boxes} open boxes")

    def measure(self, src: Path = SRC) -> dict[str, float | str]:
        """The figure in a fresh interpreter running ``src``, with an empty cache."""
        script = SCRIPT.format(
            src=str(src),
            name=self.name,
            open_boxes=self.open_boxes,
            what=self.what,
            maximum=self.maximum,
            points=self.points,
        )
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "YAHTZEE_RULES_CACHE_DIR": cache}
            output = subprocess.run(
                [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
            ).stdout
        result: dict[str, float | str] = json.loads(output)
        return result

    def met(self, result: dict[str, float | str]) -> str:
        peak = float(result["peak_kib"]) / MIB
        return "met" if float(result["seconds"]) < self.seconds and peak < self.mib else "MISSED"

    def line(self, result: dict[str, float | str]) -> str:
        peak = float(result["peak_kib"]) / MIB
        return (
            f"{self.what:12s} {self.name:14s} {self.label:12s}: {result['seconds']:7.2f} s wall "
            f"({result['cpu']:7.2f} s CPU), peak RSS {peak:7.1f} MiB "
            f"[target < {self.seconds:g} s, < {self.mib:g} MiB: {self.met(result)}]; "
            f"{result['figure']}"
        )


def compare(figures: list[Figure], baseline: Path | None, rounds: int) -> list[str]:
    """Each figure's best round here (and for ``baseline``, taking turns); table rows."""
    rows = []
    for figure in figures:
        ours: list[dict[str, float | str]] = []
        theirs: list[dict[str, float | str]] = []
        for _ in range(rounds):
            ours.append(figure.measure())
            if baseline is not None:
                theirs.append(figure.measure(baseline))
        best = min(ours, key=lambda r: float(r["seconds"]))
        print(figure.line(best), flush=True)
        cells = [
            f"{figure.what}, {figure.name}, {figure.label}",
            f"{float(best['seconds']):.2f}",
            f"{float(best['peak_kib']) / MIB:.0f}",
        ]
        if theirs:
            old = min(theirs, key=lambda r: float(r["seconds"]))
            ratio = float(best["seconds"]) / float(old["seconds"])
            print(
                f"    baseline: {float(old['seconds']):.2f} s wall; ratio {ratio:.3f}", flush=True
            )
            cells += [f"{float(old['seconds']):.2f}", f"{ratio:.3f}"]
        cells.append(f"< {figure.seconds:g} s: {figure.met(best)}")
        rows.append("| " + " | ".join(cells) + " |")
    return rows


# The late cards --quick times, as (box, points) pairs of Classic's filled boxes.
LATE_CARDS = {
    "4 5 6 FH Y C open": [(box, 0) for box in (0, 1, 2, 6, 7, 9, 10)],
    "1-6 open, Y=50": [(6, 0), (7, 0), (8, 0), (9, 0), (10, 0), (11, 50), (12, 5)],
    "2-5 3K 4K open, Y=50": [(0, 5), (5, 24), (8, 0), (9, 0), (10, 0), (11, 50), (12, 5)],
}


def _late_columns(name: str, open_boxes: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Every card of ``name`` with ``open_boxes`` open, worst first: its build's work.

    The work is the (state, points needed) pairs the target table up to 300 solves
    (the build's own rule: the states a game from the card reaches, one per class of
    upper subtotals no future tells apart, and at each the needs up to the most
    points still possible). Every set of open boxes is counted
    for every capped upper subtotal and Yahtzee flag its filled boxes may hold, and
    the worst of each set is made a card (its upper boxes adding up to the subtotal,
    the other boxes at their lowest, 50 in the Yahtzee box when flagged).
    """
    import itertools

    import numpy as np

    sys.path.insert(0, str(SRC))
    from yahtzee_rules import Rules
    from yahtzee_rules.bots.solver._internal import bonus_classes, model_of, most_to_come

    rules = Rules.from_name(name)
    model = model_of(rules)
    card = model.card
    n, top = card.n, model.levels - 1
    classes = bonus_classes(model)
    full = (1 << n) - 1
    possible = [sorted(rules.card.possible[box]) for box in range(n)]
    upper = [int(box) for box in card.upper]
    # reach[faces, u0, u]: from subtotal u0, the upper boxes of ``faces`` can make u
    reach = np.zeros((64, top + 1, top + 1), dtype=bool)
    start = np.arange(top + 1)
    for faces in range(64):
        sums = {0}
        for face in range(6):
            if faces >> face & 1:
                sums = {min(a + b, top) for a in sums for b in possible[upper[face]]}
        for x in sums:
            reach[faces, start, np.minimum(start + x, top)] = True
    most: dict[tuple[int, int], int] = {}
    yahtzee = card.yahtzee_bit if model.flags == 2 else 0
    found = []
    for chosen in itertools.combinations(range(n), open_boxes):
        m0 = full & ~sum(1 << box for box in chosen)
        filled_faces = int(card.upper_mask[m0])
        work = {flag: np.zeros(top + 1, dtype=np.int64) for flag in (0, 1)}
        for size in range(open_boxes + 1):
            for subset in itertools.combinations(chosen, size):
                m = m0 | sum(1 << box for box in subset)
                faces = int(card.upper_mask[m])
                states = reach[faces & ~filled_faces]
                # one state per bonus class reached (subtotals no future tells apart)
                kinds = classes[63 & ~faces] + 1
                count = (states @ (kinds[:, None] == np.arange(kinds.max() + 1)) > 0).sum(axis=1)
                for flag0 in (0, 1):
                    # the flag: the start's once its Yahtzee box is filled, either after
                    flags = [0] if not m & yahtzee else [flag0] if m0 & yahtzee else [0, 1]
                    for flag in flags:
                        if m == full:
                            continue
                        key = (m, flag)
                        if key not in most:
                            most[key] = min(301, most_to_come(model, m, bool(flag)) + 1)
                        work[flag0] += count * most[key]
        subtotals = model.upper_values[filled_faces]
        flag_options = (0, 1) if m0 & yahtzee else (0,)
        columns, u0, flag0 = max(
            (int(work[flag][u]), int(u), flag) for flag in flag_options for u in subtotals
        )
        found.append((columns, _late_card(rules, m0, u0, flag0, possible, upper)))
    found.sort(key=lambda item: -item[0])
    return found


def _late_card(
    rules: object, m0: int, u0: int, flag: int, possible: list[list[int]], upper: list[int]
) -> list[tuple[int, int]]:
    """A card with the boxes of ``m0`` filled: upper boxes adding up to ``u0`` (capped)."""
    from yahtzee_rules.bots.solver._internal import model_of

    model = model_of(rules)  # type: ignore[arg-type]
    top = model.levels - 1
    # the upper boxes' points, box by box, reaching each capped subtotal
    ways: dict[int, list[tuple[int, int]]] = {0: []}
    for box in upper:
        if m0 >> box & 1:
            ways = {
                min(total + p, top): [*pairs, (box, p)]
                for total, pairs in ways.items()
                for p in possible[box]
            }
    points = dict(ways[u0])
    for box in range(len(possible)):
        if m0 >> box & 1 and box not in points:
            points[box] = 50 if flag and box == model.card.yahtzee else possible[box][0]
    return sorted(points.items())


def worst(count: int) -> None:
    """Time the ``count`` worst cards with 6 open boxes, Classic's and Yatzy's."""
    for name in ("forced", "yatzy"):
        ranked = _late_columns(name, 6)
        for columns, points in ranked[:count]:
            label = "6 open: " + ",".join(f"{box}={p}" for box, p in points)
            figure = Figure("target", name, 6, 1, 2 * MIB, 300, points=points, label=label)
            print(f"({columns} state-need pairs)", figure.line(figure.measure()), flush=True)


def sample(count: int) -> None:
    """Time ``count`` cards with 6 open boxes of each ruleset, drawn at random (seeded).

    ``--worst`` ranks the cards by the columns their tables read; the columns worked
    out (the distinct ones) are known only by building, so a sample shows how far the
    ranking's worst is from the rest.
    """
    import random

    draw = random.Random(13)
    for name in ("forced", "yatzy"):
        ranked = _late_columns(name, 6)
        timed = []
        for columns, points in draw.sample(ranked, min(count, len(ranked))):
            label = "6 open: " + ",".join(f"{box}={p}" for box, p in points)
            figure = Figure("target", name, 6, 1, 2 * MIB, 300, points=points, label=label)
            result = figure.measure()
            timed.append((float(result["seconds"]), columns, figure.line(result)))
        timed.sort(reverse=True)
        print(f"{name}: the slowest of {len(timed)} cards drawn at random:")
        for _, columns, line in timed[:5]:
            print(f"({columns} state-need pairs) {line}", flush=True)


def sweep(count: int | None) -> None:
    """Build the target table of every card with 6 open boxes (or ``count`` drawn at
    random), Classic's and Yatzy's, in this process alone, and print the slowest by CPU.

    One process, one worker, nothing else timed: the CPU seconds are the work itself,
    which on two cores is also about the most the wall time can be.
    """
    import random
    import time

    sys.path.insert(0, str(SRC))
    from yahtzee_rules import Rules, Scorecard
    from yahtzee_rules.bots.solver import load_table, target_table

    with tempfile.TemporaryDirectory() as cache:
        os.environ["YAHTZEE_RULES_CACHE_DIR"] = cache
        for name in ("forced", "yatzy"):
            rules = Rules.from_name(name)
            cards = _late_columns(name, 6)
            if count is not None and count < len(cards):
                cards = random.Random(7).sample(cards, count)
            timed = []
            for _, points in cards:
                members = rules.card.members
                card = Scorecard({members[box]: p for box, p in points}, card=rules.card)
                load_table(rules=rules, start=card)
                cpu, wall = time.process_time(), time.perf_counter()
                target_table(rules=rules, start=card, maximum=300, cache=False, workers=1)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                timed.append((cpu, wall, points))
            timed.sort(reverse=True)
            print(f"{name}: {len(timed)} cards with 6 open boxes, the slowest by CPU time:")
            for cpu, wall, points in timed[:5]:
                label = ",".join(f"{box}={p}" for box, p in points)
                print(f"  {cpu:5.2f} CPU-s ({wall:5.2f} s wall), boxes filled {label}", flush=True)


def advice(count: int = 300) -> None:
    """Time :func:`advise` with a target and with a game, the tables built beforehand.

    The turns are on cards a game from the benchmark card reaches (some boxes of the
    six open ones filled at random), with random dice. Each kind is timed twice over
    the same turns: the first call on a card works out its plan, the second finds it
    kept. The games are two-player games on the last turn: the other player finished
    (the exact case; before that the other players' score distributions come first).
    """
    import random
    import statistics
    import time
    from typing import Any

    sys.path.insert(0, str(SRC))
    from yahtzee_rules import Category, Game, Rules, Scorecard, Turn
    from yahtzee_rules.bots.solver import advise, build_table, target_table

    rules = Rules()
    start = Scorecard(dict.fromkeys(list(Category)[:7], 0))
    with tempfile.TemporaryDirectory() as cache:
        os.environ["YAHTZEE_RULES_CACHE_DIR"] = cache
        table = build_table(start=start)
        targets = target_table(start=start, maximum=300)
        draw = random.Random(1)
        turns = []
        for number in range(count):
            card = start
            open_boxes = [c for c in Category if card[c] is None]
            fill = draw.sample(open_boxes, 5 if number % 2 else draw.randint(0, 5))
            points: dict[Any, int | None] = {c: card[c] for c in card.filled_categories}
            points |= {box: 20 if box is Category.CHANCE else 0 for box in fill}
            card = Scorecard(points)
            dice = "".join(str(draw.randint(1, 6)) for _ in range(5))
            turns.append(Turn(card).roll(outcome=dice))
        done = Scorecard(
            dict.fromkeys(Category, 0)
            | {Category.CHANCE: 30, Category.YAHTZEE: 50, Category.SIXES: 30}
            | {Category.FULL_HOUSE: 25, Category.LARGE_STRAIGHT: 40}
        )
        last = [turn for turn in turns if turn.card.boxes.count(None) == 1]
        kinds = {
            "target 150": [(turn, {"target": 150, "targets": targets}) for turn in turns],
            "win, last turn": [
                (
                    turn,
                    {
                        "game": Game(
                            ["A", "B"],
                            rules=rules,
                            cards=[done, turn.card],
                            first=0,
                            current=1,
                            turn=turn,
                        ),
                        "targets": targets,
                    },
                )
                for turn in last
            ],
        }
        for label, calls in kinds.items():
            for attempt in ("first call", "again"):
                times = []
                for turn, options in calls:
                    started = time.perf_counter()
                    advise(turn, table, **options)  # type: ignore[arg-type]
                    times.append(time.perf_counter() - started)
                print(
                    f"advise, {label:15s} {attempt:10s}: mean {statistics.mean(times) * 1e3:6.3f} ms, "
                    f"median {statistics.median(times) * 1e3:6.3f} ms, "
                    f"max {max(times) * 1e3:6.3f} ms over {len(times)} turns [target < 1 ms]",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="cards with few open boxes only")
    parser.add_argument("--full", action="store_true", help="add the full target table")
    parser.add_argument(
        "--rules",
        nargs="+",
        default=["free-choice", "yatzy"],
        help="rulesets of the empty-card distributions",
    )
    parser.add_argument("--worst", type=int, metavar="N", help="time the N worst 6-open cards")
    parser.add_argument("--sample", type=int, metavar="N", help="time N random 6-open cards")
    parser.add_argument("--advice", action="store_true", help="time advice for a target, a win")
    parser.add_argument(
        "--sweep",
        nargs="?",
        const=-1,
        type=int,
        metavar="N",
        help="build every 6-open card's table (or N drawn at random) in one process",
    )
    parser.add_argument("--baseline", type=Path, help="another checkout's src, measured in turn")
    parser.add_argument("--rounds", type=int, default=1, help="rounds (the best is shown)")
    parser.add_argument("--markdown", type=Path, help="also write the figures into this page")
    args, _ = parser.parse_known_args()
    print("== score distributions and target tables (fresh process each) ==")
    if args.advice:
        advice()
        return
    if args.sweep is not None:
        sweep(None if args.sweep < 0 else args.sweep)
        return
    if args.worst or args.sample:
        if args.worst:
            worst(args.worst)
        if args.sample:
            sample(args.sample)
        return
    figures = [
        Figure("distribution", "forced", 6, 1, 2 * MIB),
        Figure("target", "forced", 6, 1, 2 * MIB),
    ]
    for label, points in LATE_CARDS.items():
        figures.append(Figure("target", "forced", 6, 1, 2 * MIB, points=points, label=label))
    if not args.quick:
        figures += [Figure("distribution", name, 13, 120, 2 * MIB) for name in args.rules]
    if args.full:
        figures.append(Figure("target", "forced", 13, 600, 2 * MIB))
    rows = compare(figures, args.baseline, args.rounds)
    if args.markdown:
        head = "| Figure | Seconds | Peak MiB |"
        rule = "| --- | ---: | ---: |"
        if args.baseline:
            head += " Baseline seconds | Ratio |"
            rule += " ---: | ---: |"
        lines = [head + " Target |", rule + " --- |", *rows, ""]
        lines.append(
            f"Measured with python {platform.python_version()}, {os.cpu_count()} CPUs; "
            f"best of {args.rounds} round(s), each in a fresh interpreter with an empty cache."
        )
        write_figures(args.markdown, lines, "target figures")


if __name__ == "__main__":
    main()
