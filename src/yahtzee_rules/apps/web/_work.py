"""Internal: where the web table does its work, and the optimal tables it was started with.

The server's event loop only reads requests and writes answers: every page, move,
computer player and coach answer is worked out in a small pool of worker threads
(:class:`Workers`), and a request that finds the pool busy and its queue full is
answered at once with 503 rather than left to pile up. Optimal tables are loaded (or
built) once, when the app is made, for the rulesets it is started with
(:class:`Tables`); a game under any other ruleset gets the greedy player's moves and
the heuristic coach, and its page says so. Nothing a request asks for builds a table
or grows a cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

import anyio
import anyio.to_thread
import attrs

from yahtzee_rules.core.rules import Rules, TieRule
from yahtzee_rules.support._limits import WEB_QUEUE, WEB_WORKERS
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import Table, TargetTable

__all__ = ["BusyError", "Tables", "Workers"]

T = TypeVar("T")


class BusyError(Exception):
    """Every worker is busy and the queue is full: the request is answered with 503."""


def _count(value: object, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise MalformedInputError(f"{what} {value!r}: not an int of at least {least}")
    return value


class Workers:
    """A bounded pool: ``workers`` threads at once, ``queue`` more requests waiting.

    Used from the event loop's thread only, so the count of requests in hand needs
    no lock.
    """

    def __init__(self, workers: int = WEB_WORKERS, queue: int = WEB_QUEUE) -> None:
        self.workers = _count(workers, "workers", 1)
        self.queue = _count(queue, "queue", 0)
        self._limiter = anyio.CapacityLimiter(self.workers)
        self._in_hand = 0

    async def run(self, work: Callable[[], T]) -> T:
        """``work()``, run in a worker thread; :class:`BusyError` at once if too many wait."""
        if self._in_hand >= self.workers + self.queue:
            raise BusyError
        self._in_hand += 1
        try:
            return await anyio.to_thread.run_sync(work, limiter=self._limiter)
        finally:
            self._in_hand -= 1


class Tables:
    """The optimal tables a web table was started with, found for any rules they serve.

    Args:
        tables: Tables, or rulesets whose tables are loaded from the solver's cache
            (built and cached first if need be), now.

    Raises:
        MalformedInputError: For an item that is neither a Table nor a Rules, or rules
            the solver cannot solve (Triple Yahtzee).
    """

    def __init__(self, tables: Iterable[object] = ()) -> None:
        found: list[Table] = []
        items = list(tables)
        self._targets: dict[int, TargetTable] = {}
        if items:
            from yahtzee_rules.bots.solver import Table, load_table
            from yahtzee_rules.bots.solver._internal import late_targets

            for item in items:
                if isinstance(item, Rules):
                    item = load_table(rules=item)
                if not isinstance(item, Table):
                    raise MalformedInputError(
                        f"tables: {item!r} is neither a Table nor a Rules; give the rulesets "
                        f"to load optimal tables for"
                    )
                if not any(table.serves(item.rules) for table in found):
                    found.append(item)
                    # a review's chance of winning in the late turns reads it: made now,
                    # never in a request (under a second, then cached)
                    self._targets[id(item)] = late_targets(item.rules)
        self._tables = tuple(found)

    def __call__(self, rules: Rules) -> Table | None:
        """The table that serves ``rules``, or ``None``: a few tables, looked through."""
        for table in self._tables:
            if table.serves(rules):
                return table
        return None

    def targets(self, rules: Rules) -> TargetTable | None:
        """The late turns' target table for ``rules`` (a review's chance of winning), made
        with the table that serves them; ``None`` when no table does."""
        table = self(rules)
        return None if table is None else self._targets[id(table)]

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the rulesets the tables serve (under any tie rule), for the setup page."""
        return tuple(attrs.evolve(table.rules, tie=TieRule.SHARE).name for table in self._tables)
