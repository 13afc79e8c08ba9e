"""The solver's cache directory as someone with write access to it may leave it.

Every failure is made for real: a FIFO (``os.mkfifo``) in a table's place, a zip bomb
written with the right key, a directory that may not be searched (``chmod 000``:
skipped as root, whom it does not stop; a path too long for the system and a loop of
symbolic links are other real ``OSError`` classes, tried as anyone), decision codes
naming no action written into a real decision file, and a writer killed with SIGKILL
in the middle of its write. Each costs only a rebuild: never a hang, an exception,
gigabytes or a temporary file left for good.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from yahtzee_rules import Category, Rules, Scorecard, Turn

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.solver import _storage  # noqa: E402
from yahtzee_rules.bots.solver._codes import BOX, DamagedDecisionsError  # noqa: E402
from yahtzee_rules.bots.solver._decisions import best_action  # noqa: E402

#: Two boxes open: the table, its decisions and a target table build in moments.
LATE = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})


#: One box open: another table, for another write.
NEXT = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    return tmp_path


def _within(seconds: float, call: Callable[[], Any], fifo: Path) -> list[Any]:
    """``[call()]`` if it returns within ``seconds``, else ``[]``; a reader it left
    blocked opening ``fifo`` is released (a writer opens the FIFO) before returning."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(seconds)
        return []
    return result


def _fifo_in_place_of(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


# --------------------------------------------------------------------------------------
# Only regular files are opened.
# --------------------------------------------------------------------------------------


def test_a_fifo_in_place_of_a_table_is_rebuilt_over_without_hanging(cache: Path) -> None:
    built = solver.load_table(start=LATE)
    path = solver.cache_path(start=LATE)
    _fifo_in_place_of(path)
    assert solver.cached_table(start=LATE) is None
    seen: list[tuple[int, int]] = []
    found = _within(
        30, lambda: solver.load_table(start=LATE, progress=lambda *p: seen.append(p)), path
    )
    assert found, "load_table hung opening a FIFO"
    assert seen, "no rebuild"
    assert found[0].value(LATE) == built.value(LATE)
    assert path.is_file()  # the FIFO was replaced by the rebuilt table


@pytest.mark.parametrize("which", ["codes", "key"])
def test_a_fifo_in_place_of_a_decision_file_is_rebuilt_over(cache: Path, which: str) -> None:
    decisions = solver.load_decisions(solver.load_table(start=LATE))
    path = decisions.path if which == "codes" else decisions.path.with_suffix(".npz")
    _fifo_in_place_of(path)
    found = _within(30, lambda: solver.load_decisions(solver.load_table(start=LATE)), path)
    assert found, "load_decisions hung opening a FIFO"
    assert found[0].states == decisions.states
    assert path.is_file()


def test_a_fifo_in_place_of_a_target_table_is_rebuilt_over(cache: Path) -> None:
    built = solver.target_table(start=LATE, maximum=60)
    (path,) = cache.glob("target-*.npz")
    _fifo_in_place_of(path)
    found = _within(30, lambda: solver.target_table(start=LATE, maximum=60), path)
    assert found, "target_table hung opening a FIFO"
    assert found[0].probability(LATE, 30) == built.probability(LATE, 30)
    assert path.is_file()


def test_a_device_in_place_of_a_table_is_never_read(cache: Path) -> None:
    path = solver.cache_path(start=LATE)
    path.symlink_to("/dev/zero")  # endless zeros: a link is followed to regular files only
    assert solver.cached_table(start=LATE) is None
    assert solver.load_table(start=LATE).value(LATE) > 0


# --------------------------------------------------------------------------------------
# A cache that cannot be read only costs a rebuild, and the coach stays up.
# --------------------------------------------------------------------------------------


def _unreadable(kind: str, tmp_path: Path) -> Path:
    """A cache directory that cannot be read, in one of several real ways."""
    if kind == "not searchable":
        directory = tmp_path / "locked"
        directory.mkdir()
        directory.chmod(0)
        return directory
    if kind == "name too long":  # ENAMETOOLONG
        return tmp_path / ("x" * 300)
    if kind == "link loop":  # ELOOP
        loop = tmp_path / "loop"
        loop.symlink_to(loop)
        return loop / "tables"
    raise AssertionError(kind)


KINDS = [
    pytest.param(
        "not searchable",
        marks=pytest.mark.skipif(
            hasattr(os, "geteuid") and os.geteuid() == 0,
            reason="chmod 000 does not stop root; the other kinds are real failures too",
        ),
    ),
    "name too long",
    "link loop",
]


@pytest.mark.parametrize("kind", KINDS)
def test_a_cache_that_cannot_be_read_costs_only_a_rebuild(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = _unreadable(kind, tmp_path)
    try:
        monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(directory))
        assert solver.cached_table(start=LATE) is None
        table = solver.load_table(start=LATE)
        assert table.value(LATE) == solver.load_table(start=LATE, cache=False).value(LATE)
        assert solver.load_decisions(table).states > 0
        assert solver.target_table(start=LATE, maximum=30).probability(LATE, 10) > 0
    finally:
        with contextlib.suppress(OSError):
            directory.chmod(0o700)


@pytest.mark.parametrize("kind", KINDS)
def test_the_web_coach_answers_when_the_cache_cannot_be_read(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from yahtzee_rules import GameRecord
    from yahtzee_rules.apps.web import create_app

    directory = _unreadable(kind, tmp_path)
    try:
        monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(directory))
        record = GameRecord.new(["Ann"], rules=Rules.from_name("yacht")).roll(outcome="12266")
        client = TestClient(create_app(), raise_server_exceptions=False)
        page = client.get(f"/play/{record.share_code()}?seats=h&coach=1")
        assert page.status_code == 200
        assert "Coach (Heuristic):" in page.text
    finally:
        with contextlib.suppress(OSError):
            directory.chmod(0o700)


# --------------------------------------------------------------------------------------
# What is decompressed is bounded by what a good file holds.
# --------------------------------------------------------------------------------------

BOMB_BYTES = 400_000_000  # decompressed; a few hundred KB on disk


def _bomb(path: Path, member: str) -> None:
    """Replace the ``.npz`` file ``path`` by a zip bomb: its own key (so that it is read),
    then ``member`` as an array of ``BOMB_BYTES`` zero bytes, deflated."""
    with np.load(path, allow_pickle=False) as data:
        key = np.array(data["key"])
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        if member != "key":
            with archive.open("key.npy", "w") as stream:
                np.save(stream, key)
        with archive.open(f"{member}.npy", "w", force_zip64=True) as stream:
            header = io.BytesIO()
            dtype = "<U100000" if member == "key" else "<f8"
            count = BOMB_BYTES // np.dtype(dtype).itemsize
            np.lib.format.write_array_header_2_0(
                header, {"descr": dtype, "fortran_order": False, "shape": (count,)}
            )
            stream.write(header.getvalue())
            chunk = bytes(4_000_000)
            for _ in range(BOMB_BYTES // len(chunk)):
                stream.write(chunk)
    assert path.stat().st_size < BOMB_BYTES // 100


@pytest.mark.parametrize("member", ["values", "key"])
def test_a_zip_bomb_in_place_of_a_table_is_not_decompressed(cache: Path, member: str) -> None:
    built = solver.load_table(start=LATE)
    path = solver.cache_path(start=LATE)
    _bomb(path, member)
    tracemalloc.start()
    try:
        begun = time.perf_counter()
        table = solver.load_table(start=LATE)
        spent = time.perf_counter() - begun
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table.value(LATE) == built.value(LATE)
    assert peak < 64_000_000, f"{peak:,} bytes allocated reading a zip bomb"
    assert spent < 10, f"{spent:.1f} s reading a zip bomb"
    assert path.stat().st_size < 64_000_000  # the rebuilt table replaced the bomb


# --------------------------------------------------------------------------------------
# Decision codes are checked before they are played.
# --------------------------------------------------------------------------------------

#: A code past every roll's sub-keeps and every box; a keep slot that is no keep of
#: the roll 11111 (five sub-keeps); the code of Aces, a box LATE has filled.
BAD_CODES = {"past every box": 255, "no keep of the roll": BOX - 1, "a filled box": BOX}


def _damage_codes(path: Path, code: int) -> None:
    """Write ``code`` into every decision of the file ``path`` (its header kept)."""
    with path.open("rb") as stream:
        np.lib.format.read_magic(stream)
        np.lib.format.read_array_header_1_0(stream)
        offset = stream.tell()
    data = bytearray(path.read_bytes())
    data[offset:] = bytes([code]) * (len(data) - offset)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("code", BAD_CODES.values(), ids=BAD_CODES.keys())
def test_damaged_decision_codes_are_never_played(cache: Path, code: int) -> None:
    decisions = solver.load_decisions(solver.load_table(start=LATE))
    _damage_codes(decisions.path, code)
    plain = solver.build_table(start=LATE)  # no decisions: the per-turn tables
    table = solver.load_table(start=LATE)  # a fresh table finds the damaged file
    for outcome in ("11111", "66612", "12345", "55555"):
        turn = Turn(LATE).roll(outcome=outcome)
        assert best_action(turn, table) == best_action(turn, plain)
        assert solver.best_box(turn, table) == solver.best_box(turn, plain)
    assert not decisions.path.exists(), "the damaged file was kept"
    again = solver.load_decisions(solver.load_table(start=LATE))  # rebuilt
    assert again.best_action(Turn(LATE).roll(outcome="66612")) == best_action(
        Turn(LATE).roll(outcome="66612"), plain
    )


@pytest.mark.parametrize("code", BAD_CODES.values(), ids=BAD_CODES.keys())
def test_whole_games_from_damaged_codes_report_the_damage(cache: Path, code: int) -> None:
    import random

    from yahtzee_rules.bots.solver._decisions import cached
    from yahtzee_rules.bots.solver._play import decided_scores

    decisions = solver.load_decisions(solver.load_table(start=LATE))
    _damage_codes(decisions.path, code)
    found = cached(solver.load_table(start=LATE))
    assert found is not None  # the file is read; its codes are checked as they are played
    with pytest.raises(DamagedDecisionsError):
        decided_scores([found], games=20, rules=Rules(), rng=random.Random(1), start=LATE)


# --------------------------------------------------------------------------------------
# A writer killed mid-write leaves a temporary the next write removes.
# --------------------------------------------------------------------------------------

_WRITER = """
import sys, time
from pathlib import Path
from yahtzee_rules.bots.solver._storage import write_atomic

def save(stream):
    stream.write(b"half a table")
    stream.flush()
    print("writing", flush=True)
    time.sleep(120)

write_atomic(Path(sys.argv[1]), ".optimal-", save)
"""


def _writer(path: Path) -> subprocess.Popen[str]:
    """A process writing ``path`` with :func:`write_atomic`, stopped in the middle."""
    process = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "writing\n"
    return process


def _reap(process: subprocess.Popen[str]) -> None:
    process.wait()
    assert process.stdout is not None
    process.stdout.close()


def test_a_temporary_left_by_a_killed_writer_is_removed_by_the_next_write(cache: Path) -> None:
    path = solver.cache_path(start=LATE)
    process = _writer(path)
    process.send_signal(signal.SIGKILL)
    _reap(process)
    left = list(cache.glob(".optimal-*.tmp"))
    assert len(left) == 1, "the killed writer left no temporary"
    assert not path.exists()
    solver.load_table(start=LATE)  # a build and a write
    assert not left[0].exists(), "the dead writer's temporary was kept"
    assert [p.name for p in cache.iterdir()] == [path.name]


def test_a_live_writer_s_temporary_is_kept_until_it_is_an_hour_old(cache: Path) -> None:
    path = solver.cache_path(start=LATE)
    process = _writer(path)
    try:
        (live,) = cache.glob(".optimal-*.tmp")
        solver.load_table(start=LATE)
        assert live.exists(), "a running writer's temporary was removed"
        old = time.time() - _storage.STALE_TEMPORARY_SECONDS - 60
        os.utime(live, (old, old))  # say, a writer on another machine that died
        solver.load_table(start=NEXT)  # another table: another write
        assert not live.exists(), "an hour-old temporary was kept"
    finally:
        process.kill()
        _reap(process)


def test_temporaries_of_earlier_versions_go_by_age_and_other_files_stay(cache: Path) -> None:
    fresh, old = cache / ".optimal-k2j4h5g6.tmp", cache / ".decisions-a1b2c3d4.tmp"
    other = cache / ".notes-1-abc.tmp"  # not a temporary of the cache: never touched
    for path in (fresh, old, other):
        path.write_bytes(b"half")
    stale = time.time() - _storage.STALE_TEMPORARY_SECONDS - 60
    for path in (old, other):
        os.utime(path, (stale, stale))
    solver.load_table(start=LATE)  # a build and a write
    assert fresh.exists()
    assert not old.exists()
    assert other.exists()
