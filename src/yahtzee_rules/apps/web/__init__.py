"""A pass-and-play web table built on the library: ``yahtzee-rules serve``.

One page per position: seat one to eight players (people or the library's
computer players) under any ruleset, tap dice to hold them, see what every open
box would score and why a closed box is closed, ask the coach, undo, and read
the final standings under the ruleset's tie rule. Every position has its own
link holding the game's share code, shown as a QR code too, so a game continues
on any device; the server keeps no game state.

The rules run only in Python: each page is written by the server from library
values (:meth:`Game.box_options <yahtzee_rules.Game.box_options>`,
:meth:`Game.totals <yahtzee_rules.Game.totals>`, :attr:`Game.result
<yahtzee_rules.Game.result>`), and each move is a form the server plays through
:class:`~yahtzee_rules.GameRecord`.

Needs the ``web`` extra: ``pip install "yahtzee-rules[web]"`` (Starlette, uvicorn
and segno).

Examples:
    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app())
    >>> "Start the game" in client.get("/").text
    True
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from yahtzee_rules.apps.web._signing import secret_from
from yahtzee_rules.apps.web.app import create_app

__all__ = ["create_app", "serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    tables: Iterable[object] = (),
    public_url: str | None = None,
    secret_file: str | os.PathLike[str] | None = None,
) -> None:  # pragma: no cover - blocks
    """Serve the web table with uvicorn until interrupted.

    Args:
        host: The address to listen on; ``0.0.0.0`` lets other devices on the
            network open the links.
        port: The port.
        tables: The rulesets (or their tables) to play and coach optimally, loaded
            before the server starts (see :func:`create_app`).
        public_url: The address others reach the table at (behind a proxy, say), for
            the link and QR code of each page; by default the address and port each
            connection reached. See :func:`create_app`.
        secret_file: A file holding the key to sign links with (16 to 1,024 bytes;
            surrounding whitespace is dropped); without it, the key in the
            ``YAHTZEE_RULES_WEB_SECRET`` environment variable, if set. With a key, the
            table plays only the links it wrote.

    Raises:
        MalformedInputError: For a bad address, a secret file that is no regular
            file, or a key of the wrong length (before the server starts).
        OSError: For a secret file that cannot be read.

    Examples:
        >>> callable(serve)
        True
    """
    import uvicorn

    secret = secret_from(secret_file, os.environ)
    # refuses bad options first
    app = create_app(tables=tables, public_url=public_url, secret=secret)
    # Proxy headers (X-Forwarded-Proto...) are not read: the links come from public_url
    # or the socket, never from what a request says about itself.
    uvicorn.run(app, host=host, port=port, log_level="info", proxy_headers=False)
