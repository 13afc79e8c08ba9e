"""Every score sheet adds up on screen: the numbers shown make the totals shown.

The sheets are read as a reader reads them, from the text the terminal prints and
from the tables of the web page's HTML, on every card the library ships: on a card
of one column the boxes, the upper bonus and the Yahtzee bonus make the grand total;
on Triple Yahtzee each column's boxes and bonus make its total, the multiplied totals
(each its column's total times the multiplier heading it) and the Yahtzee bonus make
the grand total.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _sheets import Tables, check_card_table, check_sheet, read_scores_table, read_text_sheet
from yahtzee_rules import Card, Game, GameRecord, Rules, Scorecard, totals
from yahtzee_rules.formats.render import render_scorecards
from yahtzee_rules.testing import strategies as yst

CARDS = tuple(Card.named(name) for name in Card.names())
ANY_RULES = yst.rules(cards=CARDS)


@st.composite
def cards_and_rules(draw: st.DrawFn) -> tuple[Rules, list[Scorecard]]:
    rules = draw(ANY_RULES)
    cards = draw(st.lists(yst.scorecards(rules=rules, max_filled=39), min_size=1, max_size=3))
    return rules, cards


@settings(max_examples=20)
@given(cards_and_rules())
def test_every_printed_sheet_adds_up(found: tuple[Rules, list[Scorecard]]) -> None:
    rules, cards = found
    text = render_scorecards(cards, [f"P{i}" for i in range(len(cards))], rules=rules)
    for card, (multipliers, rows) in zip(cards, read_text_sheet(text, len(cards)), strict=True):
        assert check_sheet(rows, multipliers) == [totals(card, rules=rules).grand_total]


@pytest.fixture(scope="module")
def client() -> object:
    pytest.importorskip("starlette", reason="the web table needs the web extra (Starlette)")
    from starlette.testclient import TestClient

    from yahtzee_rules.apps.web import create_app

    return TestClient(create_app(table_for=lambda rules: None))


@settings(max_examples=10)
@given(yst.games(rules=ANY_RULES, max_players=2))
def test_every_sheet_of_the_web_page_adds_up(client: object, game: Game) -> None:
    code = GameRecord.from_game(game).share_code()
    page = client.get(f"/play/{code}?seats={'h' * len(game.players)}")  # type: ignore[attr-defined]
    assert page.status_code == 200
    tables = Tables()
    tables.feed(page.text)
    sheets = read_scores_table(tables.tables["all-cards"], len(game.players))
    for seat, (multipliers, rows) in enumerate(sheets):
        assert check_sheet(rows, multipliers) == [game.player_totals(seat).grand_total]
    if not game.is_over:
        assert (
            check_card_table(tables.tables["card"]) == game.player_totals(game.current).grand_total
        )
