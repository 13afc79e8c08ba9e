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

from _chromium import CHROMIUM_ARGS, NO_CHROMIUM, find_chromium  # noqa: E402
from _server import serving  # noqa: E402
from _sheets import check_card_table, check_sheet, read_scores_table  # noqa: E402
from yahtzee_rules import Category, Game, GameRecord, Keep, Rules  # noqa: E402
from yahtzee_rules.apps.web import create_app  # noqa: E402

# Interpreter-independent and costly: CI runs it on 3.11 only (see pyproject.toml).
pytestmark = pytest.mark.main_interpreter

CHROMIUM = find_chromium()
if CHROMIUM is None:
    pytest.skip(NO_CHROMIUM, allow_module_level=True)


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
    assert after.player_totals("Ann").yahtzee_bonus == 100
    assert page.get_by_role("heading", level=1).inner_text() == "Bob's turn"


def test_asking_the_coach_keeps_the_dice_the_player_holds(page: Any, server: str) -> None:
    _start(page, server)
    with page.expect_navigation():
        page.get_by_role("button", name="Roll the dice").click()
    page.keyboard.press("1")
    page.keyboard.press("3")
    with page.expect_navigation():
        page.get_by_role("button", name="Ask the coach").click()
    assert "coach=1" in page.url
    held = [page.locator(f"#die-{index}").is_checked() for index in range(5)]
    assert held == [True, False, True, False, False]
    assert page.locator("#coach").is_visible()
    assert page.locator(".die .held-tag").count() == 5  # the coach's holds, beside each die
    with page.expect_navigation():
        page.get_by_role("button", name="Roll the others").click()
    rolled = _record(page).actions[-1]
    dice = _record(page).game_at(len(_record(page).actions) - 1).dice
    assert dice is not None
    assert str(rolled.keep) == str(Keep([dice.faces[0], dice.faces[2]]))  # type: ignore[union-attr]


def _sheet_game(rules: str) -> GameRecord:
    """A game of two players some way in, every kind of totals line holding points."""
    record = GameRecord.new(["Ann", "Bob"], rules=Rules.from_name(rules))
    rng = random.Random(7)
    for _ in range(len(record.game.rules.card) + 5):
        record = record.roll(rng)
        options = record.game.options
        record = record.fill(max(options, key=lambda box: (options[box], -int(box))))
    return record.roll(rng)


@pytest.mark.parametrize("rules", ["forced", "yatzy", "yacht", "triple"])
def test_the_page_s_sheets_add_up_as_shown(page: Any, server: str, rules: str) -> None:
    record = _sheet_game(rules)
    game = record.game
    page.goto(f"{server}/play/{record.share_code()}?seats=hh")
    cells = (
        "Array.from(document.querySelectorAll('#ID tr')).map(tr => Array.from(tr.cells)"
        ".map(c => [c.innerText.trim(), c.colSpan]))"
    )
    every = [
        [tuple(cell) for cell in row] for row in page.evaluate(cells.replace("ID", "all-cards"))
    ]
    sheets = read_scores_table(every, len(game.players))
    for seat, (multipliers, rows) in enumerate(sheets):
        assert check_sheet(rows, multipliers) == [game.player_totals(seat).grand_total]
    own = [[tuple(cell) for cell in row] for row in page.evaluate(cells.replace("ID", "card"))]
    assert check_card_table(own) == game.player_totals(game.current).grand_total


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


def _longest_two_player_game() -> list[GameRecord]:
    """A two-player game whose every turn rolls three times (the longest links two players
    make): the position at the start of each round, and the finished game."""
    record = GameRecord.new(["Ann", "Robo"])
    rng = random.Random(3)
    positions = []
    while not record.game.is_over:
        if record.game.current == 0:
            positions.append(record)
        for _ in range(3):
            record = record.roll(rng)
        options = record.game.box_options()
        record = record.fill(next(box for box, option in options.items() if option.is_legal))
    return [*positions, record]


def _assert_the_qr_codes_scan(browser: Any, server: str, rounds: list[int]) -> None:
    """Each position's QR code, screenshotted alone at 360 and 1280 pixels wide, decodes
    (with zxing-cpp) to the page's own link, drawn whole inside the page."""
    zxingcpp = pytest.importorskip("zxingcpp", reason="the QR tests decode with zxing-cpp")
    image = pytest.importorskip("PIL.Image", reason="the QR tests read screenshots with Pillow")
    import io

    positions = _longest_two_player_game()
    context = browser.new_context()
    opened = context.new_page()
    for width in (360, 1280):
        opened.set_viewport_size({"width": width, "height": 800})
        for number in rounds:
            opened.goto(f"{server}/play/{positions[number - 1].share_code()}?seats=hh")
            link = opened.locator("#position-link").get_attribute("href")
            qr = opened.locator(".qr svg")
            box = qr.bounding_box()
            assert box is not None
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= width, (width, number, box)  # never cut off
            found = zxingcpp.read_barcodes(
                image.open(io.BytesIO(qr.screenshot())),
                formats=zxingcpp.BarcodeFormat.QRCode,
                try_invert=False,
            )
            assert [code.text for code in found] == [link], (width, number)
    context.close()


def test_the_qr_code_scans_at_the_start_middle_and_end_of_a_game(browser: Any, server: str) -> None:
    _assert_the_qr_codes_scan(browser, server, [1, 7, 14])


@pytest.mark.slow
def test_the_qr_code_scans_at_every_round_of_a_game(browser: Any, server: str) -> None:
    _assert_the_qr_codes_scan(browser, server, list(range(1, 15)))


def test_shift_r_rolls_as_r_does(page: Any, server: str) -> None:
    """The docs give the key as ``R``: with Shift (or Caps Lock) it rolls too."""
    _start(page, server)
    with page.expect_navigation():
        page.keyboard.press("Shift+R")
    turn = _record(page).game.turn
    assert turn is not None
    assert turn.dice is not None
    assert turn.rolls_left == 2
