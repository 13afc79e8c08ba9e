"""The seeded demonstration game that ``python -m yahtzee_rules`` plays and prints.

Three players use a simple built-in policy: hold the most common face (or a
straight draw), and fill the open box worth the most points. The same seed
always plays the same game.

Examples:
    >>> from yahtzee_rules.demo import play_demo
    >>> game, log = play_demo(seed=2026)
    >>> game.is_over, len(game.result.standings)
    (True, 3)
    >>> log[0]
    'Starting player roll-off: Ann 16, Bob 12, Cy 14 -> Ann starts'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from yahtzee_rules.categories import Category
from yahtzee_rules.dice import Dice, Keep
from yahtzee_rules.game import Game, roll_off
from yahtzee_rules.render import render_scorecards
from yahtzee_rules.rules import Rules

__all__ = ["DEMO_SEED", "demo_keep", "play_demo"]

DEMO_SEED = 107
"""The seed ``python -m yahtzee_rules`` plays: its game shows an extra Yahtzee, the forced
Joker and the upper bonus.
"""

_CLASSIC = Rules()
_STRAIGHT_DRAWS = ((3, 4, 5, 6), (2, 3, 4, 5), (1, 2, 3, 4))


def demo_keep(dice: Dice) -> Keep:
    """The demonstration policy's hold: four in a row, else the most common face (highest on ties).

    Examples:
        >>> demo_keep(Dice("13456")), demo_keep(Dice("22356")), demo_keep(Dice("12456"))
        (Keep('3456'), Keep('22'), Keep('6'))
    """
    present = set(dice.faces)
    for run in _STRAIGHT_DRAWS:
        held = sorted(present & set(run))
        if len(held) >= 4:
            return Keep(held)
    counts = dice.counts
    best = max(range(6), key=lambda i: (counts[i], i))
    return Keep([best + 1] * counts[best])


def _preference(category: Category, points: int) -> tuple[int, int]:
    """Most points first; an upper box at or above par (three of its face) counts double,
    and Chance is the last resort among equals."""
    face = category.face
    weight = points * 2 if face is not None and points >= 3 * face else points
    return (weight, 0 if category is Category.CHANCE else 1)


def play_demo(
    seed: int = DEMO_SEED, players: Sequence[str] = ("Ann", "Bob", "Cy"), *, rules: Rules = _CLASSIC
) -> tuple[Game, list[str]]:
    """Play a whole seeded game with the demonstration policy; return it and its log lines.

    Examples:
        >>> game, log = play_demo(seed=1, players=["Solo"])
        >>> game.result.winners
        ('Solo',)
    """
    rng = random.Random(seed)
    off = roll_off(players, rng)
    throws = ", ".join(f"{players[seat]} {dice.total}" for seat, dice in off.rounds[0])
    log = [f"Starting player roll-off: {throws} -> {players[off.starter]} starts"]
    for extra in off.rounds[1:]:
        again = ", ".join(f"{players[seat]} {dice.total}" for seat, dice in extra)
        log.append(f"  tie, rolled again: {again}")
    game = Game.new(players, rules=rules, first=off.starter)
    while not game.is_over:
        name, number = game.current_player, game.round
        game = game.roll(rng)
        steps = [str(game.dice)]
        while game.rolls_left and game.dice is not None:
            best_now = max(game.options.values())
            if best_now >= 25:
                break
            keep = demo_keep(game.dice)
            if len(keep) == 5:
                break
            game = game.roll(rng, keep=keep)
            steps.append(f"hold {keep or '-'} -> {game.dice}")
        options = game.options
        category = max(options, key=lambda c: _preference(c, options[c]))
        joker = game.forced_category
        bonus = game.box_options()[category].bonus
        game = game.fill(category)
        note = f" (forced Joker box {joker.label})" if joker else ""
        note += f" +{bonus} Yahtzee bonus" if bonus else ""
        log.append(
            f"Round {number:>2} - {name}: {', '.join(steps)}; "
            f"fills {category.label} for {options[category]}{note}"
        )
        log.append(render_scorecards(game.cards, game.players, rules=rules))
    result = game.result
    log.append(
        "Final standings: " + ", ".join(f"{s.rank}. {s.player} {s.total}" for s in result.standings)
    )
    winners = " and ".join(result.winners)
    log.append(f"Winner{'s' if result.is_tie else ''}: {winners}")
    return game, log


def main() -> None:
    """Print the demonstration game.

    Examples:
        >>> main()  # doctest: +ELLIPSIS
        Starting player roll-off: ...
        Winner...
    """
    _, log = play_demo(DEMO_SEED)
    print("\n\n".join(log))
