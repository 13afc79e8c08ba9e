"""Every bound is checked before anything of that size is made.

A refused argument costs as little as an accepted small one: ``tracemalloc`` measures
the peak memory of each refusal (and of starting a run of any length), which must
stay under a megabyte however far beyond the bound the argument lies.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from yahtzee_rules import (
    Game,
    GameRecord,
    GreedyStrategy,
    MalformedInputError,
    Match,
    RandomStrategy,
    roll_off,
    simulate,
)
from yahtzee_rules.bots.arena import tournament
from yahtzee_rules.support._chunks import spans

SMALL = 1_000_000  # bytes: a refusal allocates no more than this


def _peak(call: Callable[[], Any]) -> int:
    """The peak memory, in bytes, that ``call`` allocates (it must raise MalformedInputError)."""
    tracemalloc.start()
    try:
        with pytest.raises(MalformedInputError):
            call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _cases() -> list[tuple[str, Callable[[], Any]]]:
    greedy = GreedyStrategy()
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("Game.new", lambda: Game.new(10**9)),
        ("GameRecord.new", lambda: GameRecord.new(10**9)),
        ("Match.new", lambda: Match.new(10**9)),
        ("Match best of", lambda: Match.new(2, best_of=10**9 + 1)),
        ("roll_off", lambda: roll_off(10**9)),
        ("simulate players", lambda: simulate(greedy, players=10**9, games=1)),
        ("simulate strategies", lambda: simulate(range(10**9), games=1)),  # type: ignore[arg-type]
        ("tournament seats", lambda: tournament([greedy] * 60, seats=55, deals=1)),
        ("tournament groups", lambda: tournament([greedy] * 40, seats=20, deals=1)),
        ("tournament pairs", lambda: tournament([greedy] * 2000, deals=1)),
    ]
    np = pytest.importorskip("numpy")
    del np
    try:
        from yahtzee_rules.integrations.zoo import GameEnv
    except ImportError:  # pragma: no cover - the rl extra is not installed
        return cases
    cases.append(("GameEnv", lambda: GameEnv(players=1000)))
    cases.append(("GameEnv huge", lambda: GameEnv(players=10**6)))
    return cases


@pytest.mark.parametrize(("what", "call"), _cases(), ids=[what for what, _ in _cases()])
def test_refusing_an_argument_beyond_its_bound_costs_little_memory(
    what: str, call: Callable[[], Any]
) -> None:
    assert _peak(call) < SMALL, what


def test_a_run_of_any_length_costs_nothing_before_it_plays() -> None:
    # The chunks of a run are worked out as they are played, not listed up front.
    tracemalloc.start()
    try:
        chunks = spans(10**15, 1000)
        assert len(chunks) == 10**12
        assert chunks[10**12 - 1] == (10**12 - 1, 1000)
        assert next(iter(chunks)) == (0, 1000)
        assert tracemalloc.get_traced_memory()[1] < SMALL
    finally:
        tracemalloc.stop()
    assert list(spans(2500, 1000)) == [(0, 1000), (1, 1000), (2, 500)]
    assert spans(2500, 1000)[-1] == (2, 500)
    assert list(spans(0, 1000)) == []
    assert simulate(RandomStrategy(), games=3, seed=1).games == 3
