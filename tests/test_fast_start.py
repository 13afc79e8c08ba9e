"""Fast out of the box: a table read from the cache makes its rules' model without the
Joker loop, and one state's turn tables are today's, bit for bit and action for action."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from yahtzee_rules import GreedyStrategy, Rules, Turn
from yahtzee_rules.play.scorecard import empty_card

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")

from yahtzee_rules.bots.solver import _entries, _internal, _model, _table, _turns  # noqa: E402
from yahtzee_rules.bots.solver._geometry import NEG, dice_geometry  # noqa: E402
from yahtzee_rules.play import _filling  # noqa: E402

RULES = Rules()


def _counting_legal(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the calls of the rules' ``legal`` (the Joker loop makes 49,146 for Classic)."""
    calls = [0]
    legal = _filling.legal

    def spy(*args: Any) -> Any:
        calls[0] += 1
        return legal(*args)

    monkeypatch.setattr(_filling, "legal", spy)
    return calls


def test_a_cached_table_makes_its_rules_model_from_the_files_joker_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading a table in a process without the rules' model makes it from the file's
    Joker points, checked at a few masks (not 49,000 ``legal`` calls); it is the model
    worked out from the rules, array for array."""
    solver.load_table()  # in the session's cache
    made = _internal.model_of(RULES)
    monkeypatch.delitem(_model._MODELS, RULES)  # this process has no model yet
    calls = _counting_legal(monkeypatch)
    table = _table._read(solver.cache_path(), RULES, empty_card(RULES.card))
    assert table is not None
    assert calls[0] <= 6 * _model._CHECKED_MASKS
    read = _internal.known_model(RULES)
    assert read is not None
    assert read is not made
    assert np.array_equal(read.joker, made.joker)
    assert read.joker.dtype == made.joker.dtype
    for name in ("bonus_due", "joker_by_box", "upper_after", "upper_bonus_by"):
        assert np.array_equal(getattr(read, name), getattr(made, name)), name
    for name in ("plain_fives_while_open", "plain_fives_always", "joker_upper_plain"):
        assert getattr(read, name) == getattr(made, name), name


def test_joker_points_from_a_file_are_checked() -> None:
    """A damaged array of Joker points is refused: type, shape, range, and the points of
    the masks worked out again (the first of them is mask 0)."""
    joker = _internal.model_of(RULES).joker
    assert _internal.check_joker(RULES, joker)
    assert not _internal.check_joker(RULES, joker.astype(np.int32))
    assert not _internal.check_joker(RULES, joker[:, :, :-1])
    assert not _internal.check_joker(RULES, "joker")
    for face, box, mask, points in ((0, 0, 0, 0), (5, 12, 0, 31), (2, 3, 100, 200)):
        damaged = joker.copy()
        damaged[face, box, mask] = points
        assert not _internal.check_joker(RULES, damaged), (face, box, mask, points)


def test_a_table_file_with_damaged_joker_points_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache file whose Joker points are wrong is not used (it is rebuilt), as a file
    with wrong values is not."""
    solver.load_table()
    path = solver.cache_path()
    arrays = dict(np.load(path))
    arrays["joker"] = arrays["joker"].copy()
    arrays["joker"][5, 12, 0] = 31  # Chance for five sixes on the empty card: 30
    damaged = tmp_path / path.name
    np.savez(damaged, **arrays)
    monkeypatch.delitem(_model._MODELS, RULES)
    assert _table._read(damaged, RULES, empty_card(RULES.card)) is None
    shutil.copy(path, damaged)  # the intact file is read
    assert _table._read(damaged, RULES, empty_card(RULES.card)) is not None


# --------------------------------------------------------------------------------------
# One state's turn tables against the arithmetic they had before (the reference below).
# --------------------------------------------------------------------------------------


def _reference_worth(model: Any, tm: Any, values: Any, mask: int, u: int, y: int) -> Any:
    index, bonus = _entries.entry_steps(model, tm, mask, u, y)
    worth = values[index]
    worth += bonus
    worth += tm.points
    worth[(model.open_bits(mask) & tm.bits) == 0] = NEG
    worth[-1] = NEG
    return worth


def _reference_keep_values(keep: Any) -> None:
    g = dice_geometry()
    for size in range(4, -1, -1):
        lo, hi = g.offsets[size], g.offsets[size + 1]
        block = np.take(keep, np.ascontiguousarray(g.children[size].T), mode="clip")
        out = keep[lo:hi]
        np.add.reduce(block, axis=0, out=out)
        np.multiply(out, 1 / 6, out=out)


def _reference_fives(tm: Any, worth: Any, mask: int, y: int, joker: Any) -> Any:
    """Each face's fill values of five equal dice, the entries looked up box by box."""
    n = tm.model.card.n
    fives = np.full((6, n), NEG)
    for face in range(6):
        for box in range(n):
            points = int(joker[face, box, mask])
            if points >= 0:
                entry = np.flatnonzero((tm.bits == 1 << box) & (tm.points == points))
                fives[face, box] = worth[int(entry[0])]
    if tm.any_bonus_due:
        fives += tm.model.bonus_due[:, y, None]
    return fives


def _states_of_games(table: Any, count: int) -> list[tuple[tuple[int, int, int], int]]:
    """Turn-start states of games that fill greedily or a random legal box, in turn."""
    rng = random.Random(30)
    greedy = GreedyStrategy()
    members = table.rules.card.members
    found: dict[int, tuple[int, int, int]] = {}
    while len(found) < count:
        card = empty_card(table.rules.card)
        while not card.is_complete:
            turn = Turn(card, rules=table.rules).roll(rng)
            state, index = table._state(card)
            found.setdefault(index, state)
            if len(found) % 2:
                box = greedy.choose_box(turn, rng)
            else:
                box = rng.choice([b for b in members if turn.can_fill(b)])
            card = turn.fill(box)
    return [(state, index) for index, state in list(found.items())[:count]]


def test_one_states_turn_tables_are_the_reference_bit_for_bit(kernel_path: str) -> None:
    """Fill values, keep values with one and two rerolls left, and the actions of a fifth
    of the rolls and of five equal dice, on states met in games (Joker states among
    them)."""
    table = solver.load_table()
    model = _internal.model_of(RULES)
    tm = _entries.turn_model_of(model)
    g = dice_geometry()
    subkeeps = _turns.turn_geometry()
    states = _states_of_games(table, 80)
    assert any(state[0] & model.card.yahtzee_bit for state, _ in states)
    for (mask, u, y), index in states:
        tables = _internal.TurnTables(model, table.values, mask, u, y, index)
        worth = _reference_worth(model, tm, table.values, mask, u, y)
        assert np.array_equal(tables.worth, worth)
        fives = _reference_fives(tm, worth, mask, y, model.joker)
        assert np.array_equal(tables._fives(), fives)
        fills = worth[tm.codes]
        fills[:6] = fives
        assert np.array_equal(tables.fills(), fills)
        last = np.empty(462)
        last[g.five :] = fills.max(axis=1)
        _reference_keep_values(last)
        first = np.empty(462)
        first[g.five :] = [last[row].max() for row in subkeeps.subkeeps]
        _reference_keep_values(first)
        assert np.array_equal(tables.keeps[0], last)
        assert np.array_equal(tables.keeps[1], first)
        fives = [int(i) for i in np.flatnonzero(g.dice_pos < 6)]
        for rerolls in range(3):
            for roll in [*range(rerolls, 252, 5), *fives]:
                position = int(g.dice_pos[roll])
                box = model.card.members[int(fills[position].argmax())]
                expected: Any = box
                if rerolls:
                    options = g.subkeeps[position]
                    chosen = int(options[int(tables.keeps[rerolls - 1][options].argmax())])
                    expected = g.keeps[chosen] if chosen < g.five else box
                assert tables.action(rerolls, roll) == expected


def test_the_cache_keys_import_reader_finds_every_import_ast_walk_finds() -> None:
    """The source digest reads each module's imports from its statements only (not every
    expression node): in the solver's modules (imports at the top, in functions, under
    ``if TYPE_CHECKING:``, in ``try`` blocks) it finds the imports ast.walk finds."""
    import ast

    from yahtzee_rules.bots.solver import _storage

    imports = (ast.Import, ast.ImportFrom)
    for path in sorted((_storage._ROOT / "bots" / "solver").glob("*.py")):
        tree = ast.parse(path.read_bytes())
        walked = [node for node in ast.walk(tree) if isinstance(node, imports)]
        read = [node for node in _storage._statements(tree) if isinstance(node, imports)]
        assert sorted(map(id, read)) == sorted(map(id, walked)), path
