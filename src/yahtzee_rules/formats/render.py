"""Score sheets: their lines as data (:func:`sheet_lines`), and as plain text for
terminals, logs and bug reports (:func:`render_scorecards`).

A sheet's lines are the one layout every program shows: the command line prints it,
the web table writes it as HTML. Each line's figures add up to the totals below them:
on a card of one column, the boxes, the upper bonus and the Yahtzee bonus make the
grand total; on a card of several columns (:data:`~yahtzee_rules.TRIPLE`) each column
adds up to its own total, which its multiplier multiplies, and the multiplied totals
and the Yahtzee bonus make the grand total.

Examples:
    >>> from yahtzee_rules import Category, Scorecard, fill
    >>> card = fill(Scorecard(), "44456", Category.FOURS)
    >>> print(render_scorecards([card], ["Ann"]))  # doctest: +ELLIPSIS
    Box                  Ann
    -----------------  -----
    Aces                   .
    Twos                   .
    Threes                 .
    Fours                 12
    ...
    Grand total           12
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import attrs

from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.core.rules import Rules, column_label, plain_label
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.totals import Totals, totals
from yahtzee_rules.support.errors import MalformedInputError
from yahtzee_rules.support.l10n import translations

__all__ = [
    "LineKind",
    "SheetLine",
    "column_headings",
    "line_label",
    "render_scorecards",
    "sheet_lines",
]

#: What a sheet line holds: a row of boxes, or one of the totals lines.
LineKind = Literal[
    "box",
    "upper subtotal",
    "upper bonus",
    "column total",
    "multiplied total",
    "yahtzee bonus",
    "grand total",
]

_CARD_WIDE: tuple[LineKind, ...] = ("yahtzee bonus", "grand total")


@attrs.frozen
class SheetLine:
    """One line of a score sheet: a row of boxes or a totals line, with every card's figures.

    Attributes:
        label: What the line is called (``"Fours"``, ``"Upper subtotal"``); a row of
            boxes of several columns is named once (``"Fours"`` for Fours ×1, ×2, ×3).
        kind: Which line it is (see :data:`LineKind`).
        boxes: A row of boxes: the row's box in each column; a totals line: ``()``.
        figures: For each card, in order: its figure in each column (``None`` for an
            open box), or, on a line of the whole card (the Yahtzee bonus, the grand
            total), its one figure.

    Examples:
        >>> from yahtzee_rules import Scorecard
        >>> line = sheet_lines([Scorecard()])[-1]
        >>> line.label, line.kind, line.figures, line.per_column
        ('Grand total', 'grand total', ((0,),), False)
    """

    label: str
    kind: LineKind
    boxes: tuple[Box, ...]
    figures: tuple[tuple[int | None, ...], ...]

    @property
    def per_column(self) -> bool:
        """Whether the line has a figure for each column (else one for the whole card).

        Examples:
            >>> from yahtzee_rules import Scorecard
            >>> [line.per_column for line in sheet_lines([Scorecard()])][-3:]
            [True, False, False]
        """
        return self.kind not in _CARD_WIDE


def _rules_for(cards: Sequence[Scorecard], rules: Rules | None) -> Rules:
    if rules is None:
        return Rules.for_card(cards[0].card) if cards else Rules()
    return rules


def column_headings(rules: Rules) -> tuple[str, ...]:
    """The heading of each score column of the rules' card: ``("",)`` on a card of one.

    Examples:
        >>> column_headings(Rules.from_name("triple")), column_headings(Rules())
        (('×1', '×2', '×3'), ('',))
    """
    return tuple(column_label(column[0]) for column in rules.card.columns)


def sheet_lines(cards: Sequence[Scorecard], *, rules: Rules | None = None) -> tuple[SheetLine, ...]:
    """The lines of a score sheet of ``cards``, top to bottom, with each card's figures.

    The lines are the rows of boxes, the upper subtotal and upper bonus after the last
    upper box, then on a card of several columns each column's total and that total
    times its multiplier, then the Yahtzee bonus and the grand total. On a card other
    than Classic, a bonus the rules do not pay has no line. Figures are those of
    :func:`~yahtzee_rules.play.totals`, so they add up: the numbers of a column's boxes
    and its upper bonus make its total (on a card of one column, with the Yahtzee
    bonus, the grand total).

    Args:
        cards: The scorecards, all of the rules' card.
        rules: The rules (omitted or ``None``: the usual rules of the first card's
            design, or ``Rules()`` with no cards).

    Examples:
        >>> from yahtzee_rules import Scorecard, TripleBox
        >>> lines = sheet_lines([Scorecard({TripleBox.FOURS_X2: 12})])
        >>> [(line.label, line.figures[0]) for line in lines if line.kind != "box"]  # doctest: +NORMALIZE_WHITESPACE
        [('Upper subtotal', (0, 12, 0)), ('Upper bonus (63+)', (0, 0, 0)),
         ('Column total', (0, 12, 0)), ('Multiplied total', (0, 24, 0)),
         ('Yahtzee bonus', (0,)), ('Grand total', (24,))]
    """
    rules = _rules_for(cards, rules)
    design = rules.card
    classic = design is CLASSIC  # its sheet keeps every line, even a bonus worth 0
    columns = design.columns
    several = len(columns) > 1
    all_totals = [totals(card, rules=rules) for card in cards]
    by_column: list[tuple[Totals, ...]] = [t.columns or (t,) for t in all_totals]
    multipliers = design.multipliers

    def per_column(label: str, kind: LineKind, figure: str) -> SheetLine:
        figures = tuple(tuple(getattr(t, figure) for t in each) for each in by_column)
        return SheetLine(label, kind, (), figures)

    lines: list[SheetLine] = []
    first = columns[0]
    last_upper = [box for box in first if box.face is not None][-1]
    for row, box in enumerate(first):
        row_boxes = tuple(column[row] for column in columns)
        figures = tuple(tuple(card.boxes[b] for b in row_boxes) for card in cards)
        lines.append(SheetLine(plain_label(box), "box", row_boxes, figures))
        if box is last_upper:
            lines.append(per_column("Upper subtotal", "upper subtotal", "upper_subtotal"))
            if classic or rules.upper_bonus:
                label = f"Upper bonus ({rules.upper_bonus_threshold}+)"
                lines.append(per_column(label, "upper bonus", "upper_bonus"))
    if several:
        lines.append(per_column("Column total", "column total", "grand_total"))
        multiplied = tuple(
            tuple(m * t.grand_total for m, t in zip(multipliers, each, strict=True))
            for each in by_column
        )
        lines.append(SheetLine("Multiplied total", "multiplied total", (), multiplied))
    if design.yahtzee is not None and (classic or rules.yahtzee_bonus):
        bonus = f"{plain_label(design.yahtzee)} bonus"
        figures = tuple((t.yahtzee_bonus,) for t in all_totals)
        lines.append(SheetLine(bonus, "yahtzee bonus", (), figures))
    lines.append(
        SheetLine("Grand total", "grand total", (), tuple((t.grand_total,) for t in all_totals))
    )
    return tuple(lines)


def line_label(line: SheetLine, rules: Rules, locale: str | None = None) -> str:
    """What ``line`` of a sheet of ``rules`` is called in ``locale``'s language (its
    :attr:`~SheetLine.label` in English).

    Raises:
        UnknownLocaleError: As :func:`~yahtzee_rules.support.l10n.resolve_locale`.

    Examples:
        >>> from yahtzee_rules import Rules, Scorecard
        >>> rules = Rules()
        >>> [line_label(line, rules, "de") for line in sheet_lines([Scorecard()])][6:8]
        ['Zwischensumme oben', 'Bonus oben (63+)']
        >>> line_label(sheet_lines([Scorecard()])[-2], rules, "fr")
        'Bonus Yams'
    """
    text = translations(locale)
    if line.kind == "box":
        return plain_label(line.boxes[0], locale)
    labels: dict[LineKind, str] = {
        "upper subtotal": text.pgettext("score sheet", "Upper subtotal"),
        "upper bonus": text.pgettext("score sheet", "Upper bonus ({threshold}+)"),
        "column total": text.pgettext("score sheet", "Column total"),
        "multiplied total": text.pgettext("score sheet", "Multiplied total"),
        "yahtzee bonus": text.pgettext("score sheet", "{box} bonus"),
        "grand total": text.pgettext("score sheet", "Grand total"),
    }
    yahtzee = rules.card.yahtzee
    box = "" if yahtzee is None else plain_label(yahtzee, locale)
    return labels[line.kind].format(threshold=rules.upper_bonus_threshold, box=box)


def render_scorecards(
    cards: Sequence[Scorecard],
    names: Sequence[str],
    *,
    rules: Rules | None = None,
    options: Mapping[Box, int] | None = None,
    options_for: int | None = None,
    width: int | None = None,
    locale: str | None = None,
) -> str:
    """A score sheet with one column per card (one per score column of a card of
    several): the lines of :func:`sheet_lines`.

    The rows are the boxes of the rules' card (omitted or ``None``, the rules are the
    usual rules of the first card's design, or ``Rules()`` with no cards); on a card other than Classic, a bonus
    the rules do not pay has no line. Open boxes show ``.``; with ``options`` (for example :attr:`Turn.options`), the
    column ``options_for`` (default: the first) shows what each open box would score
    now as ``+n``. On a card of several columns each player's name heads their
    columns, each headed by its multiplier (``×2``), and the Yahtzee bonus and grand
    total are written once for the player.

    With ``width`` (a terminal's columns, say), the players' columns are split into
    blocks of as many as fit in ``width`` characters, one under the other with a blank
    line between, each with the box labels again; a column too wide to share a block
    has one to itself. Without it, every column is in one block.

    With ``locale``, the boxes, the totals lines and the heading are named in that
    language (:func:`line_label`).

    Raises:
        MalformedInputError: If ``cards`` and ``names`` differ in length.
        UnknownLocaleError: As :func:`~yahtzee_rules.support.l10n.resolve_locale`.

    Examples:
        >>> from yahtzee_rules import Category, Scorecard, Turn
        >>> turn = Turn().roll(outcome="66655")
        >>> sheet = render_scorecards([turn.card], ["Bo"], options=turn.options)
        >>> print(sheet.splitlines()[12])
        Full House           +25
        >>> names = [f"P{n}" for n in range(10)]
        >>> wide = render_scorecards([Scorecard()] * 10, names, width=40)
        >>> print("\\n".join(wide.splitlines()[:3]))
        Box                   P0     P1     P2
        -----------------  -----  -----  -----
        Aces                   .      .      .
        >>> max(len(line) for line in wide.splitlines()), wide.count("Grand total")
        (38, 4)
        >>> from yahtzee_rules import TripleBox
        >>> triple = render_scorecards([Scorecard({TripleBox.FOURS_X2: 12})], ["Ann"])
        >>> print("\\n".join(triple.splitlines()[:6]))
        Box                             Ann
        -----------------  --×1  --×2  --×3
        Aces                  .     .     .
        Twos                  .     .     .
        Threes                .     .     .
        Fours                 .    12     .
        >>> print("\\n".join(triple.splitlines()[-4:]))
        Column total          0    12     0
        Multiplied total      0    24     0
        Yahtzee bonus                     0
        Grand total                      24
        >>> print(render_scorecards([Scorecard()], ["Ann"], locale="sv").splitlines()[0])
        Ruta               Ann
    """
    text = translations(locale)  # refuses an unknown locale before any work
    if len(cards) != len(names):
        raise MalformedInputError(
            f"render: {len(cards)} cards for {len(names)} names; give one name per card"
        )
    rules = _rules_for(cards, rules)
    column = 0 if options_for is None else options_for
    lines = sheet_lines(cards, rules=rules)
    labels = [line_label(line, rules, locale) for line in lines]
    headings = column_headings(rules)
    several = len(headings) > 1
    # Each line's text for each card: one cell per column, or one for the whole card.
    texts: list[list[list[str]]] = []
    for line in lines:
        cells = []
        for index, figures in enumerate(line.figures):
            row = []
            for place, figure in enumerate(figures):
                if figure is not None:
                    row.append(str(figure))
                elif options is not None and index == column and line.boxes[place] in options:
                    row.append(f"+{options[line.boxes[place]]}")
                else:
                    row.append(".")
            cells.append(row)
        texts.append(cells)
    label_width = max(17, *(len(label) for label in labels))
    box_heading = text.pgettext("score sheet", "Box")
    # Each card's cell width, and the width of its group of columns.
    cell_widths = []
    for index, name in enumerate(names):
        if several:
            content = max(
                len(t[index][c])
                for t, line in zip(texts, lines, strict=True)
                if line.per_column
                for c in range(len(headings))
            )
            cell = max(4, content, *(len(h) for h in headings))
            group = len(headings) * cell + 2 * (len(headings) - 1)
            if len(name) > group:  # a long name widens its columns
                cell += -(-(len(name) - group) // len(headings))
        else:
            cell = max(5, len(name), *(len(t[index][0]) for t in texts))
        cell_widths.append(cell)
    group_widths = [len(headings) * w + 2 * (len(headings) - 1) for w in cell_widths]

    blocks: list[list[int]] = [[]]
    used = label_width
    for index, w in enumerate(group_widths):
        if width is not None and blocks[-1] and used + 2 + w > width:
            blocks.append([])
            used = label_width
        blocks[-1].append(index)
        used += 2 + w

    out: list[str] = []
    for block in blocks:
        if out:
            out.append("")
        out.append(
            "  ".join(
                [
                    f"{box_heading:<{label_width}}",
                    *(f"{names[i]:>{group_widths[i]}}" for i in block),
                ]
            )
        )
        if several:
            rule = ["  ".join(f"{h:->{cell_widths[i]}}" for h in headings) for i in block]
        else:
            rule = ["-" * group_widths[i] for i in block]
        out.append("  ".join(["-" * label_width, *rule]))
        for line, label, cells in zip(lines, labels, texts, strict=True):
            row = []
            for i in block:
                if line.per_column:
                    row.append("  ".join(f"{text:>{cell_widths[i]}}" for text in cells[i]))
                else:
                    row.append(f"{cells[i][0]:>{group_widths[i]}}")
            out.append("  ".join([f"{label:<{label_width}}", *row]))
    return "\n".join(line.rstrip() for line in out)
