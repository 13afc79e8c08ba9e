"""The command line's own readers on hostile input, through the real program: its line
reader quotes a bounded prefix of a huge line, and ``play --load`` reads regular files
only, as JSON the library's way (no key twice), quoting a bounded prefix of a bad field."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from _cli import APP, ENV, run, script
from yahtzee_rules import GameRecord

HUGE = 200_000


def _saved(**fields: object) -> str:
    document: dict[str, object] = {
        "format": "yahtzee-rules saved game",
        "version": 1,
        "computer_players": {},
        "record": str(GameRecord.new(["Ann"])),
    }
    document.update(fields)
    return json.dumps(document)


def test_a_huge_command_line_is_quoted_by_a_bounded_prefix() -> None:
    for line in ("x" * HUGE, "r " + "1" * HUGE, "quit " + "z" * HUGE):
        result = run("play", "Ann", "--seed", "1", stdin=script(line, "quit"))
        assert result.returncode == 0, result.stderr
        errors = [text for text in result.stdout.splitlines() if "error" in text]
        assert errors, result.stdout[-500:]
        assert all(len(text) < 1_000 for text in errors), max(map(len, errors))
        assert "characters): " in errors[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_loading_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game.json")
    try:
        result = subprocess.run(
            [*APP, "play", "--load", "game.json"],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=20,
            cwd=tmp_path,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("play --load of a FIFO hung")
    assert result.returncode == 2
    assert "load 'game.json': not a regular file" in result.stderr


def test_loading_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "game.json").mkdir()
    result = run("play", "--load", "game.json", cwd=tmp_path)
    assert result.returncode == 2
    assert "load 'game.json': " in result.stderr


def test_a_save_file_with_a_key_twice_is_refused(tmp_path: Path) -> None:
    text = _saved()[:-1] + ', "record": "forced 0 Bob :"}'
    (tmp_path / "game.json").write_text(text)
    result = run("play", "--load", "game.json", cwd=tmp_path)
    assert result.returncode == 2
    assert "key 'record' appears twice in one object" in result.stderr


@pytest.mark.parametrize(
    "fields",
    [
        {"computer_players": {"Ann": "x" * 900_000}},
        {"computer_players": ["x" * 900_000]},
        {"version": "x" * 900_000},
        {"record": "forced 0 Ann : " + "x" * 900_000},
    ],
    ids=["bot kind", "bots", "version", "record"],
)
def test_a_bad_field_of_a_save_file_is_quoted_by_a_bounded_prefix(
    tmp_path: Path, fields: dict[str, object]
) -> None:
    (tmp_path / "game.json").write_text(_saved(**fields))
    result = run("play", "--load", "game.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("yahtzee-rules: error: load 'game.json': ")
    assert len(result.stderr) < 2_000, len(result.stderr)
