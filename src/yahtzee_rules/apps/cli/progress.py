"""A progress bar drawn by hand on a text stream (standard error by default).

On a terminal it redraws one line in place (``[#####.....]  50%  label``); on
anything else (a pipe, a log file) it writes a plain line at each quarter, so
logs stay readable and the same from run to run.

Examples:
    >>> import io
    >>> out = io.StringIO()
    >>> bar = Progress("simulate", 8, stream=out)
    >>> for _ in range(8):
    ...     bar.advance()
    >>> bar.close()
    >>> print(out.getvalue(), end="")
    simulate: 25% of 8
    simulate: 50% of 8
    simulate: 75% of 8
    simulate: 100% of 8
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]

_WIDTH = 30


class Progress:
    """Progress through ``total`` steps, drawn on ``stream``.

    Args:
        label: What is being done, printed with the bar.
        total: The number of steps (at least 1).
        stream: Where to draw; standard error by default.
        tty: Draw a live bar; by default, whether ``stream`` is a terminal.

    Examples:
        >>> import io
        >>> out = io.StringIO()
        >>> bar = Progress("solve", 4, stream=out, tty=True)
        >>> bar.update(4)
        >>> bar.close()
        >>> out.getvalue().rstrip().split("\\r")[-1]
        '[##############################] 100%  solve'
    """

    def __init__(
        self, label: str, total: int, *, stream: TextIO | None = None, tty: bool | None = None
    ) -> None:
        self.label = label
        self.total = max(1, total)
        self.done = 0
        self.stream = sys.stderr if stream is None else stream
        self.tty = _is_tty(self.stream) if tty is None else tty
        self._quarters = 0
        self._last_draw = 0.0
        self._drawn = False
        self._closed = False

    def advance(self, steps: int = 1) -> None:
        """Record ``steps`` more steps done.

        Examples:
            >>> import io
            >>> bar = Progress("x", 10, stream=io.StringIO())
            >>> bar.advance(3); bar.done
            3
        """
        self.update(self.done + steps)

    def update(self, done: int, total: int | None = None) -> None:
        """Record that ``done`` steps of ``total`` (default: as before) are finished.

        The signature fits a progress callback ``callback(done, total)``.

        Examples:
            >>> import io
            >>> out = io.StringIO()
            >>> Progress("x", 2, stream=out).update(1)
            >>> out.getvalue()
            'x: 50% of 2\\n'
        """
        if total is not None and total > 0:
            self.total = total
        self.done = min(done, self.total)
        if self.tty:
            now = time.monotonic()
            if now - self._last_draw >= 0.05 or self.done == self.total:
                self._last_draw = now
                self._draw()
        else:
            quarters = 4 * self.done // self.total
            if quarters > self._quarters:
                self._quarters = quarters
                self.stream.write(f"{self.label}: {25 * quarters}% of {self.total}\n")
                self.stream.flush()

    def _draw(self) -> None:
        self._drawn = True
        filled = _WIDTH * self.done // self.total
        percent = 100 * self.done // self.total
        bar = "#" * filled + "." * (_WIDTH - filled)
        self.stream.write(f"\r[{bar}] {percent:>3}%  {self.label}")
        self.stream.flush()

    def close(self) -> None:
        """Finish the bar (a live bar ends its line).

        Examples:
            >>> import io
            >>> out = io.StringIO()
            >>> bar = Progress("x", 2, stream=out, tty=True)
            >>> bar.update(1); bar.close(); out.getvalue().endswith("\\n")
            True
            >>> unused = Progress("x", 2, stream=out, tty=True)
            >>> unused.close()  # a bar never drawn leaves no trace

        """
        if self._closed:
            return
        self._closed = True
        if self.tty and self._drawn:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
