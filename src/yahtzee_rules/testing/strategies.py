"""Hypothesis strategies for property-testing code built on yahtzee_rules.

Every strategy generates valid, reachable values: scorecards, turns and games
are produced by playing legal actions, so they satisfy every invariant the
library keeps. Values shrink towards the simplest case (fewer boxes filled,
lower faces, fewer players).

This module needs Hypothesis (``pip install hypothesis``). The library also
registers a strategy for each public type through Hypothesis' entry point, so
``st.from_type(Dice)`` works as soon as both are installed.

Examples:
    >>> from hypothesis import given
    >>> from yahtzee_rules import Scorecard, totals
    >>> from yahtzee_rules.testing import strategies as yst
    >>> @given(yst.scorecards())
    ... def test_total_is_never_negative(card: Scorecard) -> None:
    ...     assert totals(card).grand_total >= 0
    >>> test_total_is_never_negative()
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from yahtzee_rules.core.boxes import Box, Card
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.core.dice import Dice, Keep
from yahtzee_rules.core.rules import JokerRule, Rules, TieRule
from yahtzee_rules.play._filling import fill_unchecked, legal
from yahtzee_rules.play.game import MAX_PLAYERS, Game
from yahtzee_rules.play.match import MAX_BEST_OF, MAX_MATCH_PLAYER_GAMES, Match
from yahtzee_rules.play.record import Fill, GameRecord, Roll
from yahtzee_rules.play.scorecard import Scorecard, empty_card
from yahtzee_rules.play.turn import Turn, raw_turn

__all__ = [
    "categories",
    "dice",
    "games",
    "keeps",
    "matches",
    "records",
    "rules",
    "scorecards",
    "turns",
]

_YAHTZEES = tuple(d for d in Dice.all() if d.is_yahtzee)


def _check_bounds(name: str, low: int, high: int, floor: int, ceiling: int | None) -> None:
    for label, value in ((f"min_{name}", low), (f"max_{name}", high)):
        if type(value) is not int:
            raise InvalidArgument(f"{label}={value!r} must be an int")
    if low < floor or (ceiling is not None and high > ceiling) or low > high:
        top = "" if ceiling is None else f" <= {ceiling}"
        raise InvalidArgument(
            f"need {floor} <= min_{name} <= max_{name}{top}, got min_{name}={low}, "
            f"max_{name}={high}"
        )


def _check_rules(value: object) -> None:
    if value is not None and not isinstance(value, (Rules, st.SearchStrategy)):
        raise InvalidArgument(f"rules={value!r} must be a Rules, a strategy for Rules, or None")


def categories(*, card: Card = CLASSIC) -> st.SearchStrategy[Box]:
    """Any box of ``card`` (the 13 Classic boxes by default), shrinking towards the first.

    Examples:
        >>> from hypothesis import given
        >>> from yahtzee_rules import YACHT, YachtBox
        >>> @given(categories(card=YACHT))
        ... def check(category: Box) -> None:
        ...     assert isinstance(category, YachtBox)
        >>> check()
    """
    if not isinstance(card, Card):
        raise InvalidArgument(f"card={card!r} must be a Card")
    return st.sampled_from(card.members)


def dice(*, yahtzee_weight: float = 0.1) -> st.SearchStrategy[Dice]:
    """Any of the 252 distinct rolls, shrinking towards 11111.

    Args:
        yahtzee_weight: Extra chance (0 to 1) of five equal dice, so that bonus and
            Joker code is exercised far more often than the natural 1 in 1,296.

    Examples:
        >>> from hypothesis import given
        >>> @given(dice())
        ... def check(roll: Dice) -> None:
        ...     assert len(roll.faces) == 5
        >>> check()
    """
    if not isinstance(yahtzee_weight, (int, float)) or not 0 <= yahtzee_weight <= 1:
        raise InvalidArgument(f"yahtzee_weight={yahtzee_weight!r} must be a number from 0 to 1")
    plain = st.sampled_from(Dice.all())
    if yahtzee_weight == 0:
        return plain
    return st.floats(0, 1, exclude_max=True).flatmap(
        lambda u: st.sampled_from(_YAHTZEES) if u < yahtzee_weight else plain
    )


def keeps(*, of: Dice | None = None) -> st.SearchStrategy[Keep]:
    """Keeps: any of the 462, or only those that can be held from the dice ``of``.

    Examples:
        >>> from hypothesis import given
        >>> @given(keeps(of=Dice("13366")))
        ... def check(keep: Keep) -> None:
        ...     assert keep.issubset(Dice("13366"))
        >>> check()
    """
    if of is None:
        return st.sampled_from(Keep.all())
    if not isinstance(of, Dice):
        raise InvalidArgument(f"of={of!r} must be a Dice or None")
    return st.sampled_from(of.keeps())


def rules(
    *,
    jokers: tuple[JokerRule, ...] = tuple(JokerRule),
    cards: tuple[Card, ...] = (CLASSIC,),
    placements: bool = False,
) -> st.SearchStrategy[Rules]:
    """Rulesets on any of ``cards`` with any of ``jokers`` and Classic or varied bonus values.

    Shrinks towards the first card with Classic bonuses and the first Joker rule given.
    A card with no five-of-a-kind box gets no Joker and no Yahtzee bonus. With
    ``placements``, some rulesets have Forced Yahtzee (``forced_yahtzee``) or, without
    a Joker, their boxes filled in card order (``in_order``).

    Examples:
        >>> from hypothesis import given
        >>> @given(rules(jokers=(JokerRule.FORCED,)))
        ... def check(r: Rules) -> None:
        ...     assert r.joker is JokerRule.FORCED
        >>> check()
        >>> @given(rules(jokers=(JokerRule.NONE,), placements=True))
        ... def check_placements(r: Rules) -> None:
        ...     assert not (r.forced_yahtzee and r.in_order)
        >>> check_placements()
    """
    if not jokers or not all(isinstance(j, JokerRule) for j in jokers):
        raise InvalidArgument(f"jokers={jokers!r} must be a non-empty tuple of JokerRule")
    if not cards or not all(isinstance(c, Card) for c in cards):
        raise InvalidArgument(f"cards={cards!r} must be a non-empty tuple of Card")

    def placed(value: Rules) -> st.SearchStrategy[Rules]:
        options = [value, attrs.evolve(value, forced_yahtzee=True)]
        if value.joker is JokerRule.NONE:
            options.append(attrs.evolve(value, in_order=True))
        return st.sampled_from(options)

    def on(card: Card) -> st.SearchStrategy[Rules]:
        return plain(card).flatmap(placed) if placements else plain(card)

    def plain(card: Card) -> st.SearchStrategy[Rules]:
        if card.yahtzee is None:
            return st.builds(
                Rules,
                joker=st.just(JokerRule.NONE),
                upper_bonus=st.sampled_from((35, 0, 50)),
                upper_bonus_threshold=st.sampled_from((63, 0, 105)),
                yahtzee_bonus=st.just(0),
                card=st.just(card),
                tie=st.sampled_from(tuple(TieRule)),
            )
        return st.builds(
            Rules,
            joker=st.sampled_from(jokers),
            upper_bonus=st.sampled_from((35, 0, 50)),
            upper_bonus_threshold=st.sampled_from((63, 0, 105)),
            yahtzee_bonus=st.sampled_from((100, 0, 50)),
            card=st.just(card),
            tie=st.sampled_from(tuple(TieRule)),
        )

    return st.sampled_from(cards).flatmap(on)


def _rules_strategy(value: Rules | st.SearchStrategy[Rules] | None) -> st.SearchStrategy[Rules]:
    _check_rules(value)
    if value is None:
        return st.just(Rules())
    if isinstance(value, Rules):
        return st.just(value)
    return value


@st.composite
def _played_card(
    draw: st.DrawFn, rules_value: Rules, min_filled: int, max_filled: int
) -> Scorecard:
    size = len(rules_value.card)
    target = draw(st.integers(min(min_filled, size), min(max_filled, size)))
    card = empty_card(rules_value.card)
    for _ in range(target):
        roll = draw(dice())
        allowed = legal(card.boxes, roll, rules_value)
        category = draw(st.sampled_from(tuple(allowed)))
        card = fill_unchecked(card, roll, category, rules_value)
    return card


def scorecards(
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    min_filled: int = 0,
    max_filled: int = 13,
) -> st.SearchStrategy[Scorecard]:
    """Reachable scorecards with ``min_filled`` to ``max_filled`` boxes filled.

    Each card is built by filling legal boxes with generated rolls under ``rules``
    (Classic when omitted), so Joker placements and bonus marks are as the rules
    allow. A card with fewer boxes is filled at most completely; ``max_filled`` goes
    up to the largest card's 39 boxes (Triple Yahtzee). Shrinks towards the empty card.

    Examples:
        >>> from hypothesis import given
        >>> @given(scorecards(min_filled=13))
        ... def check(card: Scorecard) -> None:
        ...     assert card.is_complete
        >>> check()
    """
    _check_bounds(
        "filled", min_filled, max_filled, 0, max(len(Card.named(name)) for name in Card.names())
    )
    return _rules_strategy(rules).flatmap(lambda r: _played_card(r, min_filled, max_filled))


@st.composite
def _played_turn(draw: st.DrawFn, rules_value: Rules) -> Turn:
    card = draw(_played_card(rules_value, 0, len(rules_value.card) - 1))
    rolls = draw(st.integers(0, 3))
    if rolls == 0:
        return raw_turn(card, rules_value, None, 0)
    return raw_turn(card, rules_value, draw(dice()), rolls)


def turns(*, rules: Rules | st.SearchStrategy[Rules] | None = None) -> st.SearchStrategy[Turn]:
    """Turns in progress on reachable cards: 0 to 3 rolls used, with the dice showing.

    Examples:
        >>> from hypothesis import given
        >>> @given(turns())
        ... def check(turn: Turn) -> None:
        ...     assert 0 <= turn.rolls_left <= 3
        >>> check()
    """
    return _rules_strategy(rules).flatmap(_played_turn)


@st.composite
def _played_game(
    draw: st.DrawFn,
    rules_value: Rules,
    min_players: int,
    max_players: int,
    finished: bool | None,
) -> Game:
    count = draw(st.integers(min_players, max_players))
    first = draw(st.integers(0, count - 1))
    game = Game.new(count, rules=rules_value, first=first)
    total_turns = len(rules_value.card) * count
    if finished is True:
        turns_to_play = total_turns
    elif finished is False:
        turns_to_play = draw(st.integers(0, total_turns - 1))
    else:
        turns_to_play = draw(st.integers(0, total_turns))
    for _ in range(turns_to_play):
        assert game.turn is not None
        game = game.roll(outcome=draw(dice()))
        game = game.fill(draw(st.sampled_from(tuple(game.options))))
    if game.turn is not None:
        rolls = draw(st.integers(0, 3))
        for _ in range(rolls):
            assert game.dice is None or game.turn.rolls_left > 0
            if game.dice is None:
                game = game.roll(outcome=draw(dice()))
            else:
                keep = draw(keeps(of=game.dice))
                thrown = 5 - len(keep)
                outcome = draw(st.lists(st.integers(1, 6), min_size=thrown, max_size=thrown))
                game = game.roll(keep=keep, outcome=outcome)
    return game


def games(
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    min_players: int = 1,
    max_players: int = 4,
    finished: bool | None = None,
) -> st.SearchStrategy[Game]:
    """Games reached by legal play: any number of turns taken, possibly mid-turn.

    Args:
        rules: A rule set or a strategy for one (Classic when omitted).
        min_players: Fewest players (at least 1).
        max_players: Most players, at most :data:`~yahtzee_rules.play.game.MAX_PLAYERS`.
        finished: ``True`` for finished games only, ``False`` for unfinished only,
            ``None`` for either.

    Examples:
        >>> from hypothesis import given, settings
        >>> @settings(max_examples=5)
        ... @given(games(finished=True, max_players=2))
        ... def check(game: Game) -> None:
        ...     assert game.is_over and game.result.winners
        >>> check()
    """
    _check_bounds("players", min_players, max_players, 1, MAX_PLAYERS)
    if finished not in (None, True, False):
        raise InvalidArgument(f"finished={finished!r} must be True, False or None")
    return _rules_strategy(rules).flatmap(
        lambda r: _played_game(r, min_players, max_players, finished)
    )


@st.composite
def _played_record(
    draw: st.DrawFn, rules_value: Rules, min_players: int, max_players: int
) -> GameRecord:
    count = draw(st.integers(min_players, max_players))
    record = GameRecord.new(
        [f"Player {i + 1}" for i in range(count)],
        rules=rules_value,
        first=draw(st.integers(0, count - 1)),
    )
    for _ in range(draw(st.integers(0, len(rules_value.card) * count))):
        record = record.play(Roll(draw(dice())))
        for _ in range(draw(st.integers(0, 2))):
            held = draw(keeps(of=record.game.dice))
            thrown = draw(
                st.lists(st.integers(1, 6), min_size=5 - len(held), max_size=5 - len(held))
            )
            record = record.play(Roll(thrown, keep=held))
        record = record.play(Fill(draw(st.sampled_from(tuple(record.game.options)))))
    return record


def records(
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    min_players: int = 1,
    max_players: int = 3,
) -> st.SearchStrategy[GameRecord]:
    """Game records of legal play from a new game: rolls (with keeps and outcomes) and fills.

    Shrinks towards fewer players and fewer actions.

    Examples:
        >>> from hypothesis import given, settings
        >>> @settings(max_examples=5)
        ... @given(records(max_players=2))
        ... def check(record: GameRecord) -> None:
        ...     assert GameRecord.parse(str(record)) == record
        >>> check()
    """
    _check_bounds("players", min_players, max_players, 1, MAX_PLAYERS)
    return _rules_strategy(rules).flatmap(lambda r: _played_record(r, min_players, max_players))


@st.composite
def _played_match(
    draw: st.DrawFn,
    rules_value: Rules,
    best_of: tuple[int, ...],
    min_players: int,
    max_players: int,
) -> Match:
    count = draw(st.integers(min_players, max_players))
    match = Match.new(
        count,
        best_of=draw(st.sampled_from(best_of)),
        rules=rules_value,
        first=draw(st.integers(0, count - 1)),
    )
    while True:
        if match.current is None:
            if not match.can_start_next() or not draw(st.booleans()):
                return match
            match = match.next_game()
        game = match.current.game if match.current is not None else None
        assert game is not None
        turns_left = sum(len(rules_value.card) - card.turns_played for card in game.cards)
        finish = draw(st.booleans())
        for _ in range(turns_left if finish else draw(st.integers(0, turns_left - 1))):
            match = match.roll(outcome=draw(dice()))
            current = match.current
            assert current is not None
            match = match.fill(draw(st.sampled_from(tuple(current.game.options))))
        if not finish:
            if draw(st.booleans()):
                match = match.roll(outcome=draw(dice()))
            return match


def matches(
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    best_of: tuple[int, ...] = (1, 3),
    min_players: int = 2,
    max_players: int = 2,
) -> st.SearchStrategy[Match]:
    """Matches reached by legal play: finished games, then possibly a game in progress.

    Args:
        rules: A rule set or a strategy for one (Classic when omitted).
        best_of: The match lengths to choose from (odd, 1 to 99).
        min_players: Fewest players (at least 2).
        max_players: Most players.

    Shrinks towards fewer players, the first match length given and fewer games.

    Examples:
        >>> from hypothesis import given, settings
        >>> @settings(max_examples=5)
        ... @given(matches())
        ... def check(match: Match) -> None:
        ...     assert sum(match.wins) == match.games_counted
        >>> check()
    """
    _check_bounds("players", min_players, max_players, 2, None)
    if (
        not isinstance(best_of, tuple)
        or not best_of
        or not all(type(n) is int and 1 <= n <= MAX_BEST_OF and n % 2 for n in best_of)
    ):
        raise InvalidArgument(
            f"best_of={best_of!r} must be a non-empty tuple of odd ints from 1 to {MAX_BEST_OF}"
        )
    if max(best_of) * max_players > MAX_MATCH_PLAYER_GAMES:
        raise InvalidArgument(
            f"best_of={best_of!r} with max_players={max_players}: a match holds at most "
            f"{MAX_MATCH_PLAYER_GAMES} player-games (players times games)"
        )
    return _rules_strategy(rules).flatmap(
        lambda r: _played_match(r, best_of, min_players, max_players)
    )
