"""Speed and memory of score distributions and target tables (printed, never asserted).

Run with ``python benchmarks/bench_distribution.py`` (``--quick`` leaves out the
empty-card runs; ``--rules NAME ...`` picks the rulesets of the empty-card
distributions, Hasbro's free-choice card and Yatzy's by default; ``--full`` adds the
target table for every target up to 300 from the empty card, which takes a long
time). Each figure is measured in a fresh interpreter: wall time, CPU time (all
threads; the better figure on a busy machine) and the process's peak RSS, each
against its target. The expected-value tables are built (or read from the cache)
before the clock starts.

Targets (issue 13, 2 cores): the distribution from the empty card in under 2 minutes
and 2 GiB; the target table up to 300 from the empty card in under 10 minutes and
2 GiB; either for a card with 6 or fewer open boxes in under 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

SCRIPT = """
import json, resource, sys, time
sys.path.insert(0, {src!r})
from yahtzee_rules import Category, Rules, Scorecard
from yahtzee_rules.solver import load_table, score_distribution, target_table
rules = Rules.from_name({name!r})
open_boxes = {open_boxes!r}
card = Scorecard({{c: 0 for c in list(Category)[: 13 - open_boxes]}}) if open_boxes < 13 else None
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


def run(
    what: str, name: str, open_boxes: int, seconds: float, mib: float, maximum: int = 300
) -> str:
    script = SCRIPT.format(
        src=str(SRC), name=name, open_boxes=open_boxes, what=what, maximum=maximum
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "YAHTZEE_RULES_CACHE_DIR": cache}
        output = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
        ).stdout
    result = json.loads(output)
    peak = result["peak_kib"] / MIB
    where = "empty card" if open_boxes >= 13 else f"{open_boxes} open boxes"
    met = "met" if result["seconds"] < seconds and peak < mib else "MISSED"
    return (
        f"{what:12s} {name:14s} {where:12s}: {result['seconds']:7.2f} s wall "
        f"({result['cpu']:7.2f} s CPU), peak RSS {peak:7.1f} MiB "
        f"[target < {seconds:g} s, < {mib:g} MiB: {met}]; {result['figure']}"
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
    args, _ = parser.parse_known_args()
    print("== score distributions and target tables (fresh process each) ==")
    print(run("distribution", "forced", 6, 1, 2 * MIB))
    print(run("target", "forced", 6, 1, 2 * MIB, 300))
    if not args.quick:
        for name in args.rules:
            print(run("distribution", name, 13, 120, 2 * MIB))
    if args.full:
        print(run("target", "forced", 13, 600, 2 * MIB, 300))


if __name__ == "__main__":
    main()
