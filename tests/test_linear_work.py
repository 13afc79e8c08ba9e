"""Work that grows no faster than the input: every reader's work is linear in its input,
and so is playing a match step by step.

The work is counted, not timed, so the tests are deterministic: the cards copied into
games while a record replays, the name comparisons of the duplicate check, and the
Python and C function calls a reader makes on hostile input of growing size, the games a
match checks as it is played. Each test
compares the work for an input four times larger, so linear work grows about four times
and quadratic work sixteen.
"""

from __future__ import annotations

import base64
import itertools
import sys
import zlib
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from yahtzee_rules import (
    Game,
    GameRecord,
    MalformedInputError,
    Roll,
    Rules,
    Scorecard,
    from_dict,
    from_json,
    to_dict,
    to_json,
)
from yahtzee_rules.play import game as _game

SMALL, LARGE = 10, 40  # players: both within MAX_PLAYERS


def full_record(players: int) -> GameRecord:
    record = GameRecord.new(players)
    while not record.game.is_over:
        record = record.roll(outcome="66666")
        record = record.fill(next(iter(record.game.options)))
    return record


class CardSlots:
    """Counts the cards put into every game built without validation (every roll and fill)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = _game._raw_game

        def counting(players: Any, rules: Any, cards: Any, *rest: Any) -> Game:
            self.count += len(cards)
            return original(players, rules, cards, *rest)

        monkeypatch.setattr(_game, "_raw_game", counting)

    def of(self, work: Callable[[], object]) -> int:
        self.count = 0
        work()
        return self.count


RECORD_WORK: dict[str, Callable[[GameRecord], Callable[[], object]]] = {
    "GameRecord.parse": lambda r: lambda: GameRecord.parse(str(r)),
    "from_json": lambda r: lambda: from_json(to_json(r), GameRecord),
    "from_dict": lambda r: lambda: from_dict(to_dict(r), GameRecord),
    "from_share_code": lambda r: lambda: GameRecord.from_share_code(r.share_code()),
    "share_code": lambda r: r.share_code,
    "GameRecord(...)": lambda r: lambda: GameRecord(r.start, r.actions),
    "game_at": lambda r: lambda: r.game_at(len(r.actions) - 1),
    "undo": lambda r: lambda: r.undo(),
}


@pytest.mark.parametrize("name", sorted(RECORD_WORK))
def test_replaying_a_record_copies_the_cards_once_not_per_action(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    small, large = full_record(SMALL), full_record(LARGE)
    slots = CardSlots(monkeypatch)
    work_small = slots.of(RECORD_WORK[name](small))
    work_large = slots.of(RECORD_WORK[name](large))
    # Copying every card per action would grow 16-fold; once per replay grows 4-fold.
    assert work_large <= 5 * max(work_small, 1), (work_small, work_large)


class CountingName(str):
    """A player name that counts how often it is compared."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountingName.comparisons += 1
        return str.__eq__(self, other)

    def __hash__(self) -> int:
        CountingName.comparisons += 1
        return str.__hash__(self)


def comparisons_for(count: int) -> int:
    names = [CountingName(f"P{i}") for i in range(count - 1)] + [CountingName("P0")]
    CountingName.comparisons = 0
    with pytest.raises(MalformedInputError, match="'P0' appears twice"):
        Game.new(names)
    return CountingName.comparisons


def test_repeated_names_are_found_in_one_pass() -> None:
    small, large = comparisons_for(SMALL), comparisons_for(LARGE)
    assert large <= 5 * small, (small, large)


def test_an_endless_iterator_of_actions_or_players_is_refused_at_once() -> None:
    with pytest.raises(MalformedInputError, match="no game of at most 50 players"):
        GameRecord(Game.new(1), itertools.repeat(Roll("12345")))
    with pytest.raises(MalformedInputError, match="more than the limit of 50 players"):
        Game.new(f"P{i}" for i in itertools.count())  # type: ignore[arg-type]


# --- every text reader on hostile input of growing size ---------------------------------


def _share_code(players: int, pairs: int) -> str:
    data = bytearray([0b1000])  # forced Joker, default names, a new game
    for value in (players, 0):
        while value > 0x7F:
            data.append(value & 0x7F | 0x80)
            value >>= 7
        data.append(value)
    data += bytes([0, 32 + 12]) * pairs  # roll 11111, fill Chance
    data += zlib.crc32(data).to_bytes(4, "big")
    return "y1" + base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")


def _names(count: int) -> str:
    return ",".join(f"P{i}" for i in range(count))


HOSTILE: dict[str, tuple[Callable[[Any], object], Callable[[int], object]]] = {
    "Game.parse, repeated names": (Game.parse, lambda n: "forced 0 " + ",".join(["A"] * n)),
    "Game.parse, many names": (Game.parse, lambda n: "forced 0 " + _names(n)),
    "Game.parse, many cards": (
        Game.parse,
        lambda n: f"forced 0 {_names(n)} {'/'.join(['c=5'] * n)} -",
    ),
    "GameRecord.parse, many actions": (
        GameRecord.parse,
        lambda n: "forced 0 Ann,Bob : " + " ".join(["11111 c"] * n),
    ),
    "GameRecord.parse, many names and actions": (
        GameRecord.parse,
        lambda n: f"forced 0 {_names(n)} : " + " ".join(["11111 c"] * n),
    ),
    "from_share_code, many players and fills": (
        GameRecord.from_share_code,
        lambda n: _share_code(n, n),
    ),
    "from_share_code, many fills": (GameRecord.from_share_code, lambda n: _share_code(2, n)),
    "Scorecard.parse, many boxes": (Scorecard.parse, lambda n: ",".join(["c=5"] * n)),
    "Rules.parse, many fields": (Rules.parse, lambda n: "forced" + ",ub=35" * n),
    "from_json, many players": (
        lambda t: from_json(t, Game),
        lambda n: to_json(Game.new(1)).replace('["Player 1"]', repr([f"P{i}" for i in range(n)])),
    ),
    "from_json, many actions": (
        lambda t: from_json(t, GameRecord),
        lambda n: to_json(GameRecord.new(2)).replace(
            '"actions":[]',
            '"actions":[' + ",".join(['{"type":"roll","keep":[],"outcome":[1,1,1,1,1]}'] * n) + "]",
        ),
    ),
}


def calls_made(work: Callable[[], object]) -> int:
    """Every Python and C function call ``work`` makes, counted by a profiler."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    except MalformedInputError:
        pass
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_reader_does_work_linear_in_its_input(name: str) -> None:
    reader, make = HOSTILE[name]
    small_input, large_input = make(2_000), make(8_000)
    small = calls_made(lambda: reader(small_input))
    large = calls_made(lambda: reader(large_input))
    assert large <= 5 * small + 100, (small, large)


# --- matches ---------------------------------------------------------------------------------


class MatchChecks:
    """Counts the per-game work a match does: each game's result counted (``_credit``)
    and each game's start checked (``is_new``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from yahtzee_rules.play import match as _match

        self.count = 0
        credit, new = _match._credit, _game.is_new

        def counting_credit(*args: Any) -> Any:
            self.count += 1
            return credit(*args)

        def counting_new(*args: Any) -> Any:
            self.count += 1
            return new(*args)

        monkeypatch.setattr(_match, "_credit", counting_credit)
        monkeypatch.setattr(_match, "is_new", counting_new)

    def of(self, games: int) -> int:
        """The work of playing ``games`` games of a match step by step (every roll and fill)."""
        from yahtzee_rules import Match

        self.count = 0
        match = Match.new(["Ann", "Bob"], best_of=99)
        for number in range(games):
            if number:
                match = match.next_game()
            while match.current is not None:
                rolled = match.roll(outcome="66666")
                assert rolled.current is not None
                match = rolled.fill(next(iter(rolled.current.game.options)))
        assert len(match.records) == games  # every game tied and shared: none decides
        return self.count


def test_playing_a_match_step_by_step_checks_each_game_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checks = MatchChecks(monkeypatch)
    small, large = checks.of(SMALL), checks.of(LARGE)
    # Counting every finished game at every step grows 16-fold; each game once, 4-fold.
    assert large <= 5 * small, (small, large)
