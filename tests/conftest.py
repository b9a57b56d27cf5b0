"""Fixtures shared by every test: an app on each database, a client, a query counter.

Database tests run on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL too. Each test gets
its own empty database built by the real migrations: a fresh SQLite file, or a fresh PostgreSQL
schema, so several test runs can share one server.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorer import create_app, with_driver
from scorer.extensions import db

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if TEST_DATABASE_URL else [])
_schemas = itertools.count()


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A new schema on the PostgreSQL test server; yields a URL whose search_path is that schema."""
    assert TEST_DATABASE_URL
    url = with_driver(TEST_DATABASE_URL)
    schema = f"test_{os.getpid()}_{next(_schemas)}"
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with engine.connect() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@contextmanager
def database_url(backend: str, tmp_path) -> Iterator[str]:
    if backend == "postgresql":
        with postgres_schema() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'scorer.sqlite'}"


def make_app(url: str, **config) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test secret",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )
    with app.app_context():
        upgrade()
    return app


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
def app(backend: str, tmp_path) -> Iterator[Flask]:
    """The app on an empty, migrated database; CSRF is off except where a test turns it on."""
    with database_url(backend, tmp_path) as url:
        app = make_app(url)
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def session(app: Flask):
    """A database session inside an app context, for service tests."""
    with app.app_context():
        yield db.session


@pytest.fixture
def count_queries(app: Flask):
    """Counts the SQL statements run inside a `with count_queries() as counted:` block."""

    @contextmanager
    def counting() -> Iterator[list[str]]:
        statements: list[str] = []

        def record(_conn, _cursor, statement, *_args) -> None:
            statements.append(statement)

        with app.app_context():
            engine = db.engine
        sa.event.listen(engine, "before_cursor_execute", record)
        try:
            yield statements
        finally:
            sa.event.remove(engine, "before_cursor_execute", record)

    return counting
