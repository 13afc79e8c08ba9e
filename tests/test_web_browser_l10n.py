"""The web table in the browser's language, end to end: a German Chromium sees German text
on every page of a whole game, and the language switch changes it for the pages after.

Skipped, saying why, as ``test_web_browser.py`` is, when Playwright or a Chromium is missing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra (Starlette)")
pytest.importorskip("uvicorn", reason="the web table needs the web extra (uvicorn)")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests need Playwright (in the test dependency group)"
)

from _chromium import CHROMIUM_ARGS, NO_CHROMIUM, find_chromium  # noqa: E402
from _scripts import load_script  # noqa: E402
from _server import serving  # noqa: E402
from yahtzee_rules import GameRecord  # noqa: E402
from yahtzee_rules.apps.web import create_app  # noqa: E402

# Interpreter-independent and costly: CI runs it on 3.11 only (see pyproject.toml).
pytestmark = pytest.mark.main_interpreter

CHROMIUM = find_chromium()
if CHROMIUM is None:
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

catalogues = load_script("compile_catalogues")
GERMAN = catalogues.po_messages(catalogues.sources()["de"])
#: The page's own English words that German changes, long enough not to be part of a
#: name or a number (placeholders cut them into the pieces around a field).
ENGLISH = sorted(
    {
        piece.strip(" .,:;()")
        for (context, msgid), text in GERMAN.items()
        if context in {"web table", "score sheet", "seat", "coach"} and text != msgid
        for piece in msgid.replace("}", "{").split("{")[::2]
        if len(piece.strip(" .,:;()")) >= 6 and piece.strip(" .,:;()") not in text
    }
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A web table served by uvicorn on a free local port, with seeded dice."""
    with serving(create_app(rng=random.Random(26))) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # a browser set to German sends Accept-Language: de-DE
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="de-DE")
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    yield opened
    context.close()


def _english_on(page: Any) -> list[str]:
    """The page's own English words visible on ``page`` (its link, data, left out)."""
    text = page.locator("main").inner_text()
    link = page.locator("#position-link")
    if link.count():
        text = text.replace(link.inner_text(), "")
    return [words for words in ENGLISH if words in text]


def test_the_english_words_looked_for_are_the_page_s() -> None:
    assert {"Roll the dice", "Ask the coach", "Start the game", "Final standings"} <= set(ENGLISH)


def _last_round(record: GameRecord) -> GameRecord:
    """``record`` played on by both players to the last round, Ann to roll."""
    rng = random.Random(5)
    while record.game.round < len(record.game.rules.card) or record.game.current != 0:
        record = record.roll(rng)
        options = record.game.options
        record = record.fill(max(options, key=lambda box: (options[box], -int(box))))
    return record


def test_a_german_browser_sees_german_text_throughout_a_game(page: Any, server: str) -> None:
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("heading", level=1).inner_text() == "Kniffel-Tisch"
    assert _english_on(page) == []
    page.get_by_label("Name auf Platz 1").fill("Ann")
    page.get_by_label("Spieler auf Platz 2").select_option(label="gieriger Bot")
    with page.expect_navigation():
        page.get_by_role("button", name="Spiel starten").click()
    for turn in range(2):  # the first turns: every roll and the coach
        assert page.get_by_role("heading", level=1).inner_text() == "Ann ist dran"
        assert _english_on(page) == [], turn
        with page.expect_navigation():
            page.get_by_role("button", name="Würfeln").click()
        assert page.get_by_role("checkbox", name="Würfel 1 halten").count() == 1
        with page.expect_navigation():
            if turn == 0:
                page.get_by_role("button", name="Den Trainer fragen").click()
            else:
                page.get_by_role("button", name="Die anderen würfeln").click()
        if turn == 0:
            assert page.locator("#coach").inner_text().startswith("Trainer (Faustregel):")
        assert _english_on(page) == [], turn
        with page.expect_navigation():
            page.locator("button.score").first.click()
    code = page.url.split("/play/")[1].split("?")[0]
    record = GameRecord.from_share_code(code)
    assert record.game.players == ("Ann", "Spieler 2")  # the bot's default name, in German
    # the same game's last round, from its link: the last turn, the standings, the review
    page.goto(f"{server}/play/{_last_round(record).share_code()}?seats=hg")
    assert page.get_by_role("heading", level=1).inner_text() == "Ann ist dran"
    with page.expect_navigation():
        page.get_by_role("button", name="Würfeln").click()
    assert _english_on(page) == []
    with page.expect_navigation():
        page.locator("button.score").first.click()
    assert page.get_by_role("heading", level=1).inner_text() == "Spiel vorbei"
    assert page.get_by_role("heading", name="Endstand").count() == 1
    assert _english_on(page) == []
    assert "Spieler 2" in page.locator("#standings").inner_text()
    with page.expect_navigation():
        page.get_by_role("link", name="Das Spiel auswerten").click()
    assert page.get_by_role("heading", level=1).inner_text() == "Spielauswertung"
    assert _english_on(page) == []


def test_the_language_switch_keeps_its_choice_for_the_pages_after(page: Any, server: str) -> None:
    page.goto(server + "/")
    with page.expect_navigation():
        page.get_by_role("navigation", name="Sprache").get_by_role("link", name="Français").click()
    assert page.locator("html").get_attribute("lang") == "fr"
    page.get_by_label("Joueur de la place 2").select_option(label="bot glouton")
    with page.expect_navigation():
        page.get_by_role("button", name="Commencer la partie").click()
    assert "lang=" not in page.url  # the choice is kept, not carried in the game's links
    assert page.get_by_role("heading", level=1).inner_text() == "Au tour de Joueur 1"
    with page.expect_navigation():
        page.get_by_role("button", name="Lancer les dés").click()
    assert page.get_by_role("navigation", name="Langue").locator("[aria-current]").inner_text() == (
        "Français"
    )
    with page.expect_navigation():
        page.get_by_role("link", name="English").click()
    assert page.get_by_role("heading", level=1).inner_text() == "Joueur 1's turn"
    with page.expect_navigation():
        page.locator("button.score").first.click()
    assert page.get_by_role("button", name="Roll the dice").count() == 1
