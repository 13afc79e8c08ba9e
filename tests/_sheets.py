"""Shared by the sheet tests: score sheets read as a reader reads them, and checked to add up.

Rows are read from the text the terminal prints, from the web page's HTML, or from a
browser's table cells; each reader gives every player's rows as (label, cells per
column), and :func:`check_sheet` checks the numbers shown make the totals shown.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: The labels of the totals lines, as the sheet prints them.
TOTALS = {
    "Upper subtotal": "upper subtotal",
    "Column total": "column total",
    "Multiplied total": "multiplied total",
    "Grand total": "grand total",
}


def _kind(label: str) -> str:
    if label in TOTALS:
        return TOTALS[label]
    if label.startswith("Upper bonus"):
        return "upper bonus"
    if label.endswith(" bonus"):
        return "yahtzee bonus"
    return "box"


def _number(text: str) -> int:
    """A cell's points: an open box (``.`` or ``+n``) holds none yet."""
    return 0 if text == "." or text.startswith("+") else int(text)


Rows = list[tuple[str, list[str]]]


def check_sheet(rows: Rows, multipliers: list[int]) -> list[int]:
    """Check one card's sheet adds up; ``rows`` are (label, cells per column), the card-wide
    lines with one cell. Returns the grand total shown."""
    columns = len(multipliers)
    found: dict[str, list[str]] = {}
    upper: list[list[int]] = [[] for _ in range(columns)]
    boxes: list[list[int]] = [[] for _ in range(columns)]
    upper_done = False
    for label, cells in rows:
        kind = _kind(label)
        if kind == "box":
            assert len(cells) == columns, label
            for c, text in enumerate(cells):
                boxes[c].append(_number(text))
                if not upper_done:
                    upper[c].append(_number(text))
        else:
            if kind == "upper subtotal":
                upper_done = True
            assert kind not in found, label
            found[kind] = cells
    assert "grand total" in found

    def figures(kind: str) -> list[int]:
        if kind not in found:
            return [0] * columns
        return [int(text) for text in found[kind]]

    assert figures("upper subtotal") == [sum(u) for u in upper]
    bonus = figures("upper bonus")
    (yahtzee_bonus,) = figures("yahtzee bonus")[:1] if "yahtzee bonus" in found else [0]
    (grand,) = figures("grand total")
    if columns == 1:
        assert sum(boxes[0]) + bonus[0] + yahtzee_bonus == grand
    else:
        column_totals = figures("column total")
        multiplied = figures("multiplied total")
        for c in range(columns):
            assert sum(boxes[c]) + bonus[c] == column_totals[c]
            assert multipliers[c] * column_totals[c] == multiplied[c]
        assert sum(multiplied) + yahtzee_bonus == grand
    return [grand]


def read_text_sheet(text: str, players: int) -> list[tuple[list[int], Rows]]:
    """Each player's multipliers (from their columns' headings) and rows, from a printed sheet."""
    lines = text.splitlines()
    rule = lines[1].split()
    label_width = len(rule[0])
    columns = (len(rule) - 1) // players
    multipliers = [int(h.split("×")[1]) if "×" in h else 1 for h in rule[1 : 1 + columns]]
    sheets: list[tuple[list[int], Rows]] = [(multipliers, []) for _ in range(players)]
    for line in lines[2:]:
        label, cells = line[:label_width].rstrip(), line[label_width:].split()
        size = len(cells) // players
        assert size in (1, columns), line
        assert size * players == len(cells), line
        for p, (_, rows) in enumerate(sheets):
            rows.append((label, cells[p * size : (p + 1) * size]))
    return sheets


class Tables(HTMLParser):
    """The cells of each table of a page, by the table's id: rows of (text, colspan)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, int]]]] = {}
        self._table: list[list[tuple[str, int]]] | None = None
        self._cell: list[str] | None = None
        self._span = 1
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(found.get("id") or "", [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell, self._span = [], int(found.get("colspan") or 1)
        elif tag == "caption" or (tag == "span" and found.get("class") == "reason"):
            self._hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._table is not None and self._cell is not None:
            self._table[-1].append(("".join(self._cell).strip(), self._span))
            self._cell = None
        elif tag in ("caption", "span") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._hidden:
            self._cell.append(data)


def read_scores_table(
    rows: list[list[tuple[str, int]]], players: int
) -> list[tuple[list[int], Rows]]:
    """Each player's multipliers and rows, from the page's table of every card."""
    body = [row for row in rows if row and row[0][0] not in ("Box", "")]
    heads = next((row[1:] for row in rows if row and row[0][0] == ""), None)
    columns = 1 if heads is None else len(heads) // players
    multipliers = [1] if heads is None else [int(t.split("×")[1]) for t, _ in heads[:columns]]
    sheets: list[tuple[list[int], Rows]] = [(multipliers, []) for _ in range(players)]
    for row in body:
        label, cells = row[0][0], row[1:]
        size = 1 if cells[0][1] == columns and columns > 1 else columns
        assert len(cells) == size * players, row
        for p, (_, found) in enumerate(sheets):
            texts = [text or "." for text, _ in cells[p * size : (p + 1) * size]]
            found.append((label, texts))
    return sheets


def check_card_table(rows: list[list[tuple[str, int]]]) -> int:
    """Check the current player's card adds up, a column at a time; the grand total shown."""
    boxes = upper = bonus = yahtzee_bonus = multiplied = 0
    in_upper, several, grand = True, False, None
    for row in rows[1:]:
        label, points, state = (text for text, _ in row)
        kind = _kind(re.sub(r" ×[0-9]+$", "", label))
        if kind == "box":
            value = int(points) if state == "filled" else 0  # an open box shows an option
            boxes += value
            upper += value if in_upper else 0
        elif kind == "upper subtotal":
            assert int(points) == upper, label
            in_upper = False
        elif kind == "upper bonus":
            bonus = int(points)
        elif kind == "column total":
            assert int(points) == boxes + bonus, label
        elif kind == "multiplied total":
            several = True
            assert int(points) == int(label.split("×")[1]) * (boxes + bonus), label
            multiplied += int(points)
            boxes = upper = bonus = 0
            in_upper = True
        elif kind == "yahtzee bonus":
            yahtzee_bonus = int(points)
        else:
            grand = int(points)
    assert grand is not None
    assert (multiplied if several else boxes + bonus) + yahtzee_bonus == grand
    return grand
