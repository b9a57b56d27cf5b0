"""`scorer serve --processes N`: gunicorn, a master process and N worker processes.

One Python process runs one thread at a time, so under load (200 phones) a save in one thread
holds up the polls of the others: a few requests in a hundred waited 100 to 200 ms in one process
of 8 threads, and 30 ms at most in two processes of 4 (BENCHMARKS.md, "Load"). waitress has no
processes of its own, and gunicorn is the well-kept server that has them; it needs fork, so
Windows keeps one waitress process.

Each process keeps its own replays (services/snapshots.py) and its own sign-in rate limit
(memory://), so with N processes an address may try to sign in N times as often.
"""

from __future__ import annotations

from flask import Flask
from gunicorn.app.base import BaseApplication

from .extensions import db


class _Gunicorn(BaseApplication):
    def __init__(self, app: Flask, settings: dict[str, object]) -> None:
        self.app = app
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.settings.items():
            self.cfg.set(name, value)

    # types-gunicorn types start_response without PEP 3333's exc_info argument and write()
    # result, so no WSGI app that follows the PEP (Flask included) matches its load().
    def load(self) -> Flask:  # type: ignore[override]
        return self.app


def serve_processes(
    app: Flask,
    host: str,
    port: int,
    processes: int,
    threads: int,
    connection_limit: int,
    idle_seconds: int,
) -> None:
    """Serve `app` from `processes` forked workers of `threads` threads each, until stopped."""
    # The migration opened connections in this process; forked workers must not share them.
    with app.app_context():
        db.engine.dispose()
    settings = {
        "bind": [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
        "workers": processes,
        "worker_class": "gthread",
        "threads": threads,
        # As waitress is told: phones keep a connection open between polls.
        "worker_connections": connection_limit,
        "keepalive": idle_seconds,
        # scorer/proxy.py decides which X-Forwarded-* headers to believe, as under waitress;
        # gunicorn would otherwise take X-Forwarded-Proto from 127.0.0.1 on its own.
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
        "accesslog": None,
        "errorlog": "-",
    }
    _Gunicorn(app, settings).run()
