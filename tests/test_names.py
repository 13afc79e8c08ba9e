"""What a player's name may hold, kept by every constructor and reader, and text shown safely.

A name is printable text: no control characters (Cc: ESC and BEL among them, which a
terminal obeys), no surrogates (Cs: no encoder writes one, so a page or a terminal
fails on it), no line or paragraph separators, no bidirectional embedding, override or
isolate controls. One rule (``support._text.name_problem``) decides, for the
constructors (``Game``, ``Game.new``, ``GameRecord.new``, ``Match.new``, ``roll_off``)
and every reader (notation, JSON and dicts, share codes, matches, the command line's ``--code`` and
``--load``), each refusing with a ``MalformedInputError`` that quotes the name escaped.
"""

from __future__ import annotations

import base64
import json
import tempfile
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _cli import run
from yahtzee_rules import (
    Game,
    GameRecord,
    MalformedInputError,
    Match,
    from_dict,
    from_json,
    roll_off,
    to_json,
)
from yahtzee_rules.apps.cli._extras import SAVE_FORMAT, SAVE_VERSION
from yahtzee_rules.formats.sharecode import PREFIX
from yahtzee_rules.support._text import escape_name, for_terminal, name_problem

FORBIDDEN = st.one_of(
    st.characters(categories=["Cc"]),
    st.characters(categories=["Cs"]),
    st.sampled_from("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
)
FINE = st.characters(exclude_categories=["Cc", "Cs", "Zl", "Zp"]).filter(
    lambda c: c not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# a name that would be fine but for one character it holds: at the start, inside, at the end
BAD_NAMES = st.builds(
    lambda before, bad, after: before + bad + after,
    st.text(FINE, max_size=5),
    FORBIDDEN,
    st.text(FINE, max_size=5),
)
GOOD_NAMES = st.text(FINE, min_size=1, max_size=12).filter(lambda name: name.strip() != "")
REFUSED = (  # a name all white space, such as "\u2028", is blank before anything else
    r"player name .*: (holds U\+[0-9A-F]{4,5} at \d+; a name is printable text|"
    r"not a non-blank string)"
)


def _share_code(name: str) -> str:
    """A share code of a game of ``name`` and Zed, written byte for byte (the encoder
    never writes such a name): a code of a stand-in name with its bytes replaced."""
    raw = name.encode("utf-8", "surrogatepass")
    stand_in = "q" * len(raw)
    code = GameRecord.new([stand_in, "Zed"]).share_code()
    body = code[len(PREFIX) :]
    data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))[:-4]
    assert data.count(stand_in.encode()) == 1
    data = data.replace(stand_in.encode(), raw)
    data += zlib.crc32(data).to_bytes(4, "big")
    return PREFIX + base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _notation(name: str) -> str:
    return f"forced 0 {escape_name(name)},Zed"


def _json(name: str) -> str:
    return to_json(Game.new(["Q", "Zed"])).replace('"Q"', json.dumps(name))


@settings(max_examples=200)
@given(BAD_NAMES)
def test_every_constructor_refuses_a_name_with_a_character_no_name_may_hold(name: str) -> None:
    assert name_problem(name) is not None
    game = Game.new(["Q", "Zed"])
    for build in (
        lambda: Game.new([name, "Zed"]),
        lambda: Game(
            [name, "Zed"], rules=game.rules, cards=game.cards, first=0, current=0, turn=game.turn
        ),
        lambda: GameRecord.new([name]),
        lambda: Match.new([name, "Zed"]),
        lambda: roll_off([name, "Zed"]),
    ):
        with pytest.raises(MalformedInputError, match=REFUSED):
            build()


@settings(max_examples=200)
@given(BAD_NAMES)
def test_every_reader_refuses_a_name_with_a_character_no_name_may_hold(name: str) -> None:
    for read in (
        lambda: Game.parse(_notation(name)),
        lambda: GameRecord.parse(_notation(name) + " :"),
        lambda: from_json(_json(name), Game),
        lambda: from_dict(json.loads(_json(name)), Game),
        lambda: from_json(to_json(Match.new(["Q", "Zed"])).replace('"Q"', json.dumps(name)), Match),
        lambda: GameRecord.from_share_code(_share_code(name)),
    ):
        with pytest.raises(MalformedInputError) as caught:
            read()
        message = str(caught.value)
        assert "player name" in message
        assert for_terminal(message) == message  # the message itself is safe to print


@given(GOOD_NAMES)
def test_every_other_name_is_kept_and_read_back(name: str) -> None:
    record = GameRecord.new([name, "Zed" if name != "Zed" else "Ann"])
    assert GameRecord.parse(str(record)) == record
    assert GameRecord.from_share_code(record.share_code()) == record
    assert from_json(to_json(record), GameRecord) == record


def test_the_examples_of_the_report_are_refused() -> None:
    for name in ("\ud800", "a\x1b]0;owned\x07", "\x1b[2J", "tab\there", "Ann\u202e"):
        with pytest.raises(MalformedInputError, match=REFUSED):
            Game.new([name])
    assert Game.new(["Zoë", "李", "O'Brien", "a\u200db", "\U0001f3b2"]).players[1] == "李"


def _no_terminal_commands(text: str) -> None:
    for command in ("\x1b", "\x07", "\x9b"):  # ESC, BEL, CSI
        assert command not in text, text
    assert "Traceback" not in text, text


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BAD_NAMES)
def test_play_code_refuses_the_name_through_the_real_program(name: str) -> None:
    done = run("play", "--code", _share_code(name))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("yahtzee-rules: error: ")
    assert "player name" in done.stderr
    _no_terminal_commands(done.stdout + done.stderr)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BAD_NAMES)
def test_play_load_refuses_the_name_through_the_real_program(name: str) -> None:
    document = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "computer_players": {},
        "record": _notation(name) + " :",
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        done = run("play", "--load", str(path))
    assert done.returncode == 2, done.stderr
    assert "player name" in done.stderr
    _no_terminal_commands(done.stdout + done.stderr)


def test_the_program_escapes_user_text_it_echoes_in_errors() -> None:
    # an argument echoed in the error, and a line typed in the game echoed in one
    done = run("play", "--bot", "\x1b]0;owned\x07", "Cy")
    assert done.returncode == 2
    assert "\\x1b]0;owned\\x07" in done.stderr
    _no_terminal_commands(done.stderr)
    done = run("play", "Ann", stdin="f \x1b[2J\nq\n")
    errors = [line for line in done.stdout.splitlines() if "error" in line]
    assert errors
    assert all("\x1b" not in line for line in errors), errors
    assert any("\\x1b[2J" in line for line in errors), errors


def test_a_name_the_output_cannot_encode_is_written_escaped_not_a_traceback() -> None:
    import os
    import subprocess

    from _cli import APP, ENV

    done = subprocess.run(
        [*APP, "play", "Zoë", "--seed", "1"],
        input=b"q\n",
        capture_output=True,
        env={**ENV, "PYTHONIOENCODING": "ascii"},
        timeout=60,
        cwd=os.getcwd(),
    )
    assert b"Traceback" not in done.stderr, done.stderr
    assert b"Zo\\xeb" in done.stdout
