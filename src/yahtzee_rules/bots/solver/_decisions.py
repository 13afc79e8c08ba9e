"""The decision table: the optimal action for every roll of every turn-start state, precomputed.

A table's values fix the optimal play; the per-turn tables (``_turns``) work a
state's actions out when a card is first seen. The decision table does that for
every state the table covers, at once, with the build's kernels: for each state and each roll one byte per roll stage, the rolls
in ``Dice._index`` order (as the per-turn tables' actions; the kernels work in the
internal order, and each chunk is put in this order once, so that a lookup needs
no conversion). A byte below ``BOX`` (32) is a keep: its position among the
roll's distinct sub-keeps (``TurnGeometry.subkeeps``: fewest dice first, then by
faces); ``BOX + b`` is box ``b`` (card order), with no rerolls left and wherever
stopping is best (holding all five dice is the first best keep): the per-turn
tables' actions, where stopping is the box too (see :mod:`._codes`). The choices
are exactly the per-turn tables' (a test compares them roll by roll): the same
values bit for bit, and the choice kernel's keeps and boxes (:mod:`._choice`).

The decision lookup lives here too: :func:`best_action` and :func:`best_box` read
a table's decisions when they are loaded or cached, else its per-turn tables.

Classic's table covers 359,612 states to solve (the others copy one of them), so
the decisions take 3 x 252 bytes each, about 272 MB. They are cached on disk next
to the table as an uncompressed ``.npy`` file opened with ``mmap_mode="r"``: the
process reads only the pages of the states it meets.

Private to the package; :func:`load_decisions` and :class:`DecisionTable` are public.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules.bots.solver._choice import first_box_update, keeps_of_rolls
from yahtzee_rules.bots.solver._codes import BOX, STAGES, Decided
from yahtzee_rules.bots.solver._entries import TurnModel, entry_steps, turn_model_of
from yahtzee_rules.bots.solver._geometry import NEG, dice_geometry
from yahtzee_rules.bots.solver._kernels import (
    average_keeps,
    best_over_subkeeps,
    final_values,
    workspace_for,
)
from yahtzee_rules.bots.solver._model import Model, flat_index, mask_of, model_of, same_values
from yahtzee_rules.bots.solver._storage import (
    cache_dir,
    decisions_key,
    decisions_paths,
    file_label,
    read_arrays,
    write_atomic,
    write_npz,
)
from yahtzee_rules.bots.solver._table import Table
from yahtzee_rules.bots.solver._turns import (
    turn_geometry,
)
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import ALL_KEEPS
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._notices import announce
from yahtzee_rules.support.errors import IllegalActionError, MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from yahtzee_rules.core.dice import Keep

_CHUNK = 1024  # states decided together


# --------------------------------------------------------------------------------------
# Building: the per-turn tables' choices, for many states at once.
# --------------------------------------------------------------------------------------


class _Positions:
    """Per process: for each roll, the position of each of its sub-keeps (by keep index)
    among its distinct sub-keeps, the code a decision stores."""

    def __init__(self) -> None:
        t = turn_geometry()
        self.five = t.five
        position = np.zeros((252, 462), dtype=np.uint8)  # others unused
        for p, row in enumerate(t.subkeeps):
            position[p, row] = np.arange(len(row))
        self.flat = position.ravel()
        self.roll_offsets = (np.arange(252) * 462)[:, None]


_POSITIONS: _Positions | None = None
_LOCK = threading.Lock()


def _positions() -> _Positions:
    global _POSITIONS
    with _LOCK:
        if _POSITIONS is None:
            _POSITIONS = _Positions()
        return _POSITIONS


def _boxes(
    model: Model,
    tm: TurnModel,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    out: NDArray[np.uint8],
) -> None:
    """Into ``out`` ``(states, 252)``: the box the per-turn tables fill with each roll.

    The arithmetic of ``_turns._entry_values`` and ``_TurnTables._fives``, a column
    per state; the first best box in card order, found box by box (boxes no state
    here may fill are skipped: they are never the best).
    """
    size = len(m)
    index, bonus = entry_steps(model, tm, m[:, None], u[:, None], y[:, None])
    worth: NDArray[np.float64] = values[index]  # (states, entries)
    worth += bonus
    worth += tm.points
    worth[(model.open_bits(m)[:, None] & tm.bits) == 0] = NEG
    worth[:, -1] = NEG
    by_entry = np.ascontiguousarray(worth.T)  # (entries, states)
    columns = np.arange(size)
    fives = tm.fives[:, :, m]  # (6, boxes, states)
    due = model.bonus_due[:, y] if tm.any_bonus_due else None
    refused = tm.entries - 1
    open_anywhere = int(np.bitwise_or.reduce(model.open_bits(m)))
    choice = np.zeros((252, size), dtype=np.uint8)
    best: NDArray[np.float64] | None = None
    for box in range(model.card.n):
        if not open_anywhere >> box & 1 and (fives[:, box, :] == refused).all():
            continue  # -inf for every roll and state here
        value = by_entry[tm.codes[:, box]]  # (252, states)
        five = by_entry[fives[:, box, :], columns]  # (6, states)
        if due is not None:
            five += due
        value[:6] = five
        if best is None:
            best = value
            choice.fill(box)
            continue
        first_box_update(best, choice, value, box)
    choice += BOX
    out[:] = choice.T


def _keeps(
    keep_values: NDArray[np.float64],
    best: NDArray[np.float64],
    boxes: NDArray[np.uint8],
    out: NDArray[np.uint8],
) -> None:
    """Into ``out`` ``(states, 252)``: each roll's choice, as ``TurnTables.action`` makes it.

    ``keep_values`` is ``(462, states)`` with the rerolls left and ``best`` each keep's
    best sub-keep value (``best_over_subkeeps``): the choice kernel's
    :func:`~._choice.keeps_of_rolls` picks the keep. Holding all five dice means stop:
    the code of the box, from ``boxes`` ``(states, 252)``.
    """
    positions = _POSITIONS or _positions()
    held = keeps_of_rolls(keep_values, best)  # (252, states): keep indices
    choice = positions.flat[held + positions.roll_offsets]
    np.copyto(choice, boxes.T, where=held >= positions.five)
    out[:] = choice.T


def _decide(
    model: Model,
    tm: TurnModel,
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
    out: NDArray[np.uint8],
) -> None:
    """Fill ``out`` ``(states, 3, 252)`` with the decisions of the states ``(m, u, y)``."""
    g = dice_geometry()
    size = len(m)
    space = workspace_for(size)
    last = space.keeps(0, size)  # keep values with one reroll left (the build's)
    final_values(model, values, m, u, y, out=last[g.five :])
    average_keeps(last, space)
    first = space.keeps(1, size)  # then with two left
    np.copyto(first, last)
    best_over_subkeeps(first, space)  # each keep's best sub-keep, with one left
    boxes = out[:, 0, :]
    _boxes(model, tm, values, m, u, y, boxes)
    _keeps(last, first, boxes, out[:, 1, :])
    average_keeps(first, space)
    best = np.copy(first)
    best_over_subkeeps(best, space)
    _keeps(first, best, boxes, out[:, 2, :])


def _file_bytes(table: Table) -> int:
    """About how many bytes the decision files of ``table`` take: a code per state,
    rerolls left and roll, and a row index per state."""
    model = model_of(table.rules)
    start = mask_of(table.start)
    rows = sum(
        len(model.states(level, start).masks) for level in range(start.bit_count(), model.card.n)
    )
    return rows * 3 * 252 + 4 * model.states_count


def build_decisions(table: Table, threads: int = 2) -> tuple[NDArray[np.int32], NDArray[np.uint8]]:
    """The decisions of every state ``table`` covers: ``(rows, codes)``.

    ``rows`` gives each flat state index its row of ``codes`` (-1 for states not
    covered; states whose futures are equal share a row); ``codes`` is
    ``(rows, 3, 252)``: by rerolls left, then roll (``Dice._index``).
    """
    model = model_of(table.rules)
    tm = turn_model_of(model)
    values = table.values
    start = mask_of(table.start)
    solved: list[NDArray[np.intp]] = []
    copies: list[tuple[NDArray[np.intp], NDArray[np.intp]]] = []
    for level in range(start.bit_count(), model.card.n):
        states = model.states(level, start)
        solved.append(flat_index(model, states.masks, states.uppers, states.flags))
        copies.append((states.sources, states.targets))
    flat = np.sort(np.concatenate(solved))
    rows = np.full(model.states_count, -1, dtype=np.int32)
    rows[flat] = np.arange(len(flat), dtype=np.int32)
    for sources, targets in copies:
        rows[targets] = rows[sources]
    codes = np.empty((len(flat), 3, 252), dtype=np.uint8)
    if model.flags == 2:
        y, rest = flat % 2, flat // 2
    else:
        y, rest = np.zeros_like(flat), flat
    m, u = np.divmod(rest, model.levels)

    by_index = turn_geometry().dice_pos  # Dice._index -> internal roll

    def work(lo: int) -> None:
        hi = lo + _CHUNK
        internal = np.empty((len(m[lo:hi]), 3, 252), dtype=np.uint8)
        _decide(model, tm, values, m[lo:hi], u[lo:hi], y[lo:hi], internal)
        np.take(internal, by_index, axis=2, out=codes[lo:hi])

    starts = range(0, len(flat), _CHUNK)
    if threads > 1 and len(flat) > _CHUNK:
        from concurrent.futures import ThreadPoolExecutor  # here: a third of this module's import

        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(work, starts))
    else:
        for lo in starts:
            work(lo)
    return rows, codes


# --------------------------------------------------------------------------------------
# Reading: an action in a few list and memoryview lookups.
# --------------------------------------------------------------------------------------


class DecisionTable:
    """The optimal action for every roll of every turn a :class:`Table` covers, precomputed.

    Get one with :func:`load_decisions`, which also gives it to its table: from
    then on :func:`best_action`, :func:`best_box`,
    :class:`~yahtzee_rules.OptimalStrategy` and :func:`~yahtzee_rules.simulate` look
    actions up in it, on any card, instead of working out each new card's turn
    first. The actions are exactly those of :func:`best_action` without it, ties
    included.

    It holds three bytes per roll and turn-start state (no rerolls left: the box;
    one or two left: the keep, or the box when stopping is best): 3 x 252 x 359,612 bytes, about 272 MB, for
    Hasbro's Classic card. A cached one is a file mapped into memory: a process
    reads only the pages of the states it meets.

    Attributes:
        table: The table whose play this is.

    Examples:
        >>> from yahtzee_rules import Category, Rules, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import best_action, build_table
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.YAHTZEE)} | {Category.CHANCE: 5})
        >>> table = build_table(start=card)
        >>> decisions = load_decisions(table, cache=False)
        >>> decisions.states  # turn-start states to decide (others share their rows)
        98
        >>> decisions.best_action(Turn(card).roll(outcome="66612"))
        Keep('666')
        >>> best_action(Turn(card).roll(outcome="66666"), table)  # looked up now
        <Category.YAHTZEE: 11>
    """

    __slots__ = ("_decided", "table")

    def __init__(self, table: Table, decided: Decided) -> None:
        self.table = table
        self._decided = decided

    def __repr__(self) -> str:
        return f"<DecisionTable of {self.table!r}: {self.states} states>"

    @property
    def path(self) -> Path | None:
        """The file the decisions were read from or saved to, or ``None`` (not cached).

        Examples:
            >>> from yahtzee_rules import Rules
            >>> from yahtzee_rules.bots.solver import build_table
            >>> print(load_decisions(build_table(rules=Rules.from_name("yacht")), cache=False).path)
            None
        """
        return self._decided.path

    @property
    def states(self) -> int:
        """How many turn-start states have their own decisions (states whose futures are
        equal share one).

        Examples:
            >>> from yahtzee_rules import Rules
            >>> from yahtzee_rules.bots.solver import build_table
            >>> load_decisions(build_table(rules=Rules.from_name("yacht")), cache=False).states
            4095
        """
        return int(self._decided.array.shape[0])

    @property
    def nbytes(self) -> int:
        """The size of the decisions in bytes: 3 x 252 per state.

        Examples:
            >>> from yahtzee_rules import Rules
            >>> from yahtzee_rules.bots.solver import build_table
            >>> load_decisions(build_table(rules=Rules.from_name("yacht")), cache=False).nbytes
            3095820
        """
        return int(self._decided.array.nbytes)

    def best_action(self, turn: Turn) -> Keep | Box:
        """The optimal action in ``turn``: ``best_action(turn, self.table)``.

        Raises:
            MalformedInputError: For a turn of other rules, or a card the table does
                not cover.

        Examples:
            >>> from yahtzee_rules import Rules, Turn
            >>> from yahtzee_rules.bots.solver import build_table
            >>> yacht = Rules.from_name("yacht")
            >>> decisions = load_decisions(build_table(rules=yacht), cache=False)
            >>> decisions.best_action(Turn(decisions.table.start, rules=yacht).roll(outcome="55553"))
            Keep('5555')
        """
        return best_action(turn, self.table)


# --------------------------------------------------------------------------------------
# The cache: a .npy of decisions to map into memory, and a small .npz with the key.
# --------------------------------------------------------------------------------------


def _key(table: Table) -> str:
    return decisions_key(table.rules, mask_of(table.start), table.values)


def _paths(key: str, table: Table) -> tuple[Path, Path]:
    return decisions_paths(key, table.rules)


#: Decision files kept in the cache directory: older ones (other versions, sources or
#: tables) are removed when a new one is written, so the directory stays bounded.
KEEP_FILES = 4


def _prune(directory: Path, keep: int = KEEP_FILES) -> None:
    """Remove all but the ``keep`` newest decision files (and their keys) in ``directory``."""
    try:
        found = sorted(
            directory.glob("decisions-*.npy"), key=lambda p: p.stat().st_mtime, reverse=True
        )
        for old in found[keep:]:
            old.unlink(missing_ok=True)
            old.with_suffix(".npz").unlink(missing_ok=True)
    except OSError:
        return  # another process pruned first, or the directory is read-only


def _write_npy(path: Path, array: NDArray[np.uint8]) -> bool:
    """Write ``array`` to ``path`` atomically; whether it was written."""
    return write_atomic(path, ".decisions-", lambda stream: np.save(stream, array))


def _read(table: Table, key: str) -> Decided | None:
    """The cached decisions of ``table``, mapped into memory, if intact and for its values."""
    codes_path, key_path = _paths(key, table)
    states = table._layout.states_count
    sizes = {"rows": 4 * states, "size": 8}
    most = states * STAGES + 4096  # a row of codes per state at most, and a header
    found = read_arrays(key_path, key, sizes, mapped=codes_path, mapped_size=most)
    if found is None:
        return None
    rows, codes = found["rows"], found["mapped"]
    if rows.dtype != np.int32 or rows.shape != (states,) or int(rows.min()) < -1:
        return None
    expected = (int(rows.max()) + 1, 3, 252)
    if codes.dtype != np.uint8 or codes.shape != expected:
        return None
    return Decided(table.rules, rows, codes, codes_path)


def discard(table: Table) -> None:
    """Stop using ``table``'s decisions, found damaged (a code naming no action): it plays
    from its per-turn tables from now on, and their cache files are removed, so that
    the next :func:`load_decisions` builds them again."""
    found = table._decisions
    table._decisions = False
    if found and found.path is not None:
        for path in (found.path, found.path.with_suffix(".npz")):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)


def cached(table: Table) -> Decided | None:
    """The table's decisions if loaded or cached on disk (looked for once per table)."""
    found = table._decisions
    if found is None:
        found = table._decisions = (_any_saved(table) and _read(table, _key(table))) or False
    return found or None


def _any_saved(table: Table) -> bool:
    """Whether the cache directory holds decisions of the table's rules at all (a
    listing: cheaper than the key, a digest of the table's values)."""
    try:
        return any(cache_dir().glob(f"decisions-{file_label(table.rules)}-*.npy"))
    except OSError:
        return False


def load_decisions(
    table: Table, *, cache: bool = True, threads: int | None = None
) -> DecisionTable:
    """The decision table of ``table``, from the cache, else built (and cached).

    The table remembers it: :func:`best_action`, :func:`best_box`,
    :class:`~yahtzee_rules.OptimalStrategy` and :func:`~yahtzee_rules.simulate` with
    that table then look actions up instead of working them out. Without a call
    here they use a cached decision table when one exists for the table, and
    otherwise work out each new card's turn as it comes (with the compiled kernel,
    in tens of microseconds); where the kernel is not built,
    :func:`~yahtzee_rules.simulate` also loads or builds one itself for runs of 1,000
    games or more.

    Building runs the build's kernels over every state the table covers (for
    Hasbro's card, several times the table's own build; its decisions take 3 bytes
    per state and roll, about 272 MB). The result is cached in
    :func:`cache_dir`, keyed by the rules, the library version and source, the start
    card and the table's values, and written atomically; a file for other values,
    rules or versions, or of the wrong size or shape, is never used, and only the
    ``KEEP_FILES`` (4) newest decision files stay in the directory. The file is
    mapped into memory, so a process reads only the pages of the states it meets.

    Args:
        table: The table whose optimal play to decide.
        cache: ``False`` builds without reading or writing the cache.
        threads: Worker threads for a build (default: up to 2, one per CPU).

    Raises:
        MalformedInputError: For a ``table`` that is not a Table, or ``threads`` not a
            positive int.

    Examples:
        >>> import os, tempfile
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import best_box, build_table
        >>> os.environ["YAHTZEE_RULES_CACHE_DIR"] = tempfile.mkdtemp()
        >>> card = Scorecard({c: 0 for c in Category.lower()} | {Category.CHANCE: 5})
        >>> decisions = load_decisions(build_table(start=card))  # built and saved
        >>> decisions.path.suffix, decisions.path.exists()
        ('.npy', True)
        >>> again = load_decisions(build_table(start=card))  # read back, mapped
        >>> best_box(Turn(card).roll(outcome="66612"), again.table)
        <Category.SIXES: 5>
        >>> del os.environ["YAHTZEE_RULES_CACHE_DIR"]
    """
    if not isinstance(table, Table):
        raise MalformedInputError(f"table {table!r}: not a Table; get one with load_table(rules)")
    if threads is None:
        threads = max(1, min(2, os.cpu_count() or 1))
    if type(threads) is not int or threads < 1:
        raise MalformedInputError(f"threads {threads!r}: not a positive int")
    found = table._decisions
    if found:
        return DecisionTable(table, found)
    key = _key(table) if cache else ""
    if cache:
        found = _read(table, key)
    if not found:
        if cache:
            codes_path, key_path = _paths(key, table)
            announce("decisions", codes_path, _file_bytes(table))
        rows, codes = build_decisions(table, threads)
        found = Decided(table.rules, rows, codes)
        if cache:
            try:
                size = codes_path.stat().st_size if _write_npy(codes_path, codes) else None
            except OSError:  # removed at once by another process: read none back
                size = None
            if size is not None:
                write_npz(
                    key_path, ".decisions-", key=np.array(key), rows=rows, size=np.array(size)
                )
                _prune(codes_path.parent, KEEP_FILES)
                found = _read(table, key) or found  # mapped: memory for the pages in use only
    table._decisions = found
    return DecisionTable(table, found)


# --------------------------------------------------------------------------------------
# The decision lookup: the optimal action of a turn, from the decisions or the per-turn tables.
# --------------------------------------------------------------------------------------


def check_pair(turn: object, table: object) -> tuple[Turn, Table]:
    """``turn`` and ``table``, checked to be a Turn and a Table for the same rules (but
    perhaps the tie rule, which no value depends on)."""
    if not isinstance(turn, Turn):
        raise MalformedInputError(f"turn {turn!r}: not a Turn; advice is given on a Turn")
    if not isinstance(table, Table):
        raise MalformedInputError(f"table {table!r}: not a Table; get one with load_table(rules)")
    if turn.rules is not table.rules and not same_values(turn.rules, table.rules):
        raise MalformedInputError(
            f"table for {table.rules!r}: the turn plays {turn.rules!r}; "
            f"use a table built for the turn's rules (the tie rule may differ)"
        )
    return turn, table


def best_action(turn: Turn, table: Table) -> Keep | Box:
    """The optimal action in ``turn``: a keep to hold before rerolling, or the box to fill.

    This is :func:`advise`'s best option without the others, answered from a lookup:
    in the table's :class:`DecisionTable` when :func:`load_decisions` has loaded one
    or one is cached for the table (any card), else in per-turn tables worked out
    the first time a card is seen. Both give the same actions. When holding all five
    dice is best the answer is the box to fill now, which is worth the same. Equal
    values resolve as for every player of the solver: the first best keep (fewest
    dice, then by faces), holding all five dice (filling now) last among them, so on
    an exact tie between a keep and the best fill the keep is held; the first best
    box in card order.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import build_table
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
        >>> table = build_table(start=card)
        >>> best_action(Turn(card).roll(outcome="55523"), table)
        Keep('555')
        >>> best_action(Turn(card).roll(outcome="55555"), table)
        <Category.YAHTZEE: 11>
    """
    if turn.__class__ is not Turn or table.__class__ is not Table:
        turn, table = check_pair(turn, table)
    elif turn.rules is not table.rules and not same_values(turn.rules, table.rules):
        check_pair(turn, table)
    dice = turn.dice
    decisions = table._decisions
    if decisions is None:
        decisions = cached(table)  # a decision table on disk, looked for once
    if decisions:
        boxes = turn.card.boxes
        row = decisions.seen.get(boxes) or decisions.row(boxes, table._index(turn.card))
        if row is not None:
            if dice is None:
                return ALL_KEEPS[0]
            index = dice._index
            return decisions.actions[index][row[(3 - turn.rolls_used) * 252 + index]]  # type: ignore[no-any-return]
        discard(table)  # damaged: play from the per-turn tables
    tables = table._turns.get(turn.card.boxes) or table._turn_tables(turn.card)
    if dice is None:
        return ALL_KEEPS[0]
    rerolls = 3 - turn.rolls_used
    found = tables.actions[rerolls][dice._index]
    return tables.action(rerolls, dice._index) if found is None else found


def best_box(turn: Turn, table: Table) -> Box:
    """The box to fill now that maximises the expected final score (rolls left or not).

    Raises:
        IllegalActionError: Before the first roll.
        MalformedInputError: For a table built for other rules or not covering the card.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import build_table
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.ACES, Category.CHANCE)})
        >>> table = build_table(start=card)
        >>> best_box(Turn(card).roll(outcome="11166"), table)  # 3 now, Chance later
        <Category.ACES: 0>
        >>> best_box(Turn(card).roll(outcome="66655"), table)
        <Category.CHANCE: 12>
    """
    if turn.__class__ is not Turn or table.__class__ is not Table:
        turn, table = check_pair(turn, table)
    elif turn.rules is not table.rules and not same_values(turn.rules, table.rules):
        check_pair(turn, table)
    dice = turn.dice
    if dice is None:
        raise IllegalActionError("best box: no dice yet; roll at least once before filling a box")
    decisions = table._decisions
    if decisions is None:
        decisions = cached(table)
    if decisions:
        boxes = turn.card.boxes
        row = decisions.seen.get(boxes) or decisions.row(boxes, table._index(turn.card))
        if row is not None:
            box = decisions.action(row, 0, dice._index)
            assert isinstance(box, Box)
            return box
        discard(table)  # damaged: play from the per-turn tables
    tables = table._turns.get(turn.card.boxes) or table._turn_tables(turn.card)
    action = tables.actions[0][dice._index] or tables.action(0, dice._index)
    assert isinstance(action, Box)
    return action
