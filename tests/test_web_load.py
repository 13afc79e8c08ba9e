"""A bounded load test of the real web table: uvicorn on loopback, in its own process.

Clients start games under arbitrary rulesets (named ones, and ones a link or the form
can spell, such as ``forced, upper_bonus=101``) with optimal, greedy and random
computer players, roll, and ask the coach, while a probe asks ``/health`` every few
milliseconds: ``/health`` must answer within 100 ms throughout, no request may fail
with a server error, and the server's memory must stay flat. The default run makes
1,000 requests (about 15 s on 2 cores); ``YAHTZEE_RULES_SLOW=1`` adds the full 10,000.
Every request has a timeout and the run a deadline, so it can never hang.
"""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra (Starlette)")
pytest.importorskip("uvicorn", reason="the web table needs the web extra (uvicorn)")
pytest.importorskip("numpy", reason="the load test plays optimal bots from a table")

import httpx2

from yahtzee_rules import Rules

# Interpreter-independent and costly: CI runs it on 3.11 only (see pyproject.toml).
pytestmark = pytest.mark.main_interpreter

#: The server: the web table with Yacht's optimal table (quick to build), on the socket
#: whose file descriptor it is given.
_SERVER = """
import random, socket, sys
import uvicorn
from yahtzee_rules import Rules
from yahtzee_rules.apps.web import create_app
sock = socket.socket(fileno=int(sys.argv[1]))
app = create_app(rng=random.Random(7), tables=[Rules.from_name("yacht")])
uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False)).run(sockets=[sock])
"""

#: Rulesets with no table at the server: every named one but Yacht, and some spelled out.
_RULES = [
    *Rules.names(),
    "forced, upper_bonus=101",
    "free-choice, yahtzee_bonus=7",
    "none, upper_bonus_threshold=50",
    "yatzy, upper_bonus=1",
    "kinds-first, upper_bonus=0",
]
_TIES = ["share", "upper-total", "play-off"]
_HEALTH_LIMIT = 0.100  # seconds

#: The probe: asks /health every 20 ms until a line comes in, then prints the times taken.
_PROBE = """
import json, sys, threading, time
import httpx2
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
times = []
with httpx2.Client(base_url=sys.argv[1], timeout=10) as client:
    while not stop.is_set():
        began = time.perf_counter()
        assert client.get("/health").status_code == 200
        times.append(time.perf_counter() - began)
        time.sleep(0.02)
print(json.dumps(times))
"""


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS line")  # pragma: no cover


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    if not Path("/proc/self/status").exists():
        pytest.skip("the load test reads the server's memory from /proc")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-c", _SERVER, str(sock.fileno())], pass_fds=[sock.fileno()]
    )
    sock.close()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a first run builds Yacht's table (seconds)
        while True:
            assert process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            try:
                if httpx2.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx2.TransportError:
                time.sleep(0.1)
        yield base, process
    finally:
        process.terminate()
        process.wait(10)


class _Load:
    """Clients playing and a probe timing /health, for ``requests`` requests at most."""

    def __init__(self, base: str, requests: int, clients: int, deadline: float) -> None:
        self.base, self.left, self.deadline = base, requests, time.monotonic() + deadline
        self.lock = threading.Lock()
        self.statuses: dict[int, int] = {}
        self.health: list[float] = []
        self.errors: list[str] = []
        self.threads = [
            threading.Thread(target=self._client, args=(seed,)) for seed in range(clients)
        ]

    def _take(self) -> bool:
        with self.lock:
            if self.left <= 0 or time.monotonic() > self.deadline:
                return False
            self.left -= 1
            return True

    def _count(self, response: httpx2.Response) -> httpx2.Response:
        with self.lock:
            self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
        if response.status_code >= 500 and response.status_code != 503:
            self.errors.append(f"{response.status_code} {response.url}")
        return response

    def _client(self, seed: int) -> None:
        rng = random.Random(seed)
        with httpx2.Client(base_url=self.base, timeout=30) as client:
            try:
                self._play(client, rng)
            except Exception as error:  # reported by the test
                self.errors.append(repr(error))

    def _play(self, client: httpx2.Client, rng: random.Random) -> None:
        while self._take():
            seats = rng.randint(1, 4)
            form = {"rules": rng.choice(_RULES), "tie": rng.choice(_TIES)}
            for seat in range(seats):
                form[f"kind-{seat}"] = rng.choice("hhgor")
            form["kind-0"] = "h"  # a human to move once the bots have played
            if rng.random() < 0.5:
                form[f"kind-{seats}"] = "o"  # an optimal bot plays first: Yacht's or greedy
            page = self._count(client.post("/new", data=form))
            location = page.headers.get("location")
            if page.status_code != 303 or location is None or not self._take():
                continue
            self._count(client.get(location))
            if not self._take():
                break
            path, _, query = location.partition("?")
            rolled = self._count(client.post(f"{path}/roll?{query}"))
            location = rolled.headers.get("location")
            if location is None or not self._take():
                continue
            self._count(client.get(f"{location}&coach=1"))

    def run(self) -> float:
        # The probe runs in a process of its own, so the clients' threads never delay it.
        probe = subprocess.Popen(
            [sys.executable, "-c", _PROBE, self.base],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        began = time.monotonic()
        for thread in self.threads:
            thread.start()
        for thread in self.threads:
            thread.join()
        took = time.monotonic() - began
        out, _ = probe.communicate("stop\n", timeout=30)
        self.health = json.loads(out)
        return took


def _run(base: str, process: subprocess.Popen[bytes], requests: int) -> dict[str, Any]:
    _Load(base, 200, 4, 120).run()  # warm up: tables' per-turn caches, modules, pages
    before = _rss_kib(process.pid)
    load = _Load(base, requests, 6, 600)
    took = load.run()
    after = _rss_kib(process.pid)
    assert not load.errors, load.errors[:5]
    assert load.left <= 0, f"the run hit its deadline with {load.left} requests left"
    health = sorted(load.health)
    return {
        "took": took,
        "statuses": load.statuses,
        "health": health,
        "p99": health[len(health) * 99 // 100],
        "slowest": health[-1],
        "growth_kib": after - before,
        "before_kib": before,
    }


def _check(found: dict[str, Any], requests: int) -> None:
    health = found["health"]
    print(
        f"\n{requests} requests in {found['took']:.1f} s; statuses {found['statuses']}; "
        f"/health {len(health)} probes, median {health[len(health) // 2] * 1000:.1f} ms, "
        f"99th percentile {found['p99'] * 1000:.1f} ms, slowest {found['slowest'] * 1000:.1f} ms; memory {found['before_kib'] / 1024:.1f} MiB, "
        f"{found['growth_kib'] / 1024:+.1f} MiB over the run"
    )
    # The figures above show the limit kept on a machine to itself. The test itself asks
    # what no shared machine's scheduler can break, while a loop doing the work would: a
    # request whose work held the event loop held /health for seconds (2.2 s at the 99th
    # percentile with six clients; 35 s behind six table builds). CI runs three suites on
    # two cores at once, which alone delays a probe a few hundred milliseconds.
    assert found["p99"] < 10 * _HEALTH_LIMIT, f"/health took {found['p99'] * 1000:.0f} ms (99th)"
    assert found["slowest"] < 30 * _HEALTH_LIMIT, f"/health took {found['slowest']:.2f} s"
    assert sum(found["statuses"].values()) == requests
    assert found["statuses"].get(503, 0) == 0  # 6 clients never fill the queue
    assert found["growth_kib"] < 16 * 1024, f"memory grew by {found['growth_kib']} KiB"


def test_health_answers_quickly_and_memory_stays_flat_under_load(
    server: tuple[str, subprocess.Popen[bytes]],
) -> None:
    _check(_run(*server, 1_000), 1_000)


@pytest.mark.slow
def test_health_answers_quickly_and_memory_stays_flat_over_10000_requests(
    server: tuple[str, subprocess.Popen[bytes]],
) -> None:
    _check(_run(*server, 10_000), 10_000)


def test_a_body_streamed_past_the_limit_is_refused_before_it_ends(
    server: tuple[str, subprocess.Popen[bytes]],
) -> None:
    base, _ = server
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(
            b"POST /new HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"a" * 4096
        answer = b""
        raw.settimeout(0.05)
        for _ in range(25_600):  # up to 100 MiB, if it were all read
            try:
                raw.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:  # the server has answered and closed
                raw.settimeout(5)
            try:
                answer = raw.recv(4096)
            except TimeoutError:
                continue
            break
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
