"""The web table's Starlette application: one page per position, each at its own link.

A position's link is ``/play/<share code>?seats=<letters>``: the share code
(:meth:`GameRecord.share_code <yahtzee_rules.GameRecord.share_code>`) holds the
whole game, and the seats text says who sits where (``h`` human, ``r`` random,
``g`` greedy, ``o`` optimal computer player). A move is a form posted to the
position's link plus ``/roll``, ``/fill`` or ``/bot``; the server plays it
through the library and redirects to the new position's link. The server keeps
no game state, so any link works anywhere, any time; a table given a key
(``secret=``) signs its links and plays only the ones it wrote.

Examples:
    >>> import random
    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app(rng=random.Random(1)))
    >>> page = client.post("/new", data={"name-0": "Ann", "kind-0": "h", "rules": "forced"})
    >>> page.status_code, "Ann&#x27;s turn" in page.text
    (200, True)
    >>> client.get("/play/y1nonsense").status_code
    400
"""

from __future__ import annotations

import random
from collections.abc import Callable
from urllib.parse import parse_qs

import attrs
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from yahtzee_rules.apps.web import _page
from yahtzee_rules.apps.web._fields import held_positions
from yahtzee_rules.apps.web._position import (
    KINDS,
    MAX_SEATS,
    Coach,
    Position,
    coach,
    parse_seats,
)
from yahtzee_rules.apps.web._security import SECURITY_HEADERS, SecurityHeaders, origin
from yahtzee_rules.apps.web._security import public_url as _public_url
from yahtzee_rules.apps.web._signing import ForgedLinkError, LinkSigner
from yahtzee_rules.core.rules import Rules, TieRule
from yahtzee_rules.play.record import GameRecord
from yahtzee_rules.support.errors import RulesError

__all__ = ["create_app"]

#: Form bodies larger than this are refused unread.
_MAX_FORM_BYTES = 16_384


def _qr_svg(url: str) -> str | None:
    try:
        import segno
    except ImportError:  # pragma: no cover - segno comes with the web extra
        return None
    try:
        code = segno.make(url, error="l", micro=False)
    except segno.DataOverflowError:
        return None
    svg: str = code.svg_inline(scale=4, border=2, dark="#000", light="#fff")
    return svg


async def _form(request: Request) -> dict[str, list[str]]:
    body = await request.body()
    if len(body) > _MAX_FORM_BYTES:
        raise RulesError(f"form: {len(body)} bytes; a move is a short form")
    try:
        return parse_qs(body.decode("ascii"), keep_blank_values=True, max_num_fields=64)
    except (UnicodeDecodeError, ValueError):
        raise RulesError("form: not a form this page sends") from None


def _solver_available() -> bool:
    try:
        import yahtzee_rules.bots.solver  # noqa: F401
    except ImportError:
        return False
    return True


def create_app(
    *,
    rng: random.Random | None = None,
    table_for: Callable[[Rules], object | None] | None = None,
    public_url: str | None = None,
    secret: bytes | str | None = None,
) -> Starlette:
    """The web table as a Starlette (ASGI) application.

    Args:
        rng: The dice generator for every roll and computer player (a fresh
            unpredictable one by default); tests pass a seeded one.
        table_for: How the coach finds an optimal table for some rules (``None``
            when there is none, then it gives the heuristic advice). By default, a
            table from memory or the solver's cache, never built on request.
        public_url: The table's address as others reach it (``https://table.example``,
            ``http://192.168.1.20:8000``), for the link and QR code each page shows.
            By default, the address the connection reached, as the server's socket
            reports it; never the request's ``Host`` header.
        secret: A key (16 to 1,024 bytes, or text) to sign every link with
            (HMAC-SHA256); the table then plays only the links it wrote and answers
            any other with a 403 page. Without it, any well-formed link is played.

    Raises:
        MalformedInputError: For a ``public_url`` that is no such address, or a
            ``secret`` of another length.

    Examples:
        >>> from starlette.testclient import TestClient
        >>> TestClient(create_app()).get("/").status_code
        200
    """
    dice_rng = rng if rng is not None else random.SystemRandom()
    address = None if public_url is None else _public_url(public_url)
    signer = None if secret is None else LinkSigner(secret)
    sign = None if signer is None else signer.sign

    def position_of(request: Request) -> Position:
        code, seats = request.path_params["code"], request.query_params.get("seats")
        if signer is not None:
            signer.check(code, seats, request.query_params.get("sig"))
        return Position.read(code, seats, sign=sign)

    def refuse(error: RulesError, status: int = 400) -> Response:
        if isinstance(error, ForgedLinkError):
            status = 403
        return HTMLResponse(_page.error_page(str(error), status=status), status_code=status)

    def moved(request: Request, position: Position, record: GameRecord) -> Response:
        record = position.play_bots(record, dice_rng)
        return RedirectResponse(position.link(record), status_code=303)

    async def home(request: Request) -> Response:
        return HTMLResponse(_page.setup_page(optimal=_solver_available()))

    async def new_game(request: Request) -> Response:
        try:
            form = await _form(request)
        except RulesError as error:
            return refuse(error)

        def one(key: str) -> str:
            return form.get(key, [""])[0]

        names, seats = [], ""
        for seat in range(MAX_SEATS):
            kind = one(f"kind-{seat}")
            if not kind:
                continue
            if kind not in KINDS:
                return refuse(RulesError(f"seat {seat + 1}: player kind {kind[:20]!r} is unknown"))
            names.append(one(f"name-{seat}").strip() or f"Player {seat + 1}")
            seats += kind
        try:
            if not names:
                raise RulesError("players: every seat is empty; seat one player at least")
            rules = Rules.from_name(one("rules") or "forced")
            rules = attrs.evolve(rules, tie=one("tie") or TieRule.SHARE)  # refused by name
            record = GameRecord.new(names, rules=rules)
            position = Position(record, parse_seats(seats, len(names)), sign=sign)
            return moved(request, position, record)
        except RulesError as error:
            return HTMLResponse(
                _page.setup_page(str(error), optimal=_solver_available()), status_code=400
            )

    async def play(request: Request) -> Response:
        try:
            position = position_of(request)
        except RulesError as error:
            return refuse(error)
        advice: Coach | None = None
        coach_error = ""
        if request.query_params.get("coach") and not position.bot_to_play:
            try:
                advice = coach(position.game, table_for)
            except RulesError as error:
                coach_error = str(error)
        base = origin(request.scope, address)  # never the Host header
        url = position.link() if base is None else base + position.link()
        qr_svg = None if base is None else _qr_svg(url)
        html = _page.play_page(
            position, url=url, qr_svg=qr_svg, advice=advice, coach_error=coach_error
        )
        return HTMLResponse(html)

    async def roll(request: Request) -> Response:
        try:
            position = position_of(request)
            form = await _form(request)
            held = held_positions(form.get("hold", []))
            return moved(request, position, position.roll(held, dice_rng))
        except RulesError as error:
            return refuse(error)

    async def fill(request: Request) -> Response:
        try:
            position = position_of(request)
            form = await _form(request)
            return moved(request, position, position.fill(form.get("box", [""])[0]))
        except RulesError as error:
            return refuse(error)

    async def bot(request: Request) -> Response:
        try:
            position = position_of(request)
            if not position.bot_to_play:
                raise RulesError("bot: no computer player is to play in this position")
            return moved(request, position, position.record)
        except RulesError as error:
            return refuse(error)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def server_error(request: Request, error: Exception) -> Response:
        # Written outside the middleware, so it sets the security headers itself.
        page = _page.error_page("The server could not answer; try again.", status=500)
        return HTMLResponse(page, status_code=500, headers=dict(SECURITY_HEADERS))

    return Starlette(
        routes=[
            Route("/", home),
            Route("/new", new_game, methods=["POST"]),
            Route("/play/{code}", play),
            Route("/play/{code}/roll", roll, methods=["POST"]),
            Route("/play/{code}/fill", fill, methods=["POST"]),
            Route("/play/{code}/bot", bot, methods=["POST"]),
            Route("/health", health),
        ],
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={Exception: server_error},
    )
