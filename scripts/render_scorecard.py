"""Play a seeded demonstration game and draw its finished score card as SVG.

Writes ``docs/images/scorecard.svg``: the thirteen boxes with the dice that filled
each one, the turn it was filled on, the points, and the totals at the foot of
the card, as Hasbro's Classic card adds them up. The SVG is written by hand, so
the script needs nothing beyond the library.

Run from the repository root::

    python scripts/render_scorecard.py            # writes docs/images/scorecard.svg
    python scripts/render_scorecard.py out.svg    # or another path
"""

from __future__ import annotations

import random
import sys
from html import escape
from pathlib import Path

from yahtzee_rules import Box, Category, Dice, Rules, Scorecard, Totals, Turn, totals

#: The seed of the demonstration game: a card with the upper bonus and an extra Yahtzee
#: that the forced Joker puts in Full House.
SEED = 1122

# The bot of the tutorial's "Write a bot" lesson.
PAR: dict[Box, int] = {category: 3 * (category.face or 0) for category in Category.upper()}
PAR.update(
    {
        Category.THREE_OF_A_KIND: 20,
        Category.FOUR_OF_A_KIND: 12,
        Category.FULL_HOUSE: 20,
        Category.SMALL_STRAIGHT: 25,
        Category.LARGE_STRAIGHT: 25,
        Category.YAHTZEE: 15,
        Category.CHANCE: 22,
    }
)


def choose_box(turn: Turn) -> Box:
    """The open box whose points beat its par by the most."""
    options = turn.options
    return max(options, key=lambda category: options[category] - PAR[category])


def longest_run(dice: Dice) -> list[int]:
    """The longest run of consecutive faces among the dice."""
    best: list[int] = []
    run: list[int] = []
    for face in sorted(set(dice)):
        run = [*run, face] if run and face == run[-1] + 1 else [face]
        best = max(best, run, key=len)
    return best


def choose_keep(turn: Turn) -> str | None:
    """The dice to hold for the next roll, or None to stop rolling."""
    dice, card = turn.dice, turn.card
    assert dice is not None
    if turn.options.get(Category.LARGE_STRAIGHT, 0) or turn.options.get(Category.YAHTZEE, 0):
        return None
    run = longest_run(dice)
    small_open = card.is_open(Category.SMALL_STRAIGHT)
    large_open = card.is_open(Category.LARGE_STRAIGHT)
    if len(run) >= 3 and (small_open or large_open):
        if len(run) == 4 and not large_open:
            return None
        return "".join(map(str, run))
    face = max(range(1, 7), key=lambda f: (dice.count(f), f))
    return str(face) * dice.count(face)


CLASSIC = Rules()


def play(seed: int, rules: Rules = CLASSIC) -> tuple[Scorecard, dict[Box, tuple[int, Dice]]]:
    """Play one solitaire game; return the card and, per box, (turn number, dice)."""
    rng = random.Random(seed)
    card = Scorecard()
    filled_by: dict[Box, tuple[int, Dice]] = {}
    for number in range(1, 14):
        turn = Turn(card, rules=rules).roll(rng)
        while turn.can_roll() and (keep := choose_keep(turn)) is not None:
            turn = turn.roll(rng, keep=keep)
        category = choose_box(turn)
        assert turn.dice is not None
        filled_by[category] = (number, turn.dice)
        card = turn.fill(category)
    return card, filled_by


# --- drawing -----------------------------------------------------------------------

WIDTH = 640
ROW = 30
RED = "#c62828"
INK = "#212121"
GREY = "#616161"
PAPER = "#fffdf7"
RULE = "#d7ccc8"
FONT = "font-family=\"Helvetica, Arial, 'Liberation Sans', sans-serif\""

HOW_TO_SCORE: dict[Box, str] = {
    Category.ACES: "Count and add only Aces",
    Category.TWOS: "Count and add only Twos",
    Category.THREES: "Count and add only Threes",
    Category.FOURS: "Count and add only Fours",
    Category.FIVES: "Count and add only Fives",
    Category.SIXES: "Count and add only Sixes",
    Category.THREE_OF_A_KIND: "Add total of all dice",
    Category.FOUR_OF_A_KIND: "Add total of all dice",
    Category.FULL_HOUSE: "Score 25",
    Category.SMALL_STRAIGHT: "Score 30",
    Category.LARGE_STRAIGHT: "Score 40",
    Category.YAHTZEE: "Score 50",
    Category.CHANCE: "Score total of all 5 dice",
}

PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def die(x: float, y: float, face: int, size: float = 18) -> str:
    """One die with its top-left corner at (x, y)."""
    parts = [
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="3.5" '
        f'fill="#ffffff" stroke="{INK}" stroke-width="1.2"/>'
    ]
    centre, step = size / 2, size * 0.27
    for dx, dy in PIPS[face]:
        parts.append(
            f'<circle cx="{x + centre + dx * step:.1f}" cy="{y + centre + dy * step:.1f}" '
            f'r="{size * 0.09:.1f}" fill="{INK}"/>'
        )
    return "".join(parts)


def text(
    x: float,
    y: float,
    content: str,
    *,
    size: int = 13,
    weight: str = "normal",
    anchor: str = "start",
    fill: str = INK,
) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
        f'text-anchor="{anchor}" fill="{fill}">{escape(content)}</text>'
    )


def render(
    card: Scorecard, filled_by: dict[Box, tuple[int, Dice]], result: Totals, *, title: str
) -> str:
    """The SVG document for a finished card."""
    x0, x_dice, x_turn, x_points = 24, 330, 494, WIDTH - 32
    body: list[str] = []
    y = 70

    def header(label: str) -> None:
        nonlocal y
        body.append(
            f'<rect x="{x0 - 8}" y="{y}" width="{WIDTH - 2 * x0 + 16}" height="{ROW}" '
            f'fill="{RED}" rx="4"/>'
        )
        body.append(text(x0, y + 20, label, size=14, weight="bold", fill="#ffffff"))
        body.append(text(x_dice + 45, y + 20, "dice", size=12, anchor="middle", fill="#ffffff"))
        body.append(text(x_turn, y + 20, "turn", size=12, anchor="middle", fill="#ffffff"))
        body.append(text(x_points, y + 20, "score", size=12, anchor="end", fill="#ffffff"))
        y += ROW

    def row(category: Box) -> None:
        nonlocal y
        body.append(
            f'<line x1="{x0 - 8}" y1="{y + ROW}" x2="{WIDTH - x0 + 8}" y2="{y + ROW}" '
            f'stroke="{RULE}"/>'
        )
        body.append(text(x0, y + 20, category.label, size=14, weight="bold"))
        body.append(text(x0 + 128, y + 20, HOW_TO_SCORE[category], size=11, fill=GREY))
        number, dice = filled_by[category]
        for i, face in enumerate(dice.faces):
            body.append(die(x_dice + i * 20 - 5, y + 6, face))
        if dice.is_yahtzee and category is not Category.YAHTZEE:
            body.append(text(x_dice + 101, y + 19, "Joker", size=10, weight="bold", fill=RED))
        body.append(text(x_turn, y + 20, str(number), size=12, anchor="middle", fill=GREY))
        body.append(
            text(x_points, y + 20, str(card[category]), size=15, weight="bold", anchor="end")
        )
        y += ROW

    def total(label: str, value: int, note: str = "", *, strong: bool = False) -> None:
        nonlocal y
        if strong:
            body.append(
                f'<rect x="{x0 - 8}" y="{y}" width="{WIDTH - 2 * x0 + 16}" '
                f'height="{ROW}" fill="#fbe9e7"/>'
            )
        body.append(
            f'<line x1="{x0 - 8}" y1="{y + ROW}" x2="{WIDTH - x0 + 8}" y2="{y + ROW}" '
            f'stroke="{RULE}"/>'
        )
        body.append(text(x0, y + 20, label, size=13, weight="bold", fill=RED))
        if note:
            body.append(text(x0 + 210, y + 20, note, size=11, fill=GREY))
        body.append(
            text(
                x_points,
                y + 20,
                str(value),
                size=16 if strong else 15,
                weight="bold",
                anchor="end",
                fill=RED if strong else INK,
            )
        )
        y += ROW

    header("UPPER SECTION")
    for category in Category.upper():
        row(category)
    total("Total score", result.upper_subtotal)
    total("Bonus", result.upper_bonus, "35 if the total score is 63 or more")
    total("Total of upper section", result.upper_total)
    y += 14
    header("LOWER SECTION")
    for category in Category.lower():
        row(category)
    marks = "\N{CHECK MARK}" * card.bonus_marks or "none"
    total("Yahtzee bonus", result.yahtzee_bonus, f"100 per extra Yahtzee: {marks}")
    total("Total of lower section", result.lower_total)
    total("Total of upper section", result.upper_total)
    total("GRAND TOTAL", result.grand_total, strong=True)
    height = y + 24
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" {FONT}>',
        f"<title>{escape(title)}</title>",
        f'<rect x="0.5" y="0.5" width="{WIDTH - 1}" height="{height - 1}" rx="10" '
        f'fill="{PAPER}" stroke="{RULE}"/>',
        text(x0, 44, "YAHTZEE", size=28, weight="bold", fill=RED),
        text(x0 + 150, 44, "score card", size=18, fill=INK),
        text(WIDTH - 32, 44, f"seeded game {SEED}, forced Joker", size=12, anchor="end", fill=GREY),
    ]
    return "\n".join([*head, *body, "</svg>", ""])


def main(argv: list[str]) -> int:
    out = Path(argv[1] if len(argv) > 1 else "docs/images/scorecard.svg")
    card, filled_by = play(SEED)
    result = totals(card)
    title = f"A finished Yahtzee score card: grand total {result.grand_total}"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(card, filled_by, result, title=title), encoding="utf-8")
    print(
        f"{out}: grand total {result.grand_total}, upper {result.upper_total}, "
        f"lower {result.lower_total}, bonus marks {card.bonus_marks}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
