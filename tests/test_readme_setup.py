"""The README's set-up, then its commands, as a new user types them in one shell.

The set-up's first command makes the environment, installs the package into it and plays
the demonstration game; every command the README shows and every command the program
prints (the demonstration's "To play: ...", a quit game's "To resume it: ...") must then
run as written. The test replays the set-up in ``bash`` with a PATH that has no
``yahtzee-rules`` on it: the environment is this one (linked as ``.venv`` in a fresh
directory), so the steps that make it and install into it are the only ones left out.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.prefix) / "bin"

pytestmark = [
    pytest.mark.main_interpreter,
    pytest.mark.skipif(
        not (BIN / "activate").is_file()
        or not (BIN / "yahtzee-rules").is_file()
        or not shutil.which("bash"),
        reason="the tests run in a virtual environment with the yahtzee-rules command, and bash",
    ),
]


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", text, re.M | re.S)
    assert match, title
    return match.group(1)


def _sh_blocks(section: str) -> list[list[str]]:
    return [
        [line for line in block.splitlines() if line.strip()]
        for block in re.findall(r"^```sh\n(.*?)^```", section, re.M | re.S)
    ]


def _set_up_steps() -> tuple[list[str], str]:
    """The first set-up command's steps, and the second command."""
    (block,) = _sh_blocks(_section("Set-up"))
    assert len(block) == 2, block  # two commands: set up (and play the demonstration), test
    return block[0].split(" && "), block[1]


def _kept(steps: list[str]) -> list[str]:
    """The steps of the set-up this test runs: all but making the environment and installing."""
    kept = []
    for step in steps:
        words = shlex.split(step)
        if words[:3] == ["python3", "-m", "venv"]:
            continue
        if Path(words[0]).name == "pip" and words[1] == "install":
            continue
        kept.append(step)
    return kept


def _shell(script: str, directory: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a new shell in a new ``directory`` whose ``.venv`` is this environment."""
    directory.mkdir()
    (directory / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    environment = {
        "HOME": str(directory),
        "PATH": os.pathsep.join(("/usr/bin", "/bin")),  # no yahtzee-rules: the set-up puts it there
        "LANG": "C.UTF-8",
        "YAHTZEE_RULES_CACHE_DIR": os.environ["YAHTZEE_RULES_CACHE_DIR"],
    }
    return subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=directory,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _printed_commands(output: str) -> list[str]:
    """The commands the program told its user to type."""
    found = re.findall(r"To play: (yahtzee-rules [^(;]*?)\s*[(;]", output)
    found += re.findall(r"To resume it: (yahtzee-rules .*)$", output, re.M)
    return found


def test_the_readme_setup_ends_with_the_command_on_the_path(tmp_path: Path) -> None:
    steps, test_command = _set_up_steps()
    kept = _kept(steps)
    assert len(kept) < len(steps)  # it makes the environment and installs into it
    assert kept[-1] == "python -m yahtzee_rules" or kept[-1].endswith(" -m yahtzee_rules")
    # In the same shell: the set-up (playing the demonstration), then every command shown.
    shown = [
        line.split("  #")[0].strip()
        for block in _sh_blocks(_section("In the terminal"))
        for line in block
    ]
    assert shown
    assert all(line.startswith("yahtzee-rules ") for line in shown), shown
    script = [
        " && ".join(kept),
        "command -v yahtzee-rules",
        shlex.split(test_command)[0] + " -c pass",
    ]
    for line in shown:
        words = shlex.split(line)
        if words[1] in ("score", "rules"):  # quick: run in full
            script.append(line)
        else:  # games, tables and servers: the command and its options, as parsed
            script.append(f"{line} --help > /dev/null")
    done = _shell("\n".join(script), tmp_path / "clone")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Winner" in done.stdout  # the demonstration game played
    assert "Full House" in done.stdout  # what score printed

    # The commands the demonstration and a quit game print run as printed.
    printed = _printed_commands(done.stdout)
    assert printed, done.stdout[-500:]
    quit_game = "printf 'quit\\n\\n' | "  # quit, and leave without saving
    again = _shell(f". .venv/bin/activate && {quit_game}{printed[0]}", tmp_path / "again")
    assert again.returncode == 0, again.stderr[-2000:]
    resume = _printed_commands(again.stdout)
    assert resume, again.stdout[-500:]
    assert resume[0].startswith("yahtzee-rules play --code "), resume
    third = _shell(f". .venv/bin/activate && {quit_game}{resume[0]}", tmp_path / "third")
    assert third.returncode == 0, third.stderr[-2000:]
    assert "Resuming" in third.stdout, third.stdout[-500:]
