"""Figures written into a docs page, between a pair of markers the page holds."""

from __future__ import annotations

from pathlib import Path


def write_figures(page: Path, lines: list[str], name: str = "figures") -> None:
    """Replace what lies between ``<!-- {name}: begin -->`` and its end marker with ``lines``."""
    begin, end = f"<!-- {name}: begin -->", f"<!-- {name}: end -->"
    text = page.read_text(encoding="utf-8")
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    body = "\n".join(lines)
    page.write_text(f"{head}{begin}\n{body}\n{end}{tail}", encoding="utf-8")
