"""Database connection settings that every engine of the app needs, and the type of a session."""

import sqlite3
from typing import Any, TypeAlias

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, scoped_session

# What every function that reads or writes the database takes as its `session` argument.
# The app hands over `db.session`, a scoped_session: a proxy with the same methods as the
# Session of the current app context, but not a Session subclass. A script or a test may hand a
# plain Session. Annotate with DbSession, never with Session alone, and pass `db.session` itself
# (not `db.session()`). scoped_session is invariant in its session class, and db.session is
# scoped_session[flask_sqlalchemy.session.Session]: hence Any there, which no method relies on.
DbSession: TypeAlias = Session | scoped_session[Any]


def init_app(app: Flask) -> None:
    if not event.contains(Engine, "connect", _tune_sqlite):
        event.listen(Engine, "connect", _tune_sqlite)


def _tune_sqlite(dbapi_connection: object, _record: object) -> None:
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    # WAL lets phones read the scoreboard while another phone saves a hand; foreign keys are off in
    # SQLite unless asked for; the busy timeout makes a second writer wait instead of failing.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
