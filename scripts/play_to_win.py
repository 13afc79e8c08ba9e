"""Measure WinStrategy against OptimalStrategy and write the results into the docs.

Plays the arena's tournament under Hasbro's rules (common dice, seats rotated):
``--field 2`` is the head-to-head match (each deal two games, the seats swapped),
``--field N`` one WinStrategy with N - 1 OptimalStrategy players at N seats (a fair
share of the wins is 1/N). The intervals are at 99 %.

    python scripts/play_to_win.py --field 2 --deals 1000            # print the tables
    python scripts/play_to_win.py --write --field 2 --deals 100000  # and publish them
    python scripts/play_to_win.py --check                           # exit 1 if stale
    python scripts/play_to_win.py --render                          # rewrite from the JSON

``--write`` stores the run's raw results in ``docs/explanation/play-to-win.json``
(one entry per field size, replacing an earlier run of that size) and rewrites the
marked block of ``docs/explanation/play-to-win.md`` from that file. ``--check`` runs
no games: it checks that file's format and that the block is what this script renders
from it. ``--render`` rewrites the block from the file (after editing the renderer).
Every figure on the page comes from here; none is typed in.

``--workers N`` plays the chunks of 100 deals on N processes (the same results, bit
for bit). ``--chunks DIR`` keeps each chunk played in DIR, named after the run's
settings and the library's source: a run stopped part way starts again where it
stopped, and a run of fewer deals takes its chunks from there (the run time stored
is then the sum of the chunks' playing times).

The tables are built (and cached) on first use: a few seconds to a few minutes.
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import functools
import hashlib
import inspect
import json
import pickle
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

if TYPE_CHECKING:
    from yahtzee_rules import OptimalStrategy, Strategy
    from yahtzee_rules.bots.arena import TournamentResult
    from yahtzee_rules.bots.solver import WinStrategy

PAGE = ROOT / "docs" / "explanation" / "play-to-win.md"
RESULTS = ROOT / "docs" / "explanation" / "play-to-win.json"
BEGIN = "<!-- begin: written by scripts/play_to_win.py from play-to-win.json; do not edit -->"
END = "<!-- end: written by scripts/play_to_win.py -->"
FORMAT = 1
CONFIDENCE = 0.99
RULES = "forced"  # Hasbro's rules: forced Joker, ties shared
WIN, OPTIMAL = "WinStrategy", "OptimalStrategy"
HEAD_TO_HEAD_DEALS = 100_000  # the paired deals the head-to-head measurement is meant to have


# --- measuring -----------------------------------------------------------------------


@functools.cache
def _strategies(open_boxes: int, maximum: int) -> tuple[WinStrategy, OptimalStrategy]:
    """The two strategies, built once per process.

    They pickle (for the workers) as their settings and unpickle as the worker's own
    pair: each worker loads the tables once, and WinStrategy's caches last across chunks.
    """
    from yahtzee_rules import OptimalStrategy, Rules
    from yahtzee_rules.bots.solver import WinStrategy, load_table, target_table

    class _Win(WinStrategy):
        def __reduce__(self) -> tuple[object, tuple[int, int]]:
            return _win, (open_boxes, maximum)

    class _Optimal(OptimalStrategy):
        def __reduce__(self) -> tuple[object, tuple[int, int]]:
            return _optimal, (open_boxes, maximum)

    rules = Rules.from_name(RULES)
    table = load_table(rules=rules)
    targets = target_table(rules=rules, maximum=maximum, open_boxes=open_boxes)
    return _Win(table, targets, open_boxes=open_boxes), _Optimal(table)


def _win(open_boxes: int, maximum: int) -> WinStrategy:
    """Unpickled in a worker: the process's WinStrategy, its caches kept across chunks."""
    return _strategies(open_boxes, maximum)[0]


def _optimal(open_boxes: int, maximum: int) -> OptimalStrategy:
    return _strategies(open_boxes, maximum)[1]


def measure(args: argparse.Namespace) -> tuple[TournamentResult, float]:
    """Play the tournament the arguments ask for; the seconds its chunks took to play."""
    from yahtzee_rules import Rules
    from yahtzee_rules.bots.arena import tournament

    win, optimal = _strategies(args.open_boxes, args.maximum)
    bots: dict[str, Strategy] = {WIN: win}
    for number in range(1, args.field):
        bots[OPTIMAL if args.field == 2 else f"{OPTIMAL} {number}"] = optimal
    started = time.perf_counter()

    def progress(done: int, deals: int) -> None:
        if args.quiet:
            return
        seconds = time.perf_counter() - started
        left = seconds / done * (deals - done)
        print(f"{done}/{deals} deals, {seconds:.0f} s, about {left:.0f} s left", file=sys.stderr)

    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    executor: SavedChunks | Executor | None = pool
    if args.chunks is not None:
        executor = SavedChunks(args.chunks / _run_key(args), pool)
    try:
        result = tournament(
            bots,
            deals=args.deals,
            seats=args.field,
            seed=args.seed,
            rules=Rules.from_name(RULES),
            confidence=CONFIDENCE,
            executor=executor,
            progress=progress,
        )
    finally:
        if pool is not None:
            pool.shutdown()
    return result, executor.seconds if isinstance(executor, SavedChunks) else result.seconds


def _run_key(args: argparse.Namespace) -> str:
    """Names the saved chunks of a run: its settings and the library's source."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "src").rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    settings = f"field{args.field}-seed{args.seed}-open{args.open_boxes}-max{args.maximum}"
    return f"{settings}-{digest.hexdigest()[:16]}"


class SavedChunks:
    """An executor that keeps each chunk's result in ``folder`` and takes it from there.

    The tournament plays deals in chunks whose bounds never depend on the number of
    deals asked for, so a run stopped part way keeps what it played: a run of fewer
    deals, or the same run started again, takes the chunks already played from
    ``folder``, and gives the tables a fresh run gives, bit for bit. Each chunk is
    kept with the time it took to play; ``seconds`` sums them over the chunks used.
    """

    def __init__(self, folder: Path, pool: Executor | None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.pool = pool
        self.seconds = 0.0

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
        bound = inspect.signature(fn).bind(*args).arguments  # by name: whatever else it takes
        first, count = bound["first"], bound["count"]  # the chunk's first deal and its deals
        path = self.folder / f"{fn.__name__}-{first}-{count}.timed.pickle"
        done: Future[Any] = Future()
        if path.exists():
            self._use(done, pickle.loads(path.read_bytes()))
        elif self.pool is None:
            self._use(done, _timed(fn, *args), path)
        else:
            played = self.pool.submit(_timed, fn, *args)
            played.add_done_callback(functools.partial(self._done, done, path))
        return done

    def _done(self, done: Future[Any], path: Path, played: Future[tuple[Any, float]]) -> None:
        error = played.exception()
        if error is not None:
            done.set_exception(error)
        else:
            self._use(done, played.result(), path)

    def _use(self, done: Future[Any], timed: tuple[Any, float], path: Path | None = None) -> None:
        if path is not None:
            part = path.with_suffix(".part")
            part.write_bytes(pickle.dumps(timed))
            part.replace(path)
        self.seconds += timed[1]
        done.set_result(timed[0])


def _timed(fn: Callable[..., Any], /, *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - started


def raw(
    result: TournamentResult,
    args: argparse.Namespace,
    commit: str | None = None,
    seconds: float | None = None,
) -> dict[str, Any]:
    """The run as stored in the results file: the tournament's numbers and how to redo it.

    ``commit`` is the library's commit when the run started (by default, now);
    ``seconds`` the time the deals took to play (by default, the tournament's).
    """
    command = ["python", "scripts/play_to_win.py", "--write", "--field", str(args.field)]
    command += ["--deals", str(args.deals), "--seed", str(args.seed)]
    command += ["--open-boxes", str(args.open_boxes), "--maximum", str(args.maximum)]
    return {
        "field": args.field,
        "deals": result.deals,
        "games": result.games,
        "seed": result.seed,
        "rules": RULES,
        "open_boxes": args.open_boxes,
        "maximum": args.maximum,
        "confidence": result.confidence,
        "command": shlex.join(command),
        "workers": args.workers,
        "seconds": round(result.seconds if seconds is None else seconds, 1),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        "commit": _commit() if commit is None else commit,
        "python": platform.python_version(),
        "standings": [
            {
                "name": record.name,
                "games": record.games,
                "wins": record.wins,
                "win_share": record.win_share,
                "win_interval": list(record.win_interval),
                "mean_score": record.mean_score,
                "score_stderr": record.score_stderr,
            }
            for record in result.standings
        ],
        "head_to_head": [
            {
                "first": match.first,
                "second": match.second,
                "games": match.games,
                "share": match.share,
                "interval": list(match.interval),
                "verdict": match.verdict.name,
            }
            for match in result.head_to_head
        ],
    }


def _commit() -> str:
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "src", "scripts"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return found + ("+changes" if dirty else "")


# --- the results file ----------------------------------------------------------------

_RUN_KEYS = {
    "field": int,
    "deals": int,
    "games": int,
    "seed": int,
    "rules": str,
    "open_boxes": int,
    "maximum": int,
    "confidence": float,
    "command": str,
    "workers": int,
    "seconds": float,
    "date": str,
    "commit": str,
    "python": str,
    "standings": list,
    "head_to_head": list,
}
_RECORD_KEYS = {
    "name": str,
    "games": int,
    "wins": float,
    "win_share": float,
    "win_interval": list,
    "mean_score": float,
    "score_stderr": float,
}
_MATCH_KEYS = {
    "first": str,
    "second": str,
    "games": int,
    "share": float,
    "interval": list,
    "verdict": str,
}


class ResultsError(ValueError):
    """The results file is not one this script wrote."""


def _check_keys(where: str, item: object, keys: Mapping[str, type]) -> dict[str, Any]:
    if not isinstance(item, dict) or set(item) != set(keys):
        found = sorted(item) if isinstance(item, dict) else type(item).__name__
        raise ResultsError(f"{where}: expected the keys {sorted(keys)}, found {found}")
    for key, kind in keys.items():
        value = item[key]
        ok = (
            isinstance(value, (int, float)) and not isinstance(value, bool)
            if kind is float
            else isinstance(value, kind) and not isinstance(value, bool)
        )
        if not ok:
            raise ResultsError(f"{where}: {key} = {value!r} is not a {kind.__name__}")
    return item


def _check_interval(where: str, share: float, interval: list[Any]) -> None:
    if (
        len(interval) != 2
        or not all(isinstance(x, (int, float)) for x in interval)
        or not 0 <= interval[0] <= share <= interval[1] <= 1
    ):
        raise ResultsError(f"{where}: interval {interval!r} does not hold the share {share!r}")


def _games_per_deal(field: int) -> int:
    return 2 if field == 2 else 2 * field


def names(field: int) -> list[str]:
    """The strategies' names in a run with ``field`` seats, WinStrategy first."""
    if field == 2:
        return [WIN, OPTIMAL]
    return [WIN, *(f"{OPTIMAL} {number}" for number in range(1, field))]


def command(run: Mapping[str, Any]) -> str:
    """The command that plays ``run`` again and writes it."""
    return shlex.join(
        [
            "python",
            "scripts/play_to_win.py",
            "--write",
            "--field",
            str(run["field"]),
            "--deals",
            str(run["deals"]),
            "--seed",
            str(run["seed"]),
            "--open-boxes",
            str(run["open_boxes"]),
            "--maximum",
            str(run["maximum"]),
        ]
    )


def check_results(data: object) -> list[dict[str, Any]]:
    """The runs of a results file, checked to be what :func:`raw` writes, by field."""
    top = _check_keys("results", data, {"format": int, "runs": list})
    if top["format"] != FORMAT:
        raise ResultsError(f"results: format {top['format']!r}, this script writes {FORMAT}")
    runs = [_check_keys(f"run {i}", run, _RUN_KEYS) for i, run in enumerate(top["runs"])]
    fields = [run["field"] for run in runs]
    if fields != sorted(set(fields)):
        raise ResultsError(f"results: fields {fields}: not one run per field, in order")
    for run in runs:
        where, field = f"run with field {run['field']}", run["field"]
        if field < 2 or run["deals"] < 1:
            raise ResultsError(f"{where}: needs 2 or more seats and 1 or more deals")
        if run["games"] != run["deals"] * _games_per_deal(field):
            raise ResultsError(f"{where}: {run['games']} games in {run['deals']} deals")
        if run["rules"] != RULES or run["confidence"] != CONFIDENCE:
            raise ResultsError(f"{where}: rules {run['rules']!r} at {run['confidence']!r}")
        if run["command"] != command(run):
            raise ResultsError(f"{where}: command {run['command']!r}, expected {command(run)!r}")
        records = [
            _check_keys(f"{where}, standing {i}", record, _RECORD_KEYS)
            for i, record in enumerate(run["standings"])
        ]
        if [record["name"] for record in records] != names(field):
            raise ResultsError(f"{where}: standings for {[r['name'] for r in records]}")
        for record in records:
            if record["games"] != run["deals"] * _games_per_deal(field):
                raise ResultsError(f"{where}: {record['name']} played {record['games']} games")
            _check_interval(
                f"{where}, {record['name']}", record["win_share"], record["win_interval"]
            )
        matches = [
            _check_keys(f"{where}, match {i}", match, _MATCH_KEYS)
            for i, match in enumerate(run["head_to_head"])
        ]
        if len(matches) != field * (field - 1) // 2:
            raise ResultsError(f"{where}: {len(matches)} head-to-head records")
        for match in matches:
            _check_interval(
                f"{where}, {match['first']} vs {match['second']}", match["share"], match["interval"]
            )
    return runs


def load_results(path: Path = RESULTS) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return check_results(json.loads(path.read_text(encoding="utf-8")))


def store(run: dict[str, Any], path: Path = RESULTS) -> list[dict[str, Any]]:
    """Put ``run`` in the results file (replacing the run of its field) and write the page."""
    locks = Path(tempfile.gettempdir()) / "play-to-win.lock"
    with open(locks, "w") as lock:  # runs of other fields may finish at the same time
        fcntl.flock(lock, fcntl.LOCK_EX)
        runs = [old for old in load_results(path) if old["field"] != run["field"]]
        runs = sorted([*runs, run], key=lambda r: r["field"])
        data = {"format": FORMAT, "runs": runs}
        check_results(data)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        PAGE.write_text(rewrite(PAGE.read_text(encoding="utf-8"), runs), encoding="utf-8")
    return runs


# --- the page ------------------------------------------------------------------------

_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
_WORDS |= {9: "nine", 10: "ten"}


def _count(number: int) -> str:
    return _WORDS.get(number, str(number))


def _percent(share: float) -> str:
    return f"{100 * share:.2f} %"


def _fraction(field: int) -> str:
    return f"1/{field}"


def _verdict(low: float, high: float, fair: float) -> str:
    if low > fair:
        return "significantly above"
    if high < fair:
        return "significantly below"
    return "not significantly different from"


def render(runs: list[dict[str, Any]]) -> str:
    """The page's block (markers included) for the runs of the results file."""
    if not runs:
        return f"{BEGIN}\n\nNo results yet: run the commands below.\n\n{END}"
    level = f"{round(100 * CONFIDENCE)} %"
    lines = [
        BEGIN,
        "",
        f"| Field | Deals | Games | WinStrategy's share | {level} interval | Fair share | "
        f"Verdict | Mean score: WinStrategy | OptimalStrategy |",
        "| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |",
    ]
    texts = []
    for run in runs:
        field = run["field"]
        win, *others = run["standings"]
        optimal_mean = sum(o["mean_score"] for o in others) / len(others)
        if field == 2:
            match = run["head_to_head"][0]
            share, (low, high) = match["share"], match["interval"]
            label = f"2: head to head with `{OPTIMAL}`"
            what = "of the games"
        else:
            share, (low, high) = win["win_share"], win["win_interval"]
            label = f"{field}: with {_count(field - 1)} `{OPTIMAL}` players"
            what = "of the wins"
        fair = 1 / field
        verdict = _verdict(low, high, fair)
        lines.append(
            f"| {label} | {run['deals']:,} | {run['games']:,} | {_percent(share)} | "
            f"{_percent(low)} - {_percent(high)} | {_fraction(field)} | {verdict} "
            f"{_fraction(field)} | {win['mean_score']:.1f} | {optimal_mean:.1f} |"
        )
        if field == 2:
            text = (
                f"Head to head, over {run['deals']:,} paired deals ({run['games']:,} games), "
                f"WinStrategy takes {_percent(share)} {what} ({level} interval "
                f"{_percent(low)} to {_percent(high)}): {verdict} one half."
            )
            if run["deals"] < HEAD_TO_HEAD_DEALS:
                text += (
                    f" That is fewer than the {HEAD_TO_HEAD_DEALS:,} paired deals this "
                    f"measurement is meant to have: run its command with `--deals "
                    f"{HEAD_TO_HEAD_DEALS}` to complete it."
                )
        else:
            text = (
                f"In a field of {field} ({run['deals']:,} deals, {run['games']:,} games), "
                f"WinStrategy takes {_percent(share)} {what} against a fair share of "
                f"{_fraction(field)} ({_percent(fair)}; {level} interval {_percent(low)} to "
                f"{_percent(high)}): {verdict} {_fraction(field)}."
            )
        texts.append(text)
    lines += ["", *(f"- {text}" for text in texts), ""]
    lines.append(
        f"A tie counts half (Hasbro's rules: forced Joker, ties shared). WinStrategy plays "
        f"with `open_boxes={runs[0]['open_boxes']}` and a target table up to "
        f"{runs[0]['maximum']} points needed."
        if len({(r["open_boxes"], r["maximum"]) for r in runs}) == 1
        else "A tie counts half (Hasbro's rules: forced Joker, ties shared)."
    )
    lines += ["", "Each row is one run of `scripts/play_to_win.py`, which reproduces it:", ""]
    lines.append("```text")
    lines += [run["command"] for run in runs]
    lines.append("```")
    lines += [
        "",
        "| Field | Seed | Run time | Workers | Date | Commit |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for run in runs:
        lines.append(
            f"| {run['field']} | {run['seed']} | {_duration(run['seconds'])} | "
            f"{run['workers']} | {run['date']} | `{run['commit']}` |"
        )
    lines += ["", END]
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return f"{seconds:.0f} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def block(page: str) -> tuple[int, int]:
    """Where the block is in ``page``: from its begin marker to after its end marker."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start or page.count(BEGIN) != 1 or page.count(END) != 1:
        raise ResultsError(f"{PAGE.name}: no single block between {BEGIN!r} and {END!r}")
    return start, end + len(END)


def rewrite(page: str, runs: list[dict[str, Any]]) -> str:
    start, end = block(page)
    return page[:start] + render(runs) + page[end:]


# --- the command line ----------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="store the run and rewrite the page")
    mode.add_argument("--check", action="store_true", help="check the page (plays no games)")
    mode.add_argument("--render", action="store_true", help="rewrite the page from the JSON")
    parser.add_argument("--field", type=int, default=2, help="players per game")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--open-boxes", type=int, default=2)
    parser.add_argument("--maximum", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1, help="processes (same results)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument(
        "--chunks", type=Path, help="keep each chunk of deals played here, and reuse them"
    )
    args = parser.parse_args(argv)
    page = PAGE.read_text(encoding="utf-8")
    try:
        if args.check:
            if rewrite(page, load_results()) != page:
                print(
                    f"{PAGE.relative_to(ROOT)} is out of date: run {Path(__file__).name} --render",
                    file=sys.stderr,
                )
                return 1
            return 0
        if args.render:
            PAGE.write_text(rewrite(page, load_results()), encoding="utf-8")
            return 0
        block(page)  # before hours of games, not after
    except (ResultsError, json.JSONDecodeError) as error:
        print(f"{RESULTS.relative_to(ROOT)}: {error}", file=sys.stderr)
        return 1
    commit = _commit()
    result, seconds = measure(args)
    print(result.report())
    print(f"{seconds:.0f} s playing the deals", file=sys.stderr)
    if args.write:
        store(raw(result, args, commit, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
