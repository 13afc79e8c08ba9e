"""Internal: notices of large files about to be written, for whoever shows them.

The solver's cache (:mod:`yahtzee_rules.bots.solver`) calls :func:`announce` before it
builds a file it will keep, with the file's kind, where it goes and about how large it
will be; the command line listens (:func:`listening`) and says so before the work
starts. Nothing listens by default: the library itself prints nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["Notice", "announce", "listening"]

#: ``notice(kind, path, size)``: a file of ``kind`` and about ``size`` bytes is to be
#: built and written to ``path``.
Notice = Callable[[str, Path, int], None]

_LISTENERS: list[Notice] = []


def announce(kind: str, path: Path, size: int) -> None:
    """Tell every listener that a ``kind`` file of about ``size`` bytes will be written to
    ``path`` once it is built.

    Examples:
        >>> seen = []
        >>> with listening(lambda *told: seen.append(told)):
        ...     announce("optimal", Path("/tmp/t.npz"), 8_000_000)
        >>> announce("optimal", Path("/tmp/t.npz"), 8_000_000)  # no one listens now
        >>> seen
        [('optimal', PosixPath('/tmp/t.npz'), 8000000)]
    """
    for notice in tuple(_LISTENERS):
        notice(kind, path, size)


@contextlib.contextmanager
def listening(notice: Notice) -> Iterator[None]:
    """Call ``notice`` for every :func:`announce` within the ``with`` block."""
    _LISTENERS.append(notice)
    try:
        yield
    finally:
        _LISTENERS.remove(notice)
