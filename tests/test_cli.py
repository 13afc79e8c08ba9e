"""The command-line app, driven as a real program: piped input, a pseudo-terminal, exit codes.

Unit tests cover the parsing of prompt commands and the statistics; everything
else runs ``python -m yahtzee_rules`` in a subprocess, as a player would.
"""

from __future__ import annotations

import ast
import contextlib
import io
import itertools
import json
import os
import random
import re
import select
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import yahtzee_rules
from _records import play_off_tie_record
from yahtzee_rules import (
    Box,
    Category,
    Dice,
    Game,
    GameRecord,
    JokerRule,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    roll_off,
)
from yahtzee_rules.cli import main, score_table
from yahtzee_rules.cli.commands import Fill, Quit, Roll, Save, Undo, parse_command, parse_positions
from yahtzee_rules.cli.stats import histogram, summary_lines
from yahtzee_rules.demo import DEMO_SEED, play_demo
from yahtzee_rules.render import render_scorecards

SRC = Path(yahtzee_rules.__file__).resolve().parents[1]
ROOT = SRC.parent
ENV = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
APP = [sys.executable, "-m", "yahtzee_rules"]


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the app with ``stdin`` piped in; stdout and stderr kept apart."""
    return subprocess.run(
        [*APP, *args], input=stdin, capture_output=True, text=True, env=ENV, timeout=60, cwd=cwd
    )


def script(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


# --- parsing prompt commands --------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("r", Roll(())),
        ("roll", Roll(())),
        ("r 1 3 4", Roll((1, 3, 4))),
        ("R 431", Roll((1, 3, 4))),
        ("hold 1,3,4", Roll((1, 3, 4))),
        ("keep 5", Roll((5,))),
        ("  f fh  ", Fill(Category.FULL_HOUSE)),
        ("fill full house", Fill(Category.FULL_HOUSE)),
        ("fill Full-House", Fill(Category.FULL_HOUSE)),
        ("f 4", Fill(Category.FOURS)),
        ("f ones", Fill(Category.ACES)),
        ("F C", Fill(Category.CHANCE)),
        ("undo", Undo()),
        ("U", Undo()),
        ("save my game.json", Save("my game.json")),
        ("quit", Quit()),
        ("exit", Quit()),
    ],
)
def test_parse_command_reads_each_form(line: str, command: object) -> None:
    assert parse_command(line) == command


@pytest.mark.parametrize(
    ("line", "quoted", "advice"),
    [
        ("", "''", "type 'help'"),
        ("jump", "'jump'", "type 'help'"),
        ("hold", "'hold'", "'r' alone rolls all five"),
        ("r 0", "'0'", "positions 1 to 5"),
        ("r 1 1", "'1 1'", "given twice"),
        ("r x", "'x'", "positions 1 to 5"),
        ("f", "'f'", "such as 'f fh'"),
        ("f sixes please", "'sixes please'", "no such box"),
        ("save", "'save'", "such as 'save game.json'"),
        ("undo 2", "'undo 2'", "takes nothing after it"),
    ],
)
def test_parse_command_refuses_bad_input_with_a_message(
    line: str, quoted: str, advice: str
) -> None:
    with pytest.raises(MalformedInputError) as info:
        parse_command(line)
    message = str(info.value)
    assert quoted in message
    assert advice in message
    assert message == message[0].lower() + message[1:]


@given(st.text(max_size=30))
def test_parse_command_raises_only_malformed_input(line: str) -> None:
    try:
        command = parse_command(line)
    except MalformedInputError as error:
        assert str(error).startswith(("command ", "positions ", "category "))  # noqa: PT017
    else:
        assert line.strip()
        assert parse_command(f"  {line.upper()}  ") == command or isinstance(command, Save)


@given(st.lists(st.integers(1, 5), unique=True), st.sampled_from([" ", ",", "", ", "]))
def test_positions_in_any_order_and_spelling_read_back_sorted(
    positions: list[int], separator: str
) -> None:
    text = separator.join(map(str, positions))
    assert parse_positions(text) == tuple(sorted(positions))
    assert parse_command(f"r {text}") == Roll(tuple(sorted(positions)))


@given(st.sampled_from(list(Category)), st.sampled_from(["code", "label", "name"]))
def test_fill_accepts_every_box_by_code_label_and_name(category: Category, form: str) -> None:
    text = {"code": category.code, "label": category.label, "name": category.name}[form]
    assert parse_command(f"f {text}") == Fill(category)
    assert parse_command(f"fill {text.upper()}") == Fill(category)


@given(st.lists(st.integers(0, 375), min_size=1, max_size=200))
def test_histogram_counts_every_score_once(scores: list[int]) -> None:
    from yahtzee_rules import SimulationResult

    result = SimulationResult.from_scores(scores)
    rows = histogram(result).splitlines()
    counts = [int(row.split()[1]) for row in rows]
    assert sum(counts) == len(scores)
    assert len(rows) == len(result.histogram_bins())
    lines = summary_lines(result)
    assert lines[1] == f"mean       {result.mean:>8.2f}"
    assert lines[4:] == [f"min        {min(scores):>8}", f"max        {max(scores):>8}"]


def test_score_table_names_the_reason_for_each_closed_box() -> None:
    from yahtzee_rules import Rules, Scorecard

    card = Scorecard({Category.YAHTZEE: 50, Category.FOURS: 20})
    lines = score_table(Dice("44444"), card, rules=Rules()).splitlines()[2:]
    assert len(lines) == 13
    by_box = {line[:17].strip(): line[17:].split(None, 1) for line in lines}
    assert by_box["Fours"] == ["-", "Fours is already filled with 20; each box is filled once"]
    assert by_box["Full House"] == ["25", "+100 Yahtzee bonus"]
    assert by_box["Aces"][0] == "-"
    assert "open lower boxes" in by_box["Aces"][1]


# --- the real program, with piped input ---------------------------------------------


def test_no_arguments_plays_the_demo_game_in_short_and_says_how_to_play() -> None:
    result = run()
    _, log = play_demo(DEMO_SEED)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) < 70
    turns = [line for line in log if line.startswith("Round ")]
    assert len(turns) == 39
    assert lines[: 1 + len(turns)] == [log[0], *turns]
    assert log[-3] in result.stdout  # the final card
    assert lines[-4:-2] == log[-2:]  # standings and winner
    assert lines[-1].startswith("To play: yahtzee-rules play Ann Bob ")
    full = run("demo", "--full")
    assert full.stdout == "\n\n".join(log) + "\n"


def test_play_with_piped_input_reports_every_mistake_and_keeps_playing() -> None:
    result = run(
        "play",
        "Ann",
        "Bob",
        "--seed",
        "3",
        stdin=script("jump", "r 7", "hold", "f", "f nothing", "undo", "r 1 2", "undo", "quit", ""),
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    off = roll_off(["Ann", "Bob"], random.Random(3))
    starter = ["Ann", "Bob"][off.starter]
    throws = ", ".join(
        f"{name} {dice.total}"
        for name, dice in zip(["Ann", "Bob"], [d for _, d in off.rounds[0]], strict=True)
    )
    assert f"Roll-off: {throws}\n{starter} starts." in out
    assert "error: command 'jump': unknown command" in out
    assert "error: positions '7'" in out
    assert "error: command 'hold': hold which dice?" in out
    assert "error: category 'nothing': no such box" in out
    assert "error: undo: nothing to undo" in out
    first = re.findall(rf"{starter} rolls: (\d{{5}})", out)[0]
    held = first[0] + first[1]
    assert re.search(rf"{starter} rolls, holding {held}: {held}", out)
    assert f"Undone: {starter}'s roll." in out
    # After undo the first roll's dice show again, with two rolls left.
    after_undo = out.split("Undone:")[1]
    assert "roll 1 of 3, 2 rolls left" in after_undo
    assert "  dice      " + "  ".join(first) in after_undo
    code = out.rstrip().split("To resume it: yahtzee-rules play --code ")[1]
    resumed = GameRecord.from_share_code(code).game
    assert resumed.current_player == starter
    assert "".join(map(str, resumed.dice or ())) == first


def test_undo_then_the_same_roll_shows_the_same_dice() -> None:
    out = run("play", "Ann", "--seed", "5", stdin=script("r 1", "undo", "r 1", "quit", "")).stdout
    rolls = re.findall(r"Ann rolls, holding \d*: (\d{5})", out)
    assert len(rolls) == 2
    assert rolls[0] == rolls[1]


def test_a_whole_game_played_through_a_pipe_ends_with_the_result() -> None:
    fills = [f"f {category.code}" for category in Category]
    noise = ["", "r 12345", "f y", "what", "r 1 2 3 4 5 6", "hint", "show"]
    lines = [item for fill in fills for item in (*noise[: len(fill) % 7], fill)]
    result = run("play", "Solo", "--seed", "11", stdin=script(*lines))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Game over." in out
    assert "Winner: Solo" in out
    assert "Traceback" not in out + result.stderr
    assert out.count("Solo fills ") == 13


_LINES = st.one_of(
    st.builds(lambda p: "r " + " ".join(map(str, p)), st.lists(st.integers(1, 5), unique=True)),
    st.sampled_from([f"f {c.code}" for c in Category]),
    st.sampled_from(["undo", "show", "help", "hint", "r 9", "f xx", "", "code", "save"]),
)


@given(st.lists(_LINES, max_size=60), st.integers(0, 2**32 - 1))
def test_a_session_keeps_a_record_that_replays_to_its_game_and_undo_steps_back(
    lines: list[str], seed: int
) -> None:
    import random

    from yahtzee_rules.cli.console import ScriptConsole
    from yahtzee_rules.cli.play import Session

    session = Session(Game.new(["Ann", "Bob"]), random.Random(seed), ScriptConsole([]))
    session._start_turn()
    for line in lines:
        try:
            command = parse_command(line)
        except MalformedInputError:
            continue
        before = session.record
        session.do(command)
        assert GameRecord(session.record.start, session.record.actions) == session.record
        after = session.record
        if isinstance(command, (Roll, Fill)) and after != before:
            # Undo steps back exactly; doing the same again gives the same dice.
            session.do(Undo())
            assert session.record == before
            session.do(command)
            assert session.record == after
        if session.game.is_over:
            break
    assert session.game.is_over or session.game.dice is not None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "1234"], "dice '1234': not five digits"),
        (["score", "12347"], "face 7 is outside 1-6"),
        (["play"], "play: no players"),
        (["play", "Ann", "Ann"], "'Ann' appears twice"),
        (["simulate", "--strategy", "greedy", "--games", "0"], "--games 0"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_score_prints_the_table_of_every_box() -> None:
    result = run("score", "66655", "--joker", "free")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "Dice 55666 on an empty card, free-choice Joker"
    assert "Full House             25" in result.stdout
    assert len(result.stdout.splitlines()) == 1 + 2 + 13


def test_main_returns_the_exit_status_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "12345"]) == 0
    assert "Large Straight         40" in capsys.readouterr().out


# --- the real program, through a pseudo-terminal ---------------------------------------


class Terminal:
    """The app running on a pseudo-terminal: send keys, wait for text."""

    def __init__(self, *args: str, size: tuple[int, int] | None = None) -> None:
        """Start the app; with ``size`` (columns, lines), on a terminal of that size
        (its window size set as a terminal's is, with no COLUMNS or LINES variable)."""
        import pty

        pid, fd = pty.fork()
        if pid == 0:  # the child: become the app
            os.environ.update(ENV)
            if size is not None:
                import fcntl
                import struct
                import termios

                for variable in ("COLUMNS", "LINES"):
                    os.environ.pop(variable, None)
                columns, lines = size
                winsize = struct.pack("HHHH", lines, columns, 0, 0)
                fcntl.ioctl(0, termios.TIOCSWINSZ, winsize)
            os.execv(sys.executable, [*APP, *args])
        self.pid, self.fd = pid, fd
        self.seen = ""

    def expect(self, text: str, timeout: float = 20) -> str:
        """Read until ``text`` appears; return everything read up to and including it."""
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {text!r}; got:\n{self.seen}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"program ended before {text!r}; got:\n{self.seen}")
                self.seen += chunk.decode().replace("\r\n", "\n")
        head, _, tail = self.seen.partition(text)
        self.seen = tail
        return head + text

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\n")

    def key(self, data: bytes) -> None:
        os.write(self.fd, data)

    def wait(self) -> int:
        """Wait for the program to end, reading what is left; return its exit status."""
        while True:
            try:
                if not os.read(self.fd, 65536):
                    break
            except OSError:
                break
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


pty_only = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@pty_only
def test_demo_on_a_terminal() -> None:
    term = Terminal()
    text = term.expect("Winner")
    assert term.wait() == 0
    assert text.startswith("Starting player roll-off:")


@pty_only
def test_play_on_a_terminal_with_mistakes_undo_save_ctrl_c_and_resume(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    term = Terminal("play", "Ann", "Bob", "--seed", "3")
    starter = term.expect("> ").splitlines()[-1].removesuffix("> ")
    term.send("r 6")
    assert "error: positions '6'" in term.expect(f"{starter}> ")
    term.send("f nope")
    assert "error: category 'nope'" in term.expect(f"{starter}> ")
    term.send("r 1 2")
    assert "roll 2 of 3, 1 roll left" in term.expect(f"{starter}> ")
    term.send("undo")
    after = term.expect(f"{starter}> ")
    assert f"Undone: {starter}'s roll." in after
    assert "roll 1 of 3, 2 rolls left" in after
    term.send("f c")
    filled = term.expect("> ")
    assert f"{starter} fills Chance" in filled
    other = filled.splitlines()[-1].removesuffix("> ")
    assert other != starter
    term.send(f"save {saved}")
    assert "Saved to" in term.expect(f"{other}> ")
    term.send("r 1")
    rolled = term.expect(f"{other}> ")
    screen = rolled.split("Round 1 - ")[-1]  # the other player's turn as shown
    time.sleep(0.3)  # let the prompt start reading: a signal just before the read waits for it
    term.key(b"\x03")  # Ctrl-C
    assert "Interrupted." in term.expect("save to file> ")
    saved = tmp_path / "after ctrl-c.json"
    term.send(str(saved))
    assert f"Saved to {saved}." in term.expect("play --load")
    assert term.wait() == 130

    resumed = Terminal("play", "--load", str(saved))
    shown = resumed.expect(f"{other}> ")
    assert "Resuming: Ann, Bob, round 1." in shown
    assert shown.split("Round 1 - ")[-1] == screen  # the same card, dice and rolls left
    resumed.send("quit")
    assert "The game is saved in" in resumed.expect("play --load")
    assert resumed.wait() == 0


@pty_only
def test_the_prompt_has_line_editing_and_history() -> None:
    pytest.importorskip("readline")
    term = Terminal("play", "Ann", "--seed", "3")
    term.expect("Ann> ")
    term.send("r 1 2")
    assert "Ann rolls, holding" in term.expect("Ann> ")
    term.send("undo")
    assert "Undone: Ann's roll." in term.expect("Ann> ")
    term.key(b"\x1b[A\x1b[A\r")  # up twice: 'r 1 2' again
    again = term.expect("Ann> ")
    assert "Ann rolls, holding" in again
    assert "error" not in again
    term.key(b"fc\x1b[D \r")  # 'fc', left arrow, space: 'f c'
    assert "Ann fills Chance with " in term.expect("Ann> ")
    term.send("quit")
    term.expect("save to file> ")
    term.send("")
    assert term.wait() == 0


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


@pty_only
def test_with_the_coach_on_80_by_24_the_dice_advice_and_prompt_share_the_screen() -> None:
    pytest.importorskip("numpy")
    term = Terminal("play", "Ann", "Bob", "--coach", "--seed", "5", size=(80, 24))
    shown = term.expect("Ann> ")
    term.send("r 1 2")
    shown += term.expect("Ann> ")
    screen = shown.splitlines()[-24:]  # what the terminal shows at the prompt
    assert screen[-1] == "Ann> "
    assert screen[-3] == "  position  1  2  3  4  5"
    assert screen[-2].startswith("  dice      ")
    assert any("Coach: best is" in line for line in screen)
    assert any("Round 1 - Ann - roll 2 of 3" in line for line in screen)
    assert any(line.startswith("Chance") for line in screen)  # Ann's column beside the coach
    assert screen[0].startswith("Ann rolls, holding")  # and what was rolled above it
    assert max(len(line) for line in screen) <= 80
    term.send("quit")
    term.expect("save to file> ")
    term.send("")
    assert term.wait() == 0


@pty_only
def test_ten_players_on_an_80_column_terminal_get_a_sheet_in_blocks() -> None:
    names = [f"Player{n}" for n in range(10)]
    term = Terminal("play", *names, "--seed", "1", size=(80, 24))
    shown = term.expect("> ")
    term.send("quit")
    term.expect("save to file> ")
    term.send("")
    assert term.wait() == 0
    sheet = shown.split(" left\n", 1)[1].split("  position", 1)[0].splitlines()
    assert max(len(line) for line in sheet) <= 80
    headers = [line for line in sheet if line.startswith("Box ")]
    assert len(headers) > 1
    assert " ".join(" ".join(line.split()[1:]) for line in headers).split() == names
    assert sum(line.startswith("Grand total") for line in sheet) == len(headers)


@given(st.lists(st.text("abcXYZ", min_size=1, max_size=30), min_size=1, max_size=12))
def test_a_sheet_given_a_width_splits_its_columns_into_blocks_that_fit(names: list[str]) -> None:
    cards = [Scorecard()] * len(names)
    whole = render_scorecards(cards, names)
    fitted = render_scorecards(cards, names, width=80)
    assert all(len(line) <= 80 for line in fitted.splitlines())
    assert fitted.count("Grand total") == len(fitted.split("\n\n"))
    if len(whole.splitlines()[0]) <= 80:
        assert fitted == whole


# --- the transcripts in the docs are real output ----------------------------------------

DOC = ROOT / "docs" / "how-to" / "command-line.md"
_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
_PROMPT = re.compile(r"^[A-Za-z][\w.-]*(?: [\w.-]+)*> ?(.*)$")


def transcripts(text: str) -> list[tuple[list[str], list[str]]]:
    """Each ``$ yahtzee-rules ...`` command in the page's console blocks, with its output."""
    found: list[tuple[list[str], list[str]]] = []
    for block in _BLOCK.findall(text):
        for line in block.rstrip("\n").split("\n"):
            if line.startswith("$ "):
                found.append((shlex.split(line[2:]), []))
            else:
                found[-1][1].append(line)
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` matches ``expected``: a line ``...`` stands for any lines, and
    ``...`` within a line for any text."""
    pattern = "".join(
        r"(?:.*\n)*?"
        if line == "..."
        else ".*".join(map(re.escape, line.rstrip().split("..."))) + r"\n"
        for line in expected
    )
    text = "".join(line.rstrip() + "\n" for line in actual)
    return re.fullmatch(pattern, text) is not None


def test_the_command_line_how_to_shows_real_output(tmp_path: Path) -> None:
    blocks = transcripts(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 3
    for command, expected in blocks:
        if command[0] == "cat":  # a file the commands before wrote
            actual = (tmp_path / command[1]).read_text(encoding="utf-8").splitlines()
            assert matches(expected, actual), "\n".join(actual)
            continue
        assert command[0] == "yahtzee-rules"
        typed = [m.group(1) for line in expected if (m := _PROMPT.match(line))]
        result = subprocess.run(
            [*APP, *command[1:]],
            input=script(*typed),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**ENV, "YAHTZEE_RULES_CACHE_DIR": str(tmp_path / "cache")},
            timeout=60,
            cwd=tmp_path,
        )
        actual = result.stdout.splitlines()
        assert matches(expected, actual), f"$ {shlex.join(command)}\n" + "\n".join(actual)


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "d"], ["a", "d"], True),
        (["a", "d"], ["a", "b", "d"], False),
        (["a", "...", "d"], ["a", "b", "c"], False),
        (["a.c"], ["abc"], False),
        (["at: .../x-....npz"], ["at: /tmp/a/x-1f2e.npz"], True),
        (["at: .../x-....npz"], ["at: /tmp/a/y-1f2e.npz"], False),
    ],
)
def test_transcript_matching_elides_only_where_marked(
    expected: list[str], actual: list[str], result: bool
) -> None:
    assert matches(expected, actual) is result


# --- what the turn display says about the Joker -----------------------------------------


def _joker_game(joker: str, filled: dict[Category, int], dice: str) -> Game:
    from yahtzee_rules import Rules, Scorecard, Turn

    rules = Rules(joker=joker)
    card = Scorecard(filled)
    turn = Turn(card, rules=rules, dice=Dice(dice), rolls_used=1)
    return Game(players=("Ann",), rules=rules, cards=(card,), first=0, current=0, turn=turn)


@pytest.mark.parametrize(
    ("joker", "filled", "dice", "says"),
    [
        ("forced", {Category.YAHTZEE: 50}, "33333", "requires Threes, which is open"),
        ("forced", {Category.YAHTZEE: 0}, "33333", "requires Threes, which is open"),
        (
            "forced",
            {Category.YAHTZEE: 50, Category.THREES: 9},
            "33333",
            "Threes is filled, so the forced Joker allows any open lower box",
        ),
        (
            "forced",
            {Category.YAHTZEE: 0, Category.THREES: 9, **dict.fromkeys(Category.lower()[:-2], 0)},
            "33333",
            "any open lower box",
        ),
        ("free-choice", {Category.YAHTZEE: 50}, "33333", "free-choice Joker allows any open box"),
        (
            "forced",  # the forced box is the only open box: no other box to take a reason from
            {
                **{c: 0 for c in Category if c is not Category.THREES} | {Category.CHANCE: 5},
                Category.YAHTZEE: 50,
            },
            "33333",
            "the forced Joker requires Threes, the only open box.",
        ),
    ],
)
def test_the_joker_note_names_the_rule_that_applies(
    joker: str, filled: dict[Category, int], dice: str, says: str
) -> None:
    from yahtzee_rules.cli.play import joker_note

    note = joker_note(_joker_game(joker, filled, dice))
    assert note is not None
    assert note.startswith("Joker: five 3s with Yahtzee filled; ")
    assert says in note
    assert ("100-point Yahtzee bonus" in note) == (filled[Category.YAHTZEE] == 50)


@pytest.mark.parametrize(
    ("joker", "filled", "dice"),
    [
        ("forced", {}, "33333"),  # Yahtzee open: no Joker
        ("none", {Category.YAHTZEE: 50}, "33333"),  # no Joker rule
        ("forced", {Category.YAHTZEE: 50}, "33334"),  # not five of a kind
    ],
)
def test_no_joker_note_without_a_joker(joker: str, filled: dict[Category, int], dice: str) -> None:
    from yahtzee_rules.cli.play import joker_note

    assert joker_note(_joker_game(joker, filled, dice)) is None


def test_the_console_script_is_declared_and_points_at_main() -> None:
    import importlib
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, name = scripts["yahtzee-rules"].partition(":")
    assert getattr(importlib.import_module(module), name) is main


def test_help_lists_every_command_and_exits_0() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in ("demo", "play", "score", "simulate", "solve"):
        assert f"    {command}  " in result.stdout
    assert main(["--version"]) == 0


def test_output_cut_short_by_a_closed_pipe_ends_quietly() -> None:
    with subprocess.Popen(
        APP, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.close()  # the reader is gone before the program writes
        errors = process.stderr.read()
        status = process.wait(timeout=60)
    assert errors == ""
    assert status == 1


@given(
    st.lists(st.one_of(_LINES, st.text(max_size=40)), max_size=40),
    st.integers(0, 2**32 - 1),
)
def test_no_input_line_crashes_a_session(lines: list[str], seed: int) -> None:
    from yahtzee_rules.cli.console import ScriptConsole
    from yahtzee_rules.cli.play import Session

    typed = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    typed = [line for line in typed if line != "^C"]
    console = ScriptConsole(typed)
    session = Session(Game.new(["Ann", "Bob"]), random.Random(seed), console)
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):  # for 'save X'
        assert session.run() == 0
    assert GameRecord(session.record.start, session.record.actions).game == session.game


# --- saving and resuming ------------------------------------------------------------------


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
    assert game.card("Ann")[Category.CHANCE] is not None
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


def test_joker_free_and_free_choice_are_one_rule_spelled_free_choice() -> None:
    short, long = (
        run("score", "12345", "--joker", "free"),
        run("score", "12345", "--joker", "free-choice"),
    )
    assert short.returncode == long.returncode == 0
    assert short.stdout == long.stdout
    assert short.stdout.startswith("Dice 12345 on an empty card, free-choice Joker\n")
    helped = run("score", "--help").stdout
    assert "--joker {forced,free-choice,none,kinds-first}" in helped
    bad = run("score", "12345", "--joker", "maybe")
    assert bad.returncode == 2
    assert "'maybe' is no Joker rule; use forced, free-choice, none, kinds-first" in bad.stderr


def test_joker_takes_every_joker_rule() -> None:
    for rule in JokerRule:
        result = run("score", "12345", "--card", "1=1,2=2", "--joker", rule.value)
        assert result.returncode == 0, result.stderr
        assert f"on the card 1=1,2=2, {_JOKER_TITLES[rule]}" in result.stdout.splitlines()[0]


_JOKER_TITLES = {
    JokerRule.FORCED: "forced Joker",
    JokerRule.FREE_CHOICE: "free-choice Joker",
    JokerRule.NONE: "no Joker",
    JokerRule.KINDS_FIRST: "kinds-first Joker",
}


def test_score_gives_a_reason_shared_by_several_boxes_once() -> None:
    result = run("score", "66666", "--card", "y=50")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    reason = "the forced Joker requires Sixes, which is open: five 6s must go in Sixes"
    assert result.stdout.count(reason) == 1
    assert f"Aces                    -  {reason}" in lines
    assert "Chance                  -  as for Aces" in lines
    assert sum(line.endswith("-  as for Aces") for line in lines) == 10


def test_simulate_with_several_players_counts_scores_not_games() -> None:
    result = run("simulate", "--strategy", "random", "--games", "20", "--players", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "scores           80  (20 games of 4)"
    assert not any(line.startswith("games") for line in lines)


def test_without_numpy_an_optimal_bot_fails_before_the_roll_off(tmp_path: Path) -> None:
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text("raise ImportError('no numpy here')\n")
    env = {**ENV, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(SRC)])}
    for extra in (["--bot", "optimal", "Cy"], ["--coach"]):
        result = subprocess.run(
            [*APP, "play", "Ann", "Bob", *extra],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert result.returncode == 2
        assert result.stdout == ""  # no roll-off, nothing played
        assert 'pip install "yahtzee-rules[solver]"' in result.stderr


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


def test_score_on_a_card_in_the_notation() -> None:
    result = run("score", "44444", "--card", "4=12,y=50")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Dice 44444 on the card 4=12,y=50, forced Joker (Hasbro Classic)"
    assert "Full House             25  +100 Yahtzee bonus" in lines
    bad = run("score", "44444", "--card", "4=13")
    assert bad.returncode == 2
    assert "no roll scores 13 in Fours" in bad.stderr


# --- computer players in a session ---------------------------------------------------------


class _FirstBoxBot:
    """Holds the most common face once, then fills the first legal box."""

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        assert turn.dice is not None
        if turn.rolls_left < 2:
            return None
        face = max(range(1, 7), key=turn.dice.count)
        return Keep([face] * turn.dice.count(face))

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        return min(turn.options)


def test_computer_players_take_their_turns_and_undo_takes_them_back() -> None:
    from yahtzee_rules.cli.console import ScriptConsole
    from yahtzee_rules.cli.play import Session

    console = ScriptConsole(["f c", "undo", "f c", "quit", ""])
    session = Session(
        Game.new(["Ann", "Cy"]),
        random.Random(4),
        console,
        bots={"Cy": ("first-box", _FirstBoxBot())},
    )
    assert session.run() == 0
    lines = console.transcript().splitlines()
    cy_turns = [line for line in lines if line.startswith("Cy (first-box): ")]
    assert len(cy_turns) == 2
    assert cy_turns[0] == cy_turns[1]  # after undo the same dice and choices replay
    assert "fills Aces for" in cy_turns[0]
    assert "Undone: Ann's fill of Chance." in lines
    game = session.game
    assert game.current_player == "Ann"
    assert game.card("Cy").turns_played == 1
    assert GameRecord(session.record.start, session.record.actions).game == game


def test_a_game_of_computer_players_only_plays_to_the_end() -> None:
    from yahtzee_rules.cli.console import ScriptConsole
    from yahtzee_rules.cli.play import Session

    console = ScriptConsole([])
    bots = {name: ("first-box", _FirstBoxBot()) for name in ("Cy", "Dee")}
    session = Session(Game.new(["Cy", "Dee"]), random.Random(9), console, bots=bots)
    assert session.run() == 0
    assert session.game.is_over
    transcript = console.transcript()
    assert transcript.count("(first-box): ") == 26
    assert "Game over." in transcript


@given(
    st.sampled_from(Dice.all()),
    st.data(),
)
def test_the_coach_table_lists_every_box_and_the_best_holds_with_their_cost(
    dice: Dice, data: st.DataObject
) -> None:
    from yahtzee_rules.cli._extras import Advice
    from yahtzee_rules.cli.play import coach_lines

    values = st.floats(0, 400, allow_nan=False)
    keeps = data.draw(st.lists(st.sampled_from(dice.keeps()), unique=True))
    boxes = data.draw(st.lists(st.sampled_from(list(Category)), unique=True, min_size=1))
    advice = Advice(
        keeps=tuple(sorted(((k, data.draw(values)) for k in keeps), key=lambda kv: -kv[1])),
        boxes=tuple(sorted(((b, data.draw(values)) for b in boxes), key=lambda bv: -bv[1])),
    )
    lines = coach_lines(dice, advice, rows=4)
    body = "\n".join(lines[3:])
    best = max(value for _, value in (*advice.keeps, *advice.boxes))
    assert f"expected final score {best:.2f}." in lines[0]
    for box, value in advice.boxes:
        assert f"{box.label:<16} f {box.code:<3} {best - value:6.2f}" in body
    for keep, value in advice.keeps[:4]:
        assert f"{keep!s:<8} " in body
        assert f"{best - value:6.2f}" in body
    assert ("more hold" in body) == (len(advice.keeps) > 4)


# --- computer players, simulate and the solver, through the real program -----------------


def test_the_coach_advises_the_fill_when_holding_all_five_is_worth_the_same() -> None:
    # Five 6s on the empty card: the Yahtzee box is best, and holding all five dice to
    # roll none is worth exactly as much; the coach says to fill, not to roll.
    code = GameRecord.new(["Ann"]).roll(outcome="66666").share_code()
    result = run("play", "--code", code, "--coach", stdin=script("quit", ""))
    assert result.returncode == 0, result.stderr
    assert "Coach: best is 'f y' (fill Yahtzee), expected final score " in result.stdout
    assert "r 1 2 3 4 5   0.00" in result.stdout  # the tie is still shown, at no cost


def test_the_coach_prefers_a_fill_within_the_tie_tolerance() -> None:
    from yahtzee_rules.cli._extras import Advice
    from yahtzee_rules.cli.play import TIE_TOLERANCE, coach_lines

    best = 212.5
    nearly = best * (1 - TIE_TOLERANCE / 10)  # rounding noise below the fill's value
    advice = Advice(
        keeps=((Keep("666"), best), (Keep("25666"), nearly)),
        boxes=((Category.SIXES, nearly), (Category.CHANCE, 190.0)),
    )
    assert coach_lines(Dice("25666"), advice)[0].startswith("Coach: best is 'f 6' (fill Sixes)")
    apart = Advice(keeps=advice.keeps, boxes=((Category.SIXES, best - 0.01),))
    assert coach_lines(Dice("25666"), apart)[0].startswith("Coach: best is 'r 3 4 5' (hold 666)")


def test_simulate_plays_the_same_games_as_the_library() -> None:
    from yahtzee_rules import GreedyStrategy, simulate

    result = run(
        "simulate", "--strategy", "greedy", "--games", "40", "--seed", "3", "--players", "2"
    )
    assert result.returncode == 0, result.stderr
    library = simulate(GreedyStrategy(), games=40, seed=3, players=2)
    out = result.stdout
    assert out.startswith("40 games of greedy play, 2 players each, seed 3, forced Joker")
    assert f"mean       {library.mean:>8.2f}" in out
    assert f"sd         {library.std:>8.2f}" in out
    assert f"std. error {library.stderr:>8.2f}" in out
    assert f"min        {library.minimum:>8}" in out
    assert f"max        {library.maximum:>8}" in out
    shares = "  ".join(f"{seat + 1}: {wins / 40:.1%}" for seat, wins in enumerate(library.wins))
    assert f"wins by seat {shares}" in out
    counts = [int(line.split()[1]) for line in out.split("Final scores:\n")[1].splitlines()]
    assert sum(counts) == 80
    assert result.stderr.splitlines()[-1] == "simulate greedy: 100% of 40"


def test_computer_players_play_through_the_real_program() -> None:
    result = run(
        "play",
        "Ann",
        "--bot",
        "random",
        "Cy",
        "--bot",
        "greedy",
        "Dee",
        "--seed",
        "6",
        stdin=script("f c", "f ss", "quit", ""),
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("Cy (random): ") >= 2
    assert out.count("Dee (greedy): ") >= 2
    assert "Traceback" not in out


def test_without_numpy_the_solver_commands_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from yahtzee_rules.cli import _extras

    monkeypatch.setitem(sys.modules, "yahtzee_rules.solver", None)  # import fails
    monkeypatch.setattr(_extras, "_TABLES", {})
    for argv in (["solve"], ["simulate", "--strategy", "optimal"], ["play", "A", "--coach"]):
        assert main(argv) == 2
        error = capsys.readouterr().err
        assert 'pip install "yahtzee-rules[solver]"' in error
    assert main(["simulate", "--strategy", "random", "--games", "3"]) == 0  # no NumPy needed
    assert "3 games of random play" in capsys.readouterr().out


def test_hint_builds_the_table_first_when_it_is_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee_rules.cli import _extras
    from yahtzee_rules.cli.console import ScriptConsole
    from yahtzee_rules.cli.play import Session

    built: list[tuple[int, int]] = []

    def fake_table(rules: object, progress: object = None) -> None:
        assert callable(progress)
        progress(1, 1)
        built.append((1, 1))

    monkeypatch.setattr(_extras, "table_is_ready", lambda rules: bool(built))
    monkeypatch.setattr(_extras, "optimal_table", fake_table)
    monkeypatch.setattr(
        _extras, "advise", lambda game: _extras.Advice((), ((Category.CHANCE, 200.0),))
    )
    console = ScriptConsole(["hint", "hint", "quit", ""])
    Session(Game.new(["Ann"]), random.Random(2), console).run()
    transcript = console.transcript()
    assert transcript.count("building it, once") == 1
    assert transcript.count("Coach: best is 'f c' (fill Chance), expected final score 200.00.") == 2
    assert built == [(1, 1)]


# --- no program logic on the text of messages ---------------------------------------------

_TEXT_TESTS = {"startswith", "endswith", "find", "index", "count", "split", "partition"}


def _message_text_tests(tree: ast.AST) -> list[int]:
    """Lines that decide something by an error's message or a box's reason text.

    Caught: ``str(error)`` or ``error.args`` (for a name bound by ``except ... as``)
    tested with ``in``, ``==`` or a string method, and any ``.reason`` tested that way.
    Formatting a message into a new one (``f"...: {error}"``) is not a test and passes.
    """
    names = {
        node.name for node in ast.walk(tree) if isinstance(node, ast.ExceptHandler) and node.name
    }

    def is_text(node: ast.AST) -> bool:
        if isinstance(node, ast.Attribute) and node.attr == "reason":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "args":
            return isinstance(node.value, ast.Name) and node.value.id in names
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "str"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in names
        )

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq)) for op in node.ops
        ):
            if any(is_text(part) for part in (node.left, *node.comparators)):
                lines.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _TEXT_TESTS
            and is_text(node.func.value)
        ):
            lines.append(node.lineno)
    return lines


def test_the_message_text_check_finds_what_it_is_meant_to_find() -> None:
    caught = """
try:
    pass
except ValueError as error:
    if str(error).startswith("share code"):
        raise
    if "filled" in error.args[0] or "x" == str(error):
        pass
closed = [o for o in options if o.reason and "filled" not in o.reason]
"""
    assert _message_text_tests(ast.parse(caught)) == [5, 7, 9]
    passed = """
try:
    pass
except ValueError as error:
    print(f"error: {error}")
    raise OtherError(str(error)) from None
"""
    assert _message_text_tests(ast.parse(passed)) == []


@pytest.mark.parametrize(
    "path",
    sorted(p.relative_to(SRC) for p in (SRC / "yahtzee_rules").rglob("*.py")),
    ids=str,
)
def test_no_code_decides_anything_by_the_text_of_a_message(path: Path) -> None:
    tree = ast.parse((SRC / path).read_text(encoding="utf-8"))
    assert _message_text_tests(tree) == []


def test_a_tie_under_the_play_off_rule_names_the_players_who_play_again() -> None:
    code = play_off_tie_record().share_code()
    # Each fills Yahtzee with the dice the seed gives: no Yahtzee, so both stay on 5.
    done = run("play", "--code", code, "--seed", "1", stdin=script("r", "f y", "r", "f y", ""))
    assert done.returncode == 0, done.stderr
    assert "Final standings: 1. Ann 5, 1. Bob 5" in done.stdout
    assert "Tied: Ann and Bob; the tie rule says they play again" in done.stdout
    assert "Winner" not in done.stdout.split("Final standings")[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--code=--"],
        ["play", "--load=--"],
        ["play", "--seed=--", "Ann"],
        ["demo", "--seed=--"],
        ["simulate", "--strategy", "greedy", "--games=--"],
        ["simulate", "--strategy", "greedy", "--players=--"],
        ["score", "--joker=--", "12345"],
        ["score", "--card=--", "12345"],
    ],
)
def test_an_option_given_a_bare_double_dash_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert "expected one argument" in capsys.readouterr().err


def test_play_load_refuses_deeply_nested_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["play", "--load", str(path)]) == 2
    assert "not JSON" in capsys.readouterr().err


# --- rulesets by name, and matches ----------------------------------------------------


def test_rules_lists_every_named_ruleset_with_one_line_each() -> None:
    result = run("rules")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    names = Rules.names()
    for name, line in zip(names, lines, strict=False):
        assert line.split()[0] == name
        assert Rules.describe(name) in line
    assert lines[len(names)] == ""
    assert "--rules NAME" in lines[-1]


def test_rules_lines_follow_the_library_s_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee_rules.cli import rules_lines

    extra = ("forced", "none, yahtzee_bonus=0")
    monkeypatch.setattr(Rules, "names", staticmethod(lambda: extra))
    lines = rules_lines()
    assert len(lines) == 2
    assert lines[1].startswith("none, yahtzee_bonus=0  Classic card (13 boxes), no Joker")


@pytest.mark.parametrize("name", Rules.names())
def test_every_named_ruleset_scores_by_its_own_card(name: str) -> None:
    rules = Rules.from_name(name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", "66666", "--rules", name]) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 + 2 + len(rules.card)
    assert [line.split("  ")[0].strip() for line in lines[3:]] == [
        box.label for box in rules.card.members
    ]


def test_rules_accepts_notation_and_refuses_a_bad_name_listing_the_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", "12345", "--rules", "free-choice,yb=0"]) == 0
    assert capsys.readouterr().out.startswith("Dice 12345 on an empty card, free-choice")
    assert main(["solve", "--rules", "hasbro-2099"]) == 2
    error = capsys.readouterr().err
    assert "argument --rules: 'hasbro-2099' is no ruleset; use one of " in error
    assert ", ".join(Rules.names()) in error
    assert main(["score", "12345", "--rules", "yacht", "--joker", "none"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["score", "12345", "--rules", "yacht", "--card", "c=20"]) == 2
    assert "the yacht rules play the Yacht card" in capsys.readouterr().err


def test_every_command_with_a_ruleset_takes_rules(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "demo", "score", "simulate", "solve", "distribution", "target"):
        assert main([command, "--help"]) == 0
        assert "--rules NAME" in capsys.readouterr().out


def test_solve_with_rules_prints_the_optimal_value_to_7_decimals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.solver import load_table

    rules = Rules.from_name("yacht")
    assert main(["solve", "--rules", "yacht"]) == 0
    out = capsys.readouterr().out
    expected = load_table(rules=rules).expected_final(Scorecard(card=rules.card))
    assert f"under optimal play: {expected:.7f}\n" in out
    assert re.search(r"under optimal play: \d+\.\d{7}$", out.strip())
    assert "for the yacht rules: " in out


def test_simulate_and_demo_play_the_named_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--strategy", "greedy", "--games", "3", "--rules", "yatzy"]) == 0
    assert "3 games of greedy play, seed 0, yatzy rules" in capsys.readouterr().out
    assert main(["demo", "--rules", "yacht", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Little Straight" in out
    assert "Large Straight" not in out


def test_humans_fill_the_boxes_of_the_ruleset_s_card() -> None:
    result = run("play", "Ann", "--rules", "yatzy", "--seed", "1", stdin=script("f 1p", "q", ""))
    assert result.returncode == 0, result.stderr
    assert "Rules: Scandinavian Yatzy: 15 boxes" in result.stdout
    assert "Ann fills One Pair with" in result.stdout


def test_resuming_with_other_rules_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = GameRecord.new(["Ann"]).share_code()
    assert main(["play", "--code", code, "--rules", "yacht"]) == 2
    assert "the saved game plays by the forced rules" in capsys.readouterr().err


def test_play_match_plays_best_of_n_with_computer_players() -> None:
    result = run("play", "--bot", "greedy", "Ann", "--bot", "random", "Bob", "--match", "3")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Match: best of 3; a tie for the highest total is shared." in out
    starters = re.findall(r"Game (\d) of the best of 3: (\w+) rolls first\.", out)
    assert 2 <= len(starters) <= 3
    assert [number for number, _ in starters] == [str(n + 1) for n in range(len(starters))]
    names = [name for _, name in starters]
    assert all(a != b for a, b in itertools.pairwise(names))  # the first roller alternates
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"(Ann|Bob|Ann and Bob) (wins|share) the match \(.*\)\.", last)
    assert out.count("Match after game") == len(starters)


def test_play_match_refuses_bad_counts_one_player_and_saved_games() -> None:
    for args, message in (
        (["play", "Ann", "Bob", "--match", "4"], "'4' is not an odd number of games"),
        (["play", "Ann", "--match", "3"], "a match needs at least two players"),
        (["play", "--code", "y1AAIAA0FubgNCb2I", "--match", "3"], "--match with a saved game"),
    ):
        result = run(*args)
        assert result.returncode == 2
        assert message in result.stderr
        assert "Traceback" not in result.stderr


# --- distribution and target ---------------------------------------------------------

#: A Classic card with Sixes, Yahtzee and Chance open: cheap to solve from.
_LATE = "1=3,2=6,3=9,4=12,5=15,3k=22,4k=0,fh=25,ss=30,ls=40"


def test_distribution_prints_mean_spread_median_and_percentiles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.notation import parse_scorecard
    from yahtzee_rules.solver import load_table, score_distribution

    assert main(["distribution", "--card", _LATE]) == 0
    out = capsys.readouterr().out
    found = score_distribution(parse_scorecard(_LATE), table=load_table())
    assert f"Mean                {found.mean:.7f}\n" in out
    assert f"Standard deviation  {found.std:.7f}\n" in out
    assert f"Median              {found.median}\n" in out
    rows = re.findall(r"^ +(\d+)  +(\d+)$", out, re.MULTILINE)
    assert [(int(q), int(t)) for q, t in rows] == [
        (q, found.percentile(q)) for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)
    ]


def test_distribution_takes_rules_and_starts_from_the_empty_card(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["distribution", "--rules", "yacht"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Final score under optimal play from the empty card, yacht rules\n")
    assert "Mean                166.9550677\n" in out  # the table's expected value


def test_target_prints_the_best_chance_to_7_decimals_and_optimal_play_s(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.notation import parse_scorecard
    from yahtzee_rules.solver import load_table, score_distribution, target_table

    card = parse_scorecard(_LATE)
    assert main(["target", "230", "--card", _LATE]) == 0
    out = capsys.readouterr().out
    best = target_table(start=card, maximum=100).probability(card, 230)
    expectation = score_distribution(card, table=load_table()).p_at_least(230)
    assert best > expectation
    assert f"Best chance (playing for the target):  {best:.7f}\n" in out
    assert f"Optimal play (the highest mean):       {expectation:.7f}\n" in out
    assert re.search(r"target\):  0\.\d{7}$", out, re.MULTILINE)


def test_target_and_distribution_refuse_bad_targets_and_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["target", "-5", "--card", _LATE]) == 2
    assert "target: -5: not a final score of 0 or more" in capsys.readouterr().err
    assert main(["target", "200", "--card", _LATE, "--rules", "yacht"]) == 2
    assert "the yacht rules play the Yacht card" in capsys.readouterr().err
    full = "1=3,2=6,3=9,4=12,5=15,6=18,3k=22,4k=0,fh=25,ss=30,ls=40,y=0,c=20"
    assert main(["distribution", "--card", full]) == 2
    assert "the card is full" in capsys.readouterr().err
    assert main(["target", "many"]) == 2
    assert "invalid int value" in capsys.readouterr().err


@pytest.mark.slow
def test_distribution_from_the_empty_classic_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["distribution"]) == 0
    out = capsys.readouterr().out
    assert "Mean                254.5877287\n" in out
