"""The exact distribution of the final score under optimal-expectation play."""

from __future__ import annotations

import math
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from gc import get_referents
from itertools import pairwise
from typing import TYPE_CHECKING

import attrs
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from yahtzee_rules.bots.solver._build import Progress
from yahtzee_rules.bots.solver._flow import turn_outcomes
from yahtzee_rules.bots.solver._geometry import dice_geometry
from yahtzee_rules.bots.solver._model import (
    Level,
    Model,
    check_design,
    flat_index,
    mask_of,
    model_of,
    same_values,
    state_of,
)
from yahtzee_rules.bots.solver._storage import (
    distribution_key,
    distribution_path,
    read_arrays,
    write_npz,
)
from yahtzee_rules.bots.solver._table import Table, load_table
from yahtzee_rules.bots.solver._target_build import most_to_come
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play._filling import check_rules
from yahtzee_rules.play.scorecard import Scorecard, empty_card
from yahtzee_rules.play.turn import Turn
from yahtzee_rules.support._frozen import reinit_error
from yahtzee_rules.support.errors import MalformedInputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

BATCH = 512  # turn-start states worked out together (one task for a thread)
_ELEMENTS = 1 << 20  # shifted values added at once (bounds the scratch memory)
_SPREAD = 1.25  # the longest of the distributions added at once, over the shortest


def _probabilities(values: object) -> tuple[float, ...]:
    try:
        found = tuple(float(p) for p in values)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise MalformedInputError(
            f"probabilities {values!r}: not a sequence of numbers, one per final total"
        ) from None
    if not found or not all(math.isfinite(p) and p >= 0 for p in found):
        raise MalformedInputError(
            f"probabilities {values!r}: each must be a finite number of at least 0"
        )
    if abs(math.fsum(found) - 1) > 1e-9:
        raise MalformedInputError(
            f"probabilities summing to {math.fsum(found)!r}: a distribution sums to 1"
        )
    return found


@attrs.frozen(repr=False)
class ScoreDistribution:
    """The chance of every final grand total.

    Get one with :func:`score_distribution`. Percentiles are totals: the
    ``q``-th percentile is the smallest total ``t`` with ``P(score <= t) >= q / 100``
    (within 1e-12), so the median is a total a game can end with.

    Args:
        probabilities: ``probabilities[t]`` is the chance that the game ends with
            ``t`` points, from 0 up to the highest total possible; they sum to 1.

    Raises:
        MalformedInputError: For a negative or non-finite probability, or
            probabilities that do not sum to 1 (within 1e-9).

    Examples:
        >>> d = ScoreDistribution([0.0, 0.25, 0.5, 0.25])
        >>> d.mean, d.std, d.median
        (2.0, 0.7071067811865476, 2)
        >>> d.p_at_least(2), d.percentile(10), d.percentile(90)
        (0.75, 1, 3)
        >>> d
        <ScoreDistribution mean=2.0000000 std=0.7071068 median=2>
    """

    probabilities: tuple[float, ...] = attrs.field(converter=_probabilities)

    def __attrs_pre_init__(self) -> None:
        # Refuse a second __init__: it would overwrite a value others may share.
        if len(get_referents(self)) > 1:  # its type, then any field already set
            raise reinit_error(self)

    def __repr__(self) -> str:
        return f"<ScoreDistribution mean={self.mean:.7f} std={self.std:.7f} median={self.median}>"

    @property
    def mean(self) -> float:
        """The expected final total.

        Examples:
            >>> ScoreDistribution([0.5, 0.5]).mean
            0.5
        """
        return math.fsum(t * p for t, p in enumerate(self.probabilities))

    @property
    def variance(self) -> float:
        """The variance of the final total.

        Examples:
            >>> ScoreDistribution([0.5, 0.5]).variance
            0.25
        """
        mean = self.mean
        return math.fsum((t - mean) ** 2 * p for t, p in enumerate(self.probabilities))

    @property
    def std(self) -> float:
        """The standard deviation of the final total.

        Examples:
            >>> ScoreDistribution([0.5, 0.5]).std
            0.5
        """
        return math.sqrt(self.variance)

    @property
    def median(self) -> int:
        """The 50th percentile (see the class).

        Examples:
            >>> ScoreDistribution([0.5, 0.5]).median
            0
        """
        return self.percentile(50)

    @property
    def minimum(self) -> int:
        """The lowest total of positive probability.

        Examples:
            >>> ScoreDistribution([0.0, 0.5, 0.5]).minimum
            1
        """
        return next(t for t, p in enumerate(self.probabilities) if p > 0)

    @property
    def maximum(self) -> int:
        """The highest total of positive probability.

        Examples:
            >>> ScoreDistribution([0.0, 0.5, 0.5, 0.0]).maximum
            2
        """
        return max(t for t, p in enumerate(self.probabilities) if p > 0)

    def probability(self, total: int) -> float:
        """The chance that the game ends with exactly ``total`` points.

        Examples:
            >>> ScoreDistribution([0.25, 0.75]).probability(1), ScoreDistribution([1.0]).probability(7)
            (0.75, 0.0)
        """
        _check_total(total)
        return self.probabilities[total] if 0 <= total < len(self.probabilities) else 0.0

    def p_at_least(self, total: int) -> float:
        """The chance that the game ends with ``total`` points or more.

        Examples:
            >>> ScoreDistribution([0.25, 0.25, 0.5]).p_at_least(1)
            0.75
            >>> ScoreDistribution([0.25, 0.25, 0.5]).p_at_least(0)
            1.0
        """
        _check_total(total)
        if total <= 0:
            return 1.0
        return min(1.0, math.fsum(self.probabilities[total:]))

    def percentile(self, q: float) -> int:
        """The smallest total ``t`` with ``P(score <= t) >= q / 100`` (see the class).

        Raises:
            MalformedInputError: For ``q`` outside 0 to 100.

        Examples:
            >>> ScoreDistribution([0.1, 0.2, 0.7]).percentile(25)
            1
        """
        if isinstance(q, bool) or not isinstance(q, int | float) or not 0 <= q <= 100:
            raise MalformedInputError(f"percentile {q!r}: not a number from 0 to 100")
        wanted = q / 100 - 1e-12
        cumulative = 0.0
        for t, p in enumerate(self.probabilities):
            cumulative += p
            if p > 0 and cumulative >= wanted:
                return t
        return self.maximum


def _check_total(total: object) -> None:
    if isinstance(total, bool) or not isinstance(total, int):
        raise MalformedInputError(f"total {total!r}: not an int")


# --------------------------------------------------------------------------------------
# The backward pass: the distribution of the points still to come, level by level.
# --------------------------------------------------------------------------------------


class _Rows:
    """One level's distributions, each kept up to its last nonzero, end to end in one buffer.

    Row ``r`` is ``data[starts[r] : starts[r] + lengths[r]]``: the chance of 0, 1, ...
    more points. Most rows are much shorter than the level's longest (a state whose
    Yahtzee box holds 0 can gain far less than one where it holds 50), so this takes
    about half the memory of a rectangle. ``data`` ends with ``width`` zeros, so a
    window of up to ``width`` values can be read from the start of any row.
    """

    def __init__(
        self, data: NDArray[np.float64], starts: NDArray[np.int64], lengths: NDArray[np.int64]
    ) -> None:
        self.data = data
        self.starts = starts
        self.lengths = lengths
        self.width = int(lengths.max()) if len(lengths) else 0

    def __getitem__(self, row: int) -> NDArray[np.float64]:
        start = int(self.starts[row])
        found: NDArray[np.float64] = self.data[start : start + int(self.lengths[row])]
        return found


class LevelDistributions:
    """Points to come from every state of one level: ``dist[row_of[flat index]]``."""

    def __init__(self, row_of: NDArray[np.int32], dist: _Rows) -> None:
        self.row_of = row_of
        self.dist = dist


def _blocks(lengths: NDArray[np.int64]) -> NDArray[np.intp]:
    """Where to cut rows sorted by length into blocks worked on at once.

    A block holds about ``_ELEMENTS`` values and rows within ``_SPREAD`` of each
    other's lengths, so padding each to the longest wastes little. Returns the
    block boundaries, 0 and ``len(lengths)`` included.
    """
    size = len(lengths)
    spread = np.floor(np.log(np.maximum(lengths, 1)) / np.log(_SPREAD)).astype(np.int64)
    part = np.cumsum(lengths) // _ELEMENTS
    key = spread * (int(part[-1]) + 1) + part if size else part
    cuts = np.flatnonzero(np.diff(key)) + 1
    return np.concatenate(([0], cuts, [size])).astype(np.intp)


def _apply(
    outcomes: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]],
    following: LevelDistributions,
    states: int,
) -> NDArray[np.float64]:
    """``(states, length)``: the sum over outcomes of chance x shifted next distribution.

    The outcomes are taken shortest next distribution first, in blocks of rows of
    about the same length (see :func:`_blocks`), each row padded with zeros to the
    block's longest.
    """
    state, after, gained, chance = outcomes
    rows = following.row_of[after]
    if (rows < 0).any():  # pragma: no cover - a bug, not an input error
        raise AssertionError("an outcome leads to a state outside the table")
    nxt = following.dist
    starts = nxt.starts[rows]
    lengths = nxt.lengths[rows]
    length = int((gained + lengths).max()) if len(state) else 1
    bins = states * length + nxt.width  # padding past the last state's row adds zeros
    result = np.zeros(bins)
    order = np.argsort(lengths, kind="stable")
    bounds = _blocks(lengths[order])
    for lo, hi in pairwise(bounds):
        pick = order[lo:hi]
        width = int(lengths[pick[-1]])
        offsets = np.arange(width)
        values = sliding_window_view(nxt.data, width)[starts[pick]]
        values *= np.where(offsets < lengths[pick, None], chance[pick, None], 0.0)
        at = (state[pick] * length + gained[pick])[:, None] + offsets
        result += np.bincount(at.ravel(), weights=values.ravel(), minlength=bins)
    return result[: states * length].reshape(states, length)


def _batch(
    model: Model,
    values: NDArray[np.float64],
    states: tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]],
    following: LevelDistributions,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The distributions of some states of a level: their rows end to end, and their lengths."""
    m, u, y = states
    dense = _apply(turn_outcomes(model, values, m, u, y), following, len(m))
    width = dense.shape[1]
    lengths = width - (dense[:, ::-1] > 0).argmax(axis=1)  # up to the last nonzero
    packed: NDArray[np.float64] = dense[np.arange(width) < lengths[:, None]]
    return packed, lengths.astype(np.int64)


def _workers() -> int:
    """Threads for the backward pass: the CPUs this process may use, at most 4."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        usable = os.cpu_count() or 1
    return max(1, min(usable, 4))


def _level(
    model: Model,
    values: NDArray[np.float64],
    lv: Level,
    following: LevelDistributions,
    pool: ThreadPoolExecutor | None,
    step: Callable[[int], None],
) -> _Rows:
    """The distributions of one level's solved states, batch by batch (in order)."""
    m, u, y = lv.masks, lv.uppers, lv.flags
    size = len(m)
    gain = _most_gained(model)
    capacity = size * (following.dist.width + gain) + following.dist.width + gain
    data = np.empty(capacity)  # pages are only taken as rows are written
    starts = np.empty(size, dtype=np.int64)
    lengths = np.empty(size, dtype=np.int64)
    used = 0
    spans = [(lo, min(lo + BATCH, size)) for lo in range(0, size, BATCH)]

    def work(span: tuple[int, int]) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        lo, hi = span
        return _batch(model, values, (m[lo:hi], u[lo:hi], y[lo:hi]), following)

    if pool is None:
        results: Iterator[tuple[NDArray[np.float64], NDArray[np.int64]]] = map(work, spans)
    else:
        results = _in_order(pool, work, spans, 2 * _workers())
    for (lo, hi), (packed, found) in zip(spans, results, strict=True):
        data[used : used + len(packed)] = packed
        lengths[lo:hi] = found
        starts[lo:hi] = used + np.cumsum(found) - found
        used += len(packed)
        step(hi - lo)
    width = int(lengths.max()) if size else 0
    data[used : used + width] = 0.0
    data.resize(used + width, refcheck=False)  # gives back the pages never written
    return _Rows(data, starts, lengths)


def _in_order(
    pool: ThreadPoolExecutor,
    work: Callable[[tuple[int, int]], tuple[NDArray[np.float64], NDArray[np.int64]]],
    spans: list[tuple[int, int]],
    ahead: int,
) -> Iterator[tuple[NDArray[np.float64], NDArray[np.int64]]]:
    """``map(work, spans)`` on the pool, at most ``ahead`` batches in flight."""
    pending: deque[Future[tuple[NDArray[np.float64], NDArray[np.int64]]]] = deque()
    for span in spans:
        pending.append(pool.submit(work, span))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _most_gained(model: Model) -> int:
    """More points than one turn can add: the best box, the upper bonus, a Yahtzee bonus."""
    card = model.card
    best = max(int(card.scores.max()), int(model.joker.max()))
    return best + int(model.upper_bonus) + int(model.bonus_due.max()) + 1


def level_distributions(
    model: Model,
    values: NDArray[np.float64],
    start: int,
    last: int,
    progress: Progress | None = None,
    every: list[LevelDistributions] | None = None,
) -> LevelDistributions:
    """The distributions of the states extending ``start`` with ``last`` boxes filled.

    Each level is worked out from the one after it in batches of states, on a pool
    of threads (NumPy lets go of the interpreter lock for the heavy work); a level
    is let go as soon as the one before it is done. With ``every``, each level's
    distributions are appended to it on the way.
    """
    n = model.card.n
    total = sum(model.states(level, start).size for level in range(n, last - 1, -1))
    done = 0

    def step(count: int) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(done, total)

    def level_rows(level: int) -> tuple[NDArray[np.int32], NDArray[np.intp], Level]:
        lv = model.states(level, start)
        row_of = np.full(model.states_count, -1, dtype=np.int32)
        flats = np.asarray(flat_index(model, lv.masks, lv.uppers, lv.flags), dtype=np.intp)
        row_of[flats] = np.arange(len(flats), dtype=np.int32)
        row_of[lv.targets] = row_of[lv.sources]
        return row_of, flats, lv

    row_of, flats, lv = level_rows(n)
    ones = _Rows(
        np.array([1.0, 0.0]), np.zeros(len(flats), np.int64), np.ones(len(flats), np.int64)
    )
    current = LevelDistributions(row_of, ones)
    if progress is not None:
        progress(0, total)
    step(lv.size)
    big = sum(len(model.states(level, start).masks) for level in range(n - 1, last - 1, -1))
    threads = _workers() if big > BATCH else 1
    with ThreadPoolExecutor(threads) if threads > 1 else nullcontext() as pool:
        for level in range(n - 1, last - 1, -1):
            row_of, flats, lv = level_rows(level)
            rows = _level(model, values, lv, current, pool, step)
            current = LevelDistributions(row_of, rows)
            if every is not None:
                every.append(current)
            step(len(lv.targets))
    return current


def _points_to_come(
    table: Table,
    card: Scorecard,
    dice_position: int | None = None,
    rerolls: int = 2,
    progress: Progress | None = None,
) -> NDArray[np.float64]:
    """The distribution of the points to come from ``card`` (mid-turn when dice are given)."""
    model = model_of(table.rules)
    values = table._values
    mask, upper, flag = state_of(card, model)
    level = mask.bit_count()
    if dice_position is None:
        found = level_distributions(model, values, mask, level, progress)
        row: NDArray[np.float64] = found.dist[found.row_of[flat_index(model, mask, upper, flag)]]
        return row
    following = level_distributions(model, values, mask, level + 1, progress)
    start = np.zeros((252, 1))
    start[dice_position, 0] = 1.0
    one = np.array([mask], dtype=np.intp), np.array([upper], dtype=np.intp)
    outcomes = turn_outcomes(
        model, values, *one, np.array([flag], dtype=np.intp), mass=start, rerolls=rerolls
    )
    first: NDArray[np.float64] = _apply(outcomes, following, 1)[0]
    return first


def _cached_points_to_come(
    table: Table, card: Scorecard, progress: Progress | None, cache: bool
) -> NDArray[np.float64]:
    """:func:`_points_to_come` from a turn start, read from the cache when it is there
    (and written there when it is not, with ``cache``)."""
    if not cache:
        return _points_to_come(table, card, progress=progress)
    model = model_of(table.rules)
    state = state_of(card, model)
    key = distribution_key(table.rules, mask_of(table.start), table._values, state)
    path = distribution_path(key, table.rules)
    most = most_to_come(model, state[0], True) + 1  # chances of 0 to the most points
    found = read_arrays(path, key, {"chances": 8 * most})
    if found is not None:
        chances = found["chances"]
        if (
            chances.dtype == np.float64
            and chances.ndim == 1
            and 0 < len(chances) <= most
            and np.isfinite(chances).all()
            and (chances >= 0).all()
            and chances[-1] > 0
            and abs(math.fsum(chances.tolist()) - 1) <= 1e-9
        ):
            return chances
    to_come = _points_to_come(table, card, progress=progress)
    last = int(np.flatnonzero(to_come)[-1]) + 1
    write_npz(path, ".distribution-", key=np.array(key), chances=to_come[:last])
    return to_come


def score_distribution(
    position: Scorecard | Turn | None = None,
    *,
    rules: Rules | None = None,
    table: Table | None = None,
    progress: Progress | None = None,
    cache: bool = True,
) -> ScoreDistribution:
    """The exact distribution of the final grand total under optimal-expectation play.

    Play follows ``table``: every keep and box maximises the expected final score
    (the play of :func:`best_action`, :class:`~yahtzee_rules.OptimalStrategy` and
    :func:`simulate_optimal`). Moves of equal expected value can differ in spread;
    ties are broken as those break them (one choice kernel serves them all): the
    keep with the fewest dice (then the lowest faces), holding all five dice last,
    and the box first in card order. With the free-choice Joker this gives, from the empty card, the
    mean 254.5896095, median 248 and a standard deviation of 59.6114; Verhoeff
    publishes 59.6117, the difference coming from how ties are broken (the mean
    and median agree).

    The work runs backwards from the complete cards, one level of filled boxes at
    a time, in batches of states on a thread per core, keeping only two levels of
    distributions in memory, each state's up to its last nonzero chance: from
    the empty card that peaks under 1 GiB on Hasbro's card and on Yatzy's 15
    boxes (about a minute and a half of CPU time); from a card with six open
    boxes it takes well under a second.

    Args:
        position: The card to start from, at the start of a turn (default: the
            rules' empty card), or a :class:`~yahtzee_rules.Turn` in progress, dice
            and rolls left included. Points already on the card count in the totals.
        rules: The rule set (default: the turn's or the table's, else Hasbro's).
        table: The expected-value table that decides the play (default:
            :func:`load_table` for the rules, built and cached on first use).
        progress: Called as ``progress(done, total)`` with the states worked out.
        cache: From a turn start, the distribution is read from :func:`cache_dir` when
            it was worked out before for the same table's values and card, and saved
            there when not (a few kilobytes); ``False`` works it out without reading or
            writing the cache. A turn in progress is always worked out.

    Raises:
        MalformedInputError: For a card of another design than the rules', a table
            for other rules or not covering the card.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> from yahtzee_rules.bots.solver import build_table
        >>> card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
        >>> table = build_table(start=card)
        >>> d = score_distribution(card, table=table)
        >>> round(d.mean, 4), d.minimum, d.maximum, d.median
        (23.3333, 5, 30, 24)
        >>> round(d.p_at_least(25), 4)
        0.3923
        >>> after = Turn(card).roll(outcome="66612")
        >>> round(score_distribution(after, table=table).mean, 4)  # keeps 666, rolls twice
        26.5
    """
    if isinstance(position, Turn):
        turn: Turn | None = position
        card = position.card
        rules = position.rules if rules is None else check_rules(rules)
        if rules != position.rules:
            raise MalformedInputError(
                f"rules {rules!r}: the turn plays {position.rules!r}; pass the turn's rules"
            )
    else:
        turn = None
        if rules is None:
            rules = table.rules if isinstance(table, Table) else Rules()
        rules = check_rules(rules)
        card = empty_card(rules.card) if position is None else check_design(position, rules)
    if table is None:
        table = load_table(rules=rules)
    if not isinstance(table, Table):
        raise MalformedInputError(f"table {table!r}: not a Table; get one with load_table(rules)")
    if not same_values(table.rules, rules):
        raise MalformedInputError(
            f"table for {table.rules!r}: the game plays {rules!r}; "
            f"use a table built for the same rules"
        )
    table._index(card)  # raises unless the table covers the card
    from yahtzee_rules.play.totals import totals

    base = totals(card, rules=rules).grand_total
    if card.is_complete:
        to_come = np.ones(1)
    elif turn is None or turn.dice is None:
        to_come = _cached_points_to_come(table, card, progress, cache)
    else:
        position_of = int(dice_geometry().dice_pos[turn.dice._index])
        to_come = _points_to_come(table, card, position_of, turn.rolls_left, progress)
    last = int(np.flatnonzero(to_come)[-1]) + 1
    probabilities = np.concatenate((np.zeros(base), to_come[:last]))
    return ScoreDistribution(probabilities.tolist())
