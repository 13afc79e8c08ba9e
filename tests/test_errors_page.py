"""The errors page's Bounds section lists every bound of ``support._limits``, one row each,
sorted by constant (so that bounds added in parallel merge without touching each other)."""

from __future__ import annotations

import re
from pathlib import Path

from yahtzee_rules.support import _limits

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "errors.md"


def _bounds_rows() -> list[list[str]]:
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("\n## Bounds\n") :]
    section = section[: section.index("\n## ", 1) if "\n## " in section[1:] else None]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| Constant |")
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]


def _bounds() -> dict[str, int]:
    return {
        name: value
        for name, value in vars(_limits).items()
        if re.fullmatch(r"MAX_[A-Z_]+", name) and isinstance(value, int)
    }


def test_every_bound_of_the_limits_module_has_its_row() -> None:
    marked = {
        match[1]
        for cells in _bounds_rows()
        if (match := re.fullmatch(r"`([A-Z_]+)` \(limits\)", cells[0]))
    }
    assert marked == set(_bounds())


def test_the_rows_are_sorted_by_constant() -> None:
    names = [cells[0].split("`")[1] for cells in _bounds_rows() if cells[0]]
    assert names == sorted(names)
    named = [bool(cells[0]) for cells in _bounds_rows()]
    assert named == sorted(named, reverse=True)  # the bounds without a constant last
