"""Nothing a reader cannot take back: every value the constructors accept writes and reads
back in every format (notation, dicts, JSON compact and indented, share codes, rule names),
and a value beyond the bounds in ``yahtzee_rules.support._limits`` is refused when it is built.

The property tests draw values of every kind, bound values included (the most players,
the longest names with the longest escapes, nine-digit bonuses), and either round-trip
them or check that construction refused them. The largest record the bounds allow is
built and read back in every format.
"""

from __future__ import annotations

import base64
import zlib
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    YACHT,
    YATZY,
    Card,
    Category,
    Game,
    GameRecord,
    IllegalActionError,
    JokerRule,
    MalformedInputError,
    Match,
    Rules,
    Scorecard,
    TieRule,
    Turn,
    from_dict,
    from_json,
    from_notation,
    to_dict,
    to_json,
)
from yahtzee_rules.core.classic import CLASSIC
from yahtzee_rules.formats.notation import MAX_INPUT_LENGTH, to_notation
from yahtzee_rules.formats.serialization import MAX_JSON_INDENT, MAX_JSON_LENGTH
from yahtzee_rules.play.game import MAX_NAME_LENGTH, MAX_PLAYERS
from yahtzee_rules.play.match import MAX_BEST_OF, MAX_MATCH_LENGTH, MAX_MATCH_PLAYER_GAMES
from yahtzee_rules.support._text import name_problem
from yahtzee_rules.testing import strategies as yst

# Interpreter-independent and costly: CI runs it on 3.11 only (see pyproject.toml).
pytestmark = pytest.mark.main_interpreter

MAX_BONUS = 999_999_999
# the shipped cards of one column, with the cards that house switches make (classic+5fh, ...)
CARDS = (
    CLASSIC,
    YACHT,
    YATZY,
    *(Card.named(name) for name in Card.names(switched=True) if "+" in name),
)
# Characters whose escapes are longest: unprintable outside the BMP is 12 characters of
# notation (%XX for each of 4 UTF-8 bytes), 12 of JSON (two \\uXXXX) and 4 bytes of share code.
WIDE = "\U000f0000"


def round_trips(value: object) -> None:
    """``value`` writes and reads back, equal, in every format that has its kind."""
    kind = type(value)
    is_match = isinstance(value, Match)
    text = to_notation(value)
    assert len(text) <= (MAX_MATCH_LENGTH if is_match else MAX_INPUT_LENGTH)
    assert from_notation(text, kind) == value
    assert from_dict(to_dict(value), kind) == value
    for indent in (None, MAX_JSON_INDENT):
        written = to_json(value, indent=indent)
        assert len(written) <= (MAX_MATCH_LENGTH if is_match else MAX_JSON_LENGTH)
        assert from_json(written, kind) == value
        assert from_json(written.encode("utf-8"), kind) == value
    if isinstance(value, Match):
        code = value.share_code()
        assert len(code) <= MAX_MATCH_LENGTH
        assert Match.from_share_code(code) == value
        assert Match.parse(str(value)) == value
    if isinstance(value, Rules):
        assert Rules.from_name(value.name) == value
        assert Rules.parse(str(value)) == value
    if isinstance(value, Game):
        value = GameRecord.from_game(value)
    if isinstance(value, GameRecord):
        code = value.share_code()
        assert len(code) <= MAX_INPUT_LENGTH
        assert GameRecord.from_share_code(code) == value
        assert GameRecord.parse(str(value)) == value
        round_trips_game(value.game)


def round_trips_game(game: Game) -> None:
    assert from_notation(to_notation(game), Game) == game
    assert from_json(to_json(game), Game) == game


bonus_values = st.one_of(
    st.sampled_from((0, 1, 35, 63, 100, MAX_BONUS - 1, MAX_BONUS, MAX_BONUS + 1, 10**9, 10**30)),
    st.integers(-3, 2 * MAX_BONUS),
)


@st.composite
def any_rules_arguments(draw: st.DrawFn) -> dict[str, Any]:
    """Keyword arguments for Rules: any card, Joker, tie rule, placement rules (Forced
    Yahtzee, boxes in card order) and bonus values, in bounds or not."""
    return {
        "card": draw(st.sampled_from(CARDS)),
        "joker": draw(st.sampled_from(tuple(JokerRule))),
        "tie": draw(st.sampled_from(tuple(TieRule))),
        "upper_bonus": draw(bonus_values),
        "upper_bonus_threshold": draw(bonus_values),
        "yahtzee_bonus": draw(st.just(0) | bonus_values),
        "forced_yahtzee": draw(st.booleans()),
        "in_order": draw(st.booleans()),
    }


def built_rules(arguments: dict[str, Any]) -> Rules | None:
    """The rules, or None when construction refuses them (the only allowed failure)."""
    try:
        return Rules(**arguments)
    except MalformedInputError:
        return None


@st.composite
def valid_rules(draw: st.DrawFn) -> Rules:
    """Rules of any card at or inside the bounds; a refused draw falls back to its card's own."""
    arguments = draw(any_rules_arguments())
    return built_rules(arguments) or Rules.for_card(arguments["card"])


names = st.one_of(
    st.text(min_size=1, max_size=12),
    st.text(
        alphabet=st.sampled_from(
            ["a", " ", "%", ",", ":", WIDE, "\u00e9", "\U0001f600", "\ud800", "\x00"]
        )
    ),
    st.integers(MAX_NAME_LENGTH - 1, MAX_NAME_LENGTH + 1).map(lambda n: "n" * n),
    st.integers(MAX_NAME_LENGTH - 1, MAX_NAME_LENGTH + 1).map(lambda n: WIDE * n),
)

player_lists = st.one_of(
    st.lists(names, min_size=0, max_size=4),
    st.integers(MAX_PLAYERS - 1, MAX_PLAYERS + 1).map(lambda n: [f"P{i}" for i in range(n)]),
)


@settings(max_examples=300)
@given(any_rules_arguments())
def test_rules_round_trip_or_are_refused(arguments: dict[str, Any]) -> None:
    rules = built_rules(arguments)
    values = (arguments["upper_bonus"], arguments["upper_bonus_threshold"])
    if rules is None:
        return
    assert max(*values, arguments["yahtzee_bonus"]) <= MAX_BONUS
    round_trips(rules)


def test_bonus_values_beyond_nine_digits_are_refused() -> None:
    for field in ("upper_bonus", "upper_bonus_threshold", "yahtzee_bonus"):
        at_limit: dict[str, Any] = {field: MAX_BONUS}
        round_trips(Rules(**at_limit))
        with pytest.raises(MalformedInputError, match=f"more than the limit of {MAX_BONUS}"):
            Rules(**{**at_limit, field: MAX_BONUS + 1})


@settings(max_examples=100)
@given(yst.scorecards(rules=valid_rules()))
def test_scorecards_round_trip(card: Scorecard) -> None:
    round_trips(card)


@settings(max_examples=100)
@given(yst.turns(rules=valid_rules()))
def test_turns_round_trip(turn: Turn) -> None:
    round_trips(turn)


@settings(max_examples=60)
@given(valid_rules(), player_lists, st.integers(0, 60), st.data())
def test_games_and_records_round_trip_or_are_refused(
    rules: Rules, players: list[str], turns: int, data: st.DataObject
) -> None:
    try:
        record = GameRecord.new(players, rules=rules)
    except MalformedInputError:
        assert (
            not 1 <= len(players) <= MAX_PLAYERS
            or len(set(players)) < len(players)
            or any(name_problem(name) is not None for name in players)  # blank, long, unprintable
        )
        return
    for _ in range(turns):
        if record.game.is_over:
            break
        record = record.roll(outcome=data.draw(yst.dice()))
        if data.draw(st.booleans()):
            record = record.roll(keep=record.game.dice.faces[:2], outcome="666")  # type: ignore[union-attr]
        record = record.fill(data.draw(st.sampled_from(tuple(record.game.options))))
    round_trips(record)
    round_trips(record.game)
    round_trips(record.game.cards[0])
    if record.game.turn is not None:
        round_trips(record.game.turn)


@settings(max_examples=30)
@given(yst.games(rules=valid_rules(), max_players=3))
def test_generated_games_round_trip(game: Game) -> None:
    round_trips(game)


def longest_names(count: int) -> list[str]:
    """``count`` names of the most characters, each needing the longest escape."""
    return [WIDE * (MAX_NAME_LENGTH - 1) + chr(0xF0001 + seat) for seat in range(count)]


def largest_record(
    rules: Rules,
    box_order: tuple[Any, ...] | None = None,
    players: int = MAX_PLAYERS,
    first: int = 0,
) -> GameRecord:
    """The most players, the longest names with the longest escapes, three rolls every turn."""
    record = GameRecord.new(longest_names(players), rules=rules, first=first)
    while not record.game.is_over:
        record = record.roll(outcome="66666")
        record = record.roll(keep="6666", outcome="6")
        record = record.roll(keep="6666", outcome="6")
        options = record.game.options
        record = record.fill(next(iter(options)))
    return record


@pytest.mark.parametrize(
    "rules",
    [
        Rules(card=YATZY, joker="none", upper_bonus=MAX_BONUS, yahtzee_bonus=0, tie="play-off"),
        Rules(upper_bonus=MAX_BONUS, upper_bonus_threshold=MAX_BONUS, yahtzee_bonus=MAX_BONUS),
        # the longest card: 39 boxes
        attrs.evolve(Rules.from_name("triple"), upper_bonus=MAX_BONUS, yahtzee_bonus=MAX_BONUS),
    ],
    ids=["yatzy", "classic", "triple"],
)
def test_the_largest_record_round_trips_in_every_format(rules: Rules) -> None:
    record = largest_record(rules)
    assert len(record.actions) == MAX_PLAYERS * len(rules.card) * 4
    round_trips(record)


def test_a_thirteen_character_share_code_of_5000_players_is_refused() -> None:
    data = bytearray([0b1000, 0x88, 0x27, 0])  # default names; 5,000 players; seat 0
    data += zlib.crc32(data).to_bytes(4, "big")
    code = "y1" + base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")
    assert len(code) <= 13
    with pytest.raises(MalformedInputError, match="5000 players; more than the limit of 50"):
        GameRecord.from_share_code(code)


def test_bounds_are_refused_by_every_reader_and_constructor() -> None:
    too_many = [f"P{i}" for i in range(MAX_PLAYERS + 1)]
    long_name = "n" * (MAX_NAME_LENGTH + 1)
    for players in (too_many, ["Ann", long_name], MAX_PLAYERS + 1):
        with pytest.raises(MalformedInputError, match="limit of"):
            Game.new(players)
        with pytest.raises(MalformedInputError, match="limit of"):
            GameRecord.new(players)
    with pytest.raises(MalformedInputError, match="limit of"):
        Game.parse("forced 0 " + ",".join(too_many))
    with pytest.raises(MalformedInputError, match="limit of"):
        Game.parse(f"forced 0 Ann,{long_name}")
    document = to_dict(Game.new(["Ann"]))
    with pytest.raises(MalformedInputError, match="at most 50"):
        from_dict({**document, "players": too_many, "cards": [{}] * 51}, Game)
    with pytest.raises(MalformedInputError, match="limit of 100"):
        from_dict({**document, "players": ["x" * 100_001]}, Game)
    card = Scorecard({Category.CHANCE: 20})
    assert from_notation(to_notation(card), Scorecard) == card


# --- matches ---------------------------------------------------------------------------------


@settings(max_examples=25)
@given(yst.matches(rules=valid_rules(), best_of=(1, 3, 5), max_players=3))
def test_matches_round_trip(match: Match) -> None:
    round_trips(match)


def test_the_largest_match_round_trips_in_every_format() -> None:
    # Two players of the longest names on the longest card, every game tied (both play the
    # same), so under the play-off tie rule no game counts and games go on to the limit.
    rules = attrs.evolve(Rules.from_name("triple"), tie=TieRule.PLAY_OFF, upper_bonus=MAX_BONUS)
    seats = 2
    games = MAX_MATCH_PLAYER_GAMES // seats
    played = [largest_record(rules, players=seats, first=first) for first in range(seats)]
    match = Match(MAX_BEST_OF, [played[index % seats] for index in range(games)])
    assert len(match.players) * len(match.records) == MAX_MATCH_PLAYER_GAMES
    assert not match.is_decided
    assert not match.can_start_next()
    with pytest.raises(IllegalActionError, match="limit of 250 player-games"):
        match.next_game()
    round_trips(match)


def test_a_match_beyond_the_player_games_limit_is_refused_when_built() -> None:
    with pytest.raises(MalformedInputError, match="4950 player-games, more than the limit of 250"):
        Match.new(MAX_PLAYERS, best_of=MAX_BEST_OF)
    Match.new(MAX_PLAYERS, best_of=5)
    Match.new(2, best_of=MAX_BEST_OF)
    start = GameRecord.new(["Ann", "Bob"], rules=Rules(tie="play-off"))
    with pytest.raises(MalformedInputError, match="126 games started: 252 player-games"):
        Match(3, [start] * 126)


def test_match_readers_refuse_more_player_games_before_reading_the_games() -> None:
    game = " :" * 126
    with pytest.raises(MalformedInputError, match="126 games of 2 players"):
        Match.parse("bo3 forced 0 Ann,Bob" + game)
    code = Match.new(["Ann", "Bob"]).share_code()
    with pytest.raises(MalformedInputError, match="126 games; a match holds at most 250"):
        Match.from_share_code(code + code[code.index(".y1") :] * 125)
    document = to_dict(Match.new(["Ann", "Bob"]))
    with pytest.raises(MalformedInputError, match="at most 125"):
        from_dict({**document, "records": document["records"] * 126}, Match)
    with pytest.raises(MalformedInputError, match=f"limit of {MAX_MATCH_LENGTH} characters"):
        from_json(" " * (MAX_MATCH_LENGTH + 1), Match)


# --- cards the formats cannot name -----------------------------------------------------------


def test_a_card_that_is_not_registered_is_refused_by_every_writer() -> None:
    from yahtzee_rules.core.yacht import YachtBox, yacht_scores

    plain = Card(name="plain", title="Plain", boxes=YachtBox, scorer=yacht_scores)
    house = Card(
        name="classic",
        title="Classic (house)",
        boxes=Category,
        scorer=CLASSIC.scorer,
        yahtzee=Category.YAHTZEE,
        joker_values=CLASSIC.joker_values,
    )
    for card, gives in ((plain, "gives no card"), (house, r"gives another card \(Classic\)")):
        assert not card.is_registered
        rules = Rules.for_card(card)
        record = GameRecord.new(["Ann"], rules=rules)
        for value in (rules, Scorecard(card=card), Turn(rules=rules), record.game, record):
            with pytest.raises(MalformedInputError, match=f"not registered, so JSON.*{gives}"):
                to_json(value)
            with pytest.raises(MalformedInputError, match="not registered, so notation"):
                to_notation(value)
        with pytest.raises(MalformedInputError, match="not registered, so a share code"):
            record.share_code()
    for name in Card.names(switched=True):
        assert Card.named(name).is_registered
