"""The optimal solitaire solver: published optima, a plain second implementation, advice, cache."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yahtzee_rules
from yahtzee_rules import (
    YACHT,
    Box,
    Category,
    Dice,
    JokerRule,
    Keep,
    MalformedInputError,
    Rules,
    Scorecard,
    Turn,
    YachtBox,
    fill,
    legal_fills,
    roll_distribution,
    score,
    totals,
)
from yahtzee_rules.play._filling import legal as engine_legal
from yahtzee_rules.testing import strategies as yst

np = pytest.importorskip("numpy")
solver = pytest.importorskip("yahtzee_rules.bots.solver")

FORCED = Rules()
FREE = Rules(joker=JokerRule.FREE_CHOICE)
NO_JOKER = Rules(joker=JokerRule.NONE)
NEITHER = Rules(joker=JokerRule.NONE, yahtzee_bonus=0)

YACHT_RULES = Rules.from_name("yacht")
# the placement rules: the kinds-first Joker, Forced Yahtzee, boxes in card order
PLACEMENTS = tuple(Rules.from_name(n) for n in ("kinds-first", "forced-yahtzee", "forced-yatzy"))

# Expected final score from the empty card under optimal play (Verhoeff's solver; also
# Woodward, "Yahtzee: the solution", Chance 16(1), 2003, for the forced-Joker game).
PUBLISHED = {FORCED: 254.5877287, FREE: 254.5896095, NO_JOKER: 253.9702412, NEITHER: 245.8707745}

_TABLES: dict[Rules, object] = {}
_PROGRESS: list[tuple[int, int]] = []


def full_table(rules: Rules) -> Any:
    """Full tables are built once per test session (a few seconds each)."""
    if rules not in _TABLES:

        def record(done: int, total: int) -> None:
            _PROGRESS.append((done, total))

        _TABLES[rules] = solver.build_table(
            rules=rules, progress=record if rules == FORCED else None
        )
    return _TABLES[rules]


# --------------------------------------------------------------------------------------
# A deliberately plain second implementation: public functions, floats, dictionaries.
# --------------------------------------------------------------------------------------


class PlainSolver:
    """Expected points to come, by straightforward recursion over cards.

    It uses only the public API: ``legal_fills`` for what may be written, ``fill`` and
    ``totals`` for the points a fill adds (bonuses included), and ``roll_distribution``
    for the chance of each roll after each keep. It plays any card the rules name.
    Cards are memoised by what the future depends on: which boxes are open, the upper
    subtotal up to the threshold (when there is an upper bonus), and whether the
    five-of-a-kind box holds 50.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[tuple[object, ...], float] = {}
        self.distributions = {
            keep: [(d, float(p)) for d, p in roll_distribution(keep).items()] for keep in Keep.all()
        }

    def key(self, card: Scorecard) -> tuple[object, ...]:
        design = self.rules.card
        upper = sum(card[box] or 0 for box in design.upper)
        yahtzee = design.yahtzee
        return (
            tuple(p is None for p in card.boxes),
            min(upper, self.rules.upper_bonus_threshold) if self.rules.upper_bonus else 0,
            yahtzee is not None and card[yahtzee] == 50,
        )

    def fill_value(self, card: Scorecard, dice: Dice, category: Box) -> float:
        after = fill(card, dice, category, rules=self.rules)
        gained = (
            totals(after, rules=self.rules).grand_total - totals(card, rules=self.rules).grand_total
        )
        return gained + self.value(after)

    def turn(
        self, card: Scorecard
    ) -> tuple[dict[Dice, float], dict[Keep, float], dict[Keep, float]]:
        """Best fill value per roll, and keep values with one and with two rerolls left."""
        final = {
            dice: max(
                self.fill_value(card, dice, c) for c in legal_fills(card, dice, rules=self.rules)
            )
            for dice in Dice.all()
        }
        rolls = final
        keeps: list[dict[Keep, float]] = []
        for _ in range(2):
            keep_values = {
                keep: sum(p * rolls[d] for d, p in self.distributions[keep]) for keep in Keep.all()
            }
            keeps.append(keep_values)
            rolls = {dice: max(keep_values[k] for k in dice.keeps()) for dice in Dice.all()}
        return final, keeps[0], keeps[1]

    def value(self, card: Scorecard) -> float:
        if card.is_complete:
            return 0.0
        key = self.key(card)
        if key not in self.memo:
            _, _, two = self.turn(card)
            rolls = {dice: max(two[k] for k in dice.keeps()) for dice in Dice.all()}
            self.memo[key] = sum(p * rolls[d] for d, p in self.distributions[Keep()])
        return self.memo[key]


_PLAIN: dict[Rules, PlainSolver] = {}


def plain(rules: Rules) -> PlainSolver:
    if rules not in _PLAIN:
        _PLAIN[rules] = PlainSolver(rules)
    return _PLAIN[rules]


# --------------------------------------------------------------------------------------
# Published optima and state counts (full tables).
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(PUBLISHED), ids=lambda r: r.name)
def test_reproduces_the_published_optimum(rules: Rules) -> None:
    table = full_table(rules)
    assert table.value(Scorecard()) == pytest.approx(PUBLISHED[rules], abs=1e-6)
    assert table.expected_final(Scorecard()) == table.value(Scorecard())


def test_solves_every_reachable_state_once_with_progress() -> None:
    full_table(FORCED)
    done = [d for d, _ in _PROGRESS]
    assert _PROGRESS[0] == (0, 536_448)
    assert _PROGRESS[-1] == (536_448, 536_448)
    assert done == sorted(done)


card_rules = st.sampled_from([FORCED, FREE, NO_JOKER, NEITHER])


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_full_tables_agree_with_the_plain_implementation(data: st.DataObject) -> None:
    rules = data.draw(card_rules)
    card = data.draw(yst.scorecards(rules=rules, min_filled=10, max_filled=12))
    assert full_table(rules).value(card) == pytest.approx(plain(rules).value(card), abs=1e-9)


odd_rules = st.builds(
    Rules,
    joker=st.sampled_from(list(JokerRule)),
    upper_bonus=st.sampled_from([0, 35, 50]),
    upper_bonus_threshold=st.sampled_from([0, 10, 63, 104, 106, 200]),
    yahtzee_bonus=st.sampled_from([0, 100, 250]),
)


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_any_rules_agree_with_the_plain_implementation(data: st.DataObject) -> None:
    rules = data.draw(odd_rules)
    card = data.draw(yst.scorecards(rules=rules, min_filled=10, max_filled=12))
    table = solver.build_table(rules=rules, start=card)
    expected = PlainSolver(rules)
    assert table.value(card) == pytest.approx(expected.value(card), abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(yst.rules(), st.integers(0, 8191), yst.dice())
def test_the_joker_only_changes_five_equal_dice(rules: Rules, mask: int, dice: Dice) -> None:
    """The solver scores other rolls by their plain values in the open boxes."""
    boxes = tuple(0 if mask >> c & 1 else None for c in range(13))
    legal = engine_legal(boxes, dice, rules)
    if not dice.is_yahtzee:
        assert legal == {c: score(dice, c) for c in Category if boxes[c] is None}


# --------------------------------------------------------------------------------------
# Advice: consistent with the table and with itself.
# --------------------------------------------------------------------------------------

late_turns = st.sampled_from([FORCED, FREE, NO_JOKER]).flatmap(
    lambda rules: st.tuples(
        st.just(rules),
        yst.scorecards(rules=rules, min_filled=10, max_filled=12),
        yst.dice(yahtzee_weight=0.3),
        st.integers(0, 2),
    )
)


@settings(max_examples=25, deadline=None)
@given(late_turns)
def test_advice_obeys_the_bellman_equations(case: tuple[Rules, Scorecard, Dice, int]) -> None:
    rules, card, dice, rolls_left = case
    table = solver.build_table(rules=rules, start=card)
    turn = Turn(card, rules=rules, dice=dice, rolls_used=3 - rolls_left)
    advice = solver.advise(turn, table)
    base = totals(card, rules=rules).grand_total
    # every legal box is an option, worth its points and bonuses plus the table's future
    fills = {o.action: o.expected for o in advice.options if o.is_fill}
    assert set(fills) == set(legal_fills(card, dice, rules=rules))
    for category, expected in fills.items():
        after = fill(card, dice, category, rules=rules)
        assert expected == pytest.approx(
            totals(after, rules=rules).grand_total + table.value(after), abs=1e-9
        )
    keeps = {o.action: o.expected for o in advice.options if o.is_keep}
    assert set(keeps) == (set(dice.keeps()) if rolls_left else set())
    for keep, expected in list(keeps.items())[:4]:
        later = sum(
            float(p) * solver.advise(turn.roll(keep=keep, outcome=_thrown(d, keep)), table).expected
            for d, p in roll_distribution(keep).items()
        )
        assert expected == pytest.approx(later, abs=1e-9)
    values = [o.expected for o in advice.options]
    assert values == sorted(values, reverse=True)
    assert advice.expected == max(values) >= base
    chosen = solver.best_action(turn, table)
    assert advice.expected_of(chosen) == pytest.approx(advice.expected, abs=1e-9)


def _thrown(dice: Dice, keep: Keep) -> list[int]:
    rest = list(dice.faces)
    for face in keep.faces:
        rest.remove(face)
    return rest


def test_turn_start_advice_is_the_table_value() -> None:
    table = full_table(FORCED)
    card = fill(Scorecard(), "66655", Category.FULL_HOUSE)
    advice = solver.advise(Turn(card), table)
    assert [o.action for o in advice.options] == [Keep()]
    assert advice.expected == pytest.approx(25 + table.value(card))
    assert solver.best_action(Turn(card), table) == Keep()


def test_advice_on_the_empty_card_first_roll() -> None:
    table = full_table(FORCED)
    turn = Turn().roll(outcome="66666")
    advice = solver.advise(turn, table)
    assert advice.best.action is Category.YAHTZEE
    assert solver.best_action(turn, table) is Category.YAHTZEE
    # averaging the first roll's best options gives back the empty card's value
    total = sum(
        float(p) * solver.advise(Turn().roll(outcome=d), table).expected
        for d, p in roll_distribution().items()
    )
    assert total == pytest.approx(PUBLISHED[FORCED], abs=1e-6)


def test_holding_all_five_is_answered_with_the_box() -> None:
    table = full_table(FORCED)
    turn = Turn().roll(outcome="12345").roll(keep="12345", outcome=())
    action = solver.best_action(turn, table)
    assert action is Category.LARGE_STRAIGHT
    assert solver.advise(turn, table).best.action is Category.LARGE_STRAIGHT


@pytest.mark.parametrize("rules", [*PUBLISHED, YACHT_RULES, *PLACEMENTS], ids=lambda r: r.name)
def test_the_builds_best_fills_are_those_of_the_one_fill_function(rules: Rules) -> None:
    """The build's fast route to each roll's best fill gives the same floats as _fills.

    (The fast route counts a zero in an upper box as an option for every roll: never
    better than scoring there, given the table's values, so the maximum is the same.)
    """
    from yahtzee_rules.bots.solver import _internal

    model = _internal.model_of(rules)
    card = _internal.card_geometry(rules.card)
    values = full_table(rules).values
    for level in (0, 4, 9, len(rules.card) - 1):
        states = model.states(level)
        pick = np.random.default_rng(level).permutation(len(states.masks))[:40]
        m, u, y = states.masks[pick], states.uppers[pick], states.flags[pick]
        fast = _internal.final_values(model, values, m, u, y)
        for j in range(len(m)):
            points = np.where((model.open_bits(int(m[j])) & card.bits) == 0, -1, card.scores)
            points[:6] = model.joker[:, :, m[j]]
            fills = _internal.fill_values(model, values, m[j], u[j], y[j], points)[0]
            fills[:6] += model.bonus_due[:, y[j], None]
            assert np.array_equal(fills.max(axis=1), fast[:, j])


@pytest.mark.parametrize("rules", [*PUBLISHED, *PLACEMENTS[:2]], ids=lambda r: r.name)
def test_the_builds_joker_route_gives_the_floats_of_the_general_route(rules: Rules) -> None:
    """Five equal dice on a card with the Yahtzee box filled: the short route (upper
    boxes take 0 or five dice) and the general one through _fills agree, bit for bit."""
    import copy

    from yahtzee_rules.bots.solver import _internal

    model = _internal.model_of(rules)
    assert model.joker_upper_plain
    general = copy.copy(model)
    general.joker_upper_plain = False
    values = full_table(rules).values
    for level in (1, 6, 12):
        states = model.states(level)
        m, u, y = states.masks[-300:], states.uppers[-300:], states.flags[-300:]
        assert (m & model.card.yahtzee_bit).any()
        short = _internal.final_values(model, values, m, u, y)
        assert np.array_equal(short, _internal.final_values(general, values, m, u, y))


def test_rejects_a_table_for_other_rules() -> None:
    card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
    table = solver.build_table(rules=FORCED, start=card)
    turn = Turn(card, rules=FREE).roll(outcome="12345")
    with pytest.raises(MalformedInputError, match="use a table built for the turn's rules"):
        solver.advise(turn, table)
    with pytest.raises(MalformedInputError, match="use a table built for the turn's rules"):
        solver.best_action(turn, table)


def test_rejects_cards_the_table_does_not_cover() -> None:
    card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
    table = solver.build_table(start=card)
    assert not table.covers(Scorecard())
    with pytest.raises(MalformedInputError, match="covers only cards with those boxes filled"):
        table.value(Scorecard())
    with pytest.raises(MalformedInputError, match="not a Turn"):
        solver.advise("turn", table)


def test_rejects_bad_worker_counts() -> None:
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(MalformedInputError, match=f"workers {bad!r}: not a positive int"):
            solver.build_table(workers=bad)


# --------------------------------------------------------------------------------------
# The cache.
# --------------------------------------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    return tmp_path


LATE = Scorecard({c: 0 for c in Category if c not in (Category.SIXES, Category.CHANCE)})


def test_cache_round_trip(cache: Path) -> None:
    built = solver.load_table(start=LATE)
    path = solver.cache_path(start=LATE)
    assert path.parent == cache
    assert path.exists()
    again = solver.load_table(start=LATE, progress=_fail)
    assert np.array_equal(again.values, built.values)
    assert [p.name for p in cache.iterdir()] == [path.name]  # no temporary files left


def _fail(done: int, total: int) -> None:
    raise AssertionError("a cached table was rebuilt")


@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip", "empty"])
def test_damaged_cache_files_are_rebuilt(cache: Path, damage: str) -> None:
    built = solver.load_table(start=LATE)
    path = solver.cache_path(start=LATE)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"not a table at all")
    elif damage == "flip":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :])
    else:
        path.write_bytes(b"")
    seen: list[tuple[int, int]] = []
    rebuilt = solver.load_table(start=LATE, progress=lambda *p: seen.append(p))
    assert seen, "the damaged file was used"
    assert np.array_equal(rebuilt.values, built.values)
    assert solver.load_table(start=LATE, progress=_fail).value(LATE) == built.value(LATE)


def test_cache_files_with_a_damaged_zip_directory_are_rebuilt(cache: Path) -> None:
    built = solver.load_table(start=LATE)
    path = solver.cache_path(start=LATE)
    data = path.read_bytes()
    directory = data.find(b"PK\x01\x02")  # the central directory, then its end record
    assert directory > 0
    written = path.stat().st_ino
    for position in range(directory, len(data)):
        for flip in (0x01,):
            with path.open("r+b") as file:  # the file as built, but for this one byte
                file.seek(position)
                file.write(bytes([data[position] ^ flip]))
            table = solver.load_table(start=LATE)  # rebuilt (or read intact), never an error
            assert table.value(LATE) == built.value(LATE)
            if path.stat().st_ino == written:  # read as it was: put the byte back
                with path.open("r+b") as file:
                    file.seek(position)
                    file.write(data[position : position + 1])
            else:  # rebuilt and replaced: the file as first built again
                path.write_bytes(data)
                written = path.stat().st_ino
            assert path.stat().st_size == len(data)


def test_files_for_other_rules_or_versions_are_never_used(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solver.load_table(rules=FREE, start=LATE)
    # a file for other rules put where this rule set's file goes is refused
    os.replace(
        solver.cache_path(rules=FREE, start=LATE), solver.cache_path(rules=FORCED, start=LATE)
    )
    seen: list[tuple[int, int]] = []
    solver.load_table(rules=FORCED, start=LATE, progress=lambda *p: seen.append(p))
    assert seen
    # another library version has another key
    before = solver.cache_path(rules=FORCED, start=LATE)
    monkeypatch.setattr(yahtzee_rules.support._version, "__version__", "999.0")
    assert solver.cache_path(rules=FORCED, start=LATE) != before
    seen.clear()
    solver.load_table(rules=FORCED, start=LATE, progress=lambda *p: seen.append(p))
    assert seen


def test_cache_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("YAHTZEE_RULES_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert solver.cache_dir() == Path("/somewhere/yahtzee_rules")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert solver.cache_dir() == Path.home() / ".cache" / "yahtzee_rules"
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", "/elsewhere")
    assert solver.cache_dir() == Path("/elsewhere")


def test_an_unwritable_cache_only_costs_a_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(blocker / "sub"))
    table = solver.load_table(start=LATE)
    assert table.value(LATE) > 0
    assert solver.load_table(start=LATE, cache=False).value(LATE) == table.value(LATE)


def test_tables_built_in_tests_go_to_the_session_cache_not_the_users(
    session_cache_dir: Path,
) -> None:
    solver.load_table(start=LATE)  # no fixture here: the session's directory applies
    path = solver.cache_path(start=LATE)
    assert path.exists()
    assert path.parent == session_cache_dir
    xdg = os.environ.get("XDG_CACHE_HOME")
    users = (Path(xdg) if xdg else Path.home() / ".cache") / "yahtzee_rules"
    assert users != session_cache_dir
    assert users not in path.parents


SOLVER_CACHE = pytest.importorskip("yahtzee_rules.bots.solver._internal")
PACKAGE = Path(yahtzee_rules.__file__).parent


def _relative(paths: tuple[Path, ...], root: Path = PACKAGE) -> set[str]:
    return {p.relative_to(root).as_posix() for p in paths}


def test_the_cache_key_digests_every_module_the_values_depend_on() -> None:
    digested = _relative(SOLVER_CACHE.source_files())
    solver = PACKAGE / "bots" / "solver"
    solver_modules = {f"bots/solver/{p.name}" for p in solver.glob("*.py")}
    assert solver_modules <= digested
    assert {
        "play/scorecard.py",
        "play/scoring.py",
        "core/rules.py",
        "core/dice.py",
        "core/classic.py",
    } <= digested
    assert {"support/results.py", "support/_version.py", "play/totals.py", "play/turn.py"} <= (
        digested
    )
    # the solver sits below the simulation module and the package root
    assert (
        not {
            "__init__.py",
            "bots/simulation.py",
            "testing/strategies.py",
            "formats/render.py",
        }
        & digested
    )
    assert not {name for name in digested if name.startswith("apps/")}


def test_every_module_the_solver_uses_at_run_time_is_digested() -> None:
    digested = set(SOLVER_CACHE.source_files())
    for module_path in (PACKAGE / "bots" / "solver").glob("*.py"):
        name = "yahtzee_rules.bots.solver" + (
            "" if module_path.stem == "__init__" else "." + module_path.stem
        )
        module = sys.modules[name] if name in sys.modules else __import__(name, fromlist=["_"])
        for value in vars(module).values():
            owner = (
                value
                if isinstance(value, type(sys))
                else sys.modules.get(getattr(value, "__module__", None) or "")
            )
            owner_file = getattr(owner, "__file__", None)
            if owner_file and Path(owner_file).is_relative_to(PACKAGE):
                found = Path(owner_file).resolve()
                if found.suffix in {".so", ".pyd"}:  # a compiled module: its C source
                    found = found.with_name(found.name.split(".")[0] + ".c")
                assert found in digested, (name, owner_file)


def test_editing_or_adding_a_dependency_changes_the_digest(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "yahtzee_rules"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))

    def digest() -> str:
        digest: str = SOLVER_CACHE.digest_files(root, SOLVER_CACHE.source_files(root))
        return digest

    before = digest()
    with (root / "play" / "scorecard.py").open("a") as stream:
        stream.write("# an edit\n")
    assert digest() != before
    # a module imported from a new place is covered as soon as it is imported
    (root / "extra").mkdir()
    (root / "extra" / "__init__.py").write_text("")
    (root / "extra" / "classic.py").write_text("from ..support.errors import RulesError\n")
    assert "extra/classic.py" not in _relative(SOLVER_CACHE.source_files(root), root)
    with (root / "play" / "scoring.py").open("a") as stream:
        stream.write("from yahtzee_rules.extra import classic\n")
    covered = _relative(SOLVER_CACHE.source_files(root), root)
    assert {"extra/__init__.py", "extra/classic.py", "support/errors.py"} <= covered
    assert "__init__.py" not in covered


# --------------------------------------------------------------------------------------
# NumPy stays optional.
# --------------------------------------------------------------------------------------


def test_the_core_imports_without_numpy() -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["numpy"] = None  # any import of numpy now fails
        import yahtzee_rules
        from yahtzee_rules import Category, Turn, chance_of, simulate, GreedyStrategy
        assert "numpy" not in {m for m in sys.modules if sys.modules[m] is not None}
        print(chance_of(Category.YAHTZEE))
        print(simulate(GreedyStrategy(), games=2, seed=1).games)
        try:
            import yahtzee_rules.bots.solver
        except ImportError as error:
            print(error)
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "347897/7558272"
    assert lines[1] == "2"
    assert 'pip install "yahtzee-rules[solver]"' in lines[2]


# --------------------------------------------------------------------------------------
# The batched optimal simulator.
# --------------------------------------------------------------------------------------


def test_optimal_play_averages_the_table_value() -> None:
    table = full_table(FORCED)
    turns: list[tuple[int, int]] = []
    result = solver.simulate_optimal(
        table, games=20_000, seed=2026, progress=lambda *p: turns.append(p)
    )
    assert turns[-1] == (13, 13)
    assert result.games == 20_000
    assert result.players == 1
    assert abs(result.mean - PUBLISHED[FORCED]) < 4 * result.stderr
    assert 55 < result.std < 65
    assert result.minimum >= 0
    assert result.maximum <= 1575
    again = solver.simulate_optimal(table, games=500, seed=2026)
    assert again.scores == solver.simulate_optimal(table, games=500, seed=2026).scores


def test_optimal_play_under_other_rules_averages_their_value() -> None:
    table = full_table(NEITHER)
    result = solver.simulate_optimal(table, games=10_000, seed=5)
    assert abs(result.mean - PUBLISHED[NEITHER]) < 4 * result.stderr


def test_the_public_api_path_plays_the_same_strategy() -> None:
    from yahtzee_rules import OptimalStrategy, simulate

    result = simulate(OptimalStrategy(full_table(FORCED)), games=3, seed=1)
    assert result.games == 3
    assert all(0 <= s <= 1575 for s in result.scores)


def test_batched_simulation_from_a_late_card_matches_the_table() -> None:
    table = solver.build_table(start=LATE)
    result = solver.simulate_optimal(table, games=20_000, seed=3)
    assert abs(result.mean - table.expected_final(LATE)) < 4 * result.stderr
    later = fill(LATE, "66655", Category.SIXES)
    from_later = solver.simulate_optimal(table, games=5_000, seed=3, start=later)
    assert min(from_later.scores) >= totals(later).grand_total
    assert abs(from_later.mean - table.expected_final(later)) < 4 * from_later.stderr


def test_batched_simulation_needs_a_covered_card() -> None:
    with pytest.raises(MalformedInputError, match="covers only cards"):
        solver.simulate_optimal(solver.build_table(start=LATE), games=1, start=Scorecard())
    with pytest.raises(MalformedInputError, match="games -1"):
        solver.simulate_optimal(full_table(FORCED), games=-1)


def test_a_table_keeps_a_private_read_only_copy() -> None:
    raw = solver.build_table(start=LATE).values.copy()
    table = solver.Table(raw, rules=FORCED, start=LATE)
    raw[:] = 0
    assert table.value(LATE) > 0
    assert raw.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        table.values[0] = 1.0
    with pytest.raises(MalformedInputError, match="one per state"):
        solver.Table(raw[:10], rules=FORCED, start=LATE)
    with pytest.raises(MalformedInputError, match="one per state"):
        solver.Table(raw.astype(np.float32), rules=FORCED, start=LATE)


# --------------------------------------------------------------------------------------
# Other cards: Yacht (12 boxes, no bonuses, no Joker) and the layout of their tables.
# --------------------------------------------------------------------------------------

YACHT_EMPTY = Scorecard(card=YACHT)

# Optimal Yacht from the empty card (166.9550677046). Checked three ways when pinned:
# PlainSolver above, run on the whole game from the empty card (about 8 minutes),
# gives 166.9550677046 too; on sub-games from nine cards with 3 to 7 open boxes the
# build (its box-by-box route for Yacht's Four of a Kind, four times the face, and
# its dice-total route for Yacht's Full House) agrees with PlainSolver to 2e-13; and
# 200,000 games of simulate_optimal (seed 11) average 166.9314 +- 0.0783 (SE), 0.3
# standard errors from it.
YACHT_OPTIMUM = 166.9550677


@st.composite
def yacht_cards(draw: st.DrawFn, min_filled: int, max_filled: int) -> Scorecard:
    """Yacht cards reached by filling legal boxes with drawn rolls."""
    card = YACHT_EMPTY
    for _ in range(draw(st.integers(min_filled, max_filled))):
        dice = draw(yst.dice(yahtzee_weight=0.2))
        box = draw(st.sampled_from(tuple(legal_fills(card, dice, rules=YACHT_RULES))))
        card = fill(card, dice, box, rules=YACHT_RULES)
    return card


def test_yacht_optimum_is_pinned() -> None:
    table = full_table(YACHT_RULES)
    assert table.start == YACHT_EMPTY
    assert table.value(YACHT_EMPTY) == pytest.approx(YACHT_OPTIMUM, abs=1e-6)
    assert table.expected_final(YACHT_EMPTY) == table.value(YACHT_EMPTY)


@settings(max_examples=10, deadline=None)
@given(yacht_cards(min_filled=8, max_filled=11))
def test_yacht_tables_agree_with_the_plain_implementation(card: Scorecard) -> None:
    expected = plain(YACHT_RULES).value(card)
    assert full_table(YACHT_RULES).value(card) == pytest.approx(expected, abs=1e-9)
    started = solver.build_table(rules=YACHT_RULES, start=card)
    assert started.value(card) == pytest.approx(expected, abs=1e-9)


CLASSIC_VARIANTS = [
    Rules(upper_bonus=0, yahtzee_bonus=0),  # neither an upper level nor a flag
    Rules(joker=JokerRule.FREE_CHOICE, upper_bonus=0),  # a flag, one upper level
    Rules(joker=JokerRule.NONE, upper_bonus=50, upper_bonus_threshold=20, yahtzee_bonus=0),
]


@pytest.mark.parametrize("rules", CLASSIC_VARIANTS, ids=lambda r: r.name)
def test_classic_variants_agree_with_the_plain_implementation(rules: Rules) -> None:
    card = fill(
        Scorecard(
            {c: 0 for c in Category if c not in (Category.FIVES, Category.YAHTZEE)}
            | {Category.CHANCE: 5}
        ),
        "11111",
        Category.YAHTZEE,
        rules=rules,
    )  # Fives and Chance open, the Yahtzee box holding 50
    card = Scorecard({**card.to_mapping(), Category.CHANCE: None})
    expected = PlainSolver(rules).value(card)
    assert solver.build_table(rules=rules, start=card).value(card) == pytest.approx(
        expected, abs=1e-9
    )


@pytest.mark.parametrize(
    ("rules", "states"),
    [
        (FORCED, 8192 * 64 * 2),
        (NEITHER, 8192 * 64),  # no extra-Yahtzee bonus: no flag
        (Rules(upper_bonus=0), 8192 * 2),  # no upper bonus: one upper level
        (YACHT_RULES, 4096),  # 12 boxes, neither
    ],
    ids=lambda r: getattr(r, "name", ""),
)
def test_the_layout_drops_what_the_rules_never_look_at(rules: Rules, states: int) -> None:
    card = Scorecard({b: min(rules.card.possible[b]) for b in rules.card}, card=rules.card)
    assert solver.build_table(rules=rules, start=card).values.shape == (states,)


def test_yacht_advice_and_best_actions() -> None:
    table = full_table(YACHT_RULES)
    turn = Turn(YACHT_EMPTY, rules=YACHT_RULES).roll(outcome="44445")
    advice = solver.advise(turn, table)
    fills = {o.action for o in advice.options if o.is_fill}
    assert fills == set(YachtBox)
    assert advice.expected_of(YachtBox.FOUR_OF_A_KIND) == pytest.approx(
        16 + table.value(fill(YACHT_EMPTY, "44445", YachtBox.FOUR_OF_A_KIND, rules=YACHT_RULES))
    )
    assert solver.best_action(turn, table) == Keep("4444")
    last = Turn(YACHT_EMPTY, rules=YACHT_RULES, dice=Dice("66666"), rolls_used=3)
    assert solver.best_box(last, table) is YachtBox.YACHT
    assert solver.advise(last, table).best == solver.Option(
        YachtBox.YACHT,
        50 + table.value(fill(YACHT_EMPTY, "66666", YachtBox.YACHT, rules=YACHT_RULES)),
    )
    # averaging the first roll's best options gives back the empty card's value
    total = sum(
        float(p)
        * solver.advise(Turn(YACHT_EMPTY, rules=YACHT_RULES).roll(outcome=d), table).expected
        for d, p in roll_distribution().items()
    )
    assert total == pytest.approx(YACHT_OPTIMUM, abs=1e-6)


def test_a_table_refuses_other_cards_and_rules_naming_both() -> None:
    classic = solver.build_table(start=LATE)
    yacht = full_table(YACHT_RULES)
    yacht_turn = Turn(YACHT_EMPTY, rules=YACHT_RULES).roll(outcome="12345")
    with pytest.raises(MalformedInputError, match=r"table for Rules\(joker=.*yacht"):
        solver.advise(yacht_turn, classic)
    with pytest.raises(
        MalformedInputError,
        match=r"table for Rules\.from_name\(.yacht.\): the turn plays Rules\(joker=JokerRule.FORCED",
    ):
        solver.best_action(Turn(LATE).roll(outcome="12345"), yacht)
    with pytest.raises(
        MalformedInputError, match="a Classic card, but the table is for the rules 'yacht'"
    ):
        yacht.value(LATE)
    with pytest.raises(
        MalformedInputError, match="a Yacht card, but the table is for the rules 'forced'"
    ):
        solver.build_table(rules=Rules(), start=YACHT_EMPTY)
    with pytest.raises(MalformedInputError, match="a Yacht card"):
        solver.cache_path(rules=Rules(), start=YACHT_EMPTY)


def test_yacht_cache_files_are_named_and_kept_apart(cache: Path) -> None:
    path = solver.cache_path(rules=YACHT_RULES)
    assert path.name.startswith("optimal-yacht-")
    assert path != solver.cache_path()
    built = solver.load_table(rules=YACHT_RULES)
    assert path.exists()
    again = solver.load_table(rules=YACHT_RULES, progress=_fail)
    assert again.rules == YACHT_RULES
    assert np.array_equal(again.values, built.values)
    variant = attrs.evolve(YACHT_RULES, upper_bonus=35)
    assert solver.cache_path(rules=variant).name.startswith("optimal-yacht-upper-bonus-35-")


def test_optimal_yacht_play_averages_the_table_value() -> None:
    table = full_table(YACHT_RULES)
    turns: list[tuple[int, int]] = []
    result = solver.simulate_optimal(
        table, games=20_000, seed=2026, progress=lambda *p: turns.append(p)
    )
    assert turns[-1] == (12, 12)
    assert abs(result.mean - YACHT_OPTIMUM) < 3 * result.stderr
    assert result.maximum <= 297  # 5 + 10 + ... + 30, then 28, 24, 30, 30, 30 and 50
    late = fill(
        Scorecard({b: 0 for b in YachtBox if b not in (YachtBox.SIXES, YachtBox.CHOICE)}),
        "66612",
        YachtBox.SIXES,
        rules=YACHT_RULES,
    )
    from_late = solver.simulate_optimal(table, games=5_000, seed=3, start=late)
    assert min(from_late.scores) >= totals(late, rules=YACHT_RULES).grand_total + 5
    assert abs(from_late.mean - table.expected_final(late)) < 4 * from_late.stderr


@pytest.mark.parametrize(
    "card",
    # the third card has floating-point ties: after 34456 (one roll left) a keep and the
    # best fill differ only in the 17th digit; the second, exact ties
    [Scorecard(), LATE, Scorecard.parse("2=4,3=0,5=10,3k=0,4k=0,ls=0,y=0")],
    ids=["empty", "late", "rounding"],
)
def test_best_action_is_the_first_best_in_the_tie_order(card: Scorecard) -> None:
    """The choice kernel's one rule: best_action holds the first best keep (fewest dice,
    then by faces) unless only holding all five is worth the best fill, then fills; the
    box is the first best in card order."""
    table = full_table(FORCED)
    for dice in Dice.all():
        first = Turn(card).roll(outcome=dice.faces)
        for turn in (first, first.roll(keep=dice.faces, outcome=())):
            advice = solver.advise(turn, table)
            fill = max(o.expected for o in advice.options if o.is_fill)
            keeps = [o for o in advice.options if o.is_keep and len(o.action) < 5]
            action = solver.best_action(turn, table)
            if not keeps or max(o.expected for o in keeps) < fill:
                boxes = [o for o in advice.options if o.is_fill and o.expected == fill]
                assert action == min((o.action for o in boxes), key=int), (turn, action)
                continue
            best = max(o.expected for o in keeps)
            order = [o.action for o in keeps if o.expected == best]
            assert action == min(order, key=lambda k: (len(k), k.faces)), (turn, action)


def test_an_exact_tie_holds_the_keep_on_every_path() -> None:
    """Only the small straight open and 11234 showing: holding 1234 and rerolling is worth
    the 30 points of filling now, exactly (35 in all with the 5 in Chance); every path holds 1234 (the tie rule's keep)."""
    card = Scorecard(
        {c: 0 for c in Category if c is not Category.SMALL_STRAIGHT} | {Category.CHANCE: 5}
    )
    table = solver.build_table(start=card)
    turn = Turn(card).roll(outcome="11234")
    advice = solver.advise(turn, table)
    assert advice.expected_of(Keep("1234")) == advice.expected_of(Category.SMALL_STRAIGHT) == 35
    assert solver.best_action(turn, table) == Keep("1234")
    decisions = solver.load_decisions(table, cache=False)
    assert decisions.best_action(turn) == Keep("1234")
    import random

    from yahtzee_rules import OptimalStrategy

    strategy = OptimalStrategy(table)
    assert strategy.choose_keep(turn, random.Random(0)) == Keep("1234")
    # the distribution follows the same play: 35 points, surely
    found = solver.score_distribution(turn, table=table)
    assert (found.minimum, found.maximum) == (35, 35)


# --------------------------------------------------------------------------------------
# Per-turn tables: the build's arithmetic, bit for bit, and a bounded cache.
# --------------------------------------------------------------------------------------


def _kernel_turn_tables(rules: Rules, values: Any, mask: int, u: int, y: int) -> Any:
    """Fills, keep values and best actions of a state, computed with the build's kernels."""
    from yahtzee_rules.bots.solver import _internal

    g = _internal.dice_geometry()
    model = _internal.model_of(rules)
    card = model.card
    points = np.where((model.open_bits(mask) & card.bits) == 0, -1, card.scores)
    points[:6] = model.joker[:, :, mask]
    fills = _internal.fill_values(model, values, mask, u, y, points)[0]
    fills[:6] += model.bonus_due[:, y, None]
    space = _internal.Workspace(1)
    last = np.empty((462, 1))
    last[g.five :, 0] = fills.max(axis=1)
    _internal.average_keeps(last, space)
    first = np.empty((462, 1))
    first[g.five :] = _internal.best_over_subkeeps(last.copy(), space)
    _internal.average_keeps(first, space)
    keeps = (last[:, 0], first[:, 0])
    boxes = [card.members[int(b)] for b in fills.argmax(axis=1)]
    actions: list[list[Any]] = [[boxes[g.dice_pos[i]] for i in range(252)]]
    for keep_values in keeps:
        # the first best sub-keep (fewest dice, then by faces); holding all five is filling
        chosen = g.subkeeps[np.arange(252), keep_values[g.subkeeps].argmax(axis=1)]
        row = []
        for i in range(252):
            position = int(g.dice_pos[i])
            keep = int(chosen[position])
            row.append(boxes[position] if keep >= g.five else g.keeps[keep])
        actions.append(row)
    return fills, keeps, actions


@pytest.mark.parametrize(
    "rules", [FORCED, FREE, NEITHER, YACHT_RULES, *PLACEMENTS], ids=lambda r: r.name
)
def test_per_turn_tables_are_the_builds_arithmetic_bit_for_bit(
    rules: Rules, kernel_path: str
) -> None:
    from yahtzee_rules.bots.solver import _internal

    model = _internal.model_of(rules)
    values = full_table(rules).values
    rng = np.random.default_rng(12)
    for level in range(len(rules.card)):
        states = model.states(level)
        for j in rng.permutation(len(states.masks))[:6]:
            mask, u, y = int(states.masks[j]), int(states.uppers[j]), int(states.flags[j])
            index = int(_internal.flat_index(model, mask, u, y))
            tables = _internal.TurnTables(model, values, mask, u, y, index)
            fills, keeps, actions = _kernel_turn_tables(rules, values, mask, u, y)
            assert np.array_equal(tables.fills(), fills)
            assert all(np.array_equal(a, b) for a, b in zip(tables.keeps, keeps, strict=True))
            assert [[tables.action(r, i) for i in range(252)] for r in range(3)] == actions


def test_the_per_turn_cache_is_bounded_and_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most _TURN_CACHE cards' tables are kept, and a state's tables take under 20 KiB."""
    import gc
    import random
    import tracemalloc

    from yahtzee_rules import GreedyStrategy
    from yahtzee_rules.bots.solver import _table

    table = full_table(FORCED)
    rng, greedy = random.Random(5), GreedyStrategy()
    turns: list[Turn] = []
    while len(turns) < 120:
        card = Scorecard()
        while not card.is_complete:
            turn = Turn(card).roll(rng)
            turns.append(turn)
            card = turn.fill(greedy.choose_box(turn, rng))
    fresh = solver.Table(table.values, rules=FORCED)
    solver.best_action(turns[0], fresh)  # the per-process set-up is not per state
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for turn in turns[1:]:
            solver.best_action(turn, fresh)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown / (len(fresh._states) - 1) < 20 * 1024
    monkeypatch.setattr(_table, "TURN_CACHE", 16)
    small = solver.Table(table.values, rules=FORCED)
    for turn in turns:
        solver.best_action(turn, small)
        assert len(small._turns) <= 16
    gc.collect()
    assert len(small._states) <= 16  # states no card in the cache refers to are gone
    assert solver.best_action(turns[0], small) == solver.best_action(turns[0], fresh)


def test_rules_left_out_are_the_start_cards_usual_rules() -> None:
    from yahtzee_rules import YATZY, YatzyBox
    from yahtzee_rules.bots.solver import build_table, cache_path, target_table

    yatzy = Rules.from_name("yatzy")
    start = Scorecard(dict.fromkeys(list(YatzyBox)[:12], 0), card=YATZY)
    table = build_table(start=start)
    assert table.rules == yatzy
    assert table.value(start) == build_table(rules=yatzy, start=start).value(start)
    assert target_table(start=start, maximum=60, cache=False).rules == yatzy
    assert cache_path(start=start) == cache_path(rules=yatzy, start=start)
    classic = Scorecard({c: 0 for c in Category.lower() if c is not Category.CHANCE})
    assert build_table(start=classic).rules == Rules()
