"""`scorer serve` as it is deployed: a process of its own on a temporary instance folder (SQLite),
on a free local port, configured through the environment."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SCORER = Path(sys.executable).with_name("scorer")
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scorer_environment(instance: Path, **settings: str) -> dict[str, str]:
    """The environment for `scorer` on `instance`, with none of the caller's scorer settings."""
    env = {**os.environ, "SCORER_INSTANCE_PATH": str(instance), **settings}
    for name in ("DATABASE_URL", "TRUSTED_PROXY_HOPS", "TRUSTED_HOSTS", "PORT"):
        if name not in settings:
            env.pop(name, None)
    return env


class ScorerServer:
    """`scorer serve --host 127.0.0.1` with some settings; stopped with SIGTERM, as systemd does.

    `executable` is the `scorer` command to run: this virtualenv's unless told (an installed
    wheel's, in test_wheel.py).
    """

    def __init__(
        self,
        instance: Path,
        options: tuple[str, ...] = (),
        *,
        executable: Path = SCORER,
        **settings: str,
    ) -> None:
        self.executable = executable
        self.instance = instance
        self.options = options
        self.env = scorer_environment(instance, **settings)
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.log_path = instance / "server.log"

    def start(self) -> None:
        # A free port can be taken by someone else before the server binds it: then try another.
        for _attempt in range(3):
            if self._start_on(free_port()):
                return
        pytest.fail(f"`scorer serve` did not start: {self.output()}")

    def serve_command(self, port: int) -> list[str]:
        return [
            str(self.executable),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *self.options,
        ]

    def _start_on(self, port: int) -> bool:
        self.port = port
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                self.serve_command(port), env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return True
            except OSError:
                time.sleep(0.05)
        self.stop()
        pytest.fail(f"`scorer serve` did not start in {START_TIMEOUT} s: {self.output()}")

    def command(self, *arguments: str) -> subprocess.CompletedProcess:
        """Another `scorer` command on the same instance and settings, e.g. `users add`."""
        return subprocess.run(
            [str(self.executable), *arguments],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )

    def run_on(self, port: int) -> subprocess.CompletedProcess:
        """`scorer serve` on `port`, waited for: for a server that is expected not to start."""
        return subprocess.run(
            self.serve_command(port), env=self.env, capture_output=True, text=True, timeout=60
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None


@contextmanager
def servers_in(folder: Path) -> Iterator:
    """Makes servers in `folder` (each in an instance folder of its own); stops them all after."""
    made: list[ScorerServer] = []

    def make(options: tuple[str, ...] = (), **settings: str) -> ScorerServer:
        instance = folder / f"instance-{len(made)}"
        instance.mkdir()
        made.append(ScorerServer(instance, options, **settings))
        return made[-1]

    try:
        yield make
    finally:
        for server in made:
            server.stop()


@pytest.fixture
def scorer_server(tmp_path: Path) -> Iterator:
    """Makes `scorer serve` processes that last for the test."""
    with servers_in(tmp_path) as make:
        yield make


@pytest.fixture(scope="module")
def module_scorer_server(tmp_path_factory) -> Iterator:
    """Makes `scorer serve` processes that last for the test module."""
    with servers_in(tmp_path_factory.mktemp("servers")) as make:
        yield make


@pytest.fixture(name="free_port", scope="session")
def free_port_fixture():
    """A function giving a local port nobody listens on right now."""
    return free_port
