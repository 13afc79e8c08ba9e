"""The table: one value per turn-start state, how to build it, and its cache file."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from weakref import WeakValueDictionary

import numpy as np

from yahtzee_rules.bots.solver._build import Progress, build_values
from yahtzee_rules.bots.solver._model import (
    check_design,
    check_joker,
    check_solvable,
    flat_index,
    known_model,
    layout_of,
    mask_of,
    model_of,
    same_values,
)
from yahtzee_rules.bots.solver._storage import (
    cache_dir,
    map_arrays,
    read_arrays,
    table_key,
    table_path,
    write_npz,
)
from yahtzee_rules.bots.solver._turns import TurnTables
from yahtzee_rules.bots.solver._workers import check_workers
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play._filling import check_card, check_rules, rules_or_usual
from yahtzee_rules.play.scorecard import Scorecard, empty_card
from yahtzee_rules.support._notices import announce
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.bots.solver._codes import Decided
    from yahtzee_rules.bots.solver._model import Model


class Table:
    """The optimal expected score still to come from the start of every turn, for one rule set.

    The rule set may play any card the library has (Classic, Yacht); the table's
    cards are cards of that design. Get one with :func:`load_table` (cached) or
    :func:`build_table`. A table is
    read-only; it remembers the per-turn work that :func:`advise` and
    :func:`best_action` do, so repeated advice on a card is fast.

    A table built with ``start=card`` covers only the cards that extend ``card``
    (the same boxes filled, and more): quick to build for a nearly finished card.

    Args:
        values: One float per state, as :attr:`values` describes (copied).
        rules: The rule set the values were computed for (keyword only).
        start: The card the values start from (default: the empty card; keyword only).

    Raises:
        MalformedInputError: For values of the wrong shape or type, or a ``start`` card
            of another design than the rules' card.

    Attributes:
        rules: The rule set the table was built for.
        start: The card the table starts from (the empty card for a full table).

    Examples:
        >>> from yahtzee_rules import Category, Rules, Scorecard
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.ACES} | {Category.CHANCE: 5})
        >>> table = build_table(rules=Rules(), start=card)  # only Aces open: instant
        >>> round(table.value(card), 4)  # 5 x (1 - (5/6) ** 3) 1s on average
        2.1065
        >>> table.covers(card), table.covers(Scorecard())
        (True, False)
        >>> from yahtzee_rules import YACHT, YachtBox
        >>> yacht = Scorecard({b: 0 for b in YACHT if b is not YachtBox.FOUR_OF_A_KIND} | {YachtBox.CHOICE: 5})
        >>> table = build_table(rules=Rules.from_name("yacht"), start=yacht)
        >>> round(table.value(yacht), 4)  # four of a face: 4 x the face, at best 24
        4.5724
    """

    __slots__ = (
        "_decisions",
        "_digest",
        "_layout",
        "_model",
        "_origin",
        "_reading",
        "_start_mask",
        "_states",
        "_turns",
        "_values",
        "rules",
        "start",
    )

    def __init__(
        self, values: NDArray[np.float64], *, rules: Rules, start: Scorecard | None = None
    ) -> None:
        self.rules = check_solvable(check_rules(rules))
        self.start = empty_card(rules.card) if start is None else check_design(start, rules)
        self._start_mask = mask_of(self.start)
        self._layout = layout = layout_of(rules)
        # for _state: the upper boxes, the five-of-a-kind box when its flag is kept (else
        # -1) and the top capped subtotal, as plain ints
        self._reading = (
            tuple(int(c) for c in layout.card.upper),
            layout.card.yahtzee if layout.flags == 2 else -1,
            layout.levels - 1,
        )
        expected = self._layout.states_count
        if (
            not isinstance(values, np.ndarray)
            or values.shape != (expected,)
            or values.dtype != np.float64
        ):
            found = getattr(values, "shape", type(values).__name__)
            raise MalformedInputError(
                f"table values of shape {found}: a table for {rules!r} holds "
                f"{expected} float64 values, one per state"
            )
        values = np.array(values, dtype=np.float64)  # a private, read-only copy
        values.setflags(write=False)
        self._values = values
        # the cache file the values were read from or written to, its key and what
        # os.stat said of it then, and the digest of the values (worked out when first
        # pickled): see __reduce__
        self._origin: tuple[str, str, tuple[int, ...]] | None = None
        self._digest: str | None = None
        self._turns: dict[tuple[int | None, ...], TurnTables] = {}  # by card boxes
        self._states: WeakValueDictionary[int, TurnTables] = WeakValueDictionary()
        self._model: Model | None = None  # the rules' model, on first use
        # the decision table (see _decisions): None until looked for, False when none
        self._decisions: Decided | Literal[False] | None = None

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle (for an executor) a table from the cache as a reference to its file,
        any other by value (values, rules and start); never the per-turn caches.

        A reference is the file's path and key and a digest of the values: a process
        that unpickles it maps the file's values (:func:`_mapped`), once per process.
        A table whose file is no longer the one it came from (removed, or replaced by
        another) pickles by value.
        """
        origin = self._origin
        if origin is None or _signature(Path(origin[0])) != origin[2]:
            return (_unpickle, (self._values, self.rules, self.start))
        if self._digest is None:
            self._digest = values_digest(self._values)
        return (_mapped, (origin[0], origin[1], self._digest, self.rules, self.start))

    def __repr__(self) -> str:
        if self._start_mask:
            return f"<Table rules={self.rules!r} start={self.start!r}>"
        return f"<Table rules={self.rules!r} expected={self.value(self.start):.7f}>"

    @property
    def values(self) -> NDArray[np.float64]:
        """The raw values, a read-only array indexed by ``(mask * levels + upper) * flags + flag``.

        ``mask`` has bit ``c`` set for each filled box ``c`` (card order); ``upper``
        is the upper subtotal capped at ``levels - 1``, where ``levels`` is
        ``min(threshold, most upper points) + 1`` (105 points on the shipped cards),
        or 1 when the rules have no upper bonus; ``flag`` is 1 when the card's
        five-of-a-kind box holds 50, and ``flags`` is 2, or 1 (the flag always 0)
        when the rules have no extra-Yahtzee bonus. States the table does not cover
        hold 0.

        Examples:
            >>> from yahtzee_rules import Category, Rules, Scorecard
            >>> table = build_table(start=Scorecard({c: 0 for c in Category} | {Category.CHANCE: 5}))
            >>> table.values.shape, float(table.values.max())  # 8192 * 64 * 2
            ((1048576,), 0.0)
            >>> build_table(rules=Rules.from_name("yacht")).values.shape  # 4096 * 1 * 1
            (4096,)
        """
        return self._values

    def covers(self, card: Scorecard) -> bool:
        """Whether the table has values for ``card``: it extends the table's start card.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> build_table(start=Scorecard({c: 0 for c in Category} | {Category.CHANCE: 5})).covers(Scorecard())
            False
        """
        card = check_design(card, self.rules)
        return mask_of(card) & self._start_mask == self._start_mask

    def serves(self, rules: Rules) -> bool:
        """Whether the table holds the values for ``rules``: its own rules, or rules that
        differ from them only in the tie rule (which says who wins, and no value depends on).

        Examples:
            >>> from yahtzee_rules import Rules
            >>> table = build_table(rules=Rules.from_name("yacht"))
            >>> table.serves(Rules.parse("yacht,tie=upper-total")), table.serves(Rules())
            (True, False)
        """
        return isinstance(rules, Rules) and same_values(self.rules, rules)

    def _index(self, card: Scorecard) -> int:
        return self._state(card)[1]

    def _state(self, card: Scorecard) -> tuple[tuple[int, int, int], int]:
        """The state of a covered ``card`` (mask, capped upper, flag) and its flat index.

        ``_state_of``'s state, from plain ints (a test compares the two): this runs for
        every card a table meets.
        """
        boxes = check_design(card, self.rules).boxes
        upper, yahtzee, top = self._reading
        mask = 0
        for c, points in enumerate(boxes):
            if points is not None:
                mask |= 1 << c
        subtotal = 0
        for c in upper:
            subtotal += boxes[c] or 0
        flag = 1 if yahtzee >= 0 and boxes[yahtzee] == 50 else 0
        state = (mask, min(subtotal, top), flag)
        if mask & self._start_mask != self._start_mask:
            raise MalformedInputError(
                f"card {card!r}: this table starts from {self.start!r} and covers only "
                f"cards with those boxes filled; build a table from this card or an earlier one"
            )
        index: int = flat_index(self._layout, *state)
        return state, index

    def value(self, card: Scorecard) -> float:
        """The expected points still to come, with optimal play, from the start of a turn.

        Bonuses still to be earned (upper bonus, extra-Yahtzee bonuses) are included;
        points already on ``card`` are not. A complete card has 0 to come.

        Raises:
            MalformedInputError: If ``card`` is not a Scorecard of the rules' card, or
                not covered.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
            >>> round(build_table(start=card).value(card), 4)  # 50 x P(Yahtzee in a turn)
            2.3014
        """
        return float(self._values[self._index(card)])

    def expected_final(self, card: Scorecard) -> float:
        """The expected final grand total: the card's total so far plus :meth:`value`.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> card = Scorecard({**card.to_mapping(), Category.SIXES: 30})
            >>> round(build_table(start=card).expected_final(card), 4)  # 30 + Chance
            53.3333
        """
        from yahtzee_rules.play.totals import totals

        return totals(check_card(card), rules=self.rules).grand_total + self.value(card)

    def _turn_tables(self, card: Scorecard) -> TurnTables:
        """The per-turn tables of ``card``'s state, from the cache or computed and cached.

        The cache keeps the tables of at most ``TURN_CACHE`` cards, the oldest dropped
        first; cards in the same state share one (found through a weak mapping, which
        holds none alive).
        """
        found = self._turns.get(card.boxes)
        if found is None:
            found = self._tables_at(*self._state(card))
            turns = self._turns
            if len(turns) >= TURN_CACHE:
                del turns[next(iter(turns))]
            turns[card.boxes] = found
        return found

    def _tables_at(self, state: tuple[int, int, int], index: int) -> TurnTables:
        """The per-turn tables of a covered state (mask, capped upper, flag) at flat
        ``index``: found in the weak mapping, or computed (and put there)."""
        found = self._states.get(index)
        if found is None:
            model = self._model
            if model is None:
                model = self._model = model_of(self.rules)
            found = TurnTables(model, self._values, *state, index)
            self._states[index] = found
        return found


def _unpickle(values: NDArray[np.float64], rules: Rules, start: Scorecard) -> Table:
    """A table from what :meth:`Table.__reduce__` pickled."""
    return Table(values, rules=rules, start=start)


def _signature(path: Path) -> tuple[int, ...]:
    """What tells the file at ``path`` from another put there since: its device, inode,
    size and time of last change (empty when it cannot be read)."""
    try:
        info = path.stat()
    except OSError:
        return ()
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def values_digest(values: NDArray[np.float64]) -> str:
    """The digest that identifies a table's values: SHA-256 of their bytes, in hex."""
    return hashlib.sha256(np.ascontiguousarray(values).data).hexdigest()


#: Tables this process unpickled from references to cache files, by (path, key,
#: digest), the most recently used last; at most ``MAPPED_TABLES`` of them are kept, so
#: a worker's chunks share one table (mapped once, its per-turn caches warm).
_OPENED: OrderedDict[tuple[str, str, str], Table] = OrderedDict()
_OPENED_LOCK = threading.Lock()
MAPPED_TABLES = 4


class TableFileError(MalformedInputError):
    """A table pickled as a reference to its cache file, unpickled where no file holds
    its values.

    A table that came from the cache pickles (for an executor's workers) as the file's
    path, key and a digest of the values; the process that unpickles it maps the
    file. When the file is missing there and in this process's :func:`cache_dir`, or
    holds other values (it changed, or was rebuilt), unpickling raises this error
    naming the file, never using other values.

    Examples:
        >>> import os, pickle, tempfile
        >>> from yahtzee_rules import Category, Scorecard
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = tempfile.mkdtemp()
        >>> card = Scorecard({c: 0 for c in Category.upper()})
        >>> data = pickle.dumps(load_table(start=card))  # built, written: a reference
        >>> cache_path(start=card).unlink()
        >>> pickle.loads(data)
        Traceback (most recent call last):
        ...
        yahtzee_rules.bots.solver._table.TableFileError: table file ...: no file holding the values this table was pickled with ...
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """


def _mapped(path: str, key: str, digest: str, rules: Rules, start: Scorecard) -> Table:
    """The table a reference pickled by :meth:`Table.__reduce__` names, from its file.

    The values are mapped from the file read-only (the processes that map one file share
    its pages), or read once when the file's layout does not allow mapping, and kept for
    the process's later chunks. The file is looked for where the reference says, then
    under the same name in this process's :func:`cache_dir` (a worker on another
    machine, told where its cache is by ``YAHTZEE_RULES_CACHE_DIR``). It must hold the
    same key and values of the same digest: a file that changed is never used.

    Raises:
        TableFileError: When no file there holds those values (missing, rebuilt,
            changed or damaged).
    """
    found_key = (path, key, digest)
    with _OPENED_LOCK:
        table = _OPENED.get(found_key)
        if table is not None:
            _OPENED.move_to_end(found_key)
            return table
    places = [Path(path)]
    own = cache_dir() / Path(path).name
    if own != places[0]:
        places.append(own)
    for place in places:
        table = _open_mapped(place, key, digest, rules, start)
        if table is not None:
            break
    else:
        tried = " nor ".join(str(place) for place in places)
        raise TableFileError(
            f"table file {tried}: no file holding the values this table was pickled with "
            f"(key and digest {digest}); it is missing, was rebuilt or changed. Make the "
            f"workers' cache hold the same file (YAHTZEE_RULES_CACHE_DIR says where), or "
            f"pass a table that pickles by value: Table(table.values, rules=table.rules, "
            f"start=table.start)"
        )
    with _OPENED_LOCK:
        table = _OPENED.setdefault(found_key, table)
        while len(_OPENED) > MAPPED_TABLES:
            _OPENED.popitem(last=False)
    return table


def _checked_table(
    values: NDArray[np.float64], joker: NDArray[np.int16], rules: Rules, start: Scorecard | None
) -> Table | None:
    """The table of ``values`` read from a file with its Joker points ``joker``, or ``None``
    if the points or the values do not check out (the file is then built again)."""
    if known_model(rules) is None:
        if not check_joker(rules, joker):
            return None
        model_of(rules, joker)
    try:
        return Table(values, rules=rules, start=start)
    except MalformedInputError:
        return None


def _open_mapped(path: Path, key: str, digest: str, rules: Rules, start: Scorecard) -> Table | None:
    """The table in ``path`` if it holds ``key`` and values of ``digest``, else None."""
    found = map_arrays(path, key, _sizes(rules), ("values",))
    if found is None:
        return None
    values, joker = found["values"], found["joker"]
    if values.dtype != np.float64 or values_digest(values) != digest:
        return None
    table = _checked_table(values, joker, rules, start)
    if table is None:
        return None
    if not values.flags.writeable:  # mapped read-only: the table's values, not a copy
        table._values = values
    table._origin, table._digest = (str(path), key, _signature(path)), digest
    return table


#: Cards whose per-turn tables a Table keeps, the oldest dropped first; cards in one state
#: share its tables. A state's tables take about 17 KiB (measured with tracemalloc by
#: benchmarks/bench_versus.py; a test holds them under 20 KiB), so a table's per-turn
#: cache stays under 20 MiB.
TURN_CACHE = 1024


def build_table(
    *,
    rules: Rules | None = None,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> Table:
    """Compute the optimal strategy's table for ``rules`` (a few seconds; no cache).

    Prefer :func:`load_table`, which caches full tables.

    Args:
        rules: The rule set: any card the library has, Joker rule, bonus values and
            threshold. Left out, the usual rules of ``start``'s card (Hasbro's Classic
            game without a ``start``).
        start: Compute only the states that extend this card, a card of the rules'
            design (default: every state, from the rules' empty card).
        progress: Called as ``progress(done, total)`` with the number of states solved
            so far, from ``(0, total)`` to ``(total, total)``.
        workers: Processes that share a large build (default: up to 2, one per CPU):
            this one and ``workers - 1`` helper processes, started for a build of
            over about 500,000 states (a full table) on a POSIX system. Smaller builds,
            and builds elsewhere, run in this process alone. The values are the same
            for any number of workers.

    Raises:
        MalformedInputError: For a ``rules`` that is not a Rules or ``start`` not a Scorecard
            of the rules' card.

    Examples:
        >>> from yahtzee_rules import Category, Rules, Scorecard
        >>> card = Scorecard({c: 0 for c in Category.lower()} | {Category.CHANCE: 5})
        >>> seen = []
        >>> table = build_table(rules=Rules(), start=card, progress=lambda *p: seen.append(p))
        >>> seen[0], seen[-1]
        ((0, 5588), (5588, 5588))
        >>> round(table.value(card), 4)  # the upper boxes alone, bonus included
        71.9515
        >>> yacht = build_table(rules=Rules.from_name("yacht"))  # 4,096 states: quick
        >>> yacht.start, round(yacht.value(yacht.start), 7)
        (Scorecard(card=YACHT), 166.9550677)
    """
    rules = check_solvable(rules_or_usual(rules, start))
    start_card = empty_card(rules.card) if start is None else check_design(start, rules)
    workers = check_workers(workers)
    values = build_values(rules, progress, workers=workers, start=mask_of(start_card))
    return Table(values, rules=rules, start=start_card)


def _read(path: Path, rules: Rules, start: Scorecard) -> Table | None:
    """The table in ``path`` if it is complete, intact and for these rules and version.

    The file also holds the rules' Joker points (``_model.joker_points``), which make the
    rules' model without working them out again: checked (``_model.check_joker``) and
    used when this process has no model yet.
    """
    key = table_key(rules, mask_of(start))
    found = read_arrays(path, key, _sizes(rules))
    if found is None:
        return None
    values, joker = found["values"], found["joker"]  # zip CRCs are checked on reading
    if values.dtype != np.float64 or not np.isfinite(values).all():
        return None
    table = _checked_table(values, joker, rules, start)
    if table is None:
        return None
    table._origin = (str(path), key, _signature(path))
    return table


def _sizes(rules: Rules) -> dict[str, int]:
    """The most bytes of each array of a table file for ``rules``: float64 values, int16
    Joker points."""
    layout = layout_of(rules)
    n = layout.card.n
    return {"values": 8 * layout.states_count, "joker": 2 * 6 * n << n}


def _write(path: Path, table: Table) -> None:
    """Write the table's values and its rules' Joker points under its key (see
    :func:`write_npz`); once written, the table pickles as a reference to the file."""
    key = table_key(table.rules, mask_of(table.start))
    joker = model_of(table.rules).joker
    if write_npz(path, ".optimal-", key=np.array(key), values=table.values, joker=joker):
        table._origin = (str(path), key, _signature(path))


def cache_path(*, rules: Rules | None = None, start: Scorecard | None = None) -> Path:
    """The file :func:`load_table` uses for ``rules`` (it may not exist yet).

    The name holds a digest of the rules (all but the tie rule, which no value
    depends on: rules that differ only in it share one file), the library version (and a digest of the
    source files the values depend on: the solver's modules and every module of
    the library they import), the table format and the start card's filled boxes,
    so tables for other versions never collide. It starts with the Joker rule for
    the Classic card, and with the ruleset's name for other cards.

    Raises:
        MalformedInputError: For a ``start`` card of another design than the rules'.

    Examples:
        >>> from yahtzee_rules import Rules
        >>> cache_path().name.startswith("optimal-forced-"), cache_path().suffix
        (True, '.npz')
        >>> cache_path(rules=Rules.from_name("yacht")).name.startswith("optimal-yacht-")
        True
    """
    rules = check_solvable(rules_or_usual(rules, start))
    mask = 0 if start is None else mask_of(check_design(start, rules))
    return table_path(table_key(rules, mask), rules)


def cached_table(*, rules: Rules | None = None, start: Scorecard | None = None) -> Table | None:
    """The table for ``rules`` if it is in the cache, else ``None``: never a build.

    What :func:`load_table` would read without building: ``None`` for a table not
    cached, and for a cache file that cannot be read or is not a good table (a
    directory that may not be searched, a FIFO or damaged file in its place...).

    Examples:
        >>> import os, tempfile
        >>> from yahtzee_rules import Category, Scorecard
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = tempfile.mkdtemp()
        >>> card = Scorecard({c: 0 for c in Category.upper()})
        >>> print(cached_table(start=card))
        None
        >>> table = load_table(start=card)  # built and saved
        >>> cached_table(start=card).value(card) == table.value(card)
        True
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """
    rules = check_solvable(rules_or_usual(rules, start))
    start_card = empty_card(rules.card) if start is None else check_design(start, rules)
    return _read(cache_path(rules=rules, start=start_card), rules, start_card)


def load_table(
    *,
    rules: Rules | None = None,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    cache: bool = True,
) -> Table:
    """The table for ``rules`` from the cache, building and caching it when needed.

    The cache file (see :func:`cache_path`) is keyed by the rules (but the tie
    rule), the library version and the table format, and checked when read: a file
    for other rules or another version, one that is truncated or damaged, larger
    than a table (nothing is decompressed past a table's size), or not a regular file
    (a FIFO, a device), is never used, nor is a cache that cannot be read. The table
    is then rebuilt and the file replaced, written atomically so that a crash never
    leaves half a file behind; temporary files a killed writer left are removed by a
    later write (see :func:`cache_dir`).

    Args:
        rules: The rule set; left out, the usual rules of ``start``'s card (Hasbro's
            Classic game without a ``start``).
        start: As for :func:`build_table`.
        progress: Passed to :func:`build_table` when a build is needed.
        cache: ``False`` builds without reading or writing the cache.

    Examples:
        >>> import os, tempfile
        >>> from yahtzee_rules import Category, Scorecard
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = tempfile.mkdtemp()
        >>> card = Scorecard({c: 0 for c in Category.upper()})
        >>> table = load_table(start=card)  # built and saved
        >>> cache_path(start=card).exists()
        True
        >>> load_table(start=card).value(card) == table.value(card)  # read back
        True
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """
    rules = check_solvable(rules_or_usual(rules, start))
    start_card = empty_card(rules.card) if start is None else check_design(start, rules)
    if not cache:
        return build_table(rules=rules, start=start_card, progress=progress)
    path = cache_path(rules=rules, start=start_card)
    found = _read(path, rules, start_card)
    if found is not None:
        return found
    announce("optimal", path, 8 * layout_of(rules).states_count)  # one float64 per state
    table = build_table(rules=rules, start=start_card, progress=progress)
    _write(path, table)
    return table
