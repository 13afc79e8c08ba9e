"""The public API as a game developer meets it: what each spelling a developer tries gives."""

from __future__ import annotations

import pytest

from yahtzee_rules import (
    Category,
    GameRecord,
    MalformedInputError,
    Match,
    Rules,
    Scorecard,
    TripleBox,
    Turn,
    YatzyBox,
    fill,
    score,
)

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
    assert yatzy.fill("pair").actions[-1].category is YatzyBox.ONE_PAIR
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
    assert triple.fill("fh.3").actions[-1].category is TripleBox.FULL_HOUSE_X3
