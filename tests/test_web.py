"""The web table through Starlette's test client: links, moves, refusals, the coach."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web table needs the web extra (Starlette)")

from starlette.testclient import TestClient

from _records import play_off_tie_record
from yahtzee_rules import (
    Category,
    Game,
    GameRecord,
    Rules,
    Scorecard,
    TieRule,
    Turn,
)
from yahtzee_rules.apps.cli import main
from yahtzee_rules.apps.web import create_app

JOKER_GAME = Game.parse("forced 0 Ann,Bob y=50/y=50 44444@1")


def _client(seed: int = 1, **kwargs: object) -> TestClient:
    return TestClient(create_app(rng=random.Random(seed), **kwargs))  # type: ignore[arg-type]


def _path(response: Any) -> str:
    url = response.url
    return f"{url.path}?{url.query.decode() if isinstance(url.query, bytes) else url.query}"


def _post(client: TestClient, path: str, move: str, data: Any = None) -> Any:
    return client.post(path.replace("?", f"/{move}?", 1), data=data or {})


def _record_of(path: str) -> GameRecord:
    code = path.split("/play/")[1].split("?")[0].split("/")[0]
    return GameRecord.from_share_code(code)


def _new(client: TestClient, **form: str) -> Any:
    return client.post("/new", data={"rules": "forced", "tie": "share", **form})


def test_the_setup_page_offers_eight_seats_and_every_named_ruleset() -> None:
    page = _client().get("/")
    assert page.status_code == 200
    assert len(re.findall(r'<select id="kind-\d"', page.text)) == 8
    for name in Rules.names():
        assert f'<option value="{name}">' in page.text


def test_a_whole_two_player_game_with_a_bot_ends_in_the_library_s_result() -> None:
    client = _client(3)
    response = _new(client, **{"name-0": "Ann", "kind-0": "h", "name-1": "Cy", "kind-1": "g"})
    path = _path(response)
    assert path.endswith("?seats=hg")
    for _ in range(13):
        record = _record_of(path)
        assert record.game.current_player == "Ann"
        response = _post(client, path, "roll")
        path = _path(response)
        boxes = re.findall(r'name="box" value="([^"]+)"', response.text)
        assert boxes, "a rolled turn offers at least one box"
        response = _post(client, path, "fill", {"box": boxes[-1]})
        assert response.status_code == 200
        path = _path(response)
    game = _record_of(path).game
    assert game.is_over
    text = response.text
    assert "Final standings" in text
    result = game.result
    winner = result.winners[0] if len(result.winners) == 1 else None
    if winner is not None:
        assert f"<strong>{winner} wins.</strong>" in text
    for standing in result.standings:
        assert f'<th scope="row">{standing.player}</th>' in text


def test_a_bot_in_the_first_seat_plays_before_the_page_is_shown() -> None:
    response = _new(_client(), **{"kind-0": "g", "kind-1": "h", "name-1": "Ann"})
    record = _record_of(_path(response))
    assert record.game.current_player == "Ann"
    assert len(record.actions) >= 2  # the bot's rolls and fill
    assert 'id="recent"' in response.text


def test_a_joker_turn_shows_the_library_s_options_and_reasons() -> None:
    client = _client()
    link = f"/play/{GameRecord.from_game(JOKER_GAME).share_code()}?seats=hh"
    page = client.get(link)
    assert page.status_code == 200
    options = JOKER_GAME.box_options()
    assert 'aria-label="Fill Fours for 20 points and a 100-point bonus"' in page.text
    assert options[Category.ACES].reason is not None
    assert str(options[Category.ACES].reason) in page.text.replace("&#x27;", "'")
    assert "closed, as for Aces" in page.text
    assert 'value="fh"' not in page.text  # closed by the forced Joker: no button
    refused = _post(client, link, "fill", {"box": "fh"})
    assert refused.status_code == 400
    assert "forced Joker requires Fours" in refused.text
    filled = _post(client, link, "fill", {"box": "4"})
    game = _record_of(_path(filled)).game
    assert game.player_totals("Ann").yahtzee_bonus == 100
    assert game.player_card("Ann")[Category.FOURS] == 20


def test_undo_goes_back_before_the_human_move_and_the_bot_turn_after_it() -> None:
    client = _client(5)
    path = _path(_new(client, **{"name-0": "Ann", "kind-0": "h", "kind-1": "g"}))
    rolled = _path(_post(client, path, "roll"))
    filled = _post(client, rolled, "fill", {"box": "c"})
    after = _record_of(_path(filled))
    assert after.game.current_player == "Ann"  # the bot has played its turn
    undo = re.search(r'id="undo" href="([^"]+)"', filled.text)
    assert undo is not None
    target = undo.group(1).replace("&amp;", "&")
    assert _record_of(target) == _record_of(rolled)
    assert client.get(target).status_code == 200


def test_a_link_continues_the_same_game_on_a_server_that_never_saw_it() -> None:
    first = _client(9)
    path = _path(_post(first, _path(_new(first, **{"kind-0": "h"})), "roll"))
    one, other = first.get(path).text, _client(11).get(path).text
    assert one == other  # same link, same page: nothing is kept on the server


def test_holding_dice_keeps_them_and_shows_them_held() -> None:
    client = _client(2)
    path = _path(_post(client, _path(_new(client, **{"kind-0": "h"})), "roll"))
    dice = _record_of(path).game.dice
    assert dice is not None
    response = _post(client, path, "roll", {"hold": ["0", "1"]})
    record = _record_of(_path(response))
    held = record.actions[-1].keep  # type: ignore[union-attr]
    assert held.faces == dice.faces[:2]
    assert len(re.findall(r'id="die-\d" checked', response.text)) == 2


@pytest.mark.parametrize(
    ("link", "words"),
    [
        ("/play/nonsense", "not a share code"),
        ("/play/y2CAIAQOYmjQ", "unknown version"),
        ("/play/y1CAIAw2Tq", "checksum"),
        ("/play/y1CAIAw2TqKA?seats=hx", "seats"),
        ("/play/y1CAIAw2TqKA?seats=h", "seats"),
    ],
)
def test_bad_and_forged_links_get_a_clear_400_page(link: str, words: str) -> None:
    response = _client().get(link)
    assert response.status_code == 400
    assert "This game link does not work" in response.text
    assert words in response.text


def test_a_forged_code_that_replays_an_illegal_action_is_refused() -> None:
    record = GameRecord.new(["Ann"]).roll(outcome="12345")
    code = record.share_code()
    # Change one byte of the actions and fix nothing else: the checksum refuses it.
    forged = code[:-8] + ("A" if code[-8] != "A" else "B") + code[-7:]
    response = _client().get(f"/play/{forged}")
    assert response.status_code == 400


@given(
    st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", max_size=60
    )
)
def test_no_code_in_a_link_makes_a_server_error(tail: str) -> None:
    response = _client().get(f"/play/y1{tail}?seats=h")
    assert response.status_code in (200, 400)


def test_moves_the_rules_forbid_are_refused_with_the_reason() -> None:
    client = _client()
    path = _path(_new(client, **{"kind-0": "h"}))
    early = _post(client, path, "fill", {"box": "c"})
    assert early.status_code == 400
    assert "roll at least once" in early.text
    assert _post(client, path, "roll", {"hold": ["0"]}).status_code == 400
    rolled = _path(_post(client, path, "roll"))
    assert _post(client, rolled, "roll", {"hold": ["7"]}).status_code == 400
    assert _post(client, rolled, "fill", {"box": "zz"}).status_code == 400
    assert _post(client, rolled, "bot").status_code == 400


def test_setup_refuses_repeated_names_with_the_library_s_reason() -> None:
    response = _new(_client(), **{"name-0": "Ann", "kind-0": "h", "name-1": "Ann", "kind-1": "h"})
    assert response.status_code == 400
    assert "Ann" in response.text
    assert "Start the game" in response.text


def test_setup_keeps_the_chosen_ruleset_and_tie_rule() -> None:
    response = _new(_client(), **{"kind-0": "h", "rules": "yatzy", "tie": "upper-total"})
    rules = _record_of(_path(response)).start.rules
    assert rules.card == Rules.from_name("yatzy").card
    assert rules.tie is TieRule.UPPER_TOTAL


def test_the_final_page_applies_the_play_off_tie_rule() -> None:
    record = play_off_tie_record().roll(outcome="12345").fill(Category.YAHTZEE)
    record = record.roll(outcome="12345").fill(Category.YAHTZEE)
    page = _client().get(f"/play/{record.share_code()}")
    assert "Ann and Bob tie and play another game to decide." in page.text


def test_the_coach_says_it_is_a_heuristic_without_a_table() -> None:
    client = _client(4, table_for=lambda rules: None)
    path = _path(_post(client, _path(_new(client, **{"kind-0": "h"})), "roll"))
    page = client.get(path + "&coach=1")
    assert "Coach (Heuristic):" in page.text


def test_the_coach_gives_the_solver_s_advice_with_a_table() -> None:
    solver = pytest.importorskip("yahtzee_rules.bots.solver")
    card = Scorecard({c: 0 for c in Category if c is not Category.CHANCE})
    table = solver.build_table(start=card)
    game = Game(["Ann"], rules=Rules(), cards=(card,), first=0, current=0, turn=Turn(card))
    record = GameRecord.from_game(game).roll(outcome="12266")
    page = _client(table_for=lambda rules: table).get(
        f"/play/{record.share_code()}?seats=h&coach=1"
    )
    assert "Coach (Optimal solver):" in page.text
    assert "Hold 66 (dice 4 and 5) and roll the others" in page.text
    assert "24.8" in page.text  # solver.advise's 24.75


def _checked(page: Any) -> list[int]:
    return [int(i) for i in re.findall(r'value="(\d)" id="die-\d" checked', page.text)]


def test_asking_the_coach_keeps_the_dice_the_player_holds_and_marks_the_coach_s() -> None:
    client = _client(4, table_for=lambda rules: None)
    rolled = _post(client, _path(_new(client, **{"kind-0": "h"})), "roll")
    dice = _record_of(_path(rolled)).game.dice
    assert dice is not None
    action = re.search(r'id="ask-coach" formaction="([^"]+)"', rolled.text)
    assert action is not None  # a button of the dice form: it posts the dice held
    asked = client.post(action.group(1).replace("&amp;", "&"), data={"hold": ["0", "2"]})
    assert asked.status_code == 200
    assert "hold=02" in _path(asked)
    assert _checked(asked) == [0, 2]  # the player's holds, not the coach's
    coach = re.search(r'id="coach" role="status">(.*?)</div>', asked.text)
    assert coach is not None
    assert "Coach (Heuristic):" in coach.group(1)
    tags = re.findall(r'<span class="held-tag" aria-hidden="true">([^<]*)</span>', asked.text)
    assert len(tags) == 5  # beside each die: whether the coach would hold it
    advised = [i for i, tag in enumerate(tags) if tag]
    if advised:
        assert "Hold " in coach.group(1)
        assert f"dice {advised[0] + 1}" in coach.group(1) or f"die {advised[0] + 1}" in coach.group(
            1
        )
    assert 'id="ask-coach"' not in asked.text  # the advice is shown


@pytest.mark.parametrize("hold", ["00", "5", "012345", "x"])
def test_a_hold_parameter_of_other_dice_is_refused_naming_it(hold: str) -> None:
    client = _client(4)
    rolled = _post(client, _path(_new(client, **{"kind-0": "h"})), "roll")
    page = client.get(f"{_path(rolled)}&hold={hold}")
    assert page.status_code == 400
    assert "hold" in page.text


def test_every_page_shows_its_link_as_a_qr_code() -> None:
    segno = pytest.importorskip("segno")
    client = _client()
    response = _new(client, **{"kind-0": "h"})
    url = str(response.url)
    assert f'href="{url.replace("&", "&amp;")}"' in response.text
    svg = segno.make(url, error="l", micro=False).svg_inline(
        border=2, dark="#000", light="#fff", omitsize=True
    )
    assert svg in response.text
    assert svg.startswith("<svg viewBox=")  # scaled to its box by the page, never cut off


def test_importing_the_library_does_not_import_starlette() -> None:
    code = "import sys, yahtzee_rules; assert 'starlette' not in sys.modules, 'starlette'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err


def test_serve_says_what_to_install_without_the_web_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "yahtzee_rules.apps.web", None)
    assert main(["serve"]) == 2
    assert 'pip install "yahtzee-rules[web]"' in capsys.readouterr().err


def test_player_names_are_shown_as_text_never_as_markup() -> None:
    response = _new(_client(), **{"name-0": "<b>Al</b>", "kind-0": "h"})
    assert "<b>Al</b>" not in response.text
    assert "&lt;b&gt;Al&lt;/b&gt;" in response.text


def test_serve_starts_the_web_table_on_the_host_and_port_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import yahtzee_rules.apps.web as web

    started: list[tuple[str, int, dict[str, object]]] = []
    monkeypatch.setattr(
        web, "serve", lambda host, port, **options: started.append((host, port, options))
    )
    assert main(["serve", "--host", "0.0.0.0", "--port", "8080"]) == 0
    assert started == [("0.0.0.0", 8080, {"tables": [], "public_url": None, "secret_file": None})]
    url = "https://table.example"
    assert main(["serve", "--public-url", url, "--secret-file", "key.txt"]) == 0
    assert started[-1] == (
        "127.0.0.1",
        8000,
        {"tables": [], "public_url": url, "secret_file": "key.txt"},
    )


@pytest.mark.parametrize("name", Rules.names())
def test_every_named_ruleset_plays_on_the_web_table(name: str) -> None:
    client = _client()
    path = _path(_new(client, **{"kind-0": "h", "rules": name}))
    rolled = _post(client, path, "roll")
    boxes = re.findall(r'name="box" value="([^"]+)"', rolled.text)
    game = _record_of(_path(rolled)).game
    assert boxes == [box.code for box in game.options]  # exactly the library's legal boxes
    filled = _post(client, _path(rolled), "fill", {"box": boxes[0]})
    assert filled.status_code == 200
    assert _record_of(_path(filled)).start.rules == Rules.from_name(name)


def test_the_coach_can_advise_rolling_all_five_again() -> None:
    # Holding nothing names no dice (this once raised an IndexError, a 500 for the page).
    from yahtzee_rules import Dice, Keep
    from yahtzee_rules.apps.web import _page
    from yahtzee_rules.apps.web._position import Coach

    box = _page._coach_box(Coach("heuristic", Keep(""), None, None, ""), Dice("12346"))
    assert "Roll all five dice again" in box
    assert "(dice" not in box
