"""Fixtures shared by every test: an app on each database, a client, a query counter.

Database tests run on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL too. The database is
built by the real migrations, which run once per test process (a pytest-xdist worker is one).

By default a test runs on one app per backend, made once per process, inside a transaction that
is rolled back when the test ends: the app's sessions all join one connection's transaction, each
in a SAVEPOINT of its own (SQLAlchemy's "joining a session into an external transaction"), so a
service's commit releases its savepoint and the next session sees what it wrote, and nothing
outlives the test. The app's settings are put back after each test, its rate-limit counts and its
kept replays emptied.

A module whose tests only read data that takes long to write writes it once per backend, on a
database of its own, and its tests read it each inside a rolled-back transaction: they are marked
`seeded` (tests/apps.py, Seeded).

A test that needs a real commit (several connections, threads or processes, another app on the
same database, a live server, the migrations) is marked `fresh_database`: it gets an app of its
own on an empty, migrated database, as every test once did. On SQLite that is a copy of a migrated
template file, on PostgreSQL the process's own migrated schema, emptied. Schema names carry the
process id and a random part, so several workers and several test runs can share one server.
tests/data/test_migrations.py runs the migrations step by step on such a database.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from apps import TEST_DATABASE_URL, Databases, close, make_app
from flask import Flask
from flask.testing import FlaskClient

from scorer.extensions import db

# Test modules import these from here.
__all__ = ["TEST_DATABASE_URL", "close", "make_app"]

# The folders whose files take longest (real browsers and servers), run first. `make test` hands
# out whole files to the xdist workers in collection order (--no-loadscope-reorder): a long file
# handed out last would keep one worker busy while the other has nothing left to do.
SLOWEST_FIRST = ("browser", "deploy", "data")
# What a session's transaction becomes inside a test's transaction (see SharedApp).
SAVEPOINT_STATEMENT = re.compile(r"(RELEASE |ROLLBACK TO )?SAVEPOINT ", re.IGNORECASE)
BACKENDS = ["sqlite"] + (["postgresql"] if TEST_DATABASE_URL else [])
# Fixtures that make a second app on the test's database, on a connection of its own (with CSRF
# on, or behind a proxy): it would commit outside the test's transaction, so a test using one gets
# a database of its own. A second app on another database (`other_app`, a second server) needs
# none: the roster's lock on PostgreSQL is each schema's own.
SECOND_APP_FIXTURES = frozenset({"guarded", "configured"})


def pytest_configure(config: pytest.Config) -> None:
    # Each session of the app joins a test's transaction in a SAVEPOINT of its own (SharedApp).
    db.session.session_factory.configure(join_transaction_mode="create_savepoint")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if SECOND_APP_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.fresh_database)
    # What does not depend on the database (the service worker, static files) runs once.
    once = [
        item
        for item in items
        if item.get_closest_marker("any_database") and _on(item) not in (None, "sqlite")
    ]
    if once:
        config.hook.pytest_deselected(items=once)
        items[:] = [item for item in items if item not in once]

    def rank(item: pytest.Item) -> int:
        folder = item.path.parent.name
        return SLOWEST_FIRST.index(folder) if folder in SLOWEST_FIRST else len(SLOWEST_FIRST)

    items.sort(key=rank)


def _on(item: pytest.Item) -> str | None:
    """The backend a test runs on, if it runs on one."""
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("backend") if callspec else None


@pytest.fixture(scope="session")
def databases(tmp_path_factory) -> Iterator[Databases]:
    """This test process's migrated template file and schemas (see Databases)."""
    found = Databases(tmp_path_factory.mktemp("migrated"))
    yield found
    found.drop()


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
def app(request, backend: str, databases: Databases, tmp_path) -> Iterator[Flask]:
    """The app on an empty, migrated database; CSRF is off except where a test turns it on.

    The app this process shares, inside a transaction rolled back after the test (SharedApp); a
    test marked `fresh_database` gets an app of its own on a database of its own instead, and one
    marked `seeded(by=seed)` the shared app on the data the function `seed` wrote once
    (tests/apps.py, Seeded).
    """
    if request.node.get_closest_marker("fresh_database"):
        app = make_app(databases.fresh(backend, tmp_path), migrate=False)
        yield app
        close(app)
        return
    seeded = request.node.get_closest_marker("seeded")
    if seeded:
        shared = databases.seeded(seeded.kwargs["by"]).on(backend)
    else:
        shared = databases.shared(backend)
    with shared.rolled_back() as app:
        yield app


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
            # Inside a test's transaction, a session's BEGIN and COMMIT are SAVEPOINT statements;
            # on its own connection they are no statement at all.
            if not SAVEPOINT_STATEMENT.match(statement):
                statements.append(statement)

        with app.app_context():
            # The test's connection, or the engine of an app of its own.
            engine = db.engine
        sa.event.listen(engine, "before_cursor_execute", record)
        try:
            yield statements
        finally:
            sa.event.remove(engine, "before_cursor_execute", record)

    return counting
