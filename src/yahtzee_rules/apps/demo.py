"""The seeded demonstration game that ``python -m yahtzee_rules`` plays and prints.

Three players use a simple built-in policy, :class:`DemoStrategy`: hold the
most common face (or a straight draw), and fill the open box worth the most
points. Turns are played by :func:`~yahtzee_rules.play_turn`, as computer
players and :func:`~yahtzee_rules.simulate` play them. The same seed always
plays the same game.

Examples:
    >>> from yahtzee_rules.apps.demo import play_demo
    >>> game, log = play_demo(seed=2026)
    >>> game.is_over, len(game.result.standings)
    (True, 3)
    >>> log[0]
    'Starting player roll-off: Ann 16, Bob 12, Cy 14 -> Ann starts'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from yahtzee_rules.bots.simulation import play_turn
from yahtzee_rules.core.boxes import Box, card_of
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import Rules
from yahtzee_rules.formats.render import render_scorecards
from yahtzee_rules.play.game import Game, roll_off
from yahtzee_rules.play.record import Fill, Roll
from yahtzee_rules.play.scoring import is_joker
from yahtzee_rules.play.turn import Turn

__all__ = ["DEMO_SEED", "HOW_TO_PLAY", "DemoStrategy", "demo_keep", "play_demo", "short_log"]

DEMO_SEED = 107
"""The seed ``python -m yahtzee_rules`` plays: its game shows an extra Yahtzee, the forced
Joker and the upper bonus.
"""

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


def _preference(category: Box, points: int) -> tuple[int, int]:
    """Most points first; an upper box at or above par (three of its face) counts double,
    and a box every roll scores in (Chance, Yacht's Choice) is the last resort among equals."""
    face = category.face
    weight = points * 2 if face is not None and points >= 3 * face else points
    return (weight, 0 if 0 not in card_of(category).possible[category] else 1)


@attrs.frozen
class DemoStrategy:
    """The demonstration policy as a :class:`~yahtzee_rules.Strategy`.

    It stops rolling once some open box is worth 25 points or more, otherwise holds
    :func:`demo_keep` (and stops when that is all five dice); it fills the open box
    worth the most points, counting an upper box at or above par (three of its face)
    double and taking Chance last among equals. It never draws from ``rng``.

    Examples:
        >>> import random
        >>> from yahtzee_rules import Turn
        >>> demo, rng = DemoStrategy(), random.Random(0)
        >>> demo.choose_keep(Turn().roll(outcome="13356"), rng)
        Keep('33')
        >>> demo.choose_keep(Turn().roll(outcome="22555"), rng)  # a full house: stop
        >>> demo.choose_box(Turn().roll(outcome="66612"), rng)
        <Category.SIXES: 5>
    """

    def choose_keep(self, turn: Turn, rng: random.Random) -> Keep | None:
        """Stop at 25 points or more in an open box; else hold :func:`demo_keep` of the dice.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> DemoStrategy().choose_keep(Turn().roll(outcome="22356"), random.Random(0))
            Keep('22')
        """
        dice = turn.dice
        if dice is None or max(turn.options.values()) >= 25:
            return None
        keep = demo_keep(dice)
        return None if len(keep) == 5 else keep

    def choose_box(self, turn: Turn, rng: random.Random) -> Box:
        """The open box worth the most, an upper box at or above par counting double.

        Examples:
            >>> import random
            >>> from yahtzee_rules import Turn
            >>> DemoStrategy().choose_box(Turn().roll(outcome="22356"), random.Random(0))
            <Category.CHANCE: 12>
        """
        options = turn.options
        return max(options, key=lambda c: _preference(c, options[c]))


def play_demo(
    seed: int = DEMO_SEED,
    players: Sequence[str] = ("Ann", "Bob", "Cy"),
    *,
    rules: Rules | None = None,
) -> tuple[Game, list[str]]:
    """Play a whole seeded game with the demonstration policy; return it and its log lines.

    Each turn is played by :func:`~yahtzee_rules.play_turn` with a :class:`DemoStrategy`.

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
    rules = game.rules
    strategy = DemoStrategy()
    while not game.is_over:
        name, number = game.current_player, game.round
        turn = play_turn(game, strategy, rng)
        *actions, fill = turn.actions
        rolls = [action for action in actions if isinstance(action, Roll)]
        steps = [str(rolls[0].dice), *(f"hold {r.keep or '-'} -> {r.dice}" for r in rolls[1:])]
        assert isinstance(fill, Fill)
        before = turn.game_at(len(rolls))  # the dice showing, before the fill
        category = fill.category
        option = before.box_options()[category]
        game = turn.game
        forced = before.forced_category
        note = ""
        if forced is not None and is_joker(
            before.player_card(before.current), rolls[-1].dice, rules=rules
        ):
            note = f" ({rules.joker.label} box {forced.label})"  # not Forced Yatzy's order
        note += f" +{option.bonus} Yahtzee bonus" if option.bonus else ""
        log.append(
            f"Round {number:>2} - {name}: {', '.join(steps)}; "
            f"fills {category.label} for {option.points}{note}"
        )
        log.append(render_scorecards(game.cards, game.players, rules=rules))
    result = game.result
    log.append(
        "Final standings: " + ", ".join(f"{s.rank}. {s.player} {s.total}" for s in result.standings)
    )
    winners = " and ".join(result.winners)
    log.append(f"Winner{'s' if result.is_tie else ''}: {winners}")
    return game, log


#: The demonstration's last line: how to play a game of one's own.
HOW_TO_PLAY = (
    "To play: yahtzee-rules play Ann Bob (add '--bot greedy Cy' for a computer player); "
    "type 'help' at the prompt for the commands."
)


def short_log(log: Sequence[str]) -> list[str]:
    """A game's log in short: one line per turn, then the final card and the result.

    Args:
        log: The log lines of :func:`play_demo`, with the card after every turn.

    Examples:
        >>> _, log = play_demo(seed=1, players=["Solo"])
        >>> lines = short_log(log)
        >>> lines[1]
        'Round  1 - Solo: 11246, hold 11 -> 11345, hold 11 -> 11224; fills Chance for 10'
        >>> lines[-1].startswith("Final standings") or lines[-1].startswith("Winner")
        True
    """
    *turns, card, standings, winners = log
    return [
        *(line for line in turns if not line.startswith("Box ")),
        "",
        card,
        "",
        standings,
        winners,
    ]


def main(*, full: bool = False, rules: Rules | None = None) -> None:
    """Print the demonstration game: in short (a line per turn, the final card, the
    result and how to play), or ``full`` with the card after every turn; ``rules``
    picks the ruleset (Classic by default).

    Examples:
        >>> main()  # doctest: +ELLIPSIS
        Starting player roll-off: ...
        Round  1 - ...
        Winner...
        <BLANKLINE>
        To play: yahtzee-rules play Ann Bob ...
    """
    _, log = play_demo(DEMO_SEED, rules=rules)
    if full:
        print("\n\n".join(log))
        return
    print("\n".join(short_log(log)))
    print()
    print(HOW_TO_PLAY)
