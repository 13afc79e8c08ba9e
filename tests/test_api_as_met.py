"""The public API as a game developer meets it: what each spelling a developer tries gives."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable

import pytest

from yahtzee_rules import (
    Category,
    Dice,
    Fill,
    Game,
    GameRecord,
    Keep,
    MalformedInputError,
    Match,
    Roll,
    Rules,
    Scorecard,
    TripleBox,
    Turn,
    YatzyBox,
    fill,
    from_dict,
    from_json,
    score,
    to_dict,
    to_json,
)
from yahtzee_rules.formats.serialization import MAX_JSON_LENGTH

# --- a box named by text, as dice are -----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(Rules.names()))
def test_every_box_may_be_named_by_its_code_or_label_wherever_a_box_is_filled(name: str) -> None:
    rules = Rules.from_name(name)
    record = GameRecord.new(["Ann"], rules=rules).roll(outcome="12345")
    for box in rules.card:
        if not record.game.can_fill(box):
            continue
        expected = record.fill(box)
        for text in (box.code, box.label, box.code.upper()):
            assert record.fill(text) == expected, text
            assert record.game.fill(text) == expected.game
            assert record.game.turn is not None
            assert record.game.turn.fill(text) == expected.game.cards[0]
            assert record.game.can_fill(text)


def test_text_boxes_read_as_the_rules_card_and_bad_text_is_named() -> None:
    yatzy = GameRecord.new(["Ann"], rules=Rules.from_name("yatzy")).roll(outcome="11345")
    assert yatzy.fill("pair").actions[-1] == Fill(YatzyBox.ONE_PAIR)
    with pytest.raises(MalformedInputError, match=r"category 'fh\.1': no such box"):
        yatzy.fill("fh.1")  # a Triple Yahtzee code: not a box of Yatzy's card
    classic = GameRecord.new(["Ann"]).roll(outcome="22333")
    with pytest.raises(MalformedInputError, match="category 'full hose': no such box"):
        classic.fill("full hose")
    match = Match.new(["Ann", "Bob"], best_of=1).roll(outcome="22333").fill("fh")
    assert match.current is not None
    assert match.current.game.cards[0][Category.FULL_HOUSE] == 25
    # the functions and the card take the same text
    assert score("44462", "3k") == score("44462", Category.THREE_OF_A_KIND) == 20
    assert fill(Scorecard(), "22333", "fh")["fh"] == 25
    assert Turn().roll(outcome="22333").options[Category.FULL_HOUSE] == 25
    triple = GameRecord.new(["Ann"], rules=Rules.from_name("triple")).roll(outcome="22333")
    assert triple.fill("fh.3").actions[-1] == Fill(TripleBox.FULL_HOUSE_X3)


# --- a JSON document read without naming its kind -----------------------------------------------


def test_from_json_reads_the_kind_from_the_document() -> None:
    record = GameRecord.new(["Ann", "Bob"]).roll(outcome="22333").fill("fh")
    values: list[object] = [
        record,
        record.game,
        record.game.turn,
        record.game.cards[0],
        record.actions[-1],
        Category.FULL_HOUSE,
        YatzyBox.ONE_PAIR,
        Rules.from_name("yatzy"),
        Match.new(["Ann", "Bob"]),
    ]
    for value in values:
        assert from_json(to_json(value)) == value
        assert from_dict(to_dict(value)) == value
    # rules= still checks what the document was written under
    with pytest.raises(MalformedInputError, match="written under the 'forced' rules"):
        from_json(to_json(record), rules=Rules.from_name("yatzy"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": 1, "type": "dice"}', r"dice JSON at \$: .*faces"),
        ('{"version": 1, "type": "chips", "faces": [1]}', r"'chips' is not a type of document"),
        (
            '{"version": 1}',
            r"document JSON at \$\.type: None is not a type of document; the types are dice",
        ),
        ("[1, 2]", r"document JSON at \$: \[1, 2\] is a list, not an object"),
        ('{"version": 1, "type": "dice", "faces": [1, 3, 3, 6', "document JSON .*: not JSON"),
    ],
)
def test_from_json_without_a_kind_refuses_with_the_document_named(text: str, message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        from_json(text)


def test_from_json_without_a_kind_bounds_what_it_reads() -> None:
    # only a match may be longer than MAX_JSON_LENGTH; a longer document of another kind is refused
    padded = '{"version": 1, "type": "dice", "faces": [1, 3, 3, 6, 6]' + " " * MAX_JSON_LENGTH + "}"
    with pytest.raises(MalformedInputError, match="only a match may be longer"):
        from_json(padded)
    with pytest.raises(MalformedInputError, match="longer than the limit"):
        from_json(padded, Dice)


# --- a card read in any order -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["forced", "yatzy", "triple"])
def test_a_card_reads_its_boxes_in_any_order_and_writes_them_in_card_order(name: str) -> None:
    rules = Rules.from_name(name)
    record = GameRecord.new(["Ann"], rules=rules)
    for outcome in ("11111", "22333", "12345", "66655"):  # fill four boxes
        game = record.roll(outcome=outcome).game
        record = record.roll(outcome=outcome).fill(next(iter(game.options)))
    card = record.game.cards[0]
    written = str(card)
    prefix, colon, body = written.rpartition(":")
    fields = body.split(",")
    for order in (fields[::-1], fields[1:] + fields[:1]):
        text = f"{prefix}{colon}{','.join(order)}"
        assert Scorecard.parse(text) == card, text
        assert str(Scorecard.parse(text)) == written
    # a Triple card as its sheet reads, row by row: Aces in every column, then Twos
    triple = Scorecard.parse("triple:1.1=1,1.2=2,1.3=3,2.2=4")
    assert str(triple) == "triple:1.1=1,1.2=2,2.2=4,1.3=3"  # card order: column by column


# --- a player's card and totals: named for the argument they take ------------------------------


def test_game_card_and_totals_still_work_with_a_warning_naming_the_new_spelling() -> None:
    game = Game.new(["Ann", "Bob"]).roll(outcome="12345").fill("c")
    calls: list[tuple[Callable[[], object], object, str]] = [
        (lambda: game.totals("Ann"), game.player_totals("Ann"), "player_totals"),
        (lambda: game.totals(), game.player_totals(game.current), "player_totals"),
        (lambda: game.card(0), game.player_card(0), "player_card"),
        (lambda: game.card(), game.player_card(game.current), "player_card"),
    ]
    for old, new, name in calls:
        with pytest.warns(
            DeprecationWarning, match=rf"use game\.{name}\(player\).*goes in 2\.0"
        ) as caught:
            assert old() == new
        assert caught[0].filename == __file__  # the warning points at the caller's line
    assert game.player_card("Bob") is game.cards[1]
    assert game.player_totals(0).grand_total == 15
    with pytest.raises(MalformedInputError, match="'Cy': no such player"):
        game.player_totals("Cy")


# --- a roll without an rng: what the docs promise -----------------------------------------------


@pytest.mark.parametrize("cls", [Turn, Game, GameRecord, Match])
def test_every_roll_says_what_a_missing_rng_does(
    cls: type[Turn | Game | GameRecord | Match],
) -> None:
    doc = inspect.getdoc(cls.roll) or ""
    rng = doc.split("Args:", 1)[1].split("keep:", 1)[0]
    assert "omitted" in rng.lower(), cls
    assert "private generator" in rng, cls


def test_a_roll_without_an_rng_leaves_the_global_state_and_the_record_replays() -> None:
    before = random.getstate()
    record = GameRecord.new(["Ann"]).roll().roll(keep=()).fill("c")
    match = Match.new(["Ann", "Bob"]).roll()
    assert random.getstate() == before
    assert GameRecord.parse(str(record)) == record  # the faces are recorded, not the generator
    assert match.current is not None
    assert match.current.game.dice is not None


# --- undo that keeps the dice ---------------------------------------------------------------------


def test_undo_keep_dice_takes_back_a_fill_but_not_the_dice_thrown_after_it() -> None:
    # Ann fills Chance and the table throws Bob's first roll; Ann meant Threes.
    record = GameRecord.new(["Ann", "Bob"]).roll(outcome="33345").roll(keep="333", outcome="36")
    played = record.fill("c").roll(random.Random(1))
    bob_dice = played.game.dice
    back = played.undo(2, keep_dice=True)
    assert back == played.undo(2)  # the same record, compared, saved and shared alike
    assert str(back) == str(played.undo(2))
    assert back.game.dice == record.game.dice  # Ann's dice are back, with her rolls left
    for seed in range(5):  # whatever the generator: Bob's dice were thrown already
        assert back.fill("3").roll(random.Random(seed)).game.dice == bob_dice
    assert back.fill("3").roll().game.dice == bob_dice
    # a plain undo forgets the roll: another generator throws other dice
    assert {played.undo(2).fill("3").roll(random.Random(s)).game.dice for s in range(5)} != {
        bob_dice
    }


def test_undo_keep_dice_keeps_each_roll_where_it_was_thrown() -> None:
    record = GameRecord.new(["Ann"]).roll(outcome="12345").roll(keep="1", outcome="6666")
    back = record.undo(2, keep_dice=True)
    again = back.roll(random.Random(3))
    assert again.game.dice == Dice("12345")  # the first roll
    assert again.roll(random.Random(3), keep="1").game.dice == Dice("16666")  # the second
    other = again.roll(random.Random(3), keep="12")  # another hold: new dice for the rest
    last = other.actions[-1]
    assert isinstance(last, Roll)
    assert last.keep == Keep("12")
    assert other.undo().undo(keep_dice=False).roll(random.Random(9)).game.dice == Dice("12345")
    with pytest.raises(MalformedInputError, match="keep_dice 1: not True or False"):
        record.undo(1, keep_dice=1)  # type: ignore[arg-type]
