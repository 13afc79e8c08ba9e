"""The ``demo`` command and the app with no command: the seeded demonstration game."""

from __future__ import annotations

from _cli import Terminal, pty_only, run
from yahtzee_rules.apps.demo import DEMO_SEED, play_demo


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


@pty_only
def test_demo_on_a_terminal() -> None:
    term = Terminal()
    text = term.expect("Winner")
    assert term.wait() == 0
    assert text.startswith("Starting player roll-off:")
