"""The ``play`` command: prompt commands, a session through a pipe and on a terminal,
the Joker note, computer players, the coach and matches.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from _cli import APP, ENV, SRC, Terminal, coach_screen, pty_only, run, script
from _records import play_off_tie_record
from yahtzee_rules import (
    Box,
    Category,
    Dice,
    Game,
    GameRecord,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    roll_off,
)
from yahtzee_rules.apps.cli.commands import (
    Fill,
    Quit,
    Roll,
    Save,
    Undo,
    parse_command,
    parse_positions,
)
from yahtzee_rules.formats.render import render_scorecards


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

    from yahtzee_rules.apps.cli.console import ScriptConsole
    from yahtzee_rules.apps.cli.play import Session

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
def test_with_the_coach_on_80_by_24_the_dice_advice_and_prompt_share_the_screen() -> None:
    pytest.importorskip("numpy")
    term, screen = coach_screen()  # what the terminal shows at the prompt
    assert screen[-1] == "Ann> "
    assert screen[-3] == "  position  1  2  3  4  5"
    assert screen[-2].startswith("  dice      ")
    assert any("Coach: best is" in line for line in screen)
    assert any("Round 1 - Ann - roll 2 of 3" in line for line in screen)
    assert any(line.startswith("Chance") for line in screen)  # the sheet beside the coach
    assert any(re.match(r"Box +Ann +Bob ", line) for line in screen)  # both players' columns
    assert screen[0].startswith("Ann rolls, holding")  # and what was rolled above it
    assert max(len(line) for line in screen) <= 80
    term.send("quit")
    term.expect("save to file> ")
    term.send("")
    assert term.wait() == 0


def test_a_triple_yahtzee_game_shows_each_column_s_totals_and_lists_its_codes() -> None:
    result = run(
        "play", "Ann", "--rules", "triple", "--seed", "1", stdin=script("help", "quit", "")
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    sheet = out.split(" left\n", 1)[1].split("  position", 1)[0].splitlines()
    rows = {line[:17].rstrip(): line[17:].split() for line in sheet[2:]}
    assert sheet[1].split()[1:] == ["--\u00d71", "--\u00d72", "--\u00d73"]
    for label in ("Upper subtotal", "Upper bonus (63+)", "Column total", "Multiplied total"):
        assert rows[label] == ["0", "0", "0"], label  # one figure per column
    assert rows["Yahtzee bonus"] == ["0"]  # named after the box, not "Yahtzee x1"
    assert list(rows).index("Upper subtotal") == list(rows).index("Sixes") + 1
    assert all(len(line) <= len(sheet[1]) for line in sheet)  # every value in line
    assert "fill a box by its code: 1.1 2.1 3.1" in out  # Triple's codes, not Classic's
    assert "fh ss ls y c" not in out


def _coached_screen(term: Terminal, player: str = "Ann") -> list[str]:
    """What an 80x24 terminal shows at the next prompt: the last 24 rows, a line longer
    than 80 columns taking as many rows as the terminal wraps it into."""
    rows = []
    for line in term.expect(f"{player}> ").splitlines():
        rows += [line[start : start + 80] for start in range(0, max(len(line), 1), 80)]
    screen = rows[-24:]
    assert screen[-1] == f"{player}> "
    return screen


def _shows_the_card(screen: list[str], rules: Rules) -> None:
    for label in [box.label for box in rules.card] + ["Upper subtotal", "Grand total"]:
        assert any(line.startswith(label + " ") for line in screen), label


def _quit(term: Terminal) -> None:
    term.send("quit")
    term.expect("save to file> ")
    term.send("")
    assert term.wait() == 0


@pty_only
def test_with_the_coach_on_80_by_24_a_yatzy_card_stays_in_view() -> None:
    solver = pytest.importorskip("yahtzee_rules.bots.solver")
    yatzy = Rules.from_name("yatzy")
    solver.load_table(rules=yatzy)  # in the session's cache, where the program finds it
    term = Terminal("play", "Ann", "--rules", "yatzy", "--coach", "--seed", "5", size=(80, 24))
    screen = _coached_screen(term)
    _shows_the_card(screen, yatzy)
    assert any("Coach: best is" in line for line in screen)
    assert screen[-2].startswith("  dice      ")
    term.send("show")
    shown = _coached_screen(term)
    _shows_the_card(shown, yatzy)
    assert any(line.startswith("Coach: best is") for line in shown)
    _quit(term)


@pty_only
def test_with_the_coach_on_80_by_24_a_joker_position_keeps_the_card_and_the_note() -> None:
    pytest.importorskip("numpy")
    game = Game.parse("forced 0 Ann y=50 44444@1")
    code = GameRecord.from_game(game).share_code()
    term = Terminal("play", "--code", code, "--coach", size=(80, 24))
    screen = _coached_screen(term)
    _shows_the_card(screen, game.rules)
    assert any("Joker: five 4s" in line for line in screen)
    assert any("Coach: best is 'f 4'" in line for line in screen)
    _quit(term)


@pty_only
def test_with_the_coach_on_80_by_24_show_prints_every_card_of_three_players() -> None:
    pytest.importorskip("numpy")
    term = Terminal("play", "Ann", "Bob", "Cy", "--coach", "--seed", "5", size=(80, 24))
    screen = _coached_screen(term, "Cy")  # who won the roll-off with these dice
    _shows_the_card(screen, Rules())
    assert any("'show' prints every card." in line for line in screen)
    term.send("show")
    shown = _coached_screen(term, "Cy")
    assert any(re.match(r"Box +Ann +Bob +Cy$", line) for line in shown)
    _shows_the_card(shown, Rules())
    _quit(term)


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


def _joker_game(joker: str, filled: dict[Category, int], dice: str) -> Game:
    from yahtzee_rules import Scorecard, Turn

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
    from yahtzee_rules.apps.cli.play import joker_note

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
    from yahtzee_rules.apps.cli.play import joker_note

    assert joker_note(_joker_game(joker, filled, dice)) is None


@given(
    st.lists(st.one_of(_LINES, st.text(max_size=40)), max_size=40),
    st.integers(0, 2**32 - 1),
)
def test_no_input_line_crashes_a_session(lines: list[str], seed: int) -> None:
    from yahtzee_rules.apps.cli.console import ScriptConsole
    from yahtzee_rules.apps.cli.play import Session

    typed = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    typed = [line for line in typed if line != "^C"]
    console = ScriptConsole(typed)
    session = Session(Game.new(["Ann", "Bob"]), random.Random(seed), console)
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):  # for 'save X'
        assert session.run() == 0
    assert GameRecord(session.record.start, session.record.actions).game == session.game


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
    from yahtzee_rules.apps.cli.console import ScriptConsole
    from yahtzee_rules.apps.cli.play import Session

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
    assert game.player_card("Cy").turns_played == 1
    assert GameRecord(session.record.start, session.record.actions).game == game


def test_a_game_of_computer_players_only_plays_to_the_end() -> None:
    from yahtzee_rules.apps.cli.console import ScriptConsole
    from yahtzee_rules.apps.cli.play import Session

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
    from yahtzee_rules.apps.cli._extras import Advice
    from yahtzee_rules.apps.cli.play import coach_lines

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


def test_the_coach_advises_the_fill_when_holding_all_five_is_worth_the_same() -> None:
    # Five 6s on the empty card: the Yahtzee box is best, and holding all five dice to
    # roll none is worth exactly as much; the coach says to fill, not to roll.
    code = GameRecord.new(["Ann"]).roll(outcome="66666").share_code()
    result = run("play", "--code", code, "--coach", stdin=script("quit", ""))
    assert result.returncode == 0, result.stderr
    assert "Coach: best is 'f y' (fill Yahtzee), expected final score " in result.stdout
    assert "r 1 2 3 4 5   0.00" in result.stdout  # the tie is still shown, at no cost


def test_the_coach_prefers_a_fill_within_the_tie_tolerance() -> None:
    from yahtzee_rules.apps.cli._extras import Advice
    from yahtzee_rules.apps.cli.play import TIE_TOLERANCE, coach_lines

    best = 212.5
    nearly = best * (1 - TIE_TOLERANCE / 10)  # rounding noise below the fill's value
    advice = Advice(
        keeps=((Keep("666"), best), (Keep("25666"), nearly)),
        boxes=((Category.SIXES, nearly), (Category.CHANCE, 190.0)),
    )
    assert coach_lines(Dice("25666"), advice)[0].startswith("Coach: best is 'f 6' (fill Sixes)")
    apart = Advice(keeps=advice.keeps, boxes=((Category.SIXES, best - 0.01),))
    assert coach_lines(Dice("25666"), apart)[0].startswith("Coach: best is 'r 3 4 5' (hold 666)")


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


def test_hint_builds_the_table_first_when_it_is_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    from yahtzee_rules.apps.cli import _extras
    from yahtzee_rules.apps.cli.console import ScriptConsole
    from yahtzee_rules.apps.cli.play import Session

    built: list[tuple[int, int]] = []

    def fake_table(rules: object, progress: object = None) -> None:
        assert callable(progress)
        progress(1, 1)
        built.append((1, 1))

    monkeypatch.setattr(_extras, "table_is_ready", lambda rules: bool(built))
    monkeypatch.setattr(_extras, "optimal_table", fake_table)
    monkeypatch.setattr(
        _extras, "advise", lambda game, locale=None: _extras.Advice((), ((Category.CHANCE, 200.0),))
    )
    console = ScriptConsole(["hint", "hint", "quit", ""])
    Session(Game.new(["Ann"]), random.Random(2), console).run()
    transcript = console.transcript()
    assert transcript.count("building it, once") == 1
    assert transcript.count("Coach: best is 'f c' (fill Chance), expected final score 200.00.") == 2
    assert built == [(1, 1)]


def test_a_tie_under_the_play_off_rule_names_the_players_who_play_again() -> None:
    code = play_off_tie_record().share_code()
    # Each fills Yahtzee with the dice the seed gives: no Yahtzee, so both stay on 5.
    done = run("play", "--code", code, "--seed", "1", stdin=script("r", "f y", "r", "f y", ""))
    assert done.returncode == 0, done.stderr
    assert "Final standings: 1. Ann 5, 1. Bob 5" in done.stdout
    assert "Tied: Ann and Bob; the tie rule says they play again" in done.stdout
    assert "Winner" not in done.stdout.split("Final standings")[1]


def test_humans_fill_the_boxes_of_the_ruleset_s_card() -> None:
    result = run("play", "Ann", "--rules", "yatzy", "--seed", "1", stdin=script("f 1p", "q", ""))
    assert result.returncode == 0, result.stderr
    assert "Rules: Scandinavian Yatzy: 15 boxes" in result.stdout
    assert "Ann fills One Pair with" in result.stdout


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
