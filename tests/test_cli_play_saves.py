"""The ``play`` command's saved games: save files, share codes and their QR codes,
resuming, and the refusals of damaged or mismatched saves.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from _cli import APP, ENV, SRC, Terminal, pty_only, run, script
from yahtzee_rules import Category, GameRecord
from yahtzee_rules.apps.cli import main


@pty_only
def test_code_on_a_terminal_draws_the_qr_code() -> None:
    pytest.importorskip("segno")
    term = Terminal("play", "Ann", "--seed", "1")
    term.expect("Ann> ")
    term.send("code")
    shown = term.expect("Ann> ")
    assert "Share code: " in shown
    assert shown.count("\u2588\u2588\u2588\u2588") > 10  # the quiet zone and modules, in blocks
    term.send("quit")
    term.expect("save to file> ")
    term.send("")
    assert term.wait() == 0


def test_a_game_saved_to_a_file_or_a_code_resumes_where_it_stopped(tmp_path: Path) -> None:
    first = run(
        "play",
        "Ann",
        "--seed",
        "8",
        stdin=script("r 1 2", "f c", "r 3", "save game.json", "code", "quit", ""),
        cwd=tmp_path,
    )
    assert first.returncode == 0, first.stderr
    code = re.findall(r"Share code: (\S+)", first.stdout)[0]
    record = json.loads((tmp_path / "game.json").read_text())["record"]
    game = GameRecord.parse(record).game
    assert game.player_card("Ann")[Category.CHANCE] is not None
    assert game.rolls_left == 1
    assert GameRecord.from_share_code(code).game == game
    for how in (["--load", "game.json"], ["--code", code]):
        again = run("play", *how, stdin=script("f ss", "quit", ""), cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        assert "Resuming: Ann, round 2." in again.stdout
        assert "roll 2 of 3, 1 roll left" in again.stdout
        assert f"Ann fills Small Straight with {game.dice} for " in again.stdout


def test_the_printed_resume_commands_keep_computer_players_computer_players(
    tmp_path: Path,
) -> None:
    first = run(
        "play",
        "Ann",
        "--bot",
        "greedy",
        "Cy Young",
        "--seed",
        "4",
        stdin=script("f c", "code", "quit", ""),
        cwd=tmp_path,
    )
    assert first.returncode == 0, first.stderr
    printed = [
        line.split(": ", 1)[1]
        for line in first.stdout.splitlines()
        if line.startswith(("Resume with: ", "Game not saved to a file. To resume it: "))
    ]
    assert len(printed) == 2
    for command in printed:
        words = shlex.split(command)
        assert words[:3] == ["yahtzee-rules", "play", "--code"]
        assert words[4:] == ["--bot", "greedy", "Cy Young"]
        again = run(*words[1:], stdin=script("f ss", "quit", ""), cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        assert "Resuming: Ann, Cy Young, round 2." in again.stdout
        assert "Cy Young> " not in again.stdout  # the computer plays its own turns
        assert again.stdout.count("Cy Young (greedy): ") == 1


def test_answering_n_to_save_first_saves_nothing(tmp_path: Path) -> None:
    result = run("play", "Ann", "--seed", "1", stdin=script("f c", "quit", "n"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "save to file> n\nGame not saved to a file. To resume it: " in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_save_asks_before_overwriting_another_file(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("keep me")
    result = run(
        "play",
        "Ann",
        "--seed",
        "1",
        stdin=script("save game.json", "no", "f c", "quit", "game.json", "", "other.json"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("game.json exists already. Type y to overwrite it") == 2
    assert out.count("Not saved; game.json is unchanged.") == 2
    assert (tmp_path / "game.json").read_text() == "keep me"
    assert "Saved to other.json." in out
    again = run(
        "play", "--load", "other.json", stdin=script("save game.json", "y", "quit"), cwd=tmp_path
    )
    assert "Saved to game.json." in again.stdout
    assert "The game is saved in game.json." in again.stdout  # its own file: no question
    assert GameRecord.parse(json.loads((tmp_path / "game.json").read_text())["record"])


def test_a_save_path_starting_with_a_tilde_is_in_the_home_folder(tmp_path: Path) -> None:
    env = {**ENV, "HOME": str(tmp_path)}
    saved = subprocess.run(
        [*APP, "play", "Ann", "--seed", "1"],
        input=script("save ~/game.json", "quit"),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=tmp_path / "..",
    )
    assert saved.returncode == 0, saved.stderr
    assert (tmp_path / "game.json").exists()
    loaded = subprocess.run(
        [*APP, "play", "--load", "~/game.json"],
        input=script("quit"),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert "Resuming: Ann, round 1." in loaded.stdout


def test_a_share_code_cut_short_is_called_incomplete() -> None:
    code = GameRecord.new(["Ann"]).roll(outcome="66666").share_code()
    for short in (code[:3], code[:7], code[:11]):
        result = run("play", "--code", short)
        assert result.returncode == 2
        assert result.stderr == (
            f"yahtzee-rules: error: share code {short!r}: incomplete; {len(short)} characters "
            f"is no whole code's length, so the code is cut off\n"
        )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a saved game"),
        (
            '{"format": "yahtzee-rules saved game", "version": 2, "computer_players": {}, '
            '"record": ""}',
            "save-file version 2",
        ),
        (
            '{"format": "yahtzee-rules saved game", "version": 1, "computer_players": {}, '
            '"record": "forced 0 Ann : 12345 c c"}',
            "action 2 'c'",
        ),
        (
            '{"format": "yahtzee-rules saved game", "version": 1, '
            '"computer_players": {"Zed": "greedy"}, "record": "forced 0 Ann :"}',
            "computer_players",
        ),
    ],
)
def test_a_damaged_save_file_is_refused_with_a_message(
    tmp_path: Path, content: str, message: str
) -> None:
    (tmp_path / "bad.json").write_text(content)
    result = run("play", "--load", "bad.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("yahtzee-rules: error: load 'bad.json': ")
    assert message in result.stderr


def test_resume_refuses_names_and_unknown_computer_players() -> None:
    code = GameRecord.new(["Ann"]).share_code()
    names = run("play", "Bob", "--code", code)
    assert names.returncode == 2
    assert "the saved game has its own players" in names.stderr
    stranger = run("play", "--code", code, "--bot", "greedy", "Zed")
    assert stranger.returncode == 2
    assert "'Zed' is not a player of the saved game" in stranger.stderr
    rules = run("play", "--code", code, "--joker", "free")
    assert rules.returncode == 2
    assert "the saved game plays with the forced Joker" in rules.stderr


def test_code_writes_the_share_code_as_a_qr_image(tmp_path: Path) -> None:
    segno = pytest.importorskip("segno")
    result = run(
        "play",
        "Ann",
        "--seed",
        "1",
        stdin=script("code --qr game.svg", "code --qr game.png", "code --qr game.txt", "quit", ""),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    code = re.findall(r"Share code: (\S+)", result.stdout)[0]
    assert "QR code written to game.svg; scanning it gives the share code." in result.stdout
    assert "QR code written to game.png; scanning it gives the share code." in result.stdout
    assert "error: code --qr 'game.txt': the image is written as SVG or PNG" in result.stdout
    assert "\u2588" not in result.stdout  # piped output: no QR drawn in the text
    for name, kind in (("game.svg", "svg"), ("game.png", "png")):
        expected = io.BytesIO()
        segno.make(code, error="m").save(expected, kind=kind, scale=8)
        assert (tmp_path / name).read_bytes() == expected.getvalue()  # the code's QR code
    assert GameRecord.from_share_code(code).game.players == ("Ann",)


def test_without_segno_code_qr_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "segno").mkdir()
    (tmp_path / "segno" / "__init__.py").write_text("raise ImportError('no segno here')\n")
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(SRC)])}
    result = subprocess.run(
        [*APP, "play", "Ann", "--seed", "1"],
        input=script("code --qr game.svg", "code", "quit", ""),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert (
        'QR codes need segno, which is not installed; install it with pip install "yahtzee-rules[qr]"'
        in result.stdout
    )
    assert "Share code: " in result.stdout  # plain 'code' needs nothing more


def test_play_load_refuses_deeply_nested_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["play", "--load", str(path)]) == 2
    assert "not readable: maximum recursion depth" in capsys.readouterr().err


def test_resuming_with_other_rules_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = GameRecord.new(["Ann"]).share_code()
    assert main(["play", "--code", code, "--rules", "yacht"]) == 2
    assert "the saved game plays by the forced rules" in capsys.readouterr().err
