"""Pulling the plug: the real server killed with SIGKILL while phones save hands loses nothing it
acknowledged, and the database it leaves behind is sound. Also: several server processes serve
one game without any of them showing it stale.

The server runs as `scorer serve` in a process of its own, on a temporary instance folder (SQLite)
or a fresh PostgreSQL schema, with CSRF protection on as in production.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
import sqlalchemy as sa
from form_client import FormClient

from scorer import create_app
from scorer.extensions import db
from scorer.models import Hand, HandCount

# On PostgreSQL the server process works on the `app` fixture's database: it must really be there.
pytestmark = pytest.mark.fresh_database

PLAYERS = ("Ann", "Bob", "Cat", "Dan")
PHONES = 3
ACKNOWLEDGED_BEFORE_KILL = 20
START_TIMEOUT = 20.0
REQUEST_TIMEOUT = 10.0
SCORER = Path(sys.executable).with_name("scorer")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`scorer serve` on a port of its own; `kill` is SIGKILL, with no chance to clean up."""

    def __init__(self, instance: Path, database_url: str | None, options: tuple[str, ...] = ()):
        self.instance = instance
        self.options = options
        self.env = {**os.environ, "SCORER_INSTANCE_PATH": str(instance)}
        self.env.pop("DATABASE_URL", None)
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.returncode: int | None = None

    def start(self) -> None:
        # A free port can be taken by someone else before the server binds it: then try another.
        for _attempt in range(3):
            if self._start_on(free_port()):
                return
            self.kill()
        pytest.fail(f"the server exited with {self.returncode}: {self.output()}")

    def _start_on(self, port: int) -> bool:
        self.port = port
        command = [str(SCORER), "serve", "--host", "127.0.0.1", "--port", str(port), *self.options]
        self.log = open(self.instance / f"server-{port}.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            command, env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.returncode = self.process.returncode
                return False
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return True
            except OSError:
                time.sleep(0.05)
        pytest.fail(f"the server did not start in {START_TIMEOUT} s: {self.output()}")

    def output(self) -> str:
        self.log.flush()
        return (self.instance / f"server-{self.port}.log").read_text(errors="replace")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        if self.process is not None:
            self.log.close()
        self.process = None


class Phone(FormClient):
    """A phone that starts games and records hands on the server under test."""

    def __init__(self, port: int):
        super().__init__(port, timeout=REQUEST_TIMEOUT)

    def start_game(self) -> int:
        self.request("GET", "/games/new")
        fields = {f"players-{seat}": name for seat, name in enumerate(PLAYERS)}
        fields.update(mode="standard", target="100000", first_dealer="0", action="start")
        status, location, body = self.request("POST", "/games/new", fields)
        assert status == 303, body
        return int(location.rstrip("/").rsplit("/", 1)[1])


def counts_of(game_id: int, number: int) -> tuple[int, dict[int, int]]:
    """A different, deterministic hand for every game and number: (went_out, points by seat)."""
    went_out = (game_id + number) % len(PLAYERS)
    return went_out, {
        seat: (number * 7 + seat + game_id) % 50 for seat in range(len(PLAYERS)) if seat != went_out
    }


def hand_fields(game_id: int, number: int) -> dict[str, str]:
    went_out, counts = counts_of(game_id, number)
    fields = {"number": str(number), "action": "save", "last_card": "", "went_out": str(went_out)}
    fields.update({f"counts-{seat}-points": str(points) for seat, points in counts.items()})
    return fields


@pytest.fixture
def server(backend: str, tmp_path: Path, request) -> Iterator[Server]:
    if not SCORER.exists():
        pytest.fail(f"no `scorer` entry point next to {sys.executable}; pip install -e .")
    if backend == "postgresql":
        # The same fresh schema as the `app` fixture gives, built by the server itself on start.
        app = request.getfixturevalue("app")
        with app.app_context():
            url = db.engine.url.render_as_string(hide_password=False)
    else:
        url = None
    server = Server(tmp_path, url)
    try:
        yield server
    finally:
        server.kill()


def test_a_killed_server_keeps_every_hand_it_acknowledged(server, backend):
    server.start()
    game_ids = [Phone(server.port).start_game() for _ in range(PHONES)]
    acknowledged: dict[int, list[int]] = {game_id: [] for game_id in game_ids}
    failures: list[str] = []
    enough = threading.Event()

    def keep_saving(game_id: int) -> None:
        phone = Phone(server.port)
        phone.request("GET", f"/games/{game_id}")
        for number in range(1, 1000):
            try:
                status, _, body = phone.request(
                    "POST", f"/games/{game_id}/hands", hand_fields(game_id, number)
                )
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this hand may or may not have been saved
            if status != 303:
                failures.append(f"game {game_id} hand {number}: {status} {body[:300]}")
                return
            acknowledged[game_id].append(number)
            if sum(map(len, acknowledged.values())) >= ACKNOWLEDGED_BEFORE_KILL:
                enough.set()

    phones = [threading.Thread(target=keep_saving, args=(game_id,)) for game_id in game_ids]
    for phone in phones:
        phone.start()
    enough.wait(timeout=30)
    server.kill()  # with requests in flight: the phones keep saving until the connection dies
    for phone in phones:
        phone.join(timeout=REQUEST_TIMEOUT + 5)
    assert not any(phone.is_alive() for phone in phones)
    assert failures == []
    assert enough.is_set(), acknowledged

    server.start()  # recovers the database (and on SQLite replays its write-ahead log)
    for game_id in game_ids:
        assert Phone(server.port).request("GET", f"/games/{game_id}")[0] == 200
    server.kill()

    if backend == "sqlite":
        with sqlite3.connect(server.instance / "scorer.sqlite") as connection:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        url = f"sqlite:///{server.instance / 'scorer.sqlite'}"
    else:
        url = server.env["DATABASE_URL"]
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "TESTING": True})
    unacknowledged = 0
    with app.app_context():
        try:
            for game_id, numbers in acknowledged.items():
                hands = stored_hands(game_id)
                # Every acknowledged hand is there as sent; at most the one in flight is there too.
                assert list(hands) in (numbers, [*numbers, len(numbers) + 1])
                for number, hand in hands.items():
                    assert hand == counts_of(game_id, number), (game_id, number)
                unacknowledged += len(hands) - len(numbers)
        finally:
            db.session.remove()
            db.engine.dispose()
    print(
        f"{backend}: acknowledged before the kill {[len(n) for n in acknowledged.values()]},"
        f" stored but never acknowledged {unacknowledged}"
    )


def stored_hands(game_id: int) -> dict[int, tuple[int, dict[int, int]]]:
    rows = db.session.execute(
        sa.select(Hand.number, Hand.went_out, HandCount.position, HandCount.points)
        .join(HandCount, HandCount.hand_id == Hand.id)
        .where(Hand.game_id == game_id)
        .order_by(Hand.number, HandCount.position)
    )
    hands: dict[int, tuple[int, dict[int, int]]] = {}
    for number, went_out, position, points in rows:
        hands.setdefault(number, (went_out, {}))[1][position] = points
    return hands


@pytest.mark.skipif(os.name != "posix", reason="several processes need fork")
def test_several_processes_serve_one_game_and_stop_together(backend, tmp_path, request):
    """`scorer serve --processes 2`: each worker sees what the other saved, none shows it stale."""
    if backend == "postgresql":
        app = request.getfixturevalue("app")
        with app.app_context():
            url = db.engine.url.render_as_string(hide_password=False)
    else:
        url = None
    server = Server(tmp_path, url, ("--processes", "2", "--threads", "2"))
    try:
        server.start()
        assert server.process is not None
        master = psutil.Process(server.process.pid)
        deadline = time.monotonic() + START_TIMEOUT
        while len(master.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = master.children()
        assert len(workers) == 2
        phone = Phone(server.port)
        game_id = phone.start_game()
        for number in range(1, 11):
            # Every request on a new connection: the kernel hands each to either worker, and each
            # keeps its own replays of the game, which must never outlive a save by the other.
            phone.request("GET", f"/games/{game_id}")
            status, _, body = phone.request(
                "POST", f"/games/{game_id}/hands", hand_fields(game_id, number)
            )
            assert status == 303, body
            for _ in range(4):
                _, _, page = phone.request("GET", f"/games/{game_id}")
                assert f"Record hand {number + 1}" in page
        server.process.terminate()
        assert server.process.wait(timeout=15) == 0
        assert not [worker for worker in workers if worker.is_running()]
    finally:
        server.kill()
