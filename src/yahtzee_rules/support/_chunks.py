"""Long work split into seeded chunks, run in order or on any executor.

Internal: shared by :func:`~yahtzee_rules.simulate`, the solver's batched
simulator and the arena's tournaments; nothing here is public API.

Every long-running entry point splits its work into chunks of a fixed size (which
never depends on the executor or its number of workers), seeds chunk ``i`` from
``(seed, i)``, and combines the chunk results in chunk order. So the results are
the same, bit for bit, whether the chunks run one after another in this process
(``executor=None``) or on a process pool, loky, Dask or Ray, with any number of
workers; and only a bounded number of chunk results is held at any time.
"""

from __future__ import annotations

import os
import random
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, overload

from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import MalformedInputError

__all__ = [
    "Executor",
    "Future",
    "Spans",
    "check_executor",
    "chunk_random",
    "in_order",
    "spans",
]

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)


class Future(Protocol[_T_co]):
    """What ``submit`` returns: anything whose ``result()`` waits for the value."""

    def result(self) -> _T_co: ...  # pragma: no cover


class Executor(Protocol):
    """Anything with ``submit(fn, *args)`` returning a future: a ``concurrent.futures``
    executor, loky's, Dask's ``Client.get_executor()``, or a small adapter for Ray."""

    def submit(self, fn: Callable[..., _T], /, *args: Any) -> Future[_T]: ...  # pragma: no cover


def check_executor(executor: object) -> Executor | None:
    """``executor`` itself if it is ``None`` or has a callable ``submit``; else an error."""
    if executor is None or callable(getattr(executor, "submit", None)):
        return executor  # type: ignore[return-value]  # checked: it has submit
    raise MalformedInputError(
        f"executor {show(executor)}: has no submit method; pass None (run here) or an executor "
        f"such as concurrent.futures.ProcessPoolExecutor() or a Dask client's get_executor()"
    )


class Spans(Sequence[tuple[int, int]]):
    """``(index, count)`` for each chunk of at most ``size`` items out of ``total``.

    Worked out on demand, so that a run of any length costs nothing until it is played.

    >>> list(spans(5, 2)), len(spans(10**18, 1000))
    ([(0, 2), (1, 2), (2, 1)], 1000000000000000)
    """

    __slots__ = ("_count", "size", "total")

    def __init__(self, total: int, size: int) -> None:
        self.total, self.size = total, size
        self._count = -(-total // size)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, int]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, int] | Sequence[tuple[int, int]]:
        if isinstance(index, slice):
            return [self[i] for i in range(self._count)[index]]
        i = range(self._count)[index]  # IndexError beyond the end, as a list's
        return i, min(self.size, self.total - i * self.size)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for i in range(self._count):
            yield i, min(self.size, self.total - i * self.size)


def spans(total: int, size: int) -> Spans:
    """``(index, count)`` for each chunk of at most ``size`` items out of ``total``, lazily.

    >>> spans(5, 2)[2]
    (2, 1)
    """
    return Spans(total, size)


def chunk_random(seed: object, index: int, stream: str = "") -> random.Random:
    """The generator for chunk ``index`` of a run seeded with ``seed``.

    Chunk 0 of the plain stream is ``random.Random(seed)`` itself, so a run that fits in
    one chunk plays exactly as it did before runs were split; every other chunk (and
    every named ``stream``) gets its own generator, seeded from the text of
    ``(seed, index, stream)``, which the standard library hashes with SHA-512.

    >>> chunk_random(7, 0).random() == random.Random(7).random()
    True
    >>> chunk_random(7, 1).random() == chunk_random(7, 1).random() != chunk_random(7, 2).random()
    True
    """
    if index == 0 and not stream:
        return random.Random(seed)  # type: ignore[arg-type]  # as the caller's seed allows
    return random.Random(f"{seed!r}/{index}/{stream}")


def _window() -> int:
    return max(16, 4 * (os.cpu_count() or 1))


def in_order(
    work: Callable[..., _T],
    tasks: Iterable[tuple[Any, ...]],
    executor: Executor | None,
    *,
    window: int | None = None,
) -> Generator[_T, None, None]:
    """``work(*task)`` for each task, yielded in the order of ``tasks``.

    With no executor each task runs here when its result is wanted. With one, up to
    ``window`` tasks are submitted ahead of the one being waited for, so a pool stays
    busy while memory holds only that many results. Closing the iterator early (a
    sequential test that has decided) cancels the tasks not yet started.

    >>> list(in_order(pow, [(2, 3), (3, 2)], None))
    [8, 9]
    """
    if executor is None:
        for task in tasks:
            yield work(*task)
        return
    ahead = _window() if window is None else window
    pending: deque[Future[_T]] = deque()
    try:
        for task in tasks:
            pending.append(executor.submit(work, *task))
            if len(pending) >= ahead:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            cancel = getattr(future, "cancel", None)
            if callable(cancel):
                cancel()
