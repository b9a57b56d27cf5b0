"""Rate limits shared by every server process through Redis (RATELIMIT_STORAGE_URI).

Two real `scorer serve` processes on one database: with Redis, ten wrong passwords split between
them use up the one limit; in memory, each process counts only its own. Each test has a key prefix
of its own (RATELIMIT_KEY_PREFIX), so runs sharing one Redis do not count each other's tries.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from form_client import FormClient

from scorer import create_app, rate_limits
from scorer.extensions import db
from scorer.services.accounts import add_user

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
REDIS_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}"
SCORER = Path(sys.executable).with_name("scorer")
START_TIMEOUT = 20.0
PASSWORD = "correct horse battery"


def redis_answers() -> bool:
    import redis

    client = redis.Redis(host=REDIS_HOST, port=REDIS_PORT, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own on the local Redis; its keys are deleted afterwards."""
    if not redis_answers():
        message = (
            f"Redis is not answering on {REDIS_HOST}:{REDIS_PORT}, so the shared rate limit "
            "tests cannot run. Start it with scripts/ensure-redis.sh (make test does)."
        )
        if os.environ.get("CI"):
            pytest.fail(f"{message} CI must not skip them.")
        pytest.skip(message)
    import redis

    prefix = f"scorer-test-{uuid.uuid4().hex}"
    yield prefix
    client = redis.Redis(host=REDIS_HOST, port=REDIS_PORT)
    try:
        keys = list(client.scan_iter(match=f"*{prefix}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`scorer serve` in a process of its own, with the settings given in its environment."""

    def __init__(self, instance: Path, settings: dict[str, str]):
        self.env = {**os.environ, "SCORER_INSTANCE_PATH": str(instance), **settings}
        self.log_path = instance / f"server-{uuid.uuid4().hex[:8]}.log"
        self.process: subprocess.Popen | None = None
        self.port = 0

    def start(self) -> Server:
        for _attempt in range(3):
            self.port = free_port()
            command = [str(SCORER), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    command, env=self.env, stdout=log, stderr=subprocess.STDOUT
                )
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                        return self
                except OSError:
                    time.sleep(0.05)
            self.stop()
        pytest.fail(f"the server did not start: {self.log_path.read_text(errors='replace')}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


class Browser(FormClient):
    """Signs in on one server, as a phone's browser would."""

    def __init__(self, server: Server):
        super().__init__(server.port)

    def sign_in(self, password: str) -> int:
        self.request("GET", "/login")
        fields = {"name": "Owner", "password": password, "next": "/"}
        return self.request("POST", "/login", fields)[0]


@pytest.fixture
def servers(databases, tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start `scorer serve` processes sharing one SQLite database with an owner account."""
    if not SCORER.exists():
        pytest.fail(f"no `scorer` entry point next to {sys.executable}; pip install -e .")
    # A copy of the process's migrated file, not the migrations run again for each test.
    database = databases.fresh("sqlite", tmp_path)
    (tmp_path / "secret_key").write_text("one key for every process")
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "unused"})
    with app.app_context():
        add_user(db.session, "Owner", PASSWORD)
        db.engine.dispose()
    started: list[Server] = []

    def start(**settings: str) -> Server:
        server = Server(tmp_path, {"DATABASE_URL": database, **settings}).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def guess_on_both(first: Server, second: Server) -> list[int]:
    """Ten wrong passwords, five on each server in turn, then one more on each."""
    browsers = [Browser(first), Browser(second)]
    return [browsers[n % 2].sign_in(f"guess {n}") for n in range(12)]


def test_two_processes_share_one_sign_in_limit_through_redis(servers, redis_prefix):
    settings = {"RATELIMIT_STORAGE_URI": REDIS_URL, "RATELIMIT_KEY_PREFIX": redis_prefix}
    first, second = servers(**settings), servers(**settings)
    assert guess_on_both(first, second) == [422] * 10 + [429, 429]


def test_in_memory_each_process_counts_only_its_own_tries(servers):
    # What the shared store is for: the same tries, counted in each process's memory.
    memory = {"RATELIMIT_STORAGE_URI": "memory://"}
    first, second = servers(**memory), servers(**memory)
    assert guess_on_both(first, second) == [422] * 12


def test_without_redis_sign_in_still_works_and_is_limited_in_memory(servers):
    # A Redis that does not answer (nothing listens on this port) must not stop anyone signing in.
    server = servers(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}")
    browser = Browser(server)
    assert [browser.sign_in(f"guess {n}") for n in range(11)] == [422] * 10 + [429]
    assert Browser(server).sign_in(PASSWORD) == 429


def test_the_store_comes_from_the_environment_unless_the_config_names_one(monkeypatch):
    monkeypatch.delenv("RATELIMIT_STORAGE_URI", raising=False)
    monkeypatch.delenv("RATELIMIT_KEY_PREFIX", raising=False)
    default = Flask(__name__)
    rate_limits.configure(default)
    assert default.config["RATELIMIT_STORAGE_URI"] == "memory://"

    monkeypatch.setenv("RATELIMIT_STORAGE_URI", REDIS_URL)
    monkeypatch.setenv("RATELIMIT_KEY_PREFIX", "league")
    from_environment = Flask(__name__)
    rate_limits.configure(from_environment)
    assert from_environment.config["RATELIMIT_STORAGE_URI"] == REDIS_URL
    assert from_environment.config["RATELIMIT_KEY_PREFIX"] == "league"

    from_config = Flask(__name__)
    from_config.config["RATELIMIT_STORAGE_URI"] = "redis://cache.example:6379"
    rate_limits.configure(from_config)
    assert from_config.config["RATELIMIT_STORAGE_URI"] == "redis://cache.example:6379"
