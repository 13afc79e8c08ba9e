"""The web table's request surface under attack: every field, the headers, escaping, signed links.

Every form field and query parameter the table reads is fuzzed through the real
application (Starlette's test client runs the ASGI app itself): the answer is a page
or a clear 400 naming the field, never a server error.
"""

from __future__ import annotations

import base64
import hashlib
import html
import http.client
import os
import random
import re
import socket
import subprocess
import sys
import time
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web table needs the web extra (Starlette)")

from starlette.testclient import TestClient

from _server import serving
from yahtzee_rules import Category, GameRecord, MalformedInputError, Rules, TieRule
from yahtzee_rules.apps.web import create_app
from yahtzee_rules.apps.web._security import SECURITY_HEADERS
from yahtzee_rules.apps.web._signing import SECRET_ENV, ForgedLinkError, LinkSigner, secret_from
from yahtzee_rules.formats.render import sheet_lines

#: Characters ``str.isdigit`` or ``int`` take for digits that are no ASCII digits.
UNICODE_DIGITS = "²\u00b3\u00b9①\u2461\u2464\u0661\u0662\u0663\u0664\u06f4\u06f5\u07c1\u0966\u0967\u0d67\u0ed1\u0f21\u1041\u1091\u1369\u17e0\u1811\uff10\uff11\uff14\U0001d7ce\U0001d7d9"

#: Text a fuzzer sends: anything, or short runs of digits of every script and the
#: letters and marks the fields use.
FIELD_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(UNICODE_DIGITS),
    st.text(alphabet=UNICODE_DIGITS + "0123456789hrgoxH ,=-_+&%#?/", max_size=8),
)

CLIENT = TestClient(
    create_app(rng=random.Random(7), table_for=lambda rules: None),
    raise_server_exceptions=False,
)
START = GameRecord.new(["Ann", "Bob"], rules=Rules.from_name("forced"))
ROLLED = START.roll(outcome="12345")
ROLLED_LINK = f"/play/{ROLLED.share_code()}?seats=hh"


def _move(link: str, move: str) -> str:
    return link.replace("?", f"/{move}?", 1)


def _alert(response: Any) -> str:
    """The reason a refusal page gives, as text."""
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert found is not None, response.text[:500]
    return html.unescape(found.group(1))


def _refused_naming(response: Any, *words: str) -> None:
    assert response.status_code == 400, (response.status_code, response.text[:300])
    reason = _alert(response)
    assert any(word in reason for word in words), reason


def _new(**form: str) -> Any:
    return CLIENT.post("/new", data={"rules": "forced", "tie": "share", **form})


# --- item: every field, fuzzed ---------------------------------------------------------


@pytest.mark.parametrize("digit", ["²", "①", "\u0661", "\u0663", "\uff10", "\U0001d7d9"])
def test_a_unicode_digit_holds_no_die(digit: str) -> None:
    response = CLIENT.post(_move(ROLLED_LINK, "roll"), data={"hold": digit})
    _refused_naming(response, "hold")


@given(st.lists(FIELD_TEXT | st.sampled_from("01234"), max_size=6))
def test_any_hold_field_is_a_roll_or_a_clear_400(values: list[str]) -> None:
    response = CLIENT.post(_move(ROLLED_LINK, "roll"), data={"hold": values})
    legal = all(value in ("0", "1", "2", "3", "4") for value in values)
    if legal and len(set(values)) == len(values):
        assert response.status_code == 200
        keep = GameRecord.from_share_code(response.url.path.split("/")[2]).actions[-1]
        assert keep.keep.faces == tuple(sorted(int(v) + 1 for v in values))  # type: ignore[union-attr]
    else:
        _refused_naming(response, "hold")


@given(FIELD_TEXT | st.sampled_from([box.code for box in ROLLED.game.rules.card.members]))
def test_any_box_field_is_a_fill_or_a_clear_400(value: str) -> None:
    response = CLIENT.post(_move(ROLLED_LINK, "fill"), data={"box": value})
    if value in {box.code for box in ROLLED.game.options}:
        assert response.status_code == 200
    else:
        _refused_naming(response, "box")


@given(FIELD_TEXT | st.sampled_from(["hh", "hg", "rh", "h", "hhh"]), FIELD_TEXT)
def test_any_seats_or_coach_parameter_is_a_page_or_a_clear_400(seats: str, coach: str) -> None:
    link = f"/play/{ROLLED.share_code()}?seats={quote(seats)}&coach={quote(coach)}"
    response = CLIENT.get(link)
    if len(seats) == 2 and set(seats) <= set("hrgo"):
        assert response.status_code == 200
        assert ('id="coach"' in response.text) == (bool(coach) and seats[0] == "h")
    else:
        _refused_naming(response, "seats")


@given(FIELD_TEXT)
def test_any_code_in_a_link_is_a_page_or_a_clear_400(code: str) -> None:
    response = CLIENT.get(f"/play/{quote(code, safe='')}?seats=h")
    assert response.status_code in (200, 400, 404), response.status_code
    if response.status_code == 400:
        assert "share code" in _alert(response) or "seats" in _alert(response)


@given(
    (FIELD_TEXT | st.sampled_from(["", "h", "r", "g"])).filter(lambda kind: kind != "o"),
    st.integers(0, 7),
)
def test_any_kind_field_seats_a_player_or_is_a_clear_400(kind: str, seat: int) -> None:
    # (``o``, the optimal bot, is a kind too; it is left out here as it builds a table.)
    response = _new(**{f"kind-{seat}": kind, f"name-{seat}": "Ann"})
    if kind in ("h", "r", "g"):
        assert response.status_code == 200
    elif kind == "":
        _refused_naming(response, "players")
    else:
        _refused_naming(response, f"seat {seat + 1}")


@given(FIELD_TEXT, FIELD_TEXT)
def test_any_names_seat_the_players_or_are_a_clear_400(first: str, second: str) -> None:
    response = _new(**{"kind-0": "h", "name-0": first, "kind-1": "h", "name-1": second})
    if response.status_code != 200:
        _refused_naming(response, "name", "players")


@given(
    FIELD_TEXT
    | st.sampled_from(
        [*Rules.names(), "forced,upper_bonus=\u0661\u0660\u0661", "yatzy, yb=\u0665\u0660"]
    )
)
def test_any_rules_field_is_a_game_or_a_clear_400(name: str) -> None:
    response = _new(**{"kind-0": "h", "rules": name})
    try:
        Rules.from_name(name or "forced")
    except ValueError:
        _refused_naming(response, "rules")
    else:
        assert response.status_code == 200


@given(FIELD_TEXT | st.sampled_from([tie.value for tie in TieRule]))
def test_any_tie_field_is_a_game_or_a_clear_400(tie: str) -> None:
    response = _new(**{"kind-0": "h", "tie": tie})
    if tie.strip().lower().replace("_", "-") in {rule.value for rule in TieRule} or not tie:
        assert response.status_code == 200
    else:
        _refused_naming(response, "tie")
        assert len(_alert(response)) < 400  # a bounded quote of the field


@settings(max_examples=50)
@given(st.binary(max_size=300), st.sampled_from(["/new", _move(ROLLED_LINK, "roll")]))
def test_any_form_body_is_a_move_or_a_clear_400(body: bytes, path: str) -> None:
    response = CLIENT.post(
        path, content=body, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code in (200, 400), response.status_code


# --- item: text escaped exactly once ---------------------------------------------------


class _Texts(HTMLParser):
    """The text of each element by tag (and by id), with character references read once."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, str]] = []
        self.texts: dict[str, list[str]] = {}
        self.parts: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "meta", "input", "circle", "path"):
            return
        self.open.append((tag, dict(attrs).get("id") or ""))
        self.parts.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "meta", "input", "circle", "path"):
            return
        assert self.open, tag
        assert self.open[-1][0] == tag, (self.open[-3:], tag)
        name, ident = self.open.pop()
        text = "".join(self.parts.pop())
        for key in (name, f"#{ident}"):
            self.texts.setdefault(key, []).append(text)
        if self.parts:
            self.parts[-1].append(text)

    def handle_data(self, data: str) -> None:
        if self.parts:
            self.parts[-1].append(data)


def _texts(response: Any) -> dict[str, list[str]]:
    parser = _Texts()
    parser.feed(response.text)
    parser.close()
    assert not parser.open, parser.open
    return parser.texts


#: Names made of the characters HTML escapes, and the look-alikes of their escapes.
MARKUP_NAMES = st.text(alphabet="&<>\"'abAB;#x27 /=", min_size=1, max_size=14).filter(
    lambda name: name.strip() == name and bool(name)
)


@settings(max_examples=40)
@given(MARKUP_NAMES, MARKUP_NAMES)
def test_names_are_escaped_exactly_once_in_every_title_heading_and_cell(
    name: str, other: str
) -> None:
    if name == other:
        other += "2"
    start = GameRecord.new([name, other])
    turn = _texts(CLIENT.get(f"/play/{start.share_code()}?seats=hh"))
    assert turn["title"] == [f"{name}'s turn · Yahtzee table"]
    assert turn["h1"] == [f"{name}'s turn"]
    assert turn["#card-heading"] == [f"{name}'s card"]
    assert turn["caption"][0] == f"{name}'s card"
    lines = len(sheet_lines(start.game.cards))  # the Scores table's rows, each headed
    assert [name, other] == turn["th"][-lines - 2 : -lines]

    bot = _texts(CLIENT.get(f"/play/{start.share_code()}?seats=gh"))
    assert bot["#bot"] == [f"Let {name} play"]

    played = start.roll(outcome="12345").fill(Category.CHANCE)
    after = _texts(CLIENT.get(f"/play/{played.share_code()}?seats=hh"))
    assert after["#recent"][0].startswith(f"{name} (human): rolled 12345")

    solo = GameRecord.new([name])
    for box in solo.game.rules.card.members:
        solo = solo.roll(outcome="12345").fill(box)
    over = _texts(CLIENT.get(f"/play/{solo.share_code()}?seats=h"))
    assert over["title"] == ["Game over · Yahtzee table"]
    assert over["#verdict"][0].startswith(f"{name} wins.")
    assert name in over["th"]

    refused = _new(**{"kind-0": "h", "name-0": name, "kind-1": "h", "name-1": name})
    with pytest.raises(MalformedInputError) as refusal:
        GameRecord.new([name, name])
    assert _alert(refused) == str(refusal.value)


# --- item: the page's own address, and the headers of every response --------------------


def _position_link(text: str) -> str:
    found = re.search(r'id="position-link" href="([^"]+)"', text)
    assert found is not None
    return html.unescape(found.group(1))


def _qr_of(url: str) -> str:
    segno = pytest.importorskip("segno")
    svg: str = segno.make(url, error="l", micro=False).svg_inline(
        border=2, dark="#000", light="#fff", omitsize=True
    )
    return svg


@pytest.mark.parametrize(
    "headers",
    [
        {"host": "evil.example"},
        {"host": "evil.example:8443", "x-forwarded-host": "evil.example"},
        {"forwarded": "host=evil.example;proto=https", "x-forwarded-proto": "https"},
    ],
)
def test_the_host_header_never_writes_the_link_or_the_qr_code(headers: dict[str, str]) -> None:
    page = CLIENT.get(ROLLED_LINK, headers=headers)
    assert page.status_code == 200
    assert "evil" not in page.text
    link = _position_link(page.text)
    assert link == f"http://testserver{ROLLED_LINK}"
    assert _qr_of(link) in page.text
    moved = CLIENT.post(_move(ROLLED_LINK, "roll"), headers=headers, follow_redirects=False)
    assert moved.status_code == 303
    assert moved.headers["location"].startswith("/play/")  # a path on the same site


def test_a_configured_public_url_writes_the_link_and_the_qr_code() -> None:
    client = TestClient(create_app(public_url="https://table.example/"))
    page = client.get(ROLLED_LINK, headers={"host": "evil.example"})
    link = _position_link(page.text)
    assert link == f"https://table.example{ROLLED_LINK}"
    assert _qr_of(link) in page.text


@pytest.mark.parametrize(
    "url",
    [
        "table.example",
        "ftp://table.example",
        "https://table.example/yahtzee",
        "https://user@table.example",
        "https://table.example?x=1",
        "https://table.example#top",
        "https://table.example:99999",
        "https://table example",
        "javascript:alert(1)",
        "https://\u0661.example",
        "",
    ],
)
def test_a_public_url_that_is_no_address_is_refused_by_name(url: str) -> None:
    with pytest.raises(MalformedInputError, match=r"^public_url "):
        create_app(public_url=url)


def test_serve_refuses_a_public_url_that_is_no_address(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yahtzee_rules.apps.cli import main

    assert main(["serve", "--public-url", "table.example/x", "--port", "0"]) == 2
    assert "public_url 'table.example/x'" in capsys.readouterr().err


def test_the_real_server_writes_its_own_address_whatever_the_host_header() -> None:
    pytest.importorskip("uvicorn", reason="the web table needs the web extra (uvicorn)")
    with serving(create_app()) as address:
        host, port = address.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request("GET", ROLLED_LINK, headers={"Host": "evil.example"})
        answer = connection.getresponse()
        text = answer.read().decode()
        connection.close()
    assert answer.status == 200
    assert "evil" not in text
    assert _position_link(text) == address + ROLLED_LINK
    for name, value in SECURITY_HEADERS.items():
        assert answer.getheader(name) == value


def _every_kind_of_response() -> list[tuple[str, Any]]:
    client = TestClient(
        create_app(rng=random.Random(3), table_for=_failing_table), raise_server_exceptions=False
    )
    return [
        ("setup", client.get("/")),
        ("play", client.get(ROLLED_LINK)),
        ("redirect", client.post(_move(ROLLED_LINK, "roll"), follow_redirects=False)),
        ("refused link", client.get("/play/nonsense")),
        ("refused move", client.post(_move(ROLLED_LINK, "fill"), data={"box": "zz"})),
        ("refused setup", client.post("/new", data={"kind-0": "x"})),
        ("not found", client.get("/nowhere")),
        ("wrong method", client.delete("/")),
        ("health", client.get("/health")),
        ("server error", client.get(ROLLED_LINK + "&coach=1")),
    ]


def _failing_table(rules: Rules) -> object:
    raise RuntimeError("a table source that fails")


def test_every_response_carries_the_security_headers() -> None:
    responses = _every_kind_of_response()
    statuses = {kind: response.status_code for kind, response in responses}
    assert statuses == {
        "setup": 200,
        "play": 200,
        "redirect": 303,
        "refused link": 400,
        "refused move": 400,
        "refused setup": 400,
        "not found": 404,
        "wrong method": 405,
        "health": 200,
        "server error": 500,
    }
    for kind, response in responses:
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (kind, name)
    policy = SECURITY_HEADERS["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy
    assert "default-src 'none'" in policy


def _source_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


class _InlineCode(HTMLParser):
    """Every inline script and style of a page, and every attribute a policy would block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.inside: str | None = None
        self.blocks: dict[str, list[str]] = {"script": [], "style": []}
        self.blocked_attributes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "style" or name.startswith("on") or "javascript:" in (value or ""):
                self.blocked_attributes.append(f"{tag} {name}={value!r}")
        if tag in ("script", "style"):
            self.inside = tag
            self.blocks[tag].append("")
        if tag in ("link", "img", "iframe", "object", "embed", "base"):
            self.blocked_attributes.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == self.inside:
            self.inside = None

    def handle_data(self, data: str) -> None:
        if self.inside is not None:
            self.blocks[self.inside][-1] += data


def test_every_page_holds_only_code_its_content_security_policy_allows() -> None:
    policy = dict(
        part.strip().split(" ", 1)
        for part in SECURITY_HEADERS["Content-Security-Policy"].split(";")
    )
    pages = [response for _, response in _every_kind_of_response()]
    pages.append(CLIENT.get(f"/play/{START.share_code()}?seats=gh"))  # a bot's turn
    checked = html_pages = 0
    for response in pages:
        if not response.headers.get("content-type", "").startswith("text/html"):
            continue
        html_pages += 1
        found = _InlineCode()
        found.feed(response.text)
        assert found.blocked_attributes == []
        for tag, directive in (("script", "script-src"), ("style", "style-src")):
            for source in found.blocks[tag]:
                assert _source_hash(source) in policy[directive].split(), (tag, source[:80])
                checked += 1
    assert html_pages >= 7
    assert checked == 2 * html_pages  # one script and one style on every page


# --- item: links signed with the table's key ---------------------------------------------

KEY = b"the table's key: sixteen bytes or more"
SIGNED = TestClient(create_app(rng=random.Random(5), secret=KEY), raise_server_exceptions=False)


def _signed_path(response: Any) -> str:
    return f"{response.url.path}?{response.url.query.decode()}"


def _with(link: str, **params: str) -> str:
    """The link with each query parameter in ``params`` set (added or replaced)."""
    path, _, query = link.partition("?")
    pairs = dict(part.split("=", 1) for part in query.split("&") if part)
    pairs.update(params)
    return f"{path}?{'&'.join(f'{key}={value}' for key, value in pairs.items())}"


def _forbidden(response: Any) -> None:
    assert response.status_code == 403, (response.status_code, response.text[:300])
    assert "This table did not write this link" in response.text
    assert "signature" in _alert(response)


def test_a_table_with_a_key_plays_the_links_it_wrote() -> None:
    page = SIGNED.post("/new", data={"name-0": "Ann", "kind-0": "h", "kind-1": "g"})
    assert page.status_code == 200
    link = _signed_path(page)
    assert re.fullmatch(r"/play/[\w-]+\?seats=hg&sig=[\w-]{43}", link), link
    rolled = SIGNED.post(_move(link, "roll"))
    assert rolled.status_code == 200
    coach = re.search(r'id="ask-coach" formaction="([^"]+)"', rolled.text)
    assert coach is not None
    assert SIGNED.post(html.unescape(coach.group(1)), data={"hold": "1"}).status_code == 200
    boxes = re.findall(r'name="box" value="([^"]+)"', rolled.text)
    filled = SIGNED.post(_move(_signed_path(rolled), "fill"), data={"box": boxes[0]})
    assert filled.status_code == 200  # and the bot played its turn
    undo = re.search(r'id="undo" href="([^"]+)"', filled.text)
    assert undo is not None
    assert SIGNED.get(html.unescape(undo.group(1))).status_code == 200
    shown = _position_link(filled.text)
    assert shown == f"http://testserver{_signed_path(filled)}"  # the link and QR code: signed
    # Another server with the same key plays it too (after a restart, say).
    other = TestClient(create_app(secret=KEY.decode()))
    assert other.get(_signed_path(filled)).text == filled.text


def test_a_table_with_a_key_refuses_a_link_it_did_not_write() -> None:
    forged = START.roll(outcome="66666")  # any dice: the share code's checksum is no defence
    unsigned = f"/play/{forged.share_code()}?seats=hh"
    assert CLIENT.get(unsigned).status_code == 200  # a table without a key plays it
    _forbidden(SIGNED.get(unsigned))
    _forbidden(SIGNED.post(_move(unsigned, "fill"), data={"box": "y"}))
    other_key = TestClient(create_app(secret=b"another table's key, also long"))
    written_elsewhere = _signed_path(other_key.post("/new", data={"kind-0": "h"}))
    _forbidden(SIGNED.get(written_elsewhere))


def test_a_tampered_signature_or_link_is_refused() -> None:
    link = _signed_path(SIGNED.post("/new", data={"name-0": "Ann", "kind-0": "h", "kind-1": "h"}))
    assert SIGNED.get(link).status_code == 200
    signature = link.rsplit("sig=", 1)[1]
    for changed in (
        ("A" if signature[0] != "A" else "B") + signature[1:],  # first character
        signature[:-1] + ("A" if signature[-1] != "A" else "B"),  # last character
        signature[:-1],
        signature + "A",
        signature.upper(),
        "",
        "\u2460" * 43,
    ):
        _forbidden(SIGNED.get(_with(link, sig=quote(changed))))
    _forbidden(SIGNED.get(_with(link, seats="hg")))  # the seats are signed too
    _forbidden(SIGNED.post(_move(_with(link, seats="gh"), "bot")))
    rolled = ROLLED.share_code()
    _forbidden(SIGNED.get(f"/play/{rolled}?seats=hh&sig={signature}"))  # another position's


@given(FIELD_TEXT)
def test_any_signature_but_the_table_s_own_is_refused(signature: str) -> None:
    _forbidden(SIGNED.get(f"{ROLLED_LINK}&sig={quote(signature)}"))


def test_signatures_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import hmac as standard_hmac

    compared: list[tuple[bytes, bytes]] = []
    compare = standard_hmac.compare_digest

    def recording(expected: bytes, given: bytes) -> bool:
        compared.append((expected, given))
        return compare(expected, given)

    monkeypatch.setattr(standard_hmac, "compare_digest", recording)
    signer = LinkSigner(KEY)
    good = signer.sign("y1code", "hh")
    signer.check("y1code", "hh", good)
    with pytest.raises(ForgedLinkError):
        signer.check("y1code", "hh", good[:-1] + ("A" if good[-1] != "A" else "B"))
    assert compared == [
        (good.encode(), good.encode()),
        (good.encode(), (good[:-1] + ("A" if good[-1] != "A" else "B")).encode()),
    ]  # every check goes through hmac.compare_digest, the whole signature at once


@pytest.mark.parametrize("secret", [b"", b"short", "fifteen bytes!!", b"x" * 1025])
def test_a_key_of_the_wrong_length_is_refused_by_name(secret: bytes | str) -> None:
    with pytest.raises(MalformedInputError, match=r"^secret: \d+ bytes; a key is 16 to 1024"):
        create_app(secret=secret)


def test_serve_reads_the_key_from_a_regular_file_or_the_environment(tmp_path: Any) -> None:
    key_file = tmp_path / "key"
    key_file.write_bytes(KEY + b"\n")
    assert secret_from(key_file, {}) == KEY
    assert secret_from(None, {SECRET_ENV: KEY.decode() + "\n"}) == KEY
    assert secret_from(None, {}) is None
    key_file.write_bytes(b"x" * 5000)
    with pytest.raises(MalformedInputError, match=r"^secret file .*: 1027 bytes"):
        secret_from(key_file, {})
    with pytest.raises(MalformedInputError, match=f"^{SECRET_ENV}: 3 bytes"):
        secret_from(None, {SECRET_ENV: "abc"})
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(MalformedInputError, match="not a regular file"):
        secret_from(fifo, {})  # refused at once, never waited on
    with pytest.raises(MalformedInputError, match="not a regular file"):
        secret_from(tmp_path, {})
    with pytest.raises(OSError, match="No such file"):
        secret_from(tmp_path / "missing", {})


def test_serve_refuses_a_secret_file_it_cannot_use(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from yahtzee_rules.apps.cli import main

    short = tmp_path / "short"
    short.write_text("abc\n")
    assert main(["serve", "--secret-file", str(short), "--port", "0"]) == 2
    assert "3 bytes; a key is 16 to 1024 bytes" in capsys.readouterr().err
    assert main(["serve", "--secret-file", str(tmp_path / "missing"), "--port", "0"]) == 2
    assert "No such file" in capsys.readouterr().err


def test_yahtzee_rules_serve_writes_its_own_address_and_signs_with_the_key_it_is_given(
    tmp_path: Any,
) -> None:
    pytest.importorskip("uvicorn", reason="the web table needs the web extra (uvicorn)")
    with socket.socket() as probe:  # a free port for the server to take
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {**os.environ, SECRET_ENV: KEY.decode()}
    command = [sys.executable, "-m", "yahtzee_rules", "serve", "--port", str(port)]
    server = subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            probing = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                probing.request("GET", "/health")
                if probing.getresponse().status == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
            finally:
                probing.close()
        body = "name-0=Ann&kind-0=h"
        lying = {
            "Host": "evil.example",
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "evil.example",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/new", body=body, headers=lying)
        moved = connection.getresponse()
        moved.read()
        link = moved.getheader("location") or ""
        assert moved.status == 303
        assert link.startswith("/play/")
        assert "&sig=" in link  # signed with the key from the environment
        connection.request("GET", link, headers=lying)
        page = connection.getresponse()
        text = page.read().decode()
        assert page.status == 200
        assert "evil" not in text
        assert _position_link(text) == f"http://127.0.0.1:{port}{link}"
        connection.request("GET", link.split("&sig=")[0])
        refused = connection.getresponse()
        refused.read()
        connection.close()
        assert refused.status == 403
    finally:
        server.terminate()
        server.wait(30)
        if server.stderr is not None:
            server.stderr.close()
