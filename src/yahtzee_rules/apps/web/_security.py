"""Internal: the web table's own address, and the security headers of every response.

A page shows its position's link (and QR code) as an absolute address, which a phone
can open. That address is never taken from the request's ``Host`` header, which the
sender writes (``Host: evil.example`` would put a stranger's address in the link and
QR code): it is the address the table was configured with (``create_app(public_url=)``,
``yahtzee-rules serve --public-url``), or else the address the connection reached, as
the server's socket reports it (the ASGI scope's ``server``). Every other link the
pages write is a path on the same site.

Every response carries the headers a small app should send: a Content-Security-Policy
that allows only the page's own style and script (by their hashes, see
:data:`yahtzee_rules.apps.web._page.CONTENT_SECURITY_POLICY`), refuses framing and
plug-ins, and sends forms only to the table itself; ``X-Content-Type-Options: nosniff``;
``X-Frame-Options: DENY``; and ``Referrer-Policy: no-referrer`` (a position's link holds
the game, which no other site needs to see).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from yahtzee_rules.apps.web._page import CONTENT_SECURITY_POLICY
from yahtzee_rules.support._text import quote
from yahtzee_rules.support.errors import MalformedInputError

__all__ = ["SECURITY_HEADERS", "SecurityHeaders", "origin", "public_url"]

SECURITY_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""The headers every response of the web table carries."""

_ORIGIN_RE = re.compile(
    r"(https?)://([A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])"
    r"(?::([0-9]{1,5}))?/?"
)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def public_url(text: str) -> str:
    """The table's public address, checked: ``http`` or ``https``, a host, a port, no path.

    Returned without a trailing slash, and without the scheme's default port.

    Raises:
        MalformedInputError: For anything else, naming ``public_url``.

    Examples:
        >>> public_url("https://table.example/")
        'https://table.example'
        >>> public_url("http://192.168.1.20:8000")
        'http://192.168.1.20:8000'
        >>> public_url("table.example")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.MalformedInputError: public_url 'table.example': not an address such as 'https://table.example' or 'http://192.168.1.20:8000' (http or https, a host and an optional port, no path, query or user)
    """
    found = _ORIGIN_RE.fullmatch(text)
    port = int(found.group(3)) if found is not None and found.group(3) else None
    if found is None or (port is not None and not 0 < port < 65536):
        raise MalformedInputError(
            f"public_url {quote(text)}: not an address such as 'https://table.example' or "
            f"'http://192.168.1.20:8000' (http or https, a host and an optional port, no "
            f"path, query or user)"
        )
    scheme, host = found.group(1), found.group(2)
    return _address(scheme, host, port)


def _address(scheme: str, host: str, port: int | None) -> str:
    if port is None or _DEFAULT_PORTS[scheme] == port:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def origin(scope: Scope, configured: str | None) -> str | None:
    """The address to write before a page's path: the configured one, else the socket's.

    ``None`` when neither is known (a server on a Unix socket reports no address).

    Examples:
        >>> origin({"scheme": "http", "server": ("192.168.1.20", 8000)}, None)
        'http://192.168.1.20:8000'
        >>> origin({"scheme": "https", "server": ("::1", 443)}, None)
        'https://[::1]'
        >>> origin({"scheme": "http", "server": ("127.0.0.1", 8000)}, "https://table.example")
        'https://table.example'
    """
    if configured is not None:
        return configured
    server: Any = scope.get("server")
    if not server:
        return None
    host, port = str(server[0]), server[1]
    if ":" in host:
        host = f"[{host}]"
    scheme = "https" if scope.get("scheme") == "https" else "http"
    return _address(scheme, host, int(port) if port is not None else None)


class SecurityHeaders:
    """ASGI middleware: the :data:`SECURITY_HEADERS` on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
