"""A web table served for real: uvicorn on a free loopback port, in a thread.

The browser tests and the request-surface tests run the application behind the same
server a user starts with ``yahtzee-rules serve``, not only through the test client.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on ``127.0.0.1`` until the block ends; yield its address."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    running = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not running.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(10)
        sock.close()
