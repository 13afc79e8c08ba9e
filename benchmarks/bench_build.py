"""Table build time, wall and CPU, beside a baseline revision built in the same run.

Run: ``python benchmarks/bench_build.py [--baseline REV] [--rounds N]`` (also run by
``bench.py``, which takes the baseline from the ``BENCH_BASELINE`` environment
variable; default ``main``). Each build runs in a fresh interpreter with an empty
cache directory, the two source trees alternating, so both see the same load: on a
shared machine compare the ratios, not the raw seconds. Each figure is printed as the
best round (the least disturbed by other work) and the median; ``--classic`` skips
the Yatzy builds. Nothing is asserted.

Targets (2-core machine): Classic under 1.5 s wall with two workers (this process and
one helper process), at most 1.2x the CPU time of one worker, the helper's CPU time
counted; Yatzy under 4x Classic.

When the compiled ``yatzy-solver`` package (Rust, on the package index; install it with
``pip install --group bench``) is importable, the same run also builds its Scandinavian
Yatzy table (``yatzy_solver.Solver.build``, all cores), alternating with ours, and
prints both times, the ratio and both expected scores of optimal play.

When a C compiler is on the PATH (sysconfig's ``CC``, ``cc``, ``gcc`` or ``clang``), the
run also compiles the plain C reference of the same backward induction,
``benchmarks/c/reference_build.c`` (C99, ``-O2 -ffp-contract=off``: its sums in the
library's order), runs it in a fresh process in each round beside the one-worker
Classic builds, and prints its CPU time, the ratio of this tree's one-worker CPU time to
it (target: at most 1.2x) and the largest difference between its value and this
tree's for every state (0 when they are bit-identical). Without a compiler it says the
figure is skipped, and why; ``--no-reference`` skips it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _markdown import write_figures
from _reference import STATES, compile_reference, run_reference

ROOT = Path(__file__).resolve().parents[1]

# CPU time counts the helper processes' too (reaped before build_table returns); a
# revision from before helper processes takes threads= instead of workers=.
BUILD_SCRIPT = """
import inspect, json, os, sys, time
sys.path.insert(0, {src!r})
from yahtzee_rules import Rules
from yahtzee_rules.bots.solver import build_table
rules = Rules.from_name({name!r})
key = "workers" if "workers" in inspect.signature(build_table).parameters else "threads"
def cpu():
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system
wall, used = time.perf_counter(), cpu()
table = build_table(rules=rules, **{{key: {workers}}})
wall, used = time.perf_counter() - wall, cpu() - used
print(json.dumps({{"wall": wall, "cpu": used, "value": table.value(table.start)}}))
if {save!r}:  # every state's value, for the comparison with the C reference (not timed)
    import numpy
    numpy.asarray(table.values, dtype=numpy.float64).tofile({save!r})
"""


YATZY_SOLVER_SCRIPT = """
import json, time
import yatzy_solver as ys
wall, cpu = time.perf_counter(), time.process_time()
solver = ys.Solver.build(ys.Variant("yatzy-scandinavian"))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
value = solver.state_value("upper 0 | filled -")
print(json.dumps({"wall": wall, "cpu": cpu, "value": value, "version": ys.__version__}))
"""


def yatzy_solver_available() -> bool:
    """Whether the compiled ``yatzy-solver`` package can be imported here."""
    return importlib.util.find_spec("yatzy_solver") is not None


def build_yatzy_solver() -> dict[str, float]:
    """Build ``yatzy-solver``'s Scandinavian Yatzy table in a fresh interpreter."""
    output = subprocess.run(
        [sys.executable, "-c", YATZY_SOLVER_SCRIPT], capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, float] = json.loads(output)
    return result


def build(src: Path, name: str, workers: int, save: Path | None = None) -> dict[str, float]:
    """Build one table in a fresh interpreter from the sources in ``src``, with no cache
    (and write its values to ``save``, after the timing, when given)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, YAHTZEE_RULES_CACHE_DIR=cache)
        where = "" if save is None else str(save)
        script = BUILD_SCRIPT.format(src=str(src), name=name, workers=workers, save=where)
        output = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
        ).stdout
    result: dict[str, float] = json.loads(output)
    return result


def export(revision: str, directory: Path) -> Path | None:
    """The ``src`` tree of ``revision`` unpacked under ``directory`` (None without git)."""
    archive = directory / "src.tar"
    try:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", "-o", str(archive), revision, "src"],
            check=True,
            capture_output=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    with tarfile.open(archive) as tar:
        tar.extractall(directory, filter="data")
    _compile_kernel(directory)
    return directory / "src"


def _compile_kernel(root: Path) -> None:
    """The exported tree's compiled kernel, built as the wheel build hook builds it, where
    the tree has one and a C compiler is found (else that tree runs its NumPy path, as
    it would installed on such a machine)."""
    if not any((root / "src").rglob("_ckernel.c")):
        return  # a tree from before the kernel
    sys.path.insert(0, str(ROOT))
    try:  # the wheel build hook's own compile step (it needs hatchling: the bench group)
        hook = importlib.import_module("hatch_build")
    except ImportError as error:
        print(f"(the baseline's compiled kernel was not built: {error})")
        return
    finally:
        sys.path.pop(0)
    try:
        built = hook._compile(root, root / "kernel-build")
    except Exception as error:  # any build failure: the NumPy path serves
        print(f"(the baseline's compiled kernel was not built: {error})")
        return
    (root / hook.SOURCE).with_name(built.name).write_bytes(built.read_bytes())


def describe(revision: str) -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(ROOT), "log", "-1", "--format=%h %s", revision],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()[:72]
    except (OSError, subprocess.CalledProcessError):
        return revision


def side_by_side(src: Path, name: str) -> list[dict[str, float]]:
    """Two one-worker builds at once, in two fresh interpreters: what sharing the machine
    costs each (the control for the two-worker build's CPU time)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda _: build(src, name, 1), range(2)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=os.environ.get("BENCH_BASELINE", "main"))
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--quick", action="store_true", help="one round")
    parser.add_argument("--classic", action="store_true", help="skip the Yatzy builds")
    parser.add_argument(
        "--no-yatzy-solver", action="store_true", help="skip the yatzy-solver comparison"
    )
    parser.add_argument(
        "--no-reference", action="store_true", help="skip the plain C reference's figure"
    )
    parser.add_argument(
        "--markdown", type=Path, help="also write the figures into this page, between its markers"
    )
    args, _ = parser.parse_known_args(argv)
    rounds = 1 if args.quick else args.rounds
    trees = {"this tree": ROOT / "src"}
    with tempfile.TemporaryDirectory() as directory:
        baseline = export(args.baseline, Path(directory))
        print(f"== table build ({os.cpu_count()} CPUs, fresh process, no cache) ==")
        if baseline is None:
            print(f"(no baseline: git cannot export {args.baseline!r})")
        else:
            trees["baseline"] = baseline
            print(f"baseline: {describe(args.baseline)}")
        runs: dict[tuple[str, str, int], list[dict[str, float]]] = {}
        cases = [("forced", 1), ("forced", 2)] + ([] if args.classic else [("yatzy", 2)])
        theirs: list[dict[str, float]] = []
        side: list[dict[str, float]] = []  # the control: two one-worker builds at once
        compare = not (args.no_yatzy_solver or args.classic) and yatzy_solver_available()
        program, compiled = (
            (None, "--no-reference") if args.no_reference else compile_reference(Path(directory))
        )
        ours_values, c_values = Path(directory, "ours.bin"), Path(directory, "reference.bin")
        in_c: list[dict[str, float]] = []  # the C reference's runs, one a round
        for round_ in range(rounds):
            for name, workers in cases:
                for tree, src in trees.items():
                    # our one-worker Classic build, then the reference, in turn; the first
                    # round writes both tables' values for the comparison
                    beside = program is not None and tree == "this tree" and workers == 1
                    save = ours_values if beside and round_ == 0 else None
                    found = build(src, name, workers, save)
                    runs.setdefault((tree, name, workers), []).append(found)
                    if beside and program is not None:
                        in_c.append(run_reference(program, values=c_values if save else None))
            side.extend(side_by_side(trees["this tree"], "forced"))
            if compare:
                theirs.append(build_yatzy_solver())
        difference = compare_values(ours_values, c_values) if program is not None else None

    def median(tree: str, name: str, workers: int, what: str) -> float:
        return statistics.median(run[what] for run in runs[tree, name, workers])

    def best(tree: str, name: str, workers: int, what: str) -> float:
        return min(run[what] for run in runs[tree, name, workers])

    def ratio(name: str, workers: int, what: str) -> float:
        pairs = zip(runs["this tree", name, workers], runs["baseline", name, workers], strict=True)
        return statistics.median(ours[what] / theirs[what] for ours, theirs in pairs)

    print("(each figure: best round / median of the rounds)")
    table = [
        "| Build | This tree, wall (s) | CPU (s) | Baseline, wall (s) | CPU (s) | Wall ratio | CPU ratio |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, workers in cases:
        line = f"{name:7s} workers={workers}:"
        row = f"| {NAMES[name]}, {workers} worker{'s' if workers > 1 else ''} |"
        for tree in ["this tree", "baseline"]:
            if tree not in trees:
                row += " | |"
                continue
            wall = best(tree, name, workers, "wall"), median(tree, name, workers, "wall")
            cpu = best(tree, name, workers, "cpu"), median(tree, name, workers, "cpu")
            line += f"  {tree} {wall[0]:.2f}/{wall[1]:.2f} s wall, {cpu[0]:.2f}/{cpu[1]:.2f} CPU-s;"
            row += f" {wall[0]:.2f} | {cpu[0]:.2f} |"
        if "baseline" in trees:
            line += f"  ratio {ratio(name, workers, 'wall'):.2f} wall, "
            line += f"{ratio(name, workers, 'cpu'):.2f} CPU"
            row += f" {ratio(name, workers, 'wall'):.2f} | {ratio(name, workers, 'cpu'):.2f} |"
        else:
            row += " | |"
        print(line)
        table.append(row)
    notes = []
    for tree in trees:
        one = best(tree, "forced", 1, "wall"), best(tree, "forced", 1, "cpu")
        two = best(tree, "forced", 2, "wall"), best(tree, "forced", 2, "cpu")
        line = (
            f"{tree}, best rounds: Classic on two workers {two[0]:.2f} s wall (target < 1.5 s), "
            f"{two[1]:.2f} CPU-s, {two[1] / one[1]:.2f}x the CPU of one worker's {one[1]:.2f} "
            f"(target <= 1.2x), {two[0] / one[0]:.2f}x its {one[0]:.2f} s wall"
        )
        if not args.classic:
            yatzy = best(tree, "yatzy", 2, "wall")
            line += f"; Yatzy {yatzy / two[0]:.2f}x Classic (target < 4x)"
        print(line)
        notes.append(line[0].upper() + line[1:] + ".")
    alone = statistics.median(run["cpu"] for run in runs["this tree", "forced", 1])
    shared = statistics.median(run["cpu"] for run in side)
    line = (
        f"control: two one-worker Classic builds at once took {shared:.2f} CPU-s each "
        f"(median), {shared / alone:.2f}x the {alone:.2f} of one alone (the machine's own "
        f"cost of running two at once)"
    )
    print(line)
    notes.append(line[0].upper() + line[1:] + ".")
    values = {run["value"] for key, found in runs.items() if key[1] == "forced" for run in found}
    print(f"empty-card value: {', '.join(f'{v!r}' for v in sorted(values))}")
    if program is not None and difference is not None:
        notes.append(report_reference(runs["this tree", "forced", 1], in_c, compiled, difference))
    else:
        line = f"(plain C reference skipped: {compiled})"
        print(line)
        notes.append(f"The plain C reference's figure was skipped: {compiled}.")
    if theirs:
        notes.append(report_yatzy_solver(runs, theirs))
    elif not (args.no_yatzy_solver or args.classic):
        print("(yatzy-solver not installed: pip install --group bench to compare)")
    if args.markdown:
        where = f"Measured with python {platform.python_version()}, {os.cpu_count()} CPUs"
        commit = describe(args.baseline).split(" ", 1)[0]
        notes.insert(0, f"{where}; best of {rounds} rounds; baseline: commit `{commit}`.")
        lines = [*table, "", *(f"* {note}" for note in notes)]
        write_figures(args.markdown, lines, "build figures")


NAMES = {"forced": "Classic, forced Joker", "yatzy": "Yatzy"}


def compare_values(ours: Path, theirs: Path) -> tuple[float, int]:
    """The largest absolute difference between two tables' values, state by state, and
    how many states differ at all (in any bit)."""
    import numpy as np

    a = np.fromfile(ours, dtype=np.float64)
    b = np.fromfile(theirs, dtype=np.float64)
    if a.shape != (STATES,) or b.shape != (STATES,):
        raise ValueError(f"values of {a.shape} and {b.shape} states; want {STATES} each")
    differ = int(np.count_nonzero(a.view(np.int64) != b.view(np.int64)))
    return float(np.max(np.abs(a - b))), differ


def report_reference(
    ours: list[dict[str, float]],
    in_c: list[dict[str, float]],
    compiled: str,
    difference: tuple[float, int],
) -> str:
    """Print the C reference's figure beside this tree's one-worker builds; return a note."""
    ratio = statistics.median(o["cpu"] / c["cpu_seconds"] for o, c in zip(ours, in_c, strict=True))
    cpu = min(c["cpu_seconds"] for c in in_c), statistics.median(c["cpu_seconds"] for c in in_c)
    process = min(c["process_cpu"] for c in in_c)
    one = min(o["cpu"] for o in ours), statistics.median(o["cpu"] for o in ours)
    largest, differ = difference
    same = "bit-identical" if differ == 0 else f"{differ:,} states differ"
    line = (
        f"plain C reference (benchmarks/c/reference_build.c; {compiled}): "
        f"{cpu[0]:.2f}/{cpu[1]:.2f} CPU-s for the induction ({process:.2f} for its whole "
        f"process, best); this tree's one-worker Classic build {one[0]:.2f}/{one[1]:.2f} "
        f"CPU-s, {ratio:.2f}x the reference's (median of the rounds' ratios; target "
        f"<= 1.2x); values: largest difference {largest:.3g} over all {STATES:,} states "
        f"({same})"
    )
    print(line)
    print(f"empty-card value: this tree {ours[0]['value']!r}, C reference {in_c[0]['value']!r}")
    return line[0].upper() + line[1:] + "."


def report_yatzy_solver(
    runs: dict[tuple[str, str, int], list[dict[str, float]]], theirs: list[dict[str, float]]
) -> str:
    """Print the yatzy-solver Yatzy builds beside ours from the same rounds; return a note."""
    ours = runs["this tree", "yatzy", 2]
    classic = runs["this tree", "forced", 2]
    wall = statistics.median(run["wall"] for run in theirs)
    cpu = statistics.median(run["cpu"] for run in theirs)
    ratio = statistics.median(o["wall"] / t["wall"] for o, t in zip(ours, theirs, strict=True))
    versus_classic = statistics.median(
        t["wall"] / c["wall"] for c, t in zip(classic, theirs, strict=True)
    )
    line = (
        f"yatzy-solver {theirs[0]['version']} Yatzy: {wall:5.2f} s wall, {cpu:5.2f} CPU-s; "
        f"this tree's Yatzy is {ratio:.2f}x its wall time; it is {versus_classic:.2f}x "
        f"this tree's Classic"
    )
    print(line)
    print(
        f"Yatzy expected score: this tree {ours[0]['value']:.7f}, "
        f"yatzy-solver {theirs[0]['value']:.7f}"
    )
    return (
        f"The compiled {line}; expected scores {ours[0]['value']:.7f} (this tree) and "
        f"{theirs[0]['value']:.7f}."
    )


if __name__ == "__main__":
    main()
