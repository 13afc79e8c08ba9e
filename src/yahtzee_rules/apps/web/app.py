"""The web table's Starlette application: one page per position, each at its own link.

A position's link is ``/play/<share code>?seats=<letters>``: the share code
(:meth:`GameRecord.share_code <yahtzee_rules.GameRecord.share_code>`) holds the
whole game, and the seats text says who sits where (``h`` human, ``r`` random,
``g`` greedy, ``o`` optimal computer player). A move is a form posted to the
position's link plus ``/roll``, ``/fill`` or ``/bot``; the server plays it
through the library and redirects to the new position's link. Asking the coach posts
the dice held to ``/coach``, which answers with the link of the same position with
the coach's advice and those dice still held (``coach=1&hold=03``). The server keeps
no game state, so any link works anywhere, any time; a table given a key
(``secret=``) signs its links and plays only the ones it wrote.

The event loop only reads requests and writes answers: each page and move is worked
out in a bounded pool of worker threads, and a request that finds the pool's queue
full is answered at once with 503 (see :mod:`yahtzee_rules.apps.web._work`). A form
body is refused with 413 by its ``Content-Length`` before it is read, or while it
streams in. Optimal tables come only from the rulesets the app is started with.

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
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import parse_qs

import attrs
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from yahtzee_rules.apps.web import _page
from yahtzee_rules.apps.web._fields import held_positions, held_text
from yahtzee_rules.apps.web._position import (
    KINDS,
    MAX_SEATS,
    Coach,
    Position,
    TableFor,
    coach,
    column_table,
    parse_seats,
    strong_play,
)
from yahtzee_rules.apps.web._security import SECURITY_HEADERS, SecurityHeaders, origin
from yahtzee_rules.apps.web._security import public_url as _public_url
from yahtzee_rules.apps.web._signing import ForgedLinkError, LinkSigner
from yahtzee_rules.apps.web._work import BusyError, Tables, Workers
from yahtzee_rules.core.rules import Rules, TieRule
from yahtzee_rules.play.record import GameRecord
from yahtzee_rules.support._limits import MAX_WEB_FORM_BYTES, WEB_QUEUE, WEB_WORKERS
from yahtzee_rules.support.errors import MalformedInputError, RulesError, UnknownLocaleError
from yahtzee_rules.support.l10n import LOCALES, best_locale, resolve_locale

__all__ = ["create_app"]

#: The most bytes a QR code holds (version 40, low error correction, bytes): a longer link
#: gets none, without the encoder's work of finding that out.
_QR_MOST_BYTES = 2_953

#: A form's fields read from a body (``None`` for a request that has none).
Form = dict[str, list[str]] | None

#: The cookie that keeps the language a player chose with the page's language switch.
LANGUAGE_COOKIE = "lang"
#: What a page's language depends on, besides its address.
_VARY = {"Vary": "Accept-Language, Cookie"}


def _locale(request: Request, *, asked: bool = True) -> str:
    """The language of the page for ``request``: the one its ``lang=`` asks for (an
    unknown one raises :class:`UnknownLocaleError`; ``asked=False`` passes it over, for
    error pages), else the one the language switch kept in a cookie, else the one the
    browser's ``Accept-Language`` prefers."""
    chosen = request.query_params.get("lang")
    if chosen is not None and asked:
        return resolve_locale(chosen)
    kept = request.cookies.get(LANGUAGE_COOKIE)
    if kept:
        try:
            return resolve_locale(kept)
        except UnknownLocaleError:
            pass  # a stale or foreign cookie is not the user's typing: passed over
    return best_locale(request.headers.get("accept-language"))


def _any_locale(request: Request) -> str:
    """As :func:`_locale`, but an unknown ``lang=`` falls back (for error pages)."""
    try:
        return _locale(request)
    except UnknownLocaleError:
        return _locale(request, asked=False)


def _page_response(request: Request, html: str, locale: str, status: int = 200) -> Response:
    """A page in ``locale``'s language; when its ``lang=`` chose it, the cookie keeps it."""
    response = HTMLResponse(html, status_code=status, headers=_VARY)
    if request.query_params.get("lang") is not None:
        response.set_cookie(
            LANGUAGE_COOKIE, locale, max_age=365 * 24 * 3600, httponly=True, samesite="lax"
        )
    return response


class _TooLargeError(MalformedInputError):
    """A form body over :data:`~yahtzee_rules.support._limits.MAX_WEB_FORM_BYTES`: 413."""


def _qr_svg(url: str) -> str | None:
    if len(url.encode()) > _QR_MOST_BYTES:
        return None
    try:
        import segno
    except ImportError:  # pragma: no cover - segno comes with the web extra
        return None
    try:
        code = segno.make(url, error="l", micro=False)
    except segno.DataOverflowError:
        return None
    svg: str = code.svg_inline(border=2, dark="#000", light="#fff", omitsize=True)
    return svg


def _too_large(size: str) -> _TooLargeError:
    return _TooLargeError(
        f"form: {size} bytes; a move is a short form of at most {MAX_WEB_FORM_BYTES} bytes"
    )


async def _form(request: Request) -> dict[str, list[str]]:
    """The form's fields: refused by its ``Content-Length`` before a byte is read, and
    while it streams in, once over the limit (so a body is never held whole first)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit()):
            raise RulesError(f"form: Content-Length {declared[:20]!r} is not a length")
        if len(declared) > 12 or int(declared) > MAX_WEB_FORM_BYTES:
            raise _too_large(f"Content-Length {declared[:20]}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_WEB_FORM_BYTES:
            raise _too_large(f"over {MAX_WEB_FORM_BYTES}")
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
    tables: Iterable[object] = (),
    table_for: TableFor | None = None,
    workers: int = WEB_WORKERS,
    queue: int = WEB_QUEUE,
    public_url: str | None = None,
    secret: bytes | str | None = None,
) -> Starlette:
    """The web table as a Starlette (ASGI) application.

    Args:
        rng: The dice generator for every roll and computer player (a fresh
            unpredictable one by default); tests pass a seeded one.
        tables: The rulesets (:class:`~yahtzee_rules.Rules`) to play and coach
            optimally, or their tables (:class:`~yahtzee_rules.bots.solver.Table`):
            each table is loaded from the solver's cache now, built and cached first
            if need be. A table serves every game whose rules differ from its own
            only in the tie rule. Under any other rules the optimal bots play the
            greedy player's moves and the coach gives the heuristic advice, and the
            page says so; nothing a request asks for builds a table.
        table_for: How the coach and the optimal bots find a table for some rules
            (``None`` when there is none), instead of ``tables``.
        workers: The worker threads that work out pages and moves, at once.
        queue: The requests that may wait for a worker; one more gets a 503 at once.
        public_url: The table's address as others reach it (``https://table.example``,
            ``http://192.168.1.20:8000``), for the link and QR code each page shows.
            By default, the address the connection reached, as the server's socket
            reports it; never the request's ``Host`` header.
        secret: A key (16 to 1,024 bytes, or text) to sign every link with
            (HMAC-SHA256); the table then plays only the links it wrote and answers
            any other with a 403 page. Without it, any well-formed link is played.

    Raises:
        MalformedInputError: For a ``tables`` item that is neither rules nor a table,
            rules the solver cannot solve, a ``workers`` or ``queue`` that is not an
            int of at least 1 (0 for ``queue``), a ``public_url`` that is no such
            address, or a ``secret`` of another length.

    Examples:
        >>> from starlette.testclient import TestClient
        >>> TestClient(create_app()).get("/").status_code
        200
    """
    dice_rng = rng if rng is not None else random.SystemRandom()
    pool = Workers(workers, queue)
    started = Tables(tables)
    find: TableFor = started if table_for is None else table_for
    optimal = _solver_available()
    home_pages = {
        locale: _page.setup_page(optimal=optimal, tables=started.names, locale=locale)
        for locale in LOCALES
    }
    busy_pages = {
        locale: _page.error_page(_page.busy_message(locale), status=503, locale=locale)
        for locale in LOCALES
    }
    address = None if public_url is None else _public_url(public_url)
    signer = None if secret is None else LinkSigner(secret)
    sign = None if signer is None else signer.sign

    def position_of(request: Request) -> Position:
        code, seats = request.path_params["code"], request.query_params.get("seats")
        if signer is not None:
            signer.check(code, seats, request.query_params.get("sig"))
        return Position.read(code, seats, sign=sign)

    def refuse(error: RulesError, status: int = 400, request: Request | None = None) -> Response:
        if isinstance(error, _TooLargeError):
            status = 413
        if isinstance(error, ForgedLinkError):
            status = 403
        locale = None if request is None else _any_locale(request)
        page = _page.error_page(str(error), status=status, locale=locale)
        return HTMLResponse(page, status_code=status, headers=_VARY)

    def offloaded(
        work: Callable[[Request, Form], Response], *, form: bool = False
    ) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint that reads the form (if ``form``) and runs ``work`` in the pool."""

        async def endpoint(request: Request) -> Response:
            try:
                fields = await _form(request) if form else None
            except RulesError as error:
                return refuse(error, request=request)
            try:
                return await pool.run(lambda: work(request, fields))
            except BusyError:
                busy = busy_pages[_any_locale(request)]
                return HTMLResponse(busy, status_code=503, headers={"Retry-After": "1", **_VARY})

        return endpoint

    def moved(request: Request, position: Position, record: GameRecord) -> Response:
        record = position.play_bots(record, dice_rng, find)
        return RedirectResponse(position.link(record), status_code=303)

    async def home(request: Request) -> Response:
        try:
            locale = _locale(request)
        except UnknownLocaleError as error:
            return refuse(error, request=request)
        return _page_response(request, home_pages[locale], locale)

    def new_game(request: Request, form: Form) -> Response:
        assert form is not None

        def one(key: str) -> str:
            return form.get(key, [""])[0]

        locale = _any_locale(request)
        names, seats = [], ""
        for seat in range(MAX_SEATS):
            kind = one(f"kind-{seat}")
            if not kind:
                continue
            if kind not in KINDS:
                return refuse(
                    RulesError(f"seat {seat + 1}: player kind {kind[:20]!r} is unknown"),
                    request=request,
                )
            names.append(one(f"name-{seat}").strip() or _page.default_name(seat, locale))
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
            page = _page.setup_page(
                str(error), optimal=optimal, tables=started.names, locale=locale
            )
            return HTMLResponse(page, status_code=400, headers=_VARY)

    def play(request: Request, form: Form) -> Response:
        try:
            locale = _locale(request)
            position = position_of(request)
        except RulesError as error:
            return refuse(error, request=request)
        advice: Coach | None = None
        coach_error = ""
        shown = request.query_params.get("hold")
        try:
            held = None if shown is None else held_text(shown)
        except RulesError as error:
            return refuse(error, request=request)
        if request.query_params.get("coach") and not position.bot_to_play:
            try:
                advice = coach(position.game, find)
            except RulesError as error:
                coach_error = str(error)
        base = origin(request.scope, address)  # never the Host header
        url = position.link() if base is None else base + position.link()
        qr_svg = None if base is None else _qr_svg(url)
        fallback = "o" in position.seats and not strong_play(position.game.rules, find)
        html = _page.play_page(
            position,
            url=url,
            qr_svg=qr_svg,
            advice=advice,
            coach_error=coach_error,
            fallback=fallback,
            held=held,
            locale=locale,
        )
        return _page_response(request, html, locale)

    def ask_coach(request: Request, form: Form) -> Response:
        # The page again, with the coach's advice and the dice the player holds now.
        assert form is not None
        try:
            position = position_of(request)
            held = held_positions(form.get("hold", []))
            if position.bot_to_play or position.game.dice is None:
                raise RulesError("coach: no dice of a human player to advise on in this position")
        except RulesError as error:
            return refuse(error, request=request)
        hold = "".join(str(place) for place in sorted(set(held)))
        return RedirectResponse(position.link(coach="1", hold=hold), status_code=303)

    def roll(request: Request, form: Form) -> Response:
        assert form is not None
        try:
            position = position_of(request)
            held = held_positions(form.get("hold", []))
            return moved(request, position, position.roll(held, dice_rng))
        except RulesError as error:
            return refuse(error, request=request)

    def fill(request: Request, form: Form) -> Response:
        assert form is not None
        try:
            position = position_of(request)
            return moved(request, position, position.fill(form.get("box", [""])[0]))
        except RulesError as error:
            return refuse(error, request=request)

    def bot(request: Request, form: Form) -> Response:
        try:
            position = position_of(request)
            if not position.bot_to_play:
                raise RulesError("bot: no computer player is to play in this position")
            return moved(request, position, position.record)
        except RulesError as error:
            return refuse(error, request=request)

    def review(request: Request, form: Form) -> Response:
        try:
            locale = _locale(request)
            position = position_of(request)
        except RulesError as error:
            return refuse(error, request=request)
        if not position.record.actions:
            note = _page.review_note("none", locale)
            return _page_response(request, _page.review_page(position, None, note, locale), locale)
        rules = position.game.rules
        # Triple Yahtzee: the Classic table of its columns, reviewed against
        # TripleStrategy's values (an approximation, and the page says so)
        table = find(rules)
        if table is None:
            table = column_table(rules, find)
        if table is None:
            note = _page.review_note("no table", locale)
            return _page_response(request, _page.review_page(position, None, note, locale), locale)
        from yahtzee_rules.bots.solver import Table
        from yahtzee_rules.bots.solver import review as review_record

        assert isinstance(table, Table)
        # the chance of winning in the late turns: bounded work (REVIEW_WIN_OPEN_BOXES),
        # from the small target table made when the server started
        targets = started.targets(position.game.rules)
        wins = len(position.game.players) > 1 and targets is not None
        reviewed = review_record(
            position.record, table, wins=wins, targets=targets if wins else None
        )
        return _page_response(request, _page.review_page(position, reviewed, locale=locale), locale)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def not_found(request: Request, error: Exception) -> Response:
        locale = _any_locale(request)
        page = _page.error_page(_page.not_found_message(locale), status=404, locale=locale)
        return HTMLResponse(page, status_code=404, headers=_VARY)

    async def server_error(request: Request, error: Exception) -> Response:
        # Written outside the middleware, so it sets the security headers itself.
        locale = _any_locale(request)
        page = _page.error_page(_page.server_error_message(locale), status=500, locale=locale)
        return HTMLResponse(page, status_code=500, headers={**dict(SECURITY_HEADERS), **_VARY})

    return Starlette(
        routes=[
            Route("/", home),
            Route("/new", offloaded(new_game, form=True), methods=["POST"]),
            Route("/play/{code}", offloaded(play)),
            Route("/play/{code}/roll", offloaded(roll, form=True), methods=["POST"]),
            Route("/play/{code}/fill", offloaded(fill, form=True), methods=["POST"]),
            Route("/play/{code}/bot", offloaded(bot), methods=["POST"]),
            Route("/play/{code}/coach", offloaded(ask_coach, form=True), methods=["POST"]),
            Route("/review/{code}", offloaded(review)),
            Route("/health", health),
        ],
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={404: not_found, Exception: server_error},
    )
