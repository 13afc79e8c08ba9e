"""``to_json``'s indent: ``None`` or an int from 0 to ``MAX_JSON_INDENT``, else a clear
error (it raised ``MemoryError`` for ``10**9`` and ``TypeError`` for ``2.5``)."""

from __future__ import annotations

import pytest

from yahtzee_rules import Game, MalformedInputError, from_json, to_json
from yahtzee_rules.formats.serialization import MAX_JSON_INDENT

GAME = Game.new(["Ann", "Bob"]).roll(outcome="12345")


@pytest.mark.parametrize("indent", [None, *range(MAX_JSON_INDENT + 1)])
def test_every_indent_allowed_reads_back(indent: int | None) -> None:
    assert from_json(to_json(GAME, indent=indent), Game) == GAME


@pytest.mark.parametrize(
    "indent",
    [10**9, MAX_JSON_INDENT + 1, -1, 2.5, True, "  ", "\t", 10**100],
    ids=repr,
)
def test_another_indent_is_refused_with_the_bound(indent: object) -> None:
    with pytest.raises(
        MalformedInputError, match=rf"^indent .*: not None or an int from 0 to {MAX_JSON_INDENT}"
    ):
        to_json(GAME, indent=indent)  # type: ignore[arg-type]
