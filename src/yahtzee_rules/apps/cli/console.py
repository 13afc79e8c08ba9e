"""Where the command-line app reads and writes: a terminal, a pipe, or a script.

Examples:
    >>> console = ScriptConsole(["r 1 2"])
    >>> console.ask("Ann> ")
    'r 1 2'
    >>> console.say("hello")
    >>> print(console.transcript())
    Ann> r 1 2
    hello
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Iterable
from typing import Protocol, TextIO

from yahtzee_rules.support._text import for_terminal

__all__ = ["AppError", "Console", "ScriptConsole", "StreamConsole"]


class AppError(Exception):
    """A command cannot run as asked; the app prints the message and exits with status 2.

    Examples:
        >>> str(AppError("solve: no table"))
        'solve: no table'
    """


class Console(Protocol):
    """Reads a line after a prompt, and writes text.

    ``ask`` raises :class:`EOFError` when input ends and :class:`KeyboardInterrupt`
    on Ctrl-C, like :func:`input`. A console on a terminal may also have a
    ``terminal_size()`` method returning ``(columns, lines)`` (as
    :class:`StreamConsole` does): the play screen is then laid out for that size.

    Examples:
        >>> console: Console = ScriptConsole(["r"])
        >>> console.ask("Ann> ")
        'r'
    """

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the line typed, without its newline.

        Examples:
            >>> ScriptConsole(["f c"]).ask("> ")
            'f c'
        """
        ...

    def say(self, text: str = "") -> None:
        """Write ``text`` and a newline.

        Examples:
            >>> ScriptConsole([]).say("hello")
        """
        ...


def _enable_line_editing() -> None:
    """Give the prompt line editing and history (arrow keys, Ctrl-R) where the platform
    has ``readline``; elsewhere the prompt reads plain lines as before."""
    with contextlib.suppress(ImportError):  # Windows, or a Python built without it
        import readline  # noqa: F401  (importing it is what turns it on for input())


class StreamConsole:
    """A console on text streams (standard input and output by default).

    When the input is not a terminal (a pipe or a file), each line read is echoed
    after its prompt, so the output reads like the terminal session it replays. On a
    terminal the prompt has line editing and history (the arrow keys recall earlier
    commands) wherever Python has the ``readline`` module.

    Examples:
        >>> import io
        >>> out = io.StringIO()
        >>> console = StreamConsole(io.StringIO("r\\n"), out)
        >>> console.ask("Ann> ")
        'r'
        >>> out.getvalue()
        'Ann> r\\n'
        >>> console.ask("Ann> ")
        Traceback (most recent call last):
        ...
        EOFError
    """

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout
        try:
            self.interactive = self.stdin.isatty()
        except (AttributeError, ValueError):
            self.interactive = False
        if self.interactive and self.stdin is sys.stdin and self.stdout is sys.stdout:
            _enable_line_editing()

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read one line (echoed when the input is not a terminal).

        Examples:
            >>> import io
            >>> out = io.StringIO()
            >>> StreamConsole(io.StringIO("undo\\n"), out).ask("Bob> "), out.getvalue()
            ('undo', 'Bob> undo\\n')
        """
        if self.interactive and self.stdin is sys.stdin and self.stdout is sys.stdout:
            return input(prompt)
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            raise EOFError
        line = line.rstrip("\r\n")
        if not self.interactive:
            self.stdout.write(for_terminal(line) + "\n")  # an echo, never raw control codes
        return line

    def terminal_size(self) -> tuple[int, int] | None:
        """The terminal's ``(columns, lines)``, or None when the input is not a terminal.

        On a terminal the play screen is laid out for this size; piped or scripted
        sessions print the same text whatever the size. A terminal that does not
        report its size counts as 80 by 24 (the ``COLUMNS`` and ``LINES`` environment
        variables, when set, take precedence, as for :func:`shutil.get_terminal_size`).

        Examples:
            >>> import io
            >>> print(StreamConsole(io.StringIO(), io.StringIO()).terminal_size())
            None
        """
        if not self.interactive:
            return None
        size = shutil.get_terminal_size((80, 24))
        return size.columns, size.lines

    def say(self, text: str = "") -> None:
        """Write ``text`` and a newline.

        Examples:
            >>> import io
            >>> out = io.StringIO()
            >>> StreamConsole(io.StringIO(), out).say("Game over."); out.getvalue()
            'Game over.\\n'
        """
        self.stdout.write(text + "\n")
        self.stdout.flush()


class ScriptConsole:
    """A console that answers from a list of lines and records the whole exchange.

    After the last line, ``ask`` raises :class:`EOFError`; a line that is ``"^C"``
    raises :class:`KeyboardInterrupt` instead, as Ctrl-C would. With ``size``
    (``(columns, lines)``), it stands for a terminal of that size.

    Examples:
        >>> console = ScriptConsole(["^C"])
        >>> try:
        ...     console.ask("> ")
        ... except KeyboardInterrupt:
        ...     print("interrupted")
        interrupted
    """

    def __init__(self, lines: Iterable[str], *, size: tuple[int, int] | None = None) -> None:
        self._lines = list(lines)
        self._out: list[str] = []
        self._size = size

    def terminal_size(self) -> tuple[int, int] | None:
        """The size given, as a terminal's ``(columns, lines)``; None without one.

        Examples:
            >>> ScriptConsole([], size=(80, 24)).terminal_size()
            (80, 24)
        """
        return self._size

    def ask(self, prompt: str) -> str:
        """Answer with the next scripted line; :class:`EOFError` once there is none.

        Examples:
            >>> console = ScriptConsole(["r 1"])
            >>> console.ask("Ann> ")
            'r 1'
            >>> console.ask("Ann> ")
            Traceback (most recent call last):
            ...
            EOFError
        """
        if not self._lines:
            self._out.append(prompt.rstrip())
            raise EOFError
        line = self._lines.pop(0)
        if line == "^C":
            self._out.append(prompt + "^C")
            raise KeyboardInterrupt
        self._out.append((prompt + line).rstrip())
        return line

    def say(self, text: str = "") -> None:
        """Record ``text``.

        Examples:
            >>> console = ScriptConsole([])
            >>> console.say("Ann rolls: 12345"); console.transcript()
            'Ann rolls: 12345'
        """
        self._out.append(text)

    def transcript(self) -> str:
        """Everything asked and said so far, one line each.

        Examples:
            >>> ScriptConsole([]).transcript()
            ''
        """
        return "\n".join(self._out)
