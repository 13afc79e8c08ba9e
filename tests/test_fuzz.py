"""CI's short, derandomised run of ``scripts/fuzz.py``: a fixed seed and a fixed count.

The longer documented run (``python scripts/fuzz.py --seconds 300 --seed 1``) and what
it found are on the errors page of the docs.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from yahtzee_rules import GameRecord, MalformedInputError, from_dict, to_dict

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fuzz.py"


def _fuzz() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz"] = module  # dataclasses look their module up by name
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["fuzz"]
    return module


def test_a_short_fuzz_run_finds_nothing() -> None:
    report = _fuzz().run(0, inputs=600)
    assert report.findings == []
    readers = set(report.accepted) | set(report.refused)
    for family in ("from_notation[", "from_json[", "from_dict[", "from_share_code", "play --load"):
        assert any(name.startswith(family) for name in readers), family
    assert sum(report.accepted.values()) > 0


def test_the_environments_are_fuzzed_with_hostile_actions() -> None:
    pytest.importorskip("gymnasium", reason="Gymnasium is not installed (the rl extra)")
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (the rl extra)")
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (the openspiel extra)")
    report = _fuzz().run(5, inputs=600)
    assert report.findings == []
    for reader in ("SolitaireEnv.step", "GameEnv.step", "OpenSpiel apply_action"):
        assert report.refused[reader] > 0, reader  # hostile actions, each refused


def test_the_web_table_is_fuzzed_with_hostile_requests() -> None:
    pytest.importorskip("starlette", reason="Starlette is not installed (the web extra)")
    report = _fuzz().run(7, inputs=600)
    assert report.findings == []
    web = [
        reader for reader in set(report.accepted) | set(report.refused) if reader.startswith("web ")
    ]
    assert len(web) >= 4, web  # several routes
    assert sum(report.refused[reader] for reader in web) > 0  # hostile requests, refused


def test_the_fuzz_script_reports_and_exits_zero(capsys: object) -> None:
    assert _fuzz().main(["--inputs", "30", "--seed", "2"]) == 0


def _int_paths(data: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if type(data) is int:
        return [prefix]
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    return [path for key, value in items for path in _int_paths(value, (*prefix, key))]


def test_an_int_too_long_to_print_in_any_field_of_a_document_is_refused() -> None:
    # Found by the five-minute run: from_dict printed an out-of-range int in its message.
    record = GameRecord.new(["Ann", "Bob"]).roll(outcome="12345").roll(keep="1", outcome="6666")
    values = (record, record.game, record.game.turn, record.game.rules, record.game.cards[0])
    for value in values:
        document = to_dict(value)
        for path in _int_paths(document):
            edited = copy.deepcopy(document)
            parent: Any = edited
            for step in path[:-1]:
                parent = parent[step]
            for huge in (10**5000, -(10**5000)):
                parent[path[-1]] = huge
                with pytest.raises(MalformedInputError):
                    from_dict(edited, type(value))
