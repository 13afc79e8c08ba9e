"""Matches (002: "Play best of three or five. Alternate who rolls first each game.")."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    Category,
    GameRecord,
    IllegalActionError,
    MalformedInputError,
    Match,
    Rules,
    TieRule,
    from_json,
    json_schema,
    to_dict,
    to_json,
)
from yahtzee_rules.testing import strategies as yst

C = Category


def play_game(match: Match, winner: str | None) -> Match:
    """Play the current game out: every box but Chance alike, then Chance decides.

    Each player fills the open boxes in card order with 12346; in Chance, ``winner``
    writes 7 and everyone else 6 (all write 6 for a tie, ``winner`` None).
    """
    while match.current is not None:
        game = match.current.game
        player = game.current_player
        box = game.player_card(player).open_categories[0]
        dice = "12346"
        if box is C.CHANCE:
            dice = "11113" if player == winner else "11112"
        match = match.roll(outcome=dice).fill(box)
    return match


def test_a_match_starts_its_first_game_with_the_given_seat() -> None:
    match = Match.new(["Ann", "Bob", "Cy"], best_of=5, first=2)
    assert match.current is not None
    assert match.current.game.current_player == "Cy"
    assert match.records[0].start.first == 2
    assert match.wins == (Fraction(0),) * 3
    assert not match.is_decided
    assert match.winners == ()
    assert match.next_first == 0


def test_best_of_must_be_odd_and_a_match_needs_two_players() -> None:
    with pytest.raises(MalformedInputError, match="best_of 2: not an odd int"):
        Match.new(2, best_of=2)
    with pytest.raises(MalformedInputError, match="best_of 101"):
        Match.new(2, best_of=101)
    with pytest.raises(MalformedInputError, match="at least two players"):
        Match.new(1)


def test_a_decided_match_stops_and_names_its_winner() -> None:
    match = play_game(Match.new(["Ann", "Bob"], best_of=3), "Ann")
    assert match.wins == (Fraction(1), Fraction(0))
    assert not match.is_decided
    assert match.current is None
    assert match.can_start_next()
    match = match.next_game()
    assert match.current is not None
    assert match.current.game.current_player == "Bob"
    match = play_game(match, "Ann")
    assert match.is_decided
    assert match.winners == ("Ann",)
    assert not match.can_start_next()
    with pytest.raises(IllegalActionError, match="the match is decided, won by Ann"):
        match.next_game()
    with pytest.raises(IllegalActionError, match="no game is in progress; the match is decided"):
        match.roll(outcome="12345")
    assert [s.player for s in match.standings()] == ["Ann", "Bob"]


def test_the_next_game_waits_for_the_current_one() -> None:
    with pytest.raises(IllegalActionError, match="game 1 is still being played"):
        Match.new(2).next_game()
    match = play_game(Match.new(["Ann", "Bob"]), "Bob")
    with pytest.raises(IllegalActionError, match="start the next game with next_game"):
        match.fill(C.CHANCE)


def test_a_shared_game_counts_half_a_win_each_and_a_match_can_be_shared() -> None:
    match = play_game(Match.new(["Ann", "Bob"], best_of=1), None)
    assert match.results[0].winners == ("Ann", "Bob")
    assert match.wins == (Fraction(1, 2), Fraction(1, 2))
    assert match.is_decided
    assert match.winners == ("Ann", "Bob")
    assert [s.rank for s in match.standings()] == [1, 1]


def test_under_play_off_a_tied_game_does_not_count_and_is_played_again() -> None:
    rules = Rules(tie=TieRule.PLAY_OFF)
    match = play_game(Match.new(["Ann", "Bob"], best_of=1, rules=rules), None)
    assert match.results[0].play_off == ("Ann", "Bob")
    assert match.wins == (Fraction(0), Fraction(0))
    assert match.games_counted == 0
    assert not match.is_decided
    match = play_game(match.next_game(), "Bob")
    assert match.is_decided
    assert match.winners == ("Bob",)
    assert match.games_counted == 1
    assert [record.start.first for record in match.records] == [0, 1]


def test_a_lead_larger_than_the_games_left_decides_early() -> None:
    match = Match.new(["Ann", "Bob"], best_of=5)
    for _ in range(2):
        match = play_game(match, "Bob").next_game()
    match = play_game(match, "Bob")
    assert match.wins == (Fraction(0), Fraction(3))
    assert match.is_decided
    assert match.games_counted == 3


def test_a_match_reads_back_from_notation_json_and_share_code() -> None:
    match = play_game(Match.new(["Ann", "Bob"], best_of=3), "Ann").next_game()
    match = match.roll(outcome="22345")
    assert str(match).startswith("bo3 forced 0 Ann,Bob : ")
    assert str(match).endswith(" : 22345")
    assert Match.parse(str(match)) == match
    assert eval(repr(match)) == match
    assert Match.from_share_code(match.share_code()) == match
    assert from_json(to_json(match), Match) == match
    import jsonschema

    jsonschema.Draft202012Validator(json_schema()).validate(to_dict(match))


def test_readers_refuse_other_rules_and_broken_matches() -> None:
    match = Match.new(["Ann", "Bob"])
    text = str(match)
    assert text == "bo3 forced 0 Ann,Bob :"
    with pytest.raises(
        MalformedInputError, match="written under the 'forced' rules, not the 'none'"
    ):
        Match.parse(text, rules=Rules(joker="none"))
    with pytest.raises(MalformedInputError, match="written under the 'forced' rules"):
        Match.from_share_code(match.share_code(), rules=Rules.from_name("yacht"))
    with pytest.raises(MalformedInputError, match="written under the 'forced' rules"):
        from_json(to_json(match), Match, rules=Rules.from_name("yatzy"))
    with pytest.raises(MalformedInputError, match="'bo2' is not 'bo' and an odd number"):
        Match.parse("bo2 forced 0 Ann,Bob :")
    with pytest.raises(MalformedInputError, match="game 1 is not over but a later game"):
        Match.parse("bo3 forced 0 Ann,Bob : 12345 :")
    with pytest.raises(MalformedInputError, match="game 1: game record"):
        Match.parse("bo3 forced 0 Ann,Bob : c")
    with pytest.raises(MalformedInputError, match="at least two players"):
        Match.parse("bo3 forced 0 Ann :")
    with pytest.raises(MalformedInputError, match="game 2: "):
        Match.from_share_code(match.share_code() + ".y1AAAA")
    with pytest.raises(MalformedInputError, match="not a match code"):
        Match.from_share_code("y1AAIAA0FubgNCb2I")
    wrong_start = GameRecord.new(["Ann", "Bob"], first=0)
    with pytest.raises(MalformedInputError, match="seat 1 to roll first"):
        Match(3, [play_game(match, "Ann").records[0], wrong_start])
    with pytest.raises(MalformedInputError, match="same players and rules"):
        Match(3, [play_game(match, "Ann").records[0], GameRecord.new(["Ann", "Cy"], first=1)])
    with pytest.raises(MalformedInputError, match="not a record of the current game"):
        match.with_record(GameRecord.new(["Ann", "Bob"], first=1))
    data = to_dict(match)
    data["best_of"] = 4
    with pytest.raises(MalformedInputError, match=r"match JSON at \$"):
        from_json(to_json(match).replace('"best_of":3', '"best_of":4'), Match)


def test_evolve_checks_the_records() -> None:
    match = play_game(Match.new(["Ann", "Bob"], best_of=1), "Ann")
    with pytest.raises(MalformedInputError, match="after the match was decided"):
        attrs.evolve(match, records=(*match.records, GameRecord.new(["Ann", "Bob"], first=1)))


# --- properties ---------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(yst.matches(rules=yst.rules(), best_of=(1, 3, 5), max_players=3))
def test_properties_of_every_match(match: Match) -> None:
    seats = len(match.players)
    # The first player rotates: game i starts with seat first + i.
    for index, record in enumerate(match.records):
        assert record.start.first == (match.first + index) % seats
    # Wins add up to the games that count; every finished game counts unless played off.
    assert sum(match.wins) == match.games_counted
    played_off = sum(1 for result in match.results if result.play_off)
    assert match.games_counted == len(match.finished) - played_off
    if match.rules.tie is not TieRule.PLAY_OFF:
        assert match.games_counted == len(match.finished)
    # A decided match stops: no game in progress, none to start, winners named.
    if match.is_decided:
        assert match.current is None
        assert match.winners
        assert not match.can_start_next()
        with pytest.raises(IllegalActionError):
            match.next_game()
    else:
        assert match.winners == ()
    # It reads back from every format.
    assert Match.parse(str(match)) == match
    assert Match.from_share_code(match.share_code()) == match
    assert from_json(to_json(match), Match) == match


@settings(max_examples=10, deadline=None)
@given(st.from_type(Match))
def test_the_registered_strategy_gives_matches(match: Match) -> None:
    assert isinstance(match, Match)
    assert Match(match.best_of, match.records) == match


def test_to_and_from_notation_read_a_match_and_check_its_rules() -> None:
    from yahtzee_rules import from_notation, to_notation

    match = Match.new(["Ann", "Bob"]).roll(outcome="12345")
    assert to_notation(match) == str(match)
    assert from_notation(str(match), Match) == match
    with pytest.raises(MalformedInputError, match="not the 'yacht' rules asked for"):
        from_notation(str(match), Match, rules=Rules.from_name("yacht"))
