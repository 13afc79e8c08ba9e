"""The web table's review page: luck, cost and a chart, from the library's own review."""

from __future__ import annotations

import math
import random
import re

import pytest
from starlette.testclient import TestClient

from yahtzee_rules import GameRecord, Rules
from yahtzee_rules.apps.web import create_app
from yahtzee_rules.bots.solver import _review, load_table, review

YACHT = Rules.from_name("yacht")


def _finished(client: TestClient, seats: dict[str, str]) -> tuple[str, str]:
    """A game of computer players under Yacht, played to the end: its page and link."""
    form = {"rules": "yacht", "tie": "share", **seats}
    page = client.post("/new", data=form)
    assert page.status_code == 200
    query = page.url.query
    return page.text, f"{page.url.path}?{query.decode() if isinstance(query, bytes) else query}"


def test_a_finished_game_links_to_its_review_with_the_librarys_figures() -> None:
    client = TestClient(create_app(rng=random.Random(4), tables=[YACHT]))
    page, link = _finished(client, {"name-0": "Ann", "kind-0": "g", "name-1": "Bob", "kind-1": "r"})
    found = re.search(r'id="review-link" href="([^"]+)"', page)
    assert found, "the final standings link to the review"
    review_path = found.group(1).replace("&amp;", "&")
    assert review_path.startswith("/review/")
    answer = client.get(review_path)
    assert answer.status_code == 200
    code = link.split("/play/")[1].split("?")[0]
    expected = review(GameRecord.from_share_code(code), load_table(rules=YACHT))
    for player in expected.players:
        assert f'<td class="num">{player.luck:+.2f}</td>' in answer.text
        assert f'<td class="num">{-player.cost:+.2f}</td>' in answer.text
        for mistake in player.mistakes(3):
            assert mistake.describe().replace("'", "&#x27;") in answer.text
    assert answer.text.count('class="player-line"') == 2  # one line a player on the chart
    assert 'id="review-chart"' in answer.text
    points = re.findall(r'class="player-line"[^>]*points="([^"]+)"', answer.text)
    assert [len(p.split()) for p in points] == [13, 13]  # the start and each of 12 turns


def test_rules_without_a_table_say_why_there_is_no_review() -> None:
    client = TestClient(create_app(rng=random.Random(4)))
    page, _ = _finished(client, {"name-0": "Ann", "kind-0": "g"})
    review_path = re.search(r'id="review-link" href="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    answer = client.get(review_path.replace("&amp;", "&"))
    assert answer.status_code == 200
    assert "no optimal values for these rules" in answer.text


def test_a_review_of_a_forged_or_broken_link_is_refused() -> None:
    client = TestClient(create_app(tables=[YACHT], secret="k" * 16))
    page, _ = _finished(client, {"name-0": "Ann", "kind-0": "g"})
    review_path = re.search(r'id="review-link" href="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert client.get(review_path.replace("&amp;", "&")).status_code == 200
    unsigned = review_path.split("&amp;sig=")[0]
    assert client.get(unsigned).status_code == 403
    assert client.get("/review/y1nonsense?seats=g").status_code in (400, 403)


def test_the_review_page_holds_only_the_code_every_page_holds() -> None:
    """The policy allows one script and one style by their hashes: the review page adds
    none of its own, and no attribute the policy would block (the chart is plain SVG)."""
    client = TestClient(create_app(rng=random.Random(2), tables=[YACHT]))
    page, _ = _finished(client, {"name-0": "Ann", "kind-0": "g"})
    review_path = re.search(r'id="review-link" href="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    text = client.get(review_path.replace("&amp;", "&")).text
    home = client.get("/").text

    def blocks(html: str) -> list[str]:
        return re.findall(r"<(script|style)>(.*?)</\1>", html, re.S)

    assert blocks(text) == blocks(home)
    assert not re.search(r"\s(style|on\w+)=", text)


def test_an_address_no_page_is_at_gets_the_tables_own_page() -> None:
    client = TestClient(create_app())
    for path in ("/nowhere", "/play/y1a%2Fb/roll", "/review/"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert "text/html" in answer.headers["content-type"]
        assert "No page of this table is at that address" in answer.text
        assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_a_review_of_several_players_gives_the_chance_of_winning_given_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = TestClient(create_app(rng=random.Random(6), tables=[YACHT]))
    # the late turns' target table was made when the server started: a request makes none
    _review.TARGETS.clear()

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("a request made a target table")

    monkeypatch.setattr(_review, "target_table", no_build)
    seats = {"name-0": "Ann", "kind-0": "g", "name-1": "Bob", "kind-1": "r"}
    page, link = _finished(client, seats)
    found = re.search(r'id="review-link" href="([^"]+)"', page)
    assert found
    answer = client.get(found.group(1).replace("&amp;", "&"))
    assert answer.status_code == 200
    code = link.split("/play/")[1].split("?")[0]
    monkeypatch.undo()
    expected = review(GameRecord.from_share_code(code), load_table(rules=YACHT), wins=True)
    ann, bob = expected.players
    assert bob.exact_win_decisions  # the last to play: exact
    assert f'<td class="num">{100 * bob.win_cost:.1f}% (exact)</td>' in answer.text
    assert (
        '<td class="num">'
        + f"{100 * math.fsum(d.win_cost or 0.0 for d in ann.decisions):.1f}% (from bounds)"
        in answer.text
    )
    assert 'id="win-note"' in answer.text
