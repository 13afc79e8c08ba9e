"""The web table's work limits: what one request can make the server do, and what it refuses.

Through the real application (its ASGI interface, or Starlette's test client): a form
body is refused by its length before it is read and while it streams; a busy pool
answers 503 at once while ``/health`` still answers; optimal tables come only from the
rulesets the app was started with, and any other ruleset gets the greedy player,
labelled; links are bounded, and a page's work is linear in its record.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra (Starlette)")

import httpx2
from starlette.testclient import TestClient

import yahtzee_rules.play.record as record_module
from test_round_trip_bounds import largest_record, longest_names
from yahtzee_rules import GameRecord, Rules, TieRule
from yahtzee_rules.apps.web import create_app
from yahtzee_rules.apps.web._position import FALLBACK, MAX_CODE_LENGTH, MAX_SEATS
from yahtzee_rules.support._limits import MAX_BONUS, MAX_WEB_FORM_BYTES

YACHT = Rules.from_name("yacht")


def _client(**options: Any) -> TestClient:
    return TestClient(create_app(rng=random.Random(1), **options))


def _new(client: TestClient, **form: str) -> Any:
    return client.post("/new", data={"tie": "share", **form})


# --- the body: refused by its length, before and while it is read ----------------------


def _asgi_post(app: Any, headers: list[tuple[bytes, bytes]], chunks: int) -> tuple[int, int]:
    """POST ``chunks`` chunks of 4 KiB to /new through the ASGI interface: the status and
    how many chunks the app asked for."""
    asked = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal asked
        asked += 1
        more = asked < chunks
        return {"type": "http.request", "body": b"a" * 4096, "more_body": more}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/new",
        "raw_path": b"/new",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    return sent[0]["status"], asked


def test_a_body_longer_than_the_limit_is_refused_by_its_length_unread() -> None:
    length = str(100 * 2**20).encode()
    status, asked = _asgi_post(create_app(), [(b"content-length", length)], 25_600)
    assert status == 413
    assert asked == 0


def test_a_body_without_a_length_is_refused_once_it_grows_past_the_limit() -> None:
    status, asked = _asgi_post(create_app(), [], 25_600)  # 100 MiB, chunked
    assert status == 413
    assert asked * 4096 <= MAX_WEB_FORM_BYTES + 4096


def test_a_body_at_the_limit_is_read() -> None:
    client = _client()
    form = "kind-0=h&name-0=" + "a" * (MAX_WEB_FORM_BYTES - 16)
    assert len(form) == MAX_WEB_FORM_BYTES
    response = client.post(
        "/new", content=form, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 400  # read, and the name refused by the library
    assert "name" in response.text
    refused = client.post(
        "/new", content=form + "a", headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert refused.status_code == 413
    assert f"at most {MAX_WEB_FORM_BYTES} bytes" in refused.text


# --- a busy pool: 503 at once, /health still answers -----------------------------------


def test_a_full_queue_answers_503_at_once_while_health_answers() -> None:
    gate = threading.Event()

    def slow_table_for(rules: Rules) -> None:
        gate.wait(20)  # holds the one worker until released

    app = create_app(table_for=slow_table_for, workers=1, queue=1)
    link = f"/play/{GameRecord.new(['Bot']).share_code()}?seats=o"

    async def run() -> tuple[list[int], int, float, int]:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as client:
            working = [asyncio.create_task(client.get(link)) for _ in range(2)]
            await asyncio.sleep(0.3)  # one in the worker, one in the queue
            began = time.monotonic()
            refused = await client.get(link)
            health = await client.get("/health")
            waited = time.monotonic() - began
            gate.set()
            done = [(await task).status_code for task in working]
            return done, refused.status_code, waited, health.status_code

    try:
        done, refused, waited, health = asyncio.run(run())
    finally:
        gate.set()
    assert done == [200, 200]
    assert refused == 503
    assert health == 200
    assert waited < 1.0


# --- optimal tables only for the rulesets the app was started with ---------------------


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YAHTZEE_RULES_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_an_optimal_seat_under_other_rules_plays_greedily_labelled_and_builds_nothing(
    cache: Path,
) -> None:
    pytest.importorskip("numpy")
    client = _client()
    began = time.monotonic()
    response = _new(
        client,
        **{"kind-0": "o", "kind-1": "h", "name-1": "Ann", "rules": "forced, upper_bonus=101"},
    )
    assert response.status_code == 200
    assert time.monotonic() - began < 3  # no table built: a build takes seconds
    assert list(cache.iterdir()) == []
    assert FALLBACK in response.text
    record = GameRecord.from_share_code(response.url.path.split("/play/")[1])
    assert record.game.current_player == "Ann"  # the bot played its turn
    rolled = client.post(response.url.path + "/roll?seats=oh")
    page = client.get(f"{rolled.url.path}?seats=oh&coach=1")
    assert "Coach (Heuristic):" in page.text
    assert FALLBACK in page.text


def test_the_rulesets_the_app_was_started_with_play_optimally_under_any_tie_rule(
    cache: Path,
) -> None:
    pytest.importorskip("numpy")
    client = _client(tables=[Rules.parse("yacht,tie=play-off")])  # serves every tie rule
    assert "play optimally under yacht (and those rules with any tie rule)" in client.get("/").text
    built = sorted(cache.iterdir())
    # when the app was made: the one optimal table, and the small target table of the late
    # turns that a review's chance of winning reads
    assert [path.name.split("-")[0] for path in built] == ["optimal", "target"]
    for tie in TieRule:
        response = _new(
            client, **{"kind-0": "o", "kind-1": "h", "rules": "yacht", "tie": tie.value}
        )
        assert response.status_code == 200
        assert FALLBACK not in response.text
        path = response.url.path
        rolled = client.post(f"{path}/roll?seats=oh")
        page = client.get(f"{rolled.url.path}?seats=oh&coach=1")
        assert "Coach (Optimal solver):" in page.text
    assert sorted(cache.iterdir()) == built  # nothing more built or cached


def test_tables_the_solver_cannot_build_are_refused_when_the_app_is_made() -> None:
    pytest.importorskip("numpy")
    with pytest.raises(ValueError, match="out of reach"):
        create_app(tables=[Rules.from_name("triple")])
    with pytest.raises(ValueError, match="neither a Table nor a Rules"):
        create_app(tables=["forced"])


# --- links: bounded before they are read, and linear work for the longest -------------


def test_a_link_longer_than_the_limit_is_refused_before_it_is_read() -> None:
    response = _client().get(f"/play/y1{'A' * MAX_CODE_LENGTH}?seats=h")
    assert response.status_code == 400
    assert f"limit of {MAX_CODE_LENGTH}" in response.text


def test_a_link_of_more_players_than_the_setup_form_seats_is_refused() -> None:
    record = GameRecord.new([f"P{i}" for i in range(MAX_SEATS + 1)])
    response = _client().get(f"/play/{record.share_code()}?seats={'h' * (MAX_SEATS + 1)}")
    assert response.status_code == 400
    assert f"seats at most {MAX_SEATS}" in response.text
    assert len(re.findall(r'<select id="kind-\d"', _client().get("/").text)) == MAX_SEATS


def _largest_web_record() -> GameRecord:
    rules = Rules.from_name("triple")
    rules = attrs.evolve(rules, upper_bonus=MAX_BONUS, yahtzee_bonus=MAX_BONUS, tie="play-off")
    return largest_record(rules, players=MAX_SEATS)


def test_the_longest_game_the_setup_form_can_start_fits_a_link() -> None:
    record = _largest_web_record()
    assert record.start.players == tuple(longest_names(MAX_SEATS))
    code = record.undo().share_code()
    assert len(code) <= MAX_CODE_LENGTH
    page = _client().get(f"/play/{code}?seats={'h' * MAX_SEATS}")
    assert page.status_code == 200


def test_a_page_replays_its_record_once_not_once_per_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = _largest_web_record().undo()
    code = record.share_code()
    copied = [0]
    raw = record_module._raw_record

    def counting(start: Any, actions: Any, game: Any, *rest: Any) -> GameRecord:
        copied[0] += len(actions)
        return raw(start, actions, game, *rest)

    monkeypatch.setattr(record_module, "_raw_record", counting)
    client = _client()
    page = client.get(f"/play/{code}?seats={'h' * MAX_SEATS}")
    assert page.status_code == 200
    # reading the code and the undo link copy the actions a few times; one copy per
    # action replayed (the old way) would be about len(actions) / 2 times as many
    assert copied[0] <= 8 * len(record.actions)


def test_serve_loads_the_tables_it_is_started_with_before_serving(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numpy")
    import yahtzee_rules.apps.web as web
    from yahtzee_rules.apps.cli import _extras, main

    monkeypatch.setattr(_extras, "_TABLES", {})  # none in memory from earlier tests
    started: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        web, "serve", lambda host, port, *, tables, **_: started.append((host, port, tables))
    )
    assert (
        main(["serve", "--port", "8124", "--table", "yacht", "--table", "yacht,tie=play-off"]) == 0
    )
    [(host, port, tables)] = started
    assert (host, port) == ("127.0.0.1", 8124)
    assert [table.rules for table in tables] == [YACHT]  # it serves both tie rules
    assert len(list(cache.glob("optimal-yacht-*.npz"))) == 1
    assert main(["serve", "--table", "triple"]) == 2
    assert "out of reach" in capsys.readouterr().err
    assert len(started) == 1
