"""Plain-text score sheets, for terminals, logs and bug reports.

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

from yahtzee_rules.core.boxes import Box
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.play.scorecard import Scorecard
from yahtzee_rules.play.totals import totals
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["render_scorecards"]


def render_scorecards(
    cards: Sequence[Scorecard],
    names: Sequence[str],
    *,
    rules: Rules | None = None,
    options: Mapping[Box, int] | None = None,
    options_for: int | None = None,
    width: int | None = None,
) -> str:
    """A score sheet with one column per card: boxes, then the totals lines.

    The rows are the boxes of the rules' card (omitted or ``None``, the rules are the
    usual rules of the first card's design, or ``Rules()`` with no cards); on a card other than Classic, a bonus
    the rules do not pay has no line. Open boxes show ``.``; with ``options`` (for example :attr:`Turn.options`), the
    column ``options_for`` (default: the first) shows what each open box would score
    now as ``+n``. Bonus lines follow the totals of :func:`~yahtzee_rules.play.totals`.

    With ``width`` (a terminal's columns, say), the players' columns are split into
    blocks of as many as fit in ``width`` characters, one under the other with a blank
    line between, each with the box labels again; a column too wide to share a block
    has one to itself. Without it, every column is in one block.

    Raises:
        MalformedInputError: If ``cards`` and ``names`` differ in length.

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
    """
    if len(cards) != len(names):
        raise MalformedInputError(
            f"render: {len(cards)} cards for {len(names)} names; give one name per card"
        )
    if rules is None:
        rules = Rules.for_card(cards[0].card) if cards else Rules()
    column = 0 if options_for is None else options_for
    widths = [max(5, len(name)) for name in names]
    label_width = 17
    rows: list[tuple[str, list[str]]] = []
    all_totals = [totals(card, rules=rules) for card in cards]
    design = rules.card
    classic = design is CLASSIC  # its sheet keeps every line, even a bonus worth 0
    for category in design.members:
        values = []
        for index, card in enumerate(cards):
            points = card.boxes[category]
            if points is not None:
                values.append(str(points))
            elif options is not None and index == column and category in options:
                values.append(f"+{options[category]}")
            else:
                values.append(".")
        rows.append((category.label, values))
        if category is design.upper[-1]:
            rows.append(("Upper subtotal", [str(t.upper_subtotal) for t in all_totals]))
            if classic or rules.upper_bonus:
                rows.append(
                    (
                        f"Upper bonus ({rules.upper_bonus_threshold}+)",
                        [str(t.upper_bonus) for t in all_totals],
                    )
                )
    if design.yahtzee is not None and (classic or rules.yahtzee_bonus):
        bonus = f"{design.yahtzee.label} bonus"
        rows.append((bonus, [str(t.yahtzee_bonus) for t in all_totals]))
    rows.append(("Grand total", [str(t.grand_total) for t in all_totals]))

    blocks: list[list[int]] = [[]]
    used = label_width
    for index, w in enumerate(widths):
        if width is not None and blocks[-1] and used + 2 + w > width:
            blocks.append([])
            used = label_width
        blocks[-1].append(index)
        used += 2 + w

    lines: list[str] = []
    for block in blocks:
        if lines:
            lines.append("")
        lines.append(
            "  ".join([f"{'Box':<{label_width}}", *(f"{names[i]:>{widths[i]}}" for i in block)])
        )
        lines.append("  ".join(["-" * label_width, *("-" * widths[i] for i in block)]))
        for label, values in rows:
            cells = (f"{values[i]:>{widths[i]}}" for i in block)
            lines.append("  ".join([f"{label:<{label_width}}", *cells]))
    return "\n".join(line.rstrip() for line in lines)
