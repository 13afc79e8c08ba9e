"""Whole games played by Hypothesis with random legal (and some illegal) actions.

After every step the invariants of the rules hold: one box per turn, at most
three rolls, seat order, totals that add up, earlier values never change.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from yahtzee_rules import (
    Category,
    Game,
    IllegalActionError,
    Keep,
    Rules,
    possible_values,
    totals,
)
from yahtzee_rules.testing import strategies as yst


class GamePlay(RuleBasedStateMachine):
    """Plays solo and multi-player games; keeps every earlier state to check nothing mutates."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game = Game.new(1)
        self.history: list[tuple[Game, tuple[object, ...]]] = []
        self.fills = 0

    @initialize(players=st.integers(1, 3), first=st.integers(0, 2), rules=yst.rules())
    def start(self, players: int, first: int, rules: Rules) -> None:
        self.game = Game.new(players, rules=rules, first=first % players)
        self.snapshot()

    def snapshot(self) -> None:
        game = self.game
        self.history.append((game, (game.cards, game.current, game.turn)))

    @precondition(lambda self: not self.game.is_over and self.game.rolls_left > 0)
    @rule(data=st.data())
    def roll(self, data: st.DataObject) -> None:
        dice = self.game.dice
        keep = Keep() if dice is None else data.draw(yst.keeps(of=dice))
        outcome = data.draw(
            st.lists(st.integers(1, 6), min_size=5 - len(keep), max_size=5 - len(keep))
        )
        before = self.game
        self.game = self.game.roll(keep=keep, outcome=outcome)
        assert self.game.rolls_left == before.rolls_left - 1
        assert self.game.current == before.current
        self.snapshot()

    @precondition(lambda self: not self.game.is_over and self.game.rolls_left == 0)
    @rule()
    def fourth_roll_is_refused(self) -> None:
        with pytest.raises(IllegalActionError, match="at most three rolls"):
            self.game.roll()

    @precondition(lambda self: not self.game.is_over and self.game.dice is not None)
    @rule(data=st.data())
    def fill(self, data: st.DataObject) -> None:
        options = self.game.options
        category = data.draw(st.sampled_from(tuple(options)))
        before = self.game
        self.game = self.game.fill(category)
        self.fills += 1
        card = self.game.cards[before.current]
        assert card[category] == options[category]
        assert card.turns_played == before.cards[before.current].turns_played + 1
        if not self.game.is_over:
            assert self.game.current == (before.current + 1) % len(before.players)
            assert self.game.dice is None
            assert self.game.rolls_left == 3
        self.snapshot()

    @precondition(lambda self: not self.game.is_over and self.game.dice is not None)
    @rule(category=yst.categories())
    def illegal_fill_is_refused_without_change(self, category: Category) -> None:
        if category in self.game.options:
            return
        with pytest.raises(IllegalActionError):
            self.game.fill(category)

    @precondition(lambda self: self.game.is_over)
    @rule()
    def finished(self) -> None:
        result = self.game.result
        # a play-off (TieRule.PLAY_OFF) names the tied players instead of winners
        assert bool(result.winners) != bool(result.play_off)
        top = result.standings[0].total
        leaders = {s.player for s in result.standings if s.total == top}
        assert set(result.winners or result.play_off) <= leaders
        assert self.fills == 13 * len(self.game.players)
        with pytest.raises(IllegalActionError, match="the game is over"):
            self.game.roll()

    @invariant()
    def cards_are_consistent(self) -> None:
        game = self.game
        for card in game.cards:
            for category, points in card:
                assert points is None or points in possible_values(category)
            t = totals(card, rules=game.rules)
            assert t.grand_total == t.upper_total + t.lower_total
            assert card.bonus_marks == 0 or card[Category.YAHTZEE] == 50
        played = [card.turns_played for card in game.cards]
        assert max(played) - min(played) <= 1

    @invariant()
    def earlier_states_never_change(self) -> None:
        for game, fields in self.history[-5:]:
            assert (game.cards, game.current, game.turn) == fields


TestGamePlay = GamePlay.TestCase
TestGamePlay.settings = settings(max_examples=30, stateful_step_count=250, deadline=None)
