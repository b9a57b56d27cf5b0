"""Fixtures shared by every test: an app on each database, a client, a query counter.

Database tests run on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL too. Each test gets
an empty database built by the real migrations, which run once per test process (a pytest-xdist
worker is one): on SQLite each test gets a copy of a migrated template file, on PostgreSQL the
process's own migrated schema, emptied before each test. Schema names carry the process id and a
random part, so several workers and several test runs can share one server.
tests/data/test_migrations.py runs the migrations step by step on such a database.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.routing import Rule

from scorer import create_app, with_driver
from scorer.extensions import db

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
# The folders whose files take longest (real browsers and servers), run first. `make test` hands
# out whole files to the xdist workers in collection order (--no-loadscope-reorder): a long file
# handed out last would keep one worker busy while the other has nothing left to do.
SLOWEST_FIRST = ("browser", "deploy", "data")
BACKENDS = ["sqlite"] + (["postgresql"] if TEST_DATABASE_URL else [])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        folder = item.path.parent.name
        return SLOWEST_FIRST.index(folder) if folder in SLOWEST_FIRST else len(SLOWEST_FIRST)

    items.sort(key=rank)


class TemplatesCompiledOnce(BytecodeCache):
    """Jinja's compiled templates, kept for every app this test process makes.

    Each app has its own Jinja environment, which compiles again each template it renders: a sixth
    of the view tests' time. Jinja checks each entry against the template's source, so an edited
    template is compiled anew.
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = TemplatesCompiledOnce()


def compile_each_url_rule_once() -> None:
    """Werkzeug turns each URL rule into a Python function anew for every app it is added to:
    25 of the 30 ms it takes to make an app, which the tests do about 1,700 times. The function
    depends only on the rule and its defaults (it reaches the converters through the rule it is
    bound to), so one per process serves every app. `_compile_builder` is werkzeug's own, not
    its API: a release without it fails here, at import, rather than quietly.
    """
    compile_builder = Rule._compile_builder
    compiled: dict[tuple, Callable] = {}

    def once(rule: Rule, append_unknown: bool = True) -> Callable:
        defaults = repr(sorted((rule.defaults or {}).items()))
        key = (rule.rule, tuple(rule._trace), defaults, append_unknown)
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    Rule._compile_builder = once  # type: ignore[method-assign]


compile_each_url_rule_once()


def make_app(url: str, migrate: bool = True, **config) -> Flask:
    """The app as tests run it on the database at `url`, migrated first unless told it is."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test secret",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            # Not scrypt: a test has no password to protect, and scrypt is 0.1 s a hash.
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
            **config,
        }
    )
    app.jinja_env.bytecode_cache = TEMPLATES
    if migrate:
        with app.app_context():
            upgrade()
    return app


def close(app: Flask) -> None:
    """Give back every connection the app holds, so its database can be copied or emptied."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class SqliteTemplate:
    """A SQLite file migrated once; each test gets a copy, which takes a millisecond."""

    def __init__(self, folder: Path):
        self.path = folder / "template.sqlite"
        close(make_app(f"sqlite:///{self.path}"))

    def copy(self, path: Path) -> str:
        shutil.copyfile(self.path, path)
        return f"sqlite:///{path}"


class PostgresSchema:
    """A PostgreSQL schema migrated once and emptied for each test.

    Emptying deletes every row and restarts every id sequence in one round trip, without waiting
    for the disk (these rows are thrown away anyway): about 15 ms, where a TRUNCATE of the tables
    takes 100 to 300 ms and a new schema with every migration 250 ms. The rows the migrations
    write themselves (the rating clock's) are put back. A test that left the schema at another
    revision, as the migration tests can when they fail, gets it built again.
    """

    def __init__(self, label: str):
        assert TEST_DATABASE_URL
        server = with_driver(TEST_DATABASE_URL)
        self.name = f"test_{os.getpid()}_{label}_{uuid.uuid4().hex[:8]}"
        separator = "&" if "?" in server else "?"
        self.url = f"{server}{separator}options=-csearch_path%3D{self.name}"
        # A connection a test left inside a transaction would make DROP SCHEMA wait for ever.
        self.admin = sa.create_engine(
            server,
            isolation_level="AUTOCOMMIT",
            poolclass=sa.NullPool,
            connect_args={"options": "-c lock_timeout=10s"},
        )
        self.engine = sa.create_engine(self.url, pool_size=1)
        self._build()

    def _build(self) -> None:
        self.engine.dispose()
        with self.admin.connect() as connection:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{self.name}" CASCADE'))
            connection.execute(sa.text(f'CREATE SCHEMA "{self.name}"'))
        close(make_app(self.url))
        with self.engine.connect() as connection:
            self.state = self._state(connection)
            # Children first, so each DELETE leaves no row pointing at a deleted one.
            tables = [
                name
                for name, _keys in reversed(sa.inspect(connection).get_sorted_table_and_fkc_names())
                if name is not None and name != "alembic_version"
            ]
            query = "SELECT sequence_name FROM information_schema.sequences"
            sequences = connection.execute(
                sa.text(f"{query} WHERE sequence_schema = current_schema()")
            ).scalars()
            self.emptying = "; ".join(
                [f'DELETE FROM "{table}"' for table in tables]
                + [f'ALTER SEQUENCE "{sequence}" RESTART' for sequence in sequences]
            )
            self.seed = {
                table: [
                    dict(row._mapping)
                    for row in connection.execute(sa.text(f'SELECT * FROM "{table}"'))
                ]
                for table in tables
            }
        self.seed = {table: rows for table, rows in self.seed.items() if rows}

    @staticmethod
    def _state(connection: sa.Connection) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The revisions the schema is at, and its tables."""
        query = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        tables = tuple(sorted(connection.execute(sa.text(query)).scalars()))
        revisions: tuple[str, ...] = ()
        if "alembic_version" in tables:
            version = sa.text("SELECT version_num FROM alembic_version ORDER BY 1")
            revisions = tuple(connection.execute(version).scalars())
        return revisions, tables

    def empty(self) -> str:
        """Empty the schema (or build it again when a test changed it) and give its URL."""
        with self.engine.begin() as connection:
            if self._state(connection) == self.state:
                # A connection a test left inside a transaction would make this wait for ever.
                connection.exec_driver_sql("SET LOCAL lock_timeout = '10s'")
                connection.exec_driver_sql("SET LOCAL synchronous_commit = off")
                connection.exec_driver_sql(self.emptying)
                for table, rows in self.seed.items():
                    columns = [sa.column(name) for name in rows[0]]
                    connection.execute(sa.table(table, *columns).insert(), rows)
                return self.url
        self._build()
        return self.url

    def drop(self) -> None:
        self.engine.dispose()
        with self.admin.connect() as connection:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{self.name}" CASCADE'))


class Databases:
    """Empty, migrated databases for this test process: `fresh(backend, folder)` gives a URL.

    There are two of each kind (`second=True`), for the tests that move data between two servers.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self._sqlite: SqliteTemplate | None = None
        self._schemas: dict[bool, PostgresSchema] = {}

    def fresh(self, backend: str, folder: Path, second: bool = False) -> str:
        if backend == "postgresql":
            if second not in self._schemas:
                self._schemas[second] = PostgresSchema("other" if second else "main")
            return self._schemas[second].empty()
        if self._sqlite is None:
            self._sqlite = SqliteTemplate(self.folder)
        return self._sqlite.copy(folder / ("other.sqlite" if second else "scorer.sqlite"))

    def drop(self) -> None:
        for schema in self._schemas.values():
            schema.drop()


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
def app(backend: str, databases: Databases, tmp_path) -> Iterator[Flask]:
    """The app on an empty, migrated database; CSRF is off except where a test turns it on."""
    app = make_app(databases.fresh(backend, tmp_path), migrate=False)
    yield app
    close(app)


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
