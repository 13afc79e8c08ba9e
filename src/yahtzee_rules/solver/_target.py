"""Play for a target: the policy that maximises the chance of reaching a final total."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from yahtzee_rules._filling import check_card, check_rules
from yahtzee_rules.boxes import Box
from yahtzee_rules.dice import Dice, Keep
from yahtzee_rules.errors import MalformedInputError
from yahtzee_rules.rules import Rules
from yahtzee_rules.scorecard import Scorecard, empty_card
from yahtzee_rules.solver._build import Progress
from yahtzee_rules.solver._cache import (
    TABLE_FORMAT,
    _file_label,
    _source_digest,
    cache_dir,
    write_npz,
)
from yahtzee_rules.solver._geometry import _geometry
from yahtzee_rules.solver._kernels import _best_over_subkeeps, _keep_values, _Workspace
from yahtzee_rules.solver._model import _flat, _mask_of, _Model, _model, _state_of
from yahtzee_rules.solver._table import _check_design
from yahtzee_rules.turn import Turn

if TYPE_CHECKING:
    from numpy.typing import NDArray

_CLASSIC = Rules()
_COLUMNS = 4096  # (state, points needed) pairs solved together


def _outcomes(
    model: _Model, m: NDArray[np.intp], u: NDArray[np.intp], y: NDArray[np.intp]
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.bool_]]:
    """For every state, roll (internal order) and box: next state, points gained, allowed.

    Shapes ``(states, 252, boxes)``. Points include the upper bonus the box completes
    and any extra-Yahtzee bonus.
    """
    card = model.card
    mm, uu, yy = m[:, None, None], u[:, None, None], y[:, None, None]
    closed = (mm & card.bits) != 0
    points = np.where(closed, -1, card.scores[None, :, :]).astype(np.intp)
    points[:, :6, :] = np.moveaxis(model.joker[:, :, m], 2, 0)  # five equal dice
    allowed = points >= 0
    written = np.maximum(points, 0)
    is_upper = card.upper_pos >= 0
    u_new, bonus = model.upper_step(np.broadcast_to(uu, points.shape), written)
    u_after = np.where(is_upper, u_new, uu)
    gained = written + np.where(is_upper, bonus, 0.0)
    due = model.bonus_due[:, y].T  # (states, 6)
    gained[:, :6, :] += due[:, :, None]
    if model.flags == 2:
        y_after = np.where(
            (np.arange(card.n) == card.yahtzee) & (written == 50),
            1,
            np.broadcast_to(yy, points.shape),
        )
    else:
        y_after = np.broadcast_to(yy, points.shape)
    after = _flat(model, mm | card.bits, u_after, y_after)
    return np.asarray(after, dtype=np.intp), np.rint(gained).astype(np.intp), allowed


def _shifted_rows(
    model: _Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """Each distinct (next state, points) row of ``values`` shifted once, and where each fill reads.

    Returns ``table`` of ``(pairs, needs)`` and ``inverse`` of ``(states, 252, boxes)``
    with ``table[inverse]`` the chance of reaching each need after each fill; a box that
    may not be filled reads a row of ``-1``.
    """
    after, gained, allowed = _outcomes(model, m, u, y)
    needs = values.shape[1]
    rows = np.where(allowed, row_of[after], 0)
    span = int(gained.max()) + 1
    key = np.where(allowed, rows.astype(np.int64) * span + gained, -1)
    unique, inverse = np.unique(key, return_inverse=True)
    u_rows, u_gain = np.divmod(np.maximum(unique, 0), span)
    shifted = np.maximum(np.arange(needs)[None, :] - u_gain[:, None], 0)
    table: NDArray[np.float64] = values[u_rows[:, None], shifted]  # (pairs, needs)
    if unique[0] < 0:
        table[0] = -1.0  # the boxes that may not be filled
    return table, inverse.reshape(after.shape)


def _fill_values(
    model: _Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> NDArray[np.float64]:
    """``(states, 252, boxes, needs)``: the chance of reaching each need after each fill.

    ``-1`` where the box may not be filled.
    """
    table, inverse = _shifted_rows(model, row_of, values, m, u, y)
    found: NDArray[np.float64] = table[inverse]
    return found


def _best_fill_values(
    model: _Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> NDArray[np.float64]:
    """``(252, states, needs)``: the chance of reaching each need after the best fill.

    As :func:`_fill_values` maximised over the boxes, without the box axis in memory:
    each distinct (next state, points) row is shifted once, then the boxes are taken
    one at a time.
    """
    table, inverse = _shifted_rows(model, row_of, values, m, u, y)
    boxes = inverse.shape[2]
    inverse = inverse.transpose(1, 0, 2)  # (252, states, boxes)
    best: NDArray[np.float64] = table[inverse[:, :, 0]]
    for box in range(1, boxes):
        np.maximum(best, table[inverse[:, :, box]], out=best)
    return best


def _turn_start_values(
    model: _Model,
    row_of: NDArray[np.int32],
    values: NDArray[np.float64],
    m: NDArray[np.intp],
    u: NDArray[np.intp],
    y: NDArray[np.intp],
) -> NDArray[np.float64]:
    """``(states, needs)``: the best chance of scoring each number of points from each state."""
    g = _geometry()
    size, needs = len(m), values.shape[1]
    best = _best_fill_values(model, row_of, values, m, u, y)  # (252, states, needs)
    columns = size * needs
    space = _Workspace(columns)
    last = np.empty((462, columns))
    last[g.five :] = best.reshape(252, columns)
    first = np.empty((462, columns))
    first[g.five :] = _best_over_subkeeps(_keep_values(last, space), space)
    rolls = _best_over_subkeeps(_keep_values(first, space), space)
    result: NDArray[np.float64] = (g.probability @ rolls).reshape(size, needs)
    np.minimum(result, 1.0, out=result)  # sums of chances can round just above 1
    return result


def _target_values(
    model: _Model,
    start: int,
    maximum: int,
    progress: Progress | None = None,
    lowest: int | None = None,
) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Rows for every state extending ``start`` and the chance of each need, 0 to ``maximum``.

    With ``lowest``, only the states with at least that many boxes filled.
    """
    n = model.card.n
    needs = maximum + 1
    first = start.bit_count() if lowest is None else max(lowest, start.bit_count())
    levels = [model.states(level, start) for level in range(n, first - 1, -1)]
    solved = sum(len(level.masks) for level in levels)
    total = sum(level.size for level in levels)
    row_of = np.full(model.states_count, -1, dtype=np.int32)
    values = np.zeros((solved, needs))
    done = 0
    if progress is not None:
        progress(0, total)
    next_row = 0
    per = max(1, _COLUMNS // needs)
    for index, level in enumerate(levels):
        flats = np.asarray(_flat(model, level.masks, level.uppers, level.flags), dtype=np.intp)
        rows = np.arange(next_row, next_row + len(flats))
        if index == 0:
            values[rows, 0] = 1.0  # complete cards: nothing more to score
        else:
            m, u, y = level.masks, level.uppers, level.flags
            for lo in range(0, len(m), per):
                hi = min(lo + per, len(m))
                values[rows[lo:hi]] = _turn_start_values(
                    model, row_of, values, m[lo:hi], u[lo:hi], y[lo:hi]
                )
                if progress is not None:
                    progress(done + hi, total)
        row_of[flats] = rows
        row_of[level.targets] = row_of[level.sources]
        next_row += len(flats)
        done += level.size
        if progress is not None:
            progress(done, total)
    return row_of, values


class TargetTable:
    """The best chance of reaching every final total up to a maximum, from every card.

    For each turn-start state and each number of points still needed (0 up to
    :attr:`maximum`), the table holds the highest probability any play reaches it:
    one table over "points still needed", so one build serves every target. Get one
    with :func:`target_table` (cached).

    Time and memory grow linearly with the maximum: one float per state and
    points-needed pair, ``(maximum + 1)`` times the work of the expected-value
    table. For Hasbro's card that is about 360,000 states x ``(maximum + 1)`` x 8
    bytes (about 870 MB for a maximum of 300).

    Attributes:
        rules: The rule set.
        start: The card the table starts from (the empty card for a full table).
        maximum: The highest target the table answers for (a final total, counted
            from 0, so from a card with points the table reaches ``maximum`` points
            still needed).

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
        >>> table = target_table(start=card, maximum=30)
        >>> round(table.probability(card, 25), 4)  # Chance of 25 or more
        0.4167
        >>> table.probability(card, 5)  # Chance takes at least 5
        1.0
    """

    __slots__ = ("_model", "_row_of", "_turns", "_values", "maximum", "rules", "start")

    def __init__(
        self,
        row_of: NDArray[np.int32],
        values: NDArray[np.float64],
        *,
        rules: Rules,
        start: Scorecard,
        maximum: int,
    ) -> None:
        self.rules = rules
        self.start = start
        self.maximum = maximum
        self._model = _model(rules)
        row_of = np.array(row_of, dtype=np.int32)
        values = np.array(values, dtype=np.float64)
        row_of.setflags(write=False)
        values.setflags(write=False)
        self._row_of, self._values = row_of, values
        self._turns: dict[tuple[tuple[int | None, ...], int], _TargetTurn] = {}

    def __repr__(self) -> str:
        return f"<TargetTable rules={self.rules!r} start={self.start!r} maximum={self.maximum}>"

    def _row(self, card: Scorecard) -> int:
        card = _check_design(card, self.rules)
        state = _state_of(card, self._model)
        row = int(self._row_of[_flat(self._model, *state)])
        start_mask = _mask_of(self.start)
        if row < 0 or state[0] & start_mask != start_mask:
            raise MalformedInputError(
                f"card {card!r}: this target table starts from {self.start!r} and covers "
                f"only cards with those boxes filled; build one from this card or an earlier one"
            )
        return row

    def _need(self, card: Scorecard, target: object) -> int:
        if isinstance(target, bool) or not isinstance(target, int):
            raise MalformedInputError(f"target {target!r}: not an int")
        from yahtzee_rules.totals import totals

        need = target - totals(card, rules=self.rules).grand_total
        if need > self.maximum:
            raise MalformedInputError(
                f"target {target!r}: {need} points still needed, beyond this table's "
                f"maximum of {self.maximum}; build a table with a higher maximum"
            )
        return max(need, 0)

    def probability(self, card: Scorecard, target: int) -> float:
        """The best chance of a final grand total of ``target`` or more, from a turn start.

        Raises:
            MalformedInputError: For a card the table does not cover, or a target
                needing more points than :attr:`maximum`.

        Examples:
            >>> from yahtzee_rules import Category, Scorecard
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
            >>> round(target_table(start=card, maximum=50).probability(card, 55), 4)
            0.046
        """
        need = self._need(check_card(card), target)
        return float(self._values[self._row(card), need])

    def _turn(self, card: Scorecard, need: int) -> _TargetTurn:
        key = (card.boxes, need)
        found = self._turns.get(key)
        if found is None:
            if len(self._turns) >= 4096:
                self._turns.clear()
            self._row(card)
            found = self._turns[key] = _TargetTurn(self, card, need)
        return found


class _TargetTurn:
    """One turn-start state and need: fill values and keep values for every roll."""

    __slots__ = ("fills", "keeps")

    def __init__(self, table: TargetTable, card: Scorecard, need: int) -> None:
        g = _geometry()
        model = table._model
        m, u, y = (np.array([v], dtype=np.intp) for v in _state_of(card, model))
        # the needs from 0 to ``need`` are all this turn can lead to
        values = np.ascontiguousarray(table._values[:, : need + 1])
        fills = _fill_values(model, table._row_of, values, m, u, y)[0, :, :, need]  # (252, boxes)
        self.fills = fills
        space = _Workspace(1)
        last = np.empty((462, 1))
        last[g.five :, 0] = fills.max(axis=1)
        _keep_values(last, space)
        first = np.empty((462, 1))
        first[g.five :] = _best_over_subkeeps(last.copy(), space)
        _keep_values(first, space)
        self.keeps = (last[:, 0], first[:, 0])


class TargetStrategy:
    """A strategy that maximises the chance of a final total of at least ``target``.

    It is a :class:`~yahtzee_rules.Strategy`, so :func:`~yahtzee_rules.simulate`
    can play it, in any game its table covers: each keep
    and box maximises the chance of reaching ``target`` given the points on the card.
    Equal chances go to the fill (over a reroll), the keep with the fewest dice,
    and the box first in card order.

    Args:
        table: A :class:`TargetTable` for the rules played, with a maximum of at
            least ``target``.
        target: The final total to reach.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})
        >>> strategy = TargetStrategy(target_table(start=card, maximum=60), 40)
        >>> turn = Turn(card).roll(outcome="66653")
        >>> strategy.choose_keep(turn, random.Random(0))
        Keep('666')
    """

    __slots__ = ("table", "target")

    def __init__(self, table: TargetTable, target: int) -> None:
        if not isinstance(table, TargetTable):
            raise MalformedInputError(f"table {table!r}: not a TargetTable; use target_table()")
        if isinstance(target, bool) or not isinstance(target, int) or target > table.maximum:
            raise MalformedInputError(
                f"target {target!r}: not an int up to the table's maximum of {table.maximum}"
            )
        self.table = table
        self.target = target

    def __repr__(self) -> str:
        return f"TargetStrategy({self.table!r}, {self.target!r})"

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """The keep that maximises the chance of the target, or ``None`` to fill now.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
            >>> strategy = TargetStrategy(target_table(start=card, maximum=30), 28)
            >>> strategy.choose_keep(Turn(card).roll(outcome="66541"), random.Random(0))
            Keep('566')
        """
        dice = turn.dice
        if dice is None or not turn.rolls_left:
            return None
        need = self.table._need(turn.card, self.target)
        tables = self.table._turn(turn.card, need)
        return best_keep(tables.keeps[turn.rolls_left - 1], tables.fills, dice)

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The box that maximises the chance of the target.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Category, Scorecard, Turn
            >>> card = Scorecard({c: 0 for c in Category if c not in (Category.ACES, Category.CHANCE)})
            >>> strategy = TargetStrategy(target_table(start=card, maximum=40), 25)
            >>> strategy.choose_box(Turn(card).roll(outcome="66655"), random.Random(0))
            <Category.CHANCE: 12>
        """
        g = _geometry()
        dice = turn.dice
        if dice is None:
            from yahtzee_rules.errors import IllegalActionError

            raise IllegalActionError("choose box: no dice yet; roll at least once")
        need = self.table._need(turn.card, self.target)
        fills = self.table._turn(turn.card, need).fills[int(g.dice_pos[dice._index])]
        return turn.rules.card.members[int(fills.argmax())]


# --------------------------------------------------------------------------------------
# Building and caching.
# --------------------------------------------------------------------------------------


def _cache_key(rules: Rules, start: int, maximum: int, open_boxes: int | None = None) -> str:
    from yahtzee_rules import _version

    late = "" if open_boxes is None else f"; open boxes={open_boxes}"
    return (
        f"yahtzee_rules {_version.__version__} ({_source_digest()}); "
        f"target table format {TABLE_FORMAT}; rules={rules!r}; start={start}; maximum={maximum}"
        f"{late}"
    )


def _target_path(rules: Rules, start: int, maximum: int, open_boxes: int | None = None) -> Path:
    key = _cache_key(rules, start, maximum, open_boxes)
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / f"target-{_file_label(rules)}-{maximum}-{digest}.npz"


def _read(path: Path, key: str) -> tuple[NDArray[np.int32], NDArray[np.float64]] | None:
    try:
        with path.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
            if str(data["key"]) != key:
                return None
            return np.array(data["rows"], dtype=np.int32), np.array(data["values"])
    except FileNotFoundError:
        return None
    except Exception:  # truncated, damaged or not a table: rebuild
        return None


def _write(path: Path, key: str, rows: NDArray[np.int32], values: NDArray[np.float64]) -> None:
    write_npz(path, ".target-", key=np.array(key), rows=rows, values=values)


def best_keep(
    keep_values: NDArray[np.float64], fills: NDArray[np.float64], dice: Dice
) -> Keep | None:
    """The keep of ``dice`` with the best value, or ``None`` when filling now is as good.

    ``keep_values`` holds a value per keep for the rolls left, ``fills`` the best fill's
    value per roll; a keep must beat filling now by more than rounding to be chosen.
    """
    g = _geometry()
    position = int(g.dice_pos[dice._index])
    options = g.subkeeps[position]
    chosen = int(options[int(keep_values[options].argmax())])
    if chosen >= g.five or fills[position].max() >= keep_values[chosen] - 1e-12:
        return None
    return g.keeps[chosen]


def target_table(
    *,
    rules: Rules = _CLASSIC,
    maximum: int = 300,
    start: Scorecard | None = None,
    progress: Progress | None = None,
    cache: bool = True,
    open_boxes: int | None = None,
) -> TargetTable:
    """The best chance of reaching every final total up to ``maximum``, from every card.

    Built by backward induction over turn-start states, like the expected-value
    table, with one column per number of points still needed: every target is
    solved in the same batched pass, not one at a time. Cached like
    :func:`load_table` (in :func:`cache_dir`, keyed by the rules, version, source,
    start card and maximum).

    Time and memory grow linearly in ``maximum``: about ``maximum + 1`` times the
    expected-value table's work, and 8 bytes per state and points-needed pair.

    Args:
        rules: The rule set.
        maximum: The highest target to answer for.
        start: Solve only the cards extending this card (default: the empty card).
        progress: Called as ``progress(done, total)`` with the states solved.
        cache: ``False`` builds without reading or writing the cache.
        open_boxes: Solve only the cards with at most this many boxes open: the end
            of the game, a small fraction of the work (``None``: every card).

    Raises:
        MalformedInputError: For a negative or non-int maximum or ``open_boxes``, or a
            card of another design than the rules'.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard
        >>> card = Scorecard({c: 0 for c in Category if c not in (Category.YAHTZEE, Category.SIXES)} | {Category.CHANCE: 5})
        >>> table = target_table(start=card, maximum=80)
        >>> round(table.probability(card, 55), 4), round(table.probability(card, 25), 4)
        (0.0899, 0.2104)
        >>> late = target_table(maximum=60, open_boxes=1, cache=False)  # last turns only
        >>> last = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
        >>> round(late.probability(last, 55), 4)  # as from a table built from that card
        0.046
    """
    rules = check_rules(rules)
    if isinstance(maximum, bool) or not isinstance(maximum, int) or maximum < 0:
        raise MalformedInputError(f"maximum {maximum!r}: not a non-negative int")
    if open_boxes is not None and (
        isinstance(open_boxes, bool) or not isinstance(open_boxes, int) or open_boxes < 0
    ):
        raise MalformedInputError(f"open_boxes {open_boxes!r}: not a non-negative int or None")
    start_card = empty_card(rules.card) if start is None else _check_design(start, rules)
    mask = _mask_of(start_card)
    key = _cache_key(rules, mask, maximum, open_boxes)
    path = _target_path(rules, mask, maximum, open_boxes)
    found = _read(path, key) if cache else None
    if found is None:
        lowest = None if open_boxes is None else len(rules.card) - open_boxes
        found = _target_values(_model(rules), mask, maximum, progress, lowest)
        if cache:
            _write(path, key, *found)
    return TargetTable(*found, rules=rules, start=start_card, maximum=maximum)
