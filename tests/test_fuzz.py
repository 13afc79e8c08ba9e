"""CI's short, derandomised run of ``scripts/fuzz.py``: a fixed seed and a fixed count.

The longer documented run (``python scripts/fuzz.py --seconds 300 --seed 1``) and what
it found are on the errors page of the docs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

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


def test_the_fuzz_script_reports_and_exits_zero(capsys: object) -> None:
    assert _fuzz().main(["--inputs", "30", "--seed", "2"]) == 0
