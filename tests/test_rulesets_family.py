"""The Yahtzee family's rulesets: Hasbro's current Joker order, Forced Yahtzee, Forced
Yatzy and the house switches, each exact, each named, each with its optimal value.

Known answers follow the rulebooks in the project's specification: 001 for Hasbro's
current Joker order ("Hasbro's current instructions have you fill Three of a kind or
Four of a kind first, and only then Chance or another combination"), 002 for Forced
Yahtzee ("every Yahtzee must be scored in its matching upper box, even the first").
"""

from __future__ import annotations

import pickle

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee_rules import (
    CLASSIC,
    YATZY,
    Card,
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    IllegalActionError,
    JokerRule,
    MalformedInputError,
    Roll,
    Rules,
    Scorecard,
    Switch,
    Turn,
    YatzyBox,
    box_options,
    fill,
    forced_category,
    from_dict,
    from_json,
    json_schema,
    legal_fills,
    to_dict,
    to_json,
)
from yahtzee_rules.testing import strategies as yst

C = Category
Y = YatzyBox
KINDS_FIRST = Rules.from_name("kinds-first")
FORCED_YAHTZEE = Rules.from_name("forced-yahtzee")
FORCED_YATZY = Rules.from_name("forced-yatzy")
SWITCHED = tuple(Card.named(name) for name in Card.names(switched=True) if "+" in name)
NEW_NAMES = (
    "kinds-first",
    "forced-yahtzee",
    "classic+5fh",
    "forced-yatzy",
    "yatzy+5fh",
    "yatzy+4k2p",
    "yatzy+5fh+4k2p",
)


def test_every_new_ruleset_is_named() -> None:
    assert set(NEW_NAMES) <= set(Rules.names())
    assert Rules(joker=JokerRule.KINDS_FIRST) == KINDS_FIRST
    assert Rules(forced_yahtzee=True) == FORCED_YAHTZEE
    assert attrs.evolve(Rules.from_name("yatzy"), in_order=True) == FORCED_YATZY
    assert Rules.from_name("yatzy+5fh").card is YATZY.switched(Switch.FIVE_OF_A_KIND_FULL_HOUSE)
    assert Rules.from_name("classic+5fh").card is CLASSIC.switched("5fh")
    # the old aliases keep working
    assert Rules.from_name("hasbro").joker is JokerRule.FORCED
    assert Rules(joker="kinds_first").joker is JokerRule.KINDS_FIRST


# --- Hasbro's current Joker order (rulebook 001) ------------------------------------------


def test_kinds_first_an_open_upper_box_comes_first() -> None:
    card = Scorecard({C.YAHTZEE: 50})
    assert dict(legal_fills(card, "44444", rules=KINDS_FIRST)) == {C.FOURS: 20}
    assert forced_category(card, "44444", rules=KINDS_FIRST) is C.FOURS


def test_kinds_first_three_or_four_of_a_kind_while_either_is_open() -> None:
    card = Scorecard({C.YAHTZEE: 50, C.FOURS: 16})
    assert dict(legal_fills(card, "44444", rules=KINDS_FIRST)) == {
        C.THREE_OF_A_KIND: 20,
        C.FOUR_OF_A_KIND: 20,
    }
    card = Scorecard({C.YAHTZEE: 50, C.FOURS: 16, C.THREE_OF_A_KIND: 20})
    assert dict(legal_fills(card, "44444", rules=KINDS_FIRST)) == {C.FOUR_OF_A_KIND: 20}
    reason = box_options(card, "44444", rules=KINDS_FIRST)[C.LARGE_STRAIGHT].reason
    assert reason == (
        "the kinds-first Joker (Hasbro's current order) requires Three of a Kind or "
        "Four of a Kind while either is open; open: Four of a Kind"
    )
    with pytest.raises(IllegalActionError, match="requires Three of a Kind or Four of a Kind"):
        fill(card, "44444", C.CHANCE, rules=KINDS_FIRST)


def test_kinds_first_then_the_other_lower_boxes_at_joker_values_then_a_zero_above() -> None:
    card = Scorecard({C.YAHTZEE: 50, C.FOURS: 16, C.THREE_OF_A_KIND: 20, C.FOUR_OF_A_KIND: 0})
    assert dict(legal_fills(card, "44444", rules=KINDS_FIRST)) == {
        C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 30,
        C.LARGE_STRAIGHT: 40,
        C.CHANCE: 20,
    }
    after = fill(card, "44444", C.LARGE_STRAIGHT, rules=KINDS_FIRST)
    assert after[C.LARGE_STRAIGHT] == 40
    assert after.bonus_marks == 1
    full_lower = Scorecard(
        {C.FOURS: 16, C.THREE_OF_A_KIND: 20, C.FOUR_OF_A_KIND: 0, C.FULL_HOUSE: 25}
        | {C.SMALL_STRAIGHT: 30, C.LARGE_STRAIGHT: 40, C.YAHTZEE: 50, C.CHANCE: 20}
    )
    options = dict(legal_fills(full_lower, "44444", rules=KINDS_FIRST))
    assert options == {C.ACES: 0, C.TWOS: 0, C.THREES: 0, C.FIVES: 0, C.SIXES: 0}


def test_kinds_first_other_rolls_and_first_yahtzees_are_unchanged() -> None:
    assert dict(legal_fills(Scorecard(), "44444", rules=KINDS_FIRST)) == dict(
        legal_fills(Scorecard(), "44444")
    )
    assert dict(legal_fills(Scorecard({C.YAHTZEE: 50}), "44445", rules=KINDS_FIRST)) == dict(
        legal_fills(Scorecard({C.YAHTZEE: 50}), "44445")
    )


@settings(max_examples=60)
@given(yst.scorecards(max_filled=12), st.integers(1, 6))
def test_kinds_first_offers_a_subset_of_the_forced_jokers_boxes(card: Scorecard, face: int) -> None:
    dice = Dice([face] * 5)
    kinds = dict(legal_fills(card, dice, rules=KINDS_FIRST))
    forced = dict(legal_fills(card, dice))
    assert kinds
    assert kinds.items() <= forced.items()


# --- Forced Yahtzee (rulebook 002) ---------------------------------------------------------


def test_forced_yahtzee_even_the_first_goes_in_its_open_upper_box() -> None:
    assert dict(legal_fills(Scorecard(), "44444", rules=FORCED_YAHTZEE)) == {C.FOURS: 20}
    assert forced_category(Scorecard(), "44444", rules=FORCED_YAHTZEE) is C.FOURS
    reason = box_options(Scorecard(), "44444", rules=FORCED_YAHTZEE)[C.YAHTZEE].reason
    assert reason == (
        "Forced Yahtzee requires Fours, which is open: five 4s must go in Fours, "
        "even as the first Yahtzee"
    )
    after = fill(Scorecard(), "44444", C.FOURS, rules=FORCED_YAHTZEE)
    assert after.bonus_marks == 0
    assert after[C.YAHTZEE] is None


def test_forced_yahtzee_with_the_upper_box_filled_a_first_yahtzee_scores_anywhere() -> None:
    card = Scorecard({C.FOURS: 12})
    options = dict(legal_fills(card, "44444", rules=FORCED_YAHTZEE))
    assert options[C.YAHTZEE] == 50
    assert options[C.ACES] == 0
    assert len(options) == 12


def test_forced_yahtzee_an_extra_yahtzee_follows_the_forced_joker() -> None:
    card = Scorecard({C.YAHTZEE: 50, C.FOURS: 12})
    assert dict(legal_fills(card, "44444", rules=FORCED_YAHTZEE)) == dict(
        legal_fills(card, "44444")
    )
    card = Scorecard({C.YAHTZEE: 50})
    after = fill(card, "44444", C.FOURS, rules=FORCED_YAHTZEE)
    assert after.bonus_marks == 1


def test_other_rolls_are_free_under_forced_yahtzee() -> None:
    assert dict(legal_fills(Scorecard(), "44445", rules=FORCED_YAHTZEE)) == dict(
        legal_fills(Scorecard(), "44445")
    )


# --- Forced Yatzy: boxes in card order ----------------------------------------------------


def test_forced_yatzy_fills_the_first_open_box_only() -> None:
    turn = Turn(rules=FORCED_YATZY).roll(outcome="12345")
    assert dict(turn.options) == {Y.ONES: 1}
    assert turn.forced_category is Y.ONES
    assert turn.box_options()[Y.SMALL_STRAIGHT].reason == (
        "the boxes are filled in card order (Forced Yatzy): the first open box is Ones, "
        "so the dice must go there"
    )
    card = turn.fill(Y.ONES)
    turn = Turn(card, rules=FORCED_YATZY).roll(outcome="66666")
    assert dict(turn.options) == {Y.TWOS: 0}
    with pytest.raises(IllegalActionError, match="card order"):
        turn.fill(Y.YATZY)


def test_forced_yatzy_refuses_a_card_filled_out_of_order() -> None:
    with pytest.raises(MalformedInputError, match="fill the boxes in card order"):
        Turn(Scorecard({Y.TWOS: 2}), rules=FORCED_YATZY)


def test_forced_yatzy_plays_a_whole_game() -> None:
    game = Game.new(("Ann", "Bob"), rules=FORCED_YATZY)
    while game.turn is not None:
        game = game.roll(outcome="66666")
        (box,) = game.options
        game = game.fill(box)
    assert game.cards[0][Y.SIXES] == 30
    assert game.cards[0][Y.YATZY] == 50


def test_placement_switches_that_contradict_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="leaves no choice for a Joker"):
        Rules(in_order=True)
    with pytest.raises(MalformedInputError, match="use one of them"):
        Rules(joker="none", in_order=True, forced_yahtzee=True)
    with pytest.raises(MalformedInputError, match="not a bool"):
        Rules(forced_yahtzee=1)  # type: ignore[arg-type]


# --- house switches ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "dice", "box", "points"),
    [
        ("classic+5fh", "33333", C.FULL_HOUSE, 25),
        ("classic", "33333", C.FULL_HOUSE, 0),
        ("yatzy+5fh", "66666", Y.FULL_HOUSE, 30),
        ("yatzy+5fh", "44442", Y.TWO_PAIRS, 0),
        ("yatzy+4k2p", "44442", Y.TWO_PAIRS, 16),
        ("yatzy+4k2p", "33333", Y.TWO_PAIRS, 12),
        ("yatzy+4k2p", "33333", Y.FULL_HOUSE, 0),
        ("yatzy+4k2p", "33552", Y.TWO_PAIRS, 16),
        ("yatzy+5fh+4k2p", "11111", Y.TWO_PAIRS, 4),
        ("yatzy+5fh+4k2p", "11111", Y.FULL_HOUSE, 5),
        ("yatzy", "44442", Y.TWO_PAIRS, 0),
    ],
)
def test_switch_known_answers(name: str, dice: str, box: C | Y, points: int) -> None:
    rules = Rules.from_name(name)
    assert rules.card.score(Dice(dice), box) == points
    assert Turn(rules=rules).roll(outcome=dice).options[box] == points


def test_a_switch_changes_only_the_boxes_it_names() -> None:
    for card in SWITCHED:
        base = card.base
        assert base is not None
        assert card.boxes is base.boxes
        changed = {
            box
            for row, base_row in zip(card.table, base.table, strict=True)
            for box, a, b in zip(card.members, row, base_row, strict=True)
            if a != b
        }
        expected = set()
        if Switch.FIVE_OF_A_KIND_FULL_HOUSE in card.switches:
            expected.add(card.boxes.parse("fh"))
        if Switch.FOUR_OF_A_KIND_TWO_PAIRS in card.switches:
            expected.add(card.boxes.parse("2p"))
        assert changed == expected


def test_switched_cards_are_found_by_their_switches_and_pickle_as_themselves() -> None:
    both = YATZY.switched("4k2p", "5fh")
    assert both is Card.named("yatzy+5fh+4k2p") is YATZY.switched("5fh").switched("5fh", "4k2p")
    assert both.switched() is YATZY
    for card in SWITCHED:
        assert pickle.loads(pickle.dumps(card)) is card
        rules = Rules.for_card(card)
        assert pickle.loads(pickle.dumps(rules)) == rules
        assert eval(repr(rules)) == rules
    with pytest.raises(MalformedInputError, match="not offered on the Classic card"):
        CLASSIC.switched("4k2p")
    with pytest.raises(MalformedInputError, match="no such house switch"):
        CLASSIC.switched("6fh")
    assert not set(Card.names()) & {card.name for card in SWITCHED}


def test_no_upper_bonus_and_no_yahtzee_bonus_are_values() -> None:
    rules = Rules.from_name("classic+5fh, none, yahtzee_bonus=0")
    assert rules.card is CLASSIC.switched("5fh")
    assert rules.yahtzee_bonus == 0
    assert str(rules) == "classic+5fh,none,yb=0"
    assert Rules.from_name("forced, upper_bonus=0").upper_bonus == 0


def test_a_card_under_other_switches_is_refused_naming_both() -> None:
    five = Rules.from_name("yatzy+5fh")
    card = Turn(rules=five).roll(outcome="66666").fill(Y.FULL_HOUSE)
    assert card.card is five.card
    assert str(card) == "yatzy+5fh:fh=30"
    with pytest.raises(MalformedInputError, match="no roll scores 30 in Full House"):
        Scorecard(card.boxes, card=YATZY)
    with pytest.raises(
        MalformedInputError,
        match="a Yatzy with five of a kind as a Full House card's, but the 'yatzy' rules",
    ):
        from_json(to_json(card), Scorecard, rules=Rules.from_name("yatzy"))
    with pytest.raises(MalformedInputError, match="a Yatzy card, but the rules 'yatzy\\+5fh'"):
        legal_fills(Scorecard(card=YATZY), "66666", rules=five)


# --- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NEW_NAMES)
def test_new_rulesets_in_every_format(name: str) -> None:
    rules = Rules.from_name(name)
    assert Rules.parse(str(rules)) == rules
    assert from_json(to_json(rules), Rules) == rules
    record = GameRecord.new(["Ann"], rules=rules).play(Roll("44444"))
    record = record.play(Fill(next(iter(record.game.options))))
    assert GameRecord.from_share_code(record.share_code()) == record
    assert GameRecord.parse(str(record)) == record
    assert from_json(to_json(record), GameRecord) == record
    other = Rules.from_name("yatzy") if name == "forced-yatzy" else Rules()
    both = f"written under the {rules.name!r} rules, not the {other.name!r} rules"
    with pytest.raises(MalformedInputError, match=both.replace("+", "\\+")):
        GameRecord.from_share_code(record.share_code(), rules=other)
    with pytest.raises(MalformedInputError, match=both.replace("+", "\\+")):
        from_json(to_json(record), GameRecord, rules=other)
    with pytest.raises(MalformedInputError, match=both.replace("+", "\\+")):
        GameRecord.parse(str(record), rules=other)


def test_rules_notation_of_the_placement_switches() -> None:
    assert str(FORCED_YAHTZEE) == "forced-yahtzee"
    assert str(attrs.evolve(FORCED_YAHTZEE, joker="free-choice")) == "forced-yahtzee,free-choice"
    yacht = attrs.evolve(Rules.from_name("yacht"), in_order=True)
    assert str(yacht) == "yacht,io=1"
    assert yacht.name == "yacht, in_order=1"
    assert Rules.parse("yacht,io=1") == yacht == Rules.from_name(yacht.name)
    with pytest.raises(MalformedInputError, match="not written canonically; write 'forced-yatzy'"):
        Rules.parse("yatzy,io=1")
    with pytest.raises(MalformedInputError, match="a switch is written 0 or 1"):
        Rules.parse("none,fy=2")
    assert to_dict(FORCED_YATZY)["in_order"] is True
    assert "forced_yahtzee" not in to_dict(FORCED_YATZY)
    bad = {**to_dict(FORCED_YATZY), "in_order": False}
    with pytest.raises(MalformedInputError, match="is not true"):
        from_dict(bad, Rules)


def test_share_codes_keep_their_meaning_and_mark_the_new_rules_compatibly() -> None:
    # A code written before the new rules reads as before (tie and joker bits unchanged).
    old = GameRecord.new(["Ann"]).share_code()
    assert GameRecord.from_share_code(old).start.rules == Rules()
    kinds = GameRecord.new(["Ann"], rules=KINDS_FIRST).share_code()
    assert GameRecord.from_share_code(kinds).start.rules == KINDS_FIRST
    assert len(kinds) == len(old)
    forced = GameRecord.new(["Ann"], rules=attrs.evolve(FORCED_YAHTZEE, tie="play-off"))
    assert GameRecord.from_share_code(forced.share_code()) == forced


def test_the_schema_accepts_the_new_rulesets() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    for name in NEW_NAMES:
        rules = Rules.from_name(name)
        record = GameRecord.new(["Ann"], rules=rules).play(Roll("66666"))
        record = record.play(Fill(next(iter(record.game.options))))
        validator.validate(to_dict(record))
        validator.validate(to_dict(record.game.cards[0]))
        validator.validate(to_dict(rules))
    bad = {**to_dict(FORCED_YATZY), "in_order": False}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(bad)


def _recoded(code: str, edit: object) -> str:
    """``code`` with its bytes (checksum left out) changed by ``edit``, checksum renewed."""
    import base64
    import zlib

    body = code[2:]
    data = bytearray(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))[:-4])
    edit(data)  # type: ignore[operator]
    data += zlib.crc32(data).to_bytes(4, "big")
    return "y1" + base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")


def test_share_codes_refuse_a_second_flags_byte_that_marks_nothing() -> None:
    code = GameRecord.new(["Ann"], rules=FORCED_YAHTZEE).share_code()
    assert _recoded(code, lambda data: None) == code

    def nothing(data: bytearray) -> None:
        data[1] &= 0b11  # the second flags byte without its placement switches

    def unknown(data: bytearray) -> None:
        data[1] |= 0b10000

    for edit in (nothing, unknown):
        with pytest.raises(MalformedInputError, match="unknown second flags"):
            GameRecord.from_share_code(_recoded(code, edit))


def test_every_new_ruleset_is_described_and_variations_are_composed() -> None:
    for name in NEW_NAMES:
        assert Rules.describe(name)
    assert "kinds-first Joker" in Rules.describe("kinds-first, upper_bonus=0")
    assert "Forced Yahtzee" in Rules.describe("forced-yahtzee, free-choice")
    assert "boxes filled in card order" in Rules.describe("yacht, in_order=1")


def test_a_triple_card_names_its_bonus_without_a_column_multiplier() -> None:
    for name in ("triple, upper_bonus=10", "triple-in-order, tie=play-off"):
        described = Rules.describe(name)
        assert "100-point Yahtzee bonus" in described
        assert "\u00d7" not in described
