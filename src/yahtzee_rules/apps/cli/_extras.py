"""The one place where the app meets notation (save, resume, share codes, cards) and the
solver (computer players, coach, simulation, the optimal table).

The rest of the app goes through these functions only. Those that need the solver
raise :class:`AppError` saying what to install when NumPy (the ``solver`` extra) is
missing; random and greedy computer players need nothing more than the library.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from yahtzee_rules.apps.cli.console import AppError
from yahtzee_rules.bots.simulation import (
    GreedyStrategy,
    OptimalStrategy,
    RandomStrategy,
    SimulationResult,
    Strategy,
    simulate,
)
from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.dice import Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.formats.notation import parse_scorecard
from yahtzee_rules.formats.serialization import read_json_text
from yahtzee_rules.play.game import Game
from yahtzee_rules.play.record import GameRecord
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.support._text import quote, show
from yahtzee_rules.support.errors import MalformedInputError, RulesError
from yahtzee_rules.support.l10n import translations

if TYPE_CHECKING:
    from yahtzee_rules.bots.solver import Table, TargetTable

#: ``callback(done, total)``, as :meth:`Progress.update` takes it.
ProgressCallback = Callable[[int, int], None]

BOT_KINDS = ("random", "greedy", "optimal")


@attrs.frozen
class Advice:
    """The coach's view of the current turn: expected final score of each choice.

    Attributes:
        keeps: ``(keep, expected)`` for each distinct hold, best first; empty with no
            rolls left.
        boxes: ``(box, expected)`` for each legal box, best first.
        win: With opponents, late in the game: the chance of winning when playing to
            win, and the choice that plays for it.
        win_note: With opponents, earlier: why the chance of winning is not shown.
        note: Where the values come from when they are not the optimum's (Triple
            Yahtzee: the column strategy's approximation, with its choice in words).
    """

    keeps: tuple[tuple[Keep, float], ...]
    boxes: tuple[tuple[Box, float], ...]
    win: tuple[float, Keep | Box] | None = None
    win_note: str | None = None
    note: str | None = None


#: The coach gives the chance of winning once every card has this many boxes open or fewer:
#: earlier, the tables it needs take minutes to build.
WIN_OPEN_BOXES = 3
#: The most points still needed that the coach's chance of winning looks at.
WIN_MOST_NEEDED = 150


#: The ``format`` field of a save file.
SAVE_FORMAT = "yahtzee-rules saved game"
#: The save-file version this app writes and reads.
SAVE_VERSION = 1
#: Save files larger than this are refused unread.
MAX_SAVE_BYTES = 1 << 20


def save_game(path: str, record: GameRecord, bots: Mapping[str, str]) -> None:
    """Write the game (its whole record, and which players are computer players) to ``path``.

    The file is JSON: ``format``, ``version``, ``computer_players`` (name to kind) and
    ``record``, the game record in the library's text notation (every roll with its
    dice, every fill), which any program using the library can replay. It is written
    to a temporary file first and then renamed, so a failed save never damages an
    earlier one. A leading ``~`` is the home folder, as in the shell.
    """
    document = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "computer_players": dict(sorted(bots.items())),
        "record": str(record),
    }
    target = Path(path).expanduser()
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise AppError(
            f"save {path!r}: cannot write it ({error.strerror or error}); "
            f"give a path in a folder you can write to"
        ) from None


def file_exists(path: str) -> bool:
    """Whether ``path`` (``~`` is the home folder) names an existing file or folder."""
    return Path(path).expanduser().exists()


def _read_regular(path: str) -> bytes:
    """The first ``MAX_SAVE_BYTES + 1`` bytes of the regular file ``path``: a FIFO,
    device or folder is refused rather than waited on or read without end."""
    shown = quote(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(os.path.expanduser(path), flags)
    except OSError as error:
        raise AppError(
            f"load {shown}: cannot read it ({error.strerror or error}); "
            f"give a file written by the 'save FILE' command"
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise AppError(
                f"load {shown}: not a regular file (a pipe, device or folder); "
                f"give a file written by the 'save FILE' command"
            )
        with os.fdopen(handle, "rb", closefd=False) as stream:
            return stream.read(MAX_SAVE_BYTES + 1)
    except OSError as error:
        raise AppError(
            f"load {shown}: cannot read it ({error.strerror or error}); "
            f"give a file written by the 'save FILE' command"
        ) from None
    finally:
        os.close(handle)


def load_game(path: str) -> tuple[GameRecord, dict[str, str]]:
    """Read a game saved by ``save_game`` (``~`` is the home folder): its record and its
    computer players.

    Only a regular file is read, of at most ``MAX_SAVE_BYTES``; its JSON is read as
    :func:`~yahtzee_rules.from_json` reads JSON (no key twice in one object...), and a
    bad field is quoted by a bounded prefix.
    """
    raw = _read_regular(path)
    shown = quote(path)
    if len(raw) > MAX_SAVE_BYTES:
        raise AppError(f"load {shown}: larger than {MAX_SAVE_BYTES} bytes; not a saved game")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise AppError(
            f"load {shown}: not UTF-8 text; give a file written by 'save FILE'"
        ) from None
    try:
        document = read_json_text(text, "save file")
    except MalformedInputError as error:
        raise AppError(f"load {shown}: {error}; give a file written by 'save FILE'") from None
    if (
        not isinstance(document, dict)
        or document.get("format") != SAVE_FORMAT
        or set(document) != {"format", "version", "computer_players", "record"}
    ):
        raise AppError(
            f"load {shown}: not a saved game (it needs the fields format "
            f"{SAVE_FORMAT!r}, version, computer_players and record)"
        )
    if document["version"] != SAVE_VERSION:
        raise AppError(
            f"load {shown}: save-file version {show(document['version'], 60)}; "
            f"this version reads version {SAVE_VERSION}"
        )
    if not isinstance(document["record"], str):
        raise AppError(f"load {shown}: its record is not text in the game notation")
    try:
        record = GameRecord.parse(document["record"])
    except RulesError as error:
        raise AppError(f"load {shown}: {error}") from None
    bots = document["computer_players"]
    if not isinstance(bots, dict) or not all(
        isinstance(name, str) and name in record.start.players and kind in BOT_KINDS
        for name, kind in bots.items()
    ):
        raise AppError(
            f"load {shown}: computer_players {show(bots, 60)} must map players of the game "
            f"to one of {', '.join(BOT_KINDS)}"
        )
    return record, dict(bots)


def game_from_code(code: str) -> GameRecord:
    """The game record a share code stands for."""
    return GameRecord.from_share_code(code.strip())


#: Image formats ``write_qr`` writes, by file suffix.
QR_SUFFIXES = (".svg", ".png")


def _segno() -> Any:
    try:
        import segno
    except ImportError:
        return None
    return segno


#: Modules of light margin (quiet zone) drawn around a QR code in a terminal: half the
#: standard four, which readers take, so that more of a game fits in a terminal's lines.
QR_TERMINAL_BORDER = 2

#: Backgrounds a terminal QR code is drawn for (``code --light``, ``code --dark``).
QR_BACKGROUNDS = ("dark", "light")

#: Two modules one above the other, each drawn (in the terminal's text colour) or not,
#: as one half-block character.
_HALF_BLOCKS = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584"}


def terminal_background(environ: Mapping[str, str] = os.environ) -> str:
    """The terminal's background, ``"light"`` or ``"dark"``, as ``COLORFGBG`` tells it
    (``foreground;background`` colour numbers, which some terminals set); dark when
    it does not say, as most terminals are.

    Examples:
        >>> terminal_background({"COLORFGBG": "0;15"}), terminal_background({})
        ('light', 'dark')
    """
    background = environ.get("COLORFGBG", "").rpartition(";")[2]
    light = background.isascii() and background.isdigit() and int(background) in (7, *range(9, 16))
    return "light" if light else "dark"


def qr_lines(code: str, *, background: str = "dark") -> list[str] | None:
    """The share code as a QR code in half-block characters, two rows of modules a line.

    A terminal draws its characters in a text colour on a background colour, so the
    modules of the background's own shade are left blank and the others drawn: on a dark
    background the light modules and the light margin round the code, on a light one
    the dark modules (the margin is the background itself). The code has the lowest
    error correction level, L (raised where it costs no size), the smallest code for the
    text: version 6, 23 lines with its margin, holds a share code of up to 134
    characters. ``None`` without ``segno``; no lines for a code longer than the largest
    QR code holds.

    Examples:
        >>> lines = qr_lines("y1AAIAA0FubgNCb2JMC-O6bw")
        >>> len(lines), len(lines[0])  # version 2: 25 modules and a margin of 2 each side
        (15, 29)
        >>> qr_lines("y1" + "A" * 3_000)
        []
    """
    segno = _segno()
    if segno is None:
        return None
    try:
        qr = segno.make(code, error="l", micro=False)
    except segno.DataOverflowError:
        return []
    light = background == "light"
    rows = [
        [bool(module) == light for module in row]  # drawn: the modules unlike the background
        for row in qr.matrix_iter(scale=1, border=QR_TERMINAL_BORDER)
    ]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))  # the terminal's own background
    return [
        "".join(_HALF_BLOCKS.get(pair, " ") for pair in zip(top, bottom, strict=True)).rstrip()
        for top, bottom in zip(rows[::2], rows[1::2], strict=True)
    ]


def write_qr(code: str, path: str) -> str:
    """Write the share code as a QR code image (SVG or PNG, by suffix); return the path."""
    target = Path(path).expanduser()
    if target.suffix.lower() not in QR_SUFFIXES:
        raise AppError(
            f"code --qr {path!r}: the image is written as SVG or PNG; give a file name "
            f"ending in .svg or .png"
        )
    segno = _segno()
    if segno is None:
        raise AppError(
            "code --qr: QR codes need segno, which is not installed; install it with "
            'pip install "yahtzee-rules[qr]"'
        )
    try:
        qr = segno.make(code, error="m")
    except segno.DataOverflowError:
        raise AppError(
            f"code --qr {path!r}: the share code's {len(code)} characters are more than "
            f"the largest QR code holds; copy the code's text instead"
        ) from None
    try:
        qr.save(str(target), scale=8)
    except OSError as error:
        raise AppError(
            f"code --qr {path!r}: cannot write it ({error.strerror or error}); "
            f"give a path in a folder you can write to"
        ) from None
    return str(target)


def parse_card(text: str) -> Scorecard:
    """A scorecard in the text notation, such as ``y=50,4=12`` (``-`` for an empty card)."""
    return parse_scorecard(text)


# --- strategies and the solver --------------------------------------------------------------

_TABLES: dict[Rules, Table] = {}
_TARGETS: dict[tuple[Rules, Scorecard], TargetTable] = {}


@contextlib.contextmanager
def _needs_numpy() -> Iterator[None]:
    """Turn the solver's import error (no NumPy) into a message saying what to install."""
    try:
        yield
    except ImportError:
        raise AppError(
            "the optimal solver needs NumPy, which is not installed; install it with "
            'pip install "yahtzee-rules[solver]"'
        ) from None


def require_solver() -> None:
    """Raise ``AppError`` saying what to install unless the solver can be imported."""
    with _needs_numpy():
        import yahtzee_rules.bots.solver  # noqa: F401


def can_review(rules: Rules) -> bool:
    """Whether a game of ``rules`` can be reviewed: the solver is installed and solves
    them, or they are Triple Yahtzee's (reviewed against TripleStrategy's values)."""
    try:
        from yahtzee_rules.bots.solver import column_rules
        from yahtzee_rules.bots.solver._internal import check_solvable
    except ImportError:
        return False
    try:
        if by_columns(rules):
            column_rules(rules)
        else:
            check_solvable(rules)
    except RulesError:
        return False
    return True


def by_columns(rules: Rules) -> bool:
    """Whether ``rules`` are played by their columns' Classic table (Triple Yahtzee): the
    optimal computer player and the coach then play
    :class:`~yahtzee_rules.bots.solver.TripleStrategy`, no table reaching the card."""
    return len(rules.card.columns) > 1


def table_rules(rules: Rules) -> Rules:
    """The rules whose table the optimal player and the coach of ``rules`` read: their
    own, or for Triple Yahtzee the Classic rules of its columns."""
    if not by_columns(rules):
        return rules
    with _needs_numpy():
        from yahtzee_rules.bots.solver import column_rules
    return column_rules(rules)


def table_is_ready(rules: Rules) -> bool:
    """Whether the optimal table for ``rules`` is at hand without building it."""
    if rules in _TABLES:
        return True
    with _needs_numpy():
        from yahtzee_rules.bots.solver import cached_table
    table = cached_table(rules=rules)
    if table is not None:
        _TABLES[rules] = table
    return table is not None


def optimal_table(rules: Rules, progress: ProgressCallback | None = None) -> Table:
    """The optimal table for ``rules``: from memory, the cache, or built (a few seconds)."""
    table = _TABLES.get(rules)
    if table is None:
        with _needs_numpy():
            from yahtzee_rules.bots.solver import load_table
        table = load_table(rules=rules, progress=progress)
        _TABLES[rules] = table
    return table


def make_bot(kind: str, rules: Rules) -> Strategy:
    """A computer player of ``kind``: random, greedy or optimal (which needs the solver;
    on Triple Yahtzee it plays :class:`~yahtzee_rules.bots.solver.TripleStrategy`)."""
    if kind == "random":
        return RandomStrategy()
    if kind == "greedy":
        return GreedyStrategy()
    if kind == "optimal":
        if by_columns(rules):
            with _needs_numpy():
                from yahtzee_rules.bots.solver import TripleStrategy
            return TripleStrategy(optimal_table(table_rules(rules)), rules=rules)
        return OptimalStrategy(optimal_table(rules))
    raise AppError(f"computer player {kind!r}: no such kind; use random, greedy or optimal")


def _column_advice(game: Game, locale: str | None = None) -> Advice:
    """The coach's advice on Triple Yahtzee: :class:`~yahtzee_rules.bots.solver.TripleStrategy`'s
    values, an approximation, and its choice in words (the strategy's own, in English)."""
    turn = game.turn
    assert turn is not None
    with _needs_numpy():
        from yahtzee_rules.bots.solver import TripleStrategy
    strategy = TripleStrategy(optimal_table(table_rules(game.rules)), rules=game.rules)
    advice = strategy.advise(turn)
    keeps = tuple((o.action, o.expected) for o in advice.options if isinstance(o.action, Keep))
    boxes = tuple((o.action, o.expected) for o in advice.options if isinstance(o.action, Box))
    win_note = None
    if len(game.players) > 1:
        win_note = translations(locale).pgettext(
            "play", "Chance of winning: not worked out on this card (no table reaches it)."
        )
    return Advice(
        keeps, boxes, win_note=win_note, note=f"Triple Yahtzee strategy: {strategy.explain(turn)}."
    )


def advise(game: Game, locale: str | None = None) -> Advice:
    """The coach's advice for the current turn, from the optimal solitaire table; its
    notes in ``locale``'s language."""
    turn = game.turn
    if turn is None or turn.dice is None:
        raise AppError("coach: no dice to advise on yet; roll first")
    if by_columns(game.rules):
        return _column_advice(game, locale)
    with _needs_numpy():
        from yahtzee_rules.bots.solver import advise as solver_advice
    table = optimal_table(game.rules)
    advice = solver_advice(turn, table)
    keeps = tuple((o.action, o.expected) for o in advice.options if isinstance(o.action, Keep))
    boxes = tuple((o.action, o.expected) for o in advice.options if isinstance(o.action, Box))
    if len(game.players) < 2:
        return Advice(keeps, boxes)
    if max(len(card.open_categories) for card in game.cards) > WIN_OPEN_BOXES:
        note = translations(locale).pgettext(
            "play",
            "Chance of winning: shown once every player has {boxes} boxes or fewer open "
            "(before that, its tables take minutes to build).",
        )
        note = note.format(boxes=WIN_OPEN_BOXES)
        return Advice(keeps, boxes, win_note=note)
    with _needs_numpy():
        from yahtzee_rules.bots.solver import target_table
    key = (game.rules, turn.card)
    targets = _TARGETS.get(key)
    if targets is None:
        if len(_TARGETS) >= 16:
            _TARGETS.clear()
        targets = _TARGETS[key] = target_table(
            rules=game.rules, start=turn.card, maximum=WIN_MOST_NEEDED, cache=False
        )
    best = solver_advice(turn, table, targets=targets, game=game).most_likely
    assert best.chance is not None
    return Advice(keeps, boxes, win=(best.chance, best.action))


def simulate_games(
    strategy: str,
    *,
    games: int,
    seed: int,
    players: int,
    rules: Rules,
    progress: ProgressCallback,
) -> SimulationResult:
    """Play ``games`` seeded games of ``strategy`` at every seat.

    Optimal solitaire games are played by the solver's batched simulator
    (:func:`yahtzee_rules.bots.solver.simulate_optimal`). Every other run is
    :func:`yahtzee_rules.simulate`, which reports progress after each game.
    """
    if strategy == "optimal" and players == 1 and not by_columns(rules):
        with _needs_numpy():
            from yahtzee_rules.bots.solver import simulate_optimal
        return simulate_optimal(
            optimal_table(rules),
            games=games,
            seed=seed,
            progress=lambda done, total: progress(games * done // max(1, total), games),
        )
    return simulate(
        make_bot(strategy, rules),
        games=games,
        seed=seed,
        players=players,
        rules=rules,
        progress=progress,
    )


def solve_table(rules: Rules, progress: ProgressCallback) -> tuple[str, float]:
    """Build (or load) the optimal table; return where it is cached and the expected final
    score from the empty card under optimal play."""
    table = optimal_table(rules, progress)
    with _needs_numpy():
        from yahtzee_rules.bots.solver import cache_path
    return str(cache_path(rules=rules)), table.expected_final(Scorecard(card=rules.card))


def final_distribution(
    rules: Rules, card: Scorecard, progress: ProgressCallback | None = None
) -> tuple[float, float, int, tuple[tuple[int, int], ...]]:
    """The final score under optimal-expectation play from ``card``: mean, standard
    deviation, median and ``(percent, total)`` for the percentiles of :data:`PERCENTILES`."""
    with _needs_numpy():
        from yahtzee_rules.bots.solver import score_distribution
    table = optimal_table(rules)
    found = score_distribution(card, rules=rules, table=table, progress=progress)
    rows = tuple((q, found.percentile(q)) for q in PERCENTILES)
    return found.mean, found.std, found.median, rows


#: The percentiles ``distribution`` prints.
PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


def most_final_total(rules: Rules, card: Scorecard) -> int:
    """The most a game from ``card`` can end with under ``rules`` (no table needed)."""
    with _needs_numpy():
        from yahtzee_rules.bots.solver._internal import check_solvable, most_final_total
    return most_final_total(check_solvable(rules), card)


def target_chances(
    rules: Rules,
    card: Scorecard,
    target: int,
    progress: ProgressCallback | None = None,
    expectation_progress: ProgressCallback | None = None,
) -> tuple[float, float]:
    """The best chance of a final total of ``target`` or more from ``card``, and the chance
    optimal-expectation play has of it."""
    with _needs_numpy():
        from yahtzee_rules.bots.solver import score_distribution, target_table
    from yahtzee_rules.play.totals import totals

    need = max(target - totals(card, rules=rules).grand_total, 0)
    table = target_table(rules=rules, maximum=need, start=card, progress=progress)
    best = table.probability(card, target)
    expectation = score_distribution(
        card, rules=rules, table=optimal_table(rules), progress=expectation_progress
    ).p_at_least(target)
    return best, expectation
