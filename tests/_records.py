"""Shared test helpers: a strategy for game records, a full re-validation of values, one
example value of each kind that has a notation, and a game one turn from a tie."""

from __future__ import annotations

from hypothesis import strategies as st

from yahtzee_rules import (
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    Keep,
    Match,
    Roll,
    Rules,
    Scorecard,
    Turn,
)
from yahtzee_rules.support._text import name_problem
from yahtzee_rules.testing import strategies as yst


@st.composite
def records(
    draw: st.DrawFn,
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    max_players: int = 3,
    max_turns: int | None = None,
    from_game: bool = False,
) -> GameRecord:
    """Records played by legal random actions, from a new game or a generated position."""
    if from_game:
        start = draw(yst.games(rules=rules, max_players=max_players))
        record = GameRecord.from_game(start)
    else:
        rules_value = draw(
            st.just(Rules())
            if rules is None
            else rules
            if isinstance(rules, st.SearchStrategy)
            else st.just(rules)
        )
        count = draw(st.integers(1, max_players))
        names = draw(
            st.one_of(
                st.just([f"Player {i + 1}" for i in range(count)]),
                st.lists(
                    st.text(min_size=1, max_size=8).filter(lambda n: name_problem(n) is None),
                    min_size=count,
                    max_size=count,
                    unique=True,
                ),
            )
        )
        record = GameRecord.new(names, rules=rules_value, first=draw(st.integers(0, count - 1)))
    turns = draw(st.integers(0, 13 * len(record.start.players) if max_turns is None else max_turns))
    for _ in range(turns):
        if record.game.is_over:
            break
        record = play_turn(draw, record)
    # Possibly stop in the middle of a turn.
    if not record.game.is_over:
        for _ in range(draw(st.integers(0, 3))):
            if record.game.rolls_left:
                record = record.play(draw(legal_rolls(record.game)))
    return record


def legal_rolls(game: Game) -> st.SearchStrategy[Roll]:
    """A roll the current player may make now (the turn must have a roll left)."""
    assert game.turn is not None
    assert game.turn.rolls_left > 0
    dice = game.dice
    if dice is None:
        return yst.dice().map(lambda d: Roll(d))
    return st.sampled_from(dice.keeps()).flatmap(
        lambda keep: st.lists(
            st.integers(1, 6), min_size=5 - len(keep), max_size=5 - len(keep)
        ).map(lambda outcome: Roll(outcome, keep=keep))
    )


def play_turn(draw: st.DrawFn, record: GameRecord) -> GameRecord:
    if record.game.dice is None:
        record = record.play(draw(legal_rolls(record.game)))
    for _ in range(draw(st.integers(0, 2))):
        if record.game.rolls_left:
            record = record.play(draw(legal_rolls(record.game)))
    return record.play(Fill(draw(st.sampled_from(tuple(record.game.options)))))


def rebuilt_game(game: Game, turn: Turn | None) -> Game:
    """``game``'s fields, with ``turn``, through the validating constructor."""
    return Game(
        game.players,
        rules=game.rules,
        cards=game.cards,
        first=game.first,
        current=game.current,
        turn=turn,
    )


def revalidate(value: object) -> None:
    """Rebuild ``value`` through the validating constructors; raises if it breaks an invariant."""
    if isinstance(value, Scorecard):
        Scorecard(value.boxes, bonus_marks=value.bonus_marks)
    elif isinstance(value, Turn):
        revalidate(value.card)
        Turn(value.card, rules=value.rules, dice=value.dice, rolls_used=value.rolls_used)
        assert not (value.card.bonus_marks and value.rules.yahtzee_bonus == 0)
    elif isinstance(value, Game):
        for card in value.cards:
            revalidate(card)
            assert not (card.bonus_marks and value.rules.yahtzee_bonus == 0)
        turn = value.turn
        if turn is not None:
            revalidate(turn)
            turn = Turn(turn.card, rules=turn.rules, dice=turn.dice, rolls_used=turn.rolls_used)
        rebuilt_game(value, turn)
    elif isinstance(value, GameRecord):
        revalidate(value.start)
        replayed = GameRecord(value.start, value.actions)
        assert replayed.game == value.game
        revalidate(value.game)


def example_of(kind: type) -> object:
    """One valid value of ``kind`` (a two-player game and record for those kinds)."""
    examples: dict[type, object] = {
        Dice: Dice("12345"),
        Keep: Keep("33"),
        Category: Category.CHANCE,
        Rules: Rules(),
        Scorecard: Scorecard(),
        Turn: Turn(),
        Game: Game.new(["Ann", "Bob"]),
        Roll: Roll("12345"),
        Fill: Fill(Category.CHANCE),
        GameRecord: GameRecord.new(["Ann", "Bob"]),
        Match: Match.new(["Ann", "Bob"]),
    }
    return examples[kind]


def play_off_tie_record() -> GameRecord:
    """Ann and Bob under the play-off tie rule, each with only Yahtzee open and 5 points: a
    Yahtzee box filled with anything but a Yahtzee leaves them tied."""
    rules = Rules(tie="play-off")
    card = Scorecard({c: 0 for c in Category if c is not Category.YAHTZEE} | {Category.CHANCE: 5})
    game = Game(
        ["Ann", "Bob"],
        rules=rules,
        cards=(card, card),
        first=0,
        current=0,
        turn=Turn(card, rules=rules),
    )
    return GameRecord.from_game(game)
