"""The apps the tests run on, and the migrated databases under them (see tests/conftest.py).

A module of its own, not part of conftest.py: pytest imports conftest.py under one name and the test
modules that import from it under another, and the record of which databases are shared must be
one for both.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy.orm import Session

from scorer import create_app, with_driver
from scorer.extensions import db, rate_limiter
from scorer.services import snapshots

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")


# The id sequences of a PostgreSQL schema: the one the connection's search path names.
SEQUENCES = sa.text(
    "SELECT sequence_name FROM information_schema.sequences"
    " WHERE sequence_schema = current_schema()"
)
# The databases of the apps that tests share inside rolled-back transactions (see SharedApp).
SHARED_URLS: set[str] = set()


def make_app(url: str, migrate: bool = True, **config) -> Flask:
    """The app as tests run it on the database at `url`, migrated first unless told it is."""
    if with_driver(url) in SHARED_URLS:
        # Another app there would commit for real, outside the test's transaction, and what it
        # wrote would stay for every later test.
        raise RuntimeError("this database is shared: mark the test `fresh_database`")
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
    """A PostgreSQL schema migrated once, emptied for each test that gets a database of its own.

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
            sequences = connection.execute(SEQUENCES).scalars()
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


def savepoints_on_sqlite(engine: sa.Engine) -> None:
    """Make pysqlite begin a transaction when SQLAlchemy does, so SAVEPOINT nests inside it.

    pysqlite begins a transaction only before a write: a SAVEPOINT outside one starts the outermost
    transaction itself, and releasing it, as a service's commit does, would commit it for good.
    SQLAlchemy's recipe: turn the driver's own transaction handling off and emit BEGIN ourselves.
    """

    @sa.event.listens_for(engine, "connect")
    def _no_driver_transactions(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: sa.Connection) -> None:
        connection.exec_driver_sql("BEGIN")


class SharedApp:
    """One app on a migrated database, which test after test uses inside a rolled-back transaction.

    For each test (`rolled_back`) one connection begins a transaction, and the app's engine is
    replaced by that connection: Flask-SQLAlchemy's sessions take their bind from the app's engines,
    not from a bind of their own, and `join_transaction_mode="create_savepoint"` makes each of them
    work in a SAVEPOINT of that transaction. A commit releases the savepoint; the next session,
    on the same connection, sees what it wrote. At the end the transaction is rolled back.

    Rolled back are the rows, not PostgreSQL's id sequences, which no transaction holds: they are
    set back to where the migrations left them, so ids start at 1 in every test as on SQLite.
    """

    def __init__(self, url: str):
        self.app = make_app(url, migrate=False)
        with self.app.app_context():
            self.engine = db.engine
            self.engines = db.engines
        self.engine.dispose()
        if self.engine.dialect.name == "sqlite":
            savepoints_on_sqlite(self.engine)
        self.restart_sequences = self._sequences_as_they_are()
        SHARED_URLS.add(self.app.config["SQLALCHEMY_DATABASE_URI"])

    def _sequences_as_they_are(self) -> str | None:
        """One statement that sets every id sequence back to where it is now, or None."""
        if self.engine.dialect.name != "postgresql":
            return None
        with self.engine.connect() as connection:
            names = connection.execute(SEQUENCES).scalars()
            settings = []
            for name in names:
                last, called = connection.execute(
                    sa.text(f'SELECT last_value, is_called FROM "{name}"')
                ).one()
                settings.append(f"setval('\"{name}\"', {last}, {called})")
        return f"SELECT {', '.join(settings)}" if settings else None

    @contextmanager
    def rolled_back(self) -> Iterator[Flask]:
        """The app for one test: its writes rolled back, its settings and counters put back."""
        settings = self.app.config.copy()
        connection = self.engine.connect()
        transaction = connection.begin()
        if self.restart_sequences:
            connection.exec_driver_sql(self.restart_sequences)
        # Flask-SQLAlchemy offers no other way to bind the app's sessions to one connection.
        self.engines[None] = connection
        try:
            with self.app.app_context():
                # Counted per app in memory: one test's sign-ins must not use up the next one's.
                rate_limiter.reset()
            yield self.app
        finally:
            with self.app.app_context():
                # Kept by game id and version: the next test may make a game with the same id.
                snapshots.forget_all(db.session)
                db.session.remove()
            self.engines[None] = self.engine
            transaction.rollback()
            connection.close()
            self.app.config.clear()
            self.app.config.update(settings)

    def close(self) -> None:
        SHARED_URLS.discard(self.app.config["SQLALCHEMY_DATABASE_URI"])
        close(self.app)


class Databases:
    """Migrated databases for this test process.

    `shared(backend)` is the app the tests share inside rolled-back transactions (SharedApp);
    `fresh(backend, folder)` gives the URL of an empty database for a test of its own. There are
    two fresh ones of each kind (`second=True`), for the tests that move data between two servers.
    `seeded(seed)` gives the databases `seed` writes once, for the tests that only read them
    (Seeded).
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self._sqlite: SqliteTemplate | None = None
        self._schemas: dict[str, PostgresSchema] = {}
        self._shared: dict[str, SharedApp] = {}
        self._seeded: dict[Callable[[Session], None], Seeded] = {}

    def _schema(self, label: str) -> PostgresSchema:
        if label not in self._schemas:
            self._schemas[label] = PostgresSchema(label)
        return self._schemas[label]

    def _template(self) -> SqliteTemplate:
        if self._sqlite is None:
            self._sqlite = SqliteTemplate(self.folder)
        return self._sqlite

    def fresh(self, backend: str, folder: Path, second: bool = False) -> str:
        if backend == "postgresql":
            return self._schema("other" if second else "main").empty()
        return self._template().copy(folder / ("other.sqlite" if second else "scorer.sqlite"))

    def shared(self, backend: str) -> SharedApp:
        if backend not in self._shared:
            if backend == "postgresql":
                url = self._schema("shared").url
            else:
                url = self._template().copy(self.folder / "shared.sqlite")
            self._shared[backend] = SharedApp(url)
        return self._shared[backend]

    def seeded(self, seed: Callable[[Session], None]) -> Seeded:
        """The databases `seed` writes once, for tests that only read what it wrote (Seeded)."""
        if seed not in self._seeded:
            self._seeded[seed] = Seeded(self, f"seeded_{len(self._seeded)}", seed)
        return self._seeded[seed]

    def _seeded_url(self, backend: str, label: str) -> str:
        if backend == "postgresql":
            # A schema of its own: the fresh ones are emptied by any test marked fresh_database.
            return self._schema(label).empty()
        return self._template().copy(self.folder / f"{label}.sqlite")

    def drop(self) -> None:
        for shared in self._shared.values():
            shared.close()
        for seeded in self._seeded.values():
            seeded.close()
        for schema in self._schemas.values():
            schema.drop()


class Seeded:
    """What `seed` writes, written once per backend for every test that reads it.

    Data made through the services takes seconds to write and milliseconds to read: a test that
    only reads it is marked `seeded(by=seed)`, with the function that writes it, and gets as its
    `app` one shared app on that data (`on(backend)`), made the first time a test asks for it on
    that backend, and inside a rolled-back transaction like any shared app's: a test that wrote
    after all would leave nothing for the next.
    """

    def __init__(self, databases: Databases, label: str, seed: Callable[[Session], None]):
        self.databases = databases
        self.label = label
        self.seed = seed
        self.apps: dict[str, SharedApp] = {}

    def on(self, backend: str) -> SharedApp:
        if backend not in self.apps:
            url = self.databases._seeded_url(backend, self.label)
            app = make_app(url, migrate=False)
            try:
                with app.app_context():
                    self.seed(db.session)
            finally:
                # A seeding that failed must not leave a connection that would block the next try.
                close(app)
            self.apps[backend] = SharedApp(url)
        return self.apps[backend]

    def close(self) -> None:
        for shared in self.apps.values():
            shared.close()
