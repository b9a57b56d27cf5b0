"""What the benchmarks share: test data made through the services, the production server in a
subprocess, a keep-alive HTTP client, and a description of the machine the numbers came from.

The benchmarks are scripts, run from the repository root with the project's virtualenv, e.g.
`.venv/bin/python benchmarks/latency.py`. They only ever talk to servers on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import gzip
import http.client
import logging
import math
import os
import platform
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCORER = Path(sys.executable).with_name("scorer")
# The code measured is the checkout the benchmark is run from: a worktree shares the virtualenv of
# the checkout it was installed from, whose editable install would otherwise give both the app
# built here and every `scorer serve` below that other checkout's code.
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))
os.environ.setdefault("PYTHONPATH", str(ROOT))
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
# What Chrome sends over plain HTTP (it offers Brotli and zstd only over HTTPS): a phone on the
# table's Wi-Fi talking to a laptop gets gzip.
ACCEPT_ENCODING = "gzip, deflate"
HTMX = {"HX-Request": "true"}


# The app and its data


def production_app(database_url: str, instance: Path):
    """The app exactly as `scorer serve` builds it (CSRF on, no test settings), migrated."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["SCORER_INSTANCE_PATH"] = str(instance)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from flask_migrate import upgrade

    from scorer import create_app

    app = create_app()
    with app.app_context():
        upgrade()
    return app


def start_game(session, players: int = 4, target: int = 100_000, names: Sequence[str] = NAMES):
    """A standard game through the services; the target is far enough that it never ends."""
    from scorer.services import games

    return games.create_game(session, "standard", list(names[:players]), target, 0)


def hand_entry(number: int, players: int):
    """Hand `number` as the tally pad would send it: cards for most, a typed total for one seat."""
    from scorer import scoring
    from scorer.services.hands import HandEntry

    went_out = (number * 3 + 1) % players
    counts = {}
    for seat in range(players):
        if seat == went_out:
            continue
        if (seat + number) % 3 == 0:
            counts[seat] = scoring.Count(points=12 + number % 7)
        else:
            cards = ("3", "7", scoring.ANY_ACTION) if seat % 2 else ("5", "9")
            counts[seat] = scoring.Count(cards=cards[: 1 + (number + seat) % len(cards)])
    return HandEntry(went_out, counts)


def play_hands(session, game_id: int, hands: int, players: int = 4) -> None:
    """Record the game's next `hands` hands through the services, one save each, as phones do."""
    from scorer.services import games
    from scorer.services import hands as hand_service

    first = games.load_game(session, game_id).state.next_hand_number
    for number in range(first, first + hands):
        hand_service.record_hand(session, game_id, number, hand_entry(number, players))


def hand_form(number: int, players: int) -> dict[str, str]:
    """The fields the tally pad posts to save hand `number` (typed totals, like a quick phone)."""
    went_out = (number * 3 + 1) % players
    data = {"number": str(number), "went_out": str(went_out), "action": "save", "last_card": ""}
    for seat in range(players):
        if seat != went_out:
            data[f"counts-{seat}-points"] = str(5 + (seat + number) % 20)
    return data


# Servers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen | None = None, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server stopped with exit code {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


@dataclass
class Server:
    url: str
    port: int
    process: subprocess.Popen
    threads: int
    log: Path
    processes: int = 1


@contextlib.contextmanager
def scorer_serve(
    database_url: str,
    instance: Path,
    threads: int = 8,
    log: Path | None = None,
    processes: int = 1,
) -> Iterator[Server]:
    """`scorer serve` (waitress, the production server) on 127.0.0.1 in a subprocess."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SCORER_INSTANCE_PATH": str(instance),
        "PYTHONUNBUFFERED": "1",
    }
    log = log or instance / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(SCORER), "serve", "--host", "127.0.0.1", "--port", str(port)]
            + ["--threads", str(threads), "--processes", str(processes)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    try:
        wait_for_port(port, process)
        yield Server(f"http://127.0.0.1:{port}", port, process, threads, log, processes)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        yield Path(folder)


# An HTTP client that keeps its connection open, like a phone's browser


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes  # as sent: compressed when the server compressed it
    seconds: float

    @property
    def text(self) -> str:
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            return gzip.decompress(self.body).decode()
        if encoding == "deflate":
            return zlib.decompress(self.body).decode()
        return self.body.decode()


@dataclass
class Client:
    """One keep-alive connection with a cookie jar of one cookie (the session) and a CSRF token."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    csrf_token: str = ""

    def __post_init__(self) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def request(
        self,
        method: str,
        path: str,
        form: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        sent = {"Accept-Encoding": ACCEPT_ENCODING, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            from urllib.parse import urlencode

            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            if self.csrf_token:
                sent["X-CSRFToken"] = self.csrf_token
        start = time.perf_counter()
        self.connection.request(method, path, body=body, headers=sent)
        response = self.connection.getresponse()
        data = response.read()
        seconds = time.perf_counter() - start
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        if response.will_close:
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        return Reply(response.status, response.headers, data, seconds)

    def open_page(self, path: str) -> Reply:
        """GET a page and keep the CSRF token its <body> hands to htmx."""
        reply = self.request("GET", path)
        found = re.search(r'"X-CSRFToken": "([^"]+)"', reply.text)
        if found:
            self.csrf_token = found.group(1)
        return reply

    def close(self) -> None:
        self.connection.close()


# Numbers


def percentile(values: Sequence[float], share: float) -> float:
    """The `share` percentile (0 to 100) by linear interpolation, as numpy's default does."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * share / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median_interval(values: Sequence[float]) -> tuple[float, float]:
    """A 95% interval for the median of what `values` sample, from their own order (no assumption
    about their spread): the ranks n/2 -/+ 1.96 sqrt(n)/2, the binomial's normal approximation.
    Sets of a few dozen timings differ by tens of ms; this says how far one set's median may be
    from the machine's."""
    ordered = sorted(values)
    n = len(ordered)
    half_width = 1.96 * math.sqrt(n) / 2
    low = max(round(n / 2 - half_width), 1)
    high = min(round(n / 2 + half_width) + 1, n)
    return ordered[low - 1], ordered[high - 1]


def summary_ms(seconds: Sequence[float]) -> dict[str, float]:
    ms = [value * 1000 for value in seconds]
    return {
        "n": len(ms),
        "median": statistics.median(ms),
        "p95": percentile(ms, 95),
        "min": min(ms),
        "max": max(ms),
    }


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# The machine


def machine() -> dict[str, str]:
    """What the numbers ran on: cores, memory, CPU, Python, SQLite, PostgreSQL, load."""
    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = "unknown"
    with contextlib.suppress(OSError), open("/proc/meminfo") as info:
        for line in info:
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    return {
        "cores": str(os.cpu_count()),
        "memory": memory,
        "cpu": cpu,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "postgresql": postgres_version(),
        "load average": " ".join(f"{value:.2f}" for value in os.getloadavg()),
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
    }


def postgres_version(url: str = "postgresql://postgres@127.0.0.1:5432/postgres") -> str:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as connection:
            return connection.execute("SHOW server_version").fetchone()[0]
    except Exception:  # noqa: BLE001 - only a label for the report
        return "not reachable"


def print_machine() -> None:
    for key, value in machine().items():
        print(f"{key:>13}: {value}")
    print()
