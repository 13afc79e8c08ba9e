"""Helper processes for the table build: one shared array of values, chunks claimed lock-free.

Threads in one process gain little on the build: its NumPy calls are short, so two
threads spend their time handing the GIL to each other. A large build therefore
starts helper processes (a :class:`Crew`) that map the same values into memory (a
``memfd`` on Linux, an unlinked temporary file elsewhere on POSIX) and solve chunks of
each level beside this process.

Claims need no lock (:func:`claim`). Each worker owns a contiguous range of the
level's chunks and takes them from its front; a worker whose range is used up takes
the others' chunks from their backs. A pointer only ever moves one step from the value
just read, to the chunk the mover then solves: a race between two movers can make two
workers solve the same chunk (they write the same floats), never leave one unsolved.
After a level every worker reports, and only then does the next level start.

The build never depends on a helper: one that cannot start, or is still starting
when a level begins, leaves its range to the others, and if one dies, this process solves the level it was working on again, in
full, and goes on without it.

Private to the solver package.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    import subprocess
    import threading

    from numpy.typing import NDArray

    _Helper = tuple[subprocess.Popen[bytes], Connection]  # a process and its connection

# subprocess, socket and tempfile are imported where this process starts helpers: a
# helper needs none of them.

#: Solves one chunk (by its index) of the level under way.
Solve = Callable[[int], object]


class Plan(Protocol):
    """What a helper needs to solve any chunk: sent once, pickled."""

    def solver(self, values: NDArray[np.float64], level: int) -> Solve:
        """The function that solves level ``level``'s chunks into ``values``."""


# A helper's program: it takes this process's import path before it imports anything
# of the library, so that it runs the very modules this process runs.
PROGRAM = (
    "import sys\n"
    "from multiprocessing.connection import Connection\n"
    "connection = Connection(int(sys.argv[1]))\n"
    "sys.path[:] = connection.recv()\n"
    "from yahtzee_rules.bots.solver._workers import _serve\n"
    "_serve(connection, int(sys.argv[2]))\n"
)

# One BLAS thread in a helper: the processes are the parallelism.
_ONE_THREAD = dict.fromkeys(
    ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"), "1"
)


def claim(worker: int, claims: NDArray[np.int64], solve: Solve) -> int:
    """Solve chunks of one level: ``worker``'s own range from its front, then the others'.

    ``claims`` holds ``front, back`` for each worker's range of chunks (the next chunk
    its owner takes, and one past the last chunk nobody else has taken). Returns how
    many chunks this worker solved.

    Examples:
        >>> claims = np.array([0, 3, 3, 5])  # worker 0 owns chunks 0-2, worker 1 chunks 3-4
        >>> solved = []
        >>> claim(0, claims, solved.append), solved  # its own range, then 4 and 3 from the back
        (5, [0, 1, 2, 4, 3])
        >>> claims.tolist()  # every range used up: a late worker 1 finds nothing to do
        [3, 3, 3, 3]
        >>> claim(1, claims, solved.append)
        0
    """
    workers = len(claims) // 2
    solved = 0
    for victim in (worker, *((worker + k) % workers for k in range(1, workers))):
        front, back = 2 * victim, 2 * victim + 1
        while True:
            if victim == worker:  # its own range, from the front
                chunk = int(claims[front])
                if chunk >= claims[back]:
                    break
                claims[front] = chunk + 1
            else:  # another's, from the back
                chunk = int(claims[back]) - 1
                if chunk < claims[front]:
                    break
                claims[back] = chunk
            solve(chunk)
            solved += 1
    return solved


def split(claims: NDArray[np.int64], chunks: int) -> None:
    """Give each worker an equal contiguous range of ``chunks`` chunks.

    Examples:
        >>> claims = np.zeros(6, dtype=np.int64)
        >>> split(claims, 10)
        >>> claims.tolist()
        [0, 3, 3, 6, 6, 10]
    """
    workers = len(claims) // 2
    edges = [chunks * w // workers for w in range(workers + 1)]
    claims[0::2] = edges[:-1]
    claims[1::2] = edges[1:]


def _memory(size: int) -> int:
    """A file descriptor of ``size`` zero bytes in memory, for mapping in several processes."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("yahtzee-rules-build", os.MFD_CLOEXEC)
    else:  # pragma: no cover - POSIX without memfd (macOS, BSD)
        import tempfile

        fd, path = tempfile.mkstemp(prefix="yahtzee-rules-build-")
        os.unlink(path)
    os.ftruncate(fd, size)
    return fd


def _views(
    memory: mmap.mmap, workers: int, count: int
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """The claims (two int64 per worker) and the values that follow them in ``memory``."""
    claims: NDArray[np.int64] = np.frombuffer(memory, np.int64, 2 * workers)
    values: NDArray[np.float64] = np.frombuffer(memory, np.float64, count, 16 * workers)
    return claims, values


class Crew:
    """This process and up to ``helpers`` helper processes, building one table's values.

    The helpers start at once, so that they import NumPy and the solver while this
    process makes its model (or later, :meth:`hire`); :meth:`prepare` sends them the
    plan. Use as a context manager: leaving it ends the helpers (at once on an error).

    Attributes:
        values: ``count`` floats, zeros at first, shared with the helpers. The array
            stays valid after the crew ends.
    """

    def __init__(self, helpers: int, count: int, *, hire: bool = True) -> None:
        self._helpers: list[_Helper] = []
        self._ready: list[_Helper] = []  # those that have the plan
        self._senders: dict[int, threading.Thread] = {}  # by id of the helper
        self._plan: Plan | None = None
        self._data: bytes | None = None  # the plan, pickled once a helper needs it
        self._fd: int | None = None  # the shared memory, until the helpers start
        if helpers == 0:  # this process alone: private memory
            self._claims = np.zeros(2, dtype=np.int64)
            self.values = np.zeros(count)
            return
        self._workers, self._count = helpers + 1, count
        size = 16 * self._workers + 8 * count
        fd = _memory(size)
        try:
            memory = mmap.mmap(fd, size)
        except BaseException:
            os.close(fd)
            raise
        self._claims, self.values = _views(memory, self._workers, count)
        self._fd = fd  # the mapping stays when it closes
        if hire:
            self.hire()

    def hire(self) -> None:
        """Start the helpers (once; a crew made with ``hire=False`` starts none before).

        A helper started after :meth:`prepare` is sent the plan at once, and joins the
        level under way when it has it.
        """
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            for worker in range(1, self._workers):
                helper = start_helper(fd, worker, self._workers, self._count)
                if helper is None:
                    break
                self._helpers.append(helper)
        finally:
            os.close(fd)
        if self._plan is not None:
            self._send_plan()

    def __enter__(self) -> Crew:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if self._fd is not None:  # never hired
            os.close(self._fd)
            self._fd = None
        for helper in list(self._helpers):  # one still starting is of no more use
            self._drop(helper, kill=kind is not None or helper not in self._ready)

    def prepare(self, plan: Plan) -> None:
        """Send the helpers the plan they solve chunks from (and those hired later).

        A thread sends it to each: a plan larger than the pipe's buffer would
        otherwise hold this process until a helper still starting reads it.
        """
        self._plan = plan
        self._send_plan()

    def _send_plan(self) -> None:
        if not self._helpers:
            return
        import threading

        if self._data is None:
            self._data = pickle.dumps(self._plan, protocol=pickle.HIGHEST_PROTOCOL)
        for helper in self._helpers:
            if id(helper) not in self._senders:
                sender = threading.Thread(
                    target=_send_plan, args=(helper[1], self._data), daemon=True
                )
                sender.start()
                self._senders[id(helper)] = sender

    def wait(self) -> None:
        """Wait until every helper has the plan (or has died)."""
        for helper in list(self._helpers):
            if helper not in self._ready:
                self._greet(helper)

    def level(self, level: int, chunks: int, solve: Solve) -> None:
        """Solve every chunk of level ``level``, here and in the helpers that have the plan.

        A helper still starting is not waited for: its range is left to the others, and
        it joins the level as soon as it has the plan (checked after each chunk solved
        here).
        """
        split(self._claims, chunks)
        working: list[_Helper] = []

        def enlist() -> None:
            for helper in list(self._helpers):
                if helper in working:
                    continue
                if helper not in self._ready:
                    if not helper[1].poll():
                        continue
                    self._greet(helper)
                if helper in self._ready:
                    self._send(helper, level)
                if helper in self._ready:  # not dropped on the way
                    working.append(helper)

        def solve_and_enlist(chunk: int) -> object:
            found = solve(chunk)
            if len(working) < len(self._helpers):
                enlist()
            return found

        enlist()
        claim(0, self._claims, solve_and_enlist if len(working) < len(self._helpers) else solve)
        lost = False
        for helper in working:
            if helper not in self._helpers:  # it died when sent the level
                continue
            try:
                helper[1].recv()  # its report: every chunk it claimed is solved
            except (EOFError, OSError):
                lost = True
                self._drop(helper, kill=True)
        if lost:  # chunks it claimed may be unsolved: the whole level again, here
            for chunk in range(chunks):
                solve(chunk)

    def _greet(self, helper: _Helper) -> None:
        """Read the helper's word that it has the plan; drop it if it died."""
        try:
            helper[1].recv()
        except (EOFError, OSError):
            self._drop(helper, kill=True)
        else:
            self._ready.append(helper)

    def _send(self, helper: _Helper, message: object) -> None:
        try:
            if isinstance(message, bytes):
                helper[1].send_bytes(message)
            else:
                helper[1].send(message)
        except OSError:  # it died: its range is left to the others
            self._drop(helper, kill=True)

    def _drop(self, helper: _Helper, *, kill: bool) -> None:
        import subprocess

        process, connection = helper
        self._helpers.remove(helper)
        if helper in self._ready:
            self._ready.remove(helper)
        if kill:
            process.kill()
        sender = self._senders.pop(id(helper), None)
        if sender is not None:  # done once the helper has the plan, or has ended
            sender.join()
        connection.close()  # a helper ends when it reads the end of its pipe
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck helper
            process.kill()
            process.wait()


def _send_plan(connection: Connection, data: bytes) -> None:
    """Send a helper its plan; one that has died is found when it does not report."""
    with contextlib.suppress(OSError):
        connection.send_bytes(data)


def start_helper(fd: int, worker: int, workers: int, count: int) -> _Helper | None:
    """Helper ``worker``, mapping ``fd``, and its connection; None if it cannot start."""
    if getattr(sys, "frozen", False) or not sys.executable:  # pragma: no cover
        return None  # an embedded or frozen interpreter: no Python to start
    import socket
    import subprocess

    ours, theirs = socket.socketpair()
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", PROGRAM, str(theirs.fileno()), str(fd)],
            pass_fds=(theirs.fileno(), fd),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **_ONE_THREAD},
        )
    except OSError:  # pragma: no cover - starting processes not allowed here
        ours.close()
        return None
    finally:
        theirs.close()
    connection = Connection(ours.detach())
    connection.send(list(sys.path))
    connection.send((worker, workers, count))
    return process, connection


def _serve(connection: Connection, fd: int) -> None:
    """A helper's life: map the values, then solve its share of each level until told to end.

    The first message (the import path) was read by the program; then come the worker's
    number, the plan, and level after level.
    """
    worker, workers, count = connection.recv()
    memory = mmap.mmap(fd, 16 * workers + 8 * count)
    os.close(fd)
    claims, values = _views(memory, workers, count)
    plan: Plan = pickle.loads(connection.recv_bytes())
    connection.send(None)  # ready
    while True:
        try:
            level = connection.recv()
        except EOFError:
            return
        claim(worker, claims, plan.solver(values, level))
        connection.send(level)


def check_workers(workers: object = None) -> int:
    """``workers`` checked, or the default for ``None``: up to 2, one per CPU."""
    if workers is None:
        return max(1, min(2, os.cpu_count() or 1))
    if type(workers) is not int or workers < 1:
        from yahtzee_rules.support.errors import MalformedInputError

        raise MalformedInputError(f"workers {workers!r}: not a positive int")
    return workers


def helpers_for(workers: int, states: int, least: int | None = None) -> int:
    """How many helper processes a build of about ``states`` states takes with ``workers``.

    None for a build under ``least`` states (default :data:`PROCESS_STATES`: a helper
    costs about 0.2 CPU seconds to start), or off POSIX.
    """
    least = PROCESS_STATES if least is None else least
    if workers < 2 or states < least or os.name != "posix":
        return 0
    return workers - 1


#: The size of build (states, copies included) from which helpers pay for their start.
PROCESS_STATES = 1 << 19
