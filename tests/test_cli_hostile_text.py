"""What the command line reads and echoes: only ASCII digits are numbers, and piped input is
echoed with its control characters escaped, never sent raw to the terminal."""

from __future__ import annotations

import pytest

from _cli import run, script


@pytest.mark.parametrize("games", ["\u0663", "\u00b3", "\u2462", "\uff13"])
def test_a_match_of_non_ascii_digits_is_refused(games: str) -> None:
    result = run("play", "Ann", "Bob", "--match", games)
    assert result.returncode == 2
    assert "is not an odd number of games" in result.stderr
    assert "Traceback" not in result.stderr


def test_piped_input_is_echoed_without_its_control_characters() -> None:
    hostile = "\x1b]0;owned\x07\x1b[2J"
    result = run("play", "Ann", "--seed", "1", stdin=script(hostile, "quit", ""))
    assert "\x1b" not in result.stdout
    assert "\x07" not in result.stdout
    assert "\\x1b]0;owned\\x07\\x1b[2J" in result.stdout  # shown, escaped
