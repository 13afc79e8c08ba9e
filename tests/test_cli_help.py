"""Every subcommand's ``--help`` says what the command does, below its usage."""

from __future__ import annotations

import re

import pytest

from _cli import run
from yahtzee_rules.apps.cli import main


def _commands() -> list[str]:
    """The subcommands ``yahtzee-rules --help`` lists, read from the program's own help."""
    shown = run("--help")
    assert shown.returncode == 0, shown.stderr
    listing = shown.stdout.split("COMMAND", 2)[-1]
    return re.findall(r"^    ([a-z]+)\s", listing, re.M)


COMMANDS = _commands()


def test_the_help_lists_every_command() -> None:
    assert {"demo", "score", "simulate", "tournament", "play", "target"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_describes_itself(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    shown = capsys.readouterr().out
    usage, _, rest = shown.partition("\n\n")
    assert usage.startswith(f"usage: yahtzee-rules {command}")
    description = rest.partition("\n\n")[0]
    assert not description.startswith(("options:", "positional arguments:")), shown
    assert len(description.split()) >= 8, shown
