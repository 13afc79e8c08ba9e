"""Shared by the command-line tests: run the app as a program, piped or on a pseudo-terminal."""

from __future__ import annotations

import os
import re
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import yahtzee_rules

SRC = Path(yahtzee_rules.__file__).resolve().parents[1]  # src/, or site-packages when installed
ROOT = Path(__file__).resolve().parents[1]  # the checkout: the docs and pyproject.toml
ENV = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
APP = [sys.executable, "-m", "yahtzee_rules"]


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the app with ``stdin`` piped in; stdout and stderr kept apart."""
    return subprocess.run(
        [*APP, *args], input=stdin, capture_output=True, text=True, env=ENV, timeout=60, cwd=cwd
    )


_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
PROMPT = re.compile(r"^[A-Za-z][\w.-]*(?: [\w.-]+)*> ?(.*)$")


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


def script(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


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


def coach_screen(*extra: str) -> tuple[Terminal, list[str]]:
    """``play Ann Bob --coach --seed 5`` (and ``extra``) on an 80x24 terminal after Ann's
    second roll: the terminal, still at the prompt, and the 24 lines it shows."""
    term = Terminal("play", "Ann", "Bob", "--coach", "--seed", "5", *extra, size=(80, 24))
    shown = term.expect("Ann> ")
    term.send("r 1 2")
    shown += term.expect("Ann> ")
    return term, shown.splitlines()[-24:]
