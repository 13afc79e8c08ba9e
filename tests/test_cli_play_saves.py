"""The ``play`` command's saved games: save files, share codes and their QR codes,
resuming, and the refusals of damaged or mismatched saves.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from _cli import APP, ENV, SRC, Terminal, pty_only, run, script
from yahtzee_rules import Category, GameRecord
from yahtzee_rules.apps.cli import main
from yahtzee_rules.apps.cli.console import ScriptConsole
from yahtzee_rules.apps.cli.play import Session
from yahtzee_rules.play.record import Fill


def _terminal_image(lines: list[str], background: str) -> Any:
    """The half-block text as a terminal shows it: each character a cell 4 pixels wide
    and 8 high, its upper and lower halves in the text colour where drawn, on the
    background's colour, with 8 cells of the terminal's background round it."""
    image = pytest.importorskip("PIL.Image", reason="the QR tests draw the text with Pillow")
    text, paper = (0, 255) if background == "light" else (255, 0)
    width = max(map(len, lines)) + 16
    picture = image.new("L", (4 * width, 8 * (len(lines) + 16)), paper)
    halves = {"\u2588": (0, 8), "\u2580": (0, 4), "\u2584": (4, 8)}
    for row, line in enumerate(lines, 8):
        for column, char in enumerate(line, 8):
            if char in halves:
                top, bottom = halves[char]
                box = (4 * column, 8 * row + top, 4 * column + 4, 8 * row + bottom)
                picture.paste(text, box)
    return picture


def _decoded(lines: list[str], background: str) -> list[str]:
    """What a QR reader reads from the drawing (dark modules on light only, as many
    phones' readers take: no inverted codes)."""
    zxingcpp = pytest.importorskip("zxingcpp", reason="the QR tests decode with zxing-cpp")
    image = _terminal_image(lines, background)
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    return [code.text for code in found]


def _two_players_rolling_three_times() -> list[GameRecord]:
    """Every position of a two-player game whose every turn rolls three times."""
    record = GameRecord.new(["Ann", "Robo"])
    rng = random.Random(3)
    records = [record]
    while not record.game.is_over:
        for _ in range(3):
            record = record.roll(rng)
            records.append(record)
        options = record.game.box_options()
        record = record.fill(next(box for box, option in options.items() if option.is_legal))
        records.append(record)
    return records


@pty_only
def test_the_terminal_qr_code_fits_24_lines_and_scans_on_either_background() -> None:
    pytest.importorskip("segno")
    # The longest share code a QR code in 24 lines holds (version 6, 134 characters): the
    # two-player game in round 7, before its fill, which makes the code too long for it.
    records = _two_players_rolling_three_times()
    record, filled = records[55], records[56]
    code = record.share_code()
    assert (len(code), record.game.round, len(filled.share_code())) == (134, 7, 136)
    fill = filled.actions[-1]
    assert isinstance(fill, Fill)
    term = Terminal("play", "--code", code, size=(80, 24))
    term.expect("Robo> ")
    for background in ("dark", "light"):
        term.send(f"code --{background}")
        screen = term.expect("Robo> ").split("\n")
        title = next(n for n, line in enumerate(screen) if line.startswith("QR code for a "))
        assert screen[title].startswith(f"QR code for a {background} background")
        drawing = screen[title + 1 : -1]
        assert len(drawing) + 1 <= 24  # the drawing and the prompt fill the terminal at most
        assert _decoded(drawing, background) == [code]
    term.send(f"f {fill.category.code}")
    term.expect("Ann> ")
    term.send("code")
    shown = term.expect("Ann> ")
    assert "too long for a QR code in this terminal's 24 lines (it needs 26)" in shown
    assert "write it as an image with 'code --qr game.png'" in shown
    assert "\u2584" not in shown  # nothing drawn past the limit
    term.send("quit")
    term.expect("save to file> ")
    term.send("")
    assert term.wait() == 0


def test_a_code_longer_than_any_qr_code_holds_is_given_as_text_only(tmp_path: Path) -> None:
    pytest.importorskip("segno")
    record = GameRecord.new([f"Player {seat}" for seat in range(30)])
    rng = random.Random(1)
    while len(record.share_code()) <= 3_000:  # past the largest QR code's 2,953 bytes
        for _ in range(30):  # a round
            for _ in range(3):
                record = record.roll(rng)
            options = record.game.box_options()
            record = record.fill(next(box for box, opt in options.items() if opt.is_legal))
    console = ScriptConsole(["code", "code --qr game.png", "quit", ""], size=(200, 60))
    with contextlib.chdir(tmp_path):
        assert Session(record, rng, console).run() == 0
    shown = console.transcript()
    assert "The share code is too long for any QR code; copy its text above." in shown
    assert "the share code's" in shown
    assert "characters are more than the largest QR code holds; copy the code's text" in shown
    assert list(tmp_path.iterdir()) == []


def test_a_game_resumed_from_a_code_says_who_plays_which_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = GameRecord.new(["Ann", "Robo"]).share_code()
    alone = run("play", "--code", code, stdin=script("quit", ""), cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
    assert (
        "People play every seat at this terminal: Ann and Robo (a share code keeps no "
        "computer players). To have the computer play a seat, add --bot KIND NAME to the "
        "command, such as --bot greedy Robo."
    ) in alone.stdout
    monkeypatch.setattr("sys.stdin", io.StringIO(script("quit", "")))
    assert main(["play", "--code", code, "--bot", "greedy", "Robo"]) == 0
    kept = capsys.readouterr().out
    assert "People play Ann at this terminal; the computer plays Robo (greedy)." in kept


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
