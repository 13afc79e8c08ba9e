"""The web table end to end: Playwright drives a real Chromium against a running server.

Skipped, saying why, when Playwright or a Chromium is missing. Playwright's own
browser download is not needed: the tests launch an installed Chromium (Debian's
``chromium`` package; another one through ``YAHTZEE_RULES_CHROMIUM``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra (Starlette)")
pytest.importorskip("uvicorn", reason="the web table needs the web extra (uvicorn)")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests need Playwright (in the test dependency group)"
)

from _chromium import CHROMIUM_ARGS, find_chromium  # noqa: E402
from _server import serving  # noqa: E402
from yahtzee_rules import Category, Game, GameRecord  # noqa: E402
from yahtzee_rules.apps.web import create_app  # noqa: E402

CHROMIUM = find_chromium()
if CHROMIUM is None:
    pytest.skip(
        "no Chromium to drive: install Debian's chromium (apt-get install chromium) or set "
        "YAHTZEE_RULES_CHROMIUM to a Chromium executable",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A web table served by uvicorn on a free local port, with seeded dice."""
    with serving(create_app(rng=random.Random(20))) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    yield opened
    context.close()


def _record(page: Any) -> GameRecord:
    code = page.url.split("/play/")[1].split("?")[0]
    return GameRecord.from_share_code(code)


def _start(page: Any, server: str, *, bot: str = "greedy bot") -> None:
    page.goto(server + "/")
    page.get_by_label("Seat 1 name").fill("Ann")
    page.get_by_label("Seat 2 player").select_option(label=bot)
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()


def test_a_whole_two_player_game_against_a_bot_by_keyboard_and_taps(page: Any, server: str) -> None:
    _start(page, server)
    for turn in range(13):
        assert page.get_by_role("heading", level=1).inner_text() == "Ann's turn"
        with page.expect_navigation():
            page.keyboard.press("r")  # the keyboard shortcut rolls
        if turn % 2:  # hold the first die by keyboard, then roll the others
            page.keyboard.press("1")
            assert page.locator("#die-0").is_checked()
            with page.expect_navigation():
                page.keyboard.press("r")
        with page.expect_navigation():
            page.locator("button.score").first.click()
    assert page.get_by_role("heading", level=1).inner_text() == "Game over"
    game = _record(page).game
    assert game.is_over
    result = game.result
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 2
    first = result.standings[0]
    assert rows.first.inner_text().split("\t")[:2] == [str(first.rank), first.player]
    verdict = page.locator("#verdict").inner_text()
    if len(result.winners) == 1:
        assert f"{result.winners[0]} wins." in verdict


def test_a_joker_turn_from_a_forged_but_legal_link(page: Any, server: str) -> None:
    game = Game.parse("forced 0 Ann,Bob y=50/y=50 44444@1")
    page.goto(f"{server}/play/{GameRecord.from_game(game).share_code()}?seats=hh")
    reason = game.box_options()[Category.ACES].reason
    assert reason is not None
    aces = page.locator("#card").get_by_role("row", name=re.compile("^Aces"))
    assert reason in aces.inner_text()
    fours = page.get_by_role("button", name="Fill Fours for 20 points and a 100-point bonus")
    assert page.locator("button.score").count() == 1
    with page.expect_navigation():
        fours.click()
    after = _record(page).game
    assert after.totals("Ann").yahtzee_bonus == 100
    assert page.get_by_role("heading", level=1).inner_text() == "Bob's turn"


def test_undo_returns_to_the_position_before_the_fill(page: Any, server: str) -> None:
    _start(page, server)
    with page.expect_navigation():
        page.get_by_role("button", name="Roll the dice").click()
    rolled_url = page.url
    with page.expect_navigation():
        page.locator("button.score").last.click()
    assert len(_record(page).actions) > 2  # Ann's fill and the bot's turn
    with page.expect_navigation():
        page.get_by_role("link", name="Undo").click()
    assert page.url == rolled_url
    assert page.locator("button.score").count() > 0


def test_reloading_or_opening_the_link_elsewhere_continues_the_game(
    page: Any, browser: Any, server: str
) -> None:
    _start(page, server)
    with page.expect_navigation():
        page.get_by_role("button", name="Roll the dice").click()
    dice_text = page.locator(".actions").first.inner_text()
    page.reload()
    assert page.locator(".actions").first.inner_text() == dice_text
    link = page.locator("#position-link").get_attribute("href")
    assert page.locator(".qr svg").count() == 1
    other = browser.new_context(viewport={"width": 360, "height": 740})  # another device
    try:
        phone = other.new_page()
        phone.goto(link)
        assert phone.locator(".actions").first.inner_text() == dice_text
        assert phone.get_by_role("heading", level=1).inner_text() == "Ann's turn"
    finally:
        other.close()


def test_a_forged_link_shows_a_clear_page(page: Any, server: str) -> None:
    code = GameRecord.new(["Ann"]).roll(outcome="12345").share_code()
    forged = code[:-1] + ("A" if code[-1] != "A" else "B")
    response = page.goto(f"{server}/play/{forged}")
    assert response.status == 400
    assert page.get_by_role("heading", level=1).inner_text() == "This game link does not work"
    assert "checksum" in page.get_by_role("alert").inner_text()


def test_the_page_fits_a_360_pixel_phone_and_labels_dice_and_boxes(
    browser: Any, server: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        phone = context.new_page()
        _start(phone, server)
        with phone.expect_navigation():
            phone.get_by_role("button", name="Roll the dice").click()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        for index in range(5):
            checkbox = phone.get_by_role("checkbox", name=re.compile(f"^Hold die {index + 1}, "))
            assert checkbox.count() == 1
        assert phone.get_by_role("button", name=re.compile(r"^Fill Chance for \d+ points")).count()
        phone.get_by_role("checkbox", name=re.compile("^Hold die 2")).check()  # a tap
        assert phone.locator("#die-1").is_checked()
    finally:
        context.close()


def test_the_pages_work_under_their_content_security_policy(page: Any, server: str) -> None:
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text)
            if "Content Security Policy" in message.text or "Refused" in message.text
            else None
        ),
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', function (e) {"
        " console.error('Refused by the Content Security Policy: ' + e.violatedDirective); });"
    )
    response = page.goto(server + "/")
    assert "script-src 'sha256-" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"
    # The style applies: the page's background and the hidden screen-reader labels.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 241, 234)"
    _start(page, server)
    with page.expect_navigation():
        page.keyboard.press("r")  # the script's shortcut rolls the dice
    page.keyboard.press("1")
    assert page.locator("#die-0").is_checked()
    assert page.locator("#copy-link").is_visible()  # the script showed the copy button
    assert page.evaluate("getComputedStyle(document.querySelector('.die input')).opacity") == "0"
    with page.expect_navigation():
        page.locator("button.score").first.click()  # a form post and its redirect
    assert page.get_by_role("heading", level=1).inner_text() == "Ann's turn"
    page.goto(server + "/play/nonsense")
    assert page.get_by_role("heading", level=1).inner_text() == "This game link does not work"
    assert refused == []


def test_a_page_of_the_table_cannot_be_framed(page: Any, server: str) -> None:
    # A page at the table's own address (served by the browser's router) frames the table:
    # frame-ancestors 'none' and X-Frame-Options: DENY refuse even the same site.
    page.route(
        f"{server}/framing-test",
        lambda route: route.fulfill(
            content_type="text/html", body=f'<iframe id="table" src="{server}/"></iframe>'
        ),
    )
    page.goto(f"{server}/framing-test")
    page.wait_for_timeout(1000)
    table = page.frame_locator("#table").get_by_role("button", name="Start the game")
    assert table.count() == 0


def test_a_table_with_a_key_plays_its_own_links_and_refuses_others(page: Any) -> None:
    key = b"a key for the browser test, long enough"
    with serving(create_app(rng=random.Random(4), secret=key)) as signed:
        _start(page, signed)
        with page.expect_navigation():
            page.get_by_role("button", name="Roll the dice").click()
        assert "&sig=" in page.url
        with page.expect_navigation():
            page.locator("button.score").first.click()
        assert page.get_by_role("heading", level=1).inner_text() == "Ann's turn"
        link = page.locator("#position-link").get_attribute("href")
        assert link == page.url  # the link and QR code on the page carry the signature
        forged = GameRecord.new(["Ann"]).roll(outcome="66666").share_code()
        response = page.goto(f"{signed}/play/{forged}?seats=h")
        assert response.status == 403
        assert page.get_by_role("heading", level=1).inner_text() == (
            "This table did not write this link"
        )


def test_shift_r_rolls_as_r_does(page: Any, server: str) -> None:
    """The docs give the key as ``R``: with Shift (or Caps Lock) it rolls too."""
    _start(page, server)
    with page.expect_navigation():
        page.keyboard.press("Shift+R")
    turn = _record(page).game.turn
    assert turn is not None
    assert turn.dice is not None
    assert turn.rolls_left == 2
