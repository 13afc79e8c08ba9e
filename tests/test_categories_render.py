"""Category names, rule sets and the plain-text score sheet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee_rules import (
    Category,
    JokerRule,
    MalformedInputError,
    Rules,
    Scorecard,
    TieRule,
    totals,
)
from yahtzee_rules.formats.render import render_scorecards
from yahtzee_rules.testing import strategies as yst


@given(yst.categories(), st.sampled_from(["name", "label", "code"]), st.booleans())
def test_every_spelling_of_a_box_parses_back(category: Category, form: str, upper: bool) -> None:
    text = {"name": category.name, "label": category.label, "code": category.code}[form]
    assert Category.parse(text.upper() if upper else text.lower()) is category
    assert Category.parse(f"  {text} ") is category


def test_sections_and_faces() -> None:
    assert [c.face for c in Category.upper()] == [1, 2, 3, 4, 5, 6]
    assert all(c.face is None and not c.is_upper for c in Category.lower())
    assert len(Category.upper()) + len(Category.lower()) == len(Category) == 13
    assert all(bool(c) for c in Category)


@pytest.mark.parametrize("text", ["", "sevens", "full", 7, None])
def test_unknown_box_names_are_refused(text: object) -> None:
    with pytest.raises(MalformedInputError, match="category"):
        Category.parse(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("face", [0, 7, True, 2.0])
def test_for_face_refuses_non_faces(face: object) -> None:
    with pytest.raises(MalformedInputError, match="not a die face"):
        Category.for_face(face)  # type: ignore[arg-type]


@given(yst.rules())
def test_rules_name_and_from_name(rules: Rules) -> None:
    assert rules.name.split(",")[0] == rules.joker.value
    assert Rules.from_name(rules.joker.value).joker is rules.joker
    assert eval(repr(rules), {"Rules": Rules, "JokerRule": JokerRule, "TieRule": TieRule}) == rules


@given(st.lists(yst.scorecards(), min_size=1, max_size=4))
def test_score_sheet_shows_every_box_and_the_totals(cards: list[Scorecard]) -> None:
    names = [f"P{i}" for i in range(len(cards))]
    lines = render_scorecards(cards, names).splitlines()
    rows = {line[:17].rstrip(): line[17:].split() for line in lines[2:]}
    for index, card in enumerate(cards):
        for category in Category:
            points = card[category]
            assert rows[category.label][index] == ("." if points is None else str(points))
        assert rows["Grand total"][index] == str(totals(card).grand_total)


def test_score_sheet_needs_a_name_per_card() -> None:
    with pytest.raises(MalformedInputError, match="2 cards for 1 names"):
        render_scorecards([Scorecard(), Scorecard()], ["Ann"])
