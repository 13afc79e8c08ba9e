"""The cache through the real program: what it holds, its limit, large writes announced,
distributions cached, and targets no game reaches answered at once.

Every test runs the program with ``YAHTZEE_RULES_CACHE_DIR`` set to a directory of its
own under ``tmp_path``, never the user's cache nor the session's: the one table a test
needs is copied there from the session's cache (built once for the whole session).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from _cli import APP, ENV
from yahtzee_rules import Rules
from yahtzee_rules.formats.notation import parse_scorecard
from yahtzee_rules.play.totals import totals

#: A Classic card with Sixes, Yahtzee and Chance open: cheap to solve from.
LATE = "1=3,2=6,3=9,4=12,5=15,3k=22,4k=0,fh=25,ss=30,ls=40"


def _run(cache: Path, *args: str, limit: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**ENV, "YAHTZEE_RULES_CACHE_DIR": str(cache)}
    env.pop("YAHTZEE_RULES_CACHE_LIMIT", None)
    if limit is not None:
        env["YAHTZEE_RULES_CACHE_LIMIT"] = limit
    return subprocess.run([*APP, *args], capture_output=True, text=True, env=env, timeout=120)


def _names(cache: Path) -> set[str]:
    return {path.name for path in cache.iterdir()} if cache.exists() else set()


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A cache directory of the test's own, holding Hasbro's table (from the session's cache)."""
    from yahtzee_rules.bots.solver import cache_path, load_table

    load_table()
    directory = tmp_path / "cache"
    directory.mkdir()
    shutil.copy2(cache_path(), directory)
    return directory


def test_a_target_no_game_reaches_is_0_at_once_with_nothing_built(tmp_path: Path) -> None:
    empty = tmp_path / "cache"
    shown = _run(empty, "target", "2000")
    assert shown.returncode == 0, shown.stderr
    assert "No game can reach it: a game from there ends with 1575 points at most." in shown.stdout
    assert "Best chance (playing for the target):  0.0000000" in shown.stdout
    assert "Optimal play (the highest mean):       0.0000000" in shown.stdout
    # the most from a card: 50 in Yahtzee, then 66666 in Sixes and in Chance, each +100,
    # and the upper bonus (45 + 30 reaches 63)
    card = parse_scorecard(LATE)
    most = totals(card, rules=Rules()).grand_total + 50 + 2 * (30 + 100) + 35
    shown = _run(empty, "target", str(most + 1), "--card", LATE)
    assert shown.returncode == 0, shown.stderr
    assert f"a game from there ends with {most} points at most" in shown.stdout
    assert "0.0000000" in shown.stdout
    assert _names(empty) == set()  # no table was built, nor written


def test_a_large_write_is_announced_before_it_starts_and_the_most_is_reachable(
    cache: Path,
) -> None:
    card = parse_scorecard(LATE)
    most = totals(card, rules=Rules()).grand_total + 50 + 2 * (30 + 100) + 35
    shown = _run(cache, "target", str(most), "--card", LATE)
    assert shown.returncode == 0, shown.stderr
    best = float(shown.stdout.split("Best chance (playing for the target):")[1].split()[0])
    assert best > 0  # the most is a total a game can end with
    notice = shown.stderr.splitlines()[0]  # before any progress
    assert notice.startswith("Writing a target table of about 4."), shown.stderr
    written = next(cache.glob("target-forced-*.npz"))
    assert f"MB to {written} (the cache keeps at most 2.0 GB" in notice
    announced = float(notice.split("about ")[1].split(" MB")[0]) * 1e6
    assert abs(written.stat().st_size - announced) < 0.05 * announced


def test_distributions_are_cached_listed_evicted_and_removed(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from yahtzee_rules.apps.cli import main

    table = next(cache.glob("optimal-forced-*.npz"))
    # two tables used an hour and half an hour ago, 1 MB each, over a limit of 1.5 MB more
    old, older = cache / f"target-forced-300-{'a' * 20}.npz", cache / f"decisions-yatzy-{'b' * 20}"
    old.write_bytes(b"\0" * 1_000_000)
    for suffix in (".npy", ".npz"):
        Path(f"{older}{suffix}").write_bytes(b"\0" * 500_000)
    now = time.time()
    os.utime(old, (now - 1800, now - 1800))
    for suffix in (".npy", ".npz"):
        os.utime(f"{older}{suffix}", (now - 3600, now - 3600))
    limit = str(table.stat().st_size + 1_500_000)

    first = _run(cache, "distribution", "--card", LATE, limit=limit)
    assert first.returncode == 0, first.stderr
    assert "distribution:" in first.stderr  # worked out, with its progress
    saved = next(cache.glob("distribution-forced-*.npz"))
    # the least recently used table went (both its files), the rest fit the limit
    assert _names(cache) == {table.name, old.name, saved.name}
    again = _run(cache, "distribution", "--card", LATE, limit=limit)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert "distribution:" not in again.stderr  # read back: nothing worked out

    # listing and removing: the program's own entry point, in this process
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(cache))
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_LIMIT", limit)
    assert main(["cache", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["directory"] == str(cache)
    assert listed["limit"] == int(limit)
    kinds = {entry["kind"]: entry for entry in listed["entries"]}
    assert set(kinds) == {"optimal", "target", "distribution"}
    assert kinds["optimal"]["bytes"] == table.stat().st_size
    assert kinds["target"]["maximum"] == 300
    assert listed["entries"][0]["kind"] == "distribution"  # the most recently used first
    assert listed["bytes"] == sum(path.stat().st_size for path in cache.iterdir())

    assert main(["cache"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith(f"Cache {cache}: 3 tables, ")
    assert text[1].split() == ["Kind", "Ruleset", "Size", "Last", "used", "File"]
    assert text[2].split()[:2] == ["distribution", "forced"]
    assert "target to 300" in "\n".join(text)
    assert main(["cache", "remove", "--rules", "yatzy"]) == 0  # its decision table went
    assert capsys.readouterr().out.startswith("Removed 0 tables (0 bytes)")
    assert main(["cache", "remove", "--kind", "distribution"]) == 0
    assert capsys.readouterr().out.startswith("Removed 1 table (4.")
    assert _names(cache) == {table.name, old.name}
    assert main(["cache", "remove", "--all", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["removed"]) == 2
    assert _names(cache) == set()


def test_cache_refuses_what_it_cannot_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from yahtzee_rules.apps.cli import main

    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    for argv, said in (
        (["cache", "remove"], "which tables? give --all, --rules NAME or --kind KIND"),
        (["cache", "remove", "--kind", "tables"], "use one of optimal, decisions, target"),
        (["cache", "--all"], "--all goes with remove"),
        (["cache", "remove", "--all", "--kind", "target"], "leave out --rules and --kind"),
    ):
        assert main(argv) == 2
        assert said in capsys.readouterr().err
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_LIMIT", "lots")
    assert main(["cache"]) == 2
    assert "YAHTZEE_RULES_CACHE_LIMIT 'lots': not a size" in capsys.readouterr().err


def test_a_file_over_the_whole_limit_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yahtzee_rules.bots.solver import load_table, score_distribution

    yacht = Rules.from_name("yacht")
    table = load_table(rules=yacht)  # the session's
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_LIMIT", "1k")
    other = tmp_path / f"target-yacht-5-{'e' * 20}.npz"
    other.write_bytes(b"\0" * 900)
    found = score_distribution(rules=yacht, table=table)  # 3.5 kB to keep: over 1 kB
    assert round(found.mean, 4) == 166.9551
    assert _names(tmp_path) == {other.name}  # not kept, and nothing else removed for it


@pytest.mark.slow
def test_solve_announces_the_table_it_writes(tmp_path: Path) -> None:
    shown = _run(tmp_path / "cache", "solve")
    assert shown.returncode == 0, shown.stderr
    written = next((tmp_path / "cache").glob("optimal-forced-*.npz"))
    assert f"Writing an expected-value table of about 8.4 MB to {written}" in shown.stderr
