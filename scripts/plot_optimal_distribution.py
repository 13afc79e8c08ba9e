"""Draw the final-score distribution of optimal solitaire play as an SVG (no plotting library).

Plays 100,000 seeded games with ``yahtzee_rules.bots.solver.simulate_optimal`` under
Hasbro's rules and writes ``docs/images/optimal-distribution.svg``:

    python scripts/plot_optimal_distribution.py [--games N] [--seed S] [--output PATH]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from yahtzee_rules import Rules  # noqa: E402
from yahtzee_rules.bots.solver import load_table, simulate_optimal  # noqa: E402

WIDTH, HEIGHT = 820, 460
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 70, 60
LOW, HIGH, BIN = 50, 500, 5  # plotted range and bin width, in points


def svg(scores: list[int], mean: float, stderr: float, std: float, games: int) -> str:
    bins = Counter((s - LOW) // BIN for s in scores if LOW <= s < HIGH)
    below = sum(1 for s in scores if s < LOW)
    above = sum(1 for s in scores if s >= HIGH)
    count = (HIGH - LOW) // BIN
    top_share = max(bins.values()) / games
    y_max = (int(top_share * 100 / 0.5) + 1) * 0.5 / 100  # round up to 0.5 %
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(points: float) -> float:
        return LEFT + (points - LOW) / (HIGH - LOW) * plot_w

    def y(share: float) -> float:
        return TOP + plot_h - share / y_max * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="26" text-anchor="middle" font-size="16" font-weight="bold">'
        f"Final score under optimal solitaire play (Hasbro rules)</text>",
        f'<text x="{WIDTH / 2}" y="46" text-anchor="middle" fill="#444">'
        + escape(
            f"{games:,} simulated games: mean {mean:.2f} ± {stderr:.2f} (standard error), "
            f"standard deviation {std:.1f}; {below} below {LOW}, {above} at {HIGH} or more"
        )
        + "</text>",
    ]
    # grid and y axis (share of games per 5-point bin)
    step = 0.005
    share = 0.0
    while share <= y_max + 1e-12:
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(share):.1f}" y2="{y(share):.1f}" '
            f'stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{LEFT - 6}" y="{y(share) + 4:.1f}" text-anchor="end">{share * 100:.1f}%</text>'
        )
        share += step
    for index in range(count):
        n = bins.get(index, 0)
        if not n:
            continue
        left = x(LOW + index * BIN)
        out.append(
            f'<rect x="{left + 0.5:.1f}" y="{y(n / games):.1f}" width="{x(LOW + BIN) - x(LOW) - 1:.1f}" '
            f'height="{y(0) - y(n / games):.1f}" fill="#3b6ea8"/>'
        )
    # x axis
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0)}" y2="{y(0)}" stroke="black"/>')
    for points in range(LOW, HIGH + 1, 50):
        out.append(
            f'<line x1="{x(points)}" x2="{x(points)}" y1="{y(0)}" y2="{y(0) + 5}" stroke="black"/>'
        )
        out.append(f'<text x="{x(points)}" y="{y(0) + 19}" text-anchor="middle">{points}</text>')
    out.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 14}" text-anchor="middle">'
        f"final grand total (bins of {BIN} points)</text>"
    )
    out.append(
        f'<text transform="translate(16 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">'
        f"share of games</text>"
    )
    # the mean
    out.append(
        f'<line x1="{x(mean):.1f}" x2="{x(mean):.1f}" y1="{TOP}" y2="{y(0)}" stroke="#c0392b" '
        f'stroke-dasharray="5 4" stroke-width="1.5"/>'
    )
    out.append(f'<text x="{x(mean) + 6:.1f}" y="{TOP + 14}" fill="#c0392b">mean {mean:.1f}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--output", type=Path, default=ROOT / "docs/images/optimal-distribution.svg"
    )
    args = parser.parse_args()
    result = simulate_optimal(load_table(rules=Rules()), games=args.games, seed=args.seed)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        svg(list(result.scores), result.mean, result.stderr, result.std, result.games)
    )
    print(f"wrote {args.output}: mean {result.mean:.3f} +- {result.stderr:.3f}")


if __name__ == "__main__":
    main()
